"""`handrank ehs`: a hand's EHS/EHS2, the table build, and one-line errors with the right status."""
import numpy as np
import pytest

from handrank import ehs

from cli_support import run


@pytest.mark.parametrize("hole, board", [("As Ah", "2c 3d 7h"), ("Td 9d", "8d 7c 2s Kh"),
                                         ("Kc Qh", "Ac Jd Ts 2h 2c")])
def test_a_hands_values(capsys, hole, board):
    status, out, err = run(capsys, "ehs", hole, board)
    from handrank.cards import cards
    value, square = ehs.ehs_rows(np.array([cards(hole) + cards(board)], dtype=np.uint8))
    assert status == 0 and err == ""
    assert out == f"{hole} on {board}: EHS {value[0]:.6f}  EHS2 {square[0]:.6f}\n"


def test_table_lookup_reads_the_cached_table(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("HANDRANK_CACHE_DIR", str(tmp_path))
    size = ehs._indexer(3).size(1)
    table = np.stack([np.full(size, 0.25, dtype=np.float32), np.full(size, 0.125, dtype=np.float32)])
    np.save(ehs._cache_file("flop"), table)
    status, out, _ = run(capsys, "ehs", "--table", "As Kd", "2c 3d 7h")
    assert status == 0 and out == "As Kd on 2c 3d 7h: EHS 0.250000  EHS2 0.125000\n"
    status, out, _ = run(capsys, "ehs", "--build", "flop")
    assert status == 0 and out.startswith("flop: 1,286,792 hands, cached in ")


def test_build_says_when_the_table_could_not_be_cached(capsys, tmp_path, monkeypatch):
    blocked = tmp_path / "a file"
    blocked.write_bytes(b"")
    monkeypatch.setenv("HANDRANK_CACHE_DIR", str(blocked / "cache"))       # cannot be made
    size = ehs._indexer(3).size(1)
    # the flop's build (100 s) stood in for by its last step, the store that fails
    monkeypatch.setattr(ehs, "ehs_table", lambda street, progress: ehs._store(
        street, np.full(size, 0.5), np.full(size, 0.25)))
    status, out, err = run(capsys, "ehs", "--build", "flop")
    assert status == 0 and err == ""
    where = blocked / "cache" / "ehs-flop-v1.npy"
    assert out == f"flop: 1,286,792 hands, not cached (could not write {where}): built again next time\n"
    monkeypatch.setenv("HANDRANK_CACHE_DIR", str(tmp_path))
    status, out, _ = run(capsys, "ehs", "--build", "flop")
    assert status == 0 and out == f"flop: 1,286,792 hands, cached in {tmp_path / 'ehs-flop-v1.npy'}\n"


@pytest.mark.parametrize("argv, status, message", [
    (["ehs"], 2, "give HOLE and BOARD"),
    (["ehs", "As Ks"], 2, "BOARD is missing"),
    (["ehs", "--build", "preflop"], 2, "invalid choice"),
    (["ehs", "As", "2c 3d 7h"], 1, "HOLE: a hold'em hand has 2 cards"),
    (["ehs", "As Ks", "2c 3d"], 1, "BOARD: 3, 4 or 5 cards"),
    (["ehs", "As Ks", "As 3d 7h"], 1, "repeated"),
    (["ehs", "Zz Ks", "2c 3d 7h"], 1, "cannot parse card"),
])
def test_errors(capsys, argv, status, message):
    got, out, err = run(capsys, *argv)
    assert got == status and out == "" and message in err and "Traceback" not in err
