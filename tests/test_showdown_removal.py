"""Card removal in showdown.river_payoffs / river_equity is exact: against a reference that sums
only the villain combos sharing no card with the hero's, each sum correctly rounded (math.fsum, or
fractions.Fraction where the case is small), over random boards, dead cards and weights from
ordinary to extreme (1e-300..1e300 mixes, weights 1e16 apart, zeros). The per-card running sums
used to lose whatever the blocked weight dwarfed: win + tie + lose of 0 (equity nan) where the
answer is a tie, equities above 1 and below 0, negative weights."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from handrank import equity, showdown
from handrank.cards import cards, random_hands

COMBOS = showdown.COMBOS.astype(np.int64)


def reference(board: list[int], hero: np.ndarray, villain: np.ndarray,
              exact: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(payoffs, equity): every hero combo's (win, tie, lose), each summed over the unblocked
    villain combos only (correctly rounded, or as Fractions with `exact`), and its equity."""
    strength = showdown.strengths(board).astype(np.int64)
    payoffs = np.zeros((1326, 3), dtype=object if exact else float)
    eq = np.full(1326, np.nan)
    live = (strength > 0) & (villain > 0)
    for h in np.flatnonzero((hero > 0) & (strength > 0)):
        a, b = COMBOS[h]
        free = live & (COMBOS[:, 0] != a) & (COMBOS[:, 0] != b) & (COMBOS[:, 1] != a) & (COMBOS[:, 1] != b)
        for k, side in enumerate((strength < strength[h], strength == strength[h], strength > strength[h])):
            weights = villain[free & side].tolist()
            payoffs[h, k] = sum(map(Fraction, weights), Fraction(0)) if exact else math.fsum(weights)
        win, tie, lose = (Fraction(x) for x in payoffs[h])
        if win + tie + lose:
            eq[h] = float((win + tie / 2) / (win + tie + lose))
    return payoffs.astype(float), eq


def random_case(rng: np.random.Generator, kind: str) -> tuple[list[int], np.ndarray, np.ndarray]:
    """A board, a hero range (half the combos) and villain weights of the given kind, with up to
    3 dead cards (their combos at weight 0, as a solver's known cards)."""
    board = rng.choice(52, 5, replace=False).tolist()
    if kind == "uniform":
        villain = rng.random(1326)
    elif kind == "two decimals":
        villain = np.round(rng.random(1326), 2)
    elif kind == "1e-300..1e300":
        villain = 10.0 ** rng.uniform(-300, 300, 1326)
    elif kind == "1e16 apart":
        villain = np.where(rng.random(1326) < 0.5, 1e16, rng.random(1326))
    elif kind == "1e12 apart, sparse":
        villain = np.where(rng.random(1326) < 0.1, np.where(rng.random(1326) < 0.3, 1e12, 1.0), 0.0)
    else:
        raise AssertionError(kind)
    dead = rng.choice([c for c in range(52) if c not in board], rng.integers(0, 4), replace=False)
    for card in dead:
        villain[(COMBOS[:, 0] == card) | (COMBOS[:, 1] == card)] = 0
    hero = np.where(rng.random(1326) < 0.5, rng.random(1326), 0.0)
    return board, hero, villain


def check(board: list[int], hero: np.ndarray, villain: np.ndarray, exact: bool = False) -> None:
    payoffs = showdown.river_payoffs(board, hero, villain)
    eq = showdown.river_equity(board, hero, villain)
    want, want_eq = reference(board, hero, villain, exact)
    got = np.stack([payoffs.win, payoffs.tie, payoffs.lose], axis=1)
    assert (got >= 0).all()
    assert np.array_equal(got == 0, want == 0)          # nothing left is exactly nothing
    np.testing.assert_allclose(got, want, rtol=1e-11, atol=0)
    assert np.array_equal(np.isnan(eq), np.isnan(want_eq))
    live = ~np.isnan(eq)
    assert ((eq[live] >= 0) & (eq[live] <= 1)).all()
    assert ((payoffs.equity[live] >= 0) & (payoffs.equity[live] <= 1)).all()
    np.testing.assert_allclose(eq[live], want_eq[live], rtol=0, atol=1e-11)


KINDS = ["uniform", "two decimals", "1e-300..1e300", "1e16 apart", "1e12 apart, sparse"]


@pytest.mark.parametrize("kind", KINDS)
def test_random_boards_and_weights_against_unblocked_sums(kind: str) -> None:
    rng = np.random.default_rng(KINDS.index(kind))
    for _ in range(4):
        check(*random_case(rng, kind))


@pytest.mark.parametrize("seed", range(6))
def test_small_ranges_against_fractions(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    board, hero, _ = random_case(rng, "uniform")
    pick = rng.random(1326) < 0.08
    villain = np.where(pick, rng.choice([1e-300, 1e-16, 0.3, 1.0, 1e16, 1e300], 1326), 0.0)
    check(board, hero, villain, exact=True)


def test_a_tie_under_a_blocked_weight_1e16_times_larger() -> None:
    board, hero = "6d As Jd 6h Ah", "2c2h"
    p = showdown.river_payoffs(board, hero, "2h5d:1e16, 2s4s")     # 2h5d shares the hero's 2h
    i = showdown.combo_index(hero)
    assert (p.win[i], p.tie[i], p.lose[i]) == (0, 1, 0) and p.equity[i] == 0.5
    assert showdown.river_equity(board, hero, "2h5d:1e16, 2s4s")[i] == 0.5
    assert equity.calculate([hero, "2h5d:1e16, 2s4s"], board=board, exact=True).equity[0] == 0.5


def test_equity_never_leaves_0_1_on_ordinary_weights() -> None:
    rng = np.random.default_rng(7)
    for board in random_hands(40, 5, seed=8):
        eq = showdown.river_equity(board, np.ones(1326), rng.random(1326))
        live = eq[~np.isnan(eq)]
        assert ((live >= 0) & (live <= 1)).all()
        payoffs = showdown.river_payoffs(board, np.ones(1326), rng.random(1326))
        assert (payoffs.lose >= 0).all() and (payoffs.win >= 0).all() and (payoffs.tie >= 0).all()


def test_weights_adding_up_past_the_float_range_are_refused() -> None:
    villain = np.full(1326, 1e306)
    before = villain.copy()
    with pytest.raises(ValueError, match="villain: the weights add up past the largest float"):
        showdown.river_equity("Kd 7s 2c 3h 9d", np.ones(1326), villain)
    with pytest.raises(ValueError, match="villain: the weights add up"):
        showdown.river_payoffs(cards("Kd 7s 2c 3h 9d"), np.ones(1326), villain)
    assert np.array_equal(villain, before)
    eq = showdown.river_equity("Kd 7s 2c 3h 9d", np.ones(1326), np.full(1326, 1e305))  # 1.3e308: fits
    assert np.nanmax(eq) <= 1 and np.nanmin(eq) >= 0
