import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

KINDS: dict[str, int]

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]

@disjoint_base
class Engine:
    regrets: npt.NDArray[np.float32] | npt.NDArray[np.int16]
    strategy_sum: npt.NDArray[np.float32] | npt.NDArray[np.uint16]
    def __init__(self, kind: npt.NDArray[np.int8], player: npt.NDArray[np.int8],
                 first_child: npt.NDArray[np.int32], n_children: npt.NDArray[np.int32],
                 stake: npt.NDArray[np.float32], offset: npt.NDArray[np.int64],
                 board: npt.NDArray[np.int32], card: npt.NDArray[np.int8],
                 cards0: npt.NDArray[np.uint8], cards1: npt.NDArray[np.uint8],
                 same0: npt.NDArray[np.int32], same1: npt.NDArray[np.int32],
                 card_start0: npt.NDArray[np.int32], card_start1: npt.NDArray[np.int32],
                 card_combos0: npt.NDArray[np.int32], card_combos1: npt.NDArray[np.int32],
                 order0: npt.NDArray[np.int32], order1: npt.NDArray[np.int32],
                 segments0: npt.NDArray[np.uint16], segments1: npt.NDArray[np.uint16],
                 sweep_index0: npt.NDArray[np.uint16], sweep_index1: npt.NDArray[np.uint16],
                 regrets: npt.NDArray[np.float32] | npt.NDArray[np.int16],
                 strategy_sum: npt.NDArray[np.float32] | npt.NDArray[np.uint16],
                 iso_first: npt.NDArray[np.int32], iso_count: npt.NDArray[np.int32],
                 iso_perm: npt.NDArray[np.int32], perms0: npt.NDArray[np.int32],
                 perms1: npt.NDArray[np.int32], scales: npt.NDArray[np.float32]) -> None: ...
    def set_threads(self, threads: int) -> None: ...
    def set_locked(self, locked: npt.NDArray[np.int8]) -> None: ...
    def set_ranges(self, reach0: npt.NDArray[np.float32], reach1: npt.NDArray[np.float32]) -> None: ...
    def iterate(self, positive: float, negative: float, strategy: float) -> None: ...
    def values(self, node: int, hero: int, hero_reach: npt.NDArray[np.float32],
               opp_reach: npt.NDArray[np.float32], best: bool) -> npt.NDArray[np.float32]: ...
    def best_responses(self) -> tuple[float, float]: ...
    def showdown_sums(self, board: int, hero: int, opp_reach: npt.NDArray[np.float32]
                      ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32]]: ...
