"""Badugi (RULES.md "Poker variants"): every 4-card hand, both orderings, against a brute-force
reference over the card subsets."""
import itertools
from functools import cache

import numpy as np
import pytest

import handrank as hr
import reference as ref
from handrank.cards import RANKS
from handrank import badugi


@cache
def _best(cards, ace_low):
    """Key of the best badugi of (rank, suit) pairs: more cards first, then the lower ranks from
    the top (as a negated descending tuple, so bigger is better)."""
    best = None
    for n in range(1, 5):
        for subset in itertools.combinations(cards, n):
            if len({r for r, _ in subset}) == n and len({s for _, s in subset}) == n:
                order = sorted(((r + 1) % 13 if ace_low else r for r, _ in subset), reverse=True)
                key = (n, tuple(-r for r in order))
                best = key if best is None or key > best else best
    return best


def reference_key(hand, ace_low):
    # suits relabelled in order of appearance: the answer depends only on which cards share one
    cards = sorted((c // 4, c % 4) for c in hand)
    relabel = {}
    for _, s in cards:
        relabel.setdefault(s, len(relabel))
    return _best(tuple((r, relabel[s]) for r, s in cards), ace_low)


@pytest.mark.parametrize("ace_low", [True, False])
def test_every_hand_matches_reference(ace_low):
    hands = ref.all_hands(4)
    values = badugi.evaluate_batch(hands, ace_low=ace_low)
    keys = [reference_key(h, ace_low) for h in hands.tolist()]
    assert ref.same_order(values, keys)
    assert values.min() == 1 and values.max() == badugi.MAX_VALUE
    assert len(np.unique(values)) == badugi.MAX_VALUE


@pytest.mark.parametrize("ace_low", [True, False])
def test_describe_and_size_of_every_value(ace_low):
    hands = ref.all_hands(4)
    values, first = np.unique(badugi.evaluate_batch(hands, ace_low=ace_low), return_index=True)
    for value, i in zip(values.tolist(), first.tolist()):
        n, ranks = reference_key(hands[i].tolist(), ace_low)
        assert badugi.size(value, ace_low=ace_low) == n
        shown = [(-r - 1) % 13 if ace_low else -r for r in ranks]          # back to 0 = deuce
        assert badugi.describe(value, ace_low=ace_low).endswith(
            "(" + "-".join(RANKS[r] for r in shown) + ")")


@pytest.mark.parametrize("better, worse, ace_low", [
    ("Kc Qd Jh Ts", "Ac 2d 3h 3s", True),       # any badugi beats any three-card hand
    ("Ac 2d 3h 4s", "2c 3d 4h 5s", True),
    ("2c 3d 4h 5s", "Ac 2d 3h 4s", False),      # the ace is high in the 2-7 ordering
    ("7c 5d 3h 2s", "7c 6d 2h As", True),       # seven high: then the five beats the six
    ("Ac 2d 3h 3s", "Ac 2d 4h 4s", True),       # three cards each: 3-2-A beats 4-2-A
    ("Kc Kd Kh Ks", "Ac Ad Ah As", False),      # one card each: the ace is the worst in 2-7
])
def test_order_examples(better, worse, ace_low):
    assert badugi.evaluate(better, ace_low=ace_low) > badugi.evaluate(worse, ace_low=ace_low)


def test_suits_never_break_ties():
    assert badugi.evaluate("Ac 2d 3h 4s") == badugi.evaluate("As 2h 3d 4c")
    assert badugi.evaluate("Kc Kd 5h 5s") == badugi.evaluate("Kh Ks 5c 5d")


def test_scalar_matches_batch_and_threads():
    hands = hr.random_hands(100_000, 4, seed=4)
    for ace_low in (True, False):
        one = badugi.evaluate_batch(hands, ace_low=ace_low, threads=1)
        out = np.zeros(len(hands), np.uint16)
        assert badugi.evaluate_batch(hands, ace_low=ace_low, threads=2, out=out) is out
        assert np.array_equal(out, one)
        for i in range(0, len(hands), 997):
            assert badugi.evaluate(hands[i].tolist(), ace_low=ace_low) == one[i]


def test_errors():
    with pytest.raises(ValueError, match="4 cards, got 3"):
        badugi.evaluate("Ac 2d 3h")
    with pytest.raises(ValueError, match="duplicate card Ac"):
        badugi.evaluate("Ac 2d 3h Ac")
    with pytest.raises(TypeError, match="ace_low must be a bool"):
        badugi.evaluate("Ac 2d 3h 4s", ace_low=1)
    hands = hr.random_hands(1000, 4, seed=5)
    hands[321, 2] = hands[321, 0]
    out = np.full(1000, 9, np.uint16)
    with pytest.raises(ValueError, match="row 321"):
        badugi.evaluate_batch(hands, out=out)
    assert (out == 9).all()
    hands = hr.random_hands(100, 4, seed=6)
    hands[57, 3] = 99
    with pytest.raises(ValueError, match="row 57: card id 99 is out of range"):
        badugi.evaluate_batch(hands)
    with pytest.raises(ValueError, match=r"shape \(N, 4\)"):
        badugi.evaluate_batch(np.zeros((3, 5), np.uint8))
    with pytest.raises(ValueError, match="1..1092"):
        badugi.describe(0)


@pytest.mark.parametrize("ace_low", [True, False])
def test_every_length_and_block_position(ace_low):
    # the kernel works on blocks of 64 hands with a padded last block: every length up to three
    # blocks gives the scalar values, row by row
    hands = hr.random_hands(200, 4, seed=7)
    expected = [badugi.evaluate(h, ace_low=ace_low) for h in hands.tolist()]
    for n in range(0, 200):
        assert badugi.evaluate_batch(hands[:n], ace_low=ace_low).tolist() == expected[:n]


@pytest.mark.parametrize("bad", [[0, 0, 1, 2], [5, 9, 5, 5], [51, 51, 51, 51], [52, 0, 1, 2],
                                 [255, 255, 255, 255], [3, 200, 1, 0], [0, 1, 2, 255]])
def test_bad_row_found_in_a_full_and_in_the_last_block(bad):
    hands = hr.random_hands(150, 4, seed=8)
    for row in (0, 63, 64, 100, 149):
        cards = hands.copy()
        cards[row] = bad
        with pytest.raises(ValueError, match=f"row {row}"):
            badugi.evaluate_batch(cards)
