"""The single-game opponent adapters, `bigtwo.env.against` and `ofc.env.against`: a gymnasium.Env
for one seat whose games are the PettingZoo environment's, driven by the same opponents' moves."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from handrank._against import opponent_rng  # noqa: E402
from handrank.bigtwo import IllegalMove  # noqa: E402
from handrank.bigtwo import env as bigtwo_env  # noqa: E402
from handrank.ofc import env as ofc_env  # noqa: E402


def largest(observation, indptr, ids):
    return ids[indptr[1:] - 1].astype(np.int64)


def _choose(policy, legal, rng):
    if policy == "random":
        return int(legal[rng.integers(len(legal))])
    if policy == "greedy":
        return int(legal[1] if len(legal) > 1 and legal[0] == 0 else legal[0])
    return int(policy(None, np.array([0, len(legal)]), legal)[0])


def _bare_until(aec, agent, policies, rng):
    """Play the bare AEC env's other seats until `agent` acts or the game ends."""
    while not aec.terminations[agent] and aec.agent_selection != agent:
        seat = aec.possible_agents.index(aec.agent_selection)
        aec.step(_choose(policies[seat], np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"]), rng))


@pytest.mark.parametrize("make, bare, seat, opponents, options", [
    (bigtwo_env.against, bigtwo_env.raw_env, 0, "random", {"players": 4}),
    (bigtwo_env.against, bigtwo_env.raw_env, 2, "greedy", {"players": 3}),
    (bigtwo_env.against, bigtwo_env.raw_env, 1, {0: largest, 2: "random", 3: "greedy"}, {"players": 4}),
    (ofc_env.against, ofc_env.env, 1, "random", {"players": 2}),
    (ofc_env.against, ofc_env.env, 0, {1: "random", 2: largest}, {"players": 3, "rules": "pineapple"})])
def test_equals_bare_game(make, bare, seat, opponents, options):
    """Every observation, mask, reward and end equals the bare environment's, the opponents'
    moves drawn from the same stream (the adapter's np_random: the seed's opponents' stream)."""
    adapter = make(opponents, seat=seat, **options)
    aec = bare(**options)
    players = len(aec.possible_agents)
    policies = opponents if isinstance(opponents, dict) else dict.fromkeys(range(players), opponents)
    agent = aec.possible_agents[seat]
    learner = np.random.default_rng(3)
    for episode in range(4):
        seed = 40 + episode
        obs, info = adapter.reset(seed=seed)
        aec.reset(seed=seed)
        rng = opponent_rng(seed)
        _bare_until(aec, agent, policies, rng)
        while True:
            want = aec.observe(agent)
            np.testing.assert_array_equal(obs, want["observation"])
            np.testing.assert_array_equal(adapter.action_masks(), want["action_mask"].astype(bool))
            np.testing.assert_array_equal(info["action_mask"], adapter.action_masks())
            action = int(learner.choice(np.flatnonzero(adapter.action_masks())))
            obs, reward, terminated, truncated, info = adapter.step(action)
            aec.step(action)
            _bare_until(aec, agent, policies, rng)
            assert reward == aec._cumulative_rewards[agent]
            assert terminated == aec.terminations[agent] and not truncated
            if terminated:
                break
            assert reward == 0


def test_rewards_are_the_seat_payments():
    """Over whole games, the learner's rewards are its `Game.payments` entry."""
    adapter = bigtwo_env.against("random", seat=3, players=4)
    adapter.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(5):
        adapter.reset()
        total = 0.0
        while True:
            _, reward, terminated, _, _ = adapter.step(int(rng.choice(np.flatnonzero(adapter.action_masks()))))
            total += reward
            if terminated:
                break
        assert total == adapter.aec.game.payments()[3]


def test_spaces_and_errors():
    adapter = bigtwo_env.against("greedy", seat=1, players=2)
    assert adapter.observation_space.shape == (164,)
    assert adapter.action_space.n == adapter.aec.space.size
    with pytest.raises(RuntimeError, match="reset"):
        adapter.action_masks()
    adapter.reset(seed=1)
    illegal = int(np.flatnonzero(~adapter.action_masks())[0])
    before = adapter.aec.game.hands
    with pytest.raises(IllegalMove):
        adapter.step(illegal)
    assert adapter.aec.game.hands == before
    with pytest.raises(ValueError, match="policies by name"):
        ofc_env.against("greedy")
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1"):
        ofc_env.against("random", seat=2, players=2)
    with pytest.raises(TypeError, match="a policy is one of"):
        bigtwo_env.against(None)


def test_bad_callable_changes_nothing():
    answers = {"policy": largest}
    adapter = bigtwo_env.against(lambda *args: answers["policy"](*args), seat=0, players=2)
    twin = bigtwo_env.against(largest, seat=0, players=2)
    obs, _ = adapter.reset(seed=5)
    twin.reset(seed=5)
    action = int(np.flatnonzero(adapter.action_masks())[-1])
    answers["policy"] = lambda observation, indptr, ids: np.array([10**6])
    with pytest.raises(ValueError, match="seat 1's policy played action 1000000, not legal"):
        adapter.step(action)
    answers["policy"] = largest
    got, want = adapter.step(action), twin.step(action)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1:4] == want[1:4]
