"""Stud's partial hands and the bring-in (RULES.md "Poker variants"): every 1- to 4-card hand
against a reference that pads the hand to five ranks with phantom cards worse than any real one
and reads the 5-card key off the rank groups (tests/reference.py's _groups)."""
import itertools
from functools import cache

import numpy as np
import pytest

import reference as ref
from handrank import high, lowa5

ALL_PARTIAL = [hand for k in range(1, 5) for hand in itertools.combinations(range(52), k)]


@cache
def high_key(ranks):
    # phantoms -1..-4: distinct (they pair nothing) and below the deuce; no straights here
    padded = (*ranks, *range(-1, -1 - (5 - len(ranks)), -1))
    pattern, order = ref._groups(padded)
    return pattern, order


@cache
def low_key(ranks):
    # ace 0 .. king 12, phantoms 13..16 worse than a king; a bigger pattern or rank is worse
    low = (*((r + 1) % 13 for r in ranks), *range(13, 13 + 5 - len(ranks)))
    pattern, order = ref._groups(low)
    return tuple(-p for p in pattern), tuple(-r for r in order)


def sorted_ranks(hand):
    return tuple(sorted(c // 4 for c in hand))


@pytest.mark.parametrize("module, key", [(high, high_key), (lowa5, low_key)], ids=["high", "lowa5"])
def test_every_partial_hand_matches_reference(module, key):
    values = np.array([module.evaluate_partial(hand) for hand in ALL_PARTIAL])
    keys = [key(sorted_ranks(hand)) for hand in ALL_PARTIAL]
    assert ref.same_order(values, keys)
    assert values.min() == 1 and values.max() == module.PARTIAL_MAX_VALUE
    assert len(np.unique(values)) == module.PARTIAL_MAX_VALUE


@pytest.mark.parametrize("module", [high, lowa5], ids=["high", "lowa5"])
def test_describe_every_partial_value(module):
    seen = {}
    for hand in ALL_PARTIAL:
        seen.setdefault(module.evaluate_partial(hand), hand)
    assert len(seen) == module.PARTIAL_MAX_VALUE
    for value, hand in seen.items():
        words = module.describe_partial(value)
        shown = words[words.index("(") + 1:-1].split("-")
        assert sorted(shown) == sorted("23456789TJQKA"[c // 4] for c in hand), (words, hand)
    with pytest.raises(ValueError):
        module.describe_partial(module.PARTIAL_MAX_VALUE + 1)


@pytest.mark.parametrize("module, hand, words", [
    (high, "Ah Ad Kc", "Pair of aces (A-A-K)"),
    (high, "Ks Kd Qc Qh", "Two pair, kings and queens (K-K-Q-Q)"),
    (high, "9c 9d 9h 9s", "Four of a kind, nines (9-9-9-9)"),
    (high, "7c 4d 2h", "Seven high (7-4-2)"),
    (lowa5, "7c 4d 2h", "Seven-four low (7-4-2)"),
    (lowa5, "Ac 2d", "Two-ace low (2-A)"),
    (lowa5, "Kc Kd", "Pair of kings (K-K)"),
])
def test_describe_partial_examples(module, hand, words):
    assert module.describe_partial(module.evaluate_partial(hand)) == words


@pytest.mark.parametrize("better, worse", [
    ("As Ks 2c", "As Kd"),          # a missing kicker is the worst kicker
    ("2c 2d", "As Ks Qs Js"),       # any pair beats any high card
    ("3c 3d 2c 2d", "Ac Ad Kc"),    # two pair beats a pair
    ("2c 2d 2h", "Ac Ad Kc Kd"),    # trips beat two pair
    ("2c 2d 2h 2s", "Ac Ad Ah Kd"),
    ("Ac Ad", "Kc Kd Qs"),
])
def test_high_partial_order(better, worse):
    assert high.evaluate_partial(better) > high.evaluate_partial(worse)


@pytest.mark.parametrize("better, worse", [
    ("3c 2d", "4c Ad"),             # the highest card first
    ("5c 4d 3h 2s", "5c 4d 3h"),    # a missing card is the worst
    ("Kc Qd", "Ac Ad"),             # pairs are bad
    ("Ac", "2c"),                   # the ace is low
])
def test_low_partial_order(better, worse):
    assert lowa5.evaluate_partial(better) > lowa5.evaluate_partial(worse)


@pytest.mark.parametrize("bad, error", [("", ValueError), ("As Ks Qs Js Ts", ValueError),
                                        ("As As", ValueError), (5, TypeError)])
def test_partial_bad_hands(bad, error):
    for module in (high, lowa5):
        with pytest.raises(error):
            module.evaluate_partial(bad)


def test_bring_in_examples():
    assert high.bring_in("7h 2s Kd 2c") == 3           # the 2c: lowest rank, clubs lowest suit
    assert high.bring_in("Ac Kd") == 1                 # the ace is high in stud
    assert lowa5.bring_in("Kc 7d Ks Ah") == 2          # razz: the highest card, spades highest
    assert lowa5.bring_in("Ac 2d") == 1                # the ace is low in razz
    with pytest.raises(ValueError):
        high.bring_in("")
    with pytest.raises(ValueError):
        lowa5.bring_in("As As")


def test_bring_in_every_pair_of_up_cards():
    suit_rank = {0: 0, 1: 1, 2: 2, 3: 3}                  # c d h s, lowest first
    for a, b in itertools.permutations(range(52), 2):
        ra, rb = a // 4, b // 4
        stud = 0 if (ra, suit_rank[a % 4]) < (rb, suit_rank[b % 4]) else 1
        assert high.bring_in([a, b]) == stud
        la, lb = (ra + 1) % 13, (rb + 1) % 13             # ace lowest
        razz = 0 if (la, a % 4) > (lb, b % 4) else 1
        assert lowa5.bring_in([a, b]) == razz
