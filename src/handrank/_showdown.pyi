import numpy as np
import numpy.typing as npt

BAD_BOARD: int
BAD_TOTAL: int

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]

def strengths_rows(boards: npt.NDArray[np.uint8], out: npt.NDArray[np.uint16]) -> int: ...
def river_payoffs_into(board: npt.NDArray[np.uint8], hero: npt.NDArray[np.float64],
                       villain: npt.NDArray[np.float64], win: npt.NDArray[np.float64],
                       tie: npt.NDArray[np.float64], lose: npt.NDArray[np.float64],
                       strength: npt.NDArray[np.uint16]) -> int: ...
def river_equity_into(board: npt.NDArray[np.uint8], hero: npt.NDArray[np.float64],
                      villain: npt.NDArray[np.float64], equity: npt.NDArray[np.float64]) -> int: ...
