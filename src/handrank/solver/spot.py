"""A postflop spot: the board, the two ranges, the pot, the stack and the bet sizes of each street,
read from Python or from a spot file (``key = value`` lines, TOML-compatible).

Sizes (postflop-solver's syntax, so that its spots read the same): ``"50%"`` of the pot, for a
raise of the pot after the call (``"60%"`` facing a 100 bet into 200: call 100, then 60% of 400,
to 340); ``"2.5x"`` the last bet (raises only); ``"a"`` all-in. Several sizes are separated by
commas. A bet or raise over the stack becomes all-in; a raise under a min-raise becomes a
min-raise; equal amounts are merged.

>>> spot = Spot("Td9d6hQc2s", "AA,KK", "QQ,JJ", pot=100, stack=200, bet="50%", raise_="a")
>>> spot.street, spot.sizes("river", 0).bet
('river', (Size('%', 0.5),))
"""
from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from handrank.cards import cards as parse_cards, hand_str
from handrank.equity.range import Range

__all__ = ["Size", "StreetSizes", "Spot", "STREETS", "parse_sizes"]

STREETS = ("flop", "turn", "river")
# keys a spot file may hold for whoever solves it (postflop-solver's spot files have them too)
SOLVER_KEYS = ("label", "max_iter", "target", "threads", "compress")


@dataclass(frozen=True)
class Size:
    """One bet or raise size: kind ``'%'`` (a fraction of the pot after a call), ``'x'`` (a
    multiple of the last bet, raises only) or ``'a'`` (all-in, value unused)."""

    kind: str
    value: float = 0.0

    def __repr__(self) -> str:
        return f"Size({self.kind!r}, {self.value!r})" if self.kind != "a" else "Size('a')"

    def __str__(self) -> str:
        if self.kind == "%":
            return f"{self.value * 100:g}%"
        return f"{self.value:g}x" if self.kind == "x" else "a"


def parse_sizes(text: str | Iterable[str | Size], *, raises: bool, what: str = "sizes") -> tuple[Size, ...]:
    """``"50%,100%,a"`` (or a list of those terms) as a tuple of Size; ValueError naming the term."""
    terms = text.split(",") if isinstance(text, str) else list(text)
    sizes = []
    for term in terms:
        if isinstance(term, Size):
            sizes.append(term)
            continue
        if not isinstance(term, str):
            raise TypeError(f"{what}: a size is text like '50%', not {type(term).__name__}")
        body = term.strip().lower()
        if not body:
            continue
        if body == "a":
            sizes.append(Size("a"))
            continue
        kind = body[-1]
        if kind not in "%x":
            raise ValueError(f"{what}: {term.strip()!r} is not a size ('50%', '2.5x' or 'a')")
        if kind == "x" and not raises:
            raise ValueError(f"{what}: {term.strip()!r}: a multiple of the last bet is for raises only")
        try:
            number = float(body[:-1])
        except ValueError:
            raise ValueError(f"{what}: {term.strip()!r} is not a size ('50%', '2.5x' or 'a')") from None
        if not (math.isfinite(number) and number > 0) or (kind == "x" and number <= 1):
            raise ValueError(f"{what}: {term.strip()!r} must be positive"
                             + (" and over 1x" if kind == "x" else ""))
        sizes.append(Size(kind, number / 100 if kind == "%" else number))
    return tuple(sizes)


@dataclass(frozen=True)
class StreetSizes:
    """One player's sizes on one street: opening bets, raises, and donk bets (the first bet of a
    street by the out-of-position player after calling the last street; None: the bet sizes)."""

    bet: tuple[Size, ...] = ()
    raise_: tuple[Size, ...] = ()
    donk: tuple[Size, ...] | None = None


def _sizes_arg(value: Any, raises: bool, what: str) -> tuple[Size, ...]:
    return parse_sizes(value, raises=raises, what=what) if value is not None else ()


@dataclass(frozen=True)
class Spot:
    """A heads-up postflop spot between OOP (acts first) and IP.

    board: 3 to 5 cards; oop_range / ip_range: range notation (weights allowed) or an
    ``equity.Range``; pot: the chips already in the middle; stack: the effective stack behind;
    bet / raise_ / donk: the sizes for every street and both players, overridden per street and
    player by `sizes_by` ({("turn", "ip"): StreetSizes(...)}); dead: cards out of play;
    add_allin: add an all-in where it is at most this many pots (0: never); force_allin: a bet
    that leaves less than this fraction of the pot after a call becomes all-in (0: never)."""

    board: str | tuple[int, ...]
    oop_range: str | Range
    ip_range: str | Range
    pot: int = 100
    stack: int = 100
    bet: str | tuple[Size, ...] = "50%,100%"
    raise_: str | tuple[Size, ...] = "60%"
    donk: str | tuple[Size, ...] | None = None
    sizes_by: Mapping[tuple[str, str], StreetSizes] = field(default_factory=dict)
    dead: str | tuple[int, ...] = ()
    add_allin: float = 0.0
    force_allin: float = 0.0

    def __post_init__(self) -> None:
        board = tuple(parse_cards(self.board)) if not isinstance(self.board, tuple) else self.board
        dead = tuple(parse_cards(self.dead)) if isinstance(self.dead, str) else tuple(self.dead)
        if not 3 <= len(board) <= 5:
            raise ValueError(f"a board has 3 to 5 cards, got {len(board)}")
        all_cards = board + dead
        for card in all_cards:
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card <= 51:
                raise ValueError(f"card ids are 0..51, got {card!r}")
        if len(set(all_cards)) != len(all_cards):
            raise ValueError(f"the board and dead cards repeat a card: {hand_str(list(all_cards))}")
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "dead", dead)
        for name in ("oop_range", "ip_range"):
            value = getattr(self, name)
            if not isinstance(value, Range):
                object.__setattr__(self, name, Range(value))
        for name in ("pot", "stack"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} is a whole number of chips, not {type(value).__name__}")
        if self.pot <= 0 or self.stack <= 0:
            raise ValueError(f"pot and stack must be positive, got pot={self.pot}, stack={self.stack}")
        for name in ("add_allin", "force_allin"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} is a number >= 0, got {value!r}")
        object.__setattr__(self, "bet", parse_sizes(self.bet, raises=False, what="bet"))
        object.__setattr__(self, "raise_", parse_sizes(self.raise_, raises=True, what="raise"))
        if self.donk is not None:
            object.__setattr__(self, "donk", parse_sizes(self.donk, raises=False, what="donk"))
        for (street, player), sizes in self.sizes_by.items():
            if street not in STREETS or player not in ("oop", "ip"):
                raise ValueError(f"sizes_by keys are (street, 'oop' or 'ip'), got {(street, player)!r}")
            if not isinstance(sizes, StreetSizes):
                raise TypeError(f"sizes_by values are StreetSizes, not {type(sizes).__name__}")
        object.__setattr__(self, "sizes_by", dict(self.sizes_by))
        for rng in (self.oop_range, self.ip_range):
            Range(rng).without(all_cards)       # raises when no combo is left

    @property
    def board_cards(self) -> tuple[int, ...]:
        """The board as card ids (`board` is stored so once the spot is built)."""
        return cast("tuple[int, ...]", self.board)

    @property
    def dead_cards(self) -> tuple[int, ...]:
        """The dead cards as card ids."""
        return cast("tuple[int, ...]", self.dead)

    @property
    def street(self) -> str:
        """The street the spot starts on."""
        return STREETS[len(self.board) - 3]

    def sizes(self, street: str, player: int) -> StreetSizes:
        """The sizes of `player` (0 OOP, 1 IP) on `street`."""
        override = self.sizes_by.get((street, ("oop", "ip")[player]))
        if override is not None:
            return override
        return StreetSizes(self.bet, self.raise_, self.donk)  # type: ignore[arg-type]

    def to_mapping(self) -> dict[str, Any]:
        """The spot as a spot file's keys (`from_mapping` reads it back)."""
        def text(sizes: tuple[Size, ...]) -> str:
            return ",".join(str(size) for size in sizes)

        data: dict[str, Any] = {
            "board": hand_str(self.board_cards), "oop_range": str(self.oop_range),
            "ip_range": str(self.ip_range), "pot": self.pot, "stack": self.stack,
            "bet": text(self.bet), "raise": text(self.raise_),   # type: ignore[arg-type]
            "dead": hand_str(self.dead_cards), "add_allin": self.add_allin,
            "force_allin": self.force_allin}
        if self.donk is not None:
            data["donk"] = text(self.donk)                          # type: ignore[arg-type]
        for (street, player), sizes in self.sizes_by.items():
            data[f"{street}_{player}_bet"] = text(sizes.bet)
            data[f"{street}_{player}_raise"] = text(sizes.raise_)
            if sizes.donk is not None:
                data[f"{street}_{player}_donk"] = text(sizes.donk)
        return data

    @classmethod
    def from_file(cls, path: str | Path) -> Spot:
        """Read a spot file: ``key = value`` lines (TOML): board, oop_range, ip_range, pot,
        stack, bet, raise, donk, dead, add_allin, force_allin, and per street and player
        ``river_ip_bet = "75%"`` (street_player_bet/raise/donk). The keys label, max_iter,
        target, threads and compress are left to the caller (merge must be 0); others raise
        ValueError."""
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
        return cls.from_mapping(data)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Spot:
        """A spot from a spot file's keys (see `from_file`)."""
        known = {"board", "oop_range", "ip_range", "pot", "stack", "bet", "raise", "donk", "dead",
                 "add_allin", "force_allin", "merge", *SOLVER_KEYS,
                 *(f"{s}_{p}_{k}" for s in STREETS for p in ("oop", "ip") for k in ("bet", "raise", "donk"))}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown spot key {unknown[0]!r}")
        if data.get("merge", 0):
            raise ValueError("merge: merging close bet sizes is not supported (use merge = 0)")
        for key in ("board", "oop_range", "ip_range"):
            if key not in data:
                raise ValueError(f"the spot has no {key!r}")
        by: dict[tuple[str, str], StreetSizes] = {}
        base = {"bet": data.get("bet", "50%,100%"), "raise": data.get("raise", "60%"),
                "donk": data.get("donk")}
        for street in STREETS:
            for player in ("oop", "ip"):
                keys = {kind: f"{street}_{player}_{kind}" for kind in ("bet", "raise", "donk")}
                if any(key in data for key in keys.values()):
                    bet = data.get(keys["bet"], base["bet"])
                    raise_ = data.get(keys["raise"], base["raise"])
                    donk = data.get(keys["donk"], base["donk"])
                    by[(street, player)] = StreetSizes(
                        _sizes_arg(bet, False, keys["bet"]), _sizes_arg(raise_, True, keys["raise"]),
                        None if donk is None else _sizes_arg(donk, False, keys["donk"]))
        return cls(board=data["board"], oop_range=data["oop_range"], ip_range=data["ip_range"],
                   pot=data.get("pot", 100), stack=data.get("stack", 100), bet=base["bet"],
                   raise_=base["raise"], donk=base["donk"], sizes_by=by, dead=data.get("dead", ""),
                   add_allin=data.get("add_allin", 0.0), force_allin=data.get("force_allin", 0.0))
