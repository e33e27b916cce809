"""`handrank equity` (handrank.cli.equity) run on a parser built here, as the command registers it."""
import argparse
import json

import pytest

from handrank import equity
from handrank.cli import equity as cli_equity


def run(argv, capsys):
    parser = argparse.ArgumentParser(prog="handrank equity")
    cli_equity.add_arguments(parser)
    code = cli_equity.run(parser.parse_args(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_table(capsys):
    code, out, err = run(["AsKs", "QQ+,AKs", "--board", "Jh Th 2c"], capsys)
    assert code == 0 and err == ""
    want = equity.calculate(["AsKs", "QQ+,AKs"], "Jh Th 2c")
    assert "hand/range" in out and "QQ+,AKs" in out
    assert f"{want.equity[0]:.4%}" in out
    assert "showdowns (exact)" in out


def test_json_monte_carlo(capsys):
    code, out, _ = run(["AsKs", "random", "random", "--samples", "20000", "--seed", "3", "--json",
                        "--no-progress"], capsys)
    assert code == 0
    data = json.loads(out)
    want = equity.calculate(["AsKs", "random", "random"], samples=20000, seed=3)
    assert [p["equity"] for p in data["players"]] == list(want.equity)
    assert data["exact"] is False and data["showdowns"] == 20000
    assert [p["hand"] for p in data["players"]] == ["AsKs", "random", "random"]
    assert all("stderr" in p for p in data["players"]) and data["acceptance"] == 1.0


def test_exact_flag(capsys):
    code, out, _ = run(["AhAs", "KcKd", "--exact", "--json", "--dead", "2c"], capsys)
    data = json.loads(out)
    assert code == 0 and data["exact"] and data["showdowns"] == 1_533_939


def test_bad_input_is_one_line(capsys):
    code, out, err = run(["AsKs", "AKx"], capsys)
    assert code == 1 and out == ""
    assert err.startswith("handrank: ") and err.count("\n") == 1 and "AKx" in err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as stop:
        run(["AsKs", "QQ", "--exact", "--samples", "5"], capsys)
    assert stop.value.code == 2
