"""handrank.equity against the slow reference (tests/equity_reference.py) and brute-force counts:
exact enumeration, Monte Carlo within its standard error, the batch, symmetries and errors."""
import itertools

import numpy as np
import pytest

from handrank import equity
from handrank.cards import cards
from handrank.equity import Range, calculate, hand_vs_hand_batch
from equity_reference import hand, range_of, reference_equity


def assert_matches(result, expected, tol=1e-12):
    eq, win, tie, total = expected
    assert result.exact
    assert result.showdowns == pytest.approx(total, rel=1e-12)
    np.testing.assert_allclose(result.equity, eq, atol=tol)
    np.testing.assert_allclose(result.win, win, atol=tol)
    np.testing.assert_allclose(result.tie, tie, atol=tol)


# -------------------------------------------------------------------------- exact
def test_aces_vs_kings_preflop_brute_force_counts():
    r = calculate(["AhAs", "KcKd"], exact=True)
    assert r.showdowns == 1_712_304
    assert round(r.win[0] * r.showdowns) == 1_388_072
    assert round(r.win[1] * r.showdowns) == 317_694
    assert round(r.tie[0] * r.showdowns) == 6_538
    assert r.equity[0] == pytest.approx((1_388_072 + 6_538 / 2) / 1_712_304, abs=1e-15)
    assert r.equity[0] == pytest.approx(0.812555, abs=1e-6)


SPOTS = [   # (hands, board, dead)
    (["AsKs", "QhQd"], "Jh Th 2c", ""),
    (["AsKs", "QhQd"], "Jh Th 2c 9s", ""),
    (["AsKs", "QhQd"], "Jh Th 2c 9s 3d", ""),
    (["7h6h", "AcKd", "9c9d"], "8h 5h 2s", ""),
    (["7h6h", "AcKd", "9c9d", "2c2d"], "8h 5h Ks", ""),
    (["AsKs", "QhQd", "JcTc"], "9s 8s 3h 2d", "Ad"),
    (["AhKh", "AcKc"], "Qh Jc 2d", ""),                         # ties
    (["5s4s", "5h4h", "5d4d"], "Ac 2c 3s", "Kd"),              # 3-way ties and flushes
    (["AsAd", "KsKd"], "Qs Js Ts", "9s 2h"),
]


@pytest.mark.parametrize("players,board,dead", SPOTS)
def test_exact_hands_match_reference(players, board, dead):
    expected = reference_equity([hand(p) for p in players], cards(board), cards(dead))
    assert_matches(calculate(players, board, dead), expected)


def test_range_vs_range_on_a_flop_matches_reference():
    board = cards("Jh Th 2c")
    players = ["QQ+, AKs, AhQh:0.5", "JJ, 99-77, AQs, KQo:0.25, T9s"]
    expected = reference_equity([range_of(p) for p in players], board)
    assert_matches(calculate(players, board), expected)


def test_hand_vs_two_ranges_on_a_turn_matches_reference():
    board = cards("Ks 9d 4c 2s")
    players = ["AsQs", "KK-99, AK", "55-22, A5s, 98"]
    expected = reference_equity([hand(players[0]), range_of(players[1]), range_of(players[2])], board)
    assert_matches(calculate(players, board, exact=True), expected, tol=1e-10)


def test_overlapping_narrow_ranges_match_reference():
    players = ["AA, KK", "AA, KK", "AsKs, AhKh, QQ"]
    board = cards("2c 7d 9h")
    expected = reference_equity([range_of(p) for p in players], board)
    assert_matches(calculate(players, board), expected)


def test_swapping_players_swaps_results():
    a = calculate(["QQ+, AKs", "AhJh", "77, 98s"], "Th 8h 3c")
    b = calculate(["77, 98s", "QQ+, AKs", "AhJh"], "Th 8h 3c")
    np.testing.assert_allclose(b.equity, np.roll(a.equity, 1), atol=1e-13)
    np.testing.assert_allclose(b.tie, np.roll(a.tie, 1), atol=1e-13)


def test_suit_permutations_give_equal_results():
    spot = (["AsKs", "Td9d", "2h2c"], "Qs Jd 3h")
    base = calculate(*spot)
    for perm in itertools.permutations("cdhs"):
        swap = str.maketrans("cdhs", "".join(perm))
        r = calculate([p.translate(swap) for p in spot[0]], spot[1].translate(swap))
        np.testing.assert_allclose(r.equity, base.equity, atol=1e-13)
        assert r.showdowns == base.showdowns


def test_preflop_heads_up_splits_across_threads_identically():
    one = calculate(["7s6s", "AdKc"], exact=True, threads=1)
    two = calculate(["7s6s", "AdKc"], exact=True, threads=2)
    assert one.showdowns == two.showdowns == 1_712_304
    np.testing.assert_allclose(two.equity, one.equity, atol=1e-14)


def test_progress_reports_every_part():
    seen = []
    calculate(["AsKs", "QQ+"], "Jh Th 2c", progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1]
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


@pytest.mark.slow
@pytest.mark.parametrize("players,dead", [
    (["AhKh", "7c7d"], ""),
    (["AhKh", "7c7d", "Qs Js"], ""),
    (["8s8h", "AdKd"], "Ac 9s 9h"),
])
def test_exact_preflop_matches_reference(players, dead):
    expected = reference_equity([hand(p) for p in players], (), cards(dead))
    assert_matches(calculate(players, dead=dead, exact=True), expected)


@pytest.mark.slow
def test_four_players_on_a_flop_with_ranges_matches_reference():
    players = ["AK", "QQ-JJ", "Ts9s, 8c8d", "65s"]
    board = cards("Kd 9c 5h")
    expected = reference_equity([range_of(p) for p in players], board)
    assert_matches(calculate(players, board), expected)


# -------------------------------------------------------------------------- Monte Carlo
@pytest.mark.parametrize("players,board", [
    (["AhAs", "KcKd"], ""),
    (["QQ+, AKs", "22+, A2s+, KTo+", "random"], ""),
    (["AsKs", "QhQd", "JcTc"], "9s 8s 3h"),
    (["AA", "KK", "AK"], ""),
])
def test_monte_carlo_within_four_standard_errors(players, board):
    exact = calculate(players, board, exact=True) if board else None
    mc = calculate(players, board, exact=False, stderr=2e-3, seed=7)
    assert not mc.exact and mc.stderr is not None
    if exact is None:   # preflop: exact is too slow for the fast suite; check against a big run
        exact = calculate(players, board, samples=2_000_000, seed=99)
        tolerance = [4 * np.hypot(a, b) for a, b in zip(mc.stderr, exact.stderr)]
    else:
        tolerance = [4 * s for s in mc.stderr]
    for got, want, tol in zip(mc.equity, exact.equity, tolerance):
        assert abs(got - want) <= tol
    assert max(mc.stderr) <= 2e-3
    assert sum(mc.equity) == pytest.approx(1.0)


def test_monte_carlo_is_reproducible_for_a_seed_and_thread_count():
    spot = (["AsKs", "QQ+, AKs", "random"], "Jh Th 2c")
    a = calculate(*spot, samples=100_000, seed=3, threads=2)
    b = calculate(*spot, samples=100_000, seed=3, threads=2)
    c = calculate(*spot, samples=100_000, seed=4, threads=2)
    assert a == b
    assert a.showdowns == 100_000
    assert a.equity != c.equity


def test_overlapping_ranges_are_drawn_without_rejection():
    r = calculate(["AA", "AA"], exact=False, samples=20_000, seed=1)
    assert r.acceptance == 1.0
    assert r.equity == pytest.approx((0.5, 0.5), abs=0.01)
    with pytest.raises(ValueError, match="no deal"):
        calculate(["AA", "AA", "AA"], exact=False, samples=1000, seed=1)


def test_overlapping_wide_ranges_are_mostly_accepted():
    # pairs of ranges are drawn jointly, so only collisions between groups reject a deal
    assert calculate(["15%"] * 4, exact=False, samples=20_000, seed=1).acceptance > 0.45
    assert calculate(["22+, AK"] * 3, exact=False, samples=20_000, seed=1).acceptance > 0.8


def test_monte_carlo_matches_exact_on_overlapping_ranges():
    players = ["AA, KK", "AA, KK, AKs", "KK, AKo"]
    board = "Qc 7d 2h"
    exact = calculate(players, board, exact=True)
    mc = calculate(players, board, exact=False, samples=400_000, seed=11)
    for got, want, se in zip(mc.equity, exact.equity, mc.stderr):
        assert abs(got - want) <= 4 * se


@pytest.mark.parametrize("players,board", [
    (["random"] * 6, ""),                               # blocks of 6 rotations
    (["AhAs", "KcKd", "random", "random"], "Qh 7d 2c 3s"),   # blocks of 2, alike for player 1
])
def test_monte_carlo_standard_error_matches_the_spread_of_repeated_runs(players, board):
    # showdowns scored in blocks of rotations are dependent: the reported standard error must
    # still be the spread of the estimate (too small here if it treated them as independent)
    runs = [calculate(players, board, samples=3000, seed=seed, threads=1) for seed in range(100)]
    spread = np.var([r.equity for r in runs], axis=0, ddof=1)
    reported = np.mean([np.square(r.stderr) for r in runs], axis=0)
    assert np.all((0.6 < spread / reported) & (spread / reported < 1.6)), spread / reported


def test_monte_carlo_draws_exactly_the_samples_asked_for_in_blocks():
    for threads in (1, 2):
        r = calculate(["random"] * 3, samples=100_001, seed=5, threads=threads)
        assert r.showdowns == 100_001
        assert sum(r.equity) == pytest.approx(1.0)


# -------------------------------------------------------------------------- batch
def test_batch_matches_calculate():
    rng = np.random.default_rng(5)
    for k in (0, 3, 4, 5):
        deck = np.array([rng.permutation(52)[:4 + k] for _ in range(6 if k == 0 else 40)], dtype=np.uint8)
        got = hand_vs_hand_batch(deck[:, :2], deck[:, 2:4], deck[:, 4:] if k else None)
        for row, value in zip(deck, got):
            want = calculate([row[:2].tolist(), row[2:4].tolist()], row[4:].tolist(), exact=True)
            assert value == pytest.approx(want.equity[0], abs=1e-14)


def test_batch_names_the_bad_row():
    h1 = np.array([[51, 50], [49, 48]])
    h2 = np.array([[47, 46], [49, 45]])
    with pytest.raises(ValueError, match="row 1: duplicate card"):
        hand_vs_hand_batch(h1, h2, np.array([[0, 1, 2], [3, 4, 5]]))
    with pytest.raises(ValueError, match="rows"):
        hand_vs_hand_batch(h1, h2[:1])
    with pytest.raises(TypeError):
        hand_vs_hand_batch(h1.astype(float), h2)


# -------------------------------------------------------------------------- input
def test_players_are_given_every_way():
    by_text = calculate(["AsKs", "QhQd"], "Jh Th 2c")
    for players in ([["As", "Ks"], ["Qh", "Qd"]], [[51, 47], [42, 41]], ["As Ks", Range("QhQd")]):
        assert calculate(players, ["Jh", "Th", "2c"]).equity == by_text.equity


@pytest.mark.parametrize("args,kwargs,error,match", [
    ((["AsKs"],), {}, ValueError, "2 to 10 players"),
    ((["AsKs", "AsQs"],), {}, ValueError, "As is dealt twice"),
    ((["AsKs", "QQ"], "Qs Qh Qd"), {}, ValueError, "player 2: .*no combo left"),
    ((["AsKs", "QQ"], "Jh Th"), {}, ValueError, "0, 3, 4 or 5 cards"),
    ((["AsKs", "AKx"],), {}, ValueError, "player 2: 'AKx' is not range notation"),
    ((["AsKs", "QQ"], "Jh Th 2c", "Jh"), {}, ValueError, "both on the board and dead"),
    (([["As", "Ks", "Qs"], "QQ"],), {}, ValueError, "two cards"),
    ((["AsKs", "QQ"],), {"exact": True, "samples": 10}, ValueError, "exact=True"),
    ((["AsKs", "QQ"],), {"samples": 0}, ValueError, "samples"),
    ((["AsKs", "QQ"],), {"stderr": 2.0}, ValueError, "stderr"),
    ((["AsKs", "QQ"],), {"threads": 0}, ValueError, "threads"),
    ((["AsKs", "QQ"],), {"exact": 1}, TypeError, "exact"),
    (("AsKs",), {}, TypeError, "list of hands"),
    ((["random"] * 10,), {"dead": [c for c in range(28)]}, ValueError, "too many players"),
])
def test_bad_input_raises_clearly(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        calculate(*args, **kwargs)


def test_exact_none_picks_by_work():
    assert calculate(["AsKs", "QhQd"]).exact           # one deal, 1.7M boards
    assert not calculate(["AsKs", "random", "random"], stderr=5e-3, seed=1).exact


def test_result_prints_a_table():
    text = str(calculate(["AsKs", "QQ+"], "Jh Th 2c"))
    assert "AsKs" in text and "QQ+" in text and "showdowns (exact)" in text


def test_lazy_attribute():
    import handrank
    assert handrank.equity is equity


# -------------------------------------------------------------------------- properties
from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(st.permutations(range(52)), st.integers(2, 4), st.sampled_from([4, 5]), st.integers(0, 3))
def test_random_spots_match_reference(deck, players, board_size, dead_size):
    hands = [deck[2 * i:2 * i + 2] for i in range(players)]
    board = deck[2 * players:2 * players + board_size]
    dead = deck[2 * players + board_size:2 * players + board_size + dead_size]
    expected = reference_equity([[(tuple(h), 1.0)] for h in hands], board, dead)
    result = calculate(hands, board, dead)
    assert_matches(result, expected)
    assert sum(result.equity) == pytest.approx(1.0, abs=1e-12)
    flipped = calculate(hands[::-1], board, dead)
    np.testing.assert_allclose(flipped.equity, result.equity[::-1], atol=1e-13)
