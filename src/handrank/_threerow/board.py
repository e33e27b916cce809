"""Boards of the three-row games (OFC, Chinese poker): the `Board` of 3 + 5 + 5 cards, and the batch
evaluation and pair scoring of (N, 13) arrays under compiled rule tables (handrank._threerow._kernel),
which each game's public functions call with its own rules."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple, Union

import numpy as np

from handrank import _batch
from handrank._threerow import _kernel
from handrank.cards import cards as parse_cards, hand_problem, hand_str

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Board", "BoardArrays", "BoardLike", "as_board", "table_points", "evaluate_with", "pair_scores"]

ROW_SIZES = {"top": 3, "middle": 5, "bottom": 5}


Cards = Union[str, Sequence[Union[int, str]]]


@dataclass(frozen=True, init=False)
class Board:
    """One player's 13 cards set in rows: ``Board("Qs Qh 5d", "Ts 9s 8s 7s 6s", "Ac Ad Ah 2c 2d")``.

    Rows take any card form (text, ids, card strings) and are stored as tuples of ids."""

    top: tuple[int, ...]
    middle: tuple[int, ...]
    bottom: tuple[int, ...]

    def __init__(self, top: Cards, middle: Cards, bottom: Cards) -> None:
        for name, row in zip(ROW_SIZES, (top, middle, bottom)):
            ids = tuple(parse_cards(row))
            if len(ids) != ROW_SIZES[name]:
                raise ValueError(f"the {name} row has {ROW_SIZES[name]} cards, got {len(ids)}")
            object.__setattr__(self, name, ids)
        problem = hand_problem(self.cards)
        if problem:
            raise ValueError(f"board {self}: {problem}")

    @classmethod
    def parse(cls, text: str) -> Board:
        """A board written top / middle / bottom: ``"Qs Qh 5d / Ts 9s 8s 7s 6s / Ac Ad Ah 2c 2d"``
        (``|`` separates rows too)."""
        if not isinstance(text, str):
            raise TypeError(f"Board.parse takes text, not {type(text).__name__}")
        rows = text.replace("|", "/").split("/")
        if len(rows) != 3:
            raise ValueError(f"a board is three rows separated by '/', got {text!r}")
        return cls(*rows)

    @classmethod
    def from_cards(cls, ids: Sequence[int | str] | str) -> Board:
        """A board from 13 cards in row order: top (3), middle (5), bottom (5)."""
        ids = parse_cards(ids)
        if len(ids) != 13:
            raise ValueError(f"a board has 13 cards, got {len(ids)}")
        return cls(tuple(ids[:3]), tuple(ids[3:8]), tuple(ids[8:]))

    @property
    def cards(self) -> tuple[int, ...]:
        """The 13 card ids in row order: top, middle, bottom."""
        return self.top + self.middle + self.bottom

    def __str__(self) -> str:
        return " / ".join(hand_str(row) for row in (self.top, self.middle, self.bottom))

    def __repr__(self) -> str:
        return f"Board({hand_str(self.top)!r}, {hand_str(self.middle)!r}, {hand_str(self.bottom)!r})"


BoardLike = Union[Board, str, Sequence[Cards]]   # a Board, its text, or (top, middle, bottom)


def as_board(board: BoardLike) -> Board:
    """A Board from a Board, its text form or a (top, middle, bottom) sequence."""
    if isinstance(board, Board):
        return board
    if isinstance(board, str):
        return Board.parse(board)
    try:
        rows = tuple(board)
    except TypeError:
        raise TypeError(f"a board is an ofc.Board, text or (top, middle, bottom), "
                        f"not {type(board).__name__}") from None
    if len(rows) != 3:
        raise ValueError(f"a board is (top, middle, bottom), got {len(rows)} rows")
    return Board(*rows)


class BoardArrays(NamedTuple):
    """Results of `evaluate_batch`, one entry (or row) per board."""

    foul: npt.NDArray[np.bool_]              # (N,)
    royalties: npt.NDArray[np.int32]         # (N, 3) top, middle, bottom; 0 when fouled
    values: npt.NDArray[np.uint16]           # (N, 3) row-scale values (a 2-7 middle: its 2-7 value)
    fantasyland: npt.NDArray[np.uint8]       # (N,) cards dealt next hand, 0 for none


def evaluate_with(rule_tables: _kernel.RuleTables, cards: npt.ArrayLike, in_fantasyland: bool,
                  threads: int | None, what: str) -> BoardArrays:
    """evaluate_batch under compiled rule tables (also Chinese poker's)."""
    arr = _batch.card_array(cards, (13,), what)
    n = arr.shape[0]
    outs = (np.empty(n, dtype=np.bool_), np.empty((n, 3), dtype=np.int32),
            np.empty((n, 3), dtype=np.uint16), np.empty(n, dtype=np.uint8))
    kernel = partial(_evaluate_rows, rule_tables, bool(in_fantasyland))
    bad = _batch.run(kernel, arr, outs, _batch.thread_count(threads, n))
    if bad >= 0:
        raise _batch.row_error(arr, bad)
    return BoardArrays(*outs)


def _evaluate_rows(tables: _kernel.RuleTables, in_fantasyland: bool, cards: npt.NDArray[np.uint8],
                   foul: npt.NDArray[np.bool_], royalties: npt.NDArray[np.int32],
                   values: npt.NDArray[np.uint16], fantasyland: npt.NDArray[np.uint8]) -> int:
    # the compiled loop writes the flags as bytes
    return int(_kernel.evaluate_boards(tables, in_fantasyland, cards, foul.view(np.uint8), royalties,
                                    values, fantasyland))


def pair_scores(rule_tables: _kernel.RuleTables, scoring: int, royalties_to_winner: bool,
                a: npt.ArrayLike, b: npt.ArrayLike, threads: int | None,
                what: str) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint8],
                                    npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The compiled pair scoring of OFC or Chinese poker (see _kernel.score_pairs): the points, the
    naturals of each row (a's in the low 4 bits, b's in the high ones), and a and b as checked
    card arrays (a copy: the caller's arrays may be written while this runs)."""
    arr_a = _batch.card_array(a, (13,), what)
    arr_b = _batch.card_array(b, (13,), what)
    if arr_a.shape != arr_b.shape:
        raise ValueError(f"{what}: a and b must have the same shape, got {arr_a.shape} "
                         f"and {arr_b.shape}")
    pairs = np.concatenate([arr_a, arr_b], axis=1)
    out = np.empty(len(pairs), dtype=np.int32)
    naturals = np.empty(len(pairs), dtype=np.uint8)
    kernel = partial(_kernel.score_pairs, rule_tables, scoring, royalties_to_winner)
    bad = _batch.run(kernel, pairs, (out, naturals), _batch.thread_count(threads, len(pairs)))
    if bad >= 0:
        # the cards the compiled loop read (a and b may have been written since)
        row_a, row_b = pairs[bad, :13].tolist(), pairs[bad, 13:].tolist()
        for which, row in (("a", row_a), ("b", row_b)):
            if hand_problem(row):
                raise ValueError(f"row {bad} of {which}: {hand_problem(row)}")
        shared = hand_str(sorted(set(row_a) & set(row_b)))
        raise ValueError(f"row {bad}: {shared} in both a and b (the boards of a deal come from one deck)")
    return out, naturals, pairs[:, :13], pairs[:, 13:]


def table_points(players: Sequence[Board],
                 pair_points: Callable[[npt.NDArray[np.uint8], npt.NDArray[np.uint8]], npt.NDArray[np.int32]]) -> list[int]:
    """Each player's net points at a table: pair_points(a, b) scores (N, 13) boards a against b,
    and every pair of players is scored once, in one batch."""
    _check_one_deck(players)
    pairs = list(combinations(range(len(players)), 2))
    rows = np.array([players[i].cards + players[j].cards for i, j in pairs], dtype=np.uint8)
    net = pair_points(rows[:, :13], rows[:, 13:])
    points = [0] * len(players)
    for (i, j), amount in zip(pairs, net.tolist()):
        points[i] += amount
        points[j] -= amount
    return points


def _check_one_deck(players: Sequence[Board]) -> None:
    # the boards of one table come from one deck
    owner: dict[int, int] = {}
    for p, board in enumerate(players):
        for c in board.cards:
            if c in owner:
                raise ValueError(f"card {hand_str([c])} is on boards {owner[c]} and {p}: "
                                 "the boards of one table come from one deck")
            owner[c] = p
