"""The file cache for what handrank builds once (Chinese poker's row tables, the EHS tables):
where it lives, reading a file without trusting it, and writing one whole or not at all."""
from __future__ import annotations

import os
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


def save_array(path: Path, arr: npt.NDArray[Any]) -> None:
    """Write the file whole or not at all: into a temporary file of the same directory, then
    renamed over `path` (atomic, so a crash or another process writing at once never leaves
    half a file). A directory we cannot write only means the array is rebuilt next time."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, partial = tempfile.mkstemp(prefix=path.stem + ".", suffix=".tmp", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as f:
            np.save(f, arr, allow_pickle=False)
        os.replace(partial, path)
    except OSError:
        try:
            os.remove(partial)
        except OSError:
            pass
