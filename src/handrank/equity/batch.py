"""`hand_vs_hand_batch`: exact heads-up equities of many (hand, hand, board) rows at once."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from handrank import _batch
from handrank.cards import hand_problem
from handrank.equity import _equity

if TYPE_CHECKING:
    import numpy.typing as npt

# Rows per thread before a thread is worth its start, by cards still to come (preflop rows are
# milliseconds each, river rows nanoseconds).
_ROWS_PER_THREAD = {5: 1, 2: 64, 1: 2048, 0: 1 << 15}


def hand_vs_hand_batch(hands1: npt.ArrayLike, hands2: npt.ArrayLike, boards: npt.ArrayLike | None = None,
                       *, threads: int | None = None) -> npt.NDArray[np.float64]:
    """The first hand's exact equity (wins plus half the ties) in each row: `hands1` and
    `hands2` are (N, 2) card arrays, `boards` an (N, k) array with k in 0, 3, 4, 5 (None: no
    board). Any integer dtype, or lists of rows, a row being hand text (``"As Ks"``) or a list of
    card strings or ids (``["As", "Ks"]``). Releases the GIL; a row with a repeated card raises
    ValueError naming it."""
    first = _batch.card_array(hands1, (2,), "hands1")
    second = _batch.card_array(hands2, (2,), "hands2")
    n = first.shape[0]
    if boards is None:
        board = np.zeros((n, 0), dtype=np.uint8)
    elif isinstance(boards, np.ndarray) and boards.ndim == 2 and boards.shape[1] == 0:
        board = boards.astype(np.uint8)
    else:
        board = _batch.card_array(boards, (3, 4, 5), "boards")
    if second.shape[0] != n or board.shape[0] != n:
        raise ValueError(f"hands1, hands2 and boards must have as many rows, got {n}, "
                         f"{second.shape[0]} and {board.shape[0]}")
    rows = np.ascontiguousarray(np.concatenate([first, second, board], axis=1))
    out = np.empty(n, dtype=np.float64)
    per_thread = _ROWS_PER_THREAD[5 - board.shape[1]]
    if threads is None:
        nthreads = max(1, min(_batch.cpu_count(), n // per_thread))
    else:
        nthreads = _batch.thread_count(threads, n)
    bad = _batch.run(_equity.heads_up_rows, rows, out, nthreads)
    if bad >= 0:
        raise ValueError(f"row {bad}: {hand_problem(rows[bad])}")
    return out

