"""`handrank solve`: a spot file in, one JSON object out; bad files fail with a message."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from handrank.cli import main

SPOT = """label = "small river"
board = "Td9d6hQc2s"
oop_range = "AA,KK,QQ,AK"
ip_range = "KK,QQ,JJ,TT:0.5"
pot = 100
stack = 200
bet = "50%,a"
raise = "a"
target = 0.002
"""


def test_solve_prints_the_root_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spot = tmp_path / "spot.toml"
    spot.write_text(SPOT)
    assert main(["solve", str(spot), "--save", str(tmp_path / "g.npz")]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["label"] == "small river" and result["stopped"] == "target"
    assert result["exploitability_pot"] <= 0.002
    assert result["oop_ev"] + result["ip_ev"] == pytest.approx(100, abs=1e-3)
    assert list(result["root_strategy"]) == ["Check", "Bet(50)", "AllIn(200)"]
    assert sum(result["root_strategy"].values()) == pytest.approx(1, abs=1e-5)
    assert (tmp_path / "g.npz").exists()
    assert main(["solve", str(spot), "--max-iterations", "3", "--target", "0%", "--threads", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["iterations"] == 3
    assert main(["solve", str(spot), "--compress"]) == 0
    compressed = json.loads(capsys.readouterr().out)
    assert compressed["stopped"] == "target" and compressed["memory_bytes"] < result["memory_bytes"]


@pytest.mark.parametrize(("text", "message"), [
    ('board = "Td9d"\noop_range = "AA"\nip_range = "KK"\n', "3 to 5 cards"),
    ('board = "Td9d6h"\noop_range = "AA"\nip_range = "KK"\nbets = "50%"\n', "unknown spot key 'bets'"),
    ('board = "Td9d6h"\noop_range = "AA"\nip_range = "KK"\nbet = "50"\n', "'50' is not a size"),
    ('board = = 1', "solve:"),
])
def test_solve_rejects_bad_spots(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                 message: str) -> None:
    spot = tmp_path / "spot.toml"
    spot.write_text(text)
    assert main(["solve", str(spot)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err


def test_solve_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "/nonexistent/spot.toml"]) == 1
    assert "cannot read" in capsys.readouterr().err
