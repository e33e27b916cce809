"""bigtwo.Match: games one after another with running scores, the next leader, play-outs to a
finishing order, team shootouts and the president's exchange (the Big Two text, seed 000); and
the `hands=` / `leader=` of `bigtwo.Game` that the match deals with."""
from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import handrank as hr
from handrank import bigtwo
from handrank.bigtwo import Game, Gift, Match, Rules

from bigtwo_support import play_out

BIG_TWO_RANKS = "3456789TJQKA2"


def strength(card: int, rules: Rules) -> tuple[int, int]:
    """Big Two order from the card's text: rank, then the ruleset's suit order."""
    text = hr.card_str(card)
    return BIG_TWO_RANKS.index(text[0]), rules.suit_order.index(text[1])


def finish_game(match: Match, chooser: random.Random) -> list[int]:
    """Play every stage of the match's current game; returns the seats as they went out."""
    out = []
    while True:
        play_out(match.game, chooser)
        out.append(match.seats[match.game.winner])
        played = match.games_played
        match.next_game()
        if match.games_played > played:
            return out


# ----------------------------------------------------------------------------- Game(hands=, leader=)
def test_game_deals_given_hands():
    hands = ["3d 4d 5d", "3c 6h", "2s Ah Kh Qh"]
    game = Game(3, hands=hands)
    assert game.hands == [sorted(hr.cards(h)) for h in hands]
    assert game.turn == 0 and game.opening_card == hr.card("3d")
    assert sorted(game.undealt + [c for h in game.hands for c in h]) == list(range(52))
    with pytest.raises(bigtwo.IllegalMove, match="the first play must include 3d"):
        game.play("4d")
    taiwan = Game(3, "taiwan", hands=hands)
    assert taiwan.turn == 1 and taiwan.opening_card == hr.card("3c")


def test_game_leader_opens_with_any_play():
    game = Game(2, hands=["3d 4d", "5c 6c"], leader=1)
    assert game.turn == 1 and game.opening_card is None
    assert [str(m) for m in game.legal_moves()] == ["single 5c", "single 6c"]
    game.play("6c")
    assert game.to_beat is not None and game.turn == 0


@pytest.mark.parametrize("kwargs, message", [
    ({"hands": ["3d", "4d"]}, "hands must hold one hand for each of the 3 players"),
    ({"hands": "3d 4d 5d"}, "hands must hold one hand for each of the 3 players"),
    ({"hands": ["3d", "", "5d"]}, r"hands\[1\] is empty"),
    ({"hands": ["3d 4d", "5d", "4d 6d"]}, r"hands\[2\] holds 4d, dealt to an earlier hand too"),
    ({"hands": ["3d", "5d", "Zz"]}, "Zz"),
    ({"hands": ["3d", "5d", "6d"], "leader": 3}, "leader must be None or a player 0..2"),
    ({"leader": -1}, "leader must be None or a player 0..2"),
    ({"leader": True}, "leader must be None or a player 0..2"),
])
def test_game_hands_and_leader_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Game(3, **kwargs)


# ----------------------------------------------------------------------------- running scores
def test_running_scores_and_replay():
    chooser = random.Random(1)
    match = Match(4, seed=11)
    paid = []
    for _ in range(5):
        play_out(match.game, chooser)
        paid.append(match.game.payments())
        assert match.next_game() is match.game and match.stage == "game"
    assert [r.points for r in match.results] == paid
    assert match.scores == [sum(col) for col in zip(*paid)] and sum(match.scores) == 0
    assert all(len(r.order) == 1 and r.teams is None and r.shootouts == 0 for r in match.results)
    assert match.gifts == [] and match.games_played == 5 and "5 games" in repr(match)
    # the same seed (and the same players) replays the match exactly
    again, chooser = Match(4, seed=11), random.Random(1)
    for _ in range(5):
        play_out(again.game, chooser)
        again.next_game()
    assert again.results == match.results and again.game.hands == match.game.hands


def test_match_pickles_midgame():
    match = Match(3, "taiwan", seed=5, deal="all")
    chooser = random.Random(5)
    play_out(match.game, chooser)
    match.next_game()
    for _ in range(4):
        moves = match.game.legal_moves()
        match.game.play(moves[0]) if moves else match.game.pass_()
    copy = pickle.loads(pickle.dumps(match))
    assert copy.game.hands == match.game.hands and copy.scores == match.scores
    for m in (match, copy):
        play_out(m.game, random.Random(7))
        m.next_game()
    assert copy.results == match.results and copy.game.hands == match.game.hands


def test_match_errors():
    match = Match(4, seed=0)
    with pytest.raises(ValueError, match="the game is not over yet"):
        match.next_game()
    with pytest.raises(ValueError, match="Rules.scoring 'teams' is played by 4 players"):
        Match(3, Rules(scoring="teams"))
    with pytest.raises(ValueError, match="Big Two has 2 to 4 players"):
        Match(5)
    with pytest.raises(ValueError, match="deal must be one of"):
        Match(3, deal="most")
    with pytest.raises(ValueError, match="president_gift needs Rules.president_chooses=True"):
        Match(4, president_gift=lambda hand, count: hand[:count])
    with pytest.raises(TypeError, match="president_gift must be callable"):
        Match(4, Rules(president_exchange=True, president_chooses=True), president_gift="3d 4d")


# ----------------------------------------------------------------------------- the next leader
def test_previous_winner_leads():
    """Seed: "In tournaments, starting the game with 3♦ is only true for the first round. In
    subsequent rounds, the winner of the previous round plays first." (`winner_leads_next`)"""
    chooser = random.Random(2)
    for rules in (Rules(winner_leads_next=True), Rules()):
        match = Match(4, rules, seed=2)
        assert match.game.opening_card in match.game.hand()      # the first game: the 3♦
        for _ in range(4):
            play_out(match.game, chooser)
            winner = match.game.winner
            game = match.next_game()
            if rules.winner_leads_next:
                assert game.turn == winner and game.opening_card is None
                assert len(game.legal_moves()) == len(bigtwo.legal_moves(game.hand()))
            else:
                assert game.opening_card == hr.card("3d") and game.opening_card in game.hand()


# ----------------------------------------------------------------------------- finishing order
def test_finishing_order_is_played_out():
    """Seed: "Some variants do not score; rather, play continues till all but one person have rid
    all cards, and at the end, players are ranked according to the order they got rid of their
    cards, e.g. 1st, 2nd, 3rd etc." """
    chooser = random.Random(4)
    for players in (2, 3, 4):
        match = Match(players, Rules(scoring="finish_order"), seed=players)
        for _ in range(3):
            dealt = [set(h) for h in match.game.hands]
            stages: list[str] = []
            out: list[int] = []
            while True:
                game = match.game
                stages.append(match.stage)
                for player, hand in enumerate(game.hands):      # the hands as they were
                    assert set(hand) <= dealt[match.seats[player]] and match.seats[player] not in out
                play_out(game, chooser)
                out.append(match.seats[game.winner])
                played = match.games_played
                match.next_game()
                if match.games_played > played:
                    break
            order = out + [s for s in range(players) if s not in out]
            assert stages == ["game"] + ["play_out"] * (players - 2)
            assert match.results[-1].order == tuple(order)
            assert match.results[-1].points == bigtwo.finish_points(order)
        assert match.scores == [sum(col) for col in zip(*(r.points for r in match.results))]


def test_play_out_starts_after_the_player_out():
    match = Match(4, Rules(scoring="finish_order"), seed=9)
    match.game = Game(4, hands=["3d", "4d 5d", "6d 7d", "8d 9d"])
    match.game.play("3d")
    play_out_game = match.next_game()
    assert match.stage == "play_out" and match.seats == (1, 2, 3)
    assert play_out_game.turn == 0 and play_out_game.opening_card is None
    assert play_out_game.hands == [hr.cards("4d 5d"), hr.cards("6d 7d"), hr.cards("8d 9d")]


# ----------------------------------------------------------------------------- teams
def test_team_match_and_shootouts():
    """Seed: "If the card count is tied at the end of a game the players proceed to a five card
    shootout. This is where each player receives five cards and the game is played as normal. The
    lowest card holder starts and the same team grouping is still used. Further ties lead to
    further five card hands; this determines the final winner of the original game." """
    chooser = random.Random(6)
    match = Match(4, Rules(scoring="teams"), seed=6)
    # a game that ends tied: player 0 goes out on the 3♦, both teams then hold 6 cards
    match.game = Game(4, hands=["3d", "4c 5c 6c", "4d 5d 6d 7d 8d 9d", "4h 5h 6h"])
    match.game.play("3d")
    shootouts = 0
    while True:
        game = match.next_game()
        if match.stage == "game":
            break
        shootouts += 1
        assert match.stage == "shootout" and game.players == 4
        assert [len(h) for h in game.hands] == [bigtwo.match.SHOOTOUT_CARDS] * 4
        lowest = min((c for h in game.hands for c in h), key=lambda c: strength(c, match.rules))
        assert game.opening_card == lowest and lowest in game.hand()
        play_out(game, chooser)
        decided = bigtwo.team_result(game.hands)
    result = match.results[-1]
    assert shootouts >= 1 and result.shootouts == shootouts
    assert result.teams == decided and decided.winner is not None
    assert result.points == decided.points() and match.scores == result.points
    # games without a tie: the team holding fewer cards wins
    for _ in range(6):
        play_out(match.game, chooser)
        totals = bigtwo.team_result([len(h) for h in match.game.hands])
        played = match.games_played
        match.next_game()
        while match.games_played == played:            # a tie: shootouts
            play_out(match.game, chooser)
            match.next_game()
        if totals.winner is not None:
            assert match.results[-1].teams == totals and match.results[-1].shootouts == 0
        winners = [s for s in range(4) if match.results[-1].points[s] == 1]
        assert winners in ([0, 2], [1, 3])
    assert sum(match.scores) == 0


# ----------------------------------------------------------------------------- the president
def test_president_exchange():
    """Seed: "President passes their lowest 2 cards to the Scum. The scum passes their highest 2
    cards to president." and "Vice-president passes their lowest 1 card to vice-scum. Vice-scum
    passes their highest 1 card to vice-president." """
    rules = Rules(president_exchange=True)
    hands = [hr.cards(h) for h in ("3c 9d Kh 2d", "4s 5s Ah 2h", "3d 6c 7c Tc", "4d 8h Jd Qd As")]
    order = [2, 0, 3, 1]                    # president 2, vice-president 0, vice-scum 3, scum 1
    new, gifts = bigtwo.president_exchange(hands, order, rules)
    assert gifts == [Gift(1, 2, tuple(sorted(hr.cards("Ah 2h")))), Gift(2, 1, tuple(sorted(hr.cards("3d 6c")))),
                     Gift(3, 0, (hr.card("As"),)), Gift(0, 3, (hr.card("3c"),))]
    assert new == [sorted(hr.cards(h)) for h in ("9d Kh 2d As", "4s 5s 3d 6c", "7c Tc Ah 2h", "4d 8h Jd Qd 3c")]
    assert hands[2] == hr.cards("3d 6c 7c Tc")                  # the input is not changed
    # suits count in the ruleset's order: the 2♦ is the highest card in pusoy, the 2♠ in hk
    twos = [hr.cards("3c 3d 4c"), hr.cards("2d 2s 2h")]
    assert bigtwo.president_exchange(twos, [0, 1], rules)[1][0].cards == tuple(sorted(hr.cards("2h 2s")))
    pusoy = rules.replace(suit_order="cshd")
    assert bigtwo.president_exchange(twos, [0, 1], pusoy)[1][0].cards == tuple(sorted(hr.cards("2h 2d")))
    # three players: only the president and the scum swap
    new, gifts = bigtwo.president_exchange(hands[:3], [1, 2, 0], rules)
    assert gifts == [Gift(0, 1, tuple(sorted(hr.cards("Kh 2d")))), Gift(1, 0, tuple(sorted(hr.cards("4s 5s"))))]
    with pytest.raises(ValueError, match="order must list each of the 4 players once"):
        bigtwo.president_exchange(hands, [0, 1, 2], rules)


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(52)), st.integers(2, 4), st.sampled_from(["dchs", "cdhs", "cshd"]), st.data())
def test_president_exchange_against_the_text_order(deck, players, suits, data):
    """Any deal and finishing order: each hand keeps its size, no card is lost or made, and the
    gifts are the highest / lowest cards of the dealt hands in the ruleset's order."""
    rules = Rules(president_exchange=True, suit_order=suits)
    hands = [sorted(deck[13 * i:13 * i + 13]) for i in range(players)]
    order = data.draw(st.permutations(range(players)))
    new, gifts = bigtwo.president_exchange(hands, order, rules)
    assert [len(h) for h in new] == [13] * players
    assert sorted(c for h in new for c in h) == sorted(c for h in hands for c in h)
    pairs = [(order[0], order[-1], 2)] + ([(order[1], order[2], 1)] if players == 4 else [])
    expected = []
    for high, low, count in pairs:
        ranked_low = sorted(hands[low], key=lambda c: strength(c, rules))
        ranked_high = sorted(hands[high], key=lambda c: strength(c, rules))
        expected += [Gift(low, high, tuple(sorted(ranked_low[-count:]))),
                     Gift(high, low, tuple(sorted(ranked_high[:count])))]
    assert gifts == expected
    for giver, receiver, cards in gifts:
        assert set(cards) <= set(new[receiver]) and set(cards).isdisjoint(new[giver])


def test_president_chooses_after_receiving():
    """Seed: "A variant to the rule is where president passes any 2 cards to scum, after receiving
    cards. This can make a difference as their 2 lowest cards may form a five-card hand." """
    rules = Rules(president_exchange=True, president_chooses=True)
    hands = [hr.cards(h) for h in ("3c 4c 5c 6c 7c 9d", "4s 5s Ah 2h")]
    seen = []

    def keep_the_flush(hand: list[int], count: int) -> str:
        seen.append((list(hand), count))
        return "9d Ah"                      # any cards form: the 2 lowest are in the club flush

    new, gifts = bigtwo.president_exchange(hands, [0, 1], rules, keep_the_flush)
    assert seen == [(sorted(hr.cards("3c 4c 5c 6c 7c 9d Ah 2h")), 2)]       # after receiving
    assert gifts[1] == Gift(0, 1, tuple(sorted(hr.cards("9d Ah"))))
    assert new[0] == sorted(hr.cards("3c 4c 5c 6c 7c 2h"))
    # by default the president gives the lowest 2 of the hand after receiving
    _, gifts = bigtwo.president_exchange(hands, [0, 1], rules)
    assert gifts[1] == Gift(0, 1, tuple(sorted(hr.cards("3c 4c"))))
    for bad in (lambda hand, count: hand[:3], lambda hand, count: "3d 4d", lambda hand, count: [hand[0]] * 2,
                lambda hand, count: "Zz"):
        with pytest.raises(ValueError, match="president_gift must give 2 cards of the president's hand"):
            bigtwo.president_exchange(hands, [0, 1], rules, bad)


def lowest_two_but_the_clubs(hand: list[int], count: int) -> list[int]:
    """A president who keeps clubs (module level: the match pickles with it)."""
    others = [c for c in hand if c % 4 != 0] or hand
    return sorted(others, key=lambda c: strength(c, Rules()))[:count]


def test_president_match():
    """Seed: "The first game proceeds without anyone being President, Vice-President, Vice-Scum
    and The Scum." Then each game is played out to the scum, and the next deal exchanged."""
    chooser = random.Random(8)
    for rules, gift in ((Rules(president_exchange=True), None),
                        (Rules(president_exchange=True, president_chooses=True), lowest_two_but_the_clubs)):
        match = Match(4, rules, seed=8, president_gift=gift)
        assert match.gifts == []
        for _ in range(3):
            play_out(match.game, chooser)
            paid = match.game.payments()            # the points: paid when the first goes out
            out = finish_game(match, chooser)
            order = match.results[-1].order
            assert list(order) == out + [s for s in range(4) if s not in out] and len(out) == 3
            assert match.results[-1].points == paid
            president, vice, vice_scum, scum = order
            hands = match.game.hands
            assert [(g.giver, g.receiver, len(g.cards)) for g in match.gifts] == [
                (scum, president, 2), (president, scum, 2), (vice_scum, vice, 1), (vice, vice_scum, 1)]
            for giver, receiver, cards in match.gifts:
                assert set(cards) <= set(hands[receiver]) and set(cards).isdisjoint(hands[giver])
            # what each gave, read against the hand they were dealt
            for giver, _, cards in match.gifts:
                received = [c for g in match.gifts if g.receiver == giver for c in g.cards]
                dealt = sorted(set(hands[giver]) - set(received) | set(cards))
                ranked = sorted(dealt, key=lambda c: strength(c, rules))
                if giver in (scum, vice_scum):
                    assert sorted(cards) == sorted(ranked[-len(cards):])
                elif giver == vice or gift is None and not rules.president_chooses:
                    assert sorted(cards) == sorted(ranked[:len(cards)])
                else:
                    assert sorted(cards) == sorted(gift(sorted(dealt + received), 2))
        copy = pickle.loads(pickle.dumps(match))
        assert copy.gifts == match.gifts and copy.game.hands == match.game.hands


def test_a_failing_gift_changes_nothing():
    def refuse(hand: list[int], count: int) -> list[int]:
        raise ValueError("president_gift must give 2 cards of the president's hand: refused")

    rules = Rules(president_exchange=True, president_chooses=True)
    match, same = Match(2, rules, seed=1, president_gift=refuse), Match(2, rules, seed=1)
    for m in (match, same):
        play_out(m.game, random.Random(1))
    state = (match.game, match.stage, match.seats, list(match.scores), list(match.results))
    with pytest.raises(ValueError, match="refused"):
        match.next_game()
    assert (match.game, match.stage, match.seats, match.scores, match.results) == state
    match.president_gift = None                             # the default gift: as if never failed
    assert match.next_game().hands == same.next_game().hands and match.gifts == same.gifts


# ----------------------------------------------------------------------------- presets
def test_hawaii_penning():
    """Seed: "In Hawaii, a game variant called penning is played. The main difference is that the
    ranking of cards is diamonds high, followed by hearts, then spades, and clubs as lowest. When
    playing with three or four people, the 2nd and 3rd place titles are done by person with the
    lowest card going first." """
    rules = Rules.preset("hawaii")
    assert (rules.suit_order, rules.scoring, rules.play_out_lead) == ("cshd", "finish_order", "lowest_card")
    assert bigtwo.beats("2d", "2h", rules) and bigtwo.beats("2h", "2s", rules) and bigtwo.beats("2s", "2c", rules)
    chooser = random.Random(10)
    match = Match(4, rules, seed=10)
    assert match.game.opening_card == hr.card("3c")
    while match.games_played == 0:
        play_out(match.game, chooser)
        game = match.next_game()
        if match.stage == "play_out":           # the places after the first: the lowest card leads
            lowest = min((c for h in game.hands for c in h), key=lambda c: strength(c, rules))
            assert game.opening_card == lowest and lowest in game.hand()
    assert sorted(match.results[0].points) == [0, 1, 2, 3]


def test_presets_are_named_for_places():
    # and one named for its publisher, as RULES.md names it: the published agent's rule set
    assert Rules.presets() == ("hk", "taiwan", "pusoy", "malaysia", "indonesia", "vietnam", "hawaii",
                               "charlesworth")
    with pytest.raises(ValueError, match=r"preset 'ace_low' is gone: .* use Rules\(straights='ace_low'\)"):
        Rules.preset("ace_low")
    assert Rules(straights="ace_low").straights[0] == ("23456", "6")


# ----------------------------------------------------------------------------- games decided at the deal
@pytest.mark.parametrize("scoring", ["points", "finish_order"])
def test_games_without_a_winner_are_scored_and_dealt_again(scoring):
    """Seed: "On the contrary, some variations said that it's an automatic draw when 1 player has
    all 4 twos". A drawn game has no finishing order: the match scores it (payments under points, else 0) and
    deals again, with no exchange and no winner to lead."""
    rules = Rules(four_twos="draw", scoring=scoring, president_exchange=scoring == "finish_order",
                  winner_leads_next=True)
    chooser = random.Random(5)
    seed = next(s for s in range(10_000) if Match(4, rules, seed=s).game.outcome == "four_twos")
    match = Match(4, rules, seed=seed)
    assert match.game.over and match.game.winner is None
    drawn = match.game.payments() if scoring == "points" else [0, 0, 0, 0]
    game = match.next_game()
    assert match.stage == "game" and match.games_played == 1 and match.scores == drawn
    assert match.gifts == [] and game.leader is None and not game.over
    finish_game(match, chooser)
    assert match.games_played == 2 and sum(match.scores) == (0 if scoring == "points" else 0 + 1 + 2 + 3)
