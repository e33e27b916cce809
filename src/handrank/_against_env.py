"""The single-game opponent adapter (``handrank.bigtwo.env.against``, ``handrank.ofc.env.against``):
a handrank PettingZoo environment as a ``gymnasium.Env`` for the learner at one seat, the other
seats played inside `step` by the policies of `handrank._against` (a callable is called with a
batch of one game). The observation is the learner's ``observation`` array; its legal actions
are ``action_masks()`` (sb3-contrib's convention, what MaskablePPO reads) and
``info["action_mask"]``; the reward is the learner's payment when the game ends (0 before), and a
deal the rules settled at the reset is in ``info["settled"]`` (Big Two)."""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import numpy as np

from handrank._against import Policy, answer, opponent_rng, policies

try:
    import gymnasium  # type: ignore[import-not-found, unused-ignore]
except ImportError as error:          # pragma: no cover - depends on the environment
    raise ModuleNotFoundError("env.against needs the RL extra: pip install 'handrank[rl]'",
                              name=error.name) from error

_ONE_GAME = np.zeros(1, dtype=np.intp)


class AgainstEnv(gymnasium.Env):  # type: ignore[misc, unused-ignore]
    """`aec` (an unwrapped handrank PettingZoo environment) for the learner at `seat`, the other
    seats played by `opponents` (the names `named` or callables; see `handrank._against`):
    random ones draw from ``np_random``, which ``reset(seed=...)`` seeds with the seed's
    opponents' stream (`handrank._against.opponent_rng`), apart from the deals'."""

    def __init__(self, aec: Any, opponents: Policy | Mapping[int, Policy], seat: int,
                 named: tuple[str, ...]) -> None:
        self.policies = policies(opponents, seat, len(aec.possible_agents), named)
        self.aec = aec
        self.seat = int(seat)
        self.agent = aec.possible_agents[self.seat]
        self.observation_space = aec.observation_space(self.agent)["observation"]
        self.action_space = aec.action_space(self.agent)
        self.metadata = {"render_modes": aec.metadata["render_modes"]}
        self.render_mode = aec.render_mode
        self._mask: np.ndarray | None = None         # the learner's legal actions; None: game over
        # a callable's bad answer comes after the learner's move: the step then puts back a copy
        self._copied = any(callable(policy) for policy in self.policies.values())

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            # the opponents' own stream of the seed, as in the vector adapters: not the deals'
            self.np_random = opponent_rng(seed)
        self.aec.reset(seed=seed)
        info = dict(self.aec.infos[self.agent])
        self._opponents()
        return self._observe(info)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._mask is None:
            raise RuntimeError("the game is over (or not started): call reset()")
        saved = (copy.deepcopy(self.aec), self.np_random.bit_generator.state) if self._copied else None
        try:
            self.aec.step(action)           # an illegal action raises there, changing nothing
            self._opponents()
        except BaseException:
            if saved is not None:
                self.aec, self.np_random.bit_generator.state = saved
            raise
        reward = float(self.aec._cumulative_rewards[self.agent])
        over = self.aec.terminations[self.agent]
        observation, info = self._observe({})
        if over:
            self._mask = None
        return observation, reward, over, bool(self.aec.truncations[self.agent]) and not over, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, a bool mask over the action space."""
        if self._mask is None:
            raise RuntimeError("the game is over (or not started): call reset()")
        return self._mask

    def render(self) -> Any:
        return self.aec.render()

    def _opponents(self) -> None:
        """Play the other seats until the learner is to act or the game is over."""
        aec = self.aec
        while not aec.terminations[self.agent] and aec.agent_selection != self.agent:
            seat = aec.possible_agents.index(aec.agent_selection)
            obs = aec.observe(aec.agent_selection)
            legal = np.flatnonzero(obs["action_mask"])
            policy = self.policies[seat]
            if callable(policy):
                indptr = np.array([0, len(legal)], dtype=np.int64)
                acts, _ = answer(policy, seat, _ONE_GAME, obs["observation"][None], indptr,
                                 legal.astype(np.int32))
                action = int(acts[0])
            elif policy == "random":
                action = int(legal[self.np_random.integers(len(legal))])
            else:                   # greedy
                action = int(legal[1] if len(legal) > 1 and legal[0] == 0 else legal[0])
            aec.step(action)

    def _observe(self, info: dict[str, Any]) -> tuple[np.ndarray, dict[str, Any]]:
        obs = self.aec.observe(self.agent)
        self._mask = obs["action_mask"].astype(bool)
        info["action_mask"] = self._mask
        return obs["observation"], info
