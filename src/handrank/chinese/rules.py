"""13-card Chinese poker rulesets: the `Rules` dataclass, its presets (RULES.md) and the
royalty lookup tables, built with the same threshold machinery as OFC's (handrank._threerow.thresholds)."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from handrank import high
from handrank._threerow import _kernel
from handrank._threerow.presets import Presets
from handrank._threerow.thresholds import Table, category_value, check_table, lookup, top_value
from handrank.cards import RANKS

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Rules", "NATURALS", "NATURAL_VARIANTS", "SCORINGS", "as_rules", "royalty_tables",
           "solver_tables", "row_order", "natural_bit"]

SCORINGS = ("1-6", "2-4")
# The standard naturals (the compiled scorer reports them, in this order) and the variants (the
# seed's "Naturals variants" and its non-standard "No Broadway Cards"), paid only by rules that
# list them.
NATURALS = ("dragon", "three straights", "three flushes", "six pairs")
NATURAL_VARIANTS = ("no picture cards", "six and above", "12 of one colour", "13 of one colour",
                    "no broadway cards")

TOP_ROYALTIES: Table = tuple((r * 3, 3) for r in RANKS)
MIDDLE_ROYALTIES: Table = (("full house", 2), ("quads", 8), ("straight flush", 10), ("royal flush", 20))
BOTTOM_ROYALTIES: Table = (("quads", 4), ("straight flush", 5), ("royal flush", 10))
NATURAL_UNITS: tuple[tuple[str, int], ...] = (("dragon", 13), ("three straights", 3),
                                              ("three flushes", 3), ("six pairs", 3))
# What losing two rows and winning the third pays (the seed's floor for a surrender), by scoring
LOSE_TWO_ROWS = {"1-6": 1, "2-4": 2}


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
      The default pays the four standard ones; the variants ("no picture cards" (no J, Q or K;
      the ace is not a picture), "six and above", "12 of one colour" (12 or more red or black
      cards), "13 of one colour", "no broadway cards" (no T, J, Q, K or A)) are off.
    - ``surrender_allowed``: whether a player may surrender (`score`'s ``surrendered``);
      ``surrender``: what a surrendering player pays each opponent still in the hand, more than
      losing two rows and winning one pays (1 under 1-6, 2 under 2-4) and less than a scoop.
    - ``one_royalty``: a hand collects only its largest royalty (equal ones: the bottom's, then
      the middle's).
    - ``wheel_second``: A-2-3-4-5 is the second-highest straight (and straight flush), just
      below T-J-Q-K-A, instead of the lowest.
    """

    scoring: str = "1-6"
    top_royalties: Table = TOP_ROYALTIES
    middle_royalties: Table = MIDDLE_ROYALTIES
    bottom_royalties: Table = BOTTOM_ROYALTIES
    royalties_to_winner: bool = True
    naturals: tuple[tuple[str, int], ...] = NATURAL_UNITS
    name: str = field(default="custom", compare=False)
    surrender_allowed: bool = False
    surrender: int = 3
    one_royalty: bool = False
    wheel_second: bool = False

    def __post_init__(self) -> None:
        if self.scoring not in SCORINGS:
            raise ValueError(f"Rules.scoring must be one of {SCORINGS}, got {self.scoring!r}")
        for flag in ("royalties_to_winner", "surrender_allowed", "one_royalty", "wheel_second"):
            if not isinstance(getattr(self, flag), bool):
                raise TypeError(f"Rules.{flag} must be a bool, got {getattr(self, flag)!r}")
        if not isinstance(self.surrender, int) or isinstance(self.surrender, bool):
            raise TypeError(f"Rules.surrender must be an int, got {self.surrender!r}")
        floor = LOSE_TWO_ROWS[self.scoring]
        if not floor < self.surrender < self.scoop_units:
            raise ValueError(f"Rules.surrender must be more than losing two rows pays ({floor}) and "
                             f"less than a scoop ({self.scoop_units}) under {self.scoring} scoring, "
                             f"got {self.surrender}")
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
    if kind not in NATURALS + NATURAL_VARIANTS:
        raise ValueError(f"{where}: unknown natural {kind!r}; naturals: "
                         f"{', '.join(NATURALS + NATURAL_VARIANTS)}")
    return natural_bit(kind).bit_length()


def natural_bit(kind: str) -> int:
    """The bit of a natural kind in a set of kinds: the standard ones in the order of NATURALS
    (as the compiled scorer reports them), then the variants."""
    return 1 << (NATURALS + NATURAL_VARIANTS).index(kind)


Rules.GAME = "Chinese poker"
# The seed (seeds/001, the Chinese poker text) names no place, club or publisher for any of its
# house rules, so each preset is named for the rule it adds to the default (docs/chinese.md quotes
# the seed line of each).
Rules.PRESETS = {
    "1-6": {},
    "2-4": {"scoring": "2-4"},
    # "Some modified rule sets allow the royalty bonus to cancel out"
    "net-royalties": {"royalties_to_winner": False},
    # "If a player chooses to surrender their hand, they will pay an amount greater than ... losing
    # 2 out of 3 hands, but less than ... getting scooped"
    "surrender": {"surrender_allowed": True},
    # "Naturals variants: No picture cards ...; Six and above ...; 12 or 13 of one colour"
    "variant-naturals": {"naturals": NATURAL_UNITS + (("no picture cards", 3), ("six and above", 3),
                                                      ("13 of one colour", 3), ("12 of one colour", 3))},
    # the seed's table of naturals: "Six Pairs 3, Three Straights 3, Three Flushes 3, No Broadway
    # Cards* 3, Dragon 13" (* non-standard natural)
    "no-broadway": {"naturals": NATURAL_UNITS + (("no broadway cards", 3),)},
    # "Some rules say that players are only allowed to claim one royalty per hand"
    "one-royalty": {"one_royalty": True},
    # "In this variation, The Wheel (A, 2, 3, 4, 5) is the second highest straight"
    "wheel-second": {"wheel_second": True},
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
    """The rules as the setting solver's tables: royalties only (no Fantasyland, no stays) and the
    rules' order of straights (which only the setting searches apply: see chinese.scoring)."""
    top, middle, bottom = royalty_tables(rules)
    none_top = np.zeros(_kernel.TOP_VALUES, dtype=np.uint8)
    none_five = np.zeros(_kernel.FIVE_VALUES, dtype=np.uint8)
    middle_ok = np.ones(_kernel.FIVE_VALUES, dtype=np.uint8)
    middle_ok[0] = 0
    return _kernel.RuleTables(top, middle, bottom, none_top, none_five, none_top, none_five, none_five,
                           middle_ok, False, 0, 13, rules.scoop_units - 3,
                           row_order(rules) if rules.wheel_second else None)


def row_order(rules: Rules) -> npt.NDArray[np.uint16]:
    """The row value under `rules` of each value of the handrank.rows scale: the identity, or
    with ``wheel_second`` the wheel (and the steel wheel) moved just below the A-high straight
    (straight flush), the 6-high to K-high ones one step down."""
    return _wheel_second_order() if rules.wheel_second else _identity_order()


@lru_cache(maxsize=1)
def _identity_order() -> npt.NDArray[np.uint16]:
    order = np.arange(_kernel.ROW_VALUES, dtype=np.uint16)
    order.flags.writeable = False
    return order


@lru_cache(maxsize=1)
def _wheel_second_order() -> npt.NDArray[np.uint16]:
    # The ten straights are consecutive on the row scale (no 3-card row is a straight), wheel
    # first: rotating the wheel to the ninth place keeps every other row value.
    row_of_high = _kernel.row_scale()[0]
    order = _identity_order().copy()
    for suits in ((0, 1, 2, 3, 0), (0, 0, 0, 0, 0)):          # straights, straight flushes
        runs = [(12, 0, 1, 2, 3)] + [tuple(range(low, low + 5)) for low in range(9)]
        values = [int(row_of_high[high.evaluate([4 * r + s for r, s in zip(run, suits)])])
                  for run in runs]
        assert values == list(range(values[0], values[0] + 10))
        order[values[:9]] = values[8:9] + values[:8]
    order.flags.writeable = False
    return order
