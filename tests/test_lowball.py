"""2-7 and A-5 lowball against the reference (RULES.md "2-7 lowball", "A-5 lowball")."""
from collections import Counter

import numpy as np
import pytest

import handrank as hr
import reference as ref
from handrank import high, low27, lowa5
from handrank.high import Category

WHEEL_RANKS = {0, 1, 2, 3, 12}


def has_wheel_ranks(hands):
    """Rows whose five ranks are exactly A-2-3-4-5."""
    ranks = np.sort(np.asarray(hands) // 4, axis=1)
    return (ranks == np.array([0, 1, 2, 3, 12])).all(axis=1)


def assert_reversed_order(high_values, low_values):
    """low order is the exact reverse of high order: one low value per high value, decreasing."""
    codes = np.unique(np.asarray(high_values, np.int64) * 8192 + np.asarray(low_values, np.int64))
    pairs = np.stack([codes // 8192, codes % 8192], axis=1)
    assert len(np.unique(pairs[:, 0])) == len(pairs), "a high class split into several 2-7 classes"
    assert len(np.unique(pairs[:, 1])) == len(pairs), "two high classes merged in 2-7"
    assert (np.diff(pairs[:, 1].astype(np.int64)) < 0).all()   # sorted by high value


# ============================================================================= 2-7 lowball
@pytest.mark.slow
def test_low27_every_hand_matches_reference():
    hands = ref.all_hands(5)
    values = low27.evaluate_batch(hands)
    expected = ref.dense5(hands, ref.low27_key)
    mismatched = np.flatnonzero(values != expected)
    assert mismatched.size == 0, [(hr.hand_str(hands[i]), int(values[i]), int(expected[i]))
                                  for i in mismatched[:5]]
    assert len(np.unique(values)) == 7462
    assert values.min() == 1 and values.max() == 7462


@pytest.mark.slow
def test_low27_is_reverse_of_high_without_the_wheel():
    hands = ref.all_hands(5)
    keep = ~has_wheel_ranks(hands)
    assert keep.sum() == len(hands) - 4 ** 5
    assert_reversed_order(high.evaluate_batch(hands[keep]), low27.evaluate_batch(hands[keep]))
    # and the wheel beats every pair, offsuit, and every non-ace-high flush loses to it, suited
    lows = low27.evaluate_batch(hands)
    highs = high.evaluate_batch(hands)
    cats = np.array([0] + [int(high.category(v)) for v in range(1, 7463)])[highs]
    offsuit_wheel = low27.evaluate("As 5d 4h 3s 2c")
    assert offsuit_wheel > lows[cats == Category.PAIR].max()
    assert offsuit_wheel < lows[(cats == Category.HIGH_CARD) & (hands.max(axis=1) < 48)].min()


def test_low27_random_sample_matches_reference():
    hands = hr.random_hands(100_000, 5, seed=27)
    values = low27.evaluate_batch(hands)
    assert ref.same_order(values, ref.dense5(hands, ref.low27_key))
    keep = ~has_wheel_ranks(hands)
    assert_reversed_order(high.evaluate_batch(hands[keep]), values[keep])
    rows = hands[:3000].tolist()
    assert [low27.evaluate(r) for r in rows] == values[:3000].tolist()
    assert ref.same_order(values[:3000], [ref.low27_key(r) for r in rows])


def test_low27_wheel_is_ace_high_not_a_straight():
    wheel = low27.evaluate("As 5d 4h 3s 2c")
    assert low27.category(wheel) == Category.HIGH_CARD
    assert low27.describe(wheel) == "Ace-five low (A-5-4-3-2)"
    assert wheel > low27.evaluate("2c 2d 3h 4s 5c")        # the best pair
    assert wheel > low27.evaluate("As 6d 4h 3s 2c")        # the next ace-high hand
    assert wheel + 1 == low27.evaluate("Ks Qd Jh Ts 8c")    # the worst king-high hand is next
    assert wheel > low27.evaluate("6s 5d 4h 3s 2c")        # a real straight
    assert low27.category(low27.evaluate("6s 5d 4h 3s 2c")) == Category.STRAIGHT
    # every offsuit wheel is the same class
    assert len({low27.evaluate(h) for h in ("Ac 2c 3c 4c 5d", "Ad 2h 3s 4c 5c", "Ah 2d 3d 4d 5d")}) == 1


def test_low27_suited_wheel_is_a_flush():
    suited = low27.evaluate("As 5s 4s 3s 2s")
    assert low27.category(suited) == Category.FLUSH
    assert low27.describe(suited).startswith("Flush, ace high")
    assert suited == low27.evaluate("Ah 5h 4h 3h 2h")
    assert suited > low27.evaluate("As 6s 4s 3s 2s")       # worse ace-high flush
    assert suited < low27.evaluate("Ks Qs Js Ts 8s")       # king-high flush is a better low
    assert suited < low27.evaluate("Ac Kd Qh Js Ts")       # any straight beats a flush in 2-7
    assert suited > low27.evaluate("2c 2d 2h 3s 3c")       # a full house is worse
    assert suited < low27.evaluate("As 5d 4h 3s 2c")


def test_low27_extremes_and_words():
    assert low27.evaluate("7c 5d 4h 3s 2c") == 7462 == low27.MAX_VALUE
    assert low27.describe(7462) == "Seven-five low (7-5-4-3-2)"
    assert low27.evaluate("7s 6d 4h 3s 2c") == 7461
    assert low27.describe(7461) == "Seven-six low (7-6-4-3-2)"
    assert low27.evaluate("7c 6d 5h 3s 2c") == 7460
    assert low27.evaluate("7c 6d 5h 4s 2c") == 7459       # 7-6-5-4-3 is a straight: skipped
    assert low27.evaluate("8c 5d 4h 3s 2c") == 7458
    assert low27.evaluate("As Ks Qs Js Ts") == 1
    assert low27.describe(1) == "Royal flush"
    suited = low27.evaluate("7s 5s 4s 3s 2s")
    assert low27.category(suited) == Category.FLUSH and suited < low27.evaluate("Ac Ad Kh Ks Qc")
    assert low27.describe(low27.evaluate("Kc Kd 7h 3s 2c")).startswith("Pair of kings")
    assert low27.describe(low27.evaluate("6s 5d 4h 3s 2c")) == "Straight, six high"


def test_low27_class_counts():
    cats = Counter(low27.category(v) for v in range(1, 7463))
    assert cats == {
        Category.HIGH_CARD: 1278, Category.PAIR: 2860, Category.TWO_PAIR: 858,
        Category.THREE_OF_A_KIND: 858, Category.STRAIGHT: 9, Category.FLUSH: 1278,
        Category.FULL_HOUSE: 156, Category.FOUR_OF_A_KIND: 156, Category.STRAIGHT_FLUSH: 9,
    }
    # lows get better as the high category gets worse
    order = [low27.category(v) for v in range(7462, 0, -1)]
    assert order == sorted(order)
    for bad in (0, 7463):
        with pytest.raises(ValueError):
            low27.describe(bad)
        with pytest.raises(ValueError):
            low27.category(bad)
    with pytest.raises(TypeError):
        low27.describe(True)


def test_low27_batch_forms():
    hands = hr.random_hands(70_000, 5, seed=72)
    want = low27.evaluate_batch(hands, threads=1)
    assert want.dtype == np.uint16
    assert np.array_equal(low27.evaluate_batch(hands, threads=2), want)
    assert np.array_equal(low27.evaluate_batch(hands), want)
    assert np.array_equal(low27.evaluate_batch(hands.astype(np.int32)), want)
    assert np.array_equal(low27.evaluate_batch(np.asfortranarray(hands)), want)
    out = np.zeros(len(hands), dtype=np.uint16)
    assert low27.evaluate_batch(hands, out=out) is out and np.array_equal(out, want)
    assert low27.evaluate_batch(["7c 5d 4h 3s 2c", "As Ks Qs Js Ts"]).tolist() == [7462, 1]


# ============================================================================= A-5 lowball
A5_CLASSES = {Category.HIGH_CARD: 1287, Category.PAIR: 2860, Category.TWO_PAIR: 858,
              Category.THREE_OF_A_KIND: 858, Category.FULL_HOUSE: 156, Category.FOUR_OF_A_KIND: 156}


@pytest.mark.slow
def test_lowa5_every_5_card_hand_matches_reference():
    hands = ref.all_hands(5)
    values = lowa5.evaluate_batch(hands)
    expected = ref.dense5(hands, ref.lowa5_5_key)
    mismatched = np.flatnonzero(values != expected)
    assert mismatched.size == 0, [(hr.hand_str(hands[i]), int(values[i]), int(expected[i]))
                                  for i in mismatched[:5]]
    assert len(np.unique(values)) == 6175
    assert values.min() == 1 and values.max() == 6175


@pytest.mark.parametrize("k", [5, 6, 7])
def test_lowa5_random_hands_match_reference(k):
    hands = hr.random_hands(200_000, k, seed=50 + k)
    values = lowa5.evaluate_batch(hands)
    expected = ref.best_of_subsets(hands, "lowa5")      # same 1..6175 scale
    mismatched = np.flatnonzero(values != expected)
    assert mismatched.size == 0, [(hr.hand_str(hands[i]), int(values[i]), int(expected[i]))
                                  for i in mismatched[:5]]
    rows = hands[:1500].tolist()
    assert [lowa5.evaluate(r) for r in rows] == values[:1500].tolist()
    assert ref.same_order(values[:1500], [ref.lowa5_key(r) for r in rows])


def test_lowa5_paired_7_card_hands():
    # Random 7-card hands seldom hold trips, two pair plus trips, quads: build ranks directly.
    rng = np.random.default_rng(5)
    rows = []
    for _ in range(2000):
        k = int(rng.integers(5, 8))
        distinct = int(rng.integers(2, k + 1))
        ranks = rng.choice(13, size=distinct, replace=False)
        deck = [r * 4 + s for r in ranks for s in range(4)]
        row = [int(ranks[i]) * 4 + int(rng.integers(4)) for i in range(distinct)]
        rest = [c for c in deck if c not in row]
        row += [int(c) for c in rng.choice(rest, size=k - distinct, replace=False)]
        rows.append(row)
    values = [lowa5.evaluate(r) for r in rows]
    assert ref.same_order(values, [ref.lowa5_key(r) for r in rows])
    by_k = {}
    for r in rows:
        by_k.setdefault(len(r), []).append(r)
    for k, group in by_k.items():
        batch = lowa5.evaluate_batch(np.array(group, dtype=np.uint8))
        assert batch.tolist() == [lowa5.evaluate(r) for r in group]
        assert np.array_equal(batch, ref.best_of_subsets(np.array(group), "lowa5"))


def test_lowa5_ignores_suits_and_straights():
    assert lowa5.evaluate("As 2s 3s 4s 5s") == 6175 == lowa5.MAX_VALUE
    assert lowa5.evaluate("Ac 2d 3h 4s 5c") == 6175
    assert lowa5.evaluate("6h 5h 4h 3h 2h") == lowa5.evaluate("6c 5d 4h 3s 2c")
    assert lowa5.evaluate("6c 4d 3h 2s Ac") < lowa5.evaluate("5c 4d 3h 2s Ac")
    assert lowa5.evaluate("6c 4d 3h 2s Ac") > lowa5.evaluate("6c 5d 3h 2s Ac")
    assert lowa5.evaluate("Kc Qd Jh 9s 8c") > lowa5.evaluate("Ac Ad 2h 3s 4c")  # any no-pair > a pair
    assert lowa5.evaluate("Ac Ad 2h 3s 4c") > lowa5.evaluate("2c 2d Ah 3s 4c")   # aces are the low pair
    assert lowa5.evaluate("Kc Kd Kh Ks Qc") == 1
    assert lowa5.evaluate("Ac Kd Qh Js Tc") > lowa5.evaluate("Kc Qd Jh Ts 9c")   # ace is low: K-high


def test_lowa5_describe():
    assert lowa5.describe(6175) == "Five-four low (5-4-3-2-A)"
    assert lowa5.describe(lowa5.evaluate("7c 5d 4h 3s 2c")) == "Seven-five low (7-5-4-3-2)"
    assert lowa5.describe(lowa5.evaluate("Ac Ad 2h 3s 4c")) == "Pair of aces (A-A-4-3-2)"
    assert lowa5.describe(lowa5.evaluate("Kc Qd Jh Ts 9c")) == "King-queen low (K-Q-J-T-9)"
    assert lowa5.describe(1) == "Four of a kind, kings (K-K-K-K-Q)"
    assert lowa5.describe(lowa5.evaluate("8c 7d 6h 5s 4c 8d 9h")) == "Eight-seven low (8-7-6-5-4)"


def test_lowa5_class_counts_and_order():
    cats = [lowa5.category(v) for v in range(1, 6176)]
    assert Counter(cats) == A5_CLASSES
    badness = [list(A5_CLASSES).index(c) for c in cats]
    assert badness == sorted(badness, reverse=True)      # every pair below every no-pair, etc.
    for bad in (0, 6176, -3):
        with pytest.raises(ValueError):
            lowa5.describe(bad)
        with pytest.raises(ValueError):
            lowa5.category(bad)
    with pytest.raises(TypeError):
        lowa5.category(2.0)


QUALIFY_CASES = [
    ("8c 7d 6h 5s 4c", True),
    ("Ac 2d 3h 4s 5c", True),
    ("8c 6d 4h 3s 2c", True),
    ("9c 7d 6h 5s 4c", False),
    ("9c 5d 4h 3s 2c", False),
    ("8c 8d 6h 5s 4c", False),
    ("Ac Ad 2h 3s 4c", False),
    ("Kc Ad 2h 3s 4c", False),
    ("Kc Qd 8h 7s 6c 5d 4h", True),
    ("Kc Kd 9h 7s 6c 5d 4h", False),
    ("Ac Ad 2h 2s 3c 4d 8h", True),
    ("Ac Ad 2h 2s 3c 3d 4h", False),
    ("9c 8d 7h 6s 4c 4d 9h", False),
    ("8c 8d 8h 7s 6c 5d 4h", True),
    ("Tc 9d 8h 7s 6c 5d", False),
    ("Tc 9d 8h 7s 6c 5d 4d", True),
    ("Qc Jd Th 9s 8c 7d 6h", False),
]


@pytest.mark.parametrize("hand, qualifies", QUALIFY_CASES)
def test_qualifies8(hand, qualifies):
    value = lowa5.evaluate(hand)
    assert lowa5.qualifies8(value) is qualifies
    assert ref.lowa5_qualifies8(hr.cards(hand)) is qualifies


def test_qualifies8_boundary_and_batch():
    assert lowa5.QUALIFY8 == lowa5.evaluate("8c 7d 6h 5s 4c")
    assert not lowa5.qualifies8(lowa5.QUALIFY8 - 1)
    assert lowa5.describe(lowa5.QUALIFY8 - 1) == "Nine-four low (9-4-3-2-A)"
    for k in (5, 6, 7):
        hands = hr.random_hands(20_000, k, seed=80 + k)
        values = lowa5.evaluate_batch(hands)
        flags = lowa5.qualifies8_batch(values)
        assert flags.dtype == bool and flags.shape == values.shape
        assert flags.tolist() == [lowa5.qualifies8(v) for v in values]
        assert flags.tolist() == [ref.lowa5_qualifies8(h) for h in hands.tolist()]
        assert 0 < flags.sum() < len(flags)
    assert lowa5.qualifies8_batch([1, 6175, lowa5.QUALIFY8]).tolist() == [False, True, True]
    assert lowa5.qualifies8_batch(np.array([], dtype=np.uint16)).shape == (0,)
    assert lowa5.qualifies8_batch([]).shape == (0,)
    one = lowa5.qualifies8_batch(np.uint16(lowa5.QUALIFY8))
    assert isinstance(one, np.ndarray) and one.shape == () and bool(one)


def test_qualifies8_errors():
    for bad in (0, 6176, -1):
        with pytest.raises(ValueError):
            lowa5.qualifies8(bad)
    for bad in (True, 5.0, "6175"):
        with pytest.raises(TypeError):
            lowa5.qualifies8(bad)
    with pytest.raises(ValueError):
        lowa5.qualifies8_batch(np.array([1, 6176]))
    with pytest.raises(ValueError):
        lowa5.qualifies8_batch(np.array([0, 5]))
    with pytest.raises(TypeError):
        lowa5.qualifies8_batch(np.array([1.0, 5.0]))


def test_lowa5_batch_forms():
    hands = hr.random_hands(70_000, 7, seed=75)
    want = lowa5.evaluate_batch(hands, threads=1)
    assert np.array_equal(lowa5.evaluate_batch(hands, threads=2), want)
    assert np.array_equal(lowa5.evaluate_batch(hands), want)
    assert np.array_equal(lowa5.evaluate_batch(hands.astype(np.uint64)), want)
    assert np.array_equal(lowa5.evaluate_batch(hands[:, ::-1]), want)
    out = np.ones(len(hands), dtype=np.uint16)
    assert lowa5.evaluate_batch(hands, out=out) is out and np.array_equal(out, want)
    assert lowa5.evaluate_batch(["As 2s 3s 4s 5s Kc Kd"]).tolist() == [6175]
