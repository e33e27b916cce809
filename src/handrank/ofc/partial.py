"""A board being built street by street: `PartialBoard`, which knows its free slots, whether it is
dead (every way to fill it fouls) and which rows can still improve."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from handrank import high, high3, low27, rows
from handrank._threerow.board import Board, Cards
from handrank._threerow.thresholds import low_value
from handrank.cards import cards as parse_cards, hand_problem, hand_str
from handrank.ofc.board import evaluate_batch
from handrank.ofc.rules import Rules, as_rules

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["PartialBoard", "ROWS", "CAPACITY"]

ROWS = ("top", "middle", "bottom")
CAPACITY = (3, 5, 5)
_QUICK_TRIES = 64
_BIT = np.left_shift(np.uint64(1), np.arange(52, dtype=np.uint64))     # the mask of each card


@dataclass(frozen=True, init=False)
class PartialBoard:
    """The rows of one player's board so far: ``PartialBoard("Qs", "", "Ah Ad")``. Rows take any
    card form and are stored as tuples of ids in the order placed; cards never move."""

    top: tuple[int, ...]
    middle: tuple[int, ...]
    bottom: tuple[int, ...]

    def __init__(self, top: Cards = (), middle: Cards = (), bottom: Cards = ()) -> None:
        for name, size, row in zip(ROWS, CAPACITY, (top, middle, bottom)):
            ids = tuple(parse_cards(row))
            if len(ids) > size:
                raise ValueError(f"the {name} row holds {size} cards, got {len(ids)}")
            object.__setattr__(self, name, ids)
        problem = hand_problem(self.cards)
        if problem:
            raise ValueError(f"board {self}: {problem}")

    @property
    def rows(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return self.top, self.middle, self.bottom

    @property
    def cards(self) -> tuple[int, ...]:
        """The cards placed, in row order (top, middle, bottom)."""
        return self.top + self.middle + self.bottom

    @property
    def free(self) -> tuple[int, int, int]:
        """The free slots of the top, middle and bottom rows."""
        return 3 - len(self.top), 5 - len(self.middle), 5 - len(self.bottom)

    @property
    def full(self) -> bool:
        return len(self.cards) == 13

    def __len__(self) -> int:
        return len(self.top) + len(self.middle) + len(self.bottom)

    def __str__(self) -> str:
        return " / ".join(hand_str(row) or "-" for row in self.rows)

    def place(self, top: Cards = (), middle: Cards = (), bottom: Cards = ()) -> PartialBoard:
        """This board with cards added to its rows (ValueError if a row overflows or a card is
        already on the board)."""
        added = [parse_cards(row) for row in (top, middle, bottom)]
        return PartialBoard(*(old + tuple(new) for old, new in zip(self.rows, added)))

    def extended(self, top: tuple[int, ...], middle: tuple[int, ...], bottom: tuple[int, ...]) -> PartialBoard:
        """`place` for card ids already checked to fit and to be new to the board (the game's
        fast path)."""
        board = object.__new__(PartialBoard)
        board.__dict__.update(top=self.top + top, middle=self.middle + middle, bottom=self.bottom + bottom)
        return board

    def board(self) -> Board:
        """The finished `Board` (ValueError while slots are free)."""
        if not self.full:
            raise ValueError(f"the board {self} is not full: {sum(self.free)} free slots")
        return Board(*self.rows)

    # ------------------------------------------------------------------ outlook
    def is_dead(self, rules: Rules | str | None = None, unseen: Iterable[int | str] | str | None = None) -> bool:
        """Whether the board fouls however its free slots are filled with `unseen` cards (default:
        every card not on it; pass the cards that may still come, without those seen elsewhere).

        Exact: it searches the completions of the three rows together (each card used once); a
        full board is dead when it fouls. ValueError when `unseen` cannot fill the free slots."""
        rules = as_rules(rules)
        pool = self._pool(unseen)
        if self._some_completion_valid(rules, pool):
            return False
        options = [_completions(row, free, pool, i == 1 and rules.middle_lowball)
                   for i, (row, free) in enumerate(zip(self.rows, self.free))]
        if rules.middle_lowball:
            qualifier = low_value(rules.middle_qualifier, "Rules.middle_qualifier")
            return not _deuce_witness(options, qualifier)
        return not _high_witness(options)

    def improvable_rows(self, rules: Rules | str | None = None,
                        unseen: Iterable[int | str] | str | None = None) -> tuple[str, ...]:
        """The rows (names, top to bottom) that can still make a better hand category than their
        cards already make (a pair that can become trips, four spades that can become a flush),
        with cards from `unseen` (as in `is_dead`). A 2-7 middle (deuce) can still improve while
        it has free slots and some completion is a legal low."""
        rules = as_rules(rules)
        pool = self._pool(unseen)
        out = []
        for i, (name, row, free) in enumerate(zip(ROWS, self.rows, self.free)):
            if not free or free > len(pool):
                continue
            filled = _fill(row, free, pool)
            if i == 1 and rules.middle_lowball:
                qualifier = low_value(rules.middle_qualifier, "Rules.middle_qualifier")
                better = bool((low27.evaluate_batch(filled) >= qualifier).any())
            else:
                best = int((high3 if i == 0 else high).evaluate_batch(filled).max())
                best_category = (high3.category if i == 0 else high.category)(best)
                better = best_category > _made_category(row)
            if better:
                out.append(name)
        return tuple(out)

    def _some_completion_valid(self, rules: Rules, pool: npt.NDArray[np.uint8]) -> bool:
        """Whether one of a few completions is valid (a quick answer for most live boards): the
        lowest cards on top, the highest at the bottom, and some random fills."""
        free = sum(self.free)
        order = np.argsort(np.random.default_rng(0).random((_QUICK_TRIES, len(pool))), axis=1)[:, :free]
        fills = np.concatenate([pool[np.newaxis, :free], pool[np.newaxis, len(pool) - free:], pool[order]])
        fills[1] = np.concatenate([pool[:self.free[0]], pool[len(pool) - free + self.free[0]:]])
        ends = np.cumsum(self.free)
        rows = [np.broadcast_to(np.array(row, dtype=np.uint8), (len(fills), len(row))) for row in self.rows]
        boards = np.concatenate([rows[0], fills[:, :ends[0]], rows[1], fills[:, ends[0]:ends[1]],
                                 rows[2], fills[:, ends[1]:]], axis=1)
        return not bool(evaluate_batch(np.ascontiguousarray(boards), rules, threads=1).foul.all())

    def _pool(self, unseen: Iterable[int | str] | str | None) -> npt.NDArray[np.uint8]:
        mine = set(self.cards)
        if unseen is None:
            ids = [c for c in range(52) if c not in mine]
        else:
            ids = parse_cards(unseen)
            problem = hand_problem(ids)
            if problem:
                raise ValueError(f"unseen cards: {problem}")
            clash = sorted(mine.intersection(ids))
            if clash:
                raise ValueError(f"unseen cards {hand_str(clash)} are on the board")
        if len(ids) < sum(self.free):
            raise ValueError(f"{len(ids)} unseen cards cannot fill {sum(self.free)} free slots")
        return np.array(sorted(ids), dtype=np.uint8)


def _made_category(row: tuple[int, ...]) -> int:
    """The high.Category the cards of a row make by their ranks alone (pairs, trips, ...)."""
    counts = sorted((sum(1 for c in row if c >> 2 == r) for r in {c >> 2 for c in row}), reverse=True)
    pattern = tuple(counts[:2])
    made = {(4,): 7, (4, 1): 7, (3, 2): 6, (3,): 3, (3, 1): 3, (2, 2): 2, (2,): 1, (2, 1): 1}
    return made.get(pattern, 0)


# ---------------------------------------------------------------------- the search
class _Options(NamedTuple):
    """Every completion of one row: its value and the bit mask of the cards it adds."""

    values: npt.NDArray[np.int64]
    masks: npt.NDArray[np.uint64]


def _completions(row: tuple[int, ...], free: int, pool: npt.NDArray[np.uint8], lowball: bool) -> _Options:
    """The completions of a row from `pool`: the row-scale value (a 2-7 middle: its low27 value)
    of each, and the cards each adds."""
    filled = _fill(row, free, pool)
    values = (low27.evaluate_batch(filled) if lowball else rows.value_batch(filled)).astype(np.int64)
    masks = np.zeros(len(filled), dtype=np.uint64)
    for column in range(len(row), filled.shape[1]):
        masks |= _BIT[filled[:, column]]
    return _Options(values, masks)


def _fill(row: tuple[int, ...], free: int, pool: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The row with its free slots filled every way from `pool`, one completion per line."""
    picks = pool[_combinations(len(pool), free)]
    fixed = np.broadcast_to(np.array(row, dtype=np.uint8), (len(picks), len(row)))
    return np.ascontiguousarray(np.concatenate([fixed, picks], axis=1))


@lru_cache(maxsize=6)
def _colex(k: int) -> npt.NDArray[np.uint8]:
    """Every k-subset of range(52) in colex order (by largest element, then the rest in colex
    order), as a (C(52, k), k) array: the k-subsets of range(n) are its first C(n, k) rows."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    smaller = _colex(k - 1)
    return np.concatenate([np.concatenate([smaller[:comb(top, k - 1)],
                                           np.full((comb(top, k - 1), 1), top, dtype=np.uint8)], axis=1)
                           for top in range(k - 1, 52)])


def _combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    """The k-subsets of range(n) (indexes into a pool of n cards)."""
    return _colex(k)[:comb(n, k)]


def _high_witness(options: list[_Options]) -> bool:
    """Whether disjoint completions top <= middle <= bottom exist."""
    top, middle, bottom = options
    lowest_top, highest_bottom = top.values.min(), bottom.values.max()
    candidates = np.flatnonzero((middle.values >= lowest_top) & (middle.values <= highest_bottom))
    for m in candidates:
        value, mask = middle.values[m], middle.masks[m]
        tops = top.masks[(top.values <= value) & ((top.masks & mask) == 0)]
        bottoms = bottom.masks[(bottom.values >= value) & ((bottom.masks & mask) == 0)]
        if _disjoint_pair(tops, bottoms):
            return True
    return False


def _deuce_witness(options: list[_Options], qualifier: int) -> bool:
    """Whether disjoint completions exist with a legal 2-7 middle and top <= bottom."""
    top, middle, bottom = options
    if top.values.min() > bottom.values.max():
        return False
    order = np.argsort(top.values, kind="stable")
    for m in np.flatnonzero(middle.values >= qualifier):
        mask = middle.masks[m]
        open_bottoms = (bottom.masks & mask) == 0
        for t in order:
            if top.masks[t] & mask:
                continue
            fits = open_bottoms & (bottom.values >= top.values[t]) & ((bottom.masks & top.masks[t]) == 0)
            if fits.any():
                return True
    return False


def _disjoint_pair(a: npt.NDArray[np.uint64], b: npt.NDArray[np.uint64]) -> bool:
    """Whether some mask of `a` shares no card with some mask of `b`."""
    if not len(a) or not len(b):
        return False
    for mask in np.unique(a):
        if ((b & mask) == 0).any():
            return True
    return False
