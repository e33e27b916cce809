"""Throughput of every evaluator, measured against a bare numpy gather.

A workload is a named callable whose input was made before timing starts, so a round times only
the evaluation. Rounds are interleaved (each round runs every workload once, in the same order) so
that a slow moment of the machine spreads over all workloads instead of landing on one, and the
median round is reported. The reference, ``lut[idx]`` over a uint16 table of 7463 entries, is the
cost of one random memory read per hand: an evaluator can hardly beat it, so its speed relative
to it (1.0 = as fast as the gather) says how close to that floor an evaluator gets, on this
machine, in this run.

Peer libraries join by appending their own Workload to the list that `workloads` returns.
"""
from __future__ import annotations

import gc
import statistics
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from handrank import high, high3, low27, lowa5
from handrank._batch import cpu_count
from handrank.cards import random_hands

__all__ = ["Workload", "Result", "REFERENCE", "DEFAULT_HANDS", "DEFAULT_ROUNDS", "workloads",
           "measure", "run", "format_table"]

REFERENCE = "numpy gather lut[idx]"
DEFAULT_HANDS = 4_000_000
DEFAULT_ROUNDS = 5
DEFAULT_SEED = 20240601
# Python calls cost far more per hand than a batch: fewer of them keep a round short.
SCALAR_FRACTION = 20


@dataclass(frozen=True)
class Workload:
    """`call()` evaluates `hands` hands; its input is prepared when the workload is built."""

    name: str
    hands: int
    call: Callable[[], object]


@dataclass(frozen=True)
class Result:
    """The timing of one workload: `seconds` is the median over `times` (one per round) and
    `ratio` is its speed relative to the reference's: the reference's time per hand divided by
    its own (1.0 for the reference itself, higher is faster)."""

    name: str
    hands: int
    seconds: float
    times: tuple[float, ...]
    ratio: float

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else float("inf")

    @property
    def ns_per_hand(self) -> float:
        return self.seconds * 1e9 / self.hands

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, "hands": self.hands, "seconds": self.seconds,
                "times": list(self.times), "hands_per_second": self.hands_per_second,
                "ns_per_hand": self.ns_per_hand, "ratio": self.ratio}


def workloads(n: int = DEFAULT_HANDS, threads: int | None = None,
              seed: int = DEFAULT_SEED) -> list[Workload]:
    """The reference and every evaluator of the package over `n` seeded random hands (the scalar
    workload over n // 20). Batch workloads use one thread, and the high 5- and 7-card ones also
    `threads` threads (default: every core) when that is more than one."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    threads = cpu_count() if threads is None else threads
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    rng = np.random.default_rng(seed)
    hands = {k: random_hands(n, k, seed=rng) for k in (3, 5, 6, 7)}
    lut = rng.integers(1, 7463, size=7463, dtype=np.uint16)
    index = rng.integers(0, lut.size, size=n, dtype=np.intp)
    scalar_hands = [tuple(row) for row in hands[7][:max(1, n // SCALAR_FRACTION)].tolist()]

    def batch(name: str, evaluate_batch: Callable[..., object], k: int, nthreads: int = 1) -> Workload:
        label = f"{name} {k}-card batch, {nthreads} thread{'s' if nthreads > 1 else ''}"
        cards = hands[k]
        return Workload(label, n, lambda: evaluate_batch(cards, threads=nthreads))

    result = [Workload(REFERENCE, n, lambda: lut[index])]
    result.append(batch("high", high.evaluate_batch, 5))
    if threads > 1:
        result.append(batch("high", high.evaluate_batch, 5, threads))
    result.append(batch("high", high.evaluate_batch, 6))
    result.append(batch("high", high.evaluate_batch, 7))
    if threads > 1:
        result.append(batch("high", high.evaluate_batch, 7, threads))
    result += [batch("high3", high3.evaluate_batch, 3), batch("low27", low27.evaluate_batch, 5),
               batch("lowa5", lowa5.evaluate_batch, 5), batch("lowa5", lowa5.evaluate_batch, 7)]
    evaluate = high.evaluate
    result.append(Workload("high.evaluate scalar, 7-int tuples", len(scalar_hands),
                           lambda: deque(map(evaluate, scalar_hands), maxlen=0)))
    return result


def measure(loads: Sequence[Workload], rounds: int = DEFAULT_ROUNDS, reference: str = REFERENCE,
            warmup: bool = True) -> list[Result]:
    """Time every workload in `rounds` interleaved rounds; one Result per workload, in order.

    A warm-up call of each comes first (thread pool, caches, page faults of fresh outputs) unless
    `warmup` is False. The garbage collector is paused around each timed call, as timeit does."""
    if rounds < 1:
        raise ValueError(f"rounds must be >= 1, got {rounds}")
    names = [w.name for w in loads]
    if reference not in names:
        raise ValueError(f"the reference workload {reference!r} is not among {names}")
    if warmup:
        for w in loads:
            w.call()
    times: list[list[float]] = [[] for _ in loads]
    for _ in range(rounds):
        for w, spent in zip(loads, times):
            spent.append(_time(w.call))
    medians = [statistics.median(t) for t in times]
    ref = names.index(reference)
    ref_per_hand = medians[ref] / loads[ref].hands
    return [Result(w.name, w.hands, m, tuple(t), _ratio(m / w.hands, ref_per_hand))
            for w, m, t in zip(loads, medians, times)]


def run(n: int = DEFAULT_HANDS, rounds: int = DEFAULT_ROUNDS, threads: int | None = None,
        seed: int = DEFAULT_SEED) -> list[Result]:
    """The standard benchmark: `measure(workloads(n, threads, seed), rounds)`."""
    return measure(workloads(n, threads, seed), rounds)


def format_table(results: Sequence[Result]) -> str:
    """An aligned text table: workload, M hands/s, ns/hand, speed relative to the reference."""
    header = ("workload", "M hands/s", "ns/hand", "vs gather")
    rows = [(r.name, f"{r.hands_per_second / 1e6:,.2f}", f"{r.ns_per_hand:,.2f}", f"{r.ratio:,.2f}")
            for r in results]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join([row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])])
             for row in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


# ----------------------------------------------------------------------------- helpers
def _ratio(per_hand: float, reference_per_hand: float) -> float:
    return reference_per_hand / per_hand if per_hand > 0 else float("inf")


def _time(call: Callable[[], object]) -> float:
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        call()
        return time.perf_counter() - start
    finally:
        if gc_was_enabled:
            gc.enable()
