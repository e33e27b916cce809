"""Big Two through the PettingZoo environment (extra ``rl``): random agents, one thread.

Target (issue 20): >= 50,000 random-agent steps/s through the environment, reported against the
bare `Game` driven the same way (a uniformly random legal action of the ComboSpace mask). The
agent's own work (finding the set entries of a 19,899-entry mask) is counted in every figure.
Quick mode (HANDRANK_BENCH_N < 1,000,000) plays 10 games per round instead of 100."""
import random

import numpy as np
import pytest

from handrank import bigtwo

bigtwo_env = pytest.importorskip("handrank.bigtwo.env")


@pytest.fixture(scope="module")
def games(n_hands):
    return 100 if n_hands >= 1_000_000 else 10


def random_legal(mask, chooser):
    legal = mask.view(np.bool_).nonzero()[0]
    return int(legal[chooser.randrange(len(legal))])


def through_env(env, games, chooser):
    steps = 0
    for seed in range(games):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else random_legal(obs["action_mask"], chooser))
            steps += 1
    return steps


def bare_game(space, games, chooser):
    steps = 0
    for seed in range(games):
        game = bigtwo.Game(4, seed=seed)
        while not game.over:
            game.play_action(random_legal(game.action_mask(space), chooser), space)
            steps += 1
    return steps


@pytest.mark.benchmark(group="bigtwo random agents")
@pytest.mark.parametrize("through", ["raw_env", "env", "bare Game"])
def test_random_agents(benchmark, games, through):
    chooser = random.Random(0)
    if through == "bare Game":
        space = bigtwo.ComboSpace()
        steps = benchmark(bare_game, space, games, chooser)
    else:
        env = getattr(bigtwo_env, through)()
        steps = benchmark(through_env, env, games, chooser)
    benchmark.extra_info["steps_per_s"] = steps / benchmark.stats.stats.median
