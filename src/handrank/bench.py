"""Throughput of every evaluator, measured against a bare numpy gather.

A workload is a named callable whose input was made before timing starts, so a round times only
the evaluation. Rounds are interleaved (each round runs every workload once, in the same order) so
that a slow moment of the machine spreads over all workloads instead of landing on one, and the
median round is reported. The reference, ``lut[idx]`` over a uint16 table of 7463 entries, is the
cost of one random memory read per hand: an evaluator can hardly beat it, so its speed relative
to it (1.0 = as fast as the gather) says how close to that floor an evaluator gets, on this
machine, in this run.

Peer evaluators (`handrank.peers`) join the same rounds: each gets a prefix of the same random
hands, converted to its own card format before timing, and as many hands as it evaluates in about
`PEER_SECONDS` (they differ by orders of magnitude in speed; hands/s makes counts comparable). Every
peer row, like handrank's multi-threaded and scalar rows, also has its speed relative to
handrank's one-thread batch on the same kind of hands, measured in the same round. `agreement`
checks, on the same hands, that each peer orders hands as handrank does.
"""
from __future__ import annotations

import gc
import statistics
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np
import numpy.typing as npt

from handrank import _bench_variants, high, high3, low27, lowa5, omaha
from handrank._batch import cpu_count
from handrank.cards import cards as parse_cards
from handrank.cards import hand_str, random_hands
from handrank.peers import GAMES, PeerEvaluator

__all__ = ["Workload", "Result", "Disagreement", "Agreement", "REFERENCE", "DEFAULT_HANDS",
           "DEFAULT_ROUNDS", "DEFAULT_AGREEMENT_HANDS", "PEER_SECONDS", "workloads", "measure",
           "run", "format_table", "agreement", "compare_orderings", "format_agreement", "plot",
           "plot_formats", "sorted_hands"]

Peers = Mapping[str, Mapping[str, PeerEvaluator]]

REFERENCE = "numpy gather lut[idx]"
DEFAULT_HANDS = 4_000_000
DEFAULT_ROUNDS = 5
DEFAULT_SEED = 20240601
# Python calls cost far more per hand than a batch: fewer of them keep a round short.
SCALAR_FRACTION = 20
# Time a peer's workload should take per round; its hand count is calibrated to it.
PEER_SECONDS = 0.1
CALIBRATION_HANDS = 100
DEFAULT_AGREEMENT_HANDS = 5_000
GAME_LABELS = {"high": "high", "low27": "2-7"}
# Hands where evaluators are known to go wrong, added to every 5-card agreement check: the ten
# straights offsuit and suited (the wheel A-2-3-4-5 among them, a straight for high but ace-high
# in 2-7) and their neighbours.
EDGE_HANDS = tuple(
    [" ".join(f"{r}{'cdhsc'[i] if offsuit else 's'}" for i, r in enumerate(ranks))
     for ranks in ("A2345", "23456", "34567", "45678", "56789", "6789T", "789TJ", "89TJQ",
                   "9TJQK", "TJQKA")
     for offsuit in (True, False)]
    + ["Ac 2d 3h 4s 6c", "Kc 2d 3h 4s 5c", "7c 2d 3h 4s 5c", "Ac Kd Qh Js 9c"])


@dataclass(frozen=True)
class Workload:
    """`call()` evaluates `hands` hands; its input is prepared when the workload is built."""

    name: str
    hands: int
    call: Callable[[], object]
    baseline: str | None = None      # the handrank workload it is compared with, same hands
    evaluator: str = "handrank"


@dataclass(frozen=True)
class Result:
    """The timing of one workload: `seconds` is the median over `times` (one per round) and
    `ratio` is its speed relative to the reference's: the reference's time per hand divided by
    its own (1.0 for the reference itself, higher is faster). Both ratios are taken within each
    round, then the median over rounds: `vs_handrank` relative to the workload's handrank
    baseline (None when it has none)."""

    name: str
    hands: int
    seconds: float
    times: tuple[float, ...]
    ratio: float
    vs_handrank: float | None = None
    evaluator: str = "handrank"

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else float("inf")

    @property
    def ns_per_hand(self) -> float:
        return self.seconds * 1e9 / self.hands

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, "hands": self.hands, "seconds": self.seconds,
                "times": list(self.times), "hands_per_second": self.hands_per_second,
                "ns_per_hand": self.ns_per_hand, "ratio": self.ratio,
                "vs_handrank": self.vs_handrank, "evaluator": self.evaluator}


def workloads(n: int = DEFAULT_HANDS, threads: int | None = None, seed: int = DEFAULT_SEED,
              peers: Peers | None = None, peer_seconds: float = PEER_SECONDS) -> list[Workload]:
    """The reference and every evaluator of the package over `n` seeded random hands (the scalar
    workloads over n // 20), then each peer's. Batch workloads use one thread, and the high 5- and
    7-card ones also `threads` threads (default: every core) when that is more than one.

    `peers` maps a peer's name to its evaluators by game (`handrank.peers.available()`). A peer
    evaluates a prefix of the same hands (5 and 7 cards, the 7-card ones also in enumeration
    order, 5 cards for 2-7), as many as it evaluates in about `peer_seconds`."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    threads = cpu_count() if threads is None else threads
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    rng = np.random.default_rng(seed)
    hands = {k: random_hands(n, k, seed=rng) for k in (3, 5, 6, 7)}
    lut = rng.integers(1, 7463, size=7463, dtype=np.uint16)
    index = rng.integers(0, lut.size, size=n, dtype=np.intp)
    scalar_n = max(1, n // SCALAR_FRACTION)
    scalar_hands = {k: [tuple(row) for row in hands[k][:scalar_n].tolist()] for k in (5, 7)}
    enumerated = sorted_hands(hands[7])

    def batch(name: str, evaluate_batch: Callable[..., object], k: int, nthreads: int = 1,
              cards: npt.NDArray[np.uint8] | None = None, order: str = "") -> Workload:
        label = f"{name} {k}-card{order} batch, {nthreads} thread{'s' if nthreads > 1 else ''}"
        rows = hands[k] if cards is None else cards
        baseline = f"{name} {k}-card{order} batch, 1 thread" if name in ("high", "low27") else None
        return Workload(label, n, lambda: evaluate_batch(rows, threads=nthreads), baseline)

    def scalar(k: int) -> Workload:
        evaluate, rows = high.evaluate, scalar_hands[k]
        return Workload(f"high.evaluate scalar, {k}-int tuples", len(rows),
                        lambda: deque(map(evaluate, rows), maxlen=0), f"high {k}-card batch, 1 thread")

    result = [Workload(REFERENCE, n, lambda: lut[index], evaluator="numpy")]
    result.append(batch("high", high.evaluate_batch, 5))
    if threads > 1:
        result.append(batch("high", high.evaluate_batch, 5, threads))
    result.append(batch("high", high.evaluate_batch, 6))
    result.append(batch("high", high.evaluate_batch, 7))
    if threads > 1:
        result.append(batch("high", high.evaluate_batch, 7, threads))
    result.append(batch("high", high.evaluate_batch, 7, cards=enumerated, order=" sorted"))
    result += [batch("high3", high3.evaluate_batch, 3), batch("low27", low27.evaluate_batch, 5),
               batch("lowa5", lowa5.evaluate_batch, 5), batch("lowa5", lowa5.evaluate_batch, 7)]
    # The variants: Omaha rows split into hole and board before timing, like the peers' prepare
    variant_hands = {game: _bench_variants.hands(game, n, rng) for game in _bench_variants.VARIANTS}
    for game, rows in variant_hands.items():
        label = _bench_variants.VARIANTS[game][1]
        if game in ("omaha", "omaha8"):
            hole, board = _bench_variants.split(rows)
            evaluate = omaha_batch[game]
            result.append(Workload(f"{label} batch, 1 thread", n, partial(evaluate, hole, board, threads=1)))
        else:
            evaluate = _bench_variants.evaluator(game)
            result.append(Workload(f"{label} batch, 1 thread", n, partial(evaluate, rows, threads=1)))
    result += [scalar(7), scalar(5)]
    for name, evaluators in (peers or {}).items():
        for game, evaluator in evaluators.items():
            if game in variant_hands:
                label = _bench_variants.VARIANTS[game][1]
                result.append(_peer_workload(f"{name} {label}", name, evaluator, variant_hands[game],
                                             False, f"{label} batch, 1 thread", peer_seconds))
                continue
            for k in GAMES[game]:
                orders = ("", " sorted") if (game, k) == ("high", 7) else ("",)
                for order in orders:
                    label = f"{name} {'' if game == 'high' else GAME_LABELS[game] + ' '}{k}-card{order}"
                    baseline = f"{game} {k}-card{order} batch, 1 thread"
                    result.append(_peer_workload(label, name, evaluator, hands[k], bool(order),
                                                 baseline, peer_seconds))
    return result


omaha_batch = {"omaha": omaha.evaluate_batch, "omaha8": omaha.evaluate_low8_batch}


def _peer_workload(label: str, peer: str, evaluator: PeerEvaluator, hands: npt.NDArray[np.uint8],
                   enumeration_order: bool, baseline: str, seconds: float) -> Workload:
    def rows(m: int) -> npt.NDArray[np.uint8]:
        return sorted_hands(hands[:m]) if enumeration_order else hands[:m]

    sample = min(len(hands), CALIBRATION_HANDS)
    prepared = evaluator.prepare(rows(sample))
    per_hand = _time(lambda: evaluator.evaluate(prepared)) / sample
    m = max(1, min(len(hands), int(seconds / per_hand) if per_hand > 0 else len(hands)))
    prepared = evaluator.prepare(rows(m))
    return Workload(label, m, lambda: evaluator.evaluate(prepared), baseline, peer)


def sorted_hands(hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The same hands as an exhaustive enumeration visits them: cards ascending in each hand,
    hands in lexicographic order (consecutive hands share their first cards)."""
    rows = np.sort(hands, axis=1)
    return np.ascontiguousarray(rows[np.lexsort(rows.T[::-1])])


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
    for w in loads:
        if w.baseline is not None and w.baseline not in names:
            raise ValueError(f"the baseline {w.baseline!r} of {w.name!r} is not among {names}")
    if warmup:
        for w in loads:
            w.call()
    times: list[list[float]] = [[] for _ in loads]
    for _ in range(rounds):
        for w, spent in zip(loads, times):
            spent.append(_time(w.call))

    def per_hand(i: int) -> list[float]:
        return [t / loads[i].hands for t in times[i]]

    def ratio_to(i: int, j: int) -> float:
        return statistics.median(_ratio(own, other) for own, other in zip(per_hand(i), per_hand(j)))

    ref = names.index(reference)
    return [Result(w.name, w.hands, statistics.median(t), tuple(t), ratio_to(i, ref),
                   None if w.baseline is None else ratio_to(i, names.index(w.baseline)), w.evaluator)
            for i, (w, t) in enumerate(zip(loads, times))]


def run(n: int = DEFAULT_HANDS, rounds: int = DEFAULT_ROUNDS, threads: int | None = None,
        seed: int = DEFAULT_SEED, peers: Peers | None = None) -> list[Result]:
    """The standard benchmark: `measure(workloads(n, threads, seed, peers), rounds)`."""
    return measure(workloads(n, threads, seed, peers), rounds)


def format_table(results: Sequence[Result]) -> str:
    """An aligned text table: workload, M hands/s, ns/hand, speed relative to handrank's baseline
    and to the reference."""
    header = ("workload", "M hands/s", "ns/hand", "vs handrank", "vs gather")
    rows = [(r.name, f"{r.hands_per_second / 1e6:,.{2 if r.hands_per_second >= 1e4 else 4}f}",
             f"{r.ns_per_hand:,.2f}", "" if r.vs_handrank is None else _ratio_text(r.vs_handrank),
             _ratio_text(r.ratio))
            for r in results]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join([row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])])
             for row in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


# ----------------------------------------------------------------------------- agreement
@dataclass(frozen=True)
class Disagreement:
    """Two hands that handrank and a peer order differently: handrank ranks `lower` below
    `higher` (or level with it when `tie`), the peer does not (values are higher-is-better)."""

    lower: str
    higher: str
    ours: tuple[int, int]
    theirs: tuple[int, int]
    tie: bool

    def __str__(self) -> str:
        ours, theirs = ("=", "!=") if self.tie else ("<", ">=")
        return (f"[{self.lower}] vs [{self.higher}]: handrank {self.ours[0]} {ours} {self.ours[1]}, "
                f"peer {self.theirs[0]} {theirs} {self.theirs[1]}")

    def as_dict(self) -> dict[str, object]:
        return {"lower": self.lower, "higher": self.higher, "ours": list(self.ours),
                "theirs": list(self.theirs), "tie": self.tie}


@dataclass(frozen=True)
class Agreement:
    """The agreement check of one peer on one game and hand size over `hands` hands."""

    peer: str
    game: str
    k: int
    hands: int
    disagreements: tuple[Disagreement, ...] = field(default=())

    @property
    def agrees(self) -> bool:
        return not self.disagreements

    @property
    def label(self) -> str:
        if self.game in _bench_variants.VARIANTS:
            return _bench_variants.VARIANTS[self.game][1]
        return f"{GAME_LABELS[self.game]} {self.k}-card"

    def as_dict(self) -> dict[str, object]:
        return {"peer": self.peer, "game": self.game, "k": self.k, "hands": self.hands,
                "agrees": self.agrees, "disagreements": [d.as_dict() for d in self.disagreements]}


def compare_orderings(hands: npt.NDArray[np.uint8], ours: npt.ArrayLike,
                      theirs: npt.ArrayLike) -> list[Disagreement]:
    """Where two evaluations of `hands` (both higher-is-better) order them differently.

    Sorted by our value then theirs, the two agree exactly when our ties are their ties and each
    of our values' hands all come below the next value's in theirs too; every adjacent pair that
    breaks this is reported (one pair per broken boundary, so a misplaced hand shows up once or
    twice, not once per hand it is misordered with)."""
    ours = np.asarray(ours, dtype=np.int64)
    theirs = np.asarray(theirs, dtype=np.int64)
    if ours.shape != theirs.shape or ours.shape != (len(hands),):
        raise ValueError(f"one value per hand expected: {len(hands)} hands, {ours.shape} and "
                         f"{theirs.shape} values")
    order = np.lexsort((theirs, ours))
    o, t = ours[order], theirs[order]
    tie = o[1:] == o[:-1]
    broken = np.flatnonzero(np.where(tie, t[1:] != t[:-1], t[1:] <= t[:-1]))
    return [Disagreement(hand_str(hands[order[i]].tolist()), hand_str(hands[order[i + 1]].tolist()),
                         (int(o[i]), int(o[i + 1])), (int(t[i]), int(t[i + 1])), bool(tie[i]))
            for i in broken]


def agreement(peers: Peers, n: int = DEFAULT_AGREEMENT_HANDS, seed: int = DEFAULT_SEED) -> list[Agreement]:
    """Each peer's evaluation of `n` seeded random hands of each size it plays (plus `EDGE_HANDS`
    for 5 cards) against handrank's, orderings compared."""
    evaluate_batch: dict[str, Callable[..., npt.NDArray[np.uint16]]] = {
        "high": high.evaluate_batch, "low27": low27.evaluate_batch}
    rng = np.random.default_rng(seed)
    checks = {(game, k): random_hands(n, k, seed=rng) for game, sizes in GAMES.items() for k in sizes
              if game not in _bench_variants.VARIANTS}
    for game, (k, _) in _bench_variants.VARIANTS.items():
        checks[game, k] = _bench_variants.hands(game, n, rng)
        evaluate_batch[game] = _bench_variants.evaluator(game)
    edges = np.array([parse_cards(text) for text in EDGE_HANDS], dtype=np.uint8)
    result = []
    for name, evaluators in peers.items():
        for game, evaluator in evaluators.items():
            for k in GAMES[game]:
                hands = checks[game, k]
                if k == 5:
                    hands = np.concatenate([hands, edges])
                theirs = evaluator.oriented(evaluator.evaluate(evaluator.prepare(hands)))
                found = compare_orderings(hands, evaluate_batch[game](hands, threads=1), theirs)
                result.append(Agreement(name, game, k, len(hands), tuple(found)))
    return result


def format_agreement(checks: Sequence[Agreement], versions: Mapping[str, str] | None = None,
                     examples: int = 5) -> str:
    """One line per check, then up to `examples` disagreeing pairs under each check that has any."""
    versions = versions or {}
    names = [f"{c.peer} {versions.get(c.peer, '')}".strip() for c in checks]
    width = max(map(len, names), default=0)
    label_width = max([11, *(len(c.label) for c in checks)])
    lines = []
    for name, check in zip(names, checks):
        verdict = ("agrees" if check.agrees else
                   f"DISAGREES: {len(check.disagreements)} pair{'s' if len(check.disagreements) > 1 else ''}")
        lines.append(f"{name:<{width}}  {check.label:<{label_width}}  {check.hands:>7,} hands  {verdict}")
        lines += [f"    {d}" for d in check.disagreements[:examples]]
        if len(check.disagreements) > examples:
            lines.append(f"    ... and {len(check.disagreements) - examples} more")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- chart
_NEEDS_MATPLOTLIB = "--plot needs matplotlib: pip install 'handrank[plot]'"


def plot(results: Sequence[Result], path: str | Path, title: str = "handrank bench") -> None:
    """A horizontal bar chart of hands/s (log scale) per workload, peers in their own colour,
    written to `path` (format from its suffix, one of `plot_formats()`). Needs matplotlib
    (`pip install 'handrank[plot]'`)."""
    try:
        # (an optional extra: typed when installed, absent from a plain test environment)
        import matplotlib  # type: ignore[import-not-found, unused-ignore]
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ImportError(_NEEDS_MATPLOTLIB) from None
    colours = {"handrank": "tab:blue", "numpy": "tab:gray"}
    figure, axes = plt.subplots(figsize=(9, 0.3 * len(results) + 1.2))
    names = [r.name for r in results][::-1]
    speeds = [r.hands_per_second for r in results][::-1]
    axes.barh(names, speeds, color=[colours.get(r.evaluator, "tab:orange") for r in results][::-1])
    axes.set_xscale("log")
    axes.set_xlabel("hands per second (log scale; higher is faster)")
    axes.set_title(title)
    axes.tick_params(axis="y", labelsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def plot_formats() -> list[str]:
    """The file extensions `plot` can write ("pdf", "png", "svg", ...), so that a path can be
    checked before the measuring. Needs matplotlib."""
    try:
        from matplotlib.figure import Figure  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ImportError(_NEEDS_MATPLOTLIB) from None
    return sorted(Figure().canvas.get_supported_filetypes())


# ----------------------------------------------------------------------------- helpers
def _ratio_text(ratio: float) -> str:
    return f"{ratio:,.2f}" if ratio >= 0.01 else f"{ratio:.1e}"


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
