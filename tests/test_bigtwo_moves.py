"""bigtwo.legal_moves against brute force: every subset of the hand classified and compared."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import handrank as hr
from handrank import bigtwo
from handrank.bigtwo import Rules


def brute_force(hand, current, rules, must_include=None):
    """{sorted cards: key} of every subset of 1..5 cards that is a combo beating `current`."""
    found = {}
    for k in (1, 2, 3, 4, 5):
        subsets = np.array(list(itertools.combinations(sorted(hand), k)), dtype=np.uint8).reshape(-1, k)
        if k == 4 and rules.four_of_a_kind == "with_kicker" or not len(subsets):
            continue
        keys = bigtwo.classify_batch(subsets, rules)
        for cards, key in zip(subsets.tolist(), keys.tolist()):
            if not key:
                continue
            if current is not None and (k != current.size or key <= current.key):
                continue
            if must_include is not None and must_include not in cards:
                continue
            found[tuple(cards)] = key
    return found


def as_dict(moves):
    result = {m.cards: m.key for m in moves}
    assert len(result) == len(moves), "a move is listed twice"
    return result


LEADING = {
    "hk": Rules(),
    "malaysia": Rules.preset("malaysia"),
    "ace_low": Rules(straights="ace_low"),
    "variants": Rules.preset("indonesia").replace(two_pair=True, four_of_a_kind="both",
                                                     flushes=False, suit_order="shdc"),
}


@pytest.mark.parametrize("name", list(LEADING))
def test_leading_matches_brute_force(name):
    rules = LEADING[name]
    hands = hr.random_hands(300, 13, seed=len(name))
    for hand in hands.tolist():
        moves = bigtwo.legal_moves(hand, None, rules)
        assert as_dict(moves) == brute_force(hand, None, rules)
        assert [(m.size, m.key) for m in moves] == sorted((m.size, m.key) for m in moves)


def test_following_matches_brute_force():
    rng = np.random.default_rng(5)
    rules_list = [Rules(), Rules.preset("indonesia").replace(two_pair=True, four_of_a_kind="both")]
    deals = hr.random_hands(2000, 26, seed=6).tolist()
    sizes_seen = set()
    for i, cards in enumerate(deals):
        rules = rules_list[i % 2]
        hand, rest = cards[:13], cards[13:]
        # the combo to beat: one of the other hand's combos, of a size drawn first
        by_size = {}
        for combo in bigtwo.legal_moves(rest, None, rules):
            by_size.setdefault(combo.size, []).append(combo)
        size = int(rng.choice(sorted(by_size)))
        current = by_size[size][int(rng.integers(len(by_size[size])))]
        sizes_seen.add(size)
        assert as_dict(bigtwo.legal_moves(hand, current, rules)) == brute_force(hand, current, rules)
    assert sizes_seen >= {1, 2, 3, 5}


def test_must_include():
    hands = hr.random_hands(300, 13, seed=8).tolist()
    for hand in hands:
        must = hand[0]
        moves = bigtwo.legal_moves(hand, None, None, must_include=must)
        assert as_dict(moves) == brute_force(hand, None, Rules(), must_include=must)
        assert all(must in m.cards for m in moves)
    with pytest.raises(ValueError, match="must_include card 3d is not in the hand"):
        bigtwo.legal_moves("4d 5d", must_include="3d")


def test_big_hands_and_edges():
    hand = hr.random_hands(1, 26, seed=2)[0].tolist()           # two players, whole deck
    for current in (None, bigtwo.classify("3d"), bigtwo.classify("9d 9c")):
        expected = brute_force(hand, current, Rules())
        assert as_dict(bigtwo.legal_moves(hand, current)) == expected and expected
    assert bigtwo.legal_moves([]) == []
    assert bigtwo.legal_moves("3d", "2s") == []
    assert [str(m) for m in bigtwo.legal_moves("3d 3c", None)] == ["single 3d", "single 3c", "pair 3c 3d"]


def test_arrays_and_action_mask():
    hands = hr.random_hands(200, 13, seed=11).tolist()
    for i, hand in enumerate(hands):
        current = bigtwo.classify(hand[:1]) if i % 2 else None
        own = hand if current is None else hand[1:] + [c for c in range(52) if c not in hand][:1]
        moves = bigtwo.legal_moves(own, current)
        cards, sizes, keys = bigtwo.legal_move_arrays(own, current)
        assert keys.tolist() == [m.key for m in moves]
        assert [tuple(row[:s]) for row, s in zip(cards.tolist(), sizes.tolist())] == [m.cards for m in moves]
        mask = bigtwo.action_mask(own, current)
        assert mask.shape == (bigtwo.ACTIONS,) and mask.dtype == bool
        assert mask[0] == (current is not None)
        actions = np.flatnonzero(mask[1:]) + 1
        assert sorted(tuple(bigtwo.action_cards(own, a)) for a in actions) == sorted(m.cards for m in moves)
    with pytest.raises(ValueError, match="at most 13 cards"):
        bigtwo.action_mask(list(range(14)))


# ----------------------------------------------------------------------------- the combo space
def test_combo_space_numbers_every_combo_of_the_deck_once():
    space = bigtwo.ComboSpace()
    # pass; singles, pairs, triples; straights (10 rank sets x 4**5, straight flushes among them),
    # flushes that are no straight, full houses, four of a kind with any fifth card
    assert space.size == len(space) == 1 + 52 + 13 * 6 + 13 * 4 + 10 * 4 ** 5 + 4 * (1287 - 10) + 13 * 4 * 12 * 6 + 13 * 48
    assert space.cards(0) == []
    previous = (0, 0)
    for action in range(1, space.size):
        cards = space.cards(action)
        combo = bigtwo.classify(cards)
        assert combo is not None and space.action(cards) == space.action(combo) == action
        assert (combo.size, combo.key) >= previous           # the order of legal_moves
        previous = (combo.size, combo.key)
    # no 2-3-4-5-6 or A-2-3-4-5 straights in vietnam: their suited sets are plain flushes there
    assert len(bigtwo.ComboSpace("vietnam")) == space.size - 2 * (4 ** 5 - 4)
    both = Rules(two_pair=True, four_of_a_kind="both")
    assert len(bigtwo.ComboSpace(both)) == space.size + 13 + 13 * 12 // 2 * 36 * 44


@pytest.mark.parametrize("name", ["hk", "vietnam", "indonesia"])
def test_combo_space_mask_is_the_legal_moves(name):
    space = bigtwo.ComboSpace(name)
    rng = np.random.default_rng(21)
    for trial in range(300):
        size = [1, 2, 5, 13, 17, 18, 26, 52][trial % 8]
        deck = rng.permutation(52).tolist()
        hand, other = deck[:size], deck[size:size + 13]
        moves = bigtwo.legal_moves(other, None, name)
        current = moves[int(rng.integers(len(moves)))] if trial % 3 and moves and size < 52 else None
        must = hand[0] if trial % 5 == 4 else None
        mask = space.mask(hand, current, must)
        assert mask.shape == (space.size,) and mask.dtype == bool and mask[0] == (current is not None)
        played = sorted(tuple(space.cards(a)) for a in np.flatnonzero(mask[1:]) + 1)
        assert played == sorted(m.cards for m in bigtwo.legal_moves(hand, current, name, must))


def test_combo_space_copies_mark_the_same_actions():
    """A space's compiled index is rebuilt, not pickled: copies mark the same masks."""
    import copy
    import pickle
    space = bigtwo.ComboSpace("taiwan")
    hand = bigtwo.Game(4, "taiwan", seed=3).hands[0]
    for clone in (pickle.loads(pickle.dumps(space)), copy.deepcopy(space)):
        assert np.array_equal(clone.mask(hand), space.mask(hand)) and clone.mask(hand).sum() > 13


def test_combo_space_errors():
    space = bigtwo.ComboSpace()
    for action in (-1, space.size, True, 1.0, "1"):
        with pytest.raises(ValueError, match="action must be an int"):
            space.cards(action)
    for cards, message in [("3d 4c", "not a Big Two combo"), ("3d 3c 3h 3s", "not a Big Two combo"),
                           ("", "1 to 5 distinct cards"), ("3d 4d 5d 6d 7d 8d", "1 to 5 distinct cards"),
                           ("3d 3x", "3x")]:
        with pytest.raises(ValueError, match=message):
            space.action(cards)
    assert bigtwo.ComboSpace(Rules(four_of_a_kind="both")).action("3d 3c 3h 3s") > 0
