"""The "ev" objective of Chinese poker: expected points against one opponent who plays well.

The opponent is modelled by its rows: 20,000 fixed-seed random hands, each set by the exact
royalty solver (most royalty units, then the strongest rows), give the distribution of the
opponent's row value in each position. From it, for every row value of ours: the chance to win and
to lose that row, and the royalty the opponent collects when it wins it. Rows are taken as
independent and card removal is ignored: the objective is an estimate of the expectation.

The sample takes a few seconds to solve, so it is built once per royalty table and kept both in
memory and as a small file in the user's cache directory (``HANDRANK_CACHE_DIR`` chooses another;
an unwritable directory only means it is rebuilt next time, and a damaged or invalid file is
rebuilt and replaced).

Under one_royalty (a hand keeps only its largest royalty) the opponents are set for their largest
royalty and keep only it, and our royalties leave the separable tables: the search adds what we
expect of the one we keep (`own_royalty`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from handrank import high, high3, low27, rows
from handrank._cache import cache_dir, read_array, save_array as _save
from handrank._threerow import _kernel
from handrank.chinese.one_royalty import most_royalty
from handrank.chinese.rules import Rules, as_rules, royalty_tables, row_order, row_values, solver_tables
from handrank._threerow.solver import solve
from handrank.cards import random_hands

if TYPE_CHECKING:
    from pathlib import Path

    import numpy.typing as npt

__all__ = ["RowTables", "row_tables", "ev_tables", "OPPONENTS"]

OPPONENTS = 20_000
SEED = 13_2026
_FORMAT = 1      # bump when the sample or its file changes


@dataclass(frozen=True)
class RowTables:
    """Per row (index 0 top, 1 middle, 2 bottom) and per row value (the handrank.rows scale,
    index = value; a low middle's 2-7 value under low_middle): the chance that our row beats the opponent's (``win``), loses to it
    (``lose``), and the royalty units the opponent's row collects when it is above ours
    (``beaten_royalty``); ``mean_royalty`` per row; ``opponents``: the sample size."""

    win: npt.NDArray[np.float64]              # (3, rows.MAX_VALUE + 1)
    lose: npt.NDArray[np.float64]
    beaten_royalty: npt.NDArray[np.float64]
    mean_royalty: npt.NDArray[np.float64]     # (3,)
    opponents: int


def row_tables(rules: Rules | str | None = None) -> RowTables:
    """The opponent model of `rules` (it depends on the royalty tables, the order of straights and
    low_middle only; row values on the rules' scales, `chinese.rules.row_values`: with low_middle
    the middle's are 2-7 values)."""
    return _row_tables(_royalty_key(as_rules(rules)))


@lru_cache(maxsize=16)
def ev_tables(rules: Rules) -> tuple[npt.NDArray[np.float64], ...]:
    """(base, win, lose) for the compiled search, contiguous: base is each row's separable part
    of the expectation, row points plus royalties, by row value. Built once per ruleset. With
    one_royalty our royalties are left out of base (`own_royalty`: only the largest is kept)."""
    t = row_tables(rules)
    mine = np.zeros((3, rows.MAX_VALUE + 1)) if rules.one_royalty else _royalty_by_row(rules)
    if rules.royalties_to_winner:
        royalty = mine * t.win - t.beaten_royalty
    else:
        royalty = mine - t.mean_royalty[:, None]
    return tuple(np.ascontiguousarray(table) for table in (t.win - t.lose + royalty, t.win, t.lose))


@lru_cache(maxsize=16)
def own_royalty(rules: Rules) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(ours, expected): per row and row value our royalty units, and what we expect of them
    (to the winner: the units times the chance to win the row; else the units)."""
    mine = np.ascontiguousarray(_royalty_by_row(rules))
    return mine, np.ascontiguousarray(mine * row_tables(rules).win if rules.royalties_to_winner else mine)


# ---------------------------------------------------------------------- building
def _royalty_key(rules: Rules) -> Rules:
    # the sample depends on the royalty tables alone: share it between scorings
    return Rules(top_royalties=rules.top_royalties, middle_royalties=rules.middle_royalties,
                 bottom_royalties=rules.bottom_royalties, wheel_second=rules.wheel_second,
                 one_royalty=rules.one_royalty, low_middle=rules.low_middle,
                 middle_low_royalties=rules.middle_low_royalties)


@lru_cache(maxsize=8)
def _row_tables(rules: Rules) -> RowTables:
    path = _cache_file(rules)
    counts = _load(path)
    if counts is None:
        counts = _sample(rules)
        _save(path, counts)
    hist, royalty_mass = counts[:3] / OPPONENTS, counts[3:] / OPPONENTS
    below_or_equal = np.cumsum(hist, axis=1)
    return RowTables(win=below_or_equal - hist, lose=1.0 - below_or_equal,
                     beaten_royalty=royalty_mass.sum(axis=1, keepdims=True) - np.cumsum(royalty_mass, axis=1),
                     mean_royalty=royalty_mass.sum(axis=1), opponents=OPPONENTS)


def _sample(rules: Rules) -> npt.NDArray[np.float64]:
    """(6, rows.MAX_VALUE + 1): per row, how many sampled opponents set each row value, then the
    royalty units those rows collected."""
    hands = np.sort(random_hands(OPPONENTS, 13, seed=SEED), axis=1)
    # set as the "royalties" objective sets them (under one_royalty: for the largest royalty)
    boards = (most_royalty(hands, rules, None)[0] if rules.one_royalty
              else solve(solver_tables(rules), hands, 0.0, None).boards)
    top, middle, bottom = boards[:, :3], boards[:, 3:8], boards[:, 8:]
    royalty_top, royalty_middle, royalty_bottom = royalty_tables(rules)
    middle_value = low27.evaluate_batch(middle) if rules.low_middle else high.evaluate_batch(middle)
    royalties = np.stack([royalty_top[high3.evaluate_batch(top)], royalty_middle[middle_value],
                          royalty_bottom[high.evaluate_batch(bottom)]])
    if rules.one_royalty:       # the opponent collects only its largest (of equals the lowest row's)
        kept = 2 - np.argmax(royalties[::-1], axis=0)
        royalties = np.where(np.arange(3)[:, None] == kept, royalties, 0)
    size = rows.MAX_VALUE + 1
    counts = np.zeros((6, size))
    for r, values in enumerate(row_values(boards, rules).T):
        counts[r] = np.bincount(values, minlength=size)
        counts[3 + r] = np.bincount(values, weights=royalties[r], minlength=size)
    return counts


def _royalty_by_row(rules: Rules) -> npt.NDArray[np.float64]:
    """Our royalty units by row value, per row."""
    row_of_high, row_of_high3 = _kernel.row_scale()
    top, middle, bottom = royalty_tables(rules)
    out = np.zeros((3, rows.MAX_VALUE + 1))
    order = row_order(rules)
    out[0, order[row_of_high3[1:]]] = top[1:]
    if rules.low_middle:
        out[1, :len(middle)] = middle           # a 2-7 middle's row value is its 2-7 value
    else:
        out[1, order[row_of_high[1:]]] = middle[1:]
    out[2, order[row_of_high[1:]]] = bottom[1:]
    return out


# ---------------------------------------------------------------------- the file cache
def _cache_file(rules: Rules) -> Path:
    import hashlib

    spec = repr((_FORMAT, OPPONENTS, SEED, rules.top_royalties, rules.middle_royalties,
                 rules.bottom_royalties) + (("wheel second",) if rules.wheel_second else ())
                + (("one royalty",) if rules.one_royalty else ())
                + (("low middle", rules.middle_low_royalties) if rules.low_middle else ())).encode()
    return cache_dir() / f"chinese-rows-{hashlib.sha256(spec).hexdigest()[:16]}.npy"


def _load(path: Path) -> npt.NDArray[np.float64] | None:
    """The counts kept at `path`, or None when the file is missing, unreadable, not a regular
    file or not a whole, valid sample (then it is rebuilt and replaced)."""
    counts = read_array(path)
    return counts if _valid(counts) else None


def _valid(counts: object) -> bool:
    """Whether `counts` is what _sample returns: per row a histogram of OPPONENTS rows (whole
    counts), then the royalty units of those rows (finite, >= 0, and none where no row is)."""
    if not (isinstance(counts, np.ndarray) and counts.dtype == np.float64
            and counts.shape == (6, rows.MAX_VALUE + 1)):
        return False
    hist, royalty = counts[:3], counts[3:]
    return bool(np.isfinite(counts).all() and (counts >= 0).all() and (hist == np.round(hist)).all()
                and (hist.sum(axis=1) == OPPONENTS).all() and (royalty[hist == 0] == 0).all())
