"""Setting 13 cards in Chinese poker: every valid setting, and the best one for an objective.

- ``"royalties"`` runs the exact branch-and-bound solver that OFC's Fantasyland uses
  (handrank._threerow._kernel), with this game's royalty tables and no Fantasyland (under
  one_royalty once per row: handrank.chinese.one_royalty);
- ``"ev"`` visits every valid setting in compiled code with per-row tables (handrank.chinese.ev);
  the rules that compiled search does not know (a 2-7 middle, mis-set hands played, a 2-4 scoop
  bonus) score the array of every candidate setting in numpy with the same tables;
- a callable objective scores the array of every valid setting's row values.
With ``mis_set_played`` the candidates of "ev" and of a callable are every split, mis-set ones
included (they are played); "royalties" keeps to the valid ones (a mis-set hand collects none).
All three break ties the same way: the stronger bottom, middle, top, then the lowest cards.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, NamedTuple, Union

import numpy as np

from handrank import _batch, low27, rows
from handrank._threerow import _kernel
from handrank.chinese.ev import _royalty_by_row, ev_tables, own_royalty, row_tables
from handrank.chinese.naturals import thirteen_cards
from handrank.chinese.one_royalty import most_royalty
from handrank.chinese.rules import Rules, as_rules, breaks_order, row_order, solver_tables
from handrank._threerow.board import Board
from handrank._threerow.solver import check_distinct, solve, solver_threads

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["BestSetting", "BestSettingArrays", "settings", "best_setting", "best_setting_batch",
           "OBJECTIVES"]

OBJECTIVES = ("royalties", "ev")
Objective = Union[str, Callable[[np.ndarray], np.ndarray]]


@dataclass(frozen=True)
class BestSetting:
    """The best setting found: the board and the objective's value for it."""

    board: Board
    value: float

    @property
    def top(self) -> tuple[int, ...]:
        return self.board.top

    @property
    def middle(self) -> tuple[int, ...]:
        return self.board.middle

    @property
    def bottom(self) -> tuple[int, ...]:
        return self.board.bottom


class BestSettingArrays(NamedTuple):
    """Results of `best_setting_batch`, one row (or entry) per hand."""

    boards: npt.NDArray[np.uint8]       # (N, 13) top, middle, bottom, each row ascending
    value: npt.NDArray[np.float64]      # (N,)


@lru_cache(maxsize=1)
def _splits() -> npt.NDArray[np.intp]:
    """Positions 0..12 of every split into top (3), middle (5), bottom (5): 72,072 rows, in
    ascending order of (bottom, middle)."""
    out = []
    every = range(13)
    for bottom in itertools.combinations(every, 5):
        rest = [p for p in every if p not in bottom]
        for middle in itertools.combinations(rest, 5):
            out.append(tuple(p for p in rest if p not in middle) + middle + bottom)
    return np.array(out, dtype=np.intp)


@lru_cache(maxsize=1)
def _subsets() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], tuple[npt.NDArray[np.intp], ...]]:
    """The 3- and 5-card subsets of 13 positions, (286, 3) and (1287, 5), and for every split of
    `_splits` the index of its top among the first and of its middle and bottom among the
    second (so a hand's rows are evaluated once per subset, not once per split)."""
    threes = np.array(list(itertools.combinations(range(13), 3)), dtype=np.intp)
    fives = np.array(list(itertools.combinations(range(13), 5)), dtype=np.intp)
    bits = np.left_shift(1, np.arange(13))
    index = np.zeros(1 << 13, dtype=np.intp)       # by the subset's positions as bits
    index[bits[threes].sum(axis=1)] = np.arange(len(threes))
    index[bits[fives].sum(axis=1)] = np.arange(len(fives))
    splits = _splits()
    return threes, fives, tuple(index[bits[splits[:, a:b]].sum(axis=1)] for a, b in ((0, 3), (3, 8), (8, 13)))


def _candidates(hand: npt.NDArray[np.uint8], rules: Rules,
                mis_set_too: bool = False) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.uint16]]:
    """Every valid split of 13 ascending cards (every split, with `mis_set_too`), as indices into
    `_splits`, and its (top, middle, bottom) row values on the rules' scales
    (`chinese.rules.row_values`)."""
    threes, fives, (top, middle, bottom) = _subsets()
    order = row_order(rules)
    five = order[rows.value_batch(hand[fives], threads=1)]
    middles = low27.evaluate_batch(hand[fives], threads=1) if rules.low_middle else five
    values = np.stack([order[rows.value_batch(hand[threes], threads=1)][top], middles[middle],
                       five[bottom]], axis=1).astype(np.uint16)
    if mis_set_too:
        return np.arange(len(values)), values
    valid = np.flatnonzero(~breaks_order(values, rules))
    return valid, values[valid]


def settings(cards: str | Sequence[int | str], rules: Rules | str | None = None) -> npt.NDArray[np.uint8]:
    """Every valid setting of 13 cards as an (M, 13) array, rows top (3), middle (5), bottom (5)
    with ascending ids, ordered by (bottom, middle) ascending. (The rules matter only through
    the order of straights, ``wheel_second``, and ``low_middle``: then only the bottom must be
    no weaker than the top.)"""
    hand = _ascending(cards)
    return hand[_splits()[_candidates(hand, as_rules(rules))[0]]]


def _ascending(cards: str | Sequence[int | str]) -> npt.NDArray[np.uint8]:
    return np.array(sorted(thirteen_cards(cards)), dtype=np.uint8)


def best_setting(cards: str | Sequence[int | str], rules: Rules | str | None = None,
                 objective: Objective = "royalties") -> BestSetting:
    """The exact best valid setting of 13 cards for `objective`: ``"royalties"`` (most royalty
    units), ``"ev"`` (expected points against one well-played opponent, see `row_tables`) or a
    callable taking the (M, 3) row values (top, middle, bottom, handrank.rows scale, with the
    rules' order of straights; with ``low_middle`` the middle's 2-7 value) of every valid
    setting (every setting with ``mis_set_played``) and returning M scores. Ties go to the
    stronger bottom, middle, top, then the lowest cards (bottom, middle, top compared as ascending
    ids). With ``one_royalty`` rules "royalties" is the largest row royalty, and "ev" counts only
    the royalty the setting keeps (against an opponent who also keeps one)."""
    result = best_setting_batch(_ascending(cards)[np.newaxis], rules, objective, threads=1)
    board = result.boards[0].tolist()
    return BestSetting(Board(board[:3], board[3:8], board[8:]), float(result.value[0]))


def best_setting_batch(cards: npt.ArrayLike, rules: Rules | str | None = None,
                       objective: Objective = "royalties", threads: int | None = None) -> BestSettingArrays:
    """`best_setting` for every row of an (N, 13) integer array. The built-in objectives run
    without the GIL, `threads` splitting the rows (default: every core); a callable runs in
    Python, hand by hand."""
    arr = _batch.card_array(cards, (13,), "chinese.best_setting_batch")
    hands = np.sort(arr, axis=1)
    check_distinct(arr, hands)
    rules = as_rules(rules)
    if callable(objective):
        return _best_by_callable(hands, objective, rules)
    if objective == "royalties" and rules.one_royalty:
        return BestSettingArrays(*most_royalty(hands, rules, threads))
    if objective == "royalties":
        solved = solve(solver_tables(rules), hands, 0.0, threads)
        return BestSettingArrays(solved.boards, solved.value)
    if objective == "ev" and _compiled_ev(rules):
        return _best_by_ev(hands, rules, threads)
    if objective == "ev":
        return _best_by_callable(hands, partial(_expected_points, rules), rules)
    raise ValueError(f"objective must be one of {OBJECTIVES} or a callable, got {objective!r}")


def _best_by_ev(hands: npt.NDArray[np.uint8], rules: Rules, threads: int | None) -> BestSettingArrays:
    base, win, lose = ev_tables(rules)
    mine, kept = own_royalty(rules)
    n = len(hands)
    boards = np.empty((n, 13), dtype=np.uint8)
    value = np.empty(n, dtype=np.float64)
    kernel = partial(_kernel.best_ev_settings, solver_tables(rules), base, win, lose,
                     0 if rules.scoring == "1-6" else 1, float(rules.scoop_units - 3),
                     rules.one_royalty, mine, kept)
    _batch.run(kernel, hands, (boards, value), solver_threads(threads, n))
    return BestSettingArrays(boards, value)


def _compiled_ev(rules: Rules) -> bool:
    """Whether the compiled "ev" search knows every rule of `rules`: a high middle, mis-set hands
    never chosen, and a scoop bonus only under 1-6."""
    return not (rules.low_middle or rules.mis_set_played
                or (rules.scoring == "2-4" and rules.scoop_extra))


def _expected_points(rules: Rules, values: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """The "ev" objective of settings with (M, 3) row values, in numpy: the compiled search's
    expectation (handrank.chinese.ev), a mis-set setting (played: ``mis_set_played``) collecting
    no royalty. (Row by row on (M,) columns: reducing over an axis of 3 is slower.)"""
    tables = row_tables(rules)
    by_row = _royalty_by_row(rules)
    cols = [values[:, k] for k in range(3)]
    win = [tables.win[k][cols[k]] for k in range(3)]
    lose = [tables.lose[k][cols[k]] for k in range(3)]
    mis_set = breaks_order(values, rules)
    mine = [np.where(mis_set, 0.0, by_row[k][cols[k]]) for k in range(3)]
    if rules.one_royalty:       # the largest; of equal ones the bottom's, then the middle's
        kept, largest = np.full(len(values), 2), mine[2]
        for k in (1, 0):
            larger = mine[k] > largest
            kept, largest = np.where(larger, k, kept), np.where(larger, mine[k], largest)
        mine = [np.where(kept == k, mine[k], 0.0) for k in range(3)]
    points: npt.NDArray[np.float64] = sum((win[k] - lose[k] for k in range(3)), np.zeros(len(values)))
    if rules.royalties_to_winner:
        for k in range(3):
            points += mine[k] * win[k] - tables.beaten_royalty[k][cols[k]]
    else:
        points += mine[0] + mine[1] + mine[2] - tables.mean_royalty.sum()
    points += rules.scoop_extra * (win[0] * win[1] * win[2] - lose[0] * lose[1] * lose[2])
    if rules.scoring == "2-4":      # the overall unit: more rows won than lost, or fewer
        tie = [1.0 - win[k] - lose[k] for k in range(3)]
        outcomes = (win, tie, lose)
        for rows_won in itertools.product((0, 1, 2), repeat=3):   # 0 won, 1 tied, 2 lost
            margin = sum(1 if o == 0 else -1 if o == 2 else 0 for o in rows_won)
            if margin:
                points += np.sign(margin) * (outcomes[rows_won[0]][0] * outcomes[rows_won[1]][1]
                                             * outcomes[rows_won[2]][2])
    return points


def _best_by_callable(hands: npt.NDArray[np.uint8], objective: Callable[[np.ndarray], np.ndarray],
                      rules: Rules) -> BestSettingArrays:
    boards = np.empty((len(hands), 13), dtype=np.uint8)
    value = np.empty(len(hands), dtype=np.float64)
    for i, hand in enumerate(hands):
        candidates, values = _candidates(hand, rules, rules.mis_set_played)
        scores = np.asarray(objective(values.astype(np.int64)), dtype=np.float64)
        if scores.shape != (len(candidates),):
            raise ValueError(f"the objective must return one score per setting: shape "
                             f"({len(candidates)},), got {scores.shape}")
        # among the best scores (exactly equal) the stronger bottom, middle, top; the last key sorts
        # first, and ties keep (bottom, middle) order
        scored = scores[~np.isnan(scores)]          # (a NaN score never wins)
        top = np.flatnonzero(scores == scored.max()) if scored.size else np.arange(len(scores))
        ranked = values[top].astype(np.int64)
        best = top[np.lexsort((-ranked[:, 0], -ranked[:, 1], -ranked[:, 2]))[0]]
        boards[i] = hand[_splits()[candidates[best]]]
        value[i] = scores[best]
    return BestSettingArrays(boards, value)
