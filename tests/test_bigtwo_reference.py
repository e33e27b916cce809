"""bigtwo.classify_batch against an independent, vectorized reference classifier, exhaustively:
every 1-, 2-, 3- and 5-card set (2,598,960 of five) under several rulesets.

The reference is written from RULES.md alone: it sorts the cards by Big Two strength, reads the
kind off the pattern of equal neighbours and builds a comparison number of its own layout. The
library's keys must order every set exactly as the reference does (equal where it is equal)."""
from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest

from handrank import bigtwo
from handrank.bigtwo import Rules

PLAIN = "34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA"
BIG_TWO = "3456789TJQKA2"
CARD_RANKS = "23456789TJQKA"

# name -> (suits lowest first, straights weakest first, tie-break ranks where not the highest card)
SPECS = {
    "hk": ("dchs", PLAIN + " 23456 A2345", {}),
    "taiwan": ("cdhs", PLAIN + " 23456 A2345", {}),
    "pusoy": ("cshd", PLAIN + " 23456 A2345", {}),
    "malaysia": ("dchs", PLAIN + " A2345 23456", {}),
    "indonesia": ("dchs", PLAIN + " JQKA2", {}),
    "vietnam": ("dchs", PLAIN, {}),
    "ace_low": ("dchs", "23456 " + PLAIN + " A2345", {"A2345": "A", "23456": "6"}),
    "hawaii": ("cshd", PLAIN + " 23456 A2345", {}),
}


def rules_of(name: str) -> Rules:
    """The rules a name of SPECS stands for: a preset, or "ace_low", a straight table (no preset)."""
    return Rules(straights="ace_low") if name == "ace_low" else Rules.preset(name)


def subsets(k: int) -> np.ndarray:
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), k)),
                       dtype=np.uint8, count=k * comb(52, k))
    return flat.reshape(-1, k)


@pytest.fixture(scope="module")
def all_sets():
    return {k: subsets(k) for k in (1, 2, 3, 5)}


class Reference:
    """Comparison numbers for (N, k) card arrays: 0 for no combo, higher beats lower."""

    def __init__(self, suits: str, straights: str, tiebreaks: dict[str, str], *, flushes=True,
                 flush_suit_first=False, straight_above_flush=False, four_with_kicker=True,
                 two_pair=False, four_alone=False, two_pair_alone=False, suits_count="all",
                 trips_hand=False, sisters=False, runs3=False, flush_top_card=False, bare_triples=True):
        self.suit_position = np.array([suits.index(s) for s in "cdhs"])
        self.straight_at = np.full(1 << 13, -1)
        self.tiebreak = np.zeros(1 << 13, dtype=np.int64)
        for position, window in enumerate(straights.split()):
            mask = sum(1 << BIG_TWO.index(r) for r in window)
            self.straight_at[mask] = position
            self.tiebreak[mask] = BIG_TWO.index(tiebreaks.get(window, max(window, key=BIG_TWO.index)))
        kinds = (["sisters"] if sisters else []) + (["two pair"] if two_pair else []) + (
            ["trips"] if trips_hand else []) + (
            ["flush", "straight"] if straight_above_flush else ["straight", "flush"])
        kinds += ["full house"] + (["quads"] if four_with_kicker else []) + ["straight flush"]
        self.level = {kind: i + 1 for i, kind in enumerate(kinds)}
        self.flushes = flushes
        self.flush_suit_first = flush_suit_first
        self.flush_top_card = flush_top_card    # a flush by its highest card alone, then its suit
        self.bare_triples = bare_triples        # a triple alone is a play
        # four-card plays: a bare four (above every two pair) and two pairs alone
        self.four_alone = four_alone
        self.two_pair_alone = two_pair_alone
        # where a suit breaks ties: "all", "below_five" (not in five-card plays) or "none"
        self.small_suits = suits_count != "none"
        self.five_suits = suits_count == "all"
        self.runs3 = runs3              # three cards of consecutive ranks, above every triple

    def strengths(self, hands: np.ndarray) -> np.ndarray:
        """Each row's cards as Big Two strengths 0..51, strongest first."""
        rank = (hands.astype(np.int64) // 4 + 12) % 13
        strength = 4 * rank + self.suit_position[hands % 4]
        return -np.sort(-strength, axis=1)

    def values(self, hands: np.ndarray) -> np.ndarray:
        st = self.strengths(hands)
        ranks, suits = st // 4, st % 4
        k = hands.shape[1]
        same = (ranks == ranks[:, :1]).all(axis=1)
        top = 4 * ranks[:, 0] + (suits[:, 0] if self.small_suits else 0) + 1   # of the highest card
        if k == 1:
            return top
        if k == 2:
            return np.where(same, top, 0)
        if k == 3:
            run = self.runs3 & (ranks[:, 0] - ranks[:, 2] == 2) & (ranks[:, 0] != ranks[:, 1]) \
                & (ranks[:, 1] != ranks[:, 2])
            return np.where(same & self.bare_triples, ranks[:, 0] + 1, np.where(run, 10**6 + top, 0))
        if k == 4:
            two_pairs = (ranks[:, 0] == ranks[:, 1]) & (ranks[:, 2] == ranks[:, 3]) & (ranks[:, 1] != ranks[:, 2])
            out = np.where(two_pairs & self.two_pair_alone, top, 0)
            return np.where(same & self.four_alone, 1000 + ranks[:, 0], out)
        return self.five(ranks, suits)

    def five(self, ranks: np.ndarray, suits: np.ndarray) -> np.ndarray:
        n = len(ranks)
        out = np.zeros(n, dtype=np.int64)
        eq = ranks[:, :-1] == ranks[:, 1:]
        pattern = eq @ np.array([8, 4, 2, 1])          # which neighbours are equal, as 4 bits
        suited = (suits == suits[:, :1]).all(axis=1)
        distinct = pattern == 0
        mask = (1 << ranks).sum(axis=1) * distinct
        at = np.where(distinct, self.straight_at[mask], -1)
        tb_column = np.argmax(ranks == self.tiebreak[mask][:, None], axis=1)
        tb_suit = suits[np.arange(n), tb_column] * self.five_suits
        level = lambda kind: self.level.get(kind, 0) * 10**9  # noqa: E731
        straight = at >= 0
        out[straight & ~suited] = level("straight") + (4 * at + tb_suit)[straight & ~suited]
        out[straight & suited] = level("straight flush") + (4 * at + tb_suit)[straight & suited]
        flush = distinct & suited & ~straight
        if self.flushes:
            by_ranks = ranks @ (13 ** np.arange(4, -1, -1))
            flush_suit = suits[:, 0] * self.five_suits
            within = flush_suit * 13**5 + by_ranks if self.flush_suit_first else by_ranks * 4 + flush_suit
            if self.flush_top_card:
                within = ranks[:, 0] * 4 + flush_suit
            out[flush] = level("flush") + within[flush]
        full_house = (pattern == 0b1101) | (pattern == 0b1011)
        out[full_house] = level("full house") + ranks[full_house, 2]
        quads = (pattern == 0b1110) | (pattern == 0b0111)
        if "quads" in self.level:
            out[quads] = level("quads") + ranks[quads, 2]
        two_pair = (pattern == 0b1010) | (pattern == 0b1001) | (pattern == 0b0101)
        high_pair_suit = np.where(eq[:, 0], suits[:, 0], suits[:, 1]) * self.five_suits
        # the pairs' ranks are at columns 1 and 3, whatever the odd card's
        sisters = two_pair & (ranks[:, 1] == ranks[:, 3] + 1)
        if "sisters" in self.level:
            out[sisters] = level("sisters") + (4 * ranks[:, 1] + high_pair_suit)[sisters]
        if "two pair" in self.level:
            out[two_pair] = level("two pair") + (4 * ranks[:, 1] + high_pair_suit)[two_pair]
        trips = (pattern == 0b1100) | (pattern == 0b0110) | (pattern == 0b0011)
        if "trips" in self.level:
            out[trips] = level("trips") + ranks[trips, 2]
        return out


def assert_same_order(keys: np.ndarray, ref: np.ndarray) -> None:
    keys = keys.astype(np.int64)
    assert ((keys == 0) == (ref == 0)).all(), "combo / no-combo differs from the reference"
    classes, inverse = np.unique(ref, return_inverse=True)
    key_of_class = np.zeros(len(classes), dtype=np.int64)
    key_of_class[inverse] = keys
    assert (key_of_class[inverse] == keys).all(), "sets the reference ranks equal got different keys"
    assert (np.diff(key_of_class) > 0).all(), "keys do not rise with the reference order"


def reference_for(name: str, **options) -> Reference:
    suits, straights, tiebreaks = SPECS[name]
    return Reference(suits, straights, tiebreaks, **options)


@pytest.mark.parametrize("name", ["hk", "taiwan", "malaysia"])
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_exhaustive_presets(all_sets, name, k):
    hands = all_sets[k]
    assert_same_order(bigtwo.classify_batch(hands, name), reference_for(name).values(hands))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pusoy", "indonesia", "vietnam", "ace_low", "hawaii"])
def test_exhaustive_other_presets(all_sets, name):
    for k in (1, 2, 3, 5):
        hands = all_sets[k]
        assert_same_order(bigtwo.classify_batch(hands, rules_of(name)), reference_for(name).values(hands))


VARIANTS = [
    ({"two_pair": True}, {"two_pair": True}),
    ({"straight_above_flush": True}, {"straight_above_flush": True}),
    ({"flush_order": "suit"}, {"flush_suit_first": True}),
    ({"flushes": False}, {"flushes": False}),
    ({"four_of_a_kind": "four_cards"}, {"four_with_kicker": False}),
]


@pytest.mark.slow
@pytest.mark.parametrize("changes, options", VARIANTS, ids=[str(v[0]) for v in VARIANTS])
def test_exhaustive_variants(all_sets, changes, options):
    hands = all_sets[5]
    rules = Rules.preset("hk").replace(**changes)
    assert_same_order(bigtwo.classify_batch(hands, rules), reference_for("hk", **options).values(hands))


def test_variants_on_a_sample():
    """The options on 200,000 random 5-card sets (the exhaustive runs are `slow`)."""
    hands = np.unique(np.sort(bigtwo_random(200_000), axis=1), axis=0)
    for changes, options in VARIANTS:
        rules = rules_of("ace_low").replace(**changes)
        assert_same_order(bigtwo.classify_batch(hands, rules),
                          reference_for("ace_low", **options).values(hands))


def bigtwo_random(n: int) -> np.ndarray:
    from handrank import random_hands
    return random_hands(n, 5, seed=44)


def test_four_cards_alone():
    hands = subsets(4)
    rules = Rules(four_of_a_kind="both")
    keys = bigtwo.classify_batch(hands, rules)
    ranks = hands // 4
    four = (ranks == ranks[:, :1]).all(axis=1)
    assert (keys[~four] == 0).all()
    assert sorted(keys[four].tolist()) == list(range(1, 14))
    # 3333 is the lowest, 2222 the highest
    assert keys[four][np.argsort(keys[four])][[0, -1]].tolist() == [1, 13]
    assert bigtwo.classify("2c 2d 2h 2s", rules).key > bigtwo.classify("Ac Ad Ah As", rules).key
    with pytest.raises(ValueError, match=r"shape \(N, 1 or 2 or 3 or 5\)"):
        bigtwo.classify_batch(hands)
