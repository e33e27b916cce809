"""`handrank bigtwo`, run in-process through cli.main."""
from __future__ import annotations

from cli_support import run

from handrank import bigtwo


def test_classify(capsys):
    status, out, err = run(capsys, "bigtwo", "classify", "7d 3d 5h 6s 4c", "Ks Qc", "Ks Kc")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"7d 3d 5h 6s 4c: straight 3d 4c 5h 6s 7d (key {bigtwo.classify('3d 4c 5h 6s 7d').key})"
    assert lines[1] == "Ks Qc: no combo"
    assert lines[2].startswith("Ks Kc: pair Kc Ks")


def test_classify_rules_and_errors(capsys):
    status, out, _ = run(capsys, "bigtwo", "classify", "--rules", "vietnam", "As 2s 3d 4d 5d")
    assert status == 0 and out.strip() == "As 2s 3d 4d 5d: no combo"
    status, out, err = run(capsys, "bigtwo", "classify", "3d 3d")
    assert status == 1 and "duplicate card 3d" in err
    status, _, err = run(capsys, "bigtwo", "classify", "--rules", "nope", "3d")
    assert status == 2


def test_moves(capsys):
    status, out, _ = run(capsys, "bigtwo", "moves", "3d", "3c", "4s", "5h", "6d", "7c", "--must", "3d")
    expected = bigtwo.legal_moves("3d 3c 4s 5h 6d 7c", must_include="3d")
    lines = out.splitlines()
    assert status == 0 and lines[-1] == f"{len(expected)} legal moves"
    assert [line.split(None, 1)[1] for line in lines[:-1]] == [str(m) for m in expected]
    status, out, _ = run(capsys, "bigtwo", "moves", "3d 3c 4s", "--beat", "2s")
    assert status == 0 and out.strip() == "0 legal moves"


def test_play_is_seeded(capsys):
    status, first, _ = run(capsys, "bigtwo", "play", "--seed", "5")
    _, again, _ = run(capsys, "bigtwo", "play", "--seed", "5")
    _, other, _ = run(capsys, "bigtwo", "play", "--seed", "6")
    assert status == 0 and first == again and first != other
    lines = first.splitlines()
    assert [line.split(":")[0] for line in lines[:4]] == [f"player {i}" for i in range(4)]
    assert lines[-1].startswith("player ") and " wins; payments [" in lines[-1]
    payments = [int(x) for x in lines[-1].split("[")[1].rstrip("]").split(",")]
    assert sum(payments) == 0
    status, out, _ = run(capsys, "bigtwo", "play", "--players", "3", "--deal", "all", "--rules", "taiwan")
    assert status == 0 and len(out.splitlines()[0].split(":")[1].split()) in (17, 18)
