"""Issue 27's Big Two findings on the deal: play-outs that continue the deal (F4), stocks in the
deal's shuffled order and only where the rules give one (F5), the trade of a three-player
whole-deck deal (F6), dragon rules in a play-out (F8), numpy ints and negative seeds (U5, U6) and
the environment's `illegal_reward` (U8). Each test reproduces the review's example."""
from __future__ import annotations

import copy
import math
import pickle
import random

import numpy as np
import pytest

import handrank as hr
from handrank.bigtwo import Game, IllegalMove, Match, Rules

from bigtwo_support import play_out

C = hr.card


def cards(text: str) -> list[int]:
    return sorted(hr.cards(text))


def played_cards(game: Game) -> list[int]:
    return [c for turn in game.history if turn.combo for c in turn.combo.cards]


def play_passing(game: Game, chooser: random.Random) -> list[int]:
    """The review's driver: random legal plays, passing 30% of the time where allowed (many
    passes, so many draws); returns the cards played."""
    while not game.over:
        moves = game.legal_moves()
        if moves and (not game.can_pass or chooser.random() < 0.7):
            game.play(chooser.choice(moves))
        else:
            game.pass_()
    return played_cards(game)


# ----------------------------------------------------------------------------- F4
def test_a_play_out_never_deals_a_played_card_again():
    """F4: `Match(4, Rules(draw_on_pass=True, scoring="finish_order"), seed=0)`: the play-out's
    stock held 40 cards already played, and passers drew them."""
    match = Match(4, Rules(draw_on_pass=True, scoring="finish_order"), seed=0)
    played = play_passing(match.game, random.Random(0))
    po = match.next_game()
    assert match.stage == "play_out" and po.undealt == [] and not set(played) & {c for h in po.hands for c in h}
    play_passing(po, random.Random(1))            # passes draw nothing: four players have no stock
    assert sorted(played + played_cards(po) + [c for h in po.hands for c in h]) == list(range(52))


@pytest.mark.parametrize("players, scoring", [(3, "finish_order"), (4, "finish_order"), (3, "points")])
def test_a_play_out_draws_from_what_is_left_of_the_stock(players, scoring):
    """F4: a play-out continues the same deal: its stock is the original stock minus the cards
    drawn, in the same order; nothing played or held comes back (three players dealt 13 cards
    draw from the ghost hand under draw_on_pass)."""
    rules = Rules(draw_on_pass=True, scoring=scoring, president_exchange=scoring == "points")
    checked = 0
    for seed in range(12):
        match = Match(players, rules, seed=seed)
        chooser = random.Random(seed)
        stock = list(match.game.undealt)
        assert len(stock) == (13 if players == 3 else 0)
        played = play_passing(match.game, chooser)
        game = match.game
        while True:
            left = list(game.undealt)
            assert left == stock[len(stock) - len(left):]          # drawn from the top only
            game = match.next_game()
            if match.stage != "play_out":
                break
            checked += 1
            assert game.undealt == left
            held = [c for h in game.hands for c in h]
            assert sorted(played + held + left) == list(range(52))
            played += play_passing(game, chooser)
    assert checked >= 12


# ----------------------------------------------------------------------------- F5
def test_a_stock_of_given_hands_is_shuffled_from_the_seed():
    """F5: with given hands the stock was in id order (2h, 2s, 3h, 3s, ...), so every draw was
    predictable."""
    hands = ["3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 2d", "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c"]
    rules = Rules(draw_on_pass=True)
    stocks = [Game(2, rules, seed=seed, hands=hands).undealt for seed in range(5)]
    rest = sorted(set(range(52)) - set(hr.cards(" ".join(hands))))
    assert all(sorted(stock) == rest for stock in stocks)
    assert all(stock != rest for stock in stocks) and len({tuple(s) for s in stocks}) == 5
    assert Game(2, rules, seed=3, hands=hands).undealt == stocks[3]          # reproducible
    # cards left out of a deal that is no stock stay in id order
    assert Game(2, seed=3, hands=hands).undealt == rest
    # the stock given is taken in its order, top card first
    given = Game(2, rules, hands=hands, undealt="Kh 2h 5s")
    assert given.undealt == hr.cards("Kh 2h 5s")
    given.play("3d")
    given.pass_()
    assert C("Kh") in given.hands[1] and given.undealt == hr.cards("2h 5s")


def test_four_players_and_shootouts_have_no_stock():
    """F5: a 4-player team shootout (5 cards each) gave passers 32 cards to draw, but the docs say
    "with 4 players there is no stock"."""
    game = Game(4, Rules(draw_on_pass=True), hands=["3d 4d 5d 6d 7d", "3c 4c 5c 6c 7c",
                                                    "3h 4h 5h 6h 7h", "3s 4s 5s 6s 7s"])
    assert len(game.undealt) == 32 and game.undealt == sorted(game.undealt)     # out of play
    game.play("3d")
    game.pass_()
    assert [len(h) for h in game.hands] == [4, 5, 5, 5] and len(game.undealt) == 32
    # a shootout of a team match under draw_on_pass: four hands of five cards, no stock
    rules = Rules(scoring="teams", draw_on_pass=True)
    match = Match(4, rules, seed=0)
    match.game = Game(4, rules, hands=["3d", "4c 5c 6c", "4d 5d 6d 7d 8d 9d", "4h 5h 6h"])
    match.game.play("3d")                        # 6 cards a team: a tie
    shootout = match.next_game()
    assert match.stage == "shootout" and [len(h) for h in shootout.hands] == [5, 5, 5, 5]
    shootout.play(shootout.legal_moves()[0])
    passer = shootout.turn
    shootout.pass_()
    assert len(shootout.hands[passer]) == 5 and len(shootout.undealt) == 32


def test_the_deal_after_a_president_exchange_keeps_its_shuffled_stock():
    """F5: in a Match, the deal after a president exchange (2 or 3 players) got a stock in id
    order; it is the stock of the deal, in the deal's order."""
    rules = Rules(draw_on_pass=True, president_exchange=True)
    for players in (2, 3):
        match = Match(players, rules, seed=players)
        chooser = random.Random(players)
        while match.games_played < 2:
            play_passing(match.game, chooser)
            seed = int(copy.deepcopy(match._rng).integers(2 ** 63))   # the next deal's (Match._next_deal)
            game = match.next_game()
            if match.stage == "game":
                assert match.gifts
                dealt = Game(players, rules, seed=seed)
                assert game.undealt == dealt.undealt != sorted(dealt.undealt)
                assert sorted(c for h in game.hands for c in h) == sorted(c for h in dealt.hands for c in h)


# ----------------------------------------------------------------------------- F6
def test_the_trade_is_only_for_three_players_dealt_the_whole_deck():
    """F6: `extra_card="trade"` was offered to 4 players with given hands and handed over every
    undealt card ([36, 5, 5, 5])."""
    rules = Rules(extra_card="trade")
    game = Game(4, rules, deal="all", hands=["3d 4d 5d 6d 7d", "3c 4c 5c 6c 7c", "3h 4h 5h 6h 7h",
                                            "3s 4s 5s 6s 7s"])
    assert not game.pending_trade and game.turn == 0 and game.opening_card == C("3d")
    with pytest.raises(IllegalMove, match="no trade to decide"):
        game.trade(True)
    # three players with given hands that are not the whole deck: nothing to trade either
    assert not Game(3, rules, deal="all", hands=["3d 4d", "3c 4c", "3h 4h"]).pending_trade
    # the whole deck to three players, given: 17 cards each and one left over
    deck = np.random.default_rng(5).permutation(52).tolist()
    deck.remove(C("3d"))
    hands = [[C("3d")] + deck[:16], deck[16:33], deck[33:50]]
    extra, spare = deck[50], deck[49]
    game = Game(3, rules, deal="all", hands=hands, undealt=[extra])
    assert game.pending_trade and game.turn == 0
    game.trade(True)
    assert [len(h) for h in game.hands] == [17, 17, 17] and game.undealt == [C("3d")]
    assert extra in game.hands[0] and C("3d") not in game.hands[0]
    # one card for one card even with more cards out: a hand a card short is no whole-deck deal
    short = Game(3, rules, deal="all", hands=[hands[0], hands[1], [c for c in hands[2] if c != spare]],
                 undealt=[extra])
    assert not short.pending_trade
    for seed in range(20):              # shuffled deals: the holder swaps exactly one card
        game = Game(3, rules, seed=seed, deal="all")
        if game.pending_trade:
            (extra,) = game.undealt
            holder = game.turn
            game.trade(True)
            assert [len(h) for h in game.hands] == [17, 17, 17] and extra in game.hands[holder]
            assert game.undealt == [C("3d")]


# ----------------------------------------------------------------------------- F8
@pytest.mark.parametrize("rules", [Rules(dragon=True, president_exchange=True),
                                   Rules(dragon=True, scoring="finish_order"),
                                   Rules(dragon=True, long_straights=True, scoring="finish_order",
                                         play_out_lead="lowest_card")])
def test_a_dragon_match_plays_its_play_outs(rules):
    """F8: `Match(3, Rules(dragon=True, president_exchange=True), seed=1, deal="all")` failed at
    every play-out: "Rules.dragon is the three-player game dealt 17 cards each". A play-out of
    that game is still that game, played on by the two players left."""
    match = Match(3, rules, seed=1, deal="all")
    chooser = random.Random(1)
    play_outs = 0
    while match.games_played < 3:
        play_out(match.game, chooser)
        game = match.next_game()
        if match.stage == "play_out":
            play_outs += 1
            assert (game.players, game.deal, game.rules) == (2, "all", rules)
    assert play_outs == 3 and len(match.results) == 3
    assert all(sorted(r.order) == [0, 1, 2] for r in match.results)


def test_the_dragon_may_be_played_in_a_play_out():
    rules = Rules(dragon=True)
    dragon = "3c 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 2s"
    game = Game(2, rules, deal="all", hands=[dragon + " 3h", "4s 5s"], leader=0, play_out=True)
    assert cards(dragon) in [list(m.cards) for m in game.legal_moves()]
    game.play(dragon)
    assert game.to_beat.size == 13
    # a fresh deal is still the three-player whole-deck game only
    for kwargs in ({"players": 2, "deal": "all"}, {"players": 3},
                   {"players": 2, "deal": "all", "hands": ["3d", "3c"]},
                   {"players": 2, "hands": ["3d", "3c"], "play_out": True}):
        with pytest.raises(ValueError, match="Rules.dragon is the three-player game"):
            Game(rules=rules, **kwargs)


def test_a_play_out_decides_nothing_at_the_deal():
    """A play-out continues a game: four 2s or a dragun held when the first player goes out end
    nothing (the deal was settled in the game played on), and no trade is offered."""
    hands = ["2d 2c 2h 2s 5d", "3c 3h 6c 6h 7c 7h 8c 8h 9c 9h Tc Th Jc"]
    for rules in (Rules(four_twos="win"), Rules(four_twos="draw"), Rules(dragun=True)):
        assert Game(2, rules, hands=hands).over                 # a deal: decided at once
        game = Game(2, rules, hands=hands, leader=0, play_out=True)
        assert not game.over and game.turn == 0 and game.opening_card is None
    game = Game(2, hands=hands, play_out=True)           # the lowest card left leads with it
    assert game.turn == 1 and game.opening_card == C("3c")


def test_game_undealt_and_play_out_errors():
    hands = ["3d 4d", "5d 6d"]
    for kwargs, error, message in (
            ({"undealt": "7d"}, ValueError, "undealt goes with hands"),
            ({"play_out": True}, ValueError, "play_out goes with hands"),
            ({"hands": hands, "undealt": "4d 7d"}, ValueError, "undealt holds 4d, dealt to a hand too"),
            ({"hands": hands, "undealt": "7d 7d"}, ValueError, "undealt: "),
            ({"hands": hands, "undealt": "Xx"}, ValueError, "undealt: "),
            ({"hands": hands, "undealt": 7}, TypeError, "undealt: "),
            ({"hands": hands, "play_out": 1}, TypeError, "play_out must be a bool")):
        with pytest.raises(error, match=message):
            Game(2, **kwargs)


# ----------------------------------------------------------------------------- U5, U6
def test_numpy_ints_are_ints():
    """U5: `bigtwo.Game(np.int64(4))` said "Big Two has 2 to 4 players, got np.int64(4)"."""
    for players in (np.int64(4), np.uint8(3), np.int32(2)):
        game = Game(players, seed=1)
        assert game.players == int(players) and type(game.players) is int
        assert Game(players, seed=1).hands == Game(int(players), seed=1).hands
        match = Match(players, seed=1)
        assert match.players == int(players) and match.game.hands == Match(int(players), seed=1).game.hands
    game = Game(4, seed=1, leader=np.int64(2))
    assert game.turn == 2 and type(game.leader) is int
    for bad in (np.True_, True, 4.0, "4", 5, np.int64(1)):
        with pytest.raises(ValueError, match="Big Two has 2 to 4 players"):
            Game(bad)
        with pytest.raises(ValueError, match="Big Two has 2 to 4 players"):
            Match(bad)
    with pytest.raises(ValueError, match="leader must be None or a player 0..3"):
        Game(4, leader=np.int64(4))


def test_negative_seeds_name_the_seed():
    """U6: `seed=-1` in `bigtwo.Game` / `Match` gave numpy's "expected non-negative integer"
    without naming the parameter."""
    for make in (Game, Match, lambda seed: Game(2, Rules(draw_on_pass=True), seed=seed, hands=["3d", "4d"])):
        for bad in (-1, np.int64(-5)):
            with pytest.raises(ValueError, match=r"seed must be None, an int >= 0 or a numpy Generator, got -"):
                make(seed=bad)
        for bad in ("1", 1.5, True):
            with pytest.raises(TypeError, match="seed must be None, an int >= 0 or a numpy Generator"):
                make(seed=bad)
    rng = np.random.default_rng(3)
    assert Game(seed=np.random.default_rng(3)).hands == Game(seed=rng).hands
    assert Game(seed=np.uint64(2 ** 64 - 1)).hands == Game(seed=2 ** 64 - 1).hands
    pickle.loads(pickle.dumps(Match(3, seed=np.int64(7))))


# ----------------------------------------------------------------------------- U8
def test_illegal_reward_is_checked_when_the_environment_is_built():
    """U8: `bigtwo.env(illegal_reward="x")` was accepted and failed at the first illegal move;
    `illegal_reward=nan` gave NaN rewards."""
    bigtwo_env = pytest.importorskip("handrank.bigtwo.env")
    for bad in ("x", [1], True, np.True_, 1 + 2j):
        with pytest.raises(TypeError, match="illegal_reward must be None or a real number"):
            bigtwo_env.env(illegal_reward=bad)
    for bad in (math.nan, math.inf, -math.inf, np.float64("nan"), 10 ** 400):
        with pytest.raises(ValueError, match="illegal_reward must be a finite number"):
            bigtwo_env.env(illegal_reward=bad)
    for good, value in ((-5, -5.0), (np.int64(-3), -3.0), (np.float32(-2.5), -2.5), (0.25, 0.25)):
        env = bigtwo_env.env(illegal_reward=good)
        assert env.unwrapped.illegal_reward == value and type(env.unwrapped.illegal_reward) is float
        env.reset(seed=1)
        env.step(0)                     # the first player leads: a pass is illegal
        assert sorted(env.rewards.values()) == sorted([value, 0.0, 0.0, 0.0])
    assert bigtwo_env.env().unwrapped.illegal_reward == -39


# ----------------------------------------------------------------------------- found by the random matches
def test_a_card_the_president_hands_back_goes_back_to_the_scum():
    """`president_chooses`: the president gives any 2 cards after receiving, one just received
    among them; that card vanished from both hands (tests/test_bigtwo_match_fuzz.py found it)."""
    rules = Rules(president_exchange=True, president_chooses=True)
    deck = np.random.default_rng(2).permutation(52).tolist()
    hands = [sorted(deck[i * 13:(i + 1) * 13]) for i in range(4)]
    up = sorted(hands[3], key=lambda c: hr.bigtwo.card_strength(c, rules))[-2:]
    new, gifts = hr.bigtwo.president_exchange(hands, [0, 1, 2, 3], rules,
                                              lambda hand, count: [up[1], min(hands[0])])
    assert sorted(c for h in new for c in h) == list(range(52)) and [len(h) for h in new] == [13] * 4
    assert up[1] in new[3] and up[0] in new[0] and min(hands[0]) in new[3]
    assert gifts[:2] == [hr.bigtwo.Gift(3, 0, tuple(sorted(up))),
                         hr.bigtwo.Gift(0, 3, tuple(sorted([up[1], min(hands[0])])))]


FOUR_TWOS_DEAL = ["3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 3c", "2d 2c 2h 2s 4c 5c 6c 7c 8c 9c Tc Jc Qc",
                  "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah Kc", "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As Ac"]


def test_a_team_game_won_at_the_deal_is_scored():
    """Team play and a win at the deal (four 2s): `next_game` raised "exactly one player (who went
    out) must hold 0 cards"; the winner counts as out, their team holding fewer cards."""
    rules = Rules(scoring="teams", four_twos="win")
    match = Match(4, rules, seed=0)
    match.game = Game(4, rules, hands=FOUR_TWOS_DEAL)
    assert match.game.outcome == "four_twos" and match.game.winner == 1
    match.next_game()
    assert match.stage == "game" and match.results[-1].points == [-1, 1, -1, 1]
    assert match.results[-1].teams.totals == (26, 13)


def test_a_drawn_shootout_is_followed_by_another():
    """A shootout drawn at the deal (four 2s in five cards under `four_twos="draw"`) crashed
    `next_game`; the tie it was to break stands, so another shootout follows."""
    rules = Rules(scoring="teams", four_twos="draw")
    match = Match(4, rules, seed=0)
    match.game = Game(4, rules, hands=["3d", "4c 5c 6c", "4d 5d 6d 7d 8d 9d", "4h 5h 6h"])
    match.game.play("3d")
    match.next_game()
    assert match.stage == "shootout"
    match.game = Game(4, rules, hands=["2d 2c 2h 2s 3d", "4c 5c 6c 7c 8c", "4d 5d 6d 7d 8d", "4h 5h 6h 7h 8h"])
    assert match.game.outcome == "four_twos" and match.game.winner is None
    shootout = match.next_game()
    assert match.stage == "shootout" and not shootout.over and match.games_played == 0


def test_the_order_after_a_shootout_is_the_order_the_game_went_out_in():
    """Team play with the president's exchange: a tie's shootout winner was added to the
    finishing order (five seats for four players), so the exchange before the next game was
    skipped."""
    rules = Rules(scoring="teams", president_exchange=True)
    chooser = random.Random(3)
    match = Match(4, rules, seed=3)
    match.game = Game(4, rules, hands=["3d", "4c 5c 6c", "4d 5d 6d 7d 8d 9d", "4h 5h 6h"])
    match.game.play("3d")
    stages = []
    while match.games_played == 0:
        match.next_game()
        stages.append(match.stage)
        if match.stage != "game":
            play_out(match.game, chooser)
    assert stages[:2] == ["play_out", "play_out"] and "shootout" in stages
    result = match.results[0]
    assert result.order[0] == 0 and sorted(result.order) == [0, 1, 2, 3] and result.shootouts >= 1
    assert [g.giver for g in match.gifts] == [result.order[3], result.order[0], result.order[2], result.order[1]]
