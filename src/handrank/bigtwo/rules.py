"""Big Two rulesets: the `Rules` dataclass, its validation and the named presets (RULES.md)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from handrank.bigtwo.classes import HK_STRAIGHTS, PLAIN_STRAIGHTS, Kind
from handrank.cards import RANKS, SUITS

__all__ = ["Kind", "Rules", "BIG_TWO_RANKS"]

# Ranks in Big Two order, lowest first; index = Big Two rank.
BIG_TWO_RANKS = "3456789TJQKA2"
# Ranks around the cycle in which a straight is a window of five (a window may wrap past the ace).
_CYCLE = RANKS
FOUR_OF_A_KIND_MODES = ("with_kicker", "four_cards", "both")
FLUSH_ORDERS = ("ranks", "suit")


@dataclass(frozen=True)
class Rules:
    """A Big Two ruleset. Build one from a preset (``Rules.preset("taiwan")``), then adjust it with
    ``dataclasses.replace``; every field is checked when the object is built.

    - ``suit_order``: the four suits lowest first, as letters (``"dchs"``: diamonds < clubs < hearts
      < spades). The lowest card, which opens the game, is the three of ``suit_order[0]``.
    - ``straights``: the straights that exist, weakest first, each ``(ranks, tiebreak)``: five ranks
      as they run (``"A2345"``; a window of the cycle 2..A, wrapping allowed) and the rank whose suit
      breaks ties between equal straights.
    - ``flushes``: whether five suited cards that are no straight are a combo.
    - ``flush_order``: ``"ranks"`` (cards high to low, then the suit) or ``"suit"`` (suit first).
    - ``straight_above_flush``: a straight beats a flush instead of losing to it.
    - ``four_of_a_kind``: ``"with_kicker"`` (played with any fifth card), ``"four_cards"`` (played
      alone, as a four-card combo) or ``"both"``.
    - ``two_pair``: two pairs plus a card is a five-card combo below the straight, compared by
      its higher pair (as pairs compare).
    - ``double_at`` / ``triple_at``: a loser holding at least this many cards pays double / triple
      (``double_multiplier`` / ``triple_multiplier`` times 1 per card: 2 and 3 by default).
    - ``whole_deck_double_at`` / ``whole_deck_triple_at``: the same thresholds when three players
      are dealt the whole deck (17 cards each): double with more than 11 cards, triple with 17.
    - ``double_held``: a loser's payment doubles once if they still hold a 2, four of a kind or a
      straight flush.
    - ``double_winning_play``: every payment doubles if the winner's last play held a 2, four of a
      kind or a straight flush.
    """

    suit_order: str = "dchs"
    straights: tuple[tuple[str, str], ...] = HK_STRAIGHTS
    flushes: bool = True
    flush_order: str = "ranks"
    straight_above_flush: bool = False
    four_of_a_kind: str = "with_kicker"
    two_pair: bool = False
    double_at: int = 10
    triple_at: int = 13
    double_held: bool = False
    double_winning_play: bool = False
    double_multiplier: int = 2
    triple_multiplier: int = 3
    whole_deck_double_at: int = 12
    whole_deck_triple_at: int = 17

    def __post_init__(self) -> None:
        _check_suits(self.suit_order)
        object.__setattr__(self, "straights", _check_straights(self.straights))
        for name in ("flushes", "straight_above_flush", "two_pair", "double_held", "double_winning_play"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"Rules.{name} must be a bool, got {getattr(self, name)!r}")
        if self.flush_order not in FLUSH_ORDERS:
            raise ValueError(f"Rules.flush_order must be one of {FLUSH_ORDERS}, got {self.flush_order!r}")
        if self.four_of_a_kind not in FOUR_OF_A_KIND_MODES:
            raise ValueError(f"Rules.four_of_a_kind must be one of {FOUR_OF_A_KIND_MODES}, "
                             f"got {self.four_of_a_kind!r}")
        for name in ("double_at", "triple_at", "double_multiplier", "triple_multiplier",
                     "whole_deck_double_at", "whole_deck_triple_at"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"Rules.{name} must be an int >= 1, got {value!r}")
        for prefix in ("", "whole_deck_"):
            double_at, triple_at = getattr(self, prefix + "double_at"), getattr(self, prefix + "triple_at")
            if triple_at < double_at:
                raise ValueError(f"Rules.{prefix}triple_at ({triple_at}) must be >= "
                                 f"{prefix}double_at ({double_at})")

    # ------------------------------------------------------------------ presets
    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named ruleset: one of ``Rules.presets()``."""
        try:
            return _BUILT[name]            # immutable, so one object per preset serves every caller
        except (KeyError, TypeError):
            pass
        try:
            overrides = _PRESETS[name]
        except (KeyError, TypeError):
            if isinstance(name, str) and name in _REMOVED:
                raise ValueError(_REMOVED[name]) from None
            raise ValueError(f"unknown Big Two preset {name!r}; presets: {', '.join(_PRESETS)}") from None
        return _BUILT.setdefault(name, cls(**overrides))

    @staticmethod
    def presets() -> tuple[str, ...]:
        """The preset names, the default (``hk``) first."""
        return tuple(_PRESETS)

    # ------------------------------------------------------------------ derived facts
    @property
    def lowest_card(self) -> int:
        """The card id of the lowest card (3♦ in hk), which must open the game."""
        return 4 * RANKS.index("3") + SUITS.index(self.suit_order[0])

    @property
    def five_card_kinds(self) -> tuple[Kind, ...]:
        """The five-card kinds this ruleset allows, weakest first."""
        kinds = [Kind.TWO_PAIR] if self.two_pair else []
        middle = [Kind.STRAIGHT, Kind.FLUSH] if self.flushes else [Kind.STRAIGHT]
        if self.straight_above_flush:
            middle.reverse()
        kinds += middle + [Kind.FULL_HOUSE]
        if self.four_of_a_kind != "four_cards":
            kinds.append(Kind.FOUR_OF_A_KIND)
        return tuple(kinds + [Kind.STRAIGHT_FLUSH])

    @property
    def sizes(self) -> tuple[int, ...]:
        """The numbers of cards a play may have."""
        return (1, 2, 3, 4, 5) if self.four_of_a_kind != "with_kicker" else (1, 2, 3, 5)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (and checked)."""
        return replace(self, **changes)

    def __getstate__(self) -> dict[str, Any]:
        # the compiled tables cached on the object are rebuilt on use, never pickled or copied
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


def _check_suits(order: Any) -> None:
    if not isinstance(order, str) or sorted(order.lower()) != sorted(SUITS) or order != order.lower():
        raise ValueError(f"Rules.suit_order must name each suit of {SUITS!r} once, lowest first "
                         f"(e.g. 'dchs'), got {order!r}")


def _check_straights(table: Any) -> tuple[tuple[str, str], ...]:
    try:
        entries = [tuple(entry) for entry in table]
    except TypeError:
        raise ValueError(f"Rules.straights must be a sequence of (ranks, tiebreak) pairs, got {table!r}") from None
    seen: dict[frozenset[str], str] = {}
    checked = []
    for i, entry in enumerate(entries):
        if len(entry) != 2 or not all(isinstance(x, str) for x in entry):
            raise ValueError(f"straight {i}: expected a (ranks, tiebreak) pair of strings, got {entry!r}")
        ranks, tiebreak = entry[0].upper(), entry[1].upper()
        if len(ranks) != 5 or any(r not in _CYCLE for r in ranks):
            raise ValueError(f"straight {i}: {entry[0]!r} must be five ranks from {_CYCLE}")
        start = _CYCLE.index(ranks[0])
        if ranks != "".join(_CYCLE[(start + j) % 13] for j in range(5)):
            raise ValueError(f"straight {i}: {entry[0]!r} is not five consecutive ranks")
        if len(tiebreak) != 1 or tiebreak not in ranks:
            raise ValueError(f"straight {i}: the tie-break must be one rank of {entry[0]!r}, "
                             f"got {entry[1]!r}")
        rank_set = frozenset(ranks)
        if rank_set in seen:
            raise ValueError(f"straight {i}: {entry[0]!r} repeats straight {seen[rank_set]!r}")
        seen[rank_set] = ranks
        checked.append((ranks, tiebreak))
    return tuple(checked)


_BUILT: dict[str, Rules] = {}
_PRESETS: dict[str, dict[str, Any]] = {
    "hk": {},
    "taiwan": {"suit_order": "cdhs"},
    "pusoy": {"suit_order": "cshd"},
    "malaysia": {"straights": PLAIN_STRAIGHTS + (("A2345", "2"), ("23456", "2"))},
    "indonesia": {"straights": PLAIN_STRAIGHTS + (("JQKA2", "2"),)},
    "vietnam": {"straights": PLAIN_STRAIGHTS},
    "ace_low": {"straights": (("23456", "6"),) + PLAIN_STRAIGHTS + (("A2345", "A"),)},
}
# Names no longer presets, and why: a user of the old name learns what to use instead.
_REMOVED = {
    "charlesworth": "the Big Two preset 'charlesworth' is gone: it was the 'indonesia' ruleset under "
                    "another name (hk suits, straights 3-4-5-6-7 ... 10-J-Q-K-A < J-Q-K-A-2), not the "
                    "published rule set of henrycharlesworth/big2_PPOalgorithm (4-card two pair and four "
                    "of a kind, no 5-card four of a kind, 1 per card left); use Rules.preset('indonesia')",
}
