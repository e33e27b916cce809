from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

# Cython's doctest table, present (empty) in every compiled module.
__test__: dict[str, str]
# The C functions _bigtwo.pxd exports to other compiled modules (handrank.bigtwo._vector).
__pyx_capi__: dict[str, Any]

BUILT_IN_SIGNATURE: str

def built_in_classes() -> bytes: ...

@disjoint_base
class Tables:
    @property
    def arrays(self) -> tuple[npt.NDArray[np.generic], ...]: ...
    def __init__(self, rank: npt.NDArray[np.uint8], suit: npt.NDArray[np.uint8],
                 pick: npt.NDArray[np.uint8], classes: npt.NDArray[np.uint32], four_alone: bool,
                 two_pair: bool, straight_masks: Sequence[int], two_pair4: bool = ...,
                 trips: bool = ..., runs3: bool = ...,
                 run_sizes: Sequence[int] = ..., bare_triples: bool = ...,
                 pair_runs: bool = ...) -> None: ...

def batch(t: Tables, cards: npt.NDArray[np.uint8], out: npt.NDArray[np.int32]) -> int: ...
def key(t: Tables, cards: bytes | npt.NDArray[np.uint8]) -> int: ...
def moves(t: Tables, hand: str | Iterable[str | int], want: int, above: int, must: int
          ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.int32]]: ...
def combos(t: Tables, hand: str | Iterable[str | int], want: int, above: int, must: int,
           combo: type[tuple[Any, ...]], kinds: tuple[Any, ...]) -> list[Any]: ...

@disjoint_base
class ActionIndex:
    @property
    def arrays(self) -> tuple[npt.NDArray[np.generic], ...]: ...
    def __init__(self, t: Tables, sorted_bits: npt.NDArray[np.uint64], order: npt.NDArray[np.int64]) -> None: ...
    def mark(self, hand: str | Iterable[str | int], want: int, above: int, must: int,
             out: npt.NDArray[np.bool_] | npt.NDArray[np.int8] | npt.NDArray[np.uint8] | bytearray) -> int: ...
