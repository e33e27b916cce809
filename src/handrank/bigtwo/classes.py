"""The five-card class table of a Big Two ruleset.

Standard library only: tools/gen_tables.py loads this file to build the default ruleset's table
into the extension at build time, and handrank.bigtwo.tables calls it for any other ruleset on
first use. One piece of code, so the two can never disagree.

A class entry (uint32, one per high-hand class 1..7462; 0: no combo) is
``base | selector << 27 | flag << 31``:
- base: ``(position of the kind in five_card_kinds, from 1) << 24 | within-kind order``. Straights
  (and straight flushes): 4 * position in the straight table. Flushes: the five Big Two ranks high
  to low, 4 bits each, shifted left 2 (the suit goes last) or not (suit first, flag set). Full
  house, four of a kind and the three-of-a-kind hand: the Big Two rank of the triple / the four.
  Two pair and sisters: 4 * the higher pair's rank.
- selector: the card whose suit is added to the base: 0 none, 1 + poker rank (the card of that
  rank), or 14 any card (a flush: all five share the suit).
- flag: the suit counts 2**20 instead of 1 (flushes compared suit first).
"""
from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from enum import IntEnum

KIND_SHIFT = 24
NO_CARD = 0
ANY_CARD = 14
POKER_RANKS = "23456789TJQKA"      # handrank.cards.RANKS: rank 0 = deuce .. 12 = ace


class Kind(IntEnum):
    """What a combo is. Five-card kinds are listed in the default order, weakest first."""

    SINGLE = 1
    PAIR = 2
    TRIPLE = 3
    FOUR = 4             # four of a kind played as four cards (a `four_of_a_kind` option)
    TWO_PAIR = 5         # two pairs plus a card (an option, below the straight)
    STRAIGHT = 6
    FLUSH = 7
    FULL_HOUSE = 8
    FOUR_OF_A_KIND = 9   # four of a kind plus any fifth card
    STRAIGHT_FLUSH = 10
    THREE_OF_A_KIND = 11  # a triple and two odd cards (an option, below the straight)
    SISTERS = 12          # two pairs of consecutive ranks and any card (an option, the weakest)
    THREE_CARD_STRAIGHT = 13  # three cards of consecutive ranks (an option; only beats its kind)
    LONG_STRAIGHT = 14    # 6 to 12 cards of consecutive ranks (an option; only beats its length)
    DRAGON = 15           # the 13-card run 3..2 (an option; only beats a dragon)
    PAIR_RUN = 16         # 3 to 12 pairs of consecutive ranks below the 2 (a smack-down)

    def __str__(self) -> str:
        return self.name.replace("_", " ").lower()


def _windows(order: str) -> tuple[tuple[str, str], ...]:
    """The straight table for 5-rank windows written as they run, top card breaking ties."""
    return tuple((w, w[-1]) for w in order.split())


PLAIN_STRAIGHTS = _windows("34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA")
HK_STRAIGHTS = PLAIN_STRAIGHTS + (("23456", "2"), ("A2345", "2"))


def signature(straights: Sequence[tuple[str, str]], flush_order: str, five_card_kinds: Sequence[int],
              poker_order: bool = False, twos_low: bool = False) -> str:
    """The ruleset facts a class table depends on, as text: equal texts mean equal tables."""
    return (" ".join(f"{ranks}/{tiebreak}" for ranks, tiebreak in straights)
            + f"; {flush_order}; " + " ".join(str(int(kind)) for kind in five_card_kinds)
            + "; poker order" * poker_order + "; twos low" * twos_low)


def class_table(high_value: Callable[[tuple[int, ...], bool], int], straights: Sequence[tuple[str, str]],
                flush_order: str, five_card_kinds: Sequence[int], poker_order: bool = False,
                twos_low: bool = False) -> list[int]:
    """The 7463 class entries. `high_value(poker_ranks, suited)` is the high-hand value (1..7462)
    of five cards with those ranks, all of one suit or not. `poker_order`: flushes, four of a kind
    and the optional kinds compare their ranks in poker order (2 lowest); full houses keep Big
    Two's (the full house of 2s above the full house of aces). `twos_low`: Big Two's order with the
    2s lowest (a dealt bomb), for every kind."""
    entries = [0] * 7463
    order = {int(kind): i + 1 for i, kind in enumerate(five_card_kinds)}
    by_set = {frozenset(ranks): (i, tiebreak) for i, (ranks, tiebreak) in enumerate(straights)}
    sisters = Kind.SISTERS in order
    for ranks, suited in _rank_classes():
        found = _five_card_class(ranks, suited, by_set, flush_order, sisters, poker_order, twos_low)
        if found is None or found[0] not in order:
            continue
        kind, within, suit_first, selector = found
        entries[high_value(ranks, suited)] = (order[kind] << KIND_SHIFT | within | selector << 27
                                              | suit_first << 31)
    return entries


def _rank_classes() -> Iterator[tuple[tuple[int, ...], bool]]:
    """(poker ranks, suited) of each of the 7462 high-hand classes."""
    for ranks in itertools.combinations(range(13), 5):
        yield ranks, False
        yield ranks, True
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        counts = Counter(ranks).values()
        if len(counts) < 5 and max(counts) <= 4:
            yield ranks, False


def _five_card_class(ranks: tuple[int, ...], suited: bool, straights: dict[frozenset[str], tuple[int, str]],
                     flush_order: str, sisters: bool, poker_order: bool = False,
                     twos_low: bool = False) -> tuple[int, int, int, int] | None:
    """(kind, within-kind base, suit first, tie-break selector) or None. Two pairs of consecutive
    Big Two ranks are sisters where `sisters` (the rules have them instead of two pair)."""
    counts = Counter(ranks)
    # Big Two rank: three = 0 .. two = 12, or two = 0 .. ace = 12 with the 2s low
    b2 = {r: r if twos_low else (r - 1) % 13 for r in counts}
    # the order ranks compare in: Big Two's, or poker's (two = 0 .. ace = 12) under poker_order
    order = {r: r for r in counts} if poker_order else b2
    shape = sorted(counts.values(), reverse=True)
    if shape == [1] * 5:
        straight = straights.get(frozenset(POKER_RANKS[r] for r in ranks))
        if straight is not None:
            index, tiebreak = straight
            kind = Kind.STRAIGHT_FLUSH if suited else Kind.STRAIGHT
            return kind, 4 * index, 0, 1 + POKER_RANKS.index(tiebreak)
        if not suited:
            return None
        if flush_order == "highest_card":        # the top card alone: its rank, then its suit
            return Kind.FLUSH, max(order.values()) << 2, 0, ANY_CARD
        code = 0
        for r in sorted(order.values(), reverse=True):
            code = code << 4 | r
        if flush_order == "ranks":
            return Kind.FLUSH, code << 2, 0, ANY_CARD
        return Kind.FLUSH, code, 1, ANY_CARD
    if shape == [4, 1]:
        four = next(r for r, n in counts.items() if n == 4)
        return Kind.FOUR_OF_A_KIND, order[four], 0, NO_CARD
    if shape == [3, 2]:
        triple = next(r for r, n in counts.items() if n == 3)
        return Kind.FULL_HOUSE, b2[triple], 0, NO_CARD
    if shape == [3, 1, 1]:
        triple = next(r for r, n in counts.items() if n == 3)
        return Kind.THREE_OF_A_KIND, order[triple], 0, NO_CARD
    if shape == [2, 2, 1]:
        low, high = sorted((r for r, n in counts.items() if n == 2), key=b2.__getitem__)
        kind = Kind.SISTERS if sisters and b2[high] == b2[low] + 1 else Kind.TWO_PAIR
        top = max(order[low], order[high])
        return kind, 4 * top, 0, 1 + (high if order[high] == top else low)
    return None
