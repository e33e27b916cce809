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

import sys
from typing import TYPE_CHECKING

from handrank.cli._common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, PROG

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    Run = Callable[[argparse.Namespace], int]

__all__ = ["main", "build_parser", "SUBCOMMANDS", "EXIT_OK", "EXIT_FAILED", "EXIT_USAGE"]

# The subcommands (modules of this package, named as typed), in --help order.
SUBCOMMANDS = ("eval", "bench", "bigtwo", "ofc", "chinese")


def main(argv: list[str] | None = None) -> int:
    """Run the command line `argv` (default: sys.argv[1:]) and return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:        # --help, --version, usage errors
        return EXIT_OK if stop.code is None else stop.code if isinstance(stop.code, int) else EXIT_USAGE
    run: Run = args.run
    try:
        return run(args)
    except BrokenPipeError:           # `handrank eval ... | head`: the reader has gone
        _silence_stdout()
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130


def build_parser() -> argparse.ArgumentParser:
    import argparse
    import importlib

    from handrank import __version__

    parser = argparse.ArgumentParser(
        prog=PROG, description="Fast poker hand evaluators: high, 3-card, 2-7 and A-5 lowball.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(title="subcommands", metavar="COMMAND", required=True)
    for name in SUBCOMMANDS:
        module = importlib.import_module(f"handrank.cli.{name}")
        sub = commands.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def _silence_stdout() -> None:
    import os
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):     # pragma: no cover - stdout is not a real file
        pass
