"""High hands of 5, 6 or 7 cards: value 1..7462, higher is better (7462 = royal flush)."""
from __future__ import annotations

from enum import IntEnum
from functools import partial
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from handrank import _batch, _evaluate, _partial
from handrank._values import checked
from handrank._names import rank_name, rank_plural, ranks_text

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Category", "evaluate", "evaluate_batch", "category", "describe", "count_all", "MAX_VALUE",
           "evaluate_partial", "describe_partial", "bring_in", "PARTIAL_MAX_VALUE"]

MAX_VALUE = 7462
"""The best value, a royal flush (values run 1..7462, higher is better)."""
PARTIAL_MAX_VALUE = 2379      # classes of 1 to 4 cards (evaluate_partial)
"""The best value of `evaluate_partial` (1..2379 over the classes of 1 to 4 cards)."""


class Category(IntEnum):
    """Hand categories of the high ladder, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    def __str__(self) -> str:
        return self.name.replace("_", " ").capitalize()


evaluate = _evaluate.high_evaluate
"""The value 1..7462 of the best 5-card high hand in 5, 6 or 7 cards: higher is better, 7462 = royal
flush, 1 = 7-5-4-3-2 offsuit. Compiled; a tuple or list of plain ints is read without the parser.
Positional only. ValueError for the wrong number of cards, a bad id, a repeated card or
unparsable text; TypeError for a non-hand."""


def evaluate_batch(cards: npt.ArrayLike, out: npt.NDArray[np.uint16] | None = None,
                   threads: int | None = None) -> npt.NDArray[np.uint16]:
    """Values of the hands in an (N, k) integer array, k in 5..7, as an (N,) uint16 array.

    The GIL is released; `threads` splits the rows over that many threads (default: every core
    for large N, one thread for small N). A bad row raises ValueError naming the row and card."""
    return _batch.evaluate(partial(_evaluate.batch, _evaluate.HIGH), cards, (5, 6, 7), out, threads,
                           "high.evaluate_batch", kernel_saves=True)


def count_all(k: int = 7) -> npt.NDArray[np.int64]:
    """How many k-card hands (k in 5..7) have each value: index = value, length 7463.

    Enumerates all C(52, k) hands with incremental keys (133,784,560 for k = 7)."""
    return _evaluate.high_count_all(check_count_size(k))


def check_count_size(k: object) -> int:
    """k as count_all takes it (also handrank.dask.count_all)."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"count_all takes an int k, not {type(k).__name__}")
    if k not in (5, 6, 7):
        raise ValueError(f"count_all takes k in 5..7, got {k!r}")
    return int(k)


def _checked(value: object) -> int:
    return checked(value, MAX_VALUE, "a high value")


def category(value: int) -> Category:
    """The category of a value: ``category(7462) is Category.STRAIGHT_FLUSH``."""
    return Category(_evaluate.high_class(_checked(value))[0])


def describe(value: int) -> str:
    """Plain words for a value: "Full house, kings full of sevens", "Royal flush"."""
    cat, ranks = _evaluate.high_class(_checked(value))
    return describe_class(Category(cat), ranks)


def describe_class(cat: Category, ranks: tuple[int, ...]) -> str:
    """Words for a 5-card class on the high ladder (shared with the lowball modules)."""
    if cat == Category.STRAIGHT_FLUSH:
        return "Royal flush" if ranks[0] == 12 else f"Straight flush, {rank_name(ranks[0])} high"
    if cat == Category.FOUR_OF_A_KIND:
        return f"Four of a kind, {rank_plural(ranks[0])}, {rank_name(ranks[1])} kicker"
    if cat == Category.FULL_HOUSE:
        return f"Full house, {rank_plural(ranks[0])} full of {rank_plural(ranks[1])}"
    if cat == Category.FLUSH:
        return f"Flush, {rank_name(ranks[0])} high ({ranks_text(ranks)})"
    if cat == Category.STRAIGHT:
        return f"Straight, {rank_name(ranks[0])} high"
    if cat == Category.THREE_OF_A_KIND:
        return f"Three of a kind, {rank_plural(ranks[0])} ({ranks_text(ranks[1:])} kickers)"
    if cat == Category.TWO_PAIR:
        return f"Two pair, {rank_plural(ranks[0])} and {rank_plural(ranks[1])}, {rank_name(ranks[2])} kicker"
    if cat == Category.PAIR:
        return f"Pair of {rank_plural(ranks[0])} ({ranks_text(ranks[1:])} kickers)"
    return f"{rank_name(ranks[0]).capitalize()} high ({ranks_text(ranks)})"


def evaluate_partial(hand: str | Iterable[str | int]) -> int:
    """Value of a 1- to 4-card high hand (stud's up cards), higher is better: quads > trips > two
    pair > pair > high card, compared as the 5-card order would with the missing cards the worst
    kickers (no straights or flushes). Dense over every 1- to 4-card class, 1..PARTIAL_MAX_VALUE."""
    return _partial.evaluate(hand, low=False)


def describe_partial(value: int) -> str:
    """Words for an evaluate_partial value: "Pair of aces (A-A-K)"."""
    return _partial.describe(value, low=False)


def bring_in(up_cards: str | Iterable[str | int]) -> int:
    """Seven-card stud high: the index of the player who brings it in, from one up card per
    player: the lowest card by rank (ace high), ties broken by suit (clubs, diamonds, hearts,
    spades, lowest first)."""
    return _partial.bring_in(up_cards, low=False)
