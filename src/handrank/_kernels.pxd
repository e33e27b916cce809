# The one-hand kernels: pure C, no Python objects, inlined into every loop that calls them.
#
# A hand is a pointer to k card ids (bytes). Its sums add up the cards' precomputed keys and masks
# (see tools/gen_tables.py), and a value kernel reads the hand's value from them. card_mask also
# ORs a non-zero word into `bad` when the hand holds an id outside 0..51 or a repeated card; loops
# look for the offending row only when `bad` ends up non-zero, so validation costs a few
# instructions per hand.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from handrank._tables cimport *

# A hand's sums are plain words, not a struct: with a struct gcc ran short of registers in the
# batch loops and kept the running `bad` on the stack. k is a constant wherever these are inlined,
# so the compiler unrolls their loops.
cdef inline uint64_t key_sum(const uint8_t* c, int k) noexcept nogil:
    """Rank multiset (high 32 bits) and suit counters (low 16 bits) of k cards."""
    cdef uint64_t key = HR_SUIT_COUNTER_START
    cdef int i
    for i in range(k):
        key += hr_card_key[c[i]]
    return key


cdef inline uint64_t card_mask(const uint8_t* c, int k, uint64_t* bad) noexcept nogil:
    """OR of the card bits (13-bit rank mask per suit). ORs into *bad a non-zero word when a card
    repeats or is out of range."""
    cdef uint64_t mask = 0, total = 0, m
    cdef int i
    for i in range(k):
        m = hr_card_mask[c[i]]
        mask |= m
        total += m
    # distinct card bits add up to their OR; a repeated card carries into another bit
    bad[0] |= (total ^ mask) | (mask & HR_INVALID_CARD_BIT)
    return mask


cdef inline Py_ssize_t first_bad_row(const uint8_t* c, Py_ssize_t n, int k) noexcept nogil:
    # The slow path of every batch loop, taken only after the loop has flagged a bad hand.
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


# The value kernels of 5- to 7-card hands are written in C (below) because the batch loops that
# call them are C: a loop compiled with popcnt needs a function-level target attribute, which
# Cython cannot attach. The Cython names are the same functions.
cdef extern from * nogil:
    """
    /* The batch loops' card sums (_evaluate's and _omaha's): per card one 16-byte load of
       hr_card_hashes and one 128-bit add on x86-64 (its SSE2 baseline), two words elsewhere. A
       sum's key is the cards' rank hash with their suit counters in its low 16 bits, started at
       HR_SUMS_AT's key; its bits the sum of their card bits. */
    #include "_bits.h"
    #if HR_X86_64
    #include <emmintrin.h>
    typedef __m128i hr_sums;
    #define HR_SUMS_AT(key) _mm_set_epi64x(0, (long long)(key))
    #define HR_SUMS_ADD(s, card) _mm_add_epi64((s), _mm_load_si128((const __m128i*)(hr_card_hashes + 2 * (card))))
    /* card j of a row word: its byte offset in hr_card_hashes (16 bytes an entry) comes straight
       from a shift and a mask */
    #define HR_SUMS_ADD_ROW(s, w, j) _mm_add_epi64((s), _mm_load_si128((const __m128i*)( \\
        (const char*)hr_card_hashes + ((j) == 0 ? (((w) << 4) & 0xff0) : (((w) >> (8 * (j) - 4)) & 0xff0)))))
    #define HR_SUMS_KEY(s) ((uint64_t)_mm_cvtsi128_si64(s))
    #define HR_SUMS_BITS(s) ((uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64((s), (s))))
    #define HR_SUMS_PLUS(a, b) _mm_add_epi64((a), (b))
    #else
    typedef struct { uint64_t key, bits; } hr_sums;
    static inline hr_sums hr_sums_add(hr_sums s, uint8_t card) {
        s.key += hr_card_hashes[2 * card];
        s.bits += hr_card_hashes[2 * card + 1];
        return s;
    }
    static inline hr_sums hr_sums_at(uint64_t key) { hr_sums s; s.key = key; s.bits = 0; return s; }
    #define HR_SUMS_AT(key) hr_sums_at(key)
    #define HR_SUMS_ADD(s, card) hr_sums_add((s), (card))
    #define HR_SUMS_ADD_ROW(s, w, j) hr_sums_add((s), (uint8_t)((w) >> (8 * (j))))
    #define HR_SUMS_KEY(s) ((s).key)
    #define HR_SUMS_BITS(s) ((s).bits)
    static inline hr_sums hr_sums_plus(hr_sums a, hr_sums b) { a.key += b.key; a.bits += b.bits; return a; }
    #define HR_SUMS_PLUS(a, b) hr_sums_plus((a), (b))
    #endif
    #define HR_SUMS_START() HR_SUMS_AT(HR_SUIT_COUNTER_START)

    /* A row word holds card j in byte j only on a little-endian machine (every wheel target);
       elsewhere the loops read bytes. */
    #if defined(_MSC_VER) || (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    #define HR_ROW_WORDS 1
    #else
    #define HR_ROW_WORDS 0
    #endif

    /* Perfect hash of the rank sum, one per hand size: h = rank_sum * MUL, then a displacement per
       bucket of h. The multiply distributes over the sum, so enumerations can add per-card hashes. */
    #define HR_SLOT(N, h) ((uint32_t)(((h) >> HR_HASH##N##_SLOT_SHIFT) \\
        ^ hr_hash##N##_displacement[(h) >> HR_HASH##N##_BUCKET_SHIFT]) & HR_HASH##N##_SLOT_MASK)
    static inline uint32_t hr_slot5(uint64_t h) { return HR_SLOT(5, h); }
    static inline uint32_t hr_slot6(uint64_t h) { return HR_SLOT(6, h); }
    static inline uint32_t hr_slot7(uint64_t h) { return HR_SLOT(7, h); }

    /* The batch loops value every hand before they know it is valid (a bad one is flagged and its
       value discarded), so each index they compute must be in range whatever the bytes: a bucket
       is any 64-bit hash shifted down into its displacement table, a slot is masked into its
       value table, and a flush's rank mask has 13 bits. These fail the build if a generated
       table ever breaks that. */
    #define HR_CHECK_SLOTS(N, VALUES) typedef char hr_check_##VALUES[ \\
        (sizeof(hr_hash##N##_displacement) == (sizeof(uint16_t) << (64 - HR_HASH##N##_BUCKET_SHIFT)) \\
         && sizeof(VALUES) == sizeof(uint16_t) * ((size_t)HR_HASH##N##_SLOT_MASK + 1)) ? 1 : -1];
    HR_CHECK_SLOTS(3, hr_high3)
    HR_CHECK_SLOTS(5, hr_high5)
    HR_CHECK_SLOTS(5, hr_lowa5_5)
    HR_CHECK_SLOTS(5, hr_low27_5)
    HR_CHECK_SLOTS(6, hr_high6)
    HR_CHECK_SLOTS(6, hr_lowa5_6)
    HR_CHECK_SLOTS(7, hr_high7)
    HR_CHECK_SLOTS(7, hr_lowa5_7)
    typedef char hr_check_flush[(sizeof(hr_flush) == 8192 * sizeof(uint16_t)
                                 && sizeof(hr_low27_flush) == 8192 * sizeof(uint16_t)) ? 1 : -1];

    /* The rank mask of the flush suit. At most one suit holds 5 of 7 cards, and its flush beats
       anything the other cards make. */
    static inline uint32_t hr_flush_ranks(uint64_t key, uint64_t mask) {
        if (key & 0x8) return mask & 0x1fff;
        if (key & 0x80) return (mask >> 16) & 0x1fff;
        if (key & 0x800) return (mask >> 32) & 0x1fff;
        return (mask >> 48) & 0x1fff;
    }
    static inline uint16_t hr_flush_value(uint64_t key, uint64_t mask) {
        return hr_flush[hr_flush_ranks(key, mask)];
    }

    /* High value 1..7462 of a 5-, 6- or 7-card hand from its sums (k is a constant where inlined). */
    static inline uint16_t hr_high_value(uint64_t key, uint64_t mask, int k) {
        if (key & HR_FLUSH_BITS) return hr_flush_value(key, mask);
        if (k == 7) return hr_high7[hr_slot7((key >> 32) * HR_HASH7_MUL)];
        if (k == 6) return hr_high6[hr_slot6((key >> 32) * HR_HASH6_MUL)];
        return hr_high5[hr_slot5((key >> 32) * HR_HASH5_MUL)];
    }

    /* 2-7 lowball value of a 5-card hand: the high value reordered, read from tables by the
       same slots. */
    static inline uint16_t hr_low27_value(uint64_t key, uint64_t mask) {
        if (key & HR_FLUSH_BITS) return hr_low27_flush[hr_flush_ranks(key, mask)];
        return hr_low27_5[hr_slot5((key >> 32) * HR_HASH5_MUL)];
    }

    /* benchmarks/kernel_mca.py's build marks the flush branch unlikely, so that gcc moves the
       flush lookup out of the loop body the model reads; a normal build leaves it to gcc. */
    #if defined(HR_MCA_MARKERS)
    #define HR_RARELY(x) __builtin_expect((x) != 0, 0)
    #else
    #define HR_RARELY(x) (x)
    #endif

    /* benchmarks/kernel_mca.py compiles the batch loops' modules with HR_MCA_MARKERS to cut their
       main loops out of the assembly for llvm-mca; a normal build has no markers. */
    #if defined(HR_MCA_MARKERS)
    #define HR_MCA_BEGIN(NAME) __asm__ volatile("# LLVM-MCA-BEGIN " #NAME);
    #define HR_MCA_END(NAME) __asm__ volatile("# LLVM-MCA-END " #NAME);
    #else
    #define HR_MCA_BEGIN(NAME)
    #define HR_MCA_END(NAME)
    #endif

    /* The same three from a hashed key: the sum of a hand's hr_card_hashes words (plus
       HR_SUIT_COUNTER_START) is rank_sum * C with the suit counters in its low 16 bits, which
       every slot shift skips, so the batch loops need neither the shift nor the multiply. */
    static inline uint16_t hr_high_value_hashed(uint64_t h, uint64_t mask, int k) {
        if (HR_RARELY(h & HR_FLUSH_BITS)) return hr_flush_value(h, mask);
        if (k == 7) return hr_high7[hr_slot7(h)];
        if (k == 6) return hr_high6[hr_slot6(h)];
        return hr_high5[hr_slot5(h)];
    }
    static inline uint16_t hr_low27_value_hashed(uint64_t h, uint64_t mask) {
        if (HR_RARELY(h & HR_FLUSH_BITS)) return hr_low27_flush[hr_flush_ranks(h, mask)];
        return hr_low27_5[hr_slot5(h)];
    }
    static inline uint16_t hr_lowa5_value_hashed(uint64_t h, int k) {
        if (k == 7) return hr_lowa5_7[hr_slot7(h)];
        if (k == 6) return hr_lowa5_6[hr_slot6(h)];
        return hr_lowa5_5[hr_slot5(h)];
    }

    /* A-5 lowball value 1..6175 of a 5-, 6- or 7-card hand: suits never matter. */
    static inline uint16_t hr_lowa5_value(uint64_t key, int k) {
        if (k == 7) return hr_lowa5_7[hr_slot7((key >> 32) * HR_HASH7_MUL)];
        if (k == 6) return hr_lowa5_6[hr_slot6((key >> 32) * HR_HASH6_MUL)];
        return hr_lowa5_5[hr_slot5((key >> 32) * HR_HASH5_MUL)];
    }
    """
    uint32_t hr_slot5(uint64_t h)
    uint32_t hr_slot6(uint64_t h)
    uint32_t hr_slot7(uint64_t h)
    uint16_t hr_flush_value(uint64_t key, uint64_t mask)
    uint16_t hr_high_value(uint64_t key, uint64_t mask, int k)
    uint16_t hr_lowa5_value(uint64_t key, int k)
    uint16_t hr_low27_value(uint64_t key, uint64_t mask)
    uint16_t hr_high_value_hashed(uint64_t h, uint64_t mask, int k)


cdef inline uint64_t card_hash(uint8_t card) noexcept nogil:
    """A card's hashed key (hr_card_hashes): summed over a hand with HR_SUIT_COUNTER_START, the
    hand's rank-sum hash and suit counters, read by high_value_hashed."""
    return hr_card_hashes[2 * card]


cdef inline uint16_t high_value_hashed(uint64_t h, uint64_t mask, int k) noexcept nogil:
    """high_value from a sum of card_hash words: no shift and no multiply."""
    return hr_high_value_hashed(h, mask, k)


cdef inline uint64_t rank_hash(uint64_t key, uint64_t mul) noexcept nogil:
    return (key >> 32) * mul

cdef inline uint32_t slot3(uint64_t h) noexcept nogil:
    return ((h >> HR_HASH3_SLOT_SHIFT) ^ hr_hash3_displacement[h >> HR_HASH3_BUCKET_SHIFT]) & HR_HASH3_SLOT_MASK

cdef inline uint32_t slot5(uint64_t h) noexcept nogil:
    return hr_slot5(h)

cdef inline uint32_t slot6(uint64_t h) noexcept nogil:
    return hr_slot6(h)

cdef inline uint32_t slot7(uint64_t h) noexcept nogil:
    return hr_slot7(h)


cdef inline uint16_t flush_value(uint64_t key, uint64_t mask) noexcept nogil:
    return hr_flush_value(key, mask)


cdef inline uint16_t high_value(uint64_t key, uint64_t mask, int k) noexcept nogil:
    """High value 1..7462 of a 5-, 6- or 7-card hand from its sums."""
    return hr_high_value(key, mask, k)


cdef inline uint16_t lowa5_value(uint64_t key, int k) noexcept nogil:
    """A-5 lowball value 1..6175 of a 5-, 6- or 7-card hand: suits never matter."""
    return hr_lowa5_value(key, k)


cdef inline uint16_t high3_value(uint64_t key) noexcept nogil:
    return hr_high3[slot3(rank_hash(key, HR_HASH3_MUL))]


cdef inline uint16_t low27_value(uint64_t key, uint64_t mask) noexcept nogil:
    """2-7 lowball value of a 5-card hand: a fixed reordering of the high classes."""
    return hr_low27_value(key, mask)
