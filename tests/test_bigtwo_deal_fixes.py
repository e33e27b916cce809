"""Issue 27's Big Two findings on the deal: play-outs that continue the deal (F4), stocks in the
deal's shuffled order and only where the rules give one (F5), the trade of a three-player
whole-deck deal (F6), dragon rules in a play-out (F8), numpy ints and negative seeds (U5, U6) and
the environment's `illegal_reward` (U8). Each test reproduces the review's example."""
from __future__ import annotations

import copy
import math
import pickle
import random

import numpy as np
import pytest

import handrank as hr
from handrank.bigtwo import Game, IllegalMove, Match, Rules

from bigtwo_support import play_out

C = hr.card


def cards(text: str) -> list[int]:
    return sorted(hr.cards(text))


def played_cards(game: Game) -> list[int]:
    return [c for turn in game.history if turn.combo for c in turn.combo.cards]


def play_passing(game: Game, chooser: random.Random) -> list[int]:
    """The review's driver: random legal plays, passing 30% of the time where allowed (many
    passes, so many draws); returns the cards played."""
    while not game.over:
        moves = game.legal_moves()
        if moves and (not game.can_pass or chooser.random() < 0.7):
            game.play(chooser.choice(moves))
        else:
            game.pass_()
    return played_cards(game)


# ----------------------------------------------------------------------------- U5, U6
def test_numpy_ints_are_ints():
    """U5: `bigtwo.Game(np.int64(4))` said "Big Two has 2 to 4 players, got np.int64(4)"."""
    for players in (np.int64(4), np.uint8(3), np.int32(2)):
        game = Game(players, seed=1)
        assert game.players == int(players) and type(game.players) is int
        assert Game(players, seed=1).hands == Game(int(players), seed=1).hands
        match = Match(players, seed=1)
        assert match.players == int(players) and match.game.hands == Match(int(players), seed=1).game.hands
    game = Game(4, seed=1, leader=np.int64(2))
    assert game.turn == 2 and type(game.leader) is int
    for bad in (np.True_, True, 4.0, "4", 5, np.int64(1)):
        with pytest.raises(ValueError, match="Big Two has 2 to 4 players"):
            Game(bad)
        with pytest.raises(ValueError, match="Big Two has 2 to 4 players"):
            Match(bad)
    with pytest.raises(ValueError, match="leader must be None or a player 0..3"):
        Game(4, leader=np.int64(4))


def test_negative_seeds_name_the_seed():
    """U6: `seed=-1` in `bigtwo.Game` / `Match` gave numpy's "expected non-negative integer"
    without naming the parameter."""
    for make in (Game, Match, lambda seed: Game(2, Rules(draw_on_pass=True), seed=seed, hands=["3d", "4d"])):
        for bad in (-1, np.int64(-5)):
            with pytest.raises(ValueError, match=r"seed must be None, an int >= 0 or a numpy Generator, got -"):
                make(seed=bad)
        for bad in ("1", 1.5, True):
            with pytest.raises(TypeError, match="seed must be None, an int >= 0 or a numpy Generator"):
                make(seed=bad)
    rng = np.random.default_rng(3)
    assert Game(seed=np.random.default_rng(3)).hands == Game(seed=rng).hands
    assert Game(seed=np.uint64(2 ** 64 - 1)).hands == Game(seed=2 ** 64 - 1).hands
    pickle.loads(pickle.dumps(Match(3, seed=np.int64(7))))
