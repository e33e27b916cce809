"""Chinese poker, what the seeds add (RULES.md "Decisions added after review", seeds/001): surrender,
the natural variants, one royalty per hand, royalties to the winner or cancelling out, and the wheel
as the second-highest straight; each against its seed example and the independent oracle
tests/chinese_reference.py on random sets."""
import dataclasses
import itertools

import numpy as np
import pytest

import chinese_reference as ref
import doc_pages
import handrank as hr
import ofc_reference as ofc_ref
from handrank import chinese, ofc

E = hr.cards
NEW_FIELDS = ("surrender_allowed", "surrender", "one_royalty", "wheel_second", "low_middle",
              "middle_low_royalties", "scoop_bonus", "mis_set_played")   # (issue 28's: test_chinese_seed_rules)
ALL_VARIANTS = tuple((kind, 3) for kind in chinese.NATURAL_VARIANTS)

# Amy and Bob of seeds/001 ("Example"): Amy wins the front and the back, Bob the middle
AMY = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
BOB = "Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s"
# top trips (3 units), middle quads (8), bottom straight flush (5); and a plain hand it scoops
RICH = "Qs Qh Qd / 4c 4d 4s 4h 2c / 9h 8h 7h 6h 5h"
PLAIN = "Ac Kd 2d / 9c 9d 3c 3d 8c / Tc Td Th Jc Jd"


def rules(**changes):
    return chinese.Rules().replace(**changes)


def board(text):
    return ofc.Board.parse(text)


# ============================================================================= the rules
def test_new_fields_are_last_and_default_to_todays_rules():
    names = [f.name for f in dataclasses.fields(chinese.Rules)]
    assert tuple(names[-len(NEW_FIELDS):]) == NEW_FIELDS
    r = chinese.Rules()
    assert (r.surrender_allowed, r.surrender, r.one_royalty, r.wheel_second) == (False, 3, False, False)
    assert (r.low_middle, r.middle_low_royalties, r.scoop_bonus, r.mis_set_played) == (False, (), None, False)
    assert r.naturals == tuple(ref.NATURALS.items())            # no variant natural is paid
    assert chinese.NATURALS == ("dragon", "three straights", "three flushes", "six pairs")
    assert chinese.NATURAL_VARIANTS == ref.VARIANT_NATURALS
    assert chinese.Rules.presets() == ("1-6", "2-4", "net-royalties", "surrender", "variant-naturals",
                                       "no-broadway", "one-royalty", "wheel-second", "low-middle",
                                       "scoop-unit", "mis-set-played")
    for name in chinese.Rules.presets():
        assert chinese.Rules(**ref.rules_kwargs(name)) == chinese.Rules.preset(name)


@pytest.mark.parametrize("changes, error, field", [
    (dict(surrender="3"), TypeError, "Rules.surrender"),
    (dict(surrender=True), TypeError, "Rules.surrender"),
    (dict(surrender_allowed=True, surrender=1), ValueError, "Rules.surrender"),
    (dict(surrender_allowed=True, surrender=6), ValueError, "Rules.surrender"),
    (dict(surrender_allowed=True, scoring="2-4", surrender=2), ValueError, "Rules.surrender"),
    (dict(surrender_allowed=True, scoring="2-4", surrender=4), ValueError, "Rules.surrender"),
    (dict(surrender_allowed=1), TypeError, "Rules.surrender_allowed"),
    (dict(one_royalty="yes"), TypeError, "Rules.one_royalty"),
    (dict(wheel_second=None), TypeError, "Rules.wheel_second"),
    (dict(naturals=(("no aces", 3),)), ValueError, "Rules.naturals"),
    (dict(naturals=(("six and above", 0),)), ValueError, "Rules.naturals"),
    (dict(naturals=(("six and above", 3), ("six and above", 4))), ValueError, "Rules.naturals"),
    (dict(naturals=(("no broadway cards", 1001),)), ValueError, "Rules.naturals"),
])
def test_bad_fields_name_the_field(changes, error, field):
    with pytest.raises(error, match=field):
        chinese.Rules(**changes)


def test_surrender_range_is_the_seeds_bound():
    """seeds/001: "If a player chooses to surrender their hand, they will pay an amount greater
    than the amount paid when losing 2 out of 3 hands, but less than the amount paid when getting
    scooped (losing all three hands)." The allowed amounts are exactly those between what
    `score` charges for losing two rows (winning the third) and for a scoop."""
    # AMY wins front and back from BOB; a setting of Bob's cards that beats her every row does not
    # exist, so a scoop is a mis-set Bob against Amy without royalties
    mis_set = "Ks Js 9s / 9h 9d 5h 5d 4c / Ah Kd Qd 8s 7s"
    for scoring in ("1-6", "2-4"):
        plain = rules(scoring=scoring)
        lose_two = -chinese.score([BOB, AMY], plain)[0]
        scooped = -chinese.score([mis_set, AMY], plain)[0]
        assert ref.row_results(ref.setting_rows(BOB), ref.setting_rows(AMY)) == [-1, 1, -1]
        assert (lose_two, scooped) == ({"1-6": 1, "2-4": 2}[scoring], ref.SCOOP[scoring])
        allowed = []
        for units in range(-2, 10):
            try:
                chinese.Rules(scoring=scoring, surrender=units, surrender_allowed=True)
                allowed.append(units)
            except ValueError:
                pass
        assert allowed == list(range(lose_two + 1, scooped))
        # (an amount never paid is not checked: a scoop bonus of 0 leaves none under 1-6 but 2)
        assert chinese.Rules(scoring=scoring, surrender=units).surrender == units
        surrender = rules(scoring=scoring, surrender_allowed=True)
        paid = -chinese.score([BOB, AMY], surrender, surrendered=[0])[0]
        assert lose_two < paid == 3 < scooped


# ============================================================================= surrender
def test_surrender_pays_no_royalties():
    """seeds/001: "When surrendered, a player is not required to pay any royalties to their
    opponents." Nor does the surrendering player collect any (RULES.md)."""
    r = rules(surrender_allowed=True)
    rich, other = RICH, PLAIN
    assert chinese.royalties(rich) == (3, 8, 5)
    assert chinese.score([rich, other], r, surrendered=[1]) == [3, -3]
    assert chinese.score([rich, other], r, surrendered=[0]) == [-3, 3]
    assert chinese.score([rich, other], r, surrendered=[0, 1]) == [0, 0]
    assert chinese.score([rich, other], r.replace(surrender=5), surrendered={1}) == [5, -5]
    assert chinese.score([rich, other], r) == chinese.score([rich, other]) == [6 + 16, -22]


def test_naturals_are_paid_before_anyone_surrenders():
    """seeds/001: "Naturals are special types of royalties where if dealt to a player, the player
    is rewarded immediately (prior to anyone surrendering)"."""
    r = rules(surrender_allowed=True)
    dragon = "2c 3d 4h / 5s 6c 7d 8h 9s / Tc Jd Qh Ks Ac"
    plain = "Ah Kd 2d / 9c 9d 4c 4d 3c / Th Td 5h 5d 2s"
    third = "As Ad 3s / Kc Kh Qd Qs Jc / Jh Js 8c 8d 6d"
    assert chinese.natural(dragon.replace("/", "")).kind == "dragon"
    for gave_up in ([1], [0], [0, 1], [1, 2], [2], [0, 1, 2]):
        got = chinese.score([dragon, plain, third], r, surrendered=gave_up)
        assert got == ref.score([dragon, plain, third], ref.rules_dict(r), set(gave_up))
        assert got[0] == 26                                   # 13 from each, surrender or not
    assert chinese.score([dragon, plain, third], r, surrendered=[1]) == [26, -13 - 3, -13 + 3]


def test_surrender_errors_change_nothing():
    r = rules(surrender_allowed=True)
    with pytest.raises(ValueError, match="surrender_allowed"):
        chinese.score([AMY, BOB], surrendered=[0])
    with pytest.raises(ValueError, match="no player 2"):
        chinese.score([AMY, BOB], r, surrendered=[2])
    with pytest.raises(TypeError, match="player indices"):
        chinese.score([AMY, BOB], r, surrendered=[True])
    with pytest.raises(TypeError, match="collection"):
        chinese.score([AMY, BOB], r, surrendered=0)
    a, b = E(AMY.replace("/", "")), E(BOB.replace("/", ""))
    with pytest.raises(TypeError, match="surrendered_a.*bool"):
        chinese.score_batch([a], [b], r, surrendered_a=np.array([1]))
    with pytest.raises(ValueError, match=r"surrendered_b.*shape \(1,\)"):
        chinese.score_batch([a], [b], r, surrendered_b=np.array([True, False]))
    with pytest.raises(ValueError, match="row 0 surrendered.*surrender_allowed"):
        chinese.score_batch([a], [b], surrendered_a=np.array([True]))
    assert chinese.score_batch([a], [b], surrendered_a=np.array([False])).tolist() == [1]


def random_tables(rng, n, players, natural_kinds):
    """(n, players, 13) settings of one deck each (ofc_reference.deal), some with a natural."""
    deals = ofc_ref.deal(rng, n, players)
    for i in np.flatnonzero(rng.random(n) < 0.2):
        hand = ref.natural_hand(rng, natural_kinds[rng.integers(len(natural_kinds))])
        rest = [c for c in rng.permutation(52).tolist() if c not in hand]
        deals[i, 0] = hand
        deals[i, 1:] = np.array(rest[:13 * (players - 1)]).reshape(players - 1, 13)
    return deals


@pytest.mark.parametrize("scoring", ["1-6", "2-4"])
def test_surrender_tables_against_reference(scoring):
    rng = np.random.default_rng(2100 + len(scoring))
    r = rules(scoring=scoring, surrender_allowed=True, naturals=ref.NATURALS | dict(ALL_VARIANTS),
              surrender={"1-6": 4, "2-4": 3}[scoring])
    kinds = ref.NATURAL_KINDS + ref.VARIANT_NATURALS
    for players in (2, 3, 4):
        for deal in random_tables(rng, 150, players, kinds):
            gave_up = {p for p in range(players) if rng.random() < 0.35}
            got = chinese.score(list(deal), r, surrendered=sorted(gave_up))
            assert got == ref.score(list(deal), ref.rules_dict(r), gave_up), (deal.tolist(), gave_up)
            assert sum(got) == 0


def test_score_batch_surrender_flags_against_reference():
    rng = np.random.default_rng(2110)
    r = rules(surrender_allowed=True)
    deals = random_tables(rng, 1200, 2, ref.NATURAL_KINDS)
    flags = rng.random((1200, 2)) < 0.3
    got = chinese.score_batch(deals[:, 0], deals[:, 1], r, surrendered_a=flags[:, 0],
                              surrendered_b=flags[:, 1])
    want = [ref.pair_points(a.tolist(), b.tolist(), ref.rules_dict(r), tuple(f))
            for a, b, f in zip(deals[:, 0], deals[:, 1], flags.tolist())]
    assert got.tolist() == want


# ============================================================================= natural variants
VARIANT_EXAMPLES = {
    # seeds/001 "Naturals variants": "- No picture cards (Ace counts as a non-picture card)"
    "no picture cards": ("Ac Ad Ah 2c 3d 4h 5s 6c 7d 8h 9s Tc Td", "Ac Ad Ah 2c 3d 4h 5s 6c 7d 8h 9s Tc Jd"),
    # "- Six and above (Ace counts as above)"
    "six and above": ("As Ks Qs Js Ts 9s 8s 7s 6s Ad Kd Qd 6d", "As Ks Qs Js Ts 9s 8s 7s 6s Ad Kd Qd 5d"),
    # "- 12 or 13 of one colour" (hearts and diamonds red, clubs and spades black)
    "12 of one colour": ("2h 3h 4h 5h 6h 7h 2d 3d 4d 5d 6d 7d 8c", "2h 3h 4h 5h 6h 7h 2d 3d 4d 5d 6d 7c 8c"),
    "13 of one colour": ("2c 3c 4c 5c 6c 7c 8c 2s 3s 4s 5s 6s 7s", "2c 3c 4c 5c 6c 7c 8c 2s 3s 4s 5s 6s 7h"),
    # the royalty table: "No Broadway Cards* | 3 |" (no T, J, Q, K or A)
    "no broadway cards": ("2c 2d 3h 4s 5c 6d 7h 8s 9c 9d 3c 4c 5d", "2c 2d 3h 4s 5c 6d 7h 8s 9c 9d 3c 4c Td"),
}


@pytest.mark.parametrize("kind", ref.VARIANT_NATURALS)
def test_variant_natural_seed_examples(kind):
    """Each variant of seeds/001 (lines quoted in VARIANT_EXAMPLES): a hand that holds it and one
    card away that does not; off by default, paid with its units when listed."""
    holds, misses = VARIANT_EXAMPLES[kind]
    assert chinese.natural(holds) is None or chinese.natural(holds).kind != kind   # off by default
    r = rules(naturals=((kind, 5),))
    found = chinese.natural(holds, r)
    assert (found.kind, found.units, found.setting, found.key) == (kind, 5, None, ())
    assert chinese.natural(misses, r) is None
    assert kind in ref.variant_kinds(holds) and kind not in ref.variant_kinds(misses)
    # paid at once against a hand without one, whatever the settings
    rng = np.random.default_rng(len(kind))
    rest = None
    while rest is None or ref.natural(rest, ref.rules_dict(r)) is not None:
        rest = rng.permutation([c for c in range(52) if c not in E(holds)])[:13].tolist()
    assert chinese.score_batch([E(holds)], [rest], r).tolist() == [5]
    assert chinese.score_batch([rest], [E(holds)], r).tolist() == [-5]
    assert chinese.score_batch([E(holds)], [rest]).tolist() == [ref.pair_points(E(holds), rest)]


def test_thirteen_of_one_colour_is_also_twelve():
    r = rules(naturals=(("12 of one colour", 3), ("13 of one colour", 6)))
    thirteen = VARIANT_EXAMPLES["13 of one colour"][0]
    assert chinese.natural(thirteen, r).kind == "13 of one colour"
    assert chinese.natural(thirteen, rules(naturals=(("12 of one colour", 3),))).kind == "12 of one colour"


def test_two_of_the_same_variant_tie():
    r = rules(naturals=(("no broadway cards", 3),))
    a = E("2c 2d 3h 4s 5c 6d 7h 8s 9c 9d 3c 4c 5d")
    b = E("2h 2s 3d 3s 4d 4h 5h 5s 6c 6h 7c 7d 8c")
    assert chinese.compare_naturals(chinese.natural(a, r), chinese.natural(b, r)) == 0
    assert chinese.score_batch([a], [b], r).tolist() == [0]


def variant_rule_sets(rng):
    """Rules paying the variants with assorted units beside (or instead of) the standard ones."""
    out = [rules(naturals=ref.NATURALS | dict(ALL_VARIANTS) | {"13 of one colour": 6})]
    for _ in range(4):
        kinds = [k for k in ref.NATURAL_KINDS + ref.VARIANT_NATURALS if rng.random() < 0.6]
        out.append(rules(naturals=tuple((k, int(rng.integers(1, 15))) for k in kinds),
                         scoring=("1-6", "2-4")[int(rng.integers(2))]))
    return out


def test_variant_naturals_against_reference():
    rng = np.random.default_rng(2120)
    hands = [ref.natural_hand(rng, kind) for kind in ref.VARIANT_NATURALS for _ in range(40)]
    hands += [ref.natural_hand(rng, kind) for kind in ref.NATURAL_KINDS for _ in range(10)]
    hands += hr.random_hands(400, 13, seed=2121).tolist()
    seen = set()
    for r in variant_rule_sets(rng):
        for hand in hands:
            got, want = chinese.natural(hand, r), ref.natural(hand, ref.rules_dict(r))
            assert (got is None) == (want is None), hr.hand_str(hand)
            if got is not None:
                assert (got.kind, got.units) == (want.kind, want.units), hr.hand_str(hand)
                seen.add(got.kind)
    assert seen >= set(ref.VARIANT_NATURALS)


def test_variant_naturals_score_batch_against_reference():
    rng = np.random.default_rng(2130)
    kinds = ref.NATURAL_KINDS + ref.VARIANT_NATURALS
    deals = random_tables(rng, 600, 2, kinds)
    swap = rng.random(600) < 0.5
    deals[swap] = deals[swap][:, ::-1]
    for r in variant_rule_sets(rng):
        got = chinese.score_batch(deals[:, 0], deals[:, 1], r, threads=2)
        want = [ref.pair_points(a.tolist(), b.tolist(), ref.rules_dict(r)) for a, b in deals]
        assert got.tolist() == want


# ============================================================================= royalties
def test_royalties_to_the_winner_or_cancelling_out():
    """seeds/001: "Normally only the winner may be awarded a royalty (e.g., four sevens in the back
    beats four sixes in the back; therefore, only the player with sevens is awarded a royalty).
    Some modified rule sets allow the royalty bonus to cancel out and only the point for the
    hand/row is added." (royalties_to_winner, the "net-royalties" preset)"""
    sevens = "Ad Kd 2h / Jc Jd 9c 9d 3c / 7c 7d 7h 7s 5c"
    sixes = "Ac Kc 2s / Jh Js 9h 9s 4c / 6c 6d 6h 6s 5d"
    assert ref.row_results(ref.setting_rows(sevens), ref.setting_rows(sixes)) == [0, -1, 1]
    winner = chinese.score([sevens, sixes])[0]
    cancel = chinese.score([sevens, sixes], "net-royalties")[0]
    assert winner - cancel == 4                      # the sevens' quads royalty; the sixes' cancels
    assert [winner, cancel] == [ref.score([sevens, sixes])[0], ref.score([sevens, sixes], "net-royalties")[0]]


def test_one_royalty_per_hand_seed_example():
    """seeds/001: "Some rules say that players are only allowed to claim one royalty per hand."
    (RULES.md: a hand collects only its largest royalty.)"""
    rich, other = RICH, PLAIN                # trips 3, quads 8, straight flush 5; nothing
    r = rules(one_royalty=True)
    assert chinese.royalties(rich) == (3, 8, 5)
    assert chinese.royalties(rich, r) == (0, 8, 0)
    # rich wins every row: 6 and only the middle's 8, not 16
    assert chinese.score([rich, other], r) == [6 + 8, -14]
    assert chinese.score([rich, other], r.replace(royalties_to_winner=False)) == [14, -14]
    assert chinese.evaluate_batch([E(rich.replace("/", ""))], r).royalties.tolist() == [[0, 8, 0]]
    # equal royalties: the bottom's is kept
    even = rules(one_royalty=True, middle_royalties=(("quads", 5),), bottom_royalties=(("straight flush", 5),))
    assert chinese.royalties(rich, even) == (0, 0, 5)


@pytest.mark.parametrize("scoring, to_winner", list(itertools.product(("1-6", "2-4"), (True, False))))
def test_one_royalty_scores_against_reference(scoring, to_winner):
    rng = np.random.default_rng(2140 + 2 * len(scoring) + to_winner)
    r = rules(scoring=scoring, royalties_to_winner=to_winner, one_royalty=True,
              middle_royalties=(("trips", 2), ("full house", 4), ("quads", 8)),
              bottom_royalties=(("flush", 1), ("full house", 2), ("quads", 4), ("straight flush", 5)))
    deals = ofc_ref.deal(rng, 800, 2)
    best = rng.random((800, 2)) < 0.4
    deals[best] = chinese.best_setting_batch(deals[best], threads=1).boards
    got = chinese.score_batch(deals[:, 0], deals[:, 1], r)
    want = [ref.pair_points(a.tolist(), b.tolist(), ref.rules_dict(r)) for a, b in deals]
    assert got.tolist() == want
    found = chinese.evaluate_batch(deals.reshape(-1, 13), r)
    want_roy = [ref.royalties(*ref.setting_rows(s.tolist()), rules=ref.rules_dict(r)) for s in deals.reshape(-1, 13)]
    assert found.royalties.tolist() == [list(x) for x in want_roy]


def royalty_hands(rng, count):
    return [ref.royalty_rich_hand(rng, i) for i in range(count)]


def test_one_royalty_best_setting_against_brute_force():
    rng = np.random.default_rng(2150)
    r = rules(one_royalty=True, top_royalties=(("66", 1), ("QQ", 4), ("222", 6)),
              middle_royalties=(("straight", 2), ("flush", 4), ("full house", 6), ("quads", 8)),
              bottom_royalties=(("flush", 3), ("full house", 5), ("quads", 7)))
    hands = royalty_hands(rng, 24)
    got = chinese.best_setting_batch(hands, r)
    for hand, boards, value in zip(hands, got.boards, got.value):
        want = ref.brute_force(hand, ref.rules_dict(r))
        assert (tuple(boards[:3]), tuple(boards[3:8]), tuple(boards[8:])) == (want["top"], want["middle"], want["bottom"])
        assert value == want["value"]
    assert chinese.best_setting(hands[0], r).value == got.value[0]


# ============================================================================= the wheel
WHEEL_MIDDLE = "Kc Kd 2h / As 2s 3d 4c 5h / 9c Tc Jd Qh Ks"      # middle wheel, bottom K-high straight


def test_wheel_second_seed_example():
    """seeds/001: "In this variation, The Wheel (A, 2, 3, 4, 5) is the second highest straight.
    Therefore, it is ranked above a 9, 10, J, Q, K straight, but below a 10, J, Q, K, A straight."
    """
    r = rules(wheel_second=True)
    a = "Qc Qd 2c / 7c 7d 9h 9d 4h / As 2s 3d 4c 5h"           # a wheel behind
    b = "Jc Jd 3c / 8c 8d 6h 6d 5d / 9c Tc Jh Qh Ks"           # the K-high straight
    c = "Jc Jd 3c / 8c 8d 6h 6d 5d / Tc Jh Qh Ks Ad"           # the A-high straight
    assert ref.row_results(ref.setting_rows(a), ref.setting_rows(b)) == [1, 1, -1]
    assert ref.row_results(ref.setting_rows(a), ref.setting_rows(b), True) == [1, 1, 1]
    assert chinese.score([a, b], r)[0] == 6                           # a scoop
    assert chinese.score([a, b])[0] == 1                              # by default the wheel is lowest
    assert chinese.score([a, c], r)[0] == chinese.score([a, c])[0] == 1
    # a wheel in the middle over a K-high straight is now a mis-set
    assert not chinese.is_mis_set(WHEEL_MIDDLE)
    assert chinese.evaluate_batch([E(WHEEL_MIDDLE.replace("/", ""))], r).mis_set.tolist() == [True]
    assert not ref.is_valid(*ref.setting_rows(WHEEL_MIDDLE), wheel_second=True)
    # steel wheels too: above the K-high straight flush, below the royal
    steel, king_sf = E("Ah 2h 3h 4h 5h"), E("9s Ts Js Qs Ks")
    d = "Qc Qd 2c / 7c 7d 9h 9d 4c / " + hr.hand_str(steel)
    e = "Jc Jd 3c / 8c 8d 6h 6d 5d / " + hr.hand_str(king_sf)
    assert chinese.score([d, e], r)[0] == 6 + 5                      # a scoop and the royalty
    assert chinese.score([d, e])[0] == 1 - 5


def straight_rich_hand(rng, i):
    """13 cards from the ranks of the wheel and of Broadway (many wheels, K- and A-high straights);
    every third hand from two suits (steel wheels)."""
    ranks = [12, 0, 1, 2, 3, 4, 8, 9, 10, 11]
    suits = rng.choice(4, size=2, replace=False) if i % 3 == 2 else range(4)
    deck = [4 * r + s for r in ranks for s in suits]
    return [int(c) for c in rng.choice(deck, size=13, replace=False)]


STRAIGHT_ROYALTIES = dict(middle_royalties=(("straight", 2), ("flush", 4), ("full house", 6),
                                            ("straight flush", 10)),
                          bottom_royalties=(("straight", 1), ("flush", 2), ("straight flush", 5)))


@pytest.mark.parametrize("objective", ["royalties", "ev", "callable"])
def test_wheel_second_best_settings_against_brute_force(objective):
    rng = np.random.default_rng(2160 + len(objective))
    r = rules(wheel_second=True, **STRAIGHT_ROYALTIES)
    hands = [straight_rich_hand(rng, i) for i in range(18)]
    tables = chinese.row_tables(r) if objective == "ev" else None
    if objective == "callable":
        def objective_fn(values):
            return (values[:, 1] % 7) + values[:, 2] // 1000
        obj = objective_fn
    else:
        obj = objective
    got = chinese.best_setting_batch(hands, r, obj, threads=1)
    differs = 0
    for hand, boards, value in zip(hands, got.boards, got.value):
        want = ref.brute_force(hand, ref.rules_dict(r), obj, tables)
        assert (tuple(boards[:3]), tuple(boards[3:8]), tuple(boards[8:])) == (want["top"], want["middle"], want["bottom"]), hr.hand_str(hand)
        assert value == pytest.approx(want["value"], abs=1e-9)
        plain = ref.brute_force(hand, ref.rules_dict(r.replace(wheel_second=False)), obj,
                                chinese.row_tables(r.replace(wheel_second=False)) if tables else None)
        differs += (plain["top"], plain["middle"], plain["bottom"]) != (want["top"], want["middle"], want["bottom"])
    assert differs > 0                               # the rule changes some best settings


def test_wheel_second_settings_and_values():
    rng = np.random.default_rng(2170)
    r = rules(wheel_second=True)
    for i in range(6):
        hand = straight_rich_hand(rng, i)
        assert np.array_equal(chinese.settings(hand, r), ref.valid_settings(hand, wheel_second=True))
        assert np.array_equal(chinese.settings(hand), ref.valid_settings(hand))
    # evaluate_batch reports row values on the rules' scale: the wheel just below the ace-high
    rows = np.array([E("Kc Kd 2h As 2s 3d 4c 5h 9c Tc Jd Qh Ks"),
                     E("Kc Kd 2h 9c Tc Jd Qh Ks As 2s 3d 4c 5h")], dtype=np.uint8)
    values = chinese.evaluate_batch(rows, r).values
    assert values[0, 1] == values[1, 2] == hr.rows.value(E("Tc Jd Qh Ks Ad")) - 1
    assert values[0, 2] == values[1, 1] == hr.rows.value(E("9c Tc Jd Qh Ks")) - 1


@pytest.mark.parametrize("scoring", ["1-6", "2-4"])
def test_wheel_second_scores_against_reference(scoring):
    rng = np.random.default_rng(2180 + len(scoring))
    r = rules(scoring=scoring, wheel_second=True, **STRAIGHT_ROYALTIES)
    n = 600
    # two hands of one deck: the second from what the first leaves
    a = np.array([straight_rich_hand(rng, i) for i in range(n)], dtype=np.uint8)
    b = np.array([rng.permutation([c for c in range(52) if c not in set(h.tolist())])[:13] for h in a],
                 dtype=np.uint8)
    a = np.where((rng.random(n) < 0.5)[:, None], chinese.best_setting_batch(a, r, threads=1).boards, a)
    b = np.where((rng.random(n) < 0.5)[:, None], chinese.best_setting_batch(b, r, threads=1).boards, b)
    got = chinese.score_batch(a, b, r)
    want = [ref.pair_points(x.tolist(), y.tolist(), ref.rules_dict(r)) for x, y in zip(a, b)]
    assert got.tolist() == want
    assert not np.array_equal(got, chinese.score_batch(a, b, r.replace(wheel_second=False)))


# ============================================================================= presets
PRESET_SEED_LINES = {
    # each preset of a house rule of seeds/001, and the seed line it stands for (docs/chinese.md)
    "net-royalties": "Some modified rule sets allow the royalty bonus to cancel out",
    "surrender": "If a player chooses to surrender their hand, they will pay an amount greater than",
    "variant-naturals": "12 or 13 of one colour",
    "no-broadway": "No Broadway Cards*",
    "one-royalty": "Some rules say that players are only allowed to claim one royalty per hand.",
    "wheel-second": "The Wheel (A, 2, 3, 4, 5) is the second highest straight.",
}


def test_presets_name_the_seed_house_rules():
    """Every house rule of seeds/001 is a preset, which docs/chinese.md lists with the seed line;
    every natural variant is paid by some preset (and by no default)."""
    docs = doc_pages.read("chinese.md")
    for name, line in PRESET_SEED_LINES.items():
        assert name in chinese.Rules.presets()
        assert f"`{name}`" in docs and line in docs, name
    paid = {kind for name in chinese.Rules.presets() for kind, _ in chinese.Rules.preset(name).naturals}
    assert paid >= set(chinese.NATURAL_VARIANTS)
    assert not set(dict(chinese.Rules().naturals)) & set(chinese.NATURAL_VARIANTS)


def test_every_field_is_reached_by_a_preset_or_a_documented_call():
    """Each field of chinese.Rules differs from the default in some preset, or docs/chinese.md
    shows it set in a Rules(...) or .replace(...) call."""
    import re
    docs = doc_pages.read("chinese.md")
    calls = " ".join(re.findall(r"(?:Rules|\.replace)\(([^()]*)\)", docs))
    default = chinese.Rules()
    for field in dataclasses.fields(chinese.Rules):
        if field.name == "name":
            continue
        in_preset = any(getattr(chinese.Rules.preset(p), field.name) != getattr(default, field.name)
                        for p in chinese.Rules.presets())
        assert in_preset or re.search(rf"\b{field.name}=", calls), field.name


def test_presets_with_their_seed_examples():
    # surrender: Bob surrenders against Amy (he would lose two rows): 3, between 1 and 6
    assert chinese.score([AMY, BOB], "surrender", surrendered=[1]) == [3, -3]
    assert chinese.score([AMY, BOB], "surrender") == chinese.score([AMY, BOB]) == [1, -1]
    # the natural variants: each hand of VARIANT_EXAMPLES pays 3 under the preset naming it
    for kind, (holds, misses) in VARIANT_EXAMPLES.items():
        preset = "no-broadway" if kind == "no broadway cards" else "variant-naturals"
        assert kind in dict(chinese.Rules.preset(preset).naturals)
        found, want = chinese.natural(holds, preset), ref.natural(holds, preset)
        assert (found.kind, found.units) == (want.kind, want.units) and found.units == 3
        assert chinese.natural(misses, preset) is None or chinese.natural(misses, preset).kind != kind
    # a hand of 13 red cards is named for 13 (listed first), of 12 for 12
    thirteen = "2h 3h 4h 5h 6h 7h 8h 2d 3d 4d Kd 9d Td"     # (a king: it has pictures)
    assert chinese.natural(thirteen, "variant-naturals").kind == "13 of one colour"
    assert chinese.natural(thirteen.replace("Td", "Tc"), "variant-naturals").kind == "12 of one colour"
    # one royalty per hand, the wheel second
    assert chinese.royalties(RICH, "one-royalty") == (0, 8, 0)
    wheel = "Qc Qd 2c / 7c 7d 9h 9d 4h / As 2s 3d 4c 5h"
    king_high = "Jc Jd 3c / 8c 8d 6h 6d 5d / 9c Tc Jh Qh Ks"
    assert chinese.score([wheel, king_high], "wheel-second") == [6, -6]
    deals = random_tables(np.random.default_rng(2190), 40, 2, ref.NATURAL_KINDS + ref.VARIANT_NATURALS)
    for name in chinese.Rules.presets():
        r = chinese.Rules.preset(name)
        got = chinese.score_batch(deals[:, 0], deals[:, 1], name)
        assert got.tolist() == [ref.pair_points(a.tolist(), b.tolist(), name) for a, b in deals], name
        assert r.name == name


# ============================================================================= surrender bound
@pytest.mark.parametrize("scoring", ["1-6", "2-4"])
def test_surrender_lies_between_two_rows_and_a_scoop_on_random_deals(scoring):
    """seeds/001: a surrendering player pays "an amount greater than the amount paid when losing 2
    out of 3 hands, but less than the amount paid when getting scooped (losing all three hands)".
    On random deals without naturals or royalties, whatever the settings: what a player pays on
    surrender lies strictly between what the rows cost it when it loses exactly two of them
    (winning the third) and when it is scooped, both read off the reference's scores."""
    rng = np.random.default_rng(2200 + len(scoring))
    no_royalties = rules(scoring=scoring, top_royalties=(), middle_royalties=(), bottom_royalties=())
    deals = ofc_ref.deal(rng, 300, 2)
    deals = chinese.best_setting_batch(deals.reshape(-1, 13), threads=1).boards.reshape(300, 2, 13)
    lose_two, scooped = set(), set()
    plain = []
    for i, (a, b) in enumerate(deals.tolist()):
        if ref.natural(a) or ref.natural(b):
            continue
        plain.append(i)
        rows = ref.row_results(ref.setting_rows(a), ref.setting_rows(b))
        paid = -ref.pair_points(a, b, ref.rules_dict(no_royalties))
        if sorted(rows) == [-1, -1, 1]:
            lose_two.add(paid)
        elif rows == [-1, -1, -1]:
            scooped.add(paid)
    assert lose_two == {{"1-6": 1, "2-4": 2}[scoring]} and scooped == {ref.SCOOP[scoring]}
    a, b = deals[plain, 0], deals[plain, 1]
    gave_up = np.ones(len(plain), dtype=np.bool_)
    allowed = []
    for units in range(1, 7):
        try:
            r = no_royalties.replace(surrender_allowed=True, surrender=units)
        except ValueError:
            continue
        allowed.append(units)
        assert (chinese.score_batch(a, b, r, surrendered_a=gave_up) == -units).all()
        assert (chinese.score_batch(a, b, r, surrendered_b=gave_up) == units).all()
    assert allowed == list(range(max(lose_two) + 1, min(scooped)))


# ============================================================================= the wheel in naturals
# Two three-straights naturals of one deck (seeds/001 "With flushes and straights the player with
# the highest back hand wins"): A's back is the K-high straight, B's back the wheel when the wheel
# ranks second ("it is ranked above a 9, 10, J, Q, K straight"), else B must set the wheel in the
# middle and its back is 6-T.
STRAIGHTS_A = "2c 3d 4h / 4s 5c 6d 7h 8s / 9c Td Jh Qs Kc"
STRAIGHTS_B = "2d 3h 4c / 6c 7d 8h 9s Tc / As 2h 3s 4d 5d"


def test_wheel_second_in_three_straights_seed_example():
    r = rules(wheel_second=True)
    a, b = chinese.natural(STRAIGHTS_A.replace("/", ""), r), chinese.natural(STRAIGHTS_B.replace("/", ""), r)
    assert (a.kind, b.kind) == ("three straights", "three straights")
    assert str(b.setting) == "2d 3h 4c / 6c 7d 8h 9s Tc / 2h 3s 4d 5d As"       # the wheel at the back
    assert sorted(c // 4 for c in b.setting.bottom) == [0, 1, 2, 3, 12]
    assert chinese.compare_naturals(a, b) == -1
    assert chinese.score([STRAIGHTS_A, STRAIGHTS_B], r) == [-3, 3]
    assert chinese.score([STRAIGHTS_A, STRAIGHTS_B], "wheel-second") == [-3, 3]
    # by default the wheel is the lowest straight: B shows it in the middle and loses the back
    plain_a, plain_b = chinese.natural(STRAIGHTS_A.replace("/", "")), chinese.natural(STRAIGHTS_B.replace("/", ""))
    assert sorted(c // 4 for c in plain_b.setting.middle) == [0, 1, 2, 3, 12]
    assert chinese.compare_naturals(plain_a, plain_b) == 1
    assert chinese.score([STRAIGHTS_A, STRAIGHTS_B]) == [3, -3]
    # A-2-3 on top is no wheel: still the lowest 3-card run
    low_top = "Ac 2d 3h / 3c 4d 5h 6s 7c / 8d 9h Tc Jd Qh"
    higher_top = "2c 3d 4h / 3s 4c 5d 6h 7s / 8c 9d Th Jh Qs"
    assert chinese.natural(low_top.replace("/", ""), r).key == (6, 1, 0)      # 8-Q, 3-7, A-2-3
    assert chinese.score([low_top, higher_top], r) == chinese.score([low_top, higher_top]) == [-3, 3]


def wheel_natural_hand(rng, kind):
    """A three-straights or three-flushes hand rich in wheels, K- and A-high straights."""
    if kind == "three straights":
        wide = [ref.RUNS5[0], ref.RUNS5[7], ref.RUNS5[8], ref.RUNS5[4]]
        runs = [ref.RUNS3[rng.integers(len(ref.RUNS3))], wide[rng.integers(4)], wide[rng.integers(4)]]
        hand = [4 * r + int(rng.integers(4)) for run in runs for r in run]
        return hand if len(set(hand)) == 13 else None
    # a steel wheel and 8 cards of another suit, or 5 more of its suit and 3 of another
    suits = rng.choice(4, size=2, replace=False)
    steel = [4 * r + int(suits[0]) for r in (12, 0, 1, 2, 3)]
    same = [4 * r + int(suits[0]) for r in range(4, 12)]
    other = [4 * r + int(suits[1]) for r in range(13)]
    extra = (5, 3) if rng.random() < 0.5 else (0, 8)
    return steel + [int(c) for pool, k in zip((same, other), extra)
                    for c in rng.choice(pool, size=k, replace=False)]


def test_wheel_second_naturals_against_reference():
    rng = np.random.default_rng(2210)
    spec = dict(wheel_second=True, naturals=(("three straights", 3), ("three flushes", 3)))
    r = rules(**spec)
    hands = [h for kind in ("three straights", "three flushes") for h in
             (wheel_natural_hand(rng, kind) for _ in range(28)) if h is not None]
    got = [chinese.natural(h, r) for h in hands]
    want = [ref.natural(h, ref.rules_dict(r)) for h in hands]
    for hand, g, w in zip(hands, got, want):
        assert w is not None and (g.kind, g.units) == (w.kind, w.units), hr.hand_str(hand)
        assert (tuple(g.setting.top), tuple(g.setting.middle), tuple(g.setting.bottom)) in w.settings
        assert ref.is_valid(g.setting.top, g.setting.middle, g.setting.bottom, wheel_second=True)
    differ = 0
    for i, j in itertools.combinations(range(len(hands)), 2):
        if got[i].kind == got[j].kind:
            assert chinese.compare_naturals(got[i], got[j]) == ref.compare_naturals(want[i], want[j])
            plain = ref.compare_naturals(ref.natural(hands[i], ref.rules_dict(r.replace(wheel_second=False))),
                                         ref.natural(hands[j], ref.rules_dict(r.replace(wheel_second=False))))
            differ += plain != ref.compare_naturals(want[i], want[j])
    assert differ > 0                 # the rule decides some comparisons


# ============================================================================= one royalty and "ev"
ONE_ROYALTY_TABLES = dict(top_royalties=(("66", 1), ("QQ", 4), ("222", 6)),
                          middle_royalties=(("straight", 2), ("flush", 4), ("full house", 6), ("quads", 8)),
                          bottom_royalties=(("flush", 3), ("full house", 5), ("quads", 7)))


@pytest.fixture(scope="module")
def small_sample(tmp_path_factory):
    """The opponent model built from 400 sampled hands instead of 20,000 (in a cache directory of
    its own, the in-memory caches cleared before and after): what these tests check does not
    depend on the sample's size, and a full one_royalty sample takes seconds to solve."""
    from handrank.chinese import ev

    def clear():
        for cached in (ev._row_tables, ev.ev_tables, ev.own_royalty):
            cached.cache_clear()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ev, "OPPONENTS", 400)
        patch.setenv("HANDRANK_CACHE_DIR", str(tmp_path_factory.mktemp("small-sample")))
        clear()
        yield ev
    clear()


@pytest.mark.parametrize("scoring, to_winner", [("1-6", True), ("2-4", True), ("1-6", False)])
def test_one_royalty_ev_against_brute_force(small_sample, scoring, to_winner):
    """The "ev" objective under one_royalty: every valid setting's expectation counts only the
    royalty it keeps, against an opponent sample set for its largest royalty; checked against the
    reference's search over all 72,072 splits with the reference's formula."""
    rng = np.random.default_rng(2220 + len(scoring) + to_winner)
    r = rules(one_royalty=True, scoring=scoring, royalties_to_winner=to_winner, **ONE_ROYALTY_TABLES)
    tables = chinese.row_tables(r)
    assert tables.opponents == 400
    hands = royalty_hands(rng, 8)
    got = chinese.best_setting_batch(hands, r, "ev")
    differs = 0
    for hand, boards, value in zip(hands, got.boards, got.value):
        want = ref.brute_force(hand, ref.rules_dict(r), "ev", tables)
        assert (tuple(boards[:3]), tuple(boards[3:8]), tuple(boards[8:])) == (want["top"], want["middle"], want["bottom"]), hr.hand_str(hand)
        assert value == pytest.approx(want["value"], abs=1e-9)
        every = ref.brute_force(hand, ref.rules_dict(r.replace(one_royalty=False)), "ev", tables)
        differs += every["value"] != pytest.approx(want["value"], abs=1e-9)
    assert differs > 0                     # counting every royalty would value some hands otherwise
    assert chinese.best_setting(hands[0], r, "ev").value == pytest.approx(got.value[0])


def test_one_royalty_opponent_sample_keeps_one_royalty(small_sample):
    """The opponent model of one_royalty rules: the sampled hands set as the "royalties"
    objective sets them (for the largest royalty; the first ones against the reference's search),
    each opponent collecting one royalty at most: the tables are those counts."""
    ev = small_sample
    r = rules(one_royalty=True, **ONE_ROYALTY_TABLES)
    tables = chinese.row_tables(r)
    hands = np.sort(hr.random_hands(ev.OPPONENTS, 13, seed=ev.SEED), axis=1)
    found = chinese.best_setting_batch(hands, r)
    for hand, value in zip(hands[:4], found.value[:4]):
        assert value == ref.brute_force(hand.tolist(), ref.rules_dict(r))["value"]
    settings = chinese.evaluate_batch(found.boards, r)
    kept, values = settings.royalties, settings.values
    assert ((kept > 0).sum(axis=1) <= 1).all() and (kept.max(axis=1) == found.value).all()
    assert np.allclose(tables.mean_royalty, kept.sum(axis=0) / ev.OPPONENTS)
    assert tables.mean_royalty.sum() < chinese.row_tables(r.replace(one_royalty=False)).mean_royalty.sum()
    for k in range(3):
        for v in np.unique(values[:, k]):
            assert tables.win[k][v] == pytest.approx((values[:, k] < v).mean())
            assert tables.beaten_royalty[k][v] == pytest.approx((kept[:, k] * (values[:, k] > v)).sum() / ev.OPPONENTS)


def test_one_royalty_ev_search_against_every_setting(small_sample):
    """The compiled search's bounds under one_royalty (it prunes with the largest expected royalty
    a row may keep) against the same expectation computed for every valid setting (a callable
    objective with the reference's formula): same setting and value on many hands."""
    from handrank.chinese.ev import own_royalty
    rng = np.random.default_rng(2230)
    hands = royalty_hands(rng, 24) + hr.random_hands(8, 13, seed=2231).tolist()
    for scoring, to_winner in (("1-6", True), ("2-4", False)):
        r = rules(one_royalty=True, scoring=scoring, royalties_to_winner=to_winner, **ONE_ROYALTY_TABLES)
        tables, (mine, _) = chinese.row_tables(r), own_royalty(r)

        def every_setting(values):
            row_royalty = np.stack([mine[k][values[:, k]] for k in range(3)], axis=1)
            kept = 2 - np.argmax(row_royalty[:, ::-1], axis=1)
            row_royalty = np.where(np.arange(3) == kept[:, None], row_royalty, 0)
            return ref.ev_values(values, row_royalty, ref.rules_dict(r), tables)
        got = chinese.best_setting_batch(hands, r, "ev", threads=2)
        want = chinese.best_setting_batch(hands, r, every_setting)
        assert np.array_equal(got.boards, want.boards)
        assert np.allclose(got.value, want.value, rtol=0, atol=1e-9)
