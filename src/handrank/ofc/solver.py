"""The exact Fantasyland solver of OFC: the best way to set 13 of 13 to 17 cards, for one hand or an
(N, n) array; the search itself is the shared one of handrank._threerow.solver."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from handrank import _batch
from handrank._threerow.board import Board
from handrank._threerow.solver import SolutionArrays, check_distinct, solve
from handrank._threerow.thresholds import MAX_CARDS, MIN_CARDS
from handrank.cards import cards as parse_cards
from handrank.ofc.rules import Rules, as_rules, tables

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy.typing as npt

__all__ = ["Solution", "SolutionArrays", "solve_fantasyland", "solve_fantasyland_batch"]

# The largest |stay_value|: royalty totals and every stay value up to it add exactly in doubles,
# so the answer is the exact optimum; beyond it a stay outweighs any royalty difference anyway.
MAX_STAY_VALUE = 2 ** 40


@dataclass(frozen=True)
class Solution:
    """The best setting of a Fantasyland hand."""

    board: Board
    royalties: int                 # total of the three rows
    stays: bool                    # the setting meets a stay condition of the rules
    discards: tuple[int, ...]      # the cards left out, ascending
    fouled: bool                   # no valid setting exists (the board is then a fixed fallback)
    value: float                   # royalties + stay_value if it stays; 0.0 when fouled


def solve_fantasyland(cards: str | Sequence[int | str], rules: Rules | str | None = None,
                      stay_value: float = 0.0) -> Solution:
    """The exact best setting of 13 to 17 Fantasyland cards: choose 13 and set them in three
    rows to maximize total royalties plus `stay_value` when the setting stays in Fantasyland.

    `stay_value` is any int or float in ``-2**40 .. 2**40`` (ValueError outside, or not finite;
    TypeError for a non-number); the setting chosen is then the exact optimum for that value,
    fractions included, and ``value`` is royalties + stay_value rounded once to a float.

    A fouled setting is returned only when no valid one exists. Ties go to the strongest bottom,
    then the strongest middle, then the strongest top, then the lowest cards (bottom, middle,
    top, each compared as ascending ids). With no valid setting the board holds the five highest
    cards at the bottom, the next five in the middle and the next three on top."""
    ids = parse_cards(cards)
    if not MIN_CARDS <= len(ids) <= MAX_CARDS:
        raise ValueError(f"a Fantasyland hand has {MIN_CARDS} to {MAX_CARDS} cards, got {len(ids)}")
    result = solve_fantasyland_batch(np.array([ids], dtype=np.uint8), rules, stay_value, threads=1)
    top, middle, bottom = (tuple(result.boards[0, a:b].tolist()) for a, b in ((0, 3), (3, 8), (8, 13)))
    return Solution(Board(top, middle, bottom), int(result.royalties[0]), bool(result.stays[0]),
                    tuple(result.discards[0].tolist()), bool(result.fouled[0]),
                    float(result.value[0]))


def solve_fantasyland_batch(cards: npt.ArrayLike, rules: Rules | str | None = None,
                            stay_value: float = 0.0, threads: int | None = None) -> SolutionArrays:
    """`solve_fantasyland` for every row of an (N, n) integer array, n in 13..17, without the GIL;
    `threads` splits the rows over that many threads (default: every core)."""
    arr = _batch.card_array(cards, range(MIN_CARDS, MAX_CARDS + 1), "ofc.solve_fantasyland_batch")
    stay_value = _check_stay_value(stay_value)
    hands = np.sort(arr, axis=1)
    check_distinct(arr, hands)
    result = solve(tables(as_rules(rules)), hands, _search_stay_value(stay_value), threads)
    result.value[:] = np.where(result.fouled, 0.0, result.royalties + np.where(result.stays, stay_value, 0.0))
    return result


def _check_stay_value(stay_value: object) -> float:
    if isinstance(stay_value, bool) or not isinstance(stay_value, (int, float, np.integer, np.floating)):
        raise TypeError(f"stay_value must be a number, not {type(stay_value).__name__}")
    # (compared before any float conversion: a huge int must not overflow, nan fails the test)
    if not -MAX_STAY_VALUE <= stay_value <= MAX_STAY_VALUE:
        raise ValueError(f"stay_value must be a finite number in -2**40 .. 2**40, got {stay_value!r}")
    return float(stay_value)


def _search_stay_value(stay_value: float) -> float:
    """The stay value the compiled search compares with: `stay_value` itself when it is a whole
    number, else the middle of the two whole numbers around it. Royalties are whole numbers, so
    both rank every pair of settings alike (a staying setting against another by royalties, one
    against a non-staying one by whether stay_value is above the royalty difference), and the
    middle adds exactly to any royalty in double arithmetic, where a value such as 2 - 2**-52
    would round 10 + stay_value up to 12 and tie a setting it loses to."""
    return stay_value if stay_value.is_integer() else math.floor(stay_value) + 0.5
