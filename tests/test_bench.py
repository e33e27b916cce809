"""The benchmark harness: the workload list, the interleaved rounds and medians, the table and the
`handrank bench` command (with tiny N, so it takes well under a second)."""
import json

import numpy as np
import pytest

from handrank import bench, high
from handrank.cli import main

EXPECTED_WORKLOADS = [
    bench.REFERENCE,
    "high 5-card batch, 1 thread",
    "high 5-card batch, 2 threads",
    "high 6-card batch, 1 thread",
    "high 7-card batch, 1 thread",
    "high 7-card batch, 2 threads",
    "high 7-card sorted batch, 1 thread",
    "high3 3-card batch, 1 thread",
    "low27 5-card batch, 1 thread",
    "lowa5 5-card batch, 1 thread",
    "lowa5 7-card batch, 1 thread",
    "Omaha PLO4 batch, 1 thread",
    "Omaha-8 PLO4 low batch, 1 thread",
    "short deck 7-card batch, 1 thread",
    "badugi batch, 1 thread",
    "high.evaluate scalar, 7-int tuples",
    "high.evaluate scalar, 5-int tuples",
]
SCALAR_ROWS = 2


def test_workloads_cover_every_evaluator():
    loads = bench.workloads(2000, threads=2, seed=1)
    assert [w.name for w in loads] == EXPECTED_WORKLOADS
    assert all(w.hands == 2000 for w in loads[:-SCALAR_ROWS])
    assert all(w.hands == 2000 // bench.SCALAR_FRACTION for w in loads[-SCALAR_ROWS:])
    names = [w.name for w in loads]
    assert all(w.baseline is None or w.baseline in names for w in loads)
    assert loads[-1].baseline == "high 5-card batch, 1 thread"
    seven = loads[EXPECTED_WORKLOADS.index("high 7-card batch, 1 thread")].call()
    assert seven.shape == (2000,) and seven.dtype == np.uint16
    assert np.array_equal(seven, loads[EXPECTED_WORKLOADS.index("high 7-card batch, 2 threads")].call())
    assert 1 <= seven.min() and seven.max() <= high.MAX_VALUE
    in_order = loads[EXPECTED_WORKLOADS.index("high 7-card sorted batch, 1 thread")].call()
    assert sorted(in_order.tolist()) == sorted(seven.tolist())     # the same hands, reordered


def test_sorted_hands_is_enumeration_order():
    hands = np.array([[9, 3, 1], [0, 5, 2], [0, 2, 4]], dtype=np.uint8)
    assert bench.sorted_hands(hands).tolist() == [[0, 2, 4], [0, 2, 5], [1, 3, 9]]


def test_workloads_single_thread_has_no_threaded_rows():
    names = [w.name for w in bench.workloads(100, threads=1)]
    assert not any("threads" in name for name in names)
    assert len(names) == len(EXPECTED_WORKLOADS) - 2


def test_workloads_are_seeded():
    a = bench.workloads(500, threads=1, seed=7)[1].call()
    b = bench.workloads(500, threads=1, seed=7)[1].call()
    c = bench.workloads(500, threads=1, seed=8)[1].call()
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_measure_interleaves_rounds_and_takes_medians(monkeypatch):
    calls = []
    loads = [bench.Workload("ref", 10, lambda: calls.append("ref")),
             bench.Workload("other", 5, lambda: calls.append("other"))]
    scripted = iter([1.0, 4.0, 3.0, 6.0, 2.0, 5.0])     # ref, other, ref, other, ref, other
    monkeypatch.setattr(bench, "_time", lambda call: (call(), next(scripted))[1])
    results = bench.measure(loads, rounds=3, reference="ref", warmup=False)
    assert calls == ["ref", "other"] * 3
    ref, other = results
    assert (ref.times, ref.seconds, ref.ratio) == ((1.0, 3.0, 2.0), 2.0, 1.0)
    assert (other.times, other.seconds) == ((4.0, 6.0, 5.0), 5.0)
    assert other.ns_per_hand == pytest.approx(1e9) and ref.ns_per_hand == pytest.approx(2e8)
    assert other.ratio == pytest.approx(0.2) and other.hands_per_second == pytest.approx(1.0)
    assert ref.vs_handrank is None and other.vs_handrank is None


def test_measure_takes_ratios_within_each_round(monkeypatch):
    # Per round "peer" is 1/10, 1/10 and 1/5 as fast as "base" while the machine's speed changes:
    # the median of the per-round ratios is 0.1, the ratio of the medians (2 / 10) would be 0.2.
    loads = [bench.Workload("ref", 1, lambda: None),
             bench.Workload("base", 1, lambda: None, baseline="base"),
             bench.Workload("peer", 1, lambda: None, baseline="base", evaluator="peer")]
    scripted = iter([1.0, 1.0, 10.0, 2.0, 4.0, 40.0, 3.0, 2.0, 10.0])
    monkeypatch.setattr(bench, "_time", lambda call: next(scripted))
    ref, base, peer = bench.measure(loads, rounds=3, reference="ref", warmup=False)
    assert base.vs_handrank == 1.0 and peer.vs_handrank == pytest.approx(0.1)
    assert peer.seconds == 10.0 and base.seconds == 2.0 and peer.evaluator == "peer"
    assert peer.ratio == pytest.approx(0.1)             # 1/10, 2/40, 3/10: median 0.1
    with pytest.raises(ValueError, match="baseline"):
        bench.measure([loads[0], bench.Workload("x", 1, lambda: None, baseline="nope")],
                      rounds=1, reference="ref")


def test_measure_warms_up_once_before_timing(monkeypatch):
    calls = []
    monkeypatch.setattr(bench, "_time", lambda call: (call(), 1.0)[1])
    bench.measure([bench.Workload("ref", 1, lambda: calls.append(1))], rounds=2, reference="ref")
    assert len(calls) == 3


def test_measure_rejects_bad_arguments():
    loads = [bench.Workload("ref", 1, lambda: None)]
    with pytest.raises(ValueError, match="rounds"):
        bench.measure(loads, rounds=0, reference="ref")
    with pytest.raises(ValueError, match="reference"):
        bench.measure(loads, rounds=1)


def test_format_table():
    results = [bench.Result(bench.REFERENCE, 1000, 1e-6, (1e-6,), 1.0),
               bench.Result("slow one", 100, 1e-5, (1e-5,), 100.0, 0.5),
               bench.Result("peer", 1000, 1.0, (1.0,), 1e-6, 2e-4, "peer")]
    lines = bench.format_table(results).splitlines()
    assert lines[0].split() == ["workload", "M", "hands/s", "ns/hand", "vs", "handrank", "vs", "gather"]
    assert set(lines[1]) == {"-", " "}
    assert lines[2].split()[-3:] == ["1,000.00", "1.00", "1.00"]     # no baseline: blank
    assert lines[3].split()[-4:] == ["10.00", "100.00", "0.50", "100.00"]
    assert lines[4].split()[-4:] == ["0.0010", "1,000,000.00", "2.0e-04", "1.0e-06"]
    assert len({len(line) for line in lines}) == 1


def test_cli_bench_table(capsys):
    assert main(["bench", "--hands", "20000", "--rounds", "1", "--threads", "2", "--no-peers"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    for name in EXPECTED_WORKLOADS:
        row = [line for line in lines if line.startswith(name + "  ")]
        assert len(row) == 1, name
        cells = [float(cell.replace(",", "")) for cell in row[0][len(name):].split()]
        assert len(cells) in (3, 4) and all(cell > 0 for cell in cells)
    assert "20,000" in lines[0]
    assert "peers: not measured (--no-peers)" in lines
    assert "agreement" not in out


def test_cli_bench_json(capsys):
    assert main(["bench", "-n", "20000", "-r", "2", "-t", "2", "--json", "--seed", "3",
                 "--no-peers"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["hands"], doc["rounds"], doc["threads"], doc["seed"]) == (20000, 2, 2, 3)
    assert (doc["peers"], doc["not_installed"], doc["agreement"]) == ({}, [], [])
    assert [r["name"] for r in doc["results"]] == EXPECTED_WORKLOADS
    for r in doc["results"]:
        assert len(r["times"]) == 2 and r["ratio"] > 0 and r["ns_per_hand"] > 0
    assert doc["results"][0]["ratio"] == 1.0
