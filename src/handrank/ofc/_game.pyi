from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from handrank.ofc.partial import PartialBoard
from handrank.ofc.placement import Placement
from handrank.ofc.rules import Rules

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]

STREETS: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]

def seeded_deck(seed: int) -> list[int]: ...
def play_action(action: int, dealt: tuple[int, ...], board: PartialBoard,
                discards: int) -> tuple[Placement, PartialBoard] | None: ...
def checked_deck(deck: Sequence[int], seed: object) -> list[int]: ...

@disjoint_base
class GameCore:
    rules: Rules
    players: int
    button: int
    fantasyland: tuple[int, ...]
    streets: tuple[tuple[int, int], ...]
    def __init__(self, players: int = 2, rules: Rules | str | None = None,
                 seed: int | np.random.Generator | None = None,
                 button: int = 0, fantasyland: Sequence[int] | None = None, *,
                 deck: Sequence[int] | None = None) -> None: ...
    @property
    def turn(self) -> int | None:
        """The seat of the player to act (None once the hand is over)."""
    @property
    def street(self) -> int:
        """The street being played, from 0 (``len(streets)`` once the hand is over)."""
    @property
    def over(self) -> bool:
        """Whether the hand is over (every board is full)."""
    @property
    def dealt(self) -> tuple[int, ...]:
        """The cards dealt to the player to act, ascending (() once the hand is over)."""
    @property
    def boards(self) -> list[PartialBoard]:
        """Each player's `PartialBoard`, by seat (boards are immutable: each play replaces one
        in this list)."""
    @property
    def history(self) -> list[tuple[int, Placement]]:
        """Every placement made so far, as (player, placement): the full record, discards and
        face-down Fantasyland boards included (what a player may see: `visible_board`,
        `discards`)."""
    @property
    def _deck(self) -> list[int]: ...
    @property
    def _drawn(self) -> int: ...
    def _free(self, player: int) -> tuple[int, int, int]: ...
    def _discarded(self, player: int) -> tuple[int, ...]: ...
    def legal_actions(self) -> npt.NDArray[np.int64]:
        """The legal action ids of the player to act (`ofc.actions`), ascending, as a read-only
        int64 array: the fast way for a bot to choose (``play_action(ids[k])``)."""
    def play_action(self, action: int | np.integer[Any]) -> Placement:
        """Make the placement of `action` (see `ofc.actions`); returns it."""
    def _place(self, player: int, placement: Placement) -> None: ...
    def points(self) -> list[int]:
        """Each player's net points for the finished hand (`ofc.score` under the rules)."""
    def __reduce__(self) -> tuple[Any, ...]: ...
