"""The vector environments (handrank.ofc.vector, handrank.bigtwo.vector) after a call that raised:
every game is as it was before the call (issue 37 item 7), so the same call made again gives what
a twin environment that never failed gives, and every later call too."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from handrank import bigtwo
from handrank.bigtwo import vector as bigtwo_vector
from handrank.ofc import vector as ofc_vector


def assert_steps_equal(a: Any, b: Any) -> None:
    for name in type(a).__dataclass_fields__:
        x, y = getattr(a, name), getattr(b, name)
        if x is None or y is None:
            assert x is None and y is None, name
        else:
            np.testing.assert_array_equal(x, y, err_msg=name)


def then_interrupt(real: Callable[..., Any]) -> Callable[..., Any]:
    """`real`, then a KeyboardInterrupt (Ctrl-C arriving as it returns)."""
    def run(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        raise KeyboardInterrupt
    return run


def fail_and_retry(env: Any, twin: Any, patch: Callable[[pytest.MonkeyPatch], None],
                   state: Callable[[Any], Any], steps: int) -> int:
    """Step `env` and `twin` with the same random actions, each step of `env` first tried with
    `patch` applied: where that raises, `state(env)` must be unchanged and the step, made again,
    must give what the twin's gives. The number of steps that raised."""
    rng = np.random.default_rng(1)
    failed = 0
    for _ in range(steps):
        chosen = twin.sample_legal(rng)
        before = state(env)
        with pytest.MonkeyPatch.context() as m:
            patch(m)
            try:
                result = env.step(chosen)
            except KeyboardInterrupt:
                result = None
        if result is None:
            failed += 1
            after = state(env)
            assert len(after) == len(before)
            for x, y in zip(after, before):
                np.testing.assert_array_equal(x, y)
            np.testing.assert_array_equal(env.sample_legal(7), twin.sample_legal(7))
            result = env.step(chosen)
        assert_steps_equal(result, twin.step(chosen))
    return failed


# ----------------------------------------------------------------------------- OFC
def ofc_pair(threads: int = 1) -> tuple[ofc_vector.VectorEnv, ofc_vector.VectorEnv]:
    """Two equal envs whose hands end every few steps, a Fantasyland seat dealt by the solver."""
    envs = [ofc_vector.VectorEnv(6, rules="pineapple", players=2, fantasyland=(14, 0), seed=3,
                                 threads=threads) for _ in range(2)]
    for env in envs:
        env.reset()
    return envs[0], envs[1]


def ofc_state(env: ofc_vector.VectorEnv) -> list[np.ndarray]:
    return [*env._core.save(), np.array([env._hands])]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("where", ["_over_games", "score_batch", "solve_fantasyland_batch"])
def test_ofc_step_interrupted_inside_changes_no_game(where: str, threads: int) -> None:
    """Interrupted after the games moved, while the ended hands are scored, and after the new
    hands were solved: on the old code the ended hands stayed over for good ("player -1 on
    street 6")."""
    env, twin = ofc_pair(threads)
    real = getattr(ofc_vector, where)
    failed = fail_and_retry(env, twin, lambda m: m.setattr(ofc_vector, where, then_interrupt(real)),
                            ofc_state, 40)
    assert failed >= 5


def test_ofc_step_interrupted_at_its_end_changes_no_game() -> None:
    env, twin = ofc_pair()
    failed = fail_and_retry(env, twin, lambda m: m.setattr(env, "_result", then_interrupt(env._result)),
                            ofc_state, 12)
    assert failed == 12


def test_ofc_reset_interrupted_changes_no_game() -> None:
    env, twin = ofc_pair()
    rng = np.random.default_rng(4)
    for _ in range(3):
        chosen = twin.sample_legal(rng)
        env.step(chosen), twin.step(chosen)
    before = ofc_state(env)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(ofc_vector, "solve_fantasyland_batch", then_interrupt(ofc_vector.solve_fantasyland_batch))
        with pytest.raises(KeyboardInterrupt):
            env.reset(seed=11)
    for x, y in zip(ofc_state(env), before):
        np.testing.assert_array_equal(x, y)
    assert_steps_equal(env.reset(seed=11), twin.reset(seed=11))


def test_ofc_bad_action_after_good_ones_changes_no_game() -> None:
    env, twin = ofc_pair()
    rng = np.random.default_rng(2)
    for _ in range(20):
        chosen = twin.sample_legal(rng)
        bad = chosen.copy()
        bad[-1] = 1023 if chosen[-1] != 1023 else 0         # legal in no street's case
        before = ofc_state(env)
        with pytest.raises(ValueError, match="game 5"):
            env.step(bad)
        for x, y in zip(ofc_state(env), before):
            np.testing.assert_array_equal(x, y)
        assert_steps_equal(env.step(chosen), twin.step(chosen))


# ----------------------------------------------------------------------------- Big Two
def bigtwo_pair(threads: int = 1, players: int = 3) -> tuple[bigtwo_vector.VectorEnv, bigtwo_vector.VectorEnv]:
    """Two equal envs with a stock to draw from and deals settled at once (four 2s win)."""
    rules = bigtwo.Rules(draw_on_pass=True, four_twos="win")
    envs = [bigtwo_vector.VectorEnv(8, rules=rules, players=players, seed=5, threads=threads)
            for _ in range(2)]
    for env in envs:
        env.reset()
    return envs[0], envs[1]


def bigtwo_state(env: bigtwo_vector.VectorEnv) -> list[Any]:
    """Each game's hands, stock, player to act and legal actions."""
    step_ids = []
    for i in range(env.num_envs):
        hands, stock = env.hands(i)
        step_ids.append(np.array([*map(len, hands), *stock, env._core.turn(i)]))
        step_ids.extend(np.array(hand) for hand in hands)
    counts = np.empty(env.num_envs, dtype=np.int64)
    env._core.write(0, env.num_envs, np.empty((env.num_envs, 164), dtype=np.int8),
                    np.empty(env.num_envs, dtype=np.int8), counts)
    return [*step_ids, counts]


@pytest.mark.parametrize("threads", [1, 2])
def test_bigtwo_step_interrupted_inside_changes_no_game(threads: int) -> None:
    env, twin = bigtwo_pair(threads)
    failed = fail_and_retry(env, twin, lambda m: m.setattr(env, "_split", then_interrupt(env._split)),
                            bigtwo_state, 150)
    assert failed == 150


def test_bigtwo_step_interrupted_at_its_end_changes_no_game() -> None:
    env, twin = bigtwo_pair(players=2)
    failed = fail_and_retry(env, twin, lambda m: m.setattr(env, "_result", then_interrupt(env._result)),
                            bigtwo_state, 100)
    assert failed == 100


def test_bigtwo_reset_interrupted_changes_no_game() -> None:
    env, twin = bigtwo_pair()
    rng = np.random.default_rng(4)
    for _ in range(10):
        chosen = twin.sample_legal(rng)
        env.step(chosen), twin.step(chosen)
    before = bigtwo_state(env)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(env, "_split", then_interrupt(env._split))
        with pytest.raises(KeyboardInterrupt):
            env.reset()                          # without a seed: the stream goes on
    for x, y in zip(bigtwo_state(env), before):
        np.testing.assert_array_equal(x, y)
    assert_steps_equal(env.reset(), twin.reset())
    chosen = twin.sample_legal(rng)
    assert_steps_equal(env.step(chosen), twin.step(chosen))


def test_bigtwo_first_reset_interrupted_leaves_the_env_unstarted() -> None:
    env = bigtwo_vector.VectorEnv(4, seed=1)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(env, "_split", then_interrupt(env._split))
        with pytest.raises(KeyboardInterrupt):
            env.reset()
    with pytest.raises(RuntimeError, match="reset"):
        env.sample_legal(0)
    assert_steps_equal(env.reset(), bigtwo_vector.VectorEnv(4, seed=1).reset())


@pytest.mark.parametrize("make", [lambda: ofc_vector.VectorEnv(3, seed=1),
                                  lambda: bigtwo_vector.VectorEnv(3, seed=1)], ids=["ofc", "bigtwo"])
def test_the_gymnasium_wrapper_refuses_calls_after_close(make: Callable[[], Any]) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    env = make()
    gym = env.to_gymnasium()
    gym.reset(seed=2)
    actions = env.sample_legal(0)
    gym.close()
    with pytest.raises(gymnasium.error.ClosedEnvironmentError, match=r"step\(\) after close\(\)"):
        gym.step(actions)
    with pytest.raises(gymnasium.error.ClosedEnvironmentError, match=r"reset\(\) after close\(\)"):
        gym.reset(seed=2)
    gym.close()                                  # closing twice is fine, as in Gymnasium
