"""A handrank vector environment (`bigtwo.vector.VectorEnv`, `ofc.vector.VectorEnv`) behind
Gymnasium's vector API (extra ``handrank[rl]``), reached through ``VectorEnv.to_gymnasium()``.

Each observation is the dict of the game's PettingZoo environment, batched: ``observation`` of the
player to act and, under ``legal="dense"``, ``action_mask`` (N, actions) int8. Under
``legal="compact"`` the observation holds no mask (writing (N, actions) every step cost several
times the step itself): the legal ids are in ``infos`` as CSR arrays, game i's being
``legal_ids[legal_indptr[i]:legal_indptr[i + 1]]``, and ``action_masks()`` builds the dense
(N, actions) bool mask on demand, sb3-contrib's convention. Games that end are replaced in the same step (``metadata["autoreset_mode"]`` is
``AutoresetMode.SAME_STEP``). The reward is that of one chosen seat (``seat``, 0 by default: its
payment in each game that ended on this step, else 0), or with ``rewards="all"`` every seat's,
(N, players): Gymnasium's own wrappers (RecordEpisodeStatistics...) expect (N,), so they take the
one-seat form. ``infos`` holds every seat's rewards (``"rewards"``, (N, players), a deal the rules
settle at once included) and the seat to act next (``"current_player"``). After ``close()``,
``reset`` and ``step`` raise Gymnasium's ``ClosedEnvironmentError``."""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]
    from gymnasium.vector import AutoresetMode  # type: ignore[import-not-found, unused-ignore]
    from gymnasium.vector import VectorEnv as _GymnasiumVectorEnv  # type: ignore[import-not-found, unused-ignore]
    from gymnasium.vector.utils import batch_space  # type: ignore[import-not-found, unused-ignore]
except ImportError as error:          # pragma: no cover - depends on the environment
    raise ModuleNotFoundError("VectorEnv.to_gymnasium needs the RL extra: pip install 'handrank[rl]'",
                              name=error.name) from error

# after the guard above, which says what to install
from gymnasium.error import ClosedEnvironmentError  # type: ignore[import-not-found, unused-ignore]  # noqa: E402

# What a wrapped env provides (both games' VectorEnv do); checked so that a wrong object fails here.
_ENV_API = ("reset", "step", "num_envs", "num_actions", "observation_shape", "players", "legal")
REWARD_FORMS = ("seat", "all")


class GymVectorEnv(_GymnasiumVectorEnv):  # type: ignore[misc, unused-ignore]
    """Gymnasium's vector API over a handrank ``VectorEnv``; `observation_high` bounds each
    observation entry (the PettingZoo environment's space), 1 by default; `seat` (None: 0) is
    the seat whose reward ``step`` returns, or ``rewards="all"`` returns every seat's."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, env: Any, observation_high: Any = 1, *, seat: int | None = None,
                 rewards: str = "seat") -> None:
        if not all(hasattr(env, name) for name in _ENV_API):
            raise TypeError(f"GymVectorEnv wraps a handrank VectorEnv, not {type(env).__name__}")
        self.seat = _reward_seat(seat, rewards, env.players)
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

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        self._check_open("reset")
        return self._observe(self.env.reset(seed))

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, Any]]:
        self._check_open("step")
        step = self.env.step(actions)
        rewards = step.rewards if self.seat is None else np.ascontiguousarray(step.rewards[:, self.seat])
        observation, infos = self._observe(step)
        return observation, rewards, step.terminated, step.truncated, infos

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
