"""A handrank vector environment (`bigtwo.vector.VectorEnv`, `ofc.vector.VectorEnv`) behind
Gymnasium's vector API (extra ``handrank[rl]``), reached through ``VectorEnv.to_gymnasium()``.

Each observation is the dict of the game's PettingZoo environment, batched: ``observation`` of the
player to act and, under ``legal="dense"``, ``action_mask`` (N, actions) int8 (in Big Two a
view of the env's mask buffer, rewritten by the next step: copy it to keep it). Under
``legal="compact"`` the observation holds no mask (writing (N, actions) every step cost several
times the step itself): the legal ids are in ``infos`` as CSR arrays, game i's being
``legal_ids[legal_indptr[i]:legal_indptr[i + 1]]``, and ``action_masks()`` builds the dense
(N, actions) bool mask on demand, sb3-contrib's convention.

``autoreset_mode`` (``metadata["autoreset_mode"]``) is Gymnasium's: ``NEXT_STEP`` by default (what
its vector wrappers take), the step after a game ends resets that entry (the new game's first
observation, reward 0, not terminated; the action given for it ignored), or ``SAME_STEP`` (a
game that ends is replaced in that step, ``infos["final_obs"]`` holding its last observation and
``infos["final_info"]`` its infos, masked by ``_final_obs`` / ``_final_info``). ``reset(seed=)``
takes an int (which seeds ``np_random`` as Gymnasium's envs do), a list of one int per game or
None, and ``options={"reset_mask": mask}`` resets the chosen games only; ``render()`` (with
``render_mode="ansi"``) returns one game as text (``render_game``, 0 by default).

The reward is that of one chosen seat (``seat``, 0 by default: its
payment in each game that ended on this step, else 0), or with ``rewards="all"`` every seat's,
(N, players): Gymnasium's own wrappers (RecordEpisodeStatistics...) expect (N,), so they take the
one-seat form. ``infos`` holds every seat's rewards (``"rewards"``, (N, players)) and the seat to act next (``"current_player"``). After ``close()``,
``reset`` and ``step`` raise Gymnasium's ``ClosedEnvironmentError``."""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]
    from gymnasium.utils import seeding  # type: ignore[import-not-found, unused-ignore]
    from gymnasium.vector import AutoresetMode  # type: ignore[import-not-found, unused-ignore]
    from gymnasium.vector import VectorEnv as _GymnasiumVectorEnv  # type: ignore[import-not-found, unused-ignore]
    from gymnasium.vector.utils import batch_space  # type: ignore[import-not-found, unused-ignore]
except ImportError as error:          # pragma: no cover - depends on the environment
    raise ModuleNotFoundError("VectorEnv.to_gymnasium needs the RL extra: pip install 'handrank[rl]'",
                              name=error.name) from error

# after the guard above, which says what to install
from gymnasium.error import ClosedEnvironmentError  # type: ignore[import-not-found, unused-ignore]  # noqa: E402

from handrank._vector_env import game_seeds  # noqa: E402

# What a wrapped env provides (both games' VectorEnv do); checked so that a wrong object fails here.
_ENV_API = ("reset", "step", "render", "num_envs", "num_actions", "observation_shape", "players", "legal")
REWARD_FORMS = ("seat", "all")
AUTORESET_MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)
RENDER_MODES = ("ansi",)


class GymVectorEnv(_GymnasiumVectorEnv):  # type: ignore[misc, unused-ignore]
    """Gymnasium's vector API over a handrank ``VectorEnv``; `observation_high` bounds each
    observation entry (the PettingZoo environment's space), 1 by default; `seat` (None: 0) is
    the seat whose reward ``step`` returns, or ``rewards="all"`` returns every seat's;
    `autoreset_mode` an ``AutoresetMode`` (or its value), None for NEXT_STEP; `render_mode` None
    or "ansi"."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": list(RENDER_MODES)}

    def __init__(self, env: Any, observation_high: Any = 1, *, seat: int | None = None,
                 rewards: str = "seat", autoreset_mode: Any = None, render_mode: str | None = None) -> None:
        if not all(hasattr(env, name) for name in _ENV_API):
            raise TypeError(f"GymVectorEnv wraps a handrank VectorEnv, not {type(env).__name__}")
        self.seat = _reward_seat(seat, rewards, env.players)
        mode = _autoreset_mode(autoreset_mode)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
        # per instance: the mode is this env's (Gymnasium's wrappers read metadata["autoreset_mode"])
        self.metadata = {"autoreset_mode": mode, "render_modes": list(RENDER_MODES)}
        self.render_mode = render_mode
        #: the game `render` draws
        self.render_game = 0
        self._autoreset = "same_step" if mode is AutoresetMode.SAME_STEP else "next_step"
        self.env = env
        self.num_envs = env.num_envs
        fields: dict[str, spaces.Space[Any]] = {"observation": spaces.Box(0, observation_high, env.observation_shape, dtype=np.int8)}
        if env.legal == "dense":
            fields["action_mask"] = spaces.Box(0, 1, (env.num_actions,), dtype=np.int8)
        self.single_observation_space = spaces.Dict(fields)
        self.single_action_space = spaces.Discrete(env.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._last: Any = None          # the env's last Step, whose legal actions action_masks() gives

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal every game (``options={"reset_mask": mask}``: the chosen games only) from `seed`:
        an int (game i from stream i of it; ``np_random`` seeded from it as Gymnasium does), a
        list of one int per game, or None."""
        self._check_open("reset")
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(f"reset takes the option reset_mask only, got {sorted(options)}")
        step = self.env.reset(seed, games=mask)         # checks the seed first
        if seed is not None:
            # Gymnasium's seeding takes one int >= 0: a list's or a SeedSequence's entropy
            per_game = game_seeds(seed, self.num_envs)
            entropy: Any = np.random.SeedSequence(per_game) if per_game is not None else seed
            if isinstance(entropy, np.random.SeedSequence):
                entropy = entropy.generate_state(1)[0]
            self._np_random, self._np_random_seed = seeding.np_random(int(entropy))
        return self._observe(step)

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, Any]]:
        self._check_open("step")
        same = self._autoreset == "same_step"
        step = self.env.step(actions, autoreset=self._autoreset, final_observation=same)
        rewards = step.rewards if self.seat is None else np.ascontiguousarray(step.rewards[:, self.seat])
        observation, infos = self._observe(step)
        ended = step.terminated | step.truncated
        if same and ended.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(ended):
                final[i] = {"observation": step.final_observation[i]}
                if "action_mask" in observation:        # a game over offers the pass (action 0) alone
                    final[i]["action_mask"] = np.eye(1, self.env.num_actions, dtype=np.int8)[0]
            infos["final_obs"], infos["_final_obs"] = final, ended.copy()
            infos["final_info"] = {"rewards": np.where(ended[:, None], step.rewards, np.float32(0)),
                                   "_rewards": ended.copy()}
            infos["_final_info"] = ended.copy()
        return observation, rewards, step.terminated, step.truncated, infos

    def render(self) -> str | None:  # type: ignore[override, unused-ignore]
        """Game `render_game` as text under ``render_mode="ansi"`` (None without a mode): one
        picture of one game, not Gymnasium's tuple of every env's frame (N of them would be
        unreadable at the batch sizes these envs run)."""
        if self.render_mode is None:
            return None
        text: str = self.env.render(self.render_game)
        return text

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game now, (N, actions) bool (sb3-contrib's ``action_masks``):
        under ``legal="compact"`` built from the ids on each call, so only a caller that needs
        the dense form pays for it."""
        if self._last is None:
            raise RuntimeError("call reset() before action_masks()")
        if self._last.legal_mask is not None:
            dense: npt.NDArray[np.bool_] = self._last.legal_mask
            return dense
        mask = np.zeros((self.num_envs, self.env.num_actions), dtype=np.bool_)
        rows = np.repeat(np.arange(self.num_envs), np.diff(self._last.legal_indptr))
        mask[rows, self._last.legal_ids] = True
        return mask

    def _check_open(self, call: str) -> None:
        """Refuse a call after `close`, as Gymnasium's own vector envs do: a closed env is one its
        caller is done with, so a call to it is a bug to report, not to play through."""
        if self.closed:
            raise ClosedEnvironmentError(f"{call}() after close() on {type(self).__name__}")

    def _observe(self, step: Any) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        self._last = step
        infos = {"rewards": step.rewards, "current_player": step.current_player}
        if step.legal_mask is None:
            infos["legal_indptr"], infos["legal_ids"] = step.legal_indptr, step.legal_ids
            return {"observation": step.observation}, infos
        return {"observation": step.observation, "action_mask": step.legal_mask.view(np.int8)}, infos


def _autoreset_mode(mode: Any) -> Any:
    """The AutoresetMode asked for (None: NEXT_STEP, Gymnasium's default); DISABLED refused: a
    handrank env always deals the next game itself."""
    if mode is None:
        return AutoresetMode.NEXT_STEP
    try:
        mode = AutoresetMode(mode)
    except ValueError:
        raise ValueError(f"autoreset_mode must be one of {[m.value for m in AUTORESET_MODES]}, got {mode!r}") from None
    if mode not in AUTORESET_MODES:
        raise ValueError(f"autoreset_mode {mode.value} is not supported: the env deals every next game "
                         f"itself ({AutoresetMode.NEXT_STEP.value} or {AutoresetMode.SAME_STEP.value})")
    return mode


def _reward_seat(seat: Any, rewards: Any, players: int) -> int | None:
    """The seat whose reward `step` returns (None: every seat's), checked before anything is
    built. A seat named beside ``rewards="all"`` is refused rather than ignored: the caller
    meant one of the two."""
    if rewards not in REWARD_FORMS:
        raise ValueError(f"rewards must be one of {REWARD_FORMS}, got {rewards!r}")
    if rewards == "all":
        if seat is not None:
            raise ValueError(f"seat={seat!r} picks one seat's reward; rewards='all' returns every seat's")
        return None
    if seat is None:
        return 0
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
        raise TypeError(f"seat must be an int, not {type(seat).__name__}")
    if not 0 <= seat < players:
        raise ValueError(f"seat must be 0..{players - 1} (the game has {players} players), got {seat}")
    return int(seat)
