"""The command line fails in one clear line on stderr and exit status 1 or 2, never a traceback:
closed standard streams, a full disk, a job too big for memory, absurdly long bad input, option
values that look like options, a reader that goes away. These run the real command in a child
process, because the failures are about the process's own streams."""
import os
import shlex
import subprocess
import sys

import pytest

HAND = "As Ks Qs Js Ts"
FANTASYLAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 2c Qh Qd Kd"
posix_shell = pytest.mark.skipif(os.name != "posix", reason="needs a POSIX shell")


def shell(command: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run `handrank ...` (as `python -m handrank`) under sh, redirections included."""
    handrank = f"{shlex.quote(sys.executable)} -m handrank"
    return subprocess.run(["sh", "-c", command.replace("handrank", handrank, 1)], input=stdin,
                          capture_output=True, text=True, timeout=120)


def assert_one_line(result: subprocess.CompletedProcess[str], status: int, says: str) -> None:
    assert result.returncode == status, result
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("handrank: ") and says in lines[0], lines


@posix_shell
@pytest.mark.parametrize("command", ["handrank eval", "handrank ofc fantasyland",
                                     "handrank chinese best", "handrank chinese natural"])
def test_closed_stdin_is_one_line(command):
    assert_one_line(shell(f"{command} <&-"), 1, "cannot read <stdin>: standard input is closed")


@posix_shell
def test_closed_stdout_is_one_line():
    assert_one_line(shell(f"handrank eval '{HAND}' >&-"), 1, "standard output is closed")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("options", ["", "--json"])
def test_full_disk_is_one_line_about_the_output(options):
    # with --json the write failure used to be reported as "cannot read the arguments"
    result = shell(f"handrank eval {options} '{HAND}' > /dev/full")
    assert_one_line(result, 1, "cannot write the output: No space left on device")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_full_disk_while_solving_a_file():
    result = shell("handrank ofc fantasyland --file - > /dev/full", stdin=FANTASYLAND + "\n")
    assert_one_line(result, 1, "cannot write the output")


@posix_shell
def test_a_job_too_big_for_memory_is_one_line():
    # the most hands --hands takes, under a 4 GB address space: numpy refuses the arrays at once
    result = shell("ulimit -v 4000000; handrank bench --hands 1_000_000_000 --rounds 1 --no-peers")
    assert_one_line(result, 1, "not enough memory")


@pytest.mark.parametrize("option", ["--hands", "--agree"])
@pytest.mark.parametrize("value", ["1_000_000_001", "99999999999999999999999999"])
def test_a_size_past_its_limit_is_a_usage_error(option, value):
    # 10**26 hands used to end in numpy's "Maximum allowed dimension exceeded" and a traceback
    result = shell(f"handrank bench {option} {value} --rounds 1 --no-peers")
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert result.stderr.splitlines()[-1].startswith(f"handrank bench: error: argument {option}")
    assert "must be at most 1_000_000_000" in result.stderr


def test_a_huge_bad_line_is_cut_in_the_message():
    bad = "x" * 1_000_000
    result = shell("handrank eval", stdin=bad + "\n")
    assert_one_line(result, 1, "line 1 of <stdin>")
    assert len(result.stderr) < 600
    assert "(1,000,000 characters)" in result.stderr


@pytest.mark.parametrize("value", ["-1e308", "-1E3", "-.5e-2", "-3"])
def test_negative_numbers_with_exponents_are_option_values(value):
    result = shell(f"handrank ofc fantasyland --stay-value {value} '{FANTASYLAND}'")
    # either solved, or refused as a value (a usage error naming --stay-value), never taken for
    # an option ("expected one argument")
    assert "expected one argument" not in result.stderr
    assert result.returncode == 0 or (result.returncode == 2 and "--stay-value" in result.stderr)


@posix_shell
def test_a_reader_that_goes_away_is_quiet():
    hands = "\n".join([HAND] * 200_000) + "\n"
    result = shell("handrank eval --json | head -n 1", stdin=hands)
    assert result.returncode == 0
    assert result.stdout.count("\n") == 1
    assert result.stderr == ""
