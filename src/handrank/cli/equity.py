"""`handrank equity`: each player's equity from hands or ranges, a board and dead cards; tqdm,
the optional progress bar, is imported only for a run that shows one."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from handrank.cli._common import EXIT_FAILED, EXIT_OK, error, non_negative_int, positive_int, progress_bar

if TYPE_CHECKING:
    import argparse

    from handrank.equity import Result

HELP = "equity of 2 to 10 hands or ranges (hold'em, Omaha, short deck), exact or by Monte Carlo"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    import argparse     # the caller has it loaded: this only names it here

    parser.description = (
        "Each player's share of the pot (wins plus tie shares), its wins and its ties, over every "
        "deal and board (exact) or sampled ones (Monte Carlo). A player is an exact hand ('AsKs') "
        "or a range in PokerStove notation ('QQ+,AKs,A5s-A2s,KQo:0.5', '15%', 'random'). "
        "Without --exact or --samples, small jobs are enumerated and large ones sampled to a "
        "standard error of 0.001.")
    parser.add_argument("players", nargs="+", metavar="PLAYER",
                        help="a hand or a range per player (quote ranges that hold spaces)")
    parser.add_argument("--board", "-b", default="", help="0, 3, 4 or 5 board cards, e.g. 'Jh Th 2c'")
    parser.add_argument("--dead", "-d", default="", help="cards out of play, e.g. '2s 3s'")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="enumerate every deal and board")
    how.add_argument("--samples", "-n", type=positive_int, metavar="N", help="sample N showdowns")
    how.add_argument("--stderr", type=float, metavar="E",
                     help="sample until each equity's standard error is at most E")
    parser.add_argument("--seed", type=non_negative_int, help="seed of the Monte Carlo run (reproducible for one "
                                                 "seed and thread count)")
    parser.add_argument("--threads", "-t", type=positive_int, help="threads (default: all cores for big jobs)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--game", default="holdem",
                        choices=("holdem", "omaha", "omaha8", "shortdeck", "shortdeck-triton"),
                        help="the game (default holdem); in the others a player is an exact hand "
                             "(4 to 6 cards in Omaha) or 'random'")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar on stderr (needs tqdm; default: when stderr is "
                             "a terminal)")


def run(args: argparse.Namespace) -> int:
    from handrank import equity

    try:
        with progress_bar(1, args.progress, unit="showdown", desc="equity") as bar:
            result = equity.calculate(args.players, args.board, args.dead,
                                      exact=True if args.exact else None, samples=args.samples,
                                      stderr=args.stderr, seed=args.seed, threads=args.threads,
                                      progress=bar.reached if bar.bar is not None else None,
                                      game=args.game)
    except (TypeError, ValueError) as exc:
        error(str(exc))
        return EXIT_FAILED
    print(json.dumps(as_json(result)) if args.json else str(result))
    return EXIT_OK


def as_json(result: Result) -> dict[str, Any]:
    players = [{"player": i + 1, "hand": name, "equity": result.equity[i], "win": result.win[i],
                "tie": result.tie[i]} | ({} if result.stderr is None else {"stderr": result.stderr[i]})
               for i, name in enumerate(result.players)]
    out: dict[str, Any] = {"players": players, "showdowns": result.showdowns, "exact": result.exact}
    if result.acceptance is not None:
        out["acceptance"] = result.acceptance
    return out
