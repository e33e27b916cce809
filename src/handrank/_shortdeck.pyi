import numpy as np
import numpy.typing as npt

MAX_VALUE: int
STANDARD: int
TRITON: int
LOWEST_CARD: int

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]

def batch(rules: int, cards: npt.NDArray[np.uint8], out: npt.NDArray[np.uint16],
          saved: npt.NDArray[np.uint16] | None = None) -> int: ...
def evaluate_ids(rules: int, hand: npt.NDArray[np.uint8]) -> int: ...
def value_class(rules: int, value: int) -> tuple[int, tuple[int, ...]]: ...
