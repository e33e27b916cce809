"""bigtwo: rules objects, single plays, the seed's examples, payments and the batch API's errors."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import handrank as hr
from handrank import bigtwo
from handrank.bigtwo import Combo, Kind, Rules

PRESETS = ("hk", "taiwan", "pusoy", "malaysia", "indonesia", "vietnam", "hawaii", "charlesworth")


# ----------------------------------------------------------------------------- rules
def test_presets_listed_and_built():
    assert Rules.presets() == PRESETS
    assert Rules.preset("hk") == Rules()
    assert Rules.preset("taiwan") is Rules.preset("taiwan")
    for name in PRESETS:
        assert isinstance(Rules.preset(name), Rules)
    with pytest.raises(ValueError, match="unknown Big Two preset 'nope'; presets: hk, taiwan"):
        Rules.preset("nope")


def test_rules_are_frozen_and_hashable():
    rules = Rules.preset("taiwan")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.suit_order = "dchs"  # type: ignore[misc]
    assert hash(rules) == hash(Rules.preset("taiwan"))
    assert rules.replace(two_pair=True).two_pair and not rules.two_pair


@pytest.mark.parametrize("changes, message", [
    ({"suit_order": "dch"}, "suit_order must name each suit"),
    ({"suit_order": "ddhs"}, "suit_order must name each suit"),
    ({"suit_order": "DCHS"}, "suit_order must name each suit"),
    ({"straights": (("34568", "8"),)}, "straight 0: '34568' is not five consecutive ranks"),
    ({"straights": (("3456", "6"),)}, "straight 0: '3456' must be five ranks"),
    ({"straights": (("34567", "8"),)}, "the tie-break must be one rank of '34567', got '8'"),
    ({"straights": (("34567", ""),)}, "the tie-break must be one rank of '34567', got ''"),
    ({"straights": (("34567", "45"),)}, "the tie-break must be one rank of '34567', got '45'"),
    ({"straights": (("A2345", "A2"),)}, "the tie-break must be one rank of 'A2345', got 'A2'"),
    ({"straights": (("34567", "7"), ("34567", "3"))}, "straight 1: '34567' repeats straight '34567'"),
    ({"straights": (("KA234", "4"), ("34567",))}, "straight 1: expected a \\(ranks, tiebreak\\) pair"),
    ({"straights": 5}, "must be a sequence of \\(ranks, tiebreak\\) pairs"),
    ({"flush_order": "colour"}, "flush_order must be one of"),
    ({"four_of_a_kind": "never"}, "four_of_a_kind must be one of"),
    ({"double_at": 0}, "double_at must be an int >= 1"),
    ({"double_at": 12, "triple_at": 11}, "triple_at \\(11\\) must be >= double_at \\(12\\)"),
])
def test_bad_rules_are_value_errors(changes, message):
    with pytest.raises(ValueError, match=message):
        Rules(**changes)


def test_wrapping_windows_are_allowed_when_listed():
    rules = Rules(straights=(("KA234", "4"), ("34567", "7")))
    assert bigtwo.classify("Kd Ac 2h 3s 4d", rules).kind is Kind.STRAIGHT
    assert bigtwo.classify("Kd Ac 2h 3s 4d") is None
    assert bigtwo.beats("3d 4c 5h 6s 7d", "Kd Ac 2h 3s 4c", rules)


def test_lowest_card_per_suit_order():
    assert hr.card_str(Rules.preset("hk").lowest_card) == "3d"
    assert hr.card_str(Rules.preset("taiwan").lowest_card) == "3c"
    assert hr.card_str(Rules.preset("pusoy").lowest_card) == "3c"


# ----------------------------------------------------------------------------- the seed's examples
def test_singles_seed_examples():
    assert bigtwo.beats("As", "Ah") and bigtwo.beats("Ah", "Kh")
    assert not bigtwo.beats("Ah", "As") and not bigtwo.beats("Kh", "Ah")
    assert bigtwo.classify("3d").key == 1 and bigtwo.classify("2s").key == 52
    assert bigtwo.beats("2d", "As")
    # suit orders: hk d < c < h < s, taiwan c < d < h < s, pusoy c < s < h < d
    for name, order in (("hk", "dchs"), ("taiwan", "cdhs"), ("pusoy", "cshd")):
        keys = [bigtwo.classify("7" + s, name).key for s in order]
        assert keys == sorted(keys) and len(set(keys)) == 4


def test_pairs_and_triples():
    assert bigtwo.beats("Ks Kc", "Kh Kd")
    assert not bigtwo.beats("Kh Kd", "Ks Kc")
    assert bigtwo.beats("2d 2c", "As Ah")
    assert bigtwo.classify("Ks Qs") is None
    assert bigtwo.classify("5d 5c 5h").kind is Kind.TRIPLE
    assert bigtwo.beats("2d 2c 2h", "Ad Ac Ah")
    assert not bigtwo.beats("Ks Kc", "Kd Kh Kc")          # sizes differ
    assert bigtwo.classify("Ks Kc Kh Kd") is None          # four cards are no combo in hk


def test_five_card_kinds_order():
    straight = bigtwo.classify("3d 4c 5h 6s 7d")
    flush = bigtwo.classify("3h 5h 7h 9h Jh")
    full_house = bigtwo.classify("3d 3c 3h 4s 4d")
    quads = bigtwo.classify("3d 3c 3h 3s 4d")
    straight_flush = bigtwo.classify("3d 4d 5d 6d 7d")
    assert [c.kind for c in (straight, flush, full_house, quads, straight_flush)] == [
        Kind.STRAIGHT, Kind.FLUSH, Kind.FULL_HOUSE, Kind.FOUR_OF_A_KIND, Kind.STRAIGHT_FLUSH]
    assert straight < flush < full_house < quads < straight_flush
    assert bigtwo.classify("3d 4c 5h 6s 7d", Rules(straight_above_flush=True)) > \
        bigtwo.classify("3h 5h 7h 9h Jh", Rules(straight_above_flush=True))
    with pytest.raises(TypeError, match="does not compare"):
        assert straight < bigtwo.classify("3d")
    assert bigtwo.classify("Jh Qh Kh Ah 2h").kind is Kind.FLUSH      # not a straight in hk


STRAIGHT_ORDERS = {
    "hk": "34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA 23456 A2345",
    "malaysia": "34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA A2345 23456",
    "indonesia": "34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA JQKA2",
    "vietnam": "34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA",
    "ace_low": "23456 34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA A2345",
}
ALL_WINDOWS = ["".join("23456789TJQKA"[(i + j) % 13] for j in range(5)) for i in range(13)]


@pytest.mark.parametrize("name", list(STRAIGHT_ORDERS))
def test_straight_order_of_each_table(name):
    suits = "dcdcd"
    rules = Rules(straights=name)
    combos = {w: bigtwo.classify([r + s for r, s in zip(w, suits)], rules) for w in ALL_WINDOWS}
    straights = {w: c for w, c in combos.items() if c is not None}
    assert all(c.kind is Kind.STRAIGHT for c in straights.values())
    ranked = sorted(straights, key=lambda w: straights[w].key)
    assert ranked == STRAIGHT_ORDERS[name].split()
    lowest = "23456" if name == "ace_low" else "34567"
    assert ranked[0] == lowest


def test_straight_tiebreak_card():
    # hk: the 2 breaks ties in A-2-3-4-5; ace_low: the A does
    assert bigtwo.beats("As 2h 3d 4d 5d", "Ac 2d 3s 4s 5s")
    ace_low = Rules(straights="ace_low")
    assert bigtwo.beats("Ac 2d 3s 4s 5s", "As 2h 3d 4d 5d", ace_low) is False
    assert bigtwo.beats("As 2d 3d 4d 5d", "Ac 2h 3s 4s 5s", ace_low)
    # top card otherwise
    assert bigtwo.beats("3s 4d 5d 6d 7s", "3d 4s 5s 6s 7h")


def test_flush_comparison():
    assert bigtwo.beats("3d 5d 7d 9d 2d", "4s 6s 8s Ts As")           # the 2 is the top card
    assert bigtwo.beats("3s 5s 7s 9s Js", "3h 5h 7h 9h Jh")           # same ranks: suit
    assert bigtwo.beats("4d 5d 7d 9d Jd", "3s 5s 7s 9s Js")           # ranks first
    suit_first = Rules(flush_order="suit")
    assert bigtwo.beats("3s 5s 7s 9s Js", "4d 5d 7d 9d Jd", suit_first)
    assert bigtwo.classify("3s 5s 7s 9s Js", Rules(flushes=False)) is None


def test_full_house_and_quads_by_rank():
    assert bigtwo.beats("4d 4c 4h 3s 3d", "3c 3h 3s 2s 2d")
    assert bigtwo.beats("4d 4c 4h 4s 3d", "3c 3h 3s 3d 2d")
    assert bigtwo.classify("4d 4c 4h 4s 3d", Rules(four_of_a_kind="four_cards")) is None
    assert bigtwo.classify("4d 4c 4h 4s", Rules(four_of_a_kind="four_cards")).kind is Kind.FOUR


def test_two_pair_option():
    rules = Rules(two_pair=True)
    assert bigtwo.classify("Kd Kc 5h 5s 9d") is None
    two_pair = bigtwo.classify("Kd Kc 5h 5s 9d", rules)
    assert two_pair.kind is Kind.TWO_PAIR
    assert two_pair < bigtwo.classify("3d 4c 5h 6s 7d", rules)
    assert bigtwo.beats("Kh Ks 3h 3s 4d", "Kd Kc 5h 5s 9d", rules)


def test_classify_inputs_and_errors():
    assert bigtwo.classify([51]) == bigtwo.classify("As") == bigtwo.classify(["As"])
    combo = bigtwo.classify("7d 3d 5h 6s 4c")
    assert combo.cards == tuple(sorted(hr.cards("7d 3d 5h 6s 4c")))
    assert str(combo) == "straight 3d 4c 5h 6s 7d"
    assert bigtwo.classify(combo) == combo
    with pytest.raises(ValueError, match="duplicate card 3d"):
        bigtwo.classify("3d 3d")
    with pytest.raises(ValueError, match="1 to 5 cards, got 6"):
        bigtwo.classify("3d 4d 5d 6d 7d 8d")
    with pytest.raises(ValueError, match="1 to 5 cards, got 0"):
        bigtwo.classify("")
    with pytest.raises(TypeError, match="rules must be"):
        bigtwo.classify("3d", rules=3)
    with pytest.raises(ValueError, match="not a Big Two combo"):
        bigtwo.beats("3d", "3s 4d")
    assert bigtwo.beats("3s 4d", "3d") is False          # no combo beats nothing
    assert bigtwo.beats("3d", None)


def test_scalar_agrees_with_batch():
    for k in (1, 2, 3, 5):
        hands = hr.random_hands(3000, k, seed=k)
        for name in ("hk", "pusoy", "indonesia"):
            keys = bigtwo.classify_batch(hands, name)
            scalar = [(c.key if (c := bigtwo.classify(row.tolist(), name)) else 0) for row in hands]
            assert keys.tolist() == scalar


# ----------------------------------------------------------------------------- batch errors
def test_batch_errors_name_the_row():
    hands = hr.random_hands(100, 5, seed=3)
    hands[57, 3] = hands[57, 1]
    with pytest.raises(ValueError, match=f"row 57: duplicate card {hr.card_str(int(hands[57, 1]))}"):
        bigtwo.classify_batch(hands)
    bad = hr.random_hands(10, 2, seed=3).astype(np.int64)
    bad[4, 0] = 52
    with pytest.raises(ValueError, match="row 4: card id 52 is out of range"):
        bigtwo.classify_batch(bad)
    with pytest.raises(TypeError, match="integer array"):
        bigtwo.classify_batch(np.zeros((3, 5)))
    with pytest.raises(ValueError, match="shape"):
        bigtwo.classify_batch(np.zeros((3, 4), dtype=np.uint8))


def test_batch_out_and_threads():
    hands = hr.random_hands(200_000, 5, seed=9)
    expected = bigtwo.classify_batch(hands, threads=1)
    out = np.full(len(hands), -7, dtype=np.int32)
    assert bigtwo.classify_batch(hands, out=out, threads=2) is out
    assert (out == expected).all()
    hands[150_000, 0] = hands[150_000, 4]
    for threads in (1, 2):       # one thread checks every row before writing any; two save out
        out[:] = -7
        with pytest.raises(ValueError, match="row 150000"):
            bigtwo.classify_batch(hands, out=out, threads=threads)
        assert (out == -7).all()
    pairs = hr.random_hands(1000, 2, seed=9)
    pairs[999, 1] = 77
    out = np.full(len(pairs), -7, dtype=np.int32)
    with pytest.raises(ValueError, match="row 999: card id 77"):
        bigtwo.classify_batch(pairs, out=out, threads=1)
    assert (out == -7).all()
    with pytest.raises(TypeError, match="dtype int32"):
        bigtwo.classify_batch(hands[:5], out=np.empty(5, dtype=np.uint16))
    assert bigtwo.classify_batch(["3d 4c 5h 6s 7d", "3d 3c 4h 4s 5d"]).tolist()[1] == 0


def test_batch_of_many_combos_matches_classify():
    """Rows that may be combos are keyed in full, their keys kept aside until every row is
    checked: runs of them, longer than a block, in every position."""
    rng = np.random.default_rng(5)
    suited = np.array([rng.choice(13, 5, replace=False) * 4 + rng.integers(4) for _ in range(5000)])
    mixed = hr.random_hands(5000, 5, seed=5)
    hands = np.concatenate([suited, mixed, suited[::-1], mixed[:3]]).astype(np.uint8)
    for name in ("hk", "pusoy"):
        keys = bigtwo.classify_batch(hands, name, threads=1)
        expected = [0 if (c := bigtwo.classify(h.tolist(), name)) is None else c.key for h in hands]
        assert keys.tolist() == expected


# ----------------------------------------------------------------------------- payments
def test_payments_worked_examples():
    assert bigtwo.payments([0, 3, 11, 8]) == [33, -3, -22, -8]
    rules = Rules(double_held=True, double_winning_play=True)
    assert bigtwo.payments([0, 3, 9, 8], rules, winning_play="2s",
                           bonus_held=[False, False, True, True]) == [74, -6, -36, -32]
    # the same, read from the hands: 9 cards with a straight flush, 8 with a 2
    hands = ["", "4d 6c 9h", "5h 6h 7h 8h 9h Jd Qc Ks 4c", "2c Td Jh Qs Kd Ad 7c 8d"]
    assert bigtwo.payments(hands, rules, winning_play=bigtwo.classify("2s")) == [74, -6, -36, -32]
    assert bigtwo.payments(hands, winning_play="2s") == [20, -3, -9, -8]    # options off by default


def test_payment_thresholds():
    assert bigtwo.payments([5, 0]) == [-5, 5]
    assert bigtwo.payments([9, 10, 12, 0]) == [-9, -20, -24, 53]
    assert bigtwo.payments([13, 0, 1]) == [-39, 40, -1]
    assert bigtwo.payments([13, 0, 1], Rules(double_at=5, triple_at=20)) == [-26, 27, -1]
    assert sum(bigtwo.payments([0, 7, 13, 2])) == 0
    assert bigtwo.payments(np.array([0, 3, 11, 8])) == [33, -3, -22, -8]
    # hands as arrays of ids are hands, not counts
    assert bigtwo.payments([np.array([], np.uint8), np.array([5, 6, 7])]) == [3, -3]
    assert bigtwo.payments([np.int64(0), np.array([5, 6])]) == [2, -2]


def test_payment_errors():
    with pytest.raises(ValueError, match="exactly one player"):
        bigtwo.payments([0, 0, 3])
    with pytest.raises(ValueError, match="exactly one player"):
        bigtwo.payments([1, 2, 3])
    with pytest.raises(ValueError, match="2 to 4 players"):
        bigtwo.payments([0])
    with pytest.raises(ValueError, match="not a Big Two combo"):
        bigtwo.payments([0, 3], Rules(double_winning_play=True), winning_play="2s 3d")


def test_bonus_holdings():
    assert bigtwo.holds_bonus("2c 5d")
    assert bigtwo.holds_bonus("5d 5c 5h 5s 9d")
    assert bigtwo.holds_bonus("5h 6h 7h 8h 9h")
    assert not bigtwo.holds_bonus("5h 6h 7h 8h 9d Kd")
    assert not bigtwo.holds_bonus("Jh Qh Kh Ah 3h", "vietnam")   # no J-Q-K-A-2 straight there
    assert bigtwo.is_bonus_play("3d 3c 3h 3s 9d") and not bigtwo.is_bonus_play("As")


def test_combo_is_a_light_value():
    combo = bigtwo.classify("Ks Kc")
    assert isinstance(combo, Combo) and combo.size == 2 and combo.kind is Kind.PAIR
    assert combo == Combo(Kind.PAIR, 2, (hr.card("Kc"), hr.card("Ks")), combo.key)


def test_default_class_table_is_built_at_build_time():
    # tools/gen_tables.py builds the default ruleset's class table with the code that builds every
    # other ruleset's on first use: the two must agree, and Rules() must pick the built-in one.
    from handrank.bigtwo.classes import class_table, signature
    from handrank.bigtwo import _bigtwo
    from handrank.bigtwo.tables import _high_value

    default = Rules()
    facts = (default.straights, default.flush_order, default.five_card_kinds)
    assert signature(*facts) == _bigtwo.BUILT_IN_SIGNATURE
    built_in = np.frombuffer(_bigtwo.built_in_classes(), dtype=np.uint32)
    assert built_in.tolist() == class_table(_high_value, *facts)
    assert np.count_nonzero(built_in) == 20 + 1277 + 156 + 156   # straights (flush or not), flushes,
                                                                 # full houses, four of a kind
    vietnam = Rules.preset("vietnam")
    assert signature(vietnam.straights, vietnam.flush_order, vietnam.five_card_kinds) != signature(*facts)


@pytest.mark.parametrize("bad", [52, -1, 2 ** 31, 2 ** 64, -2 ** 70])
def test_moves_of_int_hands_name_a_bad_id(bad):
    for hand in ([0, 5, bad], (bad, 0, 5)):
        with pytest.raises(ValueError, match=f"card id {bad} is out of range"):
            bigtwo.legal_moves(hand)
