"""Suit-isomorphic hand indexing: every hand gets the index of its class under the 24 permutations
of the suits (and the order of the cards within each round), dense from 0, and every index maps
back to one canonical hand of its class.

The algorithm is K. Waugh's ("A Fast and Optimal Hand Isomorphism Algorithm", 2013); the numbering
is handrank's own (the classes, and so the sizes, are the same as his indexer's).

>>> holdem = Indexer([2, 3, 1, 1])
>>> [holdem.size(r) for r in range(4)]
[169, 1286792, 55190538, 2428287420]
>>> holdem.index("As Ks") == holdem.index("Ah Kh")
True
>>> hand_str(holdem.unindex(0, holdem.index("As Kd")))
'Kd Ac'
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from handrank import _batch, _iso
from handrank.cards import cards as parse_hand, hand_str

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Indexer", "canonical", "MAX_ROUNDS"]

MAX_ROUNDS = 8
_UINT64_MAX = (1 << 64) - 1
_MASK64 = _UINT64_MAX


# The largest direct configuration table (entries) before a hash table is used instead.
_DIRECT_ENTRIES = 1 << 20
# The most partial deals the tables' build may list (see _configurations): about 400 bytes each,
# a million take a few seconds and 400 MB; [2, 2, 2, 2, 2, 1, 1, 1]'s 6.4 million took 3 minutes
# and 2.4 GB.
_MAX_DEALS = 1 << 20
_BYTES_PER_DEAL = 400


class _Round:
    """The tables that index the hands of rounds 0..r: every configuration (the suits' shapes,
    sorted) with its offset and, per sorted suit, the multiplier and place of its group. A shape
    is sum(m[r] * radix[r]) for m[r] cards in round r: digits of base min(cards, 13) + 1, the
    first round's the most significant (so the suits sort by their hole cards first).
    radix[rounds + r] holds round r's base."""

    def __init__(self, cards_per_round: Sequence[int]):
        bases = [min(n, 13) + 1 for n in cards_per_round]
        radix = [math.prod(bases[r + 1:]) for r in range(len(bases))]
        self.radix = np.array(radix + bases, dtype=np.uint32)
        configs = sorted(_configurations(cards_per_round, radix))
        count = len(configs)
        self.shapes = np.zeros((count, 2), dtype=np.uint64)
        self.offset = np.zeros(count, dtype=np.uint64)
        self.mult = np.zeros((count, 4), dtype=np.uint64)
        self.within = np.zeros((count, 4), dtype=np.uint8)
        self.values = np.zeros((count, 4), dtype=np.uint64)
        self.count = np.zeros((count, 4), dtype=np.uint64)
        size = 0
        for c, shapes in enumerate(configs):
            self.shapes[c] = (shapes[0] | shapes[1] << 32, shapes[2] | shapes[3] << 32)
            self.offset[c] = size
            mult = 1
            p = 0
            while p < 4:
                g = 1
                while p + g < 4 and shapes[p + g] == shapes[p]:
                    g += 1
                values = _shape_values(shapes[p], radix, bases)
                group = math.comb(values + g - 1, g)
                for j in range(g):
                    self.mult[c, p + j] = mult
                    self.within[c, p + j] = j
                    self.values[c, p + j] = values
                    self.count[c, p + j] = group
                mult *= group
                p += g
            size += mult
            if size > _UINT64_MAX + 1:
                raise ValueError(f"cards_per_round {list(cards_per_round)}: the indices do not fit in "
                                 "64 bits")
        self.size = size
        # what the index loop reads per configuration, side by side: the offset, each sorted
        # suit's multiplier, and the four places within their groups as bytes of one word
        self.terms = np.zeros((count, 6), dtype=np.uint64)
        self.terms[:, 0] = self.offset
        self.terms[:, 1:5] = self.mult
        self.terms[:, 5] = self.within.astype(np.uint64) @ np.array([1, 1 << 8, 1 << 16, 1 << 24], dtype=np.uint64)
        # each sorted suit's cards round by round, for unindex
        self.cards = np.array([[shape // weight % base for shape in shapes for weight, base in zip(radix, bases)]
                               for shapes in configs], dtype=np.uint8).reshape(count, 4 * len(bases))
        # where unindex starts looking for an index's configuration: at most 4,096 buckets of
        # 2**bucket_shift indices, each with the configuration of its first index
        self.bucket_shift = max(0, (size - 1).bit_length() - 12)
        starts = np.arange(((size - 1) >> self.bucket_shift) + 1, dtype=np.uint64) << np.uint64(self.bucket_shift)
        self.buckets = np.append(np.searchsorted(self.offset, starts, side="right") - 1, count - 1).astype(np.int32)
        shape_count = math.prod(bases)
        entries = math.comb(shape_count + 2, 3)
        self.direct = np.full(entries if entries <= _DIRECT_ENTRIES else 0, -1, dtype=np.int32)
        if len(self.direct):
            for c, (a, b, d, _) in enumerate(configs):
                self.direct[a + math.comb(b + 1, 2) + math.comb(d + 2, 3)] = c
        self.slots = np.full(1 << max(4, (2 * count).bit_length()), -1, dtype=np.int32)
        mask = len(self.slots) - 1
        for c in range(count):
            lo, hi = int(self.shapes[c, 0]), int(self.shapes[c, 1])
            slot = ((((lo * 0x9E3779B97F4A7C15) & _MASK64) ^ ((hi * 0xC2B2AE3D27D4EB4F) & _MASK64)) >> 32) & mask
            while self.slots[slot] >= 0:
                slot = (slot + 1) & mask
            self.slots[slot] = c


def _shape_values(shape: int, radix: list[int], bases: list[int]) -> int:
    """How many rank sets one suit can hold with `shape`."""
    values, used = 1, 0
    for weight, base in zip(radix, bases):
        m = shape // weight % base
        values *= math.comb(13 - used, m)
        used += m
    return values


def _configurations(cards_per_round: Sequence[int], radix: list[int]) -> set[tuple[int, ...]]:
    """Every sorted 4-tuple of suit shapes that deals cards_per_round: the product, round by
    round, of the ways to split the round's cards over the suits (none over 13 in a suit)."""
    partial_deals: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((0, 0, 0, 0), (0, 0, 0, 0))]
    for r, n in enumerate(cards_per_round):
        splits = [s for s in itertools.product(range(min(n, 13) + 1), repeat=3) if sum(s) <= n]
        grown = []
        for shapes, totals in partial_deals:
            for split in splits:
                counts = (*split, n - sum(split))
                new_totals = tuple(t + m for t, m in zip(totals, counts))
                if max(new_totals) <= 13:
                    grown.append((tuple(s + m * radix[r] for s, m in zip(shapes, counts)), new_totals))
        partial_deals = grown
    return {tuple(sorted(shapes)) for shapes, _ in partial_deals}


def _checked_structure(cards_per_round: object) -> tuple[int, ...]:
    if isinstance(cards_per_round, (str, bytes)) or not isinstance(cards_per_round, Iterable):
        raise TypeError(f"cards_per_round must be a sequence of ints, not {type(cards_per_round).__name__}")
    counts = list(cards_per_round)
    for n in counts:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise TypeError(f"cards_per_round must hold ints, got {type(n).__name__}")
    if not 1 <= len(counts) <= MAX_ROUNDS:
        raise ValueError(f"cards_per_round must have 1..{MAX_ROUNDS} rounds, got {len(counts)}")
    if min(counts) < 1 or sum(counts) > 52:
        raise ValueError(f"cards_per_round must be positive counts of at most 52 cards in all, got {counts}")
    # Each class holds at most 24 hands: more hands than 24 * 2**64 cannot be indexed in 64 bits
    # (checked before the configurations are listed, which would take too long for such a structure).
    hands, left = 1, 52
    for n in counts:
        hands *= math.comb(left, n)
        left -= n
    if hands > 24 * (_UINT64_MAX + 1):
        raise ValueError(f"cards_per_round {counts}: the indices do not fit in 64 bits")
    # _configurations lists every split of each round's cards over the four suits, round after
    # round: the product of the splits per round is what its last round lists, known up front
    deals = math.prod(_split_count(n) for n in counts)
    if deals > _MAX_DEALS:
        raise ValueError(f"cards_per_round {counts}: building the tables would list {deals:,} partial "
                         f"deals (about {deals * _BYTES_PER_DEAL / 1e9:.1f} GB); the limit is "
                         f"{_MAX_DEALS:,} (about {_MAX_DEALS * _BYTES_PER_DEAL / 1e9:.1f} GB)")
    return tuple(int(n) for n in counts)


def _split_count(n: int) -> int:
    """How many ways _configurations splits a round of n cards over the four suits (at most 13 in
    a suit)."""
    return sum(1 for s in itertools.product(range(min(n, 13) + 1), repeat=3) if sum(s) <= n)


def _checked_round(value: object, rounds: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"round must be an int, not {type(value).__name__}")
    if not 0 <= value < rounds:
        raise ValueError(f"round must be in 0..{rounds - 1}, got {value}")
    return int(value)


class Indexer:
    """Indexes hands dealt in rounds of `cards_per_round` cards (up to 8 rounds, 52 cards): hold'em
    ``[2, 3, 1, 1]``, hole cards and board ``[2, 5]``, Omaha ``[4, 3, 1, 1]``, a 13-card hand
    ``[13]``. A hand lists its cards in round order; the index of round r covers rounds 0..r
    (perfect recall), in 0..size(r) - 1."""

    def __init__(self, cards_per_round: Sequence[int]):
        _iso.init_tables()
        self.cards_per_round: tuple[int, ...] = _checked_structure(cards_per_round)
        self.rounds = len(self.cards_per_round)
        self._ends = tuple(itertools.accumulate(self.cards_per_round))
        self._tables = [_Round(self.cards_per_round[:r + 1]) for r in range(self.rounds)]

    def __repr__(self) -> str:
        return f"Indexer({list(self.cards_per_round)})"

    def size(self, round: int | None = None) -> int:
        """How many classes the hands of rounds 0..round fall in (default: the last round)."""
        r = self.rounds - 1 if round is None else _checked_round(round, self.rounds)
        return self._tables[r].size

    def _round_of(self, k: int, round: int | None) -> int:
        """The round a row of k cards is indexed for: the last one it covers, or `round`."""
        if k not in self._ends:
            raise ValueError(f"a hand of {self!r} has {', '.join(map(str, self._ends))} cards "
                             f"(the rounds it covers), got {k}")
        covered = self._ends.index(k)
        if round is None:
            return covered
        r = _checked_round(round, self.rounds)
        if r > covered:
            raise ValueError(f"round {r} needs {self._ends[r]} cards, the hand has {k}")
        return r

    def index(self, cards: str | Iterable[str | int], round: int | None = None) -> int:
        """The index of one hand (text, ids or card strings, in round order)."""
        ids = parse_hand(cards)
        self._round_of(len(ids), round)        # the hand's length and the round, checked first
        return int(self.index_batch(np.array([ids], dtype=np.uint8), round)[0])

    def index_batch(self, cards: npt.ArrayLike, round: int | None = None, *,
                    threads: int | None = None) -> npt.NDArray[np.uint64]:
        """The indices of the hands in an (N, k) integer array (cards in round order) as an (N,)
        uint64 array, for `round` (default: the last round the k cards cover). The GIL is
        released; `threads` splits the rows as in the evaluators' batch calls. A bad row raises
        ValueError naming the row and the card."""
        arr = _batch.card_array(cards, self._ends, "iso.index_batch")
        r = self._round_of(arr.shape[1], round)
        t = self._tables[r]
        kernel = partial(_kernel_index, np.array(self._ends[:r + 1], dtype=np.uint8), t)
        out = np.empty(arr.shape[0], dtype=np.uint64)
        bad = _batch.run(kernel, arr, out, _batch.thread_count(threads, arr.shape[0]))
        if bad >= 0:
            raise _batch.row_error(arr, bad)
        return out

    def unindex(self, round: int, index: int) -> list[int]:
        """The canonical hand (card ids in round order, each round's cards in increasing order) of
        `index` in `round`."""
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"index must be an int, not {type(index).__name__}")
        r = _checked_round(round, self.rounds)
        if not 0 <= index < self._tables[r].size:
            raise ValueError(f"index {index} is out of range 0..{self._tables[r].size - 1} for round {r}")
        return [int(c) for c in self.unindex_batch(r, np.array([index], dtype=np.uint64))[0]]

    def unindex_batch(self, round: int, indices: npt.ArrayLike) -> npt.NDArray[np.uint8]:
        """The canonical hands of an (N,) integer array of indices of `round`, as an (N, k) uint8
        array (k: the cards of rounds 0..round). An index out of range raises ValueError naming
        its row."""
        r = _checked_round(round, self.rounds)
        # a copy: an index another thread writes after the checks below must never reach the loop
        arr = np.array(indices)
        if arr.dtype.kind not in "iu" and not (arr.size == 0 and arr.dtype.kind == "f"):
            raise TypeError(f"indices must be an integer array, got dtype {arr.dtype}")
        if arr.ndim != 1:
            raise ValueError(f"indices must have shape (N,), got {arr.shape}")
        t = self._tables[r]
        if arr.dtype.kind == "i":
            negative = np.flatnonzero(arr < 0)
            if negative.size:
                raise ValueError(f"row {negative[0]}: index {arr[negative[0]]} is out of range "
                                 f"0..{t.size - 1}")
        arr = np.ascontiguousarray(arr, dtype=np.uint64)
        if t.size <= _UINT64_MAX:
            over = np.flatnonzero(arr >= np.uint64(t.size))
            if over.size:
                raise ValueError(f"row {over[0]}: index {arr[over[0]]} is out of range 0..{t.size - 1}")
        out = np.empty((arr.shape[0], self._ends[r]), dtype=np.uint8)
        _iso.unindex_rows(arr, out, np.array(self._ends[:r + 1], dtype=np.uint8), t.cards, t.shapes, t.offset,
                          t.mult, t.within, t.values, t.count, t.buckets, t.bucket_shift)
        return out

    def canonical(self, cards: str | Iterable[str | int]) -> list[int]:
        """The canonical hand of the class of `cards` (for the last round they cover)."""
        ids = parse_hand(cards)
        r = self._round_of(len(ids), None)
        return self.unindex(r, self.index(ids))


def _kernel_index(ends: npt.NDArray[np.uint8], t: _Round, rows: npt.NDArray[np.uint8],
                  out: npt.NDArray[np.uint64]) -> int:
    return int(_iso.index_rows(rows, out, ends, t.radix, t.direct, t.slots, t.shapes, t.terms))


def canonical(cards: str | Iterable[str | int], cards_per_round: Sequence[int] | None = None) -> list[int]:
    """The canonical form of a hand: the same for every hand equal to it up to a permutation of
    the suits and the order of the cards within each round (one round of all its cards unless
    `cards_per_round` says otherwise).

    >>> hand_str(canonical("Ah Kh")), hand_str(canonical("As Ks"))
    ('Kc Ac', 'Kc Ac')
    """
    ids = parse_hand(cards)
    return Indexer([len(ids)] if cards_per_round is None else cards_per_round).canonical(ids)
