"""`handrank iso`: indices, canonical hands and sizes, and one-line errors with exit status 1."""
import pytest

from handrank import iso
from handrank.cards import hand_str

from cli_support import run


def test_index_and_canonical(capsys):
    status, out, err = run(capsys, "iso", "2,5", "As Kd Qh Jh 2c 3s 4d", "Ah Ks Qd Jd 2c 3h 4s")
    ix = iso.Indexer([2, 5])
    index = ix.index("As Kd Qh Jh 2c 3s 4d")
    canonical = hand_str(ix.unindex(1, index))
    assert status == 0 and err == ""
    assert out.splitlines() == [f"As Kd Qh Jh 2c 3s 4d: index {index} in round 1, canonical {canonical}",
                                f"Ah Ks Qd Jd 2c 3h 4s: index {index} in round 1, canonical {canonical}"]


def test_round_unindex_and_sizes(capsys):
    status, out, _ = run(capsys, "iso", "4,3,1,1", "--sizes", "--round", "0", "--unindex", "0", "16431")
    assert status == 0
    assert out.splitlines() == ["round 0: 16,432 classes", "round 1: 204,461,673 classes",
                                "round 2: 8,964,883,057 classes", "round 3: 389,802,959,832 classes",
                                "0: 2c 3c 4c 5c", f"16431: {hand_str(iso.Indexer([4]).unindex(0, 16431))}"]
    status, out, _ = run(capsys, "iso", "2,3", "As Kd Qh Jh 2c", "-r", "0")
    assert status == 0 and out.startswith(f"As Kd Qh Jh 2c: index {iso.Indexer([2]).index('As Kd')} in round 0")


@pytest.mark.parametrize("argv, message", [
    (["2,3", "As As"], "duplicate card As"),
    (["2,3", "--unindex", "200", "-r", "0"], "index 200 is out of range 0..168"),
    (["2,3", "As Kd Qh"], "has 2, 5 cards"),
    (["2,3", "As Kd", "-r", "1"], "round 1 needs 5 cards"),
])
def test_a_bad_hand_or_index_is_one_line_with_status_1(capsys, argv, message):
    status, out, err = run(capsys, "iso", *argv)
    assert status == 1 and message in err and err.count("\n") == 1


@pytest.mark.parametrize("argv, message", [
    (["2,x"], "STRUCTURE must be card counts"),
    (["0,3"], "positive counts"),
    (["2,3", "-r", "5", "--unindex", "1"], "round must be in 0..1"),
    (["2,3", "-r", "-1"], "must be at least 0"),
    (["2,3", "--unindex", "-4"], "must be at least 0"),
    (["2,2,2,2,2,1,1,1", "--sizes"], "would list 6,400,000 partial deals (about 2.6 GB); the limit is"),
])
def test_a_bad_structure_or_option_is_a_usage_error(capsys, argv, message):
    try:        # argparse's own usage errors exit; the command's return 2
        status, _, err = run(capsys, "iso", *argv)
    except SystemExit as stop:
        status, err = stop.code, capsys.readouterr().err
    assert status == 2 and message in err and err.startswith("usage: handrank iso")
    assert "Traceback" not in err


def test_a_bad_hand_fails_alone(capsys):
    status, out, err = run(capsys, "iso", "2,3", "As As", "As Kd")
    assert status == 1 and "duplicate card As" in err
    assert out == f"As Kd: index {iso.Indexer([2]).index('As Kd')} in round 0, canonical Kd Ac\n"
