"""Open-Face Chinese poker (RULES.md "Open-Face Chinese poker"): rules, boards, fouls, royalties,
Fantasyland, scoring and the batch functions, against the independent oracle tests/ofc_reference.py.
The Fantasyland solver is in test_ofc_solver.py."""
import dataclasses
import itertools

import numpy as np
import pytest

import handrank as hr
import ofc_reference as ref
from handrank import low27, ofc, rows

PRESETS = ("classic", "pineapple", "progressive", "deuce")
HIGH_PRESETS = ("classic", "pineapple", "progressive")
E = hr.cards


def rules(name):
    return ofc.Rules.preset(name)


def rows_of(board):
    """(top, middle, bottom) id lists of a 13-card array row."""
    board = [int(c) for c in board]
    return board[:3], board[3:8], board[8:]


def text(board):
    """"top / middle / bottom" text of a 13-card row."""
    return " / ".join(hr.hand_str(r) for r in rows_of(board))


def check_board(board, name):
    """ofc's single-board functions agree with the reference on one board, under a preset."""
    r = rules(name)
    t, m, b = rows_of(board) if not isinstance(board, tuple) else board
    expected = (ref.is_foul(t, m, b, name), ref.royalties(t, m, b, name),
                ref.fantasyland(t, m, b, name), ref.fantasyland(t, m, b, name, in_fantasyland=True))
    got = (ofc.is_foul((t, m, b), r), tuple(ofc.royalties((t, m, b), r)),
           ofc.fantasyland((t, m, b), r), ofc.fantasyland((t, m, b), r, in_fantasyland=True))
    assert got == expected, (name, hr.hand_str(t), hr.hand_str(m), hr.hand_str(b))
    return expected


# ----------------------------------------------------------------------------- free-card helpers
def _free(used):
    return [c for c in range(52) if c not in set(used)]


def _suits_for(ranks, free, avoid_flush):
    """Free cards of these ranks (one per entry, lowest suit first), not all one suit if asked."""
    by_rank = {r: [c for c in free if c // 4 == r] for r in set(ranks)}
    need = {r: ranks.count(r) for r in by_rank}
    if any(len(by_rank[r]) < need[r] for r in need):
        return None
    choices = [list(itertools.combinations(by_rank[r], need[r])) for r in sorted(need)]
    for pick in itertools.product(*choices):
        hand = [c for group in pick for c in group]
        if not (avoid_flush and len({c % 4 for c in hand}) == 1):
            return hand
    return None


def weakest_top(used):
    """The weakest unpaired top from the free cards."""
    for ranks in itertools.combinations(range(13), 3):
        hand = _suits_for(list(ranks), _free(used), avoid_flush=False)
        if hand:
            return hand
    raise AssertionError


def weakest_five(used):
    """The weakest high-card 5-card hand (no straight, no flush) from the free cards."""
    for ranks in sorted(itertools.combinations(range(13), 5), key=lambda rs: sorted(rs, reverse=True)):
        if ranks[-1] - ranks[0] == 4 or list(ranks) == [0, 1, 2, 3, 12]:
            continue
        hand = _suits_for(list(ranks), _free(used), avoid_flush=True)
        if hand:
            return hand
    raise AssertionError


def best_low(used):
    """The best 2-7 low (no pair, straight or flush) from the free cards."""
    for ranks in sorted(itertools.combinations(range(13), 5), key=lambda rs: sorted(rs, reverse=True)):
        if ranks[-1] - ranks[0] == 4:
            continue
        hand = _suits_for(list(ranks), _free(used), avoid_flush=True)
        if hand:
            return hand
    raise AssertionError


def ace_high_flush(used):
    """An ace-high flush (no straight flush) from the free cards."""
    free = set(_free(used))
    for ranks in itertools.combinations(range(11, -1, -1), 4):
        for suit in range(4):
            hand = [4 * r + suit for r in (12, *ranks)]
            if ranks not in ((11, 10, 9, 8), (3, 2, 1, 0)) and all(c in free for c in hand):
                return hand
    raise AssertionError


def strongest_straight_flush(used):
    free = set(_free(used))
    for top in range(12, 2, -1):
        for suit in range(4):
            ranks = [12, 0, 1, 2, 3] if top == 3 else range(top - 4, top + 1)
            hand = [4 * r + suit for r in ranks]
            if all(c in free for c in hand):
                return hand
    raise AssertionError


# ----------------------------------------------------------------------------- hand lists
ROW_HANDS = [  # every category of the royalty ladders, and their edges
    "As Ks Qs Js Ts", "Ah Kh Qh Jh Th", "Ks Qs Js Ts 9s", "5d 4d 3d 2d Ad", "6c 5c 4c 3c 2c",
    "9h 9d 9s 9c 2c", "2c 2d 2h 2s 3c", "Ac Ad Ah As Kd",
    "Kc Kd Kh 2s 2c", "2c 2d 2h 3s 3c", "Ac Ad Ah Ks Kd",
    "Ac 9c 7c 4c 2c", "7h 5h 4h 3h 2h", "Kd Qd Jd Td 8d",
    "Ac Kd Qh Js Tc", "5c 4d 3h 2s Ad", "6c 5d 4h 3s 2c", "Ac Kd Qh Js 9c",
    "Ac Ad Ah Ks Qd", "2c 2d 2h 3s 4c", "Kc Kd 5h 5s 2c", "Ac Ad Ks Kh Qd",
    "Ac Ad Ks Qh Jd", "2c 2d 3h 4s 5c", "Ac Kd Qh Js 9h", "7c 5d 4h 3s 2c",
]
LOW_HANDS = [  # 2-7 middles: qualifiers, royalty edges, and the hands that foul
    "Ts 9s 8d 7c 5h", "Ts 9s 8d 7c 6h", "Ts 9s 8d 7c 4h", "Ts 8s 7d 6c 5h", "Js 5d 4h 3s 2c",
    "9s 8d 7s 6h 4s", "9s 8d 7s 6h 5s", "9s 8d 7s 5h 4s", "9h 5d 4h 3h 2h", "9h 6h 4h 3h 2h",
    "8s 7d 6s 5h 3s", "8s 7d 6s 5h 4s", "8c 5d 4h 3s 2c", "8c 7c 6c 5c 3c",
    "7s 6d 5s 4h 2s", "7s 6d 5s 4h 3s", "7s 6d 4s 3h 2s", "7s 5d 4s 3h 2s", "7c 5c 4c 3c 2c",
    "As 5d 4h 3s 2c", "Ah 5h 4h 3h 2h", "6s 5d 4h 3s 2c", "7s 7d 5h 4s 2c", "7s 5d 4h 3s 3c",
    "Ks Qd Jh Ts 9c", "Ts 9d 8h 6s 5c",
]


def all_top_classes():
    """One 3-card hand of each of the 455 classes: rank multisets with at most three of a rank."""
    return [list(r) for r in itertools.combinations_with_replacement(range(13), 3)]


# ============================================================================= Rules
def test_presets_are_the_four_named_in_rules_md():
    names = ofc.Rules.presets()
    assert isinstance(names, tuple)
    assert sorted(names) == sorted(PRESETS)
    for name in names:
        assert rules(name).name == name


@pytest.mark.parametrize("name", PRESETS)
def test_preset_fields_are_the_rules_md_tables(name):
    r = rules(name)
    for field, value in ref.rules_kwargs(name).items():
        if name == "deuce" and field == "middle_royalties":
            continue                                  # ignored when the middle is a 2-7 low
        got = getattr(r, field)
        if isinstance(value, tuple):
            assert isinstance(got, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in got)
            assert dict(got) == dict(value), field
            assert len(got) == len(value), field
        else:
            assert got == value, field


def test_default_rules_are_pineapple():
    assert dataclasses.replace(ofc.Rules(), name="pineapple") == rules("pineapple")
    assert ofc.Rules().name == "custom"
    assert dataclasses.replace(rules("pineapple"), name="custom") == ofc.Rules()


def test_unknown_preset():
    with pytest.raises((ValueError, KeyError), match="chinese"):
        ofc.Rules.preset("chinese")


def test_rules_are_frozen_and_hashable():
    r = rules("deuce")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.scoop_bonus = 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.top_royalties = ()
    assert hash(r) == hash(rules("deuce"))
    assert r == rules("deuce") and r != rules("pineapple")


def test_dict_tables_are_converted_to_pairs():
    kwargs = {k: dict(v) if isinstance(v, tuple) else v
              for k, v in ref.rules_kwargs("progressive").items()}
    r = ofc.Rules(**kwargs)
    assert r == rules("progressive")
    assert isinstance(r.fantasyland_top, tuple)
    assert r.fantasyland_top == (("QQ", 14), ("KK", 15), ("AA", 16), ("222", 17))
    assert ofc.Rules(top_royalties={"QQ": 5}).top_royalties == (("QQ", 5),)


@pytest.mark.parametrize("field, value", [
    ("top_royalties", (("65", 1),)),                    # unknown threshold text
    ("top_royalties", (("Q", 1),)),
    ("top_royalties", (("QQQQ", 1),)),
    ("top_royalties", (("XX", 1),)),
    ("top_royalties", (("pair", 1),)),                  # a 5-card name on the top row
    ("top_royalties", (("QQ", -1),)),                   # negative royalty
    ("top_royalties", (("QQ", 7), ("QQ", 8))),          # the same threshold twice
    ("top_royalties", (("QQ", 7, 1),)),                 # not a pair
    ("middle_royalties", (("tripps", 2),)),
    ("middle_royalties", (("QQ", 2),)),
    ("middle_royalties", (("flush", -8),)),
    ("middle_royalties", (("flush", 8), ("flush", 9))),
    ("bottom_royalties", (("five of a kind", 2),)),
    ("bottom_royalties", (("quads", -10),)),
    ("middle_low_royalties", (("TT987", 1),)),          # not five distinct ranks
    ("middle_low_royalties", (("9876", 1),)),
    ("middle_low_royalties", (("98764", -1),)),
    ("middle_low_royalties", (("98764", 1), ("98764", 2))),
    ("middle_qualifier", "T987"),
    ("middle_qualifier", "flush"),
    ("fantasyland_top", (("QQ", 12),)),                 # cards outside 13..17
    ("fantasyland_top", (("QQ", 18),)),
    ("fantasyland_top", (("QQ", 0),)),
    ("fantasyland_top", (("QQ", 14), ("QQ", 15))),
    ("fantasyland_top", (("trips", 14),)),
    ("fantasyland_middle", (("full house", 12),)),
    ("super_fantasyland", 18),
    ("super_fantasyland", 12),
    ("stay_cards", 12),
    ("stay_cards", 18),
    ("stay_top", "Q"),
    ("stay_top", "quads"),
    ("stay_middle", "fulll house"),
    ("stay_bottom", "QQ"),
    ("scoop_bonus", -1),
])
def test_malformed_rules_are_value_errors_naming_the_field(field, value):
    lowball = field in ("middle_low_royalties", "middle_qualifier")
    extra = dict(middle_lowball=True, middle_qualifier="T9875") if lowball else {}
    with pytest.raises(ValueError, match=field):
        ofc.Rules(**{**extra, field: value})


@pytest.mark.parametrize("field, value", [
    ("top_royalties", (("QQ", 7.5),)),                  # non-int points
    ("top_royalties", (("QQ", "7"),)),
    ("middle_royalties", (("flush", None),)),
    ("bottom_royalties", (("flush", 4.0),)),
    ("fantasyland_top", (("QQ", 14.0),)),
    ("scoop_bonus", 3.0),
    ("scoop_bonus", "3"),
    ("stay_cards", 14.0),
    ("top_royalties", 5),
    ("top_royalties", (("QQ",),)),
    ("top_royalties", ((7, "QQ"),)),
])
def test_mistyped_rules_are_errors_naming_the_field(field, value):
    with pytest.raises((TypeError, ValueError), match=field):
        ofc.Rules(**{field: value})


def test_custom_lowball_qualifier():
    # a custom qualifier is a 2-7 hand: nine-low or better
    r = ofc.Rules(middle_lowball=True, middle_qualifier="98764", stay_middle=None)
    bottom = "As Ks Qs Js Ts"
    assert not ofc.is_foul(("2c 3d 4h", "9d 8h 7c 6s 4d", bottom), r)
    assert ofc.is_foul(("2c 3d 4h", "Td 8h 7c 6s 4d", bottom), r)


@pytest.mark.parametrize("name", PRESETS)
def test_presets_rebuild_from_their_fields(name):
    r = rules(name)
    fields = {f.name: getattr(r, f.name) for f in dataclasses.fields(r)}
    assert ofc.Rules(**fields) == r


# ============================================================================= Board
def test_board_forms():
    text_form = "Qs Qh 5d / Ts 9s 8s 7s 6s / Ac Ad Ah 2c 2d"
    b = ofc.Board.parse(text_form)
    assert b.top == tuple(E("Qs Qh 5d")) and b.middle == tuple(E("Ts 9s 8s 7s 6s"))
    assert b.bottom == tuple(E("Ac Ad Ah 2c 2d"))
    assert all(isinstance(c, int) for c in b.cards)
    assert b.cards == tuple(E("Qs Qh 5d Ts 9s 8s 7s 6s Ac Ad Ah 2c 2d"))
    assert str(b) == text_form
    assert ofc.Board.parse(str(b)) == b
    assert ofc.Board.parse(text_form.replace("/", "|")) == b
    assert ofc.Board.parse("QsQh5d|Ts9s8s7s6s|AcAdAh2c2d") == b
    assert ofc.Board("Qs Qh 5d", "Ts 9s 8s 7s 6s", "Ac Ad Ah 2c 2d") == b
    assert ofc.Board(E("Qs Qh 5d"), tuple(E("Ts 9s 8s 7s 6s")), ["Ac", "Ad", "Ah", "2c", "2d"]) == b
    assert ofc.Board.from_cards(b.cards) == b
    assert ofc.Board.from_cards(np.array(b.cards, dtype=np.uint8)) == b
    assert ofc.Board.from_cards(list(b.cards)).cards == b.cards


def test_board_text_round_trip_on_random_boards():
    rng = np.random.default_rng(11)
    for _ in range(200):
        cards = rng.permutation(52)[:13]
        b = ofc.Board.from_cards(cards)
        assert b.cards == tuple(int(c) for c in cards)
        assert ofc.Board.parse(str(b)) == b
        assert str(b) == text(cards)


@pytest.mark.parametrize("top, middle, bottom", [
    ("Qs Qh", "Ts 9s 8s 7s 6s", "Ac Ad Ah 2c 2d"),
    ("Qs Qh 5d 4d", "Ts 9s 8s 7s 6s", "Ac Ad Ah 2c 2d"),
    ("Qs Qh 5d", "Ts 9s 8s 7s", "Ac Ad Ah 2c 2d 3c"),
    ("Qs Qh 5d", "Ts 9s 8s 7s 6s", "Ac Ad Ah 2c"),
    ("Qs Qh 5d", "Ts 9s 8s 7s 6s 5s", "Ac Ad Ah 2c 2d"),
])
def test_board_row_sizes(top, middle, bottom):
    with pytest.raises(ValueError):
        ofc.Board(top, middle, bottom)
    with pytest.raises(ValueError):
        ofc.Board.parse(f"{top} / {middle} / {bottom}")


def test_board_errors():
    with pytest.raises(ValueError, match="Qs"):
        ofc.Board("Qs Qh 5d", "Qs 9s 8s 7s 6s", "Ac Ad Ah 2c 2d")       # a card in two rows
    with pytest.raises(ValueError, match="2d"):
        ofc.Board("Qs Qh 5d", "Ts 9s 8s 7s 6s", "Ac Ad 2d 2c 2d")       # twice in one row
    with pytest.raises(ValueError):
        ofc.Board.parse("Qs Qh 5d / Ts 9s 8s 7s 6s")                    # two rows
    with pytest.raises(ValueError):
        ofc.Board.parse("Qs Qh 5d / Ts 9s 8s 7s 6s / Ac Ad Ah 2c 2d / 3c")
    with pytest.raises(ValueError, match="Xx"):
        ofc.Board.parse("Qs Qh Xx / Ts 9s 8s 7s 6s / Ac Ad Ah 2c 2d")
    with pytest.raises(ValueError, match="52"):
        ofc.Board([0, 1, 52], [3, 4, 5, 6, 7], [8, 9, 10, 11, 12])
    with pytest.raises(ValueError):
        ofc.Board.from_cards(list(range(12)))
    with pytest.raises(ValueError):
        ofc.Board.from_cards(list(range(14)))
    with pytest.raises(TypeError):
        ofc.Board([0, 1, 2.0], [3, 4, 5, 6, 7], [8, 9, 10, 11, 12])


def test_functions_take_every_board_form():
    text_form = "Qs Qh 5d / Ac Ad Ah 2c 2d / Ts 9s 8s 7s 6s"
    b = ofc.Board.parse(text_form)
    forms = [b, text_form, ("Qs Qh 5d", "Ac Ad Ah 2c 2d", "Ts 9s 8s 7s 6s"), (b.top, b.middle, b.bottom),
             (list(b.top), list(b.middle), list(b.bottom))]
    for form in forms:
        assert ofc.is_foul(form) is False
        assert tuple(ofc.royalties(form)) == (7, 12, 15)
        assert ofc.fantasyland(form) == 14
        assert ofc.fantasyland(form, in_fantasyland=True) == 14       # a straight flush bottom stays
    assert ofc.fantasyland(text_form, rules("classic"), in_fantasyland=True) == 13
    other = "3c 4d 5h / 6c 7d 8h Jc Tc / Kd Jd 8d 6h 3d"
    assert ofc.score([b, other]) == [6 + 34, -6 - 34]
    fouled = "Qs Qh 5d / Ts 9s 8s 7s 6s / Ac Ad Ah 2c 2d"            # a straight flush over a full house
    assert ofc.is_foul(fouled) is True
    assert tuple(ofc.royalties(fouled)) == (0, 0, 0) and ofc.fantasyland(fouled) == 0
    with pytest.raises(ValueError, match="Qs"):
        ofc.is_foul(("Qs Qh 5d", "Qs 9s 8s 7s 6s", "Ac Ad Ah 2c 2d"))


# ============================================================================= fouls
@pytest.mark.parametrize("top, five, fouls", [
    ("Qs Qh 5d", "Qc Qd 4h 3s 2c", True),
    ("Qs Qh 5d", "Qc Qd 5h 3s 2c", False),
    ("Qs Qh 5d", "Qc Qd 9h 8s 2c", False),
    ("Qs Qh 7d", "Qc Qd 6h 5s 4c", True),
    ("Ac Ad Ah", "Kc Kd Kh Qs Jc", True),
    ("2c 2d 2h", "3c 4d 5h 6s 7c", False),
    ("2c 2d 2h", "3c 3d 4h 4s 5c", True),       # trips beat two pair
    ("Ah Kd Qs", "Ac Kc Qh Jd 9c", False),
    ("Ah Kd Qs", "Ac Kc Jh Td 9c", True),
])
def test_row_scale_rule_in_every_preset(top, five, fouls):
    """The top against the row below it (the middle; in 2-7 the bottom) fouls as RULES.md says."""
    for name in HIGH_PRESETS:
        bottom = strongest_straight_flush(E(top) + E(five))
        assert ofc.is_foul((top, five, bottom), rules(name)) is fouls
        assert ref.is_foul(E(top), E(five), bottom, name) is fouls
    middle = best_low(E(top) + E(five))
    assert ofc.is_foul((top, middle, five), rules("deuce")) is fouls
    assert ref.is_foul(E(top), middle, E(five), "deuce") is fouls


def test_middle_above_bottom_fouls():
    top = "2c 3d 4h"
    assert ofc.is_foul((top, "Ac Ad Kh Ks 2s", "Qc Qd Jh Js As"))
    assert not ofc.is_foul((top, "Qc Qd Jh Js As", "Ac Ad Kh Ks 2s"))
    assert not ofc.is_foul((top, "Qc Qd Jh Js 9s", "Qh Qs Jc Jd 9c"))       # equal rows are fine
    assert ofc.is_foul((top, "Ah Kh Qh Jh 9h", "Ac Kd Qs Jc Tc"))            # flush over straight
    # in 2-7 the middle is not compared with the other rows
    assert not ofc.is_foul((top, "7c 5d 4s 3s 2d", "8c 6d 5s 4c 3c"), rules("deuce"))
    assert ofc.is_foul(("Ah Ad 4d", "7c 5d 4s 3s 2d", "Kc Kh 5s 4c 3c"), rules("deuce"))


@pytest.mark.parametrize("middle, legal", [
    ("Ts 9s 8d 7c 5h", True),       # the worst legal middle
    ("Ts 9s 8d 7c 6h", False),      # a straight
    ("Ts 9d 8h 6s 5c", True),
    ("Js 5d 4h 3s 2c", False),      # jack-low
    ("7s 5d 4s 3h 2s", True),       # the best low
    ("7c 5c 4c 3c 2c", False),      # suited 7-5-4-3-2 is a flush
    ("As 5d 4h 3s 2c", False),      # A-2-3-4-5 is ace-high in 2-7
    ("Ah 5h 4h 3h 2h", False),
    ("6s 5d 4h 3s 2c", False),      # a straight
    ("7s 7d 5h 4s 2c", False),      # a pair
    ("9h 6h 4h 3h 2h", False),      # a flush
])
def test_deuce_middle_qualifier(middle, legal):
    top = weakest_top(E(middle))
    bottom = strongest_straight_flush(top + E(middle))
    assert ofc.is_foul((top, middle, bottom), rules("deuce")) is (not legal)
    assert ref.is_foul(E(top), E(middle), bottom, "deuce") is (not legal)


def test_ace_to_five_is_ace_high_in_deuce():
    wheel = "As 5d 4h 3s 2c"
    board = ("Kd Qh 2d", wheel, "Ts Js Qs Ks 9s")
    arrays = ofc.evaluate_batch(np.array([ofc.Board(*board).cards]), rules("deuce"))
    assert arrays.foul[0]
    assert arrays.values[0, 1] == low27.evaluate(wheel)
    assert low27.evaluate(wheel) > low27.evaluate("Kc Kd 7h 5s 2h")           # beats every pair
    assert low27.evaluate(wheel) < low27.evaluate("Kc Qd Jh 9s 8h")
    assert ofc.is_foul(board, rules("deuce"))


# ============================================================================= royalties, FL
@pytest.mark.parametrize("name", PRESETS)
def test_every_top_class(name):
    """All 455 top classes over a fixed valid middle and bottom: royalty, entry and stay."""
    bottom = E("As Ks Qs Js 9s")                         # a flush: no stay by the bottom
    middle = E("8d 5c 4c 3c 2d") if name == "deuce" else E("2h 3d 4h 5d 6h")
    seen_roy, seen_fl, seen_stay = set(), set(), set()
    for ranks in all_top_classes():
        top = _suits_for(ranks, _free(middle + bottom), avoid_flush=False)
        assert top is not None
        _, roy, fl, stay = check_board((top, middle, bottom), name)
        seen_roy.add(roy[0])
        seen_fl.add(fl)
        seen_stay.add(stay)
    r = ref.get_rules(name)
    assert seen_roy == set(r["top_royalties"].values()) | {0}
    assert seen_fl == set(r["fantasyland_top"].values()) | {0}
    assert seen_stay == {0, r["stay_cards"]}


@pytest.mark.parametrize("name", PRESETS)
def test_every_five_card_category_on_the_middle_and_bottom(name):
    seen_mid, seen_bot, seen_stay = set(), set(), set()
    for hand in ROW_HANDS:
        hand = E(hand)
        # as the bottom, over the weakest middle (a T-9-8-7-5 or so in 2-7) and top
        if name == "deuce":
            middle = (_suits_for([8, 7, 6, 5, 3], _free(hand), avoid_flush=True)
                      or _suits_for([8, 7, 6, 5, 2], _free(hand), avoid_flush=True) or best_low(hand))
        else:
            middle = weakest_five(hand)
        top = weakest_top(hand + middle)
        _, roy, _, stay = check_board((top, middle, hand), name)
        seen_bot.add(roy[2])
        seen_stay.add(stay)
        if name == "deuce":
            continue
        # as the middle, under the strongest straight flush
        bottom = strongest_straight_flush(hand)
        top = weakest_top(hand + bottom)
        _, roy, _, stay = check_board((top, hand, bottom), name)
        seen_mid.add(roy[1])
        seen_stay.add(stay)
    r = ref.get_rules(name)
    assert seen_bot == set(r["bottom_royalties"].values()) | {0}
    if name != "deuce":
        assert seen_mid == set(r["middle_royalties"].values()) | {0}
    assert seen_stay == {0, r["stay_cards"]}


def test_deuce_middles():
    seen_mid, seen_fl, seen_stay = set(), set(), set()
    for middle in LOW_HANDS:
        middle = E(middle)
        bottom = ace_high_flush(middle)
        for top in (weakest_top(middle + bottom),
                    _suits_for([11, 11, 0], _free(middle + bottom), False),     # KK: FL by the top too
                    _suits_for([3, 3, 3], _free(middle + bottom), False)):      # 555: a stay
            if top is None:
                continue
            foul, roy, fl, stay = check_board((top, middle, bottom), "deuce")
            seen_mid.add(roy[1])
            seen_fl.add(fl)
            seen_stay.add(stay)
    assert seen_mid == {0, 1, 2, 4, 8}
    assert seen_fl == {0, 14, 15}
    assert seen_stay == {0, 14}
    for name in HIGH_PRESETS:           # the same boards as high middles
        for middle in LOW_HANDS:
            middle = E(middle)
            bottom = strongest_straight_flush(middle)
            check_board((weakest_top(middle + bottom), middle, bottom), name)


@pytest.mark.parametrize("board, name, roy, entry, stay", [
    # RULES.md's table, row by row
    ("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d", "pineapple", (1, 0, 6), 0, 0),
    ("Qs Qh 5d / Ac Ad Ah 2c 2d / Ts 9s 8s 7s 6s", "pineapple", (7, 12, 15), 14, 14),
    ("Qs Qh 5d / Ts 9s 8s 7s 6s / Ac Ad Ah 2c 2d", "pineapple", (0, 0, 0), 0, 0),      # fouls
    ("Jc Jd 2h / Ac Ad Ah 2c 2d / Ts 9s 8s 7s 6s", "pineapple", (6, 12, 15), 0, 14),
    ("Ac Ad Kh / 2c 2d 2h 2s 3c / Ts Js Qs Ks As", "pineapple", (9, 20, 25), 14, 14),
    ("5c 5d 5h / 9c 9d 9s Kc 2d / Ts Js Qs Ks As", "pineapple", (13, 2, 25), 14, 14),
    ("Ac Ad Ah / 9c Tc Jc Qc Kc / Ts Js Qs Ks As", "pineapple", (22, 30, 25), 14, 14),
    ("2c 3d 4h / 5c 6d 7h 8s 9c / Tc 7c 4c 3c 2d", "pineapple", (0, 0, 0), 0, 0),      # fouls
    ("2c 3d 4h / 5c 6d 7h 8s 9c / Kd Td 8d 4d 2d", "pineapple", (0, 4, 4), 0, 0),
    ("Kc Kd 4h / 5h 6h 7h 8h Th / Ac As Ad 8s 8d", "pineapple", (8, 8, 6), 14, 0),
    ("Kc Kd 4h / Ac Ad Ah 8s 8d / 7c 7d 7h 7s 2h", "pineapple", (8, 12, 10), 14, 14),
    ("Kc Kd 4h / Ac Ad Ah 8s 8d / 7c 7d 7h 7s 2h", "classic", (8, 12, 10), 13, 13),
    ("Kc Kd 4h / Ac Ad Ah 8s 8d / 2c 2d 2h 2s 3h", "classic", (8, 12, 10), 13, 13),
    ("Qc Qd 4h / 8c 8d 8h 5s 5d / 9c 9d 9h 9s 2h", "pineapple", (7, 12, 10), 14, 14),
    ("Qc Qd 4h / 8c 8d 8h 5s 5d / Ac Ad Ah 6s 6d", "pineapple", (7, 12, 6), 14, 0),
    ("Qc Qd 4h / 8c 8d 8h 5s 5d / Ac Ad Ah 6s 6d", "classic", (7, 12, 6), 13, 13),
    ("Qc Qd 4h / 8c 8d 8h 5s 5d / Ac Ad Ah 6s 6d", "progressive", (7, 12, 6), 14, 0),
    ("Kc Kd 4h / 8c 8d 8h 5s 5d / Ac Ad Ah 6s 6d", "progressive", (8, 12, 6), 15, 0),
    ("Ac Ad 4h / 8c 8d 8h 5s 5d / Kc Kd Kh 6s 6d", "progressive", (9, 12, 6), 16, 0),
    ("2c 2d 2h / 8c 8d 8h 5s 5d / Ac Ad Ah 6s 6d", "progressive", (10, 12, 6), 17, 14),
    ("Qc Qd 4h / 9d 8c 7s 6h 4c / Ac Ad Ah 6s 6d", "deuce", (7, 1, 6), 0, 0),
    ("Kc Kd 4h / 9d 8c 7s 6h 4c / Ac Ad Ah 6s 6d", "deuce", (8, 1, 6), 14, 0),
    ("Kc Kd 4h / 7d 5c 4s 3h 2c / Ac Ad Ah 6s 6d", "deuce", (8, 8, 6), 15, 14),
    ("Jc Jd 4h / 7d 5c 4s 3h 2c / Ac Ad Ah 6s 6d", "deuce", (6, 8, 6), 14, 14),
    ("Jc Jd Jh / 7d 6c 4s 3h 2c / Ac Ad Ah 6s 6d", "deuce", (19, 4, 6), 14, 14),
    ("Jc Jd 9h / 8d 6c 5s 3h 2c / Ac Ad As 6s 6d", "deuce", (6, 2, 6), 0, 0),
    ("Jc Jd 9h / 8d 6c 5s 3h 2c / Tc Td Ts Th 6d", "deuce", (6, 2, 10), 0, 14),
    ("Ac Ad 9h / 8d 6c 5s 3h 2c / Kc Kd 7s 6h 4d", "deuce", (0, 0, 0), 0, 0),          # top > bottom
    ("Kc Kd 4h / 7d 5d 4d 3d 2d / Ac Ad Ah 6s 6h", "deuce", (0, 0, 0), 0, 0),          # suited 75432
])
def test_royalty_and_fantasyland_examples(board, name, roy, entry, stay):
    t, m, b = (E(r) for r in board.split("/"))
    assert ref.royalties(t, m, b, name) == roy
    assert ref.fantasyland(t, m, b, name) == entry
    assert ref.fantasyland(t, m, b, name, in_fantasyland=True) == stay
    assert check_board((t, m, b), name)[1:] == (roy, entry, stay)
    assert ofc.is_foul((t, m, b), rules(name)) is ref.is_foul(t, m, b, name)


def test_highest_threshold_wins_in_custom_tables():
    r = ofc.Rules(top_royalties=(("KK", 3), ("66", 1), ("AA", 5)),
                  fantasyland_top=(("66", 13), ("AA", 17)),
                  bottom_royalties={"pair": 1, "flush": 7})
    ref_rules = {k: dict(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(r).items()}
    boards = ["6c 6d 2h / Tc Td 9h 9s 2c / Ac Ad Ah 3c 3d", "Kc Kd 2h / Tc Td 9h 9s 2c / Ac Ad Ah 3c 3d",
              "Qc Qd 2h / Tc Td 9h 9s 2c / Ac Ah 3h 3c 3d", "Ac Ad 2h / Tc Td 9h 9s 2c / Kc Kd Kh 3c 3d",
              "5c 5d 2h / Tc Td 9h 8s 2c / Ah 8h 7h 3h 4h", "7c 7d 7h / Tc Jd 9h 8s 7s / Ac Ad Ah 3c 3d"]
    for board in boards:
        t, m, b = (E(x) for x in board.split("/"))
        assert tuple(ofc.royalties(board, r)) == ref.royalties(t, m, b, ref_rules), board
        assert ofc.fantasyland(board, r) == ref.fantasyland(t, m, b, ref_rules), board
    assert tuple(ofc.royalties(boards[0], r)) == (1, 0, 7)      # the flush threshold, not the pair
    assert tuple(ofc.royalties(boards[1], r)) == (3, 0, 7)
    assert tuple(ofc.royalties(boards[5], r)) == (5, 4, 7)      # trips reach every pair threshold
    assert ofc.fantasyland(boards[1], r) == 13
    assert ofc.fantasyland(boards[2], r) == 13                  # QQ reaches 66
    assert ofc.fantasyland(boards[3], r) == 17
    assert ofc.fantasyland(boards[5], r) == 17


# ============================================================================= scoring
WORKED_A = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
WORKED_B = "Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s"


@pytest.mark.parametrize("name", HIGH_PRESETS)
def test_rules_md_worked_example(name):
    assert ofc.score([WORKED_A, WORKED_B], rules(name)) == [4, -4]
    assert ofc.score([WORKED_B, WORKED_A], rules(name)) == [-4, 4]
    assert tuple(ofc.royalties(WORKED_A, rules(name))) == (1, 0, 6)
    assert tuple(ofc.royalties(WORKED_B, rules(name))) == (0, 0, 4)
    assert ref.score([WORKED_A, WORKED_B], name) == [4, -4]
    a = np.array([ofc.Board.parse(WORKED_A).cards])
    b = np.array([ofc.Board.parse(WORKED_B).cards])
    assert ofc.score_batch(a, b, rules(name)).tolist() == [4]
    assert ofc.score_batch(b, a, rules(name)).tolist() == [-4]
    assert ofc.score([WORKED_A, WORKED_B]) == [4, -4]


def test_fouls_scoops_and_ties():
    valid = "2c 3d 4h / 5c 6d 7h 9s Tc / Kd Jd 8d 6h 2d"            # no royalties
    rich = "Qc Qd 4s / 3s 5s 7s 8s Js / Ac Ad Ah Ks Kh"              # 7 + 8 + 6 = 21
    foul = "9c 9d 9h / 2s 3h 4d 6s 8c / Td Jc 4c 7d 8h"              # trips over a high card
    foul2 = "Kc Qh Jh / 2h 5h 6h Th 3c / 5d 6c 7c Ts 2c"
    for name in HIGH_PRESETS:
        r = rules(name)
        assert ofc.score([valid, foul], r) == [6, -6]
        assert ofc.score([foul, rich], r) == [-27, 27]
        assert ofc.score([foul, foul2], r) == [0, 0]
        assert ofc.score([rich, valid], r) == [27, -27]              # scoop: 3 + 3 + 21
        assert ofc.score([valid, rich], r) == [-27, 27]
    # a tie: the same board in other suits
    mirror = {0: 1, 1: 0, 2: 3, 3: 2}
    same = ofc.Board.parse("2c 3h 4c / 5c 6h 7h 9c Tc / Kh Jh 8h 6c 2h")
    twin = ofc.Board.from_cards([4 * (c // 4) + mirror[c % 4] for c in same.cards])
    assert ofc.score([same, twin]) == [0, 0]
    assert ref.score([same.cards, twin.cards]) == [0, 0]
    # a custom scoop bonus
    r = ofc.Rules(scoop_bonus=0)
    assert ofc.score([valid, foul], r) == [3, -3]
    assert ofc.score([rich, valid], r) == [24, -24]
    r = ofc.Rules(scoop_bonus=5)
    assert ofc.score([foul, valid], r) == [-8, 8]
    assert ofc.score([rich, valid], r) == [29, -29]


def test_score_needs_two_to_four_boards():
    boards = [ofc.Board.from_cards(range(13 * i, 13 * i + 13)) for i in range(4)]
    for n in (2, 3, 4):
        assert len(ofc.score(boards[:n])) == n
    with pytest.raises(ValueError):
        ofc.score(boards[:1])
    with pytest.raises(ValueError):
        ofc.score(boards + boards[:1])
    with pytest.raises(ValueError):
        ofc.score([])


def mirrored_deals(rng, n, lowball):
    """2-player deals where the second board is the first in other suits (c <-> d, h <-> s) with
    one row re-set from the same cards half the time: ties on some or every row."""
    halves = np.argsort(rng.random((n, 26)), axis=1)[:, :13]
    first = 4 * (halves // 2) + 2 * (halves % 2)                  # clubs and hearts only
    first = ref.arrange(first, rng.choice(4, size=n, p=[0.1, 0.5, 0.1, 0.3]), lowball)
    second = first ^ 1                                              # c <-> d, h <-> s
    for i in range(0, n, 2):
        second[i, 3:] = np.concatenate([second[i, 8:], second[i, 3:8]])   # middle and bottom swapped
    return np.stack([first, second], axis=1)


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_score_random_deals_against_reference(name, players):
    rng = np.random.default_rng(1000 * players + PRESETS.index(name))
    deals = ref.deal(rng, 120, players, lowball=name == "deuce")
    if players == 2:
        deals = np.concatenate([deals, mirrored_deals(rng, 30, lowball=name == "deuce")])
    r = rules(name)
    fouls = scoops = royalties = ties = 0
    for deal in deals:
        boards = [ofc.Board.from_cards(b) for b in deal]
        forms = [boards, [str(b) for b in boards], [(b.top, b.middle, b.bottom) for b in boards]][
            int(deal[0, 0]) % 3]
        got = ofc.score(forms, r)
        expected = ref.score([rows_of(b) for b in deal], name)
        assert got == expected, [str(b) for b in boards]
        assert sum(got) == 0 and all(isinstance(x, int) for x in got)
        flags = [ref.is_foul(*rows_of(b), rules=name) for b in deal]
        fouls += any(flags) and not all(flags)
        royalties += any(sum(ref.royalties(*rows_of(b), rules=name)) for b in deal)
        results = [ref.row_results(a, b, name) for a, b in itertools.combinations(deal, 2)]
        scoops += any(x is not None and abs(sum(x)) == 3 for x in results)
        ties += any(x is not None and 0 in x for x in results)
    assert min(fouls, royalties) > 5 and scoops > 2, (fouls, scoops, royalties)
    assert ties > 0 or players > 2                      # the mirrored deals tie


def test_score_custom_rules_against_reference():
    custom = dict(scoop_bonus=1, top_royalties={"TT": 2, "AA": 5, "555": 9},
                  middle_royalties={"pair": 1, "two pair": 2, "straight": 3},
                  bottom_royalties={"trips": 1, "full house": 3})
    lowball = dict(ref.PRESETS["deuce"], scoop_bonus=5, middle_qualifier="J9876",
                   middle_low_royalties={"T9865": 1, "75432": 10})
    rng = np.random.default_rng(77)
    for spec in (custom, lowball):
        r = ofc.Rules(**ref.rules_kwargs(spec))
        for deal in ref.deal(rng, 150, 3, lowball=spec.get("middle_lowball", False)):
            boards = [rows_of(b) for b in deal]
            assert ofc.score(boards, r) == ref.score(boards, spec)
            for b in boards:
                assert tuple(ofc.royalties(b, r)) == ref.royalties(*b, rules=spec)
                assert ofc.is_foul(b, r) == ref.is_foul(*b, rules=spec)


# ============================================================================= batches
def random_boards(seed, n, name):
    rng = np.random.default_rng(seed)
    return ref.deal(rng, n, 1, lowball=name == "deuce").reshape(n, 13)


@pytest.mark.parametrize("name", PRESETS)
def test_evaluate_batch_equals_single_boards(name):
    n = 500
    boards = random_boards(PRESETS.index(name), n, name)
    r = rules(name)
    split = [rows_of(b) for b in boards]
    foul = np.array([ofc.is_foul(b, r) for b in split])
    roy = np.array([tuple(ofc.royalties(b, r)) for b in split])
    values = np.array([(rows.value(t), low27.evaluate(m) if name == "deuce" else rows.value(m),
                        rows.value(b)) for t, m, b in split])
    for in_fl in (False, True):
        fl = np.array([ofc.fantasyland(b, r, in_fantasyland=in_fl) for b in split])
        for threads in (1, 2):
            got = ofc.evaluate_batch(boards, r, in_fantasyland=in_fl, threads=threads)
            assert got.foul.dtype == np.bool_ and got.foul.shape == (n,)
            assert got.royalties.dtype == np.int32 and got.royalties.shape == (n, 3)
            assert got.values.dtype == np.uint16 and got.values.shape == (n, 3)
            assert got.fantasyland.dtype == np.uint8 and got.fantasyland.shape == (n,)
            assert np.array_equal(got.foul, foul)
            assert np.array_equal(got.royalties, roy)
            assert np.array_equal(got.values, values)
            assert np.array_equal(got.fantasyland, fl)
    assert 0.2 < foul.mean() < 0.8 and (roy.sum(axis=1) > 0).mean() > 0.2
    # and the single-board functions agree with the reference
    for board in boards[:150]:
        check_board(board, name)


@pytest.mark.parametrize("name", PRESETS)
def test_score_batch_equals_score(name):
    r = rules(name)
    deals = ref.deal(np.random.default_rng(50 + PRESETS.index(name)), 800, 2, lowball=name == "deuce")
    a, b = deals[:, 0], deals[:, 1]
    expected = [ofc.score([rows_of(x), rows_of(y)], r)[0] for x, y in zip(a, b)]
    for threads in (None, 1, 2):
        got = ofc.score_batch(a, b, r, threads=threads)
        assert got.dtype == np.int32 and got.shape == (800,)
        assert got.tolist() == expected
    assert ofc.score_batch(b, a, r).tolist() == [-x for x in expected]
    assert ofc.score_batch(a.astype(np.int64), b.astype(np.int16), r).tolist() == expected


def test_batches_default_to_pineapple_and_take_int_arrays():
    boards = random_boards(3, 100, "pineapple")
    base = ofc.evaluate_batch(boards)
    for arr in (boards.astype(np.int64), boards.astype(np.int32), boards.tolist()):
        got = ofc.evaluate_batch(arr, rules("pineapple"))
        assert np.array_equal(got.royalties, base.royalties) and np.array_equal(got.foul, base.foul)
    empty = ofc.evaluate_batch(np.zeros((0, 13), dtype=np.uint8))
    assert empty.foul.shape == (0,) and empty.royalties.shape == (0, 3)
    assert ofc.score_batch(np.zeros((0, 13), np.uint8), np.zeros((0, 13), np.uint8)).shape == (0,)


def _bad(boards, row, position, value):
    boards = boards.astype(np.int64)
    boards[row, position] = value
    return boards


@pytest.mark.parametrize("call", ["evaluate", "score_a", "score_b"])
def test_batch_bad_input(call):
    boards = random_boards(4, 6, "pineapple")
    # the other side of each deal: 13 cards not on the board
    partner = np.array([[c for c in range(52) if c not in row][:13] for row in boards.tolist()],
                       dtype=np.uint8)

    def run(arr):
        if call == "evaluate":
            return ofc.evaluate_batch(arr)
        if call == "score_a":
            return ofc.score_batch(arr, partner)
        return ofc.score_batch(partner, arr)

    run(boards)
    with pytest.raises(ValueError, match="shape"):
        run(boards[:, :12])
    with pytest.raises(ValueError):
        run(boards[0])
    with pytest.raises(ValueError):
        run(boards.reshape(2, 3, 13))
    with pytest.raises(TypeError):
        run(boards.astype(np.float64))
    with pytest.raises(TypeError):
        run(boards.astype(bool))
    with pytest.raises(ValueError, match="row 3"):
        run(_bad(boards, 3, 7, 52))
    with pytest.raises(ValueError, match="row 4"):
        run(_bad(boards, 4, 0, -1))
    for position in (1, 5, 12):                  # a duplicate in the top, middle or bottom
        dup = boards.copy()
        dup[2, position] = dup[2, position - 1]
        with pytest.raises(ValueError, match="row 2"):
            run(dup)
    dup = boards.copy()
    dup[5, 12] = dup[5, 0]                       # the same card in two rows of a board
    with pytest.raises(ValueError, match="row 5"):
        run(dup)


def test_score_batch_shapes_must_match():
    boards = random_boards(5, 6, "pineapple")
    with pytest.raises(ValueError):
        ofc.score_batch(boards, boards[:5])


@pytest.mark.parametrize("game", ["ofc", "chinese"])
def test_score_batch_rejects_a_card_in_both_boards_of_a_deal(game):
    from handrank import chinese
    score_batch = ofc.score_batch if game == "ofc" else chinese.score_batch
    deals = hr.random_hands(5, 26, seed=3)
    a, b = deals[:, :13].copy(), deals[:, 13:].copy()
    before = score_batch(a, b)
    b[3, 7] = a[3, 2]
    with pytest.raises(ValueError, match=f"row 3: {hr.card_str(int(a[3, 2]))} in both a and b"):
        score_batch(a, b)
    b[3, 7] = deals[3, 20]
    assert score_batch(a, b).tolist() == before.tolist()
