import numpy as np
import numpy.typing as npt

from handrank._threerow._kernel import RuleTables

BEST: int
GREEDY: int
SCORE_1_6: int
SCORE_2_4: int
MAX_POOL: int
MAX_STREETS: int

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]

def complete_boards(tables: RuleTables, mode: int, fl_value: float, foul_value: float,
                    sizes: npt.NDArray[np.int32], discards: npt.NDArray[np.int32],
                    boards: npt.NDArray[np.uint8], held: npt.NDArray[np.int32],
                    pools: npt.NDArray[np.uint8], out: npt.NDArray[np.uint8]) -> int: ...
def score_placements(tables: RuleTables, mode: int, fl_value: float, foul_value: float,
                     scoring: int, to_winner: bool, moon: int, jack_high: int,
                     sizes: npt.NDArray[np.int32], discards: npt.NDArray[np.int32],
                     draws: npt.NDArray[np.uint8], opponents: npt.NDArray[np.uint8],
                     boards: npt.NDArray[np.uint8], held: npt.NDArray[np.int32],
                     scores: npt.NDArray[np.float64], fouls: npt.NDArray[np.uint8]) -> int: ...
