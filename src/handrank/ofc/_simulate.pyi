import numpy as np
import numpy.typing as npt

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]

def play_random(seed: int, streets: npt.NDArray[np.int32], hand_numbers: npt.NDArray[np.uint64],
                boards: npt.NDArray[np.uint8], dealt: npt.NDArray[np.uint8],
                discards: npt.NDArray[np.uint8]) -> int: ...
