"""Regressions of issue 27's equity findings (a fuzzing review): each test reproduces one finding
(F1, F2, ... U13) and fails on the code before its fix."""
import sys

import numpy as np
import pytest

from handrank.cards import cards
from handrank.equity import calculate
from equity_reference import hand, range_of, reference_equity


# -------------------------------------------------------------------------- F1
def test_f1_folding_keeps_the_board_and_the_dead_cards_each_in_place():
    # swapping spades and diamonds maps board + dead onto itself but the board As Js Ts onto
    # Ad Jd Td: KsQs (a royal flush) and KdQd must not be folded into one row
    board, dead = "As Js Ts", "Ad Jd Td"
    both = calculate(["KsQs,KdQd", "9h9c"], board, dead, exact=True)
    alone = [calculate([h, "9h9c"], board, dead, exact=True).equity[0] for h in ("KsQs", "KdQd")]
    assert alone[0] == 1.0
    assert both.equity[0] == pytest.approx(sum(alone) / 2, abs=1e-12)
    expected = reference_equity([range_of("KsQs,KdQd"), hand("9h9c")], cards(board), cards(dead))
    np.testing.assert_allclose(both.win, expected[1], atol=1e-12)
    np.testing.assert_allclose(both.tie, expected[2], atol=1e-12)


def test_f1_the_reviews_weighted_case():
    board, dead = cards("As 3h Ah"), cards("Jd 2d 3s")
    players = ["Tc2c", "98s:0.25"]
    expected = reference_equity([hand("Tc2c"), range_of("98s:0.25", board + dead)], board, dead)
    got = calculate(players, board, dead, exact=True)
    assert got.equity[0] == pytest.approx(expected[0][0], abs=1e-12)   # 0.6466, was 0.5772


# -------------------------------------------------------------------------- F2
@pytest.mark.parametrize("players,board,want", [
    (["22+,AK"] * 3, "Ks 8h 3c", None),       # three groups of wide ranges
    (["30%", "30%"], "", (0.5, 0.5)),           # two groups, symmetric
])
def test_f2_monte_carlo_draws_each_group_from_its_own_weights(players, board, want):
    if want is None:
        want = calculate(players, board, exact=True).equity
    mc = calculate(players, board, samples=300_000, seed=1, threads=1)
    z = [(got - w) / se for got, w, se in zip(mc.equity, want, mc.stderr)]
    assert max(abs(x) for x in z) < 4.5, z      # the old draw was off by 10 to 40 errors


# -------------------------------------------------------------------------- F7
@pytest.mark.parametrize("weight", ["1e300", "1e-200", "1e-310"])
def test_f7_extreme_weights_give_the_unweighted_answer(weight):
    plain = calculate(["AKs", "QQ"], "2c 7d 9h")
    for exact in (True, False):
        kw = {"exact": True} if exact else {"samples": 20_000, "seed": 1}
        r = calculate([f"AKs:{weight}", f"QQ:{weight}"], "2c 7d 9h", **kw)
        assert all(np.isfinite(r.equity)) and np.isfinite(r.showdowns) and r.showdowns > 0
        if exact:
            np.testing.assert_allclose(r.equity, plain.equity, atol=1e-12)


def test_f7_weights_far_apart_within_one_range_keep_their_ratio():
    board = cards("2c 7d 9h")
    players = ["AKs:1e300, 33:1", "QQ:1e-300, JJ"]
    want = calculate(["AKs", "JJ"], board, exact=True).equity      # the rest weighs nothing
    np.testing.assert_allclose(calculate(players, board, exact=True).equity, want, atol=1e-12)


def test_f7_cli_json_is_valid_and_errors_are_one_line(capsys):
    import json

    from handrank.cli import main
    assert main(["equity", "AKs:1e300", "QQ:1e300", "--board", "2c 7d 9h", "--json"]) == 0
    out = json.loads(capsys.readouterr().out, parse_constant=lambda c: pytest.fail(c))
    assert out["players"][0]["equity"] == pytest.approx(0.269318, abs=1e-6)
    assert main(["equity", "AKs:1e-200", "QQ:1e-200", "--board", "2c 7d 9h", "--json"]) == 0
    json.loads(capsys.readouterr().out, parse_constant=lambda c: pytest.fail(c))


# -------------------------------------------------------------------------- F9, U5
@pytest.mark.parametrize("kind", [np.int64, np.uint64, np.int32, np.uint8])
def test_f9_numpy_integer_seeds_are_their_int(kind):
    a = calculate(["AhAs", "KcKd"], samples=1000, seed=kind(1), threads=1)
    assert a == calculate(["AhAs", "KcKd"], samples=1000, seed=1, threads=1)


def test_u5_numpy_bools_and_ints_are_their_python_values():
    spot = (["AhAs", "KcKd"], "2c 7d 9h")
    assert calculate(*spot, exact=np.True_) == calculate(*spot, exact=True)
    assert not calculate(*spot, exact=np.False_, samples=np.int64(500), seed=1).exact
    assert calculate(*spot, samples=np.int64(500), seed=1, threads=np.int8(1)).showdowns == 500
    assert calculate(*spot, stderr=np.float32(0.01), seed=1).stderr[0] <= 0.01


# -------------------------------------------------------------------------- F14, F15
def test_f14_exact_enumeration_has_a_documented_limit():
    from handrank.equity import EXACT_MAX
    with pytest.raises(ValueError, match=r"3\.2e\+15 showdowns is above the limit of 1e\+13 "
                                         r"\(equity.EXACT_MAX\)"):
        calculate(["random"] * 3, exact=True)
    assert EXACT_MAX == 10**13


def test_f14_the_command_names_the_limit():
    # in a subprocess with a time limit: the old code enumerated for ages
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "handrank", "equity", "random", "random", "random",
                           "--exact"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "EXACT_MAX" in done.stderr


# Two ways to press Ctrl-C from inside the process: a real SIGINT (POSIX; on Windows os.kill
# with SIGINT is TerminateProcess, which ends the process with status 2 and runs no handler),
# and _thread.interrupt_main(), which raises KeyboardInterrupt in the main thread the way a
# console Ctrl-C does on every platform.
CTRL_C = {"sigint": "os.kill(os.getpid(), signal.SIGINT)", "interrupt_main": "_thread.interrupt_main()"}


def _interrupted(argv, how, after=1.0):
    """The exit status of `handrank *argv` in a subprocess that presses Ctrl-C (CTRL_C[how])
    `after` seconds into the command (imports done, so it lands in the run); None if it did not
    end within 30 s of that (then killed)."""
    import subprocess
    import sys
    script = ("import _thread, os, signal, sys, threading\n"
              "from handrank.cli import main\n"
              f"threading.Timer({after}, lambda: {CTRL_C[how]}).start()\n"
              f"sys.exit(main({argv!r}))\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        return proc.wait(timeout=30 + after)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None


@pytest.mark.parametrize("how", [
    pytest.param("sigint", marks=pytest.mark.skipif(
        sys.platform == "win32", reason="POSIX signals: os.kill(SIGINT) terminates a Windows process")),
    "interrupt_main"])
@pytest.mark.parametrize("threads", ["1", "2"])
def test_f14_a_long_exact_run_answers_ctrl_c(threads, how):
    # random vs random preflop, exact: tens of minutes; Ctrl-C must end it within a part (the
    # old code ran one uninterruptible call on one thread)
    assert _interrupted(["equity", "random", "random", "--exact", "--threads", threads], how) == 130


def test_f15_samples_are_bounded(capsys):
    from handrank.cli import main
    from handrank.equity import MAX_SAMPLES
    with pytest.raises(ValueError, match=r"samples must be 1 to 100,000,000,000 \(MAX_SAMPLES\)"):
        calculate(["AhAs", "KcKd"], samples=MAX_SAMPLES + 1)
    with pytest.raises(ValueError, match="a 333-bit number"):
        calculate(["AhAs", "KcKd"], samples=10**100)
    assert main(["equity", "AhAs", "KcKd", "--samples", "99999999999999999999999"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "MAX_SAMPLES" in err


def test_f15_a_run_to_a_standard_error_stops_at_max_samples(monkeypatch):
    import importlib
    module = importlib.import_module("handrank.equity.calculate")
    monkeypatch.setattr(module, "MAX_SAMPLES", 100_000)
    r = calculate(["AhAs", "KcKd"], stderr=1e-5, seed=1, threads=1)
    assert r.showdowns == 100_000 and max(r.stderr) > 1e-5


# -------------------------------------------------------------------------- F12
def test_f12_a_progress_callback_may_use_the_pool():
    # the shared pool with one worker (two cores), as in the review; in a subprocess, since the
    # old code deadlocked there for good
    import subprocess
    import sys
    script = """
import numpy as np
from handrank import _batch, equity, high
_batch._pool = _batch._Pool(1)
calls = []
def cb(done, total):
    calls.append(equity.calculate(["AhAs", "KcKd"], "2c 7d 9h", threads=2).equity[0])
    hands = np.tile(np.array([0, 4, 8, 12, 17, 21, 25], dtype=np.uint8), (100_000, 1))
    calls.append(int(high.evaluate_batch(hands, threads=2)[-1]))
r = equity.calculate(["AsKs", "QQ+,AKs", "random"], "Jh Th 2c", exact=True, threads=2, progress=cb)
assert len(calls) >= 2 and abs(sum(r.equity) - 1) < 1e-12
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr


def test_f12_progress_is_called_from_the_calling_thread():
    import threading
    threads = set()
    calculate(["AsKs", "QQ+,AKs", "random"], "Jh Th 2c", exact=True, threads=2,
              progress=lambda done, total: threads.add(threading.get_ident()))
    assert threads == {threading.get_ident()}


def test_f12_a_threaded_calculation_inside_a_pool_thread_finishes():
    # the pool thread hands parts to the pool too; it waits only for parts other threads took,
    # never for a thread to come (issue 37 dropped the rule that ran them inline there)
    import threading
    from handrank import _batch
    both = threading.Barrier(2, timeout=30)     # work(0) and work(1) on two threads: one a pool thread
    results = {}

    def work(i):
        both.wait()
        results[threading.get_ident()] = calculate(["AsKs", "QQ+,AKs"], "Jh Th 2c", threads=2)

    _batch.share(work, 2, 2)
    assert len(results) == 2
    assert list(results.values()) == 2 * [calculate(["AsKs", "QQ+,AKs"], "Jh Th 2c", threads=1)]


# -------------------------------------------------------------------------- U2, U3, U4
from handrank.equity import Range, hand_vs_hand_batch  # noqa: E402


def test_u2_str_of_a_range_parses_back_whatever_its_weights():
    rng = np.random.default_rng(27)
    for _ in range(300):
        combos = rng.choice(1326, size=rng.integers(1, 40), replace=False)
        pairs = [(a, b) for a in range(52) for b in range(a)]
        weights = 10.0 ** rng.uniform(-300, 300, size=len(combos))
        r = Range({(int(pairs[c][0]), int(pairs[c][1])): float(w) for c, w in zip(combos, weights)})
        assert Range(str(r)) == r, str(r)
    assert str(Range({"AhKh": 1e20})) == "AhKh:1e+20"


@pytest.mark.parametrize("text,weight", [("AK:1E5", 1e5), ("AK:1e+5", 1e5), ("AK:+1", 1.0),
                                         ("AK:1e300", 1e300), ("AK:2.5E-3", 2.5e-3)])
def test_u2_weights_as_floats_are_written(text, weight):
    assert set(Range(text).weights) == {weight}


def test_u3_suit_symbols_in_ranges():
    assert Range("A♠K♠, K♣K♦") == Range("AsKs, KcKd")
    assert calculate(["A♥A♠, K♣K♦", "QQ"]).equity == calculate(["AhAs, KcKd", "QQ"]).equity


def test_u4_long_notation_is_quoted_cut_to_80_characters(capsys):
    from handrank.cli import main
    for text in ("A" * 10**6, "AK:" + "1" * 5000 + "x", "AK" + "+" * 5000):
        with pytest.raises(ValueError) as info:
            Range(text)
        assert len(str(info.value)) < 400 and "characters)" in str(info.value)
    long_range = ", ".join(["AhKh"] * 3000)
    with pytest.raises(ValueError, match=r"\.\.\. \(17,998 characters\) has no combo left"):
        Range(long_range).without([50])
    assert main(["equity", "A" * 5000, "KK"]) == 1
    assert len(capsys.readouterr().err) < 400


# -------------------------------------------------------------------------- U13
def test_u13_the_batch_takes_lists_of_card_strings():
    want = hand_vs_hand_batch(np.array([cards("AsKs")]), np.array([cards("QhQd")]),
                              np.array([cards("Jh Th 2c")]))
    got = hand_vs_hand_batch([["As", "Ks"]], [["Qh", "Qd"]], [["Jh", "Th", "2c"]])
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(hand_vs_hand_batch(["As Ks"], [("Qh", 41)], ["Jh Th 2c"]), want)
    with pytest.raises(ValueError, match="^row 1: cannot parse card 'Qx'"):
        hand_vs_hand_batch([["As", "Ks"]] * 2, [["Qh", "Qd"], ["Qh", "Qx"]])
