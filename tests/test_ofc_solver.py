"""The Fantasyland solver (RULES.md "Fantasyland solving") against the reference's brute force,
which tries every setting (tests/ofc_reference.py)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import handrank as hr
import ofc_reference as ref
from handrank import ofc

SOLVER_PRESETS = ("pineapple", "progressive", "deuce")
STAY_VALUES = (0.0, 10.0, 2.5)


def rules(name):
    return ofc.Rules.preset(name)


def random_fl_hands(rng, count, n, lowball=False):
    """count hands of n cards: a third uniform, a third from a few ranks (pairs, trips, quads,
    full houses), a third from two suits (flushes, straight flushes). For 2-7, the rank-poor third
    is drawn with low ranks so that qualifying middles compete with the royalties."""
    hands = []
    for i in range(count):
        kind = i % 3
        if kind == 0:
            deck = np.arange(52)
        elif kind == 1:
            pool = np.arange(9) if lowball and i % 2 else np.arange(13)
            ranks = rng.choice(pool, size=rng.integers(6, 9), replace=False)
            deck = (4 * ranks[:, None] + np.arange(4)).ravel()
            if len(deck) < n:
                deck = np.arange(52)
        else:
            suits = rng.choice(4, size=2, replace=False)
            deck = (4 * np.arange(13)[:, None] + suits).ravel()
        hands.append(rng.choice(deck, size=n, replace=False).astype(np.int64))
    return hands


def as_reference(solution):
    """A Solution in the reference's form (rows as ascending tuples)."""
    board = solution.board
    return dict(top=tuple(sorted(board.top)), middle=tuple(sorted(board.middle)),
                bottom=tuple(sorted(board.bottom)), discards=tuple(solution.discards),
                royalties=solution.royalties, stays=solution.stays, value=solution.value,
                fouled=solution.fouled)


def check_solution(hand, name, stay_value, solution, expected):
    """The solver's answer is the brute force's, and is what it claims to be."""
    got = as_reference(solution)
    want = {k: v for k, v in expected.items() if k != "row_royalties"}
    assert got == want, (name, stay_value, hr.hand_str(hand))
    assert isinstance(solution.board, ofc.Board)
    assert isinstance(solution.royalties, int) and isinstance(solution.value, float)
    assert isinstance(solution.stays, bool) and isinstance(solution.fouled, bool)
    used = set(solution.board.cards) | set(solution.discards)
    assert len(used) == len(hand) and used == {int(c) for c in hand}
    assert list(solution.discards) == sorted(solution.discards)
    r = rules(name)
    if solution.fouled:
        assert ofc.is_foul(solution.board, r)
        assert solution.board.top == expected["top"] and solution.board.middle == expected["middle"]
        assert solution.board.bottom == expected["bottom"]          # ascending within rows
        assert (solution.royalties, solution.stays, solution.value) == (0, False, 0.0)
        return
    assert not ofc.is_foul(solution.board, r)
    royalties = tuple(ofc.royalties(solution.board, r))
    assert royalties == expected["row_royalties"]
    assert sum(royalties) == solution.royalties
    assert solution.stays == (ofc.fantasyland(solution.board, r, in_fantasyland=True) > 0)
    assert solution.value == solution.royalties + stay_value * solution.stays


def compare_hands(hands, name, stay_values=STAY_VALUES):
    r = rules(name)
    stays = 0
    for hand in hands:
        expected = ref.brute_force_fantasyland_multi(hand, name, stay_values)
        for stay_value, want in zip(stay_values, expected):
            solution = ofc.solve_fantasyland(hand, r, stay_value=stay_value)
            check_solution(hand, name, stay_value, solution, want)
            stays += solution.stays
    return stays


# ============================================================================= against brute force
@pytest.mark.parametrize("name", SOLVER_PRESETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_14_cards_equal_brute_force(name, seed):
    rng = np.random.default_rng(100 * seed + SOLVER_PRESETS.index(name))
    hands = random_fl_hands(rng, 40, 14, lowball=name == "deuce")
    stays = compare_hands(hands, name)
    assert stays > 0                        # the stay value mattered somewhere


@pytest.mark.parametrize("name", SOLVER_PRESETS)
def test_15_cards_equal_brute_force(name):
    rng = np.random.default_rng(150 + SOLVER_PRESETS.index(name))
    compare_hands(random_fl_hands(rng, 12, 15, lowball=name == "deuce"), name)


@pytest.mark.parametrize("name", ("classic", "pineapple", "progressive", "deuce"))
def test_13_cards_equal_brute_force(name):
    rng = np.random.default_rng(130 + len(name))
    compare_hands(random_fl_hands(rng, 9, 13, lowball=name == "deuce"), name)


def test_repeated_solves_agree():
    """The same hand solved again, alone and in batches, after other work: the same answer."""
    hand = hr.cards("Ah 8c 8s 9s Jc Jh 9c 2c 2h Qc Jd 8h 8d 2s")    # JJJ / 222 99 / 8888 A: 41
    other = hr.cards("5d 6d Jc 8c 9d 2d Jd 7d 4d 7c Qc 4c 3d Ad Tc")
    solutions = []
    for _ in range(3):
        solutions.append(ofc.solve_fantasyland(hand))
        ofc.solve_fantasyland(other, rules("progressive"))
        batch = ofc.solve_fantasyland_batch(np.array([hand, other[:14], hand]), threads=1)
        assert batch.royalties[0] == batch.royalties[2] == 41
    expected = ref.brute_force_fantasyland(hand, "pineapple")
    assert expected["royalties"] == 41 and expected["top"] == tuple(hr.cards("Jc Jd Jh"))
    for solution in solutions:
        check_solution(hand, "pineapple", 0.0, solution, expected)


def test_13_card_classic_stays_with_a_full_house_in_the_middle():
    hand = hr.cards("Ac Ad Ah Kc Kd 2c 2d 2h 2s 7c 8d 9h Js")
    r = rules("classic")
    solution = ofc.solve_fantasyland(hand, r, stay_value=100.0)
    assert solution.stays and not solution.fouled
    check_solution(hand, "classic", 100.0, solution, ref.brute_force_fantasyland(hand, "classic", 100.0))


@pytest.mark.parametrize("n", [16, 17])
@pytest.mark.parametrize("name", SOLVER_PRESETS)
def test_16_and_17_cards_agree_with_brute_force_on_15_of_them(name, n):
    """The brute force cannot enumerate 16 or 17 cards, but the best setting of n cards is also the
    best among any 15 of them that hold it: the 13 set cards and two of the discards. And no
    15 of the cards do better."""
    rng = np.random.default_rng(n + SOLVER_PRESETS.index(name))
    r = rules(name)
    setting = ("top", "middle", "bottom", "royalties", "stays", "value")
    stay_values = (0.0, 10.0)
    hand = random_fl_hands(rng, 2, n, lowball=name == "deuce")[n - 16]    # uniform, then rich
    solutions = [ofc.solve_fantasyland(hand, r, stay_value=v) for v in stay_values]
    for stay_value, solution in zip(stay_values, solutions):
        assert not solution.fouled and len(solution.discards) == n - 13
        kept = list(solution.board.cards) + list(solution.discards[:2])
        expected = ref.brute_force_fantasyland(kept, name, stay_value)
        got = as_reference(solution)
        assert {k: got[k] for k in setting} == {k: expected[k] for k in setting}
    other = rng.choice(hand, size=15, replace=False)
    best_of_other = ref.brute_force_fantasyland_multi(other, name, stay_values)
    for solution, expected in zip(solutions, best_of_other):
        assert expected["value"] <= solution.value


# ============================================================================= no valid setting
@pytest.mark.parametrize("cards", [
    "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad",                 # nothing is ten-low
    "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d",                 # four ranks: every middle pairs
    "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c Ac Ad Ah As",
    "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c Ac Ad Ah",
    "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h",
    "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac Ad",                 # one suit but the A d (no T-low)
    "6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s 9c 9d Tc Td Th",
])
def test_deuce_without_a_valid_setting(cards):
    hand = hr.cards(cards)
    r = rules("deuce")
    if len(hand) <= 15:
        expected = ref.brute_force_fantasyland(hand, "deuce")
    else:                                   # too many cards to enumerate: the specified fallback
        expected = ref.fouled_fallback(hand)
    assert expected["fouled"]
    for stay_value in (0.0, 10.0):
        solution = ofc.solve_fantasyland(hand, r, stay_value=stay_value)
        assert solution.fouled
        check_solution(hand, "deuce", stay_value, solution, expected)
        ids = sorted(hand)
        assert solution.board.bottom == tuple(ids[-5:])
        assert solution.board.middle == tuple(ids[-10:-5])
        assert solution.board.top == tuple(ids[-13:-10])
        assert solution.discards == tuple(ids[:-13])
    batch = ofc.solve_fantasyland_batch(np.array([hand]), r)
    assert batch.fouled.tolist() == [True] and batch.value.tolist() == [0.0]
    assert batch.boards[0].tolist() == ids[-13:]


def test_deuce_hand_with_a_single_qualifying_middle():
    # only 9-8-7-6-4 offsuit is ten-low or better: the other cards are kings and aces
    hand = hr.cards("9c 8d 7h 6s 4c Kc Kd Kh Ks Ac Ad Ah As Qs")
    solution = ofc.solve_fantasyland(hand, rules("deuce"))
    assert not solution.fouled
    assert sorted(solution.board.middle) == sorted(hr.cards("9c 8d 7h 6s 4c"))
    check_solution(hand, "deuce", 0.0, solution, ref.brute_force_fantasyland(hand, "deuce"))


# ============================================================================= forms, batch, errors
@settings(max_examples=40, deadline=None)
@given(st.integers(13, 17).flatmap(lambda n: st.tuples(st.permutations(range(52)).map(lambda p: p[:n]),
                                                        st.randoms(use_true_random=False))),
       st.sampled_from(SOLVER_PRESETS), st.sampled_from([0.0, 10.0]))
def test_solution_does_not_depend_on_the_order_of_the_cards(hand_and_random, name, stay_value):
    hand, random = hand_and_random
    r = rules(name)
    first = ofc.solve_fantasyland(list(hand), r, stay_value=stay_value)
    shuffled = list(hand)
    random.shuffle(shuffled)
    for form in (shuffled, np.array(shuffled, dtype=np.uint8), hr.hand_str(shuffled),
                 [hr.card_str(c) for c in shuffled]):
        again = ofc.solve_fantasyland(form, r, stay_value=stay_value)
        assert again.value == first.value
        assert as_reference(again) == as_reference(first)


@pytest.mark.parametrize("n", [13, 14, 15, 16, 17])
def test_batch_equals_scalar(n):
    rng = np.random.default_rng(n)
    for name in SOLVER_PRESETS:
        r = rules(name)
        hands = np.array(random_fl_hands(rng, 24, n, lowball=name == "deuce"), dtype=np.uint8)
        if name == "deuce":
            hands[0] = hr.cards("Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad Ah As Tc")[:n]
        for stay_value in (0.0, 10.0):
            singles = [ofc.solve_fantasyland(h, r, stay_value=stay_value) for h in hands]
            for threads in (None, 1, 2):
                got = ofc.solve_fantasyland_batch(hands, r, stay_value=stay_value, threads=threads)
                assert got.boards.dtype == np.uint8 and got.boards.shape == (len(hands), 13)
                assert got.royalties.dtype == np.int32 and got.stays.dtype == np.bool_
                assert got.fouled.dtype == np.bool_ and got.value.dtype == np.float64
                for i, s in enumerate(singles):
                    assert sorted(got.boards[i, :3]) == sorted(s.board.top)
                    assert sorted(got.boards[i, 3:8]) == sorted(s.board.middle)
                    assert sorted(got.boards[i, 8:]) == sorted(s.board.bottom)
                    assert (got.royalties[i], got.stays[i], got.fouled[i], got.value[i]) == \
                        (s.royalties, s.stays, s.fouled, s.value)
            if name == "deuce":
                assert got.fouled[0]
    # int64 input and the default rules
    hands = np.array(random_fl_hands(rng, 6, n), dtype=np.int64)
    got = ofc.solve_fantasyland_batch(hands)
    assert got.value.tolist() == [ofc.solve_fantasyland(h).value for h in hands]


def test_default_rules_are_pineapple():
    hand = hr.cards("Qc Qd 4h 5h 6h 7h 8h Ac Ad Ah As Kc 2c 3d")
    assert ofc.solve_fantasyland(hand) == ofc.solve_fantasyland(hand, rules("pineapple"))
    expected = ref.brute_force_fantasyland(hand, "pineapple", 10.0)
    check_solution(hand, "pineapple", 10.0, ofc.solve_fantasyland(hand, stay_value=10.0), expected)


@pytest.mark.parametrize("cards, error", [
    (list(range(12)), ValueError),                    # too few
    (list(range(18)), ValueError),                    # too many
    (list(range(13)) + [5], ValueError),              # a repeat
    (list(range(13)) + [52], ValueError),
    (list(range(13)) + [1.0], TypeError),
])
def test_solver_bad_input(cards, error):
    with pytest.raises(error):
        ofc.solve_fantasyland(cards)


def test_solver_bad_text():
    with pytest.raises(ValueError, match="Ks"):
        ofc.solve_fantasyland("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ks Ks")
    with pytest.raises(ValueError, match="Xx"):
        ofc.solve_fantasyland("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ks Xx")
    with pytest.raises(ValueError):
        ofc.solve_fantasyland("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc")


def test_solver_batch_bad_input():
    rng = np.random.default_rng(9)
    hands = np.array(random_fl_hands(rng, 5, 14), dtype=np.int64)
    with pytest.raises(ValueError):
        ofc.solve_fantasyland_batch(hands[:, :12])
    with pytest.raises(ValueError):
        ofc.solve_fantasyland_batch(np.concatenate([hands] * 2, axis=1)[:, :18])
    with pytest.raises(ValueError):
        ofc.solve_fantasyland_batch(hands[0])
    with pytest.raises(TypeError):
        ofc.solve_fantasyland_batch(hands.astype(float))
    bad = hands.copy()
    bad[3, 5] = 52
    with pytest.raises(ValueError, match="row 3"):
        ofc.solve_fantasyland_batch(bad)
    bad = hands.copy()
    bad[2, 13] = bad[2, 0]
    with pytest.raises(ValueError, match="row 2"):
        ofc.solve_fantasyland_batch(bad)


# ============================================================================= the reference itself
@pytest.mark.slow
@pytest.mark.parametrize("hand, name, stay_value", [
    ("Ac Ad Ah Kc Kd 2c 2d 2h 2s 7c 8d 9h Js", "classic", 5.0),
    ("7c 5d 4h 3s 2c 9c 8d 6h Kc Kd Kh 3c Ts", "deuce", 10.0),
])
def test_reference_brute_force_equals_plain_loops(hand, name, stay_value):
    """The vectorized brute force against plain loops over the scalar reference functions."""
    hand = hr.cards(hand)
    assert ref.brute_force_fantasyland(hand, name, stay_value) == \
        ref.brute_force_fantasyland_slow(hand, name, stay_value)
