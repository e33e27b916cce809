"""What a player does on a turn of OFC: `Placement`, and `IllegalPlacement` for one the rules do
not allow."""
from __future__ import annotations

from dataclasses import dataclass

from handrank._threerow.board import Cards
from handrank.cards import cards as parse_cards, hand_str

__all__ = ["Placement", "IllegalPlacement"]


class IllegalPlacement(ValueError):
    """A placement the rules do not allow now; the game state is unchanged."""


@dataclass(frozen=True, init=False)
class Placement:
    """What a player does with the cards dealt to them: the cards added to each row and the cards
    discarded (pineapple, Fantasyland). Each part is stored ascending, so equal placements compare
    equal: ``Placement(top="Qs", bottom="Ah Ad 7c", middle="7d", discards="2c")``."""

    top: tuple[int, ...]
    middle: tuple[int, ...]
    bottom: tuple[int, ...]
    discards: tuple[int, ...]

    def __init__(self, top: Cards = (), middle: Cards = (), bottom: Cards = (),
                 discards: Cards = ()) -> None:
        seen: dict[int, str] = {}
        for name, part in (("top", top), ("middle", middle), ("bottom", bottom), ("discards", discards)):
            ids = tuple(sorted(parse_cards(part)))
            for card in ids:
                if card in seen:
                    where = f"twice in {name}" if seen[card] == name else f"in {seen[card]} and in {name}"
                    raise ValueError(f"a placement holds each card once: {hand_str([card])} is {where}")
                seen[card] = name
            object.__setattr__(self, name, ids)

    @classmethod
    def of_ids(cls, top: list[int], middle: list[int], bottom: list[int], discards: list[int]) -> Placement:
        """A placement of card ids known to be valid (the fast path of the action space)."""
        placement = object.__new__(cls)
        for name, part in (("top", top), ("middle", middle), ("bottom", bottom), ("discards", discards)):
            object.__setattr__(placement, name, tuple(sorted(part)))
        return placement

    @classmethod
    def of_sorted(cls, top: list[int], middle: list[int], bottom: list[int], discards: list[int]) -> Placement:
        """`of_ids` for parts already ascending (the action space's own fast path)."""
        placement = object.__new__(cls)
        placement.__dict__.update(top=tuple(top), middle=tuple(middle), bottom=tuple(bottom),
                                  discards=tuple(discards))
        return placement

    @property
    def rows(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return self.top, self.middle, self.bottom

    @property
    def cards(self) -> tuple[int, ...]:
        """Every card of the placement: the rows', then the discards."""
        return self.top + self.middle + self.bottom + self.discards

    def __str__(self) -> str:
        rows = " / ".join(hand_str(row) or "-" for row in self.rows)
        return rows + (f", discard {hand_str(self.discards)}" if self.discards else "")
