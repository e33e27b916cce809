"""The `handrank` command (also `python -m handrank`).

Each subcommand is two functions: one adds its arguments to its parser, one runs it and returns
the exit status; `subcommand` registers the pair. Exit status: 0 success, 1 a hand or an input
failed (the error is on stderr), 2 a usage error. argparse, json and the benchmark are imported
only when main runs, so importing this module costs nothing beyond `import handrank`.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import argparse

    AddArguments = Callable[[argparse.ArgumentParser], None]
    Run = Callable[[argparse.Namespace], int]
    Hands = Iterable[tuple[str, str]]     # (where, text) of each hand of an input

T = TypeVar("T")

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

PROG = "handrank"

# name -> (help line, add_arguments(parser), run(args) -> exit status), in --help order
SUBCOMMANDS: dict[str, tuple[str, AddArguments, Run]] = {}


def subcommand(name: str, help: str, add_arguments: AddArguments) -> Callable[[Run], Run]:
    """Register the decorated `run(args) -> int` as subcommand `name`."""
    def register(run: Run) -> Run:
        SUBCOMMANDS[name] = (help, add_arguments, run)
        return run
    return register


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

    from handrank import __version__

    parser = argparse.ArgumentParser(
        prog=PROG, description="Fast poker hand evaluators: high, 3-card, 2-7 and A-5 lowball.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(title="subcommands", metavar="COMMAND", required=True)
    for name, (help, add_arguments, run) in SUBCOMMANDS.items():
        sub = commands.add_parser(name, help=help, description=help)
        add_arguments(sub)
        sub.set_defaults(run=run)
    return parser


def _error(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)


def _silence_stdout() -> None:
    import os
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):     # pragma: no cover - stdout is not a real file
        pass


# ----------------------------------------------------------------------------- eval
GAMES = ("high", "high3", "low27", "lowa5")
STDIN = "<stdin>"                     # stdin's name in messages


def _eval_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "hands", nargs="*", metavar="HAND",
        help="a hand such as 'As Ks Qs Js Ts' or AsKsQsJsTs; cards given as separate arguments "
             "(As Ks Qs Js Ts) make one hand; '-' or no HAND reads stdin, one hand per line")
    parser.add_argument("--game", choices=GAMES,
                        help="the evaluator (default: high for 5-7 cards, high3 for 3 cards)")
    parser.add_argument("--file", "-f", action="append", default=[], metavar="F",
                        help="read hands from F, one per line; blank lines and # comments are "
                             "skipped (may be repeated; '-' is stdin)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per line instead of a table (hand, game, value, "
                             "category as the Category name, description)")


@subcommand("eval", "value, category and description of poker hands", _eval_arguments)
def _eval(args: argparse.Namespace) -> int:
    import json

    status = EXIT_OK
    rows: list[dict[str, Any]] = []
    for name, hands in _hand_inputs(args.hands, args.file):
        try:                          # one input that cannot be read fails alone
            for where, text in hands:
                try:
                    row = _evaluate(text, args.game)
                except (ValueError, TypeError) as exc:
                    _error(f"{where}: {text!r}: {exc}")
                    status = EXIT_FAILED
                    continue
                if args.json:
                    print(json.dumps({**row, "category": row["category"].name}, ensure_ascii=False))
                else:
                    rows.append(row)
        except BrokenPipeError:
            raise
        except OSError as exc:        # a file that cannot be opened or read
            _error(f"cannot read {name}: {exc.strerror or exc}")
            status = EXIT_FAILED
    if rows:
        print(_table(rows))
    return status


def _hand_inputs(hands: list[str], files: list[str]) -> Iterator[tuple[str, Hands]]:
    """(name, hands) of every input: the arguments, then the files; stdin when there is neither.
    A file is opened only when its hands are read."""
    if not hands and not files:
        hands = ["-"]
    if len(hands) > 1 and all(_is_one_card(h) for h in hands):
        yield "the arguments", [("hand", " ".join(hands))]
    else:
        for i, text in enumerate(hands, 1):
            if text == "-":
                yield STDIN, _lines_of("-")
            else:
                yield "the arguments", [(f"hand {i}", text)]
    for path in files:
        yield STDIN if path == "-" else path, _lines_of(path)


def _lines_of(path: str) -> Iterator[tuple[str, str]]:
    """(where, text) for every hand of a file, '-' being stdin. Both are read as UTF-8 with an
    optional byte-order mark, and a bad byte fails only its line (as U+FFFD), not the input."""
    if path != "-":
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            yield from _hand_lines(f, path)
        return
    if sys.stdin.isatty():
        print("reading hands from stdin, one per line (end with Ctrl-D)", file=sys.stderr)
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:                   # already text (a StringIO standing in for stdin)
        yield from _hand_lines(sys.stdin, STDIN)
        return
    import io
    text = io.TextIOWrapper(raw, encoding="utf-8-sig", errors="replace")
    try:
        yield from _hand_lines(text, STDIN)
    finally:
        text.detach()                 # leave sys.stdin's buffer open: '-' may come again


def _read_hand_files(files: list[str], parse: Callable[[str], T], what: str) -> tuple[list[T], int]:
    """Every hand of the files (stdin for none) read by `parse`, and the exit status: a line that
    does not parse, or a file that cannot be read, is reported at once and fails alone."""
    status = EXIT_OK
    hands: list[T] = []
    for path in files or ["-"]:
        try:
            for where, text in _lines_of(path):
                try:
                    hands.append(parse(text))
                except ValueError as exc:
                    _error(f"{what}: {where}: {text!r}: {exc}")
                    status = EXIT_FAILED
        except BrokenPipeError:
            raise
        except OSError as exc:
            _error(f"cannot read {STDIN if path == '-' else path}: {exc.strerror or exc}")
            status = EXIT_FAILED
    return hands, status


def _hand_lines(lines: Iterable[str], name: str) -> Iterator[tuple[str, str]]:
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if text:
            yield f"line {number} of {name}", text


def _is_one_card(text: str) -> bool:
    from handrank.cards import cards
    try:
        return len(cards(text)) == 1
    except ValueError:
        return False


def _evaluate(text: str, game: str | None) -> dict[str, Any]:
    """The record of one hand; ValueError naming the problem for a bad one."""
    import handrank
    from handrank.cards import cards, hand_str

    ids = cards(text)
    if game is None:
        if len(ids) == 3:
            game = "high3"
        elif 5 <= len(ids) <= 7:
            game = "high"
        else:
            raise ValueError(f"a hand has 3 cards (high3) or 5 to 7 (high), got {len(ids)}")
    module = getattr(handrank, game)
    value = module.evaluate(ids)
    return {"hand": hand_str(ids), "game": game, "value": value, "category": module.category(value),
            "description": module.describe(value)}


def _table(rows: list[dict[str, Any]]) -> str:
    header = ("hand", "game", "value", "category", "description")
    cells = [(r["hand"], r["game"], str(r["value"]), str(r["category"]), r["description"])
             for r in rows]
    widths = [max(len(row[i]) for row in [header, *cells]) for i in range(len(header) - 1)]
    lines = []
    for row in [header, *cells]:
        hand, game, value, category, description = row
        lines.append(f"{hand:<{widths[0]}}  {game:<{widths[1]}}  {value:>{widths[2]}}  "
                     f"{category:<{widths[3]}}  {description}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- bench
def _positive_int(text: str) -> int:
    return _int_at_least(text, 1)


def _non_negative_int(text: str) -> int:
    return _int_at_least(text, 0)


def _int_at_least(text: str, minimum: int) -> int:
    """An integer option's value (`_` allowed, as in 1_000_000); a usage error below `minimum`."""
    import argparse
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
    return value


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    from handrank import bench

    parser.add_argument("--hands", "-n", type=_positive_int, default=bench.DEFAULT_HANDS, metavar="N",
                        help=f"random hands per workload (default {bench.DEFAULT_HANDS:_}; the "
                             f"scalar workload uses N // {bench.SCALAR_FRACTION})")
    parser.add_argument("--rounds", "-r", type=_positive_int, default=bench.DEFAULT_ROUNDS,
                        metavar="R", help="interleaved rounds; the median is reported "
                                          f"(default {bench.DEFAULT_ROUNDS})")
    parser.add_argument("--threads", "-t", type=_positive_int, default=None, metavar="T",
                        help="threads of the multi-threaded workloads (default: every core)")
    parser.add_argument("--seed", type=_non_negative_int, default=bench.DEFAULT_SEED,
                        help="seed of the random hands (default %(default)s)")
    parser.add_argument("--json", action="store_true", help="the results as one JSON document")
    parser.add_argument("--agree", type=_non_negative_int, default=bench.DEFAULT_AGREEMENT_HANDS,
                        metavar="N",
                        help="random hands per agreement check of each peer, 0 to skip the checks "
                             f"(default {bench.DEFAULT_AGREEMENT_HANDS:_})")
    parser.add_argument("--no-peers", action="store_true",
                        help="measure handrank alone, even when peer evaluators are installed")
    parser.add_argument("--plot", type=_plot_file, metavar="FILE", default=None,
                        help="also draw a bar chart of hands/s to FILE, in the format its "
                             "extension names (png, svg, pdf, ...; needs matplotlib: "
                             "pip install 'handrank[plot]')")


def _plot_file(path: str) -> str:
    """--plot's file, checked before the minute of measuring rather than after it: its folder
    exists and its extension names a format matplotlib writes (when matplotlib is missing, the
    run says so)."""
    import argparse
    import os

    from handrank import bench

    folder = os.path.dirname(path)
    if folder and not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"no folder {folder!r} to write {path!r} in")
    try:
        formats = bench.plot_formats()
    except ImportError:
        return path
    if os.path.splitext(path)[1][1:].lower() not in formats:
        raise argparse.ArgumentTypeError(
            f"cannot draw {path!r}: its extension names the format, one of {', '.join(formats)}")
    return path


@subcommand("bench", "throughput of every evaluator, and of peer evaluators, against a numpy gather",
            _bench_arguments)
def _bench(args: argparse.Namespace) -> int:
    from handrank import __version__, bench, peers
    from handrank._batch import cpu_count

    if args.plot is not None:
        try:
            import importlib
            importlib.import_module("matplotlib")   # fail before the minute of measuring, not after
        except ImportError:
            print(f"{PROG} bench: --plot needs matplotlib: pip install 'handrank[plot]'", file=sys.stderr)
            return EXIT_FAILED
    threads = args.threads or cpu_count()
    loaded, missing = ({}, []) if args.no_peers else peers.available()
    versions = {p.name: p.version() for p in peers.PEERS if p.name in loaded}
    results = bench.run(args.hands, args.rounds, threads, args.seed, loaded)
    checks = bench.agreement(loaded, args.agree, args.seed) if args.agree else []
    status, chart = EXIT_OK, None
    if args.plot is not None:
        try:
            bench.plot(results, args.plot, f"{PROG} {__version__} bench")
            chart = args.plot
        except OSError as exc:        # the measures are still printed: they took a while
            _error(f"cannot write {args.plot}: {exc.strerror or exc}")
            status = EXIT_FAILED
    if args.json:
        import json
        print(json.dumps({"version": __version__, "hands": args.hands, "rounds": args.rounds,
                          "threads": threads, "seed": args.seed, "reference": bench.REFERENCE,
                          "peers": versions, "not_installed": missing,
                          "results": [r.as_dict() for r in results],
                          "agreement": [c.as_dict() for c in checks]}, indent=2))
        return status
    rounds = f"{args.rounds} round{'s' if args.rounds > 1 else ''}"
    print(f"{PROG} {__version__} bench: {args.hands:,} random hands per workload, median of "
          f"{rounds}, up to {threads} thread{'s' if threads > 1 else ''}")
    if args.no_peers:
        print("peers: not measured (--no-peers)")
    elif not loaded:
        print(f"peers: none installed ({', '.join(missing)}): measuring handrank alone; "
              "pip install 'handrank[bench]' to compare")
    else:
        print("peers: " + ", ".join(f"{name} {version}" for name, version in versions.items())
              + (f"; not installed: {', '.join(missing)}" if missing else ""))
    print(bench.format_table(results))
    print(f"vs gather: speed relative to {bench.REFERENCE} in the same run (higher is faster)")
    print("vs handrank: speed relative to handrank's one-thread batch on the same kind of hands, "
          "same round; peers evaluate fewer hands, one call each (~"
          f"{bench.PEER_SECONDS:g} s per round)")
    if checks:
        print(f"\nagreement with handrank (same hands, orderings compared; 5-card checks include "
              f"{len(bench.EDGE_HANDS)} straights and near-straights, A-2-3-4-5 among them):")
        print(bench.format_agreement(checks, versions))
    if chart is not None:
        print(f"\nchart: {chart}")
    return status


# ----------------------------------------------------------------------------- bigtwo
def _bigtwo_arguments(parser: argparse.ArgumentParser) -> None:
    from handrank.bigtwo import Rules

    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True, dest="action")
    presets = Rules.presets()
    classify = actions.add_parser("classify", help="the combo and key of each play",
                                  description="the combo and key of each play")
    classify.add_argument("plays", nargs="+", metavar="PLAY", help="a play such as '3d 4c 5h 6s 7d'")
    moves = actions.add_parser("moves", help="every legal move of a hand",
                               description="every legal move of a hand (weakest first)")
    moves.add_argument("hand", nargs="+", metavar="HAND", help="the hand, e.g. '3d 3c 4s 5h ...'")
    moves.add_argument("--beat", metavar="PLAY", help="the combo to beat (default: leading)")
    moves.add_argument("--must", metavar="CARD", help="a card every move must hold (e.g. 3d)")
    play = actions.add_parser("play", help="play a seeded random game and print it",
                              description="play a seeded game between random players and print it")
    play.add_argument("--seed", type=int, default=0, help="seed of the deal and the players (default 0)")
    play.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    play.add_argument("--deal", choices=("thirteen", "all"), default="thirteen",
                      help="with 2 or 3 players: 13 cards each, or the whole deck")
    for sub in (classify, moves, play):
        sub.add_argument("--rules", choices=presets, default="hk", help="the ruleset (default hk)")


@subcommand("bigtwo", "Big Two: classify plays, list legal moves, play a random game", _bigtwo_arguments)
def _bigtwo(args: argparse.Namespace) -> int:
    from handrank import bigtwo

    try:
        if args.action == "classify":
            for text in args.plays:
                combo = bigtwo.classify(text, args.rules)
                print(f"{text}: {'no combo' if combo is None else f'{combo} (key {combo.key})'}")
        elif args.action == "moves":
            found = bigtwo.legal_moves(" ".join(args.hand), args.beat, args.rules, args.must)
            for combo in found:
                print(f"{combo.key:>10}  {combo}")
            print(f"{len(found)} legal move{'s' if len(found) != 1 else ''}")
        else:
            _bigtwo_random_game(args.seed, args.players, args.deal, args.rules)
    except ValueError as exc:
        _error(f"bigtwo {args.action}: {exc}")
        return EXIT_FAILED
    return EXIT_OK


def _bigtwo_random_game(seed: int, players: int, deal: str, rules: str) -> None:
    import random

    from handrank import bigtwo
    from handrank.cards import hand_str

    game = bigtwo.Game(players, rules, seed=seed, deal=deal)
    chooser = random.Random(seed)
    for player in range(players):
        print(f"player {player}: {hand_str(game.hand(player))}")
    while not game.over:
        player, moves = game.turn, game.legal_moves()
        if game.can_pass and (not moves or chooser.random() < 0.25):
            game.pass_()
            print(f"player {player}: pass")
        else:
            combo = game.play(chooser.choice(moves))
            print(f"player {player}: {combo}")
    print(f"player {game.winner} wins; payments {game.payments()}")


# ----------------------------------------------------------------------------- ofc
# The arguments and the runner live in handrank._ofc_cli, imported only when this subcommand is
# built or run (it brings the solver's output code and, for --file, tqdm).
def _ofc_arguments(parser: argparse.ArgumentParser) -> None:
    from handrank import _ofc_cli
    _ofc_cli.add_arguments(parser)


@subcommand("ofc", "Open-Face Chinese poker: score boards, royalties and fouls, solve Fantasyland",
            _ofc_arguments)
def _ofc(args: argparse.Namespace) -> int:
    from handrank import _ofc_cli
    return _ofc_cli.run(args)


# ----------------------------------------------------------------------------- chinese
# The arguments and the runner live in handrank._chinese_cli, imported only when this subcommand
# is built or run (it brings the setting code and, for --file, tqdm).
def _chinese_arguments(parser: argparse.ArgumentParser) -> None:
    from handrank import _chinese_cli
    _chinese_cli.add_arguments(parser)


@subcommand("chinese", "Chinese poker: the best setting of 13 cards, naturals, score a table",
            _chinese_arguments)
def _chinese(args: argparse.Namespace) -> int:
    from handrank import _chinese_cli
    return _chinese_cli.run(args)
