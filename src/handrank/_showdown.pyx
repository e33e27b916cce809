# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled loops of handrank.showdown: every hold'em combo's strength on a 5-card board, and each
combo's weighted wins, ties and losses against a range, with card removal, in one pass over the
combos sorted by strength (a counting sort: strengths are 1..7462).

Combo i is (high, low) with high > low and i = high * (high - 1) / 2 + low (colex order).
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset
from libc.float cimport DBL_MAX
from libc.math cimport NAN
from handrank._tables cimport *
from handrank._kernels cimport *

DEF COMBOS = 1326
DEF BAD_BOARD_CODE = 2 * 1326
DEF BAD_TOTAL_CODE = 2 * 1326 + 1
DEF CANCELLED = 0.015625     # 2**-6: see showdown_counts

cdef uint8_t COMBO_HIGH[COMBOS]
cdef uint8_t COMBO_LOW[COMBOS]


cdef void fill_combos() noexcept nogil:
    cdef int high, low, i = 0
    for high in range(1, 52):
        for low in range(high):
            COMBO_HIGH[i] = high
            COMBO_LOW[i] = low
            i += 1


fill_combos()


cdef bint board_strengths(const uint8_t* board, uint16_t* out) noexcept nogil:
    """out[i]: the high value of combo i with the board, 0 where it shares a card with it. False
    for a bad board (an id over 51 or a repeated card)."""
    cdef uint64_t bad = 0, used = 0, key, mask
    cdef int i, high, low
    for i in range(5):
        if board[i] > 51:
            return False
    mask = card_mask(board, 5, &bad)
    if bad:
        return False
    key = key_sum(board, 5)
    for i in range(5):
        used |= (<uint64_t>1) << board[i]
    for i in range(COMBOS):
        high = COMBO_HIGH[i]
        low = COMBO_LOW[i]
        if (used >> high | used >> low) & 1:
            out[i] = 0
        else:
            out[i] = high_value(key + hr_card_key[high] + hr_card_key[low],
                                mask | hr_card_mask[high] | hr_card_mask[low], 7)
    return True


def strengths_rows(const uint8_t[:, ::1] boards, uint16_t[:, ::1] out):
    """Every combo's strength on each board (a row of 5 ids); the first bad row, or -1."""
    cdef Py_ssize_t n = boards.shape[0], row, bad = -1
    with nogil:
        for row in range(n):
            if not board_strengths(&boards[row, 0], &out[row, 0]):
                bad = row
                break
    return bad


cdef void sort_by_strength(const uint16_t* strength, uint16_t* order) noexcept nogil:
    """order: the combos by increasing strength (a two-pass radix sort on 7 + 6 bits)."""
    cdef uint16_t first[COMBOS]
    cdef uint32_t low[129]
    cdef uint32_t high[65]
    cdef int c, i
    memset(low, 0, sizeof(low))
    memset(high, 0, sizeof(high))
    for c in range(COMBOS):
        low[(strength[c] & 127) + 1] += 1
        high[(strength[c] >> 7) + 1] += 1
    for i in range(1, 129):
        low[i] += low[i - 1]
    for i in range(1, 65):
        high[i] += high[i - 1]
    for c in range(COMBOS):
        first[low[strength[c] & 127]] = c
        low[strength[c] & 127] += 1
    for i in range(COMBOS):
        c = first[i]
        order[high[strength[c] >> 7]] = c
        high[strength[c] >> 7] += 1


cdef struct Weighted:
    # the combos with a positive weight in strength order, listed when a long sum is first redone
    bint listed
    uint16_t combos[COMBOS]
    uint16_t before[COMBOS + 1]     # before[t]: how many of them are in order[:t]


cdef double unblocked(Weighted* weighted, const uint16_t* order, const double* weight, int start,
                      int stop, int combo) noexcept nogil:
    """The weight of the combos order[start:stop] that share no card with `combo`, summed
    directly (a long stretch over the weighted combos only: a sparse range's zeros cost nothing)."""
    cdef uint64_t held = ((<uint64_t>1) << COMBO_HIGH[combo]) | ((<uint64_t>1) << COMBO_LOW[combo])
    cdef double s = 0
    cdef int t, d, n = 0
    if stop - start > 64:
        if not weighted.listed:
            for t in range(COMBOS):
                weighted.before[t] = n
                if weight[order[t]] > 0:
                    weighted.combos[n] = order[t]
                    n += 1
            weighted.before[COMBOS] = n
            weighted.listed = True
        order = weighted.combos
        start, stop = weighted.before[start], weighted.before[stop]
    for t in range(start, stop):
        d = order[t]
        if not ((((<uint64_t>1) << COMBO_HIGH[d]) | ((<uint64_t>1) << COMBO_LOW[d])) & held):
            s += weight[d]
    return s


cdef struct Redo:
    # a combo whose win (bit 1), tie (2) or lose (4) the running sums may have got wrong, and
    # its group, order[start:stop]
    uint16_t combo, start, stop
    uint8_t which


cdef bint showdown_counts(const uint16_t* strength, const double* hero, const double* weight,
                          double* win, double* tie, double* lose) noexcept nogil:
    """For each combo with a strength and a hero weight, the weight of the combos it beats, ties
    and loses to among those that share no card with it (zero for the other combos). Combos
    without a strength count as weight 0. False, with nothing written, when the weights of the
    combos with a strength add up past the largest double (the running sums would be inf - inf)."""
    cdef uint16_t order[COMBOS]
    cdef Redo redo[COMBOS]
    cdef Weighted weighted
    cdef double below_card[52]
    cdef double group_card[52]
    cdef double all_card[52]
    cdef double below = 0, group, total = 0, w, above, won, tied, lost
    cdef int i, j, t, c, s, a, b, first, last, redos = 0, group_weighted, below_weighted = 0
    cdef uint8_t which
    memset(below_card, 0, sizeof(below_card))
    memset(group_card, 0, sizeof(group_card))
    memset(all_card, 0, sizeof(all_card))
    for c in range(COMBOS):
        if strength[c]:
            w = weight[c]
            total += w
            all_card[COMBO_HIGH[c]] += w
            all_card[COMBO_LOW[c]] += w
    if not total <= DBL_MAX:
        return False
    for c in range(COMBOS):
        if not strength[c] or hero[c] == 0:
            win[c] = 0
            tie[c] = 0
            lose[c] = 0
    sort_by_strength(strength, order)
    i = 0       # the combos without a strength come first: skip them
    while i < COMBOS and strength[order[i]] == 0:
        i += 1
    first = i
    while i < COMBOS:
        s = strength[order[i]]
        j = i
        group = 0
        group_weighted = 0
        while j < COMBOS and strength[order[j]] == s:
            c = order[j]
            w = weight[c]
            group += w
            group_weighted += w > 0
            group_card[COMBO_HIGH[c]] += w
            group_card[COMBO_LOW[c]] += w
            j += 1
        above = total - below - group
        for t in range(i, j):
            c = order[t]
            if hero[c] == 0:
                continue
            a = COMBO_HIGH[c]
            b = COMBO_LOW[c]
            w = weight[c]
            # Card removal by subtracting per-card sums: a combo holding a or b shares a card with
            # c, and c itself (in both per-card sums of its group) is added back. A running sum of
            # up to 1326 weights is off by at most 1326 roundings (1.5e-13) of its size, so a
            # result of at least 1/64 of the sums it came from is good to 1e-11 of itself; one
            # below (most of the weight blocked, where what remains may be rounding of either
            # sign) is summed again below. Sums of one weight (and zeros) are exact.
            won = below - below_card[a] - below_card[b]
            tied = group - group_card[a] - group_card[b] + w
            lost = above - (all_card[a] - below_card[a] - group_card[a]) - (
                all_card[b] - below_card[b] - group_card[b])
            win[c] = won
            tie[c] = tied
            lose[c] = lost
            which = (won < below * CANCELLED and below_weighted > 1) | (
                tied < group * CANCELLED and group_weighted > 1) << 1 | (lost < total * CANCELLED) << 2
            if which:
                redo[redos].combo = c
                redo[redos].start = i
                redo[redos].stop = j
                redo[redos].which = which
                redos += 1
        for t in range(i, j):
            c = order[t]
            a = COMBO_HIGH[c]
            b = COMBO_LOW[c]
            below_card[a] += group_card[a]
            below_card[b] += group_card[b]
            group_card[a] = 0
            group_card[b] = 0
        below += group
        below_weighted += group_weighted
        i = j
    if redos:
        weighted.listed = False
        last = COMBOS - 1       # the strongest combo with a weight: nothing to lose to above it
        while last >= first and weight[order[last]] == 0:
            last -= 1
        for t in range(redos):
            c = redo[t].combo
            if redo[t].which & 1:
                win[c] = unblocked(&weighted, order, weight, first, redo[t].start, c)
            if redo[t].which & 2:
                tie[c] = unblocked(&weighted, order, weight, redo[t].start, redo[t].stop, c)
            if redo[t].which & 4:
                lose[c] = 0 if redo[t].stop > last else \
                    unblocked(&weighted, order, weight, redo[t].stop, COMBOS, c)
    return True


cdef Py_ssize_t bad_weight(const double* weight) noexcept nogil:
    """The first combo whose weight is negative or not finite, or -1."""
    cdef int c
    for c in range(COMBOS):
        if not (weight[c] >= 0 and weight[c] <= DBL_MAX):
            return c
    return -1


cdef Py_ssize_t river(const uint8_t[::1] board, const double[::1] hero, const double[::1] villain,
                      uint16_t* strength, double* win, double* tie, double* lose) noexcept nogil:
    """Fill strength, win, tie and lose (zero outside the hero's range); -1, or BAD_BOARD, or the
    first bad hero weight's combo, or COMBOS + the first bad villain weight's combo, or BAD_TOTAL
    (the villain's weights add up past the largest double)."""
    cdef Py_ssize_t bad = bad_weight(&hero[0])
    if bad >= 0:
        return bad
    bad = bad_weight(&villain[0])
    if bad >= 0:
        return COMBOS + bad
    if not board_strengths(&board[0], strength):
        return BAD_BOARD_CODE
    if not showdown_counts(strength, &hero[0], &villain[0], win, tie, lose):
        return BAD_TOTAL_CODE
    return -1


BAD_BOARD = BAD_BOARD_CODE
BAD_TOTAL = BAD_TOTAL_CODE


def river_payoffs_into(const uint8_t[::1] board, const double[::1] hero, const double[::1] villain,
                       double[::1] win, double[::1] tie, double[::1] lose, uint16_t[::1] strength):
    """Every combo's strength, and the villain weight each hero combo beats, ties and loses to
    (see `river` for the result)."""
    cdef Py_ssize_t bad
    with nogil:
        bad = river(board, hero, villain, &strength[0], &win[0], &tie[0], &lose[0])
    return bad


def river_equity_into(const uint8_t[::1] board, const double[::1] hero, const double[::1] villain,
                      double[::1] equity):
    """Each hero combo's (win + tie / 2) / (win + tie + lose), nan where that is 0 / 0 (see
    `river` for the result)."""
    cdef uint16_t strength[COMBOS]
    cdef double win[COMBOS]
    cdef double tie[COMBOS]
    cdef double lose[COMBOS]
    cdef double total
    cdef Py_ssize_t bad
    cdef int c
    with nogil:
        bad = river(board, hero, villain, strength, win, tie, lose)
        if bad < 0:
            for c in range(COMBOS):
                total = win[c] + tie[c] + lose[c]
                equity[c] = (win[c] + 0.5 * tie[c]) / total if total > 0 else NAN
    return bad
