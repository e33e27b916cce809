"""ofc.Game at bot speed: `legal_actions`, the lazy `Placements` of `legal_placements` and the
direct scoring of `points`, each checked against the slow way it replaces."""
from __future__ import annotations

import random

import numpy as np
import pytest

from handrank import ofc
from handrank.ofc import actions
from handrank.ofc.placements import Placements


def eager_placements(game: ofc.Game) -> list[ofc.Placement]:
    """The legal placements as the API built them before: every action of the mask, each
    placement made from the dealt cards."""
    return [actions.placement(int(a), game.dealt) for a in np.flatnonzero(actions.mask(game))]


def random_rules(rng: random.Random) -> ofc.Rules:
    rules = ofc.Rules.preset(rng.choice(["pineapple", "classic", "progressive", "deuce"]))
    return rules.replace(scoring=rng.choice(["1-6", "2-4"]), royalties_cancel=rng.random() < 0.5,
                         shoot_the_moon=rng.choice([0, 20]),
                         naturals=rng.choice([(), (("six pairs", 3), ("three flushes", 3))]))


@pytest.mark.parametrize("seed", range(12))
def test_lazy_placements_and_action_ids_equal_the_eager_list(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    players = rng.randint(2, 4 if rules.dealing == "classic" else 3)
    game = ofc.Game(players, rules, seed=seed)
    twin = ofc.Game(players, rules, seed=seed)
    while not game.over:
        eager = eager_placements(game)
        lazy = game.legal_placements()
        assert isinstance(lazy, Placements) and len(lazy) == len(eager)
        assert lazy == eager and eager == list(lazy) and list(lazy) == eager
        assert lazy[-1] == eager[-1] and lazy[1:4] == eager[1:4]
        ids = game.legal_actions()
        np.testing.assert_array_equal(ids, np.flatnonzero(actions.mask(game)))
        np.testing.assert_array_equal(lazy.actions, ids)
        assert not ids.flags.writeable
        k = rng.randrange(len(ids))
        assert eager[k] in lazy and lazy.index(eager[k]) == k and lazy.count(eager[k]) == 1
        assert actions.action(lazy[k], game.dealt) == ids[k]
        assert game.play_action(ids[k]) == eager[k]
        twin.play(eager[k])
        assert game.boards == twin.boards and game.history == twin.history
        assert game.turn == twin.turn and game.dealt == twin.dealt
    assert game.points() == ofc.score([b.board() for b in game.boards], rules) == twin.points()


def test_placements_refuse_what_is_not_among_them() -> None:
    game = ofc.Game(seed=3)
    lazy = game.legal_placements()
    other = ofc.Game(seed=4).legal_placements()[0]
    assert other not in lazy and "text" not in lazy     # type: ignore[operator]
    with pytest.raises(ValueError, match="not a legal placement"):
        lazy.index(other)
    with pytest.raises(IndexError):
        lazy[len(lazy)]
    assert lazy != other and lazy != "abc" and lazy == game.legal_placements()
    assert "232 legal placements" in repr(lazy)


def test_legal_actions_and_play_action_errors_change_nothing() -> None:
    game = ofc.Game(seed=1)
    ids = game.legal_actions()
    illegal = int(np.flatnonzero(~actions.mask(game))[0])
    with pytest.raises(ofc.IllegalPlacement, match="not legal"):
        game.play_action(illegal)
    with pytest.raises(ValueError, match="0..1023"):
        game.play_action(1024)
    with pytest.raises(TypeError):
        game.play_action(1.0)           # type: ignore[arg-type]
    assert game.history == [] and np.array_equal(game.legal_actions(), ids)
    fl = ofc.Game(2, seed=1, fantasyland=(0, 14))      # seat 1 acts first
    assert fl.fantasyland_turn
    with pytest.raises(ofc.IllegalPlacement, match="Fantasyland"):
        fl.legal_actions()
    while not game.over:
        game.play_action(game.legal_actions()[0])
    with pytest.raises(ofc.IllegalPlacement, match="over"):
        game.legal_actions()


def test_points_before_the_end_is_an_error() -> None:
    with pytest.raises(ValueError, match="not over"):
        ofc.Game(seed=1).points()
