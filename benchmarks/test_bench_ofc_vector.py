"""ofc.vector: heads-up pineapple stepped in batches with dense legal masks and random legal
actions drawn by `sample_legal` (target, issue 32: 500,000 steps/s on 2 threads), on one and two
threads, beside the PettingZoo environment (extra ``rl``) driven the same way in the same run.
Every row records its steps/s; the vector rows record how many times faster they ran than the
PettingZoo environment. The sampling of the actions is counted in every figure.
Quick mode (HANDRANK_BENCH_N < 1,000,000) steps 1,024 games 10 times a round instead of 8,192
games 40 times."""
import numpy as np
import pytest

from handrank.ofc.vector import VectorEnv

from conftest import N, random_play

QUICK = N < 1_000_000
GAMES = 1024 if QUICK else 8192
STEPS = 10 if QUICK else 40
ENV_EPISODES = 10 if QUICK else 200

_env_rate: dict[str, float] = {}


def vector_steps(env, rng):
    for _ in range(STEPS):
        env.step(env.sample_legal(rng))
    return GAMES * STEPS


def env_steps(env, rng):
    return random_play(env, range(ENV_EPISODES), rng)


@pytest.mark.benchmark(group="ofc pineapple heads-up, random legal actions")
def test_pettingzoo_env(benchmark):
    ofc_env = pytest.importorskip("handrank.ofc.env")
    env = ofc_env.env(players=2, rules="pineapple")
    rng = np.random.default_rng(1)
    steps = benchmark(env_steps, env, rng)
    _env_rate["steps_per_s"] = steps / benchmark.stats.stats.median
    benchmark.extra_info["steps_per_s"] = _env_rate["steps_per_s"]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.benchmark(group="ofc pineapple heads-up, random legal actions")
def test_vector_env_dense(benchmark, threads):
    env = VectorEnv(GAMES, rules="pineapple", players=2, seed=1, threads=threads)
    env.reset()
    rng = np.random.default_rng(1)
    steps = benchmark(vector_steps, env, rng)
    rate = steps / benchmark.stats.stats.median
    benchmark.extra_info["steps_per_s"] = rate
    benchmark.extra_info["threads"] = env.threads
    if _env_rate:
        benchmark.extra_info["speedup_over_pettingzoo"] = rate / _env_rate["steps_per_s"]
