# The parts of the three-row kernel that other compiled modules share (handrank.ofc._placement):
# the rule tables, one board's evaluation and the pairwise scores, and the strength sort, search
# and writing out of the setting searches. Their definitions are here, so every module inlines the
# same code.
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from handrank._tables cimport *
from handrank._kernels cimport *


ctypedef struct rules_t:
    const int32_t* top_royalty       # by high3 value
    const int32_t* middle_royalty    # by middle value: high value, or 2-7 value in deuce
    const int32_t* bottom_royalty    # by high value
    const uint8_t* top_fantasyland   # cards dealt next hand, by high3 value
    const uint8_t* middle_fantasyland
    const uint8_t* top_stay
    const uint8_t* middle_stay
    const uint8_t* bottom_stay
    const uint8_t* middle_ok         # 0 for a middle that fouls on its own (deuce qualifier)
    bint lowball                     # the middle is a 2-7 low (deuce)
    int super_fantasyland            # cards when top and middle both earn entry (0: no such rule)
    int stay_cards
    int scoop_bonus
    const uint16_t* row_order        # NULL, or the rules' row value of each row value of 5 cards
                                     # (Chinese poker's wheel as the second straight), for the
                                     # setting searches only: scoring applies it outside


cdef class RuleTables:
    cdef rules_t r
    cdef tuple keep     # the arrays r points into


ctypedef struct board_t:
    uint16_t top          # high3 value
    uint16_t middle       # middle value in its game (high or 2-7)
    uint16_t bottom       # high value
    uint16_t top_row      # row-scale values
    uint16_t middle_row   # row scale, or the 2-7 value in deuce
    uint16_t bottom_row
    bint foul
    int32_t royalties[3]
    uint64_t bad          # non-zero when a card is out of range or appears twice
    uint64_t mask         # the board's card bits (see _kernels.card_mask)


cdef inline board_t eval_board(const uint8_t* c, const rules_t* r) noexcept nogil:
    cdef board_t b
    # Every card is read before anything is stored in b (a store could alias the card bytes and
    # make the compiler read them again), row by row: in this order the loop ran 5-10% faster.
    cdef uint64_t bad = 0
    cdef uint64_t top_mask = card_mask(c, 3, &bad)
    cdef uint64_t top_key = key_sum(c, 3)
    cdef uint64_t mid_mask = card_mask(c + 3, 5, &bad)
    cdef uint64_t mid_key = key_sum(c + 3, 5)
    cdef uint64_t bot_mask = card_mask(c + 8, 5, &bad)
    cdef uint64_t bot_key = key_sum(c + 8, 5)
    cdef uint16_t mid_high = high_value(mid_key, mid_mask, 5)
    # a card in two rows shows as a bit two row masks share
    b.bad = bad | (top_mask & mid_mask) | (top_mask & bot_mask) | (mid_mask & bot_mask)
    b.mask = top_mask | mid_mask | bot_mask
    b.top = high3_value(top_key)
    b.bottom = high_value(bot_key, bot_mask, 5)
    b.top_row = hr_row_of_high3[b.top]
    b.bottom_row = hr_row_of_high[b.bottom]
    if r.lowball:
        b.middle = hr_low27_of_high[mid_high]
        b.middle_row = b.middle
        b.foul = b.top_row > b.bottom_row or not r.middle_ok[b.middle]
    else:
        b.middle = mid_high
        b.middle_row = hr_row_of_high[mid_high]
        b.foul = b.top_row > b.middle_row or b.middle_row > b.bottom_row
    if b.foul:
        b.royalties[0] = b.royalties[1] = b.royalties[2] = 0
    else:
        b.royalties[0] = r.top_royalty[b.top]
        b.royalties[1] = r.middle_royalty[b.middle]
        b.royalties[2] = r.bottom_royalty[b.bottom]
    return b


cdef inline int fantasyland_cards(const board_t* b, const rules_t* r, bint in_fantasyland) noexcept nogil:
    cdef int top, mid
    if b.foul:
        return 0
    if in_fantasyland:
        if r.top_stay[b.top] or r.middle_stay[b.middle] or r.bottom_stay[b.bottom]:
            return r.stay_cards
        return 0
    top = r.top_fantasyland[b.top]
    mid = r.middle_fantasyland[b.middle]
    if top and mid and r.super_fantasyland:
        return r.super_fantasyland
    return top if top > mid else mid


cdef inline int sign(int a, int b) noexcept nogil:
    return (a > b) - (a < b)


cdef inline int32_t net_points(const board_t* a, const board_t* b, const rules_t* r) noexcept nogil:
    """Points a wins from b (negative: a pays)."""
    cdef int rows
    if a.foul and b.foul:
        return 0
    if a.foul:
        return -(3 + r.scoop_bonus + b.royalties[0] + b.royalties[1] + b.royalties[2])
    if b.foul:
        return 3 + r.scoop_bonus + a.royalties[0] + a.royalties[1] + a.royalties[2]
    # rows compare by value within the row's own game; the row scale orders top and bottom too
    rows = sign(a.top, b.top) + sign(a.middle, b.middle) + sign(a.bottom, b.bottom)
    if rows == 3:
        rows += r.scoop_bonus
    elif rows == -3:
        rows -= r.scoop_bonus
    return (rows + a.royalties[0] + a.royalties[1] + a.royalties[2]
            - b.royalties[0] - b.royalties[1] - b.royalties[2])


cdef enum:
    SCORING_1_6 = 0
    SCORING_2_4 = 1


cdef inline int32_t chinese_points(const board_t* a, const board_t* b, const rules_t* r,
                                   int scoring, bint to_winner) noexcept nogil:
    """Points a wins from b in Chinese poker, naturals aside (the caller settles those)."""
    cdef int s[3]
    cdef int wins = 0, losses = 0, k
    cdef int32_t points, scoop = 6 if scoring == SCORING_1_6 else 4
    if a.foul and b.foul:
        return 0
    if a.foul:
        return -(scoop + b.royalties[0] + b.royalties[1] + b.royalties[2])
    if b.foul:
        return scoop + a.royalties[0] + a.royalties[1] + a.royalties[2]
    s[0] = sign(a.top, b.top)
    s[1] = sign(a.middle, b.middle)
    s[2] = sign(a.bottom, b.bottom)
    for k in range(3):
        wins += s[k] > 0
        losses += s[k] < 0
    points = wins - losses
    if scoring == SCORING_1_6:
        points += 3 * ((wins == 3) - (losses == 3))
    else:
        points += (wins > losses) - (losses > wins)
    for k in range(3):
        if not to_winner:
            points += a.royalties[k] - b.royalties[k]
        elif s[k] > 0:
            points += a.royalties[k]
        elif s[k] < 0:
            points -= b.royalties[k]
    return points


cdef inline int first_no_stronger(const uint16_t* order, const uint16_t* strength, int n,
                                  uint16_t limit) noexcept nogil:
    # the first entry of a strongest-first list that is no stronger than `limit`
    cdef int lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if strength[order[mid]] > limit:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef int strongest_first(const uint16_t* strength, const uint8_t* chosen, int count,
                         uint16_t* out, uint32_t* keys, uint32_t* tmp) noexcept nogil


cdef inline void write_positions(const uint8_t* cards, uint32_t mask, uint8_t* out) noexcept nogil:
    # the cards at the positions set in mask, in order, into out
    cdef int k = 0, p = 0
    while mask:
        if mask & 1:
            out[k] = cards[p]
            k += 1
        mask >>= 1
        p += 1
