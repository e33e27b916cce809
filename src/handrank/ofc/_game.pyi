from handrank.ofc.partial import PartialBoard
from handrank.ofc.placement import Placement

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]

def seeded_deck(seed: int) -> list[int]: ...
def play_action(action: int, dealt: tuple[int, ...], board: PartialBoard,
                discards: int) -> tuple[Placement, PartialBoard] | None: ...
