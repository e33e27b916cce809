"""Rule thresholds of the three-row games (OFC, Chinese poker): a table of ``(threshold, number)``
pairs, a threshold written the way players say it (a top hand as ranks, ``"QQ"``; a 5-card row
by category, ``"full house"``; a 2-7 middle as the worst low that counts, ``"98764"``), read into
the per-value lookup arrays the compiled kernels take."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from handrank import _evaluate, high3, low27
from handrank.cards import RANKS

__all__ = ["Table", "CATEGORIES", "MIN_CARDS", "MAX_CARDS", "top_value", "category_value", "low_value",
           "check_table", "check_int", "lookup", "reaches"]

# Threshold names of the 5-card categories, weakest first, and the royal flush on top.
CATEGORIES = ("high card", "pair", "two pair", "trips", "straight", "flush", "full house", "quads",
              "straight flush", "royal flush")
_ROYAL_FLUSH = 7462

Table = tuple[tuple[str, int], ...]

MIN_CARDS, MAX_CARDS = 13, 17     # a Fantasyland hand


# ---------------------------------------------------------------------- thresholds
def check_int(name: str, value: Any, low: int, high: int) -> None:
    """Rules.`name` must be an int in low..high."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Rules.{name} must be an int, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"Rules.{name} must be in {low}..{high}, got {value}")


def check_table(name: str, table: Any, parse: Any, is_count: bool) -> Table:
    """Rules.`name` as a tuple of (threshold, number) pairs: thresholds read by `parse` and
    distinct, numbers ints (Fantasyland card counts if `is_count`, else royalties 0..1000)."""
    if isinstance(table, dict):
        table = tuple(table.items())
    try:
        entries = [tuple(entry) for entry in table]
    except TypeError:
        raise TypeError(f"Rules.{name} must be (threshold, number) pairs or a dict, got {table!r}") from None
    seen: dict[int, str] = {}
    for entry in entries:
        if len(entry) != 2:
            raise ValueError(f"Rules.{name}: expected a (threshold, number) pair, got {entry!r}")
        threshold, number = entry
        value = parse(threshold, f"Rules.{name}")
        if value in seen:
            raise ValueError(f"Rules.{name}: {threshold!r} repeats the threshold {seen[value]!r}")
        seen[value] = threshold
        if isinstance(number, bool) or not isinstance(number, int):
            raise TypeError(f"Rules.{name}: the number for {threshold!r} must be an int, got {number!r}")
        if is_count and not MIN_CARDS <= number <= MAX_CARDS:
            raise ValueError(f"Rules.{name}: {threshold!r} deals {number} cards; Fantasyland deals "
                             f"{MIN_CARDS}..{MAX_CARDS}")
        if not is_count and not 0 <= number <= 1000:
            raise ValueError(f"Rules.{name}: the royalty for {threshold!r} must be in 0..1000, got {number}")
    return tuple((str(t), int(n)) for t, n in entries)


def _ranks(text: Any, where: str, sizes: tuple[int, ...]) -> list[int]:
    if not isinstance(text, str):
        raise TypeError(f"{where}: a threshold is text, got {text!r}")
    ranks = text.upper().replace("10", "T")
    if len(ranks) not in sizes or any(r not in RANKS for r in ranks):
        raise ValueError(f"{where}: cannot read threshold {text!r}")
    return [RANKS.index(r) for r in ranks]


def top_value(text: Any, where: str) -> int:
    """The high3 value of the weakest top that reaches `text`: "QQ" (a pair, any kicker) or three
    ranks ("222", "QQ5", "AK9")."""
    ranks = _ranks(text, f"{where} (a top threshold is a pair like 'QQ' or three ranks like '222')",
                   (2, 3))
    if len(ranks) == 2:
        if ranks[0] != ranks[1]:
            raise ValueError(f"{where}: a two-rank top threshold is a pair, got {text!r}")
        ranks.append(1 if ranks[0] == 0 else 0)     # the lowest kicker
    counts = [0] * 13
    ids = []
    for r in ranks:
        ids.append(4 * r + counts[r])
        counts[r] += 1
    return int(high3.evaluate(ids))


def category_value(text: Any, where: str) -> int:
    """The lowest high value of the category `text` ("flush"), or the royal flush."""
    if not isinstance(text, str) or text.lower() not in CATEGORIES:
        raise ValueError(f"{where}: unknown threshold {text!r}; categories: {', '.join(CATEGORIES)}")
    index = CATEGORIES.index(text.lower())
    return _ROYAL_FLUSH if index == 9 else int(_category_starts()[index])


def low_value(text: Any, where: str) -> int:
    """The 2-7 value of the offsuit low `text` ("98764"): five different ranks, no straight."""
    ranks = _ranks(text, f"{where} (a 2-7 threshold is five ranks like '98764')", (5,))
    ordered = sorted(ranks)
    if len(set(ranks)) != 5 or ordered[4] - ordered[0] == 4:
        raise ValueError(f"{where}: a 2-7 threshold is five different ranks forming no straight, got {text!r}")
    return int(low27.evaluate([4 * r + (i % 2) for i, r in enumerate(ranks)]))


@lru_cache(maxsize=1)
def _category_starts() -> np.ndarray:
    """The lowest high value of each of the 9 categories."""
    categories = np.array([_evaluate.high_class(v)[0] for v in range(1, _ROYAL_FLUSH + 1)])
    return 1 + np.searchsorted(categories, np.arange(9))


# ---------------------------------------------------------------------- compiled tables
def lookup(table: Table, parse: Any, size: int) -> np.ndarray:
    """For every value 0..size-1 the number of the highest threshold at or below it (else 0)."""
    out = np.zeros(size, dtype=np.int32)
    for threshold, number in sorted(table, key=lambda entry: parse(entry[0], "")):
        out[parse(threshold, ""):] = number
    return out


def reaches(threshold: str | None, parse: Any, size: int) -> np.ndarray:
    """For every value 0..size-1: 1 if it reaches `threshold` (never, for None)."""
    out = np.zeros(size, dtype=np.uint8)
    if threshold is not None:
        out[parse(threshold, ""):] = 1
    return out
