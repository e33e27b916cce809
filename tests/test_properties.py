"""Properties every evaluator must have, checked with hypothesis."""
import itertools

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import reference as ref
from handrank import high, high3, low27, lowa5
from handrank.high import Category

settings.register_profile("handrank", max_examples=300, deadline=None)
settings.load_profile("handrank")

EVALUATORS = [(high, 5), (high, 6), (high, 7), (high3, 3), (low27, 5), (lowa5, 5), (lowa5, 6),
              (lowa5, 7)]
KEYS = {high: ref.high_key, high3: ref.high3_key, low27: ref.low27_key, lowa5: ref.lowa5_key}


def hands(k):
    return st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True)


def sign(x):
    return (x > 0) - (x < 0)


def compare(a, b):
    return (a > b) - (a < b)


evaluator_and_hand = st.sampled_from(EVALUATORS).flatmap(
    lambda ek: st.tuples(st.just(ek[0]), hands(ek[1])))


@given(evaluator_and_hand, st.data())
def test_permutation_invariance_scalar(case, data):
    mod, hand = case
    shuffled = data.draw(st.permutations(hand))
    assert mod.evaluate(shuffled) == mod.evaluate(hand) == mod.evaluate(tuple(hand))


@given(st.sampled_from(EVALUATORS), st.integers(1, 30), st.integers(0, 2 ** 32 - 1))
def test_permutation_invariance_batch(evaluator, n, seed):
    mod, k = evaluator
    rng = np.random.default_rng(seed)
    arr = np.array([rng.permutation(52)[:k] for _ in range(n)], dtype=np.uint8)
    want = mod.evaluate_batch(arr)
    assert want.tolist() == [mod.evaluate(r) for r in arr.tolist()]
    assert np.array_equal(mod.evaluate_batch(arr[:, rng.permutation(k)]), want)
    shuffled = rng.permuted(arr, axis=1)                    # each row shuffled on its own
    assert np.array_equal(mod.evaluate_batch(shuffled), want)


@given(evaluator_and_hand, st.permutations(range(4)))
def test_suit_relabelling_invariance(case, suit_map):
    mod, hand = case
    relabelled = [4 * (c // 4) + suit_map[c % 4] for c in hand]
    assert mod.evaluate(relabelled) == mod.evaluate(hand)


@given(st.sampled_from([5, 6, 7]).flatmap(hands), st.data())
def test_lowa5_ignores_suits(hand, data):
    # Any other choice of suits for the same ranks (cards stay distinct) gives the same A-5 value.
    ranks = [c // 4 for c in hand]
    suits_by_rank = {}
    for r in set(ranks):
        n = ranks.count(r)
        suits_by_rank[r] = data.draw(st.permutations(range(4)))[:n]
    other = [4 * r + s for r in set(ranks) for s in suits_by_rank[r]]
    assert lowa5.evaluate(other) == lowa5.evaluate(hand)


@given(st.sampled_from([6, 7]).flatmap(hands))
def test_high_best_five_of_six_or_seven(hand):
    best = max(high.evaluate(list(sub)) for sub in itertools.combinations(hand, 5))
    assert high.evaluate(hand) == best
    assert high.evaluate_batch(np.array([hand], dtype=np.uint8))[0] == best


@given(hands(7))
def test_high_seven_is_best_of_its_sixes(hand):
    assert high.evaluate(hand) == max(high.evaluate(list(sub)) for sub in itertools.combinations(hand, 6))


@given(st.sampled_from([6, 7]).flatmap(hands))
def test_lowa5_best_five_of_six_or_seven(hand):
    best = max(lowa5.evaluate(list(sub)) for sub in itertools.combinations(hand, 5))
    assert lowa5.evaluate(hand) == best
    assert lowa5.evaluate_batch(np.array([hand], dtype=np.uint8))[0] == best


@given(st.sampled_from([5, 6]).flatmap(hands), st.integers(0, 51))
def test_another_card_never_hurts(hand, extra):
    assume(extra not in hand)
    assert high.evaluate(hand + [extra]) >= high.evaluate(hand)
    assert lowa5.evaluate(hand + [extra]) >= lowa5.evaluate(hand)


@given(st.sampled_from(EVALUATORS).flatmap(lambda ek: st.tuples(st.just(ek[0]), hands(ek[1]),
                                                                hands(ek[1]))))
def test_order_agrees_with_reference(case):
    mod, a, b = case
    key = KEYS[mod]
    assert compare(mod.evaluate(a), mod.evaluate(b)) == compare(key(a), key(b))


@given(hands(5), hands(5))
def test_low27_reverses_high_off_the_wheel(a, b):
    def wheel(h):
        return sorted(c // 4 for c in h) == [0, 1, 2, 3, 12]
    assume(not wheel(a) and not wheel(b))
    assert compare(low27.evaluate(a), low27.evaluate(b)) == -compare(high.evaluate(a), high.evaluate(b))


@st.composite
def padded_three_card_pairs(draw):
    """Two 3-card hands and two lower, unpaired filler cards that make each a 5-card hand."""
    a = draw(hands(3))
    b = draw(hands(3))
    lowest = min(c // 4 for c in a + b)
    assume(lowest >= 2)
    pad_ranks = draw(st.lists(st.integers(0, lowest - 1), min_size=2, max_size=2, unique=True))
    pad = [4 * r + draw(st.integers(0, 3)) for r in pad_ranks]
    return a, b, pad


@given(padded_three_card_pairs())
def test_high3_order_consistent_with_high(case):
    # With two filler cards below every card of both hands, a 5-card hand ranks exactly as its
    # top three cards do, unless the fillers complete a straight or a flush.
    a, b, pad = case
    five_a, five_b = high.evaluate(a + pad), high.evaluate(b + pad)
    ladder = (Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH)
    assume(high.category(five_a) not in ladder and high.category(five_b) not in ladder)
    assert compare(high3.evaluate(a), high3.evaluate(b)) == compare(five_a, five_b)
    assert high3.category(high3.evaluate(a)) == high.category(five_a)


@given(st.sampled_from(EVALUATORS).flatmap(
    lambda ek: st.tuples(st.just(ek[0]), st.just(ek[1]), st.lists(hands(ek[1]), max_size=20))))
def test_batch_equals_scalar_for_any_rows(case):
    mod, k, rows = case
    arr = np.array(rows, dtype=np.int64).reshape(len(rows), k)
    assert mod.evaluate_batch(arr).tolist() == [mod.evaluate(r) for r in rows]
