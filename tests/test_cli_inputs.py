"""Bad input on the command line: every subcommand quotes it cut to 80 characters (docs/cli.md),
whoever words the message (the command, the library or argparse), and every --seed is 0 or more,
a usage error below (exit 2), as every other integer option's bound is."""
import argparse
import importlib.util
import sys

import pytest

from handrank.cards import SHOWN_CHARACTERS
from handrank.cli import EXIT_FAILED, EXIT_USAGE, build_parser, main
from handrank.cli._common import cut_inputs

LONG = "A" * 5000                         # one word
SPACED = " ".join(["As"] * 2000)          # a text with spaces, quoted whole by the library

# (argv, exit status): every place a subcommand takes text from the user
BAD_INPUTS = [
    (["eval", LONG], EXIT_FAILED),
    (["eval", SPACED], EXIT_FAILED),
    (["eval", "--game", LONG, "As Ks Qs"], EXIT_USAGE),
    (["bench", "--hands", LONG], EXIT_USAGE),
    # the format is read from the extension with matplotlib (the plot extra); without it the run
    # stops on the missing extra instead (test_plot_without_matplotlib)
    pytest.param(["bench", "--plot", "x." + LONG], EXIT_USAGE, marks=pytest.mark.skipif(
        importlib.util.find_spec("matplotlib") is None, reason="needs matplotlib (the plot extra)")),
    (["bigtwo", "classify", LONG], EXIT_FAILED),
    (["bigtwo", "moves", "3d", "--beat", LONG], EXIT_FAILED),
    (["bigtwo", "moves", "3d", "--must", LONG], EXIT_FAILED),
    (["bigtwo", "play", "--seed", LONG], EXIT_USAGE),
    (["ofc", "board", SPACED], EXIT_FAILED),
    (["ofc", "score", SPACED, "x"], EXIT_FAILED),
    (["ofc", "advise", SPACED, "--dealt", "As Ks Qs"], EXIT_FAILED),
    (["ofc", "advise", "", "--dealt", "As Ks Qs", "--opponent", LONG], EXIT_FAILED),
    (["ofc", "fantasyland", "--stay-value", LONG, "x"], EXIT_USAGE),
    (["ofc", "board", "--rules", LONG, "x"], EXIT_USAGE),
    (["chinese", "best", SPACED], EXIT_FAILED),
    (["chinese", "score", SPACED, "x"], EXIT_FAILED),
    (["chinese", "score", "--surrendered", LONG, "a", "b"], EXIT_USAGE),
    (["chinese", "natural", SPACED], EXIT_FAILED),
    (["chinese", "best", "--natural", LONG + "=3", "x"], EXIT_USAGE),
]


@pytest.mark.parametrize(("argv", "status"), BAD_INPUTS, ids=lambda v: " ".join(v)[:40] if isinstance(v, list) else None)
def test_bad_input_is_quoted_cut(capsys, argv, status):
    assert main(argv) == status
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(("handrank", "usage: handrank"))
    # before the fix, the library's and argparse's messages quoted all 5,000 characters
    assert "A" * (SHOWN_CHARACTERS + 1) not in err and "As " * 28 not in err
    assert len(err) < 2000, err
    assert "5,000 characters" in err or "5,999 characters" in err or "5,002 characters" in err


def test_plot_without_matplotlib(capsys, monkeypatch):
    for name in ("matplotlib", "matplotlib.figure"):             # importing them now fails
        monkeypatch.setitem(sys.modules, name, None)
    assert main(["bench", "--plot", "x." + LONG, "--hands", "1000"]) == EXIT_FAILED
    out, err = capsys.readouterr()
    assert out == "" and "--plot needs matplotlib: pip install 'handrank[plot]'" in err


def test_cut_inputs():
    assert cut_inputs("short 'x'") == "short 'x'"
    text = "y" * 100
    assert cut_inputs(f"bad {text!r}: why") == f"bad {'y' * 80!r}... (100 characters): why"
    quoted = "it's " + "z" * 90                # repr quotes it with double quotes
    assert cut_inputs(f"bad {quoted!r}.") == f"bad {quoted[:80]!r}... (95 characters)."
    assert cut_inputs("bad " + text) == f"bad {'y' * 80}... (100 characters)"
    # a quoted text already cut, and the prose around it, stay as they are
    already = f"line 1: {'w' * 80!r}... (300 characters): the player's hand: 'As Ks'"
    assert cut_inputs(already) == already


def seed_options(parser, prefix=()):
    """(subcommand path, action) of every --seed of the command."""
    for action in parser._actions:
        if "--seed" in action.option_strings:
            yield " ".join(prefix), action
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from seed_options(sub, (*prefix, name))


def test_every_seed_is_zero_or_more():
    found = dict(seed_options(build_parser()))
    assert {"bench", "equity", "bigtwo play", "ofc advise"} <= set(found)
    for where, action in found.items():
        assert action.type("0") == 0 and action.type("12") == 12, where
        with pytest.raises(argparse.ArgumentTypeError, match="at least 0"):
            action.type("-1")


def test_bigtwo_play_with_a_negative_seed_is_a_usage_error(capsys):
    # it used to fail in numpy ("expected non-negative integer"), exit 1
    assert main(["bigtwo", "play", "--seed", "-1"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and "argument --seed: must be at least 0, got -1" in err
    assert main(["bigtwo", "play", "--seed", "3"]) == 0
