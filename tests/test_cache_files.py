"""What handrank builds once and keeps in a cache directory (Chinese poker's opponent tables,
chinese.ev; the EHS tables): a path that is not a regular file is damaged, never opened for
reading (a FIFO would block the process forever), HANDRANK_CACHE_DIR is read as the shell would
("~/x"), and no temporary file of a save outlives it (interrupted, or its writer killed)."""
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from handrank import _cache
from handrank.chinese import ev

from test_chinese_fixes import built, run_ev  # noqa: F401 (built: a fixture)


def run_with_timeout(cache, seconds=120):
    """The ev of run_ev's hand with the cache directory `cache`, or a failure after `seconds`."""
    process = run_ev(cache)
    try:
        out, err = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"still running after {seconds} s")
    assert process.returncode == 0, err
    return float(out)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_at_the_cache_path_is_rebuilt_and_replaced(built, tmp_path):
    name, good, value = built
    os.mkfifo(tmp_path / name)
    assert run_with_timeout(tmp_path) == value      # it used to wait for a writer forever
    assert (tmp_path / name).is_file() and (tmp_path / name).read_bytes() == good


def test_a_directory_at_the_cache_path_is_not_read(built, tmp_path):
    name, good, value = built
    (tmp_path / name).mkdir()
    assert run_with_timeout(tmp_path) == value       # rebuilt; the directory cannot be replaced
    assert (tmp_path / name).is_dir()
    assert [p.name for p in tmp_path.iterdir()] == [name]      # no temporary file left behind


def test_load_refuses_what_is_not_a_regular_file(tmp_path):
    assert ev._load(tmp_path) is None                            # a directory
    assert ev._load(tmp_path / "missing.npy") is None
    if os.path.exists("/dev/zero"):
        assert ev._load(Path("/dev/zero")) is None               # a device, endless
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo.npy")
        assert ev._load(tmp_path / "fifo.npy") is None           # at once, not blocked


def test_the_cache_dir_expands_the_home_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))              # Windows' home
    monkeypatch.setenv("HANDRANK_CACHE_DIR", os.path.join("~", "handrank-cache"))
    assert ev.cache_dir() == tmp_path / "handrank-cache"
    assert ev._cache_file(ev.Rules()).parent == tmp_path / "handrank-cache"


def test_no_literal_tilde_folder_is_made(built, tmp_path):
    # before the fix the cache went to ./~/x, a folder named "~" in the working directory
    name, good, value = built
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    process = subprocess.run(
        [sys.executable, "-c", "from handrank import chinese; chinese.row_tables()"], cwd=work,
        env={**os.environ, "HOME": str(home), "USERPROFILE": str(home),
             "HANDRANK_CACHE_DIR": "~/x"}, capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr
    assert list(work.iterdir()) == []
    assert [p.name for p in (home / "x").iterdir()] == [name]


def _temp_files(directory):
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_an_interrupted_save_leaves_no_temporary_file(tmp_path, monkeypatch):
    # a Ctrl-C while the river EHS table was written left its 985 MB temporary file for good
    def interrupted(f, arr, allow_pickle):
        f.write(b"\x93NUMPY half a table")
        assert _temp_files(tmp_path)                # the write is under way in a temporary file
        raise KeyboardInterrupt

    monkeypatch.setattr(_cache.np, "save", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _cache.save_array(tmp_path / "ehs-river-v1.npy", np.zeros(4, dtype=np.float32))
    assert list(tmp_path.iterdir()) == []


def _dead_pid():
    process = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                             capture_output=True, text=True, check=True)
    return int(process.stdout)


def test_the_next_save_sweeps_the_temporary_files_no_live_writer_holds(tmp_path):
    host = _cache._host()
    stale = [f"ehs-river-v1.{_dead_pid()}-{host}.abcd1234.tmp",      # a writer killed mid-write
             "ehs-turn-v1.k2j4_x9q.tmp"]                              # an older version's, old
    kept = [f"ehs-flop-v1.{os.getpid()}-{host}.zz99aa00.tmp",         # a live writer's
            "chinese-rows-0123456789abcdef.q1w2e3r4.tmp",             # an older version's, recent
            "notes.tmp", "ehs-river-v0.npy"]                          # not save_array's temporaries
    for name in stale + kept:
        (tmp_path / name).write_bytes(b"x")
    day_ago = time.time() - 24 * 3600
    os.utime(tmp_path / stale[1], (day_ago, day_ago))
    if sys.platform == "win32":         # no pid check there (os.kill(pid, 0) sends a Ctrl-C): age
        os.utime(tmp_path / stale[0], (day_ago, day_ago))
    os.utime(tmp_path / "notes.tmp", (day_ago, day_ago))
    _cache.save_array(tmp_path / "ehs-flop-v1.npy", np.arange(3.0))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(kept + ["ehs-flop-v1.npy"])
    assert np.array_equal(np.load(tmp_path / "ehs-flop-v1.npy"), np.arange(3.0))
