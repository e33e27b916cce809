"""What several subcommands share: exit codes and error output, readers of hand arguments and hand
files (stdin included), integer options, the --file/--threads/--progress and --rules/--json
options of the game subcommands, their aligned tables and per-hand tables, batches of hands and
the optional tqdm progress bar.

Only the standard library and handrank.cards load with this module (json and argparse when a
function needs them, tqdm when a bar is shown), so that every subcommand can import it freely.
"""
from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TypeVar

from handrank.cards import SHOWN_CHARACTERS, card_str, shown

if TYPE_CHECKING:
    import argparse

    from handrank._threerow.board import Board

PROG = "handrank"
STDIN = "<stdin>"                     # stdin's name in messages

# Exit status of every subcommand: success, a hand or an input failed (the error is on stderr),
# a usage error.
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

ROWS = ("top", "middle", "bottom")
ROW_SLICES = ((0, 3), (3, 8), (8, 13))       # the rows in a board's 13 cards

T = TypeVar("T")
Hands = Iterable[tuple[str, str]]     # (where, text) of each hand of an input


# What an error message quotes from the input: a text as repr writes it (either quote), or else a
# run of characters without a space; `cut_inputs` cuts the long ones.
_INPUT = re.compile(r"'[^'\\\n]*(?:\\.[^'\\\n]*)*'" "|" r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"' "|" r"\S+")


# ----------------------------------------------------------------------------- errors and inputs
def error(message: str) -> None:
    """One line on stderr, the input it quotes cut (`cut_inputs`). With stderr closed (`2>&-`)
    the line is dropped: it must never land among the results on stdout."""
    if sys.stderr is not None:
        print(f"{PROG}: {cut_inputs(message)}", file=sys.stderr)


def cut_inputs(message: str) -> str:
    """`message` with every quoted text, and every run of characters without a space, longer
    than SHOWN_CHARACTERS cut as `cards.shown` cuts it (its first characters, then its length):
    messages from the library and argparse quote the whole input, and a 10 MB argument must not
    come back as 10 MB of message."""
    if len(message) <= SHOWN_CHARACTERS:
        return message
    return _INPUT.sub(_cut_input, message)


def _cut_input(match: re.Match[str]) -> str:
    text = match[0]
    if len(text) <= SHOWN_CHARACTERS + 2:
        return text
    if text[0] in "'\"" and text[-1] == text[0]:
        import ast
        try:
            return shown(ast.literal_eval(text))
        except (ValueError, SyntaxError):      # quotes, but not a repr: cut it as it stands
            pass
    return f"{text[:SHOWN_CHARACTERS]}... ({len(text):,} characters)"


def lines_of(path: str) -> Iterator[tuple[str, str]]:
    """(where, text) for every hand of a file, '-' being stdin. Both are read as UTF-8 with an
    optional byte-order mark, and a bad byte fails only its line (as U+FFFD), not the input."""
    if path != "-":
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            yield from hand_lines(f, path)
        return
    if sys.stdin is None:             # started with stdin closed (`<&-`)
        raise OSError("standard input is closed")
    if sys.stdin.isatty():
        print("reading hands from stdin, one per line (end with Ctrl-D)", file=sys.stderr)
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:                   # already text (a StringIO standing in for stdin)
        yield from hand_lines(sys.stdin, STDIN)
        return
    import io
    text = io.TextIOWrapper(raw, encoding="utf-8-sig", errors="replace")
    try:
        yield from hand_lines(text, STDIN)
    finally:
        text.detach()                 # leave sys.stdin's buffer open: '-' may come again


def read_hand_files(files: list[str], parse: Callable[[str], T], what: str) -> tuple[list[T], int]:
    """Every hand of the files (stdin for none) read by `parse`, and the exit status: a line that
    does not parse, or a file that cannot be read, is reported at once and fails alone."""
    status = EXIT_OK
    hands: list[T] = []
    for path in files or ["-"]:
        try:
            for where, text in lines_of(path):
                try:
                    hands.append(parse(text))
                except ValueError as exc:
                    error(f"{what}: {where}: {shown(text)}: {exc}")
                    status = EXIT_FAILED
        except BrokenPipeError:
            raise
        except OSError as exc:
            error(f"cannot read {STDIN if path == '-' else path}: {exc.strerror or exc}")
            status = EXIT_FAILED
    return hands, status


def hand_lines(lines: Iterable[str], name: str) -> Iterator[tuple[str, str]]:
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if text:
            yield f"line {number} of {name}", text


def is_one_card(text: str) -> bool:
    from handrank.cards import cards
    try:
        return len(cards(text)) == 1
    except ValueError:
        return False


def positive_int(text: str) -> int:
    return int_at_least(text, 1)


def non_negative_int(text: str) -> int:
    return int_at_least(text, 0)


def int_at_least(text: str, minimum: int, maximum: int | None = None) -> int:
    """An integer option's value (`_` allowed, as in 1_000_000); a usage error below `minimum`
    or above `maximum`."""
    import argparse
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise argparse.ArgumentTypeError(f"must be at most {maximum:_}, got {value:_}")
    return value


# ----------------------------------------------------------------------------- game subcommands
def add_file_arguments(parser: argparse.ArgumentParser, what: str, solver: bool) -> None:
    """--file (what it does with the hands of F); for a solver also --threads and --progress."""
    import argparse

    parser.add_argument("--file", "-f", action="append", default=[], metavar="F",
                        help=f"{what} (blank lines and # comments are skipped; may be repeated; "
                             "'-' is stdin)")
    if not solver:
        return
    parser.add_argument("--threads", "-t", type=positive_int, default=None, metavar="T",
                        help="solver threads (default: every core, for enough hands)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show (--progress) or hide (--no-progress) the progress bar of "
                             "--file (needs tqdm: pip install 'handrank[progress]'); default: "
                             "shown when stderr is a terminal")


def add_rules_and_json(actions: Iterable[argparse.ArgumentParser], presets: tuple[str, ...],
                       json_help: dict[str, str]) -> None:
    """--rules (one of `presets`, the first by default) and --json on every action."""
    for sub in actions:
        sub.add_argument("--rules", choices=presets, default=presets[0],
                         help="the ruleset (default %(default)s)")
        sub.add_argument("--json", action="store_true", help=json_help[sub.prog.split()[-1]])
        sub.set_defaults(action_parser=sub)


def usage_error(args: argparse.Namespace, message: str) -> int:
    """What argparse does for a usage error, returned instead of raised."""
    parser = args.action_parser
    if sys.stderr is not None:        # (print_usage(None) would print on stdout)
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: {cut_inputs(message)}", file=sys.stderr)
    return EXIT_USAGE


def parse_table(action: str, noun: str, texts: list[str], parse: Callable[[str], Board]) -> list[Board] | None:
    """The boards (or settings) of a table, or None after reporting the first bad one or a card
    dealt twice; players are numbered from 1."""
    boards = []
    owner: dict[int, int] = {}
    for player, text in enumerate(texts, 1):
        try:
            boards.append(parse(text))
        except ValueError as exc:
            error(f"{action}: {noun} {player}: {shown(text)}: {exc}")
            return None
        for card in boards[-1].cards:
            if card in owner:
                error(f"{action}: card {card_str(card)} is in {noun}s {owner[card]} and {player}: "
                       "the hands of a deal come from one deck")
                return None
            owner[card] = player
    return boards


def rows_table(rows: list[dict[str, Any]], total: int) -> str:
    cells = [("row", "cards", "royalty", "description")]
    cells += [(r["row"], r["cards"], str(r["royalty"]), r["description"]) for r in rows]
    cells.append(("total", "", str(total), ""))
    return columns(cells, right=(2,))


def columns(cells: Sequence[Sequence[str]], right: tuple[int, ...] = ()) -> str:
    """Rows of cells as aligned columns two spaces apart (the last one unpadded)."""
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    lines = []
    for row in cells:
        parts = [cell.rjust(width) if i in right else cell.ljust(width)
                 for i, (cell, width) in enumerate(zip(row, widths))]
        parts[-1] = row[-1].rjust(widths[-1]) if len(row) - 1 in right else row[-1]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


def hand_tables(action: str, texts: list[str], parse: Callable[[str], list[int]],
                solve: Callable[[list[int]], dict[str, Any]], show: Callable[[dict[str, Any]], None],
                json_record: Callable[[dict[str, Any]], dict[str, Any]], as_json: bool) -> int:
    """HAND arguments (a hand's cards given as separate arguments make one hand): each parsed,
    solved and shown as a table (or a JSON line); a bad one is reported and skipped (exit 1)."""
    if len(texts) > 1 and all(is_one_card(t) for t in texts):
        texts = [" ".join(texts)]
    status = EXIT_OK
    printed = 0
    for i, text in enumerate(texts, 1):
        try:
            ids = parse(text)
        except ValueError as exc:
            error(f"{action}: hand {i}: {shown(text)}: {exc}")
            status = EXIT_FAILED
            continue
        result = solve(ids)
        if as_json:
            import json
            print(json.dumps(json_record(result)))
            continue
        if printed:
            print()
        printed += 1
        show(result)
    return status


def chunks(hands: list[list[int]], size: int) -> Iterator[list[list[int]]]:
    """Runs of at most `size` consecutive hands with as many cards (one batch call each)."""
    chunk: list[list[int]] = []
    for hand in hands:
        if chunk and (len(chunk) == size or len(hand) != len(chunk[0])):
            yield chunk
            chunk = []
        chunk.append(hand)
    if chunk:
        yield chunk


class Progress:
    """The progress bar of --file: a tqdm bar on stderr, or none (tqdm ships no types: Any).

    A bar that cannot be drawn (stderr closed, full or gone) must not stop the command, whose
    results still go to stdout: the first failure of any of its writes turns the bar off."""

    def __init__(self, bar: Any = None) -> None:
        self.bar = bar

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self._draw(lambda bar: bar.close())

    def update(self, hands: int) -> None:
        self._draw(lambda bar: bar.update(hands))

    def reached(self, done: int, total: int) -> None:
        """Set the bar to `done` of `total` (for work that reports where it stands, such as
        equity.calculate's progress callback)."""
        def move(bar: Any) -> None:
            bar.total = total
            bar.n = done
            bar.refresh()
        self._draw(move)

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """A context that clears the bar while result lines go to stdout (the same terminal)."""
        mode: AbstractContextManager[None] | None = None
        if self.bar is not None:
            try:
                mode = self.bar.external_write_mode(file=sys.stdout)
                mode.__enter__()
            except (OSError, AttributeError, ValueError):
                self._off()
                mode = None
        try:
            yield
        finally:
            if mode is not None:
                try:
                    mode.__exit__(None, None, None)
                except (OSError, AttributeError, ValueError):
                    self._off()

    def _draw(self, step: Callable[[Any], None]) -> None:
        if self.bar is None:
            return
        try:
            step(self.bar)
        except (OSError, AttributeError, ValueError):   # ENOSPC, a None or closed stream
            self._off()

    def _off(self) -> None:
        bar, self.bar = self.bar, None
        with contextlib.suppress(Exception):     # tqdm's own bookkeeping, without drawing again
            bar.disable = True
            bar.close()


def progress_bar(total: int, wanted: bool | None, unit: str = "hand", desc: str = "solving") -> Progress:
    """A bar over `total` units: with wanted None only when stderr is a terminal (tqdm decides),
    always with True, never with False or without tqdm (a note on stderr if it was asked for),
    nor when it cannot be drawn (stderr closed, or refusing the bar's first write)."""
    if wanted is False or total == 0 or sys.stderr is None:
        return Progress()
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:
        if wanted:
            error("--progress needs tqdm: pip install 'handrank[progress]' (running without a "
                  "progress bar)")
        return Progress()
    try:
        return Progress(tqdm(total=total, unit=unit, desc=desc, file=sys.stderr,
                             disable=None if wanted is None else False, dynamic_ncols=True))
    except (OSError, AttributeError, ValueError):   # the bar draws itself when it is made
        return Progress()
