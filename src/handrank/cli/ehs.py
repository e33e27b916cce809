"""`handrank ehs`: a hold'em hand's exact expected hand strength (EHS) and its square (EHS2)
against a random hand on a flop, turn or river, and the build of a street's EHS table."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from handrank.cli._common import EXIT_FAILED, EXIT_OK, error, usage_error

if TYPE_CHECKING:
    import argparse

HELP = "exact expected hand strength (EHS, EHS2) of a hold'em hand, and the per-street EHS tables"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    import argparse

    parser.description = (
        "EHS: the hand's equity against one uniformly random opposing hand over every runout "
        "(win + tie/2); EHS2: the average of its squared river equity over the runouts. Exact, "
        "card removal included. --build makes a street's table of every canonical hand (cached "
        "in HANDRANK_CACHE_DIR; the flop builds the turn and river too: about 2 minutes, 4 GB of memory).")
    parser.add_argument("hole", nargs="?", metavar="HOLE", help="two hole cards, e.g. 'As Kd'")
    parser.add_argument("board", nargs="?", metavar="BOARD", help="3, 4 or 5 board cards, e.g. 'Qh Jh 2c'")
    parser.add_argument("--build", choices=("flop", "turn", "river"), metavar="STREET",
                        help="build (or find cached) the table of STREET: flop, turn or river")
    parser.add_argument("--table", action="store_true",
                        help="read HOLE/BOARD's values from the street's table (built if missing)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show or hide the build's progress bar (needs tqdm); default: shown "
                             "when stderr is a terminal")
    parser.set_defaults(action_parser=parser)       # for usage_error


class _Bars:
    """One progress bar per street built, made when the street's first step reports."""

    def __init__(self, wanted: bool | None) -> None:
        self.wanted = wanted
        self.street: str | None = None
        self.bar: Any = None

    def __call__(self, street: str, done: int, total: int) -> None:
        from handrank.cli._common import progress_bar

        if street != self.street:
            self.close()
            self.street = street
            unit = "board" if street == "river" else "hand"
            self.bar = progress_bar(total, self.wanted, unit=unit, desc=street)
        self.bar.reached(done, total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def run(args: argparse.Namespace) -> int:
    from handrank import ehs

    if args.build is None and args.hole is None:
        return usage_error(args, "give HOLE and BOARD, or --build STREET")
    if args.hole is not None and args.board is None:
        return usage_error(args, "BOARD is missing (3, 4 or 5 cards)")
    bars = _Bars(args.progress)
    try:
        if args.build is not None:
            table = ehs.ehs_table(args.build, progress=bars)
            bars.close()
            where = ehs._cache_file(args.build)
            # the build keeps going when the cache cannot be written (the table is then rebuilt
            # next time): say which happened
            kept = f"cached in {where}" if ehs._cached(args.build) is not None else \
                f"not cached (could not write {where}): built again next time"
            print(f"{args.build}: {table.ehs.size:,} hands, {kept}")
        if args.hole is not None:
            return _hand(args, bars)
    finally:
        bars.close()
    return EXIT_OK


def _hand(args: argparse.Namespace, bars: _Bars) -> int:
    import numpy as np

    from handrank import ehs
    from handrank.cards import cards

    try:
        hole, board = cards(args.hole), cards(args.board)
        if len(hole) != 2:
            raise ValueError(f"HOLE: a hold'em hand has 2 cards, got {len(hole)}")
        if len(board) not in (3, 4, 5):
            raise ValueError(f"BOARD: 3, 4 or 5 cards, got {len(board)}")
        if args.table:
            street = {3: "flop", 4: "turn", 5: "river"}[len(board)]
            value, square = ehs.ehs_table(street, progress=bars).lookup(hole, board)
        else:
            values, squares = ehs.ehs_rows(np.array([[*hole, *board]], dtype=np.uint8))
            value, square = float(values[0]), float(squares[0])
    except (TypeError, ValueError) as exc:
        error(f"ehs: {exc}")
        return EXIT_FAILED
    print(f"{args.hole} on {args.board}: EHS {value:.6f}  EHS2 {square:.6f}")
    return EXIT_OK
