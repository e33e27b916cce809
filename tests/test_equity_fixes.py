"""Regressions of issue 27's equity findings (a fuzzing review): each test reproduces one finding
(F1, F2, ... U13) and fails on the code before its fix."""
import numpy as np
import pytest

from handrank.cards import cards
from handrank.equity import calculate
from equity_reference import hand, range_of, reference_equity


# -------------------------------------------------------------------------- F1
def test_f1_folding_keeps_the_board_and_the_dead_cards_each_in_place():
    # swapping spades and diamonds maps board + dead onto itself but the board As Js Ts onto
    # Ad Jd Td: KsQs (a royal flush) and KdQd must not be folded into one row
    board, dead = "As Js Ts", "Ad Jd Td"
    both = calculate(["KsQs,KdQd", "9h9c"], board, dead, exact=True)
    alone = [calculate([h, "9h9c"], board, dead, exact=True).equity[0] for h in ("KsQs", "KdQd")]
    assert alone[0] == 1.0
    assert both.equity[0] == pytest.approx(sum(alone) / 2, abs=1e-12)
    expected = reference_equity([range_of("KsQs,KdQd"), hand("9h9c")], cards(board), cards(dead))
    np.testing.assert_allclose(both.win, expected[1], atol=1e-12)
    np.testing.assert_allclose(both.tie, expected[2], atol=1e-12)


def test_f1_the_reviews_weighted_case():
    board, dead = cards("As 3h Ah"), cards("Jd 2d 3s")
    players = ["Tc2c", "98s:0.25"]
    expected = reference_equity([hand("Tc2c"), range_of("98s:0.25", board + dead)], board, dead)
    got = calculate(players, board, dead, exact=True)
    assert got.equity[0] == pytest.approx(expected[0][0], abs=1e-12)   # 0.6466, was 0.5772


# -------------------------------------------------------------------------- F2
@pytest.mark.parametrize("players,board,want", [
    (["22+,AK"] * 3, "Ks 8h 3c", None),       # three groups of wide ranges
    (["30%", "30%"], "", (0.5, 0.5)),           # two groups, symmetric
])
def test_f2_monte_carlo_draws_each_group_from_its_own_weights(players, board, want):
    if want is None:
        want = calculate(players, board, exact=True).equity
    mc = calculate(players, board, samples=300_000, seed=1, threads=1)
    z = [(got - w) / se for got, w, se in zip(mc.equity, want, mc.stderr)]
    assert max(abs(x) for x in z) < 4.5, z      # the old draw was off by 10 to 40 errors
