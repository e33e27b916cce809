"""13-card Chinese poker: the best setting of random hands (targets: 5,000 hands/s for
"royalties", 1,000 hands/s for "ev", one thread) and scoring settings in batches."""
import numpy as np
import pytest

import handrank as hr
from handrank import chinese

from conftest import N

# A setting search takes a fraction of a millisecond: its own, smaller, fixed-seed sets of hands.
SETTING_HANDS = max(20, min(2000, N // 2000))


@pytest.fixture(scope="module")
def hands13():
    return hr.random_hands(SETTING_HANDS, 13, seed=1313)


@pytest.mark.parametrize("objective, rules", [("royalties", "1-6"), ("ev", "1-6"), ("ev", "2-4")])
@pytest.mark.benchmark(group="chinese best setting")
def test_best_setting(benchmark, hands13, objective, rules):
    chinese.best_setting_batch(hands13[:1], rules, objective)     # the ev tables, built once
    benchmark(chinese.best_setting_batch, hands13, rules, objective, threads=1)
    benchmark.extra_info["hands_per_s"] = SETTING_HANDS / benchmark.stats.stats.median


@pytest.mark.benchmark(group="chinese score")
def test_score_batch(benchmark, n_hands, record):
    deals = hr.random_hands(n_hands, 26, seed=26)
    a, b = deals[:, :13].copy(), deals[:, 13:].copy()
    benchmark(chinese.score_batch, a, b, threads=1)
    record(n_hands)


# Every option of RULES.md "Decisions added after review" on: the natural variants (read in numpy
# beside the compiled scorer), one royalty per hand and the wheel second (in the kernel), and a
# tenth of the players surrendering.
VARIANTS = chinese.Rules(naturals=chinese.Rules().naturals
                         + tuple((kind, 3) for kind in chinese.NATURAL_VARIANTS),
                         one_royalty=True, wheel_second=True, surrender_allowed=True)


@pytest.mark.benchmark(group="chinese score")
def test_score_batch_variants(benchmark, n_hands, record):
    deals = hr.random_hands(n_hands, 26, seed=26)
    a, b = deals[:, :13].copy(), deals[:, 13:].copy()
    gave_up = np.random.default_rng(27).random((n_hands, 2)) < 0.1
    benchmark(chinese.score_batch, a, b, VARIANTS, threads=1, surrendered_a=gave_up[:, 0],
              surrendered_b=gave_up[:, 1])
    record(n_hands)
