# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled short-deck (6+ hold'em) kernels: 5 to 7 cards of the 36-card deck, two rule sets.

The high evaluators' sums and hashes serve as they are: a hand with five cards of a suit is
valued by that suit's rank mask (of 5 to 7 cards, a flush leaves no room for a full house), any
other by its rank multiset through the 5-, 6- or 7-card perfect hash; the generated short-deck
tables hold the values at the same slots. A card below the 6 flags the hand as bad (its bit is one of the four lowest of its suit's mask).
"""
from libc.string cimport memcpy
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from handrank._tables cimport *
from handrank._kernels cimport card_mask, key_sum, hr_slot5, hr_slot6, hr_slot7

cdef extern from "handrank_shortdeck_tables.h" nogil:
    const int HR_SHORTDECK_MAX
    const uint16_t hr_shortdeck_standard5[]
    const uint16_t hr_shortdeck_standard6[]
    const uint16_t hr_shortdeck_standard7[]
    const uint16_t hr_shortdeck_standard_flush[8192]
    const uint32_t hr_shortdeck_standard_class[]
    const uint16_t hr_shortdeck_triton5[]
    const uint16_t hr_shortdeck_triton6[]
    const uint16_t hr_shortdeck_triton7[]
    const uint16_t hr_shortdeck_triton_flush[8192]
    const uint32_t hr_shortdeck_triton_class[]

cdef enum:
    RULES_STANDARD = 0
    RULES_TRITON = 1
    SIX_OF_CLUBS = 16       # the lowest card of the short deck

# The card-mask bits of the ranks 2..5 in each suit's 16 bits
cdef uint64_t BELOW_SIX = 0x000F000F000F000FULL

MAX_VALUE = HR_SHORTDECK_MAX
STANDARD = RULES_STANDARD
TRITON = RULES_TRITON
LOWEST_CARD = SIX_OF_CLUBS


cdef inline uint32_t flush_ranks(uint64_t key, uint64_t mask) noexcept nogil:
    # the rank mask of the suit holding five or more cards
    if key & 0x8:
        return mask & 0x1FFF
    if key & 0x80:
        return (mask >> 16) & 0x1FFF
    if key & 0x800:
        return (mask >> 32) & 0x1FFF
    return (mask >> 48) & 0x1FFF


cdef inline uint16_t value_of(uint64_t key, uint64_t mask, int k, bint triton) noexcept nogil:
    cdef uint64_t ranks = key >> 32
    cdef uint32_t slot
    if key & HR_FLUSH_BITS:
        slot = flush_ranks(key, mask)
        return hr_shortdeck_triton_flush[slot] if triton else hr_shortdeck_standard_flush[slot]
    if k == 7:
        slot = hr_slot7(ranks * HR_HASH7_MUL)
        return hr_shortdeck_triton7[slot] if triton else hr_shortdeck_standard7[slot]
    if k == 6:
        slot = hr_slot6(ranks * HR_HASH6_MUL)
        return hr_shortdeck_triton6[slot] if triton else hr_shortdeck_standard6[slot]
    slot = hr_slot5(ranks * HR_HASH5_MUL)
    return hr_shortdeck_triton5[slot] if triton else hr_shortdeck_standard5[slot]


cdef inline uint64_t loop(int k, bint triton, const uint8_t* c, Py_ssize_t n, uint16_t* out) noexcept nogil:
    # Inlined with constant k and rules (below), so each is its own specialised loop.
    cdef uint64_t bad = 0, mask
    cdef Py_ssize_t i
    for i in range(n):
        mask = card_mask(c, k, &bad)
        bad |= mask & BELOW_SIX        # a card 2..5 of any suit
        out[i] = value_of(key_sum(c, k), mask, k, triton)
        c += k
    return bad


ctypedef uint64_t (*loop_t)(const uint8_t*, Py_ssize_t, uint16_t*) noexcept nogil

cdef uint64_t standard5(const uint8_t* c, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(5, False, c, n, o)
cdef uint64_t standard6(const uint8_t* c, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(6, False, c, n, o)
cdef uint64_t standard7(const uint8_t* c, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(7, False, c, n, o)
cdef uint64_t triton5(const uint8_t* c, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(5, True, c, n, o)
cdef uint64_t triton6(const uint8_t* c, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(6, True, c, n, o)
cdef uint64_t triton7(const uint8_t* c, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(7, True, c, n, o)

cdef loop_t[2][3] LOOPS     # by rule set, hand size - 5
LOOPS[RULES_STANDARD][0], LOOPS[RULES_STANDARD][1], LOOPS[RULES_STANDARD][2] = standard5, standard6, standard7
LOOPS[RULES_TRITON][0], LOOPS[RULES_TRITON][1], LOOPS[RULES_TRITON][2] = triton5, triton6, triton7


cdef Py_ssize_t first_bad(const uint8_t* c, Py_ssize_t n, int k) noexcept nogil:
    # The slow path, taken only after a loop has flagged a bad hand.
    cdef Py_ssize_t i
    cdef int j
    cdef uint64_t seen
    for i in range(n):
        seen = 0
        for j in range(k):
            if c[i * k + j] >= 52 or c[i * k + j] < SIX_OF_CLUBS or (seen >> c[i * k + j]) & 1:
                return i
            seen |= (<uint64_t>1) << c[i * k + j]
    return -1


def batch(int rules, const uint8_t[:, ::1] cards, uint16_t[::1] out, uint16_t[::1] saved=None):
    """Evaluate every row of `cards` (5 to 7 cards) into `out` without the GIL; -1 or the first
    bad row. With `saved`, `out` is copied there first (handrank._batch puts it back after a bad
    row)."""
    cdef Py_ssize_t n = cards.shape[0]
    cdef int k = <int>cards.shape[1]
    cdef Py_ssize_t bad_row = -1
    cdef const uint8_t* c
    cdef uint16_t* o
    if not (0 <= rules < 2 and 5 <= k <= 7):
        raise ValueError(f"no short-deck loop for rules {rules} with {k} cards")
    if out.shape[0] != n:
        raise ValueError(f"out has {out.shape[0]} entries for {n} rows")
    cdef loop_t run = LOOPS[rules][k - 5]
    if n == 0:
        return -1
    if saved is not None:
        if saved.shape[0] != n:
            raise ValueError(f"saved has {saved.shape[0]} entries for {n} rows")
        memcpy(&saved[0], &out[0], n * sizeof(uint16_t))
    c = &cards[0, 0]
    o = &out[0]
    with nogil:
        if run(c, n, o):
            bad_row = first_bad(c, n, k)
    return bad_row


def evaluate_ids(int rules, const uint8_t[::1] hand):
    """The value of 5 to 7 checked short-deck card ids."""
    cdef int k = <int>hand.shape[0]
    cdef uint64_t bad = 0
    if not (0 <= rules < 2 and 5 <= k <= 7):
        raise ValueError(f"no short-deck kernel for rules {rules} with {k} cards")
    return value_of(key_sum(&hand[0], k), card_mask(&hand[0], k, &bad), k, rules == RULES_TRITON)


def value_class(int rules, int value):
    """(category on the high ladder, ranks most significant first) of a checked value."""
    cdef uint32_t packed = hr_shortdeck_triton_class[value] if rules == RULES_TRITON else hr_shortdeck_standard_class[value]
    return (packed >> 20) & 0xF, tuple([(packed >> (16 - 4 * i)) & 0xF for i in range(packed >> 24)])
