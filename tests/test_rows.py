"""The row scale: 3- and 5-card hands interleaved as RULES.md compares a top row with the next."""
import numpy as np
import pytest

from handrank import high, high3, rows
from reference import all_hands, high3_key, high5_key


def rule_order_key(hand):
    """RULES.md's comparison as a sort key: the category on the 5-card ladder, then the ranks in
    tie-break order, a missing kicker (3-card hands) lower than any card."""
    key = high3_key(hand) if len(hand) == 3 else high5_key(hand)
    return key + (-1,) * (8 - len(key))


def representatives(k):
    """One hand of every class: (hands, their high or high3 values)."""
    hands = all_hands(k)
    values = (high if k == 5 else high3).evaluate_batch(hands)
    _, first = np.unique(values, return_index=True)
    return hands[first], values[first]


@pytest.mark.parametrize("top, middle, fouls", [
    ("Qs Qh 5d", "Qc Qd 4h 3s 2c", True),     # the 5 beats the 4
    ("Qs Qh 5d", "Qc Qd 5h 3s 2c", False),    # QQ5 vs QQ532: the missing kicker is lower
    ("Qs Qh 5d", "Qc Qd 9h 8s 2c", False),
    ("Qs Qh 7d", "Qc Qd 6h 5s 4c", True),
    ("Ac Ad Ah", "Kc Kd Kh Qs Jc", True),
    ("Ac Ad Ah", "As 2d 2h 2s 3c", True),      # trips: the rank of the trips decides, aces win
    ("Ac Kd Qh", "Ac Kd Qs Jh 9c", False),
    ("Ah Kd Qs", "As Kc Jh Td 9c", True),
    ("2c 2d 2h", "3c 4d 5h 6s 7c", False),     # a straight beats any three of a kind
])
def test_rules_examples(top, middle, fouls):
    assert (rows.value(top) > rows.value(middle)) is fouls


def test_scale_orders_every_class_as_the_rule_says():
    hands5, values5 = representatives(5)
    hands3, values3 = representatives(3)
    assert len(values5) == 7462 and len(values3) == 455
    row_values = np.concatenate([rows.value_batch(hands5), rows.value_batch(hands3)])
    keys = [rule_order_key(h) for h in hands5] + [rule_order_key(h) for h in hands3]
    by_rule = sorted(range(len(keys)), key=keys.__getitem__)
    assert np.array_equal(row_values[by_rule], np.arange(1, rows.MAX_VALUE + 1))


def test_conversions_keep_each_ladder_in_order():
    fives = [rows.from_high(v) for v in range(1, high.MAX_VALUE + 1)]
    threes = [rows.from_high3(v) for v in range(1, high3.MAX_VALUE + 1)]
    assert fives == sorted(fives) and threes == sorted(threes)
    assert sorted(fives + threes) == list(range(1, rows.MAX_VALUE + 1))
    assert rows.value("As Ks Qs Js Ts") == rows.from_high(high.evaluate("As Ks Qs Js Ts"))
    assert rows.value("4c 3d 2h") == 1 == rows.from_high3(1)


def test_batch_equals_scalar_and_mixes_no_sizes():
    from handrank import random_hands
    for k in (3, 5):
        hands = random_hands(2000, k, seed=k)
        assert rows.value_batch(hands).tolist() == [rows.value(tuple(h)) for h in hands.tolist()]
    with pytest.raises(ValueError, match="shape"):
        rows.value_batch(np.zeros((2, 4), dtype=np.uint8))
    with pytest.raises(ValueError, match="a row has 3 or 5 cards, got 4"):
        rows.value("As Ks Qs Js")
    with pytest.raises(ValueError, match="row 1: duplicate card"):
        rows.value_batch([[0, 1, 2], [5, 5, 6]])
    with pytest.raises(ValueError, match="1..7462"):
        rows.from_high(0)
    with pytest.raises(ValueError):
        rows.from_high3(456)
