import numpy as np
import numpy.typing as npt

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]

def init_tables() -> None: ...
def index_rows(cards: npt.NDArray[np.uint8], out: npt.NDArray[np.uint64], round_end: npt.NDArray[np.uint8],
               radix: npt.NDArray[np.uint32], direct: npt.NDArray[np.int32],
               slots: npt.NDArray[np.int32], config_shapes: npt.NDArray[np.uint64],
               config_terms: npt.NDArray[np.uint64]) -> int: ...
def set_kernel(name: str) -> None: ...
def kernel_name() -> str: ...
def has_fast_pext() -> bool: ...
def unindex_rows(indices: npt.NDArray[np.uint64], out: npt.NDArray[np.uint8], round_end: npt.NDArray[np.uint8],
                 config_cards: npt.NDArray[np.uint8],
                 config_shapes: npt.NDArray[np.uint64], config_offset: npt.NDArray[np.uint64],
                 config_mult: npt.NDArray[np.uint64], config_within: npt.NDArray[np.uint8],
                 config_values: npt.NDArray[np.uint64], config_count: npt.NDArray[np.uint64],
                 buckets: npt.NDArray[np.int32], bucket_shift: int) -> None: ...
