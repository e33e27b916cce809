"""The exact best-setting search of the three-row games: the best way to set 13 of 13 to 17 cards
under compiled rule tables (OFC's Fantasyland solver, and Chinese poker's best setting).

The search itself is compiled (handrank._threerow._kernel.solve_fantasyland): every 5- and 3-card subset of the
hand is evaluated once, then a branch and bound over bottom, middle and top visits only the
settings whose royalty bound can still beat the best found so far. It is exact: the answer is the
true optimum over every setting, with ties broken as `solve_fantasyland` documents.
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from handrank import _batch
from handrank._threerow import _kernel

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["SolutionArrays", "solve", "solver_threads", "check_distinct"]

# A solve takes about a millisecond, so a handful of hands already pays for another thread.
_MIN_HANDS_PER_THREAD = 8


class SolutionArrays(NamedTuple):
    """Results of `solve_fantasyland_batch`, one entry (or row) per hand."""

    boards: npt.NDArray[np.uint8]       # (N, 13) top, middle, bottom, each row ascending
    royalties: npt.NDArray[np.int32]    # (N,)
    stays: npt.NDArray[np.bool_]        # (N,)
    fouled: npt.NDArray[np.bool_]       # (N,)
    value: npt.NDArray[np.float64]      # (N,)
    discards: npt.NDArray[np.uint8]     # (N, n - 13), ascending


def solve(rule_tables: _kernel.RuleTables, hands: npt.NDArray[np.uint8], stay_value: float,
          threads: int | None) -> SolutionArrays:
    """The solver on checked hands (distinct ids, each row ascending) under compiled rules."""
    n, k = hands.shape
    boards = np.empty((n, 13), dtype=np.uint8)
    royalties = np.empty(n, dtype=np.int32)
    stays = np.empty(n, dtype=np.bool_)
    fouled = np.empty(n, dtype=np.bool_)
    value = np.empty(n, dtype=np.float64)
    kernel = partial(_solve_rows, rule_tables, stay_value)
    _batch.run(kernel, hands, (boards, royalties, stays, fouled, value), solver_threads(threads, n))
    return SolutionArrays(boards, royalties, stays, fouled, value, _discards(hands, boards))


def solver_threads(threads: int | None, n: int) -> int:
    """Threads for n solves: every core by default once each has a few hands to do."""
    if threads is None:
        threads = max(1, min(_batch.cpu_count(), n // _MIN_HANDS_PER_THREAD))
    return _batch.thread_count(threads, n)


def _solve_rows(tables: _kernel.RuleTables, stay_value: float, hands: npt.NDArray[np.uint8],
                boards: npt.NDArray[np.uint8], royalties: npt.NDArray[np.int32],
                stays: npt.NDArray[np.bool_], fouled: npt.NDArray[np.bool_],
                value: npt.NDArray[np.float64]) -> int:
    return int(_kernel.solve_fantasyland(tables, stay_value, hands, boards, royalties,
                                      stays.view(np.uint8), fouled.view(np.uint8), value))


def check_distinct(arr: npt.NDArray[np.uint8], ascending: npt.NDArray[np.uint8]) -> None:
    """ValueError naming the first row of `arr` that holds an id above 51 (card_array has checked
    every other dtype) or repeats a card; `ascending` is arr sorted along its rows."""
    bad = (np.diff(ascending.astype(np.int16), axis=1) == 0).any(axis=1) | (ascending[:, -1] > 51)
    if bad.any():
        raise _batch.row_error(arr, int(np.flatnonzero(bad)[0]))


def _discards(hands: npt.NDArray[np.uint8], boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The cards of each hand not on its board, ascending."""
    n, k = hands.shape
    held = np.zeros((n, 52), dtype=np.bool_)
    rows = np.arange(n)[:, None]
    held[rows, hands] = True
    held[rows, boards] = False
    return np.nonzero(held)[1].astype(np.uint8).reshape(n, k - 13)
