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
- ``terminated`` (N,) bool: the hand ended on this step; ``truncated`` (N,) bool: always False;
- ``final_observation`` (N, 14, 52) int8 or None (``step(..., final_observation=True)``): row i
  the end of hand i, as the player who acted last sees it, where it ended on this step.

By default (``step(actions, autoreset="same_step")``, Gymnasium's ``AutoresetMode.SAME_STEP``) a
hand that ends is replaced in the same step: its rewards and ``terminated`` are reported, and its
observation and legal actions are already those of the next hand. With ``autoreset="next_step"``
the ended hand's last observation is returned (its only legal action 0) and the next ``step``
deals the new hand there, ignoring the action given for it. Hands are dealt from one seeded
stream: hand number h (counted from the reset, in the order dealt) is shuffled from its own
stream of (seed, h), so the same seed and actions give the same arrays whatever ``threads`` is;
``reset(seed=[...])`` gives each game its own seed instead (its k-th hand from (seed[i], k)).
``reset(games=mask)`` deals only the chosen games, ``snapshot()`` / ``restore()`` save and put
back the games (pickling and ``copy.deepcopy`` work through them), ``render(game)`` draws one.
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
from handrank._vector_env import chosen_games, game_index, game_seeds, rebuild, same_step
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
    final_observation: npt.NDArray[np.int8] | None = None     # (N, 14, 52) when asked for


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
        if isinstance(seed, (list, tuple, np.ndarray)):
            raise TypeError("the constructor's seed is one int (or None); reset(seed=[...]) seeds each game")
        self._seed = _seed_key(seed)
        self._key = self._seed
        self._hands = 0                   # hands dealt from the shared stream since its reset
        # games seeded one by one (reset(seed=[...])): their own keys and hands dealt; the arrays
        # are replaced, never written in place, so that _unchanged_on_error keeps references
        self._shared = np.ones(num_envs, dtype=np.bool_)
        self._keys = np.zeros(num_envs, dtype=np.uint64)
        self._dealt = np.zeros(num_envs, dtype=np.uint64)
        self._started = False
        self._options = {"rules": self.rules, "players": players, "threads": self.threads, "legal": legal,
                         "button": button, "fantasyland": fantasyland}
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

    def reset(self, seed: int | list[int] | np.random.SeedSequence | None = None, *,
              games: npt.ArrayLike | None = None) -> Step:
        """Deal a new hand in every game, or in the games the bool mask `games` chooses (the
        others go on as they are; the Step shows every game, rewards 0, none terminated). With
        an int `seed` (or a SeedSequence), the hands are those of that seed from the start;
        with a list of one int per game, game i's hands are its own seed's, (seed[i], k) for
        its k-th hand; without, the first reset uses the constructor's seed and a later one
        goes on with new hands of the stream (each chosen game's own, with `games`)."""
        n = self.num_envs
        per_game = game_seeds(seed, n)
        key = _seed_key(seed) if seed is not None and per_game is None else None  # a bad seed fails first
        chosen = chosen_games(games, n).view(np.bool_)
        if not self._started and games is not None:
            raise RuntimeError("the first reset() deals every game: call it without games=")
        with self._unchanged_on_error():
            if per_game is not None:
                self._keys = np.where(chosen, np.array([_seed_key(s) for s in per_game], dtype=np.uint64),
                                      self._keys)
                self._dealt = np.where(chosen, np.uint64(0), self._dealt)
                self._shared = self._shared & ~chosen
            restart = key is not None or not self._started
            if per_game is None and (restart or games is None):
                self._key = key if key is not None else self._key if self._started else self._seed
                self._shared = self._shared | chosen
            obs, mask, current = self._outputs()
            if games is not None:
                self._core.look(np.flatnonzero(~chosen), obs, mask.view(np.uint8), current)
            self._deal(np.flatnonzero(chosen), obs, mask, current, restart=per_game is None and restart)
            rewards = np.zeros((n, self.players), dtype=np.float32)
            ended = np.zeros(n, dtype=np.bool_)
            result = self._result(obs, mask, current, rewards, ended)
            self._started = True
        return result

    def step(self, actions: npt.ArrayLike, *, autoreset: str = "same_step",
             final_observation: bool = False) -> Step:
        """Make actions[i] (an action id of `ofc.actions`) for the player to act in game i; a
        hand that ends is dealt again in this step (``autoreset="same_step"``) or left over, to
        be dealt by the next step, which ignores its action (``"next_step"``);
        `final_observation` asks for the ended hands' last observations. ValueError for the
        wrong shape or naming the first bad game (out of range, not legal), TypeError for an
        array not of integers. Any exception (those, a KeyboardInterrupt, a MemoryError) leaves
        every game as it was before the call."""
        same = same_step(autoreset)
        if not self._started:
            raise RuntimeError("call reset() before step()")
        over = self._core.turn_array < 0            # hands left over by a next-step call
        chosen = self._checked(actions, over)
        with self._unchanged_on_error():
            obs, mask, current = self._outputs()
            done = np.zeros(self.num_envs, dtype=np.uint8)
            playing = self._games
            if over.any():
                self._deal(np.flatnonzero(over), obs, mask, current)
                playing = np.flatnonzero(~over)
            _over_games(partial(self._core.step, actions=chosen, obs=obs, mask=mask.view(np.uint8),
                                current=current, done=done), playing, self.threads)
            ended = done.view(np.bool_)
            final = np.where(ended[:, None, None], obs, np.int8(0)) if final_observation else None
            rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
            games = np.flatnonzero(ended)
            if games.size:
                rewards[games] = self._values(games)
                if same:
                    self._deal(games, obs, mask, current)
            return self._result(obs, mask, current, rewards, ended, final)

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

    def render(self, game: int = 0) -> str:
        """Hand `game` as text, the lines the PettingZoo environment's ``render`` prints: who
        acts (street, cards dealt), then every board, top / middle / bottom."""
        from handrank.cards import hand_str
        i = game_index(game, self.num_envs)
        if not self._started:
            raise RuntimeError("call reset() before render()")
        player, street, dealt = self._core.state(i)
        if player < 0:
            state = "over (the next step deals its new hand)"
        else:
            state = f"player_{player} to act, street {street + 1}, dealt {hand_str(list(dealt))}"
        lines = [f"ofc.VectorEnv game {i} of {self.num_envs} ({self.rules.name}): {state}"]
        filled = self._core.save()[4][i]
        boards = self._core.board_array[i]
        for p in range(self.players):
            rows = [hand_str(boards[p, start:start + int(filled[p, r])].tolist()) or "-"
                    for r, start in enumerate((0, 3, 8))]
            lines.append(f"player_{p}: " + " / ".join(rows))
        return "\n".join(lines)

    def snapshot(self) -> dict[str, Any]:
        """Every game's state and the deals' streams, for `restore` (a copy)."""
        return {"games": self._core.save(), "seed": self._seed, "key": self._key, "hands": self._hands,
                "shared": self._shared, "keys": self._keys, "dealt": self._dealt, "started": self._started}

    def restore(self, snapshot: dict[str, Any], *, games: npt.ArrayLike | None = None) -> None:
        """Put back the games a `snapshot` of this env saved: all of them and the streams, or
        only those the bool mask `games` chooses (with their own streams; the shared stream
        left as it is). The same actions then give the same steps."""
        if not isinstance(snapshot, dict) or "games" not in snapshot:
            raise TypeError("restore takes what snapshot() returned")
        saved = snapshot["games"]
        current = self._core.save()
        if len(saved) != len(current) or any(a.shape != b.shape for a, b in zip(saved, current)):
            raise ValueError(f"a snapshot of another env (not {self.num_envs} games of {self.players} players)")
        if games is not None:
            chosen = chosen_games(games, self.num_envs).view(np.bool_)
            for now, then in zip(current, saved):
                now[chosen] = then[chosen]
            self._core.restore(current)
            for name in ("shared", "keys", "dealt"):
                setattr(self, "_" + name, np.where(chosen, snapshot[name], getattr(self, "_" + name)))
            return
        self._core.restore(saved)
        self._seed, self._key, self._hands = snapshot["seed"], snapshot["key"], snapshot["hands"]
        self._shared, self._keys, self._dealt = snapshot["shared"], snapshot["keys"], snapshot["dealt"]
        self._started = snapshot["started"]

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuild, (type(self), self.num_envs, self._options, self.snapshot())

    def to_gymnasium(self, *, seat: int | None = None, rewards: str = "seat", autoreset_mode: Any = None,
                     render_mode: str | None = None) -> Any:
        """This environment as a ``gymnasium.vector.VectorEnv`` (extra ``rl``): see
        ``handrank._gym_vector``: observations (N, 14, 52) and masks (N, 1024) int8 (under
        ``legal="compact"`` no mask: the ids in ``infos["legal_indptr"]`` and
        ``infos["legal_ids"]``, a dense mask from ``action_masks()``), the reward
        of seat `seat` (None: seat 0), or with ``rewards="all"`` every seat's, (N, players),
        every seat's in ``infos["rewards"]`` too; `autoreset_mode` Gymnasium's
        ``AutoresetMode.NEXT_STEP`` (None, the default) or ``SAME_STEP`` (with ``final_obs`` and
        ``final_info`` in ``infos``); `render_mode` None or "ansi"."""
        from handrank._gym_vector import GymVectorEnv
        return GymVectorEnv(self, seat=seat, rewards=rewards, autoreset_mode=autoreset_mode,
                            render_mode=render_mode)

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
        streams = self._shared, self._keys, self._dealt
        try:
            yield
        except BaseException:
            self._core.restore(saved)
            self._key, self._hands = key, hands
            self._shared, self._keys, self._dealt = streams
            raise

    def _outputs(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_], npt.NDArray[np.int8]]:
        n = self.num_envs
        return (np.empty((n, PLANES, 52), dtype=np.int8), np.empty((n, NUM_ACTIONS), dtype=np.bool_),
                np.empty(n, dtype=np.int8))

    def _deal(self, games: npt.NDArray[np.int64], obs: npt.NDArray[np.int8],
              mask: npt.NDArray[np.bool_], current: npt.NDArray[np.int8], restart: bool = False) -> None:
        """New hands in `games`: the next hand numbers of the shared stream (of each game's own
        for a game seeded alone), the Fantasyland boards solved, the first player to act
        observed. `restart`: the shared stream starts again, game i dealt hand number i (what
        a reset of every game deals it), the next hand number N."""
        shared = self._shared[games]
        keys = np.full(games.size, self._key, dtype=np.uint64)
        hands = np.empty(games.size, dtype=np.uint64)
        count = int(shared.sum())
        if restart:
            hands[shared] = games[shared]
            self._hands = self.num_envs
        else:
            hands[shared] = np.arange(self._hands, self._hands + count, dtype=np.uint64)
            self._hands += count
        if count < games.size:
            own = games[~shared]
            keys[~shared] = self._keys[own]
            hands[~shared] = self._dealt[own]
            dealt = self._dealt.copy()
            dealt[own] += np.uint64(1)
            self._dealt = dealt
        self._core.shuffle(keys, games, hands)
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

    def _checked(self, actions: npt.ArrayLike, over: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.int64]:
        """The actions as int64, checked legal; a hand over (`over`) takes action 0 whatever is
        given (it is dealt again, its action ignored)."""
        n = self.num_envs
        arr = np.asarray(actions)
        if arr.shape != (n,):
            raise ValueError(f"actions must have shape ({n},), one per game, got {arr.shape}")
        if arr.dtype.kind not in "iu":
            raise TypeError(f"actions must be an integer array, got dtype {arr.dtype}")
        if arr.dtype.kind == "u":
            arr = np.minimum(arr, NUM_ACTIONS)      # (out of range either way; no wrap to negative)
        chosen = np.ascontiguousarray(arr, dtype=np.int64)
        if over is not None and over.any():
            chosen = chosen.copy()
            chosen[over] = 0
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
                ended: npt.NDArray[np.bool_], final: npt.NDArray[np.int8] | None = None) -> Step:
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        if self.legal == "dense":
            return Step(obs, current, mask, None, None, rewards, ended, truncated, final)
        counts = np.empty(self.num_envs, dtype=np.int64)
        self._core.counts(counts)
        indptr = np.zeros(self.num_envs + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        ids = np.empty(int(indptr[-1]), dtype=np.int32)
        self._core.write_ids(indptr, ids)
        return Step(obs, current, None, indptr, ids, rewards, ended, truncated, final)


def _over_games(kernel: Callable[[npt.NDArray[np.int64]], int], games: Any, threads: int) -> None:
    """kernel(games[a:b]) over slices of `games`, `threads` at a time (the GIL released inside:
    each game index belongs to one slice, so no two threads touch one game)."""
    _batch.run(kernel, games, (), threads)


@lru_cache(maxsize=1)
def _legal_tables() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """The legal actions of every (street kind, free slots) case: masks (cases, 1024), the ids
    (cases, 243) and their counts, from `ofc.actions.legal` (the scalar game's own table)."""
    cases = len(_vector.KINDS) * 144 + 1     # the last: a hand over, action 0 alone (_vector's over case)
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
    masks[-1, 0], counts[-1] = 1, 1
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
