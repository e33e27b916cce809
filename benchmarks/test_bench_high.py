"""High-hand evaluators: batch (1 thread, all threads), scalar calls, exhaustive count."""
import numpy as np
import pytest

from handrank import _batch, _evaluate, high, high3

THREADS = [1, _batch.cpu_count()]


@pytest.mark.benchmark(group="reference")
def test_numpy_gather(benchmark, n_hands, record):
    rng = np.random.default_rng(7)
    lut = rng.integers(1, 7463, size=7463).astype(np.uint16)
    idx = rng.integers(0, lut.size, size=n_hands).astype(np.intp)
    benchmark(lambda: lut[idx])
    record(n_hands)


@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("k", [5, 6, 7])
@pytest.mark.benchmark(group="high batch")
def test_high_batch(benchmark, hands, n_hands, record, k, threads):
    out = np.empty(n_hands, dtype=np.uint16)
    benchmark(high.evaluate_batch, hands[k], out=out, threads=threads)
    record(n_hands)


@pytest.mark.parametrize("k", [5, 7])
@pytest.mark.benchmark(group="high batch")
def test_high_batch_portable_loops(benchmark, hands, n_hands, record, k):
    """The loops that CPUs without popcnt run (import picks the popcnt ones where it can)."""
    out = np.empty(n_hands, dtype=np.uint16)
    chosen = _evaluate.batch_kernel()
    _evaluate.set_batch_kernel("portable")
    try:
        benchmark(high.evaluate_batch, hands[k], out=out, threads=1)
    finally:
        _evaluate.set_batch_kernel(chosen)
    record(n_hands)


@pytest.mark.benchmark(group="high batch")
def test_high3_batch(benchmark, hands, n_hands, record):
    benchmark(high3.evaluate_batch, hands[3], threads=1)
    record(n_hands)


@pytest.mark.benchmark(group="high scalar")
def test_high_scalar_tuple7(benchmark, hands, record):
    rows = [tuple(int(c) for c in row) for row in hands[7][:100_000]]
    evaluate = high.evaluate

    def run():
        for row in rows:
            evaluate(row)

    benchmark(run)
    record(len(rows))


@pytest.mark.benchmark(group="high count_all")
def test_count_all_7(benchmark, record):
    counts = benchmark.pedantic(high.count_all, args=(7,), rounds=3, iterations=1)
    assert counts.sum() == 133_784_560
    record(133_784_560)
