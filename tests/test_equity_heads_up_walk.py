"""The heads-up last-card path of exact enumeration (issue 33): showdowns counted in registers and
player 2's values kept across deals by the cards to come. Checked against the slow reference on
spots that reach every branch: rank runs of dead suits, live suits that can still flush, deals
that reuse player 2's values (joined rows and separate groups), flop and turn, weights."""
import math
import sys

import numpy as np
import pytest

from handrank.cards import cards
from handrank.equity import calculate, deal
from equity_reference import range_of, reference_equity


@pytest.fixture(autouse=True)
def deal_by_deal(monkeypatch):
    # ranges on a flop or turn go board by board (tests/test_equity_by_board.py): walk them here
    monkeypatch.setattr(sys.modules["handrank.equity.calculate"], "BY_BOARD",
                        dict.fromkeys((3, 4, 5), math.inf))


def assert_matches(result, expected, tol=1e-12):
    eq, win, tie, total = expected
    assert result.exact
    assert result.showdowns == pytest.approx(total, rel=1e-12)
    np.testing.assert_allclose(result.equity, eq, atol=tol)
    np.testing.assert_allclose(result.win, win, atol=tol)
    np.testing.assert_allclose(result.tie, tie, atol=tol)


SPOTS = [
    # flop, suits dead and alive; player 2's combo repeats over many deals
    (["QQ+, AKs, T9s", "JJ-77, AQs, KQo, 65s"], "Jh Th 2c"),
    # monotone flop: every suited hand can flush, the live-card branch runs for most cards
    (["AhKh, QhJh, 99, AsKd", "KhQh, 7h6h, TT, Ah2c, 8h8d"], "9h 5h 2h"),
    # paired flop with weights (ties and full houses)
    (["88+:0.5, A5s", "KQ, 22:2, 76s"], "8c 8d Ks"),
    # turn: one card to come, player 2's values by that card alone
    (["AA, KQs, T9s:3", "QQ-99, AJo, 87s"], "Qs 9d 4c 2s"),
    (["AsQs, KsJs, 33", "JJ, AcQc, 5s4s"], "Ks 9s 4c 2s"),
]


@pytest.mark.parametrize("players, board", SPOTS)
def test_two_ranges_match_reference(players, board):
    expected = reference_equity([range_of(p) for p in players], cards(board))
    assert_matches(calculate(players, board, exact=True), expected)
    # the other seat order walks player 2's values for the other range
    flipped = calculate(players[::-1], board, exact=True)
    np.testing.assert_allclose(flipped.equity, calculate(players, board, exact=True).equity[::-1],
                               atol=1e-13)


@pytest.mark.parametrize("players, board", SPOTS[:1] + SPOTS[3:4])
def test_separate_groups_match_reference(players, board, monkeypatch):
    # ranges too wide to join are two groups: group 0 (player 1) changes fastest, so player 2's
    # values are kept across the deals that share player 2's combo
    monkeypatch.setattr(deal, "JOIN_LIMIT", 0)
    expected = reference_equity([range_of(p) for p in players], cards(board))
    assert_matches(calculate(players, board, exact=True), expected)


def test_threads_and_parts_give_the_same_counts():
    players, board = SPOTS[1]
    one = calculate(players, board, exact=True, threads=1)
    two = calculate(players, board, exact=True, threads=2)
    assert one.equity == two.equity and one.tie == two.tie
