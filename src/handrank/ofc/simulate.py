"""Compiled self-play of whole OFC hands under a random policy: `simulate` deals N hands, plays
every street with a uniformly random legal placement and scores the finished boards. A baseline
for bots and RL, and a fast check of the engine."""
from __future__ import annotations

from functools import partial
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from handrank import _batch
from handrank.ofc import _simulate
from handrank.ofc.board import evaluate_batch, score_batch
from handrank.ofc.game import streets
from handrank.ofc.rules import Rules, as_rules

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["simulate", "Simulation", "POLICIES"]

POLICIES = ("random",)


class Simulation(NamedTuple):
    """What `simulate` returns: for each of N hands and P players (seats 0 .. P-1)."""

    boards: npt.NDArray[np.uint8]        # (N, P, 13) finished boards, top, middle, bottom
    dealt: npt.NDArray[np.uint8]         # (N, P, 13 or 17) the cards dealt, street by street
    discards: npt.NDArray[np.uint8]      # (N, P, 0 or 4) the cards discarded, street by street
    points: npt.NDArray[np.int32]        # (N, P) net points, as ofc.score (zero-sum per hand)
    foul: npt.NDArray[np.bool_]          # (N, P)
    royalties: npt.NDArray[np.int32]     # (N, P, 3) top, middle, bottom; 0 when fouled
    fantasyland: npt.NDArray[np.uint8]   # (N, P) cards dealt next hand in Fantasyland, 0 for none


def simulate(hands: int, rules: Rules | str | None = None, *, players: int = 2,
             policy: str = "random", seed: int | np.random.SeedSequence | None = None,
             threads: int | None = None) -> Simulation:
    """Play `hands` hands of OFC for `players` players to the end and score them.

    Every player plays street by street (`ofc.streets`: classic 5 cards then 1 at a time,
    pineapple and deuce 5 then 3, one discarded); no one starts in Fantasyland. ``policy="random"``
    (the only policy so far) makes each placement uniformly at random among the legal placements
    of the street, exactly as a uniform choice from `Game.legal_placements` (or from the legal
    actions of `ofc.actions.mask`) would.

    The points, fouls, royalties and Fantasyland entries are those of `ofc.score` and
    `ofc.evaluate_batch` under `rules`, every scoring option included.

    Seeding: numpy's ``SeedSequence(seed)`` gives one 64-bit key; hand number h (0-based) plays
    with its own xoshiro256** stream seeded by splitmix64 from (key, h). So one seed gives the
    same hands for any `threads`, and the first k hands of a call are the hands of any shorter
    call with the same seed. The GIL is released; `threads` splits the hands over that many
    threads (default: by the number of hands, up to every core)."""
    rules = as_rules(rules)
    count = _count(hands)
    most = 4 if rules.dealing == "classic" else 3
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise TypeError(f"players must be an int, not {type(players).__name__}")
    if not 2 <= players <= most:
        raise ValueError(f"OFC with {rules.dealing} dealing has 2 to {most} players, got {players}")
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(map(repr, POLICIES))}, got {policy!r}")
    key = _seed_key(seed)
    plan = np.array(streets(rules), dtype=np.int32)
    per_player, discarded = (int(n) for n in plan.sum(axis=0))
    players = int(players)
    boards = np.empty((count, players, 13), dtype=np.uint8)
    dealt = np.empty((count, players, per_player), dtype=np.uint8)
    discards = np.empty((count, players, discarded), dtype=np.uint8)
    nthreads = _batch.thread_count(threads, count)
    _batch.run(partial(_simulate.play_random, key, plan), np.arange(count, dtype=np.uint64),
               (boards, dealt, discards), nthreads)

    evaluated = evaluate_batch(boards.reshape(count * players, 13), rules, threads=nthreads)
    points = np.zeros((count, players), dtype=np.int32)
    for i, j in combinations(range(players), 2):
        net = score_batch(boards[:, i], boards[:, j], rules, threads=nthreads)
        points[:, i] += net
        points[:, j] -= net
    return Simulation(boards, dealt, discards, points, evaluated.foul.reshape(count, players),
                      evaluated.royalties.reshape(count, players, 3),
                      evaluated.fantasyland.reshape(count, players))


def _count(hands: object) -> int:
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)):
        raise TypeError(f"hands must be an int, not {type(hands).__name__}")
    if hands < 0:
        raise ValueError(f"hands must be >= 0, got {hands}")
    return int(hands)


def _seed_key(seed: object) -> int:
    """The 64-bit key of the hands' random streams."""
    if not isinstance(seed, np.random.SeedSequence):
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"seed must be an int, a numpy SeedSequence or None, not {type(seed).__name__}")
        if seed is not None and seed < 0:
            raise ValueError(f"seed must be >= 0, got {seed}")
        seed = np.random.SeedSequence(None if seed is None else int(seed))
    return int(seed.generate_state(1, np.uint64)[0])
