# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled core of handrank.bigtwo: the key of one play, the batch loop and move enumeration.

Every ruleset is a `Tables` object built once by handrank._bigtwo_tables. A five-card play is first
reduced to its high-hand class (1..7462, the same perfect hash the poker evaluators use), which
fixes the rank multiset and whether the cards are suited; per class the tables give the key base,
the card rank whose suit breaks ties (or "any card", for flushes) and the weight of that suit:

    key = base[class] + weight[class] * max(suit of each card that has the tie-break rank)

Singles, pairs, triples and bare quads are keyed directly from each card's Big Two rank and suit.
"""
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint64_t
from handrank._tables cimport *
from handrank._kernels cimport sums_t, card_sums, high_of

import numpy as np

# Selector meaning "the suit of any card" (flushes: all five share it); 14 picks nothing.
ANY_CARD = 13


cdef class Tables:
    """The lookup tables of one ruleset (arrays built by handrank._bigtwo_tables)."""
    cdef readonly object arrays
    cdef const uint8_t* rank      # [52] Big Two rank 0 (three) .. 12 (two)
    cdef const uint8_t* suit      # [52] Big Two suit 0 (lowest) .. 3
    cdef const uint8_t* pick      # [52 * 16] suit of card c under selector s, else 0
    cdef const int32_t* base      # [7463] per high class
    cdef const int32_t* weight    # [7463]
    cdef const uint8_t* selector  # [7463]
    cdef bint four_alone

    def __init__(self, const uint8_t[::1] rank, const uint8_t[::1] suit, const uint8_t[::1] pick,
                 const int32_t[::1] base, const int32_t[::1] weight, const uint8_t[::1] selector,
                 bint four_alone):
        if rank.shape[0] != 52 or suit.shape[0] != 52 or pick.shape[0] != 52 * 16:
            raise ValueError("card tables must have 52 entries (pick: 52 * 16)")
        if base.shape[0] != 7463 or weight.shape[0] != 7463 or selector.shape[0] != 7463:
            raise ValueError("class tables must have 7463 entries")
        # keep the buffers alive: the pointers below point into them
        self.arrays = (rank.base, suit.base, pick.base, base.base, weight.base, selector.base)
        self.rank = &rank[0]
        self.suit = &suit[0]
        self.pick = &pick[0]
        self.base = &base[0]
        self.weight = &weight[0]
        self.selector = &selector[0]
        self.four_alone = four_alone


cdef inline int32_t five_key(Tables t, const uint8_t* c, uint16_t cls) noexcept nogil:
    cdef int32_t w = t.weight[cls]
    if w == 0:
        return t.base[cls]
    cdef const uint8_t* p = t.pick + t.selector[cls]
    cdef uint8_t m = p[16 * c[0]]
    m = max(m, p[16 * c[1]])
    m = max(m, p[16 * c[2]])
    m = max(m, p[16 * c[3]])
    m = max(m, p[16 * c[4]])
    return t.base[cls] + w * m


cdef inline int32_t key_of(Tables t, const uint8_t* c, int k) noexcept nogil:
    """Key of k valid, distinct cards (0: no combo)."""
    cdef sums_t s
    if k == 5:
        s = card_sums(c, 5)
        return five_key(t, c, high_of(s, 5))
    if k == 1:
        return 1 + 4 * t.rank[c[0]] + t.suit[c[0]]
    if k == 2:
        if (c[0] >> 2) != (c[1] >> 2):
            return 0
        return 1 + 4 * t.rank[c[0]] + max(t.suit[c[0]], t.suit[c[1]])
    if k == 3:
        if (c[0] >> 2) != (c[1] >> 2) or (c[0] >> 2) != (c[2] >> 2):
            return 0
        return 1 + t.rank[c[0]]
    if k == 4 and t.four_alone:
        if (c[0] >> 2) != (c[1] >> 2) or (c[0] >> 2) != (c[2] >> 2) or (c[0] >> 2) != (c[3] >> 2):
            return 0
        return 1 + t.rank[c[0]]
    return 0


cdef inline uint64_t loop5(Tables t, const uint8_t* c, Py_ssize_t n, int32_t* out) noexcept nogil:
    cdef uint64_t bad = 0
    cdef Py_ssize_t i
    cdef sums_t s
    for i in range(n):
        s = card_sums(c + 5 * i, 5)
        bad |= s.bad
        out[i] = five_key(t, c + 5 * i, high_of(s, 5))
    return bad


cdef Py_ssize_t first_bad_row(const uint8_t* c, Py_ssize_t n, int k) noexcept nogil:
    cdef Py_ssize_t i
    cdef int j
    cdef uint64_t seen
    for i in range(n):
        seen = 0
        for j in range(k):
            if c[i * k + j] >= 52 or (seen >> c[i * k + j]) & 1:
                return i
            seen |= (<uint64_t>1) << c[i * k + j]
    return -1


def batch(Tables t, const uint8_t[:, ::1] cards, int32_t[::1] out):
    """Key of every row of `cards` into `out`, without the GIL. Returns -1, or the first bad row.

    The caller (handrank.bigtwo) has checked the shape and that len(out) == len(cards)."""
    cdef Py_ssize_t n = cards.shape[0]
    cdef int k = <int>cards.shape[1]
    cdef Py_ssize_t i
    cdef uint64_t bad = 0
    cdef const uint8_t* c
    cdef int32_t* o
    cdef Py_ssize_t first_bad = -1
    if n == 0:
        return -1
    c = &cards[0, 0]
    o = &out[0]
    with nogil:
        if k == 5:
            bad = loop5(t, c, n, o)
        else:
            for i in range(n):
                bad |= card_sums(c + k * i, k).bad
                o[i] = key_of(t, c + k * i, k)
        if bad:
            first_bad = first_bad_row(c, n, k)
    return first_bad


def key(Tables t, const uint8_t[::1] cards):
    """Key of one play of 1 to 5 valid, distinct cards (checked by the caller); 0: no combo."""
    return key_of(t, &cards[0], <int>cards.shape[0])


# ----------------------------------------------------------------------------- legal moves
cdef inline Py_ssize_t emit(uint8_t* out_cards, uint8_t* out_size, int32_t* out_key, Py_ssize_t m,
                            const uint8_t* c, int k, int32_t key) noexcept nogil:
    cdef int j
    for j in range(k):
        out_cards[5 * m + j] = c[j]
    for j in range(k, 5):
        out_cards[5 * m + j] = 255
    out_size[m] = k
    out_key[m] = key
    return m + 1


cdef Py_ssize_t enumerate_moves(Tables t, const uint8_t* h, int n, int want, int32_t above,
                                uint64_t must, uint8_t* oc, uint8_t* osz, int32_t* ok) noexcept nogil:
    """Every combo of the hand h[0..n) (sorted by card id) of size `want` (0: any size) with a key
    above `above` that holds a card of `must` (0: no constraint). Returns how many were written."""
    cdef Py_ssize_t m = 0
    cdef int a, b, c, d, e, k
    cdef int32_t kk
    cdef uint8_t buf[5]
    cdef uint64_t bit[64]
    cdef uint64_t ka, kb, kc, kd, ma, mb, mc, md
    cdef uint64_t fd
    cdef sums_t s
    for a in range(n):
        bit[a] = (<uint64_t>1) << h[a]
    for k in range(1, 6):
        if want and k != want:
            continue
        if k == 1:
            for a in range(n):
                if must and not (bit[a] & must):
                    continue
                kk = key_of(t, h + a, 1)
                if kk > above:
                    m = emit(oc, osz, ok, m, h + a, 1, kk)
        elif k < 5:
            # cards of one rank are adjacent in a hand sorted by id
            for a in range(n):
                buf[0] = h[a]
                for b in range(a + 1, n):
                    if (h[b] >> 2) != (h[a] >> 2):
                        break
                    buf[1] = h[b]
                    if k == 2:
                        kk = key_of(t, buf, 2)
                        if kk > above and (not must or (bit[a] | bit[b]) & must):
                            m = emit(oc, osz, ok, m, buf, 2, kk)
                        continue
                    for c in range(b + 1, n):
                        if (h[c] >> 2) != (h[a] >> 2):
                            break
                        buf[2] = h[c]
                        if k == 3:
                            kk = key_of(t, buf, 3)
                            if kk > above and (not must or (bit[a] | bit[b] | bit[c]) & must):
                                m = emit(oc, osz, ok, m, buf, 3, kk)
                            continue
                        for d in range(c + 1, n):
                            if (h[d] >> 2) != (h[a] >> 2):
                                break
                            buf[3] = h[d]
                            kk = key_of(t, buf, 4)
                            if kk > above and (not must or (bit[a] | bit[b] | bit[c] | bit[d]) & must):
                                m = emit(oc, osz, ok, m, buf, 4, kk)
        else:
            for a in range(n):
                ka = HR_SUIT_COUNTER_START + hr_card_key[h[a]]
                ma = hr_card_mask[h[a]]
                buf[0] = h[a]
                for b in range(a + 1, n):
                    kb = ka + hr_card_key[h[b]]
                    mb = ma | hr_card_mask[h[b]]
                    buf[1] = h[b]
                    for c in range(b + 1, n):
                        kc = kb + hr_card_key[h[c]]
                        mc = mb | hr_card_mask[h[c]]
                        buf[2] = h[c]
                        for d in range(c + 1, n):
                            kd = kc + hr_card_key[h[d]]
                            md = mc | hr_card_mask[h[d]]
                            buf[3] = h[d]
                            fd = bit[a] | bit[b] | bit[c] | bit[d]
                            for e in range(d + 1, n):
                                if must and not ((fd | bit[e]) & must):
                                    continue
                                s.key = kd + hr_card_key[h[e]]
                                s.mask = md | hr_card_mask[h[e]]
                                buf[4] = h[e]
                                kk = five_key(t, buf, high_of(s, 5))
                                if kk > above:
                                    m = emit(oc, osz, ok, m, buf, 5, kk)
    return m


cdef Py_ssize_t choose(int n, int k) noexcept nogil:
    cdef Py_ssize_t r = 1
    cdef int i
    if k > n:
        return 0
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


def moves(Tables t, const uint8_t[::1] hand, int want, int above, uint64_t must):
    """(cards (M, 5) uint8 padded with 255, sizes (M,) uint8, keys (M,) int32) of every combo of
    `hand` (valid, distinct, sorted ids; checked by the caller) of size `want` (0: every size)
    with a key above `above` that holds a card of the bit set `must` (0: any)."""
    cdef int n = <int>hand.shape[0]
    cdef Py_ssize_t cap = 0, m
    cdef int k
    for k in range(1, 6):
        if not want or k == want:
            cap += choose(n, k)
    cards = np.empty((max(cap, 1), 5), dtype=np.uint8)
    sizes = np.empty(max(cap, 1), dtype=np.uint8)
    keys = np.empty(max(cap, 1), dtype=np.int32)
    cdef uint8_t[:, ::1] cv = cards
    cdef uint8_t[::1] sv = sizes
    cdef int32_t[::1] kv = keys
    if n == 0:
        return cards[:0], sizes[:0], keys[:0]
    with nogil:
        m = enumerate_moves(t, &hand[0], n, want, above, must, &cv[0, 0], &sv[0], &kv[0])
    return cards[:m], sizes[:m], keys[:m]
