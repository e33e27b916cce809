"""One version everywhere: `handrank --version`, `handrank.__version__`, pyproject.toml and the
installed distribution's metadata (the changelog's latest release heading too)."""
import importlib.metadata
import re
from pathlib import Path

import pytest

import handrank
from handrank.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_version_option_prints_the_package_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"handrank {handrank.__version__}\n"


def test_installed_metadata_matches():
    try:
        installed = importlib.metadata.version("handrank")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("handrank is imported from a source tree, not installed")
    assert installed == handrank.__version__


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="no source tree next to the tests")
def test_pyproject_and_changelog_match():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'(?m)^version = "([^"]+)"$', pyproject).group(1) == handrank.__version__
    changelog = ROOT / "CHANGELOG.md"
    if changelog.exists():
        releases = re.findall(r"(?m)^## \[(\d[^\]]*)\]", changelog.read_text(encoding="utf-8"))
        assert releases and releases[0] == handrank.__version__
