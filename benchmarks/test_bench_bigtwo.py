"""Big Two: batch classification on one thread, legal moves when leading, full random games.

Targets (issue 4): classify_batch >= 200 M five-card sets/s on one thread; legal_moves >= 100,000
random 13-card hands/s when leading; >= 1,000 random-vs-random 4-player games/s through Game."""
import random

import numpy as np
import pytest

import handrank as hr
from handrank import bigtwo

HANDS_13 = 2000
GAMES = 100


@pytest.fixture(scope="module")
def hands13():
    return hr.random_hands(HANDS_13, 13, seed=13).tolist()


@pytest.mark.benchmark(group="bigtwo classify_batch")
def test_classify_batch_5(benchmark, hands, n_hands, record):
    out = np.empty(n_hands, dtype=np.int32)
    bigtwo.classify_batch(hands[5][:10], threads=1)              # build the tables first
    benchmark(bigtwo.classify_batch, hands[5], out=out, threads=1)
    record(n_hands)


@pytest.mark.benchmark(group="bigtwo classify_batch")
def test_classify_batch_7_long_runs(benchmark, hands, n_hands, record):
    """Seven-card rows under `long_straights` (issue 20): the plain per-row loop, no prefilter."""
    rules = bigtwo.Rules(long_straights=True)
    out = np.empty(n_hands, dtype=np.int32)
    bigtwo.classify_batch(hands[7][:10], rules, threads=1)
    benchmark(bigtwo.classify_batch, hands[7], rules, out=out, threads=1)
    record(n_hands)


@pytest.mark.benchmark(group="bigtwo legal moves")
@pytest.mark.parametrize("form", ["list", "arrays"])
def test_legal_moves_leading(benchmark, hands13, form):
    moves = bigtwo.legal_moves if form == "list" else bigtwo.legal_move_arrays

    def run():
        for hand in hands13:
            moves(hand)
    benchmark(run)
    benchmark.extra_info["hands_per_s"] = HANDS_13 / benchmark.stats.stats.median


@pytest.mark.benchmark(group="bigtwo games")
def test_random_games(benchmark):
    chooser = random.Random(0)
    steps = [0]

    def run():
        steps[0] = 0
        for seed in range(GAMES):
            game = bigtwo.Game(4, seed=seed)
            while not game.over:
                moves = game.legal_moves()
                if game.can_pass and (not moves or chooser.random() < 0.25):
                    game.pass_()
                else:
                    game.play(chooser.choice(moves))
                steps[0] += 1
    benchmark(run)
    median = benchmark.stats.stats.median
    benchmark.extra_info["games_per_s"] = GAMES / median
    benchmark.extra_info["steps_per_s"] = steps[0] / median
