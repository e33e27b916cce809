# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled self-play of OFC street play under the uniformly random policy (handrank.ofc.simulate):
the deal and every placement of whole hands, without the GIL. The finished boards are scored
afterwards by the batch scorer, so every scoring option is the one code path of ofc.score_batch.

Hand number h plays with its own random stream, seeded from (seed, h): a hand's cards and choices
depend on nothing else, so the result is the same for any thread count or split of the hands.
"""
from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.string cimport memcpy
from handrank._random cimport random_t, seed_random, below

DEF MAX_PLAYERS = 4
DEF DECK = 52

cdef int ROW_START[3]
cdef int ROW_SIZE[3]
ROW_START[:] = [0, 3, 8]     # a board is top (3), middle (5), bottom (5) in one row of 13
ROW_SIZE[:] = [3, 5, 5]


cdef inline void order2(uint8_t* c, int i, int j) noexcept nogil:
    # c[i] <= c[j] afterwards, without a branch (the cards are random: a branch would mispredict)
    cdef uint8_t a = c[i], b = c[j]
    c[i] = a if a < b else b
    c[j] = b if a < b else a


cdef inline void sort_street(uint8_t* c, int k) noexcept nogil:
    """Sort one street's cards (1, 3 or 5) with an optimal sorting network."""
    if k == 3:
        order2(c, 0, 1); order2(c, 1, 2); order2(c, 0, 1)
    elif k == 5:
        order2(c, 0, 1); order2(c, 3, 4); order2(c, 2, 4); order2(c, 2, 3); order2(c, 1, 4)
        order2(c, 0, 3); order2(c, 0, 2); order2(c, 1, 3); order2(c, 1, 2)


cdef inline void place_randomly(random_t* r, const uint8_t* cards, int k, int discards,
                                uint8_t* board, int* filled, uint8_t* discarded) noexcept nogil:
    """One uniformly random legal placement of k cards (ascending) with `discards` (0 or 1) of
    them discarded: the discard uniform, then the other cards' rows uniform over the assignments
    that overfill no row (the same number whichever card is discarded, so the pair is uniform
    over the legal placements). Each card joins the end of its row, in ascending order."""
    cdef int rows[3]
    cdef int room = 0, row, m = k - discards, skip = -1, i, choice
    cdef int counts[3]
    cdef int target[5]
    for row in range(3):
        if filled[row] < ROW_SIZE[row]:
            rows[room] = row
            room += 1
    if discards:
        skip = below(r, k)
        discarded[0] = cards[skip]
    # rejection: each card's row uniform over the rows with room, the whole assignment kept when
    # no row overflows (so it is uniform over the legal ones)
    while True:
        counts[0] = counts[1] = counts[2] = 0
        for i in range(m):
            row = rows[below(r, room)]
            target[i] = row
            counts[row] += 1
        if (filled[0] + counts[0] <= ROW_SIZE[0] and filled[1] + counts[1] <= ROW_SIZE[1]
                and filled[2] + counts[2] <= ROW_SIZE[2]):
            break
    choice = 0
    for i in range(k):
        if i == skip:
            continue
        row = target[choice]
        choice += 1
        board[ROW_START[row] + filled[row]] = cards[i]
        filled[row] += 1


def play_random(uint64_t seed, const int32_t[:, ::1] streets, const uint64_t[::1] hand_numbers,
                uint8_t[:, :, ::1] boards, uint8_t[:, :, ::1] dealt, uint8_t[:, :, ::1] discards):
    """Play the hands numbered `hand_numbers` for boards.shape[1] players street by street
    (streets: (cards dealt, cards discarded) rows, as ofc.streets gives): each player's cards of a
    street ascending into `dealt`, their discards into `discards`, the finished boards into
    `boards` (rows in order, each row's cards in the order placed). Returns -1 (no input can be bad:
    the caller checked the sizes)."""
    cdef Py_ssize_t n = hand_numbers.shape[0], h
    cdef int players = boards.shape[1], nstreets = streets.shape[0]
    cdef int per_player = dealt.shape[2], per_discards = discards.shape[2]
    cdef int total = players * per_player
    cdef int j, p, s, k, d, at, offset, swap_with
    cdef uint8_t deck[DECK]
    cdef uint8_t swap
    cdef uint8_t* hand_boards
    cdef uint8_t* hand_dealt
    cdef uint8_t* hand_discards
    cdef int filled[MAX_PLAYERS][3]
    cdef int dropped[MAX_PLAYERS]
    cdef random_t r
    with nogil:
        for h in range(n):
            seed_random(&r, seed, hand_numbers[h])
            hand_boards = &boards[h, 0, 0]
            hand_dealt = &dealt[h, 0, 0]
            hand_discards = &discards[h, 0, 0]
            # the first `total` cards of a uniform shuffle (Fisher-Yates, stopped early)
            for j in range(DECK):
                deck[j] = j
            for j in range(total):
                swap_with = j + below(&r, DECK - j)
                swap = deck[j]
                deck[j] = deck[swap_with]
                deck[swap_with] = swap
            for p in range(players):
                filled[p][0] = filled[p][1] = filled[p][2] = 0
                dropped[p] = 0
            at = 0
            offset = 0
            for s in range(nstreets):
                k = streets[s, 0]
                d = streets[s, 1]
                for p in range(players):
                    sort_street(&deck[at], k)
                    memcpy(hand_dealt + p * per_player + offset, &deck[at], k)
                    place_randomly(&r, &deck[at], k, d, hand_boards + p * 13, filled[p],
                                   hand_discards + p * per_discards + dropped[p])
                    dropped[p] += d
                    at += k
                offset += k
    return -1
