"""Exact hand-strength statistics of hold'em hands, the input of abstraction: a hand's equity
histogram over the runouts, and per canonical hand of a street (``iso.Indexer([2, n])``'s index,
n = 3, 4, 5 board cards) its expected hand strength against one uniformly random opposing hand
(``ehs``: win + tie / 2, over every runout and every opposing combo, card removal exact) and the
average of its squared river equity over the runouts (``ehs2``).

>>> import numpy as np
>>> ehs, ehs2 = ehs_rows(np.array([[51, 50, 0, 5, 22, 30, 40]], dtype=np.uint8))   # As Ah on a river
>>> round(float(ehs[0]), 6), bool(ehs2[0] == ehs[0] ** 2)
(0.893434, True)

How it is built: on the river, every combo's equity against a random hand comes from one sort of
the 1326 combos by strength and running sums (``showdown.river_equity``), once per board up to
suit permutation (134,459 boards); the river table is filled through the iso index, the turn
table averages each hand's 46 river values (and their squares) and the flop table its 47 turn
values (every runout has as many opposing combos, so averages of averages are exact).
Tables are float32 (relative error under 6e-8, far below any bucketing's resolution, and half of
float64's 1.5 GB for the three streets); the build averages in float64 and rounds once.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from handrank import _cache, _showdown
from handrank.cards import cards as parse_hand
from handrank.iso import Indexer
from handrank.showdown import COMBO_COUNT, COMBOS, combo_index, range_weights

if TYPE_CHECKING:
    from pathlib import Path

    import numpy.typing as npt

    Progress = Callable[[str, int, int], None]

__all__ = ["STREETS", "EhsTable", "ehs_table", "ehs_rows", "equity_histogram", "river_boards",
           "river_entries", "river_values", "average_hands"]

STREETS = {"flop": 3, "turn": 4, "river": 5}
_FORMAT = 1
_RANDOM = np.ones(COMBO_COUNT)
_CHUNK = 1 << 20        # hands per step of the turn and flop builds (about 60 MB of rows)


@dataclass(frozen=True)
class EhsTable:
    """A street's table: `ehs[i]` and `ehs2[i]` for the hand of index i of ``indexer``."""

    street: str
    ehs: npt.NDArray[np.float32]
    ehs2: npt.NDArray[np.float32]

    @property
    def indexer(self) -> Indexer:
        return _indexer(STREETS[self.street])

    def lookup(self, hole: str | Iterable[str | int], board: str | Iterable[str | int]) -> tuple[float, float]:
        """(ehs, ehs2) of one hand."""
        i = self.indexer.index([*_hole(hole), *_board_ids(board, (STREETS[self.street],))])
        return float(self.ehs[i]), float(self.ehs2[i])


@functools.lru_cache(maxsize=None)
def _indexer(n: int) -> Indexer:
    """The street's indexer, made once: making one builds its tables (milliseconds, far more than
    a lookup)."""
    return Indexer([2, n])


def _hole(hole: str | Iterable[str | int]) -> list[int]:
    ids = parse_hand(hole)
    if len(ids) != 2:
        raise ValueError(f"hole: a hold'em hand has 2 cards, got {len(ids)}")
    return list(ids)


def _board_ids(board: str | Iterable[str | int], sizes: tuple[int, ...]) -> list[int]:
    ids = parse_hand(board)
    if len(ids) not in sizes:
        raise ValueError(f"board: {' or '.join(map(str, sizes))} cards, got {len(ids)}")
    return list(ids)


def _street(street: object) -> str:
    if not isinstance(street, str):
        raise TypeError(f"street is a str, not {type(street).__name__}")
    if street not in STREETS:
        raise ValueError(f"street must be 'flop', 'turn' or 'river', got {street!r}")
    return street


# ---------------------------------------------------------------------- river equities
def _river_equity(board: npt.NDArray[np.uint8], villain: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Every combo's equity against `villain` on a checked 5-card board (nan where blocked)."""
    out = np.empty(COMBO_COUNT)
    bad = _showdown.river_equity_into(board, _RANDOM, villain, out)
    if bad >= 0:        # pragma: no cover - the callers checked the board and the weights
        raise AssertionError(f"river_equity_into refused its input ({bad})")
    return out


def river_boards() -> npt.NDArray[np.uint8]:
    """The 134,459 5-card boards up to suit permutation, one canonical board each, (N, 5) uint8."""
    board_indexer = Indexer([5])
    return board_indexer.unindex_batch(0, np.arange(board_indexer.size(0), dtype=np.uint64))


def river_entries(boards: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64]]:
    """(indices, values): the river-table entries (``Indexer([2, 5])``'s index, equity against a
    random hand) of every combo on each board of `boards` (canonical or not): the part of the
    river table one step, or one Dask task, builds."""
    indexer = _indexer(5)
    rows = np.empty((COMBO_COUNT, 7), dtype=np.uint8)
    rows[:, :2] = COMBOS
    indices, values = [], []
    for board in np.ascontiguousarray(boards, dtype=np.uint8):
        equity = _river_equity(board, _RANDOM)
        open_ = ~np.isnan(equity)
        rows[:, 2:] = board
        indices.append(indexer.index_batch(rows[open_], threads=1))
        values.append(equity[open_])
    if not indices:
        return np.empty(0, dtype=np.uint64), np.empty(0)
    return np.concatenate(indices), np.concatenate(values)


def river_values(boards: npt.NDArray[np.uint8], out: npt.NDArray[np.float64]) -> None:
    """Write ``river_entries(boards)`` into `out`, the river table (float64)."""
    indices, values = river_entries(boards)
    out[indices] = values


def average_hands(prev: npt.NDArray[np.float64], prev2: npt.NDArray[np.float64], n: int,
                  indices: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(ehs, ehs2) of the hands `indices` of street n (``Indexer([2, n])``, n = 3 or 4), from
    street n + 1's values `prev` and `prev2`: each hand's average over the next card (only the
    entries of `prev` those hands reach are read: a subset of the table, or one Dask task's)."""
    next_indexer = _indexer(n + 1)
    hands = _indexer(n).unindex_batch(1, indices)
    total, total2 = np.zeros(len(hands)), np.zeros(len(hands))
    rows = np.empty((len(hands), 3 + n), dtype=np.uint8)
    rows[:, :2 + n] = hands
    for card in range(52):
        free = ~(hands == card).any(axis=1)
        rows[:, 2 + n] = card
        i = next_indexer.index_batch(rows[free])
        total[free] += prev[i]
        total2[free] += prev2[i]
    cards_left = 52 - 2 - n
    return total / cards_left, total2 / cards_left


def _average_next(prev: npt.NDArray[np.float64], prev2: npt.NDArray[np.float64], n: int,
                  progress: Progress | None = None) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Street n's whole (ehs, ehs2) from street n + 1's."""
    size = _indexer(n).size(1)
    ehs, ehs2 = np.empty(size), np.empty(size)
    for start in range(0, size, _CHUNK):
        stop = min(size, start + _CHUNK)
        ehs[start:stop], ehs2[start:stop] = average_hands(
            prev, prev2, n, np.arange(start, stop, dtype=np.uint64))
        if progress is not None:
            progress(("flop", "turn")[n - 3], stop, size)
    return ehs, ehs2


# ---------------------------------------------------------------------- the tables
def _cache_file(street: str) -> Path:
    return _cache.cache_dir() / f"ehs-{street}-v{_FORMAT}.npy"


def _valid(arr: object, street: str) -> bool:
    """Whether a cached array is the street's table: its shape, and every value in [0, 1] (a damaged
    file's nan or garbage would otherwise be read as an equity). The values are read in steps
    (the river's 985 MB in about 0.2 s once in memory), min and max propagating any nan."""
    if not (isinstance(arr, np.ndarray) and arr.dtype == np.float32
            and arr.shape == (2, _indexer(STREETS[street]).size(1))):
        return False
    flat = arr.reshape(-1)
    for start in range(0, flat.size, _CHUNK):
        part = flat[start:start + _CHUNK]
        if not (part.min() >= 0 and part.max() <= 1):
            return False
    return True


def _cached(street: str) -> EhsTable | None:
    arr = _cache.read_array(_cache_file(street), mmap=True)
    if arr is None or not _valid(arr, street):
        return None
    return EhsTable(street, arr[0], arr[1])


def _store(street: str, ehs: npt.NDArray[np.float64], ehs2: npt.NDArray[np.float64]) -> EhsTable:
    arr = np.stack([ehs.astype(np.float32), ehs2.astype(np.float32)])
    _cache.save_array(_cache_file(street), arr)
    return _cached(street) or EhsTable(street, arr[0], arr[1])


def ehs_table(street: str, *, progress: Progress | None = None) -> EhsTable:
    """The street's table ("flop", "turn" or "river"), from the cache (memory-mapped) or built
    (the streets from the river down to this one, each cached on the way: about 100 s and
    4 GB of memory for the flop). `progress(street, done, total)` is called after each step of
    each street's build."""
    street = _street(street)
    table = _cached(street)
    if table is not None:
        return table
    river = np.full(_indexer(5).size(1), np.nan)
    boards = river_boards()
    step = 512
    for start in range(0, len(boards), step):
        river_values(boards[start:start + step], river)
        if progress is not None:
            progress("river", min(len(boards), start + step), len(boards))
    if np.isnan(river).any():       # pragma: no cover - every class has a canonical board
        raise AssertionError("a river class was left out")
    values, squares = river, river * river
    built = {"river": _store("river", values, squares)} if street == "river" or _cached("river") is None \
        else {}
    for n, name in ((4, "turn"), (3, "flop")):
        if street == "river":
            break
        values, squares = _average_next(values, squares, n, progress)
        built[name] = _store(name, values, squares)
        if name == street:
            break
    return built[street]


# ---------------------------------------------------------------------- hands on request
def _runouts(used: list[int], n: int) -> list[tuple[int, ...]]:
    import itertools

    deck = [c for c in range(52) if c not in used]
    return list(itertools.combinations(deck, 5 - n))


def ehs_rows(rows: npt.ArrayLike) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(ehs, ehs2) in float64 of each row of `rows`, an (N, 5..7) integer array: 2 hole cards
    then a flop, turn or river, computed exactly from every runout (no table needed)."""
    arr = np.asarray(rows)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"rows: an integer array, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] not in (5, 6, 7):
        raise ValueError(f"rows: an (N, 5..7) array of hole cards and board, got shape {arr.shape}")
    ehs, ehs2 = np.empty(len(arr)), np.empty(len(arr))
    for r, row in enumerate(arr.tolist()):
        if any(not 0 <= c <= 51 for c in row) or len(set(row)) != len(row):
            raise ValueError(f"rows: row {r} {row} has a bad or repeated card")
        equities = _runout_equities(row[:2], row[2:], _RANDOM)
        ehs[r], ehs2[r] = equities.mean(), (equities * equities).mean()
    return ehs, ehs2


def _runout_equities(hole: list[int], board: list[int],
                     villain: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The hand's river equity against `villain` on every runout of `board` (nan where the
    villain has no combo left)."""
    combo = combo_index(hole)
    full = np.empty(5, dtype=np.uint8)
    full[:len(board)] = board
    out = []
    for runout in _runouts([*hole, *board], len(board)):
        full[len(board):] = runout
        out.append(_river_equity(full, villain)[combo])
    return np.array(out)


def equity_histogram(hole: str | Iterable[str | int], board: str | Iterable[str | int],
                     opponent: str | npt.ArrayLike = "random", bins: int | npt.ArrayLike = 10
                     ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """(counts, edges): how many runouts of a flop (3 cards) or turn (4) give the hand each river
    equity against `opponent` ("random", range text, a Range or 1326 weights), as numpy's
    histogram on [0, 1] with `bins` (a count or the edges). Runouts where the opponent has no
    combo left are not counted. Exact: every runout, card removal included."""
    hole_ids = _hole(hole)
    board_ids = _board_ids(board, (3, 4))
    if set(hole_ids) & set(board_ids) or len(set(board_ids)) != len(board_ids) or len(set(hole_ids)) != 2:
        raise ValueError("hole and board: a card is repeated")
    villain = _RANDOM if isinstance(opponent, str) and opponent == "random" \
        else range_weights(opponent, "opponent")
    equities = _runout_equities(hole_ids, board_ids, villain)
    counts, edges = np.histogram(equities[~np.isnan(equities)], bins=bins, range=(0.0, 1.0))
    return counts.astype(np.int64), edges
