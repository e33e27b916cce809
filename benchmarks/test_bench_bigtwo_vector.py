"""Big Two stepped in batches (issue 32): `bigtwo.VectorEnv` with random legal actions drawn by
`sample_legal`, 4 players, default rules; compact legal sets (CSR ids) and dense masks, on one and
two threads; beside them the PettingZoo environment driven the same way, in the same run.

Targets: >= 1,000,000 steps/s on 2 threads with compact legal sets (20x the PettingZoo
environment), >= 200,000 steps/s with dense masks. A step is one action in one game (a pass
included), as in the PettingZoo figure. ``ratio_to_pettingzoo`` is each figure over the PettingZoo
environment's steps/s measured in this session. Quick mode (HANDRANK_BENCH_N < 1,000,000) steps
fewer games per round."""
import random

import numpy as np
import pytest

from handrank.bigtwo.vector import VectorEnv

bigtwo_env = pytest.importorskip("handrank.bigtwo.env")

STEPS_PER_ROUND = 20
_pettingzoo: dict[str, float] = {}


@pytest.fixture(scope="module")
def games(n_hands):
    """Games stepped at once: 4096 (quick mode 512); dense masks 1024 (quick 256)."""
    return (4096, 1024) if n_hands >= 1_000_000 else (512, 256)


def pettingzoo_steps_per_s():
    """Random legal actions through the PettingZoo environment (benchmarks/test_bench_bigtwo_env.py's
    loop), timed once per session."""
    if "steps_per_s" not in _pettingzoo:
        import time
        env = bigtwo_env.env()
        chooser = random.Random(0)
        best = 0.0
        for _ in range(3):
            steps = 0
            start = time.perf_counter()
            for seed in range(20):
                env.reset(seed=seed)
                for _agent in env.agent_iter():
                    obs, _, terminated, truncated, _ = env.last()
                    if terminated or truncated:
                        env.step(None)
                    else:
                        legal = obs["action_mask"].view(np.bool_).nonzero()[0]
                        env.step(int(legal[chooser.randrange(len(legal))]))
                    steps += 1
            best = max(best, steps / (time.perf_counter() - start))
        _pettingzoo["steps_per_s"] = best
    return _pettingzoo["steps_per_s"]


@pytest.mark.benchmark(group="bigtwo vector")
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("legal", ["compact", "dense"])
def test_vector_random_steps(benchmark, games, legal, threads):
    n = games[0] if legal == "compact" else games[1]
    vec = VectorEnv(n, legal=legal, threads=threads, seed=1)
    vec.reset()
    rng = np.random.default_rng(2)

    def run():
        for _ in range(STEPS_PER_ROUND):
            vec.step(vec.sample_legal(rng))
    run()                                    # warm: every game past its deal
    benchmark.pedantic(run, rounds=7, iterations=1)
    steps_per_s = n * STEPS_PER_ROUND / benchmark.stats.stats.median
    benchmark.extra_info["steps_per_s"] = steps_per_s
    benchmark.extra_info["ratio_to_pettingzoo"] = steps_per_s / pettingzoo_steps_per_s()
    benchmark.extra_info["pettingzoo_steps_per_s"] = pettingzoo_steps_per_s()
