"""What several Big Two test modules share."""
import random

from handrank.bigtwo import Game


def play_out(game: Game, chooser: random.Random) -> None:
    """Random legal plays (and some passes) until the game is over."""
    while not game.over:
        moves = game.legal_moves()
        if game.can_pass and (not moves or chooser.random() < 0.3):
            game.pass_()
        else:
            game.play(chooser.choice(moves))
