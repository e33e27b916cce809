"""handrank.dask on a LocalCluster of two worker processes (and the default threaded scheduler):
every result equals the single-machine batch call, bad rows are named by their index in the whole
array, and a worker killed in the middle of a job changes nothing."""
import itertools
import os
import signal
import time
from math import comb

import numpy as np
import pytest

pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import dask.array as da  # noqa: E402

import handrank.dask as hd  # noqa: E402
from handrank import bigtwo, chinese, high, high3, low27, lowa5, ofc, rows  # noqa: E402
from test_high import SEVEN_CARD_HANDS, per_category  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        yield c


def deal(n, k, seed):
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


# (game, batch function, hand sizes, options)
CASES = [
    ("high", high.evaluate_batch, (5, 6, 7), {}),
    ("high3", high3.evaluate_batch, (3,), {}),
    ("low27", low27.evaluate_batch, (5,), {}),
    ("lowa5", lowa5.evaluate_batch, (5, 6, 7), {}),
    ("rows", rows.value_batch, (3, 5), {}),
    ("bigtwo", bigtwo.classify_batch, (1, 2, 3, 5), {}),
    ("bigtwo", bigtwo.classify_batch, (5,), {"rules": "taiwan"}),
]


def test_games_are_the_batch_functions():
    assert {game for game, *_ in CASES} == set(hd.GAMES)


@pytest.mark.parametrize(("game", "batch", "sizes", "options"), CASES)
def test_evaluate_equals_the_batch_call(client, game, batch, sizes, options):
    for k in sizes:
        hands = deal(20_011, k, seed=k)
        expected = batch(hands, **options)
        values = hd.evaluate(da.from_array(hands, chunks=(3_000, k)), game, **options)
        assert isinstance(values, da.Array) and values.dtype == expected.dtype
        assert np.array_equal(values.compute(), expected)


def test_evaluate_takes_what_the_batch_functions_take():
    # numpy, int64, text rows; the threaded scheduler (no client in this test's calls)
    hands = deal(5_000, 7, seed=9)
    expected = high.evaluate_batch(hands)
    assert np.array_equal(hd.evaluate(hands, rows_per_task=999).compute(scheduler="threads"), expected)
    assert np.array_equal(hd.evaluate(hands.astype(np.int64), rows_per_task=999).compute(scheduler="sync"),
                          expected)
    text = ["As Ks Qs Js Ts", "2c 3d 4h 5s 7c"]
    assert list(hd.evaluate(text, rows_per_task=1).compute(scheduler="sync")) == [7462, 1]
    # columns cut into chunks are put back together
    cut = da.from_array(hands, chunks=(1_000, 3))
    assert np.array_equal(hd.evaluate(cut).compute(scheduler="sync"), expected)
    assert hd.evaluate(hands[:0]).compute(scheduler="sync").shape == (0,)


def test_each_task_hands_its_chunk_to_the_batch_call_uncopied(monkeypatch):
    made, seen = {}, []     # the chunks by first row; whether the batch call got one of them

    def chunk(block_info=None):
        (start, stop), _ = block_info[None]["array-location"]
        made[start] = deal(stop - start, 7, seed=start)
        return made[start]

    def batch(block, threads):
        seen.append(any(np.shares_memory(block, m) for m in made.values()))
        return high.evaluate_batch(block, threads=threads)

    monkeypatch.setitem(hd.GAMES, "high", batch)
    hands = da.map_blocks(chunk, chunks=((1_000, 1_000, 500), (7,)), dtype=np.uint8)
    values = hd.evaluate(hands).compute(scheduler="sync")
    assert np.array_equal(values, high.evaluate_batch(np.concatenate([made[s] for s in sorted(made)])))
    assert seen == [False, True, True, True]    # the probe on no rows, then each chunk itself


@pytest.mark.parametrize("bad_row", [0, 2_999, 3_000, 20_010])
def test_bad_row_is_named_by_its_index_in_the_whole_array(client, bad_row):
    hands = deal(20_011, 7, seed=3)
    hands[bad_row, 4] = hands[bad_row, 1]
    with pytest.raises(ValueError) as local:
        high.evaluate_batch(hands)
    with pytest.raises(ValueError) as distributed_error:
        hd.evaluate(da.from_array(hands, chunks=(3_000, 7))).compute()
    assert str(distributed_error.value) == str(local.value)
    assert str(local.value).startswith(f"row {bad_row}: ")
    boards = deal(20, 14, seed=4)
    boards[bad_row % 20, 13] = boards[bad_row % 20, 0]
    with pytest.raises(ValueError) as local:
        ofc.solve_fantasyland_batch(boards)
    with pytest.raises(ValueError) as distributed_error:
        hd.map_hands(ofc.solve_fantasyland_batch, boards, rows_per_task=3)
    assert str(distributed_error.value) == str(local.value)


def test_errors_before_any_task_runs():
    hands = deal(10, 7, seed=5)
    with pytest.raises(ValueError, match="game must be one of"):
        hd.evaluate(hands, "omaha")
    with pytest.raises(TypeError, match="integer array"):
        hd.evaluate(hands.astype(np.float64))
    with pytest.raises(ValueError, match=r"shape \(N, 5\)"):
        hd.evaluate(hands, "low27")
    with pytest.raises(ValueError, match="preset|rules|Rules"):
        hd.evaluate(hands[:, :5], "bigtwo", rules="no such rules")
    with pytest.raises(ValueError, match="threads must be >= 1"):
        hd.evaluate(hands, threads=0)
    with pytest.raises(ValueError, match="rows_per_task must be >= 1"):
        hd.map_hands(ofc.solve_fantasyland_batch, hands, rows_per_task=0)
    unknown = da.from_array(hands, chunks=(5, 7))
    unknown = unknown[unknown[:, 0] < 60]
    with pytest.raises(ValueError, match="compute_chunk_sizes"):
        hd.evaluate(unknown)


def test_map_hands_equals_the_batch_call(client):
    boards = deal(4_001, 13, seed=6)
    local = ofc.evaluate_batch(boards, "progressive")
    spread = hd.map_hands(ofc.evaluate_batch, boards, rows_per_task=700, rules="progressive")
    assert type(spread) is type(local)
    for ours, theirs in zip(spread, local):
        assert np.array_equal(ours, theirs)
    hands = deal(40, 15, seed=7)
    local = ofc.solve_fantasyland_batch(hands, stay_value=3.0)
    spread = hd.map_hands(ofc.solve_fantasyland_batch, da.from_array(hands, chunks=(7, 15)), stay_value=3.0)
    for ours, theirs in zip(spread, local):
        assert np.array_equal(ours, theirs)
    hands = deal(12, 13, seed=8)
    local = chinese.best_setting_batch(hands)
    spread = hd.map_hands(chinese.best_setting_batch, hands, rows_per_task=5)
    for ours, theirs in zip(spread, local):
        assert np.array_equal(ours, theirs)
    assert np.array_equal(hd.map_hands(high.evaluate_batch, deal(100, 7, 1), rows_per_task=30),
                          high.evaluate_batch(deal(100, 7, 1)))
    empty = hd.map_hands(ofc.solve_fantasyland_batch, hands[:0])
    assert empty.boards.shape == (0, 13)


def test_prefix_ranges_cover_every_prefix_in_balanced_pieces():
    for k in (5, 6, 7):
        for tasks in (1, 2, 7, 16, 100, 1326):
            ranges = hd.prefix_ranges(k, tasks)
            assert ranges[0][0] == 0 and ranges[-1][1] == 1326 and len(ranges) <= tasks
            assert all(lo < hi for lo, hi in ranges)
            assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    # hands per prefix, counted here by pairs of first cards; the biggest prefix (2c 2d) holds
    # 1.6% of the 7-card hands, so 16 pieces each stay near 1/16 of them
    pairs = list(itertools.combinations(range(52), 2))
    pieces = [sum(comb(51 - pairs[p][1], 5) for p in range(lo, hi)) for lo, hi in hd.prefix_ranges(7, 16)]
    assert sum(pieces) == comb(52, 7) and len(pieces) == 16
    assert max(pieces) < 1.3 * comb(52, 7) / 16


def test_count_all_equals_the_single_machine_count(client):
    counts = hd.count_all(7).compute()
    assert counts.dtype == np.int64 and np.array_equal(counts, high.count_all(7))
    assert per_category(counts) == SEVEN_CARD_HANDS     # the published counts
    assert hd._scheduler_threads() == 2        # count_all's default: two pieces per thread of it
    assert np.array_equal(hd.count_all(6, tasks=1).compute(scheduler="sync"), high.count_all(6))
    assert np.array_equal(hd.count_all(5, tasks=1326).compute(scheduler="threads"), high.count_all(5))
    for bad, error in ((8, ValueError), ("7", TypeError)):
        with pytest.raises(error, match="count_all takes"):
            hd.count_all(bad)
    with pytest.raises(ValueError, match="tasks must be in 1..1326"):
        hd.count_all(7, tasks=0)


def test_count_all_survives_a_worker_killed_mid_job(client):
    pids = client.run(os.getpid)
    future = client.compute(hd.count_all(7, tasks=64))
    deadline = time.monotonic() + 60
    while not any(client.processing().values()):
        assert time.monotonic() < deadline, "the job never started"
        time.sleep(0.002)
    busy = next(worker for worker, tasks in client.processing().items() if tasks)
    os.kill(pids[busy], signal.SIGKILL)
    killed_mid_job = not future.done()
    assert np.array_equal(future.result(timeout=120), high.count_all(7))
    assert killed_mid_job
    client.wait_for_workers(2, timeout=60)      # the nanny has started a new worker


def test_equity_table(client):
    equity = pytest.importorskip("handrank.equity")
    matchups = [("AA", "KK"), ("AKs", "QQ"), ("72o", "AA"), ("AA", "AA")]
    spread = hd.equity_table(matchups, matchups_per_task=2).compute()
    local = [equity.calculate(list(m), exact=True).equity[0] for m in matchups]
    assert np.allclose(spread, local, rtol=0, atol=1e-12)
    assert spread[0] > 0.8 and spread[3] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="hand classes"):
        hd.equity_table([("AA", "AKx")])


def test_classes():
    assert len(set(hd.CLASSES)) == 169
    assert hd.CLASSES[:3] == ("AA", "AKs", "AQs") and hd.CLASSES[13:15] == ("AKo", "KK")
    assert hd.CLASSES[-1] == "22"
    assert sum(6 if len(c) == 2 else 4 if c[2] == "s" else 12 for c in hd.CLASSES) == 1326


# ----------------------------------------------------------------------------- issue 27 (U10)
def slow_first_chunk(batch):
    """`batch`, slowed down on the chunk that starts the array: its task fails last."""
    def call(block, threads, **options):
        if block.shape[0] and np.array_equal(block[0], FIRST_ROW):
            time.sleep(0.5)
        return batch(block, threads=threads, **options)
    return call


FIRST_ROW = None


@pytest.mark.parametrize("scheduler", ["threads", "sync"])
def test_several_bad_rows(monkeypatch, scheduler):
    # map_hands names the first bad row, as the batch call does, whichever task fails first;
    # evaluate names a bad row of the chunk that failed first, by its index in the whole array
    # (docs/dask.md: ordering the chunks' errors would serialise the graph)
    global FIRST_ROW
    hands = deal(9_000, 7, seed=11)
    bad_rows = (10, 4_500, 8_999)
    for bad in bad_rows:
        hands[bad, 3] = hands[bad, 0]
    FIRST_ROW = hands[0].copy()
    monkeypatch.setitem(hd.GAMES, "high", slow_first_chunk(high.evaluate_batch))
    with pytest.raises(ValueError) as spread:
        hd.evaluate(hands, rows_per_task=1_000).compute(scheduler=scheduler, num_workers=4)
    row = int(str(spread.value).split(":")[0].removeprefix("row "))
    assert row in bad_rows
    with pytest.raises(ValueError) as alone:
        high.evaluate_batch(hands[row:row + 1])
    assert str(spread.value) == f"row {row}: " + str(alone.value).removeprefix("row 0: ")
    boards = deal(60, 13, seed=12)
    for bad in (2, 33, 59):
        boards[bad, 12] = boards[bad, 1]
    FIRST_ROW = boards[0].copy()
    with pytest.raises(ValueError) as local:
        ofc.evaluate_batch(boards)
    import dask
    with dask.config.set(scheduler=scheduler, num_workers=4), pytest.raises(ValueError) as spread:
        hd.map_hands(slow_first_chunk(ofc.evaluate_batch), boards, rows_per_task=10)
    assert str(spread.value) == str(local.value) and str(local.value).startswith("row 2: ")


def test_several_bad_rows_on_a_cluster(client):
    hands = deal(20_011, 7, seed=13)
    bad_rows = (20_010, 3_000, 9_999)
    for bad in bad_rows:
        hands[bad, 6] = hands[bad, 2]
    for _ in range(3):
        with pytest.raises(ValueError, match=r"^row (20010|3000|9999): ") as spread:
            hd.evaluate(da.from_array(hands, chunks=(1_000, 7))).compute()
        row = int(str(spread.value).split(":")[0].removeprefix("row "))
        with pytest.raises(ValueError) as alone:
            high.evaluate_batch(hands[row:row + 1])
        assert str(spread.value) == f"row {row}: " + str(alone.value).removeprefix("row 0: ")
    assert np.array_equal(hd.evaluate(deal(5_000, 7, 14), rows_per_task=700).compute(),
                          high.evaluate_batch(deal(5_000, 7, 14)))


@pytest.mark.parametrize(("matchups", "options", "error", "says"), [
    ([("AA", "KK")], {"matchups_per_task": 0}, ValueError, "matchups_per_task must be >= 1, got 0"),
    ([("AA", "KK")], {"matchups_per_task": 2.5}, TypeError, "matchups_per_task must be an int"),
    ("AA", {}, TypeError, r"matchups is a list of \(class, class\) pairs .*not str: 'AA'"),
    ([("AA",)], {}, ValueError, r"a matchup is a pair of hand classes such as \('AA', 'KK'\), got \('AA',\)"),
    (["AK"], {}, ValueError, "a matchup is a pair of hand classes"),
    ([("AA", "KK")], {"threads": 0}, ValueError, "threads must be >= 1"),
    ([("AA", "KK")], {"exact": "yes"}, TypeError, "exact must be"),
    ([("AA", "KK")], {"samples": 0, "exact": False}, ValueError, "samples must be 1 to"),
    ([("AA", "KK")], {"no_such_option": 1}, TypeError, "no_such_option"),
    ([("AA", "KK")], {"progress": 3}, TypeError, "progress must be a callable"),
])
def test_equity_table_options_are_checked_before_any_task(monkeypatch, matchups, options, error, says):
    # each used to fail only at compute time, in a task (matchups_per_task=0: ZeroDivisionError;
    # "AA": "a matchup is two hand classes, got ('A',)")
    monkeypatch.setattr(hd, "_equity_block", lambda *args: pytest.fail("a task ran"))
    with pytest.raises(error, match=says):
        hd.equity_table(matchups, **options)


def test_equity_table_probes_the_first_matchup_once(monkeypatch):
    equity = pytest.importorskip("handrank.equity")
    calls = []
    monkeypatch.setattr(equity, "calculate", lambda *a, **k: calls.append(k) or equity_result())
    table = hd.equity_table([("AA", "KK")], matchups_per_task=1)
    assert len(calls) == 1 and callable(calls[0]["progress"])    # the probe, stopped at once
    assert table.compute(scheduler="sync")[0] == 0.25 and len(calls) == 2


def equity_result():
    class Result:
        equity = (0.25, 0.75)
    return Result()
