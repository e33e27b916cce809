"""Every bad input to every evaluator, scalar and batch (RULES.md "Cards", DESIGN.md "API shape")."""
from functools import lru_cache

import numpy as np
import pytest

import handrank as hr
from handrank import high, high3, low27, lowa5

GAMES = {"high": (high, (5, 6, 7)), "high3": (high3, (3,)), "low27": (low27, (5,)),
         "lowa5": (lowa5, (5, 6, 7))}
CASES = [(name, k) for name, (_, sizes) in GAMES.items() for k in sizes]


def good(k):
    """k valid distinct card ids (k <= 10): 2c 3d 4h 5s 7c 8d 9h Ts Qc Kd, no straight or flush."""
    return [5 * i for i in range(k)]


def module(name):
    return GAMES[name][0]


# ============================================================================= scalar
@pytest.mark.parametrize("name", GAMES)
def test_scalar_wrong_card_count(name):
    mod, sizes = GAMES[name]
    for k in range(0, 10):
        if k in sizes:
            assert 1 <= mod.evaluate(good(k)) <= mod.MAX_VALUE
            continue
        hand = [3 * i for i in range(k)]
        for form in (hand, tuple(hand), hr.hand_str(hand), [hr.card_str(c) for c in hand]):
            with pytest.raises(ValueError, match=f"got {k}"):
                mod.evaluate(form)


@pytest.mark.parametrize("name, k", CASES)
@pytest.mark.parametrize("bad", [52, 53, 255, 256, -1, 1000, 2 ** 31, 2 ** 40, 2 ** 64])
def test_scalar_id_out_of_range(name, k, bad):
    mod = module(name)
    for position in (0, k - 1):
        hand = good(k)
        hand[position] = bad
        for form in (hand, tuple(hand)):
            with pytest.raises(ValueError, match=f"card id {bad} is out of range"):
                mod.evaluate(form)
    hand = good(k)
    hand[-1] = np.int64(bad) if -2 ** 63 <= bad < 2 ** 63 else bad
    with pytest.raises(ValueError, match=str(bad)):
        mod.evaluate(hand)


@pytest.mark.parametrize("name, k", CASES)
def test_scalar_duplicates(name, k):
    mod = module(name)
    hand = good(k - 1) + [51]
    hand[0] = 51
    for form in (hand, tuple(hand), hr.hand_str(hand).split()):
        with pytest.raises(ValueError, match="duplicate card As"):
            mod.evaluate(form)
    text = " ".join(["As"] + [hr.card_str(c) for c in good(k - 1)[1:]] + ["As"])
    with pytest.raises(ValueError, match="duplicate card As"):
        mod.evaluate(text)
    with pytest.raises(ValueError, match="duplicate card As"):
        mod.evaluate(text.replace(" ", ""))


@pytest.mark.parametrize("name, k", CASES)
def test_scalar_unparsable_text(name, k):
    mod = module(name)
    names = [hr.card_str(c) for c in good(k)]
    for bad in ("Xx", "1s", "Aq", "K"):
        hand = names[:-1] + [bad]
        with pytest.raises(ValueError, match=repr(bad)):
            mod.evaluate(" ".join(hand))
        with pytest.raises(ValueError, match=repr(bad)):
            mod.evaluate(hand)


@pytest.mark.parametrize("name, k", CASES)
@pytest.mark.parametrize("bad", [True, False, 1.0, None, np.float64(2.0), "", 3 + 0j])
def test_scalar_non_card_items_are_type_errors(name, k, bad):
    mod = module(name)
    hand = good(k)
    hand[1] = bad
    with pytest.raises((TypeError, ValueError)) as info:
        mod.evaluate(hand)
    if not isinstance(bad, str):
        assert info.type is TypeError


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", [None, 5, 5.0, b"As Ks Qs Js Ts", object()])
def test_scalar_non_hands_are_type_errors(name, bad):
    with pytest.raises(TypeError):
        module(name).evaluate(bad)


def test_scalar_float_array_is_type_error():
    with pytest.raises(TypeError):
        high.evaluate(np.array(good(5), dtype=np.float64))


# ============================================================================= batch
@pytest.mark.parametrize("name, k", CASES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.bool_, object, "U2", np.complex64])
def test_batch_non_integer_arrays(name, k, dtype):
    rows = np.array([good(k)] * 3)
    arr = rows.astype(bool) if dtype is np.bool_ else rows.astype(dtype)
    with pytest.raises(TypeError):
        module(name).evaluate_batch(arr)


@pytest.mark.parametrize("name, k", CASES)
def test_batch_float_lists(name, k):
    with pytest.raises(TypeError):
        module(name).evaluate_batch([[float(c) for c in good(k)]])


@pytest.mark.parametrize("name", GAMES)
def test_batch_wrong_shapes(name):
    mod, sizes = GAMES[name]
    k = sizes[0]
    with pytest.raises(ValueError):
        mod.evaluate_batch(np.array(good(k), dtype=np.uint8))                 # 1-D
    with pytest.raises(ValueError):
        mod.evaluate_batch(np.array([[good(k)]], dtype=np.uint8))             # 3-D
    with pytest.raises(ValueError):
        mod.evaluate_batch(np.uint8(3))                                       # 0-D
    for wrong in range(0, 10):
        if wrong in sizes:
            continue
        with pytest.raises(ValueError, match=r"shape"):
            mod.evaluate_batch(np.array([good(wrong)] * 4, dtype=np.uint8).reshape(4, wrong))
    with pytest.raises(ValueError, match=f"^row 1: {k + 1} cards where row 0 has {k}"):
        mod.evaluate_batch([hr.hand_str(good(k)), hr.hand_str(good(k + 1))])  # ragged text rows


@pytest.mark.parametrize("name, k", CASES)
def test_batch_bad_out(name, k):
    mod = module(name)
    hands = np.array([good(k)] * 10, dtype=np.uint8)
    for bad_dtype in (np.uint8, np.int16, np.uint32, np.int64, np.float64):
        with pytest.raises(TypeError):
            mod.evaluate_batch(hands, out=np.zeros(10, dtype=bad_dtype))
    for bad_shape in ((9,), (11,), (10, 1), (1, 10), ()):
        with pytest.raises(ValueError):
            mod.evaluate_batch(hands, out=np.zeros(bad_shape, dtype=np.uint16))
    with pytest.raises(ValueError, match="out must have shape \\(10,\\), got \\(9,\\)"):
        mod.evaluate_batch(hands, out=np.zeros(9, dtype=np.uint16))
    with pytest.raises(ValueError, match="out must be C-contiguous"):
        mod.evaluate_batch(hands, out=np.zeros(20, dtype=np.uint16)[::2])
    readonly = np.zeros(10, dtype=np.uint16)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        mod.evaluate_batch(hands, out=readonly)
    with pytest.raises(TypeError):
        mod.evaluate_batch(hands, out=[0] * 10)


@lru_cache(maxsize=None)
def _random(n, k):
    hands = hr.random_hands(n, k, seed=n + k)
    hands.flags.writeable = False
    return hands


def _with_bad_row(k, row, problem, n=40, dtype=np.uint8):
    hands = np.array(_random(n, k), dtype=dtype)
    if problem == "duplicate":
        hands[row, 0] = 51
        hands[row, k - 1] = 51
        if k > 2:
            hands[row, 1:k - 1] = good(k - 2)
    else:
        hands[row, k // 2] = problem
    return hands


@pytest.mark.parametrize("name, k", CASES)
@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.uint16])
def test_batch_duplicate_names_the_row(name, k, dtype):
    hands = _with_bad_row(k, 17, "duplicate", dtype=dtype)
    with pytest.raises(ValueError, match="^row 17: duplicate card As$"):
        module(name).evaluate_batch(hands)


@pytest.mark.parametrize("name, k", CASES)
@pytest.mark.parametrize("bad, dtype", [(52, np.uint8), (255, np.uint8), (52, np.int64),
                                        (-1, np.int16), (-1, np.int8), (1000, np.int32),
                                        (300, np.uint16), (2 ** 40, np.int64), (2 ** 63, np.uint64)])
def test_batch_out_of_range_names_the_row(name, k, bad, dtype):
    hands = _with_bad_row(k, 17, bad, dtype=dtype)
    with pytest.raises(ValueError, match=f"^row 17: card id {bad} is out of range 0..51$"):
        module(name).evaluate_batch(hands)


@pytest.mark.parametrize("name, k", CASES)
def test_batch_text_rows_name_the_row(name, k):
    rows = [hr.hand_str(r) for r in hr.random_hands(20, k, seed=1).tolist()]
    dup = rows.copy()
    dup[17] = " ".join(["As"] + [hr.card_str(c) for c in good(k - 2)] + ["As"])
    with pytest.raises(ValueError, match="^row 17: duplicate card As$"):
        module(name).evaluate_batch(dup)
    bad = rows.copy()
    bad[17] = bad[17][:-2] + "Xx"
    with pytest.raises(ValueError, match="^row 17: cannot parse card 'Xx'"):
        module(name).evaluate_batch(bad)
    short = rows.copy()
    short[17] = " ".join(short[17].split()[:-1])
    with pytest.raises(ValueError):
        module(name).evaluate_batch(short)


@pytest.mark.parametrize("name, k", CASES)
def test_batch_reports_the_first_bad_row(name, k):
    hands = _with_bad_row(k, 23, 52)
    hands[31, 0] = 200
    hands[5, 0] = hands[5, 1]
    with pytest.raises(ValueError, match="^row 5: duplicate card "):
        module(name).evaluate_batch(hands)
    with pytest.raises(ValueError, match="^row 5: duplicate card "):
        module(name).evaluate_batch(hands, threads=3)
    # other integer dtypes are range-checked before the compiled loop: the earlier repeated card
    # still wins over a later id out of range
    wide = hands.astype(np.int64)
    wide[23, 0] = 2**40
    for threads in (1, 3):
        with pytest.raises(ValueError, match="^row 5: duplicate card "):
            module(name).evaluate_batch(wide, threads=threads)
    wide[5] = hands[6]
    with pytest.raises(ValueError, match=f"^row 23: card id {2**40} is out of range"):
        module(name).evaluate_batch(wide)


@pytest.mark.parametrize("name, k", CASES)
def test_batch_bad_row_found_by_any_thread(name, k):
    n = 200_000
    for row in (0, n // 2 - 1, n // 2, n // 2 + 1, 3 * n // 4 + 7, n - 1):
        hands = _with_bad_row(k, row, 77, n=n)
        for threads in (1, 2, 4, None):
            with pytest.raises(ValueError, match=f"^row {row}: card id 77 is out of range"):
                module(name).evaluate_batch(hands, threads=threads)


@pytest.mark.parametrize("name, k", CASES)
def test_batch_reports_the_first_of_bad_rows_in_several_chunks(name, k):
    # threads take chunks of rows in whatever order they get to them: the lowest bad row wins
    n = 200_000
    hands = _with_bad_row(k, n - 1, 77, n=n)
    hands[n // 3, 0] = 78
    hands[n // 2, 0] = 79
    for threads in (2, 3):
        with pytest.raises(ValueError, match=f"^row {n // 3}: card id 78 is out of range"):
            module(name).evaluate_batch(hands, threads=threads)


@pytest.mark.parametrize("name, k", CASES)
@pytest.mark.parametrize("threads", [1, 2])
def test_out_unchanged_after_error(name, k, threads):
    mod = module(name)
    n = 100_000
    sentinel = np.arange(n, dtype=np.uint16) * 7 + 3
    for bad_row in (n - 1, n // 2 + 5, 3):
        for problem in ("duplicate", 99):
            hands = _with_bad_row(k, bad_row, problem, n=n)
            out = sentinel.copy()
            with pytest.raises(ValueError, match=f"^row {bad_row}: "):
                mod.evaluate_batch(hands, out=out, threads=threads)
            assert np.array_equal(out, sentinel)
    # errors found before the loop (dtype, shape, ids in a wide dtype, text rows) too
    out = sentinel[:4].copy()
    for bad_input in (np.zeros((4, k), dtype=np.float64), np.zeros((4, 9), dtype=np.uint8),
                      np.full((4, k), -1, dtype=np.int64), ["Xx"] * 4):
        with pytest.raises((TypeError, ValueError)):
            mod.evaluate_batch(bad_input, out=out, threads=threads)
        assert np.array_equal(out, sentinel[:4])


def test_out_unchanged_when_calls_of_other_sizes_and_threads_interleave():
    # the copy of `out` a call keeps to restore it lives on between calls of a thread: calls of
    # other sizes, and calls from other threads at the same time, must not share it
    import threading
    sizes = (100_000, 7, 40_000, 100_000, 0, 3)
    failures = []

    def calls(seed):
        for n in sizes:
            hands = _with_bad_row(7, max(n - 1, 0), 99, n=max(n, 1))[:n]
            sentinel = np.arange(n, dtype=np.uint16) * 3 + seed
            out = sentinel.copy()
            try:
                high.evaluate_batch(hands, out=out, threads=2)
            except ValueError:
                pass
            if n and not np.array_equal(out, sentinel):
                failures.append((seed, n))
            good_rows = hands[:max(n - 1, 0)]
            written = high.evaluate_batch(good_rows, out=out[:len(good_rows)], threads=2)
            if not np.array_equal(written, high.evaluate_batch(good_rows, threads=1)):
                failures.append((seed, n, "values"))

    workers = [threading.Thread(target=calls, args=(seed,)) for seed in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert failures == []


@pytest.mark.parametrize("name, k", CASES)
def test_bad_threads(name, k):
    mod = module(name)
    hands = np.array([good(k)] * 4, dtype=np.uint8)
    for bad in (0, -1, -8):
        with pytest.raises(ValueError):
            mod.evaluate_batch(hands, threads=bad)
    for bad in (1.5, True, "2", 2.0):
        with pytest.raises(TypeError):
            mod.evaluate_batch(hands, threads=bad)
    assert mod.evaluate_batch(hands, threads=1).tolist() == [mod.evaluate(good(k))] * 4


def test_batch_non_array_objects():
    with pytest.raises((TypeError, ValueError)):
        high.evaluate_batch(None)
    with pytest.raises((TypeError, ValueError)):
        high.evaluate_batch(object())
    with pytest.raises((TypeError, ValueError)):
        high.evaluate_batch([[1, 2, 3, 4, 5], [6, 7, 8, 9]])    # ragged int rows
