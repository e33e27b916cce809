"""The placement solver: `best_placement` ranks every legal placement of a street's cards by the
expected score of the finished hand, and `complete` finishes a partial board from the cards to
come ("best": the best board those cards allow; "greedy": a street-by-street policy).

Each placement is scored on the same deals of the unseen cards (common random numbers), so the
differences between placements carry little noise; the deals are all of them (exact) when the
cards still to come are few, a Monte Carlo sample otherwise. On a large set of placements a race
spends the samples on the placements that can still win (see `best_placement`).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb, prod
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from handrank import _batch
from handrank._threerow.board import Board, Cards
from handrank.cards import cards as parse_cards, hand_problem, hand_str
from handrank.ofc import _placement
from handrank.ofc.board import _JACK_HIGH
from handrank.ofc.game import legal_placements, streets_to_come
from handrank.ofc.partial import PartialBoard
from handrank.ofc.placement import Placement
from handrank.ofc.rules import Rules, as_rules, tables
from handrank.ofc.seed import check_seed

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["best_placement", "complete", "Advice", "PlacementValue", "as_partial", "foul_value",
           "COMPLETIONS", "EXACT_DEALS", "EXACT_LIMIT", "MEMORY_LIMIT"]

COMPLETIONS = ("best", "greedy")
#: on this player's last street, the most deals of the unseen cards (the opponents' cards to come)
#: enumerated exactly, however few the samples asked for
EXACT_DEALS = 10_000
#: the most deals ever enumerated exactly, however many samples are asked for: above it the deals
#: are sampled (enumerating them would hold every deal in memory at once)
EXACT_LIMIT = 200_000
#: the most bytes one call may hold for its deals: each deal's cards (the unseen cards while
#: they are shuffled), the opponents' finished boards and a score and a foul flag per placement;
#: a `samples` beyond what this allows for the spot is refused, naming the limit
MEMORY_LIMIT = 400_000_000
#: racing starts with this many deals per placement when there are more than RACE_PLACEMENTS
RACE_FIRST = 64
RACE_PLACEMENTS = 30
#: a placement leaves the race when its mean difference from the leader, plus RACE_Z standard
#: errors, is below 0
RACE_Z = 3.0
#: while more than one placement is left, the race goes on past `samples`, up to RACE_MORE times it
RACE_MORE = 5

PartialLike = Union[PartialBoard, Board, str, Sequence[Cards]]


@dataclass(frozen=True)
class PlacementValue:
    """One placement's expected score: mean and standard error over the deals it was scored on
    (0 when exact), the share of those deals on which the board fouled, and their number."""

    placement: Placement
    mean: float
    stderr: float
    foul_rate: float
    samples: int


@dataclass(frozen=True)
class Advice:
    """Every legal placement, best first (`ranked`); `exact` when every deal of the unseen cards
    was scored (then `deals` is their number), else `deals` is the samples each placement still
    in the race at the end was scored on."""

    ranked: tuple[PlacementValue, ...]
    exact: bool
    deals: int

    @property
    def best(self) -> Placement:
        return self.ranked[0].placement


def as_partial(board: PartialLike) -> PartialBoard:
    """A PartialBoard from itself, a finished Board, its text (``"As / Kd 9h 9d / 2c 3c 4c"``,
    ``-`` or nothing for an empty row, ``|`` separating rows too) or (top, middle, bottom)."""
    if isinstance(board, PartialBoard):
        return board
    if isinstance(board, str):
        if board.strip() in ("", "-"):
            return PartialBoard()           # before the first street, as the CLI's BOARD takes it
        texts = board.replace("|", "/").split("/")
        if len(texts) != 3:
            raise ValueError(f"a board is three rows separated by '/', got {board!r}")
        return PartialBoard(*("" if text.strip() == "-" else text for text in texts))
    if isinstance(board, Board):
        return PartialBoard(board.top, board.middle, board.bottom)
    try:
        rows = tuple(board)
    except TypeError:
        raise TypeError(f"a board is an ofc.PartialBoard, text or (top, middle, bottom), "
                        f"not {type(board).__name__}") from None
    if len(rows) != 3:
        raise ValueError(f"a board is (top, middle, bottom), got {len(rows)} rows")
    return PartialBoard(*rows)


def foul_value(rules: Rules | str | None = None) -> float:
    """What a fouled board scores when a board is valued on its own: minus what it pays an
    opponent without royalties (3 + the scoop bonus in 1-6, 4 in 2-4)."""
    rules = as_rules(rules)
    return -4.0 if rules.scoring == "2-4" else -(3.0 + rules.scoop_bonus)


# ----------------------------------------------------------------------------- completion
def complete(board: PartialLike, cards: Cards, rules: Rules | str | None = None,
             completion: str = "best") -> Board:
    """The finished board `completion` makes of `board` with `cards`, the cards still to come in
    deal order (the streets one after another: ``streets_to_come``).

    - ``"best"``: the best finished board those cards allow (royalties, plus the rules'
      ``fantasyland_value`` when it earns Fantasyland; ties to the stronger bottom, middle, top),
      keeping the deal's structure: in pineapple exactly one card of each 3-card street is
      discarded, in classic every card is placed. It sees every card to come, so what it scores
      is an upper bound on what street-by-street play can make. When every completion fouls, a
      fouled board is returned.
    - ``"greedy"``: street by street, seeing one street at a time, each street's cards go where a
      fixed heuristic scores the board best (the top's pair or trips as royalties, full rows'
      royalties, a penalty for a row that already beats the row below, small rewards for made
      hands low on the board and for suited middle and bottom rows). A fast baseline policy."""
    rules = as_rules(rules)
    mode = _mode(completion)
    partial = as_partial(board)
    ids = parse_cards(cards)
    plan = streets_to_come(partial, rules)
    needed = sum(dealt for dealt, _ in plan)
    if len(ids) != needed:
        raise ValueError(f"the board {partial} is dealt {needed} more cards, got {len(ids)}")
    problem = hand_problem(list(partial.cards) + ids)
    if problem:
        raise ValueError(f"the cards to come {hand_str(ids)} with the board {partial}: {problem}")
    arr, held = _board_arrays([partial.rows])
    sizes, discards = _deal_arrays(plan)
    out = np.empty((1, 13), dtype=np.uint8)
    _placement.complete_boards(tables(rules), mode, rules.fantasyland_value, foul_value(rules),
                               sizes, discards, arr, held, np.array([ids], dtype=np.uint8), out)
    return Board(out[0, :3].tolist(), out[0, 3:8].tolist(), out[0, 8:].tolist())


# ----------------------------------------------------------------------------- the solver
def best_placement(board: PartialLike, dealt: Cards, *, seen: Cards = (),
                   opponents: Iterable[PartialLike] = (), rules: Rules | str | None = None,
                   samples: int = 1000, seed: int | np.random.Generator | None = None,
                   threads: int | None = None, completion: str = "best",
                   race: bool = True) -> Advice:
    """Every legal placement of the cards `dealt` on `board`, ranked by the expected score of
    the finished hand.

    The unseen cards are the deck minus every card seen: this board, `dealt`, the `opponents'`
    boards and `seen` (this player's earlier discards, cards shown elsewhere). Each deal gives
    this player and every opponent their cards to come from the unseen cards; each board is
    finished by `completion` (see `complete`: ``"best"`` is an upper bound, since it sees the
    future) and scored: alone, royalties plus the rules' ``fantasyland_value`` on entry, or
    `foul_value` when it fouls; with `opponents`, the points against each opponent's board
    finished the same way from the same deal (1-6 or 2-4 and the other scoring options, as
    `ofc.score`), summed.

    Every placement is scored on the same deals (common random numbers). When the deals of the
    unseen cards number at most `samples` (scoring them all costs no more than sampling), or at
    most EXACT_DEALS on this player's last street (only the opponents' boards are left to
    finish, once per deal), all of them are scored, once each, every placement on every deal
    (``exact``; standard errors 0), unless they number more than EXACT_LIMIT; otherwise
    `samples` random deals from `seed`. A `samples` whose deals would take more than
    MEMORY_LIMIT bytes is refused (ValueError naming the limit and the most samples allowed).

    With `race` and more than RACE_PLACEMENTS placements (the first street), placements race:
    all are scored on RACE_FIRST deals, then those still in the race on twice as many, and so on
    up to `samples`; after each round a placement whose mean difference from the leader's (paired
    over the same deals) is below 0 by more than RACE_Z standard errors is dropped. While more
    than one placement is left, the race goes on past `samples`, doubling, up to RACE_MORE times
    `samples` (close placements get the deals that tell them apart; `deals` says how many the
    last ones had). A dropped placement's mean is its mean difference from the leader over the
    deals it had plus the leader's mean over all of its deals: on one scale with the rest, where
    a mean over its few deals alone would carry their luck. The GIL is released; `threads`
    (default: every core) split the deals."""
    rules = as_rules(rules)
    mode = _mode(completion)
    own = as_partial(board)
    if isinstance(opponents, (str, PartialBoard)):
        raise TypeError("opponents is a sequence of boards (one per opponent), not one board")
    others = [as_partial(b) for b in opponents]
    if len(others) > 3:
        raise ValueError(f"OFC has at most 4 players: got {len(others)} opponents")
    if others and rules.naturals:
        raise ValueError("best_placement's compiled scorer pays rows and royalties: Rules.naturals "
                         "is not supported against opponents (score finished boards with ofc.score)")
    dealt_ids = parse_cards(dealt)
    placements = legal_placements(own, dealt_ids, rules)
    seen_ids = parse_cards(seen)
    _check_disjoint(own, dealt_ids, others, seen_ids)
    count = _count(samples)
    known = set(own.cards) | set(dealt_ids) | set(seen_ids)
    for other in others:
        known.update(other.cards)
    unseen = np.array([c for c in range(52) if c not in known], dtype=np.uint8)
    mine = streets_to_come(own, rules)[1:]
    theirs = [streets_to_come(other, rules) for other in others]
    blocks = [dealt for dealt, _ in mine] + [dealt for plan in theirs for dealt, _ in plan]
    if sum(blocks) > len(unseen):
        raise ValueError(f"the deals to come need {sum(blocks)} cards; {len(unseen)} are unseen")
    deals = _deal_count(len(unseen), blocks)
    exact = deals <= EXACT_LIMIT and (deals <= count or (not mine and deals <= EXACT_DEALS))
    racing = race and not exact and len(placements) > RACE_PLACEMENTS and count > 2 * RACE_FIRST
    _check_memory(count, deals if exact else count * (RACE_MORE if racing else 1),
                  9 * len(placements) + len(unseen) + 13 * len(others))
    rng = np.random.default_rng(check_seed(seed))
    draws = (_all_deals(unseen, blocks) if exact
             else _sample_deals(unseen, sum(blocks), count * (RACE_MORE if racing else 1), rng))
    nthreads = _threads(threads, len(draws))
    table = tables(rules)
    values = (rules.fantasyland_value, foul_value(rules))
    finished = _finish_opponents(table, mode, values, others, theirs, draws,
                                 sum(dealt for dealt, _ in mine), nthreads)
    arr, held = _board_arrays([own.extended(*p.rows).rows for p in placements])
    sizes, discards = _deal_arrays(mine)

    def score(chosen: npt.NDArray[np.intp], first: int, last: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint8]]:
        """The scores and fouls of the chosen placements on deals first..last - 1, (placements,
        deals); the threads split the deals, so that each deal's placements share their rows."""
        boards, rows = np.ascontiguousarray(arr[chosen]), np.ascontiguousarray(held[chosen])
        points = np.zeros((last - first, len(chosen)), dtype=np.float64)
        fouls = np.zeros((last - first, len(chosen)), dtype=np.uint8)

        def kernel(deals: Any, faced: Any, p: Any, f: Any) -> int:
            return int(_placement.score_placements(
                table, mode, *values, _placement.SCORE_2_4 if rules.scoring == "2-4" else _placement.SCORE_1_6,
                not rules.royalties_cancel, rules.shoot_the_moon, _JACK_HIGH, sizes, discards,
                deals, faced, boards, rows, p, f))

        _batch.run(kernel, draws[first:last], (finished[first:last], points, fouls), nthreads)
        return points.T, fouls.T

    # exact: every placement on every deal (a race, or a stop at `samples`, would score them on
    # a first, lexicographically biased part of the deals)
    points, fouls, scored = _race(score, len(placements), len(draws),
                                  RACE_FIRST if racing else len(draws), len(draws) if exact else count)
    means, errors, foul_rates = _estimates(points, fouls, scored, exact)
    ranked = [PlacementValue(placement, mean, error, rate, n) for placement, mean, error, rate, n
              in zip(placements, means.tolist(), errors.tolist(), foul_rates.tolist(), scored.tolist())]
    ranked.sort(key=lambda value: -value.mean)          # stable: ties keep the action order
    return Advice(tuple(ranked), exact, int(scored.max()))


def _race(score: Any, placements: int, deals: int, first: int, enough: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Score every placement on deals 0..first - 1, then the ones still in the race on twice as
    many, and so on: up to `enough` deals while any is left besides the leader, past it up to
    `deals` while more than the leader is (no race when first == deals). The (placements, deals)
    points and fouls, and the deals each placement was scored on."""
    points = np.zeros((placements, deals), dtype=np.float64)
    fouls = np.zeros((placements, deals), dtype=np.uint8)
    scored = np.zeros(placements, dtype=np.int64)
    alive = np.arange(placements)
    done = 0
    step = first
    while True:
        last = min(deals if done >= enough else enough, done + step)
        p, f = score(alive, done, last)
        points[alive, done:last] = p
        fouls[alive, done:last] = f
        scored[alive] = last
        done = last
        if done >= deals:
            return points, fouls, scored
        leader = alive[np.argmax(points[alive, :done].mean(axis=1))]
        gap = points[alive, :done] - points[leader, :done]
        spread = gap.std(axis=1, ddof=1) / np.sqrt(done)
        alive = alive[gap.mean(axis=1) + RACE_Z * spread >= 0]
        if done >= enough and len(alive) == 1:
            return points, fouls, scored
        step = done            # double the deals each round


def _estimates(points: npt.NDArray[np.float64], fouls: npt.NDArray[np.uint8],
               scored: npt.NDArray[np.int64], exact: bool) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Each placement's mean, standard error and foul rate. A placement scored on all N deals the
    most were scored on: over them. One dropped from the race after n deals: its mean difference
    from the leader (the best of those scored on N) over its n deals, plus the leader's mean over
    all N; an unbiased estimate on the leader's scale (a mean over its first n deals alone would
    carry their luck, shared by every placement, and could rank it above the leader), whose
    standard error adds the variances of its two independent parts: deals 0..n - 1 and n..N - 1."""
    count = len(scored)
    means, errors, foul_rates = np.zeros(count), np.zeros(count), np.zeros(count)
    full = int(scored.max())
    finishers = np.flatnonzero(scored == full)
    lead = points[finishers[np.argmax(points[finishers, :full].mean(axis=1))], :full]
    for n in np.unique(scored).tolist():       # one vectorised pass per sample count (a few)
        rows = scored == n
        foul_rates[rows] = fouls[rows, :n].mean(axis=1)
        if n == full:
            means[rows] = points[rows, :n].mean(axis=1)
            if not exact and n > 1:
                errors[rows] = points[rows, :n].std(axis=1, ddof=1) / np.sqrt(n)
            continue
        # mean(x[:n]) - mean(lead[:n]) + mean(lead) as a mean over the first n plus the rest
        paired = points[rows, :n] - (1 - n / full) * lead[:n]
        rest = lead[n:]
        means[rows] = paired.mean(axis=1) + rest.sum() / full
        if n > 1:
            later = rest.var(ddof=1) * len(rest) / full ** 2 if len(rest) > 1 else 0.0
            errors[rows] = np.sqrt(paired.var(axis=1, ddof=1) / n + later)
    return means, errors, foul_rates


# ----------------------------------------------------------------------------- helpers
def _mode(completion: str) -> int:
    if completion not in COMPLETIONS:
        raise ValueError(f"completion must be one of {', '.join(map(repr, COMPLETIONS))}, "
                         f"got {completion!r}")
    return _placement.BEST if completion == "best" else _placement.GREEDY


def _count(samples: Any) -> int:
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)):
        raise TypeError(f"samples must be an int, not {type(samples).__name__}")
    if samples < 1:
        raise ValueError(f"samples must be >= 1, got {samples}")
    return int(samples)


def _check_memory(samples: int, deals: int, per_deal: int) -> None:
    """ValueError when `deals` deals of `per_deal` bytes each would pass MEMORY_LIMIT."""
    if deals * per_deal > MEMORY_LIMIT:
        most = MEMORY_LIMIT // (per_deal * max(1, deals // samples))
        raise ValueError(f"samples={samples} would hold {deals} deals of {per_deal} bytes each, "
                         f"over the limit of {MEMORY_LIMIT:,} bytes: at most samples={most} here")


def _threads(threads: int | None, deals: int) -> int:
    if threads is None:
        return max(1, min(_batch.cpu_count(), deals))
    return _batch.thread_count(threads, deals)


def _check_disjoint(own: PartialBoard, dealt: list[int], others: list[PartialBoard],
                    seen: list[int]) -> None:
    """ValueError naming a card that two of the inputs both hold (or one holds twice)."""
    where: dict[int, str] = {}
    parts = [("the board", own.cards), ("the dealt cards", dealt)]
    parts += [(f"opponent {i + 1}'s board", other.cards) for i, other in enumerate(others)]
    parts.append(("seen", seen))
    for name, ids in parts:
        for card in ids:
            if card in where:
                raise ValueError(f"{hand_str([card])} is in {where[card]} and in {name}"
                                 if where[card] != name else f"{hand_str([card])} is twice in {name}")
            where[card] = name


def _board_arrays(boards: Sequence[tuple[tuple[int, ...], ...]]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32]]:
    """(N, 13) board bytes (each row's cards first, 255 for an empty slot) and (N, 3) counts."""
    padded = [top + (255,) * (3 - len(top)) + middle + (255,) * (5 - len(middle))
              + bottom + (255,) * (5 - len(bottom)) for top, middle, bottom in boards]
    held = [[len(row) for row in rows] for rows in boards]
    return (np.array(padded, dtype=np.uint8).reshape(len(boards), 13),
            np.array(held, dtype=np.int32).reshape(len(boards), 3))


def _deal_arrays(plan: Sequence[tuple[int, int]]) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    return (np.array([dealt for dealt, _ in plan], dtype=np.int32),
            np.array([discarded for _, discarded in plan], dtype=np.int32))


def _deal_count(unseen: int, blocks: Sequence[int]) -> int:
    """How many deals of the unseen cards there are: a set of cards per street, in order."""
    left = unseen
    counts = []
    for size in blocks:
        counts.append(comb(left, size))
        left -= size
    return prod(counts)


def _all_deals(unseen: npt.NDArray[np.uint8], blocks: Sequence[int]) -> npt.NDArray[np.uint8]:
    """Every deal: each street's cards a combination of the unseen cards the earlier streets
    left, one deal per line."""
    deals: list[tuple[int, ...]] = [()]
    cards = unseen.tolist()
    for size in blocks:
        deals = [deal + combo for deal in deals
                 for combo in combinations([c for c in cards if c not in deal], size)]
    return np.array(deals, dtype=np.uint8).reshape(len(deals), sum(blocks))


def _sample_deals(unseen: npt.NDArray[np.uint8], cards: int, count: int,
                  rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """`count` deals of `cards` unseen cards each, uniformly at random."""
    return np.ascontiguousarray(rng.permuted(np.tile(unseen, (count, 1)), axis=1)[:, :cards])


def _finish_opponents(table: Any, mode: int, values: tuple[float, float], others: list[PartialBoard],
                      plans: list[tuple[tuple[int, int], ...]], draws: npt.NDArray[np.uint8],
                      first: int, threads: int) -> npt.NDArray[np.uint8]:
    """(deals, opponents, 13): each opponent's board finished by the completion from its cards
    of each deal (the columns after this player's)."""
    finished = np.zeros((len(draws), len(others), 13), dtype=np.uint8)
    column = first
    for o, (other, plan) in enumerate(zip(others, plans)):
        needed = sum(dealt for dealt, _ in plan)
        pools = np.ascontiguousarray(draws[:, column:column + needed])
        column += needed
        arr, held = _board_arrays([other.rows] * len(draws))
        sizes, discards = _deal_arrays(plan)
        out = np.empty((len(draws), 13), dtype=np.uint8)

        def kernel(b: Any, h: Any, p: Any, out_rows: Any, sizes: Any = sizes, discards: Any = discards) -> int:
            return int(_placement.complete_boards(table, mode, *values, sizes, discards, b, h, p, out_rows))

        _batch.run(kernel, arr, (held, pools, out), threads)
        finished[:, o] = out
    return finished
