"""handrank.showdown against brute force: each combo evaluated on its own with high.evaluate, and
every hero combo played against every villain combo pair by pair."""
from __future__ import annotations

import doctest
import itertools

import numpy as np
import pytest

from handrank import high, showdown
from handrank.cards import random_hands
from handrank.equity import Range

BOARDS = random_hands(12, 5, seed=30)


def brute_strengths(board: list[int]) -> np.ndarray:
    out = np.zeros(1326, dtype=np.uint16)
    for i, (a, b) in enumerate(showdown.COMBOS.tolist()):
        if a not in board and b not in board:
            out[i] = high.evaluate([a, b, *board])
    return out


def pairwise(board: list[int], hero: np.ndarray, villain: np.ndarray) -> tuple[np.ndarray, ...]:
    """win, tie, lose by a loop over every (hero combo, villain combo) pair."""
    s = brute_strengths(board)
    combos = showdown.COMBOS.tolist()
    win, tie, lose = np.zeros(1326), np.zeros(1326), np.zeros(1326)
    villains = [v for v in np.flatnonzero(villain) if s[v]]
    for h in np.flatnonzero(hero):
        if not s[h]:
            continue
        for v in villains:
            if set(combos[h]) & set(combos[v]):
                continue
            if s[h] > s[v]:
                win[h] += villain[v]
            elif s[h] == s[v]:
                tie[h] += villain[v]
            else:
                lose[h] += villain[v]
    return win, tie, lose


def pairwise_matrix(board: list[int], hero: np.ndarray, villain: np.ndarray) -> tuple[np.ndarray, ...]:
    """The same as `pairwise` for full ranges, every pair at once as a 1326 x 1326 matrix."""
    s = brute_strengths(board).astype(np.int64)
    c = showdown.COMBOS.astype(np.int64)
    disjoint = ((c[:, None, 0] != c[None, :, 0]) & (c[:, None, 0] != c[None, :, 1])
                & (c[:, None, 1] != c[None, :, 0]) & (c[:, None, 1] != c[None, :, 1]))
    live = (s > 0)
    pair = disjoint & live[:, None] & live[None, :] & (hero > 0)[:, None]
    w = villain[None, :]
    return tuple(((pair & cmp) * w).sum(axis=1) for cmp in
                 (s[:, None] > s[None, :], s[:, None] == s[None, :], s[:, None] < s[None, :]))


def random_weights(rng: np.random.Generator, integer: bool, density: float) -> np.ndarray:
    keep = rng.random(1326) < density
    weights = rng.integers(1, 5, 1326).astype(float) if integer else rng.random(1326)
    return np.where(keep, weights, 0.0)


def test_combo_order() -> None:
    assert showdown.COMBOS.shape == (1326, 2) and showdown.COMBOS.dtype == np.uint8
    assert [tuple(c) for c in showdown.COMBOS.tolist()] == [
        (b, a) for a, b in sorted(itertools.combinations(range(52), 2), key=lambda p: (p[1], p[0]))]
    for i in (0, 1, 700, 1325):
        assert showdown.combo_index(showdown.combo_str(i)) == i
    assert showdown.combo_index("2c 2d") == showdown.combo_index([0, 1]) == 0
    with pytest.raises(ValueError):
        showdown.combo_str(1326)
    with pytest.raises(ValueError):
        showdown.combo_index("As Kd Qh")


def test_range_helpers() -> None:
    r = Range("QQ+, AKs:0.5, T9o")
    weights = showdown.range_weights(r)
    assert weights.sum() == 18 + 2 + 12
    assert weights[showdown.combo_index("Ah Kh")] == 0.5
    assert showdown.weights_range(weights) == r
    assert np.array_equal(showdown.range_weights("QQ+, AKs:0.5, T9o"), weights)
    assert showdown.range_weights("random").sum() == 1326
    with pytest.raises(ValueError, match="combo 5 .* weight -1"):
        showdown.range_weights(np.where(np.arange(1326) == 5, -1.0, 1.0))
    with pytest.raises(ValueError, match=r"shape \(1326,\)"):
        showdown.range_weights(np.ones(10))
    with pytest.raises(TypeError):
        showdown.range_weights(np.array(["a"] * 1326))


def test_strengths_against_one_evaluation_per_combo() -> None:
    for board in BOARDS[:4].tolist():
        assert np.array_equal(showdown.strengths(board), brute_strengths(board))
    assert np.array_equal(showdown.strengths_batch(BOARDS), np.stack([showdown.strengths(b) for b in BOARDS]))
    assert np.array_equal(showdown.strengths_batch(np.repeat(BOARDS, 20, axis=0), threads=2),
                          np.repeat(showdown.strengths_batch(BOARDS), 20, axis=0))


@pytest.mark.parametrize("seed", range(3))
def test_payoffs_against_a_pairwise_loop(seed: int) -> None:
    rng = np.random.default_rng(seed)
    board = BOARDS[seed].tolist()
    for integer in (True, False):
        hero, villain = random_weights(rng, integer, 0.1), random_weights(rng, integer, 0.1)
        result = showdown.river_payoffs(board, hero, villain)
        expected = pairwise(board, hero, villain)
        for got, want in zip((result.win, result.tie, result.lose), expected):
            if integer:
                assert np.array_equal(got, want)
            else:
                np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(3, 7))
def test_full_ranges_against_every_pair(seed: int) -> None:
    rng = np.random.default_rng(seed)
    board = BOARDS[seed].tolist()
    hero = random_weights(rng, True, 0.9)
    villain = random_weights(rng, True, 0.9) if seed % 2 else np.ones(1326)
    result = showdown.river_payoffs(board, hero, villain)
    win, tie, lose = pairwise_matrix(board, hero, villain)
    assert np.array_equal(result.win, win) and np.array_equal(result.tie, tie)
    assert np.array_equal(result.lose, lose)
    equity = showdown.river_equity(board, hero, villain)
    total = win + tie + lose
    expected = np.full(1326, np.nan)
    expected[total > 0] = (win + tie / 2)[total > 0] / total[total > 0]
    np.testing.assert_allclose(equity, expected, rtol=0, atol=1e-12)
    assert np.array_equal(np.isnan(equity), total == 0)
    np.testing.assert_allclose(result.equity, expected, rtol=0, atol=1e-12)
    assert np.array_equal(result.net, win - lose)


def test_float_weights_on_full_ranges() -> None:
    rng = np.random.default_rng(11)
    board = BOARDS[8].tolist()
    hero, villain = rng.random(1326), rng.random(1326)
    result = showdown.river_payoffs(board, hero, villain)
    for got, want in zip((result.win, result.tie, result.lose), pairwise_matrix(board, hero, villain)):
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_ranges_as_text() -> None:
    board = "Kd 7s 2c 3h 9d"
    eq = showdown.river_equity(board, "random", "QQ+, AKs")
    assert eq[showdown.combo_index("Ks Kh")] == 1.0
    assert np.isnan(eq[showdown.combo_index("Kd Kh")])     # shares the board's Kd
    assert np.array_equal(eq, showdown.river_equity(board, Range("random"), Range("QQ+, AKs")), equal_nan=True)


def test_bad_input_is_named() -> None:
    ones = np.ones(1326)
    with pytest.raises(ValueError, match="5 cards"):
        showdown.river_equity("Kd 7s 2c 3h", ones, ones)
    with pytest.raises(ValueError):
        showdown.river_equity("Kd 7s 2c 3h 3h", ones, ones)
    bad = ones.copy()
    bad[7] = np.nan
    with pytest.raises(ValueError, match="villain: combo 7"):
        showdown.river_equity("Kd 7s 2c 3h 9d", ones, bad)
    with pytest.raises(ValueError, match="hero: combo 7"):
        showdown.river_payoffs("Kd 7s 2c 3h 9d", bad, ones)
    boards = BOARDS.copy()
    boards[3, 4] = boards[3, 0]
    with pytest.raises(ValueError, match="row 3"):
        showdown.strengths_batch(boards)


def test_module_examples() -> None:
    failures, tried = doctest.testmod(showdown)
    assert tried >= 5 and failures == 0
