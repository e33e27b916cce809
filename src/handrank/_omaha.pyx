# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Omaha kernels: the best high hand and the best 8-or-better low made of exactly two hole
cards and exactly three board cards.

The batch loops read the hole and board arrays side by side. The low loops check each hand before
they value it: its two card masks flag a card repeated in the hole or on the board, and their AND
a card in both. The high loops value every hand and check them all with one popcount each (below).

High: on a 5-card board, the board's ranks pick a row of a generated table (by the 5-card perfect
hash of its rank sum) that holds, for each hole rank pair, the best plain hand of that pair and
three of the board; a hand then costs one lookup per hole pair. On a 3- or 4-card board every
combination is looked up through the 5-card hash, which is linear in the cards (rank_sum * MUL),
so each hole pair's and each board triple's partial hash is summed once and a combination costs
one add and two table reads. Flushes are handled apart, only when the board holds three of a suit
and the hole two of it. The high loops are C (below), compiled twice: see set_kernel.

Low: only the sets of low ranks (A..8) in the hole and on the board matter, so a generated table
indexed by the two 8-bit sets holds the best low (tools/gen_tables.py: for each pair of the hole's
low ranks, the three lowest board ranks not already held; among sets of five ranks the smaller
number is the better low).
"""
from libc.string cimport memcpy
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from handrank._tables cimport *
from handrank._kernels cimport card_mask, hr_slot5

cdef extern from "handrank_omaha_tables.h" nogil:
    const int HR_OMAHA_PAIRS
    const uint8_t hr_omaha_pair[16576]
    const uint16_t hr_omaha5[]
    const uint16_t hr_omaha_low8[65536]


# Games, as numbered for `batch`
cdef enum:
    GAME_HIGH = 0
    GAME_LOW8 = 1
    NO_LOW8 = 0     # the value of "no qualifying low"

HIGH = GAME_HIGH
LOW8 = GAME_LOW8
# Every qualifying low is on lowa5's scale, 6120..6175; no low is below them all.
NO_LOW = NO_LOW8


# The high loops are C so that one copy can be compiled for popcnt (a function-level target
# attribute, which Cython cannot attach), chosen at import where the CPU has it; wheels stay
# baseline x86-64 / arm64, and a HANDRANK_PORTABLE=1 build has only the plain-C copy (_bits.h).
#
# A hand is valued before it is known to be valid, the way _evaluate's loops do: every index the
# loop computes is in range whatever the bytes (hr_card_hashes has 256 entries, slots are masked,
# hr_omaha_pair takes any two bytes, the flush guards its rank masks), so a card another thread
# writes meanwhile can give a wrong value but never a read out of bounds; the value of a bad hand
# is thrown away, and validation is one popcount per hand, summed: ids 52..255 add no card bit
# and a repeated card carries, so every hand holds k + nb distinct valid cards exactly when the
# popcounts add up to n * (k + nb). Only after a bad hand does batch() look for the first one.
#
# Per card one 16-byte read of hr_card_hashes (_kernels.pxd's hr_sums) gives its rank hash (rank
# multiplier times the 5-card hash's C: no shift or multiply per hand) with its suit counter in
# the low 16 bits, and its card bit. benchmarks/kernel_mca.py models these loops; docs/benchmarks.md
# has the figures.
cdef extern from * nogil:
    """
    #include <string.h>
    #include "_bits.h"

    #if defined(__GNUC__)
    #define HR_OMAHA_COLD __attribute__((noinline, cold))
    #elif defined(_MSC_VER)
    #define HR_OMAHA_COLD __declspec(noinline)
    #else
    #define HR_OMAHA_COLD
    #endif

    /* the n highest set bits of m (m has at least n) */
    static inline uint32_t hr_omaha_top_bits(uint32_t m, int n) {
        uint32_t kept = 0, bit;
        for (; n > 0; n--) {
            bit = (uint32_t)1 << hr_highest_bit32(m);
            kept |= bit;
            m ^= bit;
        }
        return kept;
    }

    /* The best flush of two of the `hole` ranks and three of the `board` ranks (rank masks of one
       suit). A straight flush is a window of five ranks with exactly two in the hole and three on
       the board; any other flush is best with the two highest hole ranks and the three highest
       board ranks (they beat any other choice rank for rank). 0 where the masks hold too few
       ranks: only a bad hand's can (its value is thrown away), and top_bits needs them. Out of
       the loops (a flush is in about one hand in five on a river, and the window search rarer). */
    static HR_OMAHA_COLD uint16_t hr_omaha_flush(uint32_t hole, uint32_t board) {
        uint32_t window, both = hole | board;
        /* ranks that start a run of five (bit r: ranks r..r+4), the wheel apart */
        uint32_t runs = both & (both >> 1) & (both >> 2) & (both >> 3) & (both >> 4);
        int top;
        if (hr_popcount32(hole) < 2 || hr_popcount32(board) < 3) return 0;
        if (runs != 0 || (both & 0x100F) == 0x100F) {
            for (top = 12; top > 2; top--) {
                /* ranks top-4..top, the wheel's ace (rank 12) standing in for the missing rank -1 */
                window = top >= 4 ? (uint32_t)0x1F << (top - 4) : (0xF | 0x1000);
                if (hr_popcount32(window & hole) == 2 && hr_popcount32(window & board) == 3)
                    return hr_flush[window];
            }
        }
        return hr_flush[hr_omaha_top_bits(hole, 2) | hr_omaha_top_bits(board, 3)];
    }

    /* The flush of a hand: the hole's sum starts its suit counters (the low 16 bits, 4 bits a
       suit) at 6, so that bit 3 of a counter is set where the hole holds 2 or more of its suit,
       and the board's at 5, 3 or more (at most 12 and 10: no carry out of a counter or into the
       rank hash above). A board of at most 5 cards holds three of at most one suit. */
    #define HR_OMAHA_HOLE_COUNTERS 0x6666
    #define HR_OMAHA_BOARD_COUNTERS 0x5555
    static inline uint16_t hr_omaha_flush_of(uint32_t flush_suits, uint64_t hole_bits, uint64_t board_bits) {
        int shift = (hr_ctz32(flush_suits) >> 2) * 16;      /* bit 3 + 4 * suit */
        return hr_omaha_flush((uint32_t)(hole_bits >> shift) & 0x1FFF, (uint32_t)(board_bits >> shift) & 0x1FFF);
    }

    /* a card's rank hash with its suit counter (0 for ids past 51) */
    #define HR_OMAHA_HASH(card) hr_card_hashes[2 * (size_t)(card)]

    /* The best high value of two of the K hole cards and three of the NB board cards, for each of
       n rows; returns 0 when every hand was K + NB distinct valid cards. */
    #define HR_OMAHA_LOOP(NAME, K, NB, ATTR, POPCOUNT) \\
    ATTR static uint64_t NAME(const uint8_t* __restrict hole, const uint8_t* __restrict board, \\
                              Py_ssize_t n, uint16_t* __restrict out) { \\
        uint64_t bits_set = 0; \\
        Py_ssize_t i; \\
        int a, b, x; \\
        for (i = 0; i < n; i++, hole += K, board += NB) { \\
            HR_MCA_BEGIN(NAME) \\
            /* the cards read as bytes where they lie: each one load, against a shift, a mask \\
               and a copy to take it out of a word, and a copy into an array became a word */ \\
            const uint8_t* c = hole; \\
            const uint8_t* d = board; \\
            hr_sums hs = HR_SUMS_AT(HR_OMAHA_HOLE_COUNTERS), bs = HR_SUMS_AT(HR_OMAHA_BOARD_COUNTERS); \\
            uint64_t board_hash; \\
            uint32_t flush_suits; \\
            uint16_t best = 0, v; \\
            for (a = 0; a < K; a++) hs = HR_SUMS_ADD(hs, (size_t)c[a]); \\
            for (a = 0; a < NB; a++) bs = HR_SUMS_ADD(bs, (size_t)d[a]); \\
            bits_set += POPCOUNT(HR_SUMS_BITS(HR_SUMS_PLUS(hs, bs))); \\
            board_hash = HR_SUMS_KEY(bs); \\
            if (NB == 5) { \\
                /* the board's row, then one column per pair of hole cards */ \\
                const char* row = (const char*)(hr_omaha5 + (size_t)hr_slot5(board_hash) * HR_OMAHA_PAIRS); \\
                for (a = 0; a < K; a++) \\
                    for (b = a + 1; b < K; b++) { \\
                        v = *(const uint16_t*)(row + hr_omaha_pair[(size_t)c[a] * 64 + c[b]]); \\
                        best = v > best ? v : best; \\
                    } \\
            } else { \\
                /* the hash of five cards is the sum of theirs (suit counters below every slot \\
                   shift): pairs and triples summed once, then one add per combination */ \\
                uint64_t hole_hash[K], board_hash3[NB], pairs[K * (K - 1) / 2], triples[NB == 4 ? 4 : 1]; \\
                int npairs = 0, ntriples = 0; \\
                for (a = 0; a < K; a++) hole_hash[a] = HR_OMAHA_HASH(c[a]); \\
                for (a = 0; a < NB; a++) board_hash3[a] = HR_OMAHA_HASH(d[a]); \\
                for (a = 0; a < K; a++) \\
                    for (b = a + 1; b < K; b++) \\
                        pairs[npairs++] = hole_hash[a] + hole_hash[b]; \\
                for (a = 0; a < NB; a++) \\
                    for (b = a + 1; b < NB; b++) \\
                        for (x = b + 1; x < NB; x++) \\
                            triples[ntriples++] = board_hash3[a] + board_hash3[b] + board_hash3[x]; \\
                for (a = 0; a < npairs; a++) \\
                    for (b = 0; b < ntriples; b++) { \\
                        v = hr_high5[hr_slot5(pairs[a] + triples[b])]; \\
                        best = v > best ? v : best; \\
                    } \\
            } \\
            flush_suits = (uint32_t)(HR_SUMS_KEY(hs) & board_hash & 0x8888); \\
            if (HR_RARELY(flush_suits)) { \\
                v = hr_omaha_flush_of(flush_suits, HR_SUMS_BITS(hs), HR_SUMS_BITS(bs)); \\
                best = v > best ? v : best; \\
            } \\
            out[i] = best; \\
            HR_MCA_END(NAME) \\
        } \\
        return bits_set != (uint64_t)n * (K + NB); \\
    }
    #define HR_OMAHA_LOOPS(SUFFIX, ATTR, POPCOUNT) \\
        HR_OMAHA_LOOP(hr_omaha_high43_##SUFFIX, 4, 3, ATTR, POPCOUNT) \\
        HR_OMAHA_LOOP(hr_omaha_high44_##SUFFIX, 4, 4, ATTR, POPCOUNT) \\
        HR_OMAHA_LOOP(hr_omaha_high45_##SUFFIX, 4, 5, ATTR, POPCOUNT) \\
        HR_OMAHA_LOOP(hr_omaha_high53_##SUFFIX, 5, 3, ATTR, POPCOUNT) \\
        HR_OMAHA_LOOP(hr_omaha_high54_##SUFFIX, 5, 4, ATTR, POPCOUNT) \\
        HR_OMAHA_LOOP(hr_omaha_high55_##SUFFIX, 5, 5, ATTR, POPCOUNT) \\
        HR_OMAHA_LOOP(hr_omaha_high63_##SUFFIX, 6, 3, ATTR, POPCOUNT) \\
        HR_OMAHA_LOOP(hr_omaha_high64_##SUFFIX, 6, 4, ATTR, POPCOUNT) \\
        HR_OMAHA_LOOP(hr_omaha_high65_##SUFFIX, 6, 5, ATTR, POPCOUNT)

    HR_OMAHA_LOOPS(portable, , hr_popcount64)
    #if HR_HAVE_POPCNT
    HR_OMAHA_LOOPS(popcnt, HR_TARGET_POPCNT, hr_popcount64_popcnt)
    #define HR_OMAHA_HAVE_POPCNT 1
    #else
    #define HR_OMAHA_HAVE_POPCNT 0
    #endif

    /* by hole size - 4, board size - 3 */
    typedef uint64_t (*hr_omaha_loop_t)(const uint8_t*, const uint8_t*, Py_ssize_t, uint16_t*);
    static const hr_omaha_loop_t hr_omaha_portable[3][3] = {
        {hr_omaha_high43_portable, hr_omaha_high44_portable, hr_omaha_high45_portable},
        {hr_omaha_high53_portable, hr_omaha_high54_portable, hr_omaha_high55_portable},
        {hr_omaha_high63_portable, hr_omaha_high64_portable, hr_omaha_high65_portable}};
    #if HR_OMAHA_HAVE_POPCNT
    static const hr_omaha_loop_t hr_omaha_popcnt[3][3] = {
        {hr_omaha_high43_popcnt, hr_omaha_high44_popcnt, hr_omaha_high45_popcnt},
        {hr_omaha_high53_popcnt, hr_omaha_high54_popcnt, hr_omaha_high55_popcnt},
        {hr_omaha_high63_popcnt, hr_omaha_high64_popcnt, hr_omaha_high65_popcnt}};
    static int hr_omaha_cpu_has_popcnt(void) { return hr_cpu_has_popcnt(); }
    #else
    #define hr_omaha_popcnt hr_omaha_portable
    static int hr_omaha_cpu_has_popcnt(void) { return 0; }
    #endif
    """
    ctypedef uint64_t (*hr_omaha_loop_t)(const uint8_t*, const uint8_t*, Py_ssize_t, uint16_t*) noexcept nogil
    const hr_omaha_loop_t hr_omaha_portable[3][3]
    const hr_omaha_loop_t hr_omaha_popcnt[3][3]
    int hr_omaha_cpu_has_popcnt()

# Whether batch() and evaluate_row() run hr_omaha_popcnt's loops (else hr_omaha_portable's).
cdef bint use_popcnt = False


def set_kernel(str name):
    """Use the "popcnt" high loops (validation by the popcnt instruction) or the "portable" ones
    (import picks popcnt where the CPU has it); ValueError for "popcnt" on a CPU or build without
    it. Tests and benchmarks switch to compare both."""
    global use_popcnt
    if name == "popcnt" and hr_omaha_cpu_has_popcnt():
        use_popcnt = True
    elif name == "portable":
        use_popcnt = False
    else:
        raise ValueError(f"no {name!r} Omaha loop on this CPU (choices: 'popcnt' where the CPU and "
                         "the build have popcnt, 'portable')")


set_kernel("popcnt" if hr_omaha_cpu_has_popcnt() else "portable")


def kernel_name():
    """The high loops in use: "popcnt" or "portable"."""
    return "popcnt" if use_popcnt else "portable"


def has_popcnt():
    """Whether this CPU and build can run the "popcnt" loops."""
    return bool(hr_omaha_cpu_has_popcnt())


cdef inline hr_omaha_loop_t high_loop(int k, int nb) noexcept nogil:
    return hr_omaha_popcnt[k - 4][nb - 3] if use_popcnt else hr_omaha_portable[k - 4][nb - 3]


cdef inline uint32_t low_bit(uint8_t card) noexcept nogil:
    # A..8 as bits 0..7, higher ranks none
    cdef uint32_t r = card >> 2
    r = 0 if r == 12 else r + 1
    return (<uint32_t>1 << r) if r <= 7 else 0


cdef inline uint16_t low8_value(const uint8_t* c, int k, const uint8_t* board_cards, int nb) noexcept nogil:
    """Best 8-or-better low (lowa5's scale) of two of the k hole cards and three of the nb board
    cards, or NO_LOW."""
    cdef uint32_t board = 0, hole = 0
    cdef int i
    for i in range(nb):
        board |= low_bit(board_cards[i])
    for i in range(k):
        hole |= low_bit(c[i])
    return hr_omaha_low8[board << 8 | hole]


cdef inline Py_ssize_t low_loop(int k, int nb, const uint8_t* c, const uint8_t* b, Py_ssize_t n,
                                uint16_t* out) noexcept nogil:
    # Inlined with constant k and nb (below), so each is its own specialised loop. The first bad
    # hand, or -1. A hand is copied once and checked before its value is stored.
    cdef uint8_t hole[6]
    cdef uint8_t board[5]
    cdef uint64_t bad, hole_bits, board_bits
    cdef Py_ssize_t i
    for i in range(n):
        memcpy(hole, c + i * k, k)
        memcpy(board, b + i * nb, nb)
        bad = 0
        hole_bits = card_mask(hole, k, &bad)
        board_bits = card_mask(board, nb, &bad)
        if bad | (hole_bits & board_bits):
            return i
        out[i] = low8_value(hole, k, board, nb)
    return -1


cdef inline Py_ssize_t first_bad_row(const uint8_t* c, int k, const uint8_t* b, int nb, Py_ssize_t n) noexcept nogil:
    # After a high loop found a bad hand: the first one, or -1 when every row now reads well
    # (another thread wrote the cards meanwhile; omaha's error path then says so).
    cdef uint64_t bad, hole_bits, board_bits
    cdef Py_ssize_t i
    for i in range(n):
        bad = 0
        hole_bits = card_mask(c + i * k, k, &bad)
        board_bits = card_mask(b + i * nb, nb, &bad)
        if bad | (hole_bits & board_bits):
            return i
    return -1


ctypedef Py_ssize_t (*loop_t)(const uint8_t*, const uint8_t*, Py_ssize_t, uint16_t*) noexcept nogil

cdef Py_ssize_t low43(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return low_loop(4, 3, c, b, n, o)
cdef Py_ssize_t low44(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return low_loop(4, 4, c, b, n, o)
cdef Py_ssize_t low45(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return low_loop(4, 5, c, b, n, o)
cdef Py_ssize_t low53(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return low_loop(5, 3, c, b, n, o)
cdef Py_ssize_t low54(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return low_loop(5, 4, c, b, n, o)
cdef Py_ssize_t low55(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return low_loop(5, 5, c, b, n, o)
cdef Py_ssize_t low63(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return low_loop(6, 3, c, b, n, o)
cdef Py_ssize_t low64(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return low_loop(6, 4, c, b, n, o)
cdef Py_ssize_t low65(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return low_loop(6, 5, c, b, n, o)

cdef loop_t[3][3] LOW_LOOPS      # by hole size - 4, board size - 3
LOW_LOOPS[0][0], LOW_LOOPS[0][1], LOW_LOOPS[0][2] = low43, low44, low45
LOW_LOOPS[1][0], LOW_LOOPS[1][1], LOW_LOOPS[1][2] = low53, low54, low55
LOW_LOOPS[2][0], LOW_LOOPS[2][1], LOW_LOOPS[2][2] = low63, low64, low65


def batch(int game, const uint8_t[:, ::1] hole, const uint8_t[:, ::1] board, Py_ssize_t start,
          uint16_t[::1] out, uint16_t[::1] saved=None):
    """Evaluate hands start..start+len(out)-1 of the hole and board arrays into `out` without the
    GIL. Returns -1, or the first bad hand (counted from start). With `saved`, `out` is copied
    there first, so that the caller can put it back after a bad hand (the high loops write every
    row's value, a bad one's too).

    The caller (handrank.omaha through handrank._batch) has checked the shapes."""
    cdef Py_ssize_t n = out.shape[0]
    cdef int k = <int>hole.shape[1]
    cdef int nb = <int>board.shape[1]
    cdef Py_ssize_t bad_row = -1
    cdef const uint8_t* c
    cdef const uint8_t* b
    cdef uint16_t* o
    cdef hr_omaha_loop_t high
    if not (0 <= game < 2 and 4 <= k <= 6 and 3 <= nb <= 5):
        raise ValueError(f"no Omaha loop for game {game}, {k} hole and {nb} board cards")
    if not (0 <= start and start + n <= hole.shape[0] and hole.shape[0] == board.shape[0]):
        raise ValueError(f"rows {start}..{start + n} are not in arrays of {hole.shape[0]} and {board.shape[0]} rows")
    if n == 0:
        return -1
    if saved is not None:
        if saved.shape[0] != n:
            raise ValueError(f"saved has {saved.shape[0]} entries for {n} rows")
        memcpy(&saved[0], &out[0], n * sizeof(uint16_t))
    c = &hole[start, 0]
    b = &board[start, 0]
    o = &out[0]
    with nogil:
        if game == GAME_HIGH:
            high = high_loop(k, nb)
            if high(c, b, n, o):
                bad_row = first_bad_row(c, k, b, nb, n)
                if bad_row < 0:
                    bad_row = 0     # flagged, then rewritten: omaha's error path reports it
        else:
            bad_row = LOW_LOOPS[k - 4][nb - 3](c, b, n, o)
    return bad_row


def evaluate_row(int game, const uint8_t[::1] hole, const uint8_t[::1] board):
    """The value of one hand whose cards have been checked: the scalar functions' kernel."""
    cdef int k = <int>hole.shape[0]
    cdef int nb = <int>board.shape[0]
    cdef uint16_t value = 0
    if not (4 <= k <= 6 and 3 <= nb <= 5):
        raise ValueError(f"no Omaha kernel for {k} hole and {nb} board cards")
    if game == GAME_HIGH:
        high_loop(k, nb)(&hole[0], &board[0], 1, &value)
        return value
    if game == GAME_LOW8:
        return low8_value(&hole[0], k, &board[0], nb)
    raise ValueError(f"no Omaha game {game}")
