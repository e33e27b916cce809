"""Every example in docs/ (tutorials included) and in the README runs and prints what the page
says (the pages are doctests).

A page whose examples need an optional extra says so in its first line, an HTML comment such as
``<!-- requires: dask, distributed -->``; it is skipped, naming the missing module, where that
extra is not installed (CI installs every extra, so there it runs)."""
import doctest
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").rglob("*.md"))
README = ROOT / "README.md"
REQUIRES = re.compile(r"<!--\s*requires:\s*([\w\s,.-]+?)\s*-->")


def missing_modules(page: Path) -> list[str]:
    first = page.read_text(encoding="utf-8").split("\n", 1)[0]
    found = REQUIRES.match(first)
    names = [n.strip() for n in found.group(1).split(",")] if found else []
    return [name for name in names if importlib.util.find_spec(name) is None]


@pytest.mark.skipif(not DOCS, reason="docs/ is not next to the tests (installed-wheel run)")
@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.relative_to(ROOT / "docs").as_posix())
def test_page_examples(page):
    missing = missing_modules(page)
    if missing:
        pytest.skip(f"{page.name} needs {', '.join(missing)} (an optional extra)")
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} example(s) in {page.name} failed"


@pytest.mark.skipif(not README.exists(), reason="README.md is not next to the tests")
def test_readme_examples():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10, "the README's tour should be a doctest"
    assert result.failed == 0, f"{result.failed} example(s) in README.md failed"


def test_requires_line_is_read(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("<!-- requires: json, no_such_module_here -->\n# Page\n")
    assert missing_modules(page) == ["no_such_module_here"]
    page.write_text("# Page\n<!-- requires: no_such_module_here -->\n")
    assert missing_modules(page) == []



@pytest.mark.skipif(not DOCS, reason="docs/ is not next to the tests (installed-wheel run)")
@pytest.mark.parametrize("page", DOCS + [README], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_code_fences_are_closed(page):
    # A fence left open swallows the prose and headings after it: the doctests still pass, but the
    # headings' anchors vanish and links to them break on some Markdown versions.
    lines = page.read_text(encoding="utf-8").splitlines()
    fences = [n for n, line in enumerate(lines, 1) if line.lstrip().startswith("```")]
    for start, end in zip(fences[::2], fences[1::2] + [None]):
        assert end is not None, f"{page.name}: the fence opened on line {start} is never closed"
        assert lines[end - 1].strip() == "```", (
            f"{page.name}: the fence opened on line {start} is still open at line {end}")
