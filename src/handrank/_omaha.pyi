import numpy as np
import numpy.typing as npt

HIGH: int
LOW8: int
NO_LOW: int

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]

def batch(game: int, hole: npt.NDArray[np.uint8], board: npt.NDArray[np.uint8], start: int,
          out: npt.NDArray[np.uint16], saved: npt.NDArray[np.uint16] | None = None) -> int: ...
def evaluate_row(game: int, hole: npt.NDArray[np.uint8], board: npt.NDArray[np.uint8]) -> int: ...
