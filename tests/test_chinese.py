"""13-card Chinese poker (RULES.md "Chinese poker"): rules and presets, naturals, scoring (1-6,
2-4, mis-sets, naturals at the table, royalties to the winner or net), the batch scorer and the
opponent model behind the "ev" objective, against the independent oracle
tests/chinese_reference.py. Settings and the best-setting search are in test_chinese_setting.py."""
import dataclasses
import itertools

import numpy as np
import pytest

import chinese_reference as ref
import handrank as hr
import ofc_reference as ofc_ref
from handrank import chinese, high, high3, ofc, rows

E = hr.cards
PRESETS = ("1-6", "2-4", "net-royalties")


def rules(name):
    return chinese.Rules.preset(name)


def board(text):
    return ofc.Board.parse(text)


def setting_tuple(setting):
    """(top, middle, bottom) as ascending id tuples."""
    return tuple(tuple(sorted(row)) for row in (setting.top, setting.middle, setting.bottom))


# ============================================================================= rules
def test_presets_are_the_three_named():
    # (the presets of the seed's house rules follow them: tests/test_chinese_variants.py)
    assert chinese.Rules.presets()[:3] == PRESETS
    assert chinese.Rules.presets()[0] == "1-6"
    assert chinese.Rules() == rules("1-6")
    for name in PRESETS:
        r = rules(name)
        assert rules(name) is r                       # built once
        assert r.name == name
        assert r == chinese.Rules(**ref.rules_kwargs(name))
        expected = ref.PRESETS[name]
        assert r.scoring == expected["scoring"]
        assert r.royalties_to_winner is expected["royalties_to_winner"]
        assert dict(r.top_royalties) == ref.TOP_ROYALTIES
        assert dict(r.middle_royalties) == ref.MIDDLE_ROYALTIES
        assert dict(r.bottom_royalties) == ref.BOTTOM_ROYALTIES
        assert r.naturals == tuple(ref.NATURALS.items())
        assert r.scoop_units == ref.SCOOP[r.scoring]
        for kind, units in ref.NATURALS.items():
            assert r.natural_units(kind) == units
    assert rules("2-4").scoring == "2-4" and rules("2-4").royalties_to_winner
    net = rules("net-royalties")
    assert net.scoring == "1-6" and not net.royalties_to_winner
    assert chinese.NATURALS == ("dragon", "three straights", "three flushes", "six pairs")


def test_unknown_preset_and_rules_argument():
    with pytest.raises(ValueError, match="3-5"):
        chinese.Rules.preset("3-5")
    with pytest.raises(ValueError):
        chinese.Rules.preset("pineapple")            # an OFC preset, not a Chinese one
    hand = E("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kd")
    with pytest.raises(TypeError):
        chinese.best_setting(hand, rules=5)
    with pytest.raises(TypeError):
        chinese.natural(hand, rules=ofc.Rules())
    with pytest.raises(ValueError):
        chinese.natural(hand, rules="classic")
    assert chinese.best_setting(hand, rules="2-4") == chinese.best_setting(hand, rules=rules("2-4"))


def test_rules_are_frozen_hashable_and_replaceable():
    r = rules("1-6")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.scoring = "2-4"
    assert hash(r) == hash(chinese.Rules())
    assert len({rules(name) for name in PRESETS}) == 3
    other = r.replace(scoring="2-4")
    assert other == rules("2-4") and other.name == "custom" and r.scoring == "1-6"
    with pytest.raises(ValueError, match="scoring"):
        r.replace(scoring="1-4")


def test_tables_take_dicts_and_pairs():
    r = chinese.Rules(top_royalties={"AAA": 5, "QQ": 1}, naturals={"dragon": 26})
    assert r.top_royalties == (("AAA", 5), ("QQ", 1))
    assert r.naturals == (("dragon", 26),)
    assert r.natural_units("dragon") == 26 and r.natural_units("six pairs") == 0
    assert chinese.Rules(naturals=()).naturals == ()
    assert chinese.Rules(middle_royalties=[["flush", 1]]).middle_royalties == (("flush", 1),)


@pytest.mark.parametrize("field, value, error", [
    ("scoring", "3-5", ValueError),
    ("scoring", "", ValueError),
    ("scoring", None, ValueError),
    ("top_royalties", (("QQQQ", 3),), ValueError),
    ("top_royalties", (("QK", 3),), ValueError),
    ("top_royalties", (("ZZZ", 3),), ValueError),
    ("top_royalties", (("flush", 3),), ValueError),
    ("top_royalties", (("AAA", -1),), ValueError),
    ("top_royalties", (("AAA", 3), ("AAA", 4)), ValueError),
    ("top_royalties", (("AAA",),), ValueError),
    ("top_royalties", (("AAA", 3.0),), TypeError),
    ("top_royalties", 7, TypeError),
    ("middle_royalties", (("flushes", 2),), ValueError),
    ("middle_royalties", (("QQ", 2),), ValueError),
    ("middle_royalties", (("quads", 1001),), ValueError),
    ("middle_royalties", (("quads", True),), TypeError),
    ("bottom_royalties", (("quads", -4),), ValueError),
    ("bottom_royalties", (("royal flush", 1), ("royal flush", 2)), ValueError),
    ("naturals", (("royal dragon", 3),), ValueError),
    ("naturals", (("dragon", -1),), ValueError),
    ("naturals", (("six pairs", 0),), ValueError),
    ("naturals", (("dragon", 1001),), ValueError),
    ("naturals", (("dragon", "13"),), TypeError),
    ("naturals", (("dragon", 13), ("dragon", 3)), ValueError),
    ("naturals", (("dragon",),), ValueError),
    ("royalties_to_winner", "yes", TypeError),
    ("royalties_to_winner", 1, TypeError),
])
def test_bad_rules_are_errors_naming_the_field(field, value, error):
    with pytest.raises(error, match=field):
        chinese.Rules(**{field: value})
    with pytest.raises(error, match=field):
        rules("2-4").replace(**{field: value})


def test_extreme_units_are_accepted():
    r = chinese.Rules(top_royalties={"222": 0, "AAA": 1000}, naturals={"six pairs": 1000})
    assert r.natural_units("six pairs") == 1000 and r.natural_units("dragon") == 0


# ============================================================================= naturals
DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad"
SIX_PAIRS = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d Ah"              # highest pair 7
SIX_PAIRS_TRIPS = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 9c 9d 9h"        # five pairs and trips: 9s
SIX_PAIRS_QUADS = "Kc Kd Kh Ks 3c 3d 4c 4d 5c 5d 6c 6d Ah"        # quads are two pairs
THREE_QUADS = "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c"           # 2 + 2 + 2 pairs
FIVE_PAIRS = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 9c Jd Ah"
THREE_FLUSHES = "2c 5c 8c 3d 6d 8d Td Qd 4h 7h Jh Kh Ah"          # 3 / 5 / 5 suits
FLUSHES_8_5 = "2c 5c 9c Jc Kc 3c 7c Tc 4h 7h Jh Kh Ah"            # clubs fill two rows
STRAIGHTS_A23 = "Ac 2d 3h 3c 4d 5h 6s 7c 5d 6h 7s 8c 9d"          # only with A-2-3 on top
STRAIGHTS_QKA = "Qc Kd Ah 8c 9d Tc Jd Qh 9s Th Js Qs Kh"          # only with Q-K-A on top
WRAP_K_A_2 = "Kc Ad 2h 3s 4c 5d 6h 7s 4s 5c 6d 7h 8s"            # would need K-A-2: nothing
WHEEL_STRAIGHTS = "4c 5d 6h Ac 2d 3h 4s 5c 7c 8d 9h Ts Jc"        # 4-5-6 / A-2-3-4-5 / 7-J
SIX_PAIRS_AND_FLUSHES = "Ah Kh Qh Ad Jd Td 9d 2d Kc Qc Jc Tc 9c"   # both worth 3
STRAIGHT_FLUSHES = "2h 3h 4h 5c 6c 7c 8c 9c 9s Ts Js Qs Ks"       # three straights and flushes
NOTHING = "2c 2d 5h 7s 9c Jd Kh As 3c 8d Th Qs 4h"


def check_natural(cards, got, rules_spec=None):
    """The package's natural equals the reference's: kind, units, key and a showing setting."""
    want = ref.natural(cards, rules_spec)
    if want is None:
        assert got is None, (hr.hand_str(cards), got)
        return None
    assert got is not None, (hr.hand_str(cards), want)
    assert isinstance(got, chinese.Natural)
    assert (got.kind, got.units) == (want.kind, want.units), hr.hand_str(cards)
    if want.kind in ("dragon", "six pairs"):
        assert got.setting is None and got.key == want.key
        return want
    s = got.setting
    assert isinstance(s, ofc.Board)
    assert sorted(s.cards) == sorted(ref.ids_of(cards))
    # the strongest setting that shows it (any of the equally strong ones), keyed by its values
    assert setting_tuple(s) in want.settings, (hr.hand_str(cards), str(s))
    if want.kind == "three straights":      # the rows' places in straight order
        assert got.key == want.key
    else:
        assert got.key == (high.evaluate(s.bottom), high.evaluate(s.middle), high3.evaluate(s.top))
    assert ref.is_valid(s.top, s.middle, s.bottom)
    return want


@pytest.mark.parametrize("cards, kind, key", [
    (DRAGON, "dragon", ()),
    (SIX_PAIRS, "six pairs", (5,)),
    (SIX_PAIRS_TRIPS, "six pairs", (7,)),
    (SIX_PAIRS_QUADS, "six pairs", (11,)),
    (THREE_QUADS, "six pairs", (2,)),
    (THREE_FLUSHES, "three flushes", None),
    (FLUSHES_8_5, "three flushes", None),
    (STRAIGHTS_A23, "three straights", None),
    (STRAIGHTS_QKA, "three straights", None),
    (WHEEL_STRAIGHTS, "three straights", None),
    (SIX_PAIRS_AND_FLUSHES, "three flushes", None),      # equal units: the rules' order
    (STRAIGHT_FLUSHES, "three straights", None),
    (FIVE_PAIRS, None, None),
    (WRAP_K_A_2, None, None),
    (NOTHING, None, None),
])
def test_constructed_naturals(cards, kind, key):
    ids = E(cards)
    assert len(set(ids)) == 13
    got = chinese.natural(cards)
    want = check_natural(ids, got)
    if kind is None:
        assert got is None and want is None
        return
    assert got.kind == kind and got.units == ref.NATURALS[kind]
    if key is not None:
        assert got.key == key
    # the cards in any form and any order
    assert chinese.natural(list(reversed(ids))) == got
    assert chinese.natural([hr.card_str(c) for c in ids]) == got


def test_three_straights_tops():
    low = chinese.natural(STRAIGHTS_A23)
    assert sorted(c // 4 for c in low.setting.top) == [0, 1, 12]            # A-2-3
    top = chinese.natural(STRAIGHTS_QKA)
    assert sorted(c // 4 for c in top.setting.top) == [10, 11, 12]          # Q-K-A
    wheel = chinese.natural(WHEEL_STRAIGHTS)
    assert sorted(c // 4 for c in wheel.setting.middle) == [0, 1, 2, 3, 12]  # A-2-3-4-5
    assert sorted(c // 4 for c in wheel.setting.top) == [2, 3, 4]
    # the key places the top in straight order: A-2-3 lowest, Q-K-A highest
    assert low.key[2] == 0 and top.key[2] == 11
    assert chinese.natural(WRAP_K_A_2) is None


def test_strongest_showing_setting():
    # 13 clubs: a dragon, and without the dragon three flushes (royal, 9-high straight flush, 4-3-2)
    clubs = list(range(0, 52, 4))
    assert chinese.natural(clubs).kind == "dragon"
    r = chinese.Rules(naturals={"three flushes": 3})
    got = chinese.natural(clubs, r)
    check_natural(clubs, got, dict(naturals={"three flushes": 3}))
    assert got.setting == ofc.Board("2c 3c 4c", "5c 6c 7c 8c 9c", "Tc Jc Qc Kc Ac")
    assert got.key == (7462, high.evaluate(E("5c 6c 7c 8c 9c")), high3.evaluate(E("2c 3c 4c")))
    r = chinese.Rules(naturals={"three straights": 3})
    got = chinese.natural(clubs, r)
    assert got.kind == "three straights"
    assert got.setting == ofc.Board("2c 3c 4c", "5c 6c 7c 8c 9c", "Tc Jc Qc Kc Ac")
    # 8 clubs + 5 hearts: the ace-high hearts at the bottom, the best club five in the middle
    got = chinese.natural(FLUSHES_8_5)
    assert setting_tuple(got.setting) == setting_tuple(
        ofc.Board("2c 3c 5c", "7c 9c Tc Jc Kc", "4h 7h Jh Kh Ah"))


def test_several_naturals_units_then_rules_order():
    # dragon (13) beats the three straights every dragon also holds
    assert chinese.natural(DRAGON).kind == "dragon"
    no_dragon = {"three straights": 3, "three flushes": 3, "six pairs": 3}
    assert chinese.natural(DRAGON, chinese.Rules(naturals=no_dragon)).kind == "three straights"
    # six pairs and three flushes, both 3: the first in the rules' order
    assert chinese.natural(SIX_PAIRS_AND_FLUSHES).kind == "three flushes"
    order = {"six pairs": 3, "three flushes": 3}
    assert chinese.natural(SIX_PAIRS_AND_FLUSHES, chinese.Rules(naturals=order)).kind == "six pairs"
    # more units win whatever the order
    units = {"three flushes": 3, "six pairs": 4}
    got = chinese.natural(SIX_PAIRS_AND_FLUSHES, chinese.Rules(naturals=units))
    assert (got.kind, got.units, got.key) == ("six pairs", 4, (12,))
    # a kind left out is not a natural
    assert chinese.natural(SIX_PAIRS, chinese.Rules(naturals={"dragon": 13})) is None
    assert chinese.natural(DRAGON, chinese.Rules(naturals=())) is None
    for cards in (DRAGON, SIX_PAIRS_AND_FLUSHES, STRAIGHT_FLUSHES):
        for spec in (no_dragon, order, units, {"dragon": 13}, {}):
            check_natural(E(cards), chinese.natural(cards, chinese.Rules(naturals=spec)),
                          dict(naturals=spec))


def test_natural_needs_13_cards():
    with pytest.raises(ValueError):
        chinese.natural(E(DRAGON)[:12])
    with pytest.raises(ValueError):
        chinese.natural(E(DRAGON) + [50])
    with pytest.raises(ValueError):
        chinese.natural(E(DRAGON)[:12] + [0])        # 2c twice


NATURAL_RULES = [None, {"naturals": {"six pairs": 5, "three flushes": 3, "three straights": 3}},
                 {"naturals": {"three flushes": 2, "three straights": 2, "dragon": 2}}]


def test_random_and_constructed_naturals_against_reference():
    rng = np.random.default_rng(20)
    hands = [[int(c) for c in rng.choice(52, 13, replace=False)] for _ in range(300)]
    for i in range(120):
        hands.append(ref.natural_hand(rng, ref.NATURAL_KINDS[i % 4]))
    found = set()
    for i, hand in enumerate(hands):
        for spec in NATURAL_RULES:
            r = chinese.Rules(**ref.rules_kwargs(spec))
            want = check_natural(hand, chinese.natural(hand, r), spec)
            if want is not None and spec is None:
                found.add(want.kind)
    assert found == set(ref.NATURAL_KINDS)


def test_reference_natural_checks_agree_with_every_split():
    """The reference reads three straights / flushes off rank / suit counts; trying every split
    finds the same naturals."""
    rng = np.random.default_rng(21)
    hands = [[int(c) for c in rng.choice(52, 13, replace=False)] for _ in range(60)]
    hands += [ref.natural_hand(rng, ref.NATURAL_KINDS[i % 4]) for i in range(40)]
    hands += [E(c) for c in (STRAIGHTS_A23, STRAIGHTS_QKA, WRAP_K_A_2, WHEEL_STRAIGHTS,
                             FLUSHES_8_5)]
    for hand in hands:
        assert ref.natural_kinds(hand) == ref.natural_kinds_brute(hand), hr.hand_str(hand)


def test_compare_naturals():
    n = chinese.natural
    dragon, six, flushes, straights = n(DRAGON), n(SIX_PAIRS), n(THREE_FLUSHES), n(STRAIGHTS_A23)
    assert chinese.compare_naturals(dragon, six) == 1
    assert chinese.compare_naturals(six, dragon) == -1
    assert chinese.compare_naturals(dragon, n("2d 3c 4c 5c 6d 7c 8c 9c Td Jc Qc Kc As")) == 0
    # equal units, different kinds: a tie
    for a, b in itertools.permutations((six, flushes, straights), 2):
        assert chinese.compare_naturals(a, b) == 0
    # six pairs by the highest pair
    assert chinese.compare_naturals(n(SIX_PAIRS_QUADS), six) == 1       # kings over sevens
    assert chinese.compare_naturals(six, n(SIX_PAIRS_TRIPS)) == -1      # sevens under nines
    assert chinese.compare_naturals(six, n("2h 2s 3h 3s 4h 4s 5h 5s 6h 6s 7h 7s Ac")) == 0
    # three straights / flushes by bottom, then middle, then top
    assert chinese.compare_naturals(n(STRAIGHTS_QKA), straights) == 1
    assert chinese.compare_naturals(straights, n(WHEEL_STRAIGHTS)) == -1   # 9-high vs J-high bottom
    other_flushes = n("2d 5d 8d 3c 6c 8c Tc Qc 4s 7s Js Ks As")    # THREE_FLUSHES, other suits
    assert chinese.compare_naturals(flushes, other_flushes) == 0
    weaker_top = n("2d 5d 7d 3c 6c 8c Tc Qc 4s 7s Js Ks As")   # 7-5-2 top: same bottom and middle
    assert weaker_top.kind == "three flushes"
    assert chinese.compare_naturals(flushes, weaker_top) == 1
    # a natural worth more by the rules wins across kinds
    r = chinese.Rules(naturals={"six pairs": 4, "three flushes": 3})
    assert chinese.compare_naturals(n(SIX_PAIRS, r), n(THREE_FLUSHES, r)) == 1


def test_compare_naturals_against_reference():
    rng = np.random.default_rng(22)
    pairs = 0
    hands = [ref.natural_hand(rng, ref.NATURAL_KINDS[i % 4]) for i in range(60)]
    hands += [E(c) for c in (DRAGON, SIX_PAIRS, SIX_PAIRS_QUADS, THREE_FLUSHES, STRAIGHTS_A23,
                             STRAIGHTS_QKA, SIX_PAIRS_AND_FLUSHES, STRAIGHT_FLUSHES)]
    for spec in NATURAL_RULES[:2]:
        r = chinese.Rules(**ref.rules_kwargs(spec))
        naturals = [(chinese.natural(h, r), ref.natural(h, spec)) for h in hands]
        naturals = [pair for pair in naturals if pair[1] is not None]
        for (got_a, want_a), (got_b, want_b) in itertools.product(naturals, repeat=2):
            expected = ref.compare_naturals(want_a, want_b)
            assert chinese.compare_naturals(got_a, got_b) == expected, (got_a, got_b)
            pairs += 1
    assert pairs > 5000


# ============================================================================= scoring
AMY = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
BOB = "Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s"


@pytest.mark.parametrize("name, amy", [("2-4", 2), ("1-6", 1), ("net-royalties", 1)])
def test_seed_worked_example(name, amy):
    """Seed 001: Amy wins the front and the back, Bob the middle; 2-4: Bob pays 2 (2 - 1 + the
    overall unit), 1-6: 1. Amy's full house at the back earns no royalty."""
    r = rules(name)
    assert chinese.score([AMY, BOB], r) == [amy, -amy]
    assert chinese.score([BOB, AMY], name) == [-amy, amy]
    assert ref.score([AMY, BOB], name) == [amy, -amy]
    a, b = np.array([board(AMY).cards]), np.array([board(BOB).cards])
    assert chinese.score_batch(a, b, r).tolist() == [amy]
    assert chinese.score_batch(b, a, r).tolist() == [-amy]
    assert ref.row_results(ref.setting_rows(AMY), ref.setting_rows(BOB)) == [1, -1, 1]
    assert chinese.natural(board(AMY).cards) is None and chinese.natural(board(BOB).cards) is None


def test_default_rules_are_1_6():
    assert chinese.score([AMY, BOB]) == [1, -1]
    a, b = np.array([board(AMY).cards]), np.array([board(BOB).cards])
    assert chinese.score_batch(a, b).tolist() == [1]


def test_score_takes_every_setting_form():
    amy, bob = board(AMY), board(BOB)
    expected = [2, -2]
    assert chinese.score([amy, bob], "2-4") == expected
    assert chinese.score([(amy.top, amy.middle, amy.bottom), BOB], "2-4") == expected
    assert chinese.score([tuple(AMY.split(" / ")), BOB], "2-4") == expected
    assert chinese.score([AMY, (bob.top, list(bob.middle), bob.bottom)], "2-4") == expected
    assert chinese.score([[hr.hand_str(r) for r in (amy.top, amy.middle, amy.bottom)], bob],
                         "2-4") == expected

    class Setting:                               # anything with .top, .middle and .bottom
        top, middle, bottom = bob.top, bob.middle, bob.bottom

    assert chinese.score([amy, Setting()], "2-4") == expected
    best = chinese.best_setting(bob.cards)       # a BestSetting has .top/.middle/.bottom too
    assert chinese.score([amy, best], "2-4") == chinese.score([amy, best.board], "2-4")
    assert chinese.Board is ofc.Board


def test_score_needs_two_to_four_players_from_one_deck():
    boards = [ofc.Board.from_cards(range(13 * i, 13 * i + 13)) for i in range(4)]
    for n in (2, 3, 4):
        got = chinese.score(boards[:n])
        assert len(got) == n and sum(got) == 0
    for bad in (boards[:1], [], boards + boards[:1]):
        with pytest.raises(ValueError):
            chinese.score(bad)
    with pytest.raises(ValueError):
        chinese.score([boards[0], boards[0]])     # the same cards twice at one table
    with pytest.raises(ValueError):
        chinese.score([AMY, "6s 2c 3c / 4c 5c 6c 7c 9d / Tc Jc Qc Kc Ac"])   # 6s twice


# four settings from one deck (all 52 cards), and a fifth from the cards of RICH and MIS_SET_2
RICH = "Kc Kd Kh / 2s 3h 4c 5s 6c / 7d 8d 9d Td Jd"              # KKK 3 + straight flush 5: valid
MIS_SET = "9c 9h 9s / 2c 3d 4h 6s 8c / Tc Jc 4s 7h 8h"           # trips over a high card
PLAIN = "2d 3c 4d / 5c 6d 7c Th Js / Ks Qd 5d 2h 3s"             # valid, no royalties
MIS_SET_2 = "Qc Qs Ts / 5h 6h Jh Qh Ah / Ac Ad As 7s 8s"          # a flush over trips
QUADS_MIS_SET = "Kc Kd Kh / 7d 8d 9d Td Jd / Ac Ad Ah As 2s"     # 3 + 10 + 4 if it were valid


@pytest.mark.parametrize("name", PRESETS)
def test_mis_sets(name):
    r = rules(name)
    scoop = ref.SCOOP[r.scoring]
    deck = sorted(c for s in (RICH, MIS_SET, PLAIN, MIS_SET_2) for c in board(s).cards)
    assert deck == list(range(52))
    assert [ref.is_valid(*ref.setting_rows(s)) for s in (RICH, MIS_SET, PLAIN, MIS_SET_2,
                                                           QUADS_MIS_SET)] == [1, 0, 1, 0, 0]
    assert chinese.score([PLAIN, MIS_SET], r) == [scoop, -scoop]
    assert chinese.score([MIS_SET, PLAIN], r) == [-scoop, scoop]
    # the valid hand wins every row and collects all of its royalties, whoever wins them
    assert chinese.score([MIS_SET, RICH], r) == [-(scoop + 8), scoop + 8]
    # a mis-set hand earns nothing, however strong its rows
    assert chinese.score([QUADS_MIS_SET, PLAIN], r) == [-scoop, scoop]
    assert chinese.score([MIS_SET, MIS_SET_2], r) == [0, 0]
    assert chinese.score([QUADS_MIS_SET, MIS_SET], r) == [0, 0]
    # three and four players: each pair on its own
    assert chinese.score([MIS_SET, RICH, PLAIN], r) == ref.score([MIS_SET, RICH, PLAIN], name)
    table = [PLAIN, RICH, MIS_SET, MIS_SET_2]
    got = chinese.score(table, r)
    assert got == ref.score(table, name)
    pairs = {(i, j): chinese.score([table[i], table[j]], r)[0] for i, j in
             itertools.permutations(range(4), 2)}
    assert got == [sum(pairs[i, j] for j in range(4) if j != i) for i in range(4)]
    assert got[2] == -(2 * scoop + 8) and got[3] == -(2 * scoop + 8)


# A (KKK 3, straight, straight flush 5) and B (AA2, full house 2, quads 4): A wins top and bottom
ROY_A = "Kc Kd Kh / 2c 3d 4h 5s 6c / 7c 8c 9c Tc Jc"
ROY_B = "Ac Ad 2d / 9d 9h 9s 5d 5h / Qd Qh Qs Qc 3s"


@pytest.mark.parametrize("name, expected", [
    ("1-6", 1 + 3 - 1 - 2 + 1 + 5),               # each row's winner collects its own royalty
    ("2-4", 1 + 1 + 3 - 2 + 5),                   # rows won minus lost, overall unit, royalties
    ("net-royalties", 1 + (3 + 5) - (2 + 4)),     # royalties as net differences
])
def test_royalties_to_the_winner_or_net(name, expected):
    assert ref.royalties(*ref.setting_rows(ROY_A)) == (3, 0, 5)
    assert ref.royalties(*ref.setting_rows(ROY_B)) == (0, 2, 4)
    assert chinese.score([ROY_A, ROY_B], name) == [expected, -expected]
    assert ref.score([ROY_A, ROY_B], name) == [expected, -expected]


def test_tied_rows_pay_no_royalty():
    # the same 9-high straight flush at the bottom in clubs and hearts: the row ties
    a = "2d 3d 6s / Kc Kd Kh Ks 2c / 5c 6c 7c 8c 9c"        # quads middle (8) wins the middle
    b = "2h 3s 4d / Ac Ad Ah Jc Js / 5h 6h 7h 8h 9h"        # full house (2) loses it; a wins top
    assert ref.row_results(ref.setting_rows(a), ref.setting_rows(b)) == [1, 1, 0]
    # 1-6: 2 rows, no scoop; a's middle royalty 8; the tied bottoms (5 each) pay nothing
    assert chinese.score([a, b], "1-6") == [10, -10]
    # 2-4: 2 rows + overall unit + 8
    assert chinese.score([a, b], "2-4") == [11, -11]
    # net: 2 rows + (8 + 5) - (2 + 5)
    assert chinese.score([a, b], "net-royalties") == [8, -8]
    for name in PRESETS:
        assert chinese.score([a, b], name) == ref.score([a, b], name)
    # a complete tie: the same setting in other suits
    same = board("2c 3h 4c / 5c 6h 7h 9c Tc / Kh Jh 8h 6c 2h")            # clubs and hearts only
    mirror = ofc.Board.from_cards([c ^ 1 for c in same.cards])            # c <-> d, h <-> s
    for name in PRESETS:
        assert chinese.score([same, mirror], name) == [0, 0]


def test_scoops():
    strong = "Ac Ad 2s / Kc Kd Kh 3c 3d / 4s 5s 6s 7s 8s"
    weak = "2c 3h 4h / 5c 6d 7h 9s Tc / Jd 8d 6h 2d Qh"
    # 3 rows + 3 (1-6) or + 1 (2-4), and the full house (2) and straight flush (5) royalties
    assert chinese.score([strong, weak], "1-6") == [6 + 7, -13]
    assert chinese.score([strong, weak], "2-4") == [4 + 7, -11]
    assert chinese.score([strong, weak], "net-royalties") == [13, -13]
    for name in PRESETS:
        assert chinese.score([weak, strong], name) == ref.score([weak, strong], name)


@pytest.mark.parametrize("name", PRESETS)
def test_naturals_at_the_table(name):
    r = rules(name)
    dragon = E("2h 3s 4h 5s 6h 7s 8h 9s Th Js Qh Ks As")
    dragon_mis_set = ofc.Board.from_cards(list(reversed(dragon)))         # A K Q on top: mis-set
    assert not ref.is_valid(*ref.setting_rows(dragon_mis_set.cards))
    six_pairs = "7c 7d Ah / 2c 2d 3c 3d 4c / 4d 5c 5d 6c 6d"             # SIX_PAIRS set any way
    others = [c for c in range(52) if c not in dragon and c not in E(SIX_PAIRS)]
    plain = chinese.best_setting(others[::2][:13]).board                 # valid
    assert ref.natural(plain.cards) is None and ref.is_valid(*ref.setting_rows(plain.cards))
    plain_royalties = sum(ref.royalties(*ref.setting_rows(plain.cards)))
    # a natural is paid at once, whatever either hand is set as
    assert chinese.score([dragon_mis_set, plain], r) == [13, -13]
    assert chinese.score([plain, six_pairs], r) == [-3, 3]
    # between naturals the stronger wins its units
    assert chinese.score([dragon_mis_set, six_pairs], r) == [13, -13]
    assert chinese.score([six_pairs, dragon_mis_set], r) == [-13, 13]
    # three players: each pair separately
    assert chinese.score([six_pairs, plain, dragon_mis_set], r) == [3 - 13, -3 - 13, 26]
    # equal units of different kinds tie; equal six pairs tie; the higher six pairs wins
    flushes = board("2h 5h 9h / 3s 6s 8s Ts Qs / 8d 9d Jd Kd Ad")       # cards not in SIX_PAIRS
    assert chinese.score([six_pairs, flushes], r) == [0, 0]
    same_six = board("7h 7s Ac / 2h 2s 3h 3s 4h / 4s 5h 5s 6h 6s")
    assert chinese.score([six_pairs, same_six], r) == [0, 0]
    higher_six = board("9h 9s Ac / 2h 2s 3h 3s 4h / 4s 5h 5s 6h 6s")
    assert chinese.score([six_pairs, higher_six], r) == [-3, 3]
    # a natural the rules do not pay is an ordinary hand
    no_naturals = r.replace(naturals=())
    loss = r.scoop_units + plain_royalties
    assert chinese.score([dragon_mis_set, plain], no_naturals) == [-loss, loss]
    worth_more = r.replace(naturals={"six pairs": 5, "three flushes": 3})
    assert chinese.score([six_pairs, flushes], worth_more) == [5, -5]
    for settings in ([dragon_mis_set, plain], [six_pairs, flushes], [six_pairs, higher_six],
                     [six_pairs, plain, dragon_mis_set]):
        expected = ref.score([ofc_ref.board_rows(s if isinstance(s, str) else s.cards)
                              for s in settings], name)
        assert chinese.score(settings, r) == expected
    assert ref.score([dragon_mis_set.cards, plain.cards],
                     {**ref.PRESETS[name], "naturals": {}}) == [-loss, loss]


# ----------------------------------------------------------------------------- random tables
def table_deals(rng, n, players):
    """(n, players, 13) settings from one deck per deal: boards set as dealt (mostly mis-set),
    greedily, swapped or with a pair on top (ofc_reference.deal), a quarter of them set by the
    package's best setting (valid, with royalties), and in about one deal in six a natural (in
    one deal in three of those, two)."""
    deals = ofc_ref.deal(rng, n, players)
    best = rng.random((n, players)) < 0.25
    if best.any():
        deals[best] = chinese.best_setting_batch(deals[best], threads=1).boards
    for i in np.flatnonzero(rng.random(n) < 1 / 6):
        hand = ref.natural_hand(rng, ref.NATURAL_KINDS[rng.integers(4)])
        rest = [c for c in rng.permutation(52).tolist() if c not in hand]
        hands = [hand]
        if rng.random() < 1 / 3 and players > 1:
            second = ref.natural_hand(rng, ref.NATURAL_KINDS[rng.integers(4)], rest)
            if second is not None:
                hands.append(second)
                rest = [c for c in rest if c not in second]
        while len(hands) < players:
            hands.append(rest[:13])
            rest = rest[13:]
        for p, h in enumerate(hands):
            deals[i, p] = rng.permutation(h)                # a natural counts however it is set
    return deals


def mirrored_deals(rng, n):
    """2-player deals where the second setting is the first in other suits (c <-> d, h <-> s),
    with middle and bottom swapped half the time: ties on some or every row."""
    halves = np.argsort(rng.random((n, 26)), axis=1)[:, :13]
    first = 4 * (halves // 2) + 2 * (halves % 2)                  # clubs and hearts only
    first = ofc_ref.arrange(first, rng.choice(4, size=n, p=[0.1, 0.5, 0.1, 0.3]), False)
    best = rng.random(n) < 0.3
    first[best] = chinese.best_setting_batch(first[best], threads=1).boards
    second = first ^ 1
    for i in range(0, n, 2):
        second[i, 3:] = np.concatenate([second[i, 8:], second[i, 3:8]])
    return np.stack([first, second], axis=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_score_random_deals_against_reference(players):
    rng = np.random.default_rng(300 + players)
    deals = table_deals(rng, {2: 450, 3: 350, 4: 250}[players], players)
    if players == 2:
        deals = np.concatenate([deals, mirrored_deals(rng, 50)])
    seen = dict(mis_set=0, natural=0, two_naturals=0, royalties=0, scoop=0, tie=0)
    for k, deal in enumerate(deals):
        boards = [ofc.Board.from_cards(b) for b in deal]
        forms = [boards, [str(b) for b in boards],
                 [(b.top, b.middle, b.bottom) for b in boards]][k % 3]
        settings = [b.tolist() for b in deal]
        for name in PRESETS:
            got = chinese.score(forms, name)
            assert got == ref.score(settings, name), (name, [str(b) for b in boards])
            assert sum(got) == 0 and all(type(x) is int for x in got)
        rows_ = [ref.setting_rows(s) for s in settings]
        naturals = [ref.natural(s) for s in settings]
        valid = [ref.is_valid(*r) for r in rows_]
        seen["natural"] += any(naturals)
        seen["two_naturals"] += sum(x is not None for x in naturals) >= 2
        seen["mis_set"] += any(valid) and not all(valid)
        seen["royalties"] += any(v and any(ref.royalties(*r)) for v, r in zip(valid, rows_))
        for i, j in itertools.combinations(range(players), 2):
            if valid[i] and valid[j] and not naturals[i] and not naturals[j]:
                result = ref.row_results(rows_[i], rows_[j])
                seen["scoop"] += abs(sum(result)) == 3
                seen["tie"] += 0 in result
    # every case came up (ties between random hands are rare: the mirrored deals make them)
    assert min(v for k, v in seen.items() if k != "tie" or players == 2) >= 3, seen


def test_score_custom_rules_against_reference():
    custom = dict(scoring="2-4", royalties_to_winner=False,
                  top_royalties={"66": 1, "QQ": 2, "222": 5, "TTT": 7},
                  middle_royalties={"pair": 1, "straight": 3, "full house": 6},
                  bottom_royalties={"two pair": 1, "flush": 2, "straight flush": 0},
                  naturals={"six pairs": 7, "three flushes": 2})
    r = chinese.Rules(**ref.rules_kwargs(custom))
    rng = np.random.default_rng(310)
    for players in (2, 3, 4):
        for deal in table_deals(rng, 120, players):
            settings = [b.tolist() for b in deal]
            assert chinese.score([ofc.Board.from_cards(b) for b in deal], r) == \
                ref.score(settings, custom)
    custom["royalties_to_winner"] = True
    custom["scoring"] = "1-6"
    r = chinese.Rules(**ref.rules_kwargs(custom))
    for deal in table_deals(rng, 200, 2):
        assert chinese.score([ofc.Board.from_cards(b) for b in deal], r) == \
            ref.score([b.tolist() for b in deal], custom)
    # a natural worth 1 unit still replaces the rows; different kinds worth the same tie
    custom = dict(naturals={"six pairs": 1, "three flushes": 3, "three straights": 3, "dragon": 3})
    r = chinese.Rules(**ref.rules_kwargs(custom))
    deals = table_deals(rng, 600, 2)
    expected = [ref.pair_points(a.tolist(), b.tolist(), custom) for a, b in deals]
    assert chinese.score_batch(deals[:, 0], deals[:, 1], r).tolist() == expected
    held = [[ref.natural(hand.tolist(), custom) for hand in deal] for deal in deals]
    assert sum(a is not None and b is not None for a, b in held) >= 3
    assert sum(a is not None and a.units == 1 for a, _ in held) >= 3


# ----------------------------------------------------------------------------- score_batch
def test_compiled_natural_kinds_match_reference():
    # the batch scorer reports each hand's naturals (a's in the low 4 bits, b's in the high ones,
    # in the order of NATURALS); it must see exactly the kinds the reference sees
    from handrank._threerow import _kernel
    from handrank._threerow.board import pair_scores
    from handrank.chinese.rules import solver_tables

    rng = np.random.default_rng(330)
    a = [ref.natural_hand(rng, kind) for kind in chinese.NATURALS for _ in range(150)]
    a += hr.random_hands(2000, 13, seed=331).tolist()
    b = [rng.permutation([c for c in range(52) if c not in hand])[:13].tolist() for hand in a]
    _, naturals, _, _ = pair_scores(solver_tables(chinese.Rules()), _kernel.SCORE_CHINESE_1_6, True,
                                    a, b, 1, "test")
    for hand_a, hand_b, bits in zip(a, b, naturals.tolist()):
        for hand, kinds in ((hand_a, bits & 15), (hand_b, bits >> 4)):
            seen = {kind for i, kind in enumerate(chinese.NATURALS) if kinds >> i & 1}
            assert seen == ref.natural_kinds(hand), hr.hand_str(hand)


@pytest.mark.parametrize("name", PRESETS)
def test_score_batch_equals_score(name):
    rng = np.random.default_rng(320 + PRESETS.index(name))
    deals = table_deals(rng, 1500, 2)
    a, b = deals[:, 0], deals[:, 1]
    expected = [chinese.score([ofc.Board.from_cards(x), ofc.Board.from_cards(y)], name)[0]
                for x, y in zip(a, b)]
    for threads in (1, 2):
        got = chinese.score_batch(a, b, name, threads=threads)
        assert got.dtype == np.int32 and got.shape == (len(a),)
        assert got.tolist() == expected
        assert chinese.score_batch(b, a, name, threads=threads).tolist() == [-x for x in expected]
    # other integer types and lists
    assert chinese.score_batch(a.astype(np.int64), b.astype(np.int16), name).tolist() == expected
    assert chinese.score_batch(a[:5].tolist(), b[:5].tolist(), name).tolist() == expected[:5]
    # and spot checks against the reference
    for i in range(0, len(a), 10):
        assert expected[i] == ref.pair_points(a[i].tolist(), b[i].tolist(), name)


def test_score_batch_bad_input():
    good = np.array([board(AMY).cards, board(PLAIN).cards, board(RICH).cards], dtype=np.uint8)
    other = np.array([board(BOB).cards, board(MIS_SET).cards,
                      board("2c 2h 3c / 4d 5d 6d 7s 8s / As Ah Ac Ad Qs").cards], dtype=np.uint8)
    assert chinese.score_batch(good, other).shape == (3,)
    with pytest.raises(ValueError):
        chinese.score_batch(good[:, :12], other[:, :12])            # 12 cards
    with pytest.raises(ValueError):
        chinese.score_batch(good.ravel(), other.ravel())            # 1-D
    with pytest.raises(ValueError):
        chinese.score_batch(good, other[:2])                        # shapes differ
    with pytest.raises(TypeError):
        chinese.score_batch(good.astype(np.float64), other)
    with pytest.raises(TypeError):
        chinese.score_batch(good, other.astype(np.float32))
    for dtype in (np.int64, np.uint8):
        bad = good.astype(dtype)
        bad[1, 4] = 52
        with pytest.raises(ValueError, match="row 1"):
            chinese.score_batch(bad, other)
    bad = good.astype(np.int32)
    bad[2, 0] = -1
    with pytest.raises(ValueError, match="row 2"):
        chinese.score_batch(other, bad)
    bad = other.copy()
    bad[2, 12] = bad[2, 0]                                          # a card twice in a row
    with pytest.raises(ValueError, match="row 2 of b"):
        chinese.score_batch(good, bad)
    with pytest.raises(ValueError, match="row 2 of a"):
        chinese.score_batch(bad, good)
    bad = good.copy()
    bad[0, 3] = bad[0, 9]
    with pytest.raises(ValueError, match="row 0 of a"):
        chinese.score_batch(bad, other, threads=2)
    with pytest.raises(ValueError):
        chinese.score_batch(good, other, threads=0)
    with pytest.raises(TypeError):
        chinese.score_batch(good, other, rules=3)
    empty = np.zeros((0, 13), dtype=np.uint8)
    assert chinese.score_batch(empty, empty).shape == (0,)


# ============================================================================= row tables
def test_row_tables_sanity(cache_dir):
    t = chinese.row_tables()
    size = rows.MAX_VALUE + 1
    for table in (t.win, t.lose, t.beaten_royalty):
        assert table.shape == (3, size) and table.dtype == np.float64
    assert t.mean_royalty.shape == (3,) and t.opponents == 20_000
    eps = 1e-12
    assert ((t.win >= -eps) & (t.lose >= -eps) & (t.win + t.lose <= 1 + eps)).all()
    # monotone in the row value: a stronger row wins at least as often and loses at most as often
    assert (np.diff(t.win, axis=1) >= -eps).all()
    assert (np.diff(t.lose, axis=1) <= eps).all()
    assert (np.diff(t.beaten_royalty, axis=1) <= eps).all() and (t.beaten_royalty >= -eps).all()
    assert np.allclose(t.beaten_royalty[:, 0], t.mean_royalty)
    assert np.allclose(t.win[:, 0], 0) and np.allclose(t.lose[:, -1], 0)
    # the opponents' rows: 1 - win - lose is the chance of a tie, which is where they are; the top
    # row only holds 3-card values, the others only 5-card values
    mass = 1.0 - t.win - t.lose
    assert np.allclose(mass.sum(axis=1), 1.0)
    counts = mass * t.opponents
    assert np.allclose(counts, np.round(counts), atol=1e-6)
    three = np.zeros(size, dtype=bool)
    three[[rows.from_high3(v) for v in range(1, high3.MAX_VALUE + 1)]] = True
    assert np.allclose(mass[0, ~three], 0) and np.allclose(mass[1:, three], 0)
    # the opponents set their rows in order, so on average bottom >= middle >= top
    centres = (mass * np.arange(size)).sum(axis=1)
    assert centres[0] < centres[1] < centres[2]
    # royalties only come from rows that earn them: on top only trips (3 units each)
    first_trips = rows.from_high3(high3.evaluate(E("2c 2d 2h")))
    aces = rows.from_high3(high3.evaluate(E("Ac Ad Ah")))
    assert np.allclose(t.beaten_royalty[0, :first_trips], t.mean_royalty[0])
    assert np.allclose(t.beaten_royalty[0, aces:], 0)
    assert np.isclose(t.mean_royalty[0], 3 * mass[0, first_trips:].sum())
    assert 0 < t.mean_royalty[0] < 3 and (t.mean_royalty >= 0).all()
    # the opponent model depends on the royalty tables alone
    for name in PRESETS:
        other = chinese.row_tables(name)
        assert np.array_equal(other.win, t.win) and np.array_equal(other.lose, t.lose)
    # built once, and kept in the cache directory chosen by HANDRANK_CACHE_DIR
    assert list(cache_dir.glob("chinese-rows-*.npy"))
