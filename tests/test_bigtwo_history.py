"""Big Two observations with history (issue 39): ``env(history=True)`` adds what each player
played and who passed, read back here from the observations and compared with the game's
history."""
from __future__ import annotations

import numpy as np
import pytest

from handrank import bigtwo

pettingzoo_test = pytest.importorskip("pettingzoo.test")
bigtwo_env = pytest.importorskip("handrank.bigtwo.env")

# the default table; anticlockwise play (the players listed the other way round); three players
# dealt the whole deck; players out of the trick once they pass; two players drawing on a pass
TABLES = [(4, "hk", "thirteen"), (4, bigtwo.Rules(direction="anticlockwise"), "thirteen"),
          (3, "taiwan", "all"), (4, bigtwo.Rules(passing="out_of_trick"), "thirteen"),
          (2, bigtwo.Rules(draw_on_pass=True), "thirteen")]


def history_from_observation(obs: np.ndarray, seat: int, players: int, step: int) -> dict[str, object]:
    """The history fields of `seat`'s observation, by seat number."""
    order = [(seat + step * k) % players for k in range(players)]
    played = obs[bigtwo_env.PLAYED_BY:bigtwo_env.PASSED].reshape(4, 52)
    return {"played": {order[k]: set(np.flatnonzero(played[k]).tolist()) for k in range(players)},
            "passed": {order[k] for k in range(players) if obs[bigtwo_env.PASSED + k]},
            "out": {order[k] for k in range(players) if obs[bigtwo_env.OUT_OF_TRICK + k]},
            "absent": (played[players:].any(), obs[bigtwo_env.PASSED + players:bigtwo_env.PASSED + 4].any(),
                       obs[bigtwo_env.OUT_OF_TRICK + players:bigtwo_env.HISTORY_SIZE].any())}


def history_from_game(game: bigtwo.Game) -> dict[str, object]:
    """The same fields from `Game.history`: each player's plays, and the passes since the combo
    to beat (none when the player to act leads)."""
    played: dict[int, set[int]] = {p: set() for p in range(game.players)}
    for turn in game.history:
        if turn.combo is not None:
            played[turn.player].update(turn.combo.cards)
    passed = set()
    if game.to_beat is not None:
        for turn in reversed(game.history):
            if turn.combo is not None:
                break
            passed.add(turn.player)
    out = {p for p in range(game.players) if game.out_of_trick >> p & 1}
    return {"played": played, "passed": passed, "out": out, "absent": (False, False, False)}


@pytest.mark.parametrize("players,rules,deal", TABLES)
def test_history_read_from_every_observation_is_the_games(players: int, rules: object, deal: str) -> None:
    env = bigtwo_env.raw_env(players=players, rules=rules, deal=deal, history=True)
    plain = bigtwo_env.raw_env(players=players, rules=rules, deal=deal)
    space = env.observation_space("player_0")
    step = 1 if env.rules.direction == "clockwise" else -1
    seen = {"passed": False, "out": False}
    for seed in range(8):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        plain.reset(seed=seed)
        for agent in env.agent_iter():
            expected = history_from_game(env.game)
            seen["passed"] |= bool(expected["passed"])
            seen["out"] |= bool(expected["out"])
            for seat, other in enumerate(env.possible_agents):
                obs = env.observe(other)
                assert space.contains(obs)
                assert history_from_observation(obs["observation"], seat, players, step) == expected
                # the history only adds entries: the first ones are the plain observation's
                np.testing.assert_array_equal(obs["observation"][:bigtwo_env.SIZE],
                                              plain.observe(other)["observation"])
            obs, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            plain.step(action)
    assert seen["passed"] == (players > 2)        # two players: one pass ends the trick
    assert seen["out"] == (env.rules.passing == "out_of_trick")


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # the dict observation of action masks
@pytest.mark.parametrize("players,rules,deal", TABLES[:3])
@pytest.mark.parametrize("make", ["env", "raw_env"])
def test_api_with_history(players: int, rules: object, deal: str, make: str) -> None:
    env = getattr(bigtwo_env, make)(players=players, rules=rules, deal=deal, history=True)
    assert env.observation_space("player_0")["observation"].shape == (bigtwo_env.HISTORY_SIZE,)
    pettingzoo_test.api_test(env, num_cycles=100)


def test_seed_with_history() -> None:
    pettingzoo_test.seed_test(lambda: bigtwo_env.env(history=True), num_cycles=100)


def test_history_survives_a_copy() -> None:
    """A pickled environment goes on with the same history as the original."""
    import pickle
    env = bigtwo_env.raw_env(history=True)
    env.reset(seed=5)
    for _ in range(9):
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    copy = pickle.loads(pickle.dumps(env))
    for agent in env.possible_agents:
        np.testing.assert_array_equal(copy.observe(agent)["observation"], env.observe(agent)["observation"])


@pytest.mark.parametrize("history", ["yes", 1, None])
def test_history_must_be_a_bool(history: object) -> None:
    with pytest.raises(TypeError, match="history must be a bool"):
        bigtwo_env.env(history=history)
