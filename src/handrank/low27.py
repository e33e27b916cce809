"""2-7 ("deuce to seven") lowball, 5 cards: value 1..7462, higher is the better low.

The worst high hand wins: aces are always high, straights and flushes count against you, and
A-2-3-4-5 is no straight but an ace-high hand. 7462 = 7-5-4-3-2 offsuit, 1 = A-K-Q-J-T suited."""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from handrank import _batch, _evaluate
from handrank._values import checked
from handrank._names import rank_name, ranks_text
from handrank.high import Category, describe_class

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Category", "evaluate", "evaluate_batch", "category", "describe", "MAX_VALUE"]

MAX_VALUE = 7462
"""The best 2-7 low, 7-5-4-3-2 offsuit (values run 1..7462)."""

evaluate = _evaluate.low27_evaluate
"""The 2-7 lowball value 1..7462 of exactly 5 cards; higher is the better low (7462 = 7-5-4-3-2
offsuit, 1 = A-K-Q-J-T suited). Aces are high; straights and flushes count; A-2-3-4-5 is an
ace-high hand, not a straight. ValueError unless exactly 5 valid distinct cards; TypeError for a
non-hand."""


def evaluate_batch(cards: npt.ArrayLike, out: npt.NDArray[np.uint16] | None = None,
                   threads: int | None = None) -> npt.NDArray[np.uint16]:
    """Values of the hands in an (N, 5) integer array as an (N,) uint16 array (GIL released)."""
    return _batch.evaluate(partial(_evaluate.batch, _evaluate.LOW27), cards, (5,), out, threads,
                           "low27.evaluate_batch", kernel_saves=True)


def _class(value: object) -> tuple[int, tuple[int, ...]]:
    return _evaluate.low27_class(checked(value, MAX_VALUE, "a 2-7 value"))


def category(value: int) -> Category:
    """The hand's category as a poker hand (HIGH_CARD for every unpaired low).

    In lowball the enum's order is not the order of strength: compare values, not categories."""
    return Category(_class(value)[0])


def describe(value: int) -> str:
    """The way players say it: "Seven-five low (7-5-4-3-2)", "Pair of kings", "Straight, six high"."""
    cat, ranks = _class(value)
    if cat == Category.HIGH_CARD:
        return f"{rank_name(ranks[0]).capitalize()}-{rank_name(ranks[1])} low ({ranks_text(ranks)})"
    return describe_class(Category(cat), ranks)
