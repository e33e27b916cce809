"""Cards: ids, text forms, errors and random hands (RULES.md "Cards")."""
import numpy as np
import pytest

import handrank as hr
from handrank.cards import hand_problem

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SYMBOLS = "♣♦♥♠"


def expected_id(rank_char, suit_char):
    return 4 * RANK_CHARS.index(rank_char) + SUIT_CHARS.index(suit_char)


# ----------------------------------------------------------------------------- ids and text
def test_documented_ids():
    assert hr.card("2c") == 0
    assert hr.card("2d") == 1
    assert hr.card("2h") == 2
    assert hr.card("2s") == 3
    assert hr.card("3c") == 4
    assert hr.card("Ts") == 35
    assert hr.card("As") == 51
    assert hr.card_str(0) == "2c"
    assert hr.card_str(51) == "As"


def test_round_trip_all_52():
    names = [hr.card_str(i) for i in range(52)]
    assert len(set(names)) == 52
    for i, name in enumerate(names):
        assert name == RANK_CHARS[i // 4] + SUIT_CHARS[i % 4]
        assert hr.card(name) == i
        assert hr.card(i) == i
        assert hr.cards(name) == [i]
    assert hr.hand_str(range(52)) == " ".join(names)
    assert hr.cards(hr.hand_str(range(52))) == list(range(52))
    assert hr.cards("".join(names)) == list(range(52))
    assert hr.cards(names) == list(range(52))


@pytest.mark.parametrize("r", RANK_CHARS)
@pytest.mark.parametrize("s", SUIT_CHARS)
def test_every_spelling_of_every_card(r, s):
    want = expected_id(r, s)
    spellings = {r + s, r.lower() + s, r + s.upper(), r.lower() + s.upper(),
                 r + SYMBOLS[SUIT_CHARS.index(s)], r.lower() + SYMBOLS[SUIT_CHARS.index(s)]}
    if r == "T":
        spellings |= {"10" + s, "10" + s.upper(), "10" + SYMBOLS[SUIT_CHARS.index(s)]}
    for text in spellings:
        assert hr.card(text) == want, text
    assert hr.card_str(want) == r + s   # canonical output: upper rank, lower suit, "T" for ten


@pytest.mark.parametrize("form", [
    "As Kd", "AsKd", ["As", "Kd"], ("As", "Kd"), "as kd", "AS KD", "A♠K♦", "a♠ k♦", [51, 45],
    (51, 45), np.array([51, 45]), "As,Kd", "  As   Kd  ", ["As", 45],
])
def test_hand_forms(form):
    assert hr.cards(form) == [51, 45]


def test_ten_forms():
    assert hr.cards("10h Ts") == [34, 35]
    assert hr.cards("10h10s") == [34, 35]
    assert hr.cards(["10h", "Js"]) == [34, 39]
    assert hr.cards("10♥ 10♠") == [34, 35]


def test_hand_str():
    assert hr.hand_str([51, 45]) == "As Kd"
    assert hr.hand_str([]) == ""
    assert hr.hand_str(np.array([0, 35], dtype=np.uint8)) == "2c Ts"


def test_numpy_ints_are_ids():
    assert hr.card(np.uint8(51)) == 51
    assert hr.card(np.int64(0)) == 0
    assert hr.cards(np.array([0, 51], dtype=np.int16)) == [0, 51]


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize("text, token", [
    ("Xs", "Xs"), ("As Kx", "Kx"), ("As 1h", "1h"), ("As K", "K"), ("Zz Kd", "Zz"), ("11h", "11h"),
    ("As Kd Qh Jc Tz", "Tz"), ("A", "A"), ("As Kd!", "!"),
])
def test_unparsable_text_names_the_token(text, token):
    with pytest.raises(ValueError) as info:
        hr.cards(text)
    assert repr(token) in str(info.value)


def test_card_of_several_cards_is_an_error():
    with pytest.raises(ValueError):
        hr.card("As Kd")
    with pytest.raises(ValueError):
        hr.card("")


@pytest.mark.parametrize("bad", [52, 53, 255, 256, -1, -52, 2 ** 40])
def test_ids_out_of_range(bad):
    for call in (hr.card_str, hr.card, lambda c: hr.cards([0, c]), lambda c: hr.hand_str([c])):
        with pytest.raises(ValueError, match=str(bad)):
            call(bad)


def test_duplicates():
    with pytest.raises(ValueError, match="duplicate card As"):
        hr.cards("As Kd As")
    with pytest.raises(ValueError, match="duplicate card As"):
        hr.cards([51, 46, 51])
    with pytest.raises(ValueError, match="duplicate card Th"):
        hr.cards(["10h", "Th"])
    with pytest.raises(ValueError, match="duplicate card 2c"):
        hr.cards("2c2♣")


@pytest.mark.parametrize("bad", [True, False, 1.0, 51.0, None, b"As", 3 + 0j])
def test_non_int_ids_are_type_errors(bad):
    with pytest.raises(TypeError):
        hr.card_str(bad)
    with pytest.raises(TypeError):
        hr.cards([0, bad])


def test_card_rejects_bool_and_float():
    for bad in (True, 1.0, np.float64(3.0)):
        with pytest.raises(TypeError):
            hr.card(bad)


def test_cards_rejects_non_hands():
    for bad in (b"AsKd", bytearray(b"As"), 51, 3.5, None):
        with pytest.raises(TypeError):
            hr.cards(bad)


def test_hand_problem():
    assert hand_problem([0, 1, 2]) is None
    assert hand_problem([0, 52]) == "card id 52 is out of range 0..51"
    assert hand_problem([51, 0, 51]) == "duplicate card As"


# ----------------------------------------------------------------------------- random hands
@pytest.mark.parametrize("k", [0, 1, 2, 3, 5, 7, 13, 52])
def test_random_hands_shape_and_distinct(k):
    hands = hr.random_hands(2000, k, seed=k)
    assert hands.shape == (2000, k)
    assert hands.dtype == np.uint8
    assert hands.flags.c_contiguous
    if k:
        assert hands.max() <= 51
        assert all(len(set(row)) == k for row in hands.tolist())
    if k == 52:
        assert (np.sort(hands, axis=1) == np.arange(52)).all()


def test_random_hands_deterministic_with_seed():
    a = hr.random_hands(1000, 7, seed=12345)
    b = hr.random_hands(1000, 7, seed=12345)
    c = hr.random_hands(1000, 7, seed=54321)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    gen_a = hr.random_hands(100, 5, seed=np.random.default_rng(7))
    gen_b = hr.random_hands(100, 5, seed=np.random.default_rng(7))
    assert np.array_equal(gen_a, gen_b)


def test_random_hands_empty_and_errors():
    assert hr.random_hands(0, 5).shape == (0, 5)
    with pytest.raises(ValueError):
        hr.random_hands(-1, 5)
    with pytest.raises(ValueError):
        hr.random_hands(10, 53)
    with pytest.raises(ValueError):
        hr.random_hands(10, -1)
    with pytest.raises(TypeError):
        hr.random_hands(10.0, 5)
    with pytest.raises(TypeError, match="not bools"):
        hr.random_hands(True, 5)
    with pytest.raises(TypeError, match="not bools"):
        hr.random_hands(10, True)


def test_random_hands_roughly_uniform():
    n, k = 200_000, 7
    hands = hr.random_hands(n, k, seed=2024)
    counts = np.bincount(hands.ravel(), minlength=52)
    expected = n * k / 52                      # 26,923 per card; sd about 160
    assert np.abs(counts - expected).max() < 0.03 * expected
    # every position is uniform too (the redraw scheme must not bias later columns)
    for j in range(k):
        col = np.bincount(hands[:, j], minlength=52)
        assert np.abs(col - n / 52).max() < 0.1 * n / 52
    # rows are unordered samples: pairs of cards co-occur uniformly
    wide = hands.astype(np.int64)
    pair_counts = np.zeros(52 * 52, dtype=np.int64)
    for a in range(k):
        for b in range(k):
            if a != b:
                pair_counts += np.bincount(wide[:, a] * 52 + wide[:, b], minlength=52 * 52)
    pair_counts = pair_counts.reshape(52, 52)
    off_diagonal = pair_counts[~np.eye(52, dtype=bool)]
    expected_pair = n * k * (k - 1) / (52 * 51)
    assert np.abs(off_diagonal - expected_pair).max() < 0.25 * expected_pair
