"""The Big Two seed's last rules (issue 28), each from its line of shared/seeds/000_*.txt (quoted in
the test's docstring) as RULES.md's "Decisions added after review" settles it: triples only inside
five-card hands, a lead of three 3s forcing three 2s, traditional poker order, the direction of
play; and random games under rule sets that mix them."""
from __future__ import annotations

import itertools
import pickle
import random

import numpy as np
import pytest

import handrank as hr
from handrank import bigtwo
from handrank.bigtwo import Game, IllegalMove, Kind, Rules
from handrank.bigtwo.rules import STRAIGHT_TABLES

POKER = Rules(poker_order=True, straights="poker", suit_tiebreak="below_five")


# ----------------------------------------------------------------------------- triples
def test_triples_only_inside_five_card_hands():
    """"In some variations, a triple can only be played as part of a five-card hand.\""""
    rules = Rules(bare_triples=False)
    assert bigtwo.classify("5s 5h 5d", rules) is None
    assert bigtwo.classify("5s 5h 5d", "hk").kind is Kind.TRIPLE
    assert bigtwo.classify("5s 5h 5d 6c 6d", rules).kind is Kind.FULL_HOUSE
    assert 3 not in rules.sizes
    hand = "5s 5h 5d 6c 6d 9s"
    assert all(m.size != 3 for m in bigtwo.legal_moves(hand, None, rules))
    assert any(m.size == 3 for m in bigtwo.legal_moves(hand, None, "hk"))
    assert not bigtwo.beats("5s 5h 5d", "4s 4h 4d", rules)
    with pytest.raises(ValueError, match="the combo to beat"):
        bigtwo.legal_moves(hand, "4s 4h 4d", rules)
    with pytest.raises(ValueError, match=r"shape \(N, 1 or 2 or 5\)"):
        bigtwo.classify_batch(np.array([[0, 1, 2]], dtype=np.uint8), rules)
    # three-card straights stay plays of three cards where the rules have them
    runs = rules.replace(three_card_straights=True)
    assert bigtwo.classify("3d 4c 5h", runs).kind is Kind.THREE_CARD_STRAIGHT
    assert bigtwo.classify("5s 5h 5d", runs) is None
    space = bigtwo.ComboSpace(rules)
    game = Game(4, rules, seed=3)
    mask = game.action_mask(space)
    assert all(len(space.cards(a)) != 3 for a in np.flatnonzero(mask))
    with pytest.raises(TypeError, match="Rules.bare_triples must be a bool"):
        Rules(bare_triples=0)


# ----------------------------------------------------------------------------- three 3s
def forced_game(responder_hand: str, rules: Rules = Rules(three_threes_force=True)) -> Game:
    """A game in which player 0 has led three 3s and player 1 is to answer."""
    hands = ["3d 3c 3h 4d 5d", responder_hand, "6d 6c 7d 7c 8d", "9d 9c Td Tc Jd"]
    game = Game(4, rules, hands=hands)
    game.play("3d 3c 3h")
    return game


def test_three_threes_force_three_twos():
    """"If a player leads off with three 3s, the following player is required to play three 2's if
    no other play is possible.\""""
    game = forced_game("2s 2h 2d 8c 9h")
    assert not game.can_pass
    assert [m.cards for m in game.legal_moves()] == [tuple(hr.cards("2d 2h 2s"))]
    mask = game.action_mask()
    assert not mask[0] and mask.sum() == 1
    space = bigtwo.ComboSpace(game.rules)
    assert not game.action_mask(space)[0]
    with pytest.raises(IllegalMove, match="three 2s"):
        game.pass_()
    game.play("2s 2h 2d")
    # another legal play (three kings): the player may pass
    game = forced_game("2s 2h 2d Kc Kh Ks")
    assert game.can_pass
    game.pass_()
    # without three 2s, or off, or not right after the lead: passing is allowed
    assert forced_game("2s 2h 8h 8c 9h").can_pass
    assert forced_game("2s 2h 2d 8c 9h", Rules()).can_pass
    game = forced_game("2s 2h 2d 8c 9h")
    game.play("2s 2h 2d")
    game.pass_()
    game.pass_()
    game.pass_()                                # player 1 leads again
    assert game.turn == 1 and game.to_beat is None
    with pytest.raises(ValueError, match="needs bare_triples=True"):
        Rules(three_threes_force=True, bare_triples=False)


def test_only_the_next_player_is_forced():
    """The rule binds the player after the leader only: the one after them may pass."""
    hands = ["3d 3c 3h 4d 5d", "6d 6c 7d 7c 8d", "2s 2h 2d 8c 9h", "9d 9c Td Tc Jd"]
    game = Game(4, Rules(three_threes_force=True), hands=hands)
    game.play("3d 3c 3h")
    game.pass_()
    assert game.turn == 2 and game.can_pass


# ----------------------------------------------------------------------------- poker order
def poker_reference(cards: list[int]) -> tuple[int, int]:
    """(kind level, within-kind order) of five cards under traditional poker order, from the high
    evaluator: straight < flush < full house < four of a kind < straight flush; within a kind the
    poker order (the wheel lowest, the 2 low), but full houses by the triple in Big Two order (the
    full house of 2s above the full house of aces); (0, 0) for no combo."""
    value = hr.high.evaluate(cards)
    category = hr.high.category(value).name
    levels = {"STRAIGHT": 1, "FLUSH": 2, "FULL_HOUSE": 3, "FOUR_OF_A_KIND": 4, "STRAIGHT_FLUSH": 5}
    if category not in levels:
        return 0, 0
    ranks = [c // 4 for c in cards]
    if category == "FULL_HOUSE":
        triple = max(set(ranks), key=ranks.count)
        return levels[category], (triple - 1) % 13
    if category == "FOUR_OF_A_KIND":
        return levels[category], max(set(ranks), key=ranks.count)
    return levels[category], value


def test_traditional_poker_order():
    """"Some players rank all poker hands with traditional poker rules, except for the full house
    2, which is higher than full house ace, and a hand must be won exactly, not just by a
    tiebreaker of suit.\""""
    assert bigtwo.beats("Ts Jh Qd Kc As", "2s 3d 4c 5h 6s", POKER)             # broadway on top
    assert bigtwo.beats("2s 3d 4c 5h 6s", "As 2d 3c 4h 5s", POKER)             # the wheel lowest
    assert bigtwo.beats("2s 2h 2d 3c 3d", "As Ah Ad Kc Kd", POKER)             # full house of 2s
    assert bigtwo.beats("3s 3h 3d 3c 4d", "2s 2h 2d 2c Ad", POKER)             # four 2s lowest
    assert bigtwo.beats("3h 5h 7h 9h Jh", "2s 5s 7s 9s Js", POKER)             # the 2 low in flushes
    assert not bigtwo.beats("3s 4s 5s 6s 8s", "3h 4h 5h 6h 8h", POKER)         # exactly: no suit
    assert not bigtwo.beats("3s 4d 5d 6d 7d", "3h 4c 5c 6c 7c", POKER)
    assert bigtwo.beats("2s", "As", POKER) and bigtwo.beats("2s 2h", "As Ah", POKER)   # Big Two's
    assert bigtwo.beats("4s 4h", "4d 4c", POKER)                            # suits below five
    with pytest.raises(ValueError, match="must win exactly"):
        Rules(poker_order=True, straights="poker")
    with pytest.raises(ValueError, match="straights='poker'"):
        Rules(poker_order=True, suit_tiebreak="below_five")
    assert STRAIGHT_TABLES["poker"][0] == ("A2345", "5") and STRAIGHT_TABLES["poker"][-1][0] == "TJQKA"


def test_poker_order_against_the_high_evaluator():
    """classify_batch's keys order 60,000 random five-card sets exactly as the poker reference
    does (equal where it is equal), and every distinct-rank suited/unsuited pattern."""
    sets = np.unique(np.sort(hr.random_hands(60_000, 5, seed=85), axis=1), axis=0)
    patterns = [[4 * r + s for r, s in zip(ranks, suits)]
                for ranks in itertools.combinations(range(13), 5) for suits in ((3,) * 5, (3, 3, 3, 3, 2))]
    sets = np.concatenate([sets, np.sort(np.array(patterns, dtype=np.uint8), axis=1)])
    keys = bigtwo.classify_batch(sets, POKER).astype(np.int64)
    ref = np.array([poker_reference(s)[0] * 10**6 + poker_reference(s)[1] for s in sets.tolist()])
    assert ((keys == 0) == (ref == 0)).all()
    order = np.lexsort((keys, ref))
    assert (np.diff(ref[order]) >= 0).all()
    same_ref = np.diff(ref[order]) == 0
    assert (np.diff(keys[order])[same_ref] == 0).all()                 # equal: no suit decides
    assert (np.diff(keys[order])[~same_ref] > 0).all()


# ----------------------------------------------------------------------------- direction
def test_direction_of_play():
    """"The direction of play (clockwise or anti-clockwise) can be determined by a race between
    the two players on either side of the leader": play passes to ``turn + 1`` or ``turn - 1``,
    fixed for the game (a race's winner gives the game its rules)."""
    hands = ["3d 4d", "5d 6d", "7d 8d", "9d Td"]
    clockwise = Game(4, Rules(), hands=hands)
    anti = Game(4, Rules(direction="anticlockwise"), hands=hands)
    clockwise.play("3d")
    anti.play("3d")
    assert clockwise.turn == 1 and anti.turn == 3
    anti.play("9d")
    assert anti.turn == 2
    anti.pass_()
    anti.pass_()
    anti.pass_()                                # 2, 1 and 0 pass: player 3 leads
    assert anti.turn == 3 and anti.to_beat is None
    with pytest.raises(ValueError, match="Rules.direction must be one of"):
        Rules(direction="left")


def test_direction_in_the_environment():
    """The environment lists the other players in turn order: the next one anticlockwise."""
    pytest.importorskip("pettingzoo")
    from handrank.bigtwo.env import CARDS_LEFT, raw_env
    env = raw_env(4, Rules(direction="anticlockwise"))
    env.reset(seed=1)
    seat = env.game.turn
    left = env.observe(f"player_{seat}")["observation"][CARDS_LEFT:CARDS_LEFT + 4].tolist()
    assert left == [len(env.game.hands[(seat - k) % 4]) for k in range(4)]
    env.step(int(np.flatnonzero(env.observe(f"player_{seat}")["action_mask"])[0]))
    assert env.agent_selection == f"player_{(seat - 1) % 4}"


# ----------------------------------------------------------------------------- a dealt bomb
BOMB_HANDS = ["7d 7c 7h 7s 3d 4d", "2d 3c 5d 6d 8d", "2c 3h 9d Td Jd", "2h 2s Qd Kd Ad"]


def test_a_dealt_bomb_makes_the_twos_lowest():
    """"In some variations, when a bomb was dealt, it immediately makes the 2s to be the lowest
    cards in the game (with 2 of diamonds becoming the lowest)": ranks run 2 < 3 < ... < A for
    that game, everywhere ranks are compared, and the holder of 2♦ leads."""
    low = Rules(twos_low=True)
    assert bigtwo.beats("3d", "2s", low) and not bigtwo.beats("2s", "3d", low)
    assert bigtwo.beats("3d 3c", "2h 2s", low) and bigtwo.beats("As", "Kd", low)
    assert bigtwo.beats("3d 3c 3h 2c 2d", "2h 2s 2d 4c 4d", low)            # full house of 3s over 2s
    assert bigtwo.beats("3h 5h 7h 9h Jh", "2s 5s 7s 9s Js", low)            # flush: the 2 lowest
    assert [bigtwo.card_strength(c, low) for c in ("2d", "As")] == [0, 51]
    assert hr.card_str(low.lowest_card) == "2d" and hr.card_str(low.highest_card) == "As"
    game = Game(4, Rules(dealt_bomb=True), hands=BOMB_HANDS)
    assert game.play_rules == Rules(dealt_bomb=True, twos_low=True) and game.rules == Rules(dealt_bomb=True)
    assert game.turn == 1 and game.opening_card == hr.card("2d")
    game.play("2d")
    assert [m.cards for m in game.legal_moves()][:1] == [tuple(hr.cards("2c"))]   # 2♣ beats 2♦
    game.play("3h")
    assert bigtwo.classify("2h", game.play_rules) < game.to_beat
    assert hr.cards("2h") not in [list(m.cards) for m in game.legal_moves()]
    for clone in (pickle.loads(pickle.dumps(game)), game.copy()):    # the 2s stay low in both
        assert clone.play_rules == game.play_rules and clone.legal_moves() == game.legal_moves()
    # no four of a kind dealt: the 2s stay on top and 3♦ leads
    plain = Game(4, Rules(dealt_bomb=True), hands=[h.replace("7s", "8s") for h in BOMB_HANDS])
    assert plain.play_rules is plain.rules and plain.opening_card == hr.card("3d")
    with pytest.raises(ValueError, match="would change: set only one"):
        Rules(dealt_bomb=True, sisters=True)
    # the 2♦ alone opens (rules.opening) though the 2s may not be a last play: the hand holds more
    alone = Game(4, Rules(dealt_bomb=True, opening="alone", last_play="no_single_two"), hands=BOMB_HANDS)
    assert [str(m) for m in alone.legal_moves()] == ["single 2d"] and alone.action_mask().sum() == 1
    space = bigtwo.ComboSpace(alone.rules)
    assert [space.cards(a) for a in np.flatnonzero(alone.action_mask(space))] == [hr.cards("2d")]


def test_a_dealt_bomb_in_the_action_spaces_and_the_environment():
    """Under a dealt bomb the masks over the rules' ComboSpace (whose actions are the same card
    sets) and the environment's steps follow the 2s-low order."""
    rules = Rules(dealt_bomb=True)
    space = bigtwo.ComboSpace(rules)
    game = Game(4, rules, hands=BOMB_HANDS)
    game.play_action(int(np.flatnonzero(game.action_mask(space))[0]), space)
    mask = game.action_mask(space)
    assert sorted(tuple(space.cards(a)) for a in np.flatnonzero(mask) if a) == \
        sorted(m.cards for m in game.legal_moves())
    pytest.importorskip("pettingzoo")
    from handrank.bigtwo.env import raw_env
    env = raw_env(4, rules)
    rng = random.Random(34)
    bombs = 0
    for seed in range(12):
        env.reset(seed=seed)
        bombs += env.game.play_rules is not env.game.rules
        while not env.game.over:
            agent = env.agent_selection
            observed = env.observe(agent)["action_mask"]
            legal = env.game.legal_moves()
            assert sorted(tuple(env.space.cards(a)) for a in np.flatnonzero(observed) if a) == \
                sorted(m.cards for m in legal)
            actions = np.flatnonzero(observed)
            env.step(int(rng.choice(actions.tolist())))
        assert sum(env.game.payments()) == 0
    assert bombs >= 1


# ----------------------------------------------------------------------------- mixed
def random_new_rules(rng: random.Random) -> Rules:
    """A random valid rule set mixing the new fields with older ones."""
    while True:
        poker = rng.random() < 0.25
        fields = dict(
            suit_order=rng.choice(["dchs", "cdhs", "cshd"]), opening=rng.choice(["holding", "alone"]),
            direction=rng.choice(["clockwise", "anticlockwise"]), bare_triples=rng.random() < 0.6,
            three_threes_force=rng.random() < 0.5, poker_order=poker,
            straights="poker" if poker else rng.choice(["hk", "indonesia", "malaysia"]),
            suit_tiebreak=rng.choice(["below_five", "none"]) if poker else "all",
            flush_order="ranks" if poker else rng.choice(["ranks", "highest_card"]),
            two_pair=rng.random() < 0.4, two_pair_size=rng.choice([4, 5]),
            four_of_a_kind=rng.choice(["with_kicker", "four_cards", "both"]),
            passing=rng.choice(["jump_back", "out_of_trick", "ends_trick"]),
            last_play=rng.choice(["any", "no_single_two"]), double_held=rng.random() < 0.5,
            dealt_bomb=rng.random() < 0.5, smack_down=rng.random() < 0.3)
        try:
            return Rules(**fields)
        except ValueError:
            continue


def test_random_games_under_mixed_rule_sets():
    """40 random games under rule sets that mix the new fields: only legal moves, the masks (8192
    and ComboSpace) equal the legal moves with the pass exactly when `can_pass`, cards are
    conserved and the payments are zero-sum."""
    rng = random.Random(28)
    for i in range(40):
        rules = random_new_rules(rng)
        game = Game(4 if i % 4 else 3, rules, seed=i)
        # (a smack-down's space numbers billions of runs of pairs: its masks are too big to make)
        space = bigtwo.ComboSpace(rules) if i % 5 == 0 and not rules.smack_down else None
        dealt = sorted(c for hand in game.hands for c in hand)
        played: list[int] = []
        while not game.over:
            moves = game.legal_moves()
            assert all(bigtwo.beats(m, game.to_beat, game.play_rules) for m in moves)
            mask = game.action_mask(space)
            named = [tuple(space.cards(a)) if space is not None else tuple(bigtwo.action_cards(game.hand(), a))
                     for a in np.flatnonzero(mask) if a]
            assert sorted(named) == sorted(m.cards for m in moves)
            assert bool(mask[0]) == game.can_pass
            if game.can_pass and (not moves or rng.random() < 0.3):
                game.pass_()
            else:
                played.extend(game.play(rng.choice(moves)).cards)
        assert sorted(played + [c for hand in game.hands for c in hand]) == dealt
        assert sum(game.payments()) == 0


def test_matches_under_mixed_rule_sets():
    """Matches of a few games under rule sets that mix the new fields: every card of a game is
    conserved through its play-outs, points scoring is zero-sum, and finishing-order scoring
    hands out 0 .. n-1 once each per game."""
    rng = random.Random(29)
    for i in range(8):
        rules = random_new_rules(rng).replace(scoring="finish_order" if i % 2 else "points")
        match = bigtwo.Match(4, rules, seed=i)
        while match.games_played < 3:
            game = match.game
            held = sorted(c for hand in game.hands for c in hand)
            played: list[int] = []
            while not game.over:
                moves = game.legal_moves()
                if game.can_pass and (not moves or rng.random() < 0.3):
                    game.pass_()
                else:
                    played.extend(game.play(rng.choice(moves)).cards)
            assert sorted(played + [c for hand in game.hands for c in hand]) == held
            match.next_game()
        for result in match.results:
            if rules.scoring == "points":
                assert sum(result.points) == 0
            elif len(result.order) == 4:
                assert sorted(result.points) == [0, 1, 2, 3]


def test_play_out_follows_the_direction():
    """Under finishing-order scoring the players left play on, led by the next player after the
    one who went out in the direction of play."""
    rules = Rules(scoring="finish_order", direction="anticlockwise")
    match = bigtwo.Match(4, rules, seed=4)
    game = match.game
    while not game.over:
        game.pass_() if game.can_pass else game.play(game.legal_moves()[0])
    winner = game.winner
    play_out = match.next_game()
    assert match.stage == "play_out"
    assert match.seats[play_out.turn] == (winner - 1) % 4
