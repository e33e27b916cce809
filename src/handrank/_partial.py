"""Stud's partial hands (1 to 4 cards: the up cards that decide who acts first) and the bring-in.

A partial hand ranks as the 5-card order would rank it with the missing cards the worst possible
kickers: quads > trips > two pair > pair > high card, then the ranks of the groups, then the
kickers, a missing kicker worse than any card; no straights or flushes. For A-5 lows the ace is
low and pairs are bad. Values are dense over every class of 1 to 4 cards, higher is better, so
hands of different sizes compare too (A-K < A-K-2 in high: the missing kicker is the worst).
"""
from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from functools import cache

from handrank.cards import cards as parse_hand

MAX_CARDS = 4


def _high_key(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Bigger is better: (category, the distinct ranks by group size then rank, high first), a
    missing card as -1, lower than any rank."""
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = tuple(sorted(counts.values(), reverse=True))
    category = {(4,): 4, (3,): 3, (3, 1): 3, (2, 2): 2}.get(shape, 1 if shape[0] == 2 else 0)
    return (category, *order, *([-1] * (MAX_CARDS - len(order))))


def _low_key(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Bigger is the better low: ace low, pairs bad; a missing card counts as worse than a king."""
    low = [(r + 1) % 13 for r in ranks]             # ace 0, deuce 1, ..., king 12
    counts = Counter(low)
    shape = tuple(sorted(counts.values(), reverse=True))
    badness = {(1,): 0, (1, 1): 0, (1, 1, 1): 0, (1, 1, 1, 1): 0, (2,): 1, (2, 1): 1, (2, 1, 1): 1,
               (2, 2): 2, (3,): 3, (3, 1): 3, (4,): 5}[shape]
    # groups first (the pair's rank), then kickers high to low; a missing kicker is the highest,
    # so it leads the kickers
    groups = sorted((r for r in counts if counts[r] > 1), key=lambda r: (counts[r], r), reverse=True)
    kickers = sorted((r for r in counts if counts[r] == 1), reverse=True)
    missing = MAX_CARDS - sum(counts[r] for r in groups) - len(kickers)
    order = [*groups, *([13] * missing), *kickers]
    return (-badness, *(-r for r in order), *([-13] * (MAX_CARDS - len(order))))


@cache
def _values(low: bool) -> dict[tuple[int, ...], int]:
    """Sorted rank tuple of 1..4 cards -> dense value (built once, on first use: 2,379 classes)."""
    multisets = [m for k in range(1, MAX_CARDS + 1)
                 for m in itertools.combinations_with_replacement(range(13), k)]
    key = _low_key if low else _high_key
    keys = {m: key(m) for m in multisets}
    dense = {k: i + 1 for i, k in enumerate(sorted(set(keys.values())))}
    return {m: dense[keys[m]] for m in multisets}


def max_value(low: bool) -> int:
    return max(_values(low).values())


@cache
def _ranks_of(low: bool) -> dict[int, tuple[int, ...]]:
    """Value -> the sorted ranks of its class (the inverse of _values)."""
    return {v: m for m, v in _values(low).items()}


def describe(value: int, low: bool) -> str:
    """Words for a partial value: "Pair of aces (A-A-K)", "Seven-four low (7-4-2)" in razz."""
    from handrank._names import rank_name, rank_plural
    from handrank._values import checked

    ranks = _ranks_of(low)[checked(value, max_value(low), "a partial-hand value")]
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], (r + 1) % 13 if low else r), reverse=True)
    if low and max(counts.values()) == 1:
        order = sorted(counts, key=lambda r: (r + 1) % 13, reverse=True)
    text = "-".join("A23456789TJQK"[(r + 1) % 13] for r in order for _ in range(counts[r]))
    shape = sorted(counts.values(), reverse=True)
    top = order[0]
    if shape[0] == 4:
        words = f"Four of a kind, {rank_plural(top)}"
    elif shape[0] == 3:
        words = f"Three of a kind, {rank_plural(top)}"
    elif shape[:2] == [2, 2]:
        words = f"Two pair, {rank_plural(order[0])} and {rank_plural(order[1])}"
    elif shape[0] == 2:
        words = f"Pair of {rank_plural(top)}"
    elif low:
        words = "-".join(rank_name(r) for r in order[:2]).capitalize() + " low"
    else:
        words = f"{rank_name(top).capitalize()} high"
    return f"{words} ({text})"


def evaluate(hand: str | Iterable[str | int], low: bool) -> int:
    ids = parse_hand(hand)
    if not 1 <= len(ids) <= MAX_CARDS:
        raise ValueError(f"a partial hand has 1 to 4 cards, got {len(ids)}")
    return _values(low)[tuple(sorted(c // 4 for c in ids))]


def bring_in(up_cards: Iterable[str | int], low: bool) -> int:
    """Index of the player who brings it in, from one up card per player."""
    ids = parse_hand(up_cards)          # one card each: a repeat is an error
    if not ids:
        raise ValueError("bring_in needs at least one up card")
    if low:
        # razz: the highest card (king highest, ace lowest); ties by suit, spades highest
        return max(range(len(ids)), key=lambda i: ((ids[i] // 4 + 1) % 13, ids[i] % 4))
    # stud high: the lowest card (ace high); ties by suit, clubs lowest: the smallest id
    return min(range(len(ids)), key=lambda i: ids[i])
