"""What several OFC test files share (not a test module)."""
from __future__ import annotations

import pickle

from handrank import ofc


def dealt_sequences(game: ofc.Game) -> dict[int, list[tuple[int, ...]]]:
    """What each player is dealt at each of their turns (deals do not depend on the play)."""
    copy = pickle.loads(pickle.dumps(game))
    out: dict[int, list[tuple[int, ...]]] = {p: [] for p in range(game.players)}
    while not copy.over:
        out[copy.turn].append(copy.dealt)
        if copy.fantasyland_turn:
            copy.play_fantasyland()
        else:
            copy.play(copy.legal_placements()[0])
    return out
