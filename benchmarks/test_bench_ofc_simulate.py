"""ofc.simulate: whole 2-player pineapple hands dealt, played by the random policy and scored
(target: 200,000 hands/s on one thread), on one and two threads, and the same hands played
through `ofc.Game` from Python with random choices among `legal_placements()`, for the ratio."""
import numpy as np
import pytest

from handrank import ofc

from conftest import N

# HANDRANK_BENCH_N = 4,000,000 gives 1,000,000 simulated hands and 1,000 hands through Game.
SIMULATED = max(1000, N // 4)
THROUGH_GAME = max(20, N // 4000)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.benchmark(group="ofc simulate, 2-player pineapple")
def test_simulate(benchmark, threads):
    benchmark(ofc.simulate, SIMULATED, "pineapple", players=2, seed=1, threads=threads)
    benchmark.extra_info["hands_per_s"] = SIMULATED / benchmark.stats.stats.median


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
    benchmark.extra_info["hands_per_s"] = THROUGH_GAME / benchmark.stats.stats.median
