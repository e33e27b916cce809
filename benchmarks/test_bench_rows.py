"""Row values on the interleaved 3-/5-card scale (OFC and Chinese poker foul checks)."""
import numpy as np
import pytest

from handrank import rows


@pytest.mark.parametrize("k", [3, 5])
@pytest.mark.benchmark(group="rows batch")
def test_rows_batch(benchmark, hands, n_hands, record, k):
    out = np.empty(n_hands, dtype=np.uint16)
    benchmark(rows.value_batch, hands[k], out=out, threads=1)
    record(n_hands)
