"""bigtwo: the scoring variants of the Big Two text (seed 000): a payment doubled for each unplayed
2, ranking by finishing order, 2-against-2 team totals; and their `Rules` fields' checks."""
from __future__ import annotations

import random

import pytest

import handrank as hr
from handrank import bigtwo
from handrank.bigtwo import Rules, TeamResult

from bigtwo_support import play_out

TWOS = set("2")


def slow_payment(hand: str, per_two: int, double_at: int = 10, triple_at: int = 13) -> int:
    """One loser's payment, from the text of their hand: 1 per card, the threshold multiplier,
    then `per_two` for every 2 in it."""
    ranks = [card[0] for card in hand.split()]
    multiplier = 3 if len(ranks) >= triple_at else 2 if len(ranks) >= double_at else 1
    for rank in ranks:
        if rank in TWOS:
            multiplier *= per_two
    return len(ranks) * multiplier


def test_double_the_count_for_each_unused_two():
    """Seed: "An alternative scoring method to deduct one point per remaining card, is to double
    the count for each unused 2's." One point per card (no thresholds: multipliers 1), doubled for
    each 2 a loser still holds."""
    rules = Rules(double_multiplier=1, triple_multiplier=1, unplayed_two_multiplier=2)
    hands = ["", "2s 2h 5d", "Kd Qs", "2c 3d 4d 5s 6h 7h 8h 9h Th Jh"]
    assert bigtwo.payments(hands, rules) == [3 * 4 + 2 + 10 * 2, -12, -2, -20]
    # card counts need the number of 2s alongside
    assert bigtwo.payments([0, 3, 2, 10], rules, twos_held=[0, 2, 0, 1]) == [34, -12, -2, -20]
    with pytest.raises(ValueError, match="Rules.unplayed_two_multiplier counts the 2s"):
        bigtwo.payments([0, 3, 2, 10], rules)
    with pytest.raises(ValueError, match=r"twos_held\[1\] must be a count 0..4"):
        bigtwo.payments([0, 3, 2, 10], rules, twos_held=[0, 5, 0, 1])
    with pytest.raises(ValueError, match="twos_held has 3 entries for 4 players"):
        bigtwo.payments([0, 3, 2, 10], rules, twos_held=[0, 2, 0])
    # off by default: the same hands pay 1 per card
    assert bigtwo.payments(hands, Rules(double_multiplier=1, triple_multiplier=1)) == [15, -3, -2, -10]


def test_unused_twos_against_the_slow_payment():
    """Random end positions, with the default thresholds and a 2 that doubles or triples."""
    rng = random.Random(20)
    deck = [hr.card_str(c) for c in range(52)]
    for trial in range(300):
        per_two = 2 + trial % 2
        rules = Rules(unplayed_two_multiplier=per_two)
        rng.shuffle(deck)
        sizes = [0] + [rng.randint(1, 13) for _ in range(3)]
        rng.shuffle(sizes)
        hands, start = [], 0
        for size in sizes:
            hands.append(" ".join(deck[start:start + size]))
            start += size
        expected = [-slow_payment(h, per_two) if h else 0 for h in hands]
        expected[sizes.index(0)] = -sum(expected)
        assert bigtwo.payments(hands, rules) == expected, hands


def test_a_game_pays_for_its_unused_twos():
    rules = Rules(unplayed_two_multiplier=2)
    game = bigtwo.Game(4, rules, seed=3)
    play_out(game, random.Random(3))
    expected = [-slow_payment(hr.hand_str(h), 2) if h else 0 for h in game.hands]
    expected[game.winner] = -sum(expected)
    assert game.payments() == expected


def test_ranking_by_finishing_order():
    """Seed: "Some variants do not score; rather, play continues till all but one person have rid
    all cards, and at the end, players are ranked according to the order they got rid of their
    cards, e.g. 1st, 2nd, 3rd etc." Each player scores the number of players out after them."""
    assert bigtwo.finish_points([3, 1, 0, 2]) == [1, 2, 0, 3]
    assert bigtwo.finish_points([1, 0]) == [0, 1]
    assert bigtwo.finish_points([0, 2, 1]) == [2, 0, 1]
    for bad in ([0, 0, 1], [0], [1, 2, 3, 4], [0, 1, 2, 3, 4]):
        with pytest.raises(ValueError, match="order must list each of 2 to 4 players once"):
            bigtwo.finish_points(bad)


def test_team_totals():
    """Seed: "The winning team is determined by the total number of cards held by that team when
    the one player runs out of card. ... (Ex: Mike and Dave are on one team against Lionel and
    Brendan. Mike has 4 cards, Dave has 5, Lionel has 10 and Brendan has 1. Brendan plays his last
    card but Lionel has 10 cards and Mike and Dave have 9 cards total. By playing his last card
    Brendan has lost the game for his team.)" Partners sit opposite: Mike 0, Lionel 1, Dave 2,
    Brendan 3."""
    result = bigtwo.team_result([4, 10, 5, 0])
    assert result == TeamResult((9, 10), 0)
    assert result.points() == [1, -1, 1, -1]
    assert bigtwo.team_result(["4c 5c", "", "6c", "7c 8c"]) == TeamResult((3, 2), 1)
    assert bigtwo.team_result(["4c 5c", "", "6c", "7c 8c"]).points() == [-1, 1, -1, 1]


def test_team_tie_goes_to_a_shootout():
    """Seed: "If the card count is tied at the end of a game the players proceed to a five card
    shootout." A tie has no winner yet (bigtwo.Match then deals the shootout)."""
    tie = bigtwo.team_result([0, 4, 7, 3])
    assert tie == TeamResult((7, 7), None) and tie.points() == [0, 0, 0, 0]


@pytest.mark.parametrize("cards_left, error, message", [
    ([0, 1, 2], ValueError, "team play has 4 players, got 3"),
    ([0, 0, 2, 3], ValueError, "exactly one player"),
    ([1, 1, 2, 3], ValueError, "exactly one player"),
    ([0, -1, 2, 3], ValueError, "exactly one player"),
    ([0, True, 2, 3], TypeError, "not bools"),
    ([0, "Zz", 2, 3], ValueError, "Zz"),
])
def test_team_result_errors(cards_left, error, message):
    with pytest.raises(error, match=message):
        bigtwo.team_result(cards_left)


@pytest.mark.parametrize("changes, error, message", [
    ({"unplayed_two_multiplier": 0}, ValueError, "Rules.unplayed_two_multiplier must be an int >= 1"),
    ({"unplayed_two_multiplier": True}, ValueError, "Rules.unplayed_two_multiplier must be an int >= 1"),
    ({"unplayed_two_multiplier": 2.0}, ValueError, "Rules.unplayed_two_multiplier must be an int >= 1"),
    ({"scoring": "ranks"}, ValueError, "Rules.scoring must be one of"),
    ({"scoring": None}, ValueError, "Rules.scoring must be one of"),
    ({"winner_leads_next": 1}, TypeError, "Rules.winner_leads_next must be a bool"),
    ({"president_exchange": "yes"}, TypeError, "Rules.president_exchange must be a bool"),
    ({"president_chooses": True}, ValueError, "Rules.president_chooses needs president_exchange=True"),
])
def test_scoring_fields_are_checked(changes, error, message):
    with pytest.raises(error, match=message):
        Rules(**changes)


def test_scoring_fields_default_off():
    rules = Rules()
    assert (rules.unplayed_two_multiplier, rules.scoring, rules.winner_leads_next,
            rules.president_exchange, rules.president_chooses) == (1, "points", False, False, False)
    assert Rules(scoring="teams", president_exchange=True, president_chooses=True).president_chooses
