"""The best setting for the most royalty units under ``one_royalty`` rules (a hand collects only
its largest row royalty), with the compiled solver that adds the rows' royalties.

Run once per row with the other two rows' royalty tables emptied, the solver finds the setting
whose royalty in that row alone is the largest a valid setting reaches (ties to the strongest
bottom, middle, top, then the lowest cards). Let V be the largest of the three runs' values: a
setting collects V exactly when V is its royalty in some row (no row of any valid setting pays
more), so the settings that collect V are those of the runs worth V, and the best of them under
the same tie rule is the best of those runs' answers. Three exact searches (about a millisecond
each) instead of a visit of every valid setting.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from handrank.chinese.rules import Rules, row_values, solver_tables
from handrank._threerow.solver import solve

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["most_royalty"]

_TABLES = ("top_royalties", "middle_royalties", "bottom_royalties")


def most_royalty(hands: npt.NDArray[np.uint8], rules: Rules,
                 threads: int | None) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
    """(boards (N, 13), value (N,)): the best valid setting of each row of checked hands (13
    distinct ascending ids) for its largest row royalty, and that royalty."""
    runs = [solve(solver_tables(_row_alone(rules, k)), hands, 0.0, threads) for k in range(3)]
    value = np.max([run.value for run in runs], axis=0)
    boards = runs[0].boards.copy()
    key = _tie_key(boards, rules)
    chosen = runs[0].value == value
    for run in runs[1:]:
        worth = run.value == value
        candidate = _tie_key(run.boards, rules)
        take = worth & (~chosen | _greater(candidate, key))
        boards[take], key[take] = run.boards[take], candidate[take]
        chosen |= worth
    return boards, value


def _row_alone(rules: Rules, row: int) -> Rules:
    """The rules with every royalty table but that of `row` (0 top, 1 middle, 2 bottom) empty."""
    empty = {name: () for k, name in enumerate(_TABLES) if k != row}
    if row != 1 and rules.low_middle:
        empty["middle_low_royalties"] = ()
    return rules.replace(**empty, one_royalty=False)


def _tie_key(boards: npt.NDArray[np.uint8], rules: Rules) -> npt.NDArray[np.int32]:
    """Per board, a vector whose lexicographic order is the solver's tie rule: the row values
    (bottom, middle, top, on the rules' scales: `chinese.rules.row_values`), then the cards
    negated (bottom, middle, top; each row ascending), the lowest cards best."""
    values = row_values(boards, rules)[:, ::-1]
    return np.concatenate([values.astype(np.int32),
                           -boards[:, 8:].astype(np.int32), -boards[:, 3:8].astype(np.int32),
                           -boards[:, :3].astype(np.int32)], axis=1)


def _greater(a: npt.NDArray[np.int32], b: npt.NDArray[np.int32]) -> npt.NDArray[np.bool_]:
    """Row by row, whether a is lexicographically greater than b."""
    differs = a != b
    first = np.argmax(differs, axis=1)
    at = np.arange(len(a))
    greater: npt.NDArray[np.bool_] = differs.any(axis=1) & (a[at, first] > b[at, first])
    return greater
