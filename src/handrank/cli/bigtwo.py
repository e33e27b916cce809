"""`handrank bigtwo`: classify plays, list the legal moves of a hand, play a seeded random game."""
from __future__ import annotations

from typing import TYPE_CHECKING

from handrank.cli._common import EXIT_FAILED, EXIT_OK, error, non_negative_int

if TYPE_CHECKING:
    import argparse

HELP = "Big Two: classify plays, list legal moves, play a random game"


def add_arguments(parser: argparse.ArgumentParser) -> None:
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
    play.add_argument("--seed", type=non_negative_int, default=0,
                      help="seed of the deal and the players, 0 or more (default 0)")
    play.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    play.add_argument("--deal", choices=("thirteen", "all"), default="thirteen",
                      help="with 2 or 3 players: 13 cards each, or the whole deck")
    for sub in (classify, moves, play):
        sub.add_argument("--rules", choices=presets, default="hk", help="the ruleset (default hk)")


def run(args: argparse.Namespace) -> int:
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
        error(f"bigtwo {args.action}: {exc}")
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
