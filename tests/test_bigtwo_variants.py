"""Big Two house rules of the plays and their order (issue 20), each from a line of the Big Two text
(shared/seeds/000_*.txt, quoted in the test's docstring), and every rule set that mixes them
checked against the independent reference of test_bigtwo_reference: classify_batch exhaustively,
legal_moves against brute force over every subset of random hands, games played to the end."""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import handrank as hr
from handrank import bigtwo
from handrank.bigtwo import Kind, Rules
from handrank.bigtwo.rules import STRAIGHT_TABLES
from test_bigtwo_reference import PLAIN, SPECS, Reference, assert_same_order, subsets

# the reference's own description of each named straight table: (straights, tie-break ranks)
TABLE_SPECS = {name: SPECS[name][1:] for name in ("hk", "malaysia", "indonesia", "vietnam", "ace_low")}
TABLE_SPECS["ace_low_broadway_top"] = ("23456 " + PLAIN.replace(" TJQKA", "") + " A2345 TJQKA",
                                       {"A2345": "A", "23456": "6"})


def reference_of(rules: Rules, table: str) -> Reference:
    """The reference for `rules`, whose straights are the named table `table`."""
    straights, tiebreaks = TABLE_SPECS[table]
    return Reference(rules.suit_order, straights, tiebreaks, flushes=rules.flushes,
                     flush_suit_first=rules.flush_order == "suit",
                     straight_above_flush=rules.straight_above_flush,
                     four_with_kicker=rules.four_of_a_kind != "four_cards",
                     two_pair=rules.two_pair and rules.two_pair_size == 5,
                     four_alone=rules.four_of_a_kind != "with_kicker",
                     two_pair_alone=rules.two_pair and rules.two_pair_size == 4,
                     suits_count=rules.suit_tiebreak, trips_hand=rules.three_of_a_kind_hand,
                     sisters=rules.sisters)


def random_rules(rng: random.Random) -> tuple[Rules, str]:
    """A random valid rule set mixing the new fields with the old ones, and its straight table."""
    while True:
        table = rng.choice(sorted(TABLE_SPECS))
        fields = dict(
            suit_order=rng.choice(["dchs", "cdhs", "cshd", "shdc"]), straights=table,
            flushes=rng.random() < 0.7, flush_order=rng.choice(["ranks", "suit"]),
            straight_above_flush=rng.random() < 0.3,
            four_of_a_kind=rng.choice(["with_kicker", "four_cards", "both"]),
            two_pair=rng.random() < 0.5, two_pair_size=rng.choice([4, 5]),
            suit_tiebreak=rng.choice(["all", "below_five", "none"]),
            three_of_a_kind_hand=rng.random() < 0.4, sisters=rng.random() < 0.3)
        try:
            return Rules(**fields), table
        except ValueError:
            continue                    # e.g. flushes by suit where suits break no ties


def seed_rules(n: int) -> list[tuple[Rules, str]]:
    rng = random.Random(20)
    return [random_rules(rng) for _ in range(n)]


# ----------------------------------------------------------------------------- the seed's lines
def straight(ranks: str, suits: str = "dcdcd") -> str:
    return " ".join(r + s for r, s in zip(ranks, suits))


def test_second_ace_low_table():
    """"2-3-4-5-6 < 3-4-5-6-7 < ... < 9-10-J-Q-K < A-2-3-4-5 (suit of A is tiebreaker) <
    10-J-Q-K-A" is the named straight table "ace_low_broadway_top"."""
    rules = Rules(straights="ace_low_broadway_top")
    assert rules == Rules(straights=STRAIGHT_TABLES["ace_low_broadway_top"])
    order = "23456 34567 45678 56789 6789T 789TJ 89TJQ 9TJQK A2345 TJQKA".split()
    keys = [bigtwo.classify(straight(w), rules).key for w in order]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert all(bigtwo.classify(straight(w), rules).kind is Kind.STRAIGHT for w in order)
    # the suit of the A breaks the tie, not that of the highest card in Big Two order (the 2)
    assert bigtwo.beats("As 2d 3c 4d 5c", "Ah 2s 3s 4s 5d", rules)
    assert not bigtwo.beats("Ah 2s 3s 4s 5d", "As 2d 3c 4d 5c", rules)
    # the named tables are those of the presets that have them
    for name in ("hk", "malaysia", "indonesia", "vietnam", "ace_low"):
        assert Rules(straights=name) == Rules.preset(name).replace(suit_order="dchs")
    with pytest.raises(ValueError, match="Rules.straights: unknown straight table 'nope'"):
        Rules(straights="nope")


def test_flushes_by_suit_first():
    """"Some rank flushes by highest suit, K-Q-J-10-8 in spades defeating A-K-Q-J-9 of diamonds."
    """
    rules = Rules(flush_order="suit")
    assert bigtwo.beats("Ks Qs Js Ts 8s", "Ad Kd Qd Jd 9d", rules)
    assert not bigtwo.beats("Ad Kd Qd Jd 9d", "Ks Qs Js Ts 8s", rules)
    assert bigtwo.beats("Ad Kd Qd Jd 9d", "Ks Qs Js Ts 8s")          # by ranks first in hk


def test_no_suit_ranking():
    """"In some variations, suit rankings are not used, for example, a 3-single cannot be used to
    beat any other 3-single, and an 8-high straight cannot be used to beat any other 8-high
    straight."
    """
    rules = Rules(suit_tiebreak="none")
    assert not bigtwo.beats("3s", "3d", rules) and not bigtwo.beats("3d", "3s", rules)
    assert bigtwo.beats("4d", "3s", rules)
    assert not bigtwo.beats("4c 5d 6h 7s 8s", "4d 5c 6c 7d 8d", rules)
    assert bigtwo.beats("5c 6d 7h 8s 9s", "4d 5c 6c 7d 8d", rules)
    assert not bigtwo.beats("Ks Kh", "Kd Kc", rules)
    assert bigtwo.legal_moves("3s 3h 4d", "3d", rules) == [bigtwo.classify("4d", rules)]
    assert bigtwo.beats("3s", "3d") and bigtwo.beats("4c 5d 6h 7s 8s", "4d 5c 6c 7d 8d")   # hk


def test_must_beat_exactly():
    """"Some players rank all poker hands with traditional poker rules, except for the full house
    2, which is higher than full house ace, and a hand must be won exactly, not just by a
    tiebreaker of suit."
    """
    rules = Rules(suit_tiebreak="below_five")
    assert not bigtwo.beats("4c 5d 6h 7s 8s", "4d 5c 6c 7d 8d", rules)
    assert not bigtwo.beats("3s 5s 7s 9s Js", "3h 5h 7h 9h Jh", rules)
    assert bigtwo.beats("2c 2d 2h 3c 3d", "Ac Ad Ah Kc Kd", rules)
    assert bigtwo.beats("3s", "3d", rules) and bigtwo.beats("Ks Kh", "Kd Kc", rules)   # not five cards
    with pytest.raises(ValueError, match="Rules.suit_tiebreak 'below_five' leaves no suit"):
        Rules(suit_tiebreak="below_five", flush_order="suit")
    with pytest.raises(ValueError, match="Rules.suit_tiebreak must be one of"):
        Rules(suit_tiebreak="some")


FOUR_CARD = Rules(two_pair=True, two_pair_size=4, four_of_a_kind="four_cards")


def test_four_card_plays():
    """"Some allow four-card combinations (two pairs or four cards alone, without an odd card).
    Four-of-a-kind beats two pairs."
    """
    two_pair = bigtwo.classify("3c 3d 4c 4d", FOUR_CARD)
    assert (two_pair.kind, two_pair.size) == (Kind.TWO_PAIR, 4)
    four = bigtwo.classify("3c 3d 3h 3s", FOUR_CARD)
    assert (four.kind, four.size) == (Kind.FOUR, 4)
    assert bigtwo.beats("3c 3d 3h 3s", "2c 2d As Ah", FOUR_CARD)
    assert not bigtwo.beats("2c 2d As Ah", "3c 3d 3h 3s", FOUR_CARD)
    assert bigtwo.classify("3c 3d 4c 4d 5s", FOUR_CARD) is None      # not the five-card form
    assert bigtwo.classify("3c 3d 4c 4d", Rules(two_pair=True)) is None
    moves = bigtwo.legal_moves("3c 3d 3h 3s 4c 4d", "Jc Jd Qc Qd", FOUR_CARD)
    assert [str(m) for m in moves] == ["four 3c 3d 3h 3s"]
    with pytest.raises(ValueError, match="Rules.two_pair_size 4 needs two_pair=True"):
        Rules(two_pair_size=4)
    with pytest.raises(ValueError, match="Rules.two_pair_size must be 4 or 5"):
        Rules(two_pair=True, two_pair_size=3)


def test_two_pair_high_pair():
    """"3-K-K-A-A > 9-J-J-Q-Q (tie-breaker rules vary)", as four cards and as five."""
    assert bigtwo.beats("Kc Kd Ac Ad", "Jc Jd Qc Qd", FOUR_CARD)
    assert bigtwo.beats("3s Kc Kd Ac Ad", "9s Jc Jd Qc Qd", Rules(two_pair=True))


def test_four_card_action_space():
    """The RL action space holds every four-card two pair, 78 rank pairs * 6 * 6 of them."""
    space = bigtwo.ComboSpace(FOUR_CARD)
    without = bigtwo.ComboSpace(Rules(four_of_a_kind="four_cards"))
    assert space.size == without.size + 78 * 36
    action = space.action("Kc Kd Ac Ad")
    assert hr.hand_str(space.cards(action)) == hr.hand_str(hr.cards("Kc Kd Ac Ad"))
    mask = space.mask("3c 3d 3h 3s 4c 4d", "Jc Jd Qc Qd")
    assert [space.cards(a) for a in mask.nonzero()[0]] == [[], sorted(hr.cards("3c 3d 3h 3s"))]


def test_three_of_a_kind_hand():
    """"Some allow the three-of-a-kind poker hand, consisting of a triple and two junk cards. This
    combination ranks below the straight."
    """
    rules = Rules(three_of_a_kind_hand=True)
    hand = bigtwo.classify("7c 7d 7h 3s 9d", rules)
    assert (hand.kind, hand.size) == (Kind.THREE_OF_A_KIND, 5)
    assert bigtwo.beats("3d 4c 5h 6s 7d", "2c 2d 2h 3s 9d", rules)
    assert not bigtwo.beats("2c 2d 2h 3s 9d", "3d 4c 5h 6s 7d", rules)
    assert bigtwo.beats("8c 8d 8h 3s 4d", "7c 7d 7h Ks Ad", rules)          # by the triple only
    assert bigtwo.classify("7c 7d 7h 3s 3d", rules).kind is Kind.FULL_HOUSE
    assert bigtwo.classify("7c 7d 7h 3s 9d") is None
    with_two_pair = Rules(three_of_a_kind_hand=True, two_pair=True)
    assert bigtwo.beats("3c 3d 3h 4s 5d", "2c 2d As Ad Kd", with_two_pair)  # above two pair


def test_sisters():
    """"Or it can be more specific, known as 'sisters', where two consecutive pairs are played,
    with any random card. This combo is lower than a straight, making it the weakest five-card
    combo in the game, if it is played. An example of sisters is double jack, double queen and a
    single nine. This would be beaten by a double king, double ace and a three (only the 'sisters'
    count, not the random card.)"
    """
    rules = Rules(sisters=True, three_of_a_kind_hand=True)
    sisters = bigtwo.classify("Jc Jd Qh Qs 9d", rules)
    assert (sisters.kind, sisters.size) == (Kind.SISTERS, 5)
    assert bigtwo.beats("Kc Kd Ah As 3d", "Jc Jd Qh Qs 9d", rules)
    assert not bigtwo.beats("Jc Jd Qh Qs 2s", "Kc Kd Ah As 3d", rules)
    assert bigtwo.classify("Jc Jd Kh Ks 9d", rules) is None                 # not consecutive
    assert bigtwo.classify("Ac Ad 2h 2s 9d", rules).kind is Kind.SISTERS   # Big Two order
    assert bigtwo.classify("2c 2d 3h 3s 9d", rules) is None
    assert rules.five_card_kinds[0] is Kind.SISTERS                         # the weakest
    assert bigtwo.beats("3c 3d 3h 4s 5d", "Ac Ad 2h 2s 9d", rules)
    with pytest.raises(ValueError, match="Rules.sisters"):
        Rules(sisters=True, two_pair=True)
    with pytest.raises(TypeError, match="Rules.three_of_a_kind_hand must be a bool"):
        Rules(three_of_a_kind_hand=1)


# ----------------------------------------------------------------------------- against the reference
@pytest.mark.parametrize("changes", [dict(two_pair=True, two_pair_size=4, four_of_a_kind="both"),
                                     dict(two_pair=True, two_pair_size=4, suit_tiebreak="none"),
                                     dict(two_pair=True, two_pair_size=4, suit_order="shdc")])
def test_four_card_batch_exhaustive(changes):
    """Every 4-card set (270,725) keyed by classify_batch, in the reference's order."""
    rules = Rules(**changes)
    hands = subsets(4)
    assert_same_order(bigtwo.classify_batch(hands, rules), reference_of(rules, "hk").values(hands))


def test_variant_batches_on_a_sample():
    """30 random rule sets, on random 1- to 5-card sets (the exhaustive runs are `slow`)."""
    for i, (rules, table) in enumerate(seed_rules(30)):
        ref = reference_of(rules, table)
        for k in rules.sizes:
            hands = np.unique(np.sort(hr.random_hands(20_000, k, seed=i), axis=1), axis=0)
            assert_same_order(bigtwo.classify_batch(hands, rules), ref.values(hands))


@pytest.mark.slow
@pytest.mark.parametrize("changes, table", [
    (dict(straights="ace_low_broadway_top"), "ace_low_broadway_top"),
    (dict(suit_tiebreak="none", two_pair=True), "hk"),
    (dict(suit_tiebreak="below_five", straights="malaysia", straight_above_flush=True), "malaysia"),
    (dict(sisters=True, three_of_a_kind_hand=True, flushes=False), "hk"),
    (dict(two_pair=True, three_of_a_kind_hand=True, suit_order="cshd"), "hk"),
])
def test_variant_batches_exhaustive(changes, table):
    rules = Rules(**changes)
    ref = reference_of(rules, table)
    for k in rules.sizes:
        hands = subsets(k)
        assert_same_order(bigtwo.classify_batch(hands, rules), ref.values(hands))


def brute_force(hand: list[int], current: tuple[int, ...] | None, ref: Reference, rules: Rules
                ) -> set[tuple[int, ...]]:
    """Every subset of the hand that is a combo under the reference and beats `current`."""
    above = ref.values(np.array([current]))[0] if current is not None else 0
    found = set()
    for k in rules.sizes:
        if current is not None and k != len(current):
            continue
        sets = np.array(list(itertools.combinations(sorted(hand), k)), dtype=np.uint8).reshape(-1, k)
        if len(sets):
            values = ref.values(sets)
            found.update(tuple(s) for s in sets[(values > above) & (values > 0)].tolist())
    return found


def test_legal_moves_under_random_rule_sets():
    """legal_moves equals brute force over every subset of random hands, leading and following,
    under 30 random rule sets that mix the new fields."""
    rng = random.Random(7)
    for i, (rules, table) in enumerate(seed_rules(30)):
        ref = reference_of(rules, table)
        for cards in hr.random_hands(12, 26, seed=100 + i).tolist():
            hand, rest = cards[:13], cards[13:]
            current = None
            if rng.random() < 0.7:
                theirs = bigtwo.legal_moves(rest, None, rules)
                current = rng.choice(theirs).cards
            moves = bigtwo.legal_moves(hand, current, rules)
            assert {m.cards for m in moves} == brute_force(hand, current, ref, rules), (rules, hand, current)
            assert len(moves) == len({m.cards for m in moves})
            cards_, sizes, keys = bigtwo.legal_move_arrays(hand, current, rules)
            assert keys.tolist() == [m.key for m in moves]
            for m in moves:
                assert bigtwo.classify(m.cards, rules) == m


def test_random_games_under_random_rule_sets():
    """A random game under each rule set runs to the end with only legal moves, over the 8192-
    and the ComboSpace action masks alike."""
    rng = random.Random(3)
    for i, (rules, _) in enumerate(seed_rules(30)):
        space = bigtwo.ComboSpace(rules) if i % 5 == 0 else None
        game = bigtwo.Game(4 if i % 3 else 3, rules, seed=i, deal="thirteen" if i % 3 else "all")
        while not game.over:
            moves = game.legal_moves()
            for m in moves:
                assert bigtwo.beats(m, game.to_beat, rules)
            if space is not None:
                mask = game.action_mask(space)
                assert sorted(tuple(space.cards(a)) for a in mask.nonzero()[0] if a) == \
                    sorted(m.cards for m in moves)
            if game.can_pass and (not moves or rng.random() < 0.3):
                game.pass_()
            else:
                game.play(rng.choice(moves))
        assert sum(game.payments()) == 0
