"""`handrank ofc`: score OFC boards, evaluate one board, solve Fantasyland hands.

handrank.cli imports this module only when the parser is built; tqdm (the optional progress bar
of `ofc fantasyland --file`) is imported only when a file is solved.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from handrank import high, high3, low27, ofc
from handrank._batch import cpu_count
from handrank._threerow.thresholds import MAX_CARDS, MIN_CARDS, low_value
from handrank.cards import cards, hand_str, shown
from handrank.ofc.advise import as_partial
from handrank.cli._common import (EXIT_FAILED, EXIT_OK, ROWS, ROW_SLICES, add_file_arguments,
                                  add_rules_and_json, chunks, columns, error, hand_tables, is_one_card,
                                  non_negative_int, parse_table, positive_int, progress_bar,
                                  read_hand_files, rows_table, usage_error)

if TYPE_CHECKING:
    import argparse

HELP = "Open-Face Chinese poker: score boards, royalties and fouls, solve Fantasyland"

SEPARATORS = ("/", "|")

# Hands per thread in each solve_fantasyland_batch call of --file mode; the progress bar advances
# once per call. A hand takes about half a millisecond on one thread, so a call lasts a fraction
# of a second however many threads share it.
HANDS_PER_THREAD = 128


# ----------------------------------------------------------------------------- arguments
def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True, dest="action")
    score = actions.add_parser(
        "score", help="1-6 points, royalties, fouls and Fantasyland of 2 to 4 players",
        description="Score one deal: each player's royalties (or foul), Fantasyland and net points "
                    "(1 per row, the scoop bonus, royalties as differences; summed over every "
                    "pair of players).")
    score.add_argument("boards", nargs="+", metavar="BOARD",
                       help="one argument per player, top / middle / bottom, e.g. "
                            "'Qs Qh 5d / Ts 9s 8s 7s 6s / Ac Ad Ah 2c 2d'")
    board = actions.add_parser(
        "board", help="rows, royalties, foul and Fantasyland of a board",
        description="The rows, royalties, foul (and why) and Fantasyland outcome of each board.")
    board.add_argument("boards", nargs="+", metavar="BOARD",
                       help="a board 'Qs Qh 5d / Ts 9s 8s 7s 6s / Ac Ad Ah 2c 2d' ('|' also "
                            "separates rows); cards and separators given as separate arguments "
                            "make one board")
    board.add_argument("--in-fantasyland", action="store_true",
                       help="the board was played in Fantasyland: apply the stay conditions "
                            "instead of the entry ones")
    solve = actions.add_parser(
        "fantasyland", help="the best setting of a Fantasyland hand (exact solver)",
        description="Set 13 of 13 to 17 Fantasyland cards to maximize royalties (plus "
                    "--stay-value when the setting stays in Fantasyland). HAND arguments print a "
                    "table per hand; --file prints one line per hand.")
    solve.add_argument("hands", nargs="*", metavar="HAND",
                       help="13 to 17 cards such as 'As Ks Qs ...'; cards given as separate "
                            "arguments make one hand; no HAND and no --file reads stdin, one hand "
                            "per line")
    solve.add_argument("--stay-value", type=_stay_value, default=0.0, metavar="X",
                       help="what staying in Fantasyland is worth, in royalty points (default 0)")
    add_file_arguments(solve, "solve the hands of F, one per line, in batches", solver=True)
    advise = actions.add_parser(
        "advise", help="rank the placements of a street's cards by expected score",
        description="Every legal placement of the dealt cards on a partial board, ranked by the "
                    "expected score of the finished hand (ofc.best_placement): Monte Carlo over "
                    "the unseen cards, exact on the last streets. Alone the score is royalties "
                    "minus fouls; with --opponent, the points against each opponent.")
    advise.add_argument("board", metavar="BOARD",
                        help="the board so far, top / middle / bottom, '-' or nothing for an "
                             "empty row, e.g. 'As Kd / 9h 9d 8c / 2c 3c' ('' before the first "
                             "street)")
    advise.add_argument("--dealt", "-d", required=True, metavar="CARDS",
                        help="the cards dealt now, e.g. 'Qs Qh 7d'")
    advise.add_argument("--opponent", "-o", action="append", default=[], metavar="BOARD",
                        help="an opponent's board (may be repeated)")
    advise.add_argument("--seen", default="", metavar="CARDS",
                        help="other cards known to be out of the deck (your discards)")
    advise.add_argument("--samples", "-n", type=positive_int, default=1000, metavar="N",
                        help="deals sampled per placement (default %(default)s)")
    advise.add_argument("--seed", type=non_negative_int, default=None, metavar="S",
                        help="seed of the sampled deals (default: fresh)")
    advise.add_argument("--completion", choices=("best", "greedy"), default="best",
                        help="how each deal finishes the boards: best (an upper bound: it sees "
                             "the cards to come) or greedy (street by street); default best")
    advise.add_argument("--top", type=positive_int, default=None, metavar="K",
                        help="print only the K best placements")
    advise.add_argument("--threads", "-t", type=positive_int, default=None, metavar="T",
                        help="threads (default: every core)")
    add_rules_and_json((score, board, solve, advise), ofc.Rules.presets(), _JSON_HELP)


_JSON_HELP = {
    "score": "one JSON object: rules, and per player board, fouled, royalties (top, middle, "
             "bottom), total, fantasyland, points",
    "board": "one JSON object per board: board, fouled, foul (the reasons), rows (row, cards, "
             "royalty, description), royalties, total, fantasyland",
    "fantasyland": "one JSON object per hand: hand, board, royalties, total, stays, discards, "
                   "fouled, value",
    "advise": "one JSON object: board, dealt, rules, exact, deals, and placements (best first: "
              "top, middle, bottom, discards, mean, stderr, foul_rate, samples)",
}


def _stay_value(text: str) -> float:
    """--stay-value: a number in the range within which the solver's answer is exact."""
    import argparse

    from handrank.ofc.solver import MAX_STAY_VALUE
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not -MAX_STAY_VALUE <= value <= MAX_STAY_VALUE:
        raise argparse.ArgumentTypeError(f"must be a finite number in -2**40 .. 2**40, got {text!r}")
    return value


# ----------------------------------------------------------------------------- run
def run(args: argparse.Namespace) -> int:
    rules = ofc.Rules.preset(args.rules)
    if args.action == "score":
        if not 2 <= len(args.boards) <= 4:
            given = len(args.boards)
            return usage_error(args, f"a deal has 2 to 4 players (one quoted BOARD each), got "
                                      f"{given} board{'s' if given != 1 else ''}")
        return _score(args.boards, rules, args.json)
    if args.action == "board":
        return _board(args.boards, rules, args.in_fantasyland, args.json)
    if args.action == "advise":
        return _advise(args, rules)
    if args.hands and args.file:
        return usage_error(args, "give HAND arguments or --file, not both")
    if args.hands:
        return _solve_hands(args, rules)
    return _solve_files(args, rules)


# ----------------------------------------------------------------------------- score


def _score(texts: list[str], rules: ofc.Rules, as_json: bool) -> int:
    boards = parse_table("ofc score", "board", texts, ofc.Board.parse)
    if boards is None:
        return EXIT_FAILED
    points = ofc.score(boards, rules)
    results = _evaluate(boards, rules, False)
    if as_json:
        print(json.dumps({"rules": rules.name, "players": [
            {"board": str(b), "fouled": r["fouled"], "royalties": r["royalties"],
             "total": r["total"], "fantasyland": r["fantasyland"], "points": p}
            for b, r, p in zip(boards, results, points)]}))
        return EXIT_OK
    header = ("player", "board", "royalties", "fantasyland", "points")
    cells = [header]
    for player, (board, result, net) in enumerate(zip(boards, results, points), 1):
        top, middle, bottom = result["royalties"]
        royalties = f"{top} + {middle} + {bottom} = {result['total']}"
        cells.append((str(player), str(board), "fouled" if result["fouled"] else royalties,
                      f"{result['fantasyland']} cards" if result["fantasyland"] else "-",
                      f"{net:+d}" if net else "0"))
    print(columns(cells, right=(4,)))
    return EXIT_OK


# ----------------------------------------------------------------------------- board
def _board(texts: list[str], rules: ofc.Rules, in_fantasyland: bool, as_json: bool) -> int:
    if len(texts) > 1 and all(t in SEPARATORS or is_one_card(t) for t in texts):
        texts = [" ".join(texts)]              # an unquoted board: Qs Qh 5d / Ts 9s ... / ...
    status = EXIT_OK
    printed = 0
    for i, text in enumerate(texts, 1):
        try:
            board = ofc.Board.parse(text)
        except ValueError as exc:
            error(f"ofc board: board {i}: {shown(text)}: {exc}")
            status = EXIT_FAILED
            continue
        result = _evaluate([board], rules, in_fantasyland)[0]
        if as_json:
            print(json.dumps({"board": str(board), **result}, ensure_ascii=False))
            continue
        if printed:
            print()
        printed += 1
        print(f"{board} ({rules.name})")
        print(rows_table(result["rows"], result["total"]))
        if result["fouled"]:
            print(f"fouled: {'; '.join(result['foul'])} (no royalties, no Fantasyland)")
        else:
            print(_fantasyland_outcome(result["fantasyland"], in_fantasyland))
    return status


def _fantasyland_outcome(dealt: int, in_fantasyland: bool) -> str:
    if in_fantasyland:
        return f"stays in Fantasyland: {dealt} cards next hand" if dealt else "leaves Fantasyland"
    return f"Fantasyland: {dealt} cards next hand" if dealt else "no Fantasyland"


def _evaluate(boards: Sequence[ofc.Board], rules: ofc.Rules,
              in_fantasyland: bool) -> list[dict[str, Any]]:
    """What `ofc board` shows of each board: rows with royalties and descriptions, the foul and
    its reasons, the Fantasyland cards (one evaluate_batch call for all of them)."""

    arrays = ofc.evaluate_batch(np.array([b.cards for b in boards], dtype=np.uint8), rules,
                                in_fantasyland, threads=1)
    results: list[dict[str, Any]] = []
    for i, board in enumerate(boards):
        royalties = arrays.royalties[i].tolist()
        fouled = bool(arrays.foul[i])
        reasons = _foul_reasons(rules, arrays.values[i].tolist()) if fouled else []
        results.append({"fouled": fouled, "foul": reasons, "rows": _rows(board, royalties, rules),
                        "royalties": royalties, "total": sum(royalties),
                        "fantasyland": int(arrays.fantasyland[i])})
    return results


def _rows(board: ofc.Board, royalties: list[int], rules: ofc.Rules) -> list[dict[str, Any]]:
    """Each row of a board: its name, cards, royalty and description."""

    return [{"row": name, "cards": hand_str(cards), "royalty": royalty, "description": words}
            for name, cards, royalty, words in zip(ROWS, (board.top, board.middle, board.bottom),
                                                   royalties, _describe(board, rules))]


def _describe(board: ofc.Board, rules: ofc.Rules) -> tuple[str, str, str]:
    middle = low27 if rules.middle_lowball else high
    return (high3.describe(high3.evaluate(board.top)),
            middle.describe(middle.evaluate(board.middle)),
            high.describe(high.evaluate(board.bottom)))


def _foul_reasons(rules: ofc.Rules, values: list[int]) -> list[str]:
    """Why a fouled board fouls, from its row values (evaluate_batch's `values`)."""
    top, middle, bottom = values
    if not rules.middle_lowball:
        reasons = ["the top beats the middle"] if top > middle else []
        return reasons + (["the middle beats the bottom"] if middle > bottom else [])
    reasons = ["the top beats the bottom"] if top > bottom else []
    if middle < low_value(rules.middle_qualifier, "Rules.middle_qualifier"):
        assert rules.middle_qualifier is not None       # Rules requires it with middle_lowball
        worst = "-".join(rules.middle_qualifier)
        reasons.append(f"the middle is not a 2-7 low of {worst} or better")
    return reasons


# ----------------------------------------------------------------------------- advise
def _advise(args: argparse.Namespace, rules: ofc.Rules) -> int:
    try:
        board = ofc.PartialBoard() if args.board.strip() in ("", "-") else as_partial(args.board)
        advice = ofc.best_placement(board, args.dealt, seen=args.seen, opponents=args.opponent,
                                    rules=rules, samples=args.samples, seed=args.seed,
                                    threads=args.threads, completion=args.completion)
    except ValueError as exc:
        error(f"ofc advise: {exc}")
        return EXIT_FAILED
    ranked = advice.ranked[:args.top] if args.top else advice.ranked
    if args.json:
        print(json.dumps({
            "board": str(board), "dealt": hand_str(cards(args.dealt)), "rules": rules.name,
            "exact": advice.exact, "deals": advice.deals,
            "placements": [{"top": hand_str(v.placement.top), "middle": hand_str(v.placement.middle),
                            "bottom": hand_str(v.placement.bottom),
                            "discards": hand_str(v.placement.discards), "mean": v.mean,
                            "stderr": v.stderr, "foul_rate": v.foul_rate, "samples": v.samples}
                           for v in ranked]}))
        return EXIT_OK
    against = f" against {len(args.opponent)} opponent(s)" if args.opponent else " alone"
    how = (f"exact over all {advice.deals} deals" if advice.exact
           else f"{advice.deals} sampled deals, {args.completion} completion")
    print(f"{board} dealt {hand_str(cards(args.dealt))} ({rules.name}{against}; {how})")
    cells = [("#", "top", "middle", "bottom", "discard", "EV", "error", "fouls", "deals")]
    for rank, v in enumerate(ranked, 1):
        p = v.placement
        cells.append((str(rank), hand_str(p.top) or "-", hand_str(p.middle) or "-",
                      hand_str(p.bottom) or "-", hand_str(p.discards) or "-", f"{v.mean:+.3f}",
                      f"{v.stderr:.3f}", f"{v.foul_rate:.1%}", str(v.samples)))
    print(columns(cells, right=(0, 5, 6, 7, 8)))
    return EXIT_OK


# ----------------------------------------------------------------------------- fantasyland
def _solve_hands(args: argparse.Namespace, rules: ofc.Rules) -> int:
    """HAND arguments: a table per hand."""
    return hand_tables("ofc fantasyland", args.hands, _fantasyland_hand,
                       lambda ids: _solve([ids], rules, args.stay_value, args.threads)[0],
                       lambda result: _print_solution(result, rules), _json_record, args.json)


def _print_solution(result: dict[str, Any], rules: ofc.Rules) -> None:
    board = ofc.Board.from_cards(result["cards"])
    print(f"{result['hand']} ({len(result['ids'])} cards, {rules.name})")
    print(rows_table(_rows(board, result["royalties"], rules), result["total"]))
    if result["fouled"]:
        print("fouled: every setting of these cards fouls (shown: the five highest cards at the "
              "bottom, the next five in the middle, the next three on top)")
    elif result["stays"]:
        print(f"stays in Fantasyland: {rules.stay_cards} cards next hand")
    else:
        print("leaves Fantasyland")
    if result["discards"]:
        print(f"discards: {hand_str(result['discards'])}")


def _solve_files(args: argparse.Namespace, rules: ofc.Rules) -> int:
    """--file (or stdin): every hand read first (bad lines reported at once), then solved in
    chunks with a progress bar, one output line per hand in input order."""
    hands, status = read_hand_files(args.file, _fantasyland_hand, "ofc fantasyland")
    size = HANDS_PER_THREAD * (args.threads or cpu_count())
    with progress_bar(len(hands), args.progress) as bar:
        for chunk in chunks(hands, size):
            results = _solve(chunk, rules, args.stay_value, args.threads)
            with bar.writing():
                for result in results:
                    if args.json:
                        print(json.dumps(_json_record(result)))
                    else:
                        print(_solution_line(result))
                sys.stdout.flush()
            bar.update(len(chunk))
    return status


def _fantasyland_hand(text: str) -> list[int]:
    """The ids of a Fantasyland hand; ValueError naming the problem."""

    ids = cards(text)
    if not MIN_CARDS <= len(ids) <= MAX_CARDS:
        raise ValueError(f"a Fantasyland hand has {MIN_CARDS} to {MAX_CARDS} cards, got {len(ids)}")
    return ids


def _solve(hands: list[list[int]], rules: ofc.Rules, stay_value: float,
           threads: int | None) -> list[dict[str, Any]]:
    """Solve hands of one size with one solve_fantasyland_batch call; a dict per hand."""

    arr = np.array(hands, dtype=np.uint8)
    solved = ofc.solve_fantasyland_batch(arr, rules, stay_value, threads)
    rows = ofc.evaluate_batch(solved.boards, rules, in_fantasyland=True, threads=threads)
    results: list[dict[str, Any]] = []
    for ids, board, royalties, total, stays, fouled, value, discards in zip(
            hands, solved.boards.tolist(), rows.royalties.tolist(), solved.royalties.tolist(),
            solved.stays.tolist(), solved.fouled.tolist(), solved.value.tolist(),
            solved.discards.tolist()):
        results.append({"hand": hand_str(ids), "ids": ids, "cards": board,
                        "board": " / ".join(hand_str(board[a:b]) for a, b in ROW_SLICES),
                        "royalties": royalties, "total": total, "stays": stays, "fouled": fouled,
                        "value": value, "discards": discards})
    return results


def _json_record(result: dict[str, Any]) -> dict[str, Any]:
    return {"hand": result["hand"], "board": result["board"], "royalties": result["royalties"],
            "total": result["total"], "stays": result["stays"],
            "discards": hand_str(result["discards"]), "fouled": result["fouled"],
            "value": result["value"]}


def _solution_line(result: dict[str, Any]) -> str:
    """One hand of --file output: `hand: board, royalties T (t + m + b)[, stays][, discards X]`."""

    if result["fouled"]:
        line = f"{result['hand']}: {result['board']}, fouled (no valid setting)"
    else:
        top, middle, bottom = result["royalties"]
        line = (f"{result['hand']}: {result['board']}, royalties {result['total']} "
                f"({top} + {middle} + {bottom})" + (", stays" if result["stays"] else ""))
    return line + (f", discards {hand_str(result['discards'])}" if result["discards"] else "")


# ----------------------------------------------------------------------------- progress


