"""The `handrank` command, run in-process through cli.main; the evaluators are the oracle."""
import io
import json
import subprocess
import sys

import pytest

import handrank
from cli_support import run
from handrank import high, high3, low27, lowa5
from handrank.high import Category

ROYAL = "As Ks Qs Js Ts"
WHEEL_LOW = "7c 5d 4h 3s 2c"


def table_rows(out):
    """The rows of an eval table as {hand: line}, checking the columns line up."""
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["hand", "game", "value", "category"]
    value_end = lines[0].index("value") + len("value")
    game_start = lines[0].index("game")
    for line in lines[1:]:
        assert line[value_end - 1].isdigit() and line[value_end] == " "
        assert line[game_start - 2:game_start] == "  " and line[game_start] != " "
    return {line[:game_start].strip(): line for line in lines[1:]}


def test_version(capsys):
    status, out, _ = run(capsys, "--version")
    assert status == 0
    assert out == f"handrank {handrank.__version__}\n"


def test_python_dash_m_version():
    result = subprocess.run([sys.executable, "-m", "handrank", "--version"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"handrank {handrank.__version__}"


def test_help_lists_subcommands(capsys):
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert "eval" in out and "bench" in out


@pytest.mark.parametrize("argv", [[], ["nope"], ["eval", "--game", "pineapple", ROYAL],
                                  ["bench", "--hands", "0"], ["bench", "--rounds", "x"],
                                  ["bench", "--seed", "-1"]])
def test_usage_errors_exit_2(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert "usage:" in err


def test_eval_one_hand(capsys):
    status, out, err = run(capsys, "eval", ROYAL)
    assert (status, err) == (0, "")
    row = table_rows(out)[ROYAL]
    assert str(high.evaluate(ROYAL)) in row
    assert "Straight flush" in row and "Royal flush" in row


def test_eval_cards_as_separate_arguments_make_one_hand(capsys):
    status, out, _ = run(capsys, "eval", *ROYAL.split())
    assert status == 0
    assert list(table_rows(out)) == [ROYAL]


def test_eval_many_hands_default_game_by_size(capsys):
    hands = [ROYAL, "Qs Qh 5d", "Ah Ad Kc Kd 2s 3s", "9c 9d 9h 4s 4d 2c 3c"]
    status, out, _ = run(capsys, "eval", *hands)
    assert status == 0
    rows = table_rows(out)
    assert list(rows) == hands
    for hand in hands:
        module, game = (high3, "high3") if len(hand.split()) == 3 else (high, "high")
        value = module.evaluate(hand)
        cells = rows[hand][len(hand):].split()
        assert cells[:2] == [game, str(value)]
        assert module.describe(value) in rows[hand]


@pytest.mark.parametrize("game, module", [("low27", low27), ("lowa5", lowa5), ("high", high)])
def test_eval_game_option(capsys, game, module):
    status, out, _ = run(capsys, "eval", "--game", game, WHEEL_LOW, "AcAd2c3c4c")
    assert status == 0
    rows = table_rows(out)
    for hand in (WHEEL_LOW, "Ac Ad 2c 3c 4c"):
        assert rows[hand][len(hand):].split()[:2] == [game, str(module.evaluate(hand))]


def test_eval_json(capsys):
    status, out, _ = run(capsys, "eval", "--json", ROYAL, "Qs Qh 5d", "--game", "high3")
    assert status == 1                       # a 5-card hand is not a 3-card hand
    records = [json.loads(line) for line in out.splitlines()]
    assert records == [{"hand": "Qs Qh 5d", "game": "high3", "value": high3.evaluate("Qs Qh 5d"),
                        "category": "PAIR", "description": high3.describe(high3.evaluate("Qs Qh 5d"))}]
    assert Category[records[0]["category"]] is Category.PAIR


def test_eval_file_skips_blank_lines_and_comments(capsys, tmp_path):
    path = tmp_path / "hands.txt"
    path.write_text(f"# hands to check\n{ROYAL}\n\n   \n{WHEEL_LOW}  # a low\nA♠ K♠ Q♠\n",
                    encoding="utf-8")
    status, out, err = run(capsys, "eval", "--json", "--file", str(path))
    assert (status, err) == (0, "")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["hand"] for r in records] == [ROYAL, WHEEL_LOW, "As Ks Qs"]
    assert [r["value"] for r in records] == [high.evaluate(ROYAL), high.evaluate(WHEEL_LOW),
                                             high3.evaluate("As Ks Qs")]


def test_eval_file_error_names_the_line(capsys, tmp_path):
    path = tmp_path / "hands.txt"
    path.write_text(f"{ROYAL}\n# note\nAs As Kd Qd Jd\n{WHEEL_LOW}\n", encoding="utf-8")
    status, out, err = run(capsys, "eval", "-f", str(path))
    assert status == 1
    assert list(table_rows(out)) == [ROYAL, WHEEL_LOW]      # the others are still printed
    assert f"line 3 of {path}" in err and "duplicate card As" in err


def test_eval_missing_file(capsys, tmp_path):
    status, out, err = run(capsys, "eval", "--file", str(tmp_path / "nope.txt"))
    assert (status, out) == (1, "")
    assert "nope.txt" in err


def test_eval_unreadable_file_fails_alone(capsys, tmp_path):
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text(f"{ROYAL}\n", encoding="utf-8")
    second.write_text(f"{WHEEL_LOW}\n", encoding="utf-8")
    missing = tmp_path / "nope.txt"
    status, out, err = run(capsys, "eval", "-f", str(first), "-f", str(missing), "-f", str(tmp_path),
                           "-f", str(second))
    assert status == 1
    assert list(table_rows(out)) == [ROYAL, WHEEL_LOW]      # the files after it are still read
    assert err.splitlines() == [f"handrank: cannot read {missing}: No such file or directory",
                                f"handrank: cannot read {tmp_path}: Is a directory"]


def binary_stdin(monkeypatch, data):
    """Standard input of these bytes, decoded strictly unless the command reads its bytes."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_eval_bad_byte_on_stdin_fails_its_line(capsys, monkeypatch):
    binary_stdin(monkeypatch, f"{ROYAL}\n\xff Kd\n".encode("latin-1"))
    status, out, err = run(capsys, "eval")
    assert status == 1
    assert list(table_rows(out)) == [ROYAL]
    assert err.startswith("handrank: line 2 of <stdin>: '\ufffd Kd': cannot parse card '\ufffd'")
    assert len(err.splitlines()) == 1


def test_eval_stdin_can_come_twice(capsys, monkeypatch):
    binary_stdin(monkeypatch, f"{ROYAL}\n".encode())
    status, out, err = run(capsys, "eval", "-", "Qs Qh 5d", "-f", "-")
    assert (status, err) == (0, "")
    assert list(table_rows(out)) == [ROYAL, "Qs Qh 5d"]     # stdin is still open, and at its end


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_eval_skips_a_byte_order_mark(capsys, monkeypatch, tmp_path, source):
    data = f"\ufeff{ROYAL}\n{WHEEL_LOW}\n".encode()
    path = tmp_path / "hands.txt"
    path.write_bytes(data)
    binary_stdin(monkeypatch, data)
    status, out, err = run(capsys, "eval", *(["-f", str(path)] if source == "file" else []))
    assert (status, err) == (0, "")
    assert list(table_rows(out)) == [ROYAL, WHEEL_LOW]


def test_eval_stdin_when_no_hand(capsys, monkeypatch):
    status, out, _ = run(capsys, "eval", stdin=f"{ROYAL}\n# skip\n\nQs Qh 5d\n",
                         monkeypatch=monkeypatch)
    assert status == 0
    assert list(table_rows(out)) == [ROYAL, "Qs Qh 5d"]


def test_eval_dash_reads_stdin_in_place(capsys, monkeypatch):
    status, out, _ = run(capsys, "eval", "--json", ROYAL, "-", "Qs Qh 5d", stdin=f"{WHEEL_LOW}\n",
                         monkeypatch=monkeypatch)
    assert status == 0
    assert [json.loads(line)["hand"] for line in out.splitlines()] == [ROYAL, WHEEL_LOW, "Qs Qh 5d"]


def test_eval_bad_hands_exit_1_and_name_the_hand(capsys, monkeypatch):
    status, out, err = run(capsys, "eval", ROYAL, "Xs Kd Qd Jd Td", "As Kd", "-",
                           stdin="2c 2c 3c 4c 5c\n", monkeypatch=monkeypatch)
    assert status == 1
    assert list(table_rows(out)) == [ROYAL]
    errors = err.splitlines()
    assert len(errors) == 3
    assert errors[0].startswith("handrank: hand 2: 'Xs Kd Qd Jd Td'") and "'Xs'" in errors[0]
    assert errors[1].startswith("handrank: hand 3: 'As Kd'") and "got 2" in errors[1]
    assert errors[2].startswith("handrank: line 1 of <stdin>") and "duplicate card 2c" in errors[2]


def test_eval_only_bad_hands_prints_no_table(capsys):
    status, out, err = run(capsys, "eval", "As Ks Qs Js")
    assert (status, out) == (1, "")
    assert "'As Ks Qs Js'" in err and "got 4" in err
