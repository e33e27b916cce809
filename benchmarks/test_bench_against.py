"""The Big Two opponent adapter (issue 39): `bigtwo.vector.against("random", ...)`, the learner at
seat 0 and every other seat played by the compiled random opponents inside the step, beside the
raw `bigtwo.VectorEnv` stepped with random legal actions, both in the same test, fixed seeds.

A step of the adapter is one learner move in each game, the opponents' moves up to its next turn
included (about players - 1 more moves); a step of the raw env is one move in each game.
``ratio_to_raw`` is the adapter's steps/s over the raw env's (target: >= 0.5). The opponents'
moves cost what the raw env's do (each lists the next player's legal moves), but the observation
and the legal actions are written once per learner move: under dense masks, most of the raw step,
the ratio is about 0.5-0.6 with 4 players; under compact ids about 1 / (the moves per learner
step), 0.3-0.4 with 4 players, 0.5 or more with 2. Quick mode (HANDRANK_BENCH_N < 1,000,000)
steps fewer games."""
import time

import numpy as np
import pytest

from handrank.bigtwo.vector import VectorEnv, against

STEPS_PER_ROUND = 20


def _steps_per_s(env, rng, rounds=5):
    """Median steps/s of `env` over rounds of random legal actions (after one warm round)."""
    times = []
    for _ in range(rounds + 1):
        start = time.perf_counter()
        for _ in range(STEPS_PER_ROUND):
            env.step(env.sample_legal(rng))
        times.append(time.perf_counter() - start)
    return env.num_envs * STEPS_PER_ROUND / float(np.median(times[1:]))


@pytest.mark.benchmark(group="bigtwo against")
@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("legal", ["compact", "dense"])
def test_against_random_steps(benchmark, n_hands, legal, players):
    n = (4096 if legal == "compact" else 1024) if n_hands >= 1_000_000 else (512 if legal == "compact" else 256)
    adapter = against("random", n, seat=0, seed=1, players=players, legal=legal)
    adapter.reset()
    raw = VectorEnv(n, seed=1, players=players, legal=legal)
    raw.reset()
    rng = np.random.default_rng(2)
    raw_steps_per_s = _steps_per_s(raw, rng)

    def run():
        for _ in range(STEPS_PER_ROUND):
            adapter.step(adapter.sample_legal(rng))
    run()                                    # warm: every game past its deal
    benchmark.pedantic(run, rounds=5, iterations=1)
    steps_per_s = n * STEPS_PER_ROUND / benchmark.stats.stats.median
    benchmark.extra_info["steps_per_s"] = steps_per_s
    benchmark.extra_info["raw_steps_per_s"] = raw_steps_per_s
    benchmark.extra_info["ratio_to_raw"] = steps_per_s / raw_steps_per_s
