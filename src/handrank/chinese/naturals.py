"""Naturals of 13-card Chinese poker: dragon, six pairs, three straights, three flushes, and the
variants some rules pay (no picture cards, six and above, 12 or 13 of one colour, no Broadway).

Each check works on rank and suit counts first, so a hand that holds no natural costs a few
microseconds; only a hand that does is searched for the strongest setting that shows it (the
setting two naturals of the same kind are compared by).
"""
from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

import numpy as np

from handrank import high, high3, rows
from handrank.chinese.rules import Rules, as_rules, natural_bit, row_order
from handrank._threerow.board import Board
from handrank.cards import cards as parse_cards

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    import numpy.typing as npt

__all__ = ["Natural", "natural", "compare_naturals", "thirteen_cards", "variant_naturals"]

ACE = 12
# Rank windows, weakest first; the ace also plays low (A-2-3, A-2-3-4-5), never wrapping (K-A-2).
_WINDOWS3 = [(ACE, 0, 1)] + [tuple(range(s, s + 3)) for s in range(11)]
_WINDOWS5 = [(ACE, 0, 1, 2, 3)] + [tuple(range(s, s + 5)) for s in range(9)]
_PLACE3 = {frozenset(w): place for place, w in enumerate(_WINDOWS3)}
_PLACE5 = {frozenset(w): place for place, w in enumerate(_WINDOWS5)}
# With wheel_second (seeds/001: "The Wheel (A, 2, 3, 4, 5) is the second highest straight"): the
# wheel between K-high and A-high. The 3-card A-2-3 is no wheel and stays the lowest run on top.
_PLACE5_WHEEL_SECOND = {frozenset(w): place
                        for place, w in enumerate(_WINDOWS5[1:9] + _WINDOWS5[:1] + _WINDOWS5[9:])}


@dataclass(frozen=True)
class Natural:
    """A natural: its kind, the units the rules pay for it, the setting that shows it (three
    straights, three flushes; None for a dragon or six pairs) and the key that compares it with
    another natural of the same kind (bigger wins)."""

    kind: str
    units: int
    setting: Board | None
    key: tuple[int, ...]


def thirteen_cards(cards: str | Sequence[int | str]) -> list[int]:
    """The ids of a 13-card Chinese poker hand, parsed and checked: ValueError unless exactly 13
    distinct valid cards."""
    ids = parse_cards(cards)
    if len(ids) != 13:
        raise ValueError(f"a Chinese poker hand has 13 cards, got {len(ids)}")
    return ids


def natural(cards: str | Sequence[int | str], rules: Rules | str | None = None) -> Natural | None:
    """The natural the 13 cards hold under `rules`, or None: the one worth the most units, the
    first of ``rules.naturals`` among equals."""
    ids = thirteen_cards(cards)
    rules = as_rules(rules)
    found = None
    for kind, units in rules.naturals:
        if found is not None and units <= found.units:
            continue
        shown = _FINDERS[kind](ids, rules.wheel_second)
        if shown is not None:
            found = Natural(kind, units, *shown)
    return found


def compare_naturals(a: Natural, b: Natural) -> int:
    """+1 if `a` beats `b`, -1 if `b` beats `a`, 0 for a tie: more units win; naturals of the
    same kind compare by key; different kinds worth the same tie."""
    for x in (a, b):
        if not isinstance(x, Natural):
            raise TypeError(f"compare_naturals takes two chinese.Natural (from chinese.natural), "
                            f"not {type(x).__name__}")
    if a.units != b.units:
        return 1 if a.units > b.units else -1
    if a.kind != b.kind:
        return 0
    return (a.key > b.key) - (a.key < b.key)


# ---------------------------------------------------------------------- finders
Shown = tuple[Board | None, tuple[int, ...]]


# Each finder takes the 13 ids and the rules' wheel_second (which only the two that show a
# setting read: it orders their rows).
def _dragon(ids: list[int], wheel_second: bool) -> Shown | None:
    return (None, ()) if len({c // 4 for c in ids}) == 13 else None


def _six_pairs(ids: list[int], wheel_second: bool) -> Shown | None:
    counts = Counter(c // 4 for c in ids)
    if sum(n // 2 for n in counts.values()) != 6:
        return None
    return None, (max(r for r, n in counts.items() if n >= 2),)


def _strongest(settings: Iterator[tuple[list[int], list[int], list[int]]], wheel_second: bool,
               order: Callable[[list[int], list[int], list[int]], tuple[int, ...]] | None = None
               ) -> Shown | None:
    """The setting with the strongest bottom, then middle, then top as high hands, and that key
    (`_strength`); with `order`, the valid setting (bottom no weaker than the middle) of the
    highest key order(top, middle, bottom), the strongest rows choosing among those of that key."""
    best: Shown | None = None
    best_full: tuple[int, ...] = ()
    for top, middle, bottom in settings:
        key = _strength(top, middle, bottom, wheel_second)
        if order is not None and key[0] < key[1]:
            continue        # (a straight flush middle above a straight: set the other way round)
        shown_key = key if order is None else order(top, middle, bottom)
        full = shown_key + key
        if best is None or full > best_full:
            best, best_full = (Board(sorted(top), sorted(middle), sorted(bottom)), shown_key), full
    return best


def _strength(top: list[int], middle: list[int], bottom: list[int],
              wheel_second: bool) -> tuple[int, ...]:
    """The rows bottom first as high hands: their high values; with wheel_second their row values
    on that order (`chinese.rules.row_order`: a wheel or steel wheel just below the ace-high one),
    as the rows of such rules compare."""
    if not wheel_second:
        return high.evaluate(bottom), high.evaluate(middle), high3.evaluate(top)
    order = _wheel_second_order()
    return (int(order[rows.value(bottom)]), int(order[rows.value(middle)]),
            int(order[rows.value(top)]))


@lru_cache(maxsize=1)
def _wheel_second_order() -> npt.NDArray[np.uint16]:
    return row_order(Rules(wheel_second=True))


def _three_flushes(ids: list[int], wheel_second: bool) -> Shown | None:
    by_suit: dict[int, list[int]] = {}
    for c in sorted(ids):
        by_suit.setdefault(c % 4, []).append(c)
    if sorted(len(cs) for cs in by_suit.values()) not in ([13], [5, 8], [3, 10], [3, 5, 5]):
        return None

    def settings() -> Iterator[tuple[list[int], list[int], list[int]]]:
        # rows take cards of one suit each; a suit holding two or three rows is split every way
        for top_suit, middle_suit, bottom_suit in itertools.product(by_suit, repeat=3):
            if any(len(cs) != 3 * (s == top_suit) + 5 * (s == middle_suit) + 5 * (s == bottom_suit)
                   for s, cs in by_suit.items()):
                continue
            for bottom in itertools.combinations(by_suit[bottom_suit], 5):
                rest = [c for c in by_suit[middle_suit] if c not in bottom]
                for middle in itertools.combinations(rest, 5):
                    left = [c for c in by_suit[top_suit] if c not in bottom and c not in middle]
                    yield left, list(middle), list(bottom)
    return _strongest(settings(), wheel_second)


def _three_straights(ids: list[int], wheel_second: bool) -> Shown | None:
    counts = Counter(c // 4 for c in ids)
    if max(counts.values()) > 3:
        return None
    cards_of: dict[int, list[int]] = {}
    for c in sorted(ids):
        cards_of.setdefault(c // 4, []).append(c)

    splits = _run_splits().get(tuple(counts[r] for r in range(13)))
    if splits is None:
        return None

    def settings() -> Iterator[tuple[list[int], list[int], list[int]]]:
        # each rank's cards go one to each row that needs the rank, in every order
        for windows in splits:
            needs = {r: [row for row, w in enumerate(windows) if r in w] for r in cards_of}
            ranks = list(cards_of)
            for orders in itertools.product(*(itertools.permutations(cards_of[r]) for r in ranks)):
                rows: list[list[int]] = [[], [], []]
                for r, order in zip(ranks, orders):
                    for row, c in zip(needs[r], order):
                        rows[row].append(c)
                yield rows[0], rows[1], rows[2]
    return _strongest(settings(), wheel_second,
                      partial(_straight_order, _PLACE5_WHEEL_SECOND if wheel_second else _PLACE5))


def _straight_order(place5: dict[frozenset[int], int], top: list[int], middle: list[int],
                    bottom: list[int]) -> tuple[int, ...]:
    """The places of the rows in straight order (A-2-3 lowest; A-2-3-4-5 lowest, or with
    wheel_second just below T-J-Q-K-A: `place5`), bottom first: the rows of two three-straights
    naturals compare as straights, never as high cards."""
    return (place5[frozenset(c // 4 for c in bottom)], place5[frozenset(c // 4 for c in middle)],
            _PLACE3[frozenset(c // 4 for c in top)])


@lru_cache(maxsize=1)
def _run_splits() -> dict[tuple[int, ...], list[tuple[tuple[int, ...], ...]]]:
    """Rank counts (13 entries) -> every (top, middle, bottom) of rank windows that uses them."""
    splits: dict[tuple[int, ...], list[tuple[tuple[int, ...], ...]]] = {}
    for windows in itertools.product(_WINDOWS3, _WINDOWS5, _WINDOWS5):
        counts = Counter(itertools.chain(*windows))
        splits.setdefault(tuple(counts[r] for r in range(13)), []).append(windows)
    return splits


# ---------------------------------------------------------------------- the variants
# Each is a property of the 13 cards alone, with no setting to show and nothing that ranks two of
# them (two hands holding the same one tie). A test takes, per hand, the set of its ranks as bits
# (1 << rank) and how many of its cards are red (diamonds, hearts).
_RANK_BIT = np.left_shift(1, np.arange(52) // 4).astype(np.uint16)
_RED = np.isin(np.arange(52) % 4, (1, 2)).astype(np.uint8)
_PICTURES = 0b111 << 9          # J Q K
_BELOW_SIX = 0b1111             # 2 3 4 5
_BROADWAY = 0b11111 << 8        # T J Q K A

_VARIANT_TESTS: dict[str, Callable[[npt.NDArray[np.uint16], npt.NDArray[np.int32]], Any]] = {
    "no picture cards": lambda ranks, red: ranks & _PICTURES == 0,
    "six and above": lambda ranks, red: ranks & _BELOW_SIX == 0,
    "12 of one colour": lambda ranks, red: (red <= 1) | (red >= 12),
    "13 of one colour": lambda ranks, red: (red == 0) | (red == 13),
    "no broadway cards": lambda ranks, red: ranks & _BROADWAY == 0,
}


def variant_naturals(cards: npt.NDArray[np.uint8], kinds: Iterable[str]) -> npt.NDArray[np.int32]:
    """For each row of an (N, 13) array of valid cards, which of the variant naturals `kinds` it
    holds, as the kinds' bits (`chinese.rules.natural_bit`)."""
    ranks = np.bitwise_or.reduce(_RANK_BIT[cards], axis=1)
    red = _RED[cards].sum(axis=1, dtype=np.int32)
    bits = np.zeros(len(cards), dtype=np.int32)
    for kind in kinds:
        bits |= np.where(_VARIANT_TESTS[kind](ranks, red), natural_bit(kind), 0).astype(np.int32)
    return bits


def _variant_finder(kind: str) -> Callable[[list[int], bool], Shown | None]:
    def find(ids: list[int], wheel_second: bool) -> Shown | None:
        return (None, ()) if variant_naturals(np.array([ids], dtype=np.uint8), (kind,))[0] else None
    return find


_FINDERS = {"dragon": _dragon, "six pairs": _six_pairs, "three flushes": _three_flushes,
            "three straights": _three_straights,
            **{kind: _variant_finder(kind) for kind in _VARIANT_TESTS}}
