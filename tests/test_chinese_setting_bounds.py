"""The setting solver's per-bottom cap on the top (handrank._threerow._kernel.solve_one: the best
top royalty of the cards a bottom leaves) prunes without changing an answer: random hands built
around the tops that earn royalties, against the brute force of tests/chinese_reference.py over
all 72,072 splits, under the presets and the variants that move row strengths."""
import numpy as np
import pytest

import chinese_reference as ref
from handrank import chinese, ofc

# pairs on top earn royalties too, so that the cap matters on most hands, not only on trips
TOP_PAIRS = dict(top_royalties={"66": 1, "QQ": 4, "AA": 6, "222": 10},
                 middle_royalties={"trips": 2, "full house": 12},
                 bottom_royalties={"straight": 2, "quads": 10})
RULES = [None, TOP_PAIRS, dict(TOP_PAIRS, wheel_second=True), dict(TOP_PAIRS, low_middle=True)]


def hand_with_a_top(rng):
    """13 cards holding trips or two pairs (a top with a royalty that most bottoms take away),
    the rest uniform."""
    ranks = rng.choice(13, size=2, replace=False)
    held = [4 * int(ranks[0]) + int(s) for s in rng.choice(4, size=3, replace=False)]
    held += [4 * int(ranks[1]) + int(s) for s in rng.choice(4, size=2, replace=False)]
    rest = rng.choice(np.setdiff1d(np.arange(52), held), size=13 - len(held), replace=False)
    return held + [int(c) for c in rest]


@pytest.mark.parametrize("rules", RULES, ids=["1-6", "top-pairs", "wheel-second", "low-middle"])
def test_best_royalties_with_top_royalties_against_brute_force(rules):
    rng = np.random.default_rng(4141)
    package_rules = chinese.Rules(**ref.rules_kwargs(rules)) if rules else None
    hands = [hand_with_a_top(rng) for _ in range(25)]
    got = chinese.best_setting_batch(np.array(hands, dtype=np.uint8), package_rules, threads=1)
    for hand, board, value in zip(hands, got.boards.tolist(), got.value.tolist()):
        want = ref.brute_force(hand, rules)
        assert ofc.Board(board[:3], board[3:8], board[8:]) == ofc.Board(
            want["top"], want["middle"], want["bottom"]), hand
        assert value == want["value"]
