"""Big Two RL action spaces: `ComboSpace`, one action per combo of the deck, for hands of any size.

`bigtwo.action_mask` numbers the subsets of a hand of at most 13 cards (8192 actions). Games that
deal the whole deck to 2 or 3 players give hands of 17 to 26 cards, whose subsets no fixed mask can
number. A `ComboSpace` instead numbers every set of cards that forms a combo under the rules, over
the whole deck: its actions mean the same cards on every turn and in every hand.

The plays of 1 to 5 cards are listed (about 20,000). Long runs (`Rules.long_straights`,
`Rules.dragon`) are too many to list (4**13 dragons alone), so they are numbered arithmetically
after them: a block per length n of (14 - n) * 4**n actions, a run's action read off its lowest
rank, its top card's suit and the suits of its other cards, in base 4. Runs of pairs
(`Rules.smack_down`) likewise: a block per number of pairs. The blocks grow with the length, so a
space bounded by the most cards a hand may hold (``max_hand_size``) is the first actions of the
unbounded one: the same number for the same play.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from handrank.bigtwo import _bigtwo
from handrank.bigtwo.combo import (Cards, Combo, RulesLike, _move_query, classify, context, legal_move_arrays,
                                    move_arrays)
from handrank.cards import SUITS, card_str, cards as parse_cards

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["ComboSpace"]

# bit of each card id; the unused slots (255) of legal_move_arrays add nothing
_BIT = np.zeros(256, dtype=np.uint64)
_BIT[:52] = np.left_shift(np.uint64(1), np.arange(52, dtype=np.uint64))
# Big Two rank of each card id (3 = 0 .. 2 = 12); the unused slots (255) rank above every card
_RANK = np.full(256, 13, dtype=np.int64)
_RANK[:52] = (np.arange(52) // 4 + 12) % 13
# a run of pairs (`Rules.smack_down`) holds one of these pairs of suits (c % 4) of each rank: its
# index is the rank's base-6 digit
_SUIT_PAIRS = ((0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3))
_PAIR_DIGIT = np.zeros(16, dtype=np.int64)
for _digit, (_a, _b) in enumerate(_SUIT_PAIRS):
    _PAIR_DIGIT[1 << _a | 1 << _b] = _digit
_POWERS_OF_6 = np.int64(6) ** np.arange(13, dtype=np.int64)


class ComboSpace:
    """A fixed RL action space for Big Two hands of any size, one per ruleset.

    Action 0 is the pass; actions 1 .. ``size - 1`` are the combos that exist under the rules
    (every set of 1 to 5 cards of the deck that forms one, then every long run the rules allow),
    ordered as `legal_moves` orders a hand's moves: by size, then key (weakest first).
    ``ComboSpace()`` has 19,899 actions for the default rules (more where two pairs are a combo;
    about 52 million more with `Rules.long_straights`, 67 million with `Rules.dragon`, some 3.1
    billion runs of pairs with `Rules.smack_down`: ask those spaces for `legal_actions`).

    ``max_hand_size`` (None: any hand) bounds the hands the space serves: it leaves out the plays
    of more than five cards that hold more cards than that, the last blocks of actions, so the
    actions it keeps are numbered as in the unbounded space (``ComboSpace(smack_rules, 13)``: the
    runs of 3 to 6 pairs, 422,536 actions). Where it leaves a play out, a hand of more cards is
    refused (ValueError).

    ``space.mask(hand, current, must_include)`` is the (size,) bool mask of the legal actions,
    ``space.legal_actions(...)`` the same as action numbers, ``space.cards(a)`` the cards action
    ``a`` plays, ``space.action(cards)`` the action of a combo; ``Game.action_mask(space)`` and
    ``Game.play_action(a, space)`` use it in a game."""

    def __init__(self, rules: RulesLike = None, max_hand_size: int | None = None) -> None:
        ctx = context(rules)
        self.rules = ctx.rules
        if max_hand_size is not None and (isinstance(max_hand_size, bool)
                                          or not isinstance(max_hand_size, (int, np.integer))):
            raise TypeError(f"max_hand_size must be None or an int, not {type(max_hand_size).__name__}")
        if max_hand_size is not None and max_hand_size < 1:
            raise ValueError(f"max_hand_size must be >= 1, got {max_hand_size!r}")
        longest = max(self.rules.sizes) if max_hand_size is None else int(max_hand_size)
        deck = list(range(52))
        # the plays of 1..5 cards, by size (then key): long runs are never listed
        cards = np.concatenate([_bigtwo.moves(ctx.tables, deck, k, 0, 0)[0][:, :5]
                                for k in ctx.sizes if k <= 5])
        self._cards = cards                                   # row a - 1: the cards of action a
        bits = _BIT[cards].sum(axis=1)
        self._order = np.argsort(bits)
        self._sorted_bits = bits[self._order]
        # the first action of each run length's block (by length), and the end of the last block
        self._run_start = np.zeros(14, dtype=np.int64)
        start = len(cards) + 1
        self._run_sizes = tuple(n for n in self.rules.run_sizes if n <= longest)
        for n in self._run_sizes:
            self._run_start[n] = start
            start += (14 - n) * 4 ** n
        # then a block per number of pairs n (3..12) of runs of pairs: (13 - n) * 6**n actions,
        # a run's action read off its lowest rank and the pair of suits of each rank, in base 6
        self._pair_start = np.zeros(13, dtype=np.int64)
        self._pair_counts = tuple(n // 2 for n in self.rules.pair_run_sizes if n <= longest)
        for n in self._pair_counts:
            self._pair_start[n] = start
            start += (13 - n) * 6 ** n
        self._size = start
        #: the bound the space was built for (None: any hand)
        self.max_hand_size = None if max_hand_size is None else longest
        # the hands beyond it would be misnumbered only where it left a play out
        left_out = len(self._run_sizes) < len(self.rules.run_sizes) \
            or len(self._pair_counts) < len(self.rules.pair_run_sizes)
        self._hand_limit = longest if left_out else None
        # the position of each card's suit in the rules' suit order (a top card's digit)
        self._suit_position = np.array([self.rules.suit_order.index(SUITS[c % 4]) for c in range(52)]
                                       + [0] * 204, dtype=np.int64)
        self._index = self._direct_index()

    def _direct_index(self) -> _bigtwo.ActionIndex | None:
        """Where a hand's legal moves are exactly `moves` above the key to beat (every preset), the
        compiled enumeration marks their actions itself (no array of moves, no Python object)."""
        ctx = context(self.rules)
        if not ctx.plain or self.rules.run_sizes or self.rules.last_play != "any":
            return None
        return _bigtwo.ActionIndex(ctx.tables, self._sorted_bits, self._order)

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k != "_index"}     # compiled: rebuilt

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._index = self._direct_index()

    @property
    def size(self) -> int:
        """The number of actions, the pass included."""
        return self._size

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        bound = "" if self.max_hand_size is None else f" for hands of at most {self.max_hand_size} cards"
        return f"<ComboSpace of {self.size} actions{bound}>"

    def legal_actions(self, hand: Cards, current: Cards | Combo | None = None,
                      must_include: str | int | None = None) -> npt.NDArray[np.int64]:
        """The legal actions of `hand` on `current` (None: leading), ascending, as an int64 array:
        the pass (0) first where there is a combo to beat. (Spaces with long runs are large: this
        names the few legal actions without a mask of them all.)"""
        cards, sizes, _ = legal_move_arrays(hand, current, self.rules, must_include)
        self._check_hand(hand)
        long = sizes > 5
        actions = np.concatenate([[0] if current is not None else [],
                                  self._actions_of(cards[~long, :5]), self._run_actions(cards[long])])
        return np.sort(actions.astype(np.int64))

    def _check_hand(self, hand: Cards) -> None:
        """Refuse a hand longer than the space serves, where it might hold a play left out."""
        if self._hand_limit is not None and len(parse_cards(hand)) > self._hand_limit:
            raise ValueError(f"this ComboSpace serves hands of at most {self._hand_limit} cards "
                             f"(max_hand_size), got {len(parse_cards(hand))}")

    def mask(self, hand: Cards, current: Cards | Combo | None = None,
             must_include: str | int | None = None) -> npt.NDArray[np.bool_]:
        """The legal actions of `hand` on `current` (None: leading) as a (size,) bool mask; the pass
        (action 0) is legal only when there is a combo to beat."""
        combo, must = _move_query(hand, current, must_include, context(self.rules))
        mask = np.zeros(self.size, dtype=bool)
        self._mark(hand, combo, must, mask)
        mask[0] = current is not None
        return mask

    def _mark(self, hand: Cards, current: Combo | None, must: int,
              out: npt.NDArray[np.bool_] | npt.NDArray[np.int8] | npt.NDArray[np.uint8]) -> None:
        """Set to 1 the entries of `out` (a (size,) bool, int8 or uint8 array) at the actions of
        the legal moves of a checked query: `current` a Combo of the rules or None, `must` a bit
        set of cards (0: none). The pass is the caller's."""
        if self._index is not None:
            if current is None:
                self._index.mark(hand, 0, 0, must, out)
            else:
                self._index.mark(hand, current.size, current.key, must, out)
            return
        self._check_hand(hand)
        cards, sizes, _ = move_arrays(context(self.rules), hand, current, must)
        long = sizes > 5
        out[self._actions_of(cards[~long, :5])] = 1
        out[self._run_actions(cards[long])] = 1

    def cards(self, action: int) -> list[int]:
        """The card ids action `action` plays (empty for the pass)."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= action < self.size:
            raise ValueError(f"action must be an int in 0..{self.size - 1}, got {action!r}")
        if action == 0:
            return []
        if action <= len(self._cards):
            return [int(c) for c in self._cards[action - 1] if c != 255]
        if self.rules.smack_down:
            n = max(n for n in self._pair_counts if self._pair_start[n] <= action)
            low, digits = divmod(int(action) - int(self._pair_start[n]), 6 ** n)
            pairs = []
            for j in range(n):
                rank = (low + j + 1) % 13                        # the poker rank of Big Two rank low + j
                pairs += [4 * rank + suit for suit in _SUIT_PAIRS[digits // 6 ** j % 6]]
            return sorted(pairs)
        n = max(n for n in self._run_sizes if self._run_start[n] <= action)
        low, rest = divmod(int(action) - int(self._run_start[n]), 4 ** n)
        top_position, digits = divmod(rest, 4 ** (n - 1))
        ranks = [(low + j + 1) % 13 for j in range(n)]            # poker ranks, lowest card first
        run = [4 * r + (digits >> 2 * j & 3) for j, r in enumerate(ranks[:-1])]
        run.append(4 * ranks[-1] + SUITS.index(self.rules.suit_order[top_position]))
        return sorted(run)

    def action(self, cards: Cards | Combo) -> int:
        """The action that plays `cards` (a Combo or cards); ValueError when they form no combo."""
        ids = sorted(parse_cards(cards.cards if isinstance(cards, Combo) else cards))   # distinct
        longest = max(self.rules.sizes)
        if not 1 <= len(ids) <= longest:
            raise ValueError(f"a Big Two play has 1 to {longest} distinct cards, got {len(ids)}")
        row = np.full((1, 5), 255, dtype=np.uint8)
        if len(ids) <= 5:
            row[0, :len(ids)] = ids
            found = int(self._actions_of(row)[0])
        elif classify(ids, self.rules) is None:
            found = -1
        elif len(ids) not in self._run_sizes + tuple(2 * n for n in self._pair_counts):
            raise ValueError(f"{' '.join(card_str(c) for c in ids)} is no action of this space: it serves "
                             f"hands of at most {self.max_hand_size} cards (max_hand_size)")
        else:
            found = int(self._run_actions(np.array([ids], dtype=np.uint8))[0])
        if found < 0:
            raise ValueError(f"{' '.join(card_str(c) for c in ids)} is not a Big Two combo under these rules")
        return found

    def _actions_of(self, cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
        """The actions of rows of 1 to 5 cards (unused slots 255); -1 for a row that is no combo.
        (A hand's legal moves under the same rules are always combos of the deck.)"""
        bits = _BIT[cards].sum(axis=1)
        at = np.minimum(np.searchsorted(self._sorted_bits, bits), len(self._sorted_bits) - 1)
        return np.where(self._sorted_bits[at] == bits, self._order[at].astype(np.int64) + 1, -1)

    def _pair_run_actions(self, runs: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
        """The actions of rows that are runs of pairs (unused slots 255)."""
        rank = _RANK[runs]
        held = rank < 13
        n = held.sum(axis=1) // 2
        low = rank.min(axis=1)
        suits = np.zeros((len(runs), 13), dtype=np.int64)      # a bit set of suits per rank offset
        rows = np.broadcast_to(np.arange(len(runs))[:, None], runs.shape)
        np.add.at(suits, (rows[held], (rank - low[:, None])[held]),
                  np.left_shift(1, runs.astype(np.int64) % 4)[held])
        digits = np.where(np.arange(13) < n[:, None], _PAIR_DIGIT[suits], 0)
        return np.asarray(self._pair_start[n] + low * _POWERS_OF_6[n] + (digits * _POWERS_OF_6).sum(axis=1),
                          dtype=np.int64)

    def _run_actions(self, runs: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
        """The actions of rows that are long runs of the rules, or runs of pairs (unused slots 255)."""
        if not len(runs):
            return np.zeros(0, dtype=np.int64)
        if self.rules.smack_down:
            return self._pair_run_actions(runs)
        rank = _RANK[runs]
        n = (rank < 13).sum(axis=1)
        low = rank.min(axis=1)
        high = low + n - 1
        top = runs[np.arange(len(runs)), np.argmax(rank == high[:, None], axis=1)]
        # every card but the top one (nor a padding slot): its suit is the base-4 digit of its
        # place in the run
        digit = np.where(rank < high[:, None], runs.astype(np.int64) % 4, 0)
        others = (digit << 2 * (rank - low[:, None])).sum(axis=1)
        start = self._run_start[n]
        power = np.int64(4) ** (n - 1)
        return np.asarray(start + (low * 4 + self._suit_position[top]) * power + others, dtype=np.int64)
