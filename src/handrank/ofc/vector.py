"""N independent OFC hands stepped together in compiled code, for reinforcement learning: one
``step(actions)`` call moves every game by one turn, without the GIL, split over ``threads``.

Each game is one hand of `ofc.Game` under any `Rules`, 2 to 4 players (3 at most in pineapple and
deuce), seats in Fantasyland set by the exact solver as `handrank.ofc.env` sets them. The arrays
over the N games (`Step`):

- ``observation`` (N, 14, 52) int8: the card planes `handrank.ofc.env` gives the player to act
  (their rows, the cards dealt, their discards, the other boards; see `ofc.env`),
- ``current_player`` (N,) int8: the seat to act,
- ``legal_mask`` (N, 1024) bool over the actions of `ofc.actions` (``legal="dense"``), or
  ``legal_indptr`` (N + 1,) int64 and ``legal_ids`` (M,) int32, the legal action ids of game i
  being ``legal_ids[legal_indptr[i]:legal_indptr[i + 1]]`` (``legal="compact"``),
- ``rewards`` (N, players) float32: zero, except on the step that ends a hand, where each seat
  gets `ofc.Game.values` (its points plus the rules' ``fantasyland_value`` if it earned
  Fantasyland),
- ``terminated`` (N,) bool: the hand ended on this step; ``truncated`` (N,) bool: always False.

A hand that ends is replaced in the same step (Gymnasium's ``AutoresetMode.SAME_STEP``): its
rewards and ``terminated`` are reported, and its observation and legal actions are already those
of the next hand. Hands are dealt from one seeded stream: hand number h (counted from the reset,
in game order) is shuffled from its own stream of (seed, h), so the same seed and actions give the
same arrays whatever ``threads`` is.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from handrank import _batch
from handrank.ofc import _vector, actions
from handrank.ofc.board import evaluate_batch, score_batch
from handrank.ofc.game import Game
from handrank.ofc.rules import Rules, as_rules
from handrank.ofc.simulate import _seed_key
from handrank.ofc.solver import solve_fantasyland_batch

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["VectorEnv", "Step", "PLANES", "NUM_ACTIONS", "against"]

PLANES = 14
NUM_ACTIONS = actions.SIZE
# Below this many games per thread, one thread is faster (`threads=None`).
MIN_GAMES_PER_THREAD = 2048
# the most games one env holds, checked before anything is allocated: a step's arrays take a few
# kilobytes per game (tens under a Big Two dense mask), so more would not fit in any memory
MAX_ENVS = 1 << 24


@dataclass(frozen=True)
class Step:
    """What `VectorEnv.reset` and `VectorEnv.step` return: arrays over the N games (fresh arrays
    on every call)."""

    observation: npt.NDArray[np.int8]             # (N, 14, 52) planes of the player to act
    current_player: npt.NDArray[np.int8]          # (N,)
    legal_mask: npt.NDArray[np.bool_] | None      # (N, 1024); None when legal="compact"
    legal_indptr: npt.NDArray[np.int64] | None    # (N + 1,); None when legal="dense"
    legal_ids: npt.NDArray[np.int32] | None       # (M,); None when legal="dense"
    rewards: npt.NDArray[np.float32]              # (N, players)
    terminated: npt.NDArray[np.bool_]             # (N,)
    truncated: npt.NDArray[np.bool_]              # (N,)


class VectorEnv:
    """`num_envs` OFC hands stepped together (see the module's documentation for the arrays).

    ``rules`` (an `ofc.Rules` or a preset name), ``players``, ``button`` (the dealer's seat; the
    first to act sits left of it) and ``fantasyland`` (cards each seat is dealt in Fantasyland in
    every hand, 0 for street play) are those of `handrank.ofc.env.OFCEnv`; ``seed`` (an int, a
    numpy SeedSequence or None) seeds the first `reset` without a seed of its own; ``threads``
    splits the games over that many threads (default: one per 2048 games, up to every core);
    ``legal`` is ``"dense"`` (masks) or ``"compact"`` (CSR ids)."""

    def __init__(self, num_envs: int, *, rules: Rules | str | None = None, players: int = 2,
                 seed: int | np.random.SeedSequence | None = None, threads: int | None = None,
                 legal: str = "dense", button: int = 0,
                 fantasyland: tuple[int, ...] | None = None) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise TypeError(f"num_envs must be an int, not {type(num_envs).__name__}")
        if not 1 <= num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs must be 1..{MAX_ENVS:,} (each game's arrays take kilobytes), "
                             f"got {num_envs}")
        if legal not in ("dense", "compact"):
            raise ValueError(f"legal must be 'dense' or 'compact', got {legal!r}")
        self.rules = as_rules(rules)
        table = Game(players, self.rules, 0, button, fantasyland)      # checks the table
        if all(table.fantasyland):
            raise ValueError(f"fantasyland={fantasyland!r} puts every seat in Fantasyland: the "
                             f"solver sets those hands, so no player would act; leave at least "
                             f"one seat at 0")
        self.num_envs = int(num_envs)
        self.players: int = table.players
        self.button: int = table.button
        self.fantasyland: tuple[int, ...] = table.fantasyland
        self.legal = legal
        if threads is None:
            self.threads = max(1, min(_batch.cpu_count(), self.num_envs // MIN_GAMES_PER_THREAD))
        else:
            self.threads = _batch.thread_count(threads, self.num_envs)
        self._seed = _seed_key(seed)
        self._key = self._seed
        self._hands = 0                   # hands dealt since the last reset
        self._started = False
        order = [(table.button + 1 + i) % self.players for i in range(self.players)]
        plan = table.streets
        kinds = _vector.KINDS
        self._core = _vector.Core(self.num_envs, order, self.fantasyland,
                                  [(dealt, kinds.index((dealt, dropped))) for dealt, dropped in plan],
                                  *_legal_tables())
        # where each Fantasyland seat's cards lie in the deck: the first street goes round the
        # table in order, a Fantasyland seat taking all of its cards at once
        self._fl_cards: list[tuple[int, int, int]] = []
        at = 0
        for seat in order:
            n = self.fantasyland[seat] or plan[0][0]
            if self.fantasyland[seat]:
                self._fl_cards.append((seat, at, at + n))
            at += n
        self._games = np.arange(self.num_envs, dtype=np.int64)

    # ------------------------------------------------------------------ the API
    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, int]:
        return (PLANES, 52)

    @property
    def decks(self) -> npt.NDArray[np.uint8]:
        """(N, 52): the deck each game's current hand is dealt from, in dealing order (what
        ``ofc.Game(deck=...)`` replays)."""
        return np.array(self._core.deck_array)

    def reset(self, seed: int | np.random.SeedSequence | None = None) -> Step:
        """Deal a new hand in every game. With `seed`, the hands are those of that seed from the
        start; without, the first reset uses the constructor's seed and a later one goes on with
        new hands of the same stream."""
        key = _seed_key(seed) if seed is not None else None       # a bad seed fails first
        with self._unchanged_on_error():
            if key is not None:
                self._key = key
                self._hands = 0
            elif not self._started:
                self._key = self._seed
                self._hands = 0
            obs, mask, current = self._outputs()
            self._deal(self._games, obs, mask, current)
            rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
            ended = np.zeros(self.num_envs, dtype=np.bool_)
            result = self._result(obs, mask, current, rewards, ended)
            self._started = True
        return result

    def step(self, actions: npt.ArrayLike) -> Step:
        """Make actions[i] (an action id of `ofc.actions`) for the player to act in game i.
        ValueError for the wrong shape or naming the first bad game (out of range, not legal),
        TypeError for an array not of integers. Any exception (those, a KeyboardInterrupt, a
        MemoryError) leaves every game as it was before the call."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        chosen = self._checked(actions)
        with self._unchanged_on_error():
            obs, mask, current = self._outputs()
            done = np.empty(self.num_envs, dtype=np.uint8)
            _over_games(partial(self._core.step, actions=chosen, obs=obs, mask=mask.view(np.uint8),
                                current=current, done=done), self._games, self.threads)
            ended = done.view(np.bool_)
            rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
            games = np.flatnonzero(ended)
            if games.size:
                rewards[games] = self._values(games)
                self._deal(games, obs, mask, current)
            return self._result(obs, mask, current, rewards, ended)

    def sample_legal(self, rng: np.random.Generator | int | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action for each game, (N,) int64 (`rng`: a numpy Generator,
        or a seed for one)."""
        if not self._started:
            raise RuntimeError("call reset() before sample_legal()")
        if not isinstance(rng, np.random.Generator):
            rng = np.random.default_rng(rng)
        counts = np.empty(self.num_envs, dtype=np.int64)
        self._core.counts(counts)
        choices = rng.integers(0, counts)
        self._core.pick(choices)
        return choices

    def to_gymnasium(self, *, seat: int | None = None, rewards: str = "seat") -> Any:
        """This environment as a ``gymnasium.vector.VectorEnv`` (extra ``rl``): see
        ``handrank._gym_vector``: observations (N, 14, 52) and masks (N, 1024) int8 (under
        ``legal="compact"`` no mask: the ids in ``infos["legal_indptr"]`` and
        ``infos["legal_ids"]``, a dense mask from ``action_masks()``), the reward
        of seat `seat` (None: seat 0), or with ``rewards="all"`` every seat's, (N, players),
        every seat's in ``infos["rewards"]`` too, SAME_STEP autoreset."""
        from handrank._gym_vector import GymVectorEnv
        return GymVectorEnv(self, seat=seat, rewards=rewards)

    def __repr__(self) -> str:
        return (f"<ofc.VectorEnv of {self.num_envs} games, {self.players} players "
                f"({self.rules.name}), {self.threads} thread(s)>")

    # ------------------------------------------------------------------ internals
    @contextmanager
    def _unchanged_on_error(self) -> Iterator[None]:
        """Put every game back as it was when the block raises anything: a step that ended
        hands has moved the others and half-dealt the new ones by then, which no later call
        could make sense of (the stream's position too, so a retry deals the same hands)."""
        saved, key, hands = self._core.save(), self._key, self._hands
        try:
            yield
        except BaseException:
            self._core.restore(saved)
            self._key, self._hands = key, hands
            raise

    def _outputs(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_], npt.NDArray[np.int8]]:
        n = self.num_envs
        return (np.empty((n, PLANES, 52), dtype=np.int8), np.empty((n, NUM_ACTIONS), dtype=np.bool_),
                np.empty(n, dtype=np.int8))

    def _deal(self, games: npt.NDArray[np.int64], obs: npt.NDArray[np.int8],
              mask: npt.NDArray[np.bool_], current: npt.NDArray[np.int8]) -> None:
        """New hands in `games`: the next hand numbers of the stream, the Fantasyland boards
        solved, the first player to act observed."""
        hands = np.arange(self._hands, self._hands + games.size, dtype=np.uint64)
        self._hands += int(games.size)
        self._core.shuffle(self._key, games, hands)
        if self._fl_cards:
            decks = self._core.deck_array
            for seat, a, b in self._fl_cards:
                solved = solve_fantasyland_batch(decks[games, a:b], self.rules,
                                                 self.rules.fantasyland_value, threads=self.threads)
                self._core.fl_board_array[games, seat] = solved.boards
        _over_games(partial(self._core.begin, obs=obs, mask=mask.view(np.uint8), current=current),
                    games, self.threads if games.size >= MIN_GAMES_PER_THREAD else 1)

    def _values(self, games: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """`ofc.Game.values` of the finished hands of `games`, (K, players)."""
        boards = self._core.board_array[games]
        values = np.zeros((games.size, self.players), dtype=np.float64)
        for i, j in combinations(range(self.players), 2):
            net = score_batch(boards[:, i], boards[:, j], self.rules, threads=1)
            values[:, i] += net
            values[:, j] -= net
        bonus = self.rules.fantasyland_value
        if bonus:
            for seat in range(self.players):
                earned = evaluate_batch(boards[:, seat], self.rules,
                                        in_fantasyland=self.fantasyland[seat] > 0, threads=1).fantasyland
                values[:, seat] += np.where(earned > 0, bonus, 0.0)
        return values

    def _checked(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        n = self.num_envs
        arr = np.asarray(actions)
        if arr.shape != (n,):
            raise ValueError(f"actions must have shape ({n},), one per game, got {arr.shape}")
        if arr.dtype.kind not in "iu":
            raise TypeError(f"actions must be an integer array, got dtype {arr.dtype}")
        if arr.dtype.kind == "u":
            arr = np.minimum(arr, NUM_ACTIONS)      # (out of range either way; no wrap to negative)
        chosen = np.ascontiguousarray(arr, dtype=np.int64)
        bad = self._core.check(chosen)
        if bad >= 0:
            action = np.asarray(actions)[bad]
            if not 0 <= action < NUM_ACTIONS:
                raise ValueError(f"game {bad}: action {action} is out of range 0..{NUM_ACTIONS - 1}")
            player, street, dealt = self._core.state(bad)
            from handrank.cards import hand_str
            raise ValueError(f"game {bad}: action {action} is not legal for player {player} on "
                             f"street {street + 1} (dealt {hand_str(list(dealt))})")
        return chosen

    def _result(self, obs: npt.NDArray[np.int8], mask: npt.NDArray[np.bool_],
                current: npt.NDArray[np.int8], rewards: npt.NDArray[np.float32],
                ended: npt.NDArray[np.bool_]) -> Step:
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        if self.legal == "dense":
            return Step(obs, current, mask, None, None, rewards, ended, truncated)
        counts = np.empty(self.num_envs, dtype=np.int64)
        self._core.counts(counts)
        indptr = np.zeros(self.num_envs + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        ids = np.empty(int(indptr[-1]), dtype=np.int32)
        self._core.write_ids(indptr, ids)
        return Step(obs, current, None, indptr, ids, rewards, ended, truncated)


def _over_games(kernel: Callable[[npt.NDArray[np.int64]], int], games: Any, threads: int) -> None:
    """kernel(games[a:b]) over slices of `games`, `threads` at a time (the GIL released inside:
    each game index belongs to one slice, so no two threads touch one game)."""
    _batch.run(kernel, games, (), threads)


@lru_cache(maxsize=1)
def _legal_tables() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """The legal actions of every (street kind, free slots) case: masks (cases, 1024), the ids
    (cases, 243) and their counts, from `ofc.actions.legal` (the scalar game's own table)."""
    cases = len(_vector.KINDS) * 144
    masks = np.zeros((cases, NUM_ACTIONS), dtype=np.uint8)
    ids = np.zeros((cases, 3 ** 5), dtype=np.int16)
    counts = np.zeros(cases, dtype=np.int16)
    for kind, (dealt, discards) in enumerate(_vector.KINDS):
        for top in range(4):
            for middle in range(6):
                for bottom in range(6):
                    case = kind * 144 + top * 36 + middle * 6 + bottom
                    legal = actions.legal(dealt, (top, middle, bottom), discards)
                    found = np.flatnonzero(legal)
                    masks[case] = legal
                    ids[case, :found.size] = found
                    counts[case] = found.size
    for table in (masks, ids, counts):
        table.setflags(write=False)
    return masks, ids, counts


def against(opponents: Any = "random", num_envs: int = 1, *, seat: int = 0,
            seed: int | np.random.SeedSequence | None = None, **options: Any) -> Any:
    """A `VectorEnv` of `num_envs` hands (`seed` and `options` as its constructor's) turned
    single-agent: every seat but `seat` is played inside `step` by `opponents` ("random", a
    batched callable, or a dict of those by seat; see `handrank._against`), so every returned
    hand waits on the learner at `seat`. The VectorEnv API, ``to_gymnasium()`` returning the
    learner's reward."""
    from handrank._against import OFCAgainst
    return OFCAgainst(VectorEnv(num_envs, seed=seed, **options), opponents, seat, seed)
