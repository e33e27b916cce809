"""Regression tests for Chinese poker faults found in review: each failed before its fix."""
from __future__ import annotations

import io
import itertools
import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

import handrank as hr
from handrank import chinese, high

# ----------------------------------------------------------------------------- three straights
# 3-card straights A-2-3 (lowest) .. Q-K-A, 5-card A-2-3-4-5 (lowest) .. T-J-Q-K-A, as rank sets
RUNS3 = [frozenset({12, 0, 1})] + [frozenset(range(s, s + 3)) for s in range(11)]
RUNS5 = [frozenset({12, 0, 1, 2, 3})] + [frozenset(range(s, s + 5)) for s in range(9)]


def straight_order_key(ids: list[int]) -> tuple[int, int, int]:
    """The reference: the best (bottom, middle, top) places in straight order over every way to
    split the cards into a 3-card run and two 5-card runs, tried card by card."""
    best = None
    for top in itertools.combinations(ids, 3):
        ranks3 = frozenset(c // 4 for c in top)
        if len(ranks3) < 3 or ranks3 not in RUNS3:
            continue
        rest = [c for c in ids if c not in top]
        for middle in itertools.combinations(rest, 5):
            bottom = [c for c in rest if c not in middle]
            ranks_m, ranks_b = frozenset(c // 4 for c in middle), frozenset(c // 4 for c in bottom)
            if len(ranks_m) == 5 == len(ranks_b) and ranks_m in RUNS5 and ranks_b in RUNS5 \
                    and high.evaluate(bottom) >= high.evaluate(middle):        # a valid setting
                key = (RUNS5.index(ranks_b), RUNS5.index(ranks_m), RUNS3.index(ranks3))
                best = key if best is None or key > best else best
    assert best is not None
    return best


def random_three_straights(rng: np.random.Generator, suited: bool) -> list[int]:
    """Three random runs of random suits (`suited`: clubs first where it can, for straight
    flushes)."""
    while True:
        windows = [RUNS3[rng.integers(12)], RUNS5[rng.integers(10)], RUNS5[rng.integers(10)]]
        need = Counter(r for w in windows for r in w)
        if max(need.values()) <= 4:
            suits = [[0, *(1 + rng.permutation(3))] if suited else rng.permutation(4) for _ in range(13)]
            return [4 * r + int(s) for r, n in need.items() for s in suits[r][:n]]


def test_a23_front_is_the_lowest_three_card_straight():
    """docs/chinese.md: "A-2-3 lowest ... Q-K-A highest"; RULES.md: every row of two such
    naturals is compared in straight order, never as high cards."""
    a23 = chinese.natural("Ac 2d 3h 4c 5d 6h 7s 8c 4d 5c 6s 7h 8d")
    jqk = chinese.natural("Jc Qd Kh 4c 5d 6h 7s 8c 4d 5c 6s 7h 8d")
    assert a23.kind == jqk.kind == "three straights"
    assert chinese.compare_naturals(jqk, a23) == 1 and chinese.compare_naturals(a23, jqk) == -1
    two34 = chinese.natural("2c 3d 4h 4c 5d 6h 7s 8c 4d 5c 6s 7h 8d")
    assert chinese.compare_naturals(two34, a23) == 1


def test_rows_compare_in_straight_order_not_as_high_cards():
    # a straight flush row and a plain straight of the same ranks tie; the wheel is the lowest
    flush = chinese.natural("2h 3h 4h 5c 6c 7c 8c 9c 9s Ts Js Qs Ks")
    plain = chinese.natural("2h 3d 4h 5c 6d 7c 8c 9c 9s Ts Js Qd Ks")
    assert chinese.compare_naturals(flush, plain) == 0
    wheel = chinese.natural("4c 5d 6h Ac 2d 3h 4s 5c 7c 8d 9h Ts Jc")   # 4-5-6 / A-2-3-4-5 / 7-J
    six_high = chinese.natural("4c 5d 6h 2c 3d 4h 5s 6c 7c 8d 9h Ts Jc")
    assert chinese.compare_naturals(six_high, wheel) == 1


def test_three_straights_against_the_split_by_split_reference():
    rng = np.random.default_rng(2026)
    hands = [random_three_straights(rng, suited=i % 2 == 1) for i in range(60)]
    hands.append(hr.cards("2c 3c 4c 5c Ac 2d 3s 4h 5s 6s 5d 6d 7c"))    # a straight flush wheel
    found = [chinese.natural(h, chinese.Rules(naturals={"three straights": 3})) for h in hands]
    want = [straight_order_key(h) for h in hands]
    for (a, ka), (b, kb) in itertools.combinations(zip(found, want), 2):
        assert chinese.compare_naturals(a, b) == (ka > kb) - (ka < kb)
    for hand, natural, key in zip(hands, found, want):
        # the setting shown holds the strongest straights
        s = natural.setting
        shown = (RUNS5.index(frozenset(c // 4 for c in s.bottom)),
                 RUNS5.index(frozenset(c // 4 for c in s.middle)),
                 RUNS3.index(frozenset(c // 4 for c in s.top)))
        assert shown == key, hr.hand_str(hand)
        assert high.evaluate(s.bottom) >= high.evaluate(s.middle)


# ----------------------------------------------------------------------------- compare_naturals
@pytest.mark.parametrize("a, b", [("x", "y"), (None, None), (3, 4)])
def test_compare_naturals_takes_naturals_only(a, b):
    with pytest.raises(TypeError, match="compare_naturals takes two chinese.Natural"):
        chinese.compare_naturals(a, b)
    natural = chinese.natural("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad")
    with pytest.raises(TypeError, match="not str"):
        chinese.compare_naturals(natural, "y")


# ----------------------------------------------------------------------------- the ev cache
HAND = "2c 3d 5h 7s 9c Jd Kh As 3c 8d Th Qs 4h"
EV_SCRIPT = f"from handrank import chinese; print(repr(chinese.best_setting({HAND!r}, objective='ev').value))"


def run_ev(cache: os.PathLike[str] | str) -> subprocess.Popen[str]:
    """A fresh interpreter (nothing cached in memory) that prints the ev of HAND."""
    return subprocess.Popen([sys.executable, "-c", EV_SCRIPT], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "HANDRANK_CACHE_DIR": str(cache)})


def finish(process: subprocess.Popen[str]) -> float:
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    value = float(out)
    assert np.isfinite(value)
    return value


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(cache file name, its bytes, the ev of HAND) from a cache built in an empty directory."""
    cache = tmp_path_factory.mktemp("ev-cache")
    value = finish(run_ev(cache))
    (path,) = cache.glob("chinese-rows-*.npy")
    return path.name, path.read_bytes(), value


def npy(array: np.ndarray) -> bytes:
    out = io.BytesIO()
    np.save(out, array, allow_pickle=False)
    return out.getvalue()


def damaged_files(good: bytes) -> dict[str, bytes]:
    """File contents that must each be rebuilt."""
    counts = np.load(io.BytesIO(good))
    nan_royalties = counts.copy()
    nan_royalties[3:] = np.nan
    negative, fraction = counts.copy(), counts.copy()      # each row still sums to the sample size
    i, j = np.flatnonzero(counts[0])[:2]
    negative[0, j] += negative[0, i] + 1
    negative[0, i] = -1
    fraction[0, [i, j]] += [0.5, -0.5]
    return {
        "empty": b"",
        "truncated": good[:len(good) // 2],
        "text": b"not a numpy file",
        "strings": npy(np.full((6, counts.shape[1]), "x")),
        "nan": npy(np.full(counts.shape, np.nan)),
        "nan royalties": npy(nan_royalties),
        "wrong shape": npy(counts[:, :-1]),
        "float32": npy(counts.astype(np.float32)),
        "negative count": npy(negative),
        "fractional count": npy(fraction),
        "inf royalties": npy(np.where(counts > 0, np.inf, counts)),
    }


@pytest.mark.parametrize("damage", ["empty", "strings", "nan royalties"])
def test_a_damaged_cache_file_is_rebuilt(built, tmp_path, damage):
    """The review's three cases: EOFError, TypeError and a silent nan before the fix."""
    name, good, value = built
    (tmp_path / name).write_bytes(damaged_files(good)[damage])
    assert finish(run_ev(tmp_path)) == value
    assert (tmp_path / name).read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == [name]      # no temporary file left behind


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["truncated", "text", "nan", "wrong shape", "float32",
                                    "negative count", "fractional count", "inf royalties"])
def test_every_damaged_cache_file_is_rebuilt(built, tmp_path, damage):
    name, good, value = built
    (tmp_path / name).write_bytes(damaged_files(good)[damage])
    assert finish(run_ev(tmp_path)) == value
    assert (tmp_path / name).read_bytes() == good


def test_two_processes_building_at_once(built, tmp_path):
    name, good, value = built
    first, second = run_ev(tmp_path), run_ev(tmp_path)
    assert finish(first) == finish(second) == value
    assert (tmp_path / name).read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == [name]
