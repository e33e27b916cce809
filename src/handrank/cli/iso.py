"""`handrank iso`: suit-isomorphism classes of hands: their indices and canonical hands, a class's
canonical hand from its index, and the number of classes per round."""
from __future__ import annotations

from typing import TYPE_CHECKING

from handrank.cli._common import EXIT_FAILED, EXIT_OK, error, non_negative_int, usage_error

if TYPE_CHECKING:
    import argparse

HELP = "suit-isomorphic hand indices: index, canonical hand and class counts of a round structure"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Hands equal up to a renaming of the suits and the order of the cards within a round share "
        "an index (K. Waugh's hand indexer). STRUCTURE is the cards dealt per round, e.g. 2,3,1,1 "
        "(hold'em street by street), 2,5 (hole cards and board), 4,3,1,1 (Omaha), 13.")
    parser.add_argument("structure", metavar="STRUCTURE", type=_structure, help="cards per round, e.g. 2,3,1,1")
    parser.add_argument("hands", nargs="*", metavar="HAND",
                        help="a hand, cards in round order (quote it: 'As Kd Qh Jh 2c')")
    parser.add_argument("--round", "-r", type=non_negative_int, metavar="R",
                        help="the round to index for (default: the last one each hand covers)")
    parser.add_argument("--unindex", nargs="+", type=non_negative_int, metavar="INDEX",
                        help="print the canonical hand of each index of --round (default: the last round)")
    parser.add_argument("--sizes", action="store_true", help="print the number of classes of every round")
    parser.set_defaults(action_parser=parser)       # for usage_error


def _structure(text: str) -> list[int]:
    """STRUCTURE: card counts separated by commas (checked further by iso.Indexer)."""
    import argparse
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"STRUCTURE must be card counts separated by commas, like 2,3,1,1, got {text!r}") from None


def run(args: argparse.Namespace) -> int:
    import itertools

    from handrank import iso
    from handrank.cards import cards, hand_str

    counts = args.structure
    try:
        indexer = iso.Indexer(counts)
    except (TypeError, ValueError) as exc:
        return usage_error(args, f"STRUCTURE: {exc}")
    if args.round is not None and args.round >= indexer.rounds:
        return usage_error(args, f"--round: round must be in 0..{indexer.rounds - 1}, got {args.round}")
    status = EXIT_OK
    if args.sizes:
        for r in range(indexer.rounds):
            print(f"round {r}: {indexer.size(r):,} classes")
    ends = list(itertools.accumulate(counts))
    for text in args.hands:         # a hand that fails is reported and fails alone
        try:
            ids = cards(text)
            index = indexer.index(ids, args.round)     # checks the hand and the round first
        except (TypeError, ValueError) as exc:
            error(f"iso: {exc}")
            status = EXIT_FAILED
            continue
        r = ends.index(len(ids)) if args.round is None else args.round
        print(f"{text}: index {index} in round {r}, canonical {hand_str(indexer.unindex(r, index))}")
    r = indexer.rounds - 1 if args.round is None else args.round
    for index in args.unindex or ():
        try:
            print(f"{index}: {hand_str(indexer.unindex(r, index))}")
        except (TypeError, ValueError) as exc:
            error(f"iso: {exc}")
            status = EXIT_FAILED
    return status
