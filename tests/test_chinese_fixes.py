"""Regression tests for Chinese poker faults found in review: each failed before its fix."""
from __future__ import annotations

import itertools
from collections import Counter

import numpy as np

import handrank as hr
from handrank import chinese, high

# ----------------------------------------------------------------------------- three straights
# 3-card straights A-2-3 (lowest) .. Q-K-A, 5-card A-2-3-4-5 (lowest) .. T-J-Q-K-A, as rank sets
RUNS3 = [frozenset({12, 0, 1})] + [frozenset(range(s, s + 3)) for s in range(11)]
RUNS5 = [frozenset({12, 0, 1, 2, 3})] + [frozenset(range(s, s + 5)) for s in range(9)]


def straight_order_key(ids: list[int]) -> tuple[int, int, int]:
    """The reference: the best (bottom, middle, top) places in straight order over every way to
    split the cards into a 3-card run and two 5-card runs, tried card by card."""
    best = None
    for top in itertools.combinations(ids, 3):
        ranks3 = frozenset(c // 4 for c in top)
        if len(ranks3) < 3 or ranks3 not in RUNS3:
            continue
        rest = [c for c in ids if c not in top]
        for middle in itertools.combinations(rest, 5):
            bottom = [c for c in rest if c not in middle]
            ranks_m, ranks_b = frozenset(c // 4 for c in middle), frozenset(c // 4 for c in bottom)
            if len(ranks_m) == 5 == len(ranks_b) and ranks_m in RUNS5 and ranks_b in RUNS5 \
                    and high.evaluate(bottom) >= high.evaluate(middle):        # a valid setting
                key = (RUNS5.index(ranks_b), RUNS5.index(ranks_m), RUNS3.index(ranks3))
                best = key if best is None or key > best else best
    assert best is not None
    return best


def random_three_straights(rng: np.random.Generator, suited: bool) -> list[int]:
    """Three random runs of random suits (`suited`: clubs first where it can, for straight
    flushes)."""
    while True:
        windows = [RUNS3[rng.integers(12)], RUNS5[rng.integers(10)], RUNS5[rng.integers(10)]]
        need = Counter(r for w in windows for r in w)
        if max(need.values()) <= 4:
            suits = [[0, *(1 + rng.permutation(3))] if suited else rng.permutation(4) for _ in range(13)]
            return [4 * r + int(s) for r, n in need.items() for s in suits[r][:n]]


def test_a23_front_is_the_lowest_three_card_straight():
    """docs/chinese.md: "A-2-3 lowest ... Q-K-A highest"; RULES.md: every row of two such
    naturals is compared in straight order, never as high cards."""
    a23 = chinese.natural("Ac 2d 3h 4c 5d 6h 7s 8c 4d 5c 6s 7h 8d")
    jqk = chinese.natural("Jc Qd Kh 4c 5d 6h 7s 8c 4d 5c 6s 7h 8d")
    assert a23.kind == jqk.kind == "three straights"
    assert chinese.compare_naturals(jqk, a23) == 1 and chinese.compare_naturals(a23, jqk) == -1
    two34 = chinese.natural("2c 3d 4h 4c 5d 6h 7s 8c 4d 5c 6s 7h 8d")
    assert chinese.compare_naturals(two34, a23) == 1


def test_rows_compare_in_straight_order_not_as_high_cards():
    # a straight flush row and a plain straight of the same ranks tie; the wheel is the lowest
    flush = chinese.natural("2h 3h 4h 5c 6c 7c 8c 9c 9s Ts Js Qs Ks")
    plain = chinese.natural("2h 3d 4h 5c 6d 7c 8c 9c 9s Ts Js Qd Ks")
    assert chinese.compare_naturals(flush, plain) == 0
    wheel = chinese.natural("4c 5d 6h Ac 2d 3h 4s 5c 7c 8d 9h Ts Jc")   # 4-5-6 / A-2-3-4-5 / 7-J
    six_high = chinese.natural("4c 5d 6h 2c 3d 4h 5s 6c 7c 8d 9h Ts Jc")
    assert chinese.compare_naturals(six_high, wheel) == 1


def test_three_straights_against_the_split_by_split_reference():
    rng = np.random.default_rng(2026)
    hands = [random_three_straights(rng, suited=i % 2 == 1) for i in range(60)]
    hands.append(hr.cards("2c 3c 4c 5c Ac 2d 3s 4h 5s 6s 5d 6d 7c"))    # a straight flush wheel
    found = [chinese.natural(h, chinese.Rules(naturals={"three straights": 3})) for h in hands]
    want = [straight_order_key(h) for h in hands]
    for (a, ka), (b, kb) in itertools.combinations(zip(found, want), 2):
        assert chinese.compare_naturals(a, b) == (ka > kb) - (ka < kb)
    for hand, natural, key in zip(hands, found, want):
        # the setting shown holds the strongest straights
        s = natural.setting
        shown = (RUNS5.index(frozenset(c // 4 for c in s.bottom)),
                 RUNS5.index(frozenset(c // 4 for c in s.middle)),
                 RUNS3.index(frozenset(c // 4 for c in s.top)))
        assert shown == key, hr.hand_str(hand)
        assert high.evaluate(s.bottom) >= high.evaluate(s.middle)
