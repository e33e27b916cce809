"""Open-Face Chinese poker rulesets: the `Rules` dataclass, its thresholds, the presets (RULES.md),
and the per-value lookup tables the compiled kernels read.

Every table of the rules is a tuple of ``(threshold, number)`` pairs: a row earns the number of the
highest threshold it reaches. A threshold is written the way players say it: a top hand as ranks
(``"QQ"``: a pair of queens or better; ``"222"``: trips), a high middle or bottom by category
(``"full house"``), a 2-7 middle as the worst low that counts (``"98764"``: nine-low or better).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from handrank._threerow import _kernel
from handrank.chinese import rules as chinese_rules
from handrank._threerow.presets import Presets
from handrank._threerow.thresholds import (MAX_CARDS, MIN_CARDS, Table, category_value, check_int,
                                           check_table, lookup, low_value, reaches, top_value)
from handrank.cards import RANKS

__all__ = ["Rules", "as_rules", "tables", "DEALINGS", "SCORINGS"]

DEALINGS = ("pineapple", "classic")
SCORINGS = ("1-6", "2-4")

TOP_ROYALTIES: Table = tuple((r + r, i + 1) for i, r in enumerate("6789TJQKA")) + tuple(
    (r * 3, i + 10) for i, r in enumerate(RANKS))
MIDDLE_ROYALTIES: Table = (("trips", 2), ("straight", 4), ("flush", 8), ("full house", 12),
                           ("quads", 20), ("straight flush", 30), ("royal flush", 50))
BOTTOM_ROYALTIES: Table = (("straight", 2), ("flush", 4), ("full house", 6), ("quads", 10),
                           ("straight flush", 15), ("royal flush", 25))
DEUCE_MIDDLE_ROYALTIES: Table = (("98764", 1), ("87653", 2), ("76542", 4), ("75432", 8))


@dataclass(frozen=True)
class Rules(Presets):
    """An OFC ruleset. Start from a preset (``Rules.preset("progressive")``) and adjust it with
    ``.replace(...)``; every field is checked when the object is built.

    - ``top_royalties``, ``middle_royalties``, ``bottom_royalties``: ``(threshold, points)``
      pairs; a row scores the points of the highest threshold it reaches.
    - ``middle_lowball``: the middle is a 2-7 low (deuce): it must be ``middle_qualifier`` or
      better, is never compared with the other rows, scores ``middle_low_royalties`` (instead of
      ``middle_royalties``) and is compared between players as a low.
    - ``scoop_bonus``: points for winning all three rows against one opponent.
    - ``fantasyland_top`` / ``fantasyland_middle``: ``(threshold, cards)``: a valid hand reaching
      the threshold deals that many cards next hand; ``super_fantasyland`` (if not 0) is dealt
      when the top and the middle both qualify.
    - ``stay_top`` / ``stay_middle`` / ``stay_bottom``: a hand played in Fantasyland that reaches
      any of these thresholds (None: no such condition) is dealt ``stay_cards`` again.
    - ``dealing``: ``"pineapple"`` (5 cards, then 3 at a time: place 2, discard 1) or
      ``"classic"`` (5 cards, then 1 at a time); how `ofc.Game` deals.
    - ``scoring``: ``"1-6"`` (1 per row won, ``scoop_bonus`` for all three) or ``"2-4"`` (1 per
      row won, 1 overall unit to whoever wins more rows; ``scoop_bonus`` unused).
    - ``royalties_cancel``: royalties are paid as net differences (True), or only the winner of
      a row collects its royalty (False).
    - ``shoot_the_moon``: units a valid board with a jack-high-or-worse bottom collects from each
      other player, on top of the rest (0: off; the house rule of the seeds pays 20).
    - ``fantasyland_value``: what a hand that earns Fantasyland (entry or stay) is worth when
      decisions are evaluated (`ofc.Game.values`, the RL rewards, the Fantasyland setting of
      `ofc.Game`); never part of the points paid.
    - ``naturals``: ``(kind, units)`` pairs of Chinese poker's naturals (`chinese.NATURALS` and
      `chinese.NATURAL_VARIANTS`, each 1..1000 units), off when empty (the default). A finished,
      valid board whose 13 cards hold one of them is paid as in Chinese poker (`chinese.score`)
      instead of its rows and royalties: between two naturals the stronger collects its units
      (a tie pays nothing), against any other board (fouled or not) it collects its units.
    """

    top_royalties: Table = TOP_ROYALTIES
    middle_royalties: Table = MIDDLE_ROYALTIES
    bottom_royalties: Table = BOTTOM_ROYALTIES
    middle_lowball: bool = False
    middle_qualifier: str | None = None
    middle_low_royalties: Table = ()
    scoop_bonus: int = 3
    fantasyland_top: Table = (("QQ", 14),)
    fantasyland_middle: Table = ()
    super_fantasyland: int = 0
    stay_top: str | None = "222"
    stay_middle: str | None = None
    stay_bottom: str | None = "quads"
    stay_cards: int = 14
    name: str = field(default="custom", compare=False)
    dealing: str = "pineapple"
    scoring: str = "1-6"
    royalties_cancel: bool = True
    shoot_the_moon: int = 0
    fantasyland_value: float = 0.0
    naturals: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.middle_lowball, bool):
            raise TypeError(f"Rules.middle_lowball must be a bool, got {self.middle_lowball!r}")
        if not isinstance(self.name, str):
            raise TypeError(f"Rules.name must be a str, got {self.name!r}")
        for name, choices in (("dealing", DEALINGS), ("scoring", SCORINGS)):
            if getattr(self, name) not in choices:
                raise ValueError(f"Rules.{name} must be one of {', '.join(map(repr, choices))}, "
                                 f"got {getattr(self, name)!r}")
        if not isinstance(self.royalties_cancel, bool):
            raise TypeError(f"Rules.royalties_cancel must be a bool, got {self.royalties_cancel!r}")
        check_int("shoot_the_moon", self.shoot_the_moon, 0, 1000)
        value = self.fantasyland_value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"Rules.fantasyland_value must be a number, got {value!r}")
        if not math.isfinite(value):
            raise ValueError(f"Rules.fantasyland_value must be finite, got {value}")
        object.__setattr__(self, "fantasyland_value", float(value))
        middle = low_value if self.middle_lowball else category_value
        for name, parse, is_count in (("top_royalties", top_value, False),
                                      ("middle_royalties", category_value, False),
                                      ("bottom_royalties", category_value, False),
                                      ("middle_low_royalties", low_value, False),
                                      ("fantasyland_top", top_value, True),
                                      ("fantasyland_middle", middle, True)):
            object.__setattr__(self, name, check_table(name, getattr(self, name), parse, is_count))
        if self.middle_lowball:
            if self.middle_qualifier is None:
                raise ValueError("Rules.middle_qualifier is required when middle_lowball is True "
                                 "(the worst legal 2-7 middle, e.g. 'T9875')")
            low_value(self.middle_qualifier, "Rules.middle_qualifier")
        elif self.middle_qualifier is not None:
            raise ValueError("Rules.middle_qualifier applies only when middle_lowball is True")
        elif self.middle_low_royalties:
            raise ValueError("Rules.middle_low_royalties applies only when middle_lowball is True")
        for name, parse in (("stay_top", top_value), ("stay_middle", middle),
                            ("stay_bottom", category_value)):
            if getattr(self, name) is not None:
                parse(getattr(self, name), f"Rules.{name}")
        # Chinese poker's rules check the kinds and units (and read them: `chinese_naturals`)
        object.__setattr__(self, "naturals", chinese_rules.Rules(naturals=self.naturals).naturals)
        check_int("scoop_bonus", self.scoop_bonus, 0, 1000)
        check_int("stay_cards", self.stay_cards, MIN_CARDS, MAX_CARDS)
        if self.super_fantasyland != 0:
            check_int("super_fantasyland", self.super_fantasyland, MIN_CARDS, MAX_CARDS)



Rules.GAME = "OFC"
Rules.PRESETS = {
    "pineapple": {},
    "classic": {"fantasyland_top": (("QQ", 13),), "stay_middle": "full house", "stay_cards": 13,
                "dealing": "classic"},
    "progressive": {"fantasyland_top": (("QQ", 14), ("KK", 15), ("AA", 16), ("222", 17))},
    "deuce": {"middle_lowball": True, "middle_qualifier": "T9875",
              "middle_low_royalties": DEUCE_MIDDLE_ROYALTIES, "fantasyland_top": (("KK", 14),),
              "fantasyland_middle": (("75432", 14),), "super_fantasyland": 15,
              "stay_middle": "75432"},
}


as_rules = Rules.of


def chinese_naturals(rules: Rules) -> chinese_rules.Rules:
    """The Chinese poker rules that find and compare the naturals `rules` pays."""
    return _chinese(rules.naturals)


@lru_cache(maxsize=64)
def _chinese(naturals: tuple[tuple[str, int], ...]) -> chinese_rules.Rules:
    return chinese_rules.Rules(naturals=naturals)


@lru_cache(maxsize=64)
def tables(rules: Rules) -> _kernel.RuleTables:
    """The lookup tables of `rules` (built once per distinct ruleset)."""
    top, five = _kernel.TOP_VALUES, _kernel.FIVE_VALUES
    middle = low_value if rules.middle_lowball else category_value
    middle_ok = (reaches(rules.middle_qualifier, low_value, five) if rules.middle_lowball
                 else np.ones(five, dtype=np.uint8))
    middle_ok[0] = 0
    return _kernel.RuleTables(
        lookup(rules.top_royalties, top_value, top),
        lookup(rules.middle_low_royalties if rules.middle_lowball else rules.middle_royalties,
                middle, five),
        lookup(rules.bottom_royalties, category_value, five),
        lookup(rules.fantasyland_top, top_value, top).astype(np.uint8),
        lookup(rules.fantasyland_middle, middle, five).astype(np.uint8),
        reaches(rules.stay_top, top_value, top),
        reaches(rules.stay_middle, middle, five),
        reaches(rules.stay_bottom, category_value, five),
        middle_ok, rules.middle_lowball, rules.super_fantasyland, rules.stay_cards,
        rules.scoop_bonus)

