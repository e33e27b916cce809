"""Who can hold what: the players' combos after card removal, joined into groups that are drawn
(or enumerated) together.

Players whose ranges are small enough to list every joint deal are joined into one group of
joint combos with the colliding ones dropped and the weights multiplied. Monte Carlo then draws
one row per group, so narrow overlapping ranges ("AA" vs "AA") never meet a collision, and a
deal that no combination allows is found before any work. Exact enumeration walks the same rows.
"""
from __future__ import annotations

import itertools
import math
from functools import lru_cache
from math import comb, prod
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from handrank.equity._equity import NO_CARD

if TYPE_CHECKING:
    import numpy.typing as npt

# Groups are joined while their joint rows would number at most this many.
JOIN_LIMIT = 1 << 17
# A player's weights are used as they are while they lie in 2^-64..2^64: a product of ten of them
# and its sums over deals and boards stay far inside a double's range.
WEIGHT_RANGE = (2.0 ** -64, 2.0 ** 64)
# When every deal that fits weighs 0 once scaled() (the products of weights far apart underflow).
NO_WEIGHT = ("no deal has a weight above zero: the products of the players' weights underflow "
             "(weights more than 1e300 apart)")


def card_bits(ids: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint64]:
    """The 64-bit mask of each card id, as the kernels lay it out (16 bits per suit)."""
    ids64 = ids.astype(np.uint64)
    return np.left_shift(np.uint64(1), np.uint64(16) * (ids64 & np.uint64(3)) + (ids64 >> np.uint64(2)))


class Groups(NamedTuple):
    """Rows of joint hole cards: holes[r, 2p:2p+2] are player p's cards in row r (NO_CARD for
    players of other groups); group g holds rows start[g]..start[g+1]-1."""

    holes: npt.NDArray[np.uint8]
    weights: npt.NDArray[np.float64]
    masks: npt.NDArray[np.uint64]
    start: npt.NDArray[np.int64]
    from_deck: npt.NDArray[np.int32]     # players dealt from the deck when sampling

    def cumulative(self) -> npt.NDArray[np.float64]:
        """Each group's running sum of weights, restarting at every group: Monte Carlo draws a
        group's row by searching its own interval (a running sum over all groups would add the
        weight of the groups before it, and a large one would swallow a small one's precision)."""
        bounds = self.start.tolist()
        return np.concatenate([np.cumsum(self.weights[a:b]) for a, b in zip(bounds[:-1], bounds[1:])])

    @property
    def deals(self) -> int:
        """Rows of the product over groups: the deals exact enumeration walks."""
        if len(self.start) == 2:
            return len(self.weights)
        start = self.start.tolist()
        return prod(b - a for a, b in zip(start[:-1], start[1:]))


class _Group:
    def __init__(self, holes: npt.NDArray[np.uint8], weights: npt.NDArray[np.float64],
                 masks: npt.NDArray[np.uint64], players: list[int]) -> None:
        self.holes, self.weights, self.masks, self.players = holes, weights, masks, players

    def join(self, other: _Group) -> _Group:
        fits = (self.masks[:, None] & other.masks[None, :]) == 0
        a, b = np.nonzero(fits)
        return _Group(np.minimum(self.holes[a], other.holes[b]), self.weights[a] * other.weights[b],
                      self.masks[a] | other.masks[b], self.players + other.players)


def group(players: list[tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]],
          random: list[bool], sampling: bool) -> Groups:
    """Groups for the players' (combos (n, 2), weights (n,)). When `sampling`, players with a
    random range are dealt from the deck instead. Raises ValueError when no deal exists."""
    n = len(players)
    groups: list[_Group] = []
    from_deck = []
    for p, (combos, weights) in enumerate(players):
        weights = scaled(weights)
        if sampling and random[p]:
            from_deck.append(p)
            continue
        holes = np.full((len(combos), 2 * n), NO_CARD, dtype=np.uint8)
        holes[:, 2 * p:2 * p + 2] = combos
        groups.append(_Group(holes, weights, card_bits(combos[:, 0]) | card_bits(combos[:, 1]), [p]))
    while len(groups) > 1:
        groups.sort(key=lambda g: len(g.weights))
        if len(groups[0].weights) * len(groups[1].weights) > JOIN_LIMIT:
            break
        joined = groups[0].join(groups[1])
        if len(joined.weights) == 0:
            raise no_deal(joined.players)
        groups[:2] = [joined]
    if not groups:      # everyone dealt from the deck: one empty row to draw
        groups.append(_Group(np.full((1, 2 * n), NO_CARD, dtype=np.uint8), np.ones(1),
                             np.zeros(1, dtype=np.uint64), []))
    groups.sort(key=lambda g: min(g.players, default=0))
    sizes = [len(g.weights) for g in groups]
    return Groups(np.ascontiguousarray(np.concatenate([g.holes for g in groups])),
                  np.concatenate([g.weights for g in groups]),
                  np.concatenate([g.masks for g in groups]),
                  np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
                  np.array(from_deck, dtype=np.int32))


def no_deal(players: list[int]) -> ValueError:
    """The error for players (indices) whose hands always share a card."""
    seats = [str(p + 1) for p in sorted(players)]
    names = ", ".join(seats[:-1]) + " and " + seats[-1]
    return ValueError(f"no deal: the hands of players {names} always share a card")


def scaled(weights: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """One player's weights, scaled by a power of two (exactly, leaving every ratio and so every
    equity as it is) so that the largest is in [0.5, 1) when any lies outside WEIGHT_RANGE:
    joined players' weights are multiplied, and 1e300 twice overflows, 1e-200 twice underflows.
    A weight below 2^-1074 of its player's largest is then 0: its combos count for nothing, as
    they would within a double's precision."""
    low, high = WEIGHT_RANGE
    if len(weights) == 0 or (low <= weights.min() and weights.max() <= high):
        return weights
    return np.ldexp(weights, -math.frexp(float(weights.max()))[1])


# Rows are folded when a row's cards, as base-52 digits, fit in 64 bits: up to 5 players.
FOLD_PLAYERS = 5


def fold_suits(groups: Groups, board: list[int], dead: list[int]) -> Groups:
    """Suit isomorphism: when one group holds every player, rows that a permutation of suits
    maps onto each other have the same showdowns, so one row stands for all of them, with their
    weights summed. The permutation must leave the board in place and the dead cards in place,
    each as its own set: one that swaps a board card with a dead card (s and d on board As Js Ts,
    dead Ad Jd Td) maps a deal onto one with another board. Preflop every permutation qualifies
    (up to 24 rows become one); on a flop of three suits, swapping the two suits the board lacks.
    Heads-up rows come back ordered by player 2's combo (see below) whether or not any fold."""
    players = groups.holes.shape[1] // 2
    if len(groups.start) != 2 or players > FOLD_PLAYERS or len(groups.weights) < 2:
        return groups
    perms = _fixing(tuple(board), tuple(dead))
    if len(perms) == 1 and players != 2:
        return groups
    # A row's key: its cards as base-52 digits, each combo's lower card first (a combo is
    # unordered), under every permutation; the smallest names the row's class, and the image
    # that gives it stands for the class (every image has the same showdowns). Columns of int64
    # (52^10 < 2^63), not a sort along an axis and a matmul: this runs before every exact
    # enumeration, and on a flop range against a range it was a fifth of the call.
    holes = groups.holes.astype(np.int64)
    ranks, suits = holes & ~3, holes & 3
    place = np.int64(52) ** np.arange(2 * players, dtype=np.int64)
    images, keys = [], []
    for perm in perms:
        mapped = ranks | np.array(perm, dtype=np.int64)[suits]
        a, b = mapped[:, 0::2], mapped[:, 1::2]
        images.append(mapped)
        keys.append(np.minimum(a, b) @ place[0::2] + np.maximum(a, b) @ place[1::2])
    chosen = np.argmin(keys, axis=0)
    smallest = np.asarray(keys)[chosen, np.arange(len(holes))]
    # Rows in the order of their keys: the last player's combo changes slowest, so heads-up the
    # enumeration keeps player 2's values from one deal to the next (_equity.last_card_heads_up);
    # heads-up rows are reordered even when no permutation folds any.
    first, inverse = np.unique(smallest, return_index=True, return_inverse=True)[1:]
    rows = np.asarray(images)[chosen[first], first].astype(np.uint8)
    masks = np.bitwise_or.reduce([card_bits(rows[:, j]) for j in range(2 * players)])
    weights = np.bincount(inverse.ravel(), weights=groups.weights).astype(np.float64)
    return Groups(np.ascontiguousarray(rows), weights, masks,
                  np.array([0, len(first)], dtype=np.int64), groups.from_deck)


def boards(known: int, out: int) -> int:
    """The boards to walk per deal: the cards still to come from those not `out`."""
    return comb(52 - out, 5 - known)


@lru_cache(maxsize=1024)
def _fixing(board: tuple[int, ...], dead: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The permutations of suits (the identity first) that leave the board in place and the dead
    cards in place, each as its own set (cached: solvers ask about the same few boards again)."""
    return tuple(p for p in itertools.permutations(range(4))
                 if all({4 * (c >> 2) + p[c & 3] for c in cards} == cards
                        for cards in (set(board), set(dead))))


def _combo_keys(combos: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Each combo (n, 2) as one number, whichever order its cards come in."""
    return np.minimum(combos[:, 0], combos[:, 1]) * 52 + np.maximum(combos[:, 0], combos[:, 1])


def fitting_pairs(combos1: npt.NDArray[np.uint8], combos2: npt.NDArray[np.uint8]) -> int:
    """How many pairs of a combo of each share no card: all pairs, less those that share one,
    counted card by card (a pair of the same two cards is counted twice, so added back once)."""
    one, two = combos1.astype(np.int64), combos2.astype(np.int64)
    sharing = int(np.bincount(one.ravel(), minlength=52) @ np.bincount(two.ravel(), minlength=52))
    same = len(np.intersect1d(_combo_keys(one), _combo_keys(two)))
    return len(one) * len(two) - sharing + same


def runs(board: list[int], dead: list[int],
         players: list[tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]]
         ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
    """The cards still to come on a flop, turn or river (rows of 2, 1 or 0 ids) and how many
    runs each row stands for. Suit isomorphism: a permutation of suits that leaves the board, the
    dead cards and every player's weighted combos in place maps runs onto runs with the same
    showdowns, so one run (the smallest key) stands for each class, counted by its size."""
    out = set(board) | set(dead)
    deck = np.array([c for c in range(52) if c not in out], dtype=np.int64)
    if len(board) == 3:
        rows = np.stack([deck[i] for i in np.triu_indices(len(deck), 1)], axis=1)
    elif len(board) == 4:
        rows = deck.reshape(len(deck), 1)
    else:
        rows = np.zeros((1, 0), dtype=np.int64)
    perms = [p for p in _fixing(tuple(board), tuple(dead)) if all(_fixes(p, *player) for player in players)]
    if len(perms) == 1 or rows.shape[1] == 0:
        return rows.astype(np.uint8), np.ones(len(rows))
    place = np.int64(52) ** np.arange(rows.shape[1], dtype=np.int64)
    keys = np.array([np.sort(_mapped(p, rows), axis=1) @ place for p in perms])
    # keys[0] is the identity's: a run stands for its class when no image is smaller, and the
    # class has as many runs as the group has permutations over those that fix the run
    first = (keys[0] == keys.min(axis=0))
    size = len(perms) / (keys == keys[0]).sum(axis=0)
    return rows[first].astype(np.uint8), size[first].astype(np.float64)


def _mapped(perm: tuple[int, ...], ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    suits: npt.NDArray[np.int64] = np.array(perm, dtype=np.int64)[ids & 3]
    return (ids & ~3) | suits


def _fixes(perm: tuple[int, ...], combos: npt.NDArray[np.uint8],
           weights: npt.NDArray[np.float64]) -> bool:
    """Whether the permutation maps the player's combos onto themselves, weights and all."""
    ids = combos.astype(np.int64)
    weight = np.zeros(52 * 52)
    weight[_combo_keys(ids)] = weights
    image = np.zeros(52 * 52)
    image[_combo_keys(_mapped(perm, ids))] = weights
    return bool(np.array_equal(weight, image))
