"""Short deck (RULES.md "Poker variants"): every 5-card hand (fast) and every 7-card hand (slow) of
the 36-card deck, both rule sets, against a reference written apart from tools/gen_tables.py: a
5-card key read off the rank counts, and 7 cards as the best of their 21 five-card subsets."""
import itertools
from collections import Counter
from functools import cache
from math import comb

import numpy as np
import pytest

import handrank as hr
from handrank import shortdeck
from handrank.high import Category

DECK = range(16, 52)        # 6c .. As
CATEGORY_ORDER = {          # the reference's own numbering, weakest first
    "standard": ["high card", "pair", "two pair", "trips", "straight", "full house", "flush",
                 "quads", "straight flush"],
    "triton": ["high card", "pair", "two pair", "straight", "trips", "full house", "flush",
               "quads", "straight flush"],
}
# rank codes: a multiset of ranks 4..12 (6..A) as base-5 digits, so codes of cards just add
RANK_CODE = np.array([5 ** (c // 4 - 4) if c >= 16 else 0 for c in range(52)], dtype=np.int64)
SUIT_CODE = np.array([8 ** (c % 4) for c in range(52)], dtype=np.int64)


def key5(ranks, suited, rules):
    """Bigger is better. ranks: five ranks (4 = six .. 12 = ace)."""
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    distinct = sorted(counts)
    straight_top = None
    if len(distinct) == 5 and distinct[-1] - distinct[0] == 4:
        straight_top = distinct[-1]
    elif distinct == [4, 5, 6, 7, 12]:          # A-6-7-8-9: the nine is the top
        straight_top = 7
    if straight_top is not None:
        name = "straight flush" if suited else "straight"
        return CATEGORY_ORDER[rules].index(name), straight_top
    if shape == [4, 1]:
        name = "quads"
    elif shape == [3, 2]:
        name = "full house"
    elif suited:
        name = "flush"
    elif shape == [3, 1, 1]:
        name = "trips"
    elif shape == [2, 2, 1]:
        name = "two pair"
    elif shape == [2, 1, 1, 1]:
        name = "pair"
    else:
        name = "high card"
    tie = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return (CATEGORY_ORDER[rules].index(name), *tie)


@cache
def scale(rules):
    """Dense value of every 5-card class, indexed by rank code * 2 + suited (0 where none)."""
    classes = {}
    for ranks in itertools.combinations_with_replacement(range(4, 13), 5):
        if max(Counter(ranks).values()) <= 4:
            code = sum(5 ** (r - 4) for r in ranks)
            classes[code * 2] = key5(ranks, False, rules)
            if len(set(ranks)) == 5:
                classes[code * 2 + 1] = key5(ranks, True, rules)
    dense = {k: i + 1 for i, k in enumerate(sorted(set(classes.values())))}
    table = np.zeros(5 ** 9 * 2, dtype=np.int64)
    for code, key in classes.items():
        table[code] = dense[key]
    return table


@cache
def all_hands(k):
    """Every k-card hand of the short deck, read-only (shared by the rule sets' tests)."""
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(DECK, k)), dtype=np.uint8,
                       count=comb(36, k) * k)
    flat.flags.writeable = False
    return flat.reshape(-1, k)


def reference(hands, rules):
    """Best 5-card value over the subsets of each row, by codes that add card by card."""
    table = scale(rules)
    rank_codes = RANK_CODE[hands]
    suit_codes = SUIT_CODE[hands]
    rank_total, suit_total = rank_codes.sum(axis=1), suit_codes.sum(axis=1)
    k = hands.shape[1]
    best = np.zeros(len(hands), dtype=np.int64)
    for left_out in itertools.combinations(range(k), k - 5):
        ranks = rank_total - rank_codes[:, list(left_out)].sum(axis=1)
        suits = suit_total - suit_codes[:, list(left_out)].sum(axis=1)
        suited = np.isin(suits, [5 * 8 ** s for s in range(4)])
        np.maximum(best, table[ranks * 2 + suited], out=best)
    return best


@pytest.mark.parametrize("rules", shortdeck.RULES)
def test_every_five_card_hand(rules):
    hands = all_hands(5)
    got = shortdeck.evaluate_batch(hands, rules=rules)
    want = reference(hands, rules)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [(hr.hand_str(hands[i]), int(got[i]), int(want[i])) for i in bad[:3]]
    assert len(np.unique(got)) == shortdeck.MAX_VALUE == 1404


@pytest.mark.slow
@pytest.mark.parametrize("rules", shortdeck.RULES)
def test_every_seven_card_hand(rules):
    hands = all_hands(7)
    got = shortdeck.evaluate_batch(hands, rules=rules)
    want = reference(hands, rules)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [(hr.hand_str(hands[i]), int(got[i]), int(want[i])) for i in bad[:3]]


@pytest.mark.parametrize("rules", shortdeck.RULES)
def test_random_six_card_hands(rules):
    rng = np.random.default_rng(6)
    hands = (np.argsort(rng.random((20_000, 36)), axis=1)[:, :6] + 16).astype(np.uint8)
    assert np.array_equal(shortdeck.evaluate_batch(hands, rules=rules), reference(hands, rules))


@pytest.mark.parametrize("better, worse, rules", [
    ("As Ks Qs Js 9s", "Kc Kd Kh Ac Ad", "standard"),   # a flush beats a full house
    ("As Ks Qs Js 9s", "Kc Kd Kh Ac Ad", "triton"),
    ("6c 6d 6h 6s 7c", "As Ks Qs Js 9s", "standard"),   # four of a kind beats a flush
    ("6c 7d 8h 9s Tc", "Ac Ad Ah Kc Qd", "standard"),   # a straight beats trips...
    ("Ac Ad Ah Kc Qd", "6c 7d 8h 9s Tc", "triton"),     # ...and trips beat a straight under triton
    ("As 6d 7h 8s 9c", "Ac Kd Qh Js 9c", "standard"),   # A-6-7-8-9 is a straight
    ("6c 7d 8h 9s Tc", "As 6d 7h 8s 9c", "standard"),   # the lowest one
    ("As 6s 7s 8s 9s", "Kc Kd Kh Ks Ac", "standard"),   # and a straight flush when suited
])
def test_order_examples(better, worse, rules):
    assert shortdeck.evaluate(better, rules=rules) > shortdeck.evaluate(worse, rules=rules)


def test_describe_and_category():
    v = shortdeck.evaluate("As 6d 7h 8s 9c")
    assert shortdeck.describe(v) == "Straight, nine high"
    assert shortdeck.category(v) is Category.STRAIGHT
    assert shortdeck.describe(shortdeck.MAX_VALUE) == "Royal flush"
    assert shortdeck.describe(1) == "Jack high (J-9-8-7-6)"
    triton = shortdeck.evaluate("Tc Td Th 6c 7d 8h 9s", rules="triton")
    assert shortdeck.describe(triton, rules="triton") == "Three of a kind, tens (9-8 kickers)"
    with pytest.raises(ValueError, match="1..1404"):
        shortdeck.describe(1405)


def test_scalar_matches_batch_and_threads():
    rng = np.random.default_rng(8)
    hands = (np.argsort(rng.random((80_000, 36)), axis=1)[:, :7] + 16).astype(np.uint8)
    for rules in shortdeck.RULES:
        one = shortdeck.evaluate_batch(hands, rules=rules, threads=1)
        out = np.zeros(len(hands), np.uint16)
        assert shortdeck.evaluate_batch(hands, rules=rules, threads=2, out=out) is out
        assert np.array_equal(out, one)
        for i in range(0, len(hands), 4001):
            assert shortdeck.evaluate(hands[i].tolist(), rules=rules) == one[i]


@pytest.mark.parametrize("threads", [1, 2])
def test_bad_rows_are_named(threads):
    rng = np.random.default_rng(9)
    hands = (np.argsort(rng.random((50_000, 36)), axis=1)[:, :7] + 16).astype(np.uint8)
    out = np.full(len(hands), 3, np.uint16)
    low = hands.copy()
    low[41_234, 3] = 15                                     # the 5s
    with pytest.raises(ValueError, match="row 41234: 5s is not in the short deck"):
        shortdeck.evaluate_batch(low, out=out, threads=threads)
    repeated = hands.copy()
    repeated[777, 6] = repeated[777, 0]
    with pytest.raises(ValueError, match="row 777: duplicate card"):
        shortdeck.evaluate_batch(repeated, out=out, threads=threads)
    assert (out == 3).all()


def test_out_of_range_uint8_id_is_named():
    hands = np.tile(np.arange(16, 23, dtype=np.uint8), (50, 1))
    hands[17, 4] = 200
    with pytest.raises(ValueError, match="row 17: card id 200 is out of range"):
        shortdeck.evaluate_batch(hands)


def test_scalar_errors():
    with pytest.raises(ValueError, match="5c is not in the short deck"):
        shortdeck.evaluate("As Ks Qs Js 5c")
    with pytest.raises(ValueError, match="5, 6 or 7 cards, got 4"):
        shortdeck.evaluate("As Ks Qs Js")
    with pytest.raises(ValueError, match="'standard' or 'triton'"):
        shortdeck.evaluate("As Ks Qs Js Ts", rules="vegas")
    with pytest.raises(TypeError, match="rules must be a str"):
        shortdeck.evaluate("As Ks Qs Js Ts", rules=1)
