"""Short deck (6+ hold'em): 36 cards, 6 through A; the best five of 5, 6 or 7 cards.

A flush beats a full house, and A-6-7-8-9 is the lowest straight (nine high). Two rule sets:
`rules="standard"` (the default) ranks a straight above three of a kind, `rules="triton"` three of
a kind above a straight. Values are dense, higher is better, 1..MAX_VALUE (1404 classes) in each
rule set: 1 is J-9-8-7-6 (the worst high card), MAX_VALUE the royal flush.
A card below the 6 is a ValueError.
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from handrank import _batch, _shortdeck
from handrank._values import checked
from handrank.cards import card_str, cards as parse_hand
from handrank.high import Category, describe_class

if TYPE_CHECKING:
    from collections.abc import Iterable

    import numpy.typing as npt

__all__ = ["Category", "evaluate", "evaluate_batch", "category", "describe", "MAX_VALUE", "RULES"]

MAX_VALUE: int = _shortdeck.MAX_VALUE
"""The best short-deck value, a royal flush (values run 1..1404)."""
RULES = ("standard", "triton")
"""The rule sets `rules=` takes: "standard" (a straight beats three of a kind) and "triton" (three
of a kind beats a straight); in both a flush beats a full house."""
LOWEST_CARD: int = _shortdeck.LOWEST_CARD       # the 6c


def _rules(rules: object) -> int:
    if not isinstance(rules, str):
        raise TypeError(f"rules must be a str, not {type(rules).__name__}")
    if rules not in RULES:
        raise ValueError(f"rules must be 'standard' or 'triton', got {rules!r}")
    return _shortdeck.STANDARD if rules == "standard" else _shortdeck.TRITON


def _below_six(card: int) -> str:
    return f"{card_str(card)} is not in the short deck (6 through A)"


def evaluate(hand: str | Iterable[str | int], *, rules: str = "standard") -> int:
    """Value 1..1404 of a 5-, 6- or 7-card short-deck hand (higher is better).

    >>> evaluate("As 6s 7s 8s 9s") > evaluate("Ks Kd Kh 6c 6d")       # a straight flush, nine high
    True
    """
    game = _rules(rules)
    ids = parse_hand(hand)
    if not 5 <= len(ids) <= 7:
        raise ValueError(f"a short-deck hand has 5, 6 or 7 cards, got {len(ids)}")
    low = [c for c in ids if c < LOWEST_CARD]
    if low:
        raise ValueError(_below_six(low[0]))
    return int(_shortdeck.evaluate_ids(game, np.array(ids, dtype=np.uint8)))


def evaluate_batch(cards: npt.ArrayLike, *, rules: str = "standard",
                   out: npt.NDArray[np.uint16] | None = None,
                   threads: int | None = None) -> npt.NDArray[np.uint16]:
    """Values of the hands in an (N, k) integer array, k in 5..7, as an (N,) uint16 array; the GIL
    is released, `threads` splits the rows, and a bad row (a card below the 6, an id outside
    0..51, a repeated card) raises ValueError naming it."""
    kernel = partial(_shortdeck.batch, _rules(rules))
    arr = _batch.card_array(cards, (5, 6, 7), "shortdeck.evaluate_batch")
    try:
        return _batch.evaluate(kernel, arr, (5, 6, 7), out, threads, "shortdeck.evaluate_batch",
                               kernel_saves=True)
    except ValueError as exc:
        if not str(exc).startswith("row "):
            raise
        raise _row_error(arr) from None


def _row_error(arr: npt.NDArray[Any]) -> ValueError:
    """The error for the first row with a repeated card, an id outside 0..51 or a card below
    the 6. It reads a copy of the cards: another thread writing them now must not turn the row
    found bad into one that reads well."""
    arr = arr.copy()
    rows = np.sort(arr, axis=1)
    bad = (rows[:, 1:] == rows[:, :-1]).any(axis=1) | (rows[:, 0] < LOWEST_CARD) | (rows[:, -1] > 51)
    found = np.flatnonzero(bad)
    if not found.size:
        return ValueError("the cards changed during the call; do not write to the input while a "
                          "batch call runs")
    row = int(found[0])
    ids = arr[row].tolist()
    for c in ids:
        if c > 51:
            return ValueError(f"row {row}: card id {c} is out of range 0..51")
    low = [c for c in ids if c < LOWEST_CARD]
    if low:
        return ValueError(f"row {row}: {_below_six(low[0])}")
    repeated = [c for c in ids if ids.count(c) > 1]
    return ValueError(f"row {row}: duplicate card {card_str(repeated[0])}")


def _class(value: object, rules: str) -> tuple[int, tuple[int, ...]]:
    game = _rules(rules)
    result: tuple[int, tuple[int, ...]] = _shortdeck.value_class(game, checked(value, MAX_VALUE, "a short-deck value"))
    return result


def category(value: int, *, rules: str = "standard") -> Category:
    """The category of a value (the high ladder's names; in short deck FLUSH beats FULL_HOUSE, and
    under "triton" THREE_OF_A_KIND beats STRAIGHT: compare values, not categories)."""
    return Category(_class(value, rules)[0])


def describe(value: int, *, rules: str = "standard") -> str:
    """Plain words: "Flush, ace high (A-K-Q-J-9)", "Straight, nine high" (A-6-7-8-9)."""
    cat, ranks = _class(value, rules)
    return describe_class(Category(cat), ranks)
