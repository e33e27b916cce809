"""Shared data for the benchmarks: fixed-seed random hands and the numpy gather reference.

Every benchmark records hands/s and its ratio to a numpy gather of one uint16 per hand over the
same number of hands, timed in the same session: the machines are shared and noisy, ratios are not.
HANDRANK_BENCH_N sets the number of hands (default 4,000,000; CI uses a small N to keep it quick).
"""
import os
import time

import numpy as np
import pytest

import handrank as hr

N = int(os.environ.get("HANDRANK_BENCH_N", 4_000_000))


@pytest.fixture(scope="session")
def n_hands():
    return N


@pytest.fixture(scope="session")
def hands():
    """hands[k]: an (N, k) uint8 array of random hands, fixed seed."""
    return {k: hr.random_hands(N, k, seed=1000 + k) for k in (3, 5, 6, 7)}


@pytest.fixture(scope="session")
def gather_seconds():
    """Median time of `lut[idx]`: one uint16 gathered per hand, N random indices."""
    rng = np.random.default_rng(7)
    lut = rng.integers(1, 7463, size=7463).astype(np.uint16)
    idx = rng.integers(0, lut.size, size=N).astype(np.intp)
    times = []
    for _ in range(7):
        start = time.perf_counter()
        lut[idx]
        times.append(time.perf_counter() - start)
    return float(np.median(times))


@pytest.fixture
def record(benchmark, gather_seconds):
    """Call after benchmark(...): stores hands/s and the ratio to the numpy gather."""
    def _record(hands_per_call):
        median = benchmark.stats.stats.median
        benchmark.extra_info["hands_per_s"] = hands_per_call / median
        benchmark.extra_info["ratio_to_numpy_gather"] = (gather_seconds / N * hands_per_call) / median
    return _record


def random_play(env, seeds, rng):
    """Random legal actions through a PettingZoo AEC environment, an episode per seed: the
    reference loop of the games and vector environments. Returns the actions taken."""
    actions = 0
    for seed in seeds:
        env.reset(seed=seed)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            actions += 1
    return actions
