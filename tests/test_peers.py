"""Peer evaluators in the benchmark: the registry, the harness with every installed peer and with
none, and the agreement check, which must catch a deliberately wrong evaluator and name its hands."""
import importlib.util
import json
import sys

import numpy as np
import pytest

import handrank as hr
from handrank import bench, high, low27, peers
from handrank.cli import main

INSTALLED = [p for p in peers.PEERS if importlib.util.find_spec(p.module) is not None]


def _same_as_handrank(game, *, higher_is_better=True):
    """A correct evaluator in its own convention: handrank's values, negated when lower is better."""
    evaluate_batch = {"high": high.evaluate_batch, "low27": low27.evaluate_batch}[game]
    sign = 1 if higher_is_better else -1
    return peers.PeerEvaluator(lambda hands: hands.copy(),
                               lambda hands: (sign * evaluate_batch(hands).astype(np.int64)).tolist(),
                               higher_is_better)


def _flush_blind():
    """A wrong high evaluator: it takes every flush for the weakest hand."""
    def evaluate(hands):
        values = high.evaluate_batch(hands).astype(np.int64)
        flush = np.array([high.category(int(v)) == high.Category.FLUSH for v in values])
        values[flush] = 0
        return values.tolist()
    return peers.PeerEvaluator(lambda hands: hands.copy(), evaluate, higher_is_better=True)


def _wheel_is_straight_in_27():
    """A wrong 2-7 evaluator: A-2-3-4-5 counts as a straight (worse than any pair)."""
    wheel = {0, 1, 2, 3, 12}

    def evaluate(hands):
        values = low27.evaluate_batch(hands).astype(np.int64)
        for i, row in enumerate(hands.tolist()):
            if {c // 4 for c in row} == wheel:
                values[i] = 0
        return values.tolist()
    return peers.PeerEvaluator(lambda hands: hands.copy(), evaluate, higher_is_better=True)


def _fake_registry(monkeypatch, **evaluators):
    registry = tuple(peers.Peer(name, f"fake_{name}", lambda e=e: {"high": e})
                     for name, e in evaluators.items())
    monkeypatch.setattr(peers, "PEERS", registry)


def _hide_every_peer(monkeypatch):
    for peer in peers.PEERS:
        for name in list(sys.modules):
            if name == peer.module or name.startswith(peer.module + "."):
                monkeypatch.delitem(sys.modules, name)
        monkeypatch.setitem(sys.modules, peer.module, None)     # import raises ImportError


# ----------------------------------------------------------------------------- the registry
def test_registry_names_every_peer_of_the_bench_extra():
    assert [p.name for p in peers.PEERS] == ["phevaluator", "eval7", "treys", "deuces", "pokerkit",
                                             "holdem-hand-evaluator"]
    assert len({p.module for p in peers.PEERS}) == len(peers.PEERS)


@pytest.mark.parametrize("peer", INSTALLED, ids=lambda p: p.name)
def test_installed_peer_agrees_with_handrank(peer):
    evaluators = peer.load()
    assert "high" in evaluators and set(evaluators) <= set(peers.GAMES)
    checks = bench.agreement({peer.name: evaluators}, n=300, seed=5)
    assert [(c.game, c.k) for c in checks] == [(g, k) for g in evaluators for k in peers.GAMES[g]]
    for check in checks:
        assert check.agrees, [str(d) for d in check.disagreements]
        assert check.hands == 300 + (len(bench.EDGE_HANDS) if check.k == 5 else 0)


@pytest.mark.parametrize("peer", INSTALLED, ids=lambda p: p.name)
def test_installed_peer_evaluates_the_prepared_hands(peer):
    hands = hr.random_hands(50, 7, seed=2)
    evaluator = peer.load()["high"]
    values = evaluator.oriented(evaluator.evaluate(evaluator.prepare(hands)))
    assert values.shape == (50,)
    royal = np.array([hr.cards("As Ks Qs Js Ts 2c 3d")], dtype=np.uint8)
    worst = np.array([hr.cards("7c 5d 4h 3s 2c 9d 8h")[:5] + hr.cards("Jd Kh")], dtype=np.uint8)
    best, weak = (evaluator.oriented(evaluator.evaluate(evaluator.prepare(h)))[0] for h in (royal, worst))
    assert best > weak


def test_pokerkit_deuce_to_seven_is_checked_on_the_wheel():
    pokerkit = pytest.importorskip("pokerkit")
    del pokerkit
    (peer,) = [p for p in peers.PEERS if p.name == "pokerkit"]
    (check,) = [c for c in bench.agreement({"pokerkit": peer.load()}, n=10) if c.game == "low27"]
    # Whatever the installed pokerkit says about A-2-3-4-5 is reported, not filtered: the check
    # runs on the wheels (offsuit and suited) among its edge hands.
    assert "Ac 2d 3h 4s 5c" in bench.EDGE_HANDS and "As 2s 3s 4s 5s" in bench.EDGE_HANDS
    assert check.hands == 10 + len(bench.EDGE_HANDS)
    assert check.agrees or any("A" in d.lower + d.higher for d in check.disagreements)


# ----------------------------------------------------------------------------- the agreement check
def test_compare_orderings_finds_inversions_and_split_ties():
    hands = np.array([hr.cards(t) for t in ("2c 3c 4c 5c 7d", "2d 3d 4d 5d 7h", "Ac Ad Kc Kd Qh")],
                     dtype=np.uint8)
    assert bench.compare_orderings(hands, [1, 1, 9], [5, 5, 7]) == []
    (inverted,) = bench.compare_orderings(hands, [1, 1, 9], [5, 5, 3])
    assert (inverted.higher, inverted.ours, inverted.theirs, inverted.tie) == (
        "Ac Ad Kc Kd Qh", (1, 9), (5, 3), False)
    (split,) = bench.compare_orderings(hands, [1, 1, 9], [4, 5, 7])
    assert split.tie and {split.lower, split.higher} == {"2c 3c 4c 5c 7d", "2d 3d 4d 5d 7h"}
    assert "handrank 1 = 1" in str(split)
    with pytest.raises(ValueError, match="one value per hand"):
        bench.compare_orderings(hands, [1, 2], [1, 2])


def test_lower_is_better_peer_is_oriented_before_comparing():
    checks = bench.agreement({"mirror": {"high": _same_as_handrank("high", higher_is_better=False),
                                         "low27": _same_as_handrank("low27", higher_is_better=False)}},
                             n=500)
    assert [c.label for c in checks] == ["high 5-card", "high 7-card", "2-7 5-card"]
    assert all(c.agrees for c in checks)


def test_wrong_evaluator_is_caught_with_its_hands():
    (five, seven) = bench.agreement({"flushblind": {"high": _flush_blind()}}, n=2000, seed=9)
    for check in (five, seven):
        assert not check.agrees
        for d in check.disagreements:
            lower, higher = (hr.cards(text) for text in (d.lower, d.higher))
            assert high.evaluate(lower) == d.ours[0] and high.evaluate(higher) == d.ours[1]
        flushes = [d.higher for d in check.disagreements
                   if high.category(high.evaluate(d.higher)) == high.Category.FLUSH]
        assert flushes, [str(d) for d in check.disagreements]
    text = bench.format_agreement([five, seven], {"flushblind": "6.6"}, examples=1)
    assert "flushblind 6.6  high 5-card" in text and "DISAGREES" in text and "... and" in text


def test_wheel_as_a_straight_in_27_is_shown():
    (check,) = bench.agreement({"wrap": {"low27": _wheel_is_straight_in_27()}}, n=100, seed=1)
    assert not check.agrees
    shown = {d.lower for d in check.disagreements} | {d.higher for d in check.disagreements}
    assert shown & {"Ac 2d 3h 4s 5c", "As 2s 3s 4s 5s"}


# ----------------------------------------------------------------------------- the command
def test_cli_with_every_installed_peer(capsys):
    assert main(["bench", "-n", "3000", "-r", "1", "-t", "1", "--agree", "200", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc["peers"]) == [p.name for p in INSTALLED]
    assert doc["not_installed"] == [p.name for p in peers.PEERS if p not in INSTALLED]
    names = [r["name"] for r in doc["results"]]
    for peer in INSTALLED:
        rows = [r for r in doc["results"] if r["evaluator"] == peer.name]
        assert {r["name"] for r in rows} >= {f"{peer.name} 5-card", f"{peer.name} 7-card",
                                              f"{peer.name} 7-card sorted"}
        assert all(0 < r["hands"] <= 3000 and r["vs_handrank"] > 0 for r in rows)
    assert len(names) == len(set(names))
    assert all(c["agrees"] for c in doc["agreement"]), doc["agreement"]
    assert {c["peer"] for c in doc["agreement"]} == {p.name for p in INSTALLED}


def test_cli_with_no_peer_installed(monkeypatch, capsys):
    _hide_every_peer(monkeypatch)
    assert peers.available() == ({}, [p.name for p in peers.PEERS])
    assert main(["bench", "-n", "2000", "-r", "1", "-t", "1"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert ("peers: none installed (phevaluator, eval7, treys, deuces, pokerkit, "
            "holdem-hand-evaluator): measuring handrank alone; pip install 'handrank[bench]' "
            "to compare") in out.splitlines()
    assert "high 7-card batch, 1 thread" in out and "agreement" not in out


def test_cli_reports_a_wrong_peer(monkeypatch, capsys):
    _fake_registry(monkeypatch, flushblind=_flush_blind(), good=_same_as_handrank("high"))
    assert main(["bench", "-n", "2000", "-r", "1", "-t", "1", "--agree", "3000"]) == 0
    out = capsys.readouterr().out
    assert "peers: flushblind ?, good ?" in out
    verdicts = [line for line in out.splitlines() if "hands  " in line]
    assert [line.split()[0] for line in verdicts] == ["flushblind"] * 2 + ["good"] * 2
    assert all("DISAGREES" in line for line in verdicts[:2])
    assert all(line.endswith("agrees") for line in verdicts[2:])
    assert "flushblind 5-card" in out and "good 7-card sorted" in out


def test_cli_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = tmp_path / "bench.png"
    assert main(["bench", "-n", "2000", "-r", "1", "-t", "1", "--no-peers", "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"chart: {path}" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["missing/bench.png", "bench.txt", "bench"])
def test_cli_plot_path_is_checked_before_measuring(monkeypatch, tmp_path, capsys, name):
    pytest.importorskip("matplotlib")
    monkeypatch.setattr(bench, "run", lambda *args: pytest.fail("measured before the check"))
    path = tmp_path / name
    assert main(["bench", "-n", "2000", "--no-peers", "--plot", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "usage:" in err and "argument --plot" in err and str(path) in err
    assert not path.exists()


def test_cli_plot_write_error_keeps_the_results(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = tmp_path / "bench.png"
    path.mkdir()                  # the folder exists and png is a format: only saving fails
    assert main(["bench", "-n", "2000", "-r", "1", "-t", "1", "--no-peers", "--plot", str(path)]) == 1
    out, err = capsys.readouterr()
    assert err == f"handrank: cannot write {path}: Is a directory\n"
    assert "high 7-card batch, 1 thread" in out and "chart:" not in out


def test_cli_plot_without_matplotlib(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    path = tmp_path / "bench.png"
    assert main(["bench", "-n", "2000", "-r", "1", "--no-peers", "--plot", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "pip install 'handrank[plot]'" in err and not path.exists()
    with pytest.raises(ImportError, match=r"handrank\[plot\]"):
        bench.plot([], path)
