"""A slow, obviously-correct oracle for the evaluators, written independently of tools/gen_tables.py.

Every function here returns a *key*: a tuple where a bigger key is a better hand for that game.
Keys are not the package's dense values; the tests compare orders (or dense ranks of the keys).

* 5 cards: the key is read straight off the rank counts and the suits. It depends only on the
  sorted ranks and on whether all five cards share a suit, so it is memoized on exactly that.
* 6 or 7 cards: the best key over every 5-card subset (itertools.combinations).

Card ids follow RULES.md: id = 4 * rank + suit, rank 0..12 = 2..A, suit 0..3 = c d h s.
"""
from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache
from math import comb

import numpy as np

# Category numbers of the high ladder, weakest first (RULES.md "High hands").
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

ACE = 12


def rank_of(card_id: int) -> int:
    return card_id // 4


def suit_of(card_id: int) -> int:
    return card_id % 4


def _ranks_and_suited(hand) -> tuple[tuple[int, ...], bool]:
    hand = [int(c) for c in hand]
    assert len(hand) == 5 and len(set(hand)) == 5 and all(0 <= c < 52 for c in hand), hand
    ranks = tuple(sorted(rank_of(c) for c in hand))
    suited = len({suit_of(c) for c in hand}) == 1
    return ranks, suited


def _groups(ranks) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(count pattern, ranks in tie-break order): bigger groups first, then higher ranks first."""
    by_size = sorted(Counter(ranks).items(), key=lambda item: (-item[1], -item[0]))
    return tuple(n for _, n in by_size), tuple(r for r, _ in by_size)


def _run_top(ranks, ace_can_be_low: bool) -> int | None:
    """Top rank of a 5-card run (5 distinct consecutive ranks), or None.

    With ace_can_be_low the A-2-3-4-5 wheel counts as a run topped by the five (rank 3)."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if ace_can_be_low and distinct == [0, 1, 2, 3, ACE]:
        return 3
    return None


# ----------------------------------------------------------------------------- high, 5 cards
@lru_cache(maxsize=None)
def _high5(ranks: tuple[int, ...], suited: bool, wheel_is_straight: bool = True) -> tuple[int, ...]:
    pattern, order = _groups(ranks)
    top = _run_top(ranks, wheel_is_straight)
    if top is not None and suited:
        return (STRAIGHT_FLUSH, top)
    if pattern == (4, 1):
        return (QUADS, *order)
    if pattern == (3, 2):
        return (FULL_HOUSE, *order)
    if suited:
        return (FLUSH, *order)
    if top is not None:
        return (STRAIGHT, top)
    if pattern == (3, 1, 1):
        return (TRIPS, *order)
    if pattern == (2, 2, 1):
        return (TWO_PAIR, *order)
    if pattern == (2, 1, 1, 1):
        return (PAIR, *order)
    assert pattern == (1, 1, 1, 1, 1), pattern
    return (HIGH_CARD, *order)


def high5_key(hand) -> tuple[int, ...]:
    ranks, suited = _ranks_and_suited(hand)
    return _high5(ranks, suited)


def high_key(hand) -> tuple[int, ...]:
    """Key of the best 5-card high hand in 5, 6 or 7 cards."""
    hand = list(hand)
    assert 5 <= len(hand) <= 7
    return max(high5_key(sub) for sub in itertools.combinations(hand, 5))


def high_category(hand) -> int:
    return high_key(hand)[0]


# ----------------------------------------------------------------------------- 3-card high
def high3_key(hand) -> tuple[int, ...]:
    hand = [int(c) for c in hand]
    assert len(hand) == 3 and len(set(hand)) == 3 and all(0 <= c < 52 for c in hand), hand
    pattern, order = _groups(rank_of(c) for c in hand)
    category = {(1, 1, 1): HIGH_CARD, (2, 1): PAIR, (3,): TRIPS}[pattern]
    return (category, *order)


# ----------------------------------------------------------------------------- 2-7 lowball
@lru_cache(maxsize=None)
def _low27(ranks: tuple[int, ...], suited: bool) -> tuple[int, ...]:
    # The worse the high hand (aces high, the wheel no straight), the better the low.
    return tuple(-x for x in _high5(ranks, suited, wheel_is_straight=False))


def low27_key(hand) -> tuple[int, ...]:
    ranks, suited = _ranks_and_suited(hand)
    return _low27(ranks, suited)


# ----------------------------------------------------------------------------- A-5 lowball
@lru_cache(maxsize=None)
def _lowa5(ranks: tuple[int, ...]) -> tuple[int, ...]:
    low_ranks = [(r + 1) % 13 for r in ranks]          # ace 0 (the best), deuce 1, ..., king 12
    pattern, order = _groups(low_ranks)
    badness = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4,
               (4, 1): 5}[pattern]
    return (-badness, *(-r for r in order))


def lowa5_5_key(hand) -> tuple[int, ...]:
    ranks, _ = _ranks_and_suited(hand)
    return _lowa5(ranks)


def lowa5_key(hand) -> tuple[int, ...]:
    """Key of the best A-5 low among 5, 6 or 7 cards."""
    hand = list(hand)
    assert 5 <= len(hand) <= 7
    return max(lowa5_5_key(sub) for sub in itertools.combinations(hand, 5))


def lowa5_qualifies8(hand) -> bool:
    """Some 5 of the cards are 5 distinct ranks, all at most an eight (ace low)."""
    low_ranks = {(rank_of(c) + 1) % 13 for c in hand}
    return sum(1 for r in low_ranks if r <= 7) >= 5


# ----------------------------------------------------------------------------- dense ranks
def dense_ranks(keys) -> np.ndarray:
    """Each key's 1-based position among the sorted distinct keys."""
    order = {key: i + 1 for i, key in enumerate(sorted(set(keys)))}
    return np.array([order[key] for key in keys], dtype=np.int64)


def same_order(values, keys) -> bool:
    """values(a) < values(b) iff keys(a) < keys(b), equal iff equal, for all pairs."""
    values = np.asarray(values)
    by_key = dense_ranks(keys)
    by_value = np.unique(values, return_inverse=True)[1].reshape(-1) + 1
    return bool(np.array_equal(by_key, by_value))


# ----------------------------------------------------------------------------- vectorized forms
# Exhaustive and large random checks would take minutes one hand at a time. These helpers do the
# same thing for arrays: group the 5-card subsets by (sorted ranks, suited), call the scalar key
# function on one real hand of each group, and broadcast.

@lru_cache(maxsize=None)
def all_hands(k: int) -> np.ndarray:
    """Every k-card hand, as a read-only (C(52, k), k) uint8 array in lexicographic order."""
    count = comb(52, k)
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), k)),
                       dtype=np.uint8, count=count * k)
    hands = flat.reshape(count, k)
    hands.flags.writeable = False
    return hands


def _group_codes(hands5: np.ndarray) -> np.ndarray:
    """An int code per 5-card row, equal exactly when the sorted ranks and suitedness are equal."""
    ranks = np.sort(hands5 // 4, axis=1).astype(np.int64)
    suits = hands5 % 4
    suited = (suits == suits[:, :1]).all(axis=1)
    code = np.zeros(len(hands5), dtype=np.int64)
    for j in range(5):
        code = code * 13 + ranks[:, j]
    return code * 2 + suited


def dense5(hands5: np.ndarray, key5) -> np.ndarray:
    """Dense rank (1 = smallest key) of key5 over the rows of an (N, 5) array, among those rows."""
    codes = _group_codes(np.asarray(hands5))
    unique, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    keys = [key5(hands5[i]) for i in first]
    return dense_ranks(keys)[inverse.reshape(-1)]


@lru_cache(maxsize=None)
def _scale(key5_name: str) -> np.ndarray:
    """Dense rank of key5 over ALL 5-card hands, indexed by group code (0 where no hand)."""
    key5 = {"high": high5_key, "lowa5": lowa5_5_key}[key5_name]
    hands = all_hands(5)
    table = np.zeros(13 ** 5 * 2, dtype=np.int64)
    table[_group_codes(hands)] = dense5(hands, key5)
    return table


def best_of_subsets(hands: np.ndarray, game: str) -> np.ndarray:
    """For each row of an (N, k) array, k in 5..7: the largest 5-card dense rank (over all 5-card
    hands, so on the same 1..max scale as the package's values) among its 5-card subsets."""
    hands = np.asarray(hands, dtype=np.uint8)
    table = _scale(game)
    best = np.zeros(len(hands), dtype=np.int64)
    for subset in itertools.combinations(range(hands.shape[1]), 5):
        np.maximum(best, table[_group_codes(hands[:, subset])], out=best)
    return best
