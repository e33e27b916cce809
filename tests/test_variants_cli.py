"""`handrank eval --game` for the variants (omaha, omaha8, shortdeck, shortdeck-triton, badugi,
badugi27) and their rows in `handrank bench`'s agreement check."""
import json

import pytest

from cli_support import run, table
from handrank import badugi, bench, high, omaha, peers, shortdeck


def test_eval_omaha_hole_bar_board(capsys):
    status, out, _ = run(capsys, "eval", "--game", "omaha", "As Ks 2d 2c | Qs Js Ts 2h 3h",
                         "Ah Kh 7c 7d|Qh Jh 2s 7s 9c")
    assert status == 0
    rows = table(out)
    assert rows[1] == ["As Ks 2d 2c | Qs Js Ts 2h 3h", "omaha", "7462", "Straight flush", "Royal flush"]
    assert rows[2][2] == str(omaha.evaluate("Ah Kh 7c 7d", "Qh Jh 2s 7s 9c"))


def test_eval_omaha8_names_the_low(capsys):
    status, out, _ = run(capsys, "eval", "--game", "omaha8", "--json",
                         "As 2s Kd Kc | 3h 4h 5c Qd Jd", "Ah Kh 7c 7d | Qh Jh 2s 7s 9c")
    assert status == 0
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["description"] == "Straight, five high; low: Five-four low (5-4-3-2-A)"
    assert first["value"] == high.evaluate("As 2s 3h 4h 5c")
    assert second["description"].endswith("; no low")


@pytest.mark.parametrize("game, rules", [("shortdeck", "standard"), ("shortdeck-triton", "triton")])
def test_eval_shortdeck(capsys, game, rules):
    status, out, _ = run(capsys, "eval", "--game", game, "--json", "Tc Td Th 6c 7d 8h 9s")
    assert status == 0
    row = json.loads(out)
    value = shortdeck.evaluate("Tc Td Th 6c 7d 8h 9s", rules=rules)
    assert (row["value"], row["description"]) == (value, shortdeck.describe(value, rules=rules))
    assert row["category"] == shortdeck.category(value, rules=rules).name


@pytest.mark.parametrize("game, ace_low", [("badugi", True), ("badugi27", False)])
def test_eval_badugi_has_no_category(capsys, game, ace_low):
    status, out, _ = run(capsys, "eval", "--game", game, "--json", "Ac 2d 3h 4s")
    row = json.loads(out)
    assert status == 0 and row["category"] is None
    assert row["value"] == badugi.evaluate("Ac 2d 3h 4s", ace_low=ace_low)
    status, out, _ = run(capsys, "eval", "--game", game, "Ac 2d 3h 4s")
    assert table(out)[1][3] == "-"


@pytest.mark.parametrize("game, module", [("stud", "high"), ("razz", "lowa5")])
def test_eval_stud_and_razz_up_cards(capsys, game, module):
    from handrank import high, lowa5
    evaluator = {"high": high, "lowa5": lowa5}[module]
    status, out, _ = run(capsys, "eval", "--game", game, "--json", "7c 4d 2h")
    row = json.loads(out)
    assert status == 0 and row["value"] == evaluator.evaluate_partial("7c 4d 2h")
    assert row["description"] == evaluator.describe_partial(row["value"])


@pytest.mark.parametrize("game, hand, message", [
    ("omaha", "As Ks Qs Js Ts", "hole cards, '|', then the board"),
    ("omaha", "As Ks 2d 2c | Qs Js As 2h 3h", "As is both a hole card and a board card"),
    ("omaha8", "As Ks | Qs Js Ts", "4, 5 or 6 hole cards"),
    ("shortdeck", "As Ks Qs Js 5c", "5c is not in the short deck"),
    ("badugi", "As Ks Qs", "4 cards, got 3"),
    ("stud", "As Ks Qs Js Ts", "1 to 4 cards, got 5"),
])
def test_eval_variant_errors_name_the_hand(capsys, game, hand, message):
    status, out, err = run(capsys, "eval", "--game", game, hand)
    assert status == 1 and out == ""
    assert message in err and "Traceback" not in err


def test_agreement_covers_the_variants():
    loaded, _ = peers.available()
    wanted = {("pokerkit", g) for g in ("omaha", "omaha8", "shortdeck", "badugi")} | {("phevaluator", "omaha")}
    present = {(name, game) for name, evaluators in loaded.items() for game in evaluators} & wanted
    if not present:
        pytest.skip("neither pokerkit nor phevaluator is installed")
    checks = [c for c in bench.agreement(loaded, n=300) if (c.peer, c.game) in wanted]
    assert {(c.peer, c.game) for c in checks} == present
    assert all(c.agrees for c in checks), bench.format_agreement(checks)
