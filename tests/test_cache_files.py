"""What handrank builds once and keeps in a cache directory (Chinese poker's opponent tables,
chinese.ev): a path that is not a regular file is damaged, never opened for reading (a FIFO would
block the process forever), and HANDRANK_CACHE_DIR is read as the shell would ("~/x")."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

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
