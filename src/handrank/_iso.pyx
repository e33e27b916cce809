# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled loops of handrank.iso: suit-isomorphic hand indexing and its inverse.

A hand's class is the multiset, over the four suits, of each suit's cards round by round. Each suit
gets a *shape* (how many of its cards fall in each round, in mixed radix) and an index among the
hands of that shape (the rank sets of its rounds, each ranked among the ranks earlier rounds left
free, in mixed radix). The suits sorted by (shape, index) give the *configuration* (the sorted
shapes), looked up in a table built by handrank.iso, and the index is the configuration's
offset plus, for each group of suits of equal shape, the rank of its multiset of indices.
"""
from libc.math cimport cbrt, sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

# The index loop is C (below): its fast copy uses the pext and popcnt instructions, which need
# either a function-level target attribute (Cython cannot attach one) or inline assembly; import
# picks that copy where the CPU has both and pext is fast (not on AMD before Zen 3, where it is
# microcoded and slower than the tables), the portable copy elsewhere (unindex follows the same
# choice for pdep). Both are one C function inlined with a constant `hw`, and again per common
# round count (1, 2, 4) and for the common structures' round sizes, so that the compiler unrolls
# the loops over the rounds and the cards.
cdef extern from * nogil:
    """
    #include <string.h>
    #include "_bits.h"
    #define HR_ISO_MAX_ROUNDS 8
    #define HR_ISO_RANKS 0x1fffu
    #define HR_ISO_BLOCK 64
    /* Unroll the loops over the rounds and the cards where their bounds are constants: gcc's own
       limits let some copies of the loop below keep them as loops (a third slower). */
    #if defined(__GNUC__)
    #define HR_ISO_UNROLL _Pragma("GCC unroll 16")
    #else
    #define HR_ISO_UNROLL
    #endif

    /* Card id 4 * rank + suit as a bit of a 64-bit word holding one 16-bit rank set per suit;
       HR_ISO_NO_CARD, a bit past clubs' ranks, for the ids over 51. */
    #define HR_ISO_NO_CARD (1ULL << 13)
    #define HR_ISO_CARDS 0x1fff1fff1fff1fffULL
    static uint64_t hr_iso_card_bit[256];
    /* The colex rank of each 13-bit rank set among the sets of its size. */
    static uint16_t hr_iso_colex[8192];
    static uint32_t hr_iso_binom13[14][14];
    /* binom_free[u][m] = C(13 - u, m): the sets of m ranks among those u used ranks leave */
    static uint32_t hr_iso_binom_free[14][16];
    /* Software pext for 13 bits in two parts: lo[mask_lo << 7 | bits_lo] (7 bits) and
       hi[mask_hi << 6 | bits_hi] (6 bits): the bits of `bits` under `mask`, packed down. */
    static uint8_t hr_iso_pext_lo[128 * 128];
    static uint8_t hr_iso_pext_hi[64 * 64];
    static uint8_t hr_iso_popcount7[128];
    static uint8_t hr_iso_popcount13[8192];
    /* triangle[b] = C(b + 1, 2), tetrahedron[c] = C(c + 2, 3): the terms of a direct
       configuration table's slot (that table exists only for fewer than 183 shapes). */
    static uint32_t hr_iso_triangle[256];
    static uint32_t hr_iso_tetrahedron[256];

    typedef struct {
        int rounds, k;
        int ends[HR_ISO_MAX_ROUNDS];
        uint64_t weights[HR_ISO_MAX_ROUNDS];
        const int32_t* direct;      /* NULL: probe `slots` */
        const int32_t* slots;
        uint64_t slot_mask;
        const uint64_t* shapes;     /* per configuration: its four shapes, two to a word */
        const uint64_t* terms;      /* per configuration: offset, four multipliers, group places */
    } hr_iso_index_args;

    /* The software pext of one suit from its two table indices (the low 14 and 12 bits of the
       words): the low 7 ranks, then the high 6 shifted past the free ones among the low 7. */
    static inline uint32_t hr_iso_pext_table(uint64_t lo_index, uint64_t hi_index) {
        uint32_t lo = (uint32_t)lo_index & 0x3fff;
        return hr_iso_pext_lo[lo] | ((uint32_t)hr_iso_pext_hi[(uint32_t)hi_index & 0xfff] << hr_iso_popcount7[lo >> 7]);
    }

    /* the instructions themselves (_bits.h), run only where import chose the fast copy */
    #if HR_HAVE_PEXT
    #define hr_iso_pext_hw hr_pext32_hw
    #define hr_iso_pdep_hw hr_pdep32_hw
    #define hr_iso_popcount_hw hr_popcnt64_hw
    #define hr_iso_cpu_fast_pext hr_cpu_has_fast_pext
    #define HR_ISO_HAVE_HW 1
    #else
    static inline uint32_t hr_iso_pext_hw(uint32_t bits, uint32_t mask) { return 0; }
    static inline uint32_t hr_iso_pdep_hw(uint32_t bits, uint32_t mask) { return 0; }
    static inline uint64_t hr_iso_popcount_hw(uint64_t x) { return 0; }
    static int hr_iso_cpu_fast_pext(void) { return 0; }
    #define HR_ISO_HAVE_HW 0
    #endif

    /* C(y, k) for k in 0..4, exact wherever the result fits in 64 bits (each step divides before
       it multiplies where the factor allows). */
    static uint64_t hr_iso_binom_small(uint64_t y, int k) {
        uint64_t c2, c3;
        if (k == 0) return 1;
        if (k == 1) return y;
        if (y < (uint64_t)k) return 0;
        c2 = y % 2 == 0 ? (y >> 1) * (y - 1) : y * ((y - 1) >> 1);
        if (k == 2) return c2;
        c3 = (y - 2) % 3 == 0 ? c2 * ((y - 2) / 3) : (c2 / 3) * (y - 2);
        if (k == 3) return c3;
        if ((y - 3) % 4 == 0) return c3 * ((y - 3) / 4);
        if ((y - 3) % 2 == 0) return (c3 >> 1) * ((y - 3) >> 1);
        return (c3 >> 2) * (y - 3);
    }

    /* C(x + j, j + 1): the term of the suit at place j of its group (x: its index). */
    static uint64_t hr_iso_group_term(uint64_t x, int j) {
        return j == 0 ? x : hr_iso_binom_small(x + j, j + 1);
    }

    /* a where bit is 1, else b, by a mask: a branch here would follow the random hands */
    static inline uint64_t hr_iso_pick(uint64_t a, uint64_t b, uint32_t bit) {
        return b ^ ((a ^ b) & (0 - (uint64_t)bit));
    }

    #define HR_ISO_SORT2(a, b) do { uint64_t lo_ = (a) < (b) ? (a) : (b); \\
        (b) = (a) < (b) ? (b) : (a); (a) = lo_; } while (0)

    /* The first bad row, or -1. `rounds` and `hw` are constants where inlined; so are the round
       ends where `fixed_ends` is a constant array (then rows hold no cards past the last round).
       The rounds after `grouped` hold one card each (hold'em's and Omaha's turn and river): that
       card updates its own suit alone instead of every suit taking an empty round. */
    static HR_FORCE_INLINE int64_t hr_iso_index_body(const hr_iso_index_args* args, const uint8_t* rows,
                                                   int64_t n, uint64_t* out, const int rounds,
                                                   const int hw, const int* fixed_ends, int grouped) {
        const int k = fixed_ends ? fixed_ends[rounds - 1] : args->k;
        const int32_t* direct = args->direct;
        const uint64_t* terms = args->terms;
        int ends[HR_ISO_MAX_ROUNDS] = {0};
        uint64_t weights[HR_ISO_MAX_ROUNDS];
        /* per row (declared here: set once, not per row, for the compiler's flow analysis) */
        uint64_t words[HR_ISO_MAX_ROUNDS] = {0}, lo_index[HR_ISO_MAX_ROUNDS] = {0}, hi_index[HR_ISO_MAX_ROUNDS] = {0};
        int64_t row, base;
        int r, s, i;
        uint64_t block_keys[HR_ISO_BLOCK][4];   /* each row's four suit keys, sorted */
        for (r = 0; r < rounds; r++) {
            ends[r] = fixed_ends ? fixed_ends[r] : args->ends[r];
            weights[r] = args->weights[r];
        }
        if (fixed_ends) {
            /* the same weights as args->weights (handrank.iso's radix), as constants */
            uint64_t weight = 1;
            for (r = rounds - 1; r >= 0; r--) {
                int cards = ends[r] - (r ? ends[r - 1] : 0);
                weights[r] = weight;
                weight *= (cards < 13 ? cards : 13) + 1;
            }
        }
        if (!grouped) {
            grouped = rounds;
            while (grouped > 1 && ends[grouped - 1] - ends[grouped - 2] == 1) grouped--;
        }
        /* Two passes over each block of rows: the suits' keys of every row, then each row's
           configuration and index from its keys. A row's work is one long chain of dependent
           loads (cards, rank sets, colex ranks, the sorted keys, the configuration, its terms);
           done row after row, only about two rows' chains fit in the core's window at once, and
           the split lets the short second pass overlap many rows' lookups. */
        for (base = 0; base < n; base += HR_ISO_BLOCK) {
          int64_t end = n - base < HR_ISO_BLOCK ? n : base + HR_ISO_BLOCK, bad = -1;
          for (row = base; row < end; row++) {
            const uint8_t* hand = rows + row * k;
            uint64_t* keys = block_keys[row - base];
            uint64_t shapes[4], seen = 0, repeats = 0;
            uint32_t suit_indices[4], used[4], used_counts[4], counted = 0;
            uint8_t late[HR_ISO_MAX_ROUNDS];
            int start = 0;
            HR_ISO_UNROLL
            for (r = 0; r < grouped; r++) {
                uint64_t word = 0;
                HR_ISO_UNROLL
                for (i = start; i < ends[r]; i++) word |= hr_iso_card_bit[hand[i]];
                words[r] = word;
                if (!hw && r) {
                    /* the software pext's table indices (mask: the ranks earlier rounds left free,
                       bits: this round's), for the four suits at once, a 16-bit lane each */
                    lo_index[r] = (~seen & 0x007f007f007f007fULL) << 7 | (word & 0x007f007f007f007fULL);
                    hi_index[r] = (~seen >> 1 & 0x0fc00fc00fc00fc0ULL) | (word >> 7 & 0x003f003f003f003fULL);
                }
                if (!hw) repeats |= seen & word;
                seen |= word;
                start = ends[r];
            }
            /* the one-card rounds, then cards past the indexed round (checked, not indexed); each
               card is read once, so that one another thread writes after this check never
               reaches the tables below */
            HR_ISO_UNROLL
            for (r = grouped; r < rounds; r++) {
                uint64_t bit = hr_iso_card_bit[late[r] = hand[ends[r] - 1]];
                if (!hw) repeats |= seen & bit;
                seen |= bit;
            }
            HR_ISO_UNROLL
            for (i = ends[rounds - 1]; i < k; i++) {
                uint64_t bit = hr_iso_card_bit[hand[i]];
                if (!hw) repeats |= seen & bit;
                seen |= bit;
            }
            /* Ids over 51 set HR_ISO_NO_CARD, and a repeated card sets its bit twice: fewer card
               bits than cards. Without popcnt, whose steps cost more than the tables: a card
               repeated from an earlier round (or a one-card round, or past the indexed round)
               meets its bit in `seen`, and the grouped rounds' counts, summed over the suits
               below, fall short where a round repeats a card or holds an id over 51. */
            if (hw) {
                if (hr_iso_popcount_hw(seen & HR_ISO_CARDS) != (uint64_t)k) { bad = row; break; }
            } else {
                if (repeats | (seen & HR_ISO_NO_CARD)) { bad = row; break; }
            }
            for (s = 0; s < 4; s++) {
                uint32_t rank_set = (uint32_t)(words[0] >> (16 * s)) & HR_ISO_RANKS;
                uint32_t m = hw ? (uint32_t)hr_iso_popcount_hw(rank_set) : hr_iso_popcount13[rank_set];
                uint32_t used_set = rank_set, used_count = m;
                uint64_t shape = m * weights[0];
                uint32_t suit_index = hr_iso_colex[rank_set];
                for (r = 1; r < grouped; r++) {
                    uint32_t compact;
                    rank_set = (uint32_t)(words[r] >> (16 * s)) & HR_ISO_RANKS;
                    m = hw ? (uint32_t)hr_iso_popcount_hw(rank_set) : hr_iso_popcount13[rank_set];
                    /* the set ranked among the ranks earlier rounds left free */
                    compact = hw ? hr_iso_pext_hw(rank_set, ~used_set)
                                 : hr_iso_pext_table(lo_index[r] >> (16 * s), hi_index[r] >> (16 * s));
                    suit_index = suit_index * hr_iso_binom_free[used_count][m] + hr_iso_colex[compact];
                    shape += m * weights[r];
                    used_set |= rank_set;
                    used_count += m;
                }
                suit_indices[s] = suit_index;
                shapes[s] = shape;
                used[s] = used_set;
                used_counts[s] = used_count;
                counted += used_count;
            }
            if (!hw && counted != (uint32_t)ends[grouped - 1]) { bad = row; break; }
            HR_ISO_UNROLL
            for (r = grouped; r < rounds; r++) {
                /* one card of rank q: its suit's index gains a digit of base 13 - used ranks, the
                   rank's place among the free ranks */
                uint32_t card = late[r], q = card >> 2, below;
                s = card & 3;
                below = used[s] & ((1u << q) - 1);
                if (hw) {
                    suit_indices[s] = suit_indices[s] * (13 - (uint32_t)hr_iso_popcount_hw(used[s]))
                        + q - (uint32_t)hr_iso_popcount_hw(below);
                } else {
                    suit_indices[s] = suit_indices[s] * (13 - used_counts[s]) + q - hr_iso_popcount13[below];
                    used_counts[s]++;
                }
                shapes[s] += weights[r];
                used[s] |= 1u << q;
            }
            for (s = 0; s < 4; s++) keys[s] = shapes[s] << 32 | suit_indices[s];
            HR_ISO_SORT2(keys[0], keys[1]);
            HR_ISO_SORT2(keys[2], keys[3]);
            HR_ISO_SORT2(keys[0], keys[2]);
            HR_ISO_SORT2(keys[1], keys[3]);
            HR_ISO_SORT2(keys[1], keys[2]);
          }
          /* the rows before a bad one are indexed (an earlier row the tables refuse comes first) */
          for (end = row, row = base; row < end; row++) {
            const uint64_t* keys = block_keys[row - base];
            uint64_t index, x[4];
            const uint64_t* term;
            int32_t config;
            uint32_t places;
            if (direct) {
                config = direct[(keys[0] >> 32) + hr_iso_triangle[keys[1] >> 32] + hr_iso_tetrahedron[keys[2] >> 32]];
            } else {
                uint64_t key_lo = (keys[0] >> 32) | (keys[1] >> 32 << 32);
                uint64_t key_hi = (keys[2] >> 32) | (keys[3] >> 32 << 32);
                uint64_t slot = (((key_lo * 0x9E3779B97F4A7C15ULL) ^ (key_hi * 0xC2B2AE3D27D4EB4FULL)) >> 32)
                    & args->slot_mask;
                for (;;) {
                    config = args->slots[slot];
                    if (config < 0 || (args->shapes[2 * config] == key_lo && args->shapes[2 * config + 1] == key_hi))
                        break;
                    slot = (slot + 1) & args->slot_mask;
                }
            }
            if (config < 0) return row;     /* every valid hand has a configuration */
            term = terms + 6 * (int64_t)config;
            places = (uint32_t)term[5];
            for (s = 0; s < 4; s++) x[s] = (uint32_t)keys[s];     /* the suit index, below its shape */
            index = term[0] + term[1] * x[0];
            /* The sorted suit at place j of a group of equal shapes adds C(x + j, j + 1); the
               first suit is always at place 0, and places past 1 (three or four suits of one
               shape) are rare enough for a branch. */
            if ((places & 0xfefe0000u) == 0) {
                index += term[2] * hr_iso_pick(x[1] * (x[1] + 1) >> 1, x[1], (places >> 8) & 1)
                       + term[3] * hr_iso_pick(x[2] * (x[2] + 1) >> 1, x[2], (places >> 16) & 1)
                       + term[4] * hr_iso_pick(x[3] * (x[3] + 1) >> 1, x[3], (places >> 24) & 1);
            } else {
                for (s = 1; s < 4; s++) index += term[1 + s] * hr_iso_group_term(x[s], (places >> (8 * s)) & 0xff);
            }
            out[row] = index;
          }
          if (bad >= 0) return bad;
        }
        return -1;
    }

    static HR_FORCE_INLINE int64_t hr_iso_index_rounds(const hr_iso_index_args* args, const uint8_t* rows, int64_t n,
                                       uint64_t* out, const int hw) {
        /* The structures solvers use most get their round ends as constants, so that the compiler
           unrolls the loops over their cards (the rows hold no cards past the last round). */
        static const int thirteen[1] = {13};
        static const int hole2[3][2] = {{2, 5}, {2, 6}, {2, 7}}, hole4[2][2] = {{4, 7}, {4, 9}};
        static const int hole5[2] = {5, 8}, hole6[2] = {6, 9};
        static const int holdem[4] = {2, 5, 6, 7}, omaha[4] = {4, 7, 8, 9};
        const int* e = args->ends;
        const int k = args->k;
        switch (args->rounds) {
            case 1:
                if (k == 13 && e[0] == 13) return hr_iso_index_body(args, rows, n, out, 1, hw, thirteen, 1);
                return hr_iso_index_body(args, rows, n, out, 1, hw, NULL, 1);
            case 2:
                if (k == e[1]) {
                    if (e[0] == 2 && k == 5) return hr_iso_index_body(args, rows, n, out, 2, hw, hole2[0], 2);
                    if (e[0] == 2 && k == 6) return hr_iso_index_body(args, rows, n, out, 2, hw, hole2[1], 2);
                    if (e[0] == 2 && k == 7) return hr_iso_index_body(args, rows, n, out, 2, hw, hole2[2], 2);
                    if (e[0] == 4 && k == 7) return hr_iso_index_body(args, rows, n, out, 2, hw, hole4[0], 2);
                    if (e[0] == 4 && k == 9) return hr_iso_index_body(args, rows, n, out, 2, hw, hole4[1], 2);
                    if (e[0] == 5 && k == 8) return hr_iso_index_body(args, rows, n, out, 2, hw, hole5, 2);
                    if (e[0] == 6 && k == 9) return hr_iso_index_body(args, rows, n, out, 2, hw, hole6, 2);
                }
                return hr_iso_index_body(args, rows, n, out, 2, hw, NULL, 2);
            case 4:
                if (k == 7 && e[0] == 2 && e[1] == 5 && e[2] == 6) return hr_iso_index_body(args, rows, n, out, 4, hw, holdem, 2);
                if (k == 9 && e[0] == 4 && e[1] == 7 && e[2] == 8) return hr_iso_index_body(args, rows, n, out, 4, hw, omaha, 2);
                return hr_iso_index_body(args, rows, n, out, 4, hw, NULL, 0);
            default: return hr_iso_index_body(args, rows, n, out, args->rounds, hw, NULL, 0);
        }
    }
    static int64_t hr_iso_index_portable(const hr_iso_index_args* args, const uint8_t* rows, int64_t n,
                                         uint64_t* out) {
        return hr_iso_index_rounds(args, rows, n, out, 0);
    }
    static int64_t hr_iso_index_hw(const hr_iso_index_args* args, const uint8_t* rows, int64_t n,
                                   uint64_t* out) {
        return hr_iso_index_rounds(args, rows, n, out, HR_ISO_HAVE_HW);
    }
    """
    ctypedef struct hr_iso_index_args:
        int rounds, k
        int ends[8]
        uint64_t weights[8]
        const int32_t* direct
        const int32_t* slots
        uint64_t slot_mask
        const uint64_t* shapes
        const uint64_t* terms
    uint64_t HR_ISO_NO_CARD
    uint64_t hr_iso_card_bit[256]
    uint16_t hr_iso_colex[8192]
    uint32_t hr_iso_binom13[14][14]
    uint32_t hr_iso_binom_free[14][16]
    uint8_t hr_iso_pext_lo[128 * 128]
    uint8_t hr_iso_pext_hi[64 * 64]
    uint8_t hr_iso_popcount7[128]
    uint8_t hr_iso_popcount13[8192]
    uint32_t hr_iso_triangle[256]
    uint32_t hr_iso_tetrahedron[256]
    uint64_t hr_iso_binom_small(uint64_t y, int k)
    uint32_t hr_iso_pdep_hw(uint32_t bits, uint32_t mask)
    int hr_iso_cpu_fast_pext()
    int64_t hr_iso_index_portable(const hr_iso_index_args*, const uint8_t*, int64_t, uint64_t*)
    int64_t hr_iso_index_hw(const hr_iso_index_args*, const uint8_t*, int64_t, uint64_t*)

ctypedef int64_t (*index_kernel_t)(const hr_iso_index_args*, const uint8_t*, int64_t, uint64_t*) noexcept nogil
cdef index_kernel_t index_kernel = hr_iso_index_portable


def set_kernel(str name):
    """Use the "pext" loops (index with pext and popcnt, unindex with pdep) or the "portable" ones
    (import picks pext where the CPU has fast ones); ValueError for "pext" on a CPU without them."""
    global index_kernel
    if name == "pext" and hr_iso_cpu_fast_pext():
        index_kernel = hr_iso_index_hw
    elif name == "portable":
        index_kernel = hr_iso_index_portable
    else:
        raise ValueError(f"no {name!r} index loop on this CPU (choices: 'pext' where the CPU has fast "
                         "pext and popcnt, 'portable')")


set_kernel("pext" if hr_iso_cpu_fast_pext() else "portable")


def kernel_name():
    """The loops in use: "pext" or "portable"."""
    return "pext" if index_kernel == hr_iso_index_hw else "portable"


def has_fast_pext():
    """Whether this CPU has the pext and popcnt instructions, pext not microcoded."""
    return bool(hr_iso_cpu_fast_pext())


# The tables of unindex (the index loop's are declared in C above; init_tables fills both).
cdef uint8_t POPCOUNT[8192]
# Software pdep for 13 bits in two parts: PDEP_LO[mask_lo << 7 | bits] spreads the low bits of
# `bits` over the bits of mask_lo; PDEP_HI[mask_hi << 6 | bits] likewise for the high 6 bits.
cdef uint8_t PDEP_LO[128 * 128]
cdef uint8_t PDEP_HI[64 * 64]
# A rank set as card bits of clubs (bit 4 * rank): SPREAD_LO for ranks 0..6, SPREAD_HI for 7..12
# (shifted by 28 where used).
cdef uint64_t SPREAD_LO[128]
cdef uint64_t SPREAD_HI[64]
# RECIP13[n][k] = ceil(2**32 / C(n, k)): x // C(n, k) == (x * RECIP13[n][k]) >> 32 for x < 2**21
# (every C(n, k) here is below 2**11, so the error x * (RECIP - 2**32 / C) / 2**32 stays under
# 1 / C(n, k)); a multiplication instead of a division in unindex
cdef uint64_t RECIP13[14][14]
DEF RECIP_LIMIT = 2097152
# UNRANK_SET[UNRANK_START[m] + i]: the m-card rank set of colex rank i (the inverse of hr_iso_colex).
cdef uint16_t UNRANK_SET[8192]
cdef uint16_t UNRANK_START[14]
# The position of a one-bit word: DE_BRUIJN_POSITION[(bit * DE_BRUIJN) >> 58].
cdef uint8_t DE_BRUIJN_POSITION[64]
DEF DE_BRUIJN = 0x03f79d71b4cb0a89
cdef bint ready = False

DEF RANKS_MASK = 0x1fff
DEF MAX_ROUNDS = 8


cdef inline int lowest_bit(uint64_t one_bit) noexcept nogil:
    return DE_BRUIJN_POSITION[(one_bit * <uint64_t>DE_BRUIJN) >> 58]


cdef inline uint32_t pdep13(uint32_t bits, uint32_t mask) noexcept nogil:
    cdef uint32_t low = POPCOUNT[mask & 127]
    return PDEP_LO[((mask & 127) << 7) | (bits & ((1u << low) - 1))] | (
        <uint32_t>PDEP_HI[((mask >> 7) << 6) | ((bits >> low) & 63)] << 7)


def init_tables():
    """Fill the small rank-set tables (once per process; a few microseconds)."""
    global ready
    cdef int c, s, mask, bits, i, j, n, k, out_bit
    if ready:
        return
    for c in range(256):
        hr_iso_card_bit[c] = (<uint64_t>1) << (16 * (c & 3) + (c >> 2)) if c < 52 else HR_ISO_NO_CARD
    for n in range(14):
        for k in range(14):
            hr_iso_binom13[n][k] = 0 if k > n else (
                1 if k == 0 or k == n else hr_iso_binom13[n - 1][k - 1] + hr_iso_binom13[n - 1][k])
            RECIP13[n][k] = 0 if k > n else (((<uint64_t>1) << 32) + hr_iso_binom13[n][k] - 1) // hr_iso_binom13[n][k]
    for n in range(14):
        for k in range(16):
            hr_iso_binom_free[n][k] = hr_iso_binom13[13 - n][k] if k < 14 else 0
    for n in range(256):
        hr_iso_triangle[n] = n * (n + 1) // 2
        hr_iso_tetrahedron[n] = n * (n + 1) * (n + 2) // 6
    for s in range(8192):
        n = 0
        c = 0
        for i in range(13):
            if s >> i & 1:
                n += 1
                c += hr_iso_binom13[i][n]
        POPCOUNT[s] = n
        hr_iso_popcount13[s] = n
        hr_iso_colex[s] = c
    for s in range(128):
        hr_iso_popcount7[s] = POPCOUNT[s]
    UNRANK_START[0] = 0
    for n in range(1, 14):
        UNRANK_START[n] = UNRANK_START[n - 1] + hr_iso_binom13[13][n - 1]
    for s in range(8192):
        UNRANK_SET[UNRANK_START[POPCOUNT[s]] + hr_iso_colex[s]] = s
    for i in range(64):
        DE_BRUIJN_POSITION[(((<uint64_t>1) << i) * <uint64_t>DE_BRUIJN) >> 58] = i
    for mask in range(128):
        for bits in range(128):
            out_bit = 0
            j = 0
            for i in range(7):
                if mask >> i & 1:
                    if bits >> i & 1:
                        out_bit |= 1 << j
                    j += 1
            hr_iso_pext_lo[mask << 7 | bits] = out_bit
            out_bit = 0
            j = 0
            for i in range(7):
                if mask >> i & 1:
                    if bits >> j & 1:
                        out_bit |= 1 << i
                    j += 1
            PDEP_LO[mask << 7 | bits] = out_bit
    for mask in range(64):
        for bits in range(64):
            out_bit = 0
            j = 0
            for i in range(6):
                if mask >> i & 1:
                    if bits >> i & 1:
                        out_bit |= 1 << j
                    j += 1
            hr_iso_pext_hi[mask << 6 | bits] = out_bit
            out_bit = 0
            j = 0
            for i in range(6):
                if mask >> i & 1:
                    if bits >> j & 1:
                        out_bit |= 1 << i
                    j += 1
            PDEP_HI[mask << 6 | bits] = out_bit
    for bits in range(128):
        SPREAD_LO[bits] = 0
        for i in range(7):
            if bits >> i & 1:
                SPREAD_LO[bits] |= (<uint64_t>1) << (4 * i)
    for bits in range(64):
        SPREAD_HI[bits] = 0
        for i in range(6):
            if bits >> i & 1:
                SPREAD_HI[bits] |= (<uint64_t>1) << (4 * i)
    ready = True


def index_rows(const uint8_t[:, ::1] cards, uint64_t[::1] out, const uint8_t[::1] round_end,
               const uint32_t[::1] radix, const int32_t[::1] direct,
               const int32_t[::1] slots, const uint64_t[:, ::1] config_shapes,
               const uint64_t[:, ::1] config_terms):
    """Index every row for the round that ends at card round_end[-1] (round_end[r]: one past the
    last card of round r); the first bad row (id > 51 or a repeated card anywhere in the row), or
    -1. A shape is sum(m[r] * radix[r]) for the suit's m[r] cards in round r (radix[rounds + r]:
    the base of round r's digit, unused here). The configuration of the three smallest shapes (the
    fourth follows) is direct[their multiset rank] where that table is not empty, else found in
    the hash table `slots` (a power of two long, -1 where empty) by the shapes in config_shapes.
    config_terms[c]: the configuration's offset, the multiplier of each sorted suit, and each
    sorted suit's place in its group of equal shapes (a byte each)."""
    cdef hr_iso_index_args args
    cdef int r, rounds = round_end.shape[0]
    cdef Py_ssize_t bad
    args.rounds = rounds
    args.k = cards.shape[1]
    for r in range(rounds):
        args.ends[r] = round_end[r]
        args.weights[r] = radix[r]
    args.direct = &direct[0] if direct.shape[0] else NULL
    args.slots = &slots[0]
    args.slot_mask = <uint64_t>slots.shape[0] - 1
    args.shapes = &config_shapes[0, 0]
    args.terms = &config_terms[0, 0]
    if cards.shape[0] == 0:
        return -1
    with nogil:
        bad = index_kernel(&args, &cards[0, 0], cards.shape[0], &out[0])
    return bad


cdef uint64_t unrank_multiset_member(uint64_t* rest, uint64_t values, int i) noexcept nogil:
    """The largest y in [i, values - 1 + i] with C(y, i + 1) <= rest[0]; takes it off rest. A
    floating-point root gives y within one or two, then exact steps settle it."""
    cdef uint64_t y, k = i + 1, top = values - 1 + i
    cdef double target = <double>rest[0]
    if k == 1:
        y = rest[0]
    elif k == 2:
        y = <uint64_t>((1.0 + sqrt(1.0 + 8.0 * target)) * 0.5)
    elif k == 3:
        y = <uint64_t>(cbrt(6.0 * target) + 1.0)
    else:
        y = <uint64_t>(sqrt(sqrt(24.0 * target)) + 1.5)
    if y > top:
        y = top
    if y < <uint64_t>i:
        y = i
    while y > <uint64_t>i and hr_iso_binom_small(y, k) > rest[0]:
        y -= 1
    while y < top and hr_iso_binom_small(y + 1, k) <= rest[0]:
        y += 1
    rest[0] -= hr_iso_binom_small(y, k)
    return y


def unindex_rows(const uint64_t[::1] indices, uint8_t[:, ::1] out, const uint8_t[::1] round_end,
                 const uint8_t[:, ::1] config_cards,
                 const uint64_t[:, ::1] config_shapes, const uint64_t[::1] config_offset,
                 const uint64_t[:, ::1] config_mult, const uint8_t[:, ::1] config_within,
                 const uint64_t[:, ::1] config_values, const uint64_t[:, ::1] config_count,
                 const int32_t[::1] buckets, int bucket_shift):
    """The canonical hand of each index (checked below the size by the caller): the suit with the
    largest key (the most cards in the earliest round first) is clubs, the next diamonds, and so
    on; each round's cards in increasing id order. config_cards[c, rounds * p + r]: the cards of
    sorted suit p in round r. buckets[i]: the configuration that holds index i << bucket_shift
    (one entry past the last such i holds the last configuration)."""
    with nogil:
        unindex_loop(indices, out, round_end, config_cards, config_offset, config_mult, config_within,
                     config_values, config_count, &buckets[0], bucket_shift, index_kernel == hr_iso_index_hw)


cdef void unindex_loop(const uint64_t[::1] indices, uint8_t[:, ::1] out, const uint8_t[::1] round_end,
                       const uint8_t[:, ::1] config_cards, const uint64_t[::1] config_offset,
                       const uint64_t[:, ::1] config_mult, const uint8_t[:, ::1] config_within,
                       const uint64_t[:, ::1] config_values, const uint64_t[:, ::1] config_count,
                       const int32_t* buckets, int bucket_shift, bint hw) noexcept nogil:
    # As in index_loop: a copy per common round count, its round loops unrolled (and each
    # round's card mask kept in a register rather than read and written back per suit).
    cdef int rounds = round_end.shape[0]
    if rounds == 1:
        unindex_loop_rounds(indices, out, config_cards, config_offset, config_mult, config_within,
                            config_values, config_count, buckets, bucket_shift, hw, 1)
    elif rounds == 2:
        unindex_loop_rounds(indices, out, config_cards, config_offset, config_mult, config_within,
                            config_values, config_count, buckets, bucket_shift, hw, 2)
    elif rounds == 4:
        unindex_loop_rounds(indices, out, config_cards, config_offset, config_mult, config_within,
                            config_values, config_count, buckets, bucket_shift, hw, 4)
    else:
        unindex_loop_rounds(indices, out, config_cards, config_offset, config_mult, config_within,
                            config_values, config_count, buckets, bucket_shift, hw, rounds)


cdef inline void unindex_loop_rounds(const uint64_t[::1] indices, uint8_t[:, ::1] out,
                                     const uint8_t[:, ::1] config_cards, const uint64_t[::1] config_offset,
                                     const uint64_t[:, ::1] config_mult, const uint8_t[:, ::1] config_within,
                                     const uint64_t[:, ::1] config_values, const uint64_t[:, ::1] config_count,
                                     const int32_t* buckets, int bucket_shift, bint hw,
                                     const int rounds) noexcept nogil:
    cdef Py_ssize_t n = indices.shape[0], row, i
    cdef int r, p, g, j, m, pos
    cdef Py_ssize_t lo, hi, mid, configs = config_offset.shape[0]
    cdef uint64_t rest, group_rest, suit_index, cards_set, lowest
    cdef uint64_t round_masks[MAX_ROUNDS]
    cdef uint64_t suit_indices[4]
    cdef uint64_t locals_[MAX_ROUNDS]
    cdef uint32_t free, used_count, compact, rank_set, bound, small_index, quotient
    cdef Py_ssize_t span, half
    cdef const uint8_t* cards_of
    cdef const uint64_t* offsets = &config_offset[0]
    for row in range(n):
        # the last configuration whose offset is at most the index: between the configurations
        # of the index's bucket and of the next bucket (most often the same one), a binary search
        # that moves `lo` by a conditional move, not a branch the random indices would mispredict
        lo = buckets[indices[row] >> bucket_shift]
        span = buckets[(indices[row] >> bucket_shift) + 1] - lo + 1
        while span > 1:
            half = span >> 1
            lo = lo + half if offsets[lo + half] <= indices[row] else lo
            span -= half
        rest = indices[row] - offsets[lo]
        p = 0
        while p < 4:
            j = p + 1       # a group runs until the next position numbered 0 within its group
            while j < 4 and config_within[lo, j] != 0:
                j += 1
            g = j - p
            if g == 1 and p == 3:
                group_rest = rest // config_mult[lo, p]        # the last group takes the rest
            else:
                group_rest = (rest // config_mult[lo, p]) % config_count[lo, p]
            if g == 1:
                suit_indices[p] = group_rest
            else:
                for i in range(g - 1, -1, -1):
                    suit_indices[p + i] = unrank_multiset_member(&group_rest, config_values[lo, p], i) - i
            p = j
        for r in range(rounds):
            round_masks[r] = 0
        cards_of = &config_cards[lo, 0]
        for p in range(4):
            suit_index = suit_indices[p]
            used_count = 0
            for r in range(rounds):
                used_count += cards_of[rounds * p + r]
            # a suit index is below 2**32: 32-bit divisions, none for a round without its cards
            small_index = <uint32_t>suit_index
            for r in range(rounds - 1, 0, -1):
                m = cards_of[rounds * p + r]
                used_count -= m
                if m == 0:
                    locals_[r] = 0
                    continue
                bound = hr_iso_binom13[13 - used_count][m]
                if small_index < RECIP_LIMIT:
                    quotient = <uint32_t>((small_index * RECIP13[13 - used_count][m]) >> 32)
                else:
                    quotient = small_index // bound
                locals_[r] = small_index - quotient * bound
                small_index = quotient
            locals_[0] = small_index
            free = RANKS_MASK
            for r in range(rounds):
                m = cards_of[rounds * p + r]
                compact = UNRANK_SET[UNRANK_START[m] + locals_[r]]
                # spread the compact set over the free ranks (a software pdep; every rank is
                # free in the first round)
                rank_set = compact if r == 0 else (hr_iso_pdep_hw(compact, free) if hw else pdep13(compact, free))
                free &= ~rank_set
                # rank bits to card bits of suit 3 - p (clubs for the largest key)
                round_masks[r] |= (SPREAD_LO[rank_set & 127] | SPREAD_HI[rank_set >> 7] << 28) << (3 - p)
        pos = 0
        for r in range(rounds):
            cards_set = round_masks[r]
            while cards_set:
                lowest = cards_set & (~cards_set + 1)
                out[row, pos] = lowest_bit(lowest)
                pos += 1
                cards_set ^= lowest
