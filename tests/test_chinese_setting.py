"""Setting 13 cards in Chinese poker: every valid setting (``chinese.settings``) and the best one
for the royalty, "ev" and callable objectives (``best_setting``, ``best_setting_batch``), against
the brute force of tests/chinese_reference.py over all 72,072 splits."""
import itertools

import numpy as np
import pytest

import chinese_reference as ref
import handrank as hr
from handrank import chinese, ofc, rows

E = hr.cards
PRESETS = ("1-6", "2-4", "net-royalties")

# royalty tables unlike the default: pairs on top, straights and flushes below (OFC-like)
CUSTOM = dict(top_royalties={"66": 1, "QQ": 4, "AA": 6, "222": 10, "TTT": 12},
              middle_royalties={"trips": 2, "straight": 4, "flush": 8, "full house": 12,
                                "quads": 20},
              bottom_royalties={"straight": 2, "flush": 4, "quads": 10, "straight flush": 0})


def random_hands(rng, count, rich=True):
    """count 13-card hands: uniform, or (rich) a mix of uniform, few-rank and two-suit hands."""
    if rich:
        return [ref.royalty_rich_hand(rng, i) for i in range(count)]
    return [[int(c) for c in rng.choice(52, 13, replace=False)] for _ in range(count)]


def board_of(want):
    return ofc.Board(want["top"], want["middle"], want["bottom"])


def check_best(hand, got, want, exact=True):
    """The package's BestSetting is the brute force's: the same board, the same value."""
    assert isinstance(got, chinese.BestSetting) and isinstance(got.board, ofc.Board)
    assert isinstance(got.value, float)
    assert (got.top, got.middle, got.bottom) == (got.board.top, got.board.middle, got.board.bottom)
    assert got.board == board_of(want), (hr.hand_str(hand), str(got.board), str(board_of(want)))
    if exact:
        assert got.value == want["value"]
    else:
        assert got.value == pytest.approx(want["value"], rel=1e-9, abs=1e-12)
    assert sorted(got.board.cards) == sorted(hand)
    assert ref.is_valid(got.top, got.middle, got.bottom)


ROYAL_HANDS = [
    "Ac Ad Ah As Kc Kd Kh Ks Qc Qd Qh Qs 2c",      # three quads
    "Tc Jc Qc Kc Ac Td Jd Qd Kd Ad 2h 2s 2d",      # two royal flushes and trips
    "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac",      # 13 clubs
    "5h 6h 7h 8h 9h 9c 9d 9s Ts Tc Td Th 3d",      # straight flush, quads, quads
    "Ac Ad Ah Kc Kd Kh Qc Qd Qh Jc Jd Jh 2s",      # four trips
    "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h 6s",      # low trips and full houses
    "Ac Ad Ah As 2c 3c 4c 5c 6h 7h 8h 9h Th",      # quads and straight flushes
    "Ks Qs Js Ts 9s 8s Kc Kd Kh 7c 7d 7h 7s",      # straight flushes and quads of sevens
]


# ============================================================================= settings
def test_settings_against_brute_force():
    rng = np.random.default_rng(1)
    hands = random_hands(rng, 30) + [E(h) for h in ROYAL_HANDS]
    for hand in hands:
        got = chinese.settings(hand)
        want = ref.valid_settings(hand)
        assert got.dtype == np.uint8 and got.ndim == 2 and got.shape[1] == 13
        assert 0 < len(got) <= 72_072
        assert np.array_equal(got, want), hr.hand_str(hand)      # the same settings, same order
    # spot checks of the reference's order and validity from first principles
    got = chinese.settings(hands[0])
    for row in got[::997]:
        top, middle, bottom = row[:3].tolist(), row[3:8].tolist(), row[8:].tolist()
        assert top == sorted(top) and middle == sorted(middle) and bottom == sorted(bottom)
        assert ref.is_valid(top, middle, bottom)
    keys = [(tuple(r[8:]), tuple(r[3:8])) for r in got.tolist()]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_settings_count_and_every_valid_split():
    """Counting by loops: every split of one hand, the valid ones are exactly settings()."""
    hand = E("Ac Kd Qh Js 9c 9d 7h 5s 4c 4d 4h 3s 2c")
    ids = sorted(hand)
    every = set()
    total = 0
    for bottom in itertools.combinations(ids, 5):
        rest = [c for c in ids if c not in bottom]
        for middle in itertools.combinations(rest, 5):
            top = tuple(c for c in rest if c not in middle)
            total += 1
            if ref.is_valid(top, middle, bottom):
                every.add(top + middle + bottom)
    assert total == 72_072
    got = chinese.settings(hand)
    assert {tuple(r) for r in got.tolist()} == every and len(got) == len(every)


def test_settings_input_forms_and_errors():
    text = "Ac Kd Qh Js 9c 9d 7h 5s 4c 4d 4h 3s 2c"
    expected = chinese.settings(E(text))
    assert np.array_equal(chinese.settings(text), expected)
    assert np.array_equal(chinese.settings(text.split()), expected)
    assert np.array_equal(chinese.settings(list(reversed(E(text)))), expected)
    for bad in (E(text)[:12], E(text) + [50], E(text)[:12] + [E(text)[0]]):
        with pytest.raises(ValueError):
            chinese.settings(bad)
    with pytest.raises(ValueError):
        chinese.settings("Ac Kd Qh Js 9c 9d 7h 5s 4c 4d 4h 3s Zz")


# ============================================================================= royalties
@pytest.mark.parametrize("rich, seed", [(False, 1), (True, 2), (True, 3)])
def test_best_royalties_against_brute_force(rich, seed):
    rng = np.random.default_rng(100 + seed)
    hands = random_hands(rng, 100, rich)
    custom = chinese.Rules(**ref.rules_kwargs(CUSTOM))
    earned = 0
    for hand in hands:
        want = ref.brute_force(hand)
        check_best(hand, chinese.best_setting(hand), want)
        earned += want["value"] > 0
        # the presets share the royalty tables
        assert chinese.best_setting(hand, "2-4").board == board_of(want)
        want = ref.brute_force(hand, CUSTOM)
        check_best(hand, chinese.best_setting(hand, custom), want)
    assert earned > (2 if not rich else 25)


def test_best_royalties_constructed_hands():
    custom = chinese.Rules(**ref.rules_kwargs(CUSTOM))
    values = []
    for text in ROYAL_HANDS:
        hand = E(text)
        want = ref.brute_force(hand)
        got = chinese.best_setting(text)
        check_best(hand, got, want)
        values.append(got.value)
        check_best(hand, chinese.best_setting(hand, custom), ref.brute_force(hand, CUSTOM))
    # a royal flush at the bottom (10) and in the middle (20) and trips on top (3)
    assert values[1] == 33.0
    # the two royal flushes tie: the lowest ids (clubs) go to the bottom
    assert chinese.best_setting(ROYAL_HANDS[1]).board == ofc.Board(
        "2d 2h 2s", "Td Jd Qd Kd Ad", "Tc Jc Qc Kc Ac")


def test_best_royalties_ties_go_to_the_strongest_rows_then_lowest_cards():
    # no royalty anywhere: the strongest bottom, then middle, then top
    hand = E("2c 4d 6h 8s Tc Qd 3h 5s 7c 9d Jh Ks Ac")
    want = ref.brute_force(hand)
    assert want["value"] == 0
    got = chinese.best_setting(hand)
    check_best(hand, got, want)
    # a hand whose best is tied in rows and value: the lowest ids (suits) win
    hand = E("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c")
    got = chinese.best_setting(hand)
    check_best(hand, got, ref.brute_force(hand))
    assert got.value == 15.0                       # trips 3 + quads 8 middle + quads 4 bottom


# ============================================================================= ev
@pytest.mark.parametrize("name", PRESETS)
def test_best_ev_against_brute_force(name):
    rng = np.random.default_rng(200 + PRESETS.index(name))
    tables = chinese.row_tables(name)
    hands = random_hands(rng, 24, rich=True) + [E(h) for h in ROYAL_HANDS[:6]]
    differs_from_royalties = 0
    for hand in hands:
        want = ref.brute_force(hand, name, "ev", tables)
        got = chinese.best_setting(hand, name, "ev")
        check_best(hand, got, want, exact=False)
        differs_from_royalties += got.board != chinese.best_setting(hand, name).board
    assert differs_from_royalties > 5


def test_ev_values_differ_between_scorings():
    hand = E(ROYAL_HANDS[0])
    values = {name: chinese.best_setting(hand, name, "ev").value for name in PRESETS}
    assert len(set(values.values())) == 3, values


def test_ev_value_is_the_formula_for_the_chosen_setting():
    """The value reported is the spec's expression of the board returned, written out for one
    setting with the tables by hand (1-6, royalties to the winner)."""
    t = chinese.row_tables("1-6")
    hand = E("Ac Ad Ah 7c 8c 9c Tc Jc Kd Ks Qd Qs 2h")
    got = chinese.best_setting(hand, "1-6", "ev")
    v = [rows.value(list(row)) for row in (got.top, got.middle, got.bottom)]
    mine = ref.royalties(got.top, got.middle, got.bottom)
    w = [t.win[r][v[r]] for r in range(3)]
    lo = [t.lose[r][v[r]] for r in range(3)]
    expected = sum(w[r] - lo[r] + mine[r] * w[r] - t.beaten_royalty[r][v[r]] for r in range(3))
    expected += 3 * (w[0] * w[1] * w[2] - lo[0] * lo[1] * lo[2])
    assert got.value == pytest.approx(expected, rel=1e-9)


@pytest.mark.slow
def test_best_ev_custom_royalties_against_brute_force():
    """A custom royalty table has its own opponent model (built here: a few seconds)."""
    for spec in (CUSTOM, {**CUSTOM, "scoring": "2-4", "royalties_to_winner": False}):
        r = chinese.Rules(**ref.rules_kwargs(spec))
        tables = chinese.row_tables(r)
        assert not np.array_equal(tables.win, chinese.row_tables("1-6").win)
        rng = np.random.default_rng(250)
        for hand in random_hands(rng, 15):
            want = ref.brute_force(hand, spec, "ev", tables)
            check_best(hand, chinese.best_setting(hand, r, "ev"), want, exact=False)


# ============================================================================= callables
OBJECTIVE_FUNCTIONS = {
    "strongest bottom": lambda v: v[:, 2],
    "weakest top": lambda v: -v[:, 0],
    "strongest middle as float": lambda v: v[:, 1].astype(np.float64) / 7.0,
    "many ties": lambda v: v.sum(axis=1) % 5,
    "constant": lambda v: np.zeros(len(v)),
    "list": lambda v: [int(x) for x in (v[:, 0] > 200)],
}


@pytest.mark.parametrize("name", list(OBJECTIVE_FUNCTIONS))
def test_callable_objectives_against_brute_force(name):
    objective = OBJECTIVE_FUNCTIONS[name]
    rng = np.random.default_rng(300 + len(name))
    hands = random_hands(rng, 8) + [E(ROYAL_HANDS[0]), E(ROYAL_HANDS[3])]
    for hand in hands:
        want = ref.brute_force(hand, None, objective)
        check_best(hand, chinese.best_setting(hand, objective=objective), want)


def test_callable_sees_every_valid_setting_in_order():
    hand = E("Ac Kd Qh Js 9c 9d 7h 5s 4c 4d 4h 3s 2c")
    seen = []

    def objective(values):
        seen.append(values.copy())
        return values[:, 2]

    chinese.best_setting(hand, objective=objective)
    assert len(seen) == 1
    values = seen[0]
    assert values.shape == (len(chinese.settings(hand)), 3)
    assert np.issubdtype(values.dtype, np.integer)
    assert np.array_equal(values, ref.row_values(hand))


def test_callable_with_wrong_shape_and_unknown_objectives():
    hand = E(ROYAL_HANDS[0])
    with pytest.raises(ValueError):
        chinese.best_setting(hand, objective=lambda v: v[:5, 0])
    with pytest.raises(ValueError):
        chinese.best_setting(hand, objective=lambda v: v)
    with pytest.raises(ValueError):
        chinese.best_setting(hand, objective="royalty")
    with pytest.raises(ValueError):
        chinese.best_setting_batch(np.array([hand]), objective="max")
    assert chinese.OBJECTIVES == ("royalties", "ev")


# ============================================================================= batch
@pytest.mark.parametrize("objective", ["royalties", "ev", "callable"])
@pytest.mark.parametrize("name", PRESETS)
def test_batch_equals_scalar(objective, name):
    rng = np.random.default_rng(400 + PRESETS.index(name))
    hands = np.array(random_hands(rng, 40) + [E(h) for h in ROYAL_HANDS], dtype=np.uint8)
    if objective == "callable":
        objective = OBJECTIVE_FUNCTIONS["many ties"]
        hands = hands[:12]
    scalar = [chinese.best_setting(h.tolist(), name, objective) for h in hands]
    boards = np.array([s.board.cards for s in scalar], dtype=np.uint8)
    values = np.array([s.value for s in scalar])
    for threads in (1, 2):
        got = chinese.best_setting_batch(hands, name, objective, threads=threads)
        assert isinstance(got, chinese.BestSettingArrays)
        assert got.boards.dtype == np.uint8 and got.boards.shape == (len(hands), 13)
        assert got.value.dtype == np.float64 and got.value.shape == (len(hands),)
        assert np.array_equal(got.boards, boards)
        assert np.array_equal(got.value, values)
    # the cards in any order and integer type give the same answer
    shuffled = np.array([rng.permutation(h) for h in hands]).astype(np.int64)
    again = chinese.best_setting_batch(shuffled, name, objective, threads=2)
    assert np.array_equal(again.boards, boards) and np.array_equal(again.value, values)


def test_batch_default_rules_and_threads():
    rng = np.random.default_rng(450)
    hands = hr.random_hands(64, 13, seed=rng)
    default = chinese.best_setting_batch(hands)
    two = chinese.best_setting_batch(hands, "1-6", threads=2)
    assert np.array_equal(default.boards, two.boards) and np.array_equal(default.value, two.value)
    for i in range(0, 64, 9):
        assert default.boards[i].tolist() == list(chinese.best_setting(hands[i]).board.cards)


def test_batch_bad_input():
    hands = np.array([E(h) for h in ROYAL_HANDS[:3]], dtype=np.uint8)
    assert chinese.best_setting_batch(hands).boards.shape == (3, 13)
    with pytest.raises(ValueError):
        chinese.best_setting_batch(hands[:, :12])
    with pytest.raises(ValueError):
        chinese.best_setting_batch(hands.ravel())
    with pytest.raises(TypeError):
        chinese.best_setting_batch(hands.astype(np.float64))
    bad = hands.astype(np.int64)
    bad[1, 5] = 52
    with pytest.raises(ValueError, match="row 1"):
        chinese.best_setting_batch(bad)
    bad = hands.copy()
    bad[2, 12] = bad[2, 0]
    for objective in ("royalties", "ev", OBJECTIVE_FUNCTIONS["constant"]):
        with pytest.raises(ValueError, match="row 2"):
            chinese.best_setting_batch(bad, objective=objective)
    with pytest.raises(ValueError):
        chinese.best_setting_batch(hands, threads=0)
    with pytest.raises(ValueError):
        chinese.best_setting(E(ROYAL_HANDS[0])[:12])
    empty = chinese.best_setting_batch(np.zeros((0, 13), dtype=np.uint8))
    assert empty.boards.shape == (0, 13) and empty.value.shape == (0,)


@pytest.mark.parametrize("objective", ["royalties", "ev", "callable"])
def test_batch_rejects_uint8_ids_above_51(objective):
    """uint8 arrays are passed through unconverted, so their ids must be checked too."""
    if objective == "callable":
        objective = OBJECTIVE_FUNCTIONS["strongest bottom"]
    hands = np.array([E(h) for h in ROYAL_HANDS[:3]], dtype=np.uint8)
    for card in (52, 99, 255):
        bad = hands.copy()
        bad[2, 7] = card
        with pytest.raises(ValueError, match="row 2"):
            chinese.best_setting_batch(bad, objective=objective, threads=1)


def test_a_natural_is_still_set():
    for text in ("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad",       # dragon
                 "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d Ah"):     # six pairs
        hand = E(text)
        assert chinese.natural(hand) is not None
        check_best(hand, chinese.best_setting(hand), ref.brute_force(hand))
