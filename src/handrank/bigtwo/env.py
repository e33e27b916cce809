"""A PettingZoo AEC environment over `bigtwo.Game` (extra ``handrank[rl]``): one episode is one game.

Agents ``player_0`` .. ``player_{n-1}`` are the game's players; the holder of the opening card
acts first. Actions are those of the rules' `ComboSpace` (0: pass), the same cards on every turn
and in every hand. Each observation is a dict: ``observation``, an int8 vector of `SIZE` (164)
entries whose other players are listed from the observer on, in turn order (``me, next, ...``;
zeros for absent seats):

========= ==========================================================================
entries   meaning
========= ==========================================================================
0-51      my hand (card id = entry)
52-103    the cards of the combo to beat (all zero when I lead)
104-155   every card played so far, by anyone (the combo to beat included)
156-159   how many cards each player holds: me, next, ...
160-163   who played the combo to beat: one-hot over me, next, ... (all zero when I lead)
========= ==========================================================================

With ``history=True`` the observation goes on with what the players did, `HISTORY_SIZE` (380)
entries in all, players again listed from the observer on:

========= ==========================================================================
entries   meaning
========= ==========================================================================
164-371   the cards each player has played: 52 per player (me, next, ...), card id = entry
372-375   who has passed since the combo to beat was played (all zero when I lead)
376-379   who is out of the trick for passing in it (``rules.passing == "out_of_trick"``;
          else all zero)
========= ==========================================================================

and ``action_mask``, the int8 mask of the legal actions over the `ComboSpace` (all zeros for an
agent not to act).

``state()`` is the whole table for centralised critics (PettingZoo's ``state``/``state_space``), an
int8 vector of `STATE_SIZE` (594) entries by seat number (zeros for absent seats):

========= ==========================================================================
entries   meaning
========= ==========================================================================
0-207     every hand: 52 per seat, seat 0 first
208-259   the cards of the combo to beat (all zero when the player to act leads)
260-467   the cards each seat has played: 52 per seat
468-471   how many cards each seat holds
472-475   who played the combo to beat: one-hot by seat (all zero on a lead)
476-479   who has passed since the combo to beat was played
480-483   who is out of the trick (``rules.passing == "out_of_trick"``)
484-487   who acts: one-hot by seat (all zero when the game is over)
488-539   the cards dealt to no one: their place in the stock, 1 for the top card (the
          next drawn under ``rules.draw_on_pass``; without a stock, in card id order)
540-591   the card the first play must hold (one-hot; all zero after the first play, or
          when the first leader may lead anything)
592       1 when a dealt bomb made the 2s low for this game (``rules.dealt_bomb``)
593       1 when the combo to beat led its trick (``rules.three_threes_force`` reads it)
========= ==========================================================================

When the game is over every agent gets its `Game.payments` entry as its reward.
A deal the rules decide at once (four 2s under ``four_twos`` "win" or "draw", a ``dragun``) is no
episode: ``reset`` pays it and deals again, so every episode starts with an agent to act, and
``infos[agent]["settled"]`` holds what such deals of that reset paid the agent (0.0 where none did).

Under `Rules.smack_down` the space is ``ComboSpace(rules, max_hand_size=13)``: the runs of pairs a
hand of 13 cards can hold (3 to 6 pairs), 422,536 actions numbered as in the whole space, whose
billions of longer runs no hand of the table can play. Tables whose hands may hold more (three or
two players dealt the whole deck, a stock to draw from) are refused: a 17-card hand's runs alone
are 10.5 million actions per mask.

``env()`` plays as PettingZoo's classic games do in their wrappers: an illegal action ends the
game with ``illegal_reward`` for the agent that made it (default: the most a loser can pay under
the rules) and 0 for the others, and calls out of order are errors (PettingZoo's
``OrderEnforcingWrapper``, whose per-step reads go to the environment directly). The environment ends
the game itself rather than through ``TerminateIllegalWrapper`` and ``AssertOutOfBoundsWrapper``,
whose attribute lookups through three wrappers cost more than a step. ``raw_env`` raises
`bigtwo.IllegalMove` instead, changing nothing; an action outside the space is an `IllegalMove`
in both. Every observation holds fresh arrays: a step never reads the agent's mask.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from handrank._env import TableEnv, spaces
from handrank.bigtwo import _bigtwo
from handrank.bigtwo.actions import ComboSpace
from handrank.bigtwo.combo import Combo, RulesLike, classify, context
from handrank.bigtwo.game import Game, IllegalMove
from handrank.bigtwo.rules import Rules
from handrank.bigtwo.scoring import payments
from handrank.cards import hand_str

# after handrank._env, whose ImportError says what to install when pettingzoo is missing
from pettingzoo.utils import wrappers  # type: ignore[import-untyped, import-not-found, unused-ignore]  # noqa: E402
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped, import-not-found, unused-ignore]  # noqa: E402

__all__ = ["BigTwoEnv", "env", "raw_env", "against", "SIZE", "HAND", "TRICK", "PLAYED", "CARDS_LEFT",
           "TRICK_OWNER", "PLAYED_BY", "PASSED", "OUT_OF_TRICK", "HISTORY_SIZE", "STATE_SIZE"]

SEATS = 4
# the first entry of each part of the observation
HAND, TRICK, PLAYED, CARDS_LEFT, TRICK_OWNER = 0, 52, 104, 156, 160
SIZE = TRICK_OWNER + SEATS
# and of the history that ``history=True`` adds
PLAYED_BY = SIZE
PASSED = PLAYED_BY + 52 * SEATS
OUT_OF_TRICK = PASSED + SEATS
HISTORY_SIZE = OUT_OF_TRICK + SEATS

# The game state the observations gather from, one byte per entry: every hand (52 per seat), the
# trick and the cards played, the cards left and the trick's owner by seat, the cards each seat
# played, who passed since the last play and who is out of the trick, and a zero for absent
# seats. Kept up to date as the game moves, so that an observation is one gather.
_TRICK, _PLAYED = SEATS * 52, SEATS * 52 + 52
_LEFT, _OWNER = _PLAYED + 52, _PLAYED + 52 + SEATS
_BY = _OWNER + SEATS
_PASSED = _BY + 52 * SEATS
_OUT = _PASSED + SEATS
_ZERO = _OUT + SEATS
_NO_CARDS = bytes(52)
_NO_SEATS = bytes(SEATS)

# the first entry of the parts of `BigTwoEnv.state` that are not the hands, the trick and the
# cards played by seat (copied from the bytes above, as is all up to who acts)
_STATE_LEFT = 52 * SEATS + 52 + 52 * SEATS
_STATE_TURN = _STATE_LEFT + 4 * SEATS
_STATE_STOCK = _STATE_TURN + SEATS
_STATE_OPENING = _STATE_STOCK + 52
_STATE_TWOS_LOW = _STATE_OPENING + 52
_STATE_LED = _STATE_TWOS_LOW + 1
STATE_SIZE = _STATE_LED + 1
# where the state copies the bytes from: the hands and the trick, then the history and the counts
_STATE_COPIED = np.r_[0:_PLAYED, _BY:_PASSED, _LEFT:_BY, _PASSED:_ZERO]


def env(players: int = 4, rules: RulesLike = None, deal: str = "thirteen",
        illegal_reward: float | None = None, render_mode: str | None = None, history: bool = False) -> Any:
    """A `BigTwoEnv` whose illegal actions end the game (``illegal_reward``, default its
    `worst_payment`; else a finite real number), in PettingZoo's order-enforcing wrapper."""
    reward = None if illegal_reward is None else _reward(illegal_reward)
    inner = BigTwoEnv(players, rules, deal, render_mode, history)
    inner.illegal_reward = inner.worst_payment() if reward is None else reward
    return _OrderEnforcing(inner)


def _reward(value: Any) -> float:
    """`illegal_reward` checked when the environment is built, not at the first illegal move:
    a finite int or float (numpy's too)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"illegal_reward must be None or a real number, not {type(value).__name__}")
    try:
        reward = float(value)
    except OverflowError:                       # an int beyond any float
        reward = math.inf
    if not math.isfinite(reward):
        raise ValueError(f"illegal_reward must be a finite number, got {value!r}")
    return reward


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc, unused-ignore]
    """PettingZoo's order-enforcing wrapper, with the same checks on the attributes and calls a
    loop over ``agent_iter()`` makes on every step read directly: inherited, each reads through
    two ``__getattr__`` calls (``last()`` alone reads five attributes so), which cost as much as
    the step."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")   # as inherited
        return self.env.last(observe)  # type: ignore[no-any-return, unused-ignore]

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)     # PettingZoo's error, or its warning after the game

    def agent_iter(self, max_iter: int = 2**63) -> _Turns:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Turns(self, max_iter)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")               # as inherited
        return self.env.agents  # type: ignore[no-any-return, unused-ignore]

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")      # as inherited
        return self.env.agent_selection  # type: ignore[no-any-return, unused-ignore]


class _Turns:
    """PettingZoo's order-enforcing ``agent_iter()``, the same checks made on the environment
    directly: the agent to act until the game is over, each turn only after a step."""

    def __init__(self, wrapper: _OrderEnforcing, max_iter: int) -> None:
        self.wrapper, self.env, self.left = wrapper, wrapper.env, max_iter

    def __iter__(self) -> _Turns:
        return self

    def __next__(self) -> str:
        if not self.env.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        assert self.wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        self.wrapper._has_updated = False
        return self.env.agent_selection  # type: ignore[no-any-return, unused-ignore]


def raw_env(players: int = 4, rules: RulesLike = None, deal: str = "thirteen",
            render_mode: str | None = None, history: bool = False) -> BigTwoEnv:
    """The unwrapped `BigTwoEnv` (an illegal action raises `bigtwo.IllegalMove`)."""
    return BigTwoEnv(players, rules, deal, render_mode, history)


def _view(seat: int, players: int, step: int = 1, history: bool = False) -> np.ndarray:
    """The state entries `seat`'s observation gathers: its hand, the trick and the cards played,
    then the cards left and the trick's owner from `seat` on, in turn order (`step` -1: the rules
    play anticlockwise), absent seats reading the zero; with `history`, then the cards each
    player played, who passed and who is out of the trick, in the same order."""
    order = [(seat + step * k) % players for k in range(players)]
    absent = [_ZERO] * (SEATS - players)
    view = [*range(52 * seat, 52 * seat + 52), *range(_TRICK, _LEFT), *(_LEFT + s for s in order),
            *absent, *(_OWNER + s for s in order), *absent]
    if history:
        view += [*(_BY + 52 * s + card for s in order for card in range(52)), *absent * 52,
                 *(_PASSED + s for s in order), *absent, *(_OUT + s for s in order), *absent]
    return np.array(view, dtype=np.intp)


@lru_cache(maxsize=None)
def _action_space(rules: Rules, max_hand_size: int | None) -> tuple[ComboSpace, tuple[Combo | None, ...]]:
    """The rules' ComboSpace (bounded by `max_hand_size`: see `_smack_hand_size`) and the Combo
    each of its plays of 1 to 5 cards plays (None: the pass), built once per rule set: a step plays
    the action's Combo without classifying its cards again. (The runs of pairs, some 400,000, are
    classified when played.)"""
    space = ComboSpace(rules, max_hand_size)
    ctx = context(rules)
    combos: list[Combo | None] = [None] * (len(space._cards) + 1)
    for size in (k for k in ctx.sizes if k <= 5):
        # every play of `size` cards (a smack's four of a kind too, which no legal lead lists)
        for combo in _bigtwo.combos(ctx.tables, range(52), size, 0, 0, Combo, ctx.kinds):
            combos[space.action(combo.cards)] = combo
    return space, tuple(combos)


class BigTwoEnv(TableEnv):
    """Big Two games as a PettingZoo AEC environment with action masks.

    ``players`` (2 to 4), ``rules`` (a `bigtwo.Rules`, a preset name or None for hk), ``deal``
    (``"thirteen"`` or ``"all"``, as `Game`), ``history`` (the observation goes on with what each
    player played and who passed: `HISTORY_SIZE` entries). ``reset(seed=...)`` deals a
    reproducible game.
    ``illegal_reward``: None (an illegal action raises `bigtwo.IllegalMove`), or the reward of an
    agent whose illegal action ends the game (see `env`)."""

    metadata = {"name": "handrank_bigtwo_v0", "render_modes": list(TableEnv.RENDER_MODES), "is_parallelizable": False}

    def __init__(self, players: int = 4, rules: RulesLike = None, deal: str = "thirteen",
                 render_mode: str | None = None, history: bool = False) -> None:
        if not isinstance(history, (bool, np.bool_)):
            raise TypeError(f"history must be a bool, not {type(history).__name__}")
        super().__init__(render_mode)
        self.rules = context(rules).rules
        _check_representable(self.rules, players, deal)
        self.game = Game(players, self.rules, self._rng, deal)        # checks the table
        self.players = players
        self.deal = deal
        self._draws = self.game._stock                 # a pass draws a card (rules.draw_on_pass)
        self._max_hand_size = _smack_hand_size(self.game) if self.rules.smack_down else None
        self.illegal_reward: float | None = None
        self.space, self._combos = _action_space(self.rules, self._max_hand_size)
        self._size = self.space.size
        self._listed = len(self._combos)               # the actions of 1 to 5 cards, and the pass
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        step = 1 if self.rules.direction == "clockwise" else -1
        self.history = bool(history)
        self._views = [_view(seat, players, step, self.history) for seat in range(players)]
        size = HISTORY_SIZE if self.history else SIZE
        high = np.ones(size, dtype=np.int8)
        most = _most_held(self.game)
        high[CARDS_LEFT:TRICK_OWNER] = most
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0, high, (size,), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, (self.space.size,), dtype=np.int8)})
            for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.space.size) for agent in self.possible_agents}
        high = np.ones(STATE_SIZE, dtype=np.int8)
        high[_STATE_LEFT:_STATE_LEFT + SEATS] = most
        # (every deal of the table leaves as many cards undealt; at least 1, as a Box needs)
        high[_STATE_STOCK:_STATE_OPENING] = max(1, len(self.game.undealt))
        self.state_space = spaces.Box(0, high, (STATE_SIZE,), dtype=np.int8)

    def worst_payment(self) -> int:
        """The most a loser can pay under the rules: a whole hand left, doubled by every bonus."""
        dealt = min(len(hand) for hand in self.game.hands)
        return min(payments([0] + [dealt] * (self.players - 1), self.rules, winning_play="2s",
                            bonus_held=[False] + [True] * (self.players - 1), whole_deck=self.deal == "all"))

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._start(seed)
        # A deal the rules decide at once (four 2s, a dragun) would start an episode already
        # over, which PettingZoo forbids: it is paid (infos[agent]["settled"]) and dealt again,
        # as in bigtwo.vector.
        settled = [0.0] * self.players
        self.game = Game(self.players, self.rules, self._rng, self.deal)
        while self.game.over:
            settled = [paid + value for paid, value in zip(settled, self.game.payments())]
            self.game = Game(self.players, self.rules, self._rng, self.deal)
        for agent, paid in zip(self.possible_agents, settled):
            self.infos[agent]["settled"] = paid
        self._state = bytearray(_ZERO + 1)
        self._state_array = np.frombuffer(self._state, dtype=np.int8)     # shares the bytes
        for seat in range(self.players):
            self._sync_hand(seat)
        self.agent_selection = self.possible_agents[self.game.turn]

    def state(self) -> np.ndarray:
        """The whole table by seat (the layout is in the module's docstring): every hand, the
        stock, what each seat played, the trick and whose turn it is."""
        if not hasattr(self, "_state"):
            raise RuntimeError("call reset() before state()")
        game = self.game
        state = np.zeros(STATE_SIZE, dtype=np.int8)
        state[:_STATE_TURN] = self._state_array[_STATE_COPIED]
        if game.outcome is None:
            state[_STATE_TURN + game.turn] = 1
        undealt = game.undealt
        state[[_STATE_STOCK + card for card in undealt]] = np.arange(1, len(undealt) + 1)
        if game.first_play and game.opening_card is not None:
            state[_STATE_OPENING + game.opening_card] = 1
        state[_STATE_TWOS_LOW] = game.play_rules is not game.rules
        state[_STATE_LED] = game.to_beat is not None and game.led
        return state

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        game = self.game
        mask = np.zeros(self._size, np.int8)     # the agent's own: a step never reads it
        if game.turn == seat and game.outcome is None:
            game._mark(self.space, mask)
        return {"observation": self._state_array[self._views[seat]], "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int and (isinstance(action, bool) or not isinstance(action, np.integer)):
            raise TypeError(f"{agent} must act: an int action in 0..{self.space.size - 1}, not {action!r}")
        game = self.game
        seat, trick, owner = game.turn, game.to_beat, game.last_player     # the trick so far
        if action == 0:
            try:
                game.pass_()
            except IllegalMove:                            # leading: the game is unchanged
                self._illegal(agent, action)
                return
            if self._draws:
                self._sync_hand(seat)                      # the card drawn on a pass
            if trick is not None:
                if game.to_beat is None:
                    self._end_trick(trick.cards, owner)
                    self._state[_PASSED:_ZERO] = _NO_SEATS * 2     # everyone is back in the next trick
                else:
                    self._show_pass(seat)
        else:
            combo = self._combos[action] if 0 < action < self._listed else self._run_of_pairs(action)
            if combo is not None and game.play_rules is not game.rules:     # a dealt bomb
                combo = game._rekeyed(combo)
            if combo is None or not game._allows(combo):
                self._illegal(agent, action)
                return
            game._apply(combo)
            if trick is not None:
                self._end_trick(trick.cards, owner)
            self._show_play(seat, combo.cards)
        self._cumulative_rewards[agent] = 0.0
        if game.outcome is not None:
            self._finish()
        self.agent_selection = self.possible_agents[game.turn]
        if self.render_mode == "human":
            self.render()

    def _render_lines(self) -> list[str]:
        game = self.game
        lines = [repr(game)]
        if game.to_beat is not None:
            lines.append(f"to beat: {game.to_beat} (player_{game.last_player})")
        return lines + [f"player_{p}: {hand_str(hand)}" for p, hand in enumerate(game.hands)]

    def __getstate__(self) -> dict[str, Any]:
        # the action space and its table are shared by every environment of the rules
        return {k: v for k, v in self.__dict__.items() if k not in ("_state_array", "space", "_combos")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.space, self._combos = _action_space(self.rules, self._max_hand_size)
        if "_state" in state:                   # (reset has run)
            self._state_array = np.frombuffer(self._state, dtype=np.int8)

    # ----------------------------------------------------------------- internals
    def _run_of_pairs(self, action: int) -> Combo | None:
        """The Combo of an action past the plays of 1 to 5 cards (a run of pairs under
        ``rules.smack_down``), None for one outside the space (or the pass)."""
        if not self._listed <= action < self._size:
            return None
        return classify(self.space.cards(action), self.rules)

    def _finish(self) -> None:
        """The game is over: every agent is paid and terminated."""
        for other, value in zip(self.possible_agents, self.game.payments()):
            self.rewards[other] = float(value)
            self.terminations[other] = True
        self._accumulate_rewards()

    def _illegal(self, agent: str, action: int) -> None:
        """Raise IllegalMove, or under an ``illegal_reward`` end the game (as PettingZoo's
        TerminateIllegalWrapper does)."""
        if self.illegal_reward is None or not 0 <= action < self._size:
            raise IllegalMove(f"action {action} is not legal for {agent} now (see the action_mask)")
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward)
        self._accumulate_rewards()
        self._deads_step_first()

    # (a byte at a time: a slice assignment to a bytearray costs as much as four bytes)
    def _end_trick(self, cards: tuple[int, ...], owner: int) -> None:
        """`owner`'s `cards` are no longer the combo to beat."""
        state = self._state
        for card in cards:
            state[_TRICK + card] = 0
        state[_OWNER + owner] = 0

    def _show_play(self, owner: int, cards: tuple[int, ...]) -> None:
        """`owner` played `cards`, now the combo to beat, which no one has passed yet."""
        state = self._state
        start, by = 52 * owner, _BY + 52 * owner
        for card in cards:
            state[start + card] = 0
            state[_TRICK + card] = 1
            state[_PLAYED + card] = 1
            state[by + card] = 1
        state[_OWNER + owner] = 1
        state[_LEFT + owner] -= len(cards)
        state[_PASSED:_OUT] = _NO_SEATS

    def _show_pass(self, seat: int) -> None:
        """`seat` passed on the combo to beat, and the trick goes on."""
        self._state[_PASSED + seat] = 1
        self._state[_OUT + seat] = self.game.out_of_trick >> seat & 1

    def _sync_hand(self, seat: int) -> None:
        """Copy `seat`'s hand and card count from the game."""
        state = self._state
        start = seat * 52
        state[start:start + 52] = _NO_CARDS
        hand = self.game.hands[seat]
        for card in hand:
            state[start + card] = 1
        state[_LEFT + seat] = len(hand)


def _check_representable(rules: Rules, players: int, deal: str) -> None:
    """Refuse the rules whose decisions the fixed action space cannot carry."""
    for field in ("long_straights", "dragon"):
        if getattr(rules, field):
            raise ValueError(f"the Big Two environment does not take Rules.{field}: its runs add "
                             "tens of millions of actions to every mask; play them through Game "
                             "and ComboSpace.legal_actions")
    if rules.extra_card == "trade" and players == 3 and deal == "all":
        raise ValueError("the Big Two environment does not take Rules.extra_card='trade' with a "
                         "whole-deck deal: the trade decision is not an action of its space")


# The runs of pairs a mask carries at most (a hand of 13 cards: 402,624 of them); one more pair
# makes it ten times as long (a 17-card hand: 10.5 million actions, 50.8 million at 18)
_MOST_PAIRS = 6


def _most_held(game: Game) -> int:
    """The most cards a hand of `game`'s table can hold: the largest hand dealt, and under
    ``rules.draw_on_pass`` the whole stock drawn on top of it (the deck less the others' 13)."""
    return max(len(hand) for hand in game.hands) + (len(game.undealt) if game._stock else 0)


def _smack_hand_size(game: Game) -> int:
    """The most cards a hand of `game`'s table can hold (`_most_held`), which bounds the runs of
    pairs of its action space; refused where those runs would be too many for a mask."""
    most = _most_held(game)
    pairs = min(12, most // 2)
    if pairs > _MOST_PAIRS:
        runs = sum((13 - n) * 6 ** n for n in range(3, pairs + 1))
        drawn = " (drawing the stock: rules.draw_on_pass)" if game._stock else ""
        raise ValueError(f"the Big Two environment takes Rules.smack_down only where a hand holds at "
                         f"most 13 cards: here one may hold {most}{drawn}, so runs of up to {pairs} pairs, "
                         f"{runs:,} actions in every mask; play this table through Game and "
                         "ComboSpace.legal_actions")
    return most


def against(opponents: Any = "random", *, seat: int = 0, players: int = 4, rules: RulesLike = None,
            deal: str = "thirteen", render_mode: str | None = None) -> Any:
    """One game of `raw_env(players, rules, deal)` as a single-agent ``gymnasium.Env`` for the
    learner at `seat`, every other seat played inside ``step`` by `opponents` ("random",
    "greedy", a callable, or a dict of those by seat; see `handrank._against`): the learner's
    ``observation`` array, its reward, ``action_masks()`` for sb3-contrib's MaskablePPO."""
    from handrank._against_env import AgainstEnv
    return AgainstEnv(raw_env(players, rules, deal, render_mode), opponents, seat, ("random", "greedy"))
