"""The type stubs and annotations hold: mypy --strict accepts a typed program that uses the public
API and the package itself, and stubtest finds the compiled module's stub true to the runtime."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

import handrank

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "typing" / "example.py"
ALLOWLIST = ROOT / "typing" / "stubtest-allowlist.txt"
PACKAGE = Path(handrank.__file__).resolve().parent
PACKAGE_PARENT = PACKAGE.parent


def _run(args: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run `python -m *args` in `cwd` (where mypy puts its cache), pointed at this handrank; fail
    after `timeout` seconds."""
    env = dict(os.environ)
    if PACKAGE_PARENT == ROOT / "src":
        # An in-place build: point mypy (MYPYPATH) and the stubtest runtime (PYTHONPATH) at src/.
        # An installed wheel is found through site-packages and its py.typed instead.
        env["MYPYPATH"] = str(PACKAGE_PARENT)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_PARENT), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.skipif(not EXAMPLE.exists(), reason="typing/example.py is not in this tree")
def test_example_passes_mypy_strict(tmp_path: Path) -> None:
    result = _run(["mypy", "--strict", str(EXAMPLE)], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(not PACKAGE.is_dir(), reason="the handrank package directory is not found")
def test_package_passes_mypy_strict(tmp_path: Path) -> None:
    # Every module, stubs included, from a cold cache: about 10 s on a fast machine, so a
    # generous limit for slow ones.
    result = _run(["mypy", "--strict", "-p", "handrank"], tmp_path, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


# Every compiled module's stub, found from the .pyi files beside it, so a new module cannot be left out.
COMPILED = sorted(".".join(("handrank",) + stub.relative_to(PACKAGE).with_suffix("").parts)
                  for stub in PACKAGE.rglob("_*.pyi"))


@pytest.mark.parametrize("module", COMPILED)
def test_stub_matches_compiled_module(tmp_path: Path, module: str) -> None:
    args = ["mypy.stubtest", module]
    if ALLOWLIST.exists():
        args += ["--allowlist", str(ALLOWLIST)]
    result = _run(args, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
