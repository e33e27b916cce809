"""Big Two RL action spaces: `ComboSpace`, one action per combo of the deck, for hands of any size.

`bigtwo.action_mask` numbers the subsets of a hand of at most 13 cards (8192 actions). Games that
deal the whole deck to 2 or 3 players give hands of 17 to 26 cards, whose subsets no fixed mask can
number. A `ComboSpace` instead numbers every set of cards that forms a combo under the rules, over
the whole deck: its actions mean the same cards on every turn and in every hand.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from handrank.bigtwo.combo import Cards, Combo, RulesLike, context, legal_move_arrays
from handrank.cards import card_str, cards as parse_cards

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["ComboSpace"]

# bit of each card id; the unused slots (255) of legal_move_arrays add nothing
_BIT = np.zeros(256, dtype=np.uint64)
_BIT[:52] = np.left_shift(np.uint64(1), np.arange(52, dtype=np.uint64))


class ComboSpace:
    """A fixed RL action space for Big Two hands of any size, one per ruleset.

    Action 0 is the pass; actions 1 .. ``size - 1`` are the combos that exist under the rules
    (every set of 1 to 5 cards of the deck that forms one), ordered as `legal_moves` orders a
    hand's moves: by size, then key (weakest first). ``ComboSpace()`` has 19,899 actions for the
    default rules (more where two pairs are a combo).

    ``space.mask(hand, current, must_include)`` is the (size,) bool mask of the legal actions,
    ``space.cards(a)`` the cards action ``a`` plays, ``space.action(cards)`` the action of a combo;
    ``Game.action_mask(space)`` and ``Game.play_action(a, space)`` use it in a game."""

    def __init__(self, rules: RulesLike = None) -> None:
        self.rules = context(rules).rules
        cards, _, _ = legal_move_arrays(list(range(52)), None, self.rules)
        self._cards = cards                                   # row a - 1: the cards of action a
        bits = _BIT[cards].sum(axis=1)
        self._order = np.argsort(bits)
        self._sorted_bits = bits[self._order]

    @property
    def size(self) -> int:
        """The number of actions, the pass included."""
        return len(self._cards) + 1

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"<ComboSpace of {self.size} actions>"

    def mask(self, hand: Cards, current: Cards | Combo | None = None,
             must_include: str | int | None = None) -> npt.NDArray[np.bool_]:
        """The legal actions of `hand` on `current` (None: leading) as a (size,) bool mask; the pass
        (action 0) is legal only when there is a combo to beat."""
        cards, _, _ = legal_move_arrays(hand, current, self.rules, must_include)
        mask = np.zeros(self.size, dtype=bool)
        mask[self._actions_of(cards)] = True
        mask[0] = current is not None
        return mask

    def cards(self, action: int) -> list[int]:
        """The card ids action `action` plays (empty for the pass)."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= action < self.size:
            raise ValueError(f"action must be an int in 0..{self.size - 1}, got {action!r}")
        if action == 0:
            return []
        return [int(c) for c in self._cards[action - 1] if c != 255]

    def action(self, cards: Cards | Combo) -> int:
        """The action that plays `cards` (a Combo or cards); ValueError when they form no combo."""
        ids = sorted(parse_cards(cards.cards if isinstance(cards, Combo) else cards))   # distinct
        if not 1 <= len(ids) <= 5:
            raise ValueError(f"a Big Two play has 1 to 5 distinct cards, got {len(ids)}")
        row = np.full((1, 5), 255, dtype=np.uint8)
        row[0, :len(ids)] = ids
        found = self._actions_of(row)[0]
        if found < 0:
            raise ValueError(f"{' '.join(card_str(c) for c in ids)} is not a Big Two combo under these rules")
        return int(found)

    def _actions_of(self, cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
        """The actions of rows of cards (unused slots 255); -1 for a row that is no combo. (A
        hand's legal moves under the same rules are always combos of the deck.)"""
        bits = _BIT[cards].sum(axis=1)
        at = np.minimum(np.searchsorted(self._sorted_bits, bits), len(self._sorted_bits) - 1)
        return np.where(self._sorted_bits[at] == bits, self._order[at].astype(np.int64) + 1, -1)
