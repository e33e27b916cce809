# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled core of handrank.bigtwo: the key of one play, the batch loop and move enumeration.

Every ruleset is a `Tables` object built once by handrank.bigtwo.tables. A five-card play is
hashed as the poker evaluators hash it (the perfect hash of its rank multiset, or the rank bit set
of a flush), which fixes the rank multiset and whether the cards are suited. Python builds one
32-bit entry per high-hand class (1..7462); Tables re-indexes them by hash slot and by flush rank
set. An entry gives the key base, the card rank whose suit breaks ties (or "any card", for
flushes) and the shift of that suit:

    key = base + (max(suit of each card that has the tie-break rank) << shift)

Singles, pairs, triples, bare quads, four-card two pairs and runs (three cards, or 6 to 13 where
the rules allow long runs) are keyed directly from each card's Big Two rank and suit.

The batch loop keys a five-card row in full only when the OR of its card bits shows it may be a
combo (see check5): about 1 random row in 130.
"""
cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, qsort, realloc
from libc.string cimport memset
from handrank._bits cimport hr_ctz64
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_New, PyTuple_SET_ITEM
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.object cimport PyObject, PyTypeObject
from handrank._tables cimport *
from handrank._ints cimport PyLong_CheckExact, hr_small_int
from handrank._kernels cimport card_mask, first_bad_row, key_sum, rank_hash, slot5

import numpy as np

from handrank.cards import cards as _parse_cards

cdef extern from "Python.h":
    object PyType_GenericAlloc(PyTypeObject*, Py_ssize_t)


ctypedef struct rules_t:
    const uint8_t* rank         # [52] Big Two rank 0 (three) .. 12 (two)
    const uint8_t* suit         # [52] Big Two suit 0 (lowest) .. 3
    const uint8_t* pick         # [256 * 16] suit of card c under selector s, else 0 (a bad
                                #   row is keyed before it is rejected: every byte has a row)
    uint32_t* by_slot           # class entry by perfect-hash slot of a 5-card rank multiset
    uint32_t by_flush[8192]     # class entry of a 5-card flush by its rank bit set
    const uint32_t* classes     # [7463] per high class: base (27 bits) | selector << 27 | 1 << 31
                                #   when the suit counts 2**20 (flushes compared suit first)
    bint four_alone
    bint two_pair                # two pairs plus a card (or sisters), a five-card combo
    bint trips                   # a triple and two odd cards, a five-card combo
    bint runs3                   # three cards of consecutive ranks, keyed from 1 << 24 up
    bint two_pair4               # two pairs alone, a four-card combo below the bare fours
    bint bare_triples            # a triple alone is a play (else only inside five cards)
    bint pair_runs               # 3 to 12 pairs of consecutive ranks below the 2 (smack-downs)
    int32_t four_base            # added to a bare four's key: 52 above the four-card two pairs
    uint16_t run_sizes           # bit k set: k cards of consecutive ranks (6 <= k <= 13) are a play
    int width                    # the most cards a play may have (5, or the longest run)
    int n_straights
    uint16_t straight_masks[13]  # card-rank bit sets of the straights
    uint8_t is_straight[8192]    # by card-rank bit set
    uint8_t may_combine[8192]    # by the bit set of the ranks 5 unsuited cards hold: 1 if some
                                 #   such hand is a combo (straights, full houses, fours, ...)
    uint64_t other_suits[256]    # by card id: the card-mask bits of the other suits (0 for a bad
                                 #   id, whose row is an error anyway)


# The default ruleset's class table, built by tools/gen_tables.py, and the ruleset facts it was
# built for (handrank.bigtwo.classes.signature).
BUILT_IN_SIGNATURE = HR_BIGTWO_DEFAULT_SIGNATURE.decode()

def built_in_classes():
    """The default ruleset's 7463 class entries, as bytes of native uint32."""
    return (<const char*>hr_bigtwo_default_classes)[:7463 * sizeof(uint32_t)]


@cython.auto_pickle(False)
cdef class Tables:
    """The lookup tables of one ruleset (arrays built by handrank.bigtwo.tables)."""
    cdef readonly object arrays
    cdef rules_t c

    def __dealloc__(self):
        free(self.c.by_slot)

    def __init__(self, const uint8_t[::1] rank, const uint8_t[::1] suit, const uint8_t[::1] pick,
                 const uint32_t[::1] classes,
                 bint four_alone, bint two_pair, straight_masks, bint two_pair4=False, bint trips=False,
                 bint runs3=False, run_sizes=(), bint bare_triples=True, bint pair_runs=False):
        if rank.shape[0] != 52 or suit.shape[0] != 52 or pick.shape[0] != 256 * 16:
            raise ValueError("card tables must have 52 entries (pick: 256 * 16)")
        if classes.shape[0] != 7463:
            raise ValueError("the class table must have 7463 entries")
        # keep the buffers alive: the pointers below point into them
        self.arrays = (rank.base, suit.base, pick.base, classes.base)
        self.c.rank = &rank[0]
        self.c.suit = &suit[0]
        self.c.pick = &pick[0]
        self.c.classes = &classes[0]
        # Skip the high-hand class on the hot path: index the entries by hash slot directly.
        self.c.by_slot = <uint32_t*>malloc((HR_HASH5_SLOT_MASK + 1) * sizeof(uint32_t))
        if self.c.by_slot == NULL:
            raise MemoryError()
        for i in range(HR_HASH5_SLOT_MASK + 1):
            self.c.by_slot[i] = classes[hr_high5[i]]
        for i in range(8192):
            self.c.by_flush[i] = classes[hr_flush[i]]
        self.c.four_alone = four_alone
        self.c.two_pair = two_pair
        self.c.two_pair4 = two_pair4
        self.c.trips = trips
        self.c.runs3 = runs3
        self.c.bare_triples = bare_triples
        self.c.pair_runs = pair_runs
        self.c.four_base = 52 if two_pair4 else 0
        self.c.run_sizes = 0
        self.c.width = 5
        for k in run_sizes:
            if not 6 <= k <= 13:
                raise ValueError("a long run has 6 to 13 cards")
            self.c.run_sizes |= 1 << k
            self.c.width = max(self.c.width, k)
        if pair_runs:
            if run_sizes:
                raise ValueError("pair runs and long runs share their sizes: one or the other")
            self.c.width = 24
        if len(straight_masks) > 13:
            raise ValueError("at most 13 straights")
        self.c.n_straights = len(straight_masks)
        memset(self.c.is_straight, 0, 8192)
        for i, mask in enumerate(straight_masks):
            self.c.straight_masks[i] = mask
            self.c.is_straight[mask] = 1
        mark_rank_sets(&self.c)
        memset(self.c.other_suits, 0, sizeof(self.c.other_suits))
        cdef uint64_t lane
        for card in range(52):
            lane = 0xFFFF                   # a card's mask is one bit in the lane of its suit
            while not (hr_card_mask[card] & lane):
                lane <<= 16
            self.c.other_suits[card] = ~lane


cdef void mark_rank_sets(rules_t* t) noexcept:
    """Fill t.may_combine: key every multiset of 5 ranks as cards of mixed suits."""
    cdef uint8_t hand[5]
    cdef int r[5]
    cdef int j
    cdef uint16_t ranks
    memset(t.may_combine, 0, 8192)
    for r[0] in range(13):
        for r[1] in range(r[0], 13):
            for r[2] in range(r[1], 13):
                for r[3] in range(r[2], 13):
                    for r[4] in range(r[3], 13):
                        if r[0] == r[4]:
                            continue                # five of a rank: no such hand
                        ranks = 0
                        for j in range(5):
                            # suits 0, 1, 2, 3, 0: never one suit, and distinct cards, since
                            # equal ranks are consecutive and at most 4 long
                            hand[j] = 4 * r[j] + j % 4
                            ranks |= 1 << r[j]
                        if key_of(t, hand, 5):
                            t.may_combine[ranks] = 1


cdef inline uint32_t class_entry(const rules_t* t, uint64_t key, uint64_t mask) noexcept nogil:
    # 5 suited cards hold one suit only: OR-ing the four 16-bit suit lanes gives their ranks
    if key & HR_FLUSH_BITS:
        return t.by_flush[(mask | mask >> 16 | mask >> 32 | mask >> 48) & 0x1fff]
    return t.by_slot[slot5(rank_hash(key, HR_HASH5_MUL))]


cdef inline int32_t five_key(const rules_t* t, const uint8_t* c, uint32_t info) noexcept nogil:
    cdef uint32_t selector = (info >> 27) & 0xF
    cdef int32_t base = info & 0x7FFFFFF
    if selector == 0:                     # no tie-break suit (or no combo): the base is the key
        return base
    cdef const uint8_t* p = t.pick + selector
    cdef uint8_t m = p[16 * c[0]]
    m = max(m, p[16 * c[1]])
    m = max(m, p[16 * c[2]])
    m = max(m, p[16 * c[3]])
    m = max(m, p[16 * c[4]])
    return base + (<int32_t>m << (20 * (info >> 31)))


cdef inline int32_t key_of(const rules_t* t, const uint8_t* c, int k) noexcept nogil:
    """Key of k valid, distinct cards (0: no combo)."""
    cdef uint64_t checked_already = 0
    if k == 5:
        return five_key(t, c, class_entry(t, key_sum(c, 5), card_mask(c, 5, &checked_already)))
    if k == 1:
        return 1 + 4 * t.rank[c[0]] + t.suit[c[0]]
    if k == 2:
        if (c[0] >> 2) != (c[1] >> 2):
            return 0
        return 1 + 4 * t.rank[c[0]] + max(t.suit[c[0]], t.suit[c[1]])
    if k == 3:
        if (c[0] >> 2) == (c[1] >> 2) and (c[0] >> 2) == (c[2] >> 2):
            return 1 + t.rank[c[0]] if t.bare_triples else 0
        return run3_key(t, c) if t.runs3 else 0
    if k == 4:
        if (c[0] >> 2) == (c[1] >> 2) and (c[0] >> 2) == (c[2] >> 2) and (c[0] >> 2) == (c[3] >> 2):
            return 1 + t.four_base + t.rank[c[0]] if t.four_alone else 0
        if not t.two_pair4:
            return 0
        # two pairs, in any order of the four cards: c[0] pairs with c[1], c[2] or c[3]
        if (c[0] >> 2) == (c[1] >> 2) and (c[2] >> 2) == (c[3] >> 2):
            return two_pair4_key(t, c[0], c[1], c[2], c[3])
        if (c[0] >> 2) == (c[2] >> 2) and (c[1] >> 2) == (c[3] >> 2):
            return two_pair4_key(t, c[0], c[2], c[1], c[3])
        if (c[0] >> 2) == (c[3] >> 2) and (c[1] >> 2) == (c[2] >> 2):
            return two_pair4_key(t, c[0], c[3], c[1], c[2])
    if k >= 6:
        return pair_run_key(t, c, k) if t.pair_runs else long_run_key(t, c, k)
    return 0


cdef inline int32_t pair_run_key(const rules_t* t, const uint8_t* c, int k) noexcept nogil:
    """Key of k = 6, 8 .. 24 cards that are pairs of consecutive Big Two ranks below the 2 (0
    else): the key of the top pair, as pairs are keyed."""
    cdef int held[13]
    cdef int j, r, low = 12, high = 0, top_suit = 0
    if k & 1 or k > 24:
        return 0
    memset(held, 0, sizeof(held))
    for j in range(k):
        r = t.rank[c[j]]
        held[r] += 1
        low = min(low, r)
        high = max(high, r)
    if high >= 12 or 2 * (high - low + 1) != k:
        return 0
    for r in range(low, high + 1):
        if held[r] != 2:
            return 0
    for j in range(k):
        if t.rank[c[j]] == high:
            top_suit = max(top_suit, <int>t.suit[c[j]])
    return 1 + 4 * high + top_suit


cdef inline int32_t long_run_key(const rules_t* t, const uint8_t* c, int k) noexcept nogil:
    """Key of k >= 6 cards of consecutive Big Two ranks where the rules allow such runs (0 else):
    their top card's single key, its suit counting where suits break ties of five-card plays."""
    cdef uint32_t ranks = 0
    cdef int j, r, low = 12
    if k > 13 or not (t.run_sizes >> k) & 1:
        return 0
    for j in range(k):                  # no branch per card: random rows are almost never runs
        r = t.rank[c[j]]
        ranks |= (<uint32_t>1) << r
        low = min(low, r)
    # k distinct ranks from `low` up: the bits low .. low + k - 1 exactly
    if ranks != (((<uint32_t>1) << k) - 1) << low:
        return 0
    for j in range(k):
        if t.rank[c[j]] == low + k - 1:
            return 1 + 4 * (low + k - 1) + t.pick[16 * c[j] + 14]   # 14: the "any card" selector
    return 0


cdef inline int32_t run3_key(const rules_t* t, const uint8_t* c) noexcept nogil:
    """Key of three cards of consecutive Big Two ranks (0: they are not): 1 << 24 above the
    triples, then as their top card is keyed as a single."""
    cdef int a = t.rank[c[0]], b = t.rank[c[1]], d = t.rank[c[2]]
    cdef int high = max(a, max(b, d))
    if a == b or b == d or a == d or high - min(a, min(b, d)) != 2:
        return 0
    cdef uint8_t top = c[0] if a == high else (c[1] if b == high else c[2])
    return (1 << 24) + 1 + 4 * high + t.suit[top]


cdef inline int32_t two_pair4_key(const rules_t* t, uint8_t a, uint8_t b, uint8_t x, uint8_t y) noexcept nogil:
    """Key of the pairs (a, b) and (x, y) of different ranks: their higher pair's, as pairs are keyed."""
    if t.rank[a] < t.rank[x]:
        a, b = x, y
    return 1 + 4 * t.rank[a] + max(t.suit[a], t.suit[b])


cdef enum:
    BLOCK = 2048        # rows per pass of check5: a block's cards are still in cache when keyed


ctypedef struct hit_t:    # a row that may be a combo, and its key (possibly 0)
    int32_t key
    uint16_t row          # within its block

ctypedef struct hits_t:   # a growing list of them
    hit_t* at
    Py_ssize_t size, room
    uint16_t* per_block   # how many each block has


cdef int check5(const rules_t* t, const uint8_t* c, Py_ssize_t n, hits_t* hits,
                uint64_t* bad) noexcept nogil:
    """Checks every row, and lists in `hits` the rows that may be combos, each with its key
    (possibly 0). Returns -1 when out of memory."""
    # About 99% of random five-card sets are no combo, and their OR of card bits shows it: the
    # ranks they hold admit no combo (no straight, no full house, ...), and they are not all of
    # the first card's suit. Those rows cost a few instructions; the others are keyed in full, a
    # block at a time while their cards are in cache.
    cdef const uint8_t* may_combine = &t.may_combine[0]
    cdef const uint64_t* other_suits = &t.other_suits[0]
    cdef uint16_t listed[BLOCK]
    cdef uint64_t mask, ranks
    cdef Py_ssize_t start = 0, end, i, m
    cdef void* grown
    while start < n:
        end = min(start + BLOCK, n)
        m = 0
        for i in range(start, end):
            mask = card_mask(c + 5 * i, 5, bad)
            ranks = mask | mask >> 32                 # fold the four suit lanes into one
            # a rarely taken branch: appending every row's index branch-free, or a flag per row,
            # measured 10-30% slower
            if may_combine[(ranks | ranks >> 16) & 0x1fff] or not (mask & other_suits[c[5 * i]]):
                listed[m] = <uint16_t>(i - start)
                m += 1
        if hits.room - hits.size < m:
            grown = realloc(hits.at, (2 * hits.room + BLOCK) * sizeof(hit_t))
            if grown == NULL:
                return -1
            hits.at = <hit_t*>grown
            hits.room = 2 * hits.room + BLOCK
        for i in range(m):
            hits.at[hits.size].row = listed[i]
            hits.at[hits.size].key = key_of(t, c + 5 * (start + listed[i]), 5)
            hits.size += 1
        hits.per_block[start // BLOCK] = <uint16_t>m
        start = end
    return 0


cdef void write5(const hits_t* hits, Py_ssize_t n, int32_t* out) noexcept nogil:
    """The keys check5 found into out, 0 for every other row."""
    cdef Py_ssize_t block, i = 0, j
    memset(out, 0, n * sizeof(int32_t))
    for block in range((n + BLOCK - 1) // BLOCK):
        for j in range(hits.per_block[block]):
            out[block * BLOCK + hits.at[i].row] = hits.at[i].key
            i += 1


def batch(Tables t, const uint8_t[:, ::1] cards, int32_t[::1] out):
    """Key of every row of `cards` into `out`, without the GIL. Returns -1, or the first bad row,
    in which case `out` is unchanged: every row is checked before any is keyed.

    The caller (handrank.bigtwo) has checked the shape and that len(out) == len(cards)."""
    cdef Py_ssize_t n = cards.shape[0], i
    cdef int k = <int>cards.shape[1]
    cdef uint64_t bad = 0
    cdef const uint8_t* c
    cdef int32_t* o
    cdef hits_t hits
    cdef int failed = 0
    if n == 0:
        return -1
    c = &cards[0, 0]
    o = &out[0]
    if k == 5:
        hits.at = NULL
        hits.size = hits.room = 0
        hits.per_block = <uint16_t*>malloc((n // BLOCK + 1) * sizeof(uint16_t))
        if hits.per_block == NULL:
            raise MemoryError()
        with nogil:
            failed = check5(&t.c, c, n, &hits, &bad)
            if not bad and not failed:
                write5(&hits, n, o)
            free(hits.at)
            free(hits.per_block)
        if failed:
            raise MemoryError()
    else:
        with nogil:
            for i in range(n):
                card_mask(c + k * i, k, &bad)
            if not bad:
                for i in range(n):
                    o[i] = key_of(&t.c, c + k * i, k)
    return first_bad_row(c, n, k) if bad else -1


def key(Tables t, const uint8_t[::1] cards):
    """Key of one play of 1 to 52 valid, distinct cards (checked by the caller); 0: no combo."""
    return key_of(&t.c, &cards[0], <int>cards.shape[0])


# ----------------------------------------------------------------------------- legal moves
# Moves are built by structure, not by trying every subset: singles, then cards of one rank
# (pairs, triples, bare fours), four-card two pairs, then per five-card kind: straights from the
# straight table, flushes per suit, full houses, four of a kind with each kicker, triples with two
# odd cards, two pairs (or sisters) with each kicker; then long runs, one card of each rank. Each
# candidate is keyed by key_of, so the order and the filters are those of classify.

cdef enum:
    MAX_LONG_RUNS = 1 << 20     # more than any hand of a deal holds (26 cards: some 30,000)

ctypedef struct move_t:
    int32_t key
    int32_t index
    uint8_t size

ctypedef struct sink_t:
    const rules_t* t
    uint8_t* cards      # [cap * t.width]
    move_t* moves       # [cap]
    Py_ssize_t m
    int32_t above
    uint64_t must


cdef inline void consider(sink_t* out, const uint8_t* c, int k) noexcept nogil:
    cdef int j, i
    cdef uint8_t* slot
    cdef uint64_t bits = 0
    cdef int32_t key
    if out.must:
        for j in range(k):
            bits |= (<uint64_t>1) << c[j]
        if not (bits & out.must):
            return
    key = key_of(out.t, c, k)
    if key <= out.above:
        return
    slot = out.cards + out.t.width * out.m
    for j in range(k):                   # insertion sort: a combo's cards are listed ascending
        i = j
        while i > 0 and slot[i - 1] > c[j]:
            slot[i] = slot[i - 1]
            i -= 1
        slot[i] = c[j]
    for j in range(k, out.t.width):
        slot[j] = 255
    out.moves[out.m].key = key
    out.moves[out.m].size = k
    out.moves[out.m].index = <int32_t>out.m
    out.m += 1


cdef int by_size_and_key(const void* a, const void* b) noexcept nogil:
    cdef const move_t* x = <const move_t*>a
    cdef const move_t* y = <const move_t*>b
    if x.size != y.size:
        return -1 if x.size < y.size else 1
    if x.key != y.key:
        return -1 if x.key < y.key else 1
    return -1 if x.index < y.index else (1 if x.index > y.index else 0)


cdef void same_rank(sink_t* out, const uint8_t* of_rank, int count, int k) noexcept nogil:
    """Every k of the `count` cards of one rank."""
    cdef uint8_t buf[4]
    cdef int a, b, c, d
    for a in range(count):
        buf[0] = of_rank[a]
        for b in range(a + 1, count):
            buf[1] = of_rank[b]
            if k == 2:
                consider(out, buf, 2)
                continue
            for c in range(b + 1, count):
                buf[2] = of_rank[c]
                if k == 3:
                    consider(out, buf, 3)
                    continue
                for d in range(c + 1, count):
                    buf[3] = of_rank[d]
                    consider(out, buf, 4)


cdef void runs3(sink_t* out, uint8_t[13][4] by_rank, int* count) noexcept nogil:
    """Every three cards of consecutive Big Two ranks (3-4-5 .. K-A-2)."""
    cdef uint8_t buf[3]
    cdef int low, p, q, r, a, b, c
    for low in range(11):
        p = (low + 1) % 13                  # the poker ranks of Big Two ranks low .. low + 2
        q = (low + 2) % 13
        r = (low + 3) % 13
        for a in range(count[p]):
            buf[0] = by_rank[p][a]
            for b in range(count[q]):
                buf[1] = by_rank[q][b]
                for c in range(count[r]):
                    buf[2] = by_rank[r][c]
                    consider(out, buf, 3)


cdef void long_runs(sink_t* out, uint8_t[13][4] by_rank, int* count, int want) noexcept nogil:
    """Every run of 6 to 13 cards of consecutive Big Two ranks the rules allow (of `want` cards
    where want is not 0): one card of each rank, chosen by an odometer over the ranks' cards."""
    cdef uint8_t buf[13]
    cdef int at[13]
    cdef int k, low, j, r
    cdef bint held
    for k in range(6, 14):
        if not (out.t.run_sizes >> k) & 1 or (want and want != k):
            continue
        for low in range(14 - k):
            held = True
            for j in range(k):
                r = (low + j + 1) % 13              # the poker rank of Big Two rank low + j
                if not count[r]:
                    held = False
                    break
                at[j] = 0
                buf[j] = by_rank[r][0]
            while held:
                consider(out, buf, k)
                j = 0
                while j < k:                        # the next choice: advance the first digit
                    r = (low + j + 1) % 13          # that can, resetting those below it
                    at[j] += 1
                    if at[j] < count[r]:
                        buf[j] = by_rank[r][at[j]]
                        break
                    at[j] = 0
                    buf[j] = by_rank[r][0]
                    j += 1
                held = j < k


cdef Py_ssize_t count_long_runs(const rules_t* t, const uint8_t* ids, int n, int want) noexcept nogil:
    """How many runs long_runs lists for this hand."""
    cdef int count[13]
    cdef int k, low, j
    cdef Py_ssize_t total = 0, ways
    memset(count, 0, sizeof(count))
    for j in range(n):
        count[ids[j] >> 2] += 1
    for k in range(6, 14):
        if not (t.run_sizes >> k) & 1 or (want and want != k):
            continue
        for low in range(14 - k):
            ways = 1
            for j in range(k):
                ways *= count[(low + j + 1) % 13]
            total += ways
    return total


cdef void two_pairs(sink_t* out, const uint8_t* h, int n, uint8_t[13][4] by_rank, int* count,
                    bint kicker) noexcept nogil:
    """Every two pairs of different ranks: as four cards, or with each kicker of a third rank as
    five."""
    cdef uint8_t buf[5]
    cdef int r, q, a, b, c, d, i
    for r in range(13):
        if count[r] < 2:
            continue
        for q in range(r + 1, 13):
            if count[q] < 2:
                continue
            for a in range(count[r]):
                for b in range(a + 1, count[r]):
                    for c in range(count[q]):
                        for d in range(c + 1, count[q]):
                            buf[0] = by_rank[r][a]
                            buf[1] = by_rank[r][b]
                            buf[2] = by_rank[q][c]
                            buf[3] = by_rank[q][d]
                            if not kicker:
                                consider(out, buf, 4)
                                continue
                            for i in range(n):
                                if (h[i] >> 2) != r and (h[i] >> 2) != q:
                                    buf[4] = h[i]
                                    consider(out, buf, 5)


cdef void three_of_a_kind_hands(sink_t* out, const uint8_t* h, int n, uint8_t[13][4] by_rank,
                                int* count) noexcept nogil:
    """Every triple with two odd cards of two other ranks (a pair with it is a full house)."""
    cdef uint8_t buf[5]
    cdef int r, a, b, c, i, j
    for r in range(13):
        if count[r] < 3:
            continue
        for a in range(count[r]):
            for b in range(a + 1, count[r]):
                for c in range(b + 1, count[r]):
                    buf[0] = by_rank[r][a]
                    buf[1] = by_rank[r][b]
                    buf[2] = by_rank[r][c]
                    for i in range(n):
                        if (h[i] >> 2) == r:
                            continue
                        buf[3] = h[i]
                        for j in range(i + 1, n):
                            if (h[j] >> 2) != r and (h[j] >> 2) != (h[i] >> 2):
                                buf[4] = h[j]
                                consider(out, buf, 5)


cdef void fives(sink_t* out, const uint8_t* h, int n, uint8_t[13][4] by_rank, int* count,
                uint8_t[4][13] by_suit, int* suited) noexcept nogil:
    cdef const rules_t* t = out.t
    cdef uint8_t buf[5]
    cdef uint8_t pairs[6][2]
    cdef uint8_t triples[4][3]
    cdef int i, j, r, q, a, b, c, d, e, nt
    cdef int pick[5]
    cdef int ranks[5]
    cdef uint16_t mask, held = 0
    for i in range(n):
        held |= 1 << (h[i] >> 2)
    # straights and straight flushes: one card of each rank of a window (a window whose ranks are
    # not all held skipped at once: most of a hand's windows, and this ran for every hand listed)
    for i in range(t.n_straights):
        mask = t.straight_masks[i]
        if mask & ~held:
            continue
        j = 0
        for r in range(13):
            if (mask >> r) & 1:
                ranks[j] = r
                j += 1
        for a in range(count[ranks[0]]):
            buf[0] = by_rank[ranks[0]][a]
            for b in range(count[ranks[1]]):
                buf[1] = by_rank[ranks[1]][b]
                for c in range(count[ranks[2]]):
                    buf[2] = by_rank[ranks[2]][c]
                    for d in range(count[ranks[3]]):
                        buf[3] = by_rank[ranks[3]][d]
                        for e in range(count[ranks[4]]):
                            buf[4] = by_rank[ranks[4]][e]
                            consider(out, buf, 5)
    # flushes: five cards of a suit whose ranks are no straight
    for q in range(4):
        if suited[q] < 5:
            continue
        for a in range(suited[q]):
            for b in range(a + 1, suited[q]):
                for c in range(b + 1, suited[q]):
                    for d in range(c + 1, suited[q]):
                        for e in range(d + 1, suited[q]):
                            buf[0] = by_suit[q][a]
                            buf[1] = by_suit[q][b]
                            buf[2] = by_suit[q][c]
                            buf[3] = by_suit[q][d]
                            buf[4] = by_suit[q][e]
                            mask = 0
                            for j in range(5):
                                mask |= 1 << (buf[j] >> 2)
                            if not t.is_straight[mask]:
                                consider(out, buf, 5)
    # full houses, four of a kind plus a card, two pairs plus a card
    for r in range(13):
        if count[r] < 3:
            continue
        nt = 0
        for a in range(count[r]):
            for b in range(a + 1, count[r]):
                for c in range(b + 1, count[r]):
                    triples[nt][0] = by_rank[r][a]
                    triples[nt][1] = by_rank[r][b]
                    triples[nt][2] = by_rank[r][c]
                    nt += 1
        for q in range(13):
            if q == r or count[q] < 2:
                continue
            for a in range(nt):
                buf[0] = triples[a][0]
                buf[1] = triples[a][1]
                buf[2] = triples[a][2]
                for b in range(count[q]):
                    for c in range(b + 1, count[q]):
                        buf[3] = by_rank[q][b]
                        buf[4] = by_rank[q][c]
                        consider(out, buf, 5)
        if count[r] == 4:
            for j in range(4):
                buf[j] = by_rank[r][j]
            for i in range(n):
                if (h[i] >> 2) != r:
                    buf[4] = h[i]
                    consider(out, buf, 5)
    if t.trips:
        three_of_a_kind_hands(out, h, n, by_rank, count)
    if t.two_pair:
        two_pairs(out, h, n, by_rank, count, True)


cdef Py_ssize_t enumerate_moves(sink_t* out, const uint8_t* h, int n, int want) noexcept nogil:
    cdef uint8_t by_rank[13][4]
    cdef int count[13]
    cdef uint8_t by_suit[4][13]
    cdef int suited[4]
    cdef int i, r, k
    cdef uint32_t ranks
    for r in range(13):
        count[r] = 0
    for r in range(4):
        suited[r] = 0
    for i in range(n):
        r = h[i] >> 2
        by_rank[r][count[r]] = h[i]
        count[r] += 1
        by_suit[h[i] & 3][suited[h[i] & 3]] = h[i]
        suited[h[i] & 3] += 1
    if want == 0 or want == 1:
        for i in range(n):
            consider(out, h + i, 1)
    for k in range(2, 5):
        if want == 0 or want == k:
            ranks = 0                   # the ranks holding k cards or more, lowest first
            for r in range(13):
                ranks |= <uint32_t>(count[r] >= k) << r
            while ranks:
                r = hr_ctz64(ranks)
                ranks &= ranks - 1
                same_rank(out, by_rank[r], count[r], k)
    if (want == 0 or want == 3) and out.t.runs3:
        runs3(out, by_rank, count)
    if (want == 0 or want == 4) and out.t.two_pair4:
        two_pairs(out, h, n, by_rank, count, False)
    if want == 0 or want == 5:
        fives(out, h, n, by_rank, count, by_suit, suited)
    if (want == 0 or want > 5) and out.t.run_sizes:
        long_runs(out, by_rank, count, want)
    if (want == 0 or want > 5) and out.t.pair_runs:
        pair_runs(out, by_rank, count, want)
    return out.m


# the pairs of a rank's cards, by index into its (up to 4) cards: those of 2 cards first, then 3, 4
cdef int PAIR_A[6]
cdef int PAIR_B[6]
PAIR_A[:] = [0, 0, 1, 0, 1, 2]
PAIR_B[:] = [1, 2, 2, 3, 3, 3]


cdef inline int pairs_of(int count) noexcept nogil:
    return count * (count - 1) // 2


cdef void pair_runs(sink_t* out, uint8_t[13][4] by_rank, int* count, int want) noexcept nogil:
    """Every run of 3 to 12 pairs of consecutive Big Two ranks below the 2 (of `want` cards where
    want is not 0): one pair of each rank, chosen by an odometer over the ranks' pairs."""
    cdef uint8_t buf[24]
    cdef int at[12]
    cdef int n, low, j, r
    cdef bint held
    for n in range(3, 13):
        if want and want != 2 * n:
            continue
        for low in range(13 - n):               # Big Two ranks low .. low + n - 1 <= 11 (the ace)
            held = True
            for j in range(n):
                if count[(low + j + 1) % 13] < 2:   # the poker rank of Big Two rank low + j
                    held = False
                    break
                at[j] = 0
            while held:
                for j in range(n):
                    r = (low + j + 1) % 13
                    buf[2 * j] = by_rank[r][PAIR_A[at[j]]]
                    buf[2 * j + 1] = by_rank[r][PAIR_B[at[j]]]
                consider(out, buf, 2 * n)
                j = 0
                while j < n:                    # the next choice: advance the first digit that can
                    at[j] += 1
                    if at[j] < pairs_of(count[(low + j + 1) % 13]):
                        break
                    at[j] = 0
                    j += 1
                held = j < n


cdef Py_ssize_t count_pair_runs(const uint8_t* ids, int n, int want) noexcept nogil:
    """How many runs pair_runs lists for this hand."""
    cdef int count[13]
    cdef int pairs, low, j
    cdef Py_ssize_t total = 0, ways
    memset(count, 0, sizeof(count))
    for j in range(n):
        count[ids[j] >> 2] += 1
    for pairs in range(3, 13):
        if want and want != 2 * pairs:
            continue
        for low in range(13 - pairs):
            ways = 1
            for j in range(pairs):
                ways *= pairs_of(count[(low + j + 1) % 13])
            total += ways
    return total


cdef int read_hand(object hand, uint8_t* ids) except -1:
    """The distinct ids of `hand`, ascending, into ids[0..52); returns how many. A list or tuple of
    ints is read directly; anything else, or a bad card, goes through handrank.cards.cards (which
    raises the error that names the card)."""
    cdef uint64_t seen = 0, bit
    cdef Py_ssize_t n, i
    cdef PyObject* item
    cdef long v
    cdef int c, m = 0
    cdef bint is_tuple = type(hand) is tuple
    if not (is_tuple or type(hand) is list):
        hand = _parse_cards(hand)
        is_tuple = False
    n = PyTuple_GET_SIZE(hand) if is_tuple else PyList_GET_SIZE(hand)
    for i in range(n):
        item = PyTuple_GET_ITEM(hand, i) if is_tuple else PyList_GET_ITEM(hand, i)
        if not PyLong_CheckExact(item):
            return read_hand(_parse_cards(hand), ids)
        v = hr_small_int(item)
        if v < 0 or v > 51:
            _parse_cards(hand)                     # raises, naming the card
        bit = (<uint64_t>1) << v
        if seen & bit:
            _parse_cards(hand)
        seen |= bit
    for c in range(52):
        if (seen >> c) & 1:
            ids[m] = c
            m += 1
    return m


cdef Py_ssize_t choose(int n, int k) noexcept nogil:
    cdef Py_ssize_t r = 1
    cdef int i
    if k > n:
        return 0
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


cdef int collect(sink_t* out, Tables t, object hand, int want, int above, uint64_t must,
                 bint sort=True) except -1:
    """Fill `out` (malloc'd here; the caller frees it) with the moves, sorted unless `sort` is
    False."""
    cdef uint8_t ids[52]
    cdef int n = read_hand(hand, ids)
    cdef Py_ssize_t cap = 0, runs = 0
    cdef int k
    for k in range(1, 6):
        if not want or k == want:
            cap += choose(n, k)
    if t.c.run_sizes:
        runs = count_long_runs(&t.c, ids, n, want)
        if runs > MAX_LONG_RUNS:
            raise ValueError(f"a hand of {n} cards holds {runs:,} long runs, more than the legal moves "
                             f"list ({MAX_LONG_RUNS:,}); a hand of a deal (at most 26 cards) holds "
                             "far fewer")
    if t.c.pair_runs:
        runs = count_pair_runs(ids, n, want)
        if runs > MAX_LONG_RUNS:
            raise ValueError(f"a hand of {n} cards holds {runs:,} runs of pairs, more than the legal "
                             f"moves list ({MAX_LONG_RUNS:,})")
    cap = max(cap + runs, 1)
    out.t = &t.c
    out.m = 0
    out.above = above
    out.must = must
    out.cards = <uint8_t*>malloc(cap * t.c.width)
    out.moves = <move_t*>malloc(cap * sizeof(move_t))
    if out.cards == NULL or out.moves == NULL:
        raise MemoryError()
    if cap < 256:                   # a few moves: releasing the GIL would cost more than them
        enumerate_sorted(out, ids, n, want, sort)
    else:
        with nogil:
            enumerate_sorted(out, ids, n, want, sort)
    return 0


cdef void enumerate_sorted(sink_t* out, const uint8_t* ids, int n, int want, bint sort) noexcept nogil:
    enumerate_moves(out, ids, n, want)
    if sort:
        qsort(out.moves, out.m, sizeof(move_t), by_size_and_key)


def moves(Tables t, object hand, int want, int above, uint64_t must):
    """(cards (M, w) uint8 padded with 255, w the rules' longest play, sizes (M,) uint8, keys (M,)
    int32): every combo of
    `hand` of size `want` (0: every size) with a key above `above` holding a card of the bit set
    `must` (0: any), ordered by size, then key."""
    cdef sink_t out
    cdef Py_ssize_t i, m
    cdef int j
    out.cards = NULL
    out.moves = NULL
    try:
        collect(&out, t, hand, want, above, must)
        m = out.m
        cards = np.empty((m, t.c.width), dtype=np.uint8)
        sizes = np.empty(m, dtype=np.uint8)
        keys = np.empty(m, dtype=np.int32)
        if m:
            write_sorted(&out, m, cards, sizes, keys)
    finally:
        free(out.cards)
        free(out.moves)
    return cards, sizes, keys


@cython.auto_pickle(False)
cdef class ActionIndex:
    """The actions of an action space's plays of 1 to 5 cards, found by their cards' bit set: the
    bit sets ascending (`sorted_bits`) and the action - 1 of each (`order`), for rules `t`
    without long runs (a bigtwo.ComboSpace numbers those by formula)."""
    cdef Tables t
    cdef readonly object arrays
    cdef const uint64_t* bits
    cdef const int64_t* order
    cdef Py_ssize_t n

    def __init__(self, Tables t, const uint64_t[::1] sorted_bits, const int64_t[::1] order):
        if t.c.width != 5:
            raise ValueError("an ActionIndex takes rules without long runs")
        if order.shape[0] != sorted_bits.shape[0] or not sorted_bits.shape[0]:
            raise ValueError("order must match sorted_bits, and neither be empty")
        self.t = t
        self.arrays = (sorted_bits.base, order.base)    # alive while the pointers are
        self.bits = &sorted_bits[0]
        self.order = &order[0]
        self.n = sorted_bits.shape[0]

    def mark(self, object hand, int want, int above, uint64_t must, object out):
        """Set out[a] to 1 for the action a of every move `moves` lists; returns how many. `out`
        is a writable, contiguous buffer of bytes (a bool, int8 or uint8 array, a bytearray) of
        an entry per action. Unsorted, and no Python object per move: an RL environment asks for
        this on every turn (the buffer is read without a typed memoryview, which costs more than
        marking a hand's moves)."""
        cdef sink_t found
        cdef Py_buffer view
        cdef Py_ssize_t i, m, low, high, mid
        cdef bint missing = False
        cdef int j
        cdef const uint8_t* c
        cdef uint8_t* marks
        cdef uint64_t bits
        PyObject_GetBuffer(out, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)
        found.cards = NULL
        found.moves = NULL
        try:
            if view.itemsize != 1 or view.len <= self.n:
                raise ValueError("out must hold a byte for every action")
            marks = <uint8_t*>view.buf
            collect(&found, self.t, hand, want, above, must, False)
            m = found.m
            for i in range(m):
                c = found.cards + 5 * i
                bits = 0
                for j in range(found.moves[i].size):
                    bits |= (<uint64_t>1) << c[j]
                low = 0                        # the first sorted entry >= bits
                high = self.n
                while low < high:
                    mid = (low + high) >> 1
                    if self.bits[mid] < bits:
                        low = mid + 1
                    else:
                        high = mid
                if low == self.n or self.bits[low] != bits:
                    missing = True
                    break
                marks[self.order[low] + 1] = 1
        finally:
            free(found.cards)
            free(found.moves)
            PyBuffer_Release(&view)
        if missing:
            raise ValueError("a move is no action of the space (a space of other rules?)")
        return m


def combos(Tables t, object hand, int want, int above, uint64_t must, type combo, tuple kinds):
    """The moves of `moves` as a list of `combo(kind, size, cards, key)` tuples (a tuple subclass,
    allocated and filled directly: a bot asks for these on every turn); kinds[size] for 1..4
    cards, except kinds[0] for a four-card two pair (a key at most 52 where four_base is 52) and
    kinds[5] for a three-card straight (a key from 1 << 24), kinds[5 + (key >> 24)] for 5, and
    the last two for long runs: kinds[-2] for 6 to 12 cards, kinds[-1] for 13."""
    cdef sink_t out
    cdef Py_ssize_t i, m
    cdef int j, size
    cdef const uint8_t* c
    cdef list result
    cdef object cards, item, kind
    out.cards = NULL
    out.moves = NULL
    try:
        collect(&out, t, hand, want, above, must)
        m = out.m
        result = PyList_New(m)
        for i in range(m):
            size = out.moves[i].size
            c = out.cards + out.t.width * out.moves[i].index
            cards = PyTuple_New(size)
            for j in range(size):
                set_item(cards, j, SMALL_INTS[c[j]])
            if size > 5:
                kind = kinds[len(kinds) - 1 if size == 13 else len(kinds) - 2]
            elif size == 5:
                kind = kinds[5 + (out.moves[i].key >> 24)]
            elif size == 4 and out.moves[i].key <= t.c.four_base:
                kind = kinds[0]
            elif size == 3 and out.moves[i].key >> 24:
                kind = kinds[5]
            else:
                kind = kinds[size]
            item = new_tuple_of(combo, 4)
            set_item(item, 0, kind)
            set_item(item, 1, SMALL_INTS[size])
            set_item(item, 2, cards)
            set_item(item, 3, out.moves[i].key)
            Py_INCREF(item)
            PyList_SET_ITEM(result, i, item)
    finally:
        free(out.cards)
        free(out.moves)
    return result


cdef tuple SMALL_INTS = tuple(range(256))


cdef inline void set_item(object tup, Py_ssize_t i, object value):
    Py_INCREF(value)                 # PyTuple_SET_ITEM steals a reference
    PyTuple_SET_ITEM(tup, i, value)


cdef inline object new_tuple_of(type cls, Py_ssize_t n):
    # an instance of a tuple subclass (no __new__ of its own to run), items still to be set;
    # tuple's allocator, which every subclass without __slots__ of its own inherits
    return PyType_GenericAlloc(<PyTypeObject*>cls, n)


cdef void write_sorted(sink_t* out, Py_ssize_t m, uint8_t[:, ::1] cards, uint8_t[::1] sizes,
                       int32_t[::1] keys) noexcept:
    cdef Py_ssize_t i
    cdef int j
    cdef int width = out.t.width
    for i in range(m):
        for j in range(width):
            cards[i, j] = out.cards[width * out.moves[i].index + j]
        sizes[i] = out.moves[i].size
        keys[i] = out.moves[i].key


# ----------------------------------------------------------------------------- for cimport
# (_bigtwo.pxd): the enumeration above, called from other compiled modules without the GIL.

cdef const void* tables_of(object t) except NULL:
    """The rules of a Tables object, as the opaque pointer the functions below take."""
    if not isinstance(t, Tables):
        raise TypeError(f"expected a bigtwo Tables object, got {type(t).__name__}")
    return &(<Tables>t).c


cdef int tables_width(const void* t) noexcept nogil:
    """The most cards a play of these rules holds: the row width `list_moves` writes."""
    return (<const rules_t*>t).width


cdef size_t move_record_size() noexcept nogil:
    """Bytes per move of the `records` scratch of `list_moves`."""
    return sizeof(move_t)


cdef Py_ssize_t move_capacity(const void* t, const uint8_t* ids, int n, int want) noexcept nogil:
    """An upper bound on the moves `list_moves` lists for this hand (as `collect` sizes them);
    long runs are not counted (callers refuse rules with them)."""
    cdef Py_ssize_t cap = 0
    cdef int k
    for k in range(1, 6):
        if not want or k == want:
            cap += choose(n, k)
    if (<const rules_t*>t).pair_runs:
        cap += count_pair_runs(ids, n, want)
    return max(cap, 1)


cdef Py_ssize_t list_moves(const void* t, const uint8_t* ids, int n, int want, int32_t above,
                           uint64_t must, uint8_t* cards, void* records, int32_t* keys,
                           uint8_t* sizes) noexcept nogil:
    """The moves of `moves` (hand `ids`: n distinct ids, ascending), unsorted: move i's cards at
    cards[i * width ..] (ascending, padded with 255), its key and size; `cards` and `records`
    hold move_capacity moves. Returns how many."""
    cdef sink_t out
    cdef Py_ssize_t i
    out.t = <const rules_t*>t
    out.m = 0
    out.above = above
    out.must = must
    out.cards = cards
    out.moves = <move_t*>records
    enumerate_moves(&out, ids, n, want)
    for i in range(out.m):
        keys[i] = out.moves[i].key
        sizes[i] = out.moves[i].size
    return out.m


cdef int32_t play_key(const void* t, const uint8_t* cards, int k) noexcept nogil:
    """key_of: the key of k valid, distinct cards (0: no combo)."""
    return key_of(<const rules_t*>t, cards, k)
