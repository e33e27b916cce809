"""High hands (5, 6, 7 cards) and 3-card high hands against the reference (RULES.md "High hands",
"3-card high hands")."""
import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest

import handrank as hr
import reference as ref
from handrank import _evaluate, high, high3
from handrank.high import Category

# Public facts: 5-card hands per category (of 2,598,960) and distinct classes per category (7462).
FIVE_CARD_HANDS = {
    Category.HIGH_CARD: 1_302_540, Category.PAIR: 1_098_240, Category.TWO_PAIR: 123_552,
    Category.THREE_OF_A_KIND: 54_912, Category.STRAIGHT: 10_200, Category.FLUSH: 5_108,
    Category.FULL_HOUSE: 3_744, Category.FOUR_OF_A_KIND: 624, Category.STRAIGHT_FLUSH: 40,
}
CLASSES = {
    Category.HIGH_CARD: 1277, Category.PAIR: 2860, Category.TWO_PAIR: 858,
    Category.THREE_OF_A_KIND: 858, Category.STRAIGHT: 10, Category.FLUSH: 1277,
    Category.FULL_HOUSE: 156, Category.FOUR_OF_A_KIND: 156, Category.STRAIGHT_FLUSH: 10,
}
# RULES.md: 7-card hands per category (of 133,784,560).
SEVEN_CARD_HANDS = {
    Category.HIGH_CARD: 23_294_460, Category.PAIR: 58_627_800, Category.TWO_PAIR: 31_433_400,
    Category.THREE_OF_A_KIND: 6_461_620, Category.STRAIGHT: 6_180_020, Category.FLUSH: 4_047_644,
    Category.FULL_HOUSE: 3_473_184, Category.FOUR_OF_A_KIND: 224_848, Category.STRAIGHT_FLUSH: 41_584,
}

E = hr.cards     # short alias: text -> ids


def per_category(counts):
    """Sum a count array indexed by value (index 0 unused) per category."""
    assert counts[0] == 0
    cats = np.array([-1] + [int(high.category(v)) for v in range(1, 7463)])
    return {Category(c): int(counts[cats == c].sum()) for c in range(9)}


# ----------------------------------------------------------------------------- exhaustive, 5 cards
@pytest.mark.slow
def test_every_5_card_hand_matches_reference():
    hands = ref.all_hands(5)
    values = high.evaluate_batch(hands)
    expected = ref.dense5(hands, ref.high5_key)
    assert expected.max() == 7462
    mismatched = np.flatnonzero(values != expected)
    assert mismatched.size == 0, [(hr.hand_str(hands[i]), int(values[i]), int(expected[i]))
                                  for i in mismatched[:5]]
    # the category of each value is the reference's, and the reference has the public counts
    first = np.unique(values, return_index=True)[1]
    for i in first:
        assert high.category(int(values[i])) == ref.high5_key(hands[i])[0], hr.hand_str(hands[i])
    ref_counts = Counter(ref.high5_key(hands[i])[0] for i in first)
    assert {Category(c): n for c, n in ref_counts.items()} == CLASSES
    assert np.array_equal(high.count_all(5), np.bincount(expected, minlength=7463))


def test_count_all_5():
    counts = high.count_all(5)
    assert counts.shape == (7463,)
    assert counts[0] == 0
    assert counts.sum() == 2_598_960 == comb(52, 5)
    assert np.count_nonzero(counts) == 7462
    assert per_category(counts) == FIVE_CARD_HANDS
    assert counts[7462] == 4 and counts[1] == 4 * 4 ** 4 - 4     # royal flushes; 7-5-4-3-2 offsuit


@pytest.mark.slow
def test_count_all_7_matches_published_counts():
    counts = high.count_all(7)
    assert counts.sum() == 133_784_560 == comb(52, 7)
    assert np.count_nonzero(counts) == 4824
    assert per_category(counts) == SEVEN_CARD_HANDS
    # 7 distinct ranks without a straight: the worst 7-card hand is 9-8-7-5-4
    worst = int(np.flatnonzero(counts)[0])
    assert worst == high.evaluate("9c 8d 7h 5s 4c")
    assert high.describe(worst) == "Nine high (9-8-7-5-4)"


@pytest.mark.slow
def test_count_all_6():
    counts = high.count_all(6)
    assert counts.sum() == comb(52, 6)
    assert np.count_nonzero(counts) == 6075


@pytest.mark.slow
@pytest.mark.parametrize("k", [6, 7])
def test_count_all_per_value_equals_evaluating_every_hand(k):
    # count_all groups cards that cannot matter; here every hand is evaluated, one batch per
    # prefix of k - 5 cards followed by all the 5-card sets above it (in lexicographic order,
    # so those are a suffix of the list of all 5-card sets).
    fives = np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)
    start_after = np.searchsorted(fives[:, 0], np.arange(52), side="right")
    counts = np.zeros(7463, dtype=np.int64)
    for prefix in itertools.combinations(range(52), k - 5):
        rest = fives[start_after[prefix[-1]]:]
        hands = np.empty((len(rest), k), dtype=np.uint8)
        hands[:, :k - 5] = prefix
        hands[:, k - 5:] = rest
        counts += np.bincount(high.evaluate_batch(hands), minlength=7463)
    assert np.array_equal(high.count_all(k), counts)


def test_count_all_bad_k():
    for k in (0, 3, 4, 8):
        with pytest.raises(ValueError, match="k in 5..7"):
            high.count_all(k)
    for k in ("7", 5.0, True, None):
        with pytest.raises(TypeError, match="an int k"):
            high.count_all(k)


# ----------------------------------------------------------------------------- 6 and 7 cards
@pytest.mark.parametrize("k", [6, 7])
def test_random_6_and_7_card_hands_match_reference(k):
    hands = hr.random_hands(200_000, k, seed=600 + k)
    values = high.evaluate_batch(hands)
    expected = ref.best_of_subsets(hands, "high")      # same 1..7462 scale: best 5-card subset
    mismatched = np.flatnonzero(values != expected)
    assert mismatched.size == 0, [(hr.hand_str(hands[i]), int(values[i]), int(expected[i]))
                                  for i in mismatched[:5]]
    assert ref.same_order(values, expected)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_scalar_reference_order(k):
    # The plain itertools reference (no vectorization) orders a sample the same way.
    hands = hr.random_hands(1500, k, seed=k).tolist()
    values = [high.evaluate(h) for h in hands]
    keys = [ref.high_key(h) for h in hands]
    assert ref.same_order(values, keys)


def test_flush_hands_with_6_and_7_cards():
    # Random hands rarely hold 6 or 7 of a suit or a straight flush plus pairs: build some.
    rng = np.random.default_rng(77)
    rows = []
    for _ in range(3000):
        suit = rng.integers(4)
        n_suited = rng.integers(5, 8)
        k = rng.integers(max(5, n_suited), 8)
        suited = rng.choice(13, size=n_suited, replace=False) * 4 + suit
        others = [c for c in range(52) if c % 4 != suit]
        rest = rng.choice(others, size=k - n_suited, replace=False)
        rows.append([int(c) for c in np.concatenate([suited, rest])])
    for row in rows:
        assert high.evaluate(row) == max(high.evaluate(list(s)) for s in itertools.combinations(row, 5))
    keys = [ref.high_key(row) for row in rows]
    assert ref.same_order([high.evaluate(row) for row in rows], keys)


def test_specific_7_card_hands():
    # straight flush beats the quads and full house also present
    assert high.category(high.evaluate("9h 8h 7h 6h 5h 9c 9d")) == Category.STRAIGHT_FLUSH
    # a flush with a board pair
    assert high.category(high.evaluate("Ah Kh 7h 4h 2h 2c 2d")) == Category.FLUSH
    # two trips make a full house, the higher trips on top
    assert high.describe(high.evaluate("Kc Kd Kh 7s 7c 7d 2s")) == "Full house, kings full of sevens"
    # three pairs: the best two with the best kicker
    assert high.evaluate("Ac Ad Kc Kd Qc Qd 2s") == high.evaluate("Ac Ad Kc Kd Qh")
    # wheel in 7 cards, plus a six: the six-high straight
    assert high.evaluate("Ac 2d 3h 4s 5c 6d Kh") == high.evaluate("2d 3h 4s 5c 6d")
    # no wrap-around: Q-K-A-2-3 is ace high
    assert high.category(high.evaluate("Qc Kd Ah 2s 3c")) == Category.HIGH_CARD
    assert high.category(high.evaluate("Jc Qc Kd Ah 2s 3c 4d")) == Category.HIGH_CARD


# ----------------------------------------------------------------------------- 3 cards
def test_every_3_card_hand_matches_reference():
    hands = ref.all_hands(3)
    assert len(hands) == 22_100
    values = high3.evaluate_batch(hands)
    assert values.dtype == np.uint16
    expected = ref.dense_ranks([ref.high3_key(h) for h in hands])
    assert np.array_equal(values, expected)
    assert values.min() == 1 and values.max() == 455
    assert len(np.unique(values)) == 455
    scalar = [high3.evaluate(h) for h in hands.tolist()]
    assert scalar == values.tolist()


def test_high3_categories_and_describe():
    cats = Counter(high3.category(v) for v in range(1, 456))
    assert cats == {Category.HIGH_CARD: 286, Category.PAIR: 156, Category.THREE_OF_A_KIND: 13}
    assert [high3.category(v) for v in range(1, 456)] == sorted(high3.category(v) for v in range(1, 456))
    assert high3.evaluate("2c 3d 4h") == 1
    assert high3.evaluate("Ac Ad Ah") == 455
    assert high3.describe(455) == "Three of a kind, aces"
    assert high3.describe(high3.evaluate("Qs Qh 5d")) == "Pair of queens (5 kicker)"
    assert high3.describe(high3.evaluate("As Kd Jh")) == "Ace high (A-K-J)"
    # straights and flushes do not count
    assert high3.evaluate("Qs Ks As") == high3.evaluate("Qc Kd Ah")
    assert high3.category(high3.evaluate("2s 3s 4s")) == Category.HIGH_CARD
    assert high3.evaluate("Ac Kd Qh") < high3.evaluate("2c 2d 3h")
    for bad in (0, 456, -1):
        with pytest.raises(ValueError):
            high3.describe(bad)
        with pytest.raises(ValueError):
            high3.category(bad)
    for bad in (True, 1.0, "5"):
        with pytest.raises(TypeError):
            high3.describe(bad)


# ----------------------------------------------------------------------------- scalar vs batch
@pytest.mark.parametrize("k", [5, 6, 7])
def test_scalar_equals_batch(k):
    hands = hr.random_hands(5000, k, seed=100 + k)
    batch = high.evaluate_batch(hands)
    assert batch.dtype == np.uint16 and batch.shape == (5000,)
    rows = hands.tolist()
    assert [high.evaluate(r) for r in rows] == batch.tolist()
    assert [hr.evaluate(tuple(r)) for r in rows[:500]] == batch[:500].tolist()
    assert [high.evaluate(hr.hand_str(r)) for r in rows[:500]] == batch[:500].tolist()
    assert [high.evaluate(hr.hand_str(r).replace(" ", "")) for r in rows[:200]] == batch[:200].tolist()
    assert [high.evaluate(hr.hand_str(r).split()) for r in rows[:200]] == batch[:200].tolist()
    assert [high.evaluate(hands[i]) for i in range(200)] == batch[:200].tolist()


def test_threads_give_identical_results():
    hands = hr.random_hands(300_001, 7, seed=9)
    one = high.evaluate_batch(hands, threads=1)
    assert np.array_equal(one, high.evaluate_batch(hands, threads=2))
    assert np.array_equal(one, high.evaluate_batch(hands, threads=3))
    assert np.array_equal(one, high.evaluate_batch(hands))
    assert np.array_equal(one[:3], high.evaluate_batch(hands[:3], threads=8))   # more threads than rows


def test_threads_beyond_the_cores_do_not_queue():
    # a thread count far above the cores runs as many threads as there are cores, not a task (and
    # 8 chunks) per requested thread
    from handrank import _batch
    assert _batch.thread_count(10**9, 200_000) == _batch.cpu_count()
    assert _batch.thread_count(10**9, 3) == min(3, _batch.cpu_count())
    hands = hr.random_hands(200_000, 7, seed=2)
    assert np.array_equal(high.evaluate_batch(hands, threads=10**9), high.evaluate_batch(hands, threads=1))


def test_threads_argument_types():
    hands = hr.random_hands(100, 5, seed=3)
    want = high.evaluate_batch(hands, threads=1)
    assert np.array_equal(high.evaluate_batch(hands, threads=np.int64(2)), want)
    for bad in (True, 2.0, "2", [2]):
        with pytest.raises(TypeError, match="threads must be an int or None"):
            high.evaluate_batch(hands, threads=bad)
    for bad in (0, -1, np.int8(0)):
        with pytest.raises(ValueError, match="threads must be >= 1"):
            high.evaluate_batch(hands, threads=bad)


def test_no_hands_in_a_list_is_a_shape_error():
    for empty in ([], [[]]):
        with pytest.raises(ValueError, match=r"shape \(N, 5 or 6 or 7\)"):
            high.evaluate_batch(empty)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32,
                                   np.uint64, np.intp, ">i4"])
@pytest.mark.parametrize("k", [5, 7])
def test_integer_dtypes(dtype, k):
    hands = hr.random_hands(2000, k, seed=31)
    want = high.evaluate_batch(hands)
    converted = hands.astype(dtype)
    assert np.array_equal(high.evaluate_batch(converted), want)
    assert np.array_equal(converted, hands.astype(dtype))       # input not modified


def test_non_contiguous_input():
    hands = hr.random_hands(4000, 7, seed=5)
    want = high.evaluate_batch(hands)
    assert np.array_equal(high.evaluate_batch(np.asfortranarray(hands)), want)
    assert np.array_equal(high.evaluate_batch(hands[::2]), want[::2])
    assert np.array_equal(high.evaluate_batch(hands[::-1]), want[::-1])
    wide = np.zeros((4000, 14), dtype=np.uint8)
    wide[:, ::2] = hands
    assert np.array_equal(high.evaluate_batch(wide[:, ::2]), want)
    assert np.array_equal(high.evaluate_batch(hands.astype(np.int64)[::3]), want[::3])
    readonly = hands.copy()
    readonly.flags.writeable = False
    assert np.array_equal(high.evaluate_batch(readonly), want)


def test_list_inputs():
    texts = ["As Ks Qs Js Ts", "7c 5d 4h 3s 2c", "Kc Kd Kh 7s 7c"]
    want = [7462, 1, high.evaluate("Kc Kd Kh 7s 7c")]
    assert high.evaluate_batch(texts).tolist() == want
    assert high.evaluate_batch(tuple(texts)).tolist() == want
    assert high.evaluate_batch([hr.cards(t) for t in texts]).tolist() == want
    assert high.evaluate_batch(["As Ks Qs Js Ts 2c 2d", "7c5d4h3s2c9hJd"]).tolist() == [
        7462, high.evaluate("7c 5d 4h 3s 2c 9h Jd")]


def test_out_argument():
    hands = hr.random_hands(1000, 6, seed=3)
    out = np.zeros(1000, dtype=np.uint16)
    result = high.evaluate_batch(hands, out=out)
    assert result is out
    assert np.array_equal(out, high.evaluate_batch(hands))
    assert out.min() >= 1
    out2 = np.zeros(1000, dtype=np.uint16)
    assert high.evaluate_batch(hands, out=out2, threads=2) is out2
    assert np.array_equal(out2, out)


def test_empty_batch():
    result = high.evaluate_batch(np.zeros((0, 5), dtype=np.uint8))
    assert result.shape == (0,) and result.dtype == np.uint16
    assert high.evaluate_batch(np.zeros((0, 7), dtype=np.int64)).shape == (0,)


# ----------------------------------------------------------------------------- values and words
def test_extreme_values():
    assert high.evaluate("7c 5d 4h 3s 2c") == 1
    assert high.evaluate("As Ks Qs Js Ts") == 7462
    assert high.evaluate("Ah Kh Qh Jh Th") == 7462
    assert high.evaluate("7h 5h 4h 3h 2c") == 1
    assert high.evaluate("7h 5h 4h 3h 2h") > high.evaluate("Ac Kd Qh Js Tc")  # a flush is no low
    assert high.MAX_VALUE == 7462
    assert hr.evaluate is high.evaluate


def test_describe_examples():
    assert high.describe(high.evaluate("Kc Kd Kh 7s 7c")) == "Full house, kings full of sevens"
    assert high.describe(high.evaluate("As 2d 3h 4s 5c")) == "Straight, five high"
    assert high.describe(7462) == "Royal flush"
    assert high.describe(high.evaluate("9h 8h 7h 6h 5h")) == "Straight flush, nine high"
    assert high.describe(high.evaluate("5s 4s 3s 2s As")) == "Straight flush, five high"
    assert high.describe(high.evaluate("6c 6d 6h 6s Kc")) == "Four of a kind, sixes, king kicker"
    assert high.describe(1).startswith("Seven high")


def test_describe_names_every_category():
    prefixes = {
        Category.HIGH_CARD: " high (", Category.PAIR: "Pair of ", Category.TWO_PAIR: "Two pair, ",
        Category.THREE_OF_A_KIND: "Three of a kind, ", Category.STRAIGHT: "Straight, ",
        Category.FLUSH: "Flush, ", Category.FULL_HOUSE: "Full house, ",
        Category.FOUR_OF_A_KIND: "Four of a kind, ", Category.STRAIGHT_FLUSH: "",
    }
    texts = set()
    for v in range(1, 7463):
        text = high.describe(v)
        assert prefixes[high.category(v)] in text, (v, text)
        texts.add(text)
    assert len(texts) == 7462


def test_category_boundaries_are_monotone():
    cats = [high.category(v) for v in range(1, 7463)]
    assert cats == sorted(cats)
    assert Counter(cats) == CLASSES
    assert cats[0] == Category.HIGH_CARD and cats[-1] == Category.STRAIGHT_FLUSH
    # boundaries: the worst hand of each category sits right after the best of the one below
    assert high.evaluate("Ac Kd Qh Js 9c") + 1 == high.evaluate("2c 2d 3h 4s 5c")
    assert high.evaluate("Ac Ad Kh Qs Jc") + 1 == high.evaluate("3c 3d 2h 2s 4c")
    assert high.evaluate("Tc 9d 8h 7s 6c") < high.evaluate("Jc Td 9h 8s 7c")
    assert high.evaluate("Ac Kd Qh Js Tc") + 1 == high.evaluate("7c 5c 4c 3c 2c")
    assert high.evaluate("As 2d 3h 4s 5c") + 9 == high.evaluate("Ac Kd Qh Js Tc")
    assert high.evaluate("As Ah Ad Ac Kc") + 1 == high.evaluate("As 2s 3s 4s 5s")
    assert str(Category.STRAIGHT_FLUSH) == "Straight flush"


@pytest.mark.parametrize("bad", [0, 7463, -1, 10 ** 6, np.int64(7463)])
def test_describe_and_category_reject_out_of_range(bad):
    with pytest.raises(ValueError):
        high.describe(bad)
    with pytest.raises(ValueError):
        high.category(bad)


@pytest.mark.parametrize("bad", [True, 1.0, "7462", None])
def test_describe_and_category_reject_non_ints(bad):
    with pytest.raises(TypeError):
        high.describe(bad)
    with pytest.raises(TypeError):
        high.category(bad)


def test_numpy_int_values_accepted():
    assert high.describe(np.uint16(7462)) == "Royal flush"
    assert high.category(np.int64(1)) == Category.HIGH_CARD


@pytest.mark.parametrize("k", [5, 6, 7])
def test_count_range_is_a_piece_of_the_enumeration(k):
    # prefix p is the p-th pair (a, b), a < b, in lexicographic order; its piece is every hand
    # whose two lowest cards are a and b, evaluated here one by one
    pairs = list(itertools.combinations(range(52), 2))
    for p in (600, 700, 1270, 1325) if k == 7 else (0, 1, 700, 1270, 1325):   # (0, 1): 2M 7-card hands
        a, b = pairs[p]
        rests = np.array(list(itertools.combinations(range(b + 1, 52), k - 2)), dtype=np.uint8)
        rests = rests.reshape(-1, k - 2)
        hands = np.hstack([np.full((len(rests), 2), (a, b), dtype=np.uint8), rests])
        expected = np.bincount(high.evaluate_batch(hands), minlength=7463)
        assert np.array_equal(_evaluate.high_count_range(k, p, p + 1), expected)
    cuts = [0, 1, 2, 700, 1300, 1326]
    parts = sum(_evaluate.high_count_range(k, lo, hi) for lo, hi in zip(cuts, cuts[1:]))
    assert np.array_equal(parts, high.count_all(k))
    assert not _evaluate.high_count_range(k, 9, 9).any()


def test_count_range_bad_bounds():
    for lo, hi in ((-1, 5), (5, 4), (0, 1327)):
        with pytest.raises(ValueError, match="prefix range"):
            _evaluate.high_count_range(7, lo, hi)
