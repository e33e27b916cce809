"""Regressions of issue 37's equity items 12 and 13 and its minor variant-equity findings: weights
far from 1 in every equity path, the bound on players, weights as any real number, players as
one string, seeds past 64 bits, and exact variant runs that would take days. Each test fails on
the code before the fix."""
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from handrank.equity import Range, calculate, variants

# Two players of two hands each, per game: (game, board, player 1's hands, player 2's hands).
SPOTS = [
    ("holdem", "2c 7d 9h", ["AsKs", "AdKd"], ["QcQh", "JcJh"]),
    ("omaha", "7d 8h 6c", ["As Ks Qs Js", "Ad Kd Qd Jd"], ["2c 3c 4c 5c", "2d 3d 4d 5d"]),
    ("omaha8", "7d 8h 6c", ["As Ks Qs Js", "Ad Kd Qd Jd"], ["2c 3c 4c 5c", "2d 3d 4d 5d"]),
    ("shortdeck", "6c 8s 9d", ["Ah Kh", "Ad Kd"], ["7c 7d", "Tc Td"]),
    ("shortdeck-triton", "6c 8s 9d", ["Ah Kh", "Ad Kd"], ["7c 7d", "Tc Td"]),
]
# The four hands' weights, and the same weights normalised (0: the hand weighs nothing next to
# its player's other one, so it is left out).
WEIGHTS = [
    ((1e-300, 1e-300, 1e-300, 1e-300), (1, 1, 1, 1)),
    ((1e300, 1e300, 1e300, 1e300), (1, 1, 1, 1)),
    ((1e200, 1e200, 1e200, 1e200), (1, 1, 1, 1)),
    ((1e308, 1e308, 1e308, 1e308), (1, 1, 1, 1)),         # each player's sum past a float's range
    ((1e300, 3e300, 2e300, 1e300), (1, 3, 2, 1)),         # mixes
    ((1e-300, 3e-300, 2e-300, 1e-300), (1, 3, 2, 1)),
    ((1e300, 1e300, 1e-300, 1e-300), (1, 1, 1, 1)),       # heavy against light (products cancel)
    ((1e200, 1e-200, 1e200, 5e199), (1, 0, 2, 1)),        # 1e-400 of its player's largest
]


def _players(game, hands1, hands2, weights):
    """The two players with these weights, as each game writes a weighted player."""
    players = []
    for hands, ws in ((hands1, weights[:2]), (hands2, weights[2:])):
        kept = [(h, w) for h, w in zip(hands, ws) if w]
        if game == "holdem":
            players.append(", ".join(f"{h}:{w!r}" for h, w in kept))
        else:
            players.append(dict(kept))
    return players


@pytest.mark.parametrize("weights, normalised", WEIGHTS)
@pytest.mark.parametrize("exact", [True, False], ids=["exact", "monte-carlo"])
@pytest.mark.parametrize("game, board, hands1, hands2", SPOTS, ids=[s[0] for s in SPOTS])
def test_extreme_weights_give_the_answer_of_the_normalised_weights(game, board, hands1, hands2, exact,
                                                                   weights, normalised):
    # item 12: the variants multiplied the raw weights (1e200 twice: inf showdowns and nan
    # equity; 1e-300 twice: "no deal is possible") and sampled by weight / sum (inf past 1e308).
    # Hold'em's paths and the variants' other Monte Carlo cases had no such fault: they are here
    # so that every path is held to the same answer.
    options = {"exact": True} if exact else {"samples": 20_000, "seed": 7, "threads": 1}
    got = calculate(_players(game, hands1, hands2, weights), board, game=game, **options)
    want = calculate(_players(game, hands1, hands2, normalised), board, game=game, **options)
    assert got.exact is exact and np.isfinite(got.showdowns) and got.showdowns > 0
    # one seed draws the same deals from the same hands; a hand left out changes the draws
    close = 1e-12 if exact or 0 not in normalised else 5 * max(got.stderr) + 5 * max(want.stderr)
    for field in ("equity", "win", "tie"):
        np.testing.assert_allclose(getattr(got, field), getattr(want, field), rtol=0, atol=close,
                                   err_msg=field)


def test_a_deal_whose_weight_underflows_is_not_called_impossible():
    # one deal fits (Ah Kh Qh Jh against Ks 2d 3d 4d) and it weighs 1e-300 * 1e-300 = 0
    players = [{"As Ks Qs Js": 1, "Ah Kh Qh Jh": 1e-300}, {"As Ah 2c 3c": 1, "Ks 2d 3d 4d": 1e-300}]
    with pytest.raises(ValueError, match="no deal has a weight above zero: the products of the "
                                         "players' weights underflow"):
        calculate(players, "7d 8h 6c", game="omaha", exact=True)


# ----------------------------------------------------------------------------- players
@pytest.mark.parametrize("game", ["holdem", *variants.GAMES])
def test_at_most_ten_players_in_every_game(game):
    # item 13: omaha dealt 11 players and short deck 12
    with pytest.raises(ValueError, match="^equity needs 2 to 10 players, got 11$"):
        calculate(["random"] * 11, game=game, samples=1000, seed=1)
    assert len(calculate(["random"] * 10, game=game, samples=1000, seed=1).equity) == 10


def _hands(players, size, first=16):
    """`players` hands of `size` cards, in order from card id `first`."""
    return [list(range(first + size * p, first + size * (p + 1))) for p in range(players)]


@pytest.mark.parametrize("players, game, dead, need, most", [
    (_hands(10, 5, 0), "omaha", "", "55 of its 52", 9),                   # PLO5
    (_hands(8, 6, 0), "omaha", "", "53 of its 52", 7),                    # PLO6
    (_hands(10, 2), "shortdeck", "Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd Kc", "37 of its 36", 9),
])
def test_the_deck_bound_is_named(players, game, dead, need, most):
    with pytest.raises(ValueError, match=f"need {need} cards \\(at most {most} players\\)$"):
        calculate(players, dead=dead, game=game)


@pytest.mark.parametrize("game", ["holdem", "omaha"])
@pytest.mark.parametrize("players", ["As Ad Kh Kd", {"As Ad Kh Kd": 1, "Js Ts 9h 8h": 2}],
                         ids=["str", "dict"])
def test_players_must_be_a_list_not_one_string_or_mapping(game, players):
    # omaha read a string's characters as players, and a mapping's keys
    with pytest.raises(TypeError, match=f"^players is a list of hands or ranges, one per player, "
                                        f"not a {type(players).__name__}$"):
        calculate(players, game=game)


# ----------------------------------------------------------------------------- weights
@pytest.mark.parametrize("kind", [np.float16, np.float32, np.int64, np.uint8, Fraction])
def test_any_real_number_is_a_weight(kind):
    board = "6c 8s 9d"
    want = calculate(["Ah Kh", {"7c 7d": 1, "Tc Td": 3}], board, game="shortdeck")
    got = calculate(["Ah Kh", {"7c 7d": kind(1), "Tc Td": kind(3)}], board, game="shortdeck")
    assert got.equity == pytest.approx(want.equity, abs=1e-15)
    assert Range({"AsKs": kind(3), "QsQh": 1}) == Range("AsKs:3, QsQh")
    if kind is Fraction:
        assert Range({"AsKs": Fraction(1, 3)}).weights == [1 / 3]


@pytest.mark.parametrize("weight, error, text", [
    (10**400, ValueError, "a weight must be positive and finite, got a number past a float's range$"),
    (-10**400, ValueError, "a weight must be positive and finite, got -a number past a float's range$"),
    (Fraction(10**400, 3), ValueError, "a weight must be positive and finite, got a number past a float's range$"),
    (float("inf"), ValueError, "a weight must be positive and finite, got inf$"),
    (0, ValueError, "a weight must be positive and finite, got 0$"),
    (np.float64("nan"), ValueError, "a weight must be positive and finite, got nan$"),
    (Decimal(2), TypeError, r"a weight is a real number \(int, float, Fraction\), not Decimal$"),
    (np.True_, TypeError, r"a weight is a real number \(int, float, Fraction\), not bool$"),
    ("2", TypeError, r"a weight is a real number \(int, float, Fraction\), not str$"),
])
def test_a_bad_weight_is_named(weight, error, text):
    with pytest.raises(error, match="^player 2: Tc Td: " + text):
        calculate(["Ah Kh", {"7c 7d": 1, "Tc Td": weight}], game="shortdeck")
    with pytest.raises(error, match="^'AsKs': " + text):
        Range({"AsKs": weight})


# ----------------------------------------------------------------------------- seeds
@pytest.mark.parametrize("game, players", [("holdem", ["AsKs", "random"]), ("omaha", ["As Ad Kh Kd", "random"])])
@pytest.mark.parametrize("seed, shown", [(2**64, str(2**64)), (2**70, str(2**70)), (-1, "-1"),
                                         (3**200, "a 317-bit number")])
def test_a_seed_past_64_bits_is_refused(game, players, seed, shown):
    # both paths reduced seeds mod 2**64: 2**70 gave the answer of 2**70 % 2**64
    with pytest.raises(ValueError, match=f"^seed must be 0 to 2\\*\\*64 - 1, got {shown}$"):
        calculate(players, game=game, samples=1000, seed=seed)


@pytest.mark.parametrize("game, players", [("holdem", ["AsKs", "random"]), ("omaha", ["As Ad Kh Kd", "random"])])
def test_the_largest_seed_is_taken(game, players):
    a = calculate(players, game=game, samples=1000, seed=2**64 - 1, threads=1)
    assert a == calculate(players, game=game, samples=1000, seed=np.uint64(2**64 - 1), threads=1)


# ----------------------------------------------------------------------------- exact=True
@pytest.mark.parametrize("players, board, showdowns, deals", [
    (["As Ad Kh Kd", "random"], "", "2.11e+11", "1.95e+05"),                  # about half a day
    (["As Ad Kh Kd Qc Qd", "random"], "", "6.16e+12", "9.37e+06"),            # PLO6: weeks
    (["random", "random"], "2c 7d 9h Ts Js", "2.2e+10", "2.2e+10"),         # a deal a board: weeks
])
def test_exact_variant_runs_that_would_take_days_are_refused(monkeypatch, players, board, showdowns, deals):
    # under hold'em's EXACT_MAX of showdowns, which the variants walk a thousand times slower
    def enumerate_anyway(*args):
        raise AssertionError("enumerated")
    monkeypatch.setattr(variants, "_enumerate", enumerate_anyway)
    with pytest.raises(ValueError, match=f"^exact enumeration of {re.escape(showdowns)} showdowns in "
                                         f"{re.escape(deals)} deals is "
                                         r"above the limit of 1e\+10 showdowns, a deal counting as 1,000 "
                                         r"more \(equity.variants.EXACT_MAX\): sample instead$"):
        calculate(players, board, game="omaha", exact=True)
