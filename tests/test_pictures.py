"""examples/docs_pictures.py, the documentation's pictures: each runs on a small budget and writes
a PNG (CI runs them all so, into a temporary folder), and the preflop heat map's Monte Carlo
agrees with exact enumeration (handrank.equity.calculate)."""
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from handrank import equity

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "docs_pictures.py"
pytestmark = pytest.mark.skipif(not SCRIPT.exists(), reason="examples/ is not next to the tests")


@pytest.fixture(scope="module")
def pictures():
    spec = importlib.util.spec_from_file_location("docs_pictures", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["docs_pictures"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["equity", "ofc", "bigtwo", "solver"])
def test_quick_picture_is_a_png(pictures, name, tmp_path):
    pytest.importorskip("matplotlib")
    assert pictures.main([name, "--quick", "--out", str(tmp_path)]) == 0
    written = list(tmp_path.iterdir())
    assert len(written) == 1 and written[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_committed_picture_is_made_by_the_script(pictures):
    images = SCRIPT.parent.parent / "docs" / "images"
    if not images.exists():
        pytest.skip("docs/ is not next to the tests (an sdist)")
    made = {"bench.png", "preflop_equity.png", "ofc_rates.png", "bigtwo_lengths.png", "chinese_values.png",
            "solver_root.png"}
    # and the learning curves, each drawn by its training example (examples/train_*.py --plot)
    made |= {f"{p.stem}.png" for p in SCRIPT.parent.glob("train_*.py")}
    assert {p.name for p in images.glob("*.png")} == made
    assert set(pictures.PICTURES) == {"bench", "equity", "ofc", "bigtwo", "chinese", "solver"}


def test_heat_map_equities_agree_with_exact_enumeration(pictures):
    names = ["AA", "KK", "72o", "JTs"]
    table = pictures.class_equities(6000, seed=3, names=names)
    assert np.allclose(table + table.T, 1.0) and np.allclose(np.diag(table), 0.5)
    for i, j in [(0, 1), (0, 2), (1, 3), (2, 3)]:
        exact = equity.calculate([names[i], names[j]], exact=True).equity[0]
        # 6,000 deals: a standard error under 0.0065; 4.5 of them is a one-in-100,000 miss
        assert abs(table[i, j] - exact) < 4.5 * 0.0065, (names[i], names[j], table[i, j], exact)


def test_boards_avoid_the_dealt_cards_and_are_uniform(pictures):
    rng = np.random.default_rng(5)
    dealt = np.tile(np.array([0, 13, 26, 51], dtype=np.uint8), (96_000, 1))
    boards = pictures._boards(dealt, rng)
    assert not np.isin(boards, dealt[0]).any()
    assert (np.sort(boards, axis=1)[:, 1:] != np.sort(boards, axis=1)[:, :-1]).all()
    counts = np.bincount(boards.ravel(), minlength=52)[np.setdiff1d(np.arange(52), dealt[0])]
    expected = boards.size / 48                      # 10,000 per card
    assert abs(counts - expected).max() < 5 * np.sqrt(expected)
