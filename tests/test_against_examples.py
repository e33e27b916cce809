"""examples/maskable_ppo_bigtwo.py --quick (CI's budget): sb3-contrib's MaskablePPO trained on
`bigtwo.env.against("random")` beats a random player in the same seat on the same deals."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("sb3_contrib")

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "maskable_ppo_bigtwo.py"


@pytest.mark.slow
@pytest.mark.skipif(not SCRIPT.exists(), reason="examples/ is not next to the tests")
def test_maskable_ppo_beats_random_players() -> None:
    """Against 3 random players a random learner wins about a quarter of the games and breaks
    even; the quick budget's policy wins about half and scores a few points a game."""
    spec = importlib.util.spec_from_file_location("maskable_ppo_bigtwo", SCRIPT)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    result = example.main(["--quick"])
    assert abs(result["random"]) < 2.0 and 0.15 < result["random_wins"] < 0.35
    assert result["trained"] > result["random"] + 2.0
    assert result["trained_wins"] > result["random_wins"] + 0.15
