"""Rows of Open-Face Chinese poker and Chinese poker: 3-card and 5-card hands on one scale.

A row value is 1..7917 and interleaves the 455 three-card classes with the 7462 five-card
classes the way RULES.md compares a top row with the row below it: category on the 5-card ladder
first, then the ranks in order, a missing kicker lower than any card. So whether a setting fouls
is one integer comparison, ``value(top) > value(middle)``, and a 3-card hand never ties a
5-card hand: QQ5 sits above every QQ4xx and below every QQ5xx.
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from handrank import _batch, _evaluate, high, high3
from handrank._values import checked

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["value", "value_batch", "from_high", "from_high3", "MAX_VALUE"]

MAX_VALUE: int = _evaluate.ROW_MAX
"""The best row value (values run 1..7917: 455 three-card and 7462 five-card classes)."""

value = _evaluate.row_evaluate
"""The value 1..7917 of a 3- or 5-card row on the scale that interleaves the 455 three-card classes
with the 7462 five-card classes: ``value(top) > value(middle)`` means the setting fouls.
ValueError unless 3 or 5 valid distinct cards; TypeError for a non-hand."""


def value_batch(cards: npt.ArrayLike, out: npt.NDArray[np.uint16] | None = None,
                threads: int | None = None) -> npt.NDArray[np.uint16]:
    """Row values of an (N, 3) or (N, 5) integer array as an (N,) uint16 array (GIL released)."""
    return _batch.evaluate(partial(_evaluate.batch, _evaluate.ROW), cards, (3, 5), out, threads,
                           "rows.value_batch", kernel_saves=True)


def from_high(high_value: int) -> int:
    """The row value of a 5-card hand from its high value (1..7462)."""
    return int(_evaluate.row_of_high(checked(high_value, high.MAX_VALUE, "a high value")))


def from_high3(high3_value: int) -> int:
    """The row value of a 3-card hand from its high3 value (1..455)."""
    return int(_evaluate.row_of_high3(checked(high3_value, high3.MAX_VALUE, "a 3-card value")))
