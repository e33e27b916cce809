"""Regression tests for OFC faults found in review: each failed before its fix."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import handrank as hr
import ofc_reference as ref
from handrank import ofc

# hands where staying and leaving Fantasyland differ (royalties without staying, with staying)
HANDS = [
    ("classic", "Ac Ks 4d 8c 4s Kd 4h 5h Ts 3h 2d 6c 5s 4c"),       # 12, 10 (quads at the bottom)
    ("classic", "2h 3s 4c 4d 4h 4s 5s 7c 8d Js Kh Ks Ac Ad"),       # stays with 10, leaves with 18
    ("classic", "4d 6d 6s 7h 8h 9d 9h 9s Th Ts Jh Qh Ks Ah"),
    ("pineapple", "2s 6s 9c 9s Tc Th Ts Jc Js Qd Qs Ac Ad Ah"),
]


def setting(result) -> tuple:
    if isinstance(result, dict):
        return tuple(result["top"]), tuple(result["middle"]), tuple(result["bottom"]), result["royalties"]
    return result.board.top, result.board.middle, result.board.bottom, result.royalties


@pytest.mark.parametrize("name, hand", HANDS)
def test_stay_value_decides_exactly(name, hand):
    """The setting chosen is the exact optimum of royalties + stay_value * stays: staying wins
    exactly when stay_value is above the royalty difference D, whatever the float rounding of
    royalties + stay_value (10 + (2 - 2**-52) rounds to 12 and tied before the fix)."""
    staying, leaving = (ref.brute_force_fantasyland(hand, name, v) for v in (2 ** 40, -2 ** 40))
    assert staying["stays"] and not leaving["stays"]
    d = leaving["royalties"] - staying["royalties"]
    at_d = ref.brute_force_fantasyland(hand, name, d)
    values = [d, math.nextafter(d, -math.inf), math.nextafter(d, math.inf), d - 2 ** -30, d + 2 ** -30,
              d - 0.5, d + 0.5, d - 1 + 2 ** -40, d + 1 - 2 ** -40, d + 1e-9, d - 1e-9, 1e12, -1e12,
              2 ** 40, -2 ** 40, 2.0 ** 40, np.float32(d + 0.25), np.int64(d + 1)]
    for v in values:
        exact = Fraction(float(v)) - d
        want = staying if exact > 0 else leaving if exact < 0 else at_d
        got = ofc.solve_fantasyland(hand, name, v)
        assert setting(got) == setting(want), (hand, v)
        assert got.stays == want["stays"]
        assert got.value == float(got.royalties + Fraction(float(v)) * got.stays), (hand, v)
        batch = ofc.solve_fantasyland_batch(np.array([hr.cards(hand)]), name, v, threads=1)
        assert batch.royalties[0] == got.royalties and batch.value[0] == got.value


def test_a_huge_stay_value_no_longer_picks_a_worse_staying_board():
    """Before the fix stay_value=1e17 set this hand for 10 royalties (every staying setting
    rounded to the same value), stay_value=3 for 18."""
    hand = "2h 3s 4c 4d 4h 4s 5s 7c 8d Js Kh Ks Ac Ad"
    best_staying = ofc.solve_fantasyland(hand, "classic", 3)
    assert best_staying.stays and best_staying.royalties == 18
    assert setting(ofc.solve_fantasyland(hand, "classic", 2 ** 40)) == setting(best_staying)
    with pytest.raises(ValueError, match=r"stay_value must be a finite number in -2\*\*40 \.\. 2\*\*40"):
        ofc.solve_fantasyland(hand, "classic", 1e17)


@pytest.mark.parametrize("value", [1e17, -1e17, 2 ** 40 + 1, -2 ** 40 - 1, 10 ** 400, -10 ** 400,
                                   math.inf, -math.inf, math.nan, np.float64("nan"), np.float32("inf")],
                         ids=repr)
def test_stay_values_out_of_range_are_value_errors(value):
    hand = HANDS[0][1]
    with pytest.raises(ValueError, match=r"stay_value must be a finite number in -2\*\*40 \.\. 2\*\*40"):
        ofc.solve_fantasyland(hand, stay_value=value)
    with pytest.raises(ValueError, match=r"stay_value must be a finite number in -2\*\*40 \.\. 2\*\*40"):
        ofc.solve_fantasyland_batch(np.array([hr.cards(hand)]), stay_value=value)


@pytest.mark.parametrize("value", ["5", None, True, Fraction(1, 2), [1.0], 1j], ids=repr)
def test_stay_values_that_are_no_numbers_are_type_errors(value):
    with pytest.raises(TypeError, match="stay_value must be a number"):
        ofc.solve_fantasyland(HANDS[0][1], stay_value=value)
