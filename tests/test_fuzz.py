"""Fuzzing every public batch entry point and every text parser.

Whatever the dtype (big-endian, bool, float, object), layout (strided, transposed, Fortran,
negative strides, read-only, unaligned), shape, ids, `out=` (wrong dtype or shape, strided,
read-only, overlapping the cards) and `threads=`, a call either gives the answer of the plain call
(the scalar function, or a clean uint8 array on one thread) or raises TypeError / ValueError, a bad
row naming the row and the card; `out` and the cards are then unchanged. Derandomized, with fixed
example counts, so a run is reproducible and stays within the default suite's time budget."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import handrank as hr
from handrank import bigtwo, chinese, high, high3, low27, lowa5, ofc, rows
from handrank.cards import hand_problem


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


# ============================================================================= batch entry points
@dataclass(frozen=True)
class Entry:
    name: str
    call: Callable[..., Any]            # call(cards, values, out, threads); values: the rows as ints
    sizes: tuple[int, ...]
    answer: Callable[[list[list[int]], int], Any]    # the plain answer for valid rows of k cards
    out_dtype: Any = None               # the dtype of `out=`, None where there is no `out=`
    max_rows: int = 6
    row_suffix: str = ""                # what may follow "row N" in a bad row's message
    examples: int = 120


def _scalar(fn: Callable[[list[int]], int]) -> Callable[[list[list[int]], int], list[int]]:
    return lambda values, k: [fn(row) for row in values]


def _clean(values: list[list[int]], k: int) -> np.ndarray:
    return np.array(values, dtype=np.uint8).reshape(-1, k)


def _plain(fn: Callable[..., Any]) -> Callable[[list[list[int]], int], Any]:
    """The answer of `fn` on a clean (N, k) uint8 array, on one thread."""
    return lambda values, k: _comparable(fn(_clean(values, k), threads=1))


def _comparable(result: Any) -> Any:
    if isinstance(result, np.ndarray):
        return result.tolist()
    return tuple(_comparable(field) for field in result)


def _key(row: list[int]) -> int:
    combo = bigtwo.classify(row)
    return 0 if combo is None else combo.key


def _partner(values: list[list[int]]) -> np.ndarray:
    """For each row of a, a board of 13 cards none of which is in that row (pair scoring)."""
    return np.array([[c for c in range(52) if c not in row][:13] for row in values],
                    dtype=np.uint8).reshape(-1, 13)


def _score(fn: Callable[..., Any]) -> Callable[..., Any]:
    return lambda cards, values, out, threads: fn(cards, _partner(values), threads=threads)


def _with_out(fn: Callable[..., Any], *args: Any) -> Callable[..., Any]:
    def call(cards: Any, values: Any, out: Any, threads: Any) -> Any:
        if out is _NO_OUT:
            return fn(cards, *args, threads=threads)
        return fn(cards, *args, out=out, threads=threads)
    return call


def _no_out(fn: Callable[..., Any]) -> Callable[..., Any]:
    return lambda cards, values, out, threads: fn(cards, threads=threads)


_NO_OUT = object()
ENTRIES = [
    Entry("high", _with_out(high.evaluate_batch), (5, 6, 7), _scalar(high.evaluate), np.uint16),
    Entry("high3", _with_out(high3.evaluate_batch), (3,), _scalar(high3.evaluate), np.uint16),
    Entry("low27", _with_out(low27.evaluate_batch), (5,), _scalar(low27.evaluate), np.uint16),
    Entry("lowa5", _with_out(lowa5.evaluate_batch), (5, 6, 7), _scalar(lowa5.evaluate), np.uint16),
    Entry("rows", _with_out(rows.value_batch), (3, 5), _scalar(rows.value), np.uint16),
    Entry("bigtwo", _with_out(bigtwo.classify_batch, None), (1, 2, 3, 5), _scalar(_key), np.int32),
    Entry("ofc", _no_out(ofc.evaluate_batch), (13,), _plain(ofc.evaluate_batch)),
    Entry("chinese", _no_out(chinese.evaluate_batch), (13,), _plain(chinese.evaluate_batch)),
    Entry("ofc-score", _score(ofc.score_batch), (13,),
          lambda v, k: ofc.score_batch(_clean(v, k), _partner(v), threads=1).tolist(),
          row_suffix="( of a)?"),
    Entry("chinese-score", _score(chinese.score_batch), (13,),
          lambda v, k: chinese.score_batch(_clean(v, k), _partner(v), threads=1).tolist(),
          row_suffix="( of a)?"),
    Entry("fantasyland", _no_out(ofc.solve_fantasyland_batch), (13, 14, 15, 16, 17),
          _plain(ofc.solve_fantasyland_batch), max_rows=2, examples=40),
    Entry("best-setting", _no_out(chinese.best_setting_batch), (13,),
          _plain(chinese.best_setting_batch), max_rows=2, examples=40),
]

BAD_IDS = [-1, -128, 52, 127, 255, 256, 2 ** 15, 2 ** 31, 2 ** 63 - 1, 2 ** 64 - 1, 2 ** 70, -2 ** 70]
DTYPES = ["u1", "u1", "u1", "i1", "<i2", ">i2", "<u2", ">u4", "<i8", ">i8", "<u8", "?", "f4", "f8",
          "O"]
LAYOUTS = ["C", "C", "F", "T", "colstride", "rowstride", "negrows", "negcols", "readonly",
           "unaligned"]
OUTS = ["none", "good", "good", "overlap", "dtype", "byteorder", "long", "2d", "strided",
        "readonly", "list", "unaligned"]
THREADS = [None, None, 1, 2, 4, 0, -3, True, 2.0, "2", np.int64(2)]


@st.composite
def batch_cases(draw: Any, entry: Entry) -> dict[str, Any]:
    wrong = [k for k in (0, 1, 2, 4, 6, 8, 12, 14, 18) if k not in entry.sizes]
    k = draw(st.sampled_from(list(entry.sizes) * 4 + wrong[:4]))
    n = draw(st.integers(0, entry.max_rows))
    values = [list(draw(st.permutations(range(52)))[:k]) for _ in range(n)]
    if n and k:
        for r, c, bad in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, k - 1),
                                                 st.sampled_from(BAD_IDS + ["repeat"] * 4)),
                                       max_size=2)):
            values[r][c] = values[r][(c + 1) % k] if bad == "repeat" else bad
    return {"values": values, "k": k, "form": draw(st.sampled_from(["array"] * 6 + ["list", "text"])),
            "dtype": draw(st.sampled_from(DTYPES)), "layout": draw(st.sampled_from(LAYOUTS)),
            "ndim": draw(st.sampled_from([2] * 8 + [0, 1, 3])),
            "out": draw(st.sampled_from(OUTS)) if entry.out_dtype is not None else "none",
            "offset": draw(st.integers(0, 64)), "threads": draw(st.sampled_from(THREADS))}


def _fits(values: list[list[int]], dtype: np.dtype) -> bool:
    flat = [c for row in values for c in row]
    if dtype.kind not in "iu" or not flat:
        return True
    info = np.iinfo(dtype)
    return info.min <= min(flat) and max(flat) <= info.max


def _array(values: list[list[int]], k: int, dtype: np.dtype, layout: str) -> np.ndarray:
    n = len(values)
    if dtype.kind == "O":
        arr = np.empty((n, k), dtype=object)
        for i, row in enumerate(values):
            arr[i] = row
    elif dtype.kind in "iu":
        arr = np.array(values, dtype=dtype).reshape(n, k)
    else:       # bool, float: whatever numpy makes of the ids
        arr = np.array(values, dtype=object).reshape(n, k).astype(dtype)
    if layout == "F":
        return np.asfortranarray(arr)
    if layout == "T":
        return np.ascontiguousarray(arr.T).T
    if layout == "colstride":
        wide = np.zeros((n, 2 * k), dtype=dtype)
        wide[:, ::2] = arr
        return wide[:, ::2]
    if layout == "rowstride":
        tall = np.zeros((2 * n, k), dtype=dtype)
        tall[::2] = arr
        return tall[::2]
    if layout == "negrows":
        return arr[::-1].copy()[::-1]
    if layout == "negcols":
        return arr[:, ::-1].copy()[:, ::-1]
    if layout == "readonly":
        arr.setflags(write=False)
        return arr
    if layout == "unaligned" and dtype.itemsize > 1 and dtype.kind != "O":
        raw = np.zeros(arr.nbytes + 1, dtype=np.uint8)
        unaligned = raw[1:].view(dtype).reshape(n, k)
        unaligned[...] = arr
        return unaligned
    return arr


def _out(kind: str, n: int, dtype: Any, cards_buffer: np.ndarray | None, offset: int) -> Any:
    dtype = np.dtype(dtype)
    other = np.int32 if dtype == np.uint16 else np.uint16
    if kind == "good":
        return np.full(n, 7, dtype=dtype)
    if kind == "overlap":
        assert cards_buffer is not None
        start = min(offset, cards_buffer.nbytes) // dtype.itemsize * dtype.itemsize
        return cards_buffer[start:start + n * dtype.itemsize].view(dtype)
    if kind == "dtype":
        return np.full(n, 7, dtype=other)
    if kind == "byteorder":
        return np.full(n, 7, dtype=dtype.newbyteorder())
    if kind == "long":
        return np.full(n + 1, 7, dtype=dtype)
    if kind == "2d":
        return np.full((n, 1), 7, dtype=dtype)
    if kind == "strided":
        return np.full(2 * n, 7, dtype=dtype)[::2]
    if kind == "readonly":
        out = np.full(n, 7, dtype=dtype)
        out.setflags(write=False)
        return out
    if kind == "list":
        return [7] * n
    if kind == "unaligned":
        raw = np.full(n * dtype.itemsize + 1, 7, dtype=np.uint8)
        return raw[1:].view(dtype)
    return _NO_OUT


def _errors(entry: Entry, case: dict[str, Any], arr: Any, out: Any) -> tuple[list, list]:
    """(the one error the input's type or shape must raise, or [];  the errors any of which may
    be raised otherwise: out's, threads', the first bad row's)."""
    values, k = case["values"], case["k"]
    if case["form"] == "array" and (np.dtype(case["dtype"]).kind not in "iu" or arr.dtype.kind not in "iu"):
        return [(TypeError, "cards must be an integer array")], []
    shape = np.shape(arr) if case["form"] == "array" else (len(values), k) if values else (0,)
    if len(shape) != 2 or shape[1] not in entry.sizes:
        return [(ValueError, "cards must have shape")], []
    candidates = []
    if out is not _NO_OUT:
        if not isinstance(out, np.ndarray):
            candidates.append((TypeError, "out must be a numpy array"))
        elif out.dtype != entry.out_dtype:
            candidates.append((TypeError, "out must have dtype"))
        elif out.shape != (len(values),):
            candidates.append((ValueError, "out must have shape"))
        elif not out.flags.c_contiguous:
            candidates.append((ValueError, "out must be C-contiguous"))
        elif not out.flags.writeable:
            candidates.append((ValueError, "out is read-only"))
    threads = case["threads"]
    if isinstance(threads, (bool, float, str)):
        candidates.append((TypeError, "threads must be an int or None"))
    elif threads is not None and threads < 1:
        candidates.append((ValueError, "threads must be >= 1"))
    for r, row in enumerate(values):
        problem = hand_problem(row)
        if problem:
            candidates.append((ValueError, f"^row {r}{entry.row_suffix}: {re.escape(problem)}$"))
            break
    return [], candidates


def _fuzz_entry(entry: Entry) -> Callable[..., None]:
    @fuzz(entry.examples)
    @given(case=batch_cases(entry))
    def check(case: dict[str, Any]) -> None:
        values, k = case["values"], case["k"]
        dtype = np.dtype(case["dtype"])
        if not _fits(values, dtype):
            dtype = np.dtype(object)
        buffer = None
        if case["out"] == "overlap" and (case["form"] != "array" or not _fits(values, np.dtype("u1"))):
            case["out"] = "good"
        if case["form"] == "text" and all(0 <= c <= 51 for row in values for c in row):
            cards: Any = [hr.hand_str(row) for row in values]
        elif case["form"] in ("list", "text"):
            case["form"] = "list"
            cards = [list(row) for row in values]
        elif case["out"] == "overlap":
            case["dtype"], case["ndim"] = "u1", 2
            size = np.dtype(entry.out_dtype).itemsize
            buffer = np.zeros(len(values) * k + len(values) * size + 64, dtype=np.uint8)
            buffer[:len(values) * k] = [c for row in values for c in row]
            cards = buffer[:len(values) * k].reshape(len(values), k)
        else:
            case["dtype"] = dtype.str if dtype.kind != "O" else "O"
            cards = _array(values, k, dtype, case["layout"])
            if case["ndim"] == 0:
                cards = cards.reshape(-1)[:1].reshape(()) if cards.size else np.zeros((), dtype=dtype)
            elif case["ndim"] == 1:
                cards = cards.reshape(-1)
            elif case["ndim"] == 3:
                cards = cards[np.newaxis]
        out = _out(case["out"], len(values), entry.out_dtype, buffer, case["offset"])
        cards_before = cards.copy() if isinstance(cards, np.ndarray) else None
        out_before = out.copy() if isinstance(out, np.ndarray) else None
        buffer_before = None if buffer is None else buffer.copy()
        first, candidates = _errors(entry, case, cards, out)
        expected = first or candidates
        try:
            result = entry.call(cards, values, out, case["threads"])
        except (TypeError, ValueError) as exc:
            assert expected, f"{type(exc).__name__}: {exc}"
            assert any(isinstance(exc, kind) and re.search(pattern, str(exc))
                       for kind, pattern in expected), (str(exc), expected)
            assert ": None" not in str(exc)
            if buffer_before is not None:
                assert np.array_equal(buffer, buffer_before)
            elif out_before is not None:
                assert np.array_equal(out, out_before)
        else:
            assert not expected, f"no error where one of {expected} was due"
            assert _comparable(result) == entry.answer(values, k)
            if out is not _NO_OUT:
                assert result is out
        if cards_before is not None and buffer is None:
            assert np.array_equal(cards, cards_before) and cards.dtype == cards_before.dtype
    return check


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_batch_entry_point(entry: Entry) -> None:
    _fuzz_entry(entry)()


# ----------------------------------------------------------------------------- lowa5.qualifies8_batch
VALUE_DTYPES = ["u1", "<u2", ">u2", "<i2", ">i4", "<i8", ">u8", "?", "f8", "O"]


@fuzz(150)
@given(values=st.lists(st.one_of(st.integers(1, lowa5.MAX_VALUE), st.sampled_from(
           [0, -1, lowa5.MAX_VALUE + 1, 2 ** 16, 2 ** 70])), max_size=8),
       dtype=st.sampled_from(VALUE_DTYPES), shape=st.sampled_from(["1d", "2d", "0d", "list"]))
def test_qualifies8_batch(values: list[int], dtype: str, shape: str) -> None:
    if shape == "list":
        arg: Any = values       # a list is read by its items: ints past 64 bits are out of range
        ints = True
    else:
        np_dtype = np.dtype(dtype)
        if not _fits([values], np_dtype):
            np_dtype = np.dtype(object)
        arr = np.array(values, dtype=object).astype(np_dtype)
        arg = arr.reshape(()) if shape == "0d" and arr.size == 1 else arr
        arg = arg.reshape(1, -1) if shape == "2d" else arg
        ints = np_dtype.kind in "iu"
    in_range = all(1 <= v <= lowa5.MAX_VALUE for v in values)
    try:
        result = lowa5.qualifies8_batch(arg)
    except TypeError as exc:
        assert not ints, exc
        assert "integer array" in str(exc)
    except ValueError as exc:
        assert ints and not in_range, exc
        assert f"1..{lowa5.MAX_VALUE}" in str(exc)
    else:
        assert ints and in_range
        assert result.dtype == np.bool_ and result.shape == np.shape(arg)
        assert result.ravel().tolist() == [lowa5.qualifies8(v) for v in values]


# ============================================================================= text parsers
RANK_TEXT = {**{r: i for i, r in enumerate("23456789TJQKA")},
             **{r: i for i, r in enumerate("23456789tjqka")}, "10": 8}
SUIT_TEXT = {**{s: i for i, s in enumerate("cdhs")}, **{s: i for i, s in enumerate("CDHS")},
             **{s: i for i, s in enumerate("♣♦♥♠")}, **{s: i for i, s in enumerate("♧♢♡♤")}}
SEPARATORS = " \t\n\r,;[]()'\""
CARD = re.compile(r"(10|[2-9TJQKAtjqka])([cdhsCDHS♣♦♥♠♧♢♡♤])")


def reference_parse(text: str) -> list[int] | str:
    """The ids in `text`, or the token that is no card: runs between separators, each a run of
    cards (rank, or 10, then suit) written together."""
    ids: list[int] = []
    for run in re.split("[" + re.escape(SEPARATORS) + "]+", text):
        at = 0
        while at < len(run):
            found = CARD.match(run, at)
            if found is None:
                return run[at:]
            ids.append(4 * RANK_TEXT[found[1]] + SUIT_TEXT[found[2]])
            at = found.end()
    return ids


TRICKY = ["10", "1", "0", "♠", "♤", "️", "\x00", "\u200b", "Ａ", "１０", "ß", "s\u0301", "A♠️", "🂡",
          "10h", "Ah", "as", "AS", "tC", "Td", "\ud7ff", "/", "|", "\u00a0", "\u3000", "\u2028"]
text_parts = st.one_of(st.sampled_from([hr.card_str(c) for c in range(52)]),
                       st.sampled_from(TRICKY), st.sampled_from(list(SEPARATORS)),
                       st.text(max_size=3))
texts = st.lists(text_parts, max_size=12).map("".join)


@fuzz(200)
@given(text=texts)
def test_cards_text(text: str) -> None:
    parsed = reference_parse(text)
    try:
        ids = hr.cards(text)
    except ValueError as exc:
        if isinstance(parsed, str):
            assert f"cannot parse card {parsed!r}" in str(exc)
        else:
            assert str(exc) == hand_problem(parsed)
    else:
        assert ids == parsed
    try:
        one = hr.card(text)
    except ValueError:
        assert isinstance(parsed, str) or len(parsed) != 1
    else:
        assert [one] == parsed


@fuzz(300)
@given(text=texts)
def test_evaluators_read_text_as_the_parser_does(text: str) -> None:
    parsed = reference_parse(text)
    scalars: list[tuple[Callable[[Any], Any], Callable[[list[int]], Any]]] = [
        (high.evaluate, high.evaluate), (high3.evaluate, high3.evaluate),
        (low27.evaluate, low27.evaluate), (lowa5.evaluate, lowa5.evaluate),
        (rows.value, rows.value), (bigtwo.classify, bigtwo.classify),
        (chinese.natural, chinese.natural), (ofc.Board.from_cards, ofc.Board.from_cards)]
    for by_text, by_ids in scalars:
        try:
            expected = by_ids(parsed) if isinstance(parsed, list) else ValueError
        except ValueError:
            expected = ValueError
        try:
            got = by_text(text)
        except ValueError:
            got = ValueError
        assert got == expected, (by_text, text)


@fuzz(200)
@given(parts=st.lists(texts, min_size=1, max_size=4), separator=st.sampled_from(["/", "|", " / "]))
def test_board_parse(parts: list[str], separator: str) -> None:
    text = separator.join(parts)
    try:
        board = ofc.Board.parse(text)
    except ValueError as exc:
        assert str(exc)
    else:
        assert ofc.Board.parse(str(board)) == board
        pieces = text.replace("|", "/").split("/")
        assert [list(board.top), list(board.middle), list(board.bottom)] == \
            [reference_parse(piece) for piece in pieces]


@fuzz(100)
@given(name=st.one_of(st.text(max_size=12), st.sampled_from(["hk", "taiwan", "pineapple", "deuce",
                                                              "1-6", "2-4", "HK", " hk", "hk\x00"])))
def test_rules_presets(name: str) -> None:
    for rules in (bigtwo.Rules, ofc.Rules, chinese.Rules):
        try:
            found = rules.preset(name)
        except ValueError as exc:
            assert repr(name) in str(exc) or name in str(exc)
        else:
            assert isinstance(found, rules)


@pytest.mark.parametrize("text", ["2c" * 100_000, "As " * 100_000, "Ax" + " " * 200_000,
                                  "10h" * 50_000, "\x00" * 100_000, "♠" * 100_000])
def test_very_long_text(text: str) -> None:
    with pytest.raises(ValueError) as caught:
        hr.cards(text)
    assert len(str(caught.value)) < 1000
