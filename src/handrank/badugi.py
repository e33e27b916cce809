"""Badugi: 4 cards; the hand is the largest subset of cards with distinct suits and distinct ranks
(a 4-card badugi beats any 3-card hand, and so on), then the lowest: the highest card of the
subset is compared first (lower is better), then the next. Suits never break ties.

`ace_low=True` (the default): badugi, the ace the lowest rank (A-2-3-4 of four suits is the best
hand). `ace_low=False`: the 2-7 ordering of badeucy's badugi half, the ace the highest rank and the
deuce the lowest (2-3-4-5 is the best hand).

Values are dense, higher is better: 1 (a lone king, or a lone ace with ace_low=False) ..
MAX_VALUE = 1092 (the best 4-card badugi).
"""
from __future__ import annotations

from functools import partial
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from handrank import _badugi, _batch
from handrank._names import rank_name
from handrank._values import checked
from handrank.cards import RANKS, cards as parse_hand

if TYPE_CHECKING:
    from collections.abc import Iterable

    import numpy.typing as npt

__all__ = ["evaluate", "evaluate_batch", "describe", "size", "MAX_VALUE"]

MAX_VALUE: int = _badugi.MAX_VALUE
# Sets of each size (1 to 4 ranks out of 13) and the values below them
_SETS = (13, 78, 286, 715)
_BELOW = (0, 13, 91, 377)


def _check_ace_low(ace_low: object) -> bool:
    if not isinstance(ace_low, bool):
        raise TypeError(f"ace_low must be a bool, not {type(ace_low).__name__}")
    return ace_low


def evaluate(hand: str | Iterable[str | int], *, ace_low: bool = True) -> int:
    """Value 1..1092 of a 4-card badugi hand (higher is better).

    >>> evaluate("Ac 2d 3h 4s")
    1092
    """
    ids = parse_hand(hand)
    if len(ids) != 4:
        raise ValueError(f"a badugi hand has 4 cards, got {len(ids)}")
    return int(_badugi.evaluate_ids(_check_ace_low(ace_low), np.array(ids, dtype=np.uint8)))


def evaluate_batch(cards: npt.ArrayLike, *, ace_low: bool = True,
                   out: npt.NDArray[np.uint16] | None = None,
                   threads: int | None = None) -> npt.NDArray[np.uint16]:
    """Values of the hands in an (N, 4) integer array as an (N,) uint16 array; the GIL is
    released, `threads` splits the rows, a bad row raises ValueError naming it."""
    kernel = partial(_badugi.batch, _check_ace_low(ace_low))
    return _batch.evaluate(kernel, cards, (4,), out, threads, "badugi.evaluate_batch", kernel_saves=True)


def _ranks(value: object, ace_low: bool) -> list[int]:
    """The ranks (0 = deuce .. 12 = ace) of a value's hand, highest first in its ordering."""
    value = checked(value, MAX_VALUE, "a badugi value")
    count = max(k for k in range(1, 5) if value > _BELOW[k - 1])
    # the value counts down the colex ranks of the sets of `count` positions
    rank = _BELOW[count - 1] + _SETS[count - 1] - value
    positions = []
    for k in range(count, 0, -1):           # largest position first (the combinatorial number system)
        p = k - 1
        while comb(p + 1, k) <= rank:
            p += 1
        positions.append(p)
        rank -= comb(p, k)
    return [(p - 1) % 13 if ace_low else p for p in positions]


def size(value: int, *, ace_low: bool = True) -> int:
    """How many cards play: 4 for a badugi, 3, 2 or 1."""
    return len(_ranks(value, _check_ace_low(ace_low)))


def describe(value: int, *, ace_low: bool = True) -> str:
    """Plain words: "Badugi, four high (4-3-2-A)", "Three-card hand, eight high (8-5-2)"."""
    ranks = _ranks(value, _check_ace_low(ace_low))
    text = "-".join(RANKS[r] for r in ranks)
    kind = {4: "Badugi", 3: "Three-card hand", 2: "Two-card hand", 1: "One-card hand"}[len(ranks)]
    return f"{kind}, {rank_name(ranks[0])} high ({text})"
