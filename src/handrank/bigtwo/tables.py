"""The lookup tables of a Big Two ruleset, cached per ruleset.

The five-card class table (handrank.bigtwo.classes) of the default ruleset is built into the
extension at build time; any other ruleset's is built on first use (about 0.1 s). Keys (int32,
higher beats lower among plays of the same size):
- single: 1 + 4 * rank + suit; pair: 1 + 4 * rank + higher suit; triple, bare four: 1 + rank
  (rank and suit in Big Two order: rank 0 = three .. 12 = two, suit 0 = the ruleset's lowest);
  where two pairs are four-card plays, those are keyed as their higher pair (1..52) and a bare
  four as 53 + rank; three-card straights (``three_card_straights``) 2**24 plus their top card's
  single key; runs of 6 to 13 cards (``long_straights``, ``dragon``) their top card's single key,
  the suit counting only where suits break ties of five-card plays; where suits break no ties
  (``suit_tiebreak``), suits count 0;
- five cards: the class entry's base plus the tie-break suit (see handrank.bigtwo.classes).
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from handrank import _evaluate
from handrank.bigtwo import _bigtwo
from handrank.bigtwo.classes import ANY_CARD, KIND_SHIFT, class_table, signature
from handrank.bigtwo.rules import Kind, Rules
from handrank.cards import RANKS, SUITS

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["KIND_SHIFT", "TWO_PAIR4_TOP", "big_two_rank", "five_card_kind", "tables"]

TWO_PAIR4_TOP = 52     # the highest key of a four-card two pair; bare fours are keyed above it


def big_two_rank(card_id: int, twos_low: bool = False) -> int:
    """Rank 0 (three) .. 12 (two) of a card id; with `twos_low` (a dealt bomb), 0 (two) .. 12 (ace)."""
    return card_id // 4 if twos_low else (card_id // 4 - 1) % 13


@functools.lru_cache(maxsize=64)
def tables(rules: Rules) -> _bigtwo.Tables:
    rank = np.array([big_two_rank(c, rules.twos_low) for c in range(52)], dtype=np.uint8)
    suit = np.array([rules.suit_order.index(SUITS[c % 4]) for c in range(52)], dtype=np.uint8)
    pick = np.zeros((256, 16), dtype=np.uint8)      # rows 52..255: ids a bad row may hold
    if rules.suit_tiebreak == "all":                # else no suit adds to a five-card key
        for c in range(52):
            pick[c, 1 + c // 4] = suit[c]
            pick[c, ANY_CARD] = suit[c]
    if rules.suit_tiebreak == "none":               # nor to any other key
        suit[:] = 0
    classes = _classes(rules.straights, rules.flush_order, rules.five_card_kinds, rules.poker_order,
                       rules.twos_low)
    straight_masks = [sum(1 << RANKS.index(r) for r in ranks) for ranks, _ in rules.straights]
    two_pair4 = rules.two_pair and rules.two_pair_size == 4
    return _bigtwo.Tables(rank, suit, pick.ravel(), classes, rules.four_cards_alone or rules.smack_down,
                          rules.two_pair and not two_pair4 or rules.sisters, straight_masks, two_pair4,
                          rules.three_of_a_kind_hand, rules.three_card_straights, rules.run_sizes,
                          rules.bare_triples, rules.smack_down)


@functools.lru_cache(maxsize=64)
def _classes(straights: tuple[tuple[str, str], ...], flush_order: str, five_card_kinds: tuple[Kind, ...],
             poker_order: bool = False, twos_low: bool = False) -> npt.NDArray[np.uint32]:
    """The class table of these ruleset facts, shared (read-only) by the rulesets that differ only
    in others (suit order, long runs, follow rules): it is the slow part of a ruleset's tables."""
    facts = (straights, flush_order, five_card_kinds, poker_order, twos_low)
    if signature(*facts) == _bigtwo.BUILT_IN_SIGNATURE:
        return np.frombuffer(_bigtwo.built_in_classes(), dtype=np.uint32)
    classes = np.array(class_table(_high_value, *facts), dtype=np.uint32)
    classes.flags.writeable = False
    return classes


def five_card_kind(rules: Rules, key: int) -> Kind:
    return rules.five_card_kinds[(key >> KIND_SHIFT) - 1]


def _high_value(ranks: tuple[int, ...], suited: bool) -> int:
    """High value of five cards with these poker ranks, all of one suit or not."""
    if suited:
        return _evaluate.high_evaluate([4 * r for r in ranks])
    if len(set(ranks)) == 5:
        return _evaluate.high_evaluate([4 * r + (i == 1) for i, r in enumerate(ranks)])
    used: dict[int, int] = {}
    cards = []
    for r in ranks:
        cards.append(4 * r + used.get(r, 0))
        used[r] = used.get(r, 0) + 1
    return _evaluate.high_evaluate(cards)
