import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]

KINDS: tuple[tuple[int, int], ...]

@disjoint_base
class Core:
    num_envs: int
    players: int
    nstreets: int
    deck_array: npt.NDArray[np.uint8]
    board_array: npt.NDArray[np.uint8]
    fl_board_array: npt.NDArray[np.uint8]
    turn_array: npt.NDArray[np.int8]
    def __init__(self, num_envs: int, order: list[int], fantasyland: tuple[int, ...],
                 streets: list[tuple[int, int]], masks: npt.NDArray[np.uint8],
                 legal_ids: npt.NDArray[np.int16], legal_counts: npt.NDArray[np.int16]) -> None: ...
    def shuffle(self, key: int, games: npt.NDArray[np.int64], hands: npt.NDArray[np.uint64]) -> None: ...
    def begin(self, games: npt.NDArray[np.int64], obs: npt.NDArray[np.int8],
              mask: npt.NDArray[np.uint8], current: npt.NDArray[np.int8]) -> int: ...
    def step(self, games: npt.NDArray[np.int64], actions: npt.NDArray[np.int64],
             obs: npt.NDArray[np.int8], mask: npt.NDArray[np.uint8], current: npt.NDArray[np.int8],
             done: npt.NDArray[np.uint8]) -> int: ...
    def check(self, actions: npt.NDArray[np.int64]) -> int: ...
    def counts(self, out: npt.NDArray[np.int64]) -> None: ...
    def pick(self, choices: npt.NDArray[np.int64]) -> None: ...
    def write_ids(self, indptr: npt.NDArray[np.int64], out: npt.NDArray[np.int32]) -> None: ...
    def state(self, g: int) -> tuple[int, int, tuple[int, ...]]: ...
