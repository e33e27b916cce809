"""A process forked after the thread pool exists gets a pool of its own: threaded batch calls in
the child finish (the parent's pool threads do not exist there). Every child runs under a
deadline, so a regression fails instead of hanging the run."""
import multiprocessing
import os
import signal
import time

import numpy as np
import pytest

from handrank import _batch, high, ofc

DEADLINE = 60.0     # seconds: the child's calls take milliseconds

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="the platform has no fork")


def hands(n=200_000, seed=0):
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)


def fantasyland_hands(n=8, seed=1):
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :14].astype(np.uint8)


def threaded_calls_agree(cards, expected, fl_cards, fl_expected):
    """The batch calls of the issue, threaded, compared with the parent's results."""
    ok = np.array_equal(high.evaluate_batch(cards, threads=2), expected)
    ok = ok and np.array_equal(high.evaluate_batch(cards), expected)
    solved = ofc.solve_fantasyland_batch(fl_cards, threads=2)
    return ok and np.array_equal(solved.value, fl_expected)


@pytest.fixture
def warm_pool():
    """Arguments of `threaded_calls_agree`, computed with the pool running."""
    cards, fl_cards = hands(), fantasyland_hands()
    expected = high.evaluate_batch(cards, threads=2)
    fl_expected = ofc.solve_fantasyland_batch(fl_cards, threads=2).value
    assert _batch._pool is not None
    return cards, expected, fl_cards, fl_expected


def wait_or_kill(pid, deadline):
    """The child's exit status, or None after killing it when it outlives the deadline."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


@needs_fork
@pytest.mark.skipif(_batch.cpu_count() < 2, reason="one core: batch calls never use the pool")
def test_forked_child_runs_threaded_batches(warm_pool):
    pid = os.fork()
    if pid == 0:    # the child: never return into pytest
        code = 1
        try:
            code = 0 if threaded_calls_agree(*warm_pool) else 1
        finally:
            os._exit(code)
    status = wait_or_kill(pid, DEADLINE)
    assert status is not None, "the forked child hung in a threaded batch call"
    assert os.waitstatus_to_exitcode(status) == 0


@needs_fork
def test_pool_reset_in_child(warm_pool):
    pid = os.fork()
    if pid == 0:
        os._exit(0 if _batch._pool is None else 1)
    status = wait_or_kill(pid, DEADLINE)
    assert status is not None and os.waitstatus_to_exitcode(status) == 0
    assert _batch._pool is not None     # the parent keeps its own


def evaluate_in_worker(seed):
    cards = hands(50_000, seed)
    return int(high.evaluate_batch(cards, threads=2).astype(np.int64).sum())


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_multiprocessing_pool(method, warm_pool):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method here")
    seeds = [1, 2, 3]
    expected = [evaluate_in_worker(seed) for seed in seeds]
    with multiprocessing.get_context(method).Pool(2) as pool:
        try:
            assert pool.map_async(evaluate_in_worker, seeds).get(timeout=DEADLINE) == expected
        finally:
            pool.terminate()


@needs_fork
def test_forked_child_solves_with_the_parents_solver_threads():
    """A solver game that solved with threads in the parent (its worker threads waiting) solves on
    with threads in a forked child, to the same strategy as the parent's own next iterations."""
    from handrank.solver import Game, Spot
    spot = Spot("Td9d6hQc", oop_range="AA,KK,QQ,AKs", ip_range="JJ,TT,AQs", pot=100, stack=200,
                bet="50%", raise_="60%")
    game = Game(spot)
    game.solve(0.0, 6, threads=2, progress=False)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            game.solve(0.0, 10, threads=2, progress=False)
            os.write(write, game.node().strategy().tobytes())
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    status = wait_or_kill(pid, DEADLINE)
    assert status is not None, "the forked child hung in a threaded solve"
    assert os.waitstatus_to_exitcode(status) == 0
    with os.fdopen(read, "rb") as pipe:
        child_strategy = pipe.read()
    game.solve(0.0, 10, threads=2, progress=False)
    assert child_strategy == game.node().strategy().tobytes()
