"""ofc.Game's compiled turn (handrank.ofc._game, issue 41) against the Python behaviour it
replaces: the deck numpy deals from an int seed, and a turn played by action id as the mask of
`ofc.actions.legal` and `ofc.actions.placement_of_ids` made it; then whole random games, seeded
and dealt from numpy's deck, turn by turn."""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from handrank import ofc
from handrank.ofc import actions
from handrank.ofc._game import play_action, seeded_deck

from test_ofc_game_fast import random_rules


def numpy_deck(seed: int) -> list[int]:
    """What ofc.Game dealt from an int seed before the compiled deck."""
    return np.random.default_rng(seed).permutation(52).tolist()


def test_seeded_deck_is_numpy_permutation() -> None:
    rng = np.random.default_rng(41)
    seeds = [*range(300), 2**32 - 1, 2**32, 2**32 + 1, 2**63, 2**64 - 1,
             *(int(s) for s in rng.integers(0, 2**63, 300, dtype=np.int64)),
             *(int(s) << 1 | 1 for s in rng.integers(0, 2**63, 100, dtype=np.int64))]
    for seed in seeds:
        assert seeded_deck(seed) == numpy_deck(seed), seed


@pytest.mark.parametrize("seed", [0, 7, np.int64(7), np.uint64(2**64 - 1), 2**64, 2**70 + 3])
def test_game_deals_numpy_deck(seed) -> None:
    # a seed of 2**64 or more takes numpy's own path: the same deck either way
    game = ofc.Game(2, "pineapple", seed=seed)
    want = sorted(numpy_deck(int(seed))[:5])
    assert list(game.dealt) == want


def old_turn(action: int, dealt: tuple[int, ...], board: ofc.PartialBoard, discards: int):
    """A turn by action id as Game.play_action made it in Python (None: not legal)."""
    if not actions.legal(len(dealt), board.free, discards)[action]:
        return None
    placement = actions.placement_of_ids(action, dealt)
    return placement, board.extended(*placement.rows)


BOARDS = [ofc.PartialBoard(), ofc.PartialBoard("Qs", "Ah", "2c 2d"),
          ofc.PartialBoard("Qs Qh", "Ah Kd 7c 7s", "2c 2d 9h"),
          ofc.PartialBoard("Qs Qh Jd", "Ah Kd 7c 7s", "2c 2d 9h 9c"),
          ofc.PartialBoard("", "Ah Kd 7c 7s 4d", "2c 2d 9h 9c 3s")]


@pytest.mark.parametrize("board", BOARDS, ids=str)
def test_every_action_as_the_mask_and_placement_made_it(board: ofc.PartialBoard) -> None:
    rng = random.Random(str(board))
    unseen = [c for c in range(52) if c not in board.cards]
    for count, discards in itertools.product((1, 3, 5), (0, 1, 2)):
        dealt = tuple(sorted(rng.sample(unseen, count)))
        for action in range(actions.SIZE):
            got = play_action(action, dealt, board, discards)
            want = old_turn(action, dealt, board, discards)
            if want is None:
                assert got is None, (action, dealt, discards)
                continue
            assert got is not None and got[0] == want[0] and got[1] == want[1]
            assert got[1].rows == want[1].rows and got[1].free == want[1].free


@pytest.mark.parametrize("seed", range(30))
def test_random_games_as_the_python_path_played_them(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    players = rng.randint(2, 4 if rules.dealing == "classic" else 3)
    fantasyland = [0] * players
    if players < 4 and rng.random() < 0.3:       # (four players leave too few cards for it)
        fantasyland[rng.randrange(players)] = 14
    game = ofc.Game(players, rules, seed=seed, fantasyland=fantasyland)
    dealt_from_numpy = ofc.Game(players, rules, fantasyland=fantasyland, deck=numpy_deck(seed))
    boards = [ofc.PartialBoard()] * players
    while not game.over:
        assert (game.turn, game.dealt, game.street) == (dealt_from_numpy.turn, dealt_from_numpy.dealt,
                                                         dealt_from_numpy.street)
        if game.fantasyland_turn:
            placement = game.play_fantasyland()
            assert dealt_from_numpy.play_fantasyland() == placement
            boards[game.history[-1][0]] = game.boards[game.history[-1][0]]
            continue
        ids = game.legal_actions()
        assert ids.tolist() == np.flatnonzero(actions.legal(*_case(game))).tolist()
        action = int(ids[rng.randrange(len(ids))])
        player = game.turn
        want_placement, want_board = old_turn(action, game.dealt, boards[player], _case(game)[2])
        assert game.play_action(action) == want_placement
        assert dealt_from_numpy.play_action(np.int64(action)) == want_placement
        boards[player] = want_board
        assert game.boards[player] == want_board == dealt_from_numpy.boards[player]
        assert game.history[-1] == (player, want_placement)
    assert game.points() == dealt_from_numpy.points() == ofc.score([b.board() for b in boards], rules)
    assert game.values() == dealt_from_numpy.values()
    assert game.history == dealt_from_numpy.history


def _case(game: ofc.Game) -> tuple[int, tuple[int, int, int], int]:
    """(cards dealt, the free slots of the board to act, discards) of a street turn."""
    assert game.turn is not None
    return len(game.dealt), game.boards[game.turn].free, game.to_place()[1]


def test_an_illegal_action_changes_nothing() -> None:
    game = ofc.Game(2, "pineapple", seed=3)
    game.play_action(int(game.legal_actions()[0]))
    before = (game.turn, game.dealt, list(game.boards), list(game.history), game.discards(game.turn))
    legal = set(game.legal_actions().tolist())
    for action in (a for a in range(actions.SIZE) if a not in legal):
        with pytest.raises(ofc.IllegalPlacement, match=f"action {action} is not legal now"):
            game.play_action(action)
    with pytest.raises(ValueError, match="an action is in 0..1023"):
        game.play_action(1024)
    with pytest.raises(TypeError, match="an action is an int"):
        game.play_action(1.0)
    assert (game.turn, game.dealt, list(game.boards), list(game.history), game.discards(game.turn)) == before
