"""Big Two for reinforcement learning at batch speed: N independent games stepped together in
compiled code (issue 32), the shape Pgx gives turn-based games.

``VectorEnv(n, rules=..., players=4, seed=..., threads=..., legal="dense" | "compact")``;
``reset(seed)`` and ``step(actions)`` return a `Step` of numpy arrays over the N games: the
observation of the player to act (the PettingZoo environment's encoding, `handrank.bigtwo.env`),
who acts, the legal actions (a dense mask, or the legal action ids as CSR arrays), every player's
rewards, and the ends. Action ids are those of the rules' `ComboSpace` (0: pass), as in the
PettingZoo environment, so a policy trained on one plays the other.

A game that ends in a step reports its payments (`Game.payments`) in that step's ``rewards``
with ``terminated`` set. By default (``step(actions, autoreset="same_step")``, Gymnasium's
``SAME_STEP``) the observation and legal actions returned are already those of the next game,
dealt from the game's own seeded stream; with ``autoreset="next_step"`` they are the ended game's
last, and the next ``step`` deals its new game there, ignoring the action given for it (rewards
0, not terminated). A deal the rules decide at once (four 2s under ``four_twos`` "win" or "draw",
a ``dragun``) is a game of one step: dealt, it offers the pass (action 0) alone, and that step
ends it with its payments (a "draw" pays nothing), so it is an episode like any other.

``reset(seed)`` takes an int (game i dealt from stream i of the seed), a list of one int per game
(game i from its own seed alone: equal seeds deal equal games) or None, and ``games=`` (a bool
mask) deals only the chosen games. ``snapshot()`` / ``restore(snapshot)`` save and put back every
game (or chosen ones), pickling and ``copy.deepcopy`` work through them, and ``render(game)``
draws one game as text.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from handrank import _batch
from handrank._vector_env import chosen_games, game_index, game_seeds, rebuild, same_step
from handrank.bigtwo import _vector
from handrank.bigtwo.actions import ComboSpace
from handrank.bigtwo.combo import RulesLike, context
from handrank.bigtwo.follow import _strengths, plain
from handrank.bigtwo.game import _weakest_first, deal_generator, player_count
from handrank.bigtwo.rules import FOUR_TWOS, LAST_PLAYS, PASSINGS, FIVE_CARD_MATCHES, Kind, Rules

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["VectorEnv", "Step", "OBSERVATION_SIZE", "against"]

#: entries of an observation (handrank.bigtwo.env.SIZE)
OBSERVATION_SIZE = 164
# games per thread below which one more thread is not worth handing work to
_GAMES_PER_THREAD = 256
_LEGAL_FORMS = ("dense", "compact")
# the most games one env holds, checked before anything is allocated: a step's arrays take a few
# kilobytes per game (tens under a Big Two dense mask), so more would not fit in any memory
MAX_ENVS = 1 << 24


@dataclass(frozen=True)
class Step:
    """What `VectorEnv.reset` and `VectorEnv.step` return, arrays over the N games.

    - ``observation`` (N, 164) int8: the player to act's view (handrank.bigtwo.env's layout);
    - ``current_player`` (N,) int8: who acts next in each game;
    - ``legal_mask`` (N, actions) bool, or None under ``legal="compact"``: the env's own buffer,
      rewritten by the next ``reset`` or ``step`` (copy it to keep it; a new (N, 19,899) array
      every step cost more than the step);
    - ``legal_indptr`` (N + 1,) int64 and ``legal_ids`` (M,) int32: game i's legal actions,
      ascending, are ``legal_ids[legal_indptr[i]:legal_indptr[i + 1]]`` (None under "dense");
    - ``rewards`` (N, players) float32: zero except where a game ended (its payments);
    - ``terminated`` (N,) bool: the game ended in this step (under ``autoreset="same_step"``
      the arrays above already show the next one); ``truncated`` (N,) bool: always False (a game
      of Big Two always ends);
    - ``final_observation`` (N, 164) int8 or None: asked for by ``step(...,
      final_observation=True)``, row i the observation at the end of game i where it ended
      in this step (of the seat that made the last move), zero elsewhere.
    """
    observation: npt.NDArray[np.int8]
    current_player: npt.NDArray[np.int8]
    legal_mask: npt.NDArray[np.bool_] | None
    legal_indptr: npt.NDArray[np.int64] | None
    legal_ids: npt.NDArray[np.int32] | None
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    final_observation: npt.NDArray[np.int8] | None = None


class VectorEnv:
    """N games of Big Two under one ruleset, stepped together without the GIL.

    ``num_envs`` games; ``rules`` a `bigtwo.Rules`, a preset name or None (hk); ``players`` 2 to 4,
    each dealt 13 cards (with fewer than 4 players the rest is the stock of
    ``rules.draw_on_pass``, else unused); ``seed`` the default of the first `reset`; ``threads``
    how many threads step the games (None: one per 256 games, at most one per core);
    ``legal``: "dense" (a mask over the `ComboSpace`) or "compact" (CSR arrays of the legal ids).

    Every rule field that changes play is followed, except the long runs (``long_straights``,
    ``dragon``), refused as the PettingZoo environment refuses them (tens of millions of actions
    per mask). Rules of `bigtwo.Match` only (``scoring``, ``winner_leads_next``,
    ``president_*``, ``play_out_lead``) do not touch one game: rewards are `Game.payments`."""

    def __init__(self, num_envs: int, *, rules: RulesLike = None, players: int = 4, seed: int | None = None,
                 threads: int | None = None, legal: str = "dense") -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise TypeError(f"num_envs must be an int, not {type(num_envs).__name__}")
        if not 1 <= num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs must be 1..{MAX_ENVS:,} (each game's arrays take kilobytes), "
                             f"got {num_envs}")
        if legal not in _LEGAL_FORMS:
            raise ValueError(f"legal must be one of {_LEGAL_FORMS}, got {legal!r}")
        self.num_envs = int(num_envs)
        self.players = player_count(players)
        self.rules: Rules = context(rules).rules
        self.legal = legal
        self.threads = _thread_count(threads, self.num_envs)
        _check_supported(self.rules, self.players)
        smack = self.rules.smack_down
        self.space = ComboSpace(self.rules, 13 if smack else None)
        #: the number of actions (the pass included)
        self.num_actions: int = self.space.size
        self.observation_shape: tuple[int] = (OBSERVATION_SIZE,)
        self._core = _build_core(self.num_envs, self.rules, self.players, self.space)
        if isinstance(seed, (list, tuple, np.ndarray)):
            raise TypeError("the constructor's seed is one int (or None); reset(seed=[...]) seeds each game")
        self._seeds = deal_generator(seed)      # checked now: a bad seed fails here
        self._started = False
        # legal="dense": the (N, actions) mask buffer every call writes (allocated at the first),
        # and whether its rows hold the games' legal sets now, so that a step clears only those
        # entries rather than every row's whole ComboSpace
        self._mask: npt.NDArray[np.uint8] | None = None
        self._mask_synced = False
        # what rebuilds this env when unpickled (the seed stream comes back with the snapshot)
        self._options = {"rules": self.rules, "players": self.players, "threads": self.threads, "legal": legal}

    # ------------------------------------------------------------------ the API
    def reset(self, seed: int | list[int] | None = None, *, games: npt.ArrayLike | None = None) -> Step:
        """Deal a new game in every env, or in the games the bool mask `games` chooses (the
        others go on as they are; the Step shows every game, rewards 0, none terminated).

        `seed`: an int >= 0 reseeds every chosen game (game i from stream i of the seed: the
        same seed deals the same games); a list of one int per game seeds each game on its own
        (game i from seed[i] alone, stream 0: equal seeds deal equal games); None: without
        `games`, every game reseeded from the stream the constructor's seed (or the last int
        seed) started, with `games`, the chosen games' next deals of their own streams (the
        deals an autoreset would give them)."""
        n = self.num_envs
        per_game = game_seeds(seed, n)
        # an int (or Generator) seed: a bad one fails first
        stream = deal_generator(cast(Any, seed)) if seed is not None and per_game is None else None
        chosen = chosen_games(games, n)
        if not self._started and games is not None:
            raise RuntimeError("the first reset() deals every game: call it without games=")
        with self._unchanged_on_error():
            reseed = seed is not None or games is None
            if per_game is not None:
                seeds = np.array([deal_generator(s).integers(0, 2**63) for s in per_game], dtype=np.uint64)
                streams = np.zeros(n, dtype=np.uint64)
            else:
                if stream is not None:
                    self._seeds = stream
                game_seed = int(self._seeds.integers(0, 2**63)) if reseed else 0
                seeds, streams = np.full(n, game_seed, dtype=np.uint64), np.arange(n, dtype=np.uint64)
            out = self._outputs()

            def work(a: int, b: int) -> None:
                self._core.reset(a, b, seeds, streams, chosen, reseed)
                self._core.write(a, b, *out[:3], out[3])
            self._split(work)
            result = self._result(out, np.zeros((n, self.players), dtype=np.float32), np.zeros(n, dtype=bool))
            self._started = True
            self._mask_synced = True
        return result

    def step(self, actions: npt.ArrayLike, *, autoreset: str = "same_step",
             final_observation: bool = False) -> Step:
        """Play one action in every game (a legal action id of the player to act); games that
        end are dealt again in this step (``autoreset="same_step"``) or left ended, to be dealt
        by the next step, which ignores their actions (``"next_step"``; see the module docs);
        `final_observation` asks for the ended games' last observations
        (``Step.final_observation``). A bad action raises ValueError naming the first game it
        is bad for; after any exception (a KeyboardInterrupt, a MemoryError too) no game has
        changed."""
        same = same_step(autoreset)
        index = self._legal_index(actions)
        with self._unchanged_on_error():
            rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
            terminated = np.zeros(self.num_envs, dtype=np.uint8)
            out = self._outputs()
            final = np.zeros((self.num_envs, OBSERVATION_SIZE), dtype=np.int8) if final_observation else None
            keep = self._mask_synced
            self._split(lambda a, b: self._core.step(a, b, index, rewards, terminated, *out, same, final, keep))
            self._mask_synced = True
            return self._result(out, rewards, terminated.view(bool), final)

    def _legal_index(self, actions: npt.ArrayLike, mover: str | None = None) -> npt.NDArray[np.int32]:
        """Each game's action as its index in the game's legal list; a bad action raises
        ValueError naming the first game it is bad for and `mover` (default: the player to act)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = self._checked(actions)
        index = np.empty(self.num_envs, dtype=np.int32)
        bad = self._core.check(acts, index)
        if bad >= 0:
            mover = mover or f"player {self._core.turn(bad)}"
            raise ValueError(f"game {bad}: action {int(acts[bad])} is not legal for {mover} now "
                             "(see the legal actions)")
        return index

    def sample_legal(self, rng: np.random.Generator | int | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action of each game, (N,) int64, drawn from `rng` (a numpy
        Generator, or a seed for one). (Each game's pick is entry floor(u * count / 2**32) of its
        ascending legal ids for a uniform 32-bit u: uniform within 2**-32.)"""
        if not self._started:
            raise RuntimeError("call reset() before sample_legal()")
        if not isinstance(rng, np.random.Generator):
            rng = np.random.default_rng(rng)
        draws = rng.integers(0, 2**32, self.num_envs, dtype=np.uint32)
        out = np.empty(self.num_envs, dtype=np.int64)
        self._core.sample(draws, out)
        return out

    def hands(self, game: int) -> tuple[list[list[int]], list[int]]:
        """Game `game`'s hands now (sorted card ids, one list per player) and the stock left (top
        card first; empty without ``rules.draw_on_pass``): what `bigtwo.Game(hands=...,
        undealt=...)` takes to replay a game dealt here."""
        i = game_index(game, self.num_envs)
        if not self._started:
            raise RuntimeError("call reset() first")
        hands, stock = self._core.hands(i)
        return hands, stock

    def render(self, game: int = 0) -> str:
        """Game `game` as text, the lines the PettingZoo environment's ``render`` prints: who
        acts, the play to beat, every hand (and the stock left)."""
        from handrank.cards import hand_str
        i = game_index(game, self.num_envs)
        if not self._started:
            raise RuntimeError("call reset() before render()")
        n = self.num_envs
        obs, player, counts = np.empty((n, OBSERVATION_SIZE), np.int8), np.empty(n, np.int8), np.empty(n, np.int64)
        self._core.write(i, i + 1, obs, player, counts)
        over = np.empty(n, dtype=np.uint8)
        self._core.over(over)
        owed = self._core.pending(i)
        if over[i]:
            state = "over (the next step deals its new game)"
        elif owed is not None:
            state = f"decided at the deal: its one step (the pass) pays {owed}"
        else:
            state = f"player_{int(player[i])} to act, {int(counts[i])} legal actions"
        lines = [f"bigtwo.VectorEnv game {i} of {n}: {state}"]
        trick = np.flatnonzero(obs[i, 52:104])
        if trick.size and not over[i]:
            lines.append(f"to beat: {hand_str(trick.tolist())}")
        hands, stock = self._core.hands(i)
        lines += [f"player_{p}: {hand_str(hand)}" for p, hand in enumerate(hands)]
        if stock:
            lines.append(f"stock: {len(stock)} cards")
        return "\n".join(lines)

    def snapshot(self) -> dict[str, Any]:
        """Every game's state and the seed stream's, for `restore` (a copy: later steps leave it
        as it is)."""
        return {"games": self._core.save(), "seeds": self._seeds.bit_generator.state, "started": self._started}

    def restore(self, snapshot: dict[str, Any], *, games: npt.ArrayLike | None = None) -> None:
        """Put back the games a `snapshot` of this env saved: all of them and the seed stream, or
        only those the bool mask `games` chooses (the stream then left as it is). The same
        actions then give the same steps."""
        if not isinstance(snapshot, dict) or set(snapshot) != {"games", "seeds", "started"}:
            raise TypeError("restore takes what snapshot() returned")
        saved = np.frombuffer(snapshot["games"], dtype=np.uint8)
        if saved.size % self.num_envs or saved.size == 0:
            raise ValueError(f"a snapshot of another env (not {self.num_envs} games)")
        if games is not None:
            chosen = chosen_games(games, self.num_envs).view(bool)
            merged = np.frombuffer(self._core.save(), dtype=np.uint8).reshape(self.num_envs, -1).copy()
            merged[chosen] = saved.reshape(self.num_envs, -1)[chosen]
            self._core.restore(merged.reshape(-1))
            self._mask_synced = False
            return
        seeds = np.random.default_rng()
        seeds.bit_generator.state = snapshot["seeds"]
        self._core.restore(saved)
        self._seeds, self._started = seeds, bool(snapshot["started"])
        self._mask_synced = False

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuild, (type(self), self.num_envs, self._options, self.snapshot())

    def to_gymnasium(self, *, seat: int | None = None, rewards: str = "seat", autoreset_mode: Any = None,
                     render_mode: str | None = None) -> Any:
        """This environment as a `gymnasium.vector.VectorEnv` (extra ``handrank[rl]``).

        Its observations are dicts of ``observation`` (N, 164) int8 and (under ``legal="dense"``)
        ``action_mask`` (N, actions) int8, the PettingZoo environment's spaces batched
        (``single_observation_space``, ``single_action_space``: Discrete over the ComboSpace);
        under ``legal="compact"`` the legal ids are in ``infos`` (``legal_indptr``,
        ``legal_ids``) and ``action_masks()`` builds the dense bool mask on demand; ``step``
        returns seat `seat`'s reward (None: seat 0), (N,), or with ``rewards="all"`` every
        seat's, (N, players) (which Gymnasium's own wrappers do not take); ``infos`` holds
        ``rewards`` (every seat's) and ``current_player``; `autoreset_mode` is Gymnasium's
        ``AutoresetMode.NEXT_STEP`` (None, the default) or ``SAME_STEP`` (``infos`` then carry
        ``final_obs`` and ``final_info``), in ``metadata["autoreset_mode"]``; `render_mode`
        None or "ansi" (``render()`` returns game 0 as text)."""
        from handrank._gym_vector import GymVectorEnv
        return GymVectorEnv(self, observation_high=self._observation_high(), seat=seat, rewards=rewards,
                            autoreset_mode=autoreset_mode, render_mode=render_mode)

    def _observation_high(self) -> npt.NDArray[np.int8]:
        high = np.ones(OBSERVATION_SIZE, dtype=np.int8)
        # the cards a hand holds: 13 dealt, and under draw_on_pass the whole stock drawn on top
        high[156:160] = 13 + (52 - 13 * self.players if self.rules.draw_on_pass else 0)
        return high

    def __repr__(self) -> str:
        return (f"bigtwo.VectorEnv({self.num_envs} games, players={self.players}, legal={self.legal!r}, "
                f"threads={self.threads}, {self.num_actions} actions)")

    # ------------------------------------------------------------------ internals
    @contextmanager
    def _unchanged_on_error(self) -> Iterator[None]:
        """Put every game (and the seed stream) back as it was when the block raises anything: a
        step stopped half-way has moved some games and dealt some new ones."""
        saved, seeds = self._core.save(), self._seeds
        stream = seeds.bit_generator.state
        try:
            yield
        except BaseException:
            self._core.restore(saved)
            seeds.bit_generator.state = stream
            self._seeds = seeds
            self._mask_synced = False           # (the mask rows may be half written)
            raise

    def _checked(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        arr = np.asarray(actions)
        if arr.dtype.kind not in "iu":
            raise TypeError(f"actions must be an integer array, got dtype {arr.dtype}")
        if arr.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {arr.shape}")
        outside = (arr < 0) | (arr >= self.num_actions)
        if outside.any():
            game = int(np.flatnonzero(outside)[0])
            raise ValueError(f"game {game}: action {int(arr[game])} is outside 0..{self.num_actions - 1}")
        return np.ascontiguousarray(arr, dtype=np.int64)

    def _split(self, work: Any) -> None:
        """work(a, b) over the games, split into `threads` ranges run at once."""
        n, threads = self.num_envs, self.threads
        if threads <= 1:
            work(0, n)
            return
        bounds = [n * i // threads for i in range(threads + 1)]
        _batch.share(lambda i: work(bounds[i], bounds[i + 1]), threads, threads)

    def _outputs(self) -> tuple[Any, Any, Any, Any]:
        """The arrays of a step: new observations, players, legal counts, and the env's mask
        buffer (None under legal="compact"): a new (N, 19,899) array every step cost its
        allocation and the clearing of every row; the buffer's rows are cleared entry by entry."""
        n = self.num_envs
        if self.legal == "dense" and self._mask is None:
            self._mask = np.zeros((n, self.num_actions), dtype=np.uint8)
        return (np.empty((n, OBSERVATION_SIZE), dtype=np.int8), np.empty(n, dtype=np.int8),
                np.empty(n, dtype=np.int64), self._mask)

    def _result(self, out: tuple[Any, Any, Any, Any], rewards: npt.NDArray[np.float32],
                terminated: npt.NDArray[np.bool_], final: npt.NDArray[np.int8] | None = None) -> Step:
        obs, player, counts, mask = out
        n = self.num_envs
        indptr = ids = None
        if mask is None:
            # the ids are a copy of a few bytes per game: one thread, after the prefix sum
            indptr = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(counts, out=indptr[1:])
            ids = np.empty(int(indptr[-1]), dtype=np.int32)
            self._core.write_ids(0, n, indptr, ids)
        return Step(obs, player, None if mask is None else mask.view(bool), indptr, ids, rewards, terminated,
                    np.zeros(n, dtype=bool), final)


def _thread_count(threads: int | None, n: int) -> int:
    if threads is None:
        return max(1, min(_batch.cpu_count(), n // _GAMES_PER_THREAD))
    return _batch.thread_count(threads, n)


def _check_supported(rules: Rules, players: int) -> None:
    """Refuse what the compiled games do not play (and the fixed action space cannot carry)."""
    for field in ("long_straights", "dragon"):
        if getattr(rules, field):
            raise ValueError(f"bigtwo.VectorEnv does not take Rules.{field}: its runs add tens of "
                             "millions of actions to the space (as the PettingZoo environment)")
    if rules.smack_down and rules.draw_on_pass and players < 4:
        raise ValueError("bigtwo.VectorEnv takes Rules.smack_down only where a hand holds at most 13 "
                         "cards: with rules.draw_on_pass a hand may draw the stock (as the PettingZoo "
                         "environment)")


def _kind_field(rules: Rules, kind: Kind) -> int:
    """The key's kind field (1-based position among the five-card kinds) of `kind`; 0: none."""
    kinds = rules.five_card_kinds
    return kinds.index(kind) + 1 if kind in kinds else 0


def _build_core(n: int, rules: Rules, players: int, space: ComboSpace) -> Any:
    bomb = rules.replace(twos_low=True) if rules.dealt_bomb else None
    variants = (rules, bomb if bomb is not None else rules)
    facts = {
        "players": players, "step": 1 if rules.direction == "clockwise" else -1, "per_player": 13,
        "passing": PASSINGS.index(rules.passing), "draw": rules.draw_on_pass and players < 4,
        "last_play": LAST_PLAYS.index(rules.last_play), "highest": tuple(r.highest_card for r in variants),
        "four_twos": FOUR_TWOS.index(rules.four_twos), "dragun": rules.dragun,
        "opening_alone": rules.opening == "alone", "three_threes": rules.three_threes_force,
        "dealt_bomb": rules.dealt_bomb, "plain": plain(rules), "bombs_beat_small": rules.bombs_beat_small,
        "four_beats_all": rules.four_beats_all, "smack_down": rules.smack_down,
        "five_card_match": FIVE_CARD_MATCHES.index(rules.five_card_match),
        "four_kind": _kind_field(rules, Kind.FOUR_OF_A_KIND), "sf_kind": _kind_field(rules, Kind.STRAIGHT_FLUSH),
        "base_sf_kind": _kind_field(rules, Kind.STRAIGHT_FLUSH),
        "four_base": 52 if rules.two_pair and rules.two_pair_size == 4 else 0,
        "double_at": rules.double_at, "triple_at": rules.triple_at, "double_mult": rules.double_multiplier,
        "triple_mult": rules.triple_multiplier, "two_mult": rules.unplayed_two_multiplier,
        "double_held": rules.double_held, "double_winning_play": rules.double_winning_play,
        "n_actions": space.size,
    }
    bits = np.zeros(len(space._cards), dtype=np.uint64)
    for column in space._cards.T:           # 255 pads rows of fewer than five cards
        held = column != 255
        bits[held] |= np.left_shift(np.uint64(1), column[held].astype(np.uint64))
    weakest = np.array([_weakest_first(r) for r in variants], dtype=np.uint8)
    strength = np.array([_strengths(r)[:52] for r in variants], dtype=np.int32)
    return _vector.Core(n, facts, context(rules).tables, None if bomb is None else context(bomb).tables,
                        bits, np.ascontiguousarray(space._pair_start, dtype=np.int64), weakest, strength)


def against(opponents: Any = "random", num_envs: int = 1, *, seat: int = 0, seed: int | None = None,
            **options: Any) -> Any:
    """A `VectorEnv` of `num_envs` games (`seed` and `options` as its constructor's) turned
    single-agent: every seat but `seat` is played inside `step` by `opponents` ("random",
    "greedy", a batched callable, or a dict of those by seat; see `handrank._against`), so
    every returned game waits on the learner at `seat`. The VectorEnv API, ``to_gymnasium()``
    returning the learner's reward."""
    from handrank._against import BigTwoAgainst
    return BigTwoAgainst(VectorEnv(num_envs, seed=seed, **options), opponents, seat, seed)
