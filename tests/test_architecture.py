"""The package's architecture, read from its source with `ast`: no import cycles anywhere, and the
command line's subcommands import what they share from handrank.cli._common, never each other
nor handrank.cli itself.

Every import counts, at any depth (function-local ones included); ``from a import b`` counts as
importing the module ``a.b`` when b is a module of the package, else as importing ``a``. Imports
under ``if TYPE_CHECKING:`` are left out: they never run. Compiled modules (.pyx) count with their
Python imports (``cimport`` is resolved at build time, not import time); where only the built
extension is there (an installed wheel ships no .pyx), the module counts with no imports."""
from __future__ import annotations

import ast
import importlib.machinery
import re
import textwrap
from pathlib import Path

import pytest

import handrank
import handrank.cli

PACKAGE = Path(handrank.__file__).parent

# A .pyx is not Python: its Python imports are read line by line (a cimport never matches).
_PYX_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([^\n#]+))"
                         r"|import[ \t]+([\w.]+))", re.MULTILINE)


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Module name -> file of every .py and .pyx under `root`, the package named `package`, and of
    every built extension that has no .pyx beside it."""
    found = {}
    built = [path for suffix in importlib.machinery.EXTENSION_SUFFIXES for path in root.rglob(f"*{suffix}")]
    for path in [*sorted(built), *sorted([*root.rglob("*.py"), *root.rglob("*.pyx")])]:
        parts = list(path.relative_to(root).parts)
        parts[-1] = parts[-1].split(".", 1)[0]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join([package, *parts])] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> list[tuple[int, str | None, list[str]]]:
    """(level, module, names) of every import that runs, skipping `if TYPE_CHECKING:` bodies."""
    found: list[tuple[int, str | None, list[str]]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((0, alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module, [alias.name for alias in node.names]))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _pyx_imports(text: str) -> list[tuple[int, str | None, list[str]]]:
    found: list[tuple[int, str | None, list[str]]] = []
    for source, listed, line, plain in _PYX_IMPORT.findall(text):
        if plain:
            found.append((0, plain, []))
        else:
            level = len(source) - len(source.lstrip("."))
            names = [n.split()[0] for n in (listed or line).split(",") if n.strip()]
            found.append((level, source.lstrip(".") or None, names))
    return found


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports."""
    files = module_files(root, package)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        if path.suffix not in (".py", ".pyx"):
            graph[name] = set()         # a built extension: its imports are not readable
            continue
        text = path.read_text(encoding="utf-8")
        imports = _pyx_imports(text) if path.suffix == ".pyx" else _imports(ast.parse(text, str(path)))
        is_package = path.name == "__init__.py"
        edges = set()
        for level, module, names in imports:
            if level:       # relative: from the module's package, up level - 1 more
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - (level - 1)]
                module = ".".join(base + ([module] if module else []))
            assert module is not None
            for imported in names or [None]:
                full = f"{module}.{imported}" if imported else module
                target = full if full in files else module
                # `import a.b.c` runs a, a.b and a.b.c: the deepest module of the package counts
                while target not in files and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in files and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph` as [a, b, ..., a], or None when there is none."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str] | None:
        path.append(node)
        on_path.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt in on_path:
                return path[path.index(nxt):] + [nxt]
            if nxt not in done:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    for start in sorted(graph):
        if start not in done:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


# ----------------------------------------------------------------------------- the real package
def test_package_has_no_import_cycle() -> None:
    graph = import_graph(PACKAGE, "handrank")
    assert "handrank.cli.ofc" in graph and "handrank.bigtwo.combo" in graph   # the tree was found
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_subcommands_import_neither_each_other_nor_the_cli_package() -> None:
    graph = import_graph(PACKAGE, "handrank")
    modules = {f"handrank.cli.{name}" for name in handrank.cli.SUBCOMMANDS}
    for module in sorted(modules):
        assert module in graph, f"{module} is listed in handrank.cli.SUBCOMMANDS but not found"
        wrong = sorted(graph[module] & (modules | {"handrank.cli"}))
        assert wrong == [], f"{module} imports {wrong}; shared code belongs in handrank.cli._common"


def test_subcommands_follow_the_contract() -> None:
    import importlib
    for name in handrank.cli.SUBCOMMANDS:
        module = importlib.import_module(f"handrank.cli.{name}")
        assert isinstance(module.HELP, str) and module.HELP
        assert callable(module.add_arguments) and callable(module.run)


def test_evaluators_do_not_import_the_games_or_the_cli() -> None:
    # `import handrank` loads the evaluators alone: none of them may reach a game layer
    graph = import_graph(PACKAGE, "handrank")
    layers = ("handrank.bigtwo", "handrank.ofc", "handrank.chinese", "handrank._threerow", "handrank.cli")
    for name in ("handrank", "handrank.cards", "handrank.high", "handrank.high3", "handrank.low27",
                 "handrank.lowa5", "handrank.rows", "handrank._batch"):
        wrong = [m for m in graph[name] if m.startswith(layers)]
        assert wrong == [], f"{name} imports {wrong}"


# ----------------------------------------------------------------------------- the checker itself
def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def test_checker_reports_a_cycle_through_a_function_local_import(tmp_path: Path) -> None:
    root = _package(tmp_path / "cyclic", {
        "__init__.py": "from cyclic import a\n",
        "a.py": "from cyclic import b   # b is a module: this imports cyclic.b\n",
        "b.py": """
            def late():
                from .a import something     # relative and inside a function: still a cycle
                return something
        """,
    })
    graph = import_graph(root, "cyclic")
    assert graph == {"cyclic": {"cyclic.a"}, "cyclic.a": {"cyclic.b"}, "cyclic.b": {"cyclic.a"}}
    assert find_cycle(graph) == ["cyclic.a", "cyclic.b", "cyclic.a"]


def test_checker_reports_a_cycle_through_a_package_init(tmp_path: Path) -> None:
    root = _package(tmp_path / "cyclic", {
        "__init__.py": "",
        "game/__init__.py": "from cyclic.game.rules import Rules\n",
        "game/rules.py": "import cyclic.game.shared\n",
        "game/shared.py": "from cyclic.game import Rules    # a name of the package: its __init__\n",
    })
    cycle = find_cycle(import_graph(root, "cyclic"))
    assert cycle == ["cyclic.game", "cyclic.game.rules", "cyclic.game.shared", "cyclic.game"]


def test_checker_skips_type_checking_imports_and_cimports(tmp_path: Path) -> None:
    root = _package(tmp_path / "acyclic", {
        "__init__.py": "",
        "a.py": "from acyclic import b\n",
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from acyclic.a import A\n",
        "_c.pyx": "from acyclic.a cimport thing\nfrom acyclic.b import (x,\n    y)\ncimport cython\n",
    })
    graph = import_graph(root, "acyclic")
    assert graph["acyclic.b"] == set() and graph["acyclic._c"] == {"acyclic.b"}
    assert find_cycle(graph) is None


@pytest.mark.parametrize("doubled", ["a", "b"])
def test_checker_finds_a_cycle_wherever_the_search_starts(tmp_path: Path, doubled: str) -> None:
    other = "b" if doubled == "a" else "a"
    root = _package(tmp_path / "pkg", {"__init__.py": "", f"{doubled}.py": f"import pkg.{other}\n",
                                       f"{other}.py": f"import pkg.{doubled}\n", "z.py": "import pkg.a\n"})
    cycle = find_cycle(import_graph(root, "pkg"))
    assert cycle is not None and cycle[0] == cycle[-1] and set(cycle) == {"pkg.a", "pkg.b"}
