"""What every test shares: what handrank builds once and caches (Chinese poker's opponent
tables) goes to one directory of this session, never the user's cache."""
import pytest


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory):
    path = tmp_path_factory.mktemp("handrank-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HANDRANK_CACHE_DIR", str(path))
        yield path
