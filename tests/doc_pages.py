"""The documentation pages that tests hold to the code. They sit beside tests/ in a checkout and in
the sdist; where they do not (the tests copied elsewhere), the tests that read them skip, saying
which page is missing."""
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


def read(name: str) -> str:
    """The text of docs/`name`, or a skip of the calling test when the page is not there."""
    path = DOCS / name
    if not path.is_file():
        pytest.skip(f"docs/{name} is not next to the tests")
    return path.read_text(encoding="utf-8")
