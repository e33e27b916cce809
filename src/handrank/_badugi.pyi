import numpy as np
import numpy.typing as npt

MAX_VALUE: int

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]

def batch(ace_low: bool, cards: npt.NDArray[np.uint8], out: npt.NDArray[np.uint16],
          saved: npt.NDArray[np.uint16] | None = None) -> int: ...
def evaluate_ids(ace_low: bool, hand: npt.NDArray[np.uint8]) -> int: ...
