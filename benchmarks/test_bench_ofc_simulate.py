"""ofc.simulate: whole 2-player pineapple hands dealt, played by the random policy and scored
(target: 200,000 hands/s on one thread), on one and two threads, and the same hands played
through `ofc.Game` from Python with random choices among `legal_placements()`; the Game test
records how many times faster simulate ran on one thread in the same session."""
import numpy as np
import pytest

from handrank import ofc

from conftest import N

# HANDRANK_BENCH_N = 4,000,000: 1,000,000 simulated hands and 400 hands through Game
SIMULATED = max(1000, N // 4)
THROUGH_GAME = max(10, N // 10000)

_one_thread: dict[str, float] = {}     # simulate's hands/s on one thread, for the Game test


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.benchmark(group="ofc simulate, 2-player pineapple")
def test_simulate(benchmark, threads):
    benchmark(ofc.simulate, SIMULATED, "pineapple", players=2, seed=1, threads=threads)
    benchmark.extra_info["hands_per_s"] = SIMULATED / benchmark.stats.stats.median
    if threads == 1:
        _one_thread["hands_per_s"] = benchmark.extra_info["hands_per_s"]


def _through_game(hands):
    rng = np.random.default_rng(1)
    for seed in range(hands):
        game = ofc.Game(2, "pineapple", seed=seed)
        while not game.over:
            legal = game.legal_placements()
            game.play(legal[rng.integers(len(legal))])
        game.points()


@pytest.mark.benchmark(group="ofc simulate, 2-player pineapple")
def test_through_game(benchmark):
    benchmark(_through_game, THROUGH_GAME)
    through_game = THROUGH_GAME / benchmark.stats.stats.median
    benchmark.extra_info["hands_per_s"] = through_game
    if _one_thread:
        benchmark.extra_info["simulate_speedup"] = _one_thread["hands_per_s"] / through_game
