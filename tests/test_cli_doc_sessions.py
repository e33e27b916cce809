"""The `handrank eval` and `handrank equity` sessions of docs/cli.md, the variants' `--game`
choices among them, replayed: each command prints exactly what the page shows."""
import cli_support


def test_eval_sessions(capsys, tmp_path, monkeypatch):
    cli_support.replay("eval", capsys, tmp_path, monkeypatch)


def test_equity_sessions(capsys, tmp_path, monkeypatch):
    cli_support.replay("equity", capsys, tmp_path, monkeypatch)
