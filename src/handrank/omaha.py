"""Omaha: the best hand made of exactly two of the player's hole cards and exactly three board cards.

Hole cards: 4 (PLO), 5 (PLO5, Big O, Courchevel) or 6 (PLO6); board: 3, 4 or 5 cards. The high
value is on `high.evaluate`'s scale (1..7462, higher is better), so `high.describe` and
`high.category` read it and it compares with hold'em values. The 8-or-better low of Omaha hi-lo is
on `lowa5.evaluate`'s scale (6120..6175 for the qualifying lows), or NO_LOW (0) when no two hole
and three board cards make five distinct ranks of 8 or lower.
"""
from __future__ import annotations

import itertools
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from handrank import _batch, _omaha, high
from handrank.cards import card_str, cards as parse_hand

if TYPE_CHECKING:
    from collections.abc import Iterable

    import numpy.typing as npt

    Hand = str | Iterable[str | int]

__all__ = ["evaluate", "evaluate_batch", "best_five", "evaluate_low8", "evaluate_low8_batch",
           "NO_LOW", "HOLE_SIZES", "BOARD_SIZES"]

HOLE_SIZES = (4, 5, 6)
"""The hole-card counts a hand may have: PLO4, PLO5 and PLO6."""
BOARD_SIZES = (3, 4, 5)
"""The board sizes an evaluation takes: flop, turn and river."""
NO_LOW: int = _omaha.NO_LOW      # evaluate_low8's value when no low qualifies (below every low)


def _hand(hole: Hand, board: Hand) -> tuple[list[int], list[int]]:
    """The hole and board card ids, checked."""
    hole_ids, board_ids = parse_hand(hole), parse_hand(board)
    if len(hole_ids) not in HOLE_SIZES:
        raise ValueError(f"an Omaha hand has 4, 5 or 6 hole cards, got {len(hole_ids)}")
    if len(board_ids) not in BOARD_SIZES:
        raise ValueError(f"an Omaha board has 3, 4 or 5 cards, got {len(board_ids)}")
    shared = sorted(set(hole_ids) & set(board_ids))
    if shared:
        raise ValueError(f"{card_str(shared[0])} is both a hole card and a board card")
    return hole_ids, board_ids


def evaluate(hole: Hand, board: Hand) -> int:
    """High value (1..7462, high.evaluate's scale) of the best two-hole-plus-three-board hand.

    >>> evaluate("As Ks 2d 2c", "Qs Js Ts 2h 3h")       # exactly two hole cards: the royal flush
    7462
    """
    hole_ids, board_ids = _hand(hole, board)
    return int(_omaha.evaluate_row(_omaha.HIGH, np.array(hole_ids, np.uint8), np.array(board_ids, np.uint8)))


def evaluate_low8(hole: Hand, board: Hand) -> int:
    """The best 8-or-better low (lowa5.evaluate's scale) of two hole and three board cards, or
    NO_LOW (0) when none qualifies."""
    hole_ids, board_ids = _hand(hole, board)
    return int(_omaha.evaluate_row(_omaha.LOW8, np.array(hole_ids, np.uint8), np.array(board_ids, np.uint8)))


def best_five(hole: Hand, board: Hand) -> tuple[int, int, int, int, int]:
    """The five cards of the best high hand: two hole card ids, then three board card ids (the
    first such choice in hole and board order when several make the same value)."""
    hole_ids, board_ids = _hand(hole, board)
    best: tuple[int, ...] = ()
    best_value = 0
    for pair in itertools.combinations(hole_ids, 2):
        for triple in itertools.combinations(board_ids, 3):
            value = high.evaluate(pair + triple)
            if value > best_value:
                best, best_value = pair + triple, value
    return best[0], best[1], best[2], best[3], best[4]


def evaluate_batch(hole: npt.ArrayLike, board: npt.ArrayLike, *, threads: int | None = None,
                   out: npt.NDArray[np.uint16] | None = None) -> npt.NDArray[np.uint16]:
    """High values of the rows of hole (N, 4|5|6) and board (N, 3|4|5) integer arrays, as an (N,)
    uint16 array on high.evaluate's scale.

    Every row is checked (ids, a card repeated in the hole, on the board or in both: ValueError
    naming the row); the GIL is released and `threads` splits the rows as in high.evaluate_batch."""
    return _evaluate_batch(_omaha.HIGH, hole, board, threads, out, "omaha.evaluate_batch")


def evaluate_low8_batch(hole: npt.ArrayLike, board: npt.ArrayLike, *, threads: int | None = None,
                        out: npt.NDArray[np.uint16] | None = None) -> npt.NDArray[np.uint16]:
    """8-or-better lows of the rows of hole and board arrays (as evaluate_batch takes them), as an
    (N,) uint16 array on lowa5.evaluate's scale, NO_LOW where none qualifies."""
    return _evaluate_batch(_omaha.LOW8, hole, board, threads, out, "omaha.evaluate_low8_batch")


def _evaluate_batch(game: int, hole: npt.ArrayLike, board: npt.ArrayLike, threads: int | None,
                    out: npt.NDArray[np.uint16] | None, what: str) -> npt.NDArray[np.uint16]:
    hole_arr = _batch.card_array(hole, HOLE_SIZES, f"{what} (hole)")
    board_arr = _batch.card_array(board, BOARD_SIZES, f"{what} (board)")
    if len(hole_arr) != len(board_arr):
        raise ValueError(f"{what}: hole has {len(hole_arr)} rows and board {len(board_arr)}")
    base = hole_arr.__array_interface__["data"][0]
    width = hole_arr.shape[1]

    def kernel(rows: npt.NDArray[np.uint8], values: npt.NDArray[np.uint16],
               saved: npt.NDArray[np.uint16] | None = None) -> int:
        # The driver hands out row ranges of the hole array; the same rows of the board go along.
        start: int = (rows.__array_interface__["data"][0] - base) // width if len(rows) else 0
        return int(_omaha.batch(game, hole_arr, board_arr, start, values, saved))

    # The driver keeps an `out` that overlaps the hole cards off them; one on the board is kept
    # off here, the values written to a new array and copied over once every row has passed.
    target = None if out is not None and np.may_share_memory(out, board_arr) else out
    try:
        result = _batch.evaluate(kernel, hole_arr, (width,), target, threads, what, kernel_saves=True)
    except ValueError as exc:
        if not str(exc).startswith("row "):
            raise
        raise _row_error(hole_arr, board_arr) from None
    if out is not None and target is None:
        out[:] = result
        return out
    return result


def _row_error(hole: npt.NDArray[Any], board: npt.NDArray[Any]) -> ValueError:
    """The error for the first row with an id outside 0..51 or a card repeated in its hole, on
    its board or in both. It reads a copy of the cards: another thread writing them now must not
    turn the row found bad into one that reads well."""
    hole, board = hole.copy(), board.copy()
    rows = np.sort(np.concatenate((hole, board), axis=1), axis=1)
    bad = (rows[:, 1:] == rows[:, :-1]).any(axis=1) | (rows[:, -1] > 51)
    found = np.flatnonzero(bad)
    if not found.size:
        return ValueError("the cards changed during the call; do not write to the input while a "
                          "batch call runs")
    row = int(found[0])
    hole_ids, board_ids = hole[row].tolist(), board[row].tolist()
    for c in hole_ids + board_ids:
        if c > 51:
            return ValueError(f"row {row}: card id {c} is out of range 0..51")
    for where, ids in (("hole", hole_ids), ("board", board_ids)):
        repeated = [c for c in ids if ids.count(c) > 1]
        if repeated:
            return ValueError(f"row {row}: {card_str(repeated[0])} appears twice in the {where}")
    shared = min(set(hole_ids) & set(board_ids))
    return ValueError(f"row {row}: {card_str(shared)} is both a hole card and a board card")
