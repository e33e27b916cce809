"""handrank.ehs: exact hand-strength statistics against equity.calculate and brute-force loops."""
import itertools
import os
import sys

import numpy as np
import pytest

from handrank import ehs, high
from handrank.equity import calculate
from handrank.iso import Indexer
from handrank.showdown import range_weights

RNG_SEED = 30


def _random_classes(n: int, count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    indexer = Indexer([2, n])
    return rng.integers(0, indexer.size(1), count, dtype=np.uint64)


def _exact(row: list[int]) -> float:
    result = calculate([row[:2], "random"], board=row[2:], exact=True)
    return float(result.equity[0])


@pytest.mark.parametrize("n, count", [(5, 40), (4, 30), (3, 6)])
def test_ehs_rows_equal_equity_calculate(n, count):
    rows = Indexer([2, n]).unindex_batch(1, _random_classes(n, count, RNG_SEED + n))
    values, squares = ehs.ehs_rows(rows)
    for row, value in zip(rows.tolist(), values):
        assert value == pytest.approx(_exact(row), abs=1e-12)
    if n == 5:
        np.testing.assert_array_equal(squares, values * values)
    assert ((squares >= values * values - 1e-15) & (squares <= values + 1e-15)).all()


def test_ehs2_against_a_loop_over_runouts():
    hole, board = [51, 38], [0, 13, 27]
    values = []
    for runout in itertools.combinations([c for c in range(52) if c not in hole + board], 2):
        values.append(_exact(hole + board + list(runout)))
    ehs_value, ehs2 = ehs.ehs_rows(np.array([hole + board], dtype=np.uint8))
    assert ehs_value[0] == pytest.approx(np.mean(values), abs=1e-12)
    assert ehs2[0] == pytest.approx(np.mean(np.square(values)), abs=1e-12)


def _river_subset(river_indices: np.ndarray) -> np.ndarray:
    """A river table (lazily zeroed memory) filled for the boards of the given river hands."""
    river = np.zeros(Indexer([2, 5]).size(1))
    hands = Indexer([2, 5]).unindex_batch(1, river_indices)
    ehs.river_values(np.unique(hands[:, 2:], axis=0), river)
    return river


def test_river_values_fill_the_table_by_iso_index():
    indices = _random_classes(5, 50, RNG_SEED)
    river = _river_subset(indices)
    expected, _ = ehs.ehs_rows(Indexer([2, 5]).unindex_batch(1, indices))
    np.testing.assert_allclose(river[indices], expected, rtol=0, atol=1e-14)


def _next_indices(n: int, indices: np.ndarray) -> np.ndarray:
    hands = Indexer([2, n]).unindex_batch(1, indices)
    rows = [h + [c] for h in hands.tolist() for c in range(52) if c not in h]
    return np.unique(Indexer([2, n + 1]).index_batch(np.array(rows, dtype=np.uint8)))


def test_turn_and_flop_averages_equal_the_exact_values():
    turn = _random_classes(4, 12, RNG_SEED + 1)
    river = _river_subset(_next_indices(4, turn))
    values, squares = ehs.average_hands(river, river * river, 4, turn)
    expected, expected2 = ehs.ehs_rows(Indexer([2, 4]).unindex_batch(1, turn))
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-14)
    np.testing.assert_allclose(squares, expected2, rtol=0, atol=1e-14)

    flop = _random_classes(3, 2, RNG_SEED + 2)
    turn_needed = _next_indices(3, flop)
    river = _river_subset(_next_indices(4, turn_needed))
    turn_values, turn_squares = np.zeros(Indexer([2, 4]).size(1)), np.zeros(Indexer([2, 4]).size(1))
    turn_values[turn_needed], turn_squares[turn_needed] = ehs.average_hands(river, river * river, 4, turn_needed)
    values, squares = ehs.average_hands(turn_values, turn_squares, 3, flop)
    expected, expected2 = ehs.ehs_rows(Indexer([2, 3]).unindex_batch(1, flop))
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-14)
    np.testing.assert_allclose(squares, expected2, rtol=0, atol=1e-14)


def _histogram_by_loop(hole, board, villain, bins):
    values = []
    for runout in itertools.combinations([c for c in range(52) if c not in hole + board], 5 - len(board)):
        full = board + list(runout)
        win = tie = total = 0.0
        mine = high.evaluate(hole + full)
        for a, b in itertools.combinations([c for c in range(52) if c not in hole + full], 2):
            w = villain[max(a, b) * (max(a, b) - 1) // 2 + min(a, b)]
            if w == 0:
                continue
            theirs = high.evaluate([a, b] + full)
            total += w
            win += w * (mine > theirs)
            tie += w * (mine == theirs)
        if total:
            values.append((win + tie / 2) / total)
    return np.histogram(values, bins=bins, range=(0, 1))[0]


@pytest.mark.parametrize("opponent", ["random", "QQ+, AKs, 76s"])
def test_equity_histogram_against_a_loop(opponent):
    hole, board = [51, 47], [46, 20, 3, 33]
    villain = range_weights(opponent)
    counts, edges = ehs.equity_histogram(hole, board, opponent, bins=8)
    np.testing.assert_array_equal(counts, _histogram_by_loop(hole, board, villain, 8))
    np.testing.assert_allclose(edges, np.linspace(0, 1, 9))
    assert counts.sum() == 46


def test_bad_input():
    with pytest.raises(ValueError, match="street"):
        ehs.ehs_table("preflop")
    with pytest.raises(TypeError, match="street"):
        ehs.ehs_table(3)
    with pytest.raises(ValueError, match="repeated"):
        ehs.equity_histogram("As Ks", "As 2c 3d")
    with pytest.raises(ValueError, match="board"):
        ehs.equity_histogram("As Ks", "2c 3d")
    with pytest.raises(ValueError, match="row 1"):
        ehs.ehs_rows(np.array([[0, 1, 2, 3, 4], [0, 0, 2, 3, 4]]))
    with pytest.raises(TypeError, match="rows"):
        ehs.ehs_rows(np.zeros((1, 5)))


def test_a_damaged_cache_file_is_rebuilt_not_trusted(tmp_path, monkeypatch):
    monkeypatch.setenv("HANDRANK_CACHE_DIR", str(tmp_path))
    path = ehs._cache_file("river")
    path.write_bytes(b"\x93NUMPY garbage")
    assert ehs._cached("river") is None
    os.remove(path)
    np.save(path, np.zeros((2, 3), dtype=np.float32))
    assert ehs._cached("river") is None         # the wrong shape
    os.remove(path)
    with open(path, "wb") as f:                 # a whole header, then the data cut off
        np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False,
                                                 "shape": (2, Indexer([2, 5]).size(1))})
        f.write(b"\0" * 64)
    assert ehs._cached("river") is None


def _flop_file(ehs_values, ehs2_values=0.25):
    size = Indexer([2, 3]).size(1)
    np.save(ehs._cache_file("flop"), np.stack([np.full(size, ehs_values, dtype=np.float32),
                                               np.full(size, ehs2_values, dtype=np.float32)]))


def test_a_cached_table_with_values_outside_0_1_is_rebuilt_not_trusted(tmp_path, monkeypatch):
    monkeypatch.setenv("HANDRANK_CACHE_DIR", str(tmp_path))
    _flop_file(0.5)
    assert ehs._cached("flop").lookup("As Ah", "2c 3d 7h") == (0.5, 0.25)
    size = Indexer([2, 3]).size(1)
    for damage in (np.nan, 1.5, -0.25, np.inf):
        values = np.full((2, size), 0.5, dtype=np.float32)
        values[1, size - 7] = damage                   # one entry, near the end, of ehs2
        np.save(ehs._cache_file("flop"), values)
        assert ehs._cached("flop") is None, damage


def test_lookup_keeps_one_indexer(monkeypatch):
    size = Indexer([2, 3]).size(1)
    table = ehs.EhsTable("flop", np.arange(size, dtype=np.float32) / size, np.zeros(size, dtype=np.float32))
    expected = (float(table.ehs[Indexer([2, 3]).index("As Ah 2c 3d 7h")]), 0.0)
    assert table.lookup("As Ah", "2c 3d 7h") == expected
    made = []
    monkeypatch.setattr(ehs, "Indexer", lambda rounds: made.append(rounds) or Indexer(rounds))
    for _ in range(3):
        assert table.lookup("Ah As", "3d 2c 7h") == expected
    assert made == [] and table.indexer is table.indexer    # it used to build one per call (ms)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX only: Windows has no os.mkfifo")
def test_a_fifo_in_place_of_the_cache_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("HANDRANK_CACHE_DIR", str(tmp_path))
    os.mkfifo(ehs._cache_file("river"))
    assert ehs._cached("river") is None         # refused without being opened for reading (no hang)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("HANDRANK_EHS_FULL"), reason="builds the full tables (minutes, 4 GB): "
                    "set HANDRANK_EHS_FULL=1")
@pytest.mark.parametrize("street, n", [("river", 5), ("turn", 4), ("flop", 3)])
def test_full_tables_equal_equity_calculate(street, n):
    table = ehs.ehs_table(street)
    indices = _random_classes(n, 12, RNG_SEED + 10 + n)
    rows = Indexer([2, n]).unindex_batch(1, indices)
    expected, expected2 = ehs.ehs_rows(rows)
    np.testing.assert_allclose(table.ehs[indices], expected, rtol=1e-7, atol=0)
    np.testing.assert_allclose(table.ehs2[indices], expected2, rtol=1e-7, atol=0)
    for row, value in zip(rows.tolist()[:4], table.ehs[indices]):
        assert value == pytest.approx(_exact(row), rel=1e-7)


def test_the_dask_job_fills_the_river_table_by_boards(monkeypatch):
    pytest.importorskip("dask")
    import dask

    from handrank import dask as hd

    boards = ehs.river_boards()[::3000]
    monkeypatch.setattr(ehs, "river_boards", lambda: boards)        # a small part of the job
    values, _ = hd.ehs_table("river", boards_per_task=10)
    (table,) = dask.compute(values, scheduler="threads")
    indices, expected = ehs.river_entries(boards)
    np.testing.assert_array_equal(table[indices], expected)
    hands = Indexer([2, 5]).unindex_batch(1, indices[::400])
    np.testing.assert_allclose(ehs.ehs_rows(hands)[0], table[indices[::400]], rtol=0, atol=1e-14)
    with pytest.raises(ValueError, match="hands_per_task"):
        hd.ehs_table("flop", hands_per_task=0)
