"""`handrank chinese`, run in-process through cli.main; handrank.chinese is the oracle."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cli_support
from cli_support import run, table

import handrank.cli.chinese as chinese_cli
from handrank import chinese, high, high3, random_hands, rows
from handrank.cards import hand_str
from handrank.high import Category

# RULES.md's worked example: 1-6 Amy +1, Bob -1; 2-4 Amy +2, Bob -2.
AMY = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
BOB = "Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s"
MIS_SET = "Qc Qh Kh / Tc 8d 7d 6d 5s / Ac As Kc 4d 4s"      # the middle (a straight) beats two pair
SIX_PAIRS = "Ac Ad 2c / Kc Kh Qc Qh 8d / Jc Jh Tc Th 8h"    # mis-set, but a natural
TRIPS = "Jd Jh Js / 3c Qd Qh Qs Ks / Kd Kh Ac Ad Ah"        # royalties 3 + 0 + 0
QUADS = "2c 2d 2h / Tc Td Th Ts 5d / 5s 6s 7s 8s 9s"        # royalties 3 + 8 + 5
HAND = "Ah Ad Ac Kh Kd Ks Qh Qd Qs Jh Jd Js 2c"
PLAIN = "6s 6c 4h Td Ts 9c Qs 8c 3h 3d 3s 2h 2d"
DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
FLUSHES = "2c 3c 4c 5d 6d 7d 8d Td Th Jh Qh Kh Ah"
STRAIGHTS = "Ac 2d 3h 4c 5d 6h 7c 8d 9h Tc Jd Qh 8s"
PAIRS = "9c 9d 9h 9s 5c 5d 4h 4s 3c 3d 2h 2s Ac"


def royalties(board, rules=None) -> list[int]:
    """The default tables of RULES.md, written out again: the oracle of the royalty column."""
    top = 3 if high3.category(high3.evaluate(board.top)) == Category.THREE_OF_A_KIND else 0
    middle_units = {Category.FULL_HOUSE: 2, Category.FOUR_OF_A_KIND: 8, Category.STRAIGHT_FLUSH: 10}
    bottom_units = {Category.FOUR_OF_A_KIND: 4, Category.STRAIGHT_FLUSH: 5}
    out = [top]
    for row, units, royal in ((board.middle, middle_units, 20), (board.bottom, bottom_units, 10)):
        value = high.evaluate(row)
        out.append(royal if value == high.MAX_VALUE else units.get(high.category(value), 0))
    return out


def mis_set(board) -> bool:
    return not rows.value(board.top) <= rows.value(board.middle) <= rows.value(board.bottom)


# ----------------------------------------------------------------------------- help and usage
@pytest.mark.parametrize("argv", [["--help"], ["chinese", "--help"], ["chinese", "best", "--help"],
                                  ["chinese", "score", "--help"], ["chinese", "natural", "--help"]])
def test_help(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert (status, err) == (0, "")
    assert "usage: handrank" in out and "chinese" in out


def test_help_names_the_choices(capsys):
    _, out, _ = run(capsys, "chinese", "best", "--help")
    assert "{royalties,ev}" in out
    assert ("{1-6,2-4,net-royalties,surrender,variant-naturals,no-broadway,one-royalty,wheel-second,"
            "low-middle,scoop-unit,mis-set-played}"
            in out.replace("\n", "").replace(" ", ""))


@pytest.mark.parametrize("argv", [
    ["chinese"], ["chinese", "nope"], ["chinese", "score", AMY],
    ["chinese", "score", AMY, BOB, MIS_SET, SIX_PAIRS, TRIPS],
    ["chinese", "score", "--rules", "pineapple", AMY, BOB],
    ["chinese", "best", "--objective", "max", HAND], ["chinese", "best", "--threads", "0"],
    ["chinese", "best", HAND, "--file", "hands.txt"],
    ["chinese", "natural", HAND, "--file", "hands.txt"], ["chinese", "natural", "--json=1"]])
def test_usage_errors_exit_2(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert "usage: handrank chinese" in err and "error:" in err


def test_score_usage_error_says_how_many(capsys):
    _, _, err = run(capsys, "chinese", "score", AMY)
    assert "2 to 4 players" in err and "got 1 setting" in err


# ----------------------------------------------------------------------------- score
@pytest.mark.parametrize("rules", chinese.Rules.presets())
def test_score_worked_example(capsys, rules):
    status, out, err = run(capsys, "chinese", "score", AMY, BOB, "--rules", rules)
    assert (status, err) == (0, "")
    amy, bob = chinese.score([AMY, BOB], rules)
    # (as 2-7 lows Amy's pair of tens beats Bob's two pair: with the low middle she sweeps)
    assert (amy, bob) == {"2-4": (2, -2), "low-middle": (6, -6)}.get(rules, (1, -1))
    lines = table(out)
    assert lines[0] == ["player", "setting", "royalties", "natural", "points"]
    assert lines[1] == ["1", AMY, "0 + 0 + 0 = 0", "-", f"{amy:+d}"]
    assert lines[2] == ["2", BOB, "0 + 0 + 0 = 0", "-", f"{bob:+d}"]


def test_score_mis_set_natural_and_royalties(capsys):
    status, out, _ = run(capsys, "chinese", "score", AMY, BOB, MIS_SET)
    points = chinese.score([AMY, BOB, MIS_SET])
    assert status == 0 and sum(points) == 0 and points == [7, 5, -12]
    lines = table(out)
    assert [line[-1] for line in lines[1:]] == [f"{p:+d}" for p in points]
    assert lines[3][2:4] == ["mis-set", "-"]
    _, out, _ = run(capsys, "chinese", "score", AMY, BOB, SIX_PAIRS)
    lines = table(out)
    assert lines[3] == ["3", SIX_PAIRS, "-", "six pairs (3)", "+6"]
    assert [int(line[-1]) for line in lines[1:]] == chinese.score([AMY, BOB, SIX_PAIRS]) == [-2, -4, 6]
    for rules in chinese.Rules.presets():
        _, out, _ = run(capsys, "chinese", "score", TRIPS, QUADS, "--rules", rules)
        lines = table(out)
        quads = {"one-royalty": "0 + 8 + 0 = 8",              # only the largest royalty
                 "variant-naturals": "-",                         # no picture cards: a natural
                 "low-middle": "3 + 0 + 5 = 8"}.get(rules, "3 + 8 + 5 = 16")   # quads: a bad low
        assert [line[2] for line in lines[1:]] == ["3 + 0 + 0 = 3", quads]
        assert [int(line[-1]) for line in lines[1:]] == chinese.score([TRIPS, QUADS], rules)


def test_score_json(capsys):
    settings = [AMY, BOB, SIX_PAIRS, "7c 7d 7h / 4d 4s 5c 5s As / 2s 3c 6d 6h Jd"]   # mis-set
    # (the oracles here are the high middle's: the low middle's are in test_chinese_seed_rules)
    for rules in (name for name in chinese.Rules.presets() if name != "low-middle"):
        status, out, _ = run(capsys, "chinese", "score", *settings, "--json", "--rules", rules)
        assert status == 0 and len(out.splitlines()) == 1
        record = json.loads(out)
        assert record["rules"] == rules
        assert [p["points"] for p in record["players"]] == chinese.score(settings, rules)
        for player, text in zip(record["players"], settings):
            board = chinese.Board.parse(text)
            assert player["setting"] == text
            assert player["mis_set"] is mis_set(board)
            assert player["royalties"] == ([0, 0, 0] if mis_set(board) else royalties(board))
            assert player["total"] == sum(player["royalties"])
            found = chinese.natural(board.cards, rules)
            assert player["natural"] == (None if found is None else
                                         {"kind": found.kind, "units": found.units,
                                          "setting": None})
    assert [p["mis_set"] for p in record["players"]] == [False, False, True, True]
    assert record["players"][2]["natural"]["kind"] == "six pairs"


def test_score_errors_exit_1(capsys):
    status, out, err = run(capsys, "chinese", "score", AMY,
                           "Ah Kd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s")
    assert (status, out) == (1, "")
    assert err.startswith("handrank: chinese score: setting 2: ") and "top row has 3 cards" in err
    status, out, err = run(capsys, "chinese", "score", AMY, BOB.replace("7s", "6s"))
    assert (status, out) == (1, "")
    assert err == ("handrank: chinese score: card 6s is in settings 1 and 2: the hands of a deal "
                   "come from one deck\n")


# ----------------------------------------------------------------------------- best
def best_table(out: str) -> tuple[list[list[str]], list[str]]:
    lines = out.splitlines()
    return table("\n".join(lines[1:6])), lines


def test_best_one_hand(capsys):
    status, out, err = run(capsys, "chinese", "best", HAND)
    assert (status, err) == (0, "")
    best = chinese.best_setting(HAND)
    rows_, lines = best_table(out)
    assert lines[0] == f"{HAND} (1-6, objective royalties)"
    assert rows_[0] == ["row", "cards", "royalty", "description"]
    board = best.board
    assert rows_[1] == ["top", hand_str(board.top), "3", high3.describe(high3.evaluate(board.top))]
    assert rows_[2] == ["middle", hand_str(board.middle), "0",
                        high.describe(high.evaluate(board.middle))]
    assert rows_[3] == ["bottom", hand_str(board.bottom), "0",
                        high.describe(high.evaluate(board.bottom))]
    assert rows_[4] == ["total", "3"] and best.value == 3.0
    assert lines[6:] == ["no natural"]


def test_best_royalties_match_the_oracle(capsys):
    hands = [hand_str(h) for h in random_hands(40, 13, seed=11).tolist()]
    for rules in ("1-6", "2-4"):
        status, out, _ = run(capsys, "chinese", "best", "--json", "--rules", rules, *hands)
        assert status == 0
        for hand, line in zip(hands, out.splitlines(), strict=True):
            record = json.loads(line)
            best = chinese.best_setting(hand, rules)
            assert record["hand"] == hand and record["board"] == str(best.board)
            assert record["royalties"] == royalties(best.board)
            assert record["total"] == sum(record["royalties"]) == record["value"] == best.value
            assert record["objective"] == "royalties"


def test_best_ev(capsys):
    status, out, err = run(capsys, "chinese", "best", "--objective", "ev", PLAIN)
    assert (status, err) == (0, "")
    best = chinese.best_setting(PLAIN, objective="ev")
    rows_, lines = best_table(out)
    assert lines[0] == f"{PLAIN} (1-6, objective ev)"
    assert [row[1] for row in rows_[1:4]] == [hand_str(best.top), hand_str(best.middle),
                                              hand_str(best.bottom)]
    assert lines[6] == f"expected points: {best.value:+.3f} against one opponent" == \
        "expected points: +1.367 against one opponent"
    status, out, _ = run(capsys, "chinese", "best", "-o", "ev", "--rules", "2-4", "--json", PLAIN)
    record = json.loads(out)
    best = chinese.best_setting(PLAIN, "2-4", "ev")
    assert record["board"] == str(best.board) and record["value"] == best.value
    assert record["objective"] == "ev" and record["natural"] is None


def test_best_naturals(capsys):
    status, out, _ = run(capsys, "chinese", "best", FLUSHES, DRAGON)
    assert status == 0
    first, second = out.split("\n\n")
    flushes = chinese.natural(FLUSHES)
    assert first.splitlines()[-2:] == [
        "natural: three flushes (3 units), paid at once: the rows are not played",
        f"shown as: {flushes.setting}"]
    assert str(flushes.setting) == "2c 3c 4c / 5d 6d 7d 8d Td / Th Jh Qh Kh Ah"
    assert second.splitlines()[-1] == "natural: dragon (13 units), paid at once: the rows are not played"
    _, out, _ = run(capsys, "chinese", "best", "--json", FLUSHES, DRAGON)
    first, second = (json.loads(line)["natural"] for line in out.splitlines())
    assert first == {"kind": "three flushes", "units": 3, "setting": str(flushes.setting)}
    assert second == {"kind": "dragon", "units": 13, "setting": None}


def test_best_cards_as_separate_arguments_and_bad_hands(capsys):
    _, quoted, _ = run(capsys, "chinese", "best", HAND)
    status, unquoted, _ = run(capsys, "chinese", "best", *HAND.split())
    assert status == 0 and unquoted == quoted
    status, out, err = run(capsys, "chinese", "best", "As Ks", HAND, "As As Kd Qd Jd Td 9d 8d 7d 6d 5d 4d 3d")
    assert status == 1 and out == quoted
    assert err.splitlines() == [
        "handrank: chinese best: hand 1: 'As Ks': a Chinese poker hand has 13 cards, got 2",
        "handrank: chinese best: hand 3: 'As As Kd Qd Jd Td 9d 8d 7d 6d 5d 4d 3d': duplicate card As"]


def write_hands(path, hands, bad_at=None):
    lines = ["# Chinese poker hands", ""]
    for i, hand in enumerate(hands):
        if i == bad_at:
            lines.append("As As Kd Qd Jd Td 9d 8d 7d 6d 5d 4d 3d   # a repeated card")
        lines.append(hand)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def file_hands():
    """Random hands with every kind of natural among them."""
    hands = [hand_str(h) for h in random_hands(9, 13, seed=13).tolist()]
    return hands[:3] + [DRAGON, FLUSHES] + hands[3:6] + [STRAIGHTS, PAIRS] + hands[6:]


@pytest.mark.parametrize("objective", chinese.OBJECTIVES)
def test_best_file_in_chunks(capsys, tmp_path, monkeypatch, objective):
    monkeypatch.setattr(chinese_cli, "HANDS_PER_THREAD", 2)
    hands = file_hands()
    path = tmp_path / "hands.txt"
    write_hands(path, hands)
    status, out, err = run(capsys, "chinese", "best", "--file", str(path), "--threads", "2",
                           "--rules", "2-4", "--objective", objective, "--json")
    assert (status, err) == (0, "")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["hand"] for r in records] == hands
    found = chinese.best_setting_batch(np.array([chinese.Board.from_cards(h).cards for h in hands]),
                                       "2-4", objective, threads=1)
    for record, board, value in zip(records, found.boards.tolist(), found.value.tolist()):
        best = chinese.Board.from_cards(board)
        assert record["board"] == str(best) and record["value"] == value
        assert record["royalties"] == royalties(best)
        natural = chinese.natural(record["hand"], "2-4")
        assert (record["natural"] and record["natural"]["kind"]) == (natural and natural.kind)
    assert [r["natural"]["kind"] for r in records if r["natural"]] == [
        "dragon", "three flushes", "three straights", "six pairs"]
    status, out, _ = run(capsys, "chinese", "best", "-f", str(path), "--rules", "2-4", "-o", objective)
    lines = out.splitlines()
    assert status == 0 and len(lines) == len(hands)
    for line, record in zip(lines, records):
        top, middle, bottom = record["royalties"]
        natural = record["natural"]
        assert line == (f"{record['hand']}: {record['board']}, royalties {record['total']} "
                        f"({top} + {middle} + {bottom})"
                        + (f", expected points {record['value']:+.3f}" if objective == "ev" else "")
                        + (f", natural {natural['kind']} ({natural['units']} units)" if natural else ""))


def test_best_file_bad_line(capsys, tmp_path):
    hands = file_hands()[:5]
    path = tmp_path / "hands.txt"
    write_hands(path, hands, bad_at=3)
    status, out, err = run(capsys, "chinese", "best", "--file", str(path))
    assert status == 1
    assert [line.split(":")[0] for line in out.splitlines()] == hands    # the others are set
    assert err.splitlines() == [f"handrank: chinese best: line 6 of {path}: "
                                "'As As Kd Qd Jd Td 9d 8d 7d 6d 5d 4d 3d': duplicate card As"]


def test_best_file_errors(capsys, tmp_path):
    status, out, err = run(capsys, "chinese", "best", "--file", str(tmp_path / "nope.txt"))
    assert (status, out) == (1, "")
    assert "cannot read" in err and "nope.txt" in err
    # a file that cannot be read fails alone: the next one is still set
    hand = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 2c Qh Qd"
    good = tmp_path / "good.txt"
    good.write_text(hand + "\n")
    status, out, err = run(capsys, "chinese", "best", "-f", str(tmp_path / "nope.txt"), "-f", str(good))
    assert status == 1 and out.split(":")[0] == hand
    assert err.count("\n") == 1 and "cannot read" in err and "nope.txt" in err


def test_best_stdin(capsys, monkeypatch):
    hands = file_hands()[:3]
    status, out, _ = run(capsys, "chinese", "best", stdin="\n".join(hands) + "\n",
                         monkeypatch=monkeypatch)
    assert status == 0 and [line.split(":")[0] for line in out.splitlines()] == hands
    status, dash, _ = run(capsys, "chinese", "best", "-f", "-", stdin="\n".join(hands) + "\n",
                          monkeypatch=monkeypatch)
    assert status == 0 and dash == out


# ----------------------------------------------------------------------------- natural
def test_natural(capsys):
    hands = [DRAGON, STRAIGHTS, FLUSHES, PAIRS, PLAIN]
    status, out, err = run(capsys, "chinese", "natural", *hands)
    assert (status, err) == (0, "")
    straights = chinese.natural(STRAIGHTS)
    assert out.splitlines() == [f"{DRAGON}: dragon (13 units)",
                                f"{STRAIGHTS}: three straights (3 units): {straights.setting}",
                                f"{FLUSHES}: three flushes (3 units): {chinese.natural(FLUSHES).setting}",
                                f"{PAIRS}: six pairs (3 units)", f"{PLAIN}: no natural"]
    status, out, _ = run(capsys, "chinese", "natural", "--json", *hands)
    records = [json.loads(line) for line in out.splitlines()]
    for record, hand in zip(records, hands, strict=True):
        found = chinese.natural(hand)
        assert record["hand"] == hand
        assert record["natural"] == (None if found is None else {
            "kind": found.kind, "units": found.units,
            "setting": None if found.setting is None else str(found.setting)})
    _, unquoted, _ = run(capsys, "chinese", "natural", *DRAGON.split())
    assert unquoted == f"{DRAGON}: dragon (13 units)\n"


def test_natural_file_stdin_and_errors(capsys, tmp_path, monkeypatch):
    hands = file_hands()
    path = tmp_path / "hands.txt"
    write_hands(path, hands, bad_at=2)
    status, out, err = run(capsys, "chinese", "natural", "-f", str(path))
    assert status == 1
    assert [line.split(":")[0] for line in out.splitlines()] == hands
    assert err.startswith(f"handrank: chinese natural: line 5 of {path}: ")
    status, piped, _ = run(capsys, "chinese", "natural", stdin=path.read_text(), monkeypatch=monkeypatch)
    assert status == 1 and piped == out
    status, out, err = run(capsys, "chinese", "natural", "Ah Kh")
    assert (status, out) == (1, "")
    assert err == "handrank: chinese natural: hand 1: 'Ah Kh': a Chinese poker hand has 13 cards, got 2\n"
    status, out, err = run(capsys, "chinese", "natural", "-f", str(tmp_path / "nope.txt"))
    assert (status, out) == (1, "") and "cannot read" in err


# ----------------------------------------------------------------------------- progress bar
def test_progress_bar_forced(capsys, tmp_path, monkeypatch):
    pytest.importorskip("tqdm")
    monkeypatch.setattr(chinese_cli, "HANDS_PER_THREAD", 2)
    hands = file_hands()[:6]
    path = tmp_path / "hands.txt"
    write_hands(path, hands)
    status, plain, err = run(capsys, "chinese", "best", "-f", str(path), "-t", "1")
    assert (status, err) == (0, "")                  # stderr is not a terminal: no bar by default
    status, out, err = run(capsys, "chinese", "best", "-f", str(path), "-t", "1", "--progress")
    assert status == 0 and out == plain              # the bar never reaches stdout
    assert "solving" in err and f"{len(hands)}/{len(hands)}" in err and "hand" in err
    status, out, err = run(capsys, "chinese", "best", "-f", str(path), "--no-progress")
    assert (status, out, err) == (0, plain, "")


def test_progress_without_tqdm(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)          # `import tqdm` raises ImportError
    hands = file_hands()[:2]
    path = tmp_path / "hands.txt"
    write_hands(path, hands)
    status, out, err = run(capsys, "chinese", "best", "-f", str(path), "--progress")
    assert status == 0 and len(out.splitlines()) == 2
    assert "--progress needs tqdm" in err and "handrank[progress]" in err
    status, _, err = run(capsys, "chinese", "best", "-f", str(path))
    assert (status, err) == (0, "")


def test_cli_imports_neither_tqdm_nor_the_chinese_cli_until_needed(cache_dir):
    probe = textwrap.dedent(f"""
        import sys
        import handrank.cli
        loaded = {{"tqdm" in sys.modules, "handrank.cli.chinese" in sys.modules}}
        assert loaded == {{False}}, "import handrank.cli"
        handrank.cli.build_parser()
        assert "tqdm" not in sys.modules, "build_parser"
        assert handrank.cli.main(["chinese", "score", {AMY!r}, {BOB!r}]) == 0
        assert handrank.cli.main(["chinese", "best", {HAND!r}]) == 0
        assert handrank.cli.main(["chinese", "natural", {HAND!r}]) == 0
        assert "tqdm" not in sys.modules, "chinese score, best and natural HAND"
    """)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60, env={**os.environ, "HANDRANK_CACHE_DIR": str(cache_dir)})
    assert result.returncode == 0, result.stderr


def test_python_dash_m_chinese(tmp_path, cache_dir):
    path = tmp_path / "hands.txt"
    write_hands(path, [HAND])
    argv = ["chinese", "best", "--file", str(path), "--progress"]
    result = subprocess.run([sys.executable, "-m", "handrank", *argv], capture_output=True,
                            text=True, timeout=60,
                            env={**os.environ, "HANDRANK_CACHE_DIR": str(cache_dir)})
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{HAND}: {chinese.best_setting(HAND).board}, royalties 3 (3 + 0 + 0)\n"


# ----------------------------------------------------------------------------- docs/cli.md
def test_cli_doc_examples(capsys, tmp_path, monkeypatch):
    cli_support.replay("chinese", capsys, tmp_path, monkeypatch)


# ----------------------------------------------------------------------------- rule options
RICH = "Qs Qh Qd / 4c 4d 4s 4h 2c / 9h 8h 7h 6h 5h"          # trips 3, quads 8, straight flush 5
WHEEL = "Qc Qd 2c / 7c 7d 9h 9d 4h / As 2s 3d 4c 5h"
KING_HIGH = "Jc Jd 3c / 8c 8d 6h 6d 5d / 9c Tc Jh Qh Ks"
NO_BROADWAY = "2c 2d 3h 4s 5c 6d 7h 8s 9c 9d 3c 4c 5d"

RULE_OPTIONS = [
    (["--one-royalty"], dict(one_royalty=True)),
    (["--rules", "one-royalty", "--no-one-royalty"], {}),
    (["--wheel-second"], dict(wheel_second=True)),
    (["--rules", "wheel-second", "--no-wheel-second"], {}),
    (["--royalties", "cancel"], dict(royalties_to_winner=False)),
    (["--rules", "net-royalties", "--royalties", "winner"], {}),
    (["--scoring", "2-4", "--surrender", "3"], dict(scoring="2-4", surrender_allowed=True)),
    (["--rules", "surrender", "--surrender", "0"], {}),
    (["--surrender", "5"], dict(surrender_allowed=True, surrender=5)),
    (["--natural", "no-broadway-cards=4", "--natural", "dragon=0"],
     dict(naturals=(("three straights", 3), ("three flushes", 3), ("six pairs", 3), ("no broadway cards", 4)))),
    (["--low-middle"], dict(low_middle=True)),
    (["--rules", "low-middle", "--no-low-middle"], {}),
    (["--low-middle", "--low-royalty", "97532=1", "--low-royalty", "T9875=2"],
     dict(low_middle=True, middle_low_royalties=(("97532", 1), ("T9875", 2)))),
    (["--scoop-bonus", "1"], dict(scoop_bonus=1)),
    (["--scoop-bonus", "0"], dict(scoop_bonus=0)),
    (["--scoring", "2-4", "--scoop-bonus", "2"], dict(scoring="2-4", scoop_bonus=2)),
    (["--mis-set-played"], dict(mis_set_played=True)),
    (["--rules", "mis-set-played", "--no-mis-set-played"], {}),
    (["--rules", "variant-naturals", "--natural", "Six and above=5", "--natural", "12 of one color=0"],
     dict(naturals=(("dragon", 13), ("three straights", 3), ("three flushes", 3), ("six pairs", 3),
                    ("no picture cards", 3), ("six and above", 5), ("13 of one colour", 3)))),
]


@pytest.mark.parametrize("options, fields", RULE_OPTIONS)
def test_rule_options_are_the_rules_fields(capsys, options, fields):
    """Each option sets its field of chinese.Rules over the --rules preset: the scores, settings
    and naturals printed are the library's under Rules(**fields)."""
    rules = chinese.Rules(**fields)
    settings = [WHEEL, KING_HIGH, "Ah Ad Ac / Th Td Ts Kc Kd / 3s 4s 5s 6s 7s"]     # royalties 3, 2, 5
    status, out, err = run(capsys, "chinese", "score", "--json", *options, *settings)
    assert (status, err) == (0, "")
    record = json.loads(out)
    assert [p["points"] for p in record["players"]] == chinese.score(settings, rules)
    assert [p["royalties"] for p in record["players"]] == [list(chinese.royalties(s, rules)) for s in settings]
    assert record["rules"] == "custom"
    hands = [RICH.replace("/", ""), NO_BROADWAY, HAND]
    status, out, _ = run(capsys, "chinese", "best", "--json", *options, *hands)
    for line, hand in zip(out.splitlines(), hands, strict=True):
        best = chinese.best_setting(hand, rules)
        assert json.loads(line)["board"] == str(best.board) and json.loads(line)["value"] == best.value
    status, out, _ = run(capsys, "chinese", "natural", "--json", *options, *hands)
    for line, hand in zip(out.splitlines(), hands, strict=True):
        found = chinese.natural(hand, rules)
        assert json.loads(line)["natural"] == (None if found is None else
                                               {"kind": found.kind, "units": found.units, "setting": None})


def test_rule_options_change_the_scores(capsys):
    """The options matter: each seed example scores differently with and without it."""
    def points(*argv):
        return [p["points"] for p in json.loads(run(capsys, "chinese", "score", "--json", *argv)[1])["players"]]
    assert points(WHEEL, KING_HIGH) == [1, -1]
    assert points(WHEEL, KING_HIGH, "--wheel-second") == [6, -6]
    assert points(RICH, PLAIN_SETTING) == [6 + 16, -22]
    assert points(RICH, PLAIN_SETTING, "--one-royalty") == [6 + 8, -14]
    assert points(RICH, PLAIN_SETTING, "--scoop-bonus", "1") == [4 + 16, -20]
    # the seed's "middle hand is played as a deuce-to-seven low hand": both set 2-7 lows in the
    # middle (mis-set as high hands); a 7-5-4-3-2 middle beats an 8-6-4-3-2
    low_a, low_b = "Ah Kd 2c / 7s 5d 4c 3h 2s / Qs Qh Qd 9c 9s", "As Ks Qc / 8s 6d 4d 3c 2h / Js Jh Jd 9d 9h"
    assert points(low_a, low_b) == [0, 0]
    assert points(low_a, low_b, "--low-middle") == [1, -1]
    # a mis-set hand played as set: aces on top win that row from RICH, the rest is lost
    mis_set = "Ac Ad Ah / Kc Kd 3c 3d 5c / Tc Td Th 7c 7d"
    assert points(mis_set, RICH) == [-22, 22]
    assert points(mis_set, RICH, "--mis-set-played") == [-14, 14]
    _, out, _ = run(capsys, "chinese", "score", mis_set, RICH, "--mis-set-played")
    assert table(out)[1][2] == "mis-set, played"
    _, out, _ = run(capsys, "chinese", "best", low_a.replace("/", ""), "--low-middle", "--low-royalty", "75432=4")
    assert "Seven-five low (7-5-4-3-2)" in out
    _, out, _ = run(capsys, "chinese", "natural", NO_BROADWAY, "--natural", "no broadway cards=3")
    assert out == f"{NO_BROADWAY}: no broadway cards (3 units)\n"


PLAIN_SETTING = "Ac Kd 2d / 9c 9d 3c 3d 8c / Tc Td Th Jc Jd"


def test_surrendered_players(capsys):
    """seeds/001: a surrendering player pays each opponent more than losing two rows and less than
    a scoop, and no royalties: 3 units under the surrender preset, however Amy and Bob set."""
    status, out, err = run(capsys, "chinese", "score", AMY, BOB, MIS_SET, "--rules", "surrender",
                           "--surrendered", "3")
    assert (status, err) == (0, "")
    points = chinese.score([AMY, BOB, MIS_SET], "surrender", surrendered=[2])
    assert points == [4, 2, -6]
    lines = table(out)
    assert lines[3] == ["3", MIS_SET, "surrendered", "-", "-6"]
    assert [int(line[-1]) for line in lines[1:]] == points
    status, out, _ = run(capsys, "chinese", "score", "--json", RICH, PLAIN_SETTING, "--surrender", "4",
                         "--surrendered", "1,2")
    record = json.loads(out)
    assert [p["surrendered"] for p in record["players"]] == [True, True]
    assert [p["points"] for p in record["players"]] == [0, 0]
    _, out, _ = run(capsys, "chinese", "score", "--json", RICH, PLAIN_SETTING, "--surrender", "4",
                    "--surrendered", "1")
    assert [p["points"] for p in json.loads(out)["players"]] == [-4, 4]


@pytest.mark.parametrize("argv, says", [
    (["--surrender", "6"], "Rules.surrender must be more than losing two rows pays (1) and less than a scoop (6)"),
    (["--scoring", "2-4", "--surrender", "2"], "Rules.surrender must be more than"),
    (["--surrender", "-1"], "argument --surrender: must be at least 0"),
    (["--natural", "dragons=3"], "argument --natural: expected KIND=UNITS with KIND one of dragon, "),
    (["--natural", "dragon"], "argument --natural: expected KIND=UNITS"),
    (["--natural", "dragon=x"], "argument --natural: not an integer: 'x'"),
    (["--natural", "dragon=1001"], "Rules.naturals: the royalty for 'dragon' must be in 0..1000"),
    (["--surrendered", "1"], "--surrendered: these rules do not allow surrender"),
    (["--rules", "surrender", "--surrendered", "3"], "--surrendered: no player 3 among 2"),
    (["--rules", "surrender", "--surrendered", "0"], "argument --surrendered: must be at least 1, got 0"),
    (["--rules", "surrender", "--surrendered", "1,x"], "argument --surrendered: not an integer: 'x'"),
    (["--one-royalty=yes"], "argument --one-royalty/--no-one-royalty: ignored explicit argument 'yes'"),
    (["--royalties", "both"], "argument --royalties: invalid choice: 'both'"),
    (["--scoop-bonus", "-1"], "argument --scoop-bonus: must be at least 0"),
    (["--scoop-bonus", "1001"], "Rules.scoop_bonus must be in 0..1000, got 1001"),
    (["--scoop-bonus", "0", "--surrender", "3"], "less than a scoop (3) under 1-6 scoring, got 3"),
    (["--low-royalty", "97532=1"], "Rules.middle_low_royalties applies only when low_middle is True"),
    (["--low-middle", "--low-royalty", "97532"], "argument --low-royalty: expected LOW=UNITS"),
    (["--low-middle", "--low-royalty", "76543=1"], "Rules.middle_low_royalties"),
])
def test_rule_option_errors_are_usage_errors(capsys, argv, says):
    status, out, err = run(capsys, "chinese", "score", AMY, BOB, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("usage: handrank chinese score") and "Traceback" not in err
    assert err.splitlines()[-1].startswith("handrank chinese score: error: ") and says in err


def test_rule_option_errors_in_a_child_process():
    """The real command: one usage line and one error line, exit 2, never a traceback."""
    result = subprocess.run([sys.executable, "-m", "handrank", "chinese", "score", AMY, BOB,
                             "--natural", "no picture cards=2000"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == ("handrank chinese score: error: Rules.naturals: the "
                                              "royalty for 'no picture cards' must be in 0..1000, got 2000")
