"""Ctrl-C in a threaded call (issue 37): a KeyboardInterrupt raised in the calling thread, at any
point of the call, leaves the pool working. Once the call has raised no thread writes into `out`
any more, the next threaded call gives the right answer, and the process exits at once.

Each case runs in a subprocess under a deadline, with SIGALRM every few milliseconds raising
KeyboardInterrupt from its handler, so that a hang fails the test instead of hanging the run."""
import subprocess
import sys
import textwrap
import time

import pytest

DEADLINE = 60       # seconds for a whole case; one takes a few
EXIT_SECONDS = 5    # from the last call to the end of the process
ROUNDS = 60         # interrupted calls per case

CHILD = textwrap.dedent("""
    import faulthandler, signal, sys, time
    import numpy as np
    from handrank import high, omaha, shortdeck
    from handrank.bigtwo.vector import VectorEnv as BigTwoEnv

    faulthandler.dump_traceback_later({deadline}, exit=True)    # a hang shows where it hangs
    case, rounds = sys.argv[1], int(sys.argv[2])
    rng = np.random.default_rng(37)

    def deals(n, k, deck=52):
        # n rows of k distinct cards from the top `deck` ids (a short deck: the 6s up)
        return np.argsort(rng.random((n, deck), dtype=np.float32), axis=1)[:, :k].astype(np.uint8) + 52 - deck

    watched = []        # the arrays the call writes, to find writes after it raised

    def batch(evaluate, *cards):
        # call(out): the threaded call writing into `out`, and what it should write
        def call(out):
            watched[:] = [out]
            evaluate(*cards, out=out, threads=2)
        return call, evaluate(*cards, threads=1)

    def vector_step(make):
        # call(out): a threaded reset and step of N games, `out` their players to act, which the
        # same on one thread gives too; the arrays each threaded pass fills are watched
        env = make(threads=2)
        outputs = env._outputs
        def watched_outputs():
            arrays = outputs()
            watched.extend(a for a in arrays if a is not None)
            return arrays
        env._outputs = watched_outputs
        def call(out):
            watched[:] = []
            env.reset(seed=5)
            out[:] = env.step(env.sample_legal(1)).current_player
        alone = make(threads=1)
        alone.reset(seed=5)
        return call, alone.step(alone.sample_legal(1)).current_player.astype(np.uint16)

    call, expected = {{
        "high": lambda: batch(high.evaluate_batch, deals(1_000_000, 7)),
        "shortdeck": lambda: batch(shortdeck.evaluate_batch, deals(1_000_000, 7, deck=36)),
        "omaha": lambda: batch(omaha.evaluate_batch,
                               *map(np.ascontiguousarray, np.split(deals(300_000, 9), [4], axis=1))),
        "bigtwo_vector": lambda: vector_step(lambda **kw: BigTwoEnv(16_384, seed=3, legal="compact", **kw)),
    }}[case]()
    SENTINEL = 0xFFFF               # no call writes it: values are at most 7,462, players < 4

    armed = False
    def alarm(signum, frame):
        if armed:
            raise KeyboardInterrupt

    signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, 0.0037, 0.0037)
    interrupted = 0
    # calls until `rounds` were interrupted: how many the alarm catches depends on the CPU's speed
    for _ in range(rounds * 10):
        if interrupted == rounds:
            break
        out = np.full(len(expected), SENTINEL, dtype=np.uint16)
        try:
            try:
                armed = True
                call(out)
            finally:
                armed = False       # before any signal check: nothing is raised past here
        except KeyboardInterrupt:
            interrupted += 1
            seen = [a.copy() for a in watched]
            time.sleep(0.01)        # several chunks' time: a thread still running would write
            assert all(np.array_equal(a, b) for a, b in zip(watched, seen)), "written after the call raised"
            written = out != SENTINEL
            assert np.array_equal(out[written], expected[written]), "a wrong value"
        else:
            assert np.array_equal(out, expected)
        # the next threaded call works, and gives the right answer
        out[:] = SENTINEL
        call(out)
        assert np.array_equal(out, expected), "wrong after an interrupt"
    signal.setitimer(signal.ITIMER_REAL, 0)
    assert interrupted >= rounds // 4, f"only {{interrupted}} calls of {{10 * rounds}} were interrupted"
    print("ok", interrupted, time.time())     # the parent times the exit from here
""")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGALRM and setitimer are POSIX-only")
@pytest.mark.skipif(__import__("handrank")._batch.cpu_count() < 2,
                    reason="one core: threads=2 runs on one thread, never on the pool")
@pytest.mark.parametrize("case", ["high", "shortdeck", "omaha", "bigtwo_vector"])
def test_ctrl_c_in_a_threaded_call(case):
    try:
        done = subprocess.run([sys.executable, "-c", CHILD.format(deadline=DEADLINE), case, str(ROUNDS)],
                              capture_output=True, text=True, timeout=DEADLINE + 30)
    except subprocess.TimeoutExpired:
        pytest.fail("the process hung after an interrupted threaded call")
    ended = time.time()
    assert done.returncode == 0 and done.stdout.startswith("ok"), done.stdout + done.stderr[-4000:]
    assert ended - float(done.stdout.split()[-1]) < EXIT_SECONDS, "the process was slow to exit"


def test_an_exception_in_a_pool_thread_is_raised_by_the_caller():
    import threading

    from handrank import _batch
    caller = threading.get_ident()
    both = threading.Barrier(2, timeout=30)     # work(0) and work(1) on two threads: one a pool thread
    ran = []

    def work(i):
        ran.append(i)
        if i < 2:
            both.wait()
        if threading.get_ident() != caller:
            raise ZeroDivisionError("in a pool thread")

    with pytest.raises(ZeroDivisionError, match="in a pool thread"):
        _batch.share(work, 100, 2)
    assert len(ran) < 100       # the call stopped handing out work
