"""handrank.ofc.env: the PettingZoo AEC environment over ofc.Game (extra ``rl``)."""
from __future__ import annotations

import importlib
import sys

import numpy as np
import pytest

from handrank import ofc


def test_without_the_extra_the_import_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "handrank.ofc.env", raising=False)
    monkeypatch.delitem(sys.modules, "handrank._env", raising=False)
    with pytest.raises(ImportError, match=r"pip install 'handrank\[rl\]'"):
        importlib.import_module("handrank.ofc.env")


pettingzoo_test = pytest.importorskip("pettingzoo.test")
ofc_env = pytest.importorskip("handrank.ofc.env")


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # the dict observation of action masks
@pytest.mark.parametrize("variant,players,fantasyland", [
    ("pineapple", 2, None), ("classic", 4, None), ("deuce", 3, (0, 15, 0)),
    ("progressive", 2, (16, 0))])
def test_api(variant: str, players: int, fantasyland: tuple[int, ...] | None) -> None:
    env = ofc_env.env(players=players, rules=variant, fantasyland=fantasyland)
    pettingzoo_test.api_test(env, num_cycles=200)


def play_episode(env, seed: int) -> tuple[dict[str, float], list[dict]]:
    """Random legal actions to the end; every observation seen on the way."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    observations, totals = [], {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        observations.append((agent, obs))
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return totals, observations


def test_rewards_are_the_game_values_and_episodes_replay() -> None:
    rules = ofc.Rules.preset("pineapple").replace(fantasyland_value=4.0)
    env = ofc_env.env(players=3, rules=rules)
    totals, _ = play_episode(env, 3)
    game = env.unwrapped.game
    assert game.over
    assert [totals[a] for a in env.possible_agents] == game.values()
    again = ofc_env.env(players=3, rules=rules)
    assert play_episode(again, 3)[0] == totals
    assert [str(b) for b in again.unwrapped.game.boards] == [str(b) for b in game.boards]


def test_discards_are_never_seen_by_the_others() -> None:
    env = ofc_env.env(players=3, rules="deuce")
    rng = np.random.default_rng(0)
    env.reset(seed=8)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        game = env.unwrapped.game
        for seat, owner in enumerate(env.possible_agents):
            secret = set(game.discards(seat))
            assert set(np.flatnonzero(env.observe(owner)["observation"][4])) == secret
            for viewer in env.possible_agents:
                if viewer != owner:
                    seen = np.flatnonzero(env.observe(viewer)["observation"].any(axis=0))
                    assert not secret & set(seen.tolist())


def test_observation_planes() -> None:
    env = ofc_env.env(players=2, rules="progressive", fantasyland=(0, 14))
    env.reset(seed=1)
    game = env.unwrapped.game
    me = env.agent_selection
    obs = env.observe(me)
    assert obs["observation"].shape == (ofc_env.PLANES, 52) and obs["observation"].dtype == np.int8
    assert set(np.flatnonzero(obs["observation"][3])) == set(game.dealt)
    # the Fantasyland board is set (by the solver) but face down to the other player
    assert game.boards[1].full and not obs["observation"][5:8].any()
    assert obs["action_mask"].sum() == len(game.legal_placements())
    other = env.observe("player_1")
    assert not other["action_mask"].any() and not other["observation"][3].any()


@pytest.mark.parametrize("action", [True, np.True_, 1.5, np.float64(1.0), "1"])
def test_non_int_actions_are_refused_with_type_error(action) -> None:
    """issue 27 U7: step(True) and step(1.5) were taken as action 1 ("action 1 is not legal
    now"); bigtwo.env raises TypeError for them, and so does this one, changing nothing."""
    env = ofc_env.env(players=2)
    env.reset(seed=3)
    agent, game = env.agent_selection, env.game
    boards = list(game.boards)
    with pytest.raises(TypeError, match="int action"):
        env.step(action)
    assert env.agent_selection == agent and env.game.boards == boards
    env.step(np.int64(int(np.flatnonzero(env.observe(agent)["action_mask"])[0])))   # numpy ints act


@pytest.mark.parametrize("players, fantasyland", [(2, (17, 17)), (3, (14, 14, 14))])
def test_every_seat_in_fantasyland_is_refused(players, fantasyland) -> None:
    """issue 27 U9: with every seat in Fantasyland the solver sets every board, so the episode
    was over at reset() and api_test failed; such a table is refused, saying why."""
    with pytest.raises(ValueError, match="every seat in Fantasyland.*at least one seat at 0"):
        ofc_env.env(players=players, fantasyland=fantasyland)


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
def test_all_but_one_seat_in_fantasyland_passes_api_test() -> None:
    env = ofc_env.env(players=3, fantasyland=(14, 0, 14))
    pettingzoo_test.api_test(env, num_cycles=30)
