"""The check every `category`, `describe` and conversion applies to a value it is given."""
from __future__ import annotations

import numpy as np


def checked(value: object, max_value: int, what: str) -> int:
    """`value` as an int in 1..max_value; TypeError for a non-int, ValueError out of range."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"a value is an int, not {type(value).__name__}")
    if not 1 <= value <= max_value:
        raise ValueError(f"{what} is in 1..{max_value}, got {value}")
    return int(value)
