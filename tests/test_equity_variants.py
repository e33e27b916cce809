"""Equity for the variants (RULES.md "Poker variants": Omaha hi-lo splits the pot exactly):
brute force over the boards on small spots for every game, hi-lo splits worked by hand, Monte
Carlo against the exact answer, and the errors."""
import itertools
import json
from fractions import Fraction

import numpy as np
import pytest

import handrank as hr
from cli_support import run
from handrank import equity, omaha, shortdeck


def brute_force(players, board, game, dead=""):
    """Each player's exact share of the pot over every board, counted with fractions from the
    scalar evaluators, one board at a time."""
    hands = [hr.cards(p) for p in players]
    known = hr.cards(board) if board else []
    used = set(known) | set(hr.cards(dead) if dead else []) | {c for h in hands for c in h}
    deck = range(16, 52) if game.startswith("shortdeck") else range(52)
    left = [c for c in deck if c not in used]
    totals = [Fraction(0)] * len(hands)
    count = 0
    for rest in itertools.combinations(left, 5 - len(known)):
        full = known + list(rest)
        if game.startswith("shortdeck"):
            rules = "triton" if game.endswith("triton") else "standard"
            high = [shortdeck.evaluate(h + full, rules=rules) for h in hands]
        else:
            high = [omaha.evaluate(h, full) for h in hands]
        pots = [(high, Fraction(1))]
        if game == "omaha8":
            low = [omaha.evaluate_low8(h, full) for h in hands]
            if max(low) != omaha.NO_LOW:
                pots = [(high, Fraction(1, 2)), (low, Fraction(1, 2))]
        for values, pot in pots:
            winners = [i for i, v in enumerate(values) if v == max(values)]
            for i in winners:
                totals[i] += pot / len(winners)
        count += 1
    return [float(t / count) for t in totals], count


@pytest.mark.parametrize("game, players, board", [
    ("omaha", ["As Ad Kh Kd", "Js Ts 9h 8h"], "2c 7d 9s"),
    ("omaha", ["As Ks Qd Jd Td", "9h 9c 8h 8c 2s", "7s 6s 5d 4d 3c"], "Ah Kc 2d 3s"),      # PLO5
    ("omaha", ["As Ks Qd Jd Td 9c", "9h 9d 8h 8c 2s 2c"], "Ah Kc 2d 3s"),                  # PLO6
    ("omaha8", ["As 2s Kd Kc", "Ah 3h Jd Jc", "Td 9d 8c 7c"], "4h 5c Qd"),
    ("omaha8", ["As 2s 3d Kc", "Ah 2h Jd Jc"], "4h 5c 8d 9s"),
    ("shortdeck", ["Ah Kh", "7c 7d"], "6c 8s 9d"),
    ("shortdeck-triton", ["Ah Kh", "7c 7d"], "6c 8s 9d"),
    ("shortdeck", ["As Ks", "Qd Qc", "6h 7h"], "Ts Js 8h"),
])
def test_exact_matches_brute_force(game, players, board):
    want, count = brute_force(players, board, game)
    got = equity.calculate(players, board=board, game=game, exact=True)
    assert got.exact and got.showdowns == count
    assert got.equity == pytest.approx(want, abs=1e-12)
    assert sum(got.equity) == pytest.approx(1.0)


def test_triton_differs_where_trips_meet_a_straight():
    players, board = ["Ah Kh", "7c 7d"], "6c 8s 9d"
    standard = equity.calculate(players, board=board, game="shortdeck").equity
    triton = equity.calculate(players, board=board, game="shortdeck-triton").equity
    assert standard != triton


# ----------------------------------------------------------------------------- hi-lo by hand
RIVER = "2c 3d 7h Kd Qs"


@pytest.mark.parametrize("players, board, shares", [
    # the low (7-4-3-2-A) to player 1, the high (trip kings) to player 2: half each
    (["As 4s Jc Jd", "Kc Ks 9h 9d"], RIVER, [0.5, 0.5]),
    # two players share the low: each gets a quarter, the high half to player 2
    (["As 4s Jc Jd", "Kc Ks 9h 9d", "Ad 4d Tc Th"], RIVER, [0.25, 0.5, 0.25]),
    # no low on the board: the high takes the whole pot
    (["2s 4s 3c 5d", "Kc Ks 8h 8d"], "9c Td Jh Kd Qs", [0.0, 1.0]),
    # the wheel is both the best low and the best high: a scoop
    (["As 2s Kc Kh", "Qc Qh Jc Js"], "3d 4d 5c Kd 9s", [1.0, 0.0]),
    # both players make the same low and the same high: everything splits
    (["As 2s Kc Kh", "Ad 2d Ks Qh"], "3d 4h 5c Jd 9s", [0.5, 0.5]),
])
def test_hi_lo_splits_worked_by_hand(players, board, shares):
    got = equity.calculate(players, board=board, game="omaha8")
    assert got.equity == pytest.approx(shares)
    assert got.showdowns == 1


def test_hi_lo_scoop_counts_as_a_win():
    got = equity.calculate(["As 2s Kc Kh", "Qc Qh Jc Js"], board="3d 4d 5c Kd 9s", game="omaha8")
    assert got.win == (1.0, 0.0) and got.tie == (0.0, 0.0)
    split = equity.calculate(["As 4s Jc Jd", "Kc Ks 9h 9d"], board=RIVER, game="omaha8")
    assert split.win == (0.0, 0.0) and split.tie == (1.0, 1.0)


# ----------------------------------------------------------------------------- players
def test_weighted_list_is_the_weighted_mean_of_its_hands():
    board = "6c 8s 9d"
    a = equity.calculate(["Ah Kh", "7c 7d"], board=board, game="shortdeck").equity[0]
    b = equity.calculate(["Ah Kh", "Tc Td"], board=board, game="shortdeck").equity[0]
    mixed = equity.calculate(["Ah Kh", {"7c 7d": 1, "Tc Td": 3}], board=board, game="shortdeck")
    # the same number of boards follows each deal, so the weights carry over as they are
    assert mixed.equity[0] == pytest.approx((a + 3 * b) / 4)


def test_random_player_exact_matches_monte_carlo():
    players, board = ["Ah Kh", "random"], "6c 8s 9d Td"
    exact = equity.calculate(players, board=board, game="shortdeck", exact=True)
    assert exact.showdowns == 30 * 29 // 2 * 28            # every hand of the 30 cards left, 28 rivers
    mc = equity.calculate(players, board=board, game="shortdeck", samples=60_000, seed=3)
    assert not mc.exact and mc.showdowns == 60_000
    assert abs(mc.equity[0] - exact.equity[0]) < 5 * mc.stderr[0]


@pytest.mark.parametrize("game, players, board", [
    ("omaha8", ["As 2s Kd Kc", "Ah 3h Jd Jc"], "4h 5c Qd"),
    ("shortdeck", ["Ah Kh", "7c 7d", "random"], "6c 8s 9d"),
])
def test_monte_carlo_agrees_with_exact(game, players, board):
    exact = equity.calculate(players, board=board, game=game, exact=True)
    mc = equity.calculate(players, board=board, game=game, exact=False, stderr=0.004, seed=11)
    assert max(mc.stderr) <= 0.004
    for e, m, s in zip(exact.equity, mc.equity, mc.stderr):
        assert abs(e - m) < 5 * s + 1e-9
    again = equity.calculate(players, board=board, game=game, exact=False, stderr=0.004, seed=11)
    assert again.equity == mc.equity        # one seed, one answer


def test_exact_heads_up_plo4_preflop_counts_every_board():
    got = equity.calculate(["As Ad Kh Kd", "Js Ts 9h 8h"], game="omaha", exact=True)
    assert got.showdowns == 1_086_008
    assert sum(got.equity) == pytest.approx(1.0)


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize("players, board, game, error, text", [
    (["As Ad Kh", "Js Ts 9h 8h"], "", "omaha", ValueError, "player 1: a hand of omaha has 4, 5 or 6 cards"),
    (["As Ad Kh Kd", "Js Ts 9h 8h 7h"], "", "omaha", ValueError, "as many cards"),
    (["As Ad Kh Kd", "Js Ts 9h As"], "", "omaha", ValueError, "As is dealt twice"),
    (["As 5d", "Kh Kd"], "", "shortdeck", ValueError, "5d is not in the short deck"),
    (["As Kd", "Qh Qd"], "2c 7d 9s", "shortdeck", ValueError, "2c is not in the short deck"),
    (["As Kd", {"Qh Qd": -1}], "", "shortdeck", ValueError, "player 2: Qh Qd: a weight must be positive and finite, got -1"),
    (["As Kd", {}], "", "shortdeck", ValueError, "at least one hand"),
    (["As Kd Qh Qd"], "", "omaha", ValueError, "2 to 10 players"),
    (["As Kd", "Qh Qd"], "", "stud", ValueError, "game must be"),
    (["As Kd", "Qh Qd"], "", 7, TypeError, "game must be a str"),
])
def test_errors(players, board, game, error, text):
    with pytest.raises(error, match=text):
        equity.calculate(players, board=board, game=game)


def test_command_line_game(capsys):
    status, out, err = run(capsys, "equity", "--game", "omaha8", "--json", "As 4s Jc Jd", "Kc Ks 9h 9d",
                           "--board", RIVER)
    assert status == 0, err
    doc = json.loads(out)
    assert [p["equity"] for p in doc["players"]] == [0.5, 0.5]
    status, out, err = run(capsys, "equity", "--game", "shortdeck", "As 5d", "random")
    assert status == 1 and "5d is not in the short deck" in err


def test_draw_without_replacement_is_uniform_and_distinct():
    # Monte Carlo deals of more than 8 cards (6-way PLO: 29) come from variants._draw
    from handrank.equity import variants
    free = np.arange(3, 51, dtype=np.uint8)
    rows = variants._draw(free, 29, 40_000, np.random.default_rng(5))
    assert rows.shape == (40_000, 29) and rows.flags.c_contiguous
    ordered = np.sort(rows, axis=1)
    assert (ordered[:, 1:] != ordered[:, :-1]).all() and np.isin(rows, free).all()
    # every card equally likely at every position: 40,000 / 48 = 833 expected, sd about 28.6
    counts = np.stack([np.bincount(rows[:, p], minlength=51)[3:51] for p in range(29)])
    assert abs(counts - 40_000 / 48).max() < 6 * 28.6


def test_six_random_plo_players_share_equity_evenly():
    result = equity.calculate(["random"] * 6, game="omaha", samples=200_000, seed=12)
    for e, s in zip(result.equity, result.stderr):
        assert abs(e - 1 / 6) < 5 * s
