"""Hold'em ranges in the notation of PokerStove, Equilab and OMPEval: a weighted set of two-card
combos.

    Range("QQ+, AKs, A5s-A2s, KQo, 76s+, T9, AhKh, AKo:0.5")
    Range("15%")        # the best 15% of the 1326 combos by PREFLOP_ORDER
    Range("random")     # every combo

Terms are separated by commas (or spaces). A term is a pair (``QQ``), two ranks (``T9``: all 16
combos, ``T9s`` the 4 suited, ``T9o`` the 12 offsuit), an exact combo (``AhKh``), ``random``
(or ``any``) or a percentage. ``+`` raises the lower rank up to the higher one (``A5s+`` is
A5s..AKs, ``QQ+`` is QQ..AA); a dash spans one rank (``A5s-A2s``, ``QQ-99``). ``:w`` after a
term gives its combos weight w (relative frequency, 1 by default); a combo named twice keeps the
last weight.
"""
from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable, Iterator

from handrank.cards import RANKS, SHOWN_CHARACTERS, card_str, cards as parse_cards, shown
from handrank.equity.order import PREFLOP_ORDER

__all__ = ["Range", "Combo", "hand_class", "class_combos"]

Combo = tuple[int, int]         # two card ids, the higher id first

_RANK = {ch: i for i, ch in enumerate(RANKS)}
_CLASS = re.compile(r"([2-9TJQKA])([2-9TJQKA])([so]?)")
_COMBO = re.compile(r"([2-9TJQKA][cdhs]){2}")
_PERCENT = re.compile(r"(\d+(?:\.\d*)?|\.\d+)%")
# a weight as Python writes a float (repr), so that str(Range) parses back: 0.5, 1e+20, 5e-324
_WEIGHT = re.compile(r"\+?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
# the suit symbols cards.cards reads, for exact combos ('A♠K♠')
_SYMBOLS = str.maketrans("♣♦♥♠♧♢♡♤", "cdhscdhs")


def _combo(a: int, b: int) -> Combo:
    return (a, b) if a > b else (b, a)


def class_combos(name: str) -> list[Combo]:
    """The combos of a hand class: ``"QQ"`` (6), ``"AKs"`` (4) or ``"AKo"`` (12)."""
    match = _CLASS.fullmatch(name)
    if not match:
        raise ValueError(f"{shown(name)} is not a hand class like 'QQ', 'AKs' or 'AKo'")
    high, low, kind = _RANK[match[1]], _RANK[match[2]], match[3]
    if high == low:
        if kind:
            raise ValueError(f"{name!r}: a pair is neither suited nor offsuit")
        return [_combo(4 * high + s, 4 * high + t) for s in range(4) for t in range(s + 1, 4)]
    if high < low or not kind:
        raise ValueError(f"{name!r} is not a hand class: the higher rank first, then 's' or 'o'")
    if kind == "s":
        return [_combo(4 * high + s, 4 * low + s) for s in range(4)]
    return [_combo(4 * high + s, 4 * low + t) for s in range(4) for t in range(4) if s != t]


def hand_class(combo: Combo) -> str:
    """The class of a combo: ``hand_class((51, 47)) == "AKs"``."""
    a, b = combo
    high, low = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
    if high == low:
        return RANKS[high] * 2
    return RANKS[high] + RANKS[low] + ("s" if a & 3 == b & 3 else "o")


class Range:
    """A weighted set of two-card combos, parsed from range notation (see the module docstring)
    or built from combos: ``Range({(51, 47): 1.0})``. Immutable; iterating gives (combo, weight)
    in ascending order of combo."""

    __slots__ = ("_weights", "_text")
    _weights: dict[Combo, float]
    _text: str | None

    def __init__(self, spec: str | Range | dict[Combo, float]) -> None:
        if isinstance(spec, Range):
            weights = dict(spec._weights)
            text = spec._text
        elif isinstance(spec, str):
            weights = _parse(spec)
            text = spec.strip()
        elif isinstance(spec, dict):
            weights = {}
            for combo, weight in spec.items():
                ids = parse_cards(combo)
                if len(ids) != 2:
                    raise ValueError(f"a combo is two cards, got {len(ids)} in "
                                     f"{shown(combo) if isinstance(combo, str) else repr(combo)}")
                weights[_combo(*ids)] = check_weight(weight, repr(combo))
            text = None
        else:
            raise TypeError(f"a range is range notation text, a Range or a dict of combos to "
                            f"weights, not {type(spec).__name__}")
        if not weights:
            raise ValueError(f"the range {shown(spec) if isinstance(spec, str) else spec!r} holds no combo")
        self._weights = dict(sorted(weights.items()))
        self._text = text

    # -- what a range holds
    @property
    def combos(self) -> list[Combo]:
        return list(self._weights)

    @property
    def weights(self) -> list[float]:
        return list(self._weights.values())

    def weight(self, combo: str | Iterable[str | int]) -> float:
        """The weight of one combo (0 when the range lacks it)."""
        ids = parse_cards(combo)
        if len(ids) != 2:
            raise ValueError(f"a combo is two cards, got {len(ids)}")
        return self._weights.get(_combo(*ids), 0.0)

    def __len__(self) -> int:
        return len(self._weights)

    def __iter__(self) -> Iterator[tuple[Combo, float]]:
        return iter(self._weights.items())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Range) and self._weights == other._weights

    def __hash__(self) -> int:
        return hash(frozenset(self._weights.items()))

    @property
    def is_random(self) -> bool:
        """Every one of the 1326 combos, all with one weight: a hand dealt from the deck."""
        return len(self._weights) == 1326 and len(set(self._weights.values())) == 1

    def without(self, dead: Iterable[int]) -> Range:
        """The combos that hold none of the `dead` card ids (card removal); may be empty, which
        raises ValueError."""
        out = set(dead)
        kept = {c: w for c, w in self._weights.items() if c[0] not in out and c[1] not in out}
        result = Range.__new__(Range)
        if not kept:
            text = str(self)
            if len(text) > SHOWN_CHARACTERS:
                text = f"{text[:SHOWN_CHARACTERS]}... ({len(text):,} characters)"
            raise ValueError(f"the range {text} has no combo left without "
                             f"{' '.join(card_str(c) for c in sorted(out, reverse=True))}")
        result._weights = kept
        result._text = None
        return result

    # -- text
    def __str__(self) -> str:
        """Range notation: the text it was parsed from, else whole classes where complete with
        one weight, other combos one by one (``Range(str(r)) == r``)."""
        if self._text is not None:
            return self._text
        return _format(self._weights)

    def __repr__(self) -> str:
        return f"Range({str(self)!r})"


# ----------------------------------------------------------------------------- parsing
def check_weight(weight: object, where: str) -> float:
    """A weight as a float: any real number (int, float, Fraction, numpy's) that is positive and
    finite as a float; TypeError or ValueError starting with `where` otherwise."""
    if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
        raise TypeError(f"{where}: a weight is a real number (int, float, Fraction), not {type(weight).__name__}")
    try:
        w = float(weight)
    except OverflowError:       # an int or a Fraction past a float's range (10**400), too long to show
        sign = "-" if weight < 0 else ""
        raise ValueError(f"{where}: a weight must be positive and finite, got {sign}a number past "
                         "a float's range") from None
    if not 0 < w < math.inf:
        raise ValueError(f"{where}: a weight must be positive and finite, got {w:g}")
    return w


def _parse(text: str) -> dict[Combo, float]:
    weights: dict[Combo, float] = {}
    terms = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    if not terms:
        raise ValueError("empty range")
    for term in terms:
        body, sep, weight_text = term.partition(":")
        weight = 1.0
        if sep:
            if not _WEIGHT.fullmatch(weight_text):
                raise ValueError(f"{shown(term)}: the weight after ':' must be a number like 0.5")
            weight = check_weight(float(weight_text), shown(term))
        for combo in _term_combos(body, term):
            weights[combo] = weight
    return weights


def _term_combos(body: str, term: str) -> list[Combo]:
    body = body.translate(_SYMBOLS)
    low = body.lower()
    if low in ("random", "any"):
        return [(a, b) for a in range(52) for b in range(a)]
    percent = _PERCENT.fullmatch(body)
    if percent:
        return _top_percent(float(percent[1]), term)
    if _COMBO.fullmatch(_combo_case(body)):
        try:
            ids = parse_cards(body)
        except ValueError as exc:       # a repeated card: 'AsAs'
            raise ValueError(f"{shown(term)}: {exc}") from None
        return [_combo(*ids)]
    norm = body.upper().replace("S", "s").replace("O", "o")
    if "-" in norm:
        first, _, last = norm.partition("-")
        return _span(first, last, term)
    plus = norm.endswith("+")
    name = norm[:-1] if plus else norm
    high, low_rank, kind = _ranks(name, term)
    if plus:
        if high == low_rank:
            return _pairs(high, 12)
        return _kickers(high, low_rank, high - 1, kind)
    if high == low_rank:
        return _pairs(high, high)
    return _kickers(high, low_rank, low_rank, kind)


def _combo_case(body: str) -> str:
    """'ahkh' as 'AhKh': ranks upper case, suits lower case, for matching an exact combo."""
    return "".join(ch.upper() if i % 2 == 0 else ch.lower() for i, ch in enumerate(body))


def _ranks(name: str, term: str) -> tuple[int, int, str]:
    match = _CLASS.fullmatch(name)
    if not match:
        raise ValueError(f"{shown(term)} is not range notation: expected a pair ('QQ'), two ranks with "
                         "'s', 'o' or neither ('AKs', 'T9'), a combo ('AhKh'), 'random' or a "
                         "percentage ('15%'), each with an optional '+', '-' span or ':weight'")
    a, b, kind = _RANK[match[1]], _RANK[match[2]], match[3]
    if a == b and kind:
        raise ValueError(f"{shown(term)}: a pair is neither suited nor offsuit")
    return max(a, b), min(a, b), kind


def _pairs(low: int, high: int) -> list[Combo]:
    return [c for r in range(low, high + 1) for c in class_combos(RANKS[r] * 2)]


def _kickers(high: int, first: int, last: int, kind: str) -> list[Combo]:
    """high with each kicker first..last, suited, offsuit or both (kind '')."""
    kinds = [kind] if kind else ["s", "o"]
    return [c for k in range(min(first, last), max(first, last) + 1) for s in kinds
            for c in class_combos(RANKS[high] + RANKS[k] + s)]


def _span(first: str, last: str, term: str) -> list[Combo]:
    a_high, a_low, a_kind = _ranks(first, term)
    b_high, b_low, b_kind = _ranks(last, term)
    if a_kind != b_kind:
        raise ValueError(f"{shown(term)}: both ends of a span must be suited, offsuit or neither alike")
    if a_high == a_low and b_high == b_low:
        return _pairs(min(a_high, b_high), max(a_high, b_high))
    if a_high == a_low or b_high == b_low or a_high != b_high:
        raise ValueError(f"{shown(term)}: a span keeps its higher rank and runs the lower one "
                         "('A5s-A2s'), or runs pairs ('QQ-99')")
    return _kickers(a_high, a_low, b_low, a_kind)


def _top_percent(percent: float, term: str) -> list[Combo]:
    if not 0 < percent <= 100:
        raise ValueError(f"{shown(term)}: a percentage must be above 0 and at most 100")
    wanted = percent / 100 * 1326
    out: list[Combo] = []
    for name in PREFLOP_ORDER:
        if len(out) >= wanted - 1e-9:
            break
        out.extend(class_combos(name))
    return out


# ----------------------------------------------------------------------------- formatting
def _format(weights: dict[Combo, float]) -> str:
    terms: list[str] = []
    left = dict(weights)
    for name in _ALL_CLASSES:
        members = class_combos(name)
        found = {left.get(c) for c in members}
        if len(found) == 1 and None not in found:
            w = found.pop()
            assert w is not None
            terms.append(name if w == 1.0 else f"{name}:{w!r}")
            for c in members:
                del left[c]
    for combo, w in left.items():
        text = card_str(combo[0]) + card_str(combo[1])
        terms.append(text if w == 1.0 else f"{text}:{w!r}")
    return ", ".join(terms)


# the 169 classes, aces first
_ALL_CLASSES = [RANKS[h] + RANKS[l] + s for h in range(12, -1, -1) for l in range(h, -1, -1)
                for s in (("",) if h == l else ("s", "o"))]
