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

# Card id 4 * rank + suit as a bit of a 64-bit word holding one 16-bit rank set per suit.
cdef uint64_t CARD_BIT[256]     # 0 for the ids over 51
# RANK_SET[s]: the rank of the 13-bit set s among the sets of its size, in colex order, in the low
# 16 bits, and its size above them (one load gives both).
cdef uint32_t RANK_SET[8192]
cdef uint8_t POPCOUNT[8192]
# Software pext for 13 bits in two parts: PEXT_LO[mask_lo << 7 | bits_lo] (7 bits) and
# PEXT_HI[mask_hi << 6 | bits_hi] (6 bits): the bits of `bits` under `mask`, packed down.
cdef uint8_t PEXT_LO[128 * 128]
cdef uint8_t PEXT_HI[64 * 64]
# Their inverse (pdep): PDEP_LO[mask_lo << 7 | bits] spreads the low bits of `bits` over the bits of
# mask_lo; PDEP_HI likewise for the high 6 bits.
cdef uint8_t PDEP_LO[128 * 128]
cdef uint8_t PDEP_HI[64 * 64]
# A rank set as card bits of clubs (bit 4 * rank): SPREAD_LO for ranks 0..6, SPREAD_HI for 7..12
# (shifted by 28 where used).
cdef uint64_t SPREAD_LO[128]
cdef uint64_t SPREAD_HI[64]
cdef uint32_t BINOM13[14][14]
# TRIANGLE[b] = C(b + 1, 2) and TETRAHEDRON[c] = C(c + 2, 3): the terms of a direct configuration
# table's slot (that table exists only for fewer than 183 shapes: handrank.iso's 2**20 entries)
cdef uint32_t TRIANGLE[256]
cdef uint32_t TETRAHEDRON[256]
# RECIP13[n][k] = ceil(2**32 / C(n, k)): x // C(n, k) == (x * RECIP13[n][k]) >> 32 for x < 2**21
# (every C(n, k) here is below 2**11, so the error x * (RECIP - 2**32 / C) / 2**32 stays under
# 1 / C(n, k)); a multiplication instead of a division in unindex
cdef uint64_t RECIP13[14][14]
DEF RECIP_LIMIT = 2097152
# UNRANK_SET[UNRANK_START[m] + i]: the m-card rank set of colex rank i (the inverse of RANK_SET).
cdef uint16_t UNRANK_SET[8192]
cdef uint16_t UNRANK_START[14]
# The position of a one-bit word: DE_BRUIJN_POSITION[(bit * DE_BRUIJN) >> 58].
cdef uint8_t DE_BRUIJN_POSITION[64]
DEF DE_BRUIJN = 0x03f79d71b4cb0a89
cdef bint ready = False

DEF RANKS_MASK = 0x1fff
DEF MAX_ROUNDS = 8


cdef inline uint64_t lane_popcounts(uint64_t x) noexcept nogil:
    """The number of set bits in each 16-bit lane of x, in that lane."""
    x = x - ((x >> 1) & <uint64_t>0x5555555555555555)
    x = (x & <uint64_t>0x3333333333333333) + ((x >> 2) & <uint64_t>0x3333333333333333)
    x = (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0F
    return (x + (x >> 8)) & <uint64_t>0x00FF00FF00FF00FF


cdef inline int popcount64(uint64_t x) noexcept nogil:
    x = lane_popcounts(x)
    return <int>((x * <uint64_t>0x0001000100010001) >> 48)


cdef inline int lowest_bit(uint64_t one_bit) noexcept nogil:
    return DE_BRUIJN_POSITION[(one_bit * <uint64_t>DE_BRUIJN) >> 58]


cdef inline uint64_t group_term(uint64_t x, int j) noexcept nogil:
    """C(x + j, j + 1) for j in 0..3 and x < 32768, without a branch on j (a group of suits of
    one shape is common: in a 13-card hand, most hands have two suits of the same length)."""
    cdef uint64_t y = x + j
    cdef uint64_t terms[4]
    cdef uint64_t p2 = y * (y - 1), p3 = p2 * (y - 2)
    terms[0] = y
    terms[1] = p2 >> 1
    terms[2] = p3 // 6
    terms[3] = p3 * (y - 3) // 24
    return terms[j]


cdef uint64_t binom_small(uint64_t y, int k) noexcept nogil:
    """C(y, k) for k in 0..4, exact wherever the result fits in 64 bits (each step divides before
    it multiplies where the factor allows)."""
    cdef uint64_t c2, c3
    if k == 0:
        return 1
    if k == 1:
        return y
    if y < <uint64_t>k:
        return 0
    c2 = (y >> 1) * (y - 1) if y % 2 == 0 else y * ((y - 1) >> 1)
    if k == 2:
        return c2
    c3 = c2 * ((y - 2) // 3) if (y - 2) % 3 == 0 else (c2 // 3) * (y - 2)
    if k == 3:
        return c3
    if (y - 3) % 4 == 0:
        return c3 * ((y - 3) // 4)
    if (y - 3) % 2 == 0:
        return (c3 >> 1) * ((y - 3) >> 1)
    return (c3 >> 2) * (y - 3)


cdef inline uint32_t pdep13(uint32_t bits, uint32_t mask) noexcept nogil:
    cdef uint32_t low = POPCOUNT[mask & 127]
    return PDEP_LO[((mask & 127) << 7) | (bits & ((1u << low) - 1))] | (
        <uint32_t>PDEP_HI[((mask >> 7) << 6) | ((bits >> low) & 63)] << 7)


cdef uint32_t pext13(uint32_t bits, uint32_t mask) noexcept nogil:
    return PEXT_LO[((mask & 127) << 7) | (bits & 127)] | (
        <uint32_t>PEXT_HI[((mask >> 7) << 6) | (bits >> 7)] << POPCOUNT[mask & 127])


def init_tables():
    """Fill the small rank-set tables (once per process; a few microseconds)."""
    global ready
    cdef int c, s, mask, bits, i, j, n, k, out_bit
    if ready:
        return
    for c in range(256):
        CARD_BIT[c] = (<uint64_t>1) << (16 * (c & 3) + (c >> 2)) if c < 52 else 0
    for n in range(14):
        for k in range(14):
            BINOM13[n][k] = 0 if k > n else (1 if k == 0 or k == n else BINOM13[n - 1][k - 1] + BINOM13[n - 1][k])
            RECIP13[n][k] = 0 if k > n else (((<uint64_t>1) << 32) + BINOM13[n][k] - 1) // BINOM13[n][k]
    for n in range(256):
        TRIANGLE[n] = n * (n + 1) // 2
        TETRAHEDRON[n] = n * (n + 1) * (n + 2) // 6
    for s in range(8192):
        n = 0
        c = 0
        for i in range(13):
            if s >> i & 1:
                n += 1
                c += BINOM13[i][n]
        POPCOUNT[s] = n
        RANK_SET[s] = c | n << 16
    UNRANK_START[0] = 0
    for n in range(1, 14):
        UNRANK_START[n] = UNRANK_START[n - 1] + BINOM13[13][n - 1]
    for s in range(8192):
        UNRANK_SET[UNRANK_START[POPCOUNT[s]] + (RANK_SET[s] & 0xffff)] = s
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
            PEXT_LO[mask << 7 | bits] = out_bit
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
            PEXT_HI[mask << 6 | bits] = out_bit
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


cdef inline void sort2(uint64_t* a, uint64_t* b) noexcept nogil:
    cdef uint64_t x = a[0], y = b[0]
    a[0] = x if x < y else y
    b[0] = y if x < y else x


def index_rows(const uint8_t[:, ::1] cards, uint64_t[::1] out, const uint8_t[::1] round_end,
               const uint32_t[::1] radix, const int32_t[::1] direct,
               const int32_t[::1] slots, const uint64_t[:, ::1] config_shapes,
               const uint64_t[::1] config_offset, const uint64_t[:, ::1] config_mult,
               const uint8_t[:, ::1] config_within):
    """Index every row for the round that ends at card round_end[-1] (round_end[r]: one past the
    last card of round r); the first bad row (id > 51 or a repeated card anywhere in the row), or
    -1. A shape is sum(m[r] * radix[r]) for the suit's m[r] cards in round r (radix[rounds + r]:
    the base of round r's digit, unused here). The configuration
    of the three smallest shapes (the fourth follows) is direct[their multiset rank] where that
    table is not empty, else found in the hash table `slots` (a power of two long, -1 where
    empty)."""
    cdef Py_ssize_t bad
    with nogil:
        bad = index_loop(cards, out, round_end, radix, direct, slots, config_shapes, config_offset, config_mult,
                         config_within)
    return bad


cdef Py_ssize_t index_loop(const uint8_t[:, ::1] cards, uint64_t[::1] out, const uint8_t[::1] round_end,
                           const uint32_t[::1] radix, const int32_t[::1] direct, const int32_t[::1] slots, const uint64_t[:, ::1] config_shapes,
                           const uint64_t[::1] config_offset, const uint64_t[:, ::1] config_mult,
                           const uint8_t[:, ::1] config_within) noexcept nogil:
    # The common round counts get a copy of the loop with `rounds` a constant, so that the
    # compiler unrolls the loops over the rounds (one round: a 13-card hand; two: hole + board;
    # four: hold'em or Omaha street by street).
    cdef int rounds = round_end.shape[0]
    if rounds == 1:
        return index_loop_rounds(cards, out, round_end, radix, direct, slots, config_shapes, config_offset,
                                 config_mult, config_within, 1)
    if rounds == 2:
        return index_loop_rounds(cards, out, round_end, radix, direct, slots, config_shapes, config_offset,
                                 config_mult, config_within, 2)
    if rounds == 4:
        return index_loop_rounds(cards, out, round_end, radix, direct, slots, config_shapes, config_offset,
                                 config_mult, config_within, 4)
    return index_loop_rounds(cards, out, round_end, radix, direct, slots, config_shapes, config_offset,
                             config_mult, config_within, rounds)


cdef inline Py_ssize_t index_loop_rounds(const uint8_t[:, ::1] cards, uint64_t[::1] out, const uint8_t[::1] round_end,
                           const uint32_t[::1] radix, const int32_t[::1] direct, const int32_t[::1] slots, const uint64_t[:, ::1] config_shapes,
                           const uint64_t[::1] config_offset, const uint64_t[:, ::1] config_mult,
                           const uint8_t[:, ::1] config_within, const int rounds) noexcept nogil:
    cdef Py_ssize_t n = cards.shape[0], k = cards.shape[1], row, i
    cdef int r, s, start, m
    cdef int ends[MAX_ROUNDS]
    cdef uint64_t slot_mask = <uint64_t>slots.shape[0] - 1
    cdef uint64_t words[MAX_ROUNDS]
    cdef uint64_t keys[4]
    cdef uint64_t seen, overlap, word, shape, suit_index, key_lo, key_hi, slot, index, x, a, b, c
    cdef uint32_t info
    cdef int found, dealt = round_end[round_end.shape[0] - 1]
    cdef uint64_t weights[MAX_ROUNDS]
    cdef bint use_direct = direct.shape[0] > 0
    cdef const int32_t* direct_config = &direct[0] if use_direct else NULL
    cdef uint32_t rank_set, free, used_count
    cdef int32_t config
    cdef const uint8_t* hand
    # raw pointers: the compiler need not reload a memoryview's fields after each store to `out`
    cdef const uint8_t* rows = &cards[0, 0] if n else NULL
    cdef uint64_t* results = &out[0] if n else NULL
    cdef const int32_t* slot_config = &slots[0]
    cdef const uint64_t* shapes = &config_shapes[0, 0]
    cdef const uint64_t* offsets = &config_offset[0]
    cdef const uint64_t* mults = &config_mult[0, 0]
    cdef const uint8_t* within = &config_within[0, 0]
    for r in range(rounds):
        ends[r] = round_end[r]
        weights[r] = radix[r]
    for row in range(n):
        hand = rows + row * k
        # Ids over 51 have no bit and a repeated card sets its bit twice: either way the rank
        # sets hold fewer cards than the row (one test per row instead of one per card). A card
        # repeated in another round is an overlap, found before it could count twice in a suit.
        start = 0
        seen = 0
        overlap = 0
        for r in range(rounds):
            word = 0
            for i in range(start, ends[r]):
                word |= CARD_BIT[hand[i]]
            words[r] = word
            overlap |= seen & word
            seen |= word
            start = ends[r]
        if overlap:
            return row
        if k > dealt:       # cards past the indexed round: checked, not indexed
            for i in range(start, k):
                seen |= CARD_BIT[hand[i]]
            if popcount64(seen) != k:
                return row
        found = 0
        for s in range(4):
            rank_set = (words[0] >> (16 * s)) & RANKS_MASK
            info = RANK_SET[rank_set]
            m = info >> 16
            shape = m * weights[0]
            suit_index = info & 0xffff
            used_count = m
            free = ~rank_set & RANKS_MASK
            for r in range(1, rounds):
                rank_set = (words[r] >> (16 * s)) & RANKS_MASK
                info = RANK_SET[pext13(rank_set, free)]     # pext keeps the set's size
                m = info >> 16
                suit_index = suit_index * BINOM13[13 - used_count][m] + (info & 0xffff)
                shape += m * weights[r]
                used_count += m
                free &= ~rank_set
            found += used_count
            keys[s] = shape << 32 | suit_index
        if found != dealt:
            return row
        sort2(&keys[0], &keys[1])
        sort2(&keys[2], &keys[3])
        sort2(&keys[0], &keys[2])
        sort2(&keys[1], &keys[3])
        sort2(&keys[1], &keys[2])
        if use_direct:
            a = keys[0] >> 32
            b = keys[1] >> 32
            c = keys[2] >> 32
            config = direct_config[a + TRIANGLE[b] + TETRAHEDRON[c]]
        else:
            key_lo = (keys[0] >> 32) | (keys[1] >> 32 << 32)
            key_hi = (keys[2] >> 32) | (keys[3] >> 32 << 32)
            slot = (((key_lo * <uint64_t>0x9E3779B97F4A7C15) ^ (key_hi * <uint64_t>0xC2B2AE3D27D4EB4F))
                    >> 32) & slot_mask
            while True:
                config = slot_config[slot]
                if config < 0 or (shapes[2 * config] == key_lo and shapes[2 * config + 1] == key_hi):
                    break
                slot = (slot + 1) & slot_mask
        if config < 0:      # pragma: no cover - every valid hand has a configuration
            return row
        index = offsets[config]
        for s in range(4):
            x = <uint32_t>keys[s]      # the suit index, below its shape
            m = within[4 * config + s]
            # a suit alone in its shape group (the common case) adds its own index
            index += mults[4 * config + s] * (x if m == 0 else (
                group_term(x, m) if x < 32768 else binom_small(x + m, m + 1)))
        results[row] = index
    return -1


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
    while y > <uint64_t>i and binom_small(y, k) > rest[0]:
        y -= 1
    while y < top and binom_small(y + 1, k) <= rest[0]:
        y += 1
    rest[0] -= binom_small(y, k)
    return y


def unindex_rows(const uint64_t[::1] indices, uint8_t[:, ::1] out, const uint8_t[::1] round_end,
                 const uint8_t[:, ::1] config_cards,
                 const uint64_t[:, ::1] config_shapes, const uint64_t[::1] config_offset,
                 const uint64_t[:, ::1] config_mult, const uint8_t[:, ::1] config_within,
                 const uint64_t[:, ::1] config_values, const uint64_t[:, ::1] config_count):
    """The canonical hand of each index (checked below the size by the caller): the suit with the
    largest key (the most cards in the earliest round first) is clubs, the next diamonds, and so
    on; each round's cards in increasing id order. config_cards[c, rounds * p + r]: the cards of
    sorted suit p in round r."""
    with nogil:
        unindex_loop(indices, out, round_end, config_cards, config_offset, config_mult, config_within,
                     config_values, config_count)


cdef void unindex_loop(const uint64_t[::1] indices, uint8_t[:, ::1] out, const uint8_t[::1] round_end,
                       const uint8_t[:, ::1] config_cards, const uint64_t[::1] config_offset,
                       const uint64_t[:, ::1] config_mult, const uint8_t[:, ::1] config_within,
                       const uint64_t[:, ::1] config_values, const uint64_t[:, ::1] config_count) noexcept nogil:
    # As in index_loop: a copy per common round count, its round loops unrolled (and each
    # round's card mask kept in a register rather than read and written back per suit).
    cdef int rounds = round_end.shape[0]
    if rounds == 1:
        unindex_loop_rounds(indices, out, config_cards, config_offset, config_mult, config_within,
                            config_values, config_count, 1)
    elif rounds == 2:
        unindex_loop_rounds(indices, out, config_cards, config_offset, config_mult, config_within,
                            config_values, config_count, 2)
    elif rounds == 4:
        unindex_loop_rounds(indices, out, config_cards, config_offset, config_mult, config_within,
                            config_values, config_count, 4)
    else:
        unindex_loop_rounds(indices, out, config_cards, config_offset, config_mult, config_within,
                            config_values, config_count, rounds)


cdef inline void unindex_loop_rounds(const uint64_t[::1] indices, uint8_t[:, ::1] out,
                                     const uint8_t[:, ::1] config_cards, const uint64_t[::1] config_offset,
                                     const uint64_t[:, ::1] config_mult, const uint8_t[:, ::1] config_within,
                                     const uint64_t[:, ::1] config_values, const uint64_t[:, ::1] config_count,
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
        # the last configuration whose offset is at most the index: a binary search that moves
        # `lo` by a conditional move, not a branch the random indices would mispredict
        lo = 0
        span = configs
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
                bound = BINOM13[13 - used_count][m]
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
                rank_set = compact if r == 0 else pdep13(compact, free)
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
