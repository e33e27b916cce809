"""What several Big Two test modules share."""
from __future__ import annotations

import random
from typing import Callable, Optional

from handrank.bigtwo import Game


def play_out(game: Game, chooser: random.Random, watch: Optional[Callable[[Game], None]] = None) -> None:
    """Random legal plays (and some passes) until the game is over; a pending trade
    (``Rules.extra_card="trade"``) is accepted or declined at random. `watch(game)`, if given,
    sees the game before each action and once it is over."""
    while not game.over:
        if watch is not None:
            watch(game)
        if game.pending_trade:
            game.trade(chooser.random() < 0.5)
            continue
        moves = game.legal_moves()
        if game.can_pass and (not moves or chooser.random() < 0.3):
            game.pass_()
        else:
            game.play(chooser.choice(moves))
    if watch is not None:
        watch(game)
