"""Every example in docs/ runs and prints what the page says (the pages are doctests)."""
import doctest
from pathlib import Path

import pytest

DOCS = sorted((Path(__file__).resolve().parent.parent / "docs").glob("*.md"))


@pytest.mark.skipif(not DOCS, reason="docs/ is not next to the tests (installed-wheel run)")
@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_page_examples(page):
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} example(s) in {page.name} failed"
