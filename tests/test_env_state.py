"""state() and state_space on the PettingZoo environments (issue 39): the whole table, by seat,
for centralised critics, checked against a state built from the game object and against
PettingZoo's own state test."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from handrank import bigtwo

pettingzoo_test = pytest.importorskip("pettingzoo.test")
state_test = pytest.importorskip("pettingzoo.test.state_test")
bigtwo_env = pytest.importorskip("handrank.bigtwo.env")
ofc_env = pytest.importorskip("handrank.ofc.env")
from pettingzoo.utils import wrappers  # noqa: E402

# (players, rules, deal): the default table; the whole deck to three; two players drawing from
# a 26-card stock on every pass; players out of the trick once they pass; a dealt bomb making
# the 2s low, whose first trick is led by the holder of the lowest card
BIGTWO_TABLES = [(4, "hk", "thirteen"), (3, "taiwan", "all"),
                 (2, bigtwo.Rules(draw_on_pass=True), "thirteen"),
                 (4, bigtwo.Rules(passing="out_of_trick", three_threes_force=True), "thirteen"),
                 (3, bigtwo.Rules(dealt_bomb=True), "thirteen")]
OFC_TABLES = [(2, "classic", None), (3, "pineapple", None), (4, "classic", None), (3, "pineapple", (14, 0, 0))]


def expected_bigtwo_state(game: bigtwo.Game) -> np.ndarray:
    """The documented layout, read from the game object: the cards each seat played from its
    history, who passed from the passes since the last play."""
    state = np.zeros(bigtwo_env.STATE_SIZE, dtype=np.int8)
    for seat, hand in enumerate(game.hands):
        state[[52 * seat + card for card in hand]] = 1
        state[468 + seat] = len(hand)
    if game.to_beat is not None:
        state[[208 + card for card in game.to_beat.cards]] = 1
        state[472 + game.last_player] = 1
        for turn in reversed(game.history):        # the passes since the combo to beat
            if turn.combo is not None:
                break
            state[476 + turn.player] = 1
        state[593] = game.led
    for turn in game.history:
        if turn.combo is not None:
            state[[260 + 52 * turn.player + card for card in turn.combo.cards]] = 1
    for seat in range(game.players):
        state[480 + seat] = game.out_of_trick >> seat & 1
    if not game.over:
        state[484 + game.turn] = 1
    for place, card in enumerate(game.undealt, 1):
        state[488 + card] = place
    if not game.history and game.opening_card is not None:
        state[540 + game.opening_card] = 1
    state[592] = game.play_rules.twos_low and not game.rules.twos_low
    return state


def play_bigtwo(env, seed: int, check) -> None:
    """Play one game with uniformly random legal actions, calling `check` after every step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    check()
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        check()


@pytest.mark.parametrize("players,rules,deal", BIGTWO_TABLES)
def test_bigtwo_state_is_the_game_by_seat(players: int, rules: object, deal: str) -> None:
    env = bigtwo_env.raw_env(players=players, rules=rules, deal=deal)
    seen = set()

    def check() -> None:
        state = env.state()
        assert env.state_space.contains(state)
        np.testing.assert_array_equal(state, expected_bigtwo_state(env.game))
        seen.update(np.flatnonzero(state).tolist())

    for seed in range(12):
        play_bigtwo(env, seed, check)
    assert max(seen) >= 260          # the history parts were reached, not only the hands


def test_bigtwo_rules_that_fill_the_rarer_parts() -> None:
    """The games above do reach the passes, the outs, the stock and the dealt bomb."""
    reached = np.zeros(bigtwo_env.STATE_SIZE, dtype=bool)
    for players, rules, deal in BIGTWO_TABLES:
        env = bigtwo_env.raw_env(players=players, rules=rules, deal=deal)
        for seed in range(12):
            play_bigtwo(env, seed, lambda: reached.__setitem__(env.state() != 0, True))
    for start, stop in [(476, 480), (480, 484), (488, 540), (540, 592), (592, 594)]:
        assert reached[start:stop].any(), (start, stop)


def expected_ofc_state(game) -> np.ndarray:
    """The documented layout, read from the game object (its history for the discards)."""
    state = np.zeros(ofc_env.STATE_SIZE, dtype=np.int8)
    for seat in range(game.players):
        for i, row in enumerate(game.boards[seat].rows):
            state[[208 * seat + 52 * i + card for card in row]] = 1
        state[940 + seat] = game.fantasyland[seat]
    for seat, placement in game.history:
        state[[208 * seat + 156 + card for card in placement.discards]] = 1
    state[[832 + card for card in game.dealt]] = 1
    dealt = {card for _, placement in game.history for card in placement.top + placement.middle + placement.bottom + placement.discards}
    dealt.update(game.dealt)
    deck = [card for card in game._deck if card not in dealt]
    state[[884 + card for card in deck]] = np.arange(1, len(deck) + 1)
    if game.turn is not None:
        state[936 + game.turn] = 1
    state[944] = game.street
    return state


@pytest.mark.parametrize("players,rules,fantasyland", OFC_TABLES)
def test_ofc_state_is_the_game_by_seat(players: int, rules: str, fantasyland) -> None:
    env = ofc_env.env(players=players, rules=rules, fantasyland=fantasyland)
    for seed in range(4):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            state = env.state()
            assert env.state_space.contains(state)
            np.testing.assert_array_equal(state, expected_ofc_state(env.game))
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        np.testing.assert_array_equal(env.state(), expected_ofc_state(env.game))
        assert env.state()[:832].sum() == sum(len(b.cards) for b in env.game.boards) + \
            sum(len(env.game.discards(s)) for s in range(players))


def run_pettingzoo_state_test(env) -> None:
    """PettingZoo's state test (its AEC part: the environments are not parallel), each of its
    warnings an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state_test.test_state_space(env)
        state_test.test_state(env, num_cycles=50)


@pytest.mark.parametrize("players,rules,deal", BIGTWO_TABLES[:3])
def test_bigtwo_passes_pettingzoo_state_test(players: int, rules: object, deal: str) -> None:
    # env(): the random actions of the test, mostly illegal, end the game as PettingZoo's do
    run_pettingzoo_state_test(bigtwo_env.env(players=players, rules=rules, deal=deal))


@pytest.mark.parametrize("players,rules,fantasyland", OFC_TABLES[:2])
def test_ofc_passes_pettingzoo_state_test(players: int, rules: str, fantasyland) -> None:
    # the random actions of the test end the hand through PettingZoo's own wrapper
    env = wrappers.TerminateIllegalWrapper(ofc_env.env(players=players, rules=rules), illegal_reward=-1.0)
    run_pettingzoo_state_test(env)


@pytest.mark.parametrize("make", [lambda: bigtwo_env.raw_env(), lambda: ofc_env.env()])
def test_state_before_reset_says_so(make) -> None:
    with pytest.raises(RuntimeError, match=r"reset\(\) before state\(\)"):
        make().state()


def test_state_is_a_copy() -> None:
    """A state kept across a step stays what it was."""
    env = bigtwo_env.raw_env()
    env.reset(seed=0)
    kept = env.state()
    before = kept.copy()
    obs = env.observe(env.agent_selection)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    np.testing.assert_array_equal(kept, before)
    assert not np.array_equal(env.state(), before)
