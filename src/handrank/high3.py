"""3-card high hands, the top row of OFC and Chinese poker: value 1..455, higher is better.

Only high card, pair and three of a kind count: no straights, no flushes."""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from handrank import _batch, _evaluate
from handrank._values import checked
from handrank._names import rank_name, rank_plural, ranks_text
from handrank.high import Category

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Category", "evaluate", "evaluate_batch", "category", "describe", "MAX_VALUE"]

MAX_VALUE = 455
"""The best 3-card value, A-A-A (values run 1..455)."""

evaluate = _evaluate.high3_evaluate
"""The value 1..455 of a 3-card hand: high card, pair or three of a kind only (no straights or
flushes); 1 = 4-3-2, 455 = A-A-A. ValueError unless exactly 3 valid distinct cards; TypeError for
a non-hand."""


def evaluate_batch(cards: npt.ArrayLike, out: npt.NDArray[np.uint16] | None = None,
                   threads: int | None = None) -> npt.NDArray[np.uint16]:
    """Values of the hands in an (N, 3) integer array as an (N,) uint16 array (GIL released)."""
    return _batch.evaluate(partial(_evaluate.batch, _evaluate.HIGH3), cards, (3,), out, threads,
                           "high3.evaluate_batch", kernel_saves=True)


def _class(value: object) -> tuple[int, tuple[int, ...]]:
    return _evaluate.high3_class(checked(value, MAX_VALUE, "a 3-card value"))


def category(value: int) -> Category:
    """HIGH_CARD, PAIR or THREE_OF_A_KIND."""
    return Category(_class(value)[0])


def describe(value: int) -> str:
    """Plain words: "Three of a kind, queens", "Pair of queens (5 kicker)", "Ace high (A-K-J)"."""
    cat, ranks = _class(value)
    if cat == Category.THREE_OF_A_KIND:
        return f"Three of a kind, {rank_plural(ranks[0])}"
    if cat == Category.PAIR:
        return f"Pair of {rank_plural(ranks[0])} ({ranks_text(ranks[1:])} kicker)"
    return f"{rank_name(ranks[0]).capitalize()} high ({ranks_text(ranks)})"
