"""The Gymnasium wrapper of both games' vector envs (handrank._gym_vector): whose reward `step`
returns (issue 39: it was the mover's, so in Big Two only the winner's), and the legal ids."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

from handrank.bigtwo import vector as bigtwo_vector
from handrank.ofc import vector as ofc_vector

pytest.importorskip("gymnasium")

GAMES: dict[str, Callable[..., Any]] = {
    "bigtwo": lambda **kw: bigtwo_vector.VectorEnv(16, seed=5, **kw),
    "bigtwo-3": lambda **kw: bigtwo_vector.VectorEnv(16, players=3, seed=5, **kw),
    "ofc": lambda **kw: ofc_vector.VectorEnv(16, seed=5, **kw),
    "ofc-3": lambda **kw: ofc_vector.VectorEnv(16, players=3, seed=5, rules="classic", **kw),
}
# the raw env's autoreset and the wrapper's AutoresetMode (its value) stepped beside it
MODES = {"same_step": "SameStep", "next_step": "NextStep"}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", GAMES.values(), ids=GAMES.keys())
def test_each_seat_gets_its_own_payments(make: Callable[..., Any], mode: str) -> None:
    """Stepped beside the raw env with the same seed and random legal actions, the wrapper for
    each seat returns exactly that seat's payments, and rewards="all" all of them at once (they
    sum to 0 over the seats: both games are zero-sum)."""
    twin = make()
    players = twin.players
    seats = [make().to_gymnasium(seat=s, autoreset_mode=MODES[mode]) for s in range(players)]
    every = make().to_gymnasium(rewards="all", autoreset_mode=MODES[mode])
    step = twin.reset(seed=7)
    for gym in [*seats, every]:
        gym.reset(seed=7)
    totals = np.zeros((len(seats), twin.num_envs))
    ended = 0
    for k in range(400):
        actions = twin.sample_legal(k)
        step = twin.step(actions, autoreset=mode)
        ended += int(step.terminated.sum())
        for s, gym in enumerate(seats):
            _, rewards, terminated, _, _ = gym.step(actions)
            assert rewards.shape == (twin.num_envs,) and rewards.dtype == np.float32
            np.testing.assert_array_equal(rewards, step.rewards[:, s])
            np.testing.assert_array_equal(terminated, step.terminated)
            totals[s] += rewards
        _, rewards, _, _, infos = every.step(actions)
        np.testing.assert_array_equal(rewards, step.rewards)
        np.testing.assert_array_equal(infos["rewards"], step.rewards)
    assert ended >= 50
    np.testing.assert_allclose(totals.sum(axis=0), 0, atol=1e-3)
    assert (totals != 0).any()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", GAMES.values(), ids=GAMES.keys())
def test_episode_statistics_are_seat_zeros_returns(make: Callable[..., Any], mode: str) -> None:
    """RecordEpisodeStatistics over the wrapper records seat 0's payment of every game that
    ended: losses as well as wins (the mover's reward made every Big Two return positive)."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics
    twin = make()
    gym = RecordEpisodeStatistics(make().to_gymnasium(autoreset_mode=MODES[mode]))
    twin.reset(seed=3)
    gym.reset(seed=3)
    returns, paid = [], []
    for k in range(400):
        actions = twin.sample_legal(k)
        step = twin.step(actions, autoreset=mode)
        _, _, terminated, _, infos = gym.step(actions)
        if terminated.any():
            returns.extend(infos["episode"]["r"][terminated].tolist())
            paid.extend(step.rewards[terminated, 0].tolist())
    returns_array = np.array(returns)
    np.testing.assert_allclose(returns_array, paid, atol=1e-4)
    assert (returns_array < 0).any() and (returns_array > 0).any()


@pytest.mark.parametrize("make", GAMES.values(), ids=GAMES.keys())
def test_bad_reward_choices_are_refused(make: Callable[..., Any]) -> None:
    env = make()
    players = env.players
    with pytest.raises(ValueError, match=rf"seat must be 0\.\.{players - 1}"):
        env.to_gymnasium(seat=players)
    with pytest.raises(ValueError, match=r"seat must be 0\.\."):
        env.to_gymnasium(seat=-1)
    with pytest.raises(TypeError, match="seat must be an int, not bool"):
        env.to_gymnasium(seat=True)
    with pytest.raises(TypeError, match="seat must be an int, not str"):
        env.to_gymnasium(seat="0")
    with pytest.raises(ValueError, match="rewards must be one of"):
        env.to_gymnasium(rewards="mover")
    with pytest.raises(ValueError, match="rewards='all' returns every seat's"):
        env.to_gymnasium(seat=1, rewards="all")
    assert env.to_gymnasium(seat=np.int64(players - 1)).seat == players - 1


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", GAMES.values(), ids=GAMES.keys())
def test_compact_legal_ids_reach_infos_without_a_dense_mask(make: Callable[..., Any], mode: str) -> None:
    """Under legal="compact" the observation has no mask (its space neither), infos carry the
    env's CSR ids as they are, and action_masks() is the dense mask of the same games (checked
    against a twin under legal="dense"); under "dense" action_masks() is the observation's mask."""
    compact = make(legal="compact").to_gymnasium(autoreset_mode=MODES[mode])
    dense = make(legal="dense").to_gymnasium(autoreset_mode=MODES[mode])
    twin = make(legal="compact")
    assert list(compact.single_observation_space.keys()) == ["observation"]
    with pytest.raises(RuntimeError, match=r"reset\(\) before action_masks\(\)"):
        compact.action_masks()
    obs, infos = compact.reset(seed=2)
    dense_obs, _ = dense.reset(seed=2)
    step = twin.reset(seed=2)
    for k in range(120):
        assert compact.observation_space.contains(obs) and list(obs) == ["observation"]
        np.testing.assert_array_equal(infos["legal_indptr"], step.legal_indptr)
        np.testing.assert_array_equal(infos["legal_ids"], step.legal_ids)
        masks = compact.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (twin.num_envs, twin.num_actions)
        np.testing.assert_array_equal(masks, dense_obs["action_mask"].astype(bool))
        np.testing.assert_array_equal(dense.action_masks(), dense_obs["action_mask"].astype(bool))
        actions = twin.sample_legal(k)
        step = twin.step(actions, autoreset=mode)
        obs, _, _, _, infos = compact.step(actions)
        dense_obs, _, _, _, dense_infos = dense.step(actions)
        assert "legal_ids" not in dense_infos
