"""13-card Chinese poker rulesets: the `Rules` dataclass, its presets (RULES.md) and the
royalty lookup tables, built with the same threshold machinery as OFC's (handrank._threerow.thresholds)."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from handrank._threerow import _kernel
from handrank._threerow.presets import Presets
from handrank._threerow.thresholds import Table, category_value, check_table, lookup, top_value
from handrank.cards import RANKS

__all__ = ["Rules", "NATURALS", "SCORINGS", "as_rules", "royalty_tables", "solver_tables"]

SCORINGS = ("1-6", "2-4")
NATURALS = ("dragon", "three straights", "three flushes", "six pairs")

TOP_ROYALTIES: Table = tuple((r * 3, 3) for r in RANKS)
MIDDLE_ROYALTIES: Table = (("full house", 2), ("quads", 8), ("straight flush", 10), ("royal flush", 20))
BOTTOM_ROYALTIES: Table = (("quads", 4), ("straight flush", 5), ("royal flush", 10))
NATURAL_UNITS: tuple[tuple[str, int], ...] = (("dragon", 13), ("three straights", 3),
                                              ("three flushes", 3), ("six pairs", 3))


@dataclass(frozen=True)
class Rules(Presets):
    """A Chinese poker ruleset. Start from a preset (``Rules.preset("2-4")``) and adjust it with
    ``.replace(...)``; every field is checked when the object is built.

    - ``scoring``: ``"1-6"`` (1 unit per row won, 3 more for all three) or ``"2-4"`` (1 per row
      won, 1 overall unit to whoever wins more rows).
    - ``top_royalties``, ``middle_royalties``, ``bottom_royalties``: ``(threshold, units)`` pairs
      as in `ofc.Rules`: a row scores the units of the highest threshold it reaches.
    - ``royalties_to_winner``: only the winner of a row collects its royalty (the default); False
      settles royalties as net differences, as OFC does.
    - ``naturals``: ``(kind, units)`` for the naturals these rules pay, of ``NATURALS``, each
      worth 1..1000 units; a kind left out is not a natural (its hands are set and compared).
    """

    scoring: str = "1-6"
    top_royalties: Table = TOP_ROYALTIES
    middle_royalties: Table = MIDDLE_ROYALTIES
    bottom_royalties: Table = BOTTOM_ROYALTIES
    royalties_to_winner: bool = True
    naturals: tuple[tuple[str, int], ...] = NATURAL_UNITS
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        if self.scoring not in SCORINGS:
            raise ValueError(f"Rules.scoring must be one of {SCORINGS}, got {self.scoring!r}")
        if not isinstance(self.royalties_to_winner, bool):
            raise TypeError(f"Rules.royalties_to_winner must be a bool, got {self.royalties_to_winner!r}")
        if not isinstance(self.name, str):
            raise TypeError(f"Rules.name must be a str, got {self.name!r}")
        for name, parse in (("top_royalties", top_value), ("middle_royalties", category_value),
                            ("bottom_royalties", category_value)):
            object.__setattr__(self, name, check_table(name, getattr(self, name), parse, False))
        object.__setattr__(self, "naturals", check_table("naturals", self.naturals, _natural_index,
                                                         False))
        for kind, units in self.naturals:
            # a natural is paid instead of comparing rows: one worth nothing would only shield
            # a hand from losing them
            if units == 0:
                raise ValueError(f"Rules.naturals: {kind!r} must pay at least 1 unit; leave it "
                                 f"out to play such hands as set")

    @property
    def scoop_units(self) -> int:
        """What a sweep of all three rows pays: 3 rows plus the bonus (1-6) or the overall unit."""
        return 6 if self.scoring == "1-6" else 4

    def natural_units(self, kind: str) -> int:
        """Units paid for the natural `kind`; 0 when these rules do not pay it."""
        return dict(self.naturals).get(kind, 0)


def _natural_index(kind: Any, where: str) -> int:
    if kind not in NATURALS:
        raise ValueError(f"{where}: unknown natural {kind!r}; naturals: {', '.join(NATURALS)}")
    return NATURALS.index(kind)


Rules.GAME = "Chinese poker"
Rules.PRESETS = {
    "1-6": {},
    "2-4": {"scoring": "2-4"},
    "net-royalties": {"royalties_to_winner": False},
}


as_rules = Rules.of


@lru_cache(maxsize=64)
def royalty_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Royalty units by high3 value (top) and by high value (middle, bottom)."""
    return (lookup(rules.top_royalties, top_value, _kernel.TOP_VALUES),
            lookup(rules.middle_royalties, category_value, _kernel.FIVE_VALUES),
            lookup(rules.bottom_royalties, category_value, _kernel.FIVE_VALUES))


@lru_cache(maxsize=64)
def solver_tables(rules: Rules) -> _kernel.RuleTables:
    """The rules as the setting solver's tables: royalties only (no Fantasyland, no stays)."""
    top, middle, bottom = royalty_tables(rules)
    none_top = np.zeros(_kernel.TOP_VALUES, dtype=np.uint8)
    none_five = np.zeros(_kernel.FIVE_VALUES, dtype=np.uint8)
    middle_ok = np.ones(_kernel.FIVE_VALUES, dtype=np.uint8)
    middle_ok[0] = 0
    return _kernel.RuleTables(top, middle, bottom, none_top, none_five, none_top, none_five, none_five,
                           middle_ok, False, 0, 13, rules.scoop_units - 3)
