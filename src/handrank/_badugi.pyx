# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled badugi kernel: the best subset of four cards with distinct suits and distinct ranks.

A subset's ranks are a bit set (the lowest rank bit 0: the ace when the ace is low, else the
deuce); among sets of one size the smaller number is the better hand (its highest card is lower,
or equal and then the next, ...). The value is dense, higher is better: the sets of one card,
then of two, three and four, each size worst first (its colex rank counted from the top).
"""
from libc.string cimport memcpy
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from handrank._tables cimport *
from handrank._kernels cimport card_mask, first_bad_row

cdef extern from * nogil:
    """
    /* C(n, k) for n <= 13, k <= 4 */
    static const uint16_t hr_badugi_binom[14][5] = {
        {1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1},
        {1, 5, 10, 10, 5}, {1, 6, 15, 20, 15}, {1, 7, 21, 35, 35}, {1, 8, 28, 56, 70},
        {1, 9, 36, 84, 126}, {1, 10, 45, 120, 210}, {1, 11, 55, 165, 330},
        {1, 12, 66, 220, 495}, {1, 13, 78, 286, 715}};
    /* values below the sets of each size: none, 1 card, 2, 3, 4 */
    static const uint16_t hr_badugi_offset[5] = {0, 0, 13, 91, 377};
    /* Subsets of the four cards (bit i: card i), and for each the pairs of cards it holds (bit
       of pair (i, j) in the order 01 02 03 12 13 23) and its size. */
    static const uint8_t hr_badugi_pairs[16] = {
        0, 0, 0, 1, 0, 2, 8, 11, 0, 4, 16, 21, 32, 38, 56, 63};
    static const uint8_t hr_badugi_size[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    """
    const uint16_t hr_badugi_binom[14][5]
    const uint16_t hr_badugi_offset[5]
    const uint8_t hr_badugi_pairs[16]
    const uint8_t hr_badugi_size[16]

MAX_VALUE = 1092        # 13 + 78 + 286 + 715 rank sets


cdef inline uint16_t badugi_value(const uint8_t* c, bint ace_low) noexcept nogil:
    cdef uint32_t rank_bit[4]
    cdef uint32_t subset_ranks[16]
    cdef uint32_t conflicts = 0, ranks, best_score = 0, score, rank
    cdef int i, j, pair = 0, subset, size, r
    for i in range(4):
        r = c[i] >> 2
        rank_bit[i] = (<uint32_t>1) << (((r + 1) % 13) if ace_low else r)
    # pairs of cards that share a rank or a suit: no badugi holds both
    for i in range(4):
        for j in range(i + 1, 4):
            if (c[i] >> 2) == (c[j] >> 2) or (c[i] & 3) == (c[j] & 3):
                conflicts |= (<uint32_t>1) << pair
            pair += 1
    # every subset's rank set from a smaller one's: subset s = s without its lowest card, plus it
    subset_ranks[0] = 0
    for subset in range(1, 16):
        i = 0 if subset & 1 else 1 if subset & 2 else 2 if subset & 4 else 3
        ranks = subset_ranks[subset & (subset - 1)] | rank_bit[i]
        subset_ranks[subset] = ranks
        score = ((<uint32_t>hr_badugi_size[subset]) << 13) | (0x1FFF ^ ranks)      # bigger is better
        # branch-free: whether a subset is a badugi is a coin flip to the predictor
        score = score if (hr_badugi_pairs[subset] & conflicts) == 0 else 0
        best_score = score if score > best_score else best_score
    size = best_score >> 13
    ranks = 0x1FFF ^ (best_score & 0x1FFF)
    # colex rank of the set among the sets of its size (numeric order)
    rank = 0
    i = 1
    while ranks:
        r = 0
        while not (ranks >> r) & 1:
            r += 1
        rank += hr_badugi_binom[r][i]
        ranks &= ranks - 1
        i += 1
    return <uint16_t>(hr_badugi_offset[size] + hr_badugi_binom[13][size] - rank)


cdef uint64_t loop(const uint8_t* c, Py_ssize_t n, uint16_t* out, bint ace_low) noexcept nogil:
    cdef uint64_t bad = 0
    cdef Py_ssize_t i
    for i in range(n):
        card_mask(c, 4, &bad)
        out[i] = badugi_value(c, ace_low)
        c += 4
    return bad


def batch(bint ace_low, const uint8_t[:, ::1] cards, uint16_t[::1] out, uint16_t[::1] saved=None):
    """Evaluate every 4-card row of `cards` into `out` without the GIL; -1 or the first bad row.
    With `saved`, `out` is copied there first (handrank._batch puts it back after a bad row)."""
    cdef Py_ssize_t n = cards.shape[0]
    cdef Py_ssize_t bad_row = -1
    cdef const uint8_t* c
    cdef uint16_t* o
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
        if loop(c, n, o, ace_low):
            bad_row = first_bad_row(c, n, 4)
    return bad_row


def evaluate_ids(bint ace_low, const uint8_t[::1] hand):
    """The value of four checked card ids."""
    if hand.shape[0] != 4:
        raise ValueError(f"a badugi hand has 4 cards, got {hand.shape[0]}")
    return badugi_value(&hand[0], ace_low)
