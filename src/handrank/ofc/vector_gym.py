"""`ofc.vector.VectorEnv` as a ``gymnasium.vector.VectorEnv`` (extra ``handrank[rl]``).

Each observation is the dict of `handrank.ofc.env`: ``observation`` (N, 14, 52) int8 planes of the
player to act and ``action_mask`` (N, 1024) int8. Hands that end are replaced in the same step
(``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``). The reward of game i is that of
the player who acted in it on this step (the hand's final value for them when it ended, else 0);
``infos`` holds every seat's rewards (``"rewards"``, (N, players)) and the seat to act next
(``"current_player"``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

try:
    from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]
    from gymnasium.vector import AutoresetMode  # type: ignore[import-not-found, unused-ignore]
    from gymnasium.vector import VectorEnv as _GymnasiumVectorEnv  # type: ignore[import-not-found, unused-ignore]
    from gymnasium.vector.utils import batch_space  # type: ignore[import-not-found, unused-ignore]
except ImportError as error:          # pragma: no cover - depends on the environment
    raise ImportError("handrank.ofc.vector_gym needs the RL extra: pip install 'handrank[rl]'") from error

from handrank.ofc.vector import NUM_ACTIONS, PLANES, Step, VectorEnv

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["GymVectorEnv"]


class GymVectorEnv(_GymnasiumVectorEnv):  # type: ignore[misc, unused-ignore]
    """Gymnasium's vector API over an `ofc.vector.VectorEnv` (dense or compact: the masks are
    built here from the ids when compact)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, env: VectorEnv) -> None:
        if not isinstance(env, VectorEnv):
            raise TypeError(f"GymVectorEnv wraps an ofc.vector.VectorEnv, not {type(env).__name__}")
        self.env = env
        self.num_envs = env.num_envs
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0, 1, (PLANES, 52), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8)})
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._acting = np.zeros(self.num_envs, dtype=np.int8)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        step = self.env.reset(seed)
        return self._observation(step), self._infos(step)

    def step(self, actions: npt.ArrayLike) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                                     np.ndarray, dict[str, Any]]:
        acting = self._acting
        step = self.env.step(actions)
        rewards = step.rewards[np.arange(self.num_envs), acting]
        return self._observation(step), rewards, step.terminated, step.truncated, self._infos(step)

    def _observation(self, step: Step) -> dict[str, np.ndarray]:
        self._acting = step.current_player
        if step.legal_mask is not None:
            mask = step.legal_mask.view(np.int8)
        else:
            assert step.legal_indptr is not None and step.legal_ids is not None
            mask = np.zeros((self.num_envs, NUM_ACTIONS), dtype=np.int8)
            rows = np.repeat(np.arange(self.num_envs), np.diff(step.legal_indptr))
            mask[rows, step.legal_ids] = 1
        return {"observation": step.observation, "action_mask": mask}

    def _infos(self, step: Step) -> dict[str, Any]:
        return {"rewards": step.rewards, "current_player": step.current_player}
