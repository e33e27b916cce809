# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Omaha kernels: the best high hand and the best 8-or-better low made of exactly two hole
cards and exactly three board cards.

The batch loops read the hole and board arrays side by side and check each hand before they value
it: its two card masks flag a card repeated in the hole or on the board, and their AND a card in
both.

High: on a 5-card board, the board's ranks pick a row of a generated table (by the 5-card perfect
hash of its rank sum) that holds, for each hole rank pair, the best plain hand of that pair and
three of the board; a hand then costs one lookup per hole pair. On a 3- or 4-card board every
combination is looked up through the 5-card hash, which is linear in the cards (rank_sum * MUL),
so each hole pair's and each board triple's partial hash is summed once and a combination costs
one add and two table reads. Flushes are handled apart, only when the board holds three of a suit
and the hole two of it.

Low: only the sets of low ranks (A..8) in the hole and on the board matter, so a generated table
indexed by the two 8-bit sets holds the best low (tools/gen_tables.py: for each pair of the hole's
low ranks, the three lowest board ranks not already held; among sets of five ranks the smaller
number is the better low).
"""
from libc.string cimport memcpy
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from handrank._tables cimport *
from handrank._kernels cimport card_mask, hr_slot5
from handrank._bits cimport hr_popcount32 as bit_count, hr_highest_bit32

cdef extern from "handrank_omaha_tables.h" nogil:
    const int HR_OMAHA_PAIRS
    const uint8_t hr_omaha_pair[169]
    const uint16_t hr_omaha5[]
    const uint16_t hr_omaha_low8[65536]

cdef inline uint32_t top_bit(uint32_t x) noexcept nogil:
    # x != 0: its highest set bit
    return (<uint32_t>1) << hr_highest_bit32(x)


# Games, as numbered for `batch`
cdef enum:
    GAME_HIGH = 0
    GAME_LOW8 = 1
    NO_LOW8 = 0     # the value of "no qualifying low"

HIGH = GAME_HIGH
LOW8 = GAME_LOW8
# Every qualifying low is on lowa5's scale, 6120..6175; no low is below them all.
NO_LOW = NO_LOW8


cdef inline uint64_t rank_hash5(uint8_t card) noexcept nogil:
    return (hr_card_key[card] >> 32) * HR_HASH5_MUL


cdef inline uint32_t top_bits(uint32_t m, int n) noexcept nogil:
    # the n highest set bits of m (m has at least n)
    cdef uint32_t kept = 0, bit
    while n > 0:
        bit = top_bit(m)
        kept |= bit
        m ^= bit
        n -= 1
    return kept


cdef inline uint16_t best_flush(uint32_t hole, uint32_t board) noexcept nogil:
    """The best flush of two of the `hole` ranks and three of the `board` ranks (rank masks of
    one suit, disjoint). A straight flush is a window of five ranks with exactly two in the hole
    and three on the board; any other flush is best with the two highest hole ranks and the
    three highest board ranks (they beat any other choice rank for rank)."""
    cdef uint32_t window, both = hole | board
    cdef int top
    # ranks that start a run of five (bit r: ranks r..r+4), the wheel apart
    cdef uint32_t runs = both & (both >> 1) & (both >> 2) & (both >> 3) & (both >> 4)
    if runs == 0 and (both & 0x100F) != 0x100F:
        return hr_flush[top_bits(hole, 2) | top_bits(board, 3)]
    for top in range(12, 2, -1):
        # ranks top-4..top, the wheel's ace (rank 12) standing in for the missing rank -1
        window = (0x1F << (top - 4)) if top >= 4 else (0xF | 0x1000)
        if bit_count(window & hole) == 2 and bit_count(window & board) == 3:
            return hr_flush[window]
    return hr_flush[top_bits(hole, 2) | top_bits(board, 3)]


cdef inline uint16_t high_value(const uint8_t* c, int k, const uint8_t* board, int nb,
                                uint64_t hole_bits, uint64_t board_bits) noexcept nogil:
    """Best high value (1..7462) of two of the k hole cards c[0..k-1] and three of the nb board
    cards, given the OR of their card masks (the rank mask of each suit). k and nb are constants
    where this is inlined."""
    cdef uint64_t hole_hash[6]
    cdef uint64_t board_hash[5]
    cdef uint64_t pairs[15]
    cdef uint64_t triples[10]
    cdef int i, j, x, npairs = 0, ntriples = 0
    cdef uint64_t hole_keys = 0, board_keys = 0, h
    cdef uint32_t flush_suits, shift
    cdef uint16_t best = 0, v
    cdef const uint16_t* row
    for i in range(k):
        hole_keys += hr_card_key[c[i]]
    for i in range(nb):
        board_keys += hr_card_key[board[i]]
    if nb == 5:
        row = hr_omaha5 + hr_slot5((board_keys >> 32) * HR_HASH5_MUL) * HR_OMAHA_PAIRS
        for i in range(k):
            for j in range(i + 1, k):
                v = row[hr_omaha_pair[13 * (c[i] >> 2) + (c[j] >> 2)]]
                if v > best:
                    best = v
    else:
        for i in range(k):
            hole_hash[i] = rank_hash5(c[i])
        for i in range(nb):
            board_hash[i] = rank_hash5(board[i])
        for i in range(k):
            for j in range(i + 1, k):
                pairs[npairs] = hole_hash[i] + hole_hash[j]
                npairs += 1
        for i in range(nb):
            for j in range(i + 1, nb):
                h = board_hash[i] + board_hash[j]
                for x in range(j + 1, nb):
                    triples[ntriples] = h + board_hash[x]
                    ntriples += 1
        for i in range(npairs):
            for j in range(ntriples):
                v = hr_high5[hr_slot5(pairs[i] + triples[j])]
                if v > best:
                    best = v
    # The low 16 bits of a key sum count the cards of each suit, 4 bits a suit: adding 5 sets
    # bit 3 of a counter holding 3 or more (the board), adding 6 one holding 2 or more (the hole).
    flush_suits = <uint32_t>(((board_keys & 0xFFFF) + 0x5555) & ((hole_keys & 0xFFFF) + 0x6666) & 0x8888)
    if flush_suits:
        # a board of at most 5 cards holds three of at most one suit
        shift = 0 if flush_suits & 0x8 else 16 if flush_suits & 0x80 else 32 if flush_suits & 0x800 else 48
        v = best_flush(<uint32_t>(hole_bits >> shift) & 0x1FFF, <uint32_t>(board_bits >> shift) & 0x1FFF)
        if v > best:
            best = v
    return best


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


cdef inline Py_ssize_t loop(int game, int k, int nb, const uint8_t* c, const uint8_t* b, Py_ssize_t n,
                            uint16_t* out) noexcept nogil:
    # Inlined with constant game, k and nb (below), so each is its own specialised loop. The first
    # bad hand, or -1. A hand is copied once and checked before any table is read: the tables
    # hold only distinct valid cards (an id past 51 indexes past hr_omaha_pair, a suit of repeated
    # cards has too few ranks for its flush), and a card another thread writes after the check
    # must not reach them.
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
        if game == GAME_HIGH:
            out[i] = high_value(hole, k, board, nb, hole_bits, board_bits)
        else:
            out[i] = low8_value(hole, k, board, nb)
    return -1


ctypedef Py_ssize_t (*loop_t)(const uint8_t*, const uint8_t*, Py_ssize_t, uint16_t*) noexcept nogil

cdef Py_ssize_t high43(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_HIGH, 4, 3, c, b, n, o)
cdef Py_ssize_t high44(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_HIGH, 4, 4, c, b, n, o)
cdef Py_ssize_t high45(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_HIGH, 4, 5, c, b, n, o)
cdef Py_ssize_t high53(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_HIGH, 5, 3, c, b, n, o)
cdef Py_ssize_t high54(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_HIGH, 5, 4, c, b, n, o)
cdef Py_ssize_t high55(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_HIGH, 5, 5, c, b, n, o)
cdef Py_ssize_t high63(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_HIGH, 6, 3, c, b, n, o)
cdef Py_ssize_t high64(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_HIGH, 6, 4, c, b, n, o)
cdef Py_ssize_t high65(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_HIGH, 6, 5, c, b, n, o)
cdef Py_ssize_t low43(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_LOW8, 4, 3, c, b, n, o)
cdef Py_ssize_t low44(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_LOW8, 4, 4, c, b, n, o)
cdef Py_ssize_t low45(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_LOW8, 4, 5, c, b, n, o)
cdef Py_ssize_t low53(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_LOW8, 5, 3, c, b, n, o)
cdef Py_ssize_t low54(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_LOW8, 5, 4, c, b, n, o)
cdef Py_ssize_t low55(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_LOW8, 5, 5, c, b, n, o)
cdef Py_ssize_t low63(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_LOW8, 6, 3, c, b, n, o)
cdef Py_ssize_t low64(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_LOW8, 6, 4, c, b, n, o)
cdef Py_ssize_t low65(const uint8_t* c, const uint8_t* b, Py_ssize_t n, uint16_t* o) noexcept nogil:
    return loop(GAME_LOW8, 6, 5, c, b, n, o)

cdef loop_t[2][3][3] LOOPS      # by game, hole size - 4, board size - 3
LOOPS[GAME_HIGH][0][0], LOOPS[GAME_HIGH][0][1], LOOPS[GAME_HIGH][0][2] = high43, high44, high45
LOOPS[GAME_HIGH][1][0], LOOPS[GAME_HIGH][1][1], LOOPS[GAME_HIGH][1][2] = high53, high54, high55
LOOPS[GAME_HIGH][2][0], LOOPS[GAME_HIGH][2][1], LOOPS[GAME_HIGH][2][2] = high63, high64, high65
LOOPS[GAME_LOW8][0][0], LOOPS[GAME_LOW8][0][1], LOOPS[GAME_LOW8][0][2] = low43, low44, low45
LOOPS[GAME_LOW8][1][0], LOOPS[GAME_LOW8][1][1], LOOPS[GAME_LOW8][1][2] = low53, low54, low55
LOOPS[GAME_LOW8][2][0], LOOPS[GAME_LOW8][2][1], LOOPS[GAME_LOW8][2][2] = low63, low64, low65


def batch(int game, const uint8_t[:, ::1] hole, const uint8_t[:, ::1] board, Py_ssize_t start,
          uint16_t[::1] out, uint16_t[::1] saved=None):
    """Evaluate hands start..start+len(out)-1 of the hole and board arrays into `out` without the
    GIL. Returns -1, or the first bad hand (counted from start). With `saved`, `out` is copied
    there first, so that the caller can put it back after a bad hand.

    The caller (handrank.omaha through handrank._batch) has checked the shapes."""
    cdef Py_ssize_t n = out.shape[0]
    cdef int k = <int>hole.shape[1]
    cdef int nb = <int>board.shape[1]
    cdef Py_ssize_t bad_row = -1
    cdef const uint8_t* c
    cdef const uint8_t* b
    cdef uint16_t* o
    if not (0 <= game < 2 and 4 <= k <= 6 and 3 <= nb <= 5):
        raise ValueError(f"no Omaha loop for game {game}, {k} hole and {nb} board cards")
    if not (0 <= start and start + n <= hole.shape[0] and hole.shape[0] == board.shape[0]):
        raise ValueError(f"rows {start}..{start + n} are not in arrays of {hole.shape[0]} and {board.shape[0]} rows")
    cdef loop_t run = LOOPS[game][k - 4][nb - 3]
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
        bad_row = run(c, b, n, o)
    return bad_row


def evaluate_row(int game, const uint8_t[::1] hole, const uint8_t[::1] board):
    """The value of one hand whose cards have been checked: the scalar functions' kernel."""
    cdef int k = <int>hole.shape[0]
    cdef int nb = <int>board.shape[0]
    cdef uint64_t bad = 0
    if not (4 <= k <= 6 and 3 <= nb <= 5):
        raise ValueError(f"no Omaha kernel for {k} hole and {nb} board cards")
    if game == GAME_HIGH:
        return high_value(&hole[0], k, &board[0], nb, card_mask(&hole[0], k, &bad), card_mask(&board[0], nb, &bad))
    if game == GAME_LOW8:
        return low8_value(&hole[0], k, &board[0], nb)
    raise ValueError(f"no Omaha game {game}")
