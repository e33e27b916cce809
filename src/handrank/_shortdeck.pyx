# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled short-deck (6+ hold'em) kernels: 5 to 7 cards of the 36-card deck, two rule sets.

The high evaluators' sums and hashes serve as they are: a hand with five cards of a suit is
valued by that suit's rank mask (of 5 to 7 cards, a flush leaves no room for a full house), any
other by its rank multiset through the 5-, 6- or 7-card perfect hash; the generated short-deck
tables hold the values at the same slots. A card below the 6 flags the hand as bad (its bit is one
of the four lowest of its suit's mask).
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


# The batch loops are C, like the high evaluator's (handrank/_evaluate.pyx): per card one 16-byte
# load and one 128-bit add of its key and card bit (hr_card_sums), four hands per iteration so
# the core overlaps their chains. Every hand is k distinct valid cards when the card bits' popcounts
# add up to k * n (ids 52..255 add no bit, a repeated card carries), and no bit below the 6 is set.
cdef extern from * nogil:
    """
    #include "_bits.h"
    #if HR_X86_64
    #include <emmintrin.h>
    typedef __m128i hr_sd_sums;
    #define HR_SD_START() _mm_set_epi64x(0, (long long)HR_SUIT_COUNTER_START)
    #define HR_SD_ADD(s, card) _mm_add_epi64((s), _mm_load_si128((const __m128i*)(hr_card_sums + 2 * (card))))
    #define HR_SD_KEY(s) ((uint64_t)_mm_cvtsi128_si64(s))
    #define HR_SD_BITS(s) ((uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64((s), (s))))
    #else
    typedef struct { uint64_t key, bits; } hr_sd_sums;
    static inline hr_sd_sums hr_sd_add(hr_sd_sums s, uint8_t card) {
        s.key += hr_card_sums[2 * card];
        s.bits += hr_card_sums[2 * card + 1];
        return s;
    }
    static inline hr_sd_sums hr_sd_start(void) { hr_sd_sums s = {HR_SUIT_COUNTER_START, 0}; return s; }
    #define HR_SD_START() hr_sd_start()
    #define HR_SD_ADD(s, card) hr_sd_add((s), (card))
    #define HR_SD_KEY(s) ((s).key)
    #define HR_SD_BITS(s) ((s).bits)
    #endif

    #define HR_SD_BELOW_SIX 0x000F000F000F000FULL

    /* the loops value every hand before they know it is valid: the same guarantee as the high
       tables' (handrank/_kernels.pxd), that any bytes index inside the tables */
    HR_CHECK_SLOTS(5, hr_shortdeck_standard5)
    HR_CHECK_SLOTS(6, hr_shortdeck_standard6)
    HR_CHECK_SLOTS(7, hr_shortdeck_standard7)
    HR_CHECK_SLOTS(5, hr_shortdeck_triton5)
    HR_CHECK_SLOTS(6, hr_shortdeck_triton6)
    HR_CHECK_SLOTS(7, hr_shortdeck_triton7)
    typedef char hr_sd_check_flush[(sizeof(hr_shortdeck_standard_flush) == 8192 * sizeof(uint16_t)
                                    && sizeof(hr_shortdeck_triton_flush) == 8192 * sizeof(uint16_t)) ? 1 : -1];

    /* the flush suit's rank mask: hr_flush_ranks (_kernels.pxd) */
    #define HR_SD_VALUE(RULES, K, key, bits) \
        (((key) & HR_FLUSH_BITS) ? hr_shortdeck_##RULES##_flush[hr_flush_ranks((key), (bits))] \
         : hr_shortdeck_##RULES##K[hr_slot##K(((key) >> 32) * HR_HASH##K##_MUL)])

    /* Returns non-zero when a hand is not k distinct cards of the short deck. Compiled twice:
       with the baseline popcount and, where the CPU has it, the popcnt instruction. */
    #define HR_SD_LOOP(RULES, K, SUFFIX, ATTR, POPCOUNT) \
    ATTR static uint64_t hr_sd_##RULES##K##SUFFIX(const uint8_t* c, Py_ssize_t n, uint16_t* out) { \
        uint64_t bits_set = 0, low = 0; \
        Py_ssize_t i = 0; \
        int j, h; \
        for (; i + 4 <= n; i += 4, c += 4 * K) { \
            hr_sd_sums s[4]; \
            for (h = 0; h < 4; h++) s[h] = HR_SD_START(); \
            for (j = 0; j < K; j++) \
                for (h = 0; h < 4; h++) s[h] = HR_SD_ADD(s[h], c[h * K + j]); \
            for (h = 0; h < 4; h++) { \
                uint64_t key = HR_SD_KEY(s[h]), bits = HR_SD_BITS(s[h]); \
                bits_set += POPCOUNT(bits); \
                low |= bits; \
                out[i + h] = HR_SD_VALUE(RULES, K, key, bits); \
            } \
        } \
        for (; i < n; i++, c += K) { \
            hr_sd_sums s = HR_SD_START(); \
            for (j = 0; j < K; j++) s = HR_SD_ADD(s, c[j]); \
            uint64_t key = HR_SD_KEY(s), bits = HR_SD_BITS(s); \
            bits_set += POPCOUNT(bits); \
            low |= bits; \
            out[i] = HR_SD_VALUE(RULES, K, key, bits); \
        } \
        return (bits_set != (uint64_t)n * K) | ((low & HR_SD_BELOW_SIX) != 0); \
    }
    #define HR_SD_LOOPS(SUFFIX, ATTR, POPCOUNT) \\
        HR_SD_LOOP(standard, 5, SUFFIX, ATTR, POPCOUNT) HR_SD_LOOP(standard, 6, SUFFIX, ATTR, POPCOUNT) \\
        HR_SD_LOOP(standard, 7, SUFFIX, ATTR, POPCOUNT) HR_SD_LOOP(triton, 5, SUFFIX, ATTR, POPCOUNT) \\
        HR_SD_LOOP(triton, 6, SUFFIX, ATTR, POPCOUNT) HR_SD_LOOP(triton, 7, SUFFIX, ATTR, POPCOUNT)
    HR_SD_LOOPS(_portable, , hr_popcount64)
    #if HR_HAVE_POPCNT
    HR_SD_LOOPS(_popcnt, HR_TARGET_POPCNT, hr_popcount64_popcnt)
    #else
    #define hr_sd_standard5_popcnt hr_sd_standard5_portable
    #define hr_sd_standard6_popcnt hr_sd_standard6_portable
    #define hr_sd_standard7_popcnt hr_sd_standard7_portable
    #define hr_sd_triton5_popcnt hr_sd_triton5_portable
    #define hr_sd_triton6_popcnt hr_sd_triton6_portable
    #define hr_sd_triton7_popcnt hr_sd_triton7_portable
    #endif

    /* the loops this CPU runs best, by rule set and hand size - 5 */
    typedef uint64_t (*hr_sd_loop)(const uint8_t*, Py_ssize_t, uint16_t*);
    static hr_sd_loop hr_sd_loops(int rules, int size) {
        static const hr_sd_loop portable[2][3] = {
            {hr_sd_standard5_portable, hr_sd_standard6_portable, hr_sd_standard7_portable},
            {hr_sd_triton5_portable, hr_sd_triton6_portable, hr_sd_triton7_portable}};
        static const hr_sd_loop popcnt[2][3] = {
            {hr_sd_standard5_popcnt, hr_sd_standard6_popcnt, hr_sd_standard7_popcnt},
            {hr_sd_triton5_popcnt, hr_sd_triton6_popcnt, hr_sd_triton7_popcnt}};
        return hr_cpu_has_popcnt() ? popcnt[rules][size] : portable[rules][size];
    }
    """
    ctypedef uint64_t (*hr_sd_loop)(const uint8_t*, Py_ssize_t, uint16_t*) noexcept nogil
    hr_sd_loop hr_sd_loops(int rules, int size)


cdef hr_sd_loop[2][3] LOOPS     # by rule set, hand size - 5: chosen once, at import
cdef int _rules, _size
for _rules in range(2):
    for _size in range(3):
        LOOPS[_rules][_size] = hr_sd_loops(_rules, _size)


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
    cdef hr_sd_loop run = LOOPS[rules][k - 5]
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
