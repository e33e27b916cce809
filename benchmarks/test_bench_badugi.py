"""Badugi batch, both orderings, one thread: random 4-card hands (fixed seed), against the numpy
gather of the same count timed in the same session (`record`'s ratio_to_numpy_gather; issue 29
asks for at least 0.5)."""
import numpy as np
import pytest

import handrank as hr
from handrank import badugi


@pytest.fixture(scope="module")
def hands4(n_hands):
    return hr.random_hands(n_hands, 4, seed=1004)


@pytest.mark.parametrize("ace_low", [True, False])
@pytest.mark.benchmark(group="badugi batch")
def test_badugi_batch(benchmark, hands4, n_hands, record, ace_low):
    out = np.empty(n_hands, dtype=np.uint16)
    benchmark(badugi.evaluate_batch, hands4, ace_low=ace_low, out=out, threads=1)
    record(n_hands)
