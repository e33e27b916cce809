"""`handrank eval`: value, category and description of hands given as arguments, in files or on
stdin, as a table or JSON lines."""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from handrank.cards import shown
from handrank.cli._common import EXIT_FAILED, EXIT_OK, STDIN, error, is_one_card, lines_of

if TYPE_CHECKING:
    import argparse

    from handrank.cli._common import Hands

HELP = "value, category and description of poker hands"

GAMES = ("high", "high3", "low27", "lowa5")
# The variants (handrank.omaha, shortdeck, badugi), each read by _evaluate_variant. An Omaha hand
# is its hole cards, '|', then the board: "As Ks 2d 2c | Qs Js Ts 2h 3h".
VARIANTS = ("omaha", "omaha8", "shortdeck", "shortdeck-triton", "badugi", "badugi27", "stud", "razz")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "hands", nargs="*", metavar="HAND",
        help="a hand such as 'As Ks Qs Js Ts' or AsKsQsJsTs; cards given as separate arguments "
             "(As Ks Qs Js Ts) make one hand; '-' or no HAND reads stdin, one hand per line")
    parser.add_argument("--game", choices=GAMES + VARIANTS,
                        help="the evaluator (default: high for 5-7 cards, high3 for 3 cards); "
                             "omaha and omaha8 (hi-lo 8-or-better) read 'HOLE | BOARD', "
                             "shortdeck-triton ranks trips above a straight, badugi27 plays the "
                             "ace high, stud and razz value 1 to 4 up cards")
    parser.add_argument("--file", "-f", action="append", default=[], metavar="F",
                        help="read hands from F, one per line; blank lines and # comments are "
                             "skipped (may be repeated; '-' is stdin)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per line instead of a table (hand, game, value, "
                             "category as the Category name, description)")


def run(args: argparse.Namespace) -> int:
    import json

    status = EXIT_OK
    rows: list[dict[str, Any]] = []
    for name, hands in _hand_inputs(args.hands, args.file):
        try:                          # one input that cannot be read fails alone
            for where, text in hands:
                try:
                    row = _evaluate(text, args.game)
                except (ValueError, TypeError) as exc:
                    error(f"{where}: {shown(text)}: {exc}")
                    status = EXIT_FAILED
                    continue
                if args.json:
                    category = row["category"]
                    print(json.dumps({**row, "category": None if category is None else category.name},
                                     ensure_ascii=False))
                else:
                    rows.append(row)
        except BrokenPipeError:
            raise
        except OSError as exc:        # a file that cannot be opened or read
            error(f"cannot read {name}: {exc.strerror or exc}")
            status = EXIT_FAILED
    if rows:
        print(_table(rows))
    return status


def _hand_inputs(hands: list[str], files: list[str]) -> Iterator[tuple[str, Hands]]:
    """(name, hands) of every input: the arguments, then the files; stdin when there is neither.
    A file is opened only when its hands are read."""
    if not hands and not files:
        hands = ["-"]
    if len(hands) > 1 and all(is_one_card(h) for h in hands):
        yield "the arguments", [("hand", " ".join(hands))]
    else:
        for i, text in enumerate(hands, 1):
            if text == "-":
                yield STDIN, lines_of("-")
            else:
                yield "the arguments", [(f"hand {i}", text)]
    for path in files:
        yield STDIN if path == "-" else path, lines_of(path)


def _evaluate(text: str, game: str | None) -> dict[str, Any]:
    """The record of one hand; ValueError naming the problem for a bad one."""
    import handrank
    from handrank.cards import cards, hand_str

    if game in VARIANTS:
        return _evaluate_variant(text, game)
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


def _evaluate_variant(text: str, game: str) -> dict[str, Any]:
    """The record of one hand of a variant (its category None where the game has none)."""
    from handrank import badugi, high, lowa5, omaha, shortdeck
    from handrank.cards import cards, hand_str

    category: object = None
    if game in ("omaha", "omaha8"):
        hole_text, bar, board_text = text.partition("|")
        if not bar:
            raise ValueError("an Omaha hand is its hole cards, '|', then the board")
        hole, board = cards(hole_text), cards(board_text)
        shown_hand = f"{hand_str(hole)} | {hand_str(board)}"
        value = omaha.evaluate(hole, board)
        category, description = high.category(value), high.describe(value)
        if game == "omaha8":
            low = omaha.evaluate_low8(hole, board)
            description += "; no low" if low == omaha.NO_LOW else f"; low: {lowa5.describe(low)}"
    elif game.startswith("shortdeck"):
        ids = cards(text)
        rules = "triton" if game == "shortdeck-triton" else "standard"
        shown_hand = hand_str(ids)
        value = shortdeck.evaluate(ids, rules=rules)
        category, description = shortdeck.category(value, rules=rules), shortdeck.describe(value, rules=rules)
    elif game in ("stud", "razz"):
        ids = cards(text)
        module = high if game == "stud" else lowa5
        shown_hand = hand_str(ids)
        value = module.evaluate_partial(ids)
        description = module.describe_partial(value)
    else:
        ids = cards(text)
        ace_low = game == "badugi"
        shown_hand = hand_str(ids)
        value = badugi.evaluate(ids, ace_low=ace_low)
        description = badugi.describe(value, ace_low=ace_low)
    return {"hand": shown_hand, "game": game, "value": value, "category": category,
            "description": description}


def _table(rows: list[dict[str, Any]]) -> str:
    header = ("hand", "game", "value", "category", "description")
    cells = [(r["hand"], r["game"], str(r["value"]), "-" if r["category"] is None else str(r["category"]),
              r["description"]) for r in rows]
    widths = [max(len(row[i]) for row in [header, *cells]) for i in range(len(header) - 1)]
    lines = []
    for row in [header, *cells]:
        hand, game, value, category, description = row
        lines.append(f"{hand:<{widths[0]}}  {game:<{widths[1]}}  {value:>{widths[2]}}  "
                     f"{category:<{widths[3]}}  {description}")
    return "\n".join(lines)
