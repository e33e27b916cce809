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


# ----------------------------------------------------------------------------- hand-built combos
def test_play_rejects_a_hand_built_combo_that_repeats_a_card():
    game = Game(seed=1)
    opening = game.opening_card
    before = (game.hands[:], game.turn, list(game.history))
    for combo in (Combo(Kind.PAIR, 2, (opening, opening), 1),
                  Combo(Kind.SINGLE, 1, (opening, opening), 1)):
        with pytest.raises(IllegalMove, match="duplicate card"):
            game.play(combo)
        assert (game.hands[:], game.turn, list(game.history)) == before


def test_play_rejects_hand_built_combos_with_bad_cards():
    game = Game(seed=1)
    before = (game.hands[:], game.turn)
    for cards, error in (((52,), IllegalMove), ((-1,), IllegalMove), (("x",), IllegalMove),
                         ((True,), TypeError), (5, TypeError)):
        with pytest.raises(error):
            game.play(Combo(Kind.SINGLE, 1, cards, 1))       # type: ignore[arg-type]
        assert (game.hands[:], game.turn) == before


def test_play_takes_a_hand_built_combo_for_its_cards_only():
    # the kind, size and key of a hand-built Combo are not trusted: the Combo played is classified
    game = Game(seed=1)
    opening = game.opening_card
    played = game.play(Combo(Kind.STRAIGHT_FLUSH, 5, (opening,), 10 ** 9))
    assert played == bigtwo.classify([opening], game.rules)


def test_every_function_checks_a_hand_built_combo():
    three = hr.card("3d")
    repeated = Combo(Kind.PAIR, 2, (three, three), 1)
    for call in (lambda: bigtwo.beats(repeated, None), lambda: bigtwo.beats("4d 4c", repeated),
                 lambda: bigtwo.legal_moves("4d 4c 5h", repeated),
                 lambda: bigtwo.action_mask("4d 4c 5h", repeated),
                 lambda: bigtwo.ComboSpace().action(repeated),
                 lambda: bigtwo.is_bonus_play(repeated),
                 lambda: bigtwo.payments([0, 3], Rules(double_winning_play=True), winning_play=repeated)):
        with pytest.raises(ValueError, match="duplicate card 3d"):
            call()
    # a combo's kind, size and key are read from its cards, never taken on trust
    fake_bomb = Combo(Kind.FOUR_OF_A_KIND, 5, (three,), 10 ** 9)
    assert not bigtwo.is_bonus_play(fake_bomb)
    assert bigtwo.beats("4d", fake_bomb)
    assert [m.cards for m in bigtwo.legal_moves("3c 4d", fake_bomb)] == [(hr.card("3c"),), (hr.card("4d"),)]


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



# ----------------------------------------------------------------------------- payments
def test_payment_multipliers_are_fields_of_the_rules():
    """RULES.md: "The x2 and x3 of the payments are fields (defaults 2 and 3)"."""
    assert (Rules().double_multiplier, Rules().triple_multiplier) == (2, 3)
    assert bigtwo.payments([0, 3, 11, 13]) == [3 + 22 + 39, -3, -22, -39]
    flat = Rules(double_multiplier=1, triple_multiplier=1)
    assert bigtwo.payments([0, 3, 11, 13], flat) == [27, -3, -11, -13]
    steep = Rules(double_multiplier=3, triple_multiplier=5)
    assert bigtwo.payments([0, 3, 11, 13], steep) == [3 + 33 + 65, -3, -33, -65]
    # the doubling options still double on top
    both = steep.replace(double_held=True)
    assert bigtwo.payments([0, 3, 11], both, bonus_held=[False, True, True]) == [6 + 66, -6, -66]
    for name in ("double_multiplier", "triple_multiplier"):
        for bad in (0, -2, 1.5, True, "2"):
            with pytest.raises(ValueError, match=f"Rules.{name} must be an int >= 1"):
                Rules(**{name: bad})


def test_three_players_dealt_the_whole_deck_pay_by_their_own_thresholds():
    """Seed 000: "Likewise for a three-player game, a player with 17 cards remaining is deducted
    triple points. A player with more than 11 cards and less than 17 cards remaining is deducted
    double points." RULES.md: "others hold 16 and 11 cards: -32, -11, winner +43"."""
    assert bigtwo.payments([0, 16, 11], whole_deck=True) == [43, -32, -11]
    assert bigtwo.payments([17, 0, 12], whole_deck=True) == [-51, 75, -24]
    assert bigtwo.payments([0, 16, 11]) == [70, -48, -22]            # 13-card thresholds
    assert bigtwo.payments([0, 11, 10, 3], whole_deck=True) == bigtwo.payments([0, 11, 10, 3])
    rules = Rules(whole_deck_double_at=10, whole_deck_triple_at=16, triple_multiplier=4)
    assert bigtwo.payments([0, 16, 11], rules, whole_deck=True) == [64 + 22, -64, -22]
    with pytest.raises(ValueError, match=r"whole_deck_triple_at \(11\) must be >= whole_deck_double_at \(12\)"):
        Rules(whole_deck_triple_at=11)
    with pytest.raises(TypeError, match="whole_deck must be a bool"):
        bigtwo.payments([0, 3], whole_deck="all")


def test_a_three_player_whole_deck_game_pays_by_the_whole_deck_thresholds():
    chooser = random.Random(12)
    seen = set()
    for seed in range(12):
        game = Game(3, seed=seed, deal="all")
        passing = [0.0, 0.7, 1.0]            # how often each player passes when it may
        while not game.over:
            moves = game.legal_moves()
            if game.can_pass and (not moves or chooser.random() < passing[(game.turn + seed) % 3]):
                game.pass_()
            else:
                game.play(moves[0])
        counts = [len(h) for h in game.hands]
        want = [-c * (3 if c == 17 else 2 if 11 < c < 17 else 1) for c in counts]
        want[game.winner] = -sum(want)
        assert game.payments() == want
        seen |= {3 if c == 17 else 2 if 11 < c < 17 else 1 for c in counts if c}
    assert seen == {1, 2, 3}
    # thirteen cards each: the usual thresholds
    game = Game(3, seed=1)
    while not game.over:
        game.pass_() if game.can_pass else game.play(game.legal_moves()[0])
    assert game.payments() == bigtwo.payments([len(h) for h in game.hands])


# ----------------------------------------------------------------------------- presets
def test_the_charlesworth_preset_is_the_published_rule_set():
    """RULES.md: the `charlesworth` preset is the published rule set (4-card plays, no 5-card four
    of a kind, ...), not the indonesia ruleset it once was (test_bigtwo_charlesworth checks it
    against that code)."""
    rules = Rules.preset("charlesworth")
    assert rules != Rules.preset("indonesia")
    assert Kind.FOUR_OF_A_KIND not in rules.five_card_kinds and 4 in rules.sizes
    assert Game(rules="charlesworth", seed=1).rules is rules
    with pytest.raises(ValueError, match="unknown Big Two preset 'charles'"):
        Rules.preset("charles")
    with pytest.raises(ValueError, match="unknown Big Two preset"):
        Rules.preset(["charlesworth"])                       # type: ignore[arg-type]
