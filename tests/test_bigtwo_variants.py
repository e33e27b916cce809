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
from handrank.bigtwo.rules import (DIRECTIONS, EXTRA_CARDS, FOUR_TWOS, LAST_PLAYS, OPENINGS, PASSINGS,
                                   STRAIGHT_TABLES)
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
                     sisters=rules.sisters, runs3=rules.three_card_straights,
                     flush_top_card=rules.flush_order == "highest_card", bare_triples=rules.bare_triples)


def random_rules(rng: random.Random) -> tuple[Rules, str]:
    """A random valid rule set mixing the new fields with the old ones, and its straight table."""
    while True:
        table = rng.choice(sorted(TABLE_SPECS))
        fields = dict(
            suit_order=rng.choice(["dchs", "cdhs", "cshd", "shdc"]), straights=table,
            flushes=rng.random() < 0.7, flush_order=rng.choice(["ranks", "suit", "highest_card"]),
            straight_above_flush=rng.random() < 0.3, bare_triples=rng.random() < 0.7,
            four_of_a_kind=rng.choice(["with_kicker", "four_cards", "both"]),
            two_pair=rng.random() < 0.5, two_pair_size=rng.choice([4, 5]),
            suit_tiebreak=rng.choice(["all", "below_five", "none"]),
            three_of_a_kind_hand=rng.random() < 0.4, sisters=rng.random() < 0.3,
            # play flow
            passing=rng.choice(PASSINGS), extra_card=rng.choice(EXTRA_CARDS), draw_on_pass=rng.random() < 0.3,
            last_play=rng.choice(LAST_PLAYS), four_twos=rng.choice(FOUR_TWOS), dragun=rng.random() < 0.3,
            # the seeds' last rules (issue 28) that Game and the moves honour
            opening=rng.choice(OPENINGS), direction=rng.choice(DIRECTIONS),
            three_threes_force=rng.random() < 0.3)
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
    for name in ("hk", "malaysia", "indonesia", "vietnam"):
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


def test_straight_above_flush():
    """"In some variations, a straight is considered higher than a flush. This can be determined
    beforehand."
    """
    rules = Rules(straight_above_flush=True)
    assert bigtwo.beats("3d 4c 5h 6s 7d", "2s 9s 7s 5s 4s", rules)
    assert not bigtwo.beats("2s 9s 7s 5s 4s", "3d 4c 5h 6s 7d", rules)
    assert bigtwo.beats("2s 9s 7s 5s 4s", "3d 4c 5h 6s 7d")                   # hk
    assert bigtwo.beats("3c 3d 3h 4s 4d", "Ad 2c 3h 4s 5d", rules)            # the full house above


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
    for size in (3, 4.0, True):
        with pytest.raises(ValueError, match="Rules.two_pair_size must be 4 or 5"):
            Rules(two_pair=True, two_pair_size=size)


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


def forbidden_last(rules: Rules, play: tuple[int, ...]) -> bool:
    """The seed's last-card lines, read on the cards' text (the 2♠ being the rules' top card)."""
    text = [hr.card_str(c) for c in play]
    top = "2" + rules.suit_order[-1]
    return {"any": False, "no_single_top_card": text == [top], "no_top_card": top in text,
            "no_single_two": len(text) == 1 and text[0][0] == "2",
            "no_single_or_pair_of_twos": len(text) <= 2 and all(t[0] == "2" for t in text)}[rules.last_play]


def brute_force(hand: list[int], current: tuple[int, ...] | None, ref: Reference, rules: Rules
                ) -> set[tuple[int, ...]]:
    """Every subset of the hand that is a combo under the reference and beats `current`, less
    the whole hand where the last-card rule forbids it."""
    above = ref.values(np.array([current]))[0] if current is not None else 0
    found = set()
    for k in rules.sizes:
        if current is not None and k != len(current):
            continue
        sets = np.array(list(itertools.combinations(sorted(hand), k)), dtype=np.uint8).reshape(-1, k)
        if len(sets):
            values = ref.values(sets)
            found.update(tuple(s) for s in sets[(values > above) & (values > 0)].tolist())
    return {s for s in found if not (len(s) == len(hand) and forbidden_last(rules, s))}


def test_legal_moves_under_random_rule_sets():
    """legal_moves equals brute force over every subset of random hands (a third of them short,
    where the last-card rule matters), leading and following, under 30 random rule sets that mix
    the new fields."""
    rng = random.Random(7)
    for i, (rules, table) in enumerate(seed_rules(30)):
        ref = reference_of(rules, table)
        for j, cards in enumerate(hr.random_hands(12, 26, seed=100 + i).tolist()):
            hand, rest = cards[:13 if j % 3 else rng.randint(1, 5)], cards[13:]
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


def play_to_the_end(game, rules, space, rng):
    """Play random legal moves (passing now and then) until the game is over, checking that every
    legal move beats the play on the table and that the action mask lists exactly those moves."""
    while not game.over:
        if game.pending_trade:                  # rules.extra_card == "trade"
            game.trade(rng.random() < 0.5)
            continue
        moves = game.legal_moves()
        assert all(bigtwo.beats(m, game.to_beat, rules) for m in moves)
        if space is not None:
            mask = game.action_mask(space)
            assert sorted(tuple(space.cards(a)) for a in mask.nonzero()[0] if a) == \
                sorted(m.cards for m in moves)
        if game.can_pass and (not moves or rng.random() < 0.3):
            game.pass_()
        else:
            game.play(rng.choice(moves))
    assert sum(game.payments()) == 0


def test_random_games_under_random_rule_sets():
    """A random game under each rule set runs to the end with only legal moves, over the 8192-
    and the ComboSpace action masks alike."""
    rng = random.Random(3)
    for i, (rules, _) in enumerate(seed_rules(30)):
        space = bigtwo.ComboSpace(rules) if i % 5 == 0 else None
        game = bigtwo.Game(4 if i % 3 else 3, rules, seed=i, deal="thirteen" if i % 3 else "all")
        play_to_the_end(game, rules, space, rng)


# ----------------------------------------------------------------------------- bombs and matching
def test_bombs_on_singles_and_pairs():
    """"In some rules, four-of-a-kind + one card, and straight flush, can also be played on a pair
    or a single card, regardless of value."
    """
    rules = Rules(bombs_beat_small=True)
    for bomb in ("3c 3d 3h 3s 4d", "3d 4d 5d 6d 7d"):
        assert bigtwo.beats(bomb, "2s", rules) and bigtwo.beats(bomb, "2s 2h", rules)
        assert not bigtwo.beats(bomb, "2c 2d 2h", rules)
        assert not bigtwo.beats(bomb, "2s") and not bigtwo.beats(bomb, "2s 2h")        # hk
    assert not bigtwo.beats("3d 4c 5h 6s 7d", "2s", rules)                             # no bomb
    moves = bigtwo.legal_moves("3c 3d 3h 3s 4d 5s", "2s", rules)
    assert [str(m) for m in moves] == ["four of a kind 3c 3d 3h 3s 4d", "four of a kind 3c 3d 3h 3s 5s"]
    # after the bomb, the next play beats it as five cards do
    assert bigtwo.beats("4c 4d 4h 4s 5d", "3c 3d 3h 3s 4d", rules)
    assert not bigtwo.beats("Ac Ad Ah Kc Kd", "3c 3d 3h 3s 4d", rules)


def test_four_of_a_kind_beats_all():
    """"A four-of-a-kind can be used to beat all card combinations that lack a four-of-a-kind."
    """
    rules = Rules(four_beats_all=True, four_of_a_kind="both")
    for play in ("2s", "2s 2h", "2c 2d 2h", "9h Th Jh Qh Kh", "2c 2d 2h Ac Ad"):
        assert bigtwo.beats("3c 3d 3h 3s 4d", play, rules)
        assert bigtwo.beats("3c 3d 3h 3s", play, rules)
    assert not bigtwo.beats("3c 3d 3h 3s", "4c 4d 4h 4s", rules)     # both hold four of a kind
    assert not bigtwo.beats("3c 3d 3h 3s 5d", "4c 4d 4h 4s 6d", rules)
    assert bigtwo.beats("4c 4d 4h 4s 5d", "3c 3d 3h 3s 6d", rules)
    assert not bigtwo.beats("3c 3d 3h 3s 4d", "2s", Rules(four_of_a_kind="both"))


def test_no_poker_rules():
    """"No poker rules (a.k.a. no soccer ball rules): The players are not allowed to play a
    different type of 5 card hand over the current. For example, a full house can not be played
    over a straight."
    """
    rules = Rules(five_card_match="same_kind")
    assert not bigtwo.beats("3c 3d 3h 4s 4d", "3d 4c 5h 6s 7d", rules)
    assert bigtwo.beats("3c 3d 3h 4s 4d", "3d 4c 5h 6s 7d")
    assert bigtwo.beats("4d 5c 6h 7s 8d", "3d 4c 5h 6s 7d", rules)
    assert not bigtwo.beats("3d 4d 5d 6d 7d", "3s 4c 5h 6s 7h", rules)      # a straight flush too
    assert bigtwo.beats("Ks Kh", "Kd Kc", rules)                            # fewer cards: as before


def test_any_five_over_a_lower_top_card():
    """"In some variations, any five-card combination can be played on top of any other five-card
    combination with a lower card value, e.g. 4-5-6-7-8 can be played on top of 7-7-7-6-6 even
    though full house is higher than straight in traditional big two."
    """
    rules = Rules(five_card_match="top_card")
    assert bigtwo.beats("4d 5c 6h 7s 8d", "7c 7d 7h 6s 6d", rules)
    assert not bigtwo.beats("4d 5c 6h 7s 8d", "7c 7d 7h 6s 6d")
    assert not bigtwo.beats("7c 7d 7h 6s 6d", "4d 5c 6h 7s 8d", rules)     # a lower top card
    assert bigtwo.beats("7c 7d 7s 6s 6d", "3h 4c 5h 6c 7h", rules)         # 7s over 7h
    assert not bigtwo.beats("7c 7d 7s 6s 6d", "3h 4c 5h 6c 7h", rules.replace(suit_tiebreak="below_five"))
    with pytest.raises(ValueError, match="Rules.five_card_match must be one of"):
        Rules(five_card_match="poker")


def random_follow_rules(rng: random.Random) -> tuple[Rules, str]:
    rules, table = random_rules(rng)
    return rules.replace(bombs_beat_small=rng.random() < 0.5, four_beats_all=rng.random() < 0.5,
                         five_card_match=rng.choice(["any", "same_kind", "top_card"]),
                         three_card_straights=rng.random() < 0.5), table


class Follow:
    """The follow rules written from the seed's lines over the reference's comparison numbers."""

    def __init__(self, rules: Rules, ref: Reference):
        self.rules, self.ref = rules, ref
        self.kind_of_level = {level: kind for kind, level in ref.level.items()}

    def facts(self, sets: np.ndarray) -> tuple[np.ndarray, list[str | None], np.ndarray, np.ndarray]:
        """Values, five-card kind names, whether each holds four of a kind, top card strengths."""
        values = self.ref.values(sets)
        k = sets.shape[1]
        kinds = [self.kind_of_level.get(int(v) // 10**9) if k == 5 else None for v in values]
        four = values >= 1000 if k == 4 else np.array([kind == "quads" for kind in kinds], dtype=bool)
        top = self.ref.strengths(sets)[:, 0]
        if self.rules.suit_tiebreak != "all":
            top = top // 4
        return values, kinds, four & (values > 0), top

    def legal(self, hand: list[int], current: tuple[int, ...]) -> set[tuple[int, ...]]:
        cur_value, cur_kinds, cur_four, cur_top = self.facts(np.array([current]))
        size = len(current)
        found = set()
        for k in self.rules.sizes:
            sets = np.array(list(itertools.combinations(sorted(hand), k)), dtype=np.uint8).reshape(-1, k)
            if not len(sets):
                continue
            values, kinds, four, top = self.facts(sets)
            for i, cards in enumerate(sets.tolist()):
                if not values[i]:
                    continue
                ok = k == size and values[i] > cur_value[0]
                if ok and k == 3:                   # a run only over a run, a triple over a triple
                    ok = (values[i] >= 10**6) == (cur_value[0] >= 10**6)
                if ok and k == 5 and self.rules.five_card_match == "same_kind":
                    ok = kinds[i] == cur_kinds[0]
                if k == 5 == size and self.rules.five_card_match == "top_card":
                    ok = top[i] > cur_top[0]
                if self.rules.bombs_beat_small and size <= 2 and kinds[i] in ("quads", "straight flush"):
                    ok = True
                if self.rules.four_beats_all and four[i] and not cur_four[0]:
                    ok = True
                if ok:
                    found.add(tuple(cards))
        return found


def test_follow_rules_against_brute_force():
    """legal_moves, legal_move_arrays, beats and Game.play under 30 random rule sets that mix
    bombs and five-card matching with the other new fields, against brute force over every subset."""
    rng = random.Random(11)
    for i in range(30):
        rules, table = random_follow_rules(rng)
        follow = Follow(rules, reference_of(rules, table))
        for j, cards in enumerate(hr.random_hands(8, 26, seed=300 + i).tolist()):
            hand, rest = cards[:13], cards[13:]
            if j % 2:       # a hand that holds four of a kind, so that bombs come up often
                four = 4 * rng.randrange(13)
                others = [c for c in range(52) if not four <= c < four + 4]
                rng.shuffle(others)
                hand, rest = list(range(four, four + 4)) + others[:9], others[9:22]
            theirs = bigtwo.legal_moves(rest, None, rules)
            by_size = {m.size: m for m in theirs}           # the strongest of each size
            current = rng.choice(list(by_size.values()) + [rng.choice(theirs)])
            moves = bigtwo.legal_moves(hand, current, rules)
            assert {m.cards for m in moves} == follow.legal(hand, current.cards), (rules, hand, current)
            _, sizes, keys = bigtwo.legal_move_arrays(hand, current, rules)
            assert list(zip(sizes.tolist(), keys.tolist())) == [(m.size, m.key) for m in moves]
            assert all(bigtwo.beats(m, current, rules) for m in moves)


def test_games_with_follow_rules():
    """Random games with bombs and five-card matching run to the end with only legal moves, and
    the ComboSpace mask lists those moves."""
    rng = random.Random(5)
    for i in range(20):
        rules, _ = random_follow_rules(rng)
        space = bigtwo.ComboSpace(rules) if i % 4 == 0 else None
        game = bigtwo.Game(4, rules, seed=i)
        play_to_the_end(game, rules, space, rng)


def test_three_card_straights():
    """"Some variations allow for straights longer than five cards, or even as short as three
    cards." (the three-card form; a run beats only a run of its length)
    """
    rules = Rules(three_card_straights=True)
    run = bigtwo.classify("3d 4c 5h", rules)
    assert (run.kind, run.size) == (Kind.THREE_CARD_STRAIGHT, 3)
    assert bigtwo.classify("3d 4c 5h") is None
    assert bigtwo.classify("Kd As 2c", rules).kind is Kind.THREE_CARD_STRAIGHT     # K-A-2
    assert bigtwo.classify("Ad 2c 3h", rules) is None                               # no wrap
    assert bigtwo.beats("4d 5c 6h", "3s 4s 5s", rules)
    assert bigtwo.beats("3d 4c 5s", "3s 4h 5h", rules)                            # top card 5s
    assert not bigtwo.beats("3c 3d 3h", "3s 4h 5h", rules)                        # kinds apart
    assert not bigtwo.beats("Kd As 2c", "3c 3d 3h", rules)
    assert [str(m) for m in bigtwo.legal_moves("3c 3d 3h 4s 5d", "3s 4h 5h", rules)] == []
    assert [str(m) for m in bigtwo.legal_moves("4c 4d 4h 6s 5d", "3s 4h 5h", rules)] == [
        "three card straight 4c 5d 6s", "three card straight 4d 5d 6s", "three card straight 4h 5d 6s"]
    hands = subsets(3)
    assert_same_order(bigtwo.classify_batch(hands, rules), reference_of(rules, "hk").values(hands))
    space = bigtwo.ComboSpace(rules)
    assert space.size == bigtwo.ComboSpace().size + 11 * 64


def test_new_fields_pickle_and_compare():
    """Rules with the new fields pickle, copy and compare by value; a named straight table is the
    same rules as the table itself."""
    import copy
    import pickle
    rules = Rules(two_pair=True, two_pair_size=4, three_card_straights=True, five_card_match="top_card",
                  suit_tiebreak="below_five", bombs_beat_small=True, straights="ace_low_broadway_top")
    assert pickle.loads(pickle.dumps(rules)) == rules == copy.deepcopy(rules)
    assert bigtwo.classify("3c 3d 4c 4d", pickle.loads(pickle.dumps(rules))).kind is Kind.TWO_PAIR
    assert Rules(straights="malaysia") == Rules.preset("malaysia")
    assert Rules(suit_tiebreak="none") != Rules()
