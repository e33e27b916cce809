"""handrank.solver on the spots postflop-solver is measured on (../shared/anchors/postflop-solver:
build it and run its bench_spot in the same sitting for the reference figures). Targets: the
river Td9d6hQc2s to 0.3% of the pot and the turn Td9d6hQc to 0.5%, one thread, at most
postflop-solver's time (river 1.5x faster, turn 1.2x), memory at most 1.5x its own. The turn
(one and two threads, and in 16-bit storage) is `slow`: seconds a round."""
from pathlib import Path

import pytest

from handrank.solver import Game, Spot

SPOTS = Path(__file__).resolve().parents[1].parent / "shared" / "anchors" / "postflop-solver" / "spots"
RANGES = dict(oop_range="66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s",
              ip_range="QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+")


def _spot(board: str) -> Spot:
    # the anchor's spots (spots/*.toml), written out so that the benchmark runs without them
    return Spot(board, pot=200, stack=900, bet="50%,100%", raise_="60%", **RANGES)


def _solve(spot: Spot, target: float, threads: int = 1, compress: bool = False) -> Game:
    game = Game(spot, compress=compress)
    report = game.solve(target, 1000, progress=False, threads=threads)
    assert report.stopped == "target"
    return game


@pytest.mark.benchmark(group="solver")
def test_river_to_0_3_percent(benchmark):
    game = benchmark(_solve, _spot("Td9d6hQc2s"), 0.003)
    benchmark.extra_info["iterations"] = game.iterations
    benchmark.extra_info["memory_bytes"] = game.memory_usage()


@pytest.mark.slow
@pytest.mark.parametrize(("threads", "compress"), [(1, False), (2, False), (1, True)])
@pytest.mark.benchmark(group="solver")
def test_turn_to_0_5_percent(benchmark, threads, compress):
    game = benchmark.pedantic(_solve, (_spot("Td9d6hQc"), 0.005, threads, compress), rounds=3)
    benchmark.extra_info["iterations"] = game.iterations
    benchmark.extra_info["memory_bytes"] = game.memory_usage()


def test_spots_are_the_anchors():
    if not SPOTS.exists():
        pytest.skip("the postflop-solver anchor is not beside this checkout")
    for name, board in (("river", "Td9d6hQc2s"), ("turn", "Td9d6hQc")):
        assert Spot.from_file(SPOTS / f"{name}.toml") == _spot(board)
