"""Cards: parsing, formatting and random hands.

A card is an int ``4 * rank + suit``: rank 0..12 = ``2 3 4 5 6 7 8 9 T J Q K A``, suit 0..3 =
``c d h s``. So ``2c = 0`` and ``As = 51``, the encoding phevaluator and OMPEval use.
"""
from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["RANKS", "SUITS", "card", "cards", "card_str", "hand_str", "hand_problem", "random_hands"]

RANKS = "23456789TJQKA"
SUITS = "cdhs"

_RANK_OF = {ch: i for i, ch in enumerate(RANKS)} | {ch.lower(): i for i, ch in enumerate(RANKS)}
_SUIT_OF = {ch: i for i, ch in enumerate(SUITS)} | {ch.upper(): i for i, ch in enumerate(SUITS)}
_SUIT_OF |= {"♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_SEPARATORS = " \t\n\r,;[]()'\""
_NAMES = tuple(r + s for r in RANKS for s in SUITS)
_EXPECTED = "a rank (2-9, T, J, Q, K, A or 10) then a suit (c, d, h, s or a suit symbol)"


def card_str(card_id: int) -> str:
    """The text of one card id: ``card_str(51) == "As"``."""
    return _NAMES[_check_id(card_id)]


def hand_str(ids: Iterable[int]) -> str:
    """The text of a hand: ``hand_str([51, 45]) == "As Kd"``."""
    return " ".join(card_str(c) for c in ids)


def card(text: str | int) -> int:
    """The id of one card from text (``"As"``, ``"10h"``, ``"a♠"``) or an id (checked)."""
    if isinstance(text, str):
        ids = _parse_text(text)
        if len(ids) != 1:
            raise ValueError(f"expected one card, got {len(ids)} in {text!r}")
        return ids[0]
    return _check_id(text)


def cards(hand: str | Iterable[str | int]) -> list[int]:
    """The ids of a hand, checked: ``"As Kd"``, ``"AsKd"``, ``["As", "Kd"]`` or ``[51, 45]``.

    Raises ValueError naming the card for unparsable text, ids outside 0..51 and repeated cards."""
    if isinstance(hand, str):
        ids = _parse_text(hand)
    elif isinstance(hand, (bytes, bytearray)):
        raise TypeError(f"a hand is text or a sequence of cards, not {type(hand).__name__}")
    else:
        try:
            items = list(hand)
        except TypeError:
            raise TypeError(f"a hand is text or a sequence of cards, not {type(hand).__name__}") from None
        ids = [card(item) if isinstance(item, str) else _check_id(item) for item in items]
    problem = _repeat(ids)
    if problem:
        raise ValueError(problem)
    return ids


def hand_problem(ids: Iterable[int]) -> str | None:
    """What is wrong with a row of card ids (out of range, repeated), or None."""
    ids = [int(c) for c in ids]
    for c in ids:
        if not 0 <= c <= 51:
            return f"card id {c} is out of range 0..51"
    return _repeat(ids)


def random_hands(n: int, k: int, seed: int | np.random.Generator | None = None) -> npt.NDArray[np.uint8]:
    """An (n, k) uint8 array of random hands: k distinct cards in each row, uniformly drawn.

    Vectorized: column j draws a card for every row at once and redraws only the rows where it
    repeats an earlier card, so the cost is a few passes over n whatever k is."""
    if isinstance(n, bool) or isinstance(k, bool):
        raise TypeError("n and k are ints, not bools")
    n = operator.index(n)
    k = operator.index(k)
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if not 0 <= k <= 52:
        raise ValueError(f"k must be in 0..52, got {k}")
    rng = np.random.default_rng(seed)
    hands = np.empty((n, k), dtype=np.uint8)
    held = np.zeros(n, dtype=np.uint64)
    one = np.uint64(1)
    for j in range(k):
        column = rng.integers(0, 52, size=n, dtype=np.uint8)
        clash = np.flatnonzero((held >> column.astype(np.uint64)) & one)
        while clash.size:
            column[clash] = rng.integers(0, 52, size=clash.size, dtype=np.uint8)
            still = (held[clash] >> column[clash].astype(np.uint64)) & one
            clash = clash[still.astype(bool)]
        hands[:, j] = column
        held |= one << column.astype(np.uint64)
    return hands


# ----------------------------------------------------------------------------- helpers
def _check_id(value: Any) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"a card is an int id or text like 'As', not {type(value).__name__}: {value!r}")
    c = operator.index(value)
    if not 0 <= c <= 51:
        raise ValueError(f"card id {c} is out of range 0..51")
    return c


def _repeat(ids: list[int]) -> str | None:
    seen: set[int] = set()
    for c in ids:
        if c in seen:
            return f"duplicate card {_NAMES[c]}"
        seen.add(c)
    return None


def _parse_text(text: str) -> list[int]:
    ids: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        start = i
        rank: int | None
        if text.startswith("10", i):
            rank = 8
            i += 2
        else:
            rank = _RANK_OF.get(ch)
            i += 1
        suit = _SUIT_OF.get(text[i]) if i < n else None
        if rank is None or suit is None:
            end = start
            while end < n and text[end] not in _SEPARATORS:
                end += 1
            token = text[start:max(end, start + 1)]
            raise ValueError(f"cannot parse card {_excerpt(token)} in {_excerpt(text)}: expected "
                             f"{_EXPECTED}")
        ids.append(4 * rank + suit)
        i += 1
    return ids


def _excerpt(text: str, limit: int = 60) -> str:
    """`text` quoted for a message; a long one cut short (its length said)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"
