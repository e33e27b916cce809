"""Both games' vector envs for RL libraries (issue 39): the autoreset modes (the raw envs'
``step(autoreset=...)``, the Gymnasium wrapper's ``autoreset_mode``), seeding, deals decided at the
deal as one-step episodes, render, snapshots, pickling and ``reset(games=...)``."""
from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from handrank.bigtwo import Rules
from handrank.bigtwo import vector as bigtwo_vector
from handrank.ofc import vector as ofc_vector

GAMES: dict[str, Callable[..., Any]] = {
    "bigtwo": lambda **kw: bigtwo_vector.VectorEnv(8, seed=5, **kw),
    "bigtwo-3-draw": lambda **kw: bigtwo_vector.VectorEnv(8, players=3, seed=5,
                                                          rules=Rules(draw_on_pass=True), **kw),
    "ofc": lambda **kw: ofc_vector.VectorEnv(8, seed=5, **kw),
    "ofc-3": lambda **kw: ofc_vector.VectorEnv(8, players=3, seed=5, rules="classic", **kw),
}
games = pytest.mark.parametrize("make", GAMES.values(), ids=GAMES.keys())


def legal(step: Any, i: int) -> np.ndarray:
    if step.legal_mask is not None:
        return np.flatnonzero(step.legal_mask[i])
    return step.legal_ids[step.legal_indptr[i]:step.legal_indptr[i + 1]]


def greedy(step: Any) -> np.ndarray:
    """A policy of the observation alone: each game's largest legal id."""
    return np.array([legal(step, i)[-1] for i in range(len(step.current_player))])


def episodes(env: Any, mode: str, steps: int) -> list[list[tuple[bytes, tuple[float, ...]]]]:
    """Each game's episodes under the greedy policy: (first observation, payments)."""
    step = env.reset(seed=11)
    firsts = [step.observation[i].tobytes() for i in range(env.num_envs)]
    done: list[list[tuple[bytes, tuple[float, ...]]]] = [[] for _ in range(env.num_envs)]
    waiting = np.zeros(env.num_envs, dtype=bool)        # next_step: the entry resets on this step
    for _ in range(steps):
        step = env.step(greedy(step), autoreset=mode)
        assert not step.rewards[waiting].any() and not step.terminated[waiting].any()
        for i in np.flatnonzero(waiting):
            firsts[i] = step.observation[i].tobytes()
        for i in np.flatnonzero(step.terminated):
            done[i].append((firsts[i], tuple(step.rewards[i].tolist())))
            firsts[i] = step.observation[i].tobytes()
        waiting = step.terminated.copy() if mode == "next_step" else waiting
    return done


# ----------------------------------------------------------------------------- the raw envs' modes
@games
def test_both_modes_play_the_same_games(make: Callable[..., Any]) -> None:
    """The same seed and policy give every game the same episodes in both modes (next_step
    only spends one more step per episode on its reset)."""
    same = episodes(make(), "same_step", 300)
    following = episodes(make(), "next_step", 300)
    assert sum(map(len, same)) >= 8
    for a, b in zip(same, following):
        assert len(b) >= 1
        assert a[:len(b)] == b


@games
def test_next_step_keeps_the_end_and_ignores_the_next_action(make: Callable[..., Any]) -> None:
    """Under next_step an ended game's row is its last observation (what same_step's
    final_observation shows) with action 0 alone legal; the next step deals its new game
    whatever action it is given."""
    a, b = make(), make()
    step_a, step_b = a.reset(seed=3), b.reset(seed=3)
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(200):
        actions = a.sample_legal(rng)
        step_a = a.step(actions, final_observation=True)
        step_b = b.step(actions, autoreset="next_step", final_observation=True)
        ended = step_a.terminated
        np.testing.assert_array_equal(ended, step_b.terminated)
        np.testing.assert_array_equal(step_a.rewards, step_b.rewards)
        np.testing.assert_array_equal(step_a.final_observation[ended], step_b.observation[ended])
        np.testing.assert_array_equal(step_b.final_observation, step_a.final_observation)
        np.testing.assert_array_equal(step_a.observation[~ended], step_b.observation[~ended])
        for i in np.flatnonzero(ended):
            np.testing.assert_array_equal(legal(step_b, i), [0])
            seen += 1
        if ended.any():
            # b's next step: the ended games are dealt (their actions, out of range of the new
            # deal's legal set or not, ignored); a plays nothing there, so the two part ways
            odd = b.sample_legal(1)
            odd[ended] = b.num_actions - 1
            again = b.step(odd, autoreset="next_step")
            assert not again.terminated[ended].any() and not again.rewards[ended].any()
            np.testing.assert_array_equal(again.observation[ended], step_a.observation[ended])
            break
    assert seen


def test_bad_autoreset_is_refused() -> None:
    for env in (bigtwo_vector.VectorEnv(2, seed=1), ofc_vector.VectorEnv(2, seed=1)):
        env.reset()
        with pytest.raises(ValueError, match="autoreset must be one of"):
            env.step(env.sample_legal(0), autoreset="same")


# ----------------------------------------------------------------------------- seeding
@games
def test_seeds_int_and_list(make: Callable[..., Any]) -> None:
    env, twin = make(), make()
    n = env.num_envs
    np.testing.assert_array_equal(env.reset(seed=4).observation, twin.reset(seed=4).observation)
    alike = env.reset(seed=[9] * n).observation
    assert (alike == alike[0]).all()                   # equal seeds deal equal games
    mixed = env.reset(seed=list(range(n))).observation
    np.testing.assert_array_equal(mixed, twin.reset(seed=np.arange(n)).observation)
    assert len({row.tobytes() for row in mixed}) > 1
    # per-game streams go on identically through autoresets
    rng = np.random.default_rng(1)
    for _ in range(60):
        actions = env.sample_legal(rng)
        np.testing.assert_array_equal(env.step(actions).observation, twin.step(actions).observation)
    env.reset(seed=3)
    shown = [env.render(i) for i in range(n)]
    for bad, error, match in [([1] * (n - 1), ValueError, f"{n} seeds, got {n - 1}"),
                              ([1] * (n - 1) + [-1], ValueError, r"seed\[7\] must be >= 0"),
                              ([1] * (n - 1) + [1.5], TypeError, r"seed\[7\] must be an int")]:
        with pytest.raises(error, match=match):
            env.reset(seed=bad)
    assert [env.render(i) for i in range(n)] == shown          # a refused seed changes nothing


def test_wrapper_seeds_np_random_as_gymnasium() -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils import seeding
    for env in (bigtwo_vector.VectorEnv(4, seed=1), ofc_vector.VectorEnv(4, seed=1)):
        gym = env.to_gymnasium()
        gym.reset(seed=np.int64(42))
        assert gym.np_random.integers(1 << 40) == seeding.np_random(42)[0].integers(1 << 40)
        with pytest.raises(ValueError, match=">= 0"):
            gym.reset(seed=-1)
        first, _ = gym.reset(seed=[1, 2, 3, 4])
        again, _ = gym.reset(seed=[1, 2, 3, 4])
        np.testing.assert_array_equal(first["observation"], again["observation"])
        with pytest.raises(ValueError, match="4 seeds, got 2"):
            gym.reset(seed=[1, 2])


# ----------------------------------------------------------------------------- the Gymnasium wrapper
@games
def test_gymnasium_wrappers_take_next_step(make: Callable[..., Any]) -> None:
    """Gymnasium's observation wrappers refuse SAME_STEP: they run on the default NEXT_STEP,
    and RecordEpisodeStatistics' returns are each seat's payments."""
    pytest.importorskip("gymnasium")
    from gymnasium.vector import AutoresetMode
    from gymnasium.wrappers.vector import (
        DtypeObservation,
        FilterObservation,
        FlattenObservation,
        RecordEpisodeStatistics,
    )
    for seat in range(make().players):
        gym = make().to_gymnasium(seat=seat)
        assert gym.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
        flat = DtypeObservation(FlattenObservation(FilterObservation(RecordEpisodeStatistics(gym), ["observation"])),
                                np.float32)
        obs, _ = flat.reset(seed=seat)
        assert obs.dtype == np.float32 and obs.shape == (gym.num_envs, int(np.prod(gym.env.observation_shape)))
        twin = make()
        twin.reset(seed=seat)
        returns, paid = [], []
        rng = np.random.default_rng(seat)
        for _ in range(250):
            actions = twin.sample_legal(rng)
            step = twin.step(actions, autoreset="next_step")
            obs, _, terminated, _, infos = flat.step(actions)
            np.testing.assert_array_equal(obs, step.observation.reshape(gym.num_envs, -1))
            if terminated.any():
                returns.extend(infos["episode"]["r"][terminated].tolist())
                paid.extend(step.rewards[terminated, seat].tolist())
        assert len(returns) >= 4
        np.testing.assert_allclose(returns, paid, atol=1e-4)


@games
def test_same_step_infos_carry_the_final_observation(make: Callable[..., Any]) -> None:
    pytest.importorskip("gymnasium")
    gym = make().to_gymnasium(autoreset_mode="SameStep", rewards="all")
    twin = make()
    gym.reset(seed=2)
    twin.reset(seed=2)
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(200):
        actions = twin.sample_legal(rng)
        step = twin.step(actions, autoreset="next_step")
        _, rewards, terminated, _, infos = gym.step(actions)
        if not terminated.any():
            assert "final_obs" not in infos
            continue
        np.testing.assert_array_equal(infos["_final_obs"], terminated)
        np.testing.assert_array_equal(infos["_final_info"], terminated)
        for i in np.flatnonzero(terminated):
            np.testing.assert_array_equal(infos["final_obs"][i]["observation"], step.observation[i])
            np.testing.assert_array_equal(infos["final_obs"][i]["action_mask"].astype(bool), step.legal_mask[i])
            np.testing.assert_array_equal(infos["final_info"]["rewards"][i], rewards[i])
            checked += 1
        assert all(infos["final_obs"][i] is None for i in np.flatnonzero(~terminated))
        twin.step(twin.sample_legal(0), autoreset="next_step")      # the twin's reset step
        break
    assert checked


def test_bad_autoreset_modes_are_refused() -> None:
    pytest.importorskip("gymnasium")
    env = bigtwo_vector.VectorEnv(2, seed=1)
    with pytest.raises(ValueError, match="not supported"):
        env.to_gymnasium(autoreset_mode="Disabled")
    with pytest.raises(ValueError, match="autoreset_mode must be one of"):
        env.to_gymnasium(autoreset_mode="later")
    with pytest.raises(ValueError, match="render_mode must be"):
        env.to_gymnasium(render_mode="human")


# ----------------------------------------------------------------------------- deals decided at once
@pytest.mark.parametrize("rules", [Rules(four_twos="win"), Rules(dragun=True), Rules(four_twos="draw")])
def test_decided_deals_are_one_step_episodes(rules: Rules) -> None:
    """A deal the rules decide at once offers the pass alone and its one step pays its payments,
    an episode RecordEpisodeStatistics records (length 1); the adapter lets the learner take
    it; the sum of every return is the sum of the payments."""
    pytest.importorskip("gymnasium")
    from gymnasium.wrappers.vector import RecordEpisodeStatistics
    n = 64
    env = bigtwo_vector.VectorEnv(n, rules=rules, seed=7, legal="compact")
    gym = RecordEpisodeStatistics(bigtwo_vector.VectorEnv(n, rules=rules, seed=7, legal="compact").to_gymnasium())
    step = env.reset()
    gym.reset()
    short = 0
    rng = np.random.default_rng(0)
    for _ in range(2000):
        pending = [i for i in range(n) if env._core.pending(i) is not None]
        for i in pending:
            np.testing.assert_array_equal(legal(step, i), [0])
        actions = env.sample_legal(rng)
        owed = {i: env._core.pending(i) for i in pending}
        step = env.step(actions, autoreset="next_step")
        infos = gym.step(actions)[4]
        for i, paid in owed.items():
            assert step.terminated[i]
            np.testing.assert_array_equal(step.rewards[i], paid)
            assert infos["episode"]["l"][i] == 1 and infos["episode"]["r"][i] == pytest.approx(paid[0])
            short += 1
    assert short >= 3
    adapter = bigtwo_vector.against("random", n, rules=rules, seed=3, legal="compact")
    step = adapter.reset()
    for _ in range(300):
        assert (step.current_player == 0).all()
        step = adapter.step(adapter.sample_legal(rng), autoreset="next_step")


# ----------------------------------------------------------------------------- render
def test_render() -> None:
    pytest.importorskip("gymnasium")
    env = bigtwo_vector.VectorEnv(3, seed=1)
    env.reset()
    text = env.render(2)
    assert text.startswith("bigtwo.VectorEnv game 2 of 3: player_") and "player_3: " in text
    gym = ofc_vector.VectorEnv(2, seed=1).to_gymnasium(render_mode="ansi")
    gym.reset()
    assert "player_1: - / - / -" in gym.render()
    assert bigtwo_vector.VectorEnv(1).to_gymnasium().render() is None
    with pytest.raises(ValueError, match="game must be an index 0..2"):
        env.render(3)


# ----------------------------------------------------------------------------- snapshots
@games
def test_snapshot_restore_and_pickle_replay_identically(make: Callable[..., Any]) -> None:
    env = make()
    env.reset(seed=[3, 1, 4, 1, 5, 9, 2, 6])
    rng = np.random.default_rng(0)
    for _ in range(7):
        env.step(env.sample_legal(rng), autoreset="next_step")
    saved = env.snapshot()
    clones = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]

    def run(target: Any) -> list[Any]:
        out, draw = [], np.random.default_rng(5)
        for _ in range(80):
            step = target.step(target.sample_legal(draw), autoreset="same_step")
            out.append((step.observation.copy(), step.rewards.copy(), step.terminated.copy()))
        out.append(target.reset().observation)      # the seed stream too
        return out

    first = run(env)
    env.restore(saved)
    for replay in [run(env)] + [run(clone) for clone in clones]:
        for a, b in zip(first, replay):
            for x, y in zip(a, b) if isinstance(a, tuple) else [(a, b)]:
                np.testing.assert_array_equal(x, y)


@games
def test_reset_and_restore_chosen_games(make: Callable[..., Any]) -> None:
    env = make()
    start = env.reset(seed=1)
    rng = np.random.default_rng(0)
    step = env.step(env.sample_legal(rng))
    saved = env.snapshot()
    chosen = np.zeros(env.num_envs, dtype=bool)
    chosen[[1, 5]] = True
    again = env.reset(games=chosen, seed=1)
    np.testing.assert_array_equal(again.observation[~chosen], step.observation[~chosen])
    np.testing.assert_array_equal(again.observation[chosen], start.observation[chosen])
    env.restore(saved, games=~chosen)       # the others as they were: unchanged
    env.restore(saved, games=chosen)
    back = env.step(env.sample_legal(3)).observation.copy()
    env.restore(saved)
    np.testing.assert_array_equal(env.step(env.sample_legal(3)).observation, back)
    for bad, error in [(np.ones(3, dtype=bool), ValueError), (np.zeros(env.num_envs, dtype=bool), ValueError),
                       (np.ones(env.num_envs, dtype=int), TypeError)]:
        with pytest.raises(error):
            env.reset(games=bad)
    with pytest.raises(RuntimeError, match="first reset"):
        make().reset(games=chosen)


def test_wrapper_reset_mask_and_adapter_pickling() -> None:
    pytest.importorskip("gymnasium")
    gym = bigtwo_vector.VectorEnv(4, seed=1).to_gymnasium()
    first, _ = gym.reset(seed=1)
    moved, *_ = gym.step(gym.env.sample_legal(0))
    mask = np.array([False, True, False, False])
    again, _ = gym.reset(seed=1, options={"reset_mask": mask})
    np.testing.assert_array_equal(again["observation"][mask], first["observation"][mask])
    np.testing.assert_array_equal(again["observation"][~mask], moved["observation"][~mask])
    with pytest.raises(ValueError, match="reset_mask only"):
        gym.reset(options={"other": 1})
    adapter = bigtwo_vector.against("random", 4, seed=2, legal="compact")
    adapter.reset()
    twin = pickle.loads(pickle.dumps(adapter))
    for k in range(30):
        a, b = adapter.step(adapter.sample_legal(k)), twin.step(twin.sample_legal(k))
        np.testing.assert_array_equal(a.observation, b.observation)
        np.testing.assert_array_equal(a.rewards, b.rewards)


@pytest.mark.parametrize("threads", [1, 2])
def test_the_kept_dense_mask_stays_the_legal_set(threads: int) -> None:
    """Big Two's dense mask is one buffer whose rows a step clears entry by entry: through both
    autoreset modes, decided deals, a refused step, restores and partial resets, every row is
    still exactly the legal ids of a compact twin."""
    rules = Rules(four_twos="win", dragun=True)
    dense = bigtwo_vector.VectorEnv(32, rules=rules, seed=4, legal="dense", threads=threads)
    compact = bigtwo_vector.VectorEnv(32, rules=rules, seed=4, legal="compact", threads=threads)
    a, b = dense.reset(), compact.reset()
    rng = np.random.default_rng(0)
    saved = {}
    for k in range(400):
        for i in range(32):
            np.testing.assert_array_equal(np.flatnonzero(a.legal_mask[i]), legal(b, i))
        mode = "next_step" if k % 3 else "same_step"
        actions = compact.sample_legal(rng)
        if k % 50 == 7:
            bad = actions.copy()
            bad[3] = np.setdiff1d(np.arange(40), legal(b, 3))[0]
            with pytest.raises(ValueError):
                dense.step(bad)
        if k % 60 == 11:
            saved = {"dense": dense.snapshot(), "compact": compact.snapshot()}
        if k % 60 == 41:            # the games go back: the next step rewrites every row
            dense.restore(saved["dense"])
            compact.restore(saved["compact"])
            actions = compact.sample_legal(rng)
        if k % 60 == 51:
            chosen = np.arange(32) % 5 == 0
            a, b = dense.reset(games=chosen), compact.reset(games=chosen)
            continue
        a, b = dense.step(actions, autoreset=mode), compact.step(actions, autoreset=mode)
        np.testing.assert_array_equal(a.rewards, b.rewards)
