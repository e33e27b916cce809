"""The site's API reference documents every public name: the strict build (warnings are errors)
succeeds, and its inventory (objects.inv, every object mkdocstrings rendered) holds each name of
each public module's ``__all__``, found here by importing the package, not by the hook's reading
of the source."""
import importlib
import inspect
import pkgutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

import handrank

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

pytestmark = pytest.mark.skipif(not (ROOT / "mkdocs.yml").exists(),
                                reason="the docs are not next to the tests (installed-wheel run)")


def public_modules():
    """Every importable public module of the package (no leading underscore in its path) and its
    ``__all__``; the optional extras' modules are skipped when their extra is not installed."""
    found = {"handrank": list(handrank.__all__)}
    for info in pkgutil.walk_packages(handrank.__path__, "handrank."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError as exc:
            if "pip install" not in str(exc):      # only an optional extra may be missing
                raise
            continue
        if hasattr(module, "__all__"):
            found[info.name] = list(module.__all__)
    return found


def inventory(path):
    """Each documented object's dotted name and whether it is a module."""
    data = path.read_bytes()
    body = zlib.decompress(data.split(b"\n", 4)[4]).decode()
    return {line.split(" ")[0]: line.split(" ")[1] == "py:module" for line in body.splitlines()}


@pytest.fixture(scope="module")
def built_site(tmp_path_factory):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed: pip install -e '.[docs]'")
    pytest.importorskip("mkdocstrings_handlers.python")
    site = tmp_path_factory.mktemp("site")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                             "--site-dir", str(site)], cwd=ROOT, capture_output=True, text=True,
                            env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stdout + result.stderr
    return site


def test_every_public_name_is_in_the_reference(built_site):
    documented = inventory(built_site / "objects.inv")
    modules = public_modules()
    assert len(modules) > 40
    missing = []
    for module, names in modules.items():
        for name in names:
            # a package's page documents what it re-exports once, under the package's name; a
            # function that shadows its submodule's name (handrank.cards) where it is defined
            obj = getattr(importlib.import_module(module), name)
            owners = [module] + [parent for parent in modules if module.startswith(parent + ".")
                                 and name in modules[parent]]
            paths = [f"{owner}.{name}" for owner in owners]
            if hasattr(obj, "__qualname__") and not inspect.ismodule(obj):
                paths.append(f"{obj.__module__}.{obj.__qualname__}")
            if not any(documented.get(path) == inspect.ismodule(obj) for path in paths):
                missing.append(f"{module}.{name}")
    assert not missing, f"not in the API reference: {missing}"


def test_every_public_module_has_a_page_in_the_nav(built_site):
    import reference_pages
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in reference_pages.pages():
        assert f": {page}" in nav, f"{page} is generated but not in mkdocs.yml's nav"
        assert (built_site / page.removesuffix(".md") / "index.html").exists()


def test_compiled_entry_points_show_their_signature(built_site):
    html = (built_site / "reference" / "high" / "index.html").read_text()
    start = html.index('id="handrank.high.evaluate"')
    entry = html[start:html.index('id="handrank.high.evaluate_batch"')]
    assert "hand" in entry and "7462" in entry      # the stub's parameter, the docstring
    assert "Iterable" in entry and "_Hand" not in entry     # the stub's private alias spelled out


def test_doctest_sessions_become_code_blocks():
    pytest.importorskip("griffe", reason="the docs extra is not installed: pip install -e '.[docs]'")
    from griffe_handrank import fence_sessions
    text = "Index.\n\n>>> x = 1\n>>> x\n1\n\nAfter."
    assert fence_sessions(text) == "Index.\n\n```pycon\n>>> x = 1\n>>> x\n1\n```\n\nAfter."
    indented = "Example:\n    >>> f()\n    2\n"
    assert fence_sessions(indented) == "Example:\n    ```pycon\n    >>> f()\n    2\n    ```\n"
    fenced = "```pycon\n>>> f()\n```"
    assert fence_sessions(fenced) == fenced
