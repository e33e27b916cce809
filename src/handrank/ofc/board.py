"""OFC boards: fouls, royalties, Fantasyland and 1-6 scoring, for one board or (N, 13) arrays.

One compiled kernel (handrank._threerow._kernel) evaluates a board for every entry point here, so a
single board, a table of players and a batch of millions all follow exactly the same rules code.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from handrank._threerow import _kernel
from handrank._threerow.board import BoardArrays, BoardLike, as_board, evaluate_with, pair_scores, table_points
from handrank.ofc.rules import Rules, as_rules, tables

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
    """Net 1-6 points of each board of `a` against the board in the same row of `b` (both
    (N, 13) arrays in row order, no card in both); b's points are the negation. GIL released,
    `threads` as above."""
    return pair_scores(tables(as_rules(rules)), _kernel.SCORE_OFC, False, a, b, threads,
                       "ofc.score_batch")[0]


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
    differences; a fouled board pays a valid one 3 + scoop bonus + its royalties."""
    players = [as_board(board) for board in boards]
    if not 2 <= len(players) <= 4:
        raise ValueError(f"ofc.score takes 2 to 4 boards, got {len(players)}")
    return table_points(players, partial(score_batch, rules=rules, threads=1))
