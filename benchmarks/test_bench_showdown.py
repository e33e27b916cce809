"""River showdowns for solvers: showdown.river_equity for full 1326-combo ranges on one board
(target: under 30 us on one thread), beside the brute-force pairwise loop it replaces (every hero
combo against every villain combo as one 1326 x 1326 numpy comparison, card removal by a mask)."""
import numpy as np
import pytest

from handrank import showdown

BOARD = [45, 23, 0, 6, 29]      # Kd 7s 2c 3h 9d


@pytest.fixture(scope="module")
def ranges():
    rng = np.random.default_rng(7)
    return rng.random(1326), rng.random(1326)


@pytest.mark.benchmark(group="showdown river")
def test_river_equity_full_ranges(benchmark, ranges):
    hero, villain = ranges
    equity = benchmark(showdown.river_equity, BOARD, hero, villain)
    assert np.isnan(equity).sum() == 1326 - 1081      # the combos that touch the board
    benchmark.extra_info["us_per_board"] = benchmark.stats.stats.median * 1e6


def pairwise_equity(board, hero, villain):
    s = showdown.strengths(board).astype(np.int64)
    c = showdown.COMBOS.astype(np.int64)
    disjoint = ((c[:, None, 0] != c[None, :, 0]) & (c[:, None, 0] != c[None, :, 1])
                & (c[:, None, 1] != c[None, :, 0]) & (c[:, None, 1] != c[None, :, 1]))
    live = disjoint & (s > 0)[:, None] & (s > 0)[None, :]
    w = np.where(live, villain[None, :], 0.0)
    win = (w * (s[:, None] > s[None, :])).sum(axis=1)
    tie = (w * (s[:, None] == s[None, :])).sum(axis=1)
    total = w.sum(axis=1)
    with np.errstate(invalid="ignore"):
        return np.where((hero > 0) & (total > 0), (win + tie / 2) / total, np.nan)


@pytest.mark.benchmark(group="showdown river")
def test_pairwise_loop_full_ranges(benchmark, ranges):
    hero, villain = ranges
    equity = benchmark(pairwise_equity, BOARD, hero, villain)
    np.testing.assert_allclose(equity, showdown.river_equity(BOARD, hero, villain), rtol=0, atol=1e-12)
    benchmark.extra_info["us_per_board"] = benchmark.stats.stats.median * 1e6
