"""The OFC placement solver. Targets: 20,000 "best" completions/s from the first pineapple street
(12 cards to come, 8 to place) on one thread; best_placement on a middle street (27 placements,
1,000 samples) under 100 ms on two threads; the first street (232 placements, racing) under 2 s
on two threads. HANDRANK_BENCH_N scales the completion count like the other suites; the
racing check against 5,000 samples without racing is benchmarks/ofc_racing_check.py."""
import numpy as np
import pytest

from handrank import ofc
from handrank.ofc import _placement
from handrank.ofc.advise import _board_arrays, _deal_arrays, foul_value
from handrank.ofc.rules import tables

from conftest import N

COMPLETIONS = max(200, min(20_000, N // 200))
RULES = ofc.Rules.preset("pineapple")


@pytest.fixture(scope="module")
def first_street_spots():
    """Boards after a random first-street placement and their 12 cards to come (fixed seed)."""
    rng = np.random.default_rng(21)
    boards, pools = [], []
    for _ in range(COMPLETIONS):
        deck = rng.permutation(52)
        placement = ofc.legal_placements(ofc.PartialBoard(), deck[:5].tolist())
        boards.append(placement[rng.integers(len(placement))].rows)
        pools.append(deck[5:17])
    arr, held = _board_arrays(boards)
    return arr, held, np.array(pools, dtype=np.uint8)


@pytest.mark.parametrize("completion", ["best", "greedy"])
@pytest.mark.benchmark(group="ofc completions, first street, one thread")
def test_completions(benchmark, first_street_spots, completion):
    arr, held, pools = first_street_spots
    sizes, discards = _deal_arrays(((3, 1),) * 4)
    out = np.empty((len(arr), 13), dtype=np.uint8)
    mode = _placement.BEST if completion == "best" else _placement.GREEDY
    benchmark(_placement.complete_boards, tables(RULES), mode, 0.0, foul_value(RULES), sizes,
              discards, arr, held, pools, out)
    benchmark.extra_info["completions_per_s"] = len(arr) / benchmark.stats.stats.median


MIDDLE = ofc.PartialBoard("As", "Kd 9h", "2c 3c")      # street 2 of 5: three streets to come


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.benchmark(group="ofc best_placement, middle street, 1,000 samples")
def test_best_placement_middle_street(benchmark, threads):
    advice = benchmark(ofc.best_placement, MIDDLE, "Qs Qh 7d", samples=1000, seed=3, threads=threads)
    assert len(advice.ranked) == 27 and not advice.exact


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.benchmark(group="ofc best_placement, first street, racing")
def test_best_placement_first_street(benchmark, threads):
    advice = benchmark.pedantic(ofc.best_placement, (ofc.PartialBoard(), "As Ad Kh 7c 2s"),
                                {"samples": 1000, "seed": 3, "threads": threads},
                                rounds=3 if N >= 1_000_000 else 1)
    assert len(advice.ranked) == 232
