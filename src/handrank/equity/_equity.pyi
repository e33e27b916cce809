import numpy as np
import numpy.typing as npt

MAX_PLAYERS: int
NO_CARD: int

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]

def enumerate_deals(holes: npt.NDArray[np.uint8], weights: npt.NDArray[np.float64],
                    masks: npt.NDArray[np.uint64], group_start: npt.NDArray[np.int64],
                    board: npt.NDArray[np.uint8], out_mask: int, first: int, last: int, part: int,
                    parts: int, wins: npt.NDArray[np.float64]) -> None: ...
def seed_state(seed: int, stream: int) -> list[int]: ...
def sample_deals(holes: npt.NDArray[np.uint8], cumulative: npt.NDArray[np.float64],
                 masks: npt.NDArray[np.uint64], group_start: npt.NDArray[np.int64],
                 from_deck: npt.NDArray[np.int32], board: npt.NDArray[np.uint8], out_mask: int,
                 samples: int, rotations: int, state: npt.NDArray[np.uint64],
                 wins: npt.NDArray[np.float64], moments: npt.NDArray[np.float64]) -> int: ...
def heads_up_rows(rows: npt.NDArray[np.uint8], out: npt.NDArray[np.float64]) -> int: ...
def heads_up_boards(combos1: npt.NDArray[np.uint8], weights1: npt.NDArray[np.float64],
                    combos2: npt.NDArray[np.uint8], weights2: npt.NDArray[np.float64],
                    board: npt.NDArray[np.uint8], runs: npt.NDArray[np.uint8],
                    counts: npt.NDArray[np.float64], wins: npt.NDArray[np.float64]) -> None: ...
