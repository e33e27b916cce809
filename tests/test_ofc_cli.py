"""`handrank ofc`, run in-process through cli.main; handrank.ofc is the oracle."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import cli_support
from cli_support import run, table

import handrank.cli.ofc as ofc_cli
from handrank import high, high3, low27, ofc, random_hands
from handrank.cards import hand_str

# RULES.md's worked example: A +4, B -4.
A = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
B = "Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s"
FOULED = "Qc Qh Kh / Tc 8d 7d 6d 5s / Ac As Kc 4d 4s"    # the middle (a straight) beats two pair
FL_HAND = "As Ks Qs Js Ts 9h 9d 9c 2c 3d 4h 5s 7c 8d"
STAY_HAND = "Ac Ks 4d 8c 4s Kd 4h 5h Ts 3h 2d 6c 5s 4c"      # 12 without staying, 10 with quads


# ----------------------------------------------------------------------------- help and usage
@pytest.mark.parametrize("argv", [["--help"], ["ofc", "--help"], ["ofc", "score", "--help"],
                                  ["ofc", "board", "--help"], ["ofc", "fantasyland", "--help"]])
def test_help(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert (status, err) == (0, "")
    assert "usage: handrank" in out and "ofc" in out


@pytest.mark.parametrize("argv", [
    ["ofc"], ["ofc", "nope"], ["ofc", "score", A], ["ofc", "score", A, B, A, B, A],
    ["ofc", "score", "--rules", "nope", A, B], ["ofc", "board"],
    ["ofc", "fantasyland", "--stay-value", "inf", FL_HAND],
    ["ofc", "fantasyland", "--stay-value", "x", FL_HAND], ["ofc", "fantasyland", "--threads", "0"],
    ["ofc", "fantasyland", FL_HAND, "--file", "hands.txt"]])
def test_usage_errors_exit_2(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert "usage: handrank ofc" in err and "error:" in err


def test_score_usage_error_says_how_many(capsys):
    _, _, err = run(capsys, "ofc", "score", A)
    assert "2 to 4 players" in err and "got 1 board" in err


# ----------------------------------------------------------------------------- score
def test_score_worked_example(capsys):
    status, out, err = run(capsys, "ofc", "score", A, B)
    assert (status, err) == (0, "")
    rows = table(out)
    assert rows[0] == ["player", "board", "royalties", "fantasyland", "points"]
    assert rows[1] == ["1", A, "1 + 0 + 6 = 7", "-", "+4"]
    assert rows[2] == ["2", B, "0 + 0 + 4 = 4", "-", "-4"]


def test_score_three_players_with_a_foul(capsys):
    status, out, _ = run(capsys, "ofc", "score", A, B, FOULED)
    points = ofc.score([A, B, FOULED])
    rows = table(out)
    assert status == 0 and sum(points) == 0
    assert [row[-1] for row in rows[1:]] == [f"{p:+d}" for p in points]
    assert rows[3][2] == "fouled"


def test_score_json_and_rules(capsys):
    top_kings = "Kh Kc 4s / Ac As 6c 6h 2s / Ad Jd Td 8d 7d"
    status, out, _ = run(capsys, "ofc", "score", B, top_kings, "--json", "--rules", "progressive")
    assert status == 0 and len(out.splitlines()) == 1
    record = json.loads(out)
    assert record["rules"] == "progressive"
    assert [p["points"] for p in record["players"]] == ofc.score([B, top_kings], "progressive")
    for player, board in zip(record["players"], (B, top_kings)):
        assert player["board"] == board
        assert player["royalties"] == list(ofc.royalties(board, "progressive"))
        assert player["total"] == sum(player["royalties"])
        assert player["fouled"] is ofc.is_foul(board, "progressive") is False
        assert player["fantasyland"] == ofc.fantasyland(board, "progressive")
    assert record["players"][1]["fantasyland"] == 15               # KK in progressive
    _, out, _ = run(capsys, "ofc", "score", B, top_kings)
    assert table(out)[2][3] == "14 cards"                          # KK in pineapple


def test_score_errors_exit_1(capsys):
    status, out, err = run(capsys, "ofc", "score", A, "Ah Kd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s")
    assert (status, out) == (1, "")
    assert err.startswith("handrank: ofc score: board 2: ") and "top row has 3 cards" in err
    status, out, err = run(capsys, "ofc", "score", A, B, FOULED.replace("4d", "9d"))
    assert (status, out) == (1, "")
    assert "card 9d is in boards 2 and 3" in err


# ----------------------------------------------------------------------------- board
def test_board_rows_royalties_and_fantasyland(capsys):
    board = "Kh Kd 4c / 9h 9d 5h 5c 4d / Ks Js 9s 8s 7s"
    status, out, err = run(capsys, "ofc", "board", board)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"{board} (pineapple)"
    rows = table(out)[1:6]
    assert rows[0] == ["row", "cards", "royalty", "description"]
    b = ofc.Board.parse(board)
    assert rows[1] == ["top", "Kh Kd 4c", "8", high3.describe(high3.evaluate(b.top))]
    assert rows[2] == ["middle", "9h 9d 5h 5c 4d", "0", high.describe(high.evaluate(b.middle))]
    assert rows[3] == ["bottom", "Ks Js 9s 8s 7s", "4", high.describe(high.evaluate(b.bottom))]
    assert rows[4] == ["total", "12"]
    assert lines[6] == "Fantasyland: 14 cards next hand"
    _, out, _ = run(capsys, "ofc", "board", board, "--in-fantasyland")
    assert out.splitlines()[-1] == "leaves Fantasyland"
    _, out, _ = run(capsys, "ofc", "board", "Kh Kd 4c / 9h 9d 9c 5c 5h / Ks Qs Js Ts 9s",
                    "--in-fantasyland", "--rules", "classic")
    assert out.splitlines()[-1] == "stays in Fantasyland: 13 cards next hand"


def test_board_as_separate_arguments(capsys):
    board = "Kh Kd 4c / 9h 9d 5h 5c 4d / Ks Js 9s 8s 7s"
    _, quoted, _ = run(capsys, "ofc", "board", board)
    status, unquoted, _ = run(capsys, "ofc", "board", *board.split())
    assert status == 0 and unquoted == quoted
    _, piped, _ = run(capsys, "ofc", "board", board.replace("/", "|"))
    assert piped == quoted


def test_board_foul_reasons(capsys):
    status, out, _ = run(capsys, "ofc", "board", "Qs Qh 5d / Ts 9s 8s 7s 6s / Ac Ad Ah 2c 2d")
    assert status == 0
    assert out.splitlines()[-1] == ("fouled: the middle beats the bottom (no royalties, "
                                    "no Fantasyland)")
    assert [row[2] for row in table(out)[2:5]] == ["0", "0", "0"]
    _, out, _ = run(capsys, "ofc", "board", "Ah Ad Ac / 9h 9d 5h 5c 4d / Ks Kd 9s 8s 7s")
    assert out.splitlines()[-1].startswith("fouled: the top beats the middle; "
                                           "the middle beats the bottom")


def test_board_deuce(capsys):
    good = "Ah Ad Ac / 7c 5d 4h 3s 2c / Ks Js 9s 8s 7s"
    status, out, _ = run(capsys, "ofc", "board", good, "--rules", "deuce")
    rows = table(out)
    assert status == 0
    wheel = "7c 5d 4h 3s 2c"
    assert rows[3] == ["middle", wheel, "8", low27.describe(low27.evaluate(wheel))]
    assert out.splitlines()[-1] == "Fantasyland: 15 cards next hand"        # super Fantasyland
    _, out, _ = run(capsys, "ofc", "board", "Ah Ad Ac / 7c 5c 4c 3c 2c / Ks Kd 9s 9h 8s",
                    "--rules", "deuce")
    assert out.splitlines()[-1] == ("fouled: the top beats the bottom; the middle is not a 2-7 low "
                                    "of T-9-8-7-5 or better (no royalties, no Fantasyland)")


def test_board_json_and_errors(capsys):
    good = "Kh Kd 4c / 9h 9d 5h 5c 4d / Ks Js 9s 8s 7s"
    bad = "Kh Kd 4c / 9h 9d 5h 5c 4d / Ks Js 9s 8s"
    fouled = "Qs Qh 5d / Ts 9s 8s 7s 6s / Ac Ad Ah 2c 2d"
    status, out, err = run(capsys, "ofc", "board", "--json", good, bad, fouled)
    assert status == 1
    assert err.splitlines() == [f"handrank: ofc board: board 2: {bad!r}: the bottom row has 5 "
                                "cards, got 4"]
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["board"] == good and first["fouled"] is False and first["foul"] == []
    assert first["royalties"] == list(ofc.royalties(good)) and first["total"] == 12
    assert first["fantasyland"] == ofc.fantasyland(good) == 14
    assert [r["row"] for r in first["rows"]] == ["top", "middle", "bottom"]
    assert first["rows"][0] == {"row": "top", "cards": "Kh Kd 4c", "royalty": 8,
                                "description": "Pair of kings (4 kicker)"}
    assert second["fouled"] is True and second["foul"] == ["the middle beats the bottom"]
    status, out, _ = run(capsys, "ofc", "board", bad, good, fouled)
    assert status == 1
    assert out.startswith(f"{good} (pineapple)\n") and f"\n\n{fouled} (pineapple)\n" in out


# ----------------------------------------------------------------------------- fantasyland
def test_fantasyland_one_hand(capsys):
    status, out, err = run(capsys, "ofc", "fantasyland", FL_HAND, "--rules", "progressive")
    assert (status, err) == (0, "")
    solution = ofc.solve_fantasyland(FL_HAND, "progressive")
    lines = out.splitlines()
    assert lines[0] == f"{FL_HAND} (14 cards, progressive)"
    rows = table("\n".join(lines[1:6]))
    board = solution.board
    assert [row[1] for row in rows[1:4]] == [hand_str(board.top), hand_str(board.middle),
                                             hand_str(board.bottom)]
    assert [int(row[2]) for row in rows[1:4]] == list(ofc.royalties(board, "progressive"))
    assert rows[4] == ["total", str(solution.royalties)]
    assert lines[6] == "stays in Fantasyland: 14 cards next hand"
    assert lines[7] == f"discards: {hand_str(solution.discards)}"


def test_fantasyland_cards_as_separate_arguments_and_stay_value(capsys):
    status, out, _ = run(capsys, "ofc", "fantasyland", "--json", *STAY_HAND.split())
    plain = json.loads(out)
    assert status == 0 and plain["hand"] == STAY_HAND
    assert (plain["total"], plain["stays"], plain["value"]) == (12, False, 12.0)
    _, out, _ = run(capsys, "ofc", "fantasyland", "--json", "--stay-value", "5", STAY_HAND)
    staying = json.loads(out)
    solution = ofc.solve_fantasyland(STAY_HAND, stay_value=5)
    assert staying == {"hand": STAY_HAND, "board": str(solution.board),
                       "royalties": list(ofc.royalties(solution.board)), "total": 10, "stays": True,
                       "discards": hand_str(solution.discards), "fouled": False, "value": 15.0}


def test_fantasyland_fouled_and_bad_hands(capsys):
    no_low = "As Ks Qs Js Ts Ah Kh Qh Jh Th Ad Kd Qd"
    status, out, err = run(capsys, "ofc", "fantasyland", no_low, "As Ks", "--rules", "deuce")
    assert status == 1
    assert err.splitlines() == ["handrank: ofc fantasyland: hand 2: 'As Ks': a Fantasyland hand "
                                "has 13 to 17 cards, got 2"]
    assert ofc.solve_fantasyland(no_low, "deuce").fouled
    assert out.splitlines()[-1].startswith("fouled: every setting of these cards fouls")
    assert "discards" not in out


def write_hands(path, hands, bad_at=None):
    lines = ["# Fantasyland hands", ""]
    for i, hand in enumerate(hands):
        if i == bad_at:
            lines.append("As As Kd Qd Jd Td 9d 8d 7d 6d 5d 4d 3d   # a repeated card")
        lines.append(hand)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def mixed_hands():
    """Hands of every size 13..17, in runs that chunks must split at."""
    hands = []
    for k, n in ((14, 7), (13, 2), (17, 3), (14, 4), (15, 1), (16, 2)):
        hands += [hand_str(row) for row in random_hands(n, k, seed=k * 100 + n).tolist()]
    return hands


def test_fantasyland_file_in_chunks(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(ofc_cli, "HANDS_PER_THREAD", 2)
    hands = mixed_hands()
    path = tmp_path / "hands.txt"
    write_hands(path, hands)
    status, out, err = run(capsys, "ofc", "fantasyland", "--file", str(path), "--threads", "2",
                           "--rules", "progressive", "--json")
    assert (status, err) == (0, "")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["hand"] for r in records] == hands
    for record in records:
        solution = ofc.solve_fantasyland(record["hand"], "progressive")
        assert record["board"] == str(solution.board)
        assert (record["total"], record["stays"], record["fouled"]) == (
            solution.royalties, solution.stays, solution.fouled)
        assert record["discards"] == hand_str(solution.discards)
    status, out, _ = run(capsys, "ofc", "fantasyland", "-f", str(path), "--rules", "progressive")
    lines = out.splitlines()
    assert status == 0 and len(lines) == len(hands)
    for line, record in zip(lines, records):
        top, middle, bottom = record["royalties"]
        assert line == (f"{record['hand']}: {record['board']}, royalties {record['total']} "
                        f"({top} + {middle} + {bottom})" + (", stays" if record["stays"] else "")
                        + (f", discards {record['discards']}" if record["discards"] else ""))


def test_fantasyland_file_bad_line(capsys, tmp_path):
    hands = mixed_hands()[:5]
    path = tmp_path / "hands.txt"
    write_hands(path, hands, bad_at=3)
    status, out, err = run(capsys, "ofc", "fantasyland", "--file", str(path))
    assert status == 1
    assert [line.split(":")[0] for line in out.splitlines()] == hands    # the others are solved
    assert err.splitlines() == [f"handrank: ofc fantasyland: line 6 of {path}: "
                                "'As As Kd Qd Jd Td 9d 8d 7d 6d 5d 4d 3d': duplicate card As"]


def test_fantasyland_file_errors(capsys, tmp_path):
    status, out, err = run(capsys, "ofc", "fantasyland", "--file", str(tmp_path / "nope.txt"))
    assert (status, out) == (1, "")
    assert "cannot read" in err and "nope.txt" in err
    # a file that cannot be read fails alone: the next one is still solved
    good = tmp_path / "good.txt"
    good.write_text(mixed_hands()[0] + "\n")
    status, out, err = run(capsys, "ofc", "fantasyland", "-f", str(tmp_path / "nope.txt"), "-f", str(good))
    assert status == 1 and out.split(":")[0] == mixed_hands()[0]
    assert err.count("\n") == 1 and "cannot read" in err and "nope.txt" in err


def test_fantasyland_stdin(capsys, monkeypatch):
    hands = mixed_hands()[:3]
    status, out, _ = run(capsys, "ofc", "fantasyland", stdin="\n".join(hands) + "\n",
                         monkeypatch=monkeypatch)
    assert status == 0 and [line.split(":")[0] for line in out.splitlines()] == hands
    status, dash, _ = run(capsys, "ofc", "fantasyland", "-f", "-", stdin="\n".join(hands) + "\n",
                          monkeypatch=monkeypatch)
    assert status == 0 and dash == out


# ----------------------------------------------------------------------------- progress bar
def test_progress_bar_forced(capsys, tmp_path, monkeypatch):
    pytest.importorskip("tqdm")
    monkeypatch.setattr(ofc_cli, "HANDS_PER_THREAD", 2)
    hands = mixed_hands()[:6]
    path = tmp_path / "hands.txt"
    write_hands(path, hands)
    status, plain, err = run(capsys, "ofc", "fantasyland", "-f", str(path), "-t", "1")
    assert (status, err) == (0, "")                  # stderr is not a terminal: no bar by default
    status, out, err = run(capsys, "ofc", "fantasyland", "-f", str(path), "-t", "1", "--progress")
    assert status == 0 and out == plain              # the bar never reaches stdout
    assert "solving" in err and f"{len(hands)}/{len(hands)}" in err and "hand" in err
    status, out, err = run(capsys, "ofc", "fantasyland", "-f", str(path), "--no-progress")
    assert (status, out, err) == (0, plain, "")


def test_progress_without_tqdm(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)          # `import tqdm` raises ImportError
    hands = mixed_hands()[:2]
    path = tmp_path / "hands.txt"
    write_hands(path, hands)
    status, out, err = run(capsys, "ofc", "fantasyland", "-f", str(path), "--progress")
    assert status == 0 and len(out.splitlines()) == 2
    assert "--progress needs tqdm" in err and "handrank[progress]" in err
    status, _, err = run(capsys, "ofc", "fantasyland", "-f", str(path))
    assert (status, err) == (0, "")


def test_cli_imports_neither_tqdm_nor_the_ofc_cli_until_needed():
    probe = textwrap.dedent(f"""
        import sys
        import handrank.cli
        loaded = {{"tqdm" in sys.modules, "handrank.cli.ofc" in sys.modules}}
        assert loaded == {{False}}, "import handrank.cli"
        handrank.cli.build_parser()
        assert "tqdm" not in sys.modules, "build_parser"
        assert handrank.cli.main(["ofc", "board", {B!r}]) == 0
        assert handrank.cli.main(["ofc", "fantasyland", {FL_HAND!r}]) == 0
        assert "tqdm" not in sys.modules, "ofc board and fantasyland HAND"
    """)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr


def test_python_dash_m_ofc(tmp_path):
    path = tmp_path / "hands.txt"
    write_hands(path, [FL_HAND])
    argv = ["ofc", "fantasyland", "--file", str(path), "--progress"]
    result = subprocess.run([sys.executable, "-m", "handrank", *argv], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"{FL_HAND}: ")


# ----------------------------------------------------------------------------- docs/cli.md
def test_cli_doc_examples(capsys, tmp_path, monkeypatch):
    cli_support.replay("ofc", capsys, tmp_path, monkeypatch)
