"""`Placements`: the legal placements of one street as a sequence that builds each `Placement`
only when it is read, so that a bot choosing one of 232 options pays for one object, not 232."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from handrank.cards import hand_str
from handrank.ofc import actions
from handrank.ofc.placement import Placement

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Placements"]


class Placements(Sequence[Placement]):
    """The legal placements of `dealt` (card ids, ascending), one per legal action id of
    `actions` (ascending, the order of `ofc.actions`). Indexing, iteration, ``len``, ``in`` and
    ``==`` (with any sequence of placements, a list included) work as on a list; ``.actions``
    gives the ids themselves (read-only) for `ofc.Game.play_action`."""

    __slots__ = ("actions", "dealt")

    def __init__(self, ids: npt.NDArray[np.int64], dealt: tuple[int, ...]) -> None:
        self.actions = ids
        self.dealt = dealt

    def __len__(self) -> int:
        return len(self.actions)

    @overload
    def __getitem__(self, index: int) -> Placement: ...

    @overload
    def __getitem__(self, index: slice) -> list[Placement]: ...

    def __getitem__(self, index: int | slice) -> Placement | list[Placement]:
        if isinstance(index, slice):
            return [self._build(a) for a in self.actions.tolist()[index]]
        # a range indexes as a list does (bools and __index__ objects in, floats and strings
        # out, any size of int), where numpy's indexing differs and words its errors its own way
        try:
            at = range(len(self))[index]
        except TypeError:
            raise TypeError(f"Placements indices must be integers or slices, not "
                            f"{type(index).__name__}") from None
        except IndexError:
            raise IndexError("Placements index out of range") from None
        return self._build(int(self.actions[at]))

    def __iter__(self) -> Iterator[Placement]:
        return (self._build(a) for a in self.actions.tolist())

    def __contains__(self, placement: object) -> bool:
        return self._action_of(placement) is not None

    def index(self, placement: Any, start: int = 0, stop: int | None = None) -> int:
        # start and stop as a list takes them: negative from the end, clipped to the length
        within = range(len(self))[start:stop]
        action = self._action_of(placement)
        if action is not None:
            at = int(np.searchsorted(self.actions, action))
            if at in within:
                return at
        raise ValueError(f"{placement} is not a legal placement here")

    def count(self, placement: Any) -> int:
        return int(placement in self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Placements):
            return self.dealt == other.dealt and np.array_equal(self.actions, other.actions)
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None     # type: ignore[assignment]  # mutable-looking, like a list

    def __repr__(self) -> str:
        return f"<ofc.Placements: {len(self)} legal placements of {hand_str(list(self.dealt))}>"

    def _build(self, action: int) -> Placement:
        return actions.placement_of_ids(action, self.dealt)

    def _action_of(self, placement: object) -> int | None:
        """The action of `placement` when it is one of these, else None."""
        if not isinstance(placement, Placement) or sorted(placement.cards) != list(self.dealt):
            return None
        action = actions.action(placement, self.dealt)
        at = int(np.searchsorted(self.actions, action))
        return action if at < len(self.actions) and self.actions[at] == action else None
