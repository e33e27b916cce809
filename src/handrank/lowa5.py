"""A-5 lowball (razz, the low half of 8-or-better): 5, 6 or 7 cards, value 1..6175, higher is the
better low (6175 = 5-4-3-2-A).

Aces are low, straights and flushes are ignored, pairs count against you; 6 and 7 cards give the
best 5-card low among them."""
from __future__ import annotations

from functools import partial
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from handrank import _batch, _evaluate, _partial
from handrank._values import checked
from handrank._names import rank_name, rank_plural
from handrank.high import Category

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Category", "evaluate", "evaluate_batch", "category", "describe", "qualifies8",
           "qualifies8_batch", "MAX_VALUE", "QUALIFY8",
           "evaluate_partial", "describe_partial", "bring_in", "PARTIAL_MAX_VALUE"]


MAX_VALUE = 6175
"""The best A-5 low, 5-4-3-2-A (values run 1..6175)."""
PARTIAL_MAX_VALUE = 2379      # classes of 1 to 4 cards (evaluate_partial)
"""The best value of `evaluate_partial` (1..2379 over the classes of 1 to 4 cards)."""
QUALIFY8 = _evaluate.lowa5_qualify8()   # value of 8-7-6-5-4, the worst low that qualifies
"""The value of 8-7-6-5-4, the worst low that qualifies for 8-or-better."""

evaluate = _evaluate.lowa5_evaluate
"""The value 1..6175 of the best A-5 low in 5, 6 or 7 cards; higher is the better low (6175 =
5-4-3-2-A, 1 = K-K-K-K-Q). Aces low, straights and flushes ignored. ValueError for the wrong
number of cards, a bad id, a repeated card or unparsable text; TypeError for a non-hand."""


def evaluate_batch(cards: npt.ArrayLike, out: npt.NDArray[np.uint16] | None = None,
                   threads: int | None = None) -> npt.NDArray[np.uint16]:
    """Values of the hands in an (N, k) integer array, k in 5..7, as an (N,) uint16 array."""
    return _batch.evaluate(partial(_evaluate.batch, _evaluate.LOWA5), cards, (5, 6, 7), out, threads,
                           "lowa5.evaluate_batch", kernel_saves=True)


def qualifies8(value: int) -> bool:
    """Whether a low qualifies for 8-or-better: five unpaired cards, the highest at most an 8."""
    return _checked(value) >= QUALIFY8


def qualifies8_batch(values: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """qualifies8 over an array of values (as returned by evaluate_batch): a bool array of the
    same shape."""
    arr = np.asarray(values)
    if not isinstance(values, np.ndarray) and arr.dtype.kind in "fO":     # a list, read by its items
        if arr.size == 0:       # [] holds no values, not floats
            arr = arr.astype(np.uint16)
        elif all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                 for v in np.array(values, dtype=object).flat):
            # ints numpy keeps as objects (or floats): past 64 bits, so out of range
            raise ValueError(f"A-5 values are in 1..{MAX_VALUE}")
    values = arr
    if values.dtype.kind not in "iu":
        raise TypeError(f"values must be an integer array, got dtype {values.dtype}")
    if values.size and (values.min() < 1 or values.max() > MAX_VALUE):
        raise ValueError(f"A-5 values are in 1..{MAX_VALUE}")
    return np.asarray(values >= QUALIFY8)      # an array even for a 0-d input


def _checked(value: object) -> int:
    return checked(value, MAX_VALUE, "an A-5 value")


def category(value: int) -> Category:
    """The hand's category as a poker hand: HIGH_CARD (no pair), PAIR, ..., FOUR_OF_A_KIND.

    In lowball the enum's order is not the order of strength: compare values, not categories."""
    return Category(_evaluate.lowa5_class(_checked(value))[0])


def describe(value: int) -> str:
    """The way players say it: "Five-four low (5-4-3-2-A)", "Pair of aces (A-A-2-3-4)"."""
    cat, ranks = _evaluate.lowa5_class(_checked(value))
    cards = "-".join("A" if r == 12 else "23456789TJQK"[r] for r in _spread(Category(cat), ranks))
    if cat == Category.HIGH_CARD:
        return f"{rank_name(ranks[0]).capitalize()}-{rank_name(ranks[1])} low ({cards})"
    words = {
        Category.PAIR: f"Pair of {rank_plural(ranks[0])}",
        Category.TWO_PAIR: f"Two pair, {rank_plural(ranks[0])} and {rank_plural(ranks[1])}",
        Category.THREE_OF_A_KIND: f"Three of a kind, {rank_plural(ranks[0])}",
        Category.FULL_HOUSE: f"Full house, {rank_plural(ranks[0])} full of {rank_plural(ranks[1])}",
        Category.FOUR_OF_A_KIND: f"Four of a kind, {rank_plural(ranks[0])}",
    }[Category(cat)]
    return f"{words} ({cards})"


def _spread(cat: Category, ranks: tuple[int, ...]) -> list[int]:
    """The five ranks of a class, grouped as held: pair of aces -> A-A-4-3-2."""
    repeat = {Category.HIGH_CARD: (1,) * 5, Category.PAIR: (2, 1, 1, 1), Category.TWO_PAIR: (2, 2, 1),
              Category.THREE_OF_A_KIND: (3, 1, 1), Category.FULL_HOUSE: (3, 2),
              Category.FOUR_OF_A_KIND: (4, 1)}[cat]
    return [r for r, times in zip(ranks, repeat) for _ in range(times)]


def evaluate_partial(hand: str | Iterable[str | int]) -> int:
    """Value of a 1- to 4-card A-5 low (razz's up cards), higher is the better low: ace low, pairs
    bad, compared as the 5-card order would with the missing cards the worst kickers. Dense over
    every 1- to 4-card class, 1..PARTIAL_MAX_VALUE."""
    return _partial.evaluate(hand, low=True)


def describe_partial(value: int) -> str:
    """Words for an evaluate_partial value: "Seven-four low (7-4-2)"."""
    return _partial.describe(value, low=True)


def bring_in(up_cards: str | Iterable[str | int]) -> int:
    """Razz: the index of the player who brings it in, from one up card per player: the highest
    card (king highest, ace lowest), ties broken by suit (spades highest, then hearts, diamonds,
    clubs)."""
    return _partial.bring_in(up_cards, low=True)
