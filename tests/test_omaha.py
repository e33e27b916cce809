"""Omaha high and 8-or-better low (RULES.md "Poker variants") against an independent reference:
the best of every two-hole-plus-three-board combination through tests/reference.py's 5-card
scales, on random deals of every hole and board size, plus the hands users ask about."""
import itertools

import numpy as np
import pytest

import handrank as hr
import reference as ref
from handrank import _omaha, high, lowa5, omaha

SIZES = [(k, b) for k in (4, 5, 6) for b in (3, 4, 5)]
# The high loops import can pick: the popcnt copy only where the CPU and the build have it.
KERNELS = ["portable"] + (["popcnt"] if _omaha.has_popcnt() else [])


@pytest.fixture(params=KERNELS)
def kernel(request):
    """Run the test on each high loop, then put back the one import chose."""
    chosen = _omaha.kernel_name()
    _omaha.set_kernel(request.param)
    yield request.param
    _omaha.set_kernel(chosen)


def deals(n, k, b, seed):
    """n random deals of k hole and b board cards, as two uint8 arrays."""
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, :k + b].astype(np.uint8)
    return np.ascontiguousarray(cards[:, :k]), np.ascontiguousarray(cards[:, k:])


def combos(hole, board):
    """Every two-hole-plus-three-board hand of each deal, one (N, 5) array per combination."""
    for pair in itertools.combinations(range(hole.shape[1]), 2):
        for triple in itertools.combinations(range(board.shape[1]), 3):
            yield np.concatenate((hole[:, pair], board[:, triple]), axis=1)


def reference_high(hole, board):
    table = ref._scale("high")
    best = np.zeros(len(hole), np.int64)
    for hand in combos(hole, board):
        np.maximum(best, table[ref._group_codes(hand)], out=best)
    return best


def reference_low8(hole, board):
    """The best A-5 low (dense rank over all 5-card hands) of the combinations that are five
    distinct ranks all 8 or lower (ace low); 0 where none is."""
    table = ref._scale("lowa5")
    best = np.zeros(len(hole), np.int64)
    for hand in combos(hole, board):
        low_ranks = np.sort((hand // 4 + 1) % 13, axis=1)        # ace 0, deuce 1, ..., eight 7
        qualifies = (low_ranks[:, -1] <= 7) & (np.diff(low_ranks, axis=1) > 0).all(axis=1)
        np.maximum(best, np.where(qualifies, table[ref._group_codes(hand)], 0), out=best)
    return best


def check_against_reference(n, seed):
    for k, b in SIZES:
        hole, board = deals(n, k, b, seed + 10 * k + b)
        got = omaha.evaluate_batch(hole, board, threads=1)
        want = reference_high(hole, board)
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, (k, b, [(hr.hand_str(hole[i]), hr.hand_str(board[i]), int(got[i]),
                                       int(want[i])) for i in bad[:3]])
        got = omaha.evaluate_low8_batch(hole, board, threads=1)
        want = reference_low8(hole, board)
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, (k, b, [(hr.hand_str(hole[i]), hr.hand_str(board[i]), int(got[i]),
                                       int(want[i])) for i in bad[:3]])


def test_random_deals_match_reference(kernel):
    check_against_reference(3000, seed=1)


@pytest.mark.slow
def test_many_random_deals_match_reference(kernel):
    check_against_reference(200_000, seed=2)


def suited_deals(k, b):
    """Every choice of two spade ranks in the hole and three others on the board (12,870 deals),
    the rest of the hole hearts and diamonds and of the board clubs: each deal's one flush is
    valued apart from its plain hands, by the loops' flush path."""
    spade = lambda r: 4 * r + 3      # noqa: E731
    others_hole = [4 * r + 2 for r in (0, 5, 11)] + [4 * r + 1 for r in (3, 9)]
    others_board = [4 * r for r in (1, 7)]
    holes, boards = [], []
    for pair in itertools.combinations(range(13), 2):
        for triple in itertools.combinations(range(13), 3):
            if set(pair) & set(triple):
                continue
            holes.append([spade(r) for r in pair] + others_hole[:k - 2])
            boards.append([spade(r) for r in triple] + others_board[:b - 3])
    return np.array(holes, np.uint8), np.array(boards, np.uint8)


@pytest.mark.parametrize("k, b", [(4, 3), (4, 5), (6, 4)])
def test_every_flush_rank_choice_matches_reference(kernel, k, b):
    # every straight flush window, wheel included, and every plain flush of two and three ranks
    hole, board = suited_deals(k, b)
    got = omaha.evaluate_batch(hole, board, threads=1)
    want = reference_high(hole, board)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [(hr.hand_str(hole[i]), hr.hand_str(board[i]), int(got[i]), int(want[i]))
                           for i in bad[:3]]
    for i in range(0, len(hole), 97):       # the scalar path runs the same loop on one row
        assert omaha.evaluate(hole[i].tolist(), board[i].tolist()) == want[i]


def test_kernel_choice():
    chosen = _omaha.kernel_name()
    assert chosen == ("popcnt" if _omaha.has_popcnt() else "portable")
    with pytest.raises(ValueError, match="no 'avx' Omaha loop"):
        _omaha.set_kernel("avx")
    assert _omaha.kernel_name() == chosen
    if not _omaha.has_popcnt():
        with pytest.raises(ValueError, match="'popcnt'"):
            _omaha.set_kernel("popcnt")
        assert _omaha.kernel_name() == chosen


@pytest.mark.parametrize("k, b", SIZES)
def test_scalar_matches_batch_and_best_five(k, b):
    hole, board = deals(200, k, b, seed=k * b)
    values = omaha.evaluate_batch(hole, board)
    lows = omaha.evaluate_low8_batch(hole, board)
    for i in range(len(hole)):
        h, bd = hole[i].tolist(), board[i].tolist()
        assert omaha.evaluate(h, bd) == values[i]
        assert omaha.evaluate_low8(h, bd) == lows[i]
        five = omaha.best_five(h, bd)
        assert set(five[:2]) <= set(h) and set(five[2:]) <= set(bd) and len(set(five)) == 5
        assert high.evaluate(five) == values[i]


# ----------------------------------------------------------------------------- the usual worries
@pytest.mark.parametrize("hole, board, made", [
    # four to a flush on the board and one suited hole card: no flush (two hole cards needed)
    ("As Kd 7c 2h", "Qs Js 9s 4s 3d", "As Kd Qs Js 9s"),
    # two suited hole cards with three on the board make it
    ("As Ks 7c 2h", "Qs Js 9s 4d 3d", "As Ks Qs Js 9s"),
    # a board pair and trips in the hole: two of the hole trips only, a full house
    ("9c 9d 9h 2c", "Kd Ks 5h 7c Jd", "9c 9d Kd Ks Jd"),
    # trips in the hole, nothing paired on the board: just a pair of nines
    ("9c 9d 9h 2c", "Kd Qs 5h 7c Jd", "9c 9d Kd Qs Jd"),
    # a board with four of a rank plays only three of them
    ("Ah Kh 2c 3d", "7c 7d 7h 7s 4c", "Ah Kh 7c 7d 7h"),
    # quads on the board cannot play: a straight with two hole cards beats the trips
    ("6h 8h Kc Qd", "7c 7d 7h 9s 5c", "6h 8h 7c 9s 5c"),
    # a wheel that needs two hole cards (ace and deuce)
    ("Ac 2d Kh Ks", "3c 4h 5s Qd Jd", "Ac 2d 3c 4h 5s"),
    # a straight flush needs exactly two suited hole cards and three on the board
    ("9h Th 2c 3d", "Jh Qh Kh 4c 5d", "Th 9h Jh Qh Kh"),
    # a flop only
    ("Ac Ad Kc Kd", "As 7h 2d", "Ac Ad As 7h 2d"),
])
def test_structured_high_hands(hole, board, made):
    assert omaha.evaluate(hole, board) == high.evaluate(made)


@pytest.mark.parametrize("hole, board, low", [
    ("As 2s Kd Kc", "3h 4h 5c Qd Jd", "As 2s 3h 4h 5c"),      # the nut low, a wheel
    ("As 2s 3d Kc", "3h 4h 8c Qd Jd", "As 2s 3h 4h 8c"),      # two hole cards only: A-2 plus 3-4-8
    # counterfeited: the board's ace and deuce pair the hole's; 3-4 play with the board's A-2-5
    ("As 2s 3d 4c", "Ah 2h 5c Kd Qd", "3d 4c Ah 2h 5c"),
    ("As 2s 3d 4c", "Ah 2h 9c Kd Qd", None),                  # only two low ranks on the board
    ("As 2s 3d 4c", "9h Th Jc Kd Qd", None),                  # no low board
    ("Ks Qs Jd Tc", "Ah 2h 3c 4d 5d", None),                  # no low card in the hole
    ("As Ks Jd Tc", "2h 3h 4c Kd 5d", None),                  # one low hole card is not enough
    ("8s 7s Kd Kc", "Ah 2h 3c Qd Jd", "8s 7s Ah 2h 3c"),      # an eight low qualifies
    ("9s 7s Kd Kc", "Ah 2h 3c Qd Jd", None),                  # a nine does not
])
def test_structured_lows(hole, board, low):
    want = omaha.NO_LOW if low is None else lowa5.evaluate(low)
    assert omaha.evaluate_low8(hole, board) == want
    if low is not None:
        assert lowa5.qualifies8(want)


def test_no_low_is_below_every_low():
    assert omaha.NO_LOW == 0 < lowa5.QUALIFY8


# ----------------------------------------------------------------------------- peers
def test_agrees_with_phevaluator_plo4():
    phevaluator = pytest.importorskip("phevaluator")
    hole, board = deals(2000, 4, 5, seed=7)
    values = omaha.evaluate_batch(hole, board)
    for i in range(len(hole)):
        rank = phevaluator.evaluate_omaha_cards(*board[i].tolist(), *hole[i].tolist())
        assert values[i] == 7463 - rank


# ----------------------------------------------------------------------------- batch mechanics
def test_threads_and_out():
    hole, board = deals(70_000, 5, 5, seed=3)
    one = omaha.evaluate_batch(hole, board, threads=1)
    out = np.zeros(len(hole), np.uint16)
    assert omaha.evaluate_batch(hole, board, threads=2, out=out) is out
    assert np.array_equal(out, one)
    lows = omaha.evaluate_low8_batch(hole, board, threads=1)
    assert np.array_equal(omaha.evaluate_low8_batch(hole, board, threads=2), lows)


def test_other_integer_types_and_strings():
    hole, board = deals(50, 4, 4, seed=5)
    want = omaha.evaluate_batch(hole, board)
    assert np.array_equal(omaha.evaluate_batch(hole.astype(np.int64), board.astype(np.int32)), want)
    texts = [hr.hand_str(h) for h in hole], [hr.hand_str(b) for b in board]
    assert np.array_equal(omaha.evaluate_batch(*texts), want)


@pytest.mark.parametrize("where, problem", [
    ("shared", "is both a hole card and a board card"),
    ("hole", "appears twice in the hole"),
    ("board", "appears twice in the board"),
])
@pytest.mark.parametrize("threads", [1, 2])
def test_bad_row_is_named_and_out_unchanged(kernel, where, problem, threads):
    hole, board = deals(50_000, 4, 5, seed=9)
    row = 40_321
    if where == "shared":
        hole[row, 1] = board[row, 2]
    elif where == "hole":
        hole[row, 3] = hole[row, 0]
    else:
        board[row, 4] = board[row, 1]
    out = np.full(len(hole), 7, np.uint16)
    for evaluate in (omaha.evaluate_batch, omaha.evaluate_low8_batch):
        with pytest.raises(ValueError, match=f"row {row}: .* {problem}"):
            evaluate(hole, board, threads=threads, out=out)
        assert (out == 7).all()


def test_out_of_range_card_is_named():
    hole, board = deals(10, 4, 5, seed=11)
    board = board.astype(np.int64)
    board[6, 0] = 52
    with pytest.raises(ValueError, match="row 6: card id 52"):
        omaha.evaluate_batch(hole, board)


@pytest.mark.parametrize("where", ["hole", "board"])
@pytest.mark.parametrize("card", [52, 60, 255])
def test_out_of_range_uint8_id_is_named(kernel, where, card):
    hole, board = deals(100, 4, 5, seed=13)
    (hole if where == "hole" else board)[42, 1] = card
    for evaluate in (omaha.evaluate_batch, omaha.evaluate_low8_batch):
        with pytest.raises(ValueError, match=f"row 42: card id {card} is out of range"):
            evaluate(hole, board)


def test_out_on_the_board_cards():
    hole, board = deals(1000, 4, 5, seed=12)
    want = omaha.evaluate_batch(hole, board)
    # a uint16 view of the board's first 2000 bytes, written while the board is read
    wide = np.zeros((1000, 6), np.uint8)
    wide[:, 1:] = board
    shared_board = wide[:, 1:]
    out = wide.reshape(-1)[:2000].view(np.uint16)
    got = omaha.evaluate_batch(hole, np.ascontiguousarray(shared_board), out=out)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("hole, board, error, text", [
    (np.zeros((3, 3), np.uint8), np.zeros((3, 5), np.uint8), ValueError, r"shape \(N, 4 or 5 or 6\)"),
    (np.zeros((3, 4), np.uint8), np.zeros((3, 6), np.uint8), ValueError, r"shape \(N, 3 or 4 or 5\)"),
    (np.zeros((3, 4), np.uint8), np.zeros((2, 5), np.uint8), ValueError, "3 rows and board 2"),
    (np.zeros((3, 4), np.float64), np.zeros((3, 5), np.uint8), TypeError, "integer array"),
])
def test_bad_arrays(hole, board, error, text):
    with pytest.raises(error, match=text):
        omaha.evaluate_batch(hole, board)


@pytest.mark.parametrize("hole, board, text", [
    ("As Ks Qs", "2c 3c 4c", "4, 5 or 6 hole cards, got 3"),
    ("As Ks Qs Js Ts 9s 8s", "2c 3c 4c", "4, 5 or 6 hole cards, got 7"),
    ("As Ks Qs Js", "2c 3c", "3, 4 or 5 cards, got 2"),
    ("As Ks Qs Js", "2c 3c 4c 5c 6c 7c", "3, 4 or 5 cards, got 6"),
    ("As Ks Qs Js", "2c 3c As", "As is both a hole card and a board card"),
    ("As Ks Qs As", "2c 3c 4c", "As"),
    ("As Ks Qs Xx", "2c 3c 4c", "Xx"),
])
def test_bad_scalar_hands(hole, board, text):
    for function in (omaha.evaluate, omaha.evaluate_low8, omaha.best_five):
        with pytest.raises(ValueError, match=text):
            function(hole, board)


def test_empty_batch():
    empty = np.zeros((0, 4), np.uint8), np.zeros((0, 5), np.uint8)
    assert omaha.evaluate_batch(*empty).shape == (0,)
    assert omaha.evaluate_low8_batch(*empty).shape == (0,)
