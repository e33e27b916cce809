"""Big Two play flow (issue 20): passing, who opens, the deal, last-card restrictions and results
at the deal, each from a line of the Big Two text (shared/seeds/000_*.txt, quoted in the test's
docstring), honoured by `Rules`, the legal moves and `Game`."""
from __future__ import annotations

import copy
import itertools
import pickle
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import handrank as hr
from handrank import bigtwo
from handrank.bigtwo import Game, IllegalMove, Rules
from handrank.bigtwo.flow import instant_result, is_dragun
from handrank.bigtwo.rules import EXTRA_CARDS, FOUR_TWOS, LAST_PLAYS, PASSINGS

C = hr.card


def cards(text: str) -> list[int]:
    return sorted(hr.cards(text))


def staged(rules: Rules, hands: list[str], turn: int = 0) -> Game:
    """A game whose hands are `hands`, `turn` to lead with any play."""
    game = Game(len(hands), rules, seed=0, leader=turn)
    game.hands = [cards(h) for h in hands]
    game.undealt = sorted(set(range(52)) - {c for h in game.hands for c in h})
    return game


def snapshot(game: Game):
    return copy.deepcopy({k: v for k, v in game.__dict__.items() if k != "_ctx"})


def random_play(game: Game, chooser: random.Random, pass_rate: float = 0.3) -> None:
    """Play random legal actions to the end (deciding a pending trade at random)."""
    while not game.over:
        if game.pending_trade:
            game.trade(chooser.random() < 0.5)
            continue
        moves = game.legal_moves()
        if game.can_pass and (not moves or chooser.random() < pass_rate):
            game.pass_()
        else:
            game.play(chooser.choice(moves))


def who_acts(game: Game) -> list[int]:
    """Replay the history by the text's rules of passing (an independent reading of
    `Rules.passing`): the player each entry should belong to. Checks on the way that every play
    beats the one on the table."""
    rules, n = game.rules, game.players
    expected, turn, last, table, in_a_row = [], game.history[0].player, None, None, 0
    passed: set[int] = set()                        # who passed since the trick began
    for entry in game.history:
        expected.append(turn)
        if entry.combo is not None:
            assert table is None or bigtwo.beats(entry.combo, table, rules)
            table, last, in_a_row = entry.combo, turn, 0
        elif table is None:                         # a leader with nothing to play hands the lead on
            turn = (turn + 1) % n
            continue
        else:
            passed.add(turn)
            in_a_row += 1
            if (rules.passing == "ends_trick" or (rules.passing == "jump_back" and in_a_row == n - 1)
                    or (rules.passing == "out_of_trick" and len(passed) == n - 1)):
                turn, table, passed, in_a_row = last, None, set(), 0
                continue
        turn = (turn + 1) % n
        while rules.passing == "out_of_trick" and turn in passed:
            turn = (turn + 1) % n
    return expected


# ----------------------------------------------------------------------------- the rules object
def test_play_flow_fields_are_checked():
    for field, bad in (("passing", "skip"), ("extra_card", "dealer"), ("last_play", "no_aces"),
                       ("four_twos", "lose")):
        with pytest.raises(ValueError, match=f"Rules.{field} must be one of"):
            Rules(**{field: bad})
    for field in ("draw_on_pass", "dragun"):
        with pytest.raises(TypeError, match=f"Rules.{field} must be a bool"):
            Rules(**{field: 1})
    rules = Rules(passing="out_of_trick", extra_card="trade", last_play="no_top_card", four_twos="win",
                  dragun=True, draw_on_pass=True)
    assert pickle.loads(pickle.dumps(rules)) == rules != Rules()
    assert Rules().highest_card == C("2s") and Rules.preset("pusoy").highest_card == C("2d")


# ----------------------------------------------------------------------------- passing
def test_no_reentry_after_passing():
    """"A variant to discourage passing disallows a player from playing any further cards to a
    trick after he or she passes."
    """
    hands = ["3d 9d 9c", "4d Ts Tc", "5d Js Jc", "6d Qs Qc"]
    game = staged(Rules(passing="out_of_trick"), hands)
    game.play("3d")
    game.pass_()                                   # player 1 is out of this trick
    game.play("5d")
    game.play("6d")
    assert game.turn == 0
    game.play("9d")
    assert game.turn == 2                          # player 1 is skipped
    game.pass_()
    game.pass_()                                   # players 1, 2 and 3 have passed: 0 leads
    assert game.turn == 0 and game.to_beat is None and game.out_of_trick == 0
    # jumping back (the default): player 1 plays again after passing
    game = staged(Rules(), hands)
    for action in ("3d", None, "5d", "6d", "9d"):
        game.pass_() if action is None else game.play(action)
    assert game.turn == 1 and bigtwo.classify("Ts") in game.legal_moves()


def test_one_pass_ends_the_trick():
    """"When all but one of the players have passed in succession the trick is over (some
    variations have when 1 player has passed the trick is over) ..."
    """
    game = staged(Rules(passing="ends_trick"), ["3d 9d", "4d Ts", "5d Js", "6d Qs"])
    game.play("3d")
    game.play("4d")
    game.pass_()
    assert game.turn == 1 and game.to_beat is None and game.hand() == cards("Ts")


@pytest.mark.parametrize("passing", ["jump_back", "out_of_trick", "ends_trick"])
def test_random_games_follow_the_passing_rule(passing):
    """Random games under each passing rule: every action belongs to the player the rule names,
    and every card is accounted for."""
    chooser = random.Random(len(passing))
    for seed in range(40):
        players = 2 + seed % 3
        game = Game(players, Rules(passing=passing), seed=seed)
        random_play(game, chooser, pass_rate=0.4)
        assert [t.player for t in game.history] == who_acts(game)
        assert sum(len(h) for h in game.hands) + sum(t.combo.size for t in game.history if t.combo) \
            == 13 * players
        assert sum(game.payments()) == 0


# ----------------------------------------------------------------------------- who opens
def test_the_previous_winner_leads_later_games():
    """"In tournaments, starting the game with 3♦ is only true for the first round. In subsequent
    rounds, the winner of the previous round plays first."
    """
    for seed in range(20):
        game = Game(4, seed=seed, leader=seed % 4)
        assert game.turn == seed % 4 and game.opening_card is None
        assert game.legal_moves() == bigtwo.legal_moves(game.hand())       # any play, no 3♦ needed
        random_play(game, random.Random(seed))
        assert game.history[0].player == seed % 4
    for bad in (4, -1, True, "0"):
        with pytest.raises(ValueError, match="leader must be None or a player 0..3"):
            Game(4, leader=bad)


# ----------------------------------------------------------------------------- the deal
def deck_of(seed: int) -> list[int]:
    return [int(c) for c in np.random.default_rng(seed).permutation(52)]


def strength(card: int, rules: Rules) -> int:
    return bigtwo.card_strength(card, rules)


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("taiwan")])
def test_the_extra_card_of_seventeen_card_hands(rules):
    """"If three people are playing, deal three seventeen-card hands, leaving one left over. The
    one card is placed in the middle, and whichever player possesses the two of spades or three
    of diamonds receives that card."
    "Leftover cards ... are then given to the player holding the 3♦. If this card is in the kitty,
    then the holder of the next lowest card adds them to his pile (var. 5)." "Yet others give the kitty to the holder of the lowest diamond (not necessarily the lowest
    card)." "Some discard the extra cards."
    """
    for seed in range(60):
        deck = deck_of(seed)
        dealt, extra = [deck[i * 17:(i + 1) * 17] for i in range(3)], deck[51]
        order = sorted(deck[:51], key=lambda c: strength(c, rules))
        diamonds = [c for c in order if hr.card_str(c)[1] == "d"]
        for mode, card in (("lowest", order[0]), ("highest", order[-1]), ("lowest_diamond", diamonds[0])):
            game = Game(3, rules.replace(extra_card=mode), seed=seed, deal="all")
            holder = next(i for i, h in enumerate(dealt) if card in h)
            assert game.hands[holder] == sorted(dealt[holder] + [extra]) and game.undealt == []
            assert [len(h) for h in game.hands].count(17) == 2
        game = Game(3, rules.replace(extra_card="discard"), seed=seed, deal="all")
        assert game.hands == [sorted(h) for h in dealt] and game.undealt == [extra]
        assert game.opening_card == order[0]            # the lowest card dealt


def test_lowest_card_removed_before_the_deal():
    """"Some play that the lowest cards are consciously removed to avoid having the 2♠, the highest
    card, in the kitty."
    """
    for seed in range(40):
        game = Game(3, Rules(extra_card="remove_lowest"), seed=seed, deal="all")
        deck = [c for c in deck_of(seed) if c != C("3d")]
        assert game.hands == [sorted(deck[i * 17:(i + 1) * 17]) for i in range(3)]
        assert game.undealt == [C("3d")] and game.opening_card == C("3c")
        assert any(C("2s") in h for h in game.hands)
        random_play(game, random.Random(seed))
        assert sum(game.payments()) == 0


def test_trading_the_three_of_diamonds_for_the_extra_card():
    """"Whereas sometimes in a three-player game, the extra card is not revealed (or is revealed),
    and the holder of 3♦ is given a chance to make a decision to or not to trade his/her 3♦ for
    the extra card. If he/she does, the starting player will be 3♣ holder, or the previous winner
    depending on the rules."
    """
    rules = Rules(extra_card="trade")
    for seed in range(30):
        deck = deck_of(seed)
        extra = deck[51]
        game = Game(3, rules, seed=seed, deal="all")
        if extra == C("3d"):                       # no one holds it: nothing to trade, 3♣ opens
            assert not game.pending_trade and game.opening_card == C("3c")
            continue
        holder = game.turn
        assert game.pending_trade and C("3d") in game.hand() and game.undealt == [extra]
        before = snapshot(game)
        for action, error in ((game.legal_moves, "must first accept or decline the trade of 3d"),
                              (game.pass_, "trade"), (lambda: game.play("3d"), "trade"),
                              (game.action_mask, "trade")):
            with pytest.raises(IllegalMove, match=error):
                action()
        assert not game.can_pass and snapshot(game) == before
        with pytest.raises(TypeError, match="accept must be a bool"):
            game.trade(1)
        kept = game.copy()
        game.trade(True)
        assert extra in game.hands[holder] and C("3d") not in game.hands[holder]
        assert game.undealt == [C("3d")] and game.opening_card == C("3c") and C("3c") in game.hand()
        kept.trade(False)
        assert kept.turn == holder and kept.opening_card == C("3d") and kept.undealt == [extra]
        with pytest.raises(IllegalMove, match="no trade to decide"):
            game.trade(True)
        led = Game(3, rules, seed=seed, deal="all", leader=(holder + 1) % 3)
        led.trade(True)
        assert led.turn == (holder + 1) % 3 and led.opening_card is None


def test_the_ghost_hand():
    """"If three people are playing, deal four thirteen-card hands as if a fourth players were
    present. The hand to receive the last card that would normally become the dealer's now
    becomes the 'ghost hand'. No one plays the ghost hand and its cards are not shown, play
    continues as normal." (Game(3), the 13-card deal: the 13 undealt cards are the ghost hand)
    """
    chooser = random.Random(1)
    ghost_held_3d = 0
    for seed in range(30):
        game = Game(3, seed=seed)
        ghost = list(game.undealt)
        assert [len(h) for h in game.hands] == [13, 13, 13] and len(ghost) == 13
        ghost_held_3d += C("3d") in ghost
        assert game.opening_card == min((c for h in game.hands for c in h), key=lambda c: strength(c, Rules()))
        random_play(game, chooser)
        played = {c for t in game.history if t.combo for c in t.combo.cards}
        assert game.undealt == ghost and not played & set(ghost)
    assert ghost_held_3d >= 3


def test_drawing_a_card_on_a_pass():
    """"If only two players are available, deal thirteen cards each and play as normal. When one
    player passes she or he is forced to pick up one card from the remaining deck and add it to
    his hand. This variation is taken from the card game Go Fish."
    """
    rules = Rules(draw_on_pass=True)
    chooser = random.Random(4)
    for seed in range(30):
        game = Game(2, rules, seed=seed)
        assert game.undealt == deck_of(seed)[26:]          # the stock, top card first
        game.play(game.legal_moves()[0])
        stock, passer, hand = list(game.undealt), game.turn, game.hand()
        game.pass_()
        assert game.hands[passer] == sorted(hand + stock[:1]) and game.undealt == stock[1:]
        random_play(game, chooser)
        passes = sum(t.combo is None for t in game.history)
        assert len(game.undealt) == max(0, 26 - passes)
        in_play = [c for h in game.hands for c in h] + [c for t in game.history if t.combo for c in t.combo.cards]
        assert sorted(in_play + game.undealt) == list(range(52))
        assert sum(game.payments()) == 0
    # no stock: four players, or the card set aside in a three-player whole-deck deal
    game = Game(4, rules, seed=1)
    game.play(game.legal_moves()[0])
    game.pass_()
    assert [len(h) for h in game.hands].count(13) == 3
    game = Game(3, rules.replace(extra_card="discard"), seed=1, deal="all")
    game.play(game.legal_moves()[0])
    held = len(game.hand())
    game.pass_()
    assert len(game.hands[(game.turn - 1) % 3]) == held and len(game.undealt) == 1


# ----------------------------------------------------------------------------- the last play
LAST_PLAY_LINES = {
    # "In some rules, a single 2♠ is not allowed to be played as the last card."
    "no_single_top_card": lambda play: play == ["2s"],
    # "Others do not allow any combination that includes the 2 of spades to be played as the last hand."
    "no_top_card": lambda play: "2s" in play,
    # "Some variations do not allow any of the 2s to be played as the last single card of a player's hand."
    "no_single_two": lambda play: len(play) == 1 and play[0][0] == "2",
    # "In most popular variations, ending with a single or double two is not allowed."
    "no_single_or_pair_of_twos": lambda play: len(play) <= 2 and all(c[0] == "2" for c in play),
}


@pytest.mark.parametrize("mode", sorted(LAST_PLAY_LINES))
def test_last_play_restrictions_match_brute_force(mode):
    """"In some rules, a single 2♠ is not allowed to be played as the last card. Others do not
    allow any combination that includes the 2 of spades to be played as the last hand."
    "Some variations do not allow any of the 2s to be played as the last single card of a player's
    hand." "In most popular variations, ending with a single or double two is not allowed."
    legal_moves and legal_move_arrays of small hands rich in 2s equal brute force: every subset
    that is a combo and beats the play on the table, less the whole hand where the line forbids it.
    """
    rules = Rules(last_play=mode)
    forbidden = LAST_PLAY_LINES[mode]
    rng = random.Random(mode)
    for _ in range(200):
        twos = rng.sample(range(4), rng.randint(1, 4))           # card ids 0..3 are the 2s
        hand = sorted(twos + rng.sample(range(4, 52), rng.randint(0, 3)))
        current = rng.choice([None, None, "3d", "4c 4d", "3c 3d 3h", "2c", "Ac Ad"])
        expected = set()
        for k in range(1, 6):
            for subset in itertools.combinations(hand, k):
                if bigtwo.classify(subset) and (current is None or bigtwo.beats(subset, current)):
                    strs = [hr.card_str(c) for c in subset]
                    if not (len(subset) == len(hand) and forbidden(strs)):
                        expected.add(subset)
        moves = bigtwo.legal_moves(hand, current, rules)
        assert {m.cards for m in moves} == expected, (hand, current)
        cards_, sizes, keys = bigtwo.legal_move_arrays(hand, current, rules)
        assert keys.tolist() == [m.key for m in moves]
        if len(hand) <= 13:
            mask = bigtwo.action_mask(hand, current, rules)
            assert mask.sum() == len(moves) + (current is not None)


def test_last_play_in_a_game():
    """"In some rules, a single 2♠ is not allowed to be played as the last card." A game refuses
    the play; a leader left with only the 2♠ passes the lead on; when no player may lead any
    card, the game is a draw."""
    rules = Rules(last_play="no_single_top_card")
    game = staged(rules, ["2s 3d", "4d 5d", "6d 7d", "8d 9d"])
    game.play("3d")
    for _ in range(3):
        game.pass_()
    assert game.turn == 0 and game.legal_moves() == [] and game.can_pass
    before = snapshot(game)
    with pytest.raises(IllegalMove, match="may not be the last play"):
        game.play("2s")
    assert snapshot(game) == before
    mask = game.action_mask()
    assert mask[0] and mask.sum() == 1
    game.pass_()
    assert game.turn == 1 and game.to_beat is None and not game.can_pass
    game.play("4d")
    game.play("6d")
    game.play("8d")                 # the 2♠ would beat it, but it is player 0's last card
    assert game.turn == 0 and game.legal_moves() == [] and game.can_pass
    # everyone stuck: a draw
    game = staged(Rules(last_play="no_single_two"), ["2s", "2h", "2d", "2c 3d"], turn=3)
    game.play("3d")
    for _ in range(3):
        game.pass_()
    assert game.turn == 3 and game.can_pass
    game.pass_()                    # the lead would go to player 0, who may not lead the 2♠ either
    assert game.over and game.outcome == "stalemate" and game.winner is None
    assert game.payments() == [0, 0, 0, 0]
    with pytest.raises(IllegalMove, match="stalemate"):
        game.legal_moves()


@pytest.mark.parametrize("mode", sorted(LAST_PLAY_LINES))
def test_random_games_under_last_play_rules(mode):
    """No game ends on a play the rule forbids, and every game ends (with a winner or a draw)."""
    rules = Rules(last_play=mode)
    chooser = random.Random(mode)
    for seed in range(40):
        game = Game(2 + seed % 3, rules, seed=seed)
        random_play(game, chooser, pass_rate=0.5)
        if game.outcome == "out":
            assert not LAST_PLAY_LINES[mode]([hr.card_str(c) for c in game.history[-1].combo.cards])
        assert sum(game.payments()) == 0
    # the top card is the rules' highest: 2♦ where diamonds rank highest
    pusoy = Rules.preset("pusoy").replace(last_play="no_single_top_card")
    assert bigtwo.legal_moves("2d", None, pusoy) == [] and len(bigtwo.legal_moves("2s", None, pusoy)) == 1


# ----------------------------------------------------------------------------- results at the deal
FOUR_TWOS_SEEDS = {50: 3, 84: 1}          # the player dealt all four 2s (4 players)


def test_four_twos():
    """"In some places, owning 4 Twos is also a condition for Immediate Win. ... On the contrary,
    some variations said that it's an automatic draw when 1 player has all 4 twos, as having all
    4 twos gives the player amazing amount of power." "In addition, if a player has four twos, it
    might be mandatory to have a reshuffle."
    """
    for seed, player in FOUR_TWOS_SEEDS.items():
        assert sorted(c for c in deck_of(seed)[player * 13:(player + 1) * 13] if c < 4) == [0, 1, 2, 3]
        assert not Game(seed=seed).over                                   # "play": nothing happens
        win = Game(seed=seed, rules=Rules(four_twos="win"))
        assert win.over and win.outcome == "four_twos" and win.winner == player
        assert win.payments() == [39 * 3 if i == player else -39 for i in range(4)]
        draw = Game(seed=seed, rules=Rules(four_twos="draw"))
        assert draw.over and draw.winner is None and draw.payments() == [0] * 4
        for action in (win.legal_moves, draw.pass_, lambda: win.play("3d")):
            with pytest.raises(IllegalMove, match="the game is over"):
                action()
        redeal = Game(seed=seed, rules=Rules(four_twos="redeal"))
        assert not redeal.over and redeal.hands != Game(seed=seed).hands
        assert all(sum(c < 4 for c in h) < 4 for h in redeal.hands)
        assert redeal.hands == Game(seed=seed, rules=Rules(four_twos="redeal")).hands    # seeded
    # a three-player whole-deck deal pays by its own thresholds
    seed = next(s for s in range(2000) if any(sorted(c for c in deck_of(s)[p * 17:(p + 1) * 17] if c < 4)
                                              == [0, 1, 2, 3] for p in range(3)))
    game = Game(3, Rules(four_twos="win"), seed=seed, deal="all")
    counts = [len(h) for h in game.hands]
    assert game.winner is not None and game.payments() == bigtwo.payments(
        [0 if i == game.winner else n for i, n in enumerate(counts)], whole_deck=True)


DRAGUN_SEEDS = {64: ("dragun", 2), 263: ("dragun", 1), 21: ("dragun_bla_bajd", 0)}


def test_the_malta_dragun():
    """"In Malta, a dragun or 'dragon' is not a thirteen-card straight, but it is the initial
    thirteen cards that the player is dealt, consisting of six pairs and any other single card. A
    player who is dealt a dragon immediately wins the game. However, if the dragon contains a
    pair of 3s it is called a dragun bla-bajd and the player immediately loses."
    """
    assert is_dragun(cards("3d 3c 4d 4c 5d 5c 6d 6c 7d 7c 8d 8c 9s"))
    assert is_dragun(cards("3d 3c 3h 3s 5d 5c 6d 6c 7d 7c 8d 8c 9s"))       # four 3s: two pairs
    assert is_dragun(cards("3d 3c 3h 4s 4d 5c 5d 6c 6d 7c 7d 8c 8d"))       # a triple: a pair and the single
    assert not is_dragun(cards("3d 3c 4d 4c 5d 5c 6d 6c 7d 7c 8d 9c Ts"))   # five pairs
    assert not is_dragun(cards("3d 3c 4d 4c 5d 5c 6d 6c 7d 7c 8d 8c"))      # twelve cards
    rules = Rules(dragun=True)
    for seed, (outcome, player) in DRAGUN_SEEDS.items():
        hand = sorted(deck_of(seed)[player * 13:(player + 1) * 13])
        ranks = Counter(hr.card_str(c)[0] for c in hand)
        assert sum(n // 2 for n in ranks.values()) == 6                      # six pairs and a card
        assert (ranks["3"] >= 2) == (outcome == "dragun_bla_bajd")
        assert not Game(seed=seed).over
        game = Game(seed=seed, rules=rules)
        assert game.over and game.outcome == outcome
        if outcome == "dragun":
            assert game.winner == player and game.payments() == [117 if i == player else -39 for i in range(4)]
        else:
            assert game.loser == player and game.winner is None
            assert game.payments() == [-117 if i == player else 39 for i in range(4)]
    assert instant_result(Rules(dragun=True, four_twos="win"),
                          [cards("3d 3c 4d 4c 5d 5c 6d 6c 7d 7c 8d 8c 9s"),
                           cards("2c 2d 2h 2s 9d 9c Td Tc Jd Jc Qd Qc Kd")]) == ("four_twos", 1)
    # whole-deck deals of 2 or 3 players have no 13-card hands
    assert not any(Game(3, rules, seed=s, deal="all").over for s in range(50))


# ----------------------------------------------------------------------------- every rule at once
flow_rules = st.builds(Rules, suit_order=st.sampled_from(["dchs", "cdhs", "cshd"]),
                       passing=st.sampled_from(PASSINGS), extra_card=st.sampled_from(EXTRA_CARDS),
                       draw_on_pass=st.booleans(), last_play=st.sampled_from(LAST_PLAYS),
                       four_twos=st.sampled_from(FOUR_TWOS), dragun=st.booleans())


@settings(max_examples=40, deadline=None)
@given(flow_rules, st.integers(2, 4), st.sampled_from(["thirteen", "all"]), st.integers(0, 2**32 - 1),
       st.one_of(st.none(), st.integers(0, 1)))
def test_games_under_mixed_flow_rules(rules, players, deal, seed, leader):
    """Any mix of the play-flow fields: the game ends (with a winner, a result at the deal or a
    draw), every card is accounted for, each action belongs to the player the passing rule names,
    no game ends on a forbidden last play, and the payments sum to zero."""
    game = Game(players, rules, seed=seed, deal=deal, leader=leader)
    dealt = sorted(c for h in game.hands for c in h) + sorted(game.undealt)
    assert sorted(dealt) == list(range(52))
    random_play(game, random.Random(seed), pass_rate=0.4)
    played = [c for t in game.history if t.combo for c in t.combo.cards]
    assert sorted(played + [c for h in game.hands for c in h] + game.undealt) == list(range(52))
    if game.history:
        assert [t.player for t in game.history] == who_acts(game)
    if game.outcome == "out":
        assert not game.hands[game.winner] and not flow_forbidden(rules, game.history[-1].combo.cards)
    else:
        assert game.outcome in ("four_twos", "dragun", "dragun_bla_bajd", "stalemate")
        assert not played or game.outcome == "stalemate"
    assert sum(game.payments()) == 0


def flow_forbidden(rules: Rules, play: tuple[int, ...]) -> bool:
    """LAST_PLAY_LINES with the 2♠ read as the rules' highest card."""
    top = hr.card_str(rules.highest_card)
    text = ["2s" if c == top else "2x" if c == "2s" else c for c in map(hr.card_str, play)]
    return rules.last_play != "any" and LAST_PLAY_LINES[rules.last_play](text)


# ----------------------------------------------------------------------------- state
def test_copies_and_pickles_keep_the_flow_state():
    rules = Rules(passing="out_of_trick", draw_on_pass=True, last_play="no_single_two")
    chooser = random.Random(9)
    game = Game(2, rules, seed=5)
    for _ in range(6):
        moves = game.legal_moves()
        game.pass_() if game.can_pass and chooser.random() < 0.5 else game.play(moves[-1])
    ends = []
    for clone in (game.copy(), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert snapshot(clone) == snapshot(game)
        random_play(clone, random.Random(1))
        ends.append(clone.history)
    assert ends[0] == ends[1] == ends[2] and not game.over
    trade = Game(3, Rules(extra_card="trade"), seed=2, deal="all")
    clone = pickle.loads(pickle.dumps(trade))
    assert clone.pending_trade and snapshot(clone) == snapshot(trade)
