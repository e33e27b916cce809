"""Range notation: every form, the combos each names (checked by counting and by card), round trips
through text, card removal and the errors for bad notation."""
import itertools

import pytest
from hypothesis import given, strategies as st

from handrank.cards import cards
from handrank.equity import PREFLOP_ORDER, Range, class_combos, hand_class
from handrank.equity.order import PREFLOP_EQUITY


def names(text):
    return sorted({hand_class(c) for c in Range(text).combos})


@pytest.mark.parametrize("text,count", [
    ("QQ", 6), ("AKs", 4), ("AKo", 12), ("AK", 16), ("T9", 16), ("AhKh", 1), ("random", 1326),
    ("any", 1326), ("QQ+", 18), ("A5s-A2s", 16), ("76s+", 4), ("K9s+", 16), ("99-66", 24),
    ("66-99", 24), ("KQo", 12), ("A2+", 12 * 16), ("22+", 78),
    ("QQ+, AKs, A5s-A2s, KQo, 76s+, T9, AhKh, random", 1326),
])
def test_counts(text, count):
    assert len(Range(text)) == count


def test_plus_and_spans_name_the_right_classes():
    assert names("QQ+") == ["AA", "KK", "QQ"]
    assert names("K9s+") == ["K9s", "KJs", "KQs", "KTs"]
    assert names("76s+") == ["76s"]
    assert names("A5s-A2s") == ["A2s", "A3s", "A4s", "A5s"]
    assert names("JJ-99") == ["99", "JJ", "TT"]
    assert names("KTo+") == ["KJo", "KQo", "KTo"]
    assert names("T9") == ["T9o", "T9s"]


def test_combos_are_the_cards_named():
    assert Range("AhKh").combos == [tuple(sorted(cards("AhKh"), reverse=True))]
    suited = Range("AKs").combos
    assert all(a & 3 == b & 3 and {a >> 2, b >> 2} == {12, 11} for a, b in suited)
    offsuit = Range("AKo").combos
    assert all(a & 3 != b & 3 for a, b in offsuit) and len(set(offsuit)) == 12
    pairs = Range("QQ").combos
    assert sorted(pairs) == sorted(tuple(sorted(p, reverse=True)) for p in
                                   itertools.combinations([40, 41, 42, 43], 2))


def test_case_spaces_and_order_of_ranks():
    assert Range("qq+ , aks") == Range("QQ+,AKs")
    assert Range("KA") == Range("AK")
    assert Range("ahkh") == Range("AhKh")


def test_weights():
    r = Range("AKo:0.5, AKs, AhKh:0.25")
    assert r.weight("AsKd") == 0.5 and r.weight("AsKs") == 1.0 and r.weight("AhKh") == 0.25
    assert r.weight("QsQd") == 0.0
    assert len(r) == 16


def test_percentages_follow_the_order():
    assert Range("100%") == Range("random")
    top = Range("15%")
    wanted = 0.15 * 1326
    total, classes = 0, []
    for name in PREFLOP_ORDER:
        if total >= wanted:
            break
        total += len(class_combos(name))
        classes.append(name)
    assert len(top) == total and names("15%") == sorted(classes)
    assert PREFLOP_ORDER[0] == "AA"
    assert names("0.4%") == ["AA"] and names("0.5%") == ["AA", "KK"]


def test_preflop_order_is_every_class_once_by_equity():
    assert len(PREFLOP_ORDER) == 169 and len(set(PREFLOP_ORDER)) == 169
    assert sum(len(class_combos(n)) for n in PREFLOP_ORDER) == 1326
    values = [PREFLOP_EQUITY[n] for n in PREFLOP_ORDER]
    assert values == sorted(values, reverse=True)
    assert PREFLOP_EQUITY["AA"] == pytest.approx(0.852, abs=1e-3)    # AA vs a random hand
    assert PREFLOP_ORDER[-1] == "32o"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["AA", "T9s", "72o"])
def test_preflop_equity_recomputed(name):
    from handrank.equity import calculate
    hero = class_combos(name)[0]
    r = calculate([list(hero), "random"], exact=True)
    assert r.equity[0] == pytest.approx(PREFLOP_EQUITY[name], abs=1e-6)


@given(st.sets(st.sampled_from([(a, b) for a in range(52) for b in range(a)]), min_size=1, max_size=60),
       st.sampled_from([1.0, 0.5, 0.25, 2.0]))
def test_text_round_trip(combos, weight):
    r = Range({combo: weight for combo in combos})
    assert Range(str(r)) == r


def test_round_trip_of_classes():
    r = Range("QQ+, AKs:0.5, AhKh")
    assert Range(str(Range(dict(r)))) == r


def test_card_removal():
    r = Range("AA, AKs").without(cards("As Kh"))
    assert len(r) == 3 + 2
    with pytest.raises(ValueError, match="no combo left"):
        Range("AhAs").without(cards("As"))


@pytest.mark.parametrize("text,match", [
    ("AKx", "not range notation"), ("QQ++", "not range notation"), ("AsAs", "duplicate card As"),
    ("A5s-K2s", "keeps its higher rank"), ("QQs", "neither suited nor offsuit"),
    ("AKs-AKo", "suited, offsuit or neither alike"), ("AK:0", "positive"), ("AK:x", "weight"),
    ("", "empty range"), ("150%", "percentage"), ("Z9", "not range notation"),
])
def test_bad_notation(text, match):
    with pytest.raises(ValueError, match=match):
        Range(text)


def test_bad_types():
    with pytest.raises(TypeError):
        Range(42)
