import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

TOP_VALUES: int
FIVE_VALUES: int
MAX_CARDS: int
ROW_VALUES: int
SCORE_OFC: int
SCORE_CHINESE_1_6: int
SCORE_CHINESE_2_4: int

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]
# The C-API capsules of the cdef functions other compiled modules cimport (_kernel.pxd).
__pyx_capi__: dict[str, object]

@disjoint_base
class RuleTables:
    def __init__(self, top_royalty: npt.NDArray[np.int32], middle_royalty: npt.NDArray[np.int32],
                 bottom_royalty: npt.NDArray[np.int32], top_fantasyland: npt.NDArray[np.uint8],
                 middle_fantasyland: npt.NDArray[np.uint8], top_stay: npt.NDArray[np.uint8],
                 middle_stay: npt.NDArray[np.uint8], bottom_stay: npt.NDArray[np.uint8],
                 middle_ok: npt.NDArray[np.uint8], lowball: bool, super_fantasyland: int,
                 stay_cards: int, scoop_bonus: int, row_order: npt.NDArray[np.uint16] | None = None) -> None: ...

def evaluate_boards(tables: RuleTables, in_fantasyland: bool, cards: npt.NDArray[np.uint8],
                    foul: npt.NDArray[np.uint8], royalties: npt.NDArray[np.int32],
                    values: npt.NDArray[np.uint16], fantasyland: npt.NDArray[np.uint8]) -> int: ...
def solve_fantasyland(tables: RuleTables, stay_value: float, cards: npt.NDArray[np.uint8],
                      boards: npt.NDArray[np.uint8], royalties: npt.NDArray[np.int32],
                      stays: npt.NDArray[np.uint8], fouled: npt.NDArray[np.uint8],
                      values: npt.NDArray[np.float64]) -> int: ...
def best_ev_settings(tables: RuleTables, base: npt.NDArray[np.float64], win: npt.NDArray[np.float64],
                     lose: npt.NDArray[np.float64], scoring: int, scoop_bonus: float,
                     one_royalty: bool, mine: npt.NDArray[np.float64], kept: npt.NDArray[np.float64],
                     cards: npt.NDArray[np.uint8], boards: npt.NDArray[np.uint8],
                     values: npt.NDArray[np.float64]) -> int: ...
def score_pairs(tables: RuleTables, scoring: int, royalties_to_winner: bool,
                pairs: npt.NDArray[np.uint8], out: npt.NDArray[np.int32],
                naturals: npt.NDArray[np.uint8]) -> int: ...
def row_scale() -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint16]]: ...
