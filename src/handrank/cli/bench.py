"""`handrank bench`: throughput of every evaluator, and of the peer evaluators installed, against a
numpy gather (the measuring itself is handrank.bench)."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from handrank.cli._common import EXIT_FAILED, EXIT_OK, PROG, error, int_at_least, non_negative_int, positive_int

if TYPE_CHECKING:
    import argparse

HELP = "throughput of every evaluator, and of peer evaluators, against a numpy gather"

# The most hands --hands and --agree take: a billion random hands of each size already need about
# 50 GB; beyond it numpy's arrays fail in ways other than a MemoryError ("maximum allowed dimension
# exceeded"), so a larger value is a usage error, reported before any measuring.
MAX_HANDS = 1_000_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from handrank import bench

    parser.add_argument("--hands", "-n", type=_hands, default=bench.DEFAULT_HANDS, metavar="N",
                        help=f"random hands per workload (default {bench.DEFAULT_HANDS:_}, at most "
                             f"{MAX_HANDS:_}; the scalar workload uses N // {bench.SCALAR_FRACTION})")
    parser.add_argument("--rounds", "-r", type=positive_int, default=bench.DEFAULT_ROUNDS,
                        metavar="R", help="interleaved rounds; the median is reported "
                                          f"(default {bench.DEFAULT_ROUNDS})")
    parser.add_argument("--threads", "-t", type=positive_int, default=None, metavar="T",
                        help="threads of the multi-threaded workloads (default: every core)")
    parser.add_argument("--seed", type=non_negative_int, default=bench.DEFAULT_SEED,
                        help="seed of the random hands (default %(default)s)")
    parser.add_argument("--json", action="store_true", help="the results as one JSON document")
    parser.add_argument("--agree", type=_agreement_hands, default=bench.DEFAULT_AGREEMENT_HANDS,
                        metavar="N",
                        help="random hands per agreement check of each peer, 0 to skip the checks "
                             f"(default {bench.DEFAULT_AGREEMENT_HANDS:_}, at most {MAX_HANDS:_})")
    parser.add_argument("--no-peers", action="store_true",
                        help="measure handrank alone, even when peer evaluators are installed")
    parser.add_argument("--plot", type=_plot_file, metavar="FILE", default=None,
                        help="also draw a bar chart of hands/s to FILE, in the format its "
                             "extension names (png, svg, pdf, ...; needs matplotlib: "
                             "pip install 'handrank[plot]')")


def _hands(text: str) -> int:
    return int_at_least(text, 1, MAX_HANDS)


def _agreement_hands(text: str) -> int:
    return int_at_least(text, 0, MAX_HANDS)


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


def run(args: argparse.Namespace) -> int:
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
            error(f"cannot write {args.plot}: {exc.strerror or exc}")
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
