"""The variant games in `handrank bench` (handrank.bench) and its agreement check: their hands,
handrank's batch evaluator for each, and their labels.

A hand is one row of card ids: for Omaha the 4 hole cards then the 5 board cards; for short deck
7 cards of the 36-card deck; for badugi 4 cards. Omaha-8 is checked on its low half (handrank's
NO_LOW, 0, below every low).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from handrank import badugi, omaha, shortdeck

if TYPE_CHECKING:
    import numpy.typing as npt

    Rows = npt.NDArray[np.uint8]

# game -> (the size of its rows, its label in tables)
VARIANTS: dict[str, tuple[int, str]] = {
    "omaha": (9, "Omaha PLO4"),
    "omaha8": (9, "Omaha-8 PLO4 low"),
    "shortdeck": (7, "short deck 7-card"),
    "badugi": (4, "badugi"),
}


def hands(game: str, n: int, rng: np.random.Generator) -> Rows:
    """n seeded random hands of a variant game: distinct cards in each row."""
    size = VARIANTS[game][0]
    deck = 36 if game == "shortdeck" else 52
    rows = np.argsort(rng.random((n, deck)), axis=1)[:, :size].astype(np.uint8)
    return rows + 16 if game == "shortdeck" else rows     # the short deck starts at the 6c


def split(rows: Rows) -> tuple[Rows, Rows]:
    """An Omaha row as (hole, board) arrays."""
    return np.ascontiguousarray(rows[:, :4]), np.ascontiguousarray(rows[:, 4:])


def evaluator(game: str) -> Callable[..., npt.NDArray[np.uint16]]:
    """handrank's batch evaluator of a variant: f(rows, threads=...)."""
    if game == "omaha":
        return lambda rows, threads=None: omaha.evaluate_batch(*split(rows), threads=threads)
    if game == "omaha8":
        return lambda rows, threads=None: omaha.evaluate_low8_batch(*split(rows), threads=threads)
    if game == "shortdeck":
        return shortdeck.evaluate_batch
    return badugi.evaluate_batch
