"""The fixed RL action space of OFC street play: 1024 actions, one per way to send up to 5 dealt
cards to the rows or the discards.

The cards dealt on a street (5 on the first, then 3 in pineapple or 1 in classic) are taken in
ascending id order; base-4 digit i of an action (``action // 4**i % 4``) says where card i goes:
0 top, 1 middle, 2 bottom, 3 discarded. Digits beyond the dealt cards are 0, so a one-card street
uses actions 0..2 and a three-card street actions 0..63. ``mask(game)`` marks the legal actions:
no row over-full and exactly the street's discards (a pineapple street after the first discards
one card: 27 legal actions on an empty board). Fantasyland hands are set at once and have no
action (`ofc.Game.play_fantasyland`).
"""
from __future__ import annotations

from functools import lru_cache
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from handrank._threerow.board import Cards
from handrank.cards import cards as parse_cards
from handrank.ofc.placement import IllegalPlacement, Placement

if TYPE_CHECKING:
    import numpy.typing as npt

    from handrank.ofc.game import Game

__all__ = ["SIZE", "DISCARD", "mask", "legal", "legal_ids", "placement", "placement_of_ids", "action",
           "checked"]

SIZE = 4 ** 5
DISCARD = 3

# _DIGITS[a, i]: where action a sends dealt card i
_DIGITS = (np.arange(SIZE)[:, None] // 4 ** np.arange(5)[None, :] % 4).astype(np.int8)
# _COUNTS[n][a, d]: how many of n dealt cards action a (< 4**n) sends to d (top, middle, bottom,
# discards)
_COUNTS = [np.stack([(_DIGITS[:4 ** n, :n] == d).sum(axis=1) for d in range(4)], axis=1)
           for n in range(6)]


def mask(game: Game) -> npt.NDArray[np.bool_]:
    """The (1024,) bool mask of the legal actions of the player to act."""
    if game.fantasyland_turn:
        raise IllegalPlacement("a Fantasyland hand has no action: use play_fantasyland()")
    _, discards = game.to_place()
    assert game.turn is not None
    return legal(len(game.dealt), game.boards[game.turn].free, discards).copy()


@lru_cache(maxsize=None)
def legal(dealt: int, free: tuple[int, int, int], discards: int) -> npt.NDArray[np.bool_]:
    """The (1024,) read-only mask of the legal actions for `dealt` cards, rows with `free` slots
    and `discards` to make (few distinct cases: built once each)."""
    counts = _COUNTS[dealt]
    legal = np.zeros(SIZE, dtype=np.bool_)
    legal[:len(counts)] = ((counts[:, 0] <= free[0]) & (counts[:, 1] <= free[1])
                           & (counts[:, 2] <= free[2]) & (counts[:, 3] == discards))
    return _frozen(legal)


@lru_cache(maxsize=None)
def legal_ids(dealt: int, free: tuple[int, int, int], discards: int) -> npt.NDArray[np.int64]:
    """The legal action ids of `legal`'s mask, ascending, as a read-only int64 array."""
    return _frozen(np.flatnonzero(legal(dealt, free, discards)).astype(np.int64))


def _frozen(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """`array` over immutable bytes: every caller shares the cached array, and one that owned its
    memory could be flagged writable again (``setflags(write=True)``); this one cannot."""
    return np.frombuffer(array.tobytes(), dtype=array.dtype)


def placement(action: int, dealt: Cards) -> Placement:
    """The placement action `action` makes of the cards `dealt` (any card form, any order: taken
    ascending)."""
    action = checked(action)
    ids = sorted(parse_cards(dealt))
    if action >= 4 ** len(ids):
        raise ValueError(f"action {action} places more than the {len(ids)} cards dealt")
    return placement_of_ids(action, ids)


def placement_of_ids(action: int, ids: Sequence[int]) -> Placement:
    """`placement` for a checked action and the dealt ids, ascending (the fast path: the parts
    come out ascending, so they are stored as they are)."""
    parts: tuple[list[int], ...] = ([], [], [], [])
    for card in ids:
        parts[action & 3].append(card)
        action >>= 2
    return Placement.of_sorted(*parts)


def action(placement: Placement, dealt: Cards) -> int:
    """The action of `placement` of the cards `dealt` (any card form)."""
    ids = sorted(parse_cards(dealt))
    where = {c: d for d, part in enumerate((*placement.rows, placement.discards)) for c in part}
    if sorted(where) != ids:
        raise ValueError("the placement does not use exactly the cards dealt")
    return sum(where[c] * 4 ** i for i, c in enumerate(ids))


def checked(action: Any) -> int:
    """`action` as an int in 0..SIZE - 1 (TypeError, ValueError otherwise)."""
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action is an int, not {type(action).__name__}")
    if not 0 <= action < SIZE:
        raise ValueError(f"an action is in 0..{SIZE - 1}, got {action}")
    return int(action)
