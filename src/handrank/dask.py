"""handrank on Dask: batch evaluation, exhaustive counts, game solvers and preflop equity tables
as Dask jobs, on any scheduler (threads, processes or a `distributed` cluster).

    import handrank.dask as hd
    values = hd.evaluate(hands)             # hands: an (N, k) dask array, chunked by rows
    counts = hd.count_all(7).compute()      # == handrank.high.count_all(7)

Every task runs the nogil batch kernels on `threads` threads (default 1): Dask runs as many tasks
at once as a worker has threads, so one thread per task fills the worker's cores without
oversubscribing them. A bad row raises the batch function's ValueError with the row's index in
the whole array, not in its chunk (`map_hands`: of several, the first, as the batch call; `evaluate`:
the first of the chunk whose task failed first). See docs/dask.md.
"""
# Dask's API is not annotated (and absent where the extra is not installed):
# mypy: disable-error-code="no-untyped-call, no-any-return, import-not-found"
from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Sequence
from math import comb, isnan
from typing import TYPE_CHECKING, Any, TypeVar

try:
    import dask.array as da
    from dask.base import compute
    from dask.delayed import delayed
    from dask.layers import ArraySliceDep
except ImportError as exc:
    raise ModuleNotFoundError("handrank.dask needs Dask: pip install 'handrank[dask]'", name=exc.name) from exc
import numpy as np

from handrank import _batch, _evaluate, bigtwo, high, high3, low27, lowa5, rows
from handrank.cards import RANKS

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["GAMES", "CLASSES", "evaluate", "count_all", "prefix_ranges", "map_hands", "equity_table",
           "ehs_table"]

R = TypeVar("R")

# The batch functions that return one value per row, by game name (OFC boards and the solvers
# return several arrays: see map_hands).
GAMES: dict[str, Callable[..., Any]] = {
    "high": high.evaluate_batch,
    "high3": high3.evaluate_batch,
    "low27": low27.evaluate_batch,
    "lowa5": lowa5.evaluate_batch,
    "rows": rows.value_batch,
    "bigtwo": bigtwo.classify_batch,
}

ROWS_PER_TASK = 1 << 20     # rows of a chunk made here from a numpy array (1M: ~10 ms of work)

# The 169 starting-hand classes in the usual grid order: row by the higher rank from aces down,
# pairs on the diagonal, suited hands right of it, offsuit hands left of it.
CLASSES: tuple[str, ...] = tuple(
    RANKS[i] + RANKS[j] + "s" if j < i else RANKS[j] + RANKS[i] + ("o" if j > i else "")
    for i in range(12, -1, -1) for j in range(12, -1, -1))

_ROW = re.compile(r"\brow (\d+)")


def evaluate(hands: npt.ArrayLike | da.Array, game: str = "high", *, threads: int = 1,
             rows_per_task: int = ROWS_PER_TASK, **options: Any) -> da.Array:
    """The values of an (N, k) array of hands as an (N,) dask array, chunk by chunk of rows, by
    the game's batch function (GAMES; `options` go to it, e.g. ``rules="taiwan"`` for Big Two).

    `hands`: a dask array (chunked by rows), or anything the batch functions take, cut into
    chunks of `rows_per_task` rows. Lazy: call ``.compute()`` (or ``client.compute``)."""
    if game not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
    func = GAMES[game]
    hands = _rows(hands, rows_per_task)
    meta = _probe(func, hands, threads, options)
    # blockwise by hand rather than map_blocks(drop_axis=1): map_blocks would hand each task its
    # block through an np.concatenate along the dropped axis, a copy of the whole block (a
    # quarter more time per task than the batch call), and an (n, 1) column cut down by [:, 0]
    # costs a second task per chunk on a distributed cluster. Here the task gets [its block]
    # (concatenate=None: no copy) and the slice of the whole array's rows it holds (what
    # map_blocks passes as block_info; blockwise takes an ArraySliceDep since dask 2024.12, the
    # extra's floor: docs/dask.md, Versions).
    rows = ArraySliceDep((hands.chunks[0],))
    return da.blockwise(_evaluate_block, "i", hands, "ij", rows, "i", func, None, threads, None,
                        options, None, concatenate=None, align_arrays=False, dtype=meta.dtype,
                        meta=meta)


def count_all(k: int = 7, *, tasks: int | None = None) -> da.Array:
    """`handrank.high.count_all(k)` as a dask array: the enumeration of every k-card hand cut into
    `tasks` ranges of the first two cards with about as many hands each, summed.

    Default: two tasks per thread of the distributed client, or of this machine without one
    (the whole count takes under a second of one core: more tasks would only add overhead)."""
    k = high.check_count_size(k)
    if tasks is None:
        tasks = min(2 * _scheduler_threads(), _evaluate.PREFIXES)
    if isinstance(tasks, bool) or not isinstance(tasks, (int, np.integer)):
        raise TypeError(f"tasks must be an int, not {type(tasks).__name__}")
    if not 1 <= tasks <= _evaluate.PREFIXES:
        raise ValueError(f"tasks must be in 1..{_evaluate.PREFIXES}, got {tasks}")
    count_range = delayed(_evaluate.high_count_range, pure=True)
    pieces = [da.from_delayed(count_range(k, lo, hi), shape=(7463,), dtype=np.int64)
              for lo, hi in prefix_ranges(k, int(tasks))]
    return da.stack(pieces).sum(axis=0)


def prefix_ranges(k: int, tasks: int) -> list[tuple[int, int]]:
    """At most `tasks` ranges lo..hi of the prefixes (pairs a < b of first cards, in loop order),
    covering them all, each with about the same number of k-card hands."""
    hands = [comb(51 - b, k - 2) for a in range(52) for b in range(a + 1, 52)]
    done = np.cumsum(hands)
    cuts = np.searchsorted(done, [done[-1] * i / tasks for i in range(1, tasks)], side="left") + 1
    bounds = sorted({0, *(int(c) for c in cuts), _evaluate.PREFIXES})
    return list(zip(bounds, bounds[1:]))


def map_hands(func: Callable[..., R], hands: npt.ArrayLike | da.Array, *, threads: int = 1,
              rows_per_task: int = ROWS_PER_TASK, **options: Any) -> R:
    """``func(hands, threads=threads, **options)`` computed by chunks of rows on the current Dask
    scheduler, the chunks' results concatenated in order: for batch functions that return
    several arrays (a NamedTuple of them) or one, such as ``ofc.evaluate_batch``,
    ``ofc.solve_fantasyland_batch`` or ``chinese.best_setting_batch``. Returns what `func`
    returns, for all the rows."""
    hands = _rows(hands, rows_per_task)
    empty = _probe(func, hands, threads, options)
    if hands.shape[0] == 0:
        return empty
    call = delayed(_kept_call_block, pure=True)
    starts = np.cumsum((0,) + hands.chunks[0][:-1])
    parts = [call(func, block, int(start), threads, options)
             for block, start in zip(hands.to_delayed().ravel(), starts)]
    results = compute(*parts)
    bad = next((r for r in results if isinstance(r, _BadRow)), None)
    if bad is not None:             # the first chunk with a bad row: the batch call's first bad row
        raise ValueError(bad.message)
    first = results[0]
    if isinstance(first, tuple):    # a NamedTuple of arrays
        return type(first)(*(np.concatenate(field) for field in zip(*results)))  # type: ignore[return-value]
    return np.concatenate(results)  # type: ignore[return-value]


def equity_table(matchups: Sequence[tuple[str, str]] | None = None, *, matchups_per_task: int = 8,
                 **options: Any) -> da.Array:
    """Heads-up preflop equity of hand classes (``"AA"``, ``"AKs"``, ``"72o"``): for each
    matchup (class1, class2), class1's share of the pot against class2, every combo of each
    against every combo of the other and every board (``handrank.equity.calculate``, exact
    unless `options` say otherwise). With no matchups, the (169, 169) table over CLASSES, row
    against column (each pair computed once: the two equities of a matchup add up to 1).

    Lazy: ``.compute()`` it under ``dask.diagnostics.ProgressBar()``, or watch the dashboard of
    a distributed client."""
    equity = importlib.import_module("handrank.equity")     # imported only where it is used

    if isinstance(matchups_per_task, bool) or not isinstance(matchups_per_task, (int, np.integer)):
        raise TypeError(f"matchups_per_task must be an int, not {type(matchups_per_task).__name__}")
    if matchups_per_task < 1:
        raise ValueError(f"matchups_per_task must be >= 1, got {matchups_per_task}")
    options = {"exact": True, "threads": 1, **options}
    if matchups is None:
        pairs = _upper_triangle()
    elif isinstance(matchups, str) or not isinstance(matchups, Iterable):
        raise TypeError(f"matchups is a list of (class, class) pairs such as [('AA', 'KK')], not "
                        f"{type(matchups).__name__}: {matchups!r:.80}")
    else:
        pairs = [_matchup(m) for m in matchups]
    if pairs:
        _probe_equity(equity.calculate, pairs[0], options)
    indices = np.array([[CLASSES.index(a), CLASSES.index(b)] for a, b in pairs], dtype=np.int16)
    chunks = da.from_array(indices.reshape(-1, 2), chunks=(matchups_per_task, 2))
    equities = da.map_blocks(_equity_block, chunks, equity.calculate, options, dtype=np.float64,
                             drop_axis=1)
    if matchups is not None:
        return equities
    table = delayed(_square, pure=True)(equities, indices)
    return da.from_delayed(table, shape=(len(CLASSES), len(CLASSES)), dtype=np.float64)


def _matchup(matchup: object) -> tuple[str, str]:
    """A matchup of equity_table: two of the 169 hand classes."""
    if isinstance(matchup, str) or not isinstance(matchup, Iterable) or len(pair := tuple(matchup)) != 2:
        raise ValueError(f"a matchup is a pair of hand classes such as ('AA', 'KK'), got {matchup!r:.80}")
    for name in pair:
        if not isinstance(name, str) or name not in CLASSES:
            raise ValueError(f"{name!r:.80} is not one of the 169 hand classes ('AA', 'AKs', 'AKo', ...)")
    return pair


class _Probed(Exception):
    """The end of _probe_equity's run: its options were taken."""


def _probe_equity(calculate: Callable[..., Any], pair: tuple[str, str], options: dict[str, Any]) -> None:
    """calculate on the first matchup with equity_table's options, stopped at its first progress
    report (a part of one matchup: equity.calculate checks every option before it starts): raises
    now, in the caller, what every task would raise (an unknown option, a bad value, a board that
    clashes), rather than from the first task to run."""
    user = options.get("progress")
    if user is not None and not callable(user):
        calculate(list(pair), **options)        # raises calculate's own TypeError

    def stop(done: int, total: int) -> None:
        raise _Probed

    try:
        calculate(list(pair), **{**options, "progress": stop})
    except _Probed:
        pass


def _scheduler_threads() -> int:
    """Threads of the default distributed client's workers, or this machine's cores."""
    try:
        from distributed import default_client
        return max(1, sum(default_client().nthreads().values()))
    except (ImportError, ValueError):   # no distributed, or no client
        return _batch.cpu_count()


# ----------------------------------------------------------------------------- in the tasks
def _rows(hands: npt.ArrayLike | da.Array, rows_per_task: int) -> da.Array:
    """`hands` as a dask array chunked by rows only, with known chunk sizes."""
    if isinstance(rows_per_task, bool) or not isinstance(rows_per_task, (int, np.integer)):
        raise TypeError(f"rows_per_task must be an int, not {type(rows_per_task).__name__}")
    if rows_per_task < 1:
        raise ValueError(f"rows_per_task must be >= 1, got {rows_per_task}")
    if isinstance(hands, da.Array):
        arr = hands
    else:
        local = hands if isinstance(hands, np.ndarray) else \
            _batch.card_array(hands, range(1, 53), "handrank.dask")    # text or lists of cards
        arr = da.from_array(local, chunks=(int(rows_per_task),) + local.shape[1:])
    if arr.ndim == 2 and arr.numblocks[1] > 1:
        arr = arr.rechunk({1: -1})
    if any(isnan(c) for c in arr.chunks[0]):
        raise ValueError("hands has chunks of unknown size: call hands.compute_chunk_sizes() first")
    return arr


def _probe(func: Callable[..., R], hands: da.Array, threads: int, options: dict[str, Any]) -> R:
    """func on no rows of hands' dtype and width: raises now what every task would raise (a
    wrong dtype, shape, option or thread count), and shows what a task returns."""
    return func(np.empty((0,) + hands.shape[1:], dtype=hands.dtype), threads=threads, **options)


def _kept_call_block(func: Callable[..., R], block: npt.NDArray[Any], start: int, threads: int,
                     options: dict[str, Any]) -> R | _BadRow:
    try:
        return _call_block(func, block, start, threads, options)
    except ValueError as exc:
        return _BadRow(str(exc))


def _call_block(func: Callable[..., R], block: npt.NDArray[Any], start: int, threads: int,
                options: dict[str, Any]) -> R:
    try:
        return func(block, threads=threads, **options)
    except ValueError as exc:   # "row i: ..." of the block -> the row in the whole array
        message = _ROW.sub(lambda m: f"row {start + int(m[1])}", str(exc), count=1)
        raise ValueError(message) from None


def _evaluate_block(blocks: list[npt.NDArray[Any]], rows: tuple[slice], func: Callable[..., npt.NDArray[Any]],
                    threads: int, options: dict[str, Any]) -> npt.NDArray[Any]:
    (block,) = blocks   # one block across: _rows joined the columns
    return _call_block(func, block, rows[0].start, threads, options)


class _BadRow:
    """A chunk's ValueError, kept rather than raised (see map_hands)."""

    def __init__(self, message: str) -> None:
        self.message = message


def _equity_block(block: npt.NDArray[np.int16], calculate: Callable[..., Any],
                  options: dict[str, Any]) -> npt.NDArray[np.float64]:
    return np.array([calculate([CLASSES[i], CLASSES[j]], **options).equity[0] for i, j in block],
                    dtype=np.float64)


def _upper_triangle() -> list[tuple[str, str]]:
    n = len(CLASSES)
    return [(CLASSES[i], CLASSES[j]) for i in range(n) for j in range(i, n)]


def _square(equities: npt.NDArray[np.float64], indices: npt.NDArray[np.int16]) -> npt.NDArray[np.float64]:
    table = np.empty((len(CLASSES), len(CLASSES)))
    table[indices[:, 1], indices[:, 0]] = 1.0 - equities
    table[indices[:, 0], indices[:, 1]] = equities     # last: a class against itself keeps its own
    return table


def ehs_table(street: str, *, boards_per_task: int = 4096, hands_per_task: int = 1 << 20) -> tuple[Any, Any]:
    """The EHS table of `street` (``handrank.ehs.ehs_table``'s values, float64, uncached) as two
    Dask delayed arrays (ehs, ehs2): the river's canonical boards split across tasks of
    `boards_per_task` boards, then the turn's and the flop's hands across tasks of
    `hands_per_task` hands, each reading the next street's whole table (shared by a threaded
    worker; a distributed cluster ships it once per worker: 1 GB for the river)."""
    ehs = importlib.import_module("handrank.ehs")
    iso = importlib.import_module("handrank.iso")

    street = ehs._street(street)
    for name, value in (("boards_per_task", boards_per_task), ("hands_per_task", hands_per_task)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if value < 1:
            raise ValueError(f"{name} must be >= 1, got {value}")
    boards = ehs.river_boards()
    parts = [delayed(ehs.river_entries, pure=True)(boards[start:start + boards_per_task])
             for start in range(0, len(boards), boards_per_task)]
    values = delayed(_river_table, pure=True)(parts, iso.Indexer([2, 5]).size(1))
    squares = delayed(np.square, pure=True)(values)
    for n, name in ((4, "turn"), (3, "flop")):
        if street == "river":
            break
        size = iso.Indexer([2, n]).size(1)
        pieces = [delayed(ehs.average_hands, pure=True, nout=2)(
            values, squares, n, np.arange(start, min(size, start + hands_per_task), dtype=np.uint64))
            for start in range(0, size, hands_per_task)]
        values = delayed(np.concatenate, pure=True)([piece[0] for piece in pieces])
        squares = delayed(np.concatenate, pure=True)([piece[1] for piece in pieces])
        if name == street:
            break
    return values, squares


def _river_table(parts: list[tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64]]],
                 size: int) -> npt.NDArray[np.float64]:
    table = np.zeros(size)
    for indices, values in parts:
        table[indices] = values
    return table

