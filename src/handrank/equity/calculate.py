"""`calculate`: each player's share of the pot, exactly or by Monte Carlo."""
from __future__ import annotations

import itertools
import math
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Union

import numpy as np

from handrank import _batch
from handrank.cards import card_str, cards as parse_cards
from handrank.equity import _equity, variants
from handrank.equity.deal import (NO_WEIGHT, Groups, boards, fitting_pairs, fold_suits, group,
                                  no_deal, runs, scaled)
from handrank.equity.range import Range
from handrank.equity.result import Result

if TYPE_CHECKING:
    import numpy.typing as npt

Player = Union[str, Range, Iterable[Union[str, int]]]
Progress = Callable[[int, int], object]

MAX_PLAYERS = _equity.MAX_PLAYERS
"""The most players `calculate` takes (10)."""
# `exact=None` enumerates when deals x boards is at most this many showdowns (an upper bound: the
# walk skips colliding deals and folds boards that differ only in suits that cannot flush).
EXACT_LIMIT = 200_000_000
"""`exact=None` enumerates when the job is at most this many showdowns, else samples."""
# `exact=True` refuses jobs above this many showdowns (the same upper bound): hours of work on a
# core, where sampling answers in seconds.
EXACT_MAX = 10**13
"""`exact=True` refuses jobs above this many showdowns."""
# Sampling stops at this many showdowns, `samples` may ask for no more (a day's work on a core).
MAX_SAMPLES = 10**11
"""The most showdowns a Monte Carlo run samples."""
DEFAULT_STDERR = 1e-3
"""The standard error Monte Carlo runs to when neither `samples` nor `stderr` is given."""
# Below this many showdowns one thread is faster than handing work to others.
MIN_SHOWDOWNS_PER_THREAD = 2_000_000
# Exact enumeration runs in parts of at most this many showdowns (the upper bound), so that
# Ctrl-C is answered between parts, and sums their tallies in rounds of at most ROUND_PARTS.
PART_SHOWDOWNS = 50_000_000
ROUND_PARTS = 256
# Heads-up exact on a flop, turn or river (by board size) goes board by board, each combo valued
# once per board, not once per deal, when the deals number at least this many times the combos
# of both players. Measured (thread CPU time): on a flop the deal walk, which folds the ranks of
# suits that cannot flush and keeps player 2's values across deals, is as fast at about 13 deals
# per combo and faster below; on a turn or river board by board was faster on every spot tried,
# an exact hand against a range included.
BY_BOARD = {3: 15, 4: 0, 5: 0}
# Board by board, the work of a run of cards to come, in showdowns of the deal-by-deal walk, per
# combo valued (its sort and sweep included): what `threads=None` weighs.
BY_BOARD_COST = 4
# Monte Carlo: samples per thread in the first round, and the fewest before the standard error
# is trusted.
FIRST_ROUND = 1 << 14
MIN_SAMPLES = 1 << 14


def calculate(players: Sequence[Player], board: str | Iterable[str | int] = "",
              dead: str | Iterable[str | int] = "", *, exact: bool | None = None,
              samples: int | None = None, stderr: float | None = None, seed: int | None = None,
              threads: int | None = None, progress: Progress | None = None,
              game: str = "holdem") -> Result:
    """Each player's equity. `players`: a list of 2 to 10 (MAX_PLAYERS), not one string; a player
    is an exact hand (``"AsKs"``, ``["As", "Ks"]``, ids) or a range (notation text or a `Range`).
    `board`: 0, 3, 4 or 5 cards; `dead`: cards out of play.

    `exact=None` enumerates every deal and board when there are at most EXACT_LIMIT showdowns
    and samples otherwise; `exact=True` always enumerates (up to EXACT_MAX showdowns, refused
    above), `exact=False` always samples: to the standard error `stderr` (default 1e-3, the
    largest over players) or `samples` showdowns (at most MAX_SAMPLES). Sampling is reproducible
    for one `seed` (0 to 2**64 - 1) and one thread count. `threads`: default all cores for big jobs.
    `progress(done, total)` is called as parts finish, from the calling thread.

    `game`: "holdem" (the default), or "omaha" (4, 5 or 6 hole cards, read from the hands),
    "omaha8" (hi-lo 8-or-better), "shortdeck" or "shortdeck-triton" (the 36-card deck); in those
    a player is an exact hand, a weighted list of exact hands ({hand: weight}) or "random" (see
    handrank.equity.variants), `exact=True` refuses more than variants.EXACT_MAX showdowns, and
    `progress` is called once, at the end."""
    if not isinstance(game, str):
        raise TypeError(f"game must be a str, not {type(game).__name__}")
    if game != "holdem" and game not in variants.GAMES:
        raise ValueError(f"game must be 'holdem' or one of {', '.join(variants.GAMES)}, got {game!r}")
    board_ids = _cards(board, "board")
    dead_ids = _cards(dead, "dead cards")
    if len(board_ids) not in (0, 3, 4, 5):
        raise ValueError(f"a board has 0, 3, 4 or 5 cards, got {len(board_ids)}")
    clash = set(board_ids) & set(dead_ids)
    if clash:
        raise ValueError(f"{card_str(min(clash))} is both on the board and dead")
    # one str is not a list of players: taken as one, each of its characters would be a seat
    if not isinstance(players, (list, tuple)) and (isinstance(players, (str, Range))
                                                   or not isinstance(players, Sequence)):
        raise TypeError(f"players is a list of hands or ranges, one per player, not a {type(players).__name__}")
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"equity needs 2 to {MAX_PLAYERS} players, got {len(players)}")
    exact, samples, seed = _check_options(exact, samples, stderr, seed, progress)
    if game != "holdem":
        found = variants.calculate(list(players), board_ids, dead_ids, game, exact=exact, samples=samples,
                                   stderr=stderr, seed=seed, threads=threads)
        if progress is not None:
            progress(1, 1)
        return found
    if 2 * len(players) + 5 + len(dead_ids) > 52:
        raise ValueError(f"too many players for the deck: {len(players)} players, 5 board cards "
                         f"and {len(dead_ids)} dead cards need more than 52 cards")
    seats = [_seat(p, i) for i, p in enumerate(players)]
    out = board_ids + dead_ids
    fixed = [s for s in seats if isinstance(s, list)]
    taken = out + [c for s in fixed for c in s]
    if len(set(taken)) != len(taken):
        repeated = next(c for c in taken if taken.count(c) > 1)
        raise ValueError(f"{card_str(repeated)} is dealt twice (hands, board and dead cards)")
    labels = tuple(_label(s) for s in seats)
    out_mask = sum(_BIT[c] for c in out)
    board_arr = np.array(board_ids, dtype=np.uint8)
    if len(fixed) == len(seats):        # every hand known: one deal
        held = [c for s in fixed for c in s]
        groups = Groups(np.array([held], dtype=np.uint8), _ONE,
                        np.array([sum(_BIT[c] for c in held)], dtype=np.uint64), _ONE_GROUP,
                        _NOBODY)
        sampling = exact is False or (exact is None and (samples is not None or stderr is not None))
    else:
        combos = [_combos(s, i, [c for t in seats if isinstance(t, list) and t is not s for c in t], out)
                  for i, s in enumerate(seats)]
        showdowns = math.prod(len(w) for _, w in combos) * boards(len(board_ids), len(out) + 2 * len(seats))
        sampling = exact is False or (exact is None and (samples is not None or stderr is not None
                                                         or showdowns > EXACT_LIMIT))
        if exact and showdowns > EXACT_MAX:
            raise ValueError(f"exact enumeration of {showdowns:.3g} showdowns is above the limit of "
                             f"{EXACT_MAX:.0e} (equity.EXACT_MAX): sample instead")
        if not sampling and len(seats) == 2 and len(board_ids) >= 3:
            pairs = fitting_pairs(combos[0][0], combos[1][0])
            if pairs == 0:
                raise no_deal([0, 1])
            if pairs >= BY_BOARD[len(board_ids)] * (len(combos[0][0]) + len(combos[1][0])):
                return _by_board(combos, board_ids, dead_ids, labels, threads, progress)
        randoms = [isinstance(s, Range) and s.is_random for s in seats]
        groups = group(combos, randoms, sampling)
        if not sampling:
            groups = fold_suits(groups, board_ids, dead_ids)
    if sampling:
        return _sample(groups, board_arr, out_mask, labels, samples, stderr, seed, threads, progress)
    return _enumerate(groups, board_arr, out_mask, labels, threads, progress)


# ----------------------------------------------------------------------------- input
# The card bits of each id as the kernels lay them out, and the one deal of known hands.
_BIT = [1 << (16 * (c & 3) + (c >> 2)) for c in range(52)]
_NAMES = [card_str(c) for c in range(52)]
_ONE = np.ones(1)
_ONE_GROUP = np.array([0, 1], dtype=np.int64)
_NOBODY = np.zeros(0, dtype=np.int32)
for _array in (_ONE, _ONE_GROUP, _NOBODY):
    _array.flags.writeable = False


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> tuple[int, ...]:
    """Card ids of a text, cached: solvers ask about the same few boards and hands again."""
    return tuple(parse_cards(text))


def _parse(spec: str | Iterable[str | int]) -> list[int]:
    return list(_parse_text(spec)) if isinstance(spec, str) else parse_cards(spec)


@lru_cache(maxsize=1024)
def _range(text: str) -> Range:
    return Range(text)


def _cards(spec: str | Iterable[str | int], what: str) -> list[int]:
    try:
        return _parse(spec)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{what}: {exc}") from None


def _seat(player: Player, index: int) -> list[int] | Range:
    """An exact hand as its two card ids, else the player's Range."""
    if isinstance(player, Range):
        return player
    if isinstance(player, str):
        try:
            ids = _parse(player)
        except ValueError:
            ids = []
        if len(ids) == 2:
            return ids
        try:
            return _range(player)
        except ValueError as exc:
            raise ValueError(f"player {index + 1}: {exc}") from None
    try:
        ids = parse_cards(player)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"player {index + 1}: {exc}") from None
    if len(ids) != 2:
        raise ValueError(f"player {index + 1}: a hold'em hand is two cards, got {len(ids)}")
    return ids


def _label(seat: list[int] | Range) -> str:
    if isinstance(seat, list):
        return _NAMES[seat[0]] + _NAMES[seat[1]]
    return str(seat)


def _combos(seat: list[int] | Range, index: int, others: list[int],
            out: list[int]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
    """The seat's combos without the board, the dead cards and the other players' known hands."""
    if isinstance(seat, list):
        return np.array([seat], dtype=np.uint8), np.ones(1)
    try:
        left = seat.without(out + others)
    except ValueError as exc:
        raise ValueError(f"player {index + 1}: {exc} (board, dead cards and known hands)") from None
    return np.array(left.combos, dtype=np.uint8), np.array(left.weights)


def _check_options(exact: bool | None, samples: int | None, stderr: float | None,
                   seed: int | None, progress: Progress | None
                   ) -> tuple[bool | None, int | None, int | None]:
    """Checks the options; returns exact, samples and seed as Python values (numpy's bools and
    integers are taken for the bool or int they hold)."""
    if isinstance(exact, np.bool_):
        exact = bool(exact)
    if exact is not None and not isinstance(exact, bool):
        raise TypeError(f"exact must be True, False or None, not {type(exact).__name__}")
    if exact and (samples is not None or stderr is not None):
        raise ValueError("exact=True takes neither samples nor stderr")
    if samples is not None and stderr is not None:
        raise ValueError("give samples or stderr, not both")
    if samples is not None:
        if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)):
            raise TypeError(f"samples must be an int, not {type(samples).__name__}")
        samples = int(samples)
        if not 1 <= samples <= MAX_SAMPLES:
            raise ValueError(f"samples must be 1 to {MAX_SAMPLES:,} (MAX_SAMPLES), got {_shown_int(samples)}")
    if stderr is not None:
        if isinstance(stderr, bool) or not isinstance(stderr, (int, float, np.integer, np.floating)):
            raise TypeError(f"stderr must be a number, not {type(stderr).__name__}")
        if not 0 < stderr < 1:
            raise ValueError(f"stderr must be between 0 and 1, got {stderr}")
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        seed = int(seed)
        if not 0 <= seed < 1 << 64:        # the generators' state is seeded from 64 bits
            raise ValueError(f"seed must be 0 to 2**64 - 1, got {_shown_int(seed)}")
    if progress is not None and not callable(progress):
        raise TypeError("progress must be a callable (done, total) or None")
    return exact, samples, seed


def _shown_int(n: int) -> str:
    """An int for an error message: its digits, or its size when they would be too many."""
    return str(n) if abs(n) < 10**30 else f"a {n.bit_length()}-bit number"


def _threads(threads: int | None, work: float) -> int:
    if threads is None:
        if work < 2 * MIN_SHOWDOWNS_PER_THREAD:
            return 1
        return max(1, int(min(_batch.cpu_count(), work // MIN_SHOWDOWNS_PER_THREAD)))
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    return int(threads)


# ----------------------------------------------------------------------------- running
def _run_parts(parts: list[Callable[[], None]], threads: int, progress: Progress | None,
               done_before: int = 0, total: int | None = None) -> None:
    """Run the parts on `threads` threads (this one and the shared pool's), each thread taking
    the next part when it finishes one. `progress` is called from this thread only, after each
    part it runs: a callback may itself use the pool. Ctrl-C between this thread's parts stops the
    other threads taking parts and raises KeyboardInterrupt here once their parts are done."""
    total = len(parts) if total is None else total
    caller = threading.get_ident()
    finished = itertools.count(1)
    now = 0

    def run_part(i: int) -> None:
        nonlocal now
        parts[i]()
        done = next(finished)
        if progress is not None and threading.get_ident() == caller:
            now = done
            progress(done_before + done, total)

    _batch.share(run_part, len(parts), threads)
    if progress is not None and now < len(parts):
        progress(done_before + len(parts), total)


def _enumerate(groups: Groups, board: npt.NDArray[np.uint8], out_mask: int, labels: tuple[str, ...],
               threads: int | None, progress: Progress | None) -> Result:
    n = len(labels)
    deals = groups.deals
    per_deal = boards(len(board), bin(out_mask).count("1") + 2 * n)
    work = deals * per_deal
    nthreads = _threads(threads, work)
    wins = np.zeros(1 << n)
    if nthreads == 1 and progress is None and work <= PART_SHOWDOWNS:    # one call, nothing to split
        _equity.enumerate_deals(groups.holes, groups.weights, groups.masks, groups.start, board,
                                out_mask, 0, deals, 0, 1, wins)
        return _result(labels, _Tally(wins.tolist(), n), True)
    # Parts: ranges of deals, or each deal's boards split by their first card when deals are few.
    wanted = max(8 * nthreads, 64 if progress else 1, -(-work // PART_SHOWDOWNS))
    if deals >= wanted:
        jobs = [(deals * i // wanted, deals * (i + 1) // wanted, 0, 1) for i in range(wanted)]
        jobs = [job for job in jobs if job[0] < job[1]]
    else:
        split = min(-(-wanted // deals), 52)
        jobs = [(d, d + 1, part, split) for d in range(deals) for part in range(split)]
    # rounds of parts, their tallies summed in one order whatever thread ran them
    for start in range(0, len(jobs), ROUND_PARTS):
        chunk = jobs[start:start + ROUND_PARTS]
        tallies = [np.zeros(1 << n) for _ in chunk]

        def part(i: int) -> Callable[[], None]:
            def run() -> None:
                first, last, piece, pieces = chunk[i]
                _equity.enumerate_deals(groups.holes, groups.weights, groups.masks, groups.start,
                                        board, out_mask, first, last, piece, pieces, tallies[i])
            return run

        _run_parts([part(i) for i in range(len(chunk))], nthreads, progress, start, len(jobs))
        wins += tallies[0] if len(tallies) == 1 else np.sum(tallies, axis=0)
    return _result(labels, _Tally(wins.tolist(), n), True)


def _by_board(players: list[tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]],
              board: list[int], dead: list[int], labels: tuple[str, ...], threads: int | None,
              progress: Progress | None) -> Result:
    """Exact heads-up on a flop, turn or river, board by board (_equity.heads_up_boards), the runs
    of cards to come split into parts."""
    (combos1, weights1), (combos2, weights2) = players
    weights1, weights2 = scaled(weights1), scaled(weights2)
    rows, counts = runs(board, dead, [(combos1, weights1), (combos2, weights2)])
    board_arr = np.array(board, dtype=np.uint8)
    nthreads = _threads(threads, len(rows) * (len(combos1) + len(combos2)) * BY_BOARD_COST)
    wanted = min(len(rows), max(8 * nthreads if nthreads > 1 else 1, 64 if progress else 1))
    bounds = [len(rows) * i // wanted for i in range(wanted + 1)]
    tallies = [np.zeros(4) for _ in range(wanted)]

    def part(i: int) -> Callable[[], None]:
        def run() -> None:
            _equity.heads_up_boards(combos1, weights1, combos2, weights2, board_arr,
                                    rows[bounds[i]:bounds[i + 1]], counts[bounds[i]:bounds[i + 1]],
                                    tallies[i])
        return run

    _run_parts([part(i) for i in range(wanted)], nthreads, progress)
    # the tallies summed in one order whatever thread ran them
    wins = tallies[0] if wanted == 1 else np.sum(tallies, axis=0)
    return _result(labels, _Tally(wins.tolist(), 2), True)


def _sample(groups: Groups, board: npt.NDArray[np.uint8], out_mask: int, labels: tuple[str, ...],
            samples: int | None, stderr: float | None, seed: int | None, threads: int | None,
            progress: Progress | None) -> Result:
    n = len(labels)
    target = DEFAULT_STDERR if stderr is None and samples is None else stderr
    nthreads = _threads(threads, math.inf if samples is None else samples)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    states = [np.array(_equity.seed_state(seed, t), dtype=np.uint64) for t in range(nthreads)]
    tallies = [np.zeros(1 << n) for _ in range(nthreads)]
    moments = [np.zeros(2 * n + 2) for _ in range(nthreads)]
    rejected = [0] * nthreads
    cumulative = groups.cumulative()
    rotations = _rotations(len(groups.from_deck), len(board))
    drawn = 0
    batch = FIRST_ROUND
    while True:
        if samples is not None:
            batch = min(batch, -(-(samples - drawn) // nthreads))
            counts = [max(0, min(batch, (samples - drawn) * (t + 1) // nthreads
                                 - (samples - drawn) * t // nthreads)) for t in range(nthreads)]
        else:
            counts = [batch] * nthreads

        def part(t: int) -> Callable[[], None]:
            def run() -> None:
                rejected[t] += _equity.sample_deals(groups.holes, cumulative, groups.masks,
                                                    groups.start, groups.from_deck, board, out_mask,
                                                    counts[t], rotations, states[t], tallies[t],
                                                    moments[t])
            return run

        _run_parts([part(t) for t in range(nthreads)], nthreads, None)
        drawn += sum(counts)
        if sum(rejected) > 1000 * drawn + 1_000_000:
            raise ValueError("no deal: the ranges almost never fit together without sharing a card")
        tally = _Tally(np.sum(tallies, axis=0).tolist(), n)
        errors = tally.stderr(None if rotations == 1 else np.sum(moments, axis=0).tolist())
        if samples is not None:
            if progress is not None:
                progress(drawn, samples)
            if drawn >= samples:
                break
            batch = min(2 * batch, 1 << 20)
        else:
            assert target is not None
            worst = max(errors)
            needed = max(MIN_SAMPLES, math.ceil(drawn * (worst / target) ** 2))
            if progress is not None:
                progress(drawn, max(drawn, needed))
            if drawn >= MIN_SAMPLES and worst <= target or drawn >= MAX_SAMPLES:
                break
            # the next round aims at the samples still needed, at most doubling the total and
            # never beyond MAX_SAMPLES (by less than a sample per thread)
            batch = min(max(FIRST_ROUND, min(drawn, needed - drawn) // nthreads + 1),
                        -(-(MAX_SAMPLES - drawn) // nthreads))
    result = _result(labels, tally, False)
    return Result(result.players, result.equity, result.win, result.tie, result.showdowns, False,
                  tuple(errors), drawn / (drawn + sum(rejected)))


def _rotations(random_players: int, board: int) -> int:
    """Showdowns per deal when sampling: one per random player when two or more are dealt from
    the deck and board cards are still to come (a rotation trades their cards and the board's;
    measured, the showdowns of a block of six random hands are no more alike than independent
    ones), else one."""
    return random_players if random_players >= 2 and board < 5 else 1


class _Tally:
    """Per player sums from the showdowns counted by mask of winners: outright wins, ties, pot
    shares and squared pot shares (for the standard error of a sampled equity)."""

    def __init__(self, wins: list[float], players: int) -> None:
        self.total = sum(wins)
        self.win = [0.0] * players
        self.tie = [0.0] * players
        self.share = [0.0] * players
        self.share_sq = [0.0] * players
        for mask, winners in _winners(players):
            weight = wins[mask]
            if weight:
                k = len(winners)
                for p in winners:
                    if k == 1:
                        self.win[p] += weight
                    else:
                        self.tie[p] += weight
                    self.share[p] += weight / k
                    self.share_sq[p] += weight / (k * k)

    def stderr(self, moments: list[float] | None = None) -> tuple[float, ...]:
        """The standard error of each sampled equity: from the single showdowns, or from the
        blocks' `moments` (see _equity.sample_deals) when the showdowns came in dependent blocks:
        the variance of a ratio of sums over independent blocks."""
        n = self.total
        if moments is None:
            return tuple(math.sqrt(max(sq / n - (s / n) ** 2, 0.0) / n)
                         for s, sq in zip(self.share, self.share_sq))
        players = len(self.share)
        size_square, blocks = moments[2 * players], moments[2 * players + 1]
        errors = []
        for p, s in enumerate(self.share):
            e = s / n
            spread = moments[p] - 2 * e * moments[players + p] + e * e * size_square
            errors.append(math.sqrt(max(spread, 0.0) * blocks / max(blocks - 1, 1)) / n)
        return tuple(errors)


@lru_cache(maxsize=None)
def _winners(players: int) -> list[tuple[int, tuple[int, ...]]]:
    """Each mask of winners with the players in it."""
    return [(mask, tuple(p for p in range(players) if mask >> p & 1)) for mask in range(1, 1 << players)]


def _result(labels: tuple[str, ...], tally: _Tally, exact: bool) -> Result:
    n = tally.total
    if not n > 0:
        raise ValueError(NO_WEIGHT)
    return Result(labels, tuple(x / n for x in tally.share), tuple(x / n for x in tally.win),
                  tuple(x / n for x in tally.tie), n, exact)
