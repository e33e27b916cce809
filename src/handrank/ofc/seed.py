"""The checks OFC's entry points share on a `seed` and on small integer arguments, so that a bad
one is refused naming the parameter (numpy's own message names none)."""
from __future__ import annotations

from typing import Any, Union

import numpy as np

__all__ = ["check_seed", "as_int", "Seed"]

Seed = Union[int, np.integer, np.random.Generator, np.random.SeedSequence, None]


def check_seed(seed: Any, name: str = "seed") -> Any:
    """`seed` for ``np.random.default_rng``: None, a Generator or SeedSequence as they are, an
    int (numpy's included) >= 0 as a Python int; TypeError or ValueError naming `name` otherwise."""
    if seed is None or isinstance(seed, (np.random.Generator, np.random.SeedSequence)):
        return seed
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"{name} must be an int, a numpy Generator or None, not {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"{name} must be >= 0, got {seed}")
    return int(seed)


def as_int(value: Any) -> Any:
    """`value` as a Python int when it is an int or a numpy integer (not a bool), else unchanged
    (for the caller's own check to refuse)."""
    if isinstance(value, np.integer) and not isinstance(value, np.bool_):
        return int(value)
    return value
