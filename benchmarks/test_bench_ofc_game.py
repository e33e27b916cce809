"""ofc.Game random play from Python, whole 2-player pineapple hands dealt, played and scored: a
random legal action id each turn (``legal_actions`` and ``play_action``), a random pick of the
lazy ``legal_placements()`` played with ``play``, and the reference of the API before issue 32,
every Placement of the street built each turn. The PettingZoo environment (extra ``rl``) plays
hands first the same way, a random legal action from its mask each turn: the target (issue 41) is
``by_action_ids`` at 40x its hands/s (54-56x since the game's state is compiled, ofc._game.GameCore:
docs/benchmarks.md). The other rows record how many times faster they ran than
the environment and than building every placement, in the same session; every row records
hands per second of wall-clock time and of CPU time (the median round of each)."""
import random
import time

import numpy as np
import pytest

from handrank import ofc

from conftest import N, random_play

# HANDRANK_BENCH_N = 4,000,000: 2,000 hands a round
HANDS = max(20, N // 2000)

_reference: dict[str, float] = {}
_env_rate: dict[str, float] = {}


def pettingzoo_env(hands):
    """The reference of issue 41: the AEC environment, a hand per seed."""
    env = pytest.importorskip("handrank.ofc.env").env(players=2, rules="pineapple")
    random_play(env, range(hands), np.random.default_rng(1))


def by_action_ids(hands):
    rng = random.Random(1)
    for seed in range(hands):
        game = ofc.Game(2, "pineapple", seed=seed)
        while not game.over:
            ids = game.legal_actions()
            game.play_action(ids[rng.randrange(len(ids))])
        game.points()


def by_placements(hands):
    rng = random.Random(1)
    for seed in range(hands):
        game = ofc.Game(2, "pineapple", seed=seed)
        while not game.over:
            legal = game.legal_placements()
            game.play(legal[rng.randrange(len(legal))])
        game.points()


def every_placement_built(hands):
    """The reference: each turn's placements all built as objects (the list API's cost)."""
    rng = random.Random(1)
    for seed in range(hands):
        game = ofc.Game(2, "pineapple", seed=seed)
        while not game.over:
            legal = list(game.legal_placements())
            game.play(legal[rng.randrange(len(legal))])
        game.points()


@pytest.mark.parametrize("loop", [pettingzoo_env, every_placement_built, by_action_ids, by_placements],
                         ids=lambda f: f.__name__)
@pytest.mark.benchmark(group="ofc.Game random play, 2-player pineapple")
def test_game_random_play(benchmark, loop):
    cpu: list[float] = []

    def timed(hands):
        start = time.process_time()
        loop(hands)
        cpu.append(time.process_time() - start)

    # the environment's hands take 20 to 40 times longer: a tenth of them
    hands = max(2, HANDS // 10) if loop is pettingzoo_env else HANDS
    benchmark(timed, hands)
    hands_per_s = hands / benchmark.stats.stats.median
    # the CPU time too: on a shared machine the wall clock counts other jobs' turns on the core
    hands_per_cpu_s = hands / sorted(cpu)[len(cpu) // 2]
    benchmark.extra_info["hands_per_cpu_s"] = hands_per_cpu_s
    benchmark.extra_info["hands_per_s"] = hands_per_s
    if loop is pettingzoo_env:
        _env_rate.update(hands_per_s=hands_per_s, hands_per_cpu_s=hands_per_cpu_s)
        return
    if _env_rate:
        benchmark.extra_info["speedup_over_pettingzoo"] = hands_per_s / _env_rate["hands_per_s"]
        benchmark.extra_info["cpu_speedup_over_pettingzoo"] = hands_per_cpu_s / _env_rate["hands_per_cpu_s"]
    if loop is every_placement_built:
        _reference["hands_per_s"] = hands_per_s
    elif _reference:
        benchmark.extra_info["speedup_over_building_every_placement"] = hands_per_s / _reference["hands_per_s"]
