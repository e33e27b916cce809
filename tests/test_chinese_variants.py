"""Chinese poker, what the seeds add (RULES.md "Decisions added after review", seeds/001): surrender,
the natural variants, one royalty per hand, royalties to the winner or cancelling out, and the wheel
as the second-highest straight; each against its seed example and the independent oracle
tests/chinese_reference.py on random sets."""
import dataclasses
import itertools

import numpy as np
import pytest

import chinese_reference as ref
import handrank as hr
import ofc_reference as ofc_ref
from handrank import chinese, ofc

E = hr.cards
NEW_FIELDS = ("surrender_allowed", "surrender", "one_royalty", "wheel_second")
ALL_VARIANTS = tuple((kind, 3) for kind in chinese.NATURAL_VARIANTS)

# Amy and Bob of seeds/001 ("Example"): Amy wins the front and the back, Bob the middle
AMY = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
BOB = "Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s"
# top trips (3 units), middle quads (8), bottom straight flush (5); and a plain hand it scoops
RICH = "Qs Qh Qd / 4c 4d 4s 4h 2c / 9h 8h 7h 6h 5h"
PLAIN = "Ac Kd 2d / 9c 9d 3c 3d 8c / Tc Td Th Jc Jd"


def rules(**changes):
    return chinese.Rules().replace(**changes)


def ref_rules(r):
    """The reference's dict of a chinese.Rules."""
    return {f.name: getattr(r, f.name) if not isinstance(getattr(r, f.name), tuple)
            else dict(getattr(r, f.name)) for f in dataclasses.fields(r) if f.name != "name"}


def board(text):
    return ofc.Board.parse(text)


# ============================================================================= the rules
def test_new_fields_are_last_and_default_to_todays_rules():
    names = [f.name for f in dataclasses.fields(chinese.Rules)]
    assert tuple(names[-len(NEW_FIELDS):]) == NEW_FIELDS
    r = chinese.Rules()
    assert (r.surrender_allowed, r.surrender, r.one_royalty, r.wheel_second) == (False, 3, False, False)
    assert r.naturals == tuple(ref.NATURALS.items())            # no variant natural is paid
    assert chinese.NATURALS == ("dragon", "three straights", "three flushes", "six pairs")
    assert chinese.NATURAL_VARIANTS == ref.VARIANT_NATURALS
    assert chinese.Rules.presets() == ("1-6", "2-4", "net-royalties")
    for name in chinese.Rules.presets():
        assert chinese.Rules(**ref.rules_kwargs(name)) == chinese.Rules.preset(name)


@pytest.mark.parametrize("changes, error, field", [
    (dict(surrender="3"), TypeError, "Rules.surrender"),
    (dict(surrender=True), TypeError, "Rules.surrender"),
    (dict(surrender=1), ValueError, "Rules.surrender"),
    (dict(surrender=6), ValueError, "Rules.surrender"),
    (dict(scoring="2-4", surrender=2), ValueError, "Rules.surrender"),
    (dict(scoring="2-4", surrender=4), ValueError, "Rules.surrender"),
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
                chinese.Rules(scoring=scoring, surrender=units)
                allowed.append(units)
            except ValueError:
                pass
        assert allowed == list(range(lose_two + 1, scooped))
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
        assert got == ref.score([dragon, plain, third], ref_rules(r), set(gave_up))
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
            assert got == ref.score(list(deal), ref_rules(r), gave_up), (deal.tolist(), gave_up)
            assert sum(got) == 0


def test_score_batch_surrender_flags_against_reference():
    rng = np.random.default_rng(2110)
    r = rules(surrender_allowed=True)
    deals = random_tables(rng, 1200, 2, ref.NATURAL_KINDS)
    flags = rng.random((1200, 2)) < 0.3
    got = chinese.score_batch(deals[:, 0], deals[:, 1], r, surrendered_a=flags[:, 0],
                              surrendered_b=flags[:, 1])
    want = [ref.pair_points(a.tolist(), b.tolist(), ref_rules(r), tuple(f))
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
    while rest is None or ref.natural(rest, ref_rules(r)) is not None:
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
            got, want = chinese.natural(hand, r), ref.natural(hand, ref_rules(r))
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
        want = [ref.pair_points(a.tolist(), b.tolist(), ref_rules(r)) for a, b in deals]
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
    want = [ref.pair_points(a.tolist(), b.tolist(), ref_rules(r)) for a, b in deals]
    assert got.tolist() == want
    found = chinese.evaluate_batch(deals.reshape(-1, 13), r)
    want_roy = [ref.royalties(*ref.setting_rows(s.tolist()), rules=ref_rules(r)) for s in deals.reshape(-1, 13)]
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
        want = ref.brute_force(hand, ref_rules(r))
        assert (tuple(boards[:3]), tuple(boards[3:8]), tuple(boards[8:])) == (want["top"], want["middle"], want["bottom"])
        assert value == want["value"]
    assert chinese.best_setting(hands[0], r).value == got.value[0]
    with pytest.raises(ValueError, match="one_royalty"):
        chinese.best_setting(hands[0], r, "ev")


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
        want = ref.brute_force(hand, ref_rules(r), obj, tables)
        assert (tuple(boards[:3]), tuple(boards[3:8]), tuple(boards[8:])) == (want["top"], want["middle"], want["bottom"]), hr.hand_str(hand)
        assert value == pytest.approx(want["value"], abs=1e-9)
        plain = ref.brute_force(hand, ref_rules(r.replace(wheel_second=False)), obj,
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
    want = [ref.pair_points(x.tolist(), y.tolist(), ref_rules(r)) for x, y in zip(a, b)]
    assert got.tolist() == want
    assert not np.array_equal(got, chinese.score_batch(a, b, r.replace(wheel_second=False)))
