"""The Gymnasium wrapper (`VectorEnv.to_gymnasium()`, issue 39) beside the raw vector env it wraps,
in the same run: both games under ``legal="compact"``, random legal actions drawn by
`sample_legal` (counted in both figures), one thread, fixed seeds.

Target: the wrapper within 1.5x of the raw env's steps/s (``raw_over_wrapper`` <= 1.5); it was
5-8x when the wrapper wrote the dense mask every step. Quick mode (HANDRANK_BENCH_N < 1,000,000)
steps fewer games."""
import time

import numpy as np
import pytest

from handrank.bigtwo import vector as bigtwo_vector
from handrank.ofc import vector as ofc_vector

pytest.importorskip("gymnasium")

STEPS_PER_ROUND = 20
ROUNDS = 7
MAKERS = {"bigtwo": bigtwo_vector.VectorEnv, "ofc": ofc_vector.VectorEnv}
_raw: dict[tuple[str, int], float] = {}


@pytest.fixture(scope="module")
def games(n_hands):
    """Games stepped at once: 4096 (quick mode 512)."""
    return 4096 if n_hands >= 1_000_000 else 512


def stepper(game, n, wrapped):
    """A round of STEPS_PER_ROUND random legal steps, through the wrapper or not, warmed up."""
    env = MAKERS[game](n, legal="compact", threads=1, seed=1)
    gym = env.to_gymnasium() if wrapped else None
    (gym or env).reset(seed=1)
    rng = np.random.default_rng(2)
    step = (gym or env).step

    def run():
        for _ in range(STEPS_PER_ROUND):
            step(env.sample_legal(rng))
    run()                                    # warm: every game past its deal
    return run


def raw_steps_per_s(game, n):
    """The raw env's steps/s by the same loop (median of ROUNDS), timed once per session."""
    if (game, n) not in _raw:
        run = stepper(game, n, wrapped=False)
        times = []
        for _ in range(ROUNDS):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        _raw[game, n] = n * STEPS_PER_ROUND / float(np.median(times))
    return _raw[game, n]


@pytest.mark.benchmark(group="gymnasium wrapper")
@pytest.mark.parametrize("game", ["bigtwo", "ofc"])
def test_wrapper_random_steps(benchmark, games, game):
    raw = raw_steps_per_s(game, games)
    run = stepper(game, games, wrapped=True)
    benchmark.pedantic(run, rounds=ROUNDS, iterations=1)
    steps_per_s = games * STEPS_PER_ROUND / benchmark.stats.stats.median
    benchmark.extra_info["steps_per_s"] = steps_per_s
    benchmark.extra_info["raw_steps_per_s"] = raw
    benchmark.extra_info["raw_over_wrapper"] = raw / steps_per_s
