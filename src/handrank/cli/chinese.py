"""`handrank chinese`: the best setting of 13 cards, naturals, and the score of a table.

handrank.cli imports this module only when the parser is built; tqdm (the optional progress bar
of `chinese best --file`) is imported only when a file is set. The table layout, the progress bar
and the usage errors are those of `handrank ofc`, shared in handrank.cli._common.
"""
from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import numpy as np

from handrank import chinese, high, high3, low27
from handrank._batch import cpu_count
from handrank.cards import cards, hand_str, shown
from handrank.chinese.rules import SCORINGS
from handrank.cli._common import (EXIT_FAILED, EXIT_OK, ROWS, ROW_SLICES, add_file_arguments,
                                  add_rules_and_json, chunks, columns, error, hand_tables, is_one_card,
                                  non_negative_int, parse_table, positive_int, progress_bar,
                                  read_hand_files, rows_table, usage_error)

if TYPE_CHECKING:
    import argparse

HELP = "Chinese poker: the best setting of 13 cards, naturals, score a table"

CARDS = 13

# Hands per thread in each best_setting_batch call of --file mode; the progress bar advances once
# per call. A hand takes a fraction of a millisecond ("royalties") to about two ("ev") on one
# thread, so a call lasts a fraction of a second however many threads share it.
HANDS_PER_THREAD = 128

_OBJECTIVE_HELP = ("what the setting maximizes: 'royalties' (royalty units; the default) or 'ev' "
                   "(expected points against one opponent; its tables are built on first use, a "
                   "few seconds, and cached)")


# ----------------------------------------------------------------------------- arguments
def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True, dest="action")
    best = actions.add_parser(
        "best", help="the best setting of 13 cards, and the natural they hold",
        description="Set 13 cards in the three rows for the most royalty units (--objective "
                    "royalties) or the most expected points against one opponent (--objective "
                    "ev), exactly, and name the natural the cards hold. HAND arguments print a "
                    "table per hand; --file prints one line per hand.")
    best.add_argument("hands", nargs="*", metavar="HAND",
                      help="13 cards such as 'As Ks Qs ...'; cards given as separate arguments "
                           "make one hand; no HAND and no --file reads stdin, one hand per line")
    best.add_argument("--objective", "-o", choices=chinese.OBJECTIVES, default="royalties",
                      help=_OBJECTIVE_HELP)
    add_file_arguments(best, "set the hands of F, one per line, in batches", solver=True)
    score = actions.add_parser(
        "score", help="naturals, mis-sets, royalties and net units of 2 to 4 players",
        description="Score one deal: each player's natural, mis-set or royalties, and net units "
                    "(naturals paid at once; a mis-set hand pays as if scooped; else 1 per row, "
                    "the 1-6 scoop bonus or the 2-4 overall unit, and royalties; summed over "
                    "every pair of players).")
    score.add_argument("settings", nargs="+", metavar="SETTING",
                       help="one argument per player, top / middle / bottom, e.g. "
                            "'6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d' ('|' also separates rows)")
    natural = actions.add_parser(
        "natural", help="the natural 13 cards hold: dragon, three straights, three flushes, six "
                        "pairs",
        description="The natural each hand of 13 cards holds under the rules (the one worth the "
                    "most units), with the setting that shows three straights or three flushes; "
                    "one line per hand.")
    natural.add_argument("hands", nargs="*", metavar="HAND",
                         help="13 cards; cards given as separate arguments make one hand; no HAND "
                              "and no --file reads stdin, one hand per line")
    add_file_arguments(natural, "the hands of F, one per line", solver=False)
    score.add_argument("--surrendered", type=_players, default=(), metavar="P[,P...]",
                       help="the players (numbered from 1, in SETTING order) who surrendered: "
                            "each pays the surrender units to every player still in the hand "
                            "(needs rules that allow it: --rules surrender or --surrender UNITS)")
    add_rules_and_json((best, score, natural), chinese.Rules.presets(), _JSON_HELP)
    for sub in (best, score, natural):
        _add_rule_options(sub)


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    """The options that change single fields of the --rules preset (chinese.Rules)."""
    import argparse

    group = parser.add_argument_group(
        "rule options", "change single rules of the --rules preset (docs/chinese.md, Variants)")
    group.add_argument("--scoring", choices=SCORINGS, help="1-6 or 2-4 scoring")
    group.add_argument("--royalties", choices=("winner", "cancel"),
                       help="'winner': only a row's winner collects its royalty; 'cancel': "
                            "royalties settle as net differences, won or lost row alike")
    group.add_argument("--one-royalty", action=argparse.BooleanOptionalAction, default=None,
                       help="a hand collects only its largest royalty")
    group.add_argument("--wheel-second", action=argparse.BooleanOptionalAction, default=None,
                       help="A-2-3-4-5 is the second-highest straight, just below T-J-Q-K-A")
    group.add_argument("--surrender", type=non_negative_int, metavar="UNITS",
                       help="allow surrender, a surrendering player paying UNITS to each "
                            "opponent (more than losing two rows, less than a scoop); 0: no "
                            "surrender")
    group.add_argument("--low-middle", action=argparse.BooleanOptionalAction, default=None,
                       help="the middle row is a 2-7 low hand; only the bottom must beat the top")
    group.add_argument("--low-royalty", type=_low_royalty, action="append", default=[],
                       metavar="LOW=UNITS",
                       help="with --low-middle: a middle at least as good a 2-7 low as LOW (five "
                            "ranks, such as 97532) collects UNITS; may be repeated")
    group.add_argument("--scoop-bonus", type=non_negative_int, metavar="UNITS",
                       help="the units for winning all three rows on top of the rows (1-6: 3; "
                            "1: an additional unit only for a scoop)")
    group.add_argument("--mis-set-played", action=argparse.BooleanOptionalAction, default=None,
                       help="a mis-set hand is played as set: it collects no royalties instead "
                            "of paying as if scooped")
    group.add_argument("--natural", type=_natural_units, action="append", default=[],
                       metavar="KIND=UNITS",
                       help="pay the natural KIND (dragon, three-straights, three-flushes, "
                            "six-pairs, no-picture-cards, six-and-above, 12-of-one-colour, "
                            "13-of-one-colour, no-broadway-cards) UNITS units; 0: not a natural; "
                            "may be repeated")


_KINDS = {kind.replace(" ", "-"): kind for kind in chinese.NATURALS + chinese.NATURAL_VARIANTS}


def _natural_units(text: str) -> tuple[str, int]:
    """A --natural value, KIND=UNITS (KIND with hyphens or spaces, any case)."""
    import argparse

    kind, sep, units = text.partition("=")
    name = "-".join(kind.lower().split()).replace("color", "colour")
    if not sep or name not in _KINDS:
        raise argparse.ArgumentTypeError(
            f"expected KIND=UNITS with KIND one of {', '.join(_KINDS)}, got {text!r}")
    return _KINDS[name], non_negative_int(units)


def _low_royalty(text: str) -> tuple[str, int]:
    """A --low-royalty value, LOW=UNITS (the rules check LOW)."""
    import argparse

    low, sep, units = text.partition("=")
    if not sep or not low.strip():
        raise argparse.ArgumentTypeError(f"expected LOW=UNITS such as 97532=1, got {text!r}")
    return low.strip(), non_negative_int(units)


def _players(text: str) -> tuple[int, ...]:
    """A --surrendered value: player numbers from 1, comma-separated."""
    return tuple(positive_int(p) for p in text.split(","))


def _rules(args: argparse.Namespace) -> chinese.Rules:
    """The --rules preset with the rule options applied (ValueError, TypeError: a bad value)."""
    rules = chinese.Rules.preset(args.rules)
    changes: dict[str, Any] = {}
    if args.scoring is not None:
        changes["scoring"] = args.scoring
    if args.royalties is not None:
        changes["royalties_to_winner"] = args.royalties == "winner"
    if args.one_royalty is not None:
        changes["one_royalty"] = args.one_royalty
    if args.wheel_second is not None:
        changes["wheel_second"] = args.wheel_second
    if args.low_middle is not None:
        changes["low_middle"] = args.low_middle
    if args.low_royalty:
        changes["middle_low_royalties"] = tuple(args.low_royalty)
    if args.scoop_bonus is not None:
        changes["scoop_bonus"] = args.scoop_bonus
    if args.mis_set_played is not None:
        changes["mis_set_played"] = args.mis_set_played
    if args.surrender is not None:
        changes["surrender_allowed"] = args.surrender > 0
        if args.surrender:
            changes["surrender"] = args.surrender
    if args.natural:
        naturals = dict(rules.naturals)
        for kind, units in args.natural:       # a kind already paid keeps its place (ties)
            if units:
                naturals[kind] = units
            else:
                naturals.pop(kind, None)
        changes["naturals"] = tuple(naturals.items())
    return rules.replace(**changes) if changes else rules


_JSON_HELP = {
    "best": "one JSON object per hand: hand, board, royalties (top, middle, bottom), total, "
            "objective, value, natural",
    "score": "one JSON object: rules, and per player setting, natural, mis_set, surrendered, "
             "royalties (top, middle, bottom), total, points",
    "natural": "one JSON object per hand: hand, natural (kind, units, setting; null for none)",
}


# ----------------------------------------------------------------------------- run
def run(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
    except (TypeError, ValueError) as exc:
        return usage_error(args, str(exc))
    if args.action == "score":
        given = len(args.settings)
        if not 2 <= given <= 4:
            return usage_error(args, f"a deal has 2 to 4 players (one quoted SETTING each), got "
                                      f"{given} setting{'s' if given != 1 else ''}")
        if args.surrendered and not rules.surrender_allowed:
            return usage_error(args, "--surrendered: these rules do not allow surrender (use "
                                     "--rules surrender or --surrender UNITS)")
        beyond = [p for p in args.surrendered if p > given]
        if beyond:
            return usage_error(args, f"--surrendered: no player {beyond[0]} among {given}")
        return _score(args.settings, rules, {p - 1 for p in args.surrendered}, args.json)
    if args.hands and args.file:
        return usage_error(args, "give HAND arguments or --file, not both")
    if args.action == "natural":
        return _naturals(args, rules)
    if args.hands:
        return _best_hands(args, rules)
    return _best_files(args, rules)


def _hand(text: str) -> list[int]:
    """The ids of a hand of 13 cards; ValueError naming the problem."""
    ids = cards(text)
    if len(ids) != CARDS:
        raise ValueError(f"a Chinese poker hand has {CARDS} cards, got {len(ids)}")
    return ids


def _hand_arguments(texts: list[str]) -> list[str]:
    """HAND arguments, the cards of one hand given as separate arguments joined."""
    if len(texts) > 1 and all(is_one_card(t) for t in texts):
        return [" ".join(texts)]
    return texts


# ----------------------------------------------------------------------------- rows
def _rows(board: chinese.Board, royalties: list[int], rules: chinese.Rules) -> list[dict[str, Any]]:
    """Each row of a setting: its name, cards, royalty and description (a low middle's as a 2-7
    low)."""
    middle = (low27.describe(low27.evaluate(board.middle)) if rules.low_middle
              else high.describe(high.evaluate(board.middle)))
    words = (high3.describe(high3.evaluate(board.top)), middle, high.describe(high.evaluate(board.bottom)))
    return [{"row": name, "cards": hand_str(row), "royalty": royalty, "description": text}
            for name, row, royalty, text in zip(ROWS, (board.top, board.middle, board.bottom),
                                                royalties, words)]


def _natural_record(found: chinese.Natural | None) -> dict[str, Any] | None:
    if found is None:
        return None
    return {"kind": found.kind, "units": found.units,
            "setting": None if found.setting is None else str(found.setting)}


def _units(units: int) -> str:
    return f"{units} unit{'s' if units != 1 else ''}"


def _natural_text(record: dict[str, Any] | None) -> str:
    """`dragon (13 units)`, `three flushes (3 units): T / M / B`, or `no natural`."""
    if record is None:
        return "no natural"
    text = f"{record['kind']} ({_units(record['units'])})"
    return text + (f": {record['setting']}" if record["setting"] else "")


# ----------------------------------------------------------------------------- best
def _best(hands: list[list[int]], rules: chinese.Rules, objective: str,
          threads: int | None) -> list[dict[str, Any]]:
    """The best settings of hands of 13 cards (one best_setting_batch call); a dict per hand."""
    found = chinese.best_setting_batch(np.array(hands, dtype=np.uint8), rules, objective, threads)
    royalties = chinese.evaluate_batch(found.boards, rules, threads=1).royalties
    results: list[dict[str, Any]] = []
    for ids, board, row_royalties, value in zip(hands, found.boards.tolist(), royalties.tolist(),
                                                found.value.tolist()):
        results.append({"hand": hand_str(ids), "cards": board,
                        "board": " / ".join(hand_str(board[a:b]) for a, b in ROW_SLICES),
                        "royalties": row_royalties, "total": sum(row_royalties),
                        "objective": objective, "value": value,
                        "natural": _natural_record(chinese.natural(ids, rules))})
    return results


def _json_record(result: dict[str, Any]) -> dict[str, Any]:
    return {key: result[key] for key in ("hand", "board", "royalties", "total", "objective",
                                         "value", "natural")}


def _best_hands(args: argparse.Namespace, rules: chinese.Rules) -> int:
    """HAND arguments: a table per hand."""
    return hand_tables("chinese best", args.hands, _hand,
                       lambda ids: _best([ids], rules, args.objective, args.threads)[0],
                       lambda result: _print_best(result, rules), _json_record, args.json)


def _print_best(result: dict[str, Any], rules: chinese.Rules) -> None:
    board = chinese.Board.from_cards(result["cards"])
    print(f"{result['hand']} ({rules.name}, objective {result['objective']})")
    print(rows_table(_rows(board, result["royalties"], rules), result["total"]))
    if result["objective"] == "ev":
        print(f"expected points: {result['value']:+.3f} against one opponent")
    natural = result["natural"]
    if natural is None:
        print("no natural")
        return
    print(f"natural: {natural['kind']} ({_units(natural['units'])}), paid at once: the rows are "
          "not played")
    if natural["setting"]:
        print(f"shown as: {natural['setting']}")


def _best_files(args: argparse.Namespace, rules: chinese.Rules) -> int:
    """--file (or stdin): every hand read first (bad lines reported at once), then set in chunks
    with a progress bar, one output line per hand in input order."""
    hands, status = read_hand_files(args.file, _hand, "chinese best")
    size = HANDS_PER_THREAD * (args.threads or cpu_count())
    with progress_bar(len(hands), args.progress) as bar:
        for chunk in chunks(hands, size):
            results = _best(chunk, rules, args.objective, args.threads)
            with bar.writing():
                for result in results:
                    print(json.dumps(_json_record(result)) if args.json else _best_line(result))
                sys.stdout.flush()
            bar.update(len(chunk))
    return status


def _best_line(result: dict[str, Any]) -> str:
    """One hand of --file output:
    `hand: board, royalties T (t + m + b)[, expected points V][, natural KIND (U units)]`."""
    top, middle, bottom = result["royalties"]
    line = (f"{result['hand']}: {result['board']}, royalties {result['total']} "
            f"({top} + {middle} + {bottom})")
    if result["objective"] == "ev":
        line += f", expected points {result['value']:+.3f}"
    natural = result["natural"]
    if natural:
        line += f", natural {natural['kind']} ({_units(natural['units'])})"
    return line


# ----------------------------------------------------------------------------- natural
def _naturals(args: argparse.Namespace, rules: chinese.Rules) -> int:
    """One line per hand, HAND arguments or --file (or stdin)."""
    status = EXIT_OK
    if args.hands:
        hands: list[list[int]] = []
        for i, text in enumerate(_hand_arguments(args.hands), 1):
            try:
                hands.append(_hand(text))
            except ValueError as exc:
                error(f"chinese natural: hand {i}: {shown(text)}: {exc}")
                status = EXIT_FAILED
    else:
        hands, status = read_hand_files(args.file, _hand, "chinese natural")
    for ids in hands:
        found = _natural_record(chinese.natural(ids, rules))
        if args.json:
            print(json.dumps({"hand": hand_str(ids), "natural": found}))
        else:
            print(f"{hand_str(ids)}: {_natural_text(found)}")
    return status


# ----------------------------------------------------------------------------- score
def _score(texts: list[str], rules: chinese.Rules, surrendered: set[int], as_json: bool) -> int:
    settings = parse_table("chinese score", "setting", texts, chinese.Board.parse)
    if settings is None:
        return EXIT_FAILED
    points = chinese.score(settings, rules, surrendered)
    evaluated = chinese.evaluate_batch(np.array([s.cards for s in settings], dtype=np.uint8), rules, 1)
    players: list[dict[str, Any]] = []
    for i, (setting, net) in enumerate(zip(settings, points)):
        row_royalties = evaluated.royalties[i].tolist()       # 0s when mis-set
        players.append({"setting": str(setting),
                        "natural": _natural_record(chinese.natural(setting.cards, rules)),
                        "mis_set": bool(evaluated.mis_set[i]), "surrendered": i in surrendered,
                        "royalties": row_royalties, "total": sum(row_royalties), "points": net})
    if as_json:
        print(json.dumps({"rules": rules.name, "players": players}))
        return EXIT_OK
    cells = [("player", "setting", "royalties", "natural", "points")]
    for number, player in enumerate(players, 1):
        top, middle, bottom = player["royalties"]
        natural = player["natural"]
        if natural:
            rows_cell = "-"                    # a natural is paid at once: its rows are not played
        elif player["surrendered"]:
            rows_cell = "surrendered"
        elif player["mis_set"]:
            rows_cell = "mis-set, played" if rules.mis_set_played else "mis-set"
        else:
            rows_cell = f"{top} + {middle} + {bottom} = {player['total']}"
        cells.append((str(number), player["setting"], rows_cell,
                      f"{natural['kind']} ({natural['units']})" if natural else "-",
                      f"{player['points']:+d}" if player["points"] else "0"))
    print(columns(cells, right=(4,)))
    return EXIT_OK
