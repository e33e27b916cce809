"""Which plays may follow which, where a house rule goes beyond "the same number of cards and a
higher key" (issue 20): three-card straights (only over their kind), bombs on singles and pairs,
four of a kind over any play that lacks one, five-card plays of the same kind only, or over any
five-card play with a lower top card."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from handrank.bigtwo.rules import Kind, Rules
from handrank.bigtwo.tables import KIND_SHIFT, TWO_PAIR4_TOP, big_two_rank
from handrank.cards import SUITS

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["plain", "follows", "smacks", "is_smack"]


def plain(rules: Rules) -> bool:
    """Whether a play follows another exactly when it has as many cards and a higher key."""
    return not (rules.bombs_beat_small or rules.four_beats_all or rules.three_card_straights
                or rules.smack_down) and rules.five_card_match == "any"


def is_smack(rules: Rules, size: int) -> bool:
    """Whether a play of `size` cards is a smack (``rules.smack_down``: four of a kind as four
    cards, a run of pairs), which never leads."""
    return rules.smack_down and (size == 4 or size > 5)


def smacks(rules: Rules, sizes: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """`is_smack` of each size."""
    size = sizes.astype(np.int64)
    return np.asarray(rules.smack_down & ((size == 4) | (size > 5)), dtype=bool)


def follows(rules: Rules, cards: npt.NDArray[np.uint8], sizes: npt.NDArray[np.uint8],
            keys: npt.NDArray[np.int32], current: tuple[tuple[int, ...], int, int]) -> npt.NDArray[np.bool_]:
    """Which of the plays (cards (M, w) padded with 255, sizes, keys) may be played on `current`,
    given as (cards, size, key)."""
    cur_cards, cur_size, cur_key = current
    size = sizes.astype(np.int64)
    key = keys.astype(np.int64)
    ok = (size == cur_size) & (key > cur_key)
    kinds = key >> KIND_SHIFT
    if cur_size == 3:                                   # a three-card straight only beats its kind
        ok &= kinds == cur_key >> KIND_SHIFT
    if cur_size == 5 and rules.five_card_match == "same_kind":
        ok &= kinds == cur_key >> KIND_SHIFT
    elif cur_size == 5 and rules.five_card_match == "top_card":
        strength = _strengths(rules)
        ok = (size == 5) & (strength[cards].max(axis=1) > max(strength[c] for c in cur_cards))
    if rules.bombs_beat_small and cur_size <= 2:
        ok |= (size == 5) & np.isin(kinds, _positions(rules, Kind.FOUR_OF_A_KIND, Kind.STRAIGHT_FLUSH))
    if rules.four_beats_all and not _is_four(rules, np.array([cur_size]), np.array([cur_key]))[0]:
        ok |= _is_four(rules, size, key)
    if rules.smack_down and cur_size == 1 and cur_cards[0] == rules.highest_card:
        ok |= smacks(rules, sizes)                      # a smack-down on the lone top card
    return np.asarray(ok, dtype=bool)


def _is_four(rules: Rules, sizes: npt.NDArray[np.int64], keys: npt.NDArray[np.int64]
             ) -> npt.NDArray[np.bool_]:
    """Which plays hold four of a kind: a bare four, or five cards keyed as four of a kind."""
    bare = (sizes == 4) & (keys > (TWO_PAIR4_TOP if rules.two_pair_size == 4 else 0))
    five = (sizes == 5) & np.isin(keys >> KIND_SHIFT, _positions(rules, Kind.FOUR_OF_A_KIND))
    return np.asarray(bare | five, dtype=bool)


def _positions(rules: Rules, *kinds: Kind) -> list[int]:
    """The key's kind field (position from 1 among the five-card kinds) of those of `kinds` that exist."""
    return [i + 1 for i, kind in enumerate(rules.five_card_kinds) if kind in kinds]


def _strengths(rules: Rules) -> npt.NDArray[np.int64]:
    """Strength of each card id (255, a padding slot: -1): its Big Two rank, and its suit where
    suits break ties between five-card plays."""
    strength = np.full(256, -1, dtype=np.int64)
    for c in range(52):
        suit = rules.suit_order.index(SUITS[c % 4]) if rules.suit_tiebreak == "all" else 0
        strength[c] = 4 * big_two_rank(c, rules.twos_low) + suit
    return strength
