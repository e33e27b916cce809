"""A stderr that cannot take what the command writes there (closed with `2>&-`, or refusing
writes as /dev/full does) changes nothing else: the results still go whole to stdout, errors and
notes never land among them, and the exit status still says what happened. These run the real
command in a child process, because the failures are about the process's own streams."""
import os
import shlex
import subprocess
import sys
import textwrap

import pytest

from handrank.cli import _common

from test_cli_failures import FANTASYLAND, shell

posix_shell = pytest.mark.skipif(os.name != "posix", reason="needs a POSIX shell")
dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
CHINESE = "2c 3d 5h 7s 9c Jd Kh As 3c 8d Th Qs 4h"

# (command, its standard input) of every subcommand with --progress
PROGRESS = [
    ("handrank equity AsKs random random --samples 20000 --seed 1 --threads 1", None),
    ("handrank chinese best --file - -t 1", CHINESE + "\n"),
    ("handrank ofc fantasyland --file - -t 1", FANTASYLAND + "\n"),
    ("handrank ehs 'As Ks' 'Jh Th 2c 7d 3s'", None),    # its bar is the build's (--build: minutes)
]


def test_every_progress_option_is_covered():
    import argparse

    from handrank.cli import build_parser

    def progress_commands(parser, prefix):
        for action in parser._actions:
            if "--progress" in action.option_strings:
                yield prefix
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from progress_commands(sub, f"{prefix} {name}")

    found = set(progress_commands(build_parser(), "handrank"))
    assert found == {" ".join(command.split()[:2 if command.split()[1] in ("equity", "ehs") else 3])
                     for command, _ in PROGRESS}


@posix_shell
@pytest.mark.parametrize(("command", "stdin"), PROGRESS)
@pytest.mark.parametrize("redirect", [pytest.param("2>/dev/full", marks=dev_full), "2>&-"])
def test_a_progress_bar_that_cannot_be_drawn_stops_nothing(command, stdin, redirect):
    pytest.importorskip("tqdm")
    expected = shell(f"{command} --no-progress", stdin=stdin)
    assert expected.returncode == 0 and expected.stdout
    result = shell(f"{command} --progress {redirect}", stdin=stdin)
    assert (result.returncode, result.stdout) == (0, expected.stdout), result


class Refusing:
    """A stream that refuses every write, as /dev/full does."""

    def write(self, text):
        raise OSError(28, "No space left on device")

    def flush(self):
        raise OSError(28, "No space left on device")

    def isatty(self):
        return True


@pytest.mark.parametrize("stream", [None, Refusing()])
def test_the_progress_bar_turns_itself_off(monkeypatch, capsys, stream):
    # in-process, under the shared helper: a bar that cannot be made or moved is no bar
    pytest.importorskip("tqdm")
    monkeypatch.setattr(sys, "stderr", stream)
    with _common.progress_bar(3, True) as bar:
        bar.update(1)
        bar.reached(2, 3)
        with bar.writing():
            print("result")
        bar.update(1)
    assert bar.bar is None
    assert capsys.readouterr().out == "result\n"


@posix_shell
@pytest.mark.parametrize(("argv", "status"), [
    ("eval 'As Kx'", 1),                                    # an error
    ("eval --game nothing 'As Ks Qs'", 2),                  # argparse's usage error
    ("chinese score 'As Ks Qs / 2c 3c 4c 5c 6c / 7d 8d 9d Td Jd'", 2),    # the command's own
    ("bigtwo play --seed -1", 2),
])
def test_errors_with_stderr_closed_never_reach_stdout(argv, status):
    result = shell(f"handrank {argv} 2>&-")
    assert (result.returncode, result.stdout) == (status, ""), result


@posix_shell
@dev_full
def test_errors_on_a_full_stderr_keep_the_exit_status():
    result = shell("handrank eval 'As Kx' 'As Ks Qs Js Ts' 2>/dev/full")
    assert result.returncode == 1 and "Straight flush" in result.stdout
    assert "Traceback" not in result.stdout


@posix_shell
def test_the_tqdm_note_with_stderr_closed_never_reaches_stdout():
    # without tqdm, --progress prints a note on stderr; with stderr closed it used to be printed
    # on stdout, among the results
    script = textwrap.dedent(f"""
        import sys
        sys.modules["tqdm"] = None
        from handrank.cli import main
        sys.exit(main(["chinese", "best", "--file", "-", "--progress"]))
    """)
    result = subprocess.run(["sh", "-c", f"{shlex.quote(sys.executable)} -c {shlex.quote(script)} 2>&-"],
                            input=CHINESE + "\n", capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result
    assert result.stdout.startswith(CHINESE + ": ") and "tqdm" not in result.stdout
