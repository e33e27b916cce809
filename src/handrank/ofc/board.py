"""OFC boards: fouls, royalties, Fantasyland and 1-6 scoring, for one board or (N, 13) arrays.

One compiled kernel (handrank._threerow._kernel) evaluates a board for every entry point here, so a
single board, a table of players and a batch of millions all follow exactly the same rules code.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from handrank import rows
from handrank._threerow import _kernel
from handrank._threerow.board import BoardArrays, BoardLike, as_board, evaluate_with, pair_scores, table_points
from handrank.chinese.naturals import Natural, compare_naturals, natural
from handrank.ofc.rules import Rules, as_rules, chinese_naturals, tables

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["is_foul", "royalties", "fantasyland", "score", "evaluate_batch", "score_batch"]


def evaluate_batch(cards: npt.ArrayLike, rules: Rules | str | None = None,
                   in_fantasyland: bool = False, threads: int | None = None) -> BoardArrays:
    """Evaluate the boards of an (N, 13) integer array, each row top (3), middle (5), bottom (5).

    The GIL is released and `threads` splits the rows over that many threads; every row is checked
    (a bad one raises ValueError naming the row and the card)."""
    return evaluate_with(tables(as_rules(rules)), cards, in_fantasyland, threads, "ofc.evaluate_batch")


def score_batch(a: npt.ArrayLike, b: npt.ArrayLike, rules: Rules | str | None = None,
                threads: int | None = None) -> npt.NDArray[np.int32]:
    """Net points of each board of `a` against the board in the same row of `b` (both
    (N, 13) arrays in row order, no card in both) under the rules' scoring options; b's points
    are the negation. GIL released, `threads` as above."""
    rules = as_rules(rules)
    checked = partial(pair_scores, tables(rules), a=a, b=b, threads=threads, what="ofc.score_batch")
    net = _row_points(rules, lambda scoring, to_winner: checked(scoring, to_winner)[0])
    if rules.naturals:
        net = _with_naturals(net, a, b, rules, threads)
    if rules.shoot_the_moon:
        moon = [_shoots_the_moon(side, rules, threads) for side in (a, b)]
        net += rules.shoot_the_moon * (moon[0].astype(np.int32) - moon[1])
    return net


def _row_points(rules: Rules, points: Callable[[int, bool], npt.NDArray[np.int32]]) -> npt.NDArray[np.int32]:
    """The points of the rows and royalties under the rules' scoring options, from
    ``points(scoring, royalties_to_winner)``: the pairs scored by one of the kernel's scorings."""
    if rules.scoring == "2-4":
        return points(_kernel.SCORE_CHINESE_2_4, not rules.royalties_cancel)
    if rules.royalties_cancel:
        return points(_kernel.SCORE_OFC, False)
    # Chinese poker's 1-6 scores royalties to the row's winner but with a fixed scoop of 3:
    # OFC's points with the scoop bonus, minus Chinese poker's royalty difference, plus its
    # royalties to the winner (the two Chinese scores differ only in the royalties).
    return (points(_kernel.SCORE_OFC, False) - points(_kernel.SCORE_CHINESE_1_6, False)
            + points(_kernel.SCORE_CHINESE_1_6, True))


def dealt_points(pairs: npt.NDArray[np.uint8], rules: Rules) -> npt.NDArray[np.int32]:
    """`score_batch` of the (N, 26) uint8 rows a|b of full boards that one game dealt, trusted:
    the cards are valid and none is twice, so the compiled scorer reads them unchecked (the
    checks cost 15 times the scoring of one table). The naturals and shooting the moon take
    score_batch's own path."""
    if rules.naturals or rules.shoot_the_moon:
        return score_batch(pairs[:, :13], pairs[:, 13:], rules, threads=1)
    rule_tables = tables(rules)

    def points(scoring: int, to_winner: bool) -> npt.NDArray[np.int32]:
        out = np.empty(len(pairs), dtype=np.int32)
        _kernel.score_pairs(rule_tables, scoring, to_winner, pairs, out, np.empty(len(pairs), dtype=np.uint8))
        return out
    return _row_points(rules, points)


def _with_naturals(net: npt.NDArray[np.int32], a: npt.ArrayLike, b: npt.ArrayLike, rules: Rules,
                   threads: int | None) -> npt.NDArray[np.int32]:
    """`net` with every pair in which a valid board holds a natural paid as Chinese poker pays
    it (RULES.md, "Decisions added after review"): the natural's units instead of rows and
    royalties; between two naturals the stronger's units, a tie nothing. The detection and the
    comparison are Chinese poker's (`chinese.natural`, `chinese.compare_naturals`)."""
    found = [_naturals_of(side, rules, threads) for side in (a, b)]
    net = net.copy()
    for i, (mine, theirs) in enumerate(zip(*found)):
        if mine is None and theirs is None:
            continue
        if mine is not None and theirs is not None:
            winner = compare_naturals(mine, theirs)
            net[i] = mine.units if winner > 0 else -theirs.units if winner < 0 else 0
        elif mine is not None:
            net[i] = mine.units
        else:
            net[i] = -theirs.units
    return net


def _naturals_of(cards: npt.ArrayLike, rules: Rules, threads: int | None) -> list[Natural | None]:
    """The natural each valid board holds under `rules.naturals` (None: none, or fouled)."""
    boards = np.asarray(cards).reshape(-1, 13)
    fouled = evaluate_batch(boards, rules, threads=threads).foul.tolist()
    chinese = chinese_naturals(rules)
    return [None if foul else natural(row, chinese) for row, foul in zip(boards.tolist(), fouled)]


def _shoots_the_moon(cards: npt.ArrayLike, rules: Rules, threads: int | None) -> npt.NDArray[np.bool_]:
    """Valid boards whose bottom is jack-high or worse (no pair, straight or flush)."""
    result = evaluate_batch(cards, rules, threads=threads)
    return ~result.foul & (result.values[:, 2] <= _JACK_HIGH)


# The best jack-high 5-card hand on the row scale: a bottom at or below it shoots the moon.
_JACK_HIGH = rows.value("Js Th 9d 8c 6s")


# ---------------------------------------------------------------------- one board
def _evaluate_one(board: BoardLike, rules: Rules | str | None,
                  in_fantasyland: bool = False) -> BoardArrays:
    return evaluate_batch(np.array([as_board(board).cards], dtype=np.uint8), rules, in_fantasyland, 1)


def is_foul(board: BoardLike, rules: Rules | str | None = None) -> bool:
    """Whether the board fouls: rows out of order (bottom >= middle >= top), or in deuce a top
    above the bottom or a middle worse than the qualifier."""
    return bool(_evaluate_one(board, rules).foul[0])


def royalties(board: BoardLike, rules: Rules | str | None = None) -> tuple[int, int, int]:
    """Royalties of the (top, middle, bottom) rows; (0, 0, 0) for a fouled board."""
    top, middle, bottom = _evaluate_one(board, rules).royalties[0].tolist()
    return top, middle, bottom


def fantasyland(board: BoardLike, rules: Rules | str | None = None,
                in_fantasyland: bool = False) -> int:
    """Cards dealt next hand in Fantasyland for this board (0: none). With ``in_fantasyland`` the
    board was played in Fantasyland and the stay conditions apply instead of the entry ones."""
    return int(_evaluate_one(board, rules, in_fantasyland).fantasyland[0])


def score(boards: Sequence[BoardLike], rules: Rules | str | None = None) -> list[int]:
    """Net points of each of 2 to 4 players, summed over every pair of players (zero-sum).

    Per pair (1-6): 1 point per row won, the scoop bonus for all three, and royalties as net
    differences; a fouled board pays a valid one 3 + scoop bonus + its royalties. The rules'
    options change this: 2-4 scoring, royalties to the row's winner only, shooting the moon, and
    naturals (a valid board holding one is paid as in Chinese poker instead)."""
    players = [as_board(board) for board in boards]
    if not 2 <= len(players) <= 4:
        raise ValueError(f"ofc.score takes 2 to 4 boards, got {len(players)}")
    return table_points(players, partial(score_batch, rules=rules, threads=1))
