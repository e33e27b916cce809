"""Regression tests for Big Two faults found in review: each failed before its fix."""
from __future__ import annotations

import random

import numpy as np
import pytest

import handrank as hr
from handrank import bigtwo
from handrank.bigtwo import Combo, Game, IllegalMove, Kind, Rules


# ----------------------------------------------------------------------------- action_cards
def test_action_cards_reads_a_hand_as_action_mask_does():
    # every legal action of the mask, for text, card strings and ids alike, names the cards of
    # the move it stands for (before the fix text gave [' '] and strings sorted as text)
    chooser = random.Random(5)
    for _ in range(30):
        ids = chooser.sample(range(52), chooser.randint(1, 13))
        text = " ".join(hr.card_str(c) for c in ids)
        strings = [hr.card_str(c) for c in ids]
        mask = bigtwo.action_mask(text)
        moves = {m.cards for m in bigtwo.legal_moves(text)}
        assert (mask == bigtwo.action_mask(strings)).all() and (mask == bigtwo.action_mask(ids)).all()
        for action in np.flatnonzero(mask):
            played = tuple(bigtwo.action_cards(text, int(action)))
            assert played == tuple(bigtwo.action_cards(strings, int(action)))
            assert played == tuple(bigtwo.action_cards(ids, int(action)))
            assert played in moves


def test_action_cards_examples_from_the_review():
    assert bigtwo.action_cards("3d 3c 4s 5h 6d 7c", 1) == [hr.card("3c")]
    assert bigtwo.action_cards(["Kc", "Ac", "2d"], 2) == [hr.card("Kc")]
    assert bigtwo.action_cards([hr.card("Kc"), hr.card("Ac"), hr.card("2d")], 2) == [hr.card("Kc")]


@pytest.mark.parametrize("hand, error, message", [
    ([60, 60, -5], ValueError, "card id 60 is out of range"),
    ([5, 5], ValueError, "duplicate card"),
    ("3d Xx", ValueError, "cannot parse card"),
    ([1.5, 2], TypeError, "a card is an int id"),
    (list(range(14)), ValueError, "at most 13 cards"),
])
def test_action_cards_rejects_bad_hands(hand, error, message):
    with pytest.raises(error, match=message):
        bigtwo.action_cards(hand, 1)


# ----------------------------------------------------------------------------- card_strength
def test_card_strength_takes_what_every_function_takes():
    for rules in Rules.presets():
        order = sorted(range(52), key=lambda c: bigtwo.card_strength(c, rules))
        assert [bigtwo.card_strength(c, rules) for c in order] == list(range(52))
        for c in range(52):
            strength = bigtwo.card_strength(c, rules)
            assert bigtwo.card_strength(hr.card_str(c), rules) == strength
            assert bigtwo.card_strength(np.uint8(c), rules) == strength
    assert bigtwo.card_strength("As") == 4 * 11 + 3
    assert bigtwo.card_strength("3d") == 0 and bigtwo.card_strength("2s") == 51


@pytest.mark.parametrize("card, error", [
    (52, ValueError), (-1, ValueError), (2 ** 64, ValueError), ("Xs", ValueError), ("As Kd", ValueError),
    (True, TypeError), (1.0, TypeError), (None, TypeError),
])
def test_card_strength_rejects_what_is_no_card(card, error):
    with pytest.raises(error):
        bigtwo.card_strength(card)


def test_card_strength_orders_cards_as_single_plays_compare():
    for rules in Rules.presets():
        by_key = sorted(range(52), key=lambda c: bigtwo.classify([c], rules).key)
        assert [bigtwo.card_strength(c, rules) for c in by_key] == list(range(52))

