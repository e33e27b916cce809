"""The file cache for what handrank builds once (Chinese poker's row tables, the EHS tables):
where it lives, reading a file without trusting it, and writing one whole or not at all."""
from __future__ import annotations

import os
import re
import stat
import sys
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from pathlib import Path

    import numpy.typing as npt


def cache_dir() -> Path:
    """Where handrank keeps what it builds once: HANDRANK_CACHE_DIR, else the platform's cache."""
    from pathlib import Path        # (pathlib loads only when the cache is used)

    if os.environ.get("HANDRANK_CACHE_DIR"):    # "~/x" as the shell would read it unquoted
        return Path(os.environ["HANDRANK_CACHE_DIR"]).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "handrank"


def is_regular_file(path: Path) -> bool:
    """Whether `path` is a regular file we can open, checked on an open descriptor."""
    try:
        # O_NONBLOCK: a FIFO at the path opens at once instead of waiting for a writer forever
        # (on a regular file the flag changes nothing); anything but a regular file (a FIFO, a
        # device, a directory) is then refused as damaged, unread
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode)
    finally:
        os.close(fd)


def read_array(path: Path, *, mmap: bool = False) -> npt.NDArray[Any] | None:
    """The array kept at `path` (memory-mapped read-only with `mmap`), or None when the file is
    missing, unreadable, not a regular file or not an .npy file (the caller then rebuilds it and
    checks what it read)."""
    if not is_regular_file(path):
        return None
    try:
        arr: npt.NDArray[Any] = np.load(path, mmap_mode="r" if mmap else None, allow_pickle=False)
    except Exception:       # a damaged file fails in many ways (EOFError, ValueError, ...): rebuild
        return None
    return arr


# A temporary file older than this is no live writer's (the largest, the river EHS table's 985 MB,
# takes minutes), whatever its name says.
_STALE_SECONDS = 6 * 3600
# save_array's temporary files: the target's stem, the writer's pid and host (older versions wrote
# neither), mkstemp's 8 characters
_TEMP_NAME = re.compile(r"[\w-]+\.(?:(?P<pid>\d+)-(?P<host>[\w-]*)\.)?[a-z0-9_]{8}\.tmp")


def _host() -> str:
    import socket

    return re.sub(r"[^\w-]", "_", socket.gethostname())


def _pid_alive(pid: int) -> bool:
    if sys.platform == "win32":     # signal 0 there is CTRL_C_EVENT: only the age tells
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:                 # alive, another user's
        return True
    return True


def _remove(path: str | Path) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def sweep_stale(directory: Path) -> None:
    """Remove the temporary files of save_array no live writer holds: named with a pid of this
    host that is gone (a writer killed or interrupted before it could clean up), or untouched
    for _STALE_SECONDS (an older version's names, another host's, a reused pid)."""
    import time

    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    host, now = _host(), time.time()
    for entry in entries:
        match = _TEMP_NAME.fullmatch(entry.name)
        if match is None:
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            old = now - entry.stat(follow_symlinks=False).st_mtime > _STALE_SECONDS
        except OSError:
            continue
        orphan = match["pid"] is not None and match["host"] == host and not _pid_alive(int(match["pid"]))
        if old or orphan:
            _remove(entry.path)


def save_array(path: Path, arr: npt.NDArray[Any]) -> None:
    """Write the file whole or not at all: into a temporary file of the same directory, then
    renamed over `path` (atomic, so a crash or another process writing at once never leaves
    half a file). The temporary file goes whatever stops the write (Ctrl-C included), and the
    ones a killed writer left are swept first. A directory we cannot write only means the array
    is rebuilt next time."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        sweep_stale(path.parent)
        fd, partial = tempfile.mkstemp(prefix=f"{path.stem}.{os.getpid()}-{_host()}.", suffix=".tmp",
                                       dir=path.parent)
    except OSError:
        return
    try:
        try:
            with os.fdopen(fd, "wb") as f:
                np.save(f, arr, allow_pickle=False)
            os.replace(partial, path)
        except BaseException:
            _remove(partial)
            raise
    except OSError:
        pass
