"""Rank names for describe(): "king", "kings", "K-7-4"."""
from __future__ import annotations

from collections.abc import Iterable

from handrank.cards import RANKS

_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
          "king", "ace")


def rank_name(rank: int) -> str:
    return _NAMES[rank]


def rank_plural(rank: int) -> str:
    return "sixes" if rank == 4 else _NAMES[rank] + "s"


def ranks_text(ranks: Iterable[int]) -> str:
    return "-".join(RANKS[r] for r in ranks)
