"""Opponent adapters: a multi-player handrank game as a single-agent environment, the other seats
played inside ``step`` by fixed policies (the shape SB3, CleanRL and other single-agent libraries
train in). Reached through ``handrank.bigtwo.vector.against``, ``handrank.ofc.vector.against``
(N games, the `VectorEnv` API) and ``handrank.bigtwo.env.against``, ``handrank.ofc.env.against``
(one game, a ``gymnasium.Env`` with sb3-contrib's ``action_masks()``).

An opponent policy is one of:

- ``"random"``: uniform over the legal actions. In the vector adapters it is compiled (Big Two:
  each game draws from its own xoshiro256** stream inside the step; OFC: ``VectorEnv.sample_legal``
  for every game at once); in the single-game adapters it draws from the env's ``np_random``;
- ``"greedy"`` (Big Two only): the legal play of the smallest action id, the weakest of the
  smallest combos (the `ComboSpace` order), passing only when nothing else is legal;
- a callable ``policy(observation, legal_indptr, legal_ids) -> actions``, batched: called once per
  round with the K games waiting on that seat, their observations (K, ...) and their legal action
  ids as CSR arrays (game k's: ``legal_ids[legal_indptr[k]:legal_indptr[k + 1]]``, ascending),
  returning (K,) integer action ids (the single-game adapters call it with K = 1).

``opponents`` is one policy for every other seat, or a dict giving each other seat its own.
Every seat but ``seat`` (the learner's) is played by its policy until the learner is to act, so
the learner sees only its own turns: ``step`` returns the rewards of every move since its last
one (a game that ended), every seat's in the vector adapters (``rewards[:, seat]`` the
learner's, what ``to_gymnasium()`` returns), the learner's in the single-game ones. In the Big
Two vector adapter a deal the rules decide at once, and under ``step(autoreset="next_step")`` a
game that ended, wait on the learner too (its seat shown to act, the pass alone legal), so
every episode reaches it. A bad policy answer (not an integer array, the wrong shape, an illegal action)
raises TypeError or ValueError naming the game and the seat, and changes nothing."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from handrank._vector_env import chosen_games, game_seeds, same_step

Policy = Union[str, Callable[..., Any]]
# the seat codes of the compiled Big Two opponents (bigtwo/_vector.pyx's OPPONENT_*)
_CALLER, _RANDOM, _GREEDY = 0, 1, 2
_CODES = {"random": _RANDOM, "greedy": _GREEDY}
# the opponents' draws come from their own stream of the seed, never the deals'
_OPPONENT_STREAM = 39


def policies(opponents: Policy | Mapping[int, Policy], seat: Any, players: int,
             named: tuple[str, ...]) -> dict[int, Policy]:
    """Each other seat's policy, checked: `seat` one of the `players`, `opponents` one policy
    (a name of `named` or a callable) or a dict of exactly the other seats."""
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
        raise TypeError(f"seat must be an int, not {type(seat).__name__}")
    if not 0 <= seat < players:
        raise ValueError(f"seat must be 0..{players - 1} (the game has {players} players), got {seat}")
    others = [p for p in range(players) if p != seat]
    if isinstance(opponents, Mapping):
        if sorted(opponents) != others:
            raise ValueError(f"opponents must give a policy to each seat but the learner's "
                             f"({others}), got seats {sorted(opponents)}")
        chosen = {p: opponents[p] for p in others}
    else:
        chosen = dict.fromkeys(others, opponents)
    for p, policy in chosen.items():
        if isinstance(policy, str):
            if policy not in named:
                raise ValueError(f"seat {p}: the policies by name are {named}, got {policy!r}")
        elif not callable(policy):
            raise TypeError(f"seat {p}: a policy is one of {named} or a callable "
                            f"policy(observation, legal_indptr, legal_ids), not {type(policy).__name__}")
    return chosen


def opponent_rng(seed: Any) -> np.random.Generator:
    """The opponents' random stream of an environment seeded by `seed` (an int, a SeedSequence or
    None for fresh entropy): SeedSequence(seed, spawn_key=(39,)), apart from the deals' stream."""
    if isinstance(seed, np.random.SeedSequence):
        return np.random.default_rng(np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key,
                                                                                      _OPPONENT_STREAM)))
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(_OPPONENT_STREAM,)))


def legal_of(step: Any, games: npt.NDArray[np.intp]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """The legal ids of `games` of a `Step` (either legal form) as CSR arrays over those games."""
    if step.legal_mask is not None:
        rows = step.legal_mask[games]
        counts = rows.sum(axis=1)
        ids = np.nonzero(rows)[1].astype(np.int32)
    else:
        starts = step.legal_indptr[games]
        counts = step.legal_indptr[games + 1] - starts
        ids = step.legal_ids[np.repeat(starts - (np.cumsum(counts) - counts), counts) + np.arange(counts.sum())]
    indptr = np.zeros(len(games) + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    return indptr, ids


def answer(policy: Callable[..., Any], seat: int, games: npt.NDArray[np.intp], observation: Any,
           indptr: npt.NDArray[np.int64], ids: npt.NDArray[np.int32]
           ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """`policy`'s actions for `games` (seat `seat` to act in each), checked, and the legal-list
    index of each (its position among the game's ascending legal ids)."""
    acts = np.asarray(policy(observation, indptr, ids))
    if acts.dtype.kind not in "iu":
        raise TypeError(f"seat {seat}'s policy must return integer actions, got dtype {acts.dtype}")
    if acts.shape != (len(games),):
        raise ValueError(f"seat {seat}'s policy must return ({len(games)},) actions, one per game "
                         f"waiting on it, got shape {acts.shape}")
    counts = np.diff(indptr)
    hit = ids == np.repeat(acts, counts)
    legal = np.logical_or.reduceat(hit, indptr[:-1]) if len(ids) else np.zeros(len(games), bool)
    if not legal.all():
        k = int(np.flatnonzero(~legal)[0])
        raise ValueError(f"game {int(games[k])}: seat {seat}'s policy played action {int(acts[k])}, "
                         f"not legal now (not one of the {int(counts[k])} legal ids it was given)")
    return acts.astype(np.int64), np.flatnonzero(hit) - indptr[:-1]


def _check_snapshot(snapshot: Any, keys: set[str]) -> None:
    if not isinstance(snapshot, dict) or set(snapshot) != keys:
        raise TypeError("restore takes what snapshot() returned")


class VectorAgainst:
    """N games of a handrank `VectorEnv` (``env``) with every seat but ``seat`` played by
    ``opponents`` inside `step` (see the module docs): the VectorEnv API (``reset``, ``step``,
    ``sample_legal``, ``to_gymnasium``), every returned game waiting on the learner."""

    def __init__(self, env: Any, opponents: Policy | Mapping[int, Policy], seat: int,
                 named: tuple[str, ...], seed: Any) -> None:
        self.env = env
        self.policies = policies(opponents, seat, env.players, named)
        self._callables = {p: policy for p, policy in self.policies.items() if callable(policy)}
        self.seat = int(seat)
        self.num_envs, self.num_actions, self.players = env.num_envs, env.num_actions, env.players
        self.observation_shape, self.legal = env.observation_shape, env.legal
        self._rng = opponent_rng(seed)

    def reset(self, seed: Any = None, *, games: npt.ArrayLike | None = None) -> Any:
        """The env's `reset` (the same `seed`s: an int, one per game, or None; `games` a bool
        mask of the games to deal), the opponents' moves before the learner's first played;
        `seed` restarts the opponents' stream too."""
        per_game = game_seeds(seed, self.num_envs)            # a bad list fails first
        rng = opponent_rng(per_game if per_game is not None else seed) if seed is not None else None
        with self._unchanged_on_error():
            if rng is not None:
                self._rng = rng
            return self._reset(seed, games)

    def step(self, actions: npt.ArrayLike, *, autoreset: str = "same_step",
             final_observation: bool = False) -> Any:
        """The learner's `actions` (one per game), then the opponents' moves up to its next turn;
        the rewards and ends of all of them. `autoreset` and `final_observation` as the env's
        `step` (under "next_step" a game that ended waits on the learner, whose next action there
        is ignored, its new game dealt and played up to the learner's turn)."""
        same = same_step(autoreset)
        with self._unchanged_on_error():
            return self._step(actions, same, final_observation)

    def snapshot(self) -> dict[str, Any]:
        """The env's `snapshot` and the opponents' random state, for `restore` (a copy)."""
        return {"env": self.env.snapshot(), "opponents": self._rng.bit_generator.state}

    def restore(self, snapshot: dict[str, Any], *, games: npt.ArrayLike | None = None) -> None:
        """Put back what `snapshot` saved: every game, the env's seed stream and the opponents'
        random state, or only the games the bool mask `games` chooses (the streams left as they
        are). The same learner actions then give the same steps."""
        _check_snapshot(snapshot, {"env", "opponents"})
        rng = np.random.default_rng()
        rng.bit_generator.state = snapshot["opponents"]         # a bad state fails first
        self.env.restore(snapshot["env"], games=games)
        if games is None:
            self._rng = rng

    def render(self, game: int = 0) -> str:
        """The env's `render` of game `game`."""
        text: str = self.env.render(game)
        return text

    def sample_legal(self, rng: np.random.Generator | int | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action of the learner in each game (the env's)."""
        result: npt.NDArray[np.int64] = self.env.sample_legal(rng)
        return result

    def to_gymnasium(self, **options: Any) -> Any:
        """This adapter behind the game's Gymnasium vector wrapper (`VectorEnv.to_gymnasium`,
        the same options), whose reward is the learner's unless ``seat``/``rewards`` say
        otherwise."""
        if options.get("rewards", "seat") == "seat":
            options.setdefault("seat", self.seat)
        wrapper = self.env.to_gymnasium(**options)
        wrapper.env = self          # the game's spaces, stepping through the opponents
        return wrapper

    def __repr__(self) -> str:
        names = {p: policy if isinstance(policy, str) else getattr(policy, "__name__", "callable")
                 for p, policy in self.policies.items()}
        return f"against({self.env!r}, seat={self.seat}, opponents={names})"

    # ------------------------------------------------------------------ internals
    @contextmanager
    def _unchanged_on_error(self) -> Iterator[None]:
        """The env's games and the opponents' stream put back when the block raises: a policy's
        bad answer comes after the learner's move and other opponents' moves."""
        state = self._rng.bit_generator.state
        try:
            with self.env._unchanged_on_error():
                yield
        except BaseException:
            self._rng.bit_generator.state = state
            raise

    def _callers(self, step: Any) -> Iterator[tuple[int, Callable[..., Any], npt.NDArray[np.intp]]]:
        """(seat, its callable, the games waiting on it) for each callable seat some game waits on."""
        for p, policy in self._callables.items():
            games = np.flatnonzero(step.current_player == p)
            if games.size:
                yield p, policy, games

    def _reset(self, seed: Any, games: Any) -> Any:
        raise NotImplementedError

    def _step(self, actions: npt.ArrayLike, same: bool, final: bool) -> Any:
        raise NotImplementedError


class BigTwoAgainst(VectorAgainst):
    """`VectorAgainst` over a `bigtwo.vector.VectorEnv`: the learner's moves and the compiled
    opponents' are played in one compiled pass per game (``Core.advance``); a round per callable
    seat follows while some game waits on one."""

    def __init__(self, env: Any, opponents: Policy | Mapping[int, Policy], seat: int, seed: Any) -> None:
        super().__init__(env, opponents, seat, tuple(_CODES), seed)
        self._modes = np.zeros(self.players, dtype=np.int8)
        for p, policy in self.policies.items():
            self._modes[p] = _CODES[policy] if isinstance(policy, str) else _CALLER
        self._streams = self._new_streams()

    def _new_streams(self) -> npt.NDArray[np.uint64]:
        """Each game's xoshiro256** state for its random opponents, from the opponents' stream."""
        streams: npt.NDArray[np.uint64] = self._rng.bit_generator.random_raw((self.num_envs, 4))
        return streams

    def snapshot(self) -> dict[str, Any]:
        """The env's `snapshot`, the opponents' random state and each game's opponent stream."""
        return {**super().snapshot(), "streams": self._streams.copy()}

    def restore(self, snapshot: dict[str, Any], *, games: npt.ArrayLike | None = None) -> None:
        """`VectorAgainst.restore`; the chosen games' opponent streams put back with them."""
        _check_snapshot(snapshot, {"env", "opponents", "streams"})
        streams = snapshot["streams"]
        if not isinstance(streams, np.ndarray) or streams.dtype != np.uint64 or streams.shape != self._streams.shape:
            raise ValueError(f"a snapshot of another adapter (not {self.num_envs} games' opponent streams)")
        super().restore({"env": snapshot["env"], "opponents": snapshot["opponents"]}, games=games)
        if games is None:
            self._streams = streams.copy()
        else:
            chosen = chosen_games(games, self.num_envs).view(bool)
            self._streams = np.where(chosen[:, None], streams, self._streams)

    def _reset(self, seed: Any, games: Any) -> Any:
        streams = self._new_streams() if seed is not None else self._streams
        first = self.env.reset(seed, games=games)
        return self._play(np.full(self.num_envs, -1, dtype=np.int32), first.rewards, streams, True, False,
                          redeal=False)

    def _step(self, actions: npt.ArrayLike, same: bool, final: bool) -> Any:
        index = self.env._legal_index(actions, f"the learner (seat {self.seat})")
        return self._play(index, np.zeros((self.num_envs, self.players), dtype=np.float32), self._streams,
                          same, final)

    def _play(self, index: npt.NDArray[np.int32], rewards: npt.NDArray[np.float32],
              streams: npt.NDArray[np.uint64], same: bool, final: bool, redeal: bool = True) -> Any:
        """Play `index` (legal-list indices, -1: none) and the opponents (random ones drawing
        from `streams`) until every game waits on the learner, adding to `rewards`; a game over
        (left so by a "next_step" call) is dealt again in the first pass only, and not by a
        reset's (`redeal` False)."""
        env = self.env
        streams = streams.copy()            # (the streams kept change only when the call succeeds)
        terminated = np.zeros(self.num_envs, dtype=np.uint8)
        last = np.zeros((self.num_envs, *self.observation_shape), dtype=np.int8) if final else None
        while True:
            out = env._outputs()
            keep = env._mask_synced             # (the dense rows cleared entry by entry, as env.step)
            env._split(lambda a, b: env._core.advance(a, b, index, self.seat, self._modes, streams,
                                                      rewards, terminated, *out, same, redeal, last, keep))
            env._mask_synced = True
            step = env._result(out, rewards, terminated.view(bool), last)
            waiting = list(self._callers(step))
            if not waiting:
                self._streams = streams
                return step
            index = np.full(self.num_envs, -1, dtype=np.int32)
            redeal = False
            for p, policy, games in waiting:
                index[games] = answer(policy, p, games, step.observation[games], *legal_of(step, games))[1]


class OFCAgainst(VectorAgainst):
    """`VectorAgainst` over an `ofc.vector.VectorEnv`, whose games move in step (every hand of
    the table takes the same turns in the same order), so each opponent's turn is one
    ``VectorEnv.step`` of every game."""

    def __init__(self, env: Any, opponents: Policy | Mapping[int, Policy], seat: int, seed: Any) -> None:
        super().__init__(env, opponents, seat, ("random",), seed)

    def restore(self, snapshot: dict[str, Any], *, games: npt.ArrayLike | None = None) -> None:
        """`VectorAgainst.restore` of every hand at once (its hands move in step)."""
        if games is not None:
            raise ValueError("ofc.vector.against restores every hand at once (restore(snapshot)): its "
                             "hands move in step, each opponent's turn one step of every hand")
        super().restore(snapshot)

    def _reset(self, seed: Any, games: Any) -> Any:
        if games is not None:
            raise ValueError("ofc.vector.against resets every hand at once (reset(games=None)): its "
                             "hands move in step, each opponent's turn one step of every hand")
        first = self.env.reset(seed)
        return self._play(first, first.rewards.copy(), first.terminated.copy(), True, False)

    def _step(self, actions: npt.ArrayLike, same: bool, final: bool) -> Any:
        mode = "same_step" if same else "next_step"
        step = self.env.step(actions, autoreset=mode, final_observation=final)
        return self._play(step, step.rewards.copy(), step.terminated.copy(), same, final)

    def _play(self, step: Any, rewards: npt.NDArray[np.float32], ended: npt.NDArray[np.bool_],
              same: bool, final: bool) -> Any:
        """The opponents' turns until the learner's, or (under "next_step") until the hands end."""
        games = np.arange(self.num_envs)
        mode = "same_step" if same else "next_step"
        last = step.final_observation
        while int(step.current_player[0]) != self.seat and (same or not ended.all()):
            p = int(step.current_player[0])
            policy = self.policies[p]
            if callable(policy):
                acts = answer(policy, p, games, step.observation, *legal_of(step, games))[0]
            else:
                acts = self.env.sample_legal(self._rng)
            step = self.env.step(acts, autoreset=mode, final_observation=final)
            rewards += step.rewards
            if final:
                last = np.where(step.terminated.reshape(-1, *[1] * (last.ndim - 1)), step.final_observation, last)
            ended |= step.terminated
        return replace(step, rewards=rewards, terminated=ended, final_observation=last)
