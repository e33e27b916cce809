"""A MkDocs hook that writes the API reference pages from the package itself, at build time.

One page per public top-level module or package of ``handrank`` (``reference/ofc.md``, ...; the
package's own facade is ``reference/handrank.md``). A page renders, with mkdocstrings, the module's
docstring and then every name of its ``__all__``, in that order, with signatures and types from
the source and the compiled modules' ``.pyi`` stubs; a package's page then renders each public
submodule (no leading underscore, with an ``__all__``) for the names of that ``__all__`` that the
package does not re-export. Nothing here is kept by hand: a new name or module appears by itself,
and tests/test_reference.py checks the built site's inventory against every ``__all__``.

The source is read, never imported (``ast``), so that the site builds without compiling the
package or installing its optional extras.
"""
from __future__ import annotations

import ast
from pathlib import Path

from mkdocs.structure.files import File

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = "handrank"
# classes whose methods and properties live mostly in a compiled base (documented in its .pyi
# stub): their page lists the inherited members as their own
COMPILED_BASE = {"handrank.ofc.Game"}


def exported_names(path: Path) -> list[str] | None:
    """The literal ``__all__`` of a module's source, or None when it has none."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets):
            return list(ast.literal_eval(node.value))
    return None


def shadowing_imports(path: Path, package: str) -> dict[str, str]:
    """The names a package's ``__init__`` imports from its own submodule of the same name
    (``from handrank.cards import cards``): the function then shadows the submodule as the
    package's attribute, and the page documents it at its definition (``handrank.cards.cards``)."""
    found = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                name = alias.asname or alias.name
                if node.module == f"{package}.{name}" and alias.name == name:
                    found[name] = f"{node.module}.{name}"
    return found


def public_modules() -> dict[str, list[str]]:
    """Every public module's dotted name and ``__all__`` (modules without one are left out:
    their names reach the user through a facade that has one)."""
    found = {}
    root = SRC / PACKAGE
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if any(part.startswith("_") for part in parts):
            continue
        names = exported_names(path)
        if names is not None:
            found[".".join(parts)] = names
    return found


def _is_submodule(package: str, name: str) -> bool:
    folder = SRC.joinpath(*package.split("."))
    return (folder / f"{name}.py").exists() or (folder / name / "__init__.py").exists()


def pages() -> dict[str, str]:
    """The reference pages, by path under docs/: one per top-level public module."""
    modules = public_modules()
    tops = sorted({name.split(".")[1] if "." in name else name for name in modules},
                  key=lambda top: (top != PACKAGE, top))
    return {f"reference/{top}.md": page(PACKAGE if top == PACKAGE else f"{PACKAGE}.{top}", modules)
            for top in tops}


def page(dotted: str, modules: dict[str, list[str]]) -> str:
    """A module's page: its docstring, each name of its ``__all__`` in that order (a package's
    submodules named there have their own pages or sections), then each public submodule's names
    that the package does not re-export."""
    init = SRC.joinpath(*dotted.split("."), "__init__.py")
    shadowed = shadowing_imports(init, dotted) if init.exists() else {}
    lines = [f"# `{dotted}`", "", f"::: {dotted}", "    options:", "      show_root_heading: false",
             "      members: []", ""]
    for name in modules[dotted]:
        if name in shadowed:
            lines += _entry(shadowed[name])
        elif not _is_submodule(dotted, name):
            lines += _entry(f"{dotted}.{name}")
    if dotted != PACKAGE:
        facade = set(modules[dotted])
        for sub in sorted(modules):
            extra = [name for name in modules[sub] if name not in facade]
            if sub.startswith(dotted + ".") and extra:
                lines += [f"::: {sub}", "    options:", "      heading_level: 2",
                          "      show_root_heading: true", f"      members: {extra!r}", ""]
    return "\n".join(lines)


def _entry(path: str) -> list[str]:
    inherited = ["      inherited_members: true"] if path in COMPILED_BASE else []
    return [f"::: {path}", "    options:", "      heading_level: 2", "      show_root_heading: true",
            "      show_root_full_path: false", *inherited, ""]


def on_files(files, config):  # noqa: ANN001 (MkDocs' hook signature)
    for path, content in pages().items():
        files.append(File.generated(config, path, content=content))
    return files
