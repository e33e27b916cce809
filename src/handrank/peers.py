"""Other Python poker evaluators, as `handrank bench` measures and checks them.

Each peer is described by its PyPI name, its import name and a loader that imports it and returns
one `PeerEvaluator` per game it supports ("high": 5 to 7 cards, "low27": 2-7 lowball, 5 cards).
An evaluator turns handrank's card ids into the peer's own card format in `prepare` (not timed)
and evaluates the prepared hands in `evaluate` (timed), calling the peer the fastest way its
public API allows for one hand at a time. A peer that does not import is "not installed": the
benchmark then runs without it.

Values come back as the peer gives them; `higher_is_better` says which way they point, so that
`oriented` can turn them into handrank's convention for the agreement check.

Most peers ship no type information, and none need be installed where mypy runs: their imports
carry `# type: ignore[import-untyped, import-not-found, unused-ignore]`, which leaves the names
they bind typed Any (or typed, for a peer that ships types and is installed).
"""
from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import starmap
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from handrank.cards import card_str

__all__ = ["GAMES", "Peer", "PeerEvaluator", "PEERS", "available"]

# game -> hand sizes the benchmark gives it. The variants' rows (handrank._bench_variants): Omaha
# and Omaha-8 the 4 hole cards then the 5 board cards, short deck 7 cards of the 36, badugi 4.
GAMES: dict[str, tuple[int, ...]] = {"high": (5, 7), "low27": (5,), "omaha": (9,), "omaha8": (9,),
                                     "shortdeck": (7,), "badugi": (4,)}
# What a peer gives for an Omaha-8 deal with no qualifying low: below every low (lower is better)
NO_LOW = 1 << 30

_CARD_STRINGS = [card_str(i) for i in range(52)]

_Card = TypeVar("_Card")


@dataclass(frozen=True)
class PeerEvaluator:
    """`evaluate(prepare(hands))` is one value per row of `hands` (an (n, k) array of ids)."""

    prepare: Callable[[npt.NDArray[np.uint8]], object]
    evaluate: Callable[[Any], Sequence[int]]        # takes what `prepare` returned
    higher_is_better: bool

    def oriented(self, values: Sequence[int]) -> npt.NDArray[np.int64]:
        """`values` as int64 where higher is better, as handrank's are."""
        array = np.asarray(values, dtype=np.int64)
        return array if self.higher_is_better else -array


@dataclass(frozen=True)
class Peer:
    """A peer library: `load()` imports it (ImportError when it is not installed) and returns its
    evaluators by game."""

    name: str
    module: str
    load: Callable[[], Mapping[str, PeerEvaluator]]

    def version(self) -> str:
        try:
            return importlib.metadata.version(self.name)
        except importlib.metadata.PackageNotFoundError:
            return "?"


def _rows(hands: npt.NDArray[np.uint8], convert: Sequence[_Card]) -> list[list[_Card]]:
    return [[convert[c] for c in row] for row in hands.tolist()]


def _phevaluator() -> dict[str, PeerEvaluator]:
    # The compiled entry points that phevaluator.evaluate_cards calls once it has turned each
    # card into an id: calling them directly keeps that per-call conversion out of the timing.
    from phevaluator import _pheval  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from phevaluator.card import Card  # type: ignore[import-untyped, import-not-found, unused-ignore]

    ids = [Card.to_id(s) for s in _CARD_STRINGS]
    by_size = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}

    def prepare(hands: npt.NDArray[np.uint8]) -> tuple[Callable[..., int], list[tuple[int, ...]]]:
        return by_size[hands.shape[1]], [tuple(row) for row in _rows(hands, ids)]

    def evaluate(prepared: tuple[Callable[..., int], list[tuple[int, ...]]]) -> list[int]:
        function, rows = prepared
        return list(starmap(function, rows))

    def prepare_omaha(hands: npt.NDArray[np.uint8]) -> list[tuple[int, ...]]:
        # evaluate_omaha_cards takes the five board cards, then the four hole cards
        return [tuple(row[4:] + row[:4]) for row in _rows(hands, ids)]

    def omaha(rows: list[tuple[int, ...]]) -> list[int]:
        return list(starmap(_pheval.evaluate_omaha_cards, rows))

    return {"high": PeerEvaluator(prepare, evaluate, higher_is_better=False),
            "omaha": PeerEvaluator(prepare_omaha, omaha, higher_is_better=False)}


def _eval7() -> dict[str, PeerEvaluator]:
    import eval7  # type: ignore[import-untyped, import-not-found, unused-ignore]

    cards = [eval7.Card(s) for s in _CARD_STRINGS]
    evaluate = eval7.evaluate
    return {"high": PeerEvaluator(lambda hands: _rows(hands, cards),
                                  lambda rows: list(map(evaluate, rows)), higher_is_better=True)}


def _cactus_kev(module: str) -> dict[str, PeerEvaluator]:
    """treys and deuces (its Python 3 fork): `Evaluator().evaluate(hole, board)` on int cards."""
    library = __import__(module)
    cards = [library.Card.new(s) for s in _CARD_STRINGS]
    evaluate = library.Evaluator().evaluate

    def prepare(hands: npt.NDArray[np.uint8]) -> list[tuple[list[int], list[int]]]:
        return [(row[:2], row[2:]) for row in _rows(hands, cards)]

    return {"high": PeerEvaluator(prepare, lambda pairs: list(starmap(evaluate, pairs)),
                                  higher_is_better=False)}


def _pokerkit() -> dict[str, PeerEvaluator]:
    from pokerkit import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        BadugiHand, Card, OmahaEightOrBetterLowHand, OmahaHoldemHand, ShortDeckHoldemHand,
        StandardHighHand, StandardLowHand)

    cards = [Card.clean(s)[0] for s in _CARD_STRINGS]

    def prepare(hands: npt.NDArray[np.uint8]) -> list[tuple[Card, ...]]:
        return [tuple(row) for row in _rows(hands, cards)]

    def high(rows: list[tuple[Card, ...]]) -> list[int]:
        best = StandardHighHand.from_game       # the best five of the cards
        return [best(row).entry.index for row in rows]

    def low27(rows: list[tuple[Card, ...]]) -> list[int]:
        # StandardLowHand is the hand type of pokerkit's deuce-to-seven games; a lower entry
        # index is a better low.
        return [StandardLowHand(row).entry.index for row in rows]

    def omaha(rows: list[tuple[Card, ...]]) -> list[int]:
        best = OmahaHoldemHand.from_game        # exactly two hole and three board cards
        return [best(row[:4], row[4:]).entry.index for row in rows]

    def omaha8(rows: list[tuple[Card, ...]]) -> list[int]:
        values = []
        for row in rows:
            try:
                values.append(OmahaEightOrBetterLowHand.from_game(row[:4], row[4:]).entry.index)
            except ValueError:      # pokerkit's word for "no qualifying low"
                values.append(NO_LOW)
        return values

    def shortdeck(rows: list[tuple[Card, ...]]) -> list[int]:
        return [ShortDeckHoldemHand.from_game(row).entry.index for row in rows]

    def badugi(rows: list[tuple[Card, ...]]) -> list[int]:
        return [BadugiHand.from_game(row).entry.index for row in rows]

    return {"high": PeerEvaluator(prepare, high, higher_is_better=True),
            "low27": PeerEvaluator(prepare, low27, higher_is_better=False),
            "omaha": PeerEvaluator(prepare, omaha, higher_is_better=True),
            "omaha8": PeerEvaluator(prepare, omaha8, higher_is_better=False),
            "shortdeck": PeerEvaluator(prepare, shortdeck, higher_is_better=True),
            "badugi": PeerEvaluator(prepare, badugi, higher_is_better=False)}


def _holdem_hand_evaluator() -> dict[str, PeerEvaluator]:
    from holdem_hand_evaluator import evaluate_hand  # type: ignore[import-untyped, import-not-found, unused-ignore]

    def prepare(hands: npt.NDArray[np.uint8]) -> list[str]:
        return ["".join(row) for row in _rows(hands, _CARD_STRINGS)]

    return {"high": PeerEvaluator(prepare, lambda texts: list(map(evaluate_hand, texts)),
                                  higher_is_better=True)}


PEERS: tuple[Peer, ...] = (
    Peer("phevaluator", "phevaluator", _phevaluator),
    Peer("eval7", "eval7", _eval7),
    Peer("treys", "treys", lambda: _cactus_kev("treys")),
    Peer("deuces", "deuces", lambda: _cactus_kev("deuces")),
    Peer("pokerkit", "pokerkit", _pokerkit),
    Peer("holdem-hand-evaluator", "holdem_hand_evaluator", _holdem_hand_evaluator),
)


def available(peers: Sequence[Peer] | None = None) -> tuple[dict[str, Mapping[str, PeerEvaluator]],
                                                           list[str]]:
    """({peer name: its evaluators by game} for the peers (default `PEERS`) that import,
    [names of the others])."""
    loaded: dict[str, Mapping[str, PeerEvaluator]] = {}
    missing: list[str] = []
    for peer in PEERS if peers is None else peers:
        try:
            loaded[peer.name] = peer.load()
        except ImportError:
            missing.append(peer.name)
    return loaded, missing
