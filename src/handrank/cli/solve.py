"""`handrank solve`: solve a postflop spot file (board, ranges, pot, stack, sizes) by Discounted
CFR and print the result as one JSON object: the exploitability reached, and the root's
strategy, EVs and equities."""
from __future__ import annotations

from typing import TYPE_CHECKING

from handrank.cli._common import EXIT_FAILED, EXIT_OK, error, positive_int

if TYPE_CHECKING:
    import argparse

HELP = "solve a river or turn spot (a spot file) and print the root's strategy and EVs as JSON"


def _fraction(text: str) -> float:
    import argparse
    import math

    try:
        value = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"a fraction of the pot >= 0, got {text!r}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Solve SPOT, a file of `key = value` lines (board, oop_range, ip_range, pot, stack, bet, "
        "raise, donk, dead, add_allin, force_allin, and per street and player e.g. river_ip_bet; "
        "see docs/solver.md), to --target exploitability or --max-iterations, and print one JSON "
        "object. The file's own target and max_iter keys are the defaults. Ctrl-C stops the "
        "solve and prints what it reached.")
    parser.add_argument("spot", metavar="SPOT", help="the spot file")
    parser.add_argument("--target", type=_fraction, default=None,
                        help="stop at this exploitability, a fraction of the pot (0.003 or 0.3%%; "
                             "default: the file's target, else 0.005)")
    parser.add_argument("--max-iterations", type=positive_int, default=None,
                        help="stop after this many iterations (default: the file's max_iter, else 1000)")
    parser.add_argument("--threads", type=positive_int, default=1,
                        help="share each card dealt's subtree among this many threads (default 1; "
                             "the same results for any number)")
    parser.add_argument("--compress", action="store_true",
                        help="keep regrets and strategy sums in 16 bits: half the memory")
    parser.add_argument("--save", metavar="FILE", help="save the solved game (.npz) to FILE")


def run(args: argparse.Namespace) -> int:
    import json
    import tomllib

    from handrank.solver import Game, Spot

    try:
        with open(args.spot, "rb") as handle:
            data = tomllib.load(handle)
        spot = Spot.from_mapping(data)
    except OSError as exc:
        error(f"solve: cannot read {args.spot}: {exc.strerror or exc}")
        return EXIT_FAILED
    except (tomllib.TOMLDecodeError, TypeError, ValueError) as exc:
        error(f"solve: {args.spot}: {exc}")
        return EXIT_FAILED
    target = args.target if args.target is not None else float(data.get("target", 0.005))
    iterations = args.max_iterations or int(data.get("max_iter", 1000))
    game = Game(spot, compress=args.compress)
    report = game.solve(target, iterations, progress=False, threads=args.threads)
    if args.save:
        try:
            game.save(args.save)
        except OSError as exc:
            error(f"solve: cannot save {args.save}: {exc.strerror or exc}")
            return EXIT_FAILED
    root = game.node()
    result = {
        "label": data.get("label"), "street": spot.street, "iterations": report.iterations,
        "stopped": report.stopped, "seconds": round(report.seconds, 4),
        "exploitability": round(report.exploitability, 6),
        "exploitability_pot": round(report.exploitability_pot, 8),
        "memory_bytes": game.memory_usage(),
        "oop_ev": round(root.overall_ev(0), 6), "ip_ev": round(root.overall_ev(1), 6),
        "oop_equity": round(root.overall_equity(0), 6), "ip_equity": round(root.overall_equity(1), 6),
        "root_player": "OOP",
        "root_strategy": {a: round(f, 6) for a, f in root.frequencies().items()},
    }
    print(json.dumps(result))
    return EXIT_OK
