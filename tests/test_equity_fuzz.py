"""The fuzzing review's method (issue 27), derandomised: exact equity against the brute-force
reference (tests/equity_reference.py) on random spots, and Monte Carlo answers against exact ones
as z-scores (a calibration test). Fixed seeds; each test runs in seconds."""
import numpy as np
import pytest

from handrank.equity import Range, calculate
from handrank.equity.deal import group
from equity_reference import reference_equity

SUIT_SWAPS = [(a, b) for a in range(4) for b in range(a + 1, 4)]


def _swap(card, a, b):
    """The card with suits a and b exchanged."""
    suit = card & 3
    return card - suit + (b if suit == a else a if suit == b else suit)


# -------------------------------------------------------------------------- spots
def _random_board_and_dead(rng):
    """A board of 0, 3, 4 or 5 cards and dead cards (many preflop, so the reference stays
    quick)."""
    deck = [int(c) for c in rng.permutation(52)]
    size = int(rng.choice([0, 3, 3, 4, 4, 5, 5]))
    dead = int(rng.integers(17, 22)) if size == 0 else int(rng.integers(0, 5))
    return deck[:size], deck[size:size + dead], deck[size + dead:]


def _swapped_board_and_dead(rng):
    """The shape of F1: a swap of two suits maps board + dead onto itself but not the board (at
    least one board card has its twin, the other suit's card of its rank, among the dead), with
    cards of the other two suits anywhere."""
    a, b = SUIT_SWAPS[int(rng.integers(len(SUIT_SWAPS)))]
    others = [s for s in range(4) if s not in (a, b)]
    size = int(rng.integers(3, 6))
    ranks = [int(r) for r in rng.permutation(13)]
    board, dead = [], []
    split = int(rng.integers(1, size + 1))
    for r in ranks[:split]:                     # one on the board, its twin dead
        on, off = (a, b) if rng.random() < 0.5 else (b, a)
        board.append(4 * r + on)
        dead.append(4 * r + off)
    rest = ranks[split:]
    while len(board) < size:
        r = rest.pop()
        if size - len(board) >= 2 and rng.random() < 0.3:      # both twins on the board
            board += [4 * r + a, 4 * r + b]
        else:
            board.append(4 * r + int(rng.choice(others)))
    for r in rest[:int(rng.integers(0, 3))]:
        if rng.random() < 0.5:
            dead += [4 * r + a, 4 * r + b]
        else:
            dead.append(4 * r + int(rng.choice(others)))
    used = set(board) | set(dead)
    left = [int(c) for c in rng.permutation(52) if int(c) not in used]
    return board, dead, left, (a, b)


def _player(rng, left, swap=None, most=6):
    """An exact hand (two cards of `left`) or a small weighted range over them; with `swap`,
    ranges hold combos next to their suit-swapped twins (the rows F1 merged)."""
    if rng.random() < 0.35:
        pick = rng.choice(len(left), size=2, replace=False)
        return [left[int(i)] for i in pick]
    combos = {}
    for _ in range(int(rng.integers(1, most + 1))):
        x, y = (left[int(i)] for i in rng.choice(len(left), size=2, replace=False))
        combos[(max(x, y), min(x, y))] = float(rng.choice([1.0, 1.0, 0.5, 0.25, 2.0, 3.0]))
        if swap is not None:
            tx, ty = _swap(x, *swap), _swap(y, *swap)
            if tx in left and ty in left:
                combos[(max(tx, ty), min(tx, ty))] = float(rng.choice([1.0, 0.5]))
    return Range(combos)


def _reference_players(seats):
    return [[(tuple(sorted(s, reverse=True)), 1.0)] if isinstance(s, list) else list(s) for s in seats]


def _deals(seats):
    return int(np.prod([1 if isinstance(s, list) else len(s) for s in seats]))


def _check_against_reference(seats, board, dead, threads):
    known = [c for s in seats if isinstance(s, list) for c in s]
    if len(set(known)) != len(known):
        return False
    players = []
    for s in seats:     # card removal as the caller's ranges would see it
        if isinstance(s, Range):
            kept = {c: w for c, w in s if not set(c) & (set(board) | set(dead) | set(known))}
            if not kept:
                return False
            s = Range(kept)
        players.append(s)
    with np.errstate(invalid="ignore"):     # no deal: 0 / 0
        expected = reference_equity(_reference_players(players), board, dead)
    if expected[3] == 0:
        with pytest.raises(ValueError, match="no deal"):
            calculate(players, board, dead, exact=True, threads=threads)
        return True
    got = calculate(players, board, dead, exact=True, threads=threads)
    assert got.exact
    assert got.showdowns == pytest.approx(expected[3], rel=1e-12)
    for name, want, have in zip(("equity", "win", "tie"), expected[:3], (got.equity, got.win, got.tie)):
        np.testing.assert_allclose(have, want, atol=1e-12, err_msg=f"{name}: {players} {board} {dead}")
    return True


def _boards_per_deal(board, dead, seats):
    from math import comb
    return comb(52 - len(board) - len(dead) - 2 * len(seats), 5 - len(board))


# -------------------------------------------------------------------------- exact
def test_exact_equity_equals_brute_force_on_random_spots():
    rng = np.random.default_rng(2027)
    checked = 0
    sizes = set()
    while checked < 300:
        board, dead, left = _random_board_and_dead(rng)
        n = int(rng.integers(2, 7))
        if 2 * n > len(left):
            continue
        seats = [_player(rng, left, most=3 if len(board) < 5 else 6) for _ in range(n)]
        if _deals(seats) * _boards_per_deal(board, dead, seats) > 300_000:
            continue
        if _check_against_reference(seats, board, dead, threads=int(rng.integers(1, 3))):
            checked += 1
            sizes.add((len(board), n))
    assert {b for b, _ in sizes} == {0, 3, 4, 5} and {n for _, n in sizes} >= {2, 3, 4, 5, 6}


def test_exact_equity_equals_brute_force_where_a_suit_swap_trades_board_and_dead_cards():
    # F1's shape, made on purpose: folding by such a swap merged combos of different showdowns
    rng = np.random.default_rng(1)
    checked = folded = 0
    while checked < 150:
        board, dead, left, swap = _swapped_board_and_dead(rng)
        n = int(rng.integers(2, 4))
        seats = [_player(rng, left, swap) for _ in range(n)]
        if _deals(seats) * _boards_per_deal(board, dead, seats) > 200_000:
            continue
        if _check_against_reference(seats, board, dead, threads=1):
            checked += 1
            folded += any(isinstance(s, Range) and len(s) > 1 for s in seats)
    assert folded >= 75


# -------------------------------------------------------------------------- Monte Carlo
def _calibration_spots(rng, count):
    """Random spots whose ranges are drawn as two or more groups (too wide to join), small
    enough to enumerate in about a second."""
    spots = []
    while len(spots) < count:
        deck = [int(c) for c in rng.permutation(52)]
        if rng.random() < 0.5:      # heads-up, wide
            players = [f"{int(rng.integers(28, 46))}%", f"{int(rng.integers(28, 46))}%"]
            board = deck[:int(rng.choice([3, 4]))]
        else:                       # three-way, moderate, on a turn
            players = [f"{int(rng.integers(8, 16))}%" for _ in range(3)]
            if rng.random() < 0.5:
                players[int(rng.integers(3))] = "22+, AK"
            board = deck[:4]
        combos = [Range(p).without(board) for p in players]
        groups = group([(np.array(r.combos, dtype=np.uint8), np.array(r.weights)) for r in combos],
                       [False] * len(players), True)
        multi = sum(int(b - a) > 1 for a, b in zip(groups.start[:-1], groups.start[1:]))
        work = int(np.prod([len(r) for r in combos])) * (48 - 2 * len(players)) ** (5 - len(board))
        if multi >= 2 and work < 3e8:
            spots.append((players, board))
    return spots


def test_monte_carlo_z_scores_against_exact_answers_are_standard_normal():
    # F2 drew every group after the first from the wrong interval: z-scores of 10 to 100 there
    rng = np.random.default_rng(27)
    z = []
    for players, board in _calibration_spots(rng, 10):
        exact = calculate(players, board, exact=True)
        for seed in range(6):
            for threads in (1, 2):
                mc = calculate(players, board, samples=20_000, seed=seed, threads=threads)
                z += [(m - e) / s for m, e, s in zip(mc.equity, exact.equity, mc.stderr)]
    z = np.array(z)
    beyond = np.mean(np.abs(z) > 3)        # 0.27% expected, of about 300 scores
    assert beyond <= 0.02, (beyond, np.sort(np.abs(z))[-10:])
    assert 0.7 < np.var(z) < 1.4, np.var(z)
    assert abs(np.mean(z)) < 0.25
