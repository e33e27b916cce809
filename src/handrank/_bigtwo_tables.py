"""The lookup tables of a Big Two ruleset, built on first use (about 0.1 s) and cached.

Key layout (int32, higher beats lower among plays of the same size):
- single: 1 + 4 * rank + suit; pair: 1 + 4 * rank + higher suit; triple, bare four: 1 + rank
  (rank and suit in Big Two order: rank 0 = three .. 12 = two, suit 0 = the ruleset's lowest);
- five cards: (position of the kind in ``rules.five_card_kinds``, from 1) << 24 | within-kind
  order: straights (and straight flushes) 4 * position in the straight table + tie-break suit;
  flushes the five ranks high to low, 4 bits each, then the suit (or suit first); full house and
  four of a kind the rank of the triple / the four; two pair 4 * higher pair's rank + its higher suit.
"""
from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from collections import Counter

import numpy as np

from handrank import _bigtwo, _evaluate
from handrank._bigtwo_rules import Kind, Rules
from handrank.cards import RANKS, SUITS

KIND_SHIFT = 24
# Selectors of the card whose suit breaks ties: 0 none, 1 + card rank, or any card (flushes: all
# five share the suit). A class entry is base | selector << 27 | (suit counts 2**20) << 31.
_NO_CARD = 0
_ANY_CARD = 14


def big_two_rank(card_id: int) -> int:
    """Rank 0 (three) .. 12 (two) of a card id."""
    return (card_id // 4 - 1) % 13


@functools.lru_cache(maxsize=64)
def tables(rules: Rules) -> _bigtwo.Tables:
    rank = np.array([big_two_rank(c) for c in range(52)], dtype=np.uint8)
    suit = np.array([rules.suit_order.index(SUITS[c % 4]) for c in range(52)], dtype=np.uint8)
    pick = np.zeros((52, 16), dtype=np.uint8)
    for c in range(52):
        pick[c, 1 + c // 4] = suit[c]
        pick[c, _ANY_CARD] = suit[c]
    classes = np.zeros(7463, dtype=np.uint32)                    # no combo: key 0
    order = {kind: i + 1 for i, kind in enumerate(rules.five_card_kinds)}
    straights = {frozenset(ranks): (i, tiebreak) for i, (ranks, tiebreak) in enumerate(rules.straights)}
    for ranks, suited in _rank_classes():
        cls = _evaluate.high_evaluate(_representative(ranks, suited))
        found = _five_card_class(rules, ranks, suited, straights)
        if found is None or found[0] not in order:
            continue
        kind, within, suit_shift, tie_selector = found
        classes[cls] = order[kind] << KIND_SHIFT | within | tie_selector << 27 | (suit_shift == 20) << 31
    straight_masks = [sum(1 << RANKS.index(r) for r in ranks) for ranks, _ in rules.straights]
    return _bigtwo.Tables(rank, suit, pick.ravel(), classes,
                          rules.four_of_a_kind != "with_kicker", rules.two_pair, straight_masks)


def five_card_kind(rules: Rules, key: int) -> Kind:
    return rules.five_card_kinds[(key >> KIND_SHIFT) - 1]


def _rank_classes() -> Iterator[tuple[tuple[int, ...], bool]]:
    """(poker ranks, suited) of each of the 7462 high-hand classes."""
    for ranks in itertools.combinations(range(13), 5):
        yield ranks, False
        yield ranks, True
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        counts = Counter(ranks).values()
        if len(counts) < 5 and max(counts) <= 4:
            yield ranks, False


def _representative(ranks: tuple[int, ...], suited: bool) -> list[int]:
    if suited:
        return [4 * r for r in ranks]
    if len(set(ranks)) == 5:
        return [4 * r + (i == 1) for i, r in enumerate(ranks)]
    used: Counter[int] = Counter()
    cards = []
    for r in ranks:
        cards.append(4 * r + used[r])
        used[r] += 1
    return cards


def _five_card_class(rules: Rules, ranks: tuple[int, ...], suited: bool,
                     straights: dict[frozenset[str], tuple[int, str]]) -> tuple[Kind, int, int, int] | None:
    """(kind, within-kind base, shift of the tie-break suit, tie-break selector) or None."""
    counts = Counter(ranks)
    b2 = {r: (r - 1) % 13 for r in counts}
    shape = sorted(counts.values(), reverse=True)
    if shape == [1] * 5:
        straight = straights.get(frozenset(RANKS[r] for r in ranks))
        if straight is not None:
            index, tiebreak = straight
            return (Kind.STRAIGHT_FLUSH if suited else Kind.STRAIGHT, 4 * index, 0, 1 + RANKS.index(tiebreak))
        if not suited:
            return None
        code = 0
        for r in sorted(b2.values(), reverse=True):
            code = code << 4 | r
        if rules.flush_order == "ranks":
            return Kind.FLUSH, code << 2, 0, _ANY_CARD
        return Kind.FLUSH, code, 20, _ANY_CARD
    if shape == [4, 1]:
        four = next(r for r, n in counts.items() if n == 4)
        return Kind.FOUR_OF_A_KIND, b2[four], 0, _NO_CARD
    if shape == [3, 2]:
        triple = next(r for r, n in counts.items() if n == 3)
        return Kind.FULL_HOUSE, b2[triple], 0, _NO_CARD
    if shape == [2, 2, 1]:
        high = max((r for r, n in counts.items() if n == 2), key=b2.__getitem__)
        return Kind.TWO_PAIR, 4 * b2[high], 0, 1 + high
    return None
