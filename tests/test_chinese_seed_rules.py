"""Chinese poker, the last rules of seeds/001 (issue 28; RULES.md "Decisions added after review"):
the middle as a 2-7 low, the game to 11, the scoop bonus as a number, mis-set hands still played.
Each against the seed line it comes from and the independent oracle tests/chinese_reference.py,
alone and mixed with every other field on random deals."""

import numpy as np
import pytest

import chinese_reference as ref
import doc_pages
import handrank as hr
import ofc_reference as ofc_ref
from handrank import chinese

E = hr.cards

# Amy and Bob of seeds/001 ("Example"): Amy wins the front and the back, Bob the middle
AMY = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
BOB = "Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s"
# top trips (3 units), middle quads (8), bottom straight flush (5); and a plain hand it scoops
RICH = "Qs Qh Qd / 4c 4d 4s 4h 2c / 9h 8h 7h 6h 5h"
PLAIN = "Ac Kd 2d / 9c 9d 3c 3d 8c / Tc Td Th Jc Jd"
DRAGON = "2h 3h 4h / 5h 6h 7h 8h 9h / Ts Js Qs Ks As"    # (shares no card with PLAIN)
# a mis-set hand (aces on top of two pair) that would win the top from RICH and lose the rest
MIS_SET = "Ac Ad Ah / Kc Kd 3c 3d 5c / Tc Td Th 7c 7d"
# four settings of one deck: the first wins every row against the other three
SCOOPER = "Ac Ad Ah / Kc Kd Kh 2c 2d / Qc Qd Qh Qs 3c"
OTHERS = ["As 4c 5d / 6c 6d 7h 8s 9c / Jc Jd Jh 2h 2s", "Ks 3d 4d / 7c 7d 8c 9d Tc / Td Th Ts 5c 5h",
          "Js 4h 3h / 8d 8h 9h 6h 6s / 9s 7s 5s 4s 3s"]
# a 2-7 royalty table for the low middle (the worst low that pays each amount)
LOW_ROYALTIES = (("97532", 1), ("86432", 2), ("75432", 4))


def rules(**changes):
    return chinese.Rules().replace(**changes)


def as_boards(boards):
    return [(tuple(b[:3]), tuple(b[3:8]), tuple(b[8:])) for b in np.asarray(boards).tolist()]


def wanted(found):
    return (found["top"], found["middle"], found["bottom"])


# ============================================================================= the fields
def test_new_fields_default_to_todays_rules_and_presets_match_the_reference():
    r = chinese.Rules()
    assert (r.low_middle, r.middle_low_royalties, r.scoop_bonus, r.mis_set_played) == (False, (), None, False)
    assert (r.scoop_extra, r.scoop_units) == (3, 6)
    assert (rules(scoring="2-4").scoop_extra, rules(scoring="2-4").scoop_units) == (0, 4)
    assert (rules(scoop_bonus=1).scoop_units, rules(scoring="2-4", scoop_bonus=1).scoop_units) == (4, 5)
    for name in ("low-middle", "scoop-unit", "mis-set-played"):
        assert chinese.Rules(**ref.rules_kwargs(name)) == chinese.Rules.preset(name)


@pytest.mark.parametrize("changes, error, field", [
    (dict(low_middle=1), TypeError, "Rules.low_middle"),
    (dict(mis_set_played="no"), TypeError, "Rules.mis_set_played"),
    (dict(scoop_bonus=1.0), TypeError, "Rules.scoop_bonus"),
    (dict(scoop_bonus=True), TypeError, "Rules.scoop_bonus"),
    (dict(scoop_bonus=-1), ValueError, "Rules.scoop_bonus"),
    (dict(scoop_bonus=1001), ValueError, "Rules.scoop_bonus"),
    # a scoop of 3 (no bonus) leaves no surrender between losing two rows (1) and it but 2
    (dict(scoop_bonus=0, surrender_allowed=True), ValueError, "Rules.surrender"),
    (dict(middle_low_royalties=LOW_ROYALTIES), ValueError, "Rules.middle_low_royalties"),
    (dict(low_middle=True, middle_low_royalties=(("98766", 1),)), ValueError, "Rules.middle_low_royalties"),
    (dict(low_middle=True, middle_low_royalties=(("76543", 1),)), ValueError, "Rules.middle_low_royalties"),
])
def test_bad_fields_name_the_field(changes, error, field):
    with pytest.raises(error, match=field):
        rules(**changes)


# ============================================================================= low in the middle
# seeds/001, "Other variations": "Low in the middle—In this variation, the middle hand is played as
# a deuce-to-seven low hand."  RULES.md: "compared with the other players' middles as such; a
# setting is valid when the back beats the front as high hands (the middle takes no part)".
SEED_LOW_MIDDLE = "the middle hand is played as a deuce-to-seven low hand"
LOW_A = "Ah Kd 2c / 7s 5d 4c 3h 2s / Qs Qh Qd 9c 9s"
LOW_B = "As Ks Qc / 8s 6d 4d 3c 2h / Js Jh Jd 9d 9h"


def test_low_middle_seed_example():
    # both are mis-set as high hands (an ace-high top over a 7- or 8-high middle); with the low
    # middle both are valid: B wins the top, A the middle (7-5-4-3-2, the best low) and the bottom
    assert chinese.is_mis_set(LOW_A) and chinese.is_mis_set(LOW_B)
    assert not chinese.is_mis_set(LOW_A, "low-middle") and not chinese.is_mis_set(LOW_B, "low-middle")
    assert chinese.score([LOW_A, LOW_B]) == [0, 0]
    assert chinese.score([LOW_A, LOW_B], "low-middle") == [1, -1]
    assert ref.score([LOW_A, LOW_B], "low-middle") == [1, -1]
    # the back must still beat the front: trips on top of an ace-high back is mis-set
    assert chinese.is_mis_set("Qs Qh Qd / 7s 5d 4c 3h 2s / Ac Kc 9d 8h 2c", "low-middle")
    # a 2-7 middle: A-2-3-4-5 is an ace-high low, no straight, better than any pair; a flush and a
    # straight count against it
    wheel, pair = "Kc Kd 6c / Ac 2d 3h 4s 5c / 8s 8h 8d 7c 7d", "Qc Qd 6d / Ks Kh 3d 4c 5d / 9c 9d 9h Tc Td"
    assert chinese.score([wheel, pair], "low-middle") == [1 + 1 - 1, -1]    # top, middle won; bottom lost
    flush = "Kc Kd 6c / 2h 4h 6h 8h 9h / As Ah Ad 7s 7d"
    ten_low = "Qc Qd 6d / Ts 8c 5d 3s 2c / Ks Kh Jd 9c 9d"
    assert ref.row_results(ref.setting_rows(E(flush.replace("/", ""))),
                           ref.setting_rows(E(ten_low.replace("/", ""))), low_middle=True)[1] == -1
    assert chinese.score([flush, ten_low], "low-middle") == [1 - 1 + 1, -1]


def test_low_middle_royalties_and_values():
    r = rules(low_middle=True, middle_low_royalties=LOW_ROYALTIES)
    found = chinese.evaluate_batch(np.array([E(LOW_A.replace("/", ""))], dtype=np.uint8), r)
    assert found.values[0].tolist() == [hr.rows.value(E("Ah Kd 2c")), hr.low27.evaluate(E("7s 5d 4c 3h 2s")),
                                        hr.rows.value(E("Qs Qh Qd 9c 9s"))]
    assert chinese.royalties(LOW_A, r) == (0, 4, 0)
    assert chinese.royalties(LOW_B, r) == (0, 2, 0)
    # the high middle table takes no part: quads in a low middle is a very bad low, no royalty
    assert chinese.royalties("Ac Kd 2c / 4c 4d 4s 4h 2d / Qs Qh Qd 9c 9s", r) == (0, 0, 0)
    assert chinese.score([LOW_A, LOW_B], r) == [1 + 4, -5]          # B's royalty is in a lost row


def low_rich_hand(rng, i):
    """13 cards, most of them 2..9 (many good lows), a few high cards for the top and bottom."""
    low = [c for c in range(52) if c // 4 <= 7]
    high = [c for c in range(52) if c // 4 > 7]
    k = 3 + i % 5
    return sorted(rng.choice(low, 13 - k, replace=False).tolist() + rng.choice(high, k, replace=False).tolist())


def test_low_middle_settings_against_reference():
    rng = np.random.default_rng(2800)
    r = rules(low_middle=True)
    for i in range(4):
        hand = low_rich_hand(rng, i)
        f, b, m, t = ref.valid_splits(hand, low_middle=True)
        assert np.array_equal(chinese.settings(hand, r), ref.boards_of(f, b, m, t))
        assert len(chinese.settings(hand, r)) > len(chinese.settings(hand))


@pytest.mark.parametrize("objective", ["royalties", "callable"])
def test_low_middle_best_setting_against_brute_force(objective):
    """Validity (only the back over the front) and value (a 2-7 middle's royalty, its 2-7 value
    for a callable): the exact search against every split."""
    rng = np.random.default_rng(2810 + len(objective))
    r = rules(low_middle=True, middle_low_royalties=LOW_ROYALTIES)
    hands = [low_rich_hand(rng, i) for i in range(16)]

    def favour_low_middle(values):
        return values[:, 1] // 100 + values[:, 2] // 2000
    obj = favour_low_middle if objective == "callable" else objective
    got = chinese.best_setting_batch(hands, r, obj, threads=1)
    differs = 0
    for hand, board, value in zip(hands, as_boards(got.boards), got.value):
        want = ref.brute_force(hand, ref.rules_dict(r), obj)
        assert board == wanted(want), hr.hand_str(hand)
        assert value == want["value"]
        high = ref.brute_force(hand, ref.rules_dict(rules()), obj)
        differs += wanted(high) != board
    assert differs > 0
    assert chinese.best_setting(hands[0], r, obj).value == got.value[0]


@pytest.fixture(scope="module")
def small_sample(tmp_path_factory):
    """The opponent model from 400 sampled hands instead of 20,000 (its own cache directory, the
    in-memory caches cleared before and after): what these tests check does not depend on the
    sample's size."""
    from handrank.chinese import ev

    def clear():
        for cached in (ev._row_tables, ev.ev_tables, ev.own_royalty):
            cached.cache_clear()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ev, "OPPONENTS", 400)
        patch.setenv("HANDRANK_CACHE_DIR", str(tmp_path_factory.mktemp("seed-rules-sample")))
        clear()
        yield ev
    clear()


def test_low_middle_opponent_model(small_sample):
    """The opponents of low-middle rules are set for royalties with a 2-7 middle; the tables are
    indexed by the middle's 2-7 value, and another cache file holds them."""
    ev = small_sample
    r = rules(low_middle=True, middle_low_royalties=LOW_ROYALTIES)
    tables = chinese.row_tables(r)
    hands = np.sort(hr.random_hands(ev.OPPONENTS, 13, seed=ev.SEED), axis=1)
    found = chinese.best_setting_batch(hands, r)
    settings = chinese.evaluate_batch(found.boards, r)
    assert not settings.mis_set.any()
    middles = settings.values[:, 1]
    assert (middles == hr.low27.evaluate_batch(np.ascontiguousarray(found.boards[:, 3:8]))).all()
    for v in np.unique(middles)[::7]:
        assert tables.win[1][v] == pytest.approx((middles < v).mean())
    assert tables.mean_royalty[1] == pytest.approx(settings.royalties[:, 1].mean())
    assert len({ev._cache_file(x) for x in (r, rules(), rules(low_middle=True))}) == 3


@pytest.mark.parametrize("changes", [
    dict(low_middle=True, middle_low_royalties=LOW_ROYALTIES),
    dict(low_middle=True, scoring="2-4", royalties_to_winner=False),
    dict(low_middle=True, one_royalty=True, middle_low_royalties=LOW_ROYALTIES),
    dict(mis_set_played=True),
    dict(scoop_bonus=1),
    dict(scoring="2-4", scoop_bonus=2),
])
def test_ev_under_the_new_rules_against_brute_force(small_sample, changes):
    """The "ev" objective honours each rule: the reference's formula over every split it allows
    (every split when mis-set hands are played, a mis-set one collecting no royalty)."""
    rng = np.random.default_rng(2820 + len(changes))
    r = rules(**changes)
    tables = chinese.row_tables(r)
    hands = [low_rich_hand(rng, i) for i in range(3)] + hr.random_hands(3, 13, seed=2821).tolist()
    got = chinese.best_setting_batch(hands, r, "ev")
    for hand, board, value in zip(hands, as_boards(got.boards), got.value):
        want = ref.brute_force(hand, ref.rules_dict(r), "ev", tables)
        assert board == wanted(want), hr.hand_str(hand)
        assert value == pytest.approx(want["value"], abs=1e-9)


# ============================================================================= scoop bonus
# seeds/001, "Scoring": "In other variants players only get an additional unit if they win all
# three hands (known as a scoop)." and "In the 1–6 method the player receives 1 unit for each of
# the three hands they win, and 3 bonus units ... if they win all three hands."
SEED_SCOOP = "In other variants players only get an additional unit if they win all three hands"


def test_scoop_bonus_seed_example():
    royalties = 3 + 8 + 5
    assert chinese.score([RICH, PLAIN]) == [3 + 3 + royalties, -(3 + 3 + royalties)]
    assert chinese.score([RICH, PLAIN], "scoop-unit") == [3 + 1 + royalties, -(3 + 1 + royalties)]
    assert chinese.score([RICH, PLAIN], rules(scoop_bonus=0)) == [3 + royalties, -(3 + royalties)]
    assert rules(scoop_bonus=0, surrender_allowed=True, surrender=2).scoop_units == 3
    assert chinese.score([RICH, PLAIN], rules(scoring="2-4", scoop_bonus=1)) == [3 + 1 + 1 + royalties, -21]
    # no sweep, no bonus: Amy and Bob of the seed's example
    assert chinese.score([AMY, BOB], "scoop-unit") == chinese.score([AMY, BOB]) == [1, -1]
    # a mis-set hand pays the scoop: 3 rows and the bonus
    assert chinese.score([MIS_SET, RICH], "scoop-unit") == [-(4 + royalties), 4 + royalties]


def test_scoop_bonus_keeps_naturals_and_surrender():
    r = rules(scoop_bonus=1, surrender_allowed=True)
    assert chinese.score([DRAGON, PLAIN], r) == [13, -13]
    assert chinese.score([AMY, BOB], r, surrendered=[1]) == [3, -3]          # 1 < 3 < 4
    with pytest.raises(ValueError, match="Rules.surrender"):
        r.replace(surrender=4)                                               # a scoop pays 4
    assert r.replace(scoop_bonus=5, surrender=7).surrender == 7             # 1 < 7 < 8


# ============================================================================= mis-set hands played
# seeds/001, "Mis-set hand": "If a player mis-sets their hand ... then they must pay each of their
# opponents still in the hand ... an amount equal to being scooped. In some variations players are
# still required to play their hands."
SEED_MIS_SET = "In some variations players are still required to play their hands."


def test_mis_set_played_seed_example():
    royalties = 3 + 8 + 5
    assert chinese.is_mis_set(MIS_SET)
    # as a scoop: 6 and every royalty of the other hand
    assert chinese.score([MIS_SET, RICH]) == [-(6 + royalties), 6 + royalties]
    # played: it wins the top (aces over queens) without its top royalty, loses the middle and the
    # bottom and pays their royalties (8 + 5), not the top's (a row it won)
    assert chinese.score([MIS_SET, RICH], "mis-set-played") == [1 - 2 - 13, 14]
    # royalties cancelling out: it pays every royalty of RICH
    assert chinese.score([MIS_SET, RICH], rules(mis_set_played=True, royalties_to_winner=False)) == [-1 - 16, 17]
    # it collects none, even sweeping a hand with none
    assert chinese.royalties(MIS_SET, "mis-set-played") == (0, 0, 0)
    swept = "Ks 4s 2s / Qh Qs 9c 8c 6c / Js Jh 9h 9s 8d"
    assert chinese.score([MIS_SET, swept], "mis-set-played") == [6, -6]
    assert chinese.score([MIS_SET, swept]) == [-6, 6]
    # two mis-set hands are both played
    other = "Kh Ks Qc / Jc Jd 2c 4d 6c / Jh Js 9h 9s 8d"
    assert chinese.is_mis_set(other)
    assert chinese.score([MIS_SET, other]) == [0, 0]
    assert chinese.score([MIS_SET, other], "mis-set-played") == [3 + 3, -6]


# ============================================================================= the game to 11
# seeds/001, "Other variations": "Another variation scores the game 1 point per hand, with the
# winner of the game being the first to 11 points. If a player wins all 3 hands and there are 4
# players, the winning player gets a 4th point."
SEED_ELEVEN = "the winner of the game being the first to 11 points"


def test_game_to_11_seed_example():
    assert chinese.eleven_points([AMY, BOB]) == [2, 1]                # rows, no bonus, no royalty
    assert chinese.eleven_points([SCOOPER] + OTHERS) == [4, 0, 0, 0]  # the 4th point
    assert chinese.eleven_points([SCOOPER] + OTHERS[:2]) == [3, 0, 0]
    # each row to the player whose row beats every other's: OTHERS' tops, middles, bottoms
    assert chinese.eleven_points(OTHERS) == [2, 0, 1]
    # a row two players tie at the top goes to no one: here the top and the middle
    a, b = "Ac Kd 2d / 9c 9d 3c 3d 8c / Tc Td Th Jc Jd", "As Kh 2h / 9h 9s 3h 3s 8d / 4c 5c 6c 7c 2c"
    assert chinese.eleven_points([a, b]) == [1, 0]
    assert chinese.eleven_points([a, b, "Kc Ks 2s / 4d 5d 6h 7h 8s / Qc Qd Qh Qs 7s"]) == [0, 0, 3]
    # a natural wins the deal; a mis-set hand takes no row (unless played); a surrender neither
    assert chinese.eleven_points([DRAGON, PLAIN]) == [3, 0]
    assert chinese.eleven_points([MIS_SET, RICH]) == [0, 3]
    assert chinese.eleven_points([MIS_SET, RICH], "mis-set-played") == [1, 2]
    assert chinese.eleven_points([AMY, BOB], "surrender", surrendered=[0]) == [0, 3]
    assert chinese.eleven_points([LOW_A, LOW_B], "low-middle") == [2, 1]
    for deal, r in (([AMY, BOB], None), ([SCOOPER] + OTHERS, None), ([MIS_SET, RICH], "mis-set-played"),
                    ([LOW_A, LOW_B], "low-middle")):
        assert chinese.eleven_points(deal, r) == ref.eleven_points(deal, r)


def test_eleven_points_errors():
    with pytest.raises(ValueError, match="2 to 4 settings"):
        chinese.eleven_points([AMY])
    with pytest.raises(ValueError, match="one deck"):
        chinese.eleven_points([AMY, AMY])
    with pytest.raises(ValueError, match="surrender"):
        chinese.eleven_points([AMY, BOB], surrendered=[0])
    with pytest.raises(TypeError, match="surrendered"):
        chinese.eleven_points([AMY, BOB], "surrender", surrendered="0")


def test_match_plays_to_11():
    match = chinese.Match(4, "low-middle", seed=2830)
    assert repr(match).startswith("<chinese.Match to 11 of 4 players (low-middle), 0 deals")
    while not match.over:
        assert all(len(h) == 13 for h in match.hands) and len({c for h in match.hands for c in h}) == 52
        settings = [chinese.best_setting(hand, match.rules).board for hand in match.hands]
        points = match.play(settings)
        assert points == ref.eleven_points([list(s.cards) for s in settings], "low-middle")
    assert match.scores == [sum(p[i] for p in match.results) for i in range(4)]
    best = max(match.scores)
    assert best >= 11 and match.scores.count(best) == 1 and match.winner == match.scores.index(best)
    before = [score - last for score, last in zip(match.scores, match.results[-1])]
    assert max(before) < 11 or before.count(max(before)) > 1      # it ended at the first chance
    with pytest.raises(ValueError, match="over"):
        match.play(settings)
    # the same seed replays the same match
    again = chinese.Match(4, "low-middle", seed=2830)
    for points in match.results:
        assert again.play([chinese.best_setting(h, again.rules).board for h in again.hands]) == points


def test_match_ties_and_overshoot():
    """RULES.md: the first to 11 wins. A player at 11 or more who leads alone wins (12 or 14 as
    well as 11); players level at the top with 11 or more play on until one leads alone."""
    match = chinese.Match(2, seed=1)
    match.scores = [11, 11]
    assert match.winner is None and not match.over
    match.scores = [12, 11]
    assert match.winner == 0 and match.over
    match.scores = [10, 14]
    assert match.winner == 1
    match.scores = [10, 10]
    assert match.winner is None
    match.scores = [0, 0]
    small = chinese.Match(3, seed=2840, target=2)
    while not small.over:
        before = list(small.scores)
        small.play([chinese.best_setting(h).board for h in small.hands])
        leaders = [i for i, s in enumerate(small.scores) if s == max(small.scores)]
        assert small.over == (max(small.scores) >= 2 and len(leaders) == 1), (before, small.scores)


def test_match_errors_change_nothing():
    match = chinese.Match(2, seed=2850)
    hands = list(match.hands)
    with pytest.raises(ValueError, match="not the cards dealt to player 0"):
        match.play([AMY, BOB])
    with pytest.raises(ValueError, match="2 players"):
        match.play([chinese.best_setting(hands[0]).board])
    assert match.hands == hands and match.scores == [0, 0] and match.results == []
    for args, error in (((1,), ValueError), ((5,), ValueError), (("2",), TypeError),
                        ((2, None, None, 0), ValueError), ((2, None, None, 1.5), TypeError)):
        with pytest.raises(error):
            chinese.Match(*args)


# ============================================================================= everything mixed
def random_rules(rng):
    """A chinese.Rules mixing the new fields with the others, at random."""
    scoring = ("1-6", "2-4")[rng.integers(2)]
    bonus = (None, 0, 1, 2, 5)[rng.integers(5)]
    low = bool(rng.integers(2))
    # a surrender must pay more than losing two rows and less than a sweep (the reference's)
    floor, sweep = {"1-6": 1, "2-4": 2}[scoring], ref.scoop(dict(scoring=scoring, scoop_bonus=bonus))
    naturals = tuple(ref.NATURALS.items())
    if rng.integers(2):
        naturals += (("no picture cards", 3), ("12 of one colour", 4))
    return rules(scoring=scoring, scoop_bonus=bonus, low_middle=low, mis_set_played=bool(rng.integers(2)),
                 middle_low_royalties=LOW_ROYALTIES if low and rng.integers(2) else (),
                 wheel_second=bool(rng.integers(2)), royalties_to_winner=bool(rng.integers(2)),
                 one_royalty=bool(rng.integers(2)), surrender=int(rng.integers(floor + 1, sweep)),
                 surrender_allowed=bool(rng.integers(2)), naturals=naturals)


def mixed_deals(rng, n, players, r):
    """(n, players, 13) settings of one deck each: random splits (many mis-set), some set for
    royalties under `r`, some with a natural."""
    deals = ofc_ref.deal(rng, n, players)
    for i in np.flatnonzero(rng.random(n) < 0.15):
        hand = ref.natural_hand(rng, ref.NATURAL_KINDS[rng.integers(len(ref.NATURAL_KINDS))])
        rest = [c for c in rng.permutation(52).tolist() if c not in hand]
        deals[i, 0] = hand
        deals[i, 1:] = np.array(rest[:13 * (players - 1)]).reshape(players - 1, 13)
    chosen = rng.random((n, players)) < 0.5
    flat = deals.reshape(-1, 13)
    best = chinese.best_setting_batch(flat, r, threads=1).boards.reshape(deals.shape)
    return np.where(chosen[:, :, None], best, deals)


def test_random_rule_sets_against_the_reference():
    """Random tables of 2 to 4 players under random rule sets that mix the new fields with every
    other: net units zero-sum and equal to the reference's, pair scores and row royalties too,
    and the game to 11's points."""
    rng = np.random.default_rng(2860)
    seen = set()
    for round_ in range(24):
        r = random_rules(rng)
        seen.add((r.low_middle, r.mis_set_played, r.scoop_bonus is not None))
        spec = ref.rules_dict(r)
        players = 2 + round_ % 3
        deals = mixed_deals(rng, 10, players, r)
        for deal in deals:
            settings = [s.tolist() for s in deal]
            out = [p for p in range(players) if r.surrender_allowed and rng.random() < 0.3]
            got = chinese.score(settings, r, surrendered=out)
            assert sum(got) == 0
            assert got == ref.score(settings, spec, surrendered=out), (r, settings, out)
            assert chinese.eleven_points(settings, r, out) == ref.eleven_points(settings, spec, out)
        a, b = deals[:, 0], deals[:, 1]
        assert chinese.score_batch(a, b, r).tolist() == [ref.pair_points(x.tolist(), y.tolist(), spec)
                                                       for x, y in zip(a, b)]
        found = chinese.evaluate_batch(deals.reshape(-1, 13), r)
        for setting, mis_set, royalties in zip(deals.reshape(-1, 13).tolist(), found.mis_set, found.royalties):
            rows = ref.setting_rows(setting)
            assert bool(mis_set) == (not ref.is_valid(*rows, r.wheel_second, r.low_middle))
            assert tuple(royalties.tolist()) == ref.royalties(*rows, rules=spec)
    assert {s[0] for s in seen} == {s[1] for s in seen} == {s[2] for s in seen} == {False, True}


def test_best_settings_under_random_rule_sets_against_brute_force():
    """The exact searches under random mixes of the fields: "royalties" (valid settings only) and
    a callable of the row values (every split when mis-set hands are played) against every
    split."""
    rng = np.random.default_rng(2870)

    def objective(values):
        return values[:, 0] // 300 + values[:, 1] // 500 - values[:, 2] // 700
    for i in range(10):
        r = random_rules(rng)
        hand = low_rich_hand(rng, i) if i % 2 else ref.royalty_rich_hand(rng, i)
        for obj in ("royalties", objective):
            got = chinese.best_setting(hand, r, obj)
            want = ref.brute_force(hand, ref.rules_dict(r), obj)
            assert as_boards([got.board.cards]) == [wanted(want)] and got.value == want["value"], (r, hand)


# ============================================================================= the docs
SEED_LINES = {
    # the seed's line: (the preset that adds it, the field or type that is it)
    "Low in the middle—In this variation, the middle hand is played as a deuce-to-seven low hand.":
        ("low-middle", "low_middle"),
    "In other variants players only get an additional unit if they win all three hands (known as a scoop).":
        ("scoop-unit", "scoop_bonus"),
    "In some variations players are still required to play their hands.": ("mis-set-played", "mis_set_played"),
    "Another variation scores the game 1 point per hand, with the winner of the game being the first "
    "to 11 points. If a player wins all 3 hands and there are 4 players, the winning player gets a "
    "4th point.": (None, "Match"),
}


def test_docs_map_each_seed_line_to_its_field():
    """docs/chinese.md quotes each new line of seeds/001 (copied word for word) next to its field
    (the presets table) or its type (the game to 11's section)."""
    docs = doc_pages.read("chinese.md")
    flat = " ".join(docs.split())
    for line, (preset, field) in SEED_LINES.items():
        assert line in flat, line
        if preset is not None:
            row = next(r for r in docs.splitlines() if r.startswith(f"| `{preset}` |"))
            assert f"`{field}=" in row and line in row, preset
            assert getattr(chinese.Rules.preset(preset), field) != getattr(chinese.Rules(), field)
        else:
            section = flat[flat.index("## The game to 11"):]
            assert line in section and f"`{field}(" in section
    for quoted in (SEED_LOW_MIDDLE, SEED_SCOOP, SEED_MIS_SET, SEED_ELEVEN):
        assert quoted in flat
