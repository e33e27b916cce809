# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled entry points of the evaluators: scalar calls, batch loops and exhaustive counts.

The Python modules (high, high3, low27, lowa5) re-export the scalar functions as they are, so a call
costs one C function call; the batch loops are driven by handrank._batch, which checks the arrays
with the GIL held and then runs `batch` on row ranges, one per thread, without it.
"""
cimport cython
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.object cimport PyObject
from libc.string cimport memcpy
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from handrank._tables cimport *
from handrank._kernels cimport *
from handrank._ints cimport PyLong_CheckExact, hr_small_int
from handrank._bits cimport hr_cpu_has_popcnt

import numpy as np

from handrank.cards import cards as _parse_cards


# Games, as numbered for `batch`
cdef enum:
    GAME_HIGH = 0
    GAME_HIGH3 = 1
    GAME_LOW27 = 2
    GAME_LOWA5 = 3
    GAME_ROW = 4        # a 3- or 5-card OFC / Chinese poker row, on the interleaved row scale

HIGH = GAME_HIGH
HIGH3 = GAME_HIGH3
LOW27 = GAME_LOW27
LOWA5 = GAME_LOWA5
ROW = GAME_ROW
ROW_MAX = HR_ROW_MAX

# Every value as a ready Python int, so a scalar call allocates nothing.
cdef tuple VALUES = tuple(range(HR_ROW_MAX + 1))


cdef Py_ssize_t read_ids(object hand, uint8_t* buf) except -1:
    """Copy the card ids of `hand` into buf[0..7] and return how many there are (may exceed 7).

    A tuple or list of ints is read directly; anything else (text, card strings, numpy ints) goes
    through handrank.cards.cards, which also raises the error that names a bad card."""
    cdef Py_ssize_t n, i
    cdef PyObject* item
    cdef long v
    cdef bint is_tuple = type(hand) is tuple
    if is_tuple or type(hand) is list:
        n = PyTuple_GET_SIZE(hand) if is_tuple else PyList_GET_SIZE(hand)
        if n <= 7:
            for i in range(n):
                item = PyTuple_GET_ITEM(hand, i) if is_tuple else PyList_GET_ITEM(hand, i)
                if not PyLong_CheckExact(item):
                    break
                v = hr_small_int(item)
                if v < 0 or v > 255:
                    break
                buf[i] = <uint8_t>v
            else:
                return n
    ids = _parse_cards(hand)
    n = len(ids)
    for i in range(min(n, 7)):
        buf[i] = ids[i]
    return n


cdef int explain_bad(object hand) except -1:
    _parse_cards(hand)      # raises ValueError naming the card
    raise AssertionError("a bad card went unnamed")   # pragma: no cover


cdef inline uint16_t value_of(uint64_t key, uint64_t mask, int game, int k) noexcept nogil:
    if game == GAME_HIGH:
        return high_value(key, mask, k)
    if game == GAME_LOWA5:
        return lowa5_value(key, k)
    if game == GAME_LOW27:
        return low27_value(key, mask)
    if game == GAME_ROW:
        return hr_row_of_high3[high3_value(key)] if k == 3 else hr_row_of_high[high_value(key, mask, 5)]
    return high3_value(key)


cdef inline object checked_value(object hand, const uint8_t* buf, int game, int k):
    """The value (a Python int) of the k cards in buf, read from `hand`; a bad card raises."""
    cdef uint64_t bad = 0
    cdef uint64_t mask = card_mask(buf, k, &bad)
    if bad:
        explain_bad(hand)
    return VALUES[value_of(key_sum(buf, k), mask, game, k)]


# Each scalar function passes a constant hand size, so each call compiles to unrolled sums.
@cython.binding(False)
@cython.always_allow_keywords(False)
def high_evaluate(hand):
    """Value 1..7462 of a 5-, 6- or 7-card high hand (higher is better)."""
    cdef uint8_t buf[7]
    cdef Py_ssize_t n = read_ids(hand, buf)
    if n == 7:
        return checked_value(hand, buf, GAME_HIGH, 7)
    if n == 5:
        return checked_value(hand, buf, GAME_HIGH, 5)
    if n == 6:
        return checked_value(hand, buf, GAME_HIGH, 6)
    raise ValueError(f"a high hand has 5, 6 or 7 cards, got {n}")


@cython.binding(False)
@cython.always_allow_keywords(False)
def high3_evaluate(hand):
    """Value 1..455 of a 3-card high hand (no straights or flushes; higher is better)."""
    cdef uint8_t buf[7]
    cdef Py_ssize_t n = read_ids(hand, buf)
    if n != 3:
        raise ValueError(f"a 3-card hand has 3 cards, got {n}")
    return checked_value(hand, buf, GAME_HIGH3, 3)


@cython.binding(False)
@cython.always_allow_keywords(False)
def low27_evaluate(hand):
    """Value 1..7462 of a 5-card 2-7 lowball hand (higher is the better low)."""
    cdef uint8_t buf[7]
    cdef Py_ssize_t n = read_ids(hand, buf)
    if n != 5:
        raise ValueError(f"a 2-7 lowball hand has 5 cards, got {n}")
    return checked_value(hand, buf, GAME_LOW27, 5)


@cython.binding(False)
@cython.always_allow_keywords(False)
def lowa5_evaluate(hand):
    """Value 1..6175 of the best A-5 low in 5, 6 or 7 cards (higher is the better low)."""
    cdef uint8_t buf[7]
    cdef Py_ssize_t n = read_ids(hand, buf)
    if n == 7:
        return checked_value(hand, buf, GAME_LOWA5, 7)
    if n == 5:
        return checked_value(hand, buf, GAME_LOWA5, 5)
    if n == 6:
        return checked_value(hand, buf, GAME_LOWA5, 6)
    raise ValueError(f"an A-5 lowball hand has 5, 6 or 7 cards, got {n}")


@cython.binding(False)
@cython.always_allow_keywords(False)
def row_evaluate(hand):
    """Value 1..7917 of a 3- or 5-card row on the scale that interleaves 3- and 5-card hands."""
    cdef uint8_t buf[7]
    cdef Py_ssize_t n = read_ids(hand, buf)
    if n == 3:
        return checked_value(hand, buf, GAME_ROW, 3)
    if n == 5:
        return checked_value(hand, buf, GAME_ROW, 5)
    raise ValueError(f"a row has 3 or 5 cards, got {n}")


# ----------------------------------------------------------------------------- batch loops
# The 5- to 7-card high and lowball loops are C, so that one copy can be compiled for popcnt (a
# function-level target attribute, which Cython cannot attach) and chosen at import when the CPU
# has it; wheels stay baseline x86-64 / arm64.
#
# Per card they do one 16-byte load and one 128-bit add from hr_card_hashes (the card's rank
# multiplier times the hash's C plus its suit counter, and its card bit, side by side; see
# tools/gen_tables.py), so a hand's sum is already its hash: no shift and no multiply per hand.
# A row's card ids come from one 8-byte load (the last row, which that load would overrun, from
# byte loads), several hands per iteration so the core overlaps their chains. Validation is one
# popcount per hand, summed: ids 52..255 add no bit and a repeated card carries, so every hand is
# k distinct valid cards exactly when the popcounts add up to k * n. docs/tables.md has the
# measurements and the throughput models behind each choice.
cdef extern from * nogil:
    """
    #include "_bits.h"
    /* hr_sums, HR_SUMS_* and HR_ROW_WORDS: _kernels.pxd */
    static inline uint16_t hr_high_of(uint64_t h, uint64_t bits, int k) { return hr_high_value_hashed(h, bits, k); }
    static inline uint16_t hr_lowa5_of(uint64_t h, uint64_t bits, int k) { (void)bits; return hr_lowa5_value_hashed(h, k); }
    static inline uint16_t hr_low27_of(uint64_t h, uint64_t bits, int k) { (void)k; return hr_low27_value_hashed(h, bits); }

    /* HR_MCA_BEGIN/END (_kernels.pxd) bracket the main loops for benchmarks/kernel_mca.py */
    /* Returns 0 when every hand was k distinct valid cards. Compiled twice by NAME: with SAVE
       constant 0 and 1, so that the loop without `saved` carries no test for it. H hands per
       iteration; the main loop stops one row early (i + H < n) so that no 8-byte row load reads
       past the last row. */
    #define HR_LOOP(NAME, K, H, VALUE, ATTR, POPCOUNT) \\
    ATTR static HR_FORCE_INLINE uint64_t NAME##_body(const uint8_t* __restrict c, Py_ssize_t n, \\
            uint16_t* __restrict out, uint16_t* __restrict saved, const int SAVE) { \\
        uint64_t bits_set = 0; \\
        Py_ssize_t i = 0; \\
        int j, h; \\
        for (; i + H < n; i += H, c += H * K) { \\
            HR_MCA_BEGIN(NAME) \\
            hr_sums s[H]; \\
            for (h = 0; h < H; h++) s[h] = HR_SUMS_START(); \\
            if (HR_ROW_WORDS) { \\
                uint64_t w[H]; \\
                for (h = 0; h < H; h++) memcpy(&w[h], c + h * K, 8); \\
                for (j = 0; j < K; j++) \\
                    for (h = 0; h < H; h++) s[h] = HR_SUMS_ADD_ROW(s[h], w[h], j); \\
            } else { \\
                for (j = 0; j < K; j++) \\
                    for (h = 0; h < H; h++) s[h] = HR_SUMS_ADD(s[h], c[h * K + j]); \\
            } \\
            if (SAVE) memcpy(saved + i, out + i, H * sizeof(uint16_t)); \\
            for (h = 0; h < H; h++) { \\
                bits_set += POPCOUNT(HR_SUMS_BITS(s[h])); \\
                out[i + h] = VALUE(HR_SUMS_KEY(s[h]), HR_SUMS_BITS(s[h]), K); \\
            } \\
            HR_MCA_END(NAME) \\
        } \\
        for (; i < n; i++, c += K) { \\
            hr_sums s = HR_SUMS_START(); \\
            for (j = 0; j < K; j++) s = HR_SUMS_ADD(s, c[j]); \\
            bits_set += POPCOUNT(HR_SUMS_BITS(s)); \\
            if (SAVE) saved[i] = out[i]; \\
            out[i] = VALUE(HR_SUMS_KEY(s), HR_SUMS_BITS(s), K); \\
        } \\
        return bits_set != (uint64_t)n * K; \\
    } \\
    ATTR static uint64_t NAME(const uint8_t* c, Py_ssize_t n, uint16_t* out, uint16_t* saved) { \\
        return saved ? NAME##_body(c, n, out, saved, 1) : NAME##_body(c, n, out, saved, 0); \\
    }
    /* hands per iteration, the best measured (docs/tables.md): 8 five-card hands, 6 of 6 or 7
       cards (8 seven-card hands ran out of SSE registers) */
    #define HR_LOOPS(SUFFIX, ATTR, POPCOUNT) \\
        HR_LOOP(hr_high5_##SUFFIX, 5, 8, hr_high_of, ATTR, POPCOUNT) \\
        HR_LOOP(hr_high6_##SUFFIX, 6, 6, hr_high_of, ATTR, POPCOUNT) \\
        HR_LOOP(hr_high7_##SUFFIX, 7, 6, hr_high_of, ATTR, POPCOUNT) \\
        HR_LOOP(hr_lowa5_5_##SUFFIX, 5, 8, hr_lowa5_of, ATTR, POPCOUNT) \\
        HR_LOOP(hr_lowa5_6_##SUFFIX, 6, 6, hr_lowa5_of, ATTR, POPCOUNT) \\
        HR_LOOP(hr_lowa5_7_##SUFFIX, 7, 6, hr_lowa5_of, ATTR, POPCOUNT) \\
        HR_LOOP(hr_low27_5_##SUFFIX, 5, 8, hr_low27_of, ATTR, POPCOUNT)

    HR_LOOPS(portable, , hr_popcount64)
    #if HR_HAVE_POPCNT
    HR_LOOPS(popcnt, HR_TARGET_POPCNT, hr_popcount64_popcnt)
    #else
    #define hr_high5_popcnt hr_high5_portable
    #define hr_high6_popcnt hr_high6_portable
    #define hr_high7_popcnt hr_high7_portable
    #define hr_lowa5_5_popcnt hr_lowa5_5_portable
    #define hr_lowa5_6_popcnt hr_lowa5_6_portable
    #define hr_lowa5_7_popcnt hr_lowa5_7_portable
    #define hr_low27_5_popcnt hr_low27_5_portable
    #endif
    """
    uint64_t hr_high5_portable(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_high6_portable(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_high7_portable(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_lowa5_5_portable(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_lowa5_6_portable(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_lowa5_7_portable(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_low27_5_portable(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_high5_popcnt(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_high6_popcnt(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_high7_popcnt(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_lowa5_5_popcnt(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_lowa5_6_popcnt(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_lowa5_7_popcnt(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)
    uint64_t hr_low27_5_popcnt(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*)


cdef inline uint64_t loop(int game, int k, const uint8_t* c, Py_ssize_t n, uint16_t* out) noexcept nogil:
    # The 3-card and row loops. Called with constant game and k (below), so each compiles to its
    # own specialised loop.
    cdef uint64_t bad = 0
    cdef uint64_t mask
    cdef Py_ssize_t i
    for i in range(n):
        mask = card_mask(c, k, &bad)
        out[i] = value_of(key_sum(c, k), mask, game, k)
        c += k
    return bad


ctypedef uint64_t (*loop_t)(const uint8_t*, Py_ssize_t, uint16_t*, uint16_t*) noexcept nogil

# One function per game and hand size, reached through a table of pointers. Called directly,
# gcc merged the loops of one hand size into a single copy that tested the game on every hand.
# These copy `saved` in one pass first: stores interleaved with the per-row loop measured 12-22%
# slower than the pass.
cdef uint64_t row3(const uint8_t* c, Py_ssize_t n, uint16_t* o, uint16_t* s) noexcept nogil:
    if s:
        memcpy(s, o, n * sizeof(uint16_t))
    return loop(GAME_ROW, 3, c, n, o)
cdef uint64_t row5(const uint8_t* c, Py_ssize_t n, uint16_t* o, uint16_t* s) noexcept nogil:
    if s:
        memcpy(s, o, n * sizeof(uint16_t))
    return loop(GAME_ROW, 5, c, n, o)
cdef uint64_t high3_3(const uint8_t* c, Py_ssize_t n, uint16_t* o, uint16_t* s) noexcept nogil:
    if s:
        memcpy(s, o, n * sizeof(uint16_t))
    return loop(GAME_HIGH3, 3, c, n, o)

cdef loop_t[5][8] LOOPS     # by game and hand size
LOOPS[GAME_ROW][3], LOOPS[GAME_ROW][5] = row3, row5
LOOPS[GAME_HIGH3][3] = high3_3


def set_batch_kernel(str name):
    """Use the "popcnt" or the "portable" 5- to 7-card loops (import picks popcnt where the CPU
    has it; tests and benchmarks switch to compare both)."""
    if name == "popcnt" and hr_cpu_has_popcnt():
        LOOPS[GAME_HIGH][5], LOOPS[GAME_HIGH][6], LOOPS[GAME_HIGH][7] = hr_high5_popcnt, hr_high6_popcnt, hr_high7_popcnt
        LOOPS[GAME_LOWA5][5], LOOPS[GAME_LOWA5][6], LOOPS[GAME_LOWA5][7] = hr_lowa5_5_popcnt, hr_lowa5_6_popcnt, hr_lowa5_7_popcnt
        LOOPS[GAME_LOW27][5] = hr_low27_5_popcnt
    elif name == "portable":
        LOOPS[GAME_HIGH][5], LOOPS[GAME_HIGH][6], LOOPS[GAME_HIGH][7] = hr_high5_portable, hr_high6_portable, hr_high7_portable
        LOOPS[GAME_LOWA5][5], LOOPS[GAME_LOWA5][6], LOOPS[GAME_LOWA5][7] = hr_lowa5_5_portable, hr_lowa5_6_portable, hr_lowa5_7_portable
        LOOPS[GAME_LOW27][5] = hr_low27_5_portable
    else:
        raise ValueError(f"no batch kernel {name!r} on this CPU")


def batch_kernel():
    """"popcnt" or "portable": which 5- to 7-card loops batch() runs."""
    return "popcnt" if LOOPS[GAME_HIGH][7] == hr_high7_popcnt and hr_cpu_has_popcnt() else "portable"


set_batch_kernel("popcnt" if hr_cpu_has_popcnt() else "portable")


def batch(int game, const uint8_t[:, ::1] cards, uint16_t[::1] out, uint16_t[::1] saved=None):
    """Evaluate every row of `cards` into `out` without the GIL. Returns -1, or the first bad row.
    With `saved`, each entry of `out` is copied there just before it is written, so that the
    caller can put `out` back after a bad row; the copy rides along with the table lookups
    instead of taking a pass over memory of its own.

    The caller (handrank._batch) has checked the shape and that len(out) == len(cards)."""
    cdef Py_ssize_t n = cards.shape[0]
    cdef uint16_t* keep = NULL
    cdef int k = <int>cards.shape[1]
    cdef const uint8_t* c
    cdef Py_ssize_t first_bad = -1
    cdef loop_t run = LOOPS[game][k] if 0 <= game < 5 and 0 <= k < 8 else NULL
    if run == NULL:
        raise ValueError(f"no batch loop for game {game} with {k} cards")
    if n == 0:
        return -1
    if saved is not None:
        if saved.shape[0] != n:
            raise ValueError(f"saved has {saved.shape[0]} entries for {n} rows")
        keep = &saved[0]
    c = &cards[0, 0]
    with nogil:
        if run(c, n, &out[0], keep):
            first_bad = first_bad_row(c, n, k)
    return first_bad


# ----------------------------------------------------------------------------- exhaustive counts
# Every count is a range of prefixes: the first two cards (a < b) numbered 0..1325 in the order
# the loops visit them, so a range of them is a piece of the enumeration that others can run.
PREFIXES = 1326


def high_count_all(int k):
    """How many k-card hands (k in 5..7) have each high value: an array of length 7463."""
    return high_count_range(k, 0, PREFIXES)


def high_count_range(int k, int lo, int hi):
    """high_count_all over the hands whose first two cards are prefixes lo..hi-1 (see PREFIXES)."""
    if not 0 <= lo <= hi <= PREFIXES:
        raise ValueError(f"prefix range must satisfy 0 <= lo <= hi <= {PREFIXES}, got {lo}..{hi}")
    counts = np.zeros(7463, dtype=np.int64)
    cdef int64_t[::1] view = counts
    with nogil:
        if k == 5:
            count5(&view[0], lo, hi)
        elif k == 6:
            count6(&view[0], lo, hi)
        else:
            count7(&view[0], lo, hi)
    return counts


# The enumerations keep, for each prefix of cards, its key, its mask and its rank hash (the hash
# multiply distributes over the sum, so adding a card adds its own hash). When no suit of the
# prefix holds enough cards to reach five, the last card is enumerated by rank, not by card.

cdef inline bint may_flush(uint64_t prefix_key, uint64_t cards_short) noexcept nogil:
    # cards_short * 0x1111 lifts every suit counter by the cards still to come
    return ((prefix_key + cards_short * 0x1111) & HR_FLUSH_BITS) != 0


cdef void count5(int64_t* counts, int lo, int hi) noexcept nogil:
    cdef int prefix = -1
    cdef int a, b, c, d, e
    cdef uint64_t kd, md, hd, key
    cdef uint64_t[52] keys, masks, hashes
    fill_card_hashes(keys, masks, hashes, HR_HASH5_MUL)
    for a in range(52):
        for b in range(a + 1, 52):
            prefix += 1
            if prefix < lo or prefix >= hi:
                continue
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    kd = HR_SUIT_COUNTER_START + keys[a] + keys[b] + keys[c] + keys[d]
                    md = masks[a] | masks[b] | masks[c] | masks[d]
                    hd = hashes[a] + hashes[b] + hashes[c] + hashes[d]
                    if may_flush(kd, 1):
                        for e in range(d + 1, 52):
                            key = kd + keys[e]
                            if key & HR_FLUSH_BITS:
                                counts[flush_value(key, md | masks[e])] += 1
                            else:
                                counts[hr_high5[slot5(hd + hashes[e])]] += 1
                    else:
                        by_rank_after(counts, 5, d, hd, hashes)


cdef void count6(int64_t* counts, int lo, int hi) noexcept nogil:
    cdef int prefix = -1
    cdef int a, b, c, d, e, f
    cdef uint64_t kd, md, hd, ke, me, he, key
    cdef uint64_t[52] keys, masks, hashes
    fill_card_hashes(keys, masks, hashes, HR_HASH6_MUL)
    for a in range(52):
        for b in range(a + 1, 52):
            prefix += 1
            if prefix < lo or prefix >= hi:
                continue
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    kd = HR_SUIT_COUNTER_START + keys[a] + keys[b] + keys[c] + keys[d]
                    md = masks[a] | masks[b] | masks[c] | masks[d]
                    hd = hashes[a] + hashes[b] + hashes[c] + hashes[d]
                    for e in range(d + 1, 52):
                        ke = kd + keys[e]
                        me = md | masks[e]
                        he = hd + hashes[e]
                        if may_flush(ke, 1):
                            for f in range(e + 1, 52):
                                key = ke + keys[f]
                                if key & HR_FLUSH_BITS:
                                    counts[flush_value(key, me | masks[f])] += 1
                                else:
                                    counts[hr_high6[slot6(he + hashes[f])]] += 1
                        else:
                            by_rank_after(counts, 6, e, he, hashes)


cdef void count7(int64_t* counts, int lo, int hi) noexcept nogil:
    cdef int prefix = -1
    cdef int a, b, c, d, e, f, g
    cdef uint64_t kd, md, hd, ke, me, he, kf, mf, hf, key
    cdef uint64_t[52] keys, masks, hashes
    fill_card_hashes(keys, masks, hashes, HR_HASH7_MUL)
    for a in range(52):
        for b in range(a + 1, 52):
            prefix += 1
            if prefix < lo or prefix >= hi:
                continue
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    kd = HR_SUIT_COUNTER_START + keys[a] + keys[b] + keys[c] + keys[d]
                    md = masks[a] | masks[b] | masks[c] | masks[d]
                    hd = hashes[a] + hashes[b] + hashes[c] + hashes[d]
                    for e in range(d + 1, 52):
                        ke = kd + keys[e]
                        me = md | masks[e]
                        he = hd + hashes[e]
                        if not may_flush(ke, 2):
                            pairs_by_rank_after(counts, e, he, hashes)
                            continue
                        for f in range(e + 1, 52):
                            kf = ke + keys[f]
                            mf = me | masks[f]
                            hf = he + hashes[f]
                            if may_flush(kf, 1):
                                for g in range(f + 1, 52):
                                    key = kf + keys[g]
                                    if key & HR_FLUSH_BITS:
                                        counts[flush_value(key, mf | masks[g])] += 1
                                    else:
                                        counts[hr_high7[slot7(hf + hashes[g])]] += 1
                            else:
                                by_rank_after(counts, 7, f, hf, hashes)


cdef inline void by_rank_after(int64_t* counts, int k, int last, uint64_t prefix_hash,
                               const uint64_t* hashes) noexcept nogil:
    # Counts every hand of the prefix plus one card after `last` when none can be a flush. Then
    # only the added card's rank matters: look each rank up once, weighted by its cards left
    # (the rest of last's rank, then four of every higher rank).
    cdef int r = last >> 2
    cdef int64_t weight = 3 - (last & 3)
    cdef uint64_t h
    while r < 13:
        if weight:
            h = prefix_hash + hashes[4 * r]
            if k == 7:
                counts[hr_high7[slot7(h)]] += weight
            elif k == 6:
                counts[hr_high6[slot6(h)]] += weight
            else:
                counts[hr_high5[slot5(h)]] += weight
        r += 1
        weight = 4


cdef inline void pairs_by_rank_after(int64_t* counts, int last, uint64_t prefix_hash,
                                     const uint64_t* hashes) noexcept nogil:
    # The same for the last two of 7 cards: each pair of ranks once, weighted by how many pairs
    # of cards after `last` have those ranks.
    cdef int64_t left[13]
    cdef int r, q
    for r in range(13):
        left[r] = 4 if r > last >> 2 else 0
    left[last >> 2] = 3 - (last & 3)
    for r in range(last >> 2, 13):
        if left[r] >= 2:
            counts[hr_high7[slot7(prefix_hash + 2 * hashes[4 * r])]] += left[r] * (left[r] - 1) // 2
        if left[r]:
            for q in range(r + 1, 13):
                counts[hr_high7[slot7(prefix_hash + hashes[4 * r] + hashes[4 * q])]] += left[r] * left[q]


cdef inline void fill_card_hashes(uint64_t* keys, uint64_t* masks, uint64_t* hashes, uint64_t mul) noexcept nogil:
    cdef int c
    for c in range(52):
        keys[c] = hr_card_key[c]
        masks[c] = hr_card_mask[c]
        hashes[c] = rank_hash(hr_card_key[c], mul)


# ----------------------------------------------------------------------------- class tables
def high_class(int value):
    """(category, ranks) of a high value; ranks most significant first, 0 = deuce .. 12 = ace."""
    return unpack(hr_high_class[value])

def low27_class(int value):
    return unpack(hr_low27_class[value])

def lowa5_class(int value):
    return unpack(hr_lowa5_class[value])

def high3_class(int value):
    return unpack(hr_high3_class[value])

def row_of_high(int value):
    return hr_row_of_high[value]

def row_of_high3(int value):
    return hr_row_of_high3[value]

def lowa5_qualify8():
    return HR_LOWA5_QUALIFY8


cdef tuple unpack(uint32_t packed):
    # layout: rank count << 24 | category << 20 | ranks, 4 bits each, most significant first
    return (packed >> 20) & 0xF, tuple([(packed >> (16 - 4 * i)) & 0xF for i in range(packed >> 24)])
