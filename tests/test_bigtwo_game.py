"""bigtwo.Game: seeded random games end with every card accounted for and zero-sum payments;
illegal actions raise and leave the state unchanged."""
from __future__ import annotations

import copy
import random

import numpy as np
import pytest

import handrank as hr
from handrank import bigtwo
from handrank.bigtwo import Game, IllegalMove, Rules

from bigtwo_support import play_out


def check_finished(game: Game, dealt: list[list[int]]) -> None:
    played = [c for turn in game.history if turn.combo is not None for c in turn.combo.cards]
    held = [c for hand in game.hands for c in hand]
    assert sorted(played + held) == sorted(c for hand in dealt for c in hand)
    assert len(set(played)) == len(played)
    assert sorted(played + held + game.undealt) == list(range(52))
    assert [len(h) for h in game.hands].count(0) == 1 and not game.hands[game.winner]
    pay = game.payments()
    assert sum(pay) == 0 and pay[game.winner] > 0
    assert pay == bigtwo.payments([len(h) for h in game.hands], game.rules, whole_deck=game.deal == "all")
    # the opening play held the lowest card dealt, and every play beat the one before in its trick
    assert game.opening_card in game.history[0].combo.cards
    to_beat, passes = None, 0
    for turn in game.history:
        if turn.combo is None:
            assert to_beat is not None
            passes += 1
            if passes == game.players - 1:
                to_beat, passes = None, 0
        else:
            assert to_beat is None or (turn.combo.size == to_beat.size and turn.combo.key > to_beat.key)
            to_beat, passes = turn.combo, 0


@pytest.mark.parametrize("players, deal", [(4, "thirteen"), (3, "thirteen"), (3, "all"),
                                           (2, "thirteen"), (2, "all")])
def test_random_games(players, deal):
    chooser = random.Random(players * 10 + len(deal))
    games = 1200 if players == 4 else 300
    for seed in range(games):
        rules = Rules.preset(Rules.presets()[seed % len(Rules.presets())])
        game = Game(players, rules, seed=seed, deal=deal)
        dealt = [list(h) for h in game.hands]
        sizes = sorted(len(h) for h in dealt)
        if deal == "all" and players == 3:
            assert sizes == [17, 17, 18] and len(game.hands[game.turn]) == 18
        elif deal == "all":
            assert sizes == [26, 26]
        else:
            assert sizes == [13] * players
        play_out(game, chooser)
        check_finished(game, dealt)


def test_seeded_deal_is_reproducible():
    assert Game(seed=42).hands == Game(seed=42).hands
    assert Game(seed=42).hands != Game(seed=43).hands
    game = Game(seed=1)
    assert hr.card("3d") in game.hand() and game.opening_card == hr.card("3d")
    taiwan = Game(rules="taiwan", seed=1)
    assert taiwan.opening_card == hr.card("3c") and taiwan.opening_card in taiwan.hand()


def test_the_extra_card_of_a_whole_deck_deal_can_open():
    # 3 players, 17 cards each: the 52nd card goes to the holder of the lowest card dealt; when it
    # is the lowest card of the deck itself, that player opens with it
    for rules, lowest in (("hk", "3d"), ("taiwan", "3c")):
        seen = 0
        for seed in range(300):
            game = Game(3, rules=rules, seed=seed, deal="all")
            assert game.opening_card == hr.card(lowest) and game.opening_card in game.hand()
            assert bigtwo.card_strength(game.opening_card, rules) == 0
            deck = np.random.default_rng(seed).permutation(52)
            if deck[-1] == hr.card(lowest):
                seen += 1
                before = snapshot(game)
                game.play(lowest)
                assert game.history[-1].combo.cards == (hr.card(lowest),) and game.turn != before[1]
        assert seen >= 2


def test_card_strength_takes_any_rules():
    assert bigtwo.card_strength(hr.card("3d")) == 0 == bigtwo.card_strength(hr.card("3c"), "taiwan")
    assert bigtwo.card_strength(hr.card("2s"), None) == 51
    assert bigtwo.card_strength(hr.card("3c"), bigtwo.Rules.preset("taiwan")) == 0


def snapshot(game: Game):
    return copy.deepcopy((game.hands, game.turn, game.to_beat, game.last_player, game.passes,
                          game.winner, game.history))


def test_illegal_actions_leave_the_state_unchanged():
    game = Game(seed=7)
    before = snapshot(game)
    other = game.hands[(game.turn + 1) % 4][0]
    opening = game.opening_card
    leader = game.hand()
    not_opening = next(c for c in leader if c != opening)
    for action, message in [
        (lambda: game.pass_(), "leads the trick and cannot pass"),
        (lambda: game.play([other]), f"does not hold {hr.card_str(other)}"),
        (lambda: game.play([not_opening]), f"must include {hr.card_str(opening)}"),
        (lambda: game.play([]), "no cards is not a Big Two combo"),
        (lambda: game.play(leader[:6]), "is not a Big Two combo"),
        (lambda: game.payments(), "not over"),
    ]:
        with pytest.raises(IllegalMove, match=message):
            action()
        assert snapshot(game) == before
    game.play([opening])
    before = snapshot(game)
    lower = bigtwo.classify([opening])
    with pytest.raises(IllegalMove):
        game.play(lower)                                  # not in the next player's hand
    hand = game.hand()
    pair_or_more = [m for m in bigtwo.legal_moves(hand) if m.size > 1]
    if pair_or_more:
        with pytest.raises(IllegalMove, match="does not beat"):
            game.play(pair_or_more[0])
    assert snapshot(game) == before
    # actions outside the hand's mask: bits past the hand's cards, or past the 8192 actions
    game = Game(seed=3)
    before = snapshot(game)
    first = 1 << game.hand().index(game.opening_card)
    for action in (first | 1 << 13, first | 1 << 20, -1, bigtwo.ACTIONS, 1.0):
        with pytest.raises(IllegalMove, match="action must be an int"):
            game.play_action(action)
        assert snapshot(game) == before
    with pytest.raises(ValueError, match="action must be an int in 0..31 for a hand of 5 cards"):
        bigtwo.action_cards([1, 2, 3, 4, 5], 1 << 5)
    with pytest.raises(ValueError, match="2 to 4 players"):
        Game(5)
    with pytest.raises(ValueError, match="deal must be one of"):
        Game(3, deal="some")


def test_trick_resets_after_everyone_else_passes():
    game = Game(seed=3)
    leader = game.turn
    game.play(game.legal_moves()[0])
    for _ in range(3):
        game.pass_()
    assert game.turn == leader and game.to_beat is None and not game.can_pass
    with pytest.raises(IllegalMove):
        game.pass_()


def test_game_over_refuses_actions():
    game = Game(seed=4)
    play_out(game, random.Random(0))
    before = snapshot(game)
    for action in (game.legal_moves, game.pass_, lambda: game.play("3d")):
        with pytest.raises(IllegalMove, match="the game is over"):
            action()
    assert snapshot(game) == before


def test_action_mask_drives_a_game():
    chooser = random.Random(2)
    for seed in range(50):
        game = Game(seed=seed)
        while not game.over:
            mask = game.action_mask()
            legal = np.flatnonzero(mask).tolist()
            assert len(legal) == len(game.legal_moves()) + game.can_pass
            game.play_action(chooser.choice(legal))
        assert sum(game.payments()) == 0


def test_copies_and_pickles_are_independent():
    import pickle

    game = Game(3, "pusoy", seed=9, deal="all")
    game.play(game.legal_moves()[0])
    for clone in (game.copy(), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert snapshot(clone) == snapshot(game) and clone.rules == game.rules
        play_out(clone, random.Random(1))
        assert clone.over and not game.over and sum(clone.payments()) == 0
    assert len(game.history) == 1
    rules = pickle.loads(pickle.dumps(Rules(straights="ace_low")))
    assert rules == Rules(straights="ace_low") and bigtwo.classify("As 2d 3d 4d 5c", rules) is not None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_combo_space_drives_whole_deck_games(players):
    chooser = random.Random(players)
    space = bigtwo.ComboSpace("taiwan")
    for seed in range(20):
        game = Game(players, "taiwan", seed=seed, deal="all")
        while not game.over:
            legal = np.flatnonzero(game.action_mask(space)).tolist()
            assert len(legal) == len(game.legal_moves()) + game.can_pass
            game.play_action(chooser.choice(legal), space)
        assert sum(len(h) for h in game.hands) + sum(t.combo.size for t in game.history if t.combo) == 52
        assert sum(game.payments()) == 0
    game = Game(2, seed=0, deal="all")
    before = snapshot(game)
    for call in (lambda: game.action_mask(space), lambda: game.play_action(1, space)):
        with pytest.raises(ValueError, match="other rules"):
            call()
    with pytest.raises(IllegalMove):
        game.play_action(space.size - 1, bigtwo.ComboSpace())     # a straight flush it does not hold
    assert snapshot(game) == before
