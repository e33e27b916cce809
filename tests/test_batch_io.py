"""Batch calls whose arrays misbehave: an `out` that overlaps the cards, cards that another thread
writes during the call, object arrays of huge ints (the reliability issue, items 4 and 5)."""
import time

import numpy as np
import pytest

import handrank as hr
from handrank import bigtwo, chinese, high, high3, low27, lowa5, ofc, rows
from racing import flipping

# (name, batch function taking (cards, out=, threads=), k, out dtype)
OUT_TAKERS = [
    ("high", high.evaluate_batch, 5, np.uint16),
    ("high7", high.evaluate_batch, 7, np.uint16),
    ("high3", high3.evaluate_batch, 3, np.uint16),
    ("low27", low27.evaluate_batch, 5, np.uint16),
    ("lowa5", lowa5.evaluate_batch, 6, np.uint16),
    ("rows", rows.value_batch, 5, np.uint16),
    ("bigtwo", bigtwo.classify_batch, 5, np.int32),
]


def _overlapping(hands, dtype, offset):
    """A copy of `hands` in a byte buffer and an `out` of `dtype` inside that same buffer, starting
    `offset` bytes after the cards start."""
    n, k = hands.shape
    size = np.dtype(dtype).itemsize
    buf = np.zeros(max(n * k, offset + n * size), dtype=np.uint8)
    buf[:n * k] = hands.ravel()
    cards = buf[:n * k].reshape(n, k)
    out = buf[offset:offset + n * size].view(dtype)
    return buf, cards, out


def _call(fn, cards, out=None, threads=None):
    if fn is bigtwo.classify_batch:
        return fn(cards, None, out=out, threads=threads)
    return fn(cards, out=out, threads=threads)


def test_issue_example_overlapping_out():
    buf = hr.random_hands(8, 5, seed=1).ravel()
    expected = high.evaluate_batch(buf.reshape(8, 5))
    out = buf[24:40].view(np.uint16)
    result = high.evaluate_batch(buf.reshape(8, 5), out=out)
    assert result is out
    assert out.tolist() == expected.tolist()


@pytest.mark.parametrize("name, fn, k, dtype", OUT_TAKERS, ids=[t[0] for t in OUT_TAKERS])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("where", ["start", "middle", "tail"])
def test_overlapping_out_gives_the_answer_of_a_fresh_out(name, fn, k, dtype, threads, where):
    n = 200_000 if name == "bigtwo" else 20_000
    hands = hr.random_hands(n, k, seed=len(name) + k)
    expected = _call(fn, hands)
    offset = {"start": 0, "middle": n * k // 3, "tail": n * k - 8}[where]
    offset -= offset % np.dtype(dtype).itemsize
    buf, cards, out = _overlapping(hands, dtype, offset)
    assert np.shares_memory(cards, out)
    result = _call(fn, cards, out=out, threads=threads)
    assert result is out
    wrong = int((out != expected).sum())
    assert wrong == 0, f"{wrong} of {n} rows wrong"


@pytest.mark.parametrize("name, fn, k, dtype", OUT_TAKERS, ids=[t[0] for t in OUT_TAKERS])
@pytest.mark.parametrize("threads", [1, 2])
def test_overlapping_out_unchanged_by_a_bad_row(name, fn, k, dtype, threads):
    n = 50_000
    hands = hr.random_hands(n, k, seed=3)
    hands[n - 1, 1] = hands[n - 1, 0]
    buf, cards, out = _overlapping(hands, dtype, n * k // 2 - (n * k // 2) % 4)
    before = buf.copy()
    with pytest.raises(ValueError, match=f"^row {n - 1}: duplicate card {hr.card_str(int(hands[n - 1, 0]))}$"):
        _call(fn, cards, out=out, threads=threads)
    assert np.array_equal(buf, before)


# ----------------------------------------------------------------------------- racing writers
# Every batch entry point that validates rows. A writer thread flips one row between a valid hand
# and a bad one while the calls run: each error must name the row and say what is wrong with it,
# or that the cards changed during the call; never "row N: None".
def _racers():
    return [
        ("high", lambda a: high.evaluate_batch(a), 7),
        ("high-threads", lambda a: high.evaluate_batch(a, threads=2), 7),
        ("high3", lambda a: high3.evaluate_batch(a), 3),
        ("low27", lambda a: low27.evaluate_batch(a), 5),
        ("lowa5", lambda a: lowa5.evaluate_batch(a), 5),
        ("rows", lambda a: rows.value_batch(a), 5),
        ("bigtwo", lambda a: bigtwo.classify_batch(a), 5),
        ("ofc", lambda a: ofc.evaluate_batch(a), 13),
        ("chinese", lambda a: chinese.evaluate_batch(a), 13),
        ("ofc-score", lambda a: ofc.score_batch(a, _disjoint(a)), 13),
        ("chinese-score", lambda a: chinese.score_batch(_disjoint(a), a), 13),
        ("fantasyland", lambda a: ofc.solve_fantasyland_batch(a), 13),
        ("best-setting", lambda a: chinese.best_setting_batch(a), 13),
    ]


# a board that is no Chinese natural (so scoring settles no row in Python), and one disjoint from it
BOARD = [0, 1, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 2]
OTHER_BOARD = [c for c in range(52) if c not in BOARD][::3][:13]


def _disjoint(a):
    """Boards none of whose cards is in the valid boards of `a` (BOARD)."""
    return np.broadcast_to(np.array(OTHER_BOARD, dtype=np.uint8), a.shape).copy()


@pytest.mark.parametrize("name, call, k", _racers(), ids=[r[0] for r in _racers()])
def test_cards_written_during_the_call_never_report_none(name, call, k):
    n = 64 if name in ("fantasyland", "best-setting") else 200_000
    good = np.array(BOARD if k == 13 else range(k), dtype=np.uint8)
    hands = np.broadcast_to(good, (n, k)).copy()
    row = n - 1
    bad = good.copy()
    bad[1] = bad[0]
    messages = []
    with flipping(hands, row, good, bad):
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline and len(messages) < 100:
            try:
                call(hands)
            except ValueError as exc:
                messages.append(str(exc))
    assert messages, "the writer never made a row bad during a call"
    for message in messages:
        assert "None" not in message
        assert message.startswith(f"row {row}") and (
            "duplicate card 2c" in message or "changed during the call" in message), message


# ----------------------------------------------------------------------------- huge ints
# A list is read by its items, as a scalar call reads a hand: ints past 64 bits (which numpy turns
# into an object array, or floats next to negative ints) are out-of-range ids. An array is judged
# by its dtype: object arrays are a TypeError (tests/test_errors.py).
BATCH_13 = [ofc.evaluate_batch, chinese.evaluate_batch, ofc.solve_fantasyland_batch,
            chinese.best_setting_batch]


@pytest.mark.parametrize("big", [2 ** 64, 2 ** 70, -2 ** 70])
@pytest.mark.parametrize("fn, k", [(high.evaluate_batch, 5), (high3.evaluate_batch, 3),
                                   (low27.evaluate_batch, 5), (lowa5.evaluate_batch, 7),
                                   (rows.value_batch, 3), (bigtwo.classify_batch, 5)]
                         + [(fn, 13) for fn in BATCH_13])
def test_huge_ints_in_a_list_are_out_of_range_ids(fn, k, big):
    hands = [list(range(k)), list(range(k))]
    hands[1][-1] = big
    with pytest.raises(ValueError, match=f"^row 1: card id {big} is out of range 0..51$"):
        fn(hands)
    with pytest.raises(ValueError, match=f"^row 1: card id {big} is out of range 0..51$"):
        fn(tuple(tuple(row) for row in hands))
    with pytest.raises(TypeError, match="integer array, got dtype object"):
        fn(np.array(hands, dtype=object))


def test_huge_ints_score_batch():
    a = [list(range(13))]
    b = [list(range(13, 25)) + [2 ** 70]]
    for fn in (ofc.score_batch, chinese.score_batch):
        with pytest.raises(ValueError, match=f"^row 0: card id {2 ** 70} is out of range 0..51$"):
            fn(a, b)


def test_list_repeat_before_the_huge_id_is_the_first_bad_row():
    hands = [[0, 1, 2, 3, 4], [5, 5, 6, 7, 8], [9, 10, 11, 12, 2 ** 70]]
    with pytest.raises(ValueError, match="^row 1: duplicate card 3d$"):
        high.evaluate_batch(hands)


def test_list_with_an_int_past_int64_and_a_negative_one_names_the_card():
    # numpy makes floats of such a list: the ids are still named, not "got dtype float64"
    with pytest.raises(ValueError, match=f"^row 0: card id {2 ** 64 - 1} is out of range 0..51$"):
        high.evaluate_batch([[0, 1, 2, 3, 2 ** 64 - 1], [0, 1, 2, 3, -1]])
    with pytest.raises(TypeError, match="got dtype float64"):
        high.evaluate_batch([[0, 1, 2, 3, 4.0]])


@pytest.mark.parametrize("item", [1.0, None, object(), 2 ** 70 + 0.5])
def test_list_of_huge_ints_and_non_ints_is_a_type_error(item):
    with pytest.raises(TypeError, match="integer array, got dtype"):
        high.evaluate_batch([[0, 1, 2, 3, 2 ** 70], [5, 6, 7, 8, item]])


# ----------------------------------------------------------------------------- found by tests/test_fuzz.py
def test_unparsable_long_text_is_quoted_short():
    with pytest.raises(ValueError) as caught:
        hr.cards("Ax" + " " * 200_000)
    assert str(caught.value).startswith("cannot parse card 'Ax' in 'Ax")
    assert "(200,002 characters)" in str(caught.value) and len(str(caught.value)) < 300
    with pytest.raises(ValueError, match=r"^cannot parse card '\\x00.*\.\.\. \(100,000 characters\)"):
        hr.cards("\x00" * 100_000)


def test_qualifies8_batch_reads_a_list_by_its_items():
    with pytest.raises(ValueError, match=f"A-5 values are in 1..{lowa5.MAX_VALUE}"):
        lowa5.qualifies8_batch([100, 2 ** 70])
    with pytest.raises(ValueError, match=f"A-5 values are in 1..{lowa5.MAX_VALUE}"):
        lowa5.qualifies8_batch([2 ** 64 - 1, -1])
    assert lowa5.qualifies8_batch([]).shape == (0,)
    with pytest.raises(TypeError, match="got dtype float64"):
        lowa5.qualifies8_batch(np.array([], dtype=np.float64))
