"""Big Two play flow (issue 20) as plain facts of the rules: the plays a last-card rule forbids,
and the instant results of a deal (all four 2s, the Malta "dragun"). `Game` applies them; the
legal moves leave out the last plays a rule forbids."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from handrank.bigtwo.rules import Rules
from handrank.cards import RANKS

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["forbidden_last", "allowed_last", "is_dragun", "four_twos_holder", "instant_result"]

_TWO = RANKS.index("2")            # card ids 4 * rank + suit: the 2s are ids 0..3
_THREE = RANKS.index("3")


def forbidden_last(rules: Rules, cards: Sequence[int]) -> bool:
    """Whether `cards` may not be a hand's last play under ``rules.last_play``."""
    mode = rules.last_play
    if mode == "any":
        return False
    if mode == "no_top_card":
        return rules.highest_card in cards
    if mode == "no_single_top_card":
        return len(cards) == 1 and cards[0] == rules.highest_card
    twos = all(c // 4 == _TWO for c in cards)
    if mode == "no_single_two":
        return len(cards) == 1 and twos
    return len(cards) <= 2 and twos                    # no_single_or_pair_of_twos


def allowed_last(rules: Rules, cards: npt.NDArray[np.uint8], sizes: npt.NDArray[np.uint8],
                 hand_size: int) -> npt.NDArray[np.bool_]:
    """Which moves (cards (M, w) padded with 255, sizes) the last-card rule allows from a hand of
    `hand_size` cards: all but those that would empty the hand with a forbidden play."""
    ok = np.ones(len(sizes), dtype=bool)
    if rules.last_play != "any":        # (a long run may empty a hand of 6 to 13 cards)
        for i in np.flatnonzero(sizes == hand_size).tolist():
            ok[i] = not forbidden_last(rules, cards[i, :hand_size].tolist())
    return ok


def is_dragun(hand: Sequence[int]) -> bool:
    """Whether a dealt hand is a Malta dragun: thirteen cards that split into six pairs and one
    card, so exactly one rank is held an odd number of times (four of a kind is two pairs, a
    triple a pair and the single)."""
    if len(hand) != 13:
        return False
    counts = np.bincount(np.asarray(hand) // 4, minlength=13)
    return int((counts % 2).sum()) == 1


def four_twos_holder(hands: Sequence[Sequence[int]]) -> int | None:
    """The player whose hand holds all four 2s, or None."""
    return next((i for i, hand in enumerate(hands) if sum(c // 4 == _TWO for c in hand) == 4), None)


def instant_result(rules: Rules, hands: Sequence[Sequence[int]]) -> tuple[str, int] | None:
    """The result the deal decides at once, as (outcome, player), or None: ``("four_twos", p)``
    when player p holds all four 2s and ``rules.four_twos`` is "win" or "draw"; ``("dragun", p)``
    or ``("dragun_bla_bajd", p)`` (a dragun holding a pair of 3s: p loses) under ``rules.dragun``.
    Four 2s are looked at first, then the players in seat order."""
    holder = four_twos_holder(hands) if rules.four_twos in ("win", "draw") else None
    if holder is not None:
        return "four_twos", holder
    if rules.dragun:
        for player, hand in enumerate(hands):
            if is_dragun(hand):
                threes = sum(c // 4 == _THREE for c in hand)
                return ("dragun_bla_bajd" if threes >= 2 else "dragun"), player
    return None
