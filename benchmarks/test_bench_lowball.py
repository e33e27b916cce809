"""Lowball evaluators: 2-7 (5 cards) and A-5 (5 and 7 cards), batch on one thread."""
import numpy as np
import pytest

from handrank import low27, lowa5


@pytest.mark.benchmark(group="lowball batch")
def test_low27_batch(benchmark, hands, n_hands, record):
    out = np.empty(n_hands, dtype=np.uint16)
    benchmark(low27.evaluate_batch, hands[5], out=out, threads=1)
    record(n_hands)


@pytest.mark.parametrize("k", [5, 7])
@pytest.mark.benchmark(group="lowball batch")
def test_lowa5_batch(benchmark, hands, n_hands, record, k):
    out = np.empty(n_hands, dtype=np.uint16)
    benchmark(lowa5.evaluate_batch, hands[k], out=out, threads=1)
    record(n_hands)
