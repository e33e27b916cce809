"""What every test shares: what handrank builds once and caches (Chinese poker's opponent
tables) goes to one directory of this session, never the user's cache; and, for CI, the list of the
tests that skipped (HANDRANK_SKIPPED_LOG names the file), so that they run again once the optional
extras they wait for are installed."""
import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory):
    path = tmp_path_factory.mktemp("handrank-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HANDRANK_CACHE_DIR", str(path))
        yield path


def _log_skip(nodeid: str) -> None:
    log = os.environ.get("HANDRANK_SKIPPED_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as file:
            file.write(nodeid + "\n")


def pytest_collectreport(report):
    if report.skipped:                  # a whole module, e.g. pytest.importorskip at its top
        _log_skip(report.nodeid)


def pytest_runtest_logreport(report):
    if report.skipped and report.when in ("setup", "call"):
        _log_skip(report.nodeid)
