"""The Python layer of every batch evaluator: check the input with the GIL held, then run the
compiled loop over row ranges, one per thread, without it.

Rules every batch function follows: any integer array of shape (N, k) is accepted (uint8 is used
as it is, other integer types are range-checked and converted once); a bad row raises ValueError
naming the row and the card; on any error the caller's ``out`` array is left as it was. A
KeyboardInterrupt may leave ``out`` part written, but is raised only once no thread writes it
(see `share`).
"""
from __future__ import annotations

import _thread
import os
import queue
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from handrank import _chunks
from handrank.cards import cards as parse_hand, hand_problem, hand_str

if TYPE_CHECKING:
    import numpy.typing as npt

    Cards = npt.NDArray[np.uint8]
    Values = npt.NDArray[Any]          # uint16 values, or int32 Big Two keys
    Kernel = Callable[..., int]     # kernel(cards, *outputs) -> first bad row or -1

# Below this many rows one thread is faster than handing work to others.
MIN_ROWS_PER_THREAD = 1 << 15
# Chunks of rows per thread in a threaded run (see `run`).
CHUNKS_PER_THREAD = 8

# The largest copy of `out` a thread keeps between calls (see `_saved_like`).
SAVED_KEPT_BYTES = 64 << 20

_pool: _Pool | None = None
_pool_lock = threading.Lock()
_kept = threading.local()


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


def card_array(hands: npt.ArrayLike, sizes: Sequence[int], what: str) -> Cards:
    """`hands` as a C-contiguous (N, k) uint8 array with k in `sizes`, every id checked to be in
    0..51 (repeated cards are found later, by the compiled loop). An array is judged by its dtype;
    a list by its items, like the hand of a scalar call."""
    if isinstance(hands, np.ndarray):
        arr = hands
    elif isinstance(hands, (list, tuple)) and hands and _is_text_row(hands[0]):
        arr = _parse_rows(hands)
    else:
        try:
            arr = np.asarray(hands)
        except ValueError as exc:       # ragged rows
            raise ValueError(f"{what}: cards must be an (N, k) integer array ({exc})") from None
        if arr.size == 0 and arr.dtype.kind == "f":     # [] or [[]]: no hands, not floats
            arr = arr.astype(np.uint8)
    source = arr        # what a message quotes
    if arr.dtype.kind in "fO" and not isinstance(hands, np.ndarray):
        # numpy makes objects of ints past 64 bits, floats of them next to negative ints
        objects = arr if arr.dtype == object else np.array(hands, dtype=object)
        if all(isinstance(c, (int, np.integer)) and not isinstance(c, bool) for c in objects.flat):
            # ids outside 0..51 as -1: the range check finds the row, its message quotes `objects`
            source = objects
            arr = np.array([c if 0 <= c <= 51 else -1 for c in objects.flat],
                           dtype=np.int64).reshape(objects.shape)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{what}: cards must be an integer array, got dtype {arr.dtype}")
    sizes_text = " or ".join(str(k) for k in sizes)
    if arr.ndim != 2 or arr.shape[1] not in sizes:
        raise ValueError(f"{what}: cards must have shape (N, {sizes_text}), got {arr.shape}")
    if arr.dtype != np.uint8:
        out_of_range = (arr < 0) | (arr > 51)
        if out_of_range.any():
            row = int(np.flatnonzero(out_of_range.any(axis=1))[0])
            # the first bad row may be an earlier one that repeats a card
            earlier = np.sort(arr[:row], axis=1)
            repeats = np.flatnonzero((earlier[:, 1:] == earlier[:, :-1]).any(axis=1))
            row = int(repeats[0]) if repeats.size else row
            raise row_error(source, row)
        arr = arr.astype(np.uint8)
    return np.ascontiguousarray(arr)


def row_error(rows: npt.NDArray[Any], row: int) -> ValueError:
    """The error for a row a check found bad, read again to say what is wrong with it. A row that
    reads as valid now was written (by another thread) while the call ran."""
    ids = rows[row].tolist()
    problem = hand_problem(ids)
    if problem is None:
        problem = (f"the cards changed during the call (the row was bad when checked and now "
                   f"reads {hand_str(ids)}); do not write to the input while a batch call runs")
    return ValueError(f"row {row}: {problem}")


def _is_text_row(row: object) -> bool:
    """Whether a row is read as a scalar call reads a hand: text (``"As Ks"``) or a list holding
    card strings (``["As", "Ks"]``, ``("Qh", 41)``)."""
    return isinstance(row, str) or (isinstance(row, (list, tuple)) and any(isinstance(c, str) for c in row))


def _parse_rows(rows: Sequence[str | Sequence[str | int]]) -> Cards:
    parsed = []
    for i, row in enumerate(rows):
        try:
            parsed.append(parse_hand(row))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"row {i}: {exc}") from None
    for i, ids in enumerate(parsed):
        if len(ids) != len(parsed[0]):
            raise ValueError(f"row {i}: {len(ids)} cards where row 0 has {len(parsed[0])}; every "
                             "hand must have as many")
    return np.array(parsed, dtype=np.uint8)


def out_array(out: Values | None, n: int, what: str, dtype: type = np.uint16) -> Values:
    if out is None:
        return np.empty(n, dtype=dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{what}: out must be a numpy array, not {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"{what}: out must have dtype {np.dtype(dtype)}, got {out.dtype}")
    if out.shape != (n,):
        raise ValueError(f"{what}: out must have shape ({n},), got {out.shape}")
    if not out.flags.c_contiguous:
        raise ValueError(f"{what}: out must be C-contiguous")
    if not out.flags.writeable:
        raise ValueError(f"{what}: out is read-only")
    return out


def thread_count(threads: int | None, n: int) -> int:
    if threads is None:
        return max(1, min(cpu_count(), n // MIN_ROWS_PER_THREAD))
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
    threads = int(threads)
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    # more threads than cores would only queue on the pool
    return max(1, min(threads, n, cpu_count()))


def run(kernel: Kernel, arr: Cards, out: Values | tuple[Values, ...], threads: int,
        saved: Values | None = None, kernel_saves: bool = False) -> int:
    """Run kernel(rows, *out_rows) over the rows on `threads` threads at once; the first bad row
    or -1.

    `out` is one output array or a tuple of them, each with one entry (or row) per input row. The
    rows go out in CHUNKS_PER_THREAD chunks per thread, each to whichever thread is free: a thread
    slowed by a busy core then does less of the work instead of holding up the others.

    With `saved` (one output array only), `out` is copied there as it is written, so that the
    caller can put it back after a bad row: by the kernel itself when it `kernel_saves`
    (kernel(rows, out_rows, saved_rows)), else chunk by chunk just before the kernel writes the
    chunk, so that the threads share the copy instead of waiting for it."""
    n: int = arr.shape[0]
    outs = out if isinstance(out, tuple) else (out,)

    def chunk(a: int, b: int) -> int:
        rows = arr[a:b]
        if saved is None:
            return kernel(rows, *[o[a:b] for o in outs])
        if kernel_saves:
            return kernel(rows, outs[0][a:b], saved[a:b])
        saved[a:b] = outs[0][a:b]
        return kernel(rows, outs[0][a:b])

    if threads <= 1:
        return chunk(0, n)
    chunks = threads * CHUNKS_PER_THREAD
    bounds = [n * i // chunks for i in range(chunks + 1)]
    bad_rows: list[int] = []

    def work(i: int) -> None:
        a, b = bounds[i], bounds[i + 1]
        if a < b:
            bad = chunk(a, b)
            if bad >= 0:
                bad_rows.append(a + bad)

    share(work, chunks, threads)
    return min(bad_rows, default=-1)


def share(work: Callable[[int], object], count: int, threads: int) -> None:
    """work(i) for i in 0..count-1 on `threads` threads at once, this one and the pool's, each
    taking the next i when it finishes one.

    Returns or raises only once no other thread runs work(i) for this call, so that nothing
    writes into its arrays afterwards: an exception in this thread (Ctrl-C included, wherever it
    lands) stops the other threads taking more, waits for the work(i) they run, then goes on; an
    exception in another thread stops the call and is raised here. This thread never waits for
    another one to come, only for work others have started: a call made inside work(i), threaded or
    not, cannot wait on the thread that runs it."""
    chunks = _chunks.Chunks(count)
    try:
        if min(threads, count) > 1:
            _get_pool().lend(chunks, work, min(threads, count) - 1)
        i = chunks.take()
        while i >= 0:
            work(i)
            i = chunks.take()
    finally:
        chunks.finish()
    if chunks.error is not None:
        raise chunks.error


def evaluate(kernel: Kernel, hands: npt.ArrayLike, sizes: Sequence[int], out: Values | None,
             threads: int | None, what: str, dtype: type = np.uint16,
             checks_first: bool = False, kernel_saves: bool = False) -> Values:
    """The batch call: check the input, run the kernel, raise for the first bad row; a given `out`
    is then unchanged. A kernel that `checks_first` (every row before it writes any) keeps `out`
    unchanged by itself when it runs in one piece; otherwise `out` is saved as it is written (by
    the kernel, when it `kernel_saves`; see `run`). An `out` that shares memory with the cards
    would overwrite cards not yet read: the values then go to a new array, copied into `out`
    once every row has passed."""
    arr = card_array(hands, sizes, what)
    n: int = arr.shape[0]
    result = out_array(out, n, what, dtype)
    nthreads = thread_count(threads, n)
    # both arrays are contiguous, so overlapping extents are shared memory
    target = np.empty_like(result) if np.may_share_memory(arr, result) else result
    saved = None
    if target is out and not (checks_first and nthreads == 1):
        saved = _saved_like(result)
    try:
        bad = run(kernel, arr, target, nthreads, saved, kernel_saves)
        if bad >= 0:
            if saved is not None:
                result[:] = saved
            raise row_error(arr, bad)
    finally:
        if saved is not None and saved.nbytes <= SAVED_KEPT_BYTES:
            _kept.buffer = saved.base
    if target is not result:
        result[:] = target
    return result


def _saved_like(result: Values) -> Values:
    """An array to save `result` in while a call writes it: the calling thread's buffer from its
    last call when that is large enough (taken while in use, so a nested call gets its own). A
    new array would page-fault in every thread that writes it, and two threads' faults queue on
    one lock: on 4M 5-card hands with out=, threads=2 gained 1.16x over one thread with a new
    array each call against 1.85x with a kept one. Buffers over SAVED_KEPT_BYTES are not kept."""
    nbytes = result.nbytes
    buffer = getattr(_kept, "buffer", None)
    _kept.buffer = None
    if buffer is None or buffer.nbytes < nbytes:
        buffer = np.empty(nbytes, dtype=np.uint8)
    return buffer[:nbytes].view(result.dtype)


def _forget_pool() -> None:
    """In a forked child: the parent's pool threads do not exist there, so work handed to its
    pool would never be taken; the child starts its own on first use. The lock may have been
    held by another thread at the fork, so it is replaced too."""
    global _pool, _pool_lock
    _pool = None
    _pool_lock = threading.Lock()


if hasattr(os, "register_at_fork"):     # pragma: no branch - not on Windows
    os.register_at_fork(after_in_child=_forget_pool)


def _get_pool() -> _Pool:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = _Pool(max(1, cpu_count() - 1))
        return _pool


class _Pool:
    """The threads that help threaded calls (`share`): each waits for a call's chunks, runs
    chunks of it until none is left, and waits again.

    Not a concurrent.futures executor: waiting on a future takes its condition's lock in Python
    code, where a KeyboardInterrupt can land and leave the lock held; `share` waits on its Chunks
    instead. The threads start on first need, up to `size`, from `_thread`: one C call, which
    starts a thread or not, where Thread.start waits in Python for the thread to run. They are
    daemon threads, so one that waits never holds up the exit, and none runs a chunk once the
    call that lent it has returned."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._started = 0
        self._calls: queue.SimpleQueue[tuple[_chunks.Chunks, Callable[[int], object]]] = queue.SimpleQueue()

    def lend(self, chunks: _chunks.Chunks, work: Callable[[int], object], helpers: int) -> None:
        """Up to `helpers` threads to take chunks of a call along with its caller (they come
        when free)."""
        helpers = min(helpers, self.size)
        while self._started < helpers:
            self._started += 1
            _thread.start_new_thread(self._serve, ())
        for _ in range(helpers):
            self._calls.put((chunks, work))

    def _serve(self) -> None:
        while True:
            chunks, work = self._calls.get()
            chunks.help(work)
            del chunks, work        # the call's arrays are not kept while this thread waits
