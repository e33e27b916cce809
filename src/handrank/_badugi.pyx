# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled badugi kernel: a hand's value read from a generated table by the colex index of its
four sorted card ids (tools/gen_tables.py, one table per ordering).

The loop works on blocks of hands in plain C loops shaped for the compiler's vectorizer: the four
ids of a block are sorted lane by lane with a min/max network (which also validates them: after
sorting, a repeated card is two equal neighbours and an id past 51 is the largest), the colex
index is computed in 16-bit arithmetic, and only the table reads are scalar.
"""
from libc.string cimport memcpy
from libc.stdint cimport uint8_t, uint16_t, uint32_t
from handrank._kernels cimport first_bad_row

cdef extern from "handrank_badugi_tables.h" nogil:
    const uint16_t hr_badugi_ace_low[]
    const uint16_t hr_badugi_ace_high[]

cdef extern from * nogil:
    """
    /* Hands per block: enough lanes for the vectorizer, small enough for registers and L1. */
    #define HR_BADUGI_BLOCK 64

    /* Sorts the four ids of each hand of a block of HR_BADUGI_BLOCK hands and writes their colex
       index a + C(b,2) + C(c,3) + C(d,4) into `index`; non-zero when a hand repeats a card or has
       an id past 51. Bad ids are clamped to 51 first, so every index stays inside the table. */
    static inline unsigned hr_badugi_block(const uint8_t* c, uint32_t* index) {
        uint8_t a[HR_BADUGI_BLOCK], b[HR_BADUGI_BLOCK], x[HR_BADUGI_BLOCK], d[HR_BADUGI_BLOCK];
        uint8_t bad = 0;
        int j;
        for (j = 0; j < HR_BADUGI_BLOCK; j++) {
            uint8_t p = c[4 * j], q = c[4 * j + 1], r = c[4 * j + 2], s = c[4 * j + 3], t;
            t = p < q ? p : q; q = p < q ? q : p; p = t;
            t = r < s ? r : s; s = r < s ? s : r; r = t;
            t = p < r ? p : r; r = p < r ? r : p; p = t;
            t = q < s ? q : s; s = q < s ? s : q; q = t;
            t = q < r ? q : r; r = q < r ? r : q; q = t;
            bad |= (s > 51) | (p == q) | (q == r) | (r == s);
            a[j] = p < 51 ? p : 51; b[j] = q < 51 ? q : 51;
            x[j] = r < 51 ? r : 51; d[j] = s < 51 ? s : 51;
        }
        for (j = 0; j < HR_BADUGI_BLOCK; j++) {
            /* C(n,3) = C(n,2) (n-2) / 3 and C(n,4) = C(n,3) (n-3) / 4: the products of ids up to
               51 fit 16 bits up to C(n,3), and x / 3 = (x * 0xAAAB) >> 17 for every 16-bit x */
            uint16_t q = b[j], r = x[j], s = d[j];
            uint16_t q2 = (uint16_t)(q * (q - 1)) >> 1;
            uint16_t r2 = (uint16_t)(r * (r - 1)) >> 1;
            uint16_t r3 = (uint16_t)(((uint32_t)(uint16_t)(r2 * (uint16_t)(r - 2)) * 0xAAABu) >> 16) >> 1;
            uint16_t s2 = (uint16_t)(s * (s - 1)) >> 1;
            uint16_t s3 = (uint16_t)(((uint32_t)(uint16_t)(s2 * (uint16_t)(s - 2)) * 0xAAABu) >> 16) >> 1;
            uint32_t s4 = ((uint32_t)s3 * (uint16_t)(s - 3)) >> 2;
            index[j] = (uint16_t)(a[j] + q2 + r3) + s4;
        }
        return bad;
    }

    /* Values of n hands into out; non-zero when some hand is bad. The last partial block is
       evaluated from a copy padded with a valid hand. */
    static unsigned hr_badugi_loop(const uint8_t* c, Py_ssize_t n, uint16_t* out, const uint16_t* table) {
        uint32_t index[HR_BADUGI_BLOCK];
        uint8_t tail[4 * HR_BADUGI_BLOCK];
        unsigned bad = 0;
        Py_ssize_t i = 0, rest;
        int j;
        for (; i + HR_BADUGI_BLOCK <= n; i += HR_BADUGI_BLOCK) {
            bad |= hr_badugi_block(c + 4 * i, index);
            for (j = 0; j < HR_BADUGI_BLOCK; j++)
                out[i + j] = table[index[j]];
        }
        rest = n - i;
        if (rest > 0) {
            for (j = 0; j < 4 * HR_BADUGI_BLOCK; j++)
                tail[j] = (uint8_t)(j & 3);
            memcpy(tail, c + 4 * i, (size_t)(4 * rest));
            bad |= hr_badugi_block(tail, index);
            for (j = 0; j < rest; j++)
                out[i + j] = table[index[j]];
        }
        return bad;
    }
    """
    unsigned hr_badugi_loop(const uint8_t* c, Py_ssize_t n, uint16_t* out, const uint16_t* table)

MAX_VALUE = 1092        # 13 + 78 + 286 + 715 rank sets


cdef inline const uint16_t* table_of(bint ace_low) noexcept nogil:
    if ace_low:
        return &hr_badugi_ace_low[0]
    return &hr_badugi_ace_high[0]


def batch(bint ace_low, const uint8_t[:, ::1] cards, uint16_t[::1] out, uint16_t[::1] saved=None):
    """Evaluate every 4-card row of `cards` into `out` without the GIL; -1 or the first bad row.
    With `saved`, `out` is copied there first (handrank._batch puts it back after a bad row)."""
    cdef Py_ssize_t n = cards.shape[0]
    cdef Py_ssize_t bad_row = -1
    cdef const uint8_t* c
    cdef uint16_t* o
    cdef const uint16_t* table = table_of(ace_low)
    if cards.shape[1] != 4 or out.shape[0] != n:
        raise ValueError(f"badugi rows have 4 cards and one value each, got {cards.shape[1]} cards, {out.shape[0]} values")
    if n == 0:
        return -1
    if saved is not None:
        if saved.shape[0] != n:
            raise ValueError(f"saved has {saved.shape[0]} entries for {n} rows")
        memcpy(&saved[0], &out[0], n * sizeof(uint16_t))
    c = &cards[0, 0]
    o = &out[0]
    with nogil:
        if hr_badugi_loop(c, n, o, table):
            bad_row = first_bad_row(c, n, 4)
    return bad_row


def evaluate_ids(bint ace_low, const uint8_t[::1] hand):
    """The value of four checked card ids."""
    cdef uint16_t value
    if hand.shape[0] != 4:
        raise ValueError(f"a badugi hand has 4 cards, got {hand.shape[0]}")
    if hr_badugi_loop(&hand[0], 1, &value, table_of(ace_low)):
        raise ValueError("a badugi hand has four distinct card ids 0..51")
    return value
