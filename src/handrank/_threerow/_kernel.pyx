# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Open-Face and 13-card Chinese poker: board evaluation, pairwise scores, the exact
setting solver (OFC's Fantasyland, Chinese poker's "royalties") and the expected-points search.

A ruleset reaches this module as a `RuleTables`: per-value lookup tables that handrank.ofc (or
handrank.chinese) builds once per rules object (royalty, Fantasyland entry and stay per hand value
of each row, and which middles are legal). The kernels never see the rules themselves, so every
variant of both games runs the same code.

Row strengths: the top and the bottom (and a high middle) are compared on the row scale of
handrank.rows, so a foul check is two integer comparisons. A 2-7 middle (deuce) is compared by its
2-7 value and never against the other rows.
"""
cimport cython
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from libc.math cimport fabs
from handrank._tables cimport *
from handrank._kernels cimport *
from handrank._bits cimport hr_ctz32

import numpy as np

TOP_VALUES = 456        # high3 values 0..455 (0 unused)
FIVE_VALUES = 7463      # high or 2-7 values 0..7462 (0 unused)
MAX_CARDS = 17          # the most cards a Fantasyland hand is dealt
ROW_VALUES = 1 + max(max(<const uint16_t[:7463]>hr_row_of_high), max(<const uint16_t[:456]>hr_row_of_high3))

DEF NMAX = 17
DEF MAX5 = 6188         # C(17, 5)
DEF TRIPLES = NMAX * NMAX * NMAX
DEF NO_ROYALTY = -1000000   # "no legal row at or below this strength"
DEF MIN_SOLVE = 13
DEF CAP_SHIFT = 3
DEF CAPS = 8192 >> CAP_SHIFT     # strengths (row and 2-7 values) are below 8192


@cython.auto_pickle(False)     # it points into arrays: rebuilt from the Rules, never pickled
cdef class RuleTables:
    """One ruleset as lookup tables (built by handrank.ofc from an ofc.Rules; checked there)."""

    def __init__(self, const int32_t[::1] top_royalty, const int32_t[::1] middle_royalty,
                 const int32_t[::1] bottom_royalty, const uint8_t[::1] top_fantasyland,
                 const uint8_t[::1] middle_fantasyland, const uint8_t[::1] top_stay,
                 const uint8_t[::1] middle_stay, const uint8_t[::1] bottom_stay,
                 const uint8_t[::1] middle_ok, bint lowball, int super_fantasyland, int stay_cards,
                 int scoop_bonus, const uint16_t[::1] row_order=None):
        for arr, size in ((top_royalty, TOP_VALUES), (top_fantasyland, TOP_VALUES),
                          (top_stay, TOP_VALUES), (middle_royalty, FIVE_VALUES),
                          (bottom_royalty, FIVE_VALUES), (middle_fantasyland, FIVE_VALUES),
                          (middle_stay, FIVE_VALUES), (bottom_stay, FIVE_VALUES),
                          (middle_ok, FIVE_VALUES)):
            if arr.shape[0] != size:
                raise ValueError(f"a rule table has {arr.shape[0]} entries, expected {size}")
        if row_order is not None and row_order.shape[0] != ROW_VALUES:
            raise ValueError(f"a rule table has {row_order.shape[0]} entries, expected {ROW_VALUES}")
        self.keep = (top_royalty, middle_royalty, bottom_royalty, top_fantasyland,
                     middle_fantasyland, top_stay, middle_stay, bottom_stay, middle_ok, row_order)
        self.r.row_order = NULL
        if row_order is not None:
            self.r.row_order = &row_order[0]
        self.r.top_royalty = &top_royalty[0]
        self.r.middle_royalty = &middle_royalty[0]
        self.r.bottom_royalty = &bottom_royalty[0]
        self.r.top_fantasyland = &top_fantasyland[0]
        self.r.middle_fantasyland = &middle_fantasyland[0]
        self.r.top_stay = &top_stay[0]
        self.r.middle_stay = &middle_stay[0]
        self.r.bottom_stay = &bottom_stay[0]
        self.r.middle_ok = &middle_ok[0]
        self.r.lowball = lowball
        self.r.super_fantasyland = super_fantasyland
        self.r.stay_cards = stay_cards
        self.r.scoop_bonus = scoop_bonus


# ----------------------------------------------------------------------------- one board
def evaluate_boards(RuleTables tables, bint in_fantasyland, const uint8_t[:, ::1] cards,
                    uint8_t[::1] foul, int32_t[:, ::1] royalties, uint16_t[:, ::1] values,
                    uint8_t[::1] fantasyland):
    """Evaluate (N, 13) boards into the four outputs without the GIL; -1 or the first bad row."""
    cdef Py_ssize_t n = cards.shape[0], i
    cdef const rules_t* r = &tables.r
    cdef board_t b
    cdef uint64_t bad = 0
    if n == 0:
        return -1
    with nogil:
        for i in range(n):
            b = eval_board(&cards[i, 0], r)
            bad |= b.bad
            foul[i] = b.foul
            royalties[i, 0] = b.royalties[0]
            royalties[i, 1] = b.royalties[1]
            royalties[i, 2] = b.royalties[2]
            values[i, 0] = b.top_row
            values[i, 1] = b.middle_row
            values[i, 2] = b.bottom_row
            fantasyland[i] = fantasyland_cards(&b, r, in_fantasyland)
    return first_bad_board(&cards[0, 0], n, 13) if bad else -1


cdef Py_ssize_t first_bad_board(const uint8_t* c, Py_ssize_t n, int k) noexcept nogil:
    # a row of 26 holds two boards of one deal: no card may repeat in all 26 either
    return first_bad_row(c, n, k)


# ----------------------------------------------------------------------------- Fantasyland
# The solver works on positions 0..n-1 of the hand's cards, sorted ascending by the caller. Every
# 5-card subset (at most C(17,5) = 6188) and 3-card subset is evaluated once. Then a branch and
# bound: bottoms strongest first, for each the middles that may sit under it strongest first, for
# each the best top from the cards left. Bounds come from caps by strength:
#   cap_top_roy[v >> CAP_SHIFT] = the best royalty of any top no stronger than row value v
# and cap_mid_roy likewise for middles, by middle strength. (Strengths share a cap in groups of 8,
# which loosens the bound a little and makes the caps cheap to build for every hand.) Walking the
# middles strongest first, the bound of everything still to come only shrinks, so the walk stops
# as soon as it cannot reach the best setting found so far.
#
# Search order doubles as the tie-break: bottoms and middles of equal strength are visited in
# ascending order of their cards, tops too, and a setting replaces the best only when strictly
# better, so among equal settings the first found, with the lowest cards, is kept.

ctypedef struct scratch_t:
    uint32_t* mask          # the 5-card subset's positions, one bit each
    uint16_t* row           # its row-scale value: its strength as a bottom (and a high middle)
    uint16_t* mid_key       # its strength as a middle: the row value, or the 2-7 value in deuce
    int32_t* bot_roy
    int32_t* mid_roy
    uint8_t* bot_stay
    uint8_t* mid_stay
    uint8_t* mid_ok
    uint16_t* bottoms       # every subset, strongest first
    uint16_t* middles       # the legal middles, strongest first
    uint32_t* middle_masks  # their masks in that order, then a 0 that stops every scan
    uint32_t* keys          # sort buffers
    uint32_t* keys_tmp
    uint16_t* top_row       # 3-card subsets, indexed by (p * NMAX + q) * NMAX + r
    int32_t* top_roy
    uint8_t* top_stay
    int32_t* cap_top_roy    # caps by strength, see above
    uint8_t* cap_top_stay
    int32_t* cap_mid_roy
    uint8_t* cap_mid_stay


cdef void* scratch_block(scratch_t* s) noexcept nogil:
    cdef Py_ssize_t caps = CAPS
    cdef char* p = <char*>malloc(MAX5 * (4 + 2 + 2 + 4 + 4 + 1 + 1 + 1 + 2 + 2 + 4 + 4) + (MAX5 + 1) * 4
                                 + TRIPLES * (2 + 4 + 1) + caps * (4 + 1 + 4 + 1) + 64)
    cdef char* block = p
    if p == NULL:
        return NULL
    s.mask = <uint32_t*>p; p += MAX5 * 4
    s.keys = <uint32_t*>p; p += MAX5 * 4
    s.keys_tmp = <uint32_t*>p; p += MAX5 * 4
    s.middle_masks = <uint32_t*>p; p += (MAX5 + 1) * 4
    s.bot_roy = <int32_t*>p; p += MAX5 * 4
    s.mid_roy = <int32_t*>p; p += MAX5 * 4
    s.top_roy = <int32_t*>p; p += TRIPLES * 4
    s.cap_top_roy = <int32_t*>p; p += caps * 4
    s.cap_mid_roy = <int32_t*>p; p += caps * 4
    s.row = <uint16_t*>p; p += MAX5 * 2
    s.mid_key = <uint16_t*>p; p += MAX5 * 2
    s.bottoms = <uint16_t*>p; p += MAX5 * 2
    s.middles = <uint16_t*>p; p += MAX5 * 2
    s.top_row = <uint16_t*>p; p += TRIPLES * 2
    s.bot_stay = <uint8_t*>p; p += MAX5
    s.mid_stay = <uint8_t*>p; p += MAX5
    s.mid_ok = <uint8_t*>p; p += MAX5
    s.top_stay = <uint8_t*>p; p += TRIPLES
    s.cap_top_stay = <uint8_t*>p; p += caps
    s.cap_mid_stay = <uint8_t*>p
    return block


cdef int strongest_first(const uint16_t* strength, const uint8_t* chosen, int count,
                         uint16_t* out, uint32_t* keys, uint32_t* tmp) noexcept nogil:
    """Indices i < count (those with chosen[i], if given) by strength descending, then index
    ascending, into `out`; returns how many. An LSD radix sort on the strength (13 bits, two
    passes of 7); being stable, it keeps equal strengths in ascending index order."""
    cdef int n = 0, i, shift
    cdef uint32_t* src = keys
    cdef uint32_t* dst = tmp
    cdef uint32_t* swap
    cdef int counts[128]
    cdef int total, c
    for i in range(count):
        if chosen == NULL or chosen[i]:
            keys[n] = (<uint32_t>(8191 - strength[i]) << 13) | <uint32_t>i
            n += 1
    for shift in range(13, 27, 7):
        for i in range(128):
            counts[i] = 0
        for i in range(n):
            counts[(src[i] >> shift) & 127] += 1
        total = 0
        for i in range(128):
            c = counts[i]
            counts[i] = total
            total += c
        for i in range(n):
            c = (src[i] >> shift) & 127
            dst[counts[c]] = src[i]
            counts[c] += 1
        swap = src; src = dst; dst = swap
    for i in range(n):
        out[i] = src[i] & 8191
    return n


cdef inline void cap_by_strength(int32_t* cap_roy, uint8_t* cap_stay) noexcept nogil:
    # turn "best at exactly this strength" into "best at this strength or below"
    cdef Py_ssize_t v
    for v in range(1, CAPS):
        if cap_roy[v - 1] > cap_roy[v]:
            cap_roy[v] = cap_roy[v - 1]
        cap_stay[v] |= cap_stay[v - 1]


cdef inline double with_stay(int32_t royalty, bint stays, double stay_value) noexcept nogil:
    # The one formula for a setting's value (and its bounds), so equal settings compare equal.
    return <double>royalty + (stay_value if stays else 0.0)


cdef inline uint64_t three_key(const uint8_t* cards, int a, int b, int c) noexcept nogil:
    return HR_SUIT_COUNTER_START + hr_card_key[cards[a]] + hr_card_key[cards[b]] + hr_card_key[cards[c]]


ctypedef struct solution_t:
    double value
    int32_t royalty
    bint stays
    int bottom, middle           # subset indices; bottom < 0 when no setting is legal
    uint32_t top_mask


cdef void evaluate_subsets(const uint8_t* cards, int n, const rules_t* r, scratch_t* s) noexcept nogil:
    """Values, royalties and stay flags of every 3- and 5-card subset, and the caps."""
    cdef int a, b, c, d, e, t, count = 0
    cdef uint16_t hv, mv, v
    cdef Py_ssize_t x
    cdef bint lowball = r.lowball
    cdef uint64_t keys[NMAX]
    cdef uint64_t masks[NMAX]
    cdef uint64_t ka, kb, kc, kd, mb, mc, md
    for x in range(CAPS):
        s.cap_top_roy[x] = NO_ROYALTY
        s.cap_top_stay[x] = 0
        s.cap_mid_roy[x] = NO_ROYALTY
        s.cap_mid_stay[x] = 0
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                hv = high3_value(three_key(cards, a, b, c))
                t = (a * NMAX + b) * NMAX + c
                v = hr_row_of_high3[hv]
                s.top_row[t] = v
                s.top_roy[t] = r.top_royalty[hv]
                s.top_stay[t] = r.top_stay[hv]
                if s.top_roy[t] > s.cap_top_roy[v >> CAP_SHIFT]:
                    s.cap_top_roy[v >> CAP_SHIFT] = s.top_roy[t]
                s.cap_top_stay[v >> CAP_SHIFT] |= s.top_stay[t]
    # the five-card sums grow card by card, as in the exhaustive counts of _evaluate
    for a in range(n):
        keys[a] = hr_card_key[cards[a]]
        masks[a] = hr_card_mask[cards[a]]
    for a in range(n):
        ka = HR_SUIT_COUNTER_START + keys[a]
        for b in range(a + 1, n):
            kb = ka + keys[b]
            mb = masks[a] | masks[b]
            for c in range(b + 1, n):
                kc = kb + keys[c]
                mc = mb | masks[c]
                for d in range(c + 1, n):
                    kd = kc + keys[d]
                    md = mc | masks[d]
                    for e in range(d + 1, n):
                        hv = high_value(kd + keys[e], md | masks[e], 5)
                        mv = hr_low27_of_high[hv] if lowball else hv
                        s.mask[count] = ((<uint32_t>1 << a) | (<uint32_t>1 << b) | (<uint32_t>1 << c)
                                         | (<uint32_t>1 << d) | (<uint32_t>1 << e))
                        s.row[count] = hr_row_of_high[hv]
                        if r.row_order != NULL:
                            s.row[count] = r.row_order[s.row[count]]
                        s.mid_key[count] = mv if lowball else s.row[count]
                        s.bot_roy[count] = r.bottom_royalty[hv]
                        s.bot_stay[count] = r.bottom_stay[hv]
                        s.mid_roy[count] = r.middle_royalty[mv]
                        s.mid_stay[count] = r.middle_stay[mv]
                        s.mid_ok[count] = r.middle_ok[mv]
                        if s.mid_ok[count]:
                            v = s.mid_key[count]
                            if s.mid_roy[count] > s.cap_mid_roy[v >> CAP_SHIFT]:
                                s.cap_mid_roy[v >> CAP_SHIFT] = s.mid_roy[count]
                            s.cap_mid_stay[v >> CAP_SHIFT] |= s.mid_stay[count]
                        count += 1
    cap_by_strength(s.cap_top_roy, s.cap_top_stay)
    cap_by_strength(s.cap_mid_roy, s.cap_mid_stay)


cdef solution_t solve_one(const uint8_t* cards, int n, const rules_t* r, double stay_value,
                          scratch_t* s) noexcept nogil:
    cdef int a, b, c, i, j, t, x, u, n_rem, n_mid
    cdef int count = choose5(n)
    cdef bint lowball = r.lowball, stays
    cdef double stay_bonus = stay_value if stay_value > 0 else 0.0   # for bounds: never below 0
    cdef double value, bound, best = -1e300
    cdef uint16_t best_bottom = 0, best_middle = 0, best_top = 0   # strengths of the best setting
    cdef uint16_t v, w, limit
    cdef int32_t roy2
    cdef uint32_t bottom_mask
    cdef int32_t left_roy, top_roy
    cdef bint left_stay, top_stay
    cdef int pos[NMAX]
    cdef solution_t sol
    sol.bottom = -1

    evaluate_subsets(cards, n, r, s)
    strongest_first(s.row, NULL, count, s.bottoms, s.keys, s.keys_tmp)
    if lowball:
        n_mid = strongest_first(s.mid_key, s.mid_ok, count, s.middles, s.keys, s.keys_tmp)
    else:
        # a high middle's strength is its row value: the legal ones in the bottoms' order
        n_mid = 0
        for x in range(count):
            if s.mid_ok[s.bottoms[x]]:
                s.middles[n_mid] = s.bottoms[x]
                n_mid += 1
    # the scan for a middle off the bottom's cards reads one array in order (most share a card)
    for u in range(n_mid):
        s.middle_masks[u] = s.mask[s.middles[u]]
    s.middle_masks[n_mid] = 0

    for x in range(count):
        i = s.bottoms[x]
        v = s.row[i]
        # a high middle is no stronger than the bottom; a 2-7 middle is free of it (any legal
        # one, capped at the top of the scale); the top is no stronger than the middle (bottom)
        w = HR_ROW_MAX if lowball else v
        if s.cap_mid_roy[w >> CAP_SHIFT] == NO_ROYALTY or s.cap_top_roy[v >> CAP_SHIFT] == NO_ROYALTY:
            continue
        bound = with_stay(s.bot_roy[i] + s.cap_mid_roy[w >> CAP_SHIFT] + s.cap_top_roy[v >> CAP_SHIFT],
                          s.bot_stay[i] or s.cap_mid_stay[w >> CAP_SHIFT] or s.cap_top_stay[v >> CAP_SHIFT], stay_bonus)
        if bound < best or (bound == best and v < best_bottom):
            continue
        bottom_mask = s.mask[i]
        # the best top royalty (and stay) of the cards the bottom leaves, of any strength: a
        # tighter cap than the whole hand's when the bottom holds the cards of the hand's best tops
        n_rem = positions(((<uint32_t>1 << n) - 1) & ~bottom_mask, pos)
        left_roy = NO_ROYALTY
        left_stay = 0
        for a in range(n_rem):
            for b in range(a + 1, n_rem):
                for c in range(b + 1, n_rem):
                    t = (pos[a] * NMAX + pos[b]) * NMAX + pos[c]
                    if s.top_roy[t] > left_roy:
                        left_roy = s.top_roy[t]
                    left_stay |= s.top_stay[t]
        top_roy = min_royalty(s.cap_top_roy[v >> CAP_SHIFT], left_roy)
        bound = with_stay(s.bot_roy[i] + s.cap_mid_roy[w >> CAP_SHIFT] + top_roy,
                          s.bot_stay[i] or s.cap_mid_stay[w >> CAP_SHIFT] or (s.cap_top_stay[v >> CAP_SHIFT] and left_stay),
                          stay_bonus)
        if top_roy == NO_ROYALTY or bound < best or (bound == best and v < best_bottom):
            continue
        u = 0 if lowball else first_no_stronger(s.middles, s.mid_key, n_mid, v)
        while True:
            u = next_disjoint(s.middle_masks, u, bottom_mask)
            if u == n_mid:
                break
            j = s.middles[u]
            u += 1
            w = s.mid_key[j]
            limit = v if lowball else w          # the strongest top allowed
            if s.cap_top_roy[limit >> CAP_SHIFT] == NO_ROYALTY:
                break                            # (only in high games: weaker middles follow)
            top_roy = min_royalty(s.cap_top_roy[limit >> CAP_SHIFT], left_roy)
            top_stay = s.cap_top_stay[limit >> CAP_SHIFT] and left_stay
            # every middle from here on, and its top, is capped by this middle's strength
            bound = with_stay(s.bot_roy[i] + s.cap_mid_roy[w >> CAP_SHIFT] + top_roy,
                              s.bot_stay[i] or s.cap_mid_stay[w >> CAP_SHIFT] or top_stay, stay_bonus)
            if bound < best or (bound == best and v == best_bottom and w < best_middle):
                break
            roy2 = s.bot_roy[i] + s.mid_roy[j]
            bound = with_stay(roy2 + top_roy, s.bot_stay[i] or s.mid_stay[j] or top_stay, stay_bonus)
            if bound < best or (bound == best and v == best_bottom and w < best_middle):
                continue
            # the top: the best 3 of the cards left
            n_rem = positions(((<uint32_t>1 << n) - 1) & ~(bottom_mask | s.mask[j]), pos)
            for a in range(n_rem):
                for b in range(a + 1, n_rem):
                    for c in range(b + 1, n_rem):
                        t = (pos[a] * NMAX + pos[b]) * NMAX + pos[c]
                        if s.top_row[t] > limit:
                            continue
                        stays = s.bot_stay[i] or s.mid_stay[j] or s.top_stay[t]
                        value = with_stay(roy2 + s.top_roy[t], stays, stay_value)
                        if value < best or (value == best and (
                                v < best_bottom or (v == best_bottom and (
                                    w < best_middle or (w == best_middle
                                                        and s.top_row[t] <= best_top))))):
                            continue
                        best = value
                        best_bottom, best_middle, best_top = v, w, s.top_row[t]
                        sol.value = value
                        sol.royalty = roy2 + s.top_roy[t]
                        sol.stays = stays
                        sol.bottom = i
                        sol.middle = j
                        sol.top_mask = (<uint32_t>1 << pos[a]) | (<uint32_t>1 << pos[b]) | (<uint32_t>1 << pos[c])
    return sol


cdef inline int next_disjoint(const uint32_t* masks, int u, uint32_t mask) noexcept nogil:
    # the first masks[k], k >= u, with no card of `mask` (a 0 ends the masks); a function of its
    # own so that the scan's index stays in a register
    while masks[u] & mask:
        u += 1
    return u


cdef inline int positions(uint32_t mask, int* pos) noexcept nogil:
    # the set bits of `mask` into pos, ascending; returns how many
    cdef int k = 0
    while mask:
        pos[k] = hr_ctz32(mask)
        mask &= mask - 1
        k += 1
    return k


cdef inline int32_t min_royalty(int32_t a, int32_t b) noexcept nogil:
    return a if a < b else b


cdef inline int choose5(int n) noexcept nogil:
    return n * (n - 1) * (n - 2) * (n - 3) * (n - 4) // 120


def solve_fantasyland(RuleTables tables, double stay_value, const uint8_t[:, ::1] cards,
                      uint8_t[:, ::1] boards, int32_t[::1] royalties, uint8_t[::1] stays,
                      uint8_t[::1] fouled, double[::1] values):
    """Solve each row of `cards` (13..17 distinct ids, ascending; checked by the caller) without
    the GIL. boards rows are top, middle, bottom; a hand with no legal setting is fouled."""
    cdef Py_ssize_t rows = cards.shape[0], i
    cdef int n = <int>cards.shape[1]
    cdef const rules_t* r = &tables.r
    cdef scratch_t s
    cdef solution_t sol
    cdef const uint8_t* hand
    cdef uint8_t* out
    cdef void* block
    if rows == 0:
        return -1
    if not MIN_SOLVE <= n <= NMAX:
        raise ValueError(f"a Fantasyland hand has 13 to 17 cards, got {n}")
    block = scratch_block(&s)
    if block == NULL:
        raise MemoryError()
    with nogil:
        for i in range(rows):
            hand = &cards[i, 0]
            out = &boards[i, 0]
            sol = solve_one(hand, n, r, stay_value, &s)
            if sol.bottom < 0:
                # no legal setting: the highest cards at the bottom, then middle, then top
                memcpy(out + 8, hand + n - 5, 5)
                memcpy(out + 3, hand + n - 10, 5)
                memcpy(out, hand + n - 13, 3)
                royalties[i] = 0
                stays[i] = 0
                fouled[i] = 1
                values[i] = 0.0
            else:
                write_positions(hand, sol.top_mask, out)
                write_positions(hand, s.mask[sol.middle], out + 3)
                write_positions(hand, s.mask[sol.bottom], out + 8)
                royalties[i] = sol.royalty
                stays[i] = sol.stays
                fouled[i] = 0
                values[i] = sol.value
        free(block)
    return -1


# ----------------------------------------------------------------------------- Chinese poker
# The best setting of 13 cards for an objective that is not a sum of row royalties: the expected
# points against one opponent, from per-row tables indexed by row value (built by
# handrank.chinese.ev). Every valid setting is visited (72,072 splits, the top is the three cards
# left), each costing a few table reads and a dozen multiplications.

ctypedef struct ev_tables_t:
    const double* base[3]     # per row (top, middle, bottom): a row value's separable part
    const double* win[3]      # the chance it beats the opponent's row
    const double* lose[3]     # the chance it loses to it
    int scoring
    double scoop_bonus        # 1-6: paid for all three rows
    # Chinese poker's one_royalty (a hand keeps only its largest royalty): our royalties are then
    # not in base; mine is our royalty units by row value, kept what we expect of the one kept.
    # (Unused, and base holds every royalty, when one_royalty is 0.)
    bint one_royalty
    const double* mine[3]
    const double* kept[3]


cdef inline double coupled(const ev_tables_t* e, const uint16_t* v) noexcept nogil:
    """The part of the expectation that couples the rows: the 1-6 scoop bonus, or the 2-4
    overall unit (whoever wins more rows), rows taken as independent."""
    cdef double w0 = e.win[0][v[0]], w1 = e.win[1][v[1]], w2 = e.win[2][v[2]]
    cdef double l0 = e.lose[0][v[0]], l1 = e.lose[1][v[1]], l2 = e.lose[2][v[2]]
    cdef double t0, t1, t2, more, fewer
    if e.scoring == SCORING_1_6:
        return e.scoop_bonus * (w0 * w1 * w2 - l0 * l1 * l2)
    t0 = 1.0 - w0 - l0
    t1 = 1.0 - w1 - l1
    t2 = 1.0 - w2 - l2
    # wins minus losses > 0: three wins; two wins and no loss or one loss; one win and two ties
    more = (w0 * w1 * w2 + w0 * w1 * (t2 + l2) + w0 * w2 * (t1 + l1) + w1 * w2 * (t0 + l0)
            + w0 * t1 * t2 + w1 * t0 * t2 + w2 * t0 * t1)
    fewer = (l0 * l1 * l2 + l0 * l1 * (t2 + w2) + l0 * l2 * (t1 + w1) + l1 * l2 * (t0 + w0)
             + l0 * t1 * t2 + l1 * t0 * t2 + l2 * t0 * t1)
    return more - fewer


cdef inline double kept_royalty(const ev_tables_t* e, const uint16_t* v) noexcept nogil:
    """one_royalty: what we expect of the royalty kept, the largest (of equal ones the bottom's,
    then the middle's, as chinese.scoring keeps it)."""
    cdef int k = 2
    if e.mine[1][v[1]] > e.mine[k][v[k]]:
        k = 1
    if e.mine[0][v[0]] > e.mine[k][v[k]]:
        k = 0
    return e.kept[k][v[k]]


ctypedef struct ev_scratch_t:
    uint16_t index_of[8192]      # 5-card subset index by its position mask
    double cap_middle[CAPS]      # the best middle base at or below each strength group
    double cap_top[CAPS]
    double cap_kept_middle[CAPS]  # one_royalty: the same for the expected kept royalty (the kept
    double cap_kept_top[CAPS]     # one is some row's, so the largest of the rows' bounds it)


cdef void kept_caps(const ev_tables_t* e, const scratch_t* s, ev_scratch_t* x) noexcept nogil:
    """one_royalty: the caps by strength group of the expected kept royalty of middles and tops
    (as best_ev_setting builds those of base)."""
    cdef int i, k, a, b, c
    cdef uint16_t v
    for k in range(CAPS):
        x.cap_kept_middle[k] = 0.0          # (kept royalties are never negative)
        x.cap_kept_top[k] = 0.0
    for i in range(choose5(13)):
        v = s.row[i]
        if e.kept[1][v] > x.cap_kept_middle[v >> CAP_SHIFT]:
            x.cap_kept_middle[v >> CAP_SHIFT] = e.kept[1][v]
    for a in range(13):
        for b in range(a + 1, 13):
            for c in range(b + 1, 13):
                v = s.top_row[(a * NMAX + b) * NMAX + c]
                if e.kept[0][v] > x.cap_kept_top[v >> CAP_SHIFT]:
                    x.cap_kept_top[v >> CAP_SHIFT] = e.kept[0][v]
    for k in range(1, CAPS):
        x.cap_kept_middle[k] = max(x.cap_kept_middle[k], x.cap_kept_middle[k - 1])
        x.cap_kept_top[k] = max(x.cap_kept_top[k], x.cap_kept_top[k - 1])


cdef int best_ev_setting(const uint8_t* cards, const ev_tables_t* e, scratch_t* s,
                         ev_scratch_t* x, uint8_t* out, double* value_out) noexcept nogil:
    """The valid setting of 13 ascending cards with the highest expectation, ties to the stronger
    bottom, middle, top, then the lowest cards; written to out (top, middle, bottom).

    Branch and bound as the royalty solver does it: bottoms strongest first, each skipped when
    its own part plus the best middle and top that may sit under it (caps by strength, as in
    solve_one) plus the most the coupled part can add (and with one_royalty the most the kept
    royalty can be) cannot reach the best so far."""
    cdef int count = choose5(13), k, i, j, t, a, b, c, d, q
    cdef int pos[8]
    cdef uint32_t all_cards = (<uint32_t>1 << 13) - 1, rem, mid_mask, top_mask
    cdef uint16_t v[3]
    cdef double value, bound, tolerance, best = -1e300
    cdef double coupled_max, kept_max = 0.0
    cdef bint one_royalty = e.one_royalty       # (a local: the loops test it often)
    cdef uint16_t best_rows[3]
    cdef int best_bottom = -1, best_middle = -1
    cdef uint32_t best_top = 0
    best_rows[0] = best_rows[1] = best_rows[2] = 0     # read only on a tie with a found best
    for k in range(CAPS):
        x.cap_middle[k] = -1e300
        x.cap_top[k] = -1e300
    for i in range(count):
        x.index_of[s.mask[i]] = i
        if e.base[1][s.row[i]] > x.cap_middle[s.row[i] >> CAP_SHIFT]:
            x.cap_middle[s.row[i] >> CAP_SHIFT] = e.base[1][s.row[i]]
    for a in range(13):
        for b in range(a + 1, 13):
            for c in range(b + 1, 13):
                v[0] = s.top_row[(a * NMAX + b) * NMAX + c]
                if e.base[0][v[0]] > x.cap_top[v[0] >> CAP_SHIFT]:
                    x.cap_top[v[0] >> CAP_SHIFT] = e.base[0][v[0]]
    for k in range(1, CAPS):
        x.cap_middle[k] = max(x.cap_middle[k], x.cap_middle[k - 1])
        x.cap_top[k] = max(x.cap_top[k], x.cap_top[k - 1])
    if one_royalty:
        kept_caps(e, s, x)
    for k in range(count):
        i = s.bottoms[k]
        v[2] = s.row[i]
        # the coupled part is at most the scoop bonus times the chance to win the bottom (1-6),
        # or one unit (2-4)
        coupled_max = e.scoop_bonus * e.win[2][v[2]] if e.scoring == SCORING_1_6 else 1.0
        if one_royalty:
            kept_max = max(e.kept[2][v[2]], x.cap_kept_middle[v[2] >> CAP_SHIFT],
                           x.cap_kept_top[v[2] >> CAP_SHIFT])
        tolerance = 1e-9 * (1.0 + fabs(best))     # the bounds add in another order
        bound = (e.base[2][v[2]] + x.cap_middle[v[2] >> CAP_SHIFT] + x.cap_top[v[2] >> CAP_SHIFT]
                 + coupled_max + kept_max)
        if bound < best - tolerance:
            continue
        rem = all_cards & ~s.mask[i]
        for q in range(8):
            pos[q] = hr_ctz32(rem)
            rem &= rem - 1
        for a in range(8):
            for b in range(a + 1, 8):
                for c in range(b + 1, 8):
                    for d in range(c + 1, 8):
                        for q in range(d + 1, 8):
                            mid_mask = ((<uint32_t>1 << pos[a]) | (<uint32_t>1 << pos[b])
                                        | (<uint32_t>1 << pos[c]) | (<uint32_t>1 << pos[d])
                                        | (<uint32_t>1 << pos[q]))
                            j = x.index_of[mid_mask]
                            v[1] = s.row[j]
                            if v[1] > v[2]:
                                continue
                            if one_royalty:
                                kept_max = max(e.kept[2][v[2]], e.kept[1][v[1]],
                                               x.cap_kept_top[v[1] >> CAP_SHIFT])
                            bound = (e.base[2][v[2]] + e.base[1][v[1]]
                                     + x.cap_top[v[1] >> CAP_SHIFT] + coupled_max + kept_max)
                            if bound < best - tolerance:
                                continue
                            top_mask = all_cards & ~s.mask[i] & ~mid_mask
                            t = top_code(top_mask)
                            v[0] = s.top_row[t]
                            if v[0] > v[1]:
                                continue
                            value = (e.base[0][v[0]] + e.base[1][v[1]] + e.base[2][v[2]]
                                     + coupled(e, v))
                            if one_royalty:
                                value += kept_royalty(e, v)
                            if value < best or (value == best and (
                                    v[2] < best_rows[2] or (v[2] == best_rows[2] and (
                                        v[1] < best_rows[1] or (v[1] == best_rows[1]
                                                                and v[0] <= best_rows[0]))))):
                                continue
                            best = value
                            tolerance = 1e-9 * (1.0 + fabs(best))
                            best_rows[0], best_rows[1], best_rows[2] = v[0], v[1], v[2]
                            best_bottom, best_middle, best_top = i, j, top_mask
    write_positions(cards, best_top, out)
    write_positions(cards, s.mask[best_middle], out + 3)
    write_positions(cards, s.mask[best_bottom], out + 8)
    value_out[0] = best
    return 0


cdef inline int top_code(uint32_t mask) noexcept nogil:
    cdef int p = hr_ctz32(mask), q, r
    mask &= mask - 1
    q = hr_ctz32(mask)
    mask &= mask - 1
    r = hr_ctz32(mask)
    return (p * NMAX + q) * NMAX + r


def best_ev_settings(RuleTables tables, const double[:, ::1] base, const double[:, ::1] win,
                     const double[:, ::1] lose, int scoring, double scoop_bonus, bint one_royalty,
                     const double[:, ::1] mine, const double[:, ::1] kept,
                     const uint8_t[:, ::1] cards, uint8_t[:, ::1] boards, double[::1] values):
    """best_ev_setting for each row of `cards` (13 distinct ascending ids, checked by the caller)
    without the GIL. base, win, lose, mine, kept: (3, ROW_MAX + 1) tables, rows top, middle,
    bottom (mine and kept read only with one_royalty: see ev_tables_t)."""
    cdef Py_ssize_t rows = cards.shape[0], i
    cdef ev_tables_t e
    cdef scratch_t s
    cdef void* block
    cdef ev_scratch_t* x
    if rows == 0:
        return -1
    if (cards.shape[1] != 13 or base.shape[1] <= HR_ROW_MAX or win.shape[1] <= HR_ROW_MAX
            or lose.shape[1] <= HR_ROW_MAX or mine.shape[1] <= HR_ROW_MAX or kept.shape[1] <= HR_ROW_MAX):
        raise ValueError("best_ev_settings takes 13 cards per row and tables over every row value")
    for i in range(3):
        e.base[i] = &base[i, 0]
        e.win[i] = &win[i, 0]
        e.lose[i] = &lose[i, 0]
        e.mine[i] = &mine[i, 0]
        e.kept[i] = &kept[i, 0]
    e.scoring = scoring
    e.scoop_bonus = scoop_bonus
    e.one_royalty = one_royalty
    block = scratch_block(&s)
    x = <ev_scratch_t*>malloc(sizeof(ev_scratch_t))
    if block == NULL or x == NULL:
        free(block)
        free(x)
        raise MemoryError()
    with nogil:
        for i in range(rows):
            evaluate_subsets(&cards[i, 0], 13, &tables.r, &s)
            strongest_first(s.row, NULL, choose5(13), s.bottoms, s.keys, s.keys_tmp)
            best_ev_setting(&cards[i, 0], &e, &s, x, &boards[i, 0], &values[i])
        free(block)
        free(x)
    return -1


def row_scale():
    """(row value of each high value 0..7462, row value of each high3 value 0..455)."""
    return (np.array(<const uint16_t[:7463]>hr_row_of_high, dtype=np.uint16),
            np.array(<const uint16_t[:456]>hr_row_of_high3, dtype=np.uint16))


# The naturals of 13-card Chinese poker, as bits of natural_kinds (the order of chinese.NATURALS)
cdef enum:
    NATURAL_DRAGON = 1
    NATURAL_THREE_STRAIGHTS = 2
    NATURAL_THREE_FLUSHES = 4
    NATURAL_SIX_PAIRS = 8


cdef int natural_kinds(const uint8_t* c) noexcept nogil:
    """The naturals 13 valid cards hold, as NATURAL_* bits (exact: the rank and suit counts
    decide every natural)."""
    cdef int ranks[13]
    cdef int suits[4]
    cdef int per_count[14]     # how many suits hold each number of cards
    cdef int i, pairs = 0, distinct = 0, kinds = 0
    for i in range(14):
        per_count[i] = 0
    for i in range(13):
        ranks[i] = 0
    for i in range(4):
        suits[i] = 0
    for i in range(13):
        ranks[c[i] >> 2] += 1
        suits[c[i] & 3] += 1
    for i in range(13):
        pairs += ranks[i] >> 1
        distinct += ranks[i] > 0
    if distinct == 13:
        kinds |= NATURAL_DRAGON
    if pairs == 6:
        kinds |= NATURAL_SIX_PAIRS
    # three flushes: the suit counts are 13, 8 + 5, 10 + 3 or 5 + 5 + 3
    for i in range(4):
        per_count[suits[i]] += 1
    if (per_count[13] or (per_count[8] and per_count[5]) or (per_count[10] and per_count[3])
            or (per_count[5] == 2 and per_count[3])):
        kinds |= NATURAL_THREE_FLUSHES
    if three_runs(ranks):
        kinds |= NATURAL_THREE_STRAIGHTS
    return kinds


cdef bint three_runs(const int* ranks) noexcept nogil:
    """Whether 13 rank counts split into a run of 3 and two runs of 5 (A-2-3, A-2-3-4-5 count):
    a binary search of the generated list of such counts."""
    cdef uint32_t packed = 0
    cdef int r, lo = 0, hi = HR_THREE_RUNS, mid
    for r in range(13):
        if ranks[r] > 3:
            return False
        packed |= <uint32_t>ranks[r] << (2 * r)
    while lo < hi:
        mid = (lo + hi) >> 1
        if hr_three_runs[mid] < packed:
            lo = mid + 1
        else:
            hi = mid
    return lo < HR_THREE_RUNS and hr_three_runs[lo] == packed


# How score_pairs scores: OFC's 1-6 (royalties as net differences), or Chinese poker's 1-6 / 2-4
cdef enum:
    PAIRS_OFC = 0
    PAIRS_CHINESE_1_6 = 1
    PAIRS_CHINESE_2_4 = 2

SCORE_OFC = PAIRS_OFC
SCORE_CHINESE_1_6 = PAIRS_CHINESE_1_6
SCORE_CHINESE_2_4 = PAIRS_CHINESE_2_4


def score_pairs(RuleTables tables, int scoring, bint royalties_to_winner,
                const uint8_t[:, ::1] pairs, int32_t[::1] out, uint8_t[::1] naturals):
    """Points of board a against board b for each (N, 26) row a|b, without the GIL. In Chinese
    poker naturals[i] holds the naturals of a (low 4 bits) and b (high 4 bits) for the caller to
    settle (naturals aside, the points are those of the rows); in OFC naturals[i] = 0."""
    cdef Py_ssize_t n = pairs.shape[0], i
    cdef const rules_t* r = &tables.r
    cdef board_t a, b
    cdef uint64_t bad = 0
    if n == 0:
        return -1
    with nogil:
        for i in range(n):
            a = eval_board(&pairs[i, 0], r)
            b = eval_board(&pairs[i, 13], r)
            bad |= a.bad | b.bad | (a.mask & b.mask)
            if scoring == PAIRS_OFC:
                out[i] = net_points(&a, &b, r)
                naturals[i] = 0
            else:
                out[i] = chinese_points(&a, &b, r, SCORING_1_6 if scoring == PAIRS_CHINESE_1_6
                                        else SCORING_2_4, royalties_to_winner)
                # (only on valid cards: the counts index by rank)
                naturals[i] = 0 if a.bad | b.bad else (natural_kinds(&pairs[i, 0])
                                                       | natural_kinds(&pairs[i, 13]) << 4)
    return first_bad_board(&pairs[0, 0], n, 26) if bad else -1
