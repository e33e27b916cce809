"""ofc.Game's state in C (handrank.ofc._game.GameCore, issue 41): the objects a caller reads
(`boards`, `history`, `dealt`, `discards`) are built when first read and kept up to date after,
and they equal a straightforward replay in Python of the same turns whenever they are read (or
never); pickles and copies carry the state whatever was read; bad actions change nothing."""
from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from handrank import ofc
from handrank.ofc import actions
from handrank.ofc.game import streets

from test_ofc_game_fast import random_rules


class Replay:
    """A hand replayed from its deck with plain Python objects: the reference."""

    def __init__(self, game: ofc.Game) -> None:
        self.deck = list(game._deck)
        self.drawn = 0
        self.boards = [ofc.PartialBoard()] * game.players
        self.discards: list[list[int]] = [[] for _ in range(game.players)]
        self.history: list[tuple[int, ofc.Placement]] = []

    def deal(self, count: int) -> tuple[int, ...]:
        dealt = tuple(sorted(self.deck[self.drawn:self.drawn + count]))
        self.drawn += count
        return dealt

    def play(self, player: int, placement: ofc.Placement) -> None:
        self.boards[player] = self.boards[player].place(*placement.rows)
        self.discards[player] += placement.discards
        self.history.append((player, placement))


def random_table(seed: int) -> tuple[ofc.Rules, int, list[int]]:
    rng = random.Random(seed)
    rules = random_rules(rng)
    players = rng.randint(2, 4 if rules.dealing == "classic" else 3)
    fantasyland = [0] * players
    if players < 4 and rng.random() < 0.4:
        fantasyland[rng.randrange(players)] = rng.choice([14, 15]) if rules.dealing != "classic" else 14
    return rules, players, fantasyland


def check_reads(game: ofc.Game, replay: Replay) -> None:
    assert game.boards == replay.boards
    assert [b.rows for b in game.boards] == [b.rows for b in replay.boards]
    assert game.history == replay.history
    assert [game.discards(p) for p in range(game.players)] == [tuple(d) for d in replay.discards]


@pytest.mark.parametrize("seed", range(40))
def test_reads_equal_a_python_replay_whenever_read(seed: int) -> None:
    rules, players, fantasyland = random_table(seed)
    rng = random.Random(seed)
    read_often = rng.random()           # how often this game's objects are read (0: at the end)
    game = ofc.Game(players, rules, seed=seed, fantasyland=fantasyland)
    never_read = ofc.Game(players, rules, seed=seed, fantasyland=fantasyland)
    replay = Replay(game)
    plan = streets(rules)
    held_boards, held_history = (game.boards, game.history) if rng.random() < 0.5 else (None, None)
    street_turns = [0] * players
    while not game.over:
        player = game.turn
        assert player is not None
        count = fantasyland[player] or plan[street_turns[player]][0]
        street_turns[player] += 1
        if rng.random() < read_often:
            assert game.dealt == replay.deal(count)
        else:
            replay.deal(count)
        if game.fantasyland_turn:
            placement = game.play_fantasyland()
            never_read.play(placement)
        elif rng.random() < 0.7:
            ids = game.legal_actions()
            action = ids[rng.randrange(len(ids))]
            placement = game.play_action(action if rng.random() < 0.5 else int(action))
            assert never_read.play_action(int(action)) == placement
        else:
            placement = game.legal_placements()[rng.randrange(len(game.legal_placements()))]
            game.play(placement)
            never_read.play(placement)
        replay.play(player, placement)
        if rng.random() < read_often:
            check_reads(game, replay)
    assert game.dealt == never_read.dealt == () and never_read.street == game.street == len(plan)
    check_reads(game, replay)
    check_reads(never_read, replay)
    if held_boards is not None:
        # the lists read first are the game's own, kept up to date
        assert held_boards is game.boards and held_history is game.history
    boards = [board.board() for board in replay.boards]
    assert game.points() == never_read.points() == ofc.score(boards, rules)
    assert game.next_fantasyland() == never_read.next_fantasyland()
    assert game.values() == never_read.values()


@pytest.mark.parametrize("seed", range(12))
def test_pickles_and_copies_carry_the_state_whatever_was_read(seed: int) -> None:
    rules, players, fantasyland = random_table(seed)
    rng = random.Random(seed)
    game = ofc.Game(players, rules, seed=seed, fantasyland=fantasyland)
    for _ in range(rng.randrange(12)):
        if game.over:
            break
        if game.fantasyland_turn:
            game.play_fantasyland()
        else:
            ids = game.legal_actions()
            game.play_action(ids[rng.randrange(len(ids))])
    before = pickle.dumps(game)
    assert game.boards and game.history is not None and game.dealt is not None   # built when read
    assert pickle.dumps(game) == before
    twins = [pickle.loads(before), copy.deepcopy(game), copy.copy(game)]
    for twin in twins:
        assert type(twin) is ofc.Game
        assert (twin.turn, twin.street, twin.dealt, twin.boards, twin.history, twin._deck, twin._drawn) == (
            game.turn, game.street, game.dealt, game.boards, game.history, game._deck, game._drawn)
        assert [twin.discards(p) for p in range(players)] == [game.discards(p) for p in range(players)]
        assert pickle.dumps(twin) == before
    # each copy plays on alone, as the game would
    results = []
    for played in [game, *twins]:
        moves = random.Random(seed + 1)
        while not played.over:
            if played.fantasyland_turn:
                played.play_fantasyland()
            else:
                ids = played.legal_actions()
                played.play_action(ids[moves.randrange(len(ids))])
        results.append((played.points(), played.history, played.boards))
    assert all(result == results[0] for result in results)


def test_bad_actions_raise_and_change_nothing() -> None:
    game = ofc.Game(2, "pineapple", seed=4)
    game.play_action(game.legal_actions()[0])
    before = pickle.dumps(game)
    cases = [(True, TypeError), (1.0, TypeError), ("3", TypeError), (None, TypeError),
             (-1, ValueError), (actions.SIZE, ValueError), (2**70, ValueError), (-2**70, ValueError),
             (np.int64(5000), ValueError), (np.int64(-1), ValueError), (np.uint64(2**64 - 1), ValueError),
             (63, ofc.IllegalPlacement), (64, ofc.IllegalPlacement), (np.int64(0), ofc.IllegalPlacement)]
    for action, error in cases:
        with pytest.raises(error):
            game.play_action(action)                       # type: ignore[arg-type]
        assert pickle.dumps(game) == before, action
    legal = int(game.legal_actions()[0])
    for kind in (np.int8, np.int32, np.uint16, np.int64):
        twin = pickle.loads(before)
        assert twin.play_action(kind(legal)) == pickle.loads(before).play_action(legal)
    with pytest.raises(ofc.IllegalPlacement, match="not legal now"):
        game.play_action(actions.SIZE - 1)
    with pytest.raises(ofc.IllegalPlacement, match="not legal now"):
        game.play_action(63)                               # three cards, none placed


def test_a_game_not_set_up_reads_as_over_and_private_seats_are_checked() -> None:
    blank = ofc.Game.__new__(ofc.Game)
    assert blank.over and blank.turn is None and blank.dealt == ()
    with pytest.raises(ofc.IllegalPlacement, match="over"):
        blank.play_action(0)
    game = ofc.Game(2, "pineapple", seed=1)
    with pytest.raises(IndexError):
        game._free(2)
    with pytest.raises(IndexError):
        game._discarded(-1)
    before = pickle.dumps(game)
    with pytest.raises(ofc.IllegalPlacement, match="not to act"):
        game._place(0, ofc.Placement(bottom=game.dealt))       # seat 1 acts first
    assert pickle.dumps(game) == before
