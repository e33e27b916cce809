"""The Big Two opponent adapter (issue 39): `bigtwo.vector.against("random", ...)`, the learner at
seat 0 and every other seat played by the compiled random opponents inside the step, beside the
raw `bigtwo.VectorEnv` stepped with random legal actions, both in the same test, fixed seeds.

A step of the adapter is one learner move in each game, the opponents' moves up to its next turn
included (about players - 1 more moves); a step of the raw env is one move in each game.
``ratio_to_raw`` is the adapter's steps/s over the raw env's, their rounds alternating (target:
>= 0.5). The opponents' moves cost what the raw env's do (each lists the next player's legal
moves), but the observation and the legal actions are written once per learner move, so the ratio
is about 1 / (the moves per learner step) plus what the writing weighs. On a 2-vCPU "Intel(R)
Xeon(R) Processor" (family 6 model 167), nothing else running, five runs each: with 4 players
0.51-0.57 under compact ids and 0.54-0.62 under dense masks (full mode: 4,096 and 1,024 games),
with 2 players 0.72-0.79; in quick mode (512 and 256 games) 0.66-0.67 compact but 0.45-0.53 dense,
where the raw env's dense step, its few mask entries in a buffer that fits the caches, is at its
leanest. Under dense masks the adapter clears the mask rows entry by entry as the env's own step
does (before, 0.23 with 4 players). Quick mode (HANDRANK_BENCH_N < 1,000,000) steps fewer games."""
import time

import numpy as np
import pytest

from handrank.bigtwo.vector import VectorEnv, against

STEPS_PER_ROUND = 20


def _round(env, rng):
    """Seconds of one round of random legal actions."""
    start = time.perf_counter()
    for _ in range(STEPS_PER_ROUND):
        env.step(env.sample_legal(rng))
    return time.perf_counter() - start


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
    _round(raw, rng), _round(adapter, rng)          # warm: every game past its deal
    # the two rounds alternate, so that the machine's load weighs on both alike
    times = np.array([(_round(raw, rng), _round(adapter, rng)) for _ in range(7)])
    raw_steps_per_s, steps_per_s = n * STEPS_PER_ROUND / np.median(times, axis=0)
    benchmark.pedantic(_round, (adapter, rng), rounds=3, iterations=1)
    benchmark.extra_info["steps_per_s"] = float(steps_per_s)
    benchmark.extra_info["raw_steps_per_s"] = float(raw_steps_per_s)
    benchmark.extra_info["ratio_to_raw"] = float(steps_per_s / raw_steps_per_s)
