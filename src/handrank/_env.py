"""What handrank's PettingZoo environments (`handrank.ofc.env`, `handrank.bigtwo.env`) share: the
render modes and text rendering, seeding, the agents' bookkeeping at a reset and the spaces by
agent. Importing it needs the extra ``handrank[rl]`` (pettingzoo, gymnasium)."""
from __future__ import annotations

from typing import Any

import numpy as np

try:
    from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]
    from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as error:          # pragma: no cover - depends on the environment
    raise ModuleNotFoundError("handrank.ofc.env and handrank.bigtwo.env need the RL extra: "
                              "pip install 'handrank[rl]'", name=error.name) from error

__all__ = ["TableEnv", "spaces"]


class TableEnv(AECEnv):  # type: ignore[misc, unused-ignore]
    """An AEC environment of one game per episode, rendered as text (``"ansi"`` returns it,
    ``"human"`` prints it), reseeded by ``reset(seed=...)``. A subclass sets `possible_agents`,
    `observation_spaces` and `action_spaces`, calls `_start` first in its reset and gives the
    lines of `render` (`_render_lines`)."""

    RENDER_MODES = ("human", "ansi")
    observation_spaces: dict[str, spaces.Space[Any]]
    action_spaces: dict[str, spaces.Space[Any]]

    def __init__(self, render_mode: str | None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _start(self, seed: int | None) -> None:
        """The start of every reset: a new random stream when `seed` is given (the same seed
        replays the same episodes), every agent back in play with no rewards."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}

    def _render_lines(self) -> list[str]:
        raise NotImplementedError

    def render(self) -> str | None:
        text = "\n".join(self._render_lines())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
