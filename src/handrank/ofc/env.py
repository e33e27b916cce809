"""A PettingZoo AEC environment over `ofc.Game` (extra ``handrank[rl]``): one episode is one hand.

Agents ``player_0`` .. ``player_{n-1}`` sit in seat order. Each observation is a dict:
``observation``, a (14, 52) int8 array of card planes (card id = column):

====== =================================================================================
plane  cards
====== =================================================================================
0-2    my top, middle and bottom rows
3      the cards dealt to me to place now (empty when it is not my turn)
4      my discards (no other agent ever sees them)
5-13   the top, middle and bottom rows of the next players to my left, 3 planes each, in
       seat order (zeros for absent seats; a Fantasyland board stays empty until the end)
====== =================================================================================

and ``action_mask``, the (1024,) int8 mask of the legal actions (`ofc.actions`; all zeros for
an agent not to act). Fantasyland hands are set by the exact solver, valuing a stay at the
rules' `fantasyland_value`, and never reach the agents. When the hand is over every agent gets
`ofc.Game.values` as its reward: its points plus `fantasyland_value` if it earned Fantasyland.

``state()`` is the whole table for centralised critics (PettingZoo's ``state``/``state_space``), an
int8 vector of `STATE_SIZE` (945) entries by seat number (zeros for absent seats), card id = entry
within each part of 52:

========= ==========================================================================
entries   meaning
========= ==========================================================================
0-831     each seat's top, middle and bottom rows and its discards: 208 entries per
          seat, seat 0 first (Fantasyland boards included, face down to the agents)
832-883   the cards dealt to the player to act, to place now
884-935   the cards still in the deck: their place in the order they are dealt, 1 for
          the next card
936-939   who acts: one-hot by seat (all zero when the hand is over)
940-943   the cards each seat is dealt in Fantasyland this hand (0: not in it)
944       the street (0 first; the number of streets when the hand is over)
========= ==========================================================================
"""
from __future__ import annotations

from typing import Any

import numpy as np

from handrank._env import TableEnv, spaces
from handrank.ofc import actions
from handrank.ofc.game import Game
from handrank.ofc.rules import Rules, as_rules

__all__ = ["OFCEnv", "env", "PLANES", "STATE_SIZE", "against"]

PLANES = 14
SEATS = 4
# the first entry of each part of `OFCEnv.state` (one part of 52 per row, 4 per seat)
_STATE_DEALT = 4 * 52 * SEATS
_STATE_DECK = _STATE_DEALT + 52
_STATE_TURN = _STATE_DECK + 52
_STATE_FANTASYLAND = _STATE_TURN + SEATS
_STATE_STREET = _STATE_FANTASYLAND + SEATS
STATE_SIZE = _STATE_STREET + 1


def env(**kwargs: Any) -> OFCEnv:
    """An `OFCEnv` (the PettingZoo convention of a module-level ``env`` constructor)."""
    return OFCEnv(**kwargs)


class OFCEnv(TableEnv):
    """OFC hands as a PettingZoo AEC environment with action masks.

    ``players`` (2 to 4; 3 at most in pineapple and deuce), ``rules`` (an `ofc.Rules` or a preset
    name), ``fantasyland`` (cards each seat is dealt in Fantasyland every episode; default none),
    ``button`` (the dealer's seat; the first to act sits left of it). ``reset(seed=...)`` deals a
    reproducible hand."""

    metadata = {"name": "handrank_ofc_v0", "render_modes": list(TableEnv.RENDER_MODES), "is_parallelizable": False}

    def __init__(self, players: int = 2, rules: Rules | str | None = None,
                 fantasyland: tuple[int, ...] | None = None, button: int = 0,
                 render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.rules = as_rules(rules)
        self.game = Game(players, self.rules, self._rng, button, fantasyland)   # checks the table
        if all(self.game.fantasyland):
            # the solver sets every Fantasyland board, so such a hand is over before any agent
            # acts: an episode with no step, which PettingZoo's API does not allow
            raise ValueError(f"fantasyland={fantasyland!r} puts every seat in Fantasyland: the "
                             f"solver sets those hands, so no agent would act; leave at least "
                             f"one seat at 0")
        self.players = self.game.players
        self.fantasyland = fantasyland
        self.button = button
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0, 1, (PLANES, 52), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, (actions.SIZE,), dtype=np.int8)})
            for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(actions.SIZE) for agent in self.possible_agents}
        high = np.ones(STATE_SIZE, dtype=np.int8)
        high[_STATE_DECK:_STATE_TURN] = 52
        high[_STATE_FANTASYLAND:_STATE_STREET] = 17          # the most cards Fantasyland deals
        high[_STATE_STREET] = len(self.game.streets)
        self.state_space = spaces.Box(0, high, (STATE_SIZE,), dtype=np.int8)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._start(seed)
        self.game = Game(self.players, self.rules, self._rng, self.button, self.fantasyland)
        self._settle()

    def state(self) -> np.ndarray:
        """The whole table by seat (the layout is in the module's docstring): every board and
        every seat's discards, the cards dealt now, the deck's order and whose turn it is."""
        if not hasattr(self, "agents"):
            raise RuntimeError("call reset() before state()")
        game = self.game
        state = np.zeros(STATE_SIZE, dtype=np.int8)
        for seat in range(game.players):
            start = 4 * 52 * seat
            for i, row in enumerate(game.boards[seat].rows):
                state[[start + 52 * i + card for card in row]] = 1
            state[[start + 3 * 52 + card for card in game.discards(seat)]] = 1
            state[_STATE_FANTASYLAND + seat] = game.fantasyland[seat]
        state[[_STATE_DEALT + card for card in game.dealt]] = 1
        deck = game._deck[game._drawn:]
        state[[_STATE_DECK + card for card in deck]] = np.arange(1, len(deck) + 1)
        if game.turn is not None:
            state[_STATE_TURN + game.turn] = 1
        state[_STATE_STREET] = game.street
        return state

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        game = self.game
        planes = np.zeros((PLANES, 52), dtype=np.int8)
        for i, row in enumerate(game.boards[seat].rows):
            planes[i, list(row)] = 1
        if game.turn == seat:
            planes[3, list(game.dealt)] = 1
        planes[4, list(game.discards(seat))] = 1
        for k in range(1, game.players):
            other = (seat + k) % game.players
            for i, row in enumerate(game.visible_board(other, seat).rows):
                planes[5 + 3 * (k - 1) + i, list(row)] = 1
        mask = np.zeros(actions.SIZE, dtype=np.int8)
        if game.turn == seat:
            mask[:] = actions.mask(game)
        return {"observation": planes, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: an action in 0..{actions.SIZE - 1}, not None")
        if type(action) is not int and (isinstance(action, (bool, np.bool_)) or not isinstance(action, np.integer)):
            raise TypeError(f"{agent} must act: an int action in 0..{actions.SIZE - 1}, not {action!r}")
        self._cumulative_rewards[agent] = 0.0
        self.game.play_action(int(action))
        self._settle()
        if self.render_mode == "human":
            self.render()

    def _render_lines(self) -> list[str]:
        return [repr(self.game)] + [f"player_{p}: {self.game.boards[p]}" for p in range(self.game.players)]

    def _settle(self) -> None:
        """Set Fantasyland hands with the solver; at the end hand out the rewards; then select
        the agent to act."""
        game = self.game
        while game.fantasyland_turn:
            game.play_fantasyland()
        if game.over:
            for agent, value in zip(self.possible_agents, game.values()):
                self.rewards[agent] = value
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        for agent in self.agents:
            self.rewards[agent] = 0.0
        assert game.turn is not None
        self.agent_selection = self.possible_agents[game.turn]


def against(opponents: Any = "random", *, seat: int = 0, **options: Any) -> Any:
    """One hand of `OFCEnv(**options)` as a single-agent ``gymnasium.Env`` for the learner at
    `seat`, every other seat played inside ``step`` by `opponents` ("random", a callable, or a
    dict of those by seat; see `handrank._against`): the learner's ``observation`` planes, its
    reward, ``action_masks()`` for sb3-contrib's MaskablePPO."""
    from handrank._against_env import AgainstEnv
    return AgainstEnv(OFCEnv(**options), opponents, seat, ("random",))
