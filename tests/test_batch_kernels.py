"""Both builds of the 5- to 7-card batch loops (popcnt where the CPU has it, portable everywhere):
values equal the scalar calls, and every kind of bad row is found, the first one reported."""
import ctypes
import itertools
import mmap
import sys

import numpy as np
import pytest

import handrank as hr
from handrank import _evaluate, high, low27, lowa5

KERNELS = ["portable"] + (["popcnt"] if _evaluate.batch_kernel() == "popcnt" else [])
CASES = [(high, _evaluate.HIGH, k) for k in (5, 6, 7)] + [(lowa5, _evaluate.LOWA5, k) for k in (5, 6, 7)] \
    + [(low27, _evaluate.LOW27, 5)]


@pytest.fixture(params=KERNELS)
def kernel(request):
    chosen = _evaluate.batch_kernel()
    _evaluate.set_batch_kernel(request.param)
    yield request.param
    _evaluate.set_batch_kernel(chosen)


def test_unknown_kernel_is_refused():
    with pytest.raises(ValueError):
        _evaluate.set_batch_kernel("avx512")


@pytest.mark.parametrize("mod, game, k", CASES)
def test_values_match_the_scalar_call(kernel, mod, game, k):
    # every length 0..17 covers the blocks of four and of eight hands and each tail
    hands = hr.random_hands(10_009, k, seed=k)
    expected = np.array([mod.evaluate(tuple(h)) for h in hands.tolist()], dtype=np.uint16)
    for n in (*range(18), 10_009):
        out = np.zeros(n, dtype=np.uint16)
        assert _evaluate.batch(game, hands[:n], out) == -1
        assert np.array_equal(out, expected[:n])
        # with `saved`, each entry of out is kept there before it is overwritten
        before = np.arange(n, dtype=np.uint16)
        out, saved = before.copy(), np.zeros(n, dtype=np.uint16)
        assert _evaluate.batch(game, hands[:n], out, saved) == -1
        assert np.array_equal(out, expected[:n]) and np.array_equal(saved, before)


@pytest.mark.parametrize("game, k", [(_evaluate.HIGH, 7), (_evaluate.HIGH3, 3), (_evaluate.ROW, 5)])
def test_saved_copy_of_out(game, k):
    hands = hr.random_hands(9, k, seed=1)
    out, saved = np.arange(9, dtype=np.uint16), np.zeros(9, dtype=np.uint16)
    assert _evaluate.batch(game, hands, out, saved) == -1
    assert np.array_equal(saved, np.arange(9))
    with pytest.raises(ValueError, match="saved has 8 entries for 9 rows"):
        _evaluate.batch(game, hands, out, saved[:8])


def problems(k):
    """(column -> id) changes that make a hand of ids 0, 5, 10, ... bad: ids 52..255 anywhere,
    repeated cards, several invalid ids at once (their card bits would carry out of the word)."""
    for col, bad in itertools.product(range(k), (52, 53, 63, 64, 200, 255)):
        yield {col: bad}
    for a, b in itertools.combinations(range(k), 2):
        yield {b: 5 * a}
        yield {a: 52, b: 52}
        yield {a: 255, b: 52}
    yield {col: 255 for col in range(k)}
    yield {col: 0 for col in range(k)}


@pytest.mark.parametrize("mod, game, k", CASES)
def test_every_bad_row_is_found(kernel, mod, game, k):
    good = [5 * i for i in range(k)]
    for n in (1, 4, 5, 9):
        for row in range(n):
            for change in problems(k):
                hands = np.array([good] * n, dtype=np.uint8)
                for col, bad in change.items():
                    hands[row, col] = bad
                assert _evaluate.batch(game, hands, np.zeros(n, dtype=np.uint16)) == row


@pytest.mark.parametrize("mod, game, k", CASES)
def test_first_bad_row_and_out_unchanged(kernel, mod, game, k):
    hands = hr.random_hands(1003, k, seed=3)
    hands[999, 0] = 52
    hands[602, 1] = hands[602, 0]
    hands[401, k - 1] = 255
    out = np.arange(1003, dtype=np.uint16)
    with pytest.raises(ValueError, match="^row 401: card id 255 is out of range"):
        mod.evaluate_batch(hands, out=out, threads=1)
    assert np.array_equal(out, np.arange(1003, dtype=np.uint16))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mprotect through libc")
@pytest.mark.parametrize("mod, game, k", CASES)
def test_rows_ending_at_an_unreadable_page(kernel, mod, game, k):
    # The loops read a row's cards with one 8-byte load, all rows but the last: an array that ends
    # where an unreadable page begins shows that no load runs past the last row (a read there
    # would crash the process).
    page = mmap.PAGESIZE
    buf = mmap.mmap(-1, 2 * page, prot=mmap.PROT_READ | mmap.PROT_WRITE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(buf))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    assert libc.mprotect(base + page, page, 0) == 0
    try:
        for n in (1, 2, 5, 9, 17, page // k):
            hands = np.frombuffer(buf, dtype=np.uint8, count=n * k, offset=page - n * k).reshape(n, k)
            hands[:] = hr.random_hands(n, k, seed=n)
            expected = np.array([mod.evaluate(tuple(h)) for h in hands.tolist()], dtype=np.uint16)
            out = np.zeros(n, dtype=np.uint16)
            assert _evaluate.batch(game, hands, out) == -1
            assert np.array_equal(out, expected)
            del hands
    finally:
        libc.mprotect(base + page, page, mmap.PROT_READ | mmap.PROT_WRITE)
