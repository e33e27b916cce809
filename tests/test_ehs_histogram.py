"""ehs.equity_histogram counts every runout the opponent has a combo on, with fractional weights
too: the runouts where the hand had the nuts used to come out at equity 1.0000000000000002 and
fall outside the histogram's [0, 1] (issue 37 item 11). Checked against a reference that sums the
opponent's unblocked combos on each runout in exact fractions."""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from handrank import ehs, showdown
from handrank.cards import cards

COMBOS = showdown.COMBOS.astype(np.int64)


def runout_equities(hole: list[int], board: list[int], villain: np.ndarray) -> list[float]:
    """The hand's exact river equity on every runout where the opponent has a combo left."""
    out = []
    for runout in itertools.combinations([c for c in range(52) if c not in hole + board], 5 - len(board)):
        strength = showdown.strengths(board + list(runout)).astype(np.int64)
        mine = strength[showdown.combo_index(hole)]
        free = (strength > 0) & (villain > 0)
        for card in hole:
            free &= (COMBOS[:, 0] != card) & (COMBOS[:, 1] != card)
        win, tie, lose = (sum(map(Fraction, villain[free & side].tolist()), Fraction(0))
                          for side in (strength < mine, strength == mine, strength > mine))
        if win + tie + lose:
            out.append(float((win + tie / 2) / (win + tie + lose)))
    return out


def test_the_nuts_with_fractional_weights_is_counted():
    counts, _ = ehs.equity_histogram("2c 2h", "6d As Jd 6h", "2s4s, KcQc:0.3, 2h5d", bins=4)
    assert counts.tolist() == [3, 3, 3, 37]     # 46 runouts: the 3 lost ones were quads
    assert counts.sum() == 46


@pytest.mark.parametrize("street", [3, 4])
def test_random_spots_with_two_decimal_weights_against_exact_sums(street):
    rng = np.random.default_rng(37 + street)
    for _ in range(6 if street == 3 else 12):
        dealt = rng.choice(52, 2 + street, replace=False).tolist()
        hole, board = dealt[:2], dealt[2:]
        villain = np.where(rng.random(1326) < 0.15, np.round(rng.random(1326), 2), 0.0)
        counts, edges = ehs.equity_histogram(hole, board, villain, bins=10)
        expected = runout_equities(hole, board, villain)
        assert counts.sum() == len(expected)
        np.testing.assert_array_equal(counts, np.histogram(expected, bins=10, range=(0, 1))[0])
        np.testing.assert_allclose(edges, np.linspace(0, 1, 11))


def test_every_runout_is_counted_whatever_the_weights():
    # a random hand against a range of 2-decimal weights: every runout leaves the opponent a combo
    rng = np.random.default_rng(11)
    for _ in range(4):
        dealt = rng.choice(52, 5, replace=False).tolist()
        villain = np.round(rng.random(1326), 2) + 0.01
        counts, _ = ehs.equity_histogram(dealt[:2], dealt[2:], villain, bins=7)
        assert counts.sum() == 47 * 46 // 2
    counts, _ = ehs.equity_histogram(cards("Ah Kh"), cards("Qh Jh Th"), "random", bins=3)
    assert counts.tolist() == [0, 0, 1081]      # the royal flush: equity exactly 1 on every runout
