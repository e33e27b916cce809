"""`import handrank` is cheap: no build-time module, no file read beyond the modules themselves,
and the modules only some commands need (argparse, json, thread pools, tqdm) stay unimported."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

# Runs in a fresh interpreter: records every file opened and every module imported by
# `import handrank`, and prints them as JSON.
PROBE = textwrap.dedent("""
    import json, sys

    opened = []

    def audit(event, args):
        if event == "open":
            opened.append(args[0])

    before = set(sys.modules)
    sys.addaudithook(audit)
    import handrank
    imported = sorted(set(sys.modules) - before)
    after = sorted(sys.modules)
    print(json.dumps({"opened": [p if isinstance(p, str) else repr(p) for p in opened],
                      "imported": imported, "after": after}))
""")

# What the import system itself opens: module sources, bytecode (and its atomic rewrite inside
# __pycache__) and extension modules.
MODULE_SUFFIXES = (".py", ".pyc", ".so", ".pyd")
BUILD_TIME = ("Cython", "setuptools", "distutils", "pyximport", "tools.gen_tables")
LAZY = ("argparse", "json", "concurrent.futures", "tqdm", "dask", "distributed")


def probe() -> dict[str, list[str]]:
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60,
                            check=True)
    return json.loads(result.stdout)


def _is_module_file(path: str) -> bool:
    import os.path
    return (path.endswith(MODULE_SUFFIXES) or "__pycache__" in path.replace("\\", "/").split("/")
            or os.path.isdir(path))


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def test_import_opens_no_data_file() -> None:
    others = [path for path in probe()["opened"] if not _is_module_file(path)]
    assert others == [], f"import handrank opened files besides modules: {others}"


def test_import_loads_no_build_time_module() -> None:
    build = [name for name in probe()["after"] if _within(name, BUILD_TIME)]
    assert build == [], f"import handrank left build-time modules loaded: {build}"


def test_import_leaves_lazy_modules_unimported() -> None:
    eager = [name for name in probe()["imported"] if _within(name, LAZY)]
    assert eager == [], f"import handrank imported modules it should import lazily: {eager}"


def test_games_load_on_first_use() -> None:
    imported = probe()["imported"]
    assert not [m for m in imported if _within(m, ("handrank.bigtwo", "handrank.ofc", "handrank.chinese"))]
    code = "import handrank; print(handrank.ofc.__name__, handrank.chinese.Rules.__module__, handrank.bigtwo.Game.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["handrank.ofc", "handrank.chinese.rules", "Game"]


def test_dask_layer_without_dask_says_how_to_install_it() -> None:
    # A fresh interpreter where `import dask` fails, as it does without the extra.
    code = textwrap.dedent("""
        import sys
        sys.modules["dask"] = None
        try:
            import handrank.dask
        except ImportError as exc:
            print(exc)
        else:
            print("imported")
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            check=True)
    assert "pip install 'handrank[dask]'" in result.stdout, result.stdout + result.stderr
