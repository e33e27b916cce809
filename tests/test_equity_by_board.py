"""Heads-up exact equity on a flop, turn or river, board by board (issue 41): each board's values
computed once per combo and swept in strength order with card removal by per-card sums, the runs
of cards to come folded by suit isomorphism. Checked against the slow reference on random small
ranges with weights and dead cards, and against the deal-by-deal walk."""
import itertools
import math
import sys

import numpy as np
import pytest

from handrank.cards import cards
from handrank.equity import Range, calculate, deal
from equity_reference import range_of, reference_equity

# the module, not the function handrank.equity re-exports under the same name
calculate_module = sys.modules["handrank.equity.calculate"]


def _swap(card, a, b):
    suit = card & 3
    return card - suit + (b if suit == a else a if suit == b else suit)


def _spot(rng, symmetric):
    """A board of 3 to 5 cards, 0 to 4 dead cards and two players (a known hand or a small
    weighted range each). `symmetric`: the board and dead cards avoid two suits and each range
    holds the suit-swapped twin of each combo at the same weight, so that the runs fold."""
    size = int(rng.integers(3, 6))
    free = (2, 3) if symmetric else ()
    deck = [int(c) for c in rng.permutation(52)]
    fixed = [c for c in deck if c & 3 not in free]
    board = fixed[:size]
    dead = fixed[size:size + int(rng.integers(0, 5))]
    left = [c for c in deck if c not in board and c not in dead]
    players = []
    for _ in range(2):
        if rng.random() < 0.25 and not symmetric:
            players.append(left[:2] if not players else left[2:4])
            continue
        combos = {}
        for _ in range(int(rng.integers(1, 7))):
            x, y = (left[int(i)] for i in rng.choice(len(left), size=2, replace=False))
            w = float(rng.choice([1.0, 1.0, 0.5, 0.25, 2.0, 3.0, 0.1]))
            combos[(max(x, y), min(x, y))] = w
            if symmetric:
                tx, ty = _swap(x, *free), _swap(y, *free)
                combos[(max(tx, ty), min(tx, ty))] = w
        players.append(Range(combos))
    return board, dead, players


def _reference(players, board, dead):
    listed = [[(tuple(p), 1.0)] if isinstance(p, list) else list(p) for p in players]
    return reference_equity(listed, board, dead)


def _assert_matches(got, expected):
    eq, win, tie, total = expected
    assert got.exact
    assert got.showdowns == pytest.approx(total, rel=1e-12)
    np.testing.assert_allclose(got.equity, eq, atol=1e-12)
    np.testing.assert_allclose(got.win, win, atol=1e-12)
    np.testing.assert_allclose(got.tie, tie, atol=1e-12)


@pytest.mark.parametrize("symmetric", [False, True])
def test_by_board_equals_brute_force_on_random_spots(monkeypatch, symmetric):
    # every spot board by board
    monkeypatch.setattr(calculate_module, "BY_BOARD", dict.fromkeys((3, 4, 5), 0))
    rng = np.random.default_rng(41 + symmetric)
    checked = 0
    sizes = set()
    while checked < 60:
        board, dead, players = _spot(rng, symmetric)
        with np.errstate(invalid="ignore"):         # no deal: 0 / 0
            expected = _reference(players, board, dead)
        if expected[3] == 0:
            continue
        threads = int(rng.integers(1, 3))
        _assert_matches(calculate(players, board, dead, exact=True, threads=threads), expected)
        checked += 1
        sizes.add(len(board))
    assert sizes == {3, 4, 5}


def test_by_board_equals_the_deal_walk_on_wide_ranges(monkeypatch):
    spots = [(["QQ+, AKs, T9s", "JJ-77, AQs, KQo, 65s"], "Jh Th 2c", ""),
             (["AhKh, QhJh, 99, AsKd", "KhQh, 7h6h, TT, Ah2c, 8h8d"], "9h 5h 2h", "3c"),
             (["88+:0.5, A5s", "KQ, 22:2, 76s"], "8c 8d Ks", "Ad 2s"),
             (["30%", "AA, KK:0.3, AKs"], "Qs 9d 4c 2s", ""),
             (["random", "55+, A2s+:0.7"], "Ac Kc 5d", "")]
    for players, board, dead in spots:
        monkeypatch.setattr(calculate_module, "BY_BOARD", dict.fromkeys((3, 4, 5), 0))
        by_board = calculate(players, board, dead, exact=True)
        monkeypatch.setattr(calculate_module, "BY_BOARD", dict.fromkeys((3, 4, 5), math.inf))
        walked = calculate(players, board, dead, exact=True)
        assert by_board.showdowns == pytest.approx(walked.showdowns, rel=1e-13)
        for a, b in ((by_board.equity, walked.equity), (by_board.win, walked.win), (by_board.tie, walked.tie)):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-13)


def test_the_same_combo_in_both_ranges(monkeypatch):
    # a combo both players may hold is subtracted by each of its cards: added back once
    monkeypatch.setattr(calculate_module, "BY_BOARD", dict.fromkeys((3, 4, 5), 0))
    players = ["AA, KK, AKs", "AA:2, KK, AQs"]
    board = cards("Qc 7d 2h")
    expected = reference_equity([range_of(p, board) for p in players], board)
    _assert_matches(calculate(players, board, exact=True), expected)


def test_the_flop_range_spot_goes_board_by_board(monkeypatch):
    calls = []
    kernel = calculate_module._equity.heads_up_boards
    monkeypatch.setattr(calculate_module._equity, "heads_up_boards",
                        lambda *args: calls.append(len(args[5])) or kernel(*args))
    calculate(["QQ+,AKs", "22+,A2s+,K9s+,Q9s+,J9s+,T9s,A9o+,KTo+,QTo+,JTo"], "Jh Th 2c", exact=True)
    # spades and diamonds trade places: 990 runs of two cards fold to 721
    assert calls and sum(calls) == 721


def test_threads_and_parts_give_the_same_counts():
    players, board = ["QQ+, AKs, 87s:0.5", "50%"], "Ts 7s 2d"
    one = calculate(players, board, exact=True, threads=1)
    for threads, progress in ((2, None), (1, lambda done, total: None), (3, lambda done, total: None)):
        other = calculate(players, board, exact=True, threads=threads, progress=progress)
        assert (other.equity, other.win, other.tie, other.showdowns) == \
            (one.equity, one.win, one.tie, one.showdowns)


def test_no_deal(monkeypatch):
    monkeypatch.setattr(calculate_module, "BY_BOARD", dict.fromkeys((3, 4, 5), 0))
    with pytest.raises(ValueError, match="no deal: the hands of players 1 and 2 always share a card"):
        calculate([Range("AsAh"), "AsKs, AhKh"], "2c 3d 4h", exact=True)


def test_runs_stand_for_every_run_once():
    board, dead = cards("Jh Th 2c"), cards("3c")
    players = [(np.array(r.combos, dtype=np.uint8), np.array(r.weights))
               for r in (Range("QQ+, AKs").without(board + dead), Range("T9s, 76").without(board + dead))]
    rows, counts = deal.runs(board, dead, players)
    deck = [c for c in range(52) if c not in board + dead]
    assert counts.sum() == math.comb(len(deck), 2) and len(rows) < 0.65 * counts.sum()
    # the classes: each run's images under swapping spades and diamonds (suits 3 and 1)
    seen = set()
    for row, count in zip(rows.tolist(), counts.tolist()):
        images = {tuple(sorted(row)), tuple(sorted(_swap(c, 1, 3) for c in row))}
        assert len(images) == count and not images & seen
        seen |= images
    assert seen == set(itertools.combinations(deck, 2))
    # a weight that breaks the symmetry leaves every run
    lopsided = [players[0], (players[1][0], np.arange(1.0, len(players[1][1]) + 1))]
    rows, counts = deal.runs(board, dead, lopsided)
    assert len(rows) == math.comb(len(deck), 2) and set(counts.tolist()) == {1.0}
