"""`handrank iso`: suit-isomorphism classes of hands: their indices and canonical hands, a class's
canonical hand from its index, and the number of classes per round."""
from __future__ import annotations

from typing import TYPE_CHECKING

from handrank.cli._common import EXIT_FAILED, EXIT_OK, error

if TYPE_CHECKING:
    import argparse

HELP = "suit-isomorphic hand indices: index, canonical hand and class counts of a round structure"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Hands equal up to a renaming of the suits and the order of the cards within a round share "
        "an index (K. Waugh's hand indexer). STRUCTURE is the cards dealt per round, e.g. 2,3,1,1 "
        "(hold'em street by street), 2,5 (hole cards and board), 4,3,1,1 (Omaha), 13.")
    parser.add_argument("structure", metavar="STRUCTURE", help="cards per round, e.g. 2,3,1,1")
    parser.add_argument("hands", nargs="*", metavar="HAND",
                        help="a hand, cards in round order (quote it: 'As Kd Qh Jh 2c')")
    parser.add_argument("--round", "-r", type=int, metavar="R",
                        help="the round to index for (default: the last one each hand covers)")
    parser.add_argument("--unindex", nargs="+", type=int, metavar="INDEX",
                        help="print the canonical hand of each index of --round (default: the last round)")
    parser.add_argument("--sizes", action="store_true", help="print the number of classes of every round")


def run(args: argparse.Namespace) -> int:
    import itertools

    from handrank import iso
    from handrank.cards import cards, hand_str

    try:
        counts = [int(part) for part in args.structure.replace(" ", "").split(",") if part]
    except ValueError:
        error(f"iso: STRUCTURE must be card counts separated by commas, like 2,3,1,1, got {args.structure!r}")
        return EXIT_FAILED
    try:
        indexer = iso.Indexer(counts)
        if args.sizes:
            for r in range(indexer.rounds):
                print(f"round {r}: {indexer.size(r):,} classes")
        ends = list(itertools.accumulate(counts))
        for text in args.hands:
            ids = cards(text)
            index = indexer.index(ids, args.round)     # checks the hand and the round first
            r = ends.index(len(ids)) if args.round is None else args.round
            print(f"{text}: index {index} in round {r}, canonical {hand_str(indexer.unindex(r, index))}")
        if args.unindex:
            r = indexer.rounds - 1 if args.round is None else args.round
            for index in args.unindex:
                print(f"{index}: {hand_str(indexer.unindex(r, index))}")
    except (TypeError, ValueError) as exc:
        error(f"iso: {exc}")
        return EXIT_FAILED
    return EXIT_OK
