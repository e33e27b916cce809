"""Open-Face Chinese poker: boards evaluated and scored in batches, and the exact Fantasyland
solver (targets: 2,000 hands/s at 14 cards on one thread; median under 50 ms at 17 cards)."""
import itertools

import numpy as np
import pytest

import handrank as hr
from handrank import ofc

from conftest import N

# A solve costs about a millisecond, so it gets its own (smaller) fixed-seed sets of hands.
SOLVE_HANDS = max(20, min(2000, N // 2000))


@pytest.fixture(scope="module")
def boards():
    """N random deals of two boards (row order top, middle, bottom; no card on both)."""
    deals = hr.random_hands(N, 26, seed=13)
    return deals[:, :13].copy(), deals[:, 13:].copy()


@pytest.mark.parametrize("rules", ["pineapple", "deuce"])
@pytest.mark.benchmark(group="ofc boards")
def test_evaluate_batch(benchmark, boards, n_hands, record, rules):
    benchmark(ofc.evaluate_batch, boards[0], rules, threads=1)
    record(n_hands)


@pytest.mark.benchmark(group="ofc boards")
def test_score_batch(benchmark, boards, n_hands, record):
    benchmark(ofc.score_batch, boards[0], boards[1], threads=1)
    record(n_hands)


@pytest.mark.parametrize("cards", [14, 15])
@pytest.mark.parametrize("rules", ["pineapple", "progressive", "deuce"])
@pytest.mark.benchmark(group="fantasyland solve")
def test_solve_fantasyland(benchmark, cards, rules):
    hands = hr.random_hands(SOLVE_HANDS, cards, seed=cards)
    benchmark(ofc.solve_fantasyland_batch, hands, rules, threads=1)
    benchmark.extra_info["hands_per_s"] = SOLVE_HANDS / benchmark.stats.stats.median


@pytest.mark.benchmark(group="fantasyland solve, one hand at a time")
def test_solve_fantasyland_17_median(benchmark):
    """The median time of one 17-card solve, over fixed-seed hands (one hand per round)."""
    hands = iter(itertools.cycle(hr.random_hands(SOLVE_HANDS, 17, seed=17)))

    def next_hand():
        return (next(hands)[np.newaxis],), {"rules": "progressive", "threads": 1}

    benchmark.pedantic(ofc.solve_fantasyland_batch, setup=next_hand, rounds=SOLVE_HANDS)
    benchmark.extra_info["median_ms"] = benchmark.stats.stats.median * 1e3


GAMES = max(4, min(200, N // 20000))


def _random_games(variant, players, games):
    """`games` hands of OFC played to the end by a seeded random policy (actions from the mask)."""
    rng = np.random.default_rng(5)
    for seed in range(games):
        game = ofc.Game(players, variant, seed=seed)
        while not game.over:
            game.play_action(int(rng.choice(np.flatnonzero(ofc.actions.mask(game)))))
        game.points()


@pytest.mark.parametrize("variant,players", [("classic", 4), ("pineapple", 3), ("deuce", 2)])
@pytest.mark.benchmark(group="ofc games, random policy")
def test_random_games(benchmark, variant, players):
    benchmark(_random_games, variant, players, GAMES)
    benchmark.extra_info["games_per_s"] = GAMES / benchmark.stats.stats.median
