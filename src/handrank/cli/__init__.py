"""The `handrank` command (also `python -m handrank`).

Each subcommand is a module of this package that defines exactly three names:

- ``HELP: str``: its one-line help (also its description);
- ``add_arguments(parser: argparse.ArgumentParser) -> None``: adds its arguments;
- ``run(args: argparse.Namespace) -> int``: runs it and returns the exit status.

`SUBCOMMANDS` lists the module names in --help order; a new subcommand is a new module and its
name added there. A subcommand imports what it shares with others from ``handrank.cli._common``
(exit codes, error output, hand readers, tables, the progress bar), never another subcommand and
never this module. Exit status: 0 success, 1 a hand or an input failed (the error is on stderr),
2 a usage error.

The subcommand modules, argparse, json and the benchmark are imported only when `main` runs (or
`build_parser`), so importing this module costs nothing beyond `import handrank` (and the small
_common module, standard library only).
"""
from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from handrank.cli._common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, PROG, cut_inputs, error

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    Run = Callable[[argparse.Namespace], int]

__all__ = ["main", "build_parser", "SUBCOMMANDS", "EXIT_OK", "EXIT_FAILED", "EXIT_USAGE"]

NEGATIVE_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")

# The subcommands (modules of this package, named as typed), in --help order.
SUBCOMMANDS = ("eval", "bench", "equity", "bigtwo", "ofc", "chinese", "iso", "ehs", "solve")


def main(argv: list[str] | None = None) -> int:
    """Run the command line `argv` (default: sys.argv[1:]) and return the exit status."""
    stderr = sys.stderr
    sys.stderr = _Diagnostics(stderr)     # (TextIO's methods, and no more, are what it needs)
    try:
        return _main(argv)
    finally:
        sys.stderr = stderr


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:        # --help, --version, usage errors
        return EXIT_OK if stop.code is None else stop.code if isinstance(stop.code, int) else EXIT_USAGE
    run: Run = args.run
    if sys.stdout is None:            # started with stdout closed (`>&-`)
        error("standard output is closed")
        return EXIT_FAILED
    stdout = sys.stdout
    sys.stdout = _Output(stdout)
    try:
        status = run(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:           # `handrank eval ... | head`: the reader has gone
        _silence_stdout(stdout)
        return EXIT_FAILED
    except _OutputFailed as exc:      # a full disk, a device that refuses writes
        error(f"cannot write the output: {exc}")
        _silence_stdout(stdout)
        return EXIT_FAILED
    except MemoryError as exc:        # e.g. `bench --hands 10**9` on a small machine
        error(f"not enough memory: {exc}" if str(exc) else "not enough memory")
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130
    finally:
        sys.stdout = stdout


def build_parser() -> argparse.ArgumentParser:
    """The parser of the `handrank` command, with `--version` and every subcommand of
    `SUBCOMMANDS` (each module imported here, when the parser is built)."""
    import argparse
    import importlib

    from handrank import __version__

    class Parser(argparse.ArgumentParser):
        """Before Python 3.13 argparse took `-1e308` for an option, so `--stay-value -1e308` was
        a usage error; here a word that reads as a negative number, exponent included, is a
        value. Subparsers are made of the parent's class, so every level reads them so."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._negative_number_matcher = NEGATIVE_NUMBER

        def error(self, message: str) -> NoReturn:
            # argparse quotes a bad value whole ("invalid choice: '<1 MB>'"): cut it, as every
            # error of the command is
            super().error(cut_inputs(message))

    parser = Parser(
        prog=PROG, description="Fast, verified poker hand evaluators and the games built on them.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(title="subcommands", metavar="COMMAND", required=True)
    for name in SUBCOMMANDS:
        module = importlib.import_module(f"handrank.cli.{name}")
        sub = commands.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


class _OutputFailed(Exception):
    """Standard output refused a write for a reason other than a closed pipe."""


class _Output:
    """sys.stdout while a subcommand runs: a write that fails (a full disk) raises _OutputFailed,
    so that it is never mistaken for an input that cannot be read, and `main` reports it in one
    line. A closed pipe still raises BrokenPipeError."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _OutputFailed(exc.strerror or str(exc)) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _OutputFailed(exc.strerror or str(exc)) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Diagnostics:
    """sys.stderr while the command runs: errors, notes and the progress bar go to stderr or
    nowhere, never to stdout among the results. Closed (`2>&-`, sys.stderr None: print(...,
    file=None) would write to stdout) or refusing writes (`2>/dev/full`), stderr drops what it
    is given, and the exit status still says what happened."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            try:
                self._stream.write(text)
            except (OSError, ValueError):     # full, gone, or closed
                self._drop()
        return len(text)

    def flush(self) -> None:
        if self._stream is not None:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self._drop()

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def _drop(self) -> None:
        """Nothing more goes to a stderr that refused a write, and what it still buffers is
        discarded, so that the interpreter's last flush cannot fail again at exit."""
        stream, self._stream = self._stream, None
        assert stream is not None
        _silence_stdout(stream)

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def _silence_stdout(stdout: TextIO) -> None:
    """Point stdout's file (or stderr's, for _Diagnostics) at the null device, so that the
    interpreter's last flush of what is still buffered cannot fail again (and print a traceback)
    at exit."""
    import os
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
    except (OSError, ValueError, AttributeError):     # stdout is not a real file
        pass
