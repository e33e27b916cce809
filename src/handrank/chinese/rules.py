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
from handrank._threerow.thresholds import (Table, category_value, check_table, low_value, lookup,
                                           top_value)
from handrank.cards import RANKS

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Rules", "NATURALS", "NATURAL_VARIANTS", "SCORINGS", "as_rules", "royalty_tables",
           "solver_tables", "row_order", "row_values", "breaks_order", "natural_bit"]

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
      losing two rows and winning one pays (1 under 1-6, 2 under 2-4) and less than a scoop
      (checked when surrender is allowed).
    - ``one_royalty``: a hand collects only its largest royalty (equal ones: the bottom's, then
      the middle's).
    - ``wheel_second``: A-2-3-4-5 is the second-highest straight (and straight flush), just
      below T-J-Q-K-A, instead of the lowest.
    - ``low_middle``: the middle row is a 2-7 low hand, compared with the other players' middles
      as such (7-5-4-3-2 offsuit the best); a setting is valid when the bottom is no weaker than
      the top as high hands (the middle takes no part in the order). The middle then collects
      ``middle_low_royalties`` (2-7 thresholds, the worst low that pays: ``("98765", 1)``; none
      by default) instead of ``middle_royalties``.
    - ``scoop_bonus``: the units for winning all three rows on top of the rows: None for the
      scoring's own (3 under 1-6; under 2-4 the overall unit alone), or 0..1000 (1 is the seed's
      "additional unit only for a scoop"; under 2-4 it is added to the overall unit).
    - ``mis_set_played``: a mis-set hand is still played: its rows are compared as set, it
      collects no royalties and pays its opponents' royalties as usual (instead of paying as if
      scooped).
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
    low_middle: bool = False
    middle_low_royalties: Table = ()
    scoop_bonus: int | None = None
    mis_set_played: bool = False

    def __post_init__(self) -> None:
        if self.scoring not in SCORINGS:
            raise ValueError(f"Rules.scoring must be one of {SCORINGS}, got {self.scoring!r}")
        for flag in ("royalties_to_winner", "surrender_allowed", "one_royalty", "wheel_second",
                     "low_middle", "mis_set_played"):
            if not isinstance(getattr(self, flag), bool):
                raise TypeError(f"Rules.{flag} must be a bool, got {getattr(self, flag)!r}")
        if self.scoop_bonus is not None:
            if not isinstance(self.scoop_bonus, int) or isinstance(self.scoop_bonus, bool):
                raise TypeError(f"Rules.scoop_bonus must be an int or None, got {self.scoop_bonus!r}")
            if not 0 <= self.scoop_bonus <= 1000:
                raise ValueError(f"Rules.scoop_bonus must be in 0..1000, got {self.scoop_bonus}")
        if not isinstance(self.surrender, int) or isinstance(self.surrender, bool):
            raise TypeError(f"Rules.surrender must be an int, got {self.surrender!r}")
        floor = LOSE_TWO_ROWS[self.scoring]
        # (checked only when it is paid: a scoop bonus of 0 leaves 2 the only amount under 1-6)
        if self.surrender_allowed and not floor < self.surrender < self.scoop_units:
            raise ValueError(f"Rules.surrender must be more than losing two rows pays ({floor}) and "
                             f"less than a scoop ({self.scoop_units}) under {self.scoring} scoring, "
                             f"got {self.surrender}")
        if not isinstance(self.name, str):
            raise TypeError(f"Rules.name must be a str, got {self.name!r}")
        for name, parse in (("top_royalties", top_value), ("middle_royalties", category_value),
                            ("bottom_royalties", category_value)):
            object.__setattr__(self, name, check_table(name, getattr(self, name), parse, False))
        object.__setattr__(self, "middle_low_royalties",
                           check_table("middle_low_royalties", self.middle_low_royalties, low_value,
                                       False))
        if self.middle_low_royalties and not self.low_middle:
            raise ValueError("Rules.middle_low_royalties applies only when low_middle is True")
        object.__setattr__(self, "naturals", check_table("naturals", self.naturals, _natural_index,
                                                         False))
        for kind, units in self.naturals:
            # a natural is paid instead of comparing rows: one worth nothing would only shield
            # a hand from losing them
            if units == 0:
                raise ValueError(f"Rules.naturals: {kind!r} must pay at least 1 unit; leave it "
                                 f"out to play such hands as set")

    @property
    def scoop_extra(self) -> int:
        """The units a sweep pays on top of its rows (and of the 2-4 overall unit)."""
        if self.scoop_bonus is not None:
            return self.scoop_bonus
        return 3 if self.scoring == "1-6" else 0

    @property
    def scoop_units(self) -> int:
        """What a sweep of all three rows pays: 3 rows, the 2-4 overall unit, and the bonus."""
        return 3 + (self.scoring == "2-4") + self.scoop_extra

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
    # "Low in the middle--In this variation, the middle hand is played as a deuce-to-seven low hand."
    "low-middle": {"low_middle": True},
    # "In other variants players only get an additional unit if they win all three hands (known as
    # a scoop)."
    "scoop-unit": {"scoop_bonus": 1},
    # "In some variations players are still required to play their hands."
    "mis-set-played": {"mis_set_played": True},
}


as_rules = Rules.of


@lru_cache(maxsize=64)
def royalty_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Royalty units by high3 value (top), by middle value (high, or 2-7 with low_middle) and by
    high value (bottom)."""
    middle = (lookup(rules.middle_low_royalties, low_value, _kernel.FIVE_VALUES) if rules.low_middle
              else lookup(rules.middle_royalties, category_value, _kernel.FIVE_VALUES))
    return (lookup(rules.top_royalties, top_value, _kernel.TOP_VALUES), middle,
            lookup(rules.bottom_royalties, category_value, _kernel.FIVE_VALUES))


@lru_cache(maxsize=64)
def solver_tables(rules: Rules) -> _kernel.RuleTables:
    """The rules as the setting solver's tables: royalties only (no Fantasyland, no stays), the
    rules' order of straights (which only the setting searches apply: see chinese.scoring) and,
    with low_middle, a 2-7 middle that every low may fill (the kernel's deuce middle with no
    qualifier)."""
    top, middle, bottom = royalty_tables(rules)
    none_top = np.zeros(_kernel.TOP_VALUES, dtype=np.uint8)
    none_five = np.zeros(_kernel.FIVE_VALUES, dtype=np.uint8)
    middle_ok = np.ones(_kernel.FIVE_VALUES, dtype=np.uint8)
    middle_ok[0] = 0
    return _kernel.RuleTables(top, middle, bottom, none_top, none_five, none_top, none_five, none_five,
                           middle_ok, rules.low_middle, 0, 13, rules.scoop_units - 3,
                           row_order(rules) if rules.wheel_second else None)


def row_order(rules: Rules) -> npt.NDArray[np.uint16]:
    """The row value under `rules` of each value of the handrank.rows scale: the identity, or
    with ``wheel_second`` the wheel (and the steel wheel) moved just below the A-high straight
    (straight flush), the 6-high to K-high ones one step down."""
    return _wheel_second_order() if rules.wheel_second else _identity_order()


def row_values(boards: npt.NDArray[np.uint8], rules: Rules) -> npt.NDArray[np.uint16]:
    """(N, 3) values of the (top, middle, bottom) rows of (N, 13) valid card arrays, as the rules
    compare them: the handrank.rows scale on the rules' order of straights, the middle's 2-7 value
    with low_middle."""
    from handrank import low27, rows        # (rules load before the evaluators' batch layer)

    order = row_order(rules)
    values = [order[rows.value_batch(np.ascontiguousarray(boards[:, a:b]), threads=1)]
              for a, b in ((0, 3), (3, 8), (8, 13))]
    if rules.low_middle:
        values[1] = low27.evaluate_batch(np.ascontiguousarray(boards[:, 3:8]), threads=1)
    return np.stack(values, axis=1).astype(np.uint16)


def breaks_order(values: npt.NDArray[np.integer[Any]], rules: Rules) -> npt.NDArray[np.bool_]:
    """Whether each setting of (N, 3) row values (`row_values`) is mis-set: bottom >= middle >=
    top broken, or with low_middle bottom >= top."""
    if rules.low_middle:
        return values[:, 0] > values[:, 2]
    broken: npt.NDArray[np.bool_] = (values[:, 0] > values[:, 1]) | (values[:, 1] > values[:, 2])
    return broken


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
