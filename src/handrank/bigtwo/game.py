"""A compact Big Two game state for bots and RL: deal, turns, tricks, the end and the payments."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from handrank.bigtwo import _bigtwo
from handrank.bigtwo.actions import ComboSpace
from handrank.bigtwo.combo import (Cards, Combo, RulesLike, action_cards, action_mask, card_strength,
                                    context, legal_move_arrays, make_combo, may_follow, move_list)
from handrank.bigtwo.rules import Rules
from handrank.bigtwo.scoring import payments
from handrank.cards import card_str, cards as parse_cards, hand_str

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Game", "IllegalMove", "Turn"]

DEALS = ("thirteen", "all")


@lru_cache(maxsize=None)
def _strengths(rules: Rules) -> tuple[int, ...]:
    """card_strength of every card id under `rules` (a deal looks up every card: the table makes
    dealing several times faster)."""
    return tuple(card_strength(c, rules) for c in range(52))


class IllegalMove(ValueError):
    """An action the rules do not allow now; the game state is unchanged."""


class Turn(NamedTuple):
    """One entry of `Game.history`: who acted and what they played (None: a pass)."""
    player: int
    combo: Combo | None


class Game:
    """One game of Big Two for 2 to 4 players.

    ``deal``: with 4 players every player gets 13 cards. With 2 or 3 players, ``"thirteen"``
    (default) deals 13 cards each and leaves the rest out; ``"all"`` deals the whole deck (26 each,
    or 17 each with the 52nd card to the holder of the lowest card dealt). The holder of the lowest
    card in play (3♦ in hk) leads the first trick with a play holding it; play passes to the next
    player (``(turn + 1) % players``); when every other player has passed in a row the last player
    to play leads a new trick. The first player to shed every card wins and the game ends.
    Invalid actions raise `IllegalMove` and leave the state unchanged."""

    def __init__(self, players: int = 4, rules: RulesLike = None, seed: int | np.random.Generator | None = None,
                 deal: str = "thirteen") -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError(f"Big Two has 2 to 4 players, got {players!r}")
        if deal not in DEALS:
            raise ValueError(f"deal must be one of {DEALS}, got {deal!r}")
        self._ctx = context(rules)
        self.rules = self._ctx.rules
        self.players = players
        self.deal = deal
        deck = [int(c) for c in np.random.default_rng(seed).permutation(52)]
        per_player = 13 if deal == "thirteen" or players == 4 else 52 // players
        self.hands: list[list[int]] = [sorted(deck[i * per_player:(i + 1) * per_player])
                                       for i in range(players)]
        strength = _strengths(self.rules).__getitem__
        lowest_dealt = min((c for hand in self.hands for c in hand), key=strength)
        self.turn: int = next(i for i, hand in enumerate(self.hands) if lowest_dealt in hand)
        extra = deck[players * per_player:] if deal == "all" else []
        self.hands[self.turn] = sorted(self.hands[self.turn] + extra)
        #: the lowest card in play, which may be the extra card of a whole-deck deal: its holder
        #: leads, and the first play must hold it
        self.opening_card: int = min(self.hands[self.turn], key=strength)
        self.undealt: list[int] = sorted(deck[players * per_player:]) if not extra else []
        #: the combo to beat; None when the player to act leads
        self.to_beat: Combo | None = None
        self.last_player: int = self.turn
        self.passes: int = 0
        self.winner: int | None = None
        self.history: list[Turn] = []

    # ------------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def first_play(self) -> bool:
        return not self.history

    @property
    def can_pass(self) -> bool:
        return self.winner is None and self.to_beat is not None

    def hand(self, player: int | None = None) -> list[int]:
        """The cards of `player` (default: the player to act), sorted by id."""
        return list(self.hands[self.turn if player is None else player])

    def _query(self) -> tuple[list[int], Combo | None, int | None]:
        if self.winner is not None:
            raise IllegalMove(f"the game is over: player {self.winner} won")
        return self.hands[self.turn], self.to_beat, self.opening_card if self.first_play else None

    def legal_moves(self) -> list[Combo]:
        """Every combo the player to act may play (weakest first); passing is `pass_()`."""
        hand, to_beat, must = self._query()
        return move_list(self._ctx, hand, to_beat, 0 if must is None else 1 << must)

    def legal_move_arrays(self) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.int32]]:
        """`legal_moves` as arrays (see bigtwo.legal_move_arrays)."""
        hand, to_beat, must = self._query()
        return legal_move_arrays(hand, to_beat, self.rules, must)

    def action_mask(self, space: ComboSpace | None = None) -> npt.NDArray[np.bool_]:
        """The legal actions as a bool mask: over `space` (a ComboSpace of this game's rules, any
        hand size), or by default the (8192,) mask of bigtwo.action_mask (hands of <= 13 cards)."""
        hand, to_beat, must = self._query()
        if space is None:
            return action_mask(hand, to_beat, self.rules, must)
        return self._checked(space).mask(hand, to_beat, must)

    # ------------------------------------------------------------------ actions
    def play(self, combo: Combo | Cards) -> Combo:
        """Play `combo` (a Combo or cards) for the player to act; returns the Combo played."""
        hand, to_beat, must = self._query()
        try:                # a Combo stands for its cards: one built by hand is checked too
            ids = sorted(parse_cards(combo.cards if isinstance(combo, Combo) else combo))
        except ValueError as e:
            raise IllegalMove(str(e)) from None
        missing = [c for c in ids if c not in hand]
        if missing:
            raise IllegalMove(f"player {self.turn} does not hold {hand_str(missing)}")
        key = _bigtwo.key(self._ctx.tables, bytes(ids)) if 1 <= len(ids) <= 5 else 0
        if not key:
            raise IllegalMove(f"{hand_str(ids) or 'no cards'} is not a Big Two combo")
        played = make_combo(self._ctx, tuple(ids), key)
        if must is not None and must not in ids:
            raise IllegalMove(f"the first play must include {card_str(must)}")
        if to_beat is not None and not may_follow(self._ctx, played, to_beat):
            raise IllegalMove(f"{played} does not beat {to_beat}")
        self._apply(played)
        return played

    def _apply(self, played: Combo) -> None:
        """Play `played`, a move the caller knows legal (one of `legal_moves()`: the RL
        environment skips the checks of `play`)."""
        remaining = [c for c in self.hands[self.turn] if c not in played.cards]
        self.hands[self.turn] = remaining
        self.history.append(Turn(self.turn, played))
        self.to_beat = played
        self.last_player = self.turn
        self.passes = 0
        if not remaining:
            self.winner = self.turn
        else:
            self.turn = (self.turn + 1) % self.players

    def play_action(self, action: int, space: ComboSpace | None = None) -> Combo | None:
        """Play action `action` of `action_mask(space)` (0: pass); returns the Combo, or None for a
        pass."""
        if action == 0:
            self.pass_()
            return None
        try:
            cards = (action_cards(self.hands[self.turn], action) if space is None
                     else self._checked(space).cards(action))
        except ValueError as e:
            raise IllegalMove(str(e)) from None
        return self.play(cards)

    def _checked(self, space: ComboSpace) -> ComboSpace:
        if space.rules is not self.rules and space.rules != self.rules:
            raise ValueError("the action space was built for other rules than this game's")
        return space

    def pass_(self) -> None:
        """Pass. Illegal when leading a trick."""
        self._query()
        if self.to_beat is None:
            raise IllegalMove(f"player {self.turn} leads the trick and cannot pass")
        self.history.append(Turn(self.turn, None))
        self.passes += 1
        self.turn = (self.turn + 1) % self.players
        if self.passes == self.players - 1:       # back to the last player: a new trick
            self.to_beat = None
            self.passes = 0

    # ------------------------------------------------------------------ the end
    def payments(self) -> list[int]:
        """What each player receives or pays (bigtwo.payments, by the whole-deck thresholds when
        three players were dealt the whole deck); the game must be over."""
        if self.winner is None:
            raise IllegalMove("the game is not over")
        last = self.history[-1].combo
        return payments(self.hands, self.rules, winning_play=last, whole_deck=self.deal == "all")

    def copy(self) -> Game:
        """An independent copy of the state (for search and RL rollouts)."""
        clone = object.__new__(Game)
        clone.__dict__.update(self.__dict__)
        clone.hands = [list(h) for h in self.hands]
        clone.undealt = list(self.undealt)
        clone.history = list(self.history)
        return clone

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_ctx"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._ctx = context(self.rules)

    def __repr__(self) -> str:
        state = f"winner={self.winner}" if self.over else f"turn={self.turn}, to_beat={self.to_beat}"
        counts = [len(h) for h in self.hands]
        return f"Game(players={self.players}, cards={counts}, {state})"
