"""Hold'em equity on the spots of OMPEval's equity calculator (../shared/anchors/ompeval/equity.sh,
run in the same sitting for the reference figures). Targets: exact heads-up preflop AhAs vs KcKd
at most OMPEval's time, exact range vs range on a flop at most 1/1.3 of it (issue 41; the deal
walk the spot took before, measured beside it, is the reference in the same run); Monte Carlo of
6 random hands at least its showdowns per second (one and two threads); the Python overhead of a
small exact call (990 boards) under 50 us."""
import math
import sys

import pytest

from handrank import equity

from conftest import N

WIDE = "22+,A2s+,K9s+,Q9s+,J9s+,T9s,A9o+,KTo+,QTo+,JTo"
MC_SAMPLES = max(100_000, N // 2)       # 2,000,000 by default


@pytest.mark.benchmark(group="equity exact")
def test_heads_up_preflop(benchmark):
    result = benchmark(equity.calculate, ["AhAs", "KcKd"], exact=True, threads=1)
    assert result.showdowns == 1_712_304
    benchmark.extra_info["showdowns_per_s"] = result.showdowns / benchmark.stats.stats.median


@pytest.mark.benchmark(group="equity exact")
def test_range_vs_range_flop(benchmark):
    result = benchmark(equity.calculate, ["QQ+,AKs", WIDE], "Jh Th 2c", exact=True, threads=1)
    assert result.showdowns == 4_637_160
    benchmark.extra_info["showdowns_per_s"] = result.showdowns / benchmark.stats.stats.median


@pytest.mark.benchmark(group="equity exact")
def test_range_vs_range_flop_deal_walk(benchmark, monkeypatch):
    # the same spot through the deal-by-deal walk (board by board since issue 41)
    monkeypatch.setattr(sys.modules["handrank.equity.calculate"], "BY_BOARD",
                        dict.fromkeys((3, 4, 5), math.inf))
    result = benchmark(equity.calculate, ["QQ+,AKs", WIDE], "Jh Th 2c", exact=True, threads=1)
    assert result.showdowns == 4_637_160


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.benchmark(group="equity monte carlo")
def test_six_random_hands(benchmark, threads):
    result = benchmark.pedantic(equity.calculate, (["random"] * 6,),
                                dict(samples=MC_SAMPLES, seed=1, threads=threads), rounds=5)
    benchmark.extra_info["showdowns_per_s"] = result.showdowns / benchmark.stats.stats.median


@pytest.mark.benchmark(group="equity overhead")
def test_small_exact_call(benchmark):
    result = benchmark(equity.calculate, ["AsKs", "QhQd"], board="Jh Th 2c")
    assert result.exact and result.showdowns == 990
