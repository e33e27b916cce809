"""What the two compiled vector environments (`bigtwo.vector.VectorEnv`, `ofc.vector.VectorEnv`)
share beyond their games (issue 39): the autoreset modes of ``step``, the checks of
``reset(seed=..., games=...)`` and of a game index, and the rebuilding of a pickled env."""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

#: ``step(actions, autoreset=...)``: "same_step" deals a new game in place of one that ends within
#: the same step (the observation returned is already the new game's); "next_step" leaves the
#: ended game's last observation and deals its new game on the next step, ignoring its action
#: there (Gymnasium's AutoresetMode.SAME_STEP and NEXT_STEP)
AUTORESET_MODES = ("same_step", "next_step")


def same_step(autoreset: Any) -> bool:
    """Whether `autoreset` (one of AUTORESET_MODES) is "same_step"."""
    if not isinstance(autoreset, str) or autoreset not in AUTORESET_MODES:
        raise ValueError(f"autoreset must be one of {AUTORESET_MODES}, got {autoreset!r}")
    return autoreset == "same_step"


def game_seeds(seed: Any, n: int) -> list[int] | None:
    """The per-game seeds of ``reset(seed=[...])`` (a list or tuple of `n` ints >= 0), checked;
    None where `seed` is not a list (an int or None, the env's own check follows)."""
    if isinstance(seed, np.ndarray):
        seed = seed.tolist()
    if not isinstance(seed, (list, tuple)):
        return None
    if len(seed) != n:
        raise ValueError(f"seed as a list gives one seed per game: {n} seeds, got {len(seed)}")
    for i, s in enumerate(seed):
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"seed[{i}] must be an int, not {type(s).__name__}")
        if s < 0:
            raise ValueError(f"seed[{i}] must be >= 0, got {s}")
    return [int(s) for s in seed]


def chosen_games(games: Any, n: int) -> npt.NDArray[np.uint8]:
    """``reset(games=...)``'s choice as (n,) uint8 (None: every game): a bool mask of shape (n,)
    choosing at least one game (an index list would be ambiguous with a 0/1 mask)."""
    if games is None:
        return np.ones(n, dtype=np.uint8)
    mask = np.asarray(games)
    if mask.dtype != np.bool_:
        raise TypeError(f"games must be a bool mask over the {n} games, got dtype {mask.dtype}")
    if mask.shape != (n,):
        raise ValueError(f"games must be a bool mask of shape ({n},), got {mask.shape}")
    if not mask.any():
        raise ValueError("games chooses no game: reset at least one")
    return mask.astype(np.uint8)


def game_index(game: Any, n: int) -> int:
    """A game's index, checked."""
    if isinstance(game, bool) or not isinstance(game, (int, np.integer)) or not 0 <= game < n:
        raise ValueError(f"game must be an index 0..{n - 1}, got {game!r}")
    return int(game)


def rebuild(cls: Any, num_envs: int, options: dict[str, Any], snapshot: Any) -> Any:
    """A vector env unpickled (its ``__reduce__``): built again from its options, then every game
    (and the seed stream) put back from `snapshot`."""
    env = cls(num_envs, **options)
    env.restore(snapshot)
    return env
