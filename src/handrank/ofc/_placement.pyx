# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled completions of OFC boards played street by street, and the scores of placements over
sampled deals (handrank.ofc.advise checks every input; these loops trust it).

A partial board reaches the kernels as 13 bytes, rows top (0..2), middle (3..7), bottom (8..12),
each row's cards first, and its three row counts. The cards still to come are a pool in deal
order: the streets one after another (``sizes``, ``discards`` per street).

Two completions:

- BEST, the best finished board the pool allows (an upper bound on what a player can make: it
  sees every card to come). The deal's structure is kept: from a street of 3 that discards 1, at
  most 2 cards are placed (with exactly as many cards to keep as free slots, every street then
  keeps exactly its due). Any split of the kept cards into the free slots can be played street by
  street, so the search is over rows: the Fantasyland solver's branch and bound (handrank._threerow
  ._kernel.solve_one) over the completions of each pre-filled row, bottoms strongest first, the
  middles that may sit under each, then the strongest top left; bounds are suffix maxima of the
  royalties over the strongest-first lists. Objective: royalties, plus the Fantasyland value when
  the board earns entry; ties go to the stronger bottom, middle, then top. No valid completion:
  the board fouls (a fill that keeps the structure is written; it fouls, as every one does).
- GREEDY, street by street, seeing one street at a time: each street's cards go where the board
  scores best on `heuristic` (see there), the first such placement in the action order.
"""
cimport cython
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from handrank._tables cimport *
from handrank._kernels cimport *
from handrank._threerow._kernel cimport (RuleTables, rules_t, board_t, eval_board,
                                         fantasyland_cards, net_points, chinese_points,
                                         strongest_first, write_positions,
                                         SCORING_1_6, SCORING_2_4)

DEF POOL = 17           # the most cards to come: an empty board in pineapple (5 + 4 x 3)
DEF STREETS = 9         # the most streets to come: an empty board in classic
DEF FIVES = 6188        # C(17, 5): the most completions of a 5-card row
DEF THREES = 680        # C(17, 3)

cdef enum:
    MODE_BEST = 0
    MODE_GREEDY = 1
    # how two finished boards score (ofc.score_batch's options)
    POINTS_1_6 = 0
    POINTS_2_4 = 1

BEST = MODE_BEST
GREEDY = MODE_GREEDY
SCORE_1_6 = POINTS_1_6
SCORE_2_4 = POINTS_2_4
MAX_POOL = POOL
MAX_STREETS = STREETS


ctypedef struct deal_t:
    int streets
    int size[STREETS]
    int discards[STREETS]
    int cards                    # the pool's size
    int groups                   # the streets that discard, as position masks of the pool
    int shift[STREETS]           # its first position
    uint32_t width[STREETS]      # the mask of its size
    int keep[STREETS]            # the most cards it places


ctypedef struct rows_t:
    # the completions of one row: position mask in the pool, strength, royalty, Fantasyland
    # entry; and the strongest-first order with suffix maxima (bounds for what follows)
    uint32_t* mask
    uint16_t* strength
    int32_t* royalty
    uint8_t* entry
    uint8_t* legal
    uint16_t* order
    int32_t* cap
    uint8_t* cap_entry
    int count                    # completions
    int listed                   # entries of order


ctypedef struct search_t:
    rows_t row[3]
    uint32_t* keys
    uint32_t* tmp


# the bytes one completion takes in rows_t: mask, royalty, cap, strength, order, entry, legal,
# cap_entry
DEF ROW_BYTES = 4 + 4 + 4 + 2 + 2 + 1 + 1 + 1


cdef inline Py_ssize_t room(Py_ssize_t n) noexcept nogil:
    # n completions rounded up to 4, so that the next row's 4-byte arrays stay aligned
    return (n + 3) & ~3


cdef char* lay_out_row(rows_t* row, Py_ssize_t n, char* p) noexcept nogil:
    """Point row's arrays at room for n completions from p; returns the end."""
    n = room(n)
    row.mask = <uint32_t*>p; p += n * 4
    row.royalty = <int32_t*>p; p += n * 4
    row.cap = <int32_t*>p; p += n * 4
    row.strength = <uint16_t*>p; p += n * 2
    row.order = <uint16_t*>p; p += n * 2
    row.entry = <uint8_t*>p; p += n
    row.legal = <uint8_t*>p; p += n
    row.cap_entry = <uint8_t*>p; p += n
    return p


cdef void* search_block(search_t* s) noexcept nogil:
    cdef char* p = <char*>malloc((2 * FIVES + THREES) * ROW_BYTES + 2 * FIVES * 4)
    cdef char* block = p
    if p == NULL:
        return NULL
    s.keys = <uint32_t*>p; p += FIVES * 4
    s.tmp = <uint32_t*>p; p += FIVES * 4
    p = lay_out_row(&s.row[0], THREES, p)
    p = lay_out_row(&s.row[1], FIVES, p)
    lay_out_row(&s.row[2], FIVES, p)
    return block


cdef inline bint structure_ok(uint32_t used, const deal_t* d) noexcept nogil:
    """Whether the pool positions `used` place no more of a street than it keeps."""
    cdef int g
    for g in range(d.groups):
        if POPCOUNT5[(used >> d.shift[g]) & d.width[g]] > d.keep[g]:
            return False
    return True


# the bits set in each 5-bit number (a street has at most 5 cards)
cdef uint8_t POPCOUNT5[32]
for _n in range(32):
    POPCOUNT5[_n] = bin(_n).count("1")


ctypedef struct walk_t:
    # one row's completions being walked: the pool's card keys and masks, the row's cards
    const uint8_t* pool
    int cards
    int which
    const deal_t* d
    const rules_t* r
    rows_t* out


cdef void walk(walk_t* w, int start, int left, uint64_t key, uint64_t mask, uint32_t used) noexcept nogil:
    """Every way to add `left` more cards from pool positions start.. to a row (key and mask so
    far, pool positions `used`), each one recorded into w.out."""
    cdef int p
    cdef uint16_t hv, mv
    cdef rows_t* out
    cdef int count
    cdef const rules_t* r
    if left:
        for p in range(start, w.cards - left + 1):
            walk(w, p + 1, left - 1, key + hr_card_key[w.pool[p]], mask | hr_card_mask[w.pool[p]],
                 used | (<uint32_t>1 << p))
        return
    out = w.out
    r = w.r
    count = out.count
    out.mask[count] = used
    out.legal[count] = structure_ok(used, w.d)
    if w.which == 0:
        hv = high3_value(key)
        out.strength[count] = hr_row_of_high3[hv]
        out.royalty[count] = r.top_royalty[hv]
        out.entry[count] = r.top_fantasyland[hv] > 0
    elif w.which == 1:
        hv = high_value(key, mask, 5)
        mv = hr_low27_of_high[hv] if r.lowball else hv
        out.strength[count] = mv if r.lowball else hr_row_of_high[hv]
        out.royalty[count] = r.middle_royalty[mv]
        out.entry[count] = r.middle_fantasyland[mv] > 0
        out.legal[count] = out.legal[count] and r.middle_ok[mv]
    else:
        hv = high_value(key, mask, 5)
        out.strength[count] = hr_row_of_high[hv]
        out.royalty[count] = r.bottom_royalty[hv]
        out.entry[count] = 0
    out.count = count + 1


cdef void fill_row(const uint8_t* cards, int held, int which, const uint8_t* pool,
                   const deal_t* d, const rules_t* r, uint32_t* keys, uint32_t* tmp,
                   rows_t* out) noexcept nogil:
    """Every completion of one row (which: 0 top, 1 middle, 2 bottom; `held` cards so far) from
    the pool, and its legal ones strongest first with the suffix maxima of their royalties and
    entries (keys, tmp: room for the sort)."""
    cdef walk_t w
    cdef uint64_t key = HR_SUIT_COUNTER_START, mask = 0
    cdef int k, u
    for k in range(held):
        key += hr_card_key[cards[k]]
        mask |= hr_card_mask[cards[k]]
    w.pool, w.cards, w.which, w.d, w.r, w.out = pool, d.cards, which, d, r, out
    out.count = 0
    walk(&w, 0, (3 if which == 0 else 5) - held, key, mask, 0)
    out.listed = strongest_first(out.strength, out.legal, out.count, out.order, keys, tmp)
    for u in range(out.listed - 1, -1, -1):
        out.cap[u] = out.royalty[out.order[u]]
        out.cap_entry[u] = out.entry[out.order[u]]
        if u + 1 < out.listed:
            if out.cap[u + 1] > out.cap[u]:
                out.cap[u] = out.cap[u + 1]
            out.cap_entry[u] |= out.cap_entry[u + 1]


cdef inline bint loses(double bound, double best, uint16_t v, uint16_t w, uint16_t t,
                       uint16_t bv, uint16_t bw, uint16_t bt) noexcept nogil:
    """Whether a setting worth at most `bound`, with strengths at most (v, w, t), cannot replace
    the best (value, then the stronger bottom, middle, top)."""
    return bound < best or (bound == best and (v < bv or (v == bv and (w < bw or (w == bw and t <= bt)))))


cdef bint best_completion(const uint8_t* board, const int* held, const uint8_t* pool,
                          const deal_t* d, const rules_t* r, double fl_value, search_t* s,
                          uint8_t* out) noexcept nogil:
    """The best completion of `board` into out (13 cards); False when every completion fouls."""
    fill_row(board, held[0], 0, pool, d, r, s.keys, s.tmp, &s.row[0])
    fill_row(board + 3, held[1], 1, pool, d, r, s.keys, s.tmp, &s.row[1])
    fill_row(board + 8, held[2], 2, pool, d, r, s.keys, s.tmp, &s.row[2])
    return best_of_rows(board, held, pool, d, r, fl_value, &s.row[0], &s.row[1], &s.row[2], out)


cdef bint best_of_rows(const uint8_t* board, const int* held, const uint8_t* pool,
                       const deal_t* d, const rules_t* r, double fl_value, const rows_t* top,
                       const rows_t* mid, const rows_t* bot, uint8_t* out) noexcept nogil:
    """best_completion's search over its rows' completions (`fill_row`)."""
    cdef bint lowball = r.lowball, found = False
    cdef double bonus = fl_value if fl_value > 0 else 0.0     # for bounds: never below 0
    cdef double best = -1e300, bound, value
    cdef uint16_t bv = 0, bw = 0, bt = 0, v, w
    cdef int x, u, t, um, ub, ut, i, j, k, best_i = 0, best_j = 0, best_k = 0
    cdef int32_t base
    cdef uint32_t bm, used
    cdef bint entry
    # a high middle is no stronger than the bottom, a 2-7 middle is free of it; the top is no
    # stronger than the middle (in deuce: than the bottom). The bottoms come strongest first and
    # so do the middles under each: the first middle and top allowed (um, ub; ut under a
    # middle) only move on, a step at a time (cheaper than a binary search each time).
    um = ub = 0
    for x in range(bot.listed):
        i = bot.order[x]
        v = bot.strength[i]
        bm = bot.mask[i]
        while not lowball and um < mid.listed and mid.strength[mid.order[um]] > v:
            um += 1
        while ub < top.listed and top.strength[top.order[ub]] > v:
            ub += 1
        if um >= mid.listed or ub >= top.listed:
            break                          # (and so for every weaker bottom)
        bound = bot.royalty[i] + mid.cap[um] + top.cap[ub] + (bonus if mid.cap_entry[um] or top.cap_entry[ub] else 0.0)
        if loses(bound, best, v, 8191, 8191, bv, bw, bt):
            continue
        ut = ub
        for u in range(um, mid.listed):
            j = mid.order[u]
            if mid.mask[j] & bm:
                continue
            w = mid.strength[j]
            while not lowball and ut < top.listed and top.strength[top.order[ut]] > w:
                ut += 1
            if ut >= top.listed:
                break                      # (weaker middles allow no stronger top)
            # every middle from here on, and its top, is capped by these suffix maxima
            bound = bot.royalty[i] + mid.cap[u] + top.cap[ut] + (bonus if mid.cap_entry[u] or top.cap_entry[ut] else 0.0)
            if loses(bound, best, v, w, 8191, bv, bw, bt):
                break
            used = bm | mid.mask[j]
            if not structure_ok(used, d):
                continue
            base = bot.royalty[i] + mid.royalty[j]
            for t in range(ut, top.listed):
                k = top.order[t]
                bound = base + top.cap[t] + (bonus if mid.entry[j] or top.cap_entry[t] else 0.0)
                if loses(bound, best, v, w, top.strength[k], bv, bw, bt):
                    break
                if top.mask[k] & used or not structure_ok(used | top.mask[k], d):
                    continue
                entry = mid.entry[j] or top.entry[k]
                value = base + top.royalty[k] + (fl_value if entry else 0.0)
                if loses(value, best, v, w, top.strength[k], bv, bw, bt):
                    continue
                best = value
                bv, bw, bt = v, w, top.strength[k]
                best_i, best_j, best_k = i, j, k
                found = True
    if not found:
        structure_fill(board, held, pool, d, out)
        return False
    write_row(board, held[0], pool, top.mask[best_k], out)
    write_row(board + 3, held[1], pool, mid.mask[best_j], out + 3)
    write_row(board + 8, held[2], pool, bot.mask[best_i], out + 8)
    return True


cdef inline void write_row(const uint8_t* cards, int held, const uint8_t* pool, uint32_t mask,
                           uint8_t* out) noexcept nogil:
    cdef int k
    for k in range(held):
        out[k] = cards[k]
    write_positions(pool, mask, out + held)


cdef void structure_fill(const uint8_t* board, const int* held, const uint8_t* pool,
                         const deal_t* d, uint8_t* out) noexcept nogil:
    """Some completion that keeps the deal's structure: each street's first cards kept, its last
    discarded, the kept cards into the free slots top to bottom."""
    cdef int street, k, p = 0, row = 0, slot
    cdef int size[3]
    cdef int offset[3]
    size[0], size[1], size[2] = 3, 5, 5
    offset[0], offset[1], offset[2] = 0, 3, 8
    for k in range(13):
        out[k] = board[k]
    slot = held[0]
    for street in range(d.streets):
        for k in range(d.size[street]):
            if k < d.size[street] - d.discards[street]:
                while slot >= size[row]:
                    row += 1
                    slot = held[row]
                out[offset[row] + slot] = pool[p]
                slot += 1
            p += 1


# ----------------------------------------------------------------------------- greedy
cdef inline int made_key(const uint8_t* cards, int n, bint five) noexcept nogil:
    """What a row's cards already make, on one scale for rows of any size: category * 13 + the
    rank of its biggest group (categories: 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight,
    5 flush, 6 full house, 7 quads, 8 straight flush; straights and flushes only in a full
    5-card row)."""
    cdef int counts[13]
    cdef int k, rank, best = 0, best_rank = 0, pairs = 0, trips = 0, quads = 0, top_rank = 0
    cdef int suit_mask = 0, low = 13, category
    cdef bint flush, straight
    if n == 0:
        return 0
    for k in range(13):
        counts[k] = 0
    for k in range(n):
        counts[cards[k] >> 2] += 1
        suit_mask |= 1 << (cards[k] & 3)
    for rank in range(13):
        if counts[rank]:
            top_rank = rank
            if rank < low:
                low = rank
            if counts[rank] >= best:          # the biggest group, the higher rank on a tie
                best, best_rank = counts[rank], rank
        pairs += counts[rank] == 2
        trips += counts[rank] == 3
        quads += counts[rank] == 4
    if quads:
        category = 7
    elif trips and pairs:
        category = 6
    elif trips:
        category = 3
    elif pairs == 2:
        category = 2
    elif pairs:
        category = 1
    else:
        category = 0
    if five and n == 5 and category == 0:
        flush = (suit_mask & (suit_mask - 1)) == 0
        straight = top_rank - low == 4 or (counts[12] and counts[0] and counts[1] and counts[2]
                                           and counts[3])
        if flush and straight:
            category = 8
        elif flush:
            category = 5
        elif straight:
            category = 4
    return category * 13 + best_rank


cdef double heuristic(const uint8_t* b, const int* held, const rules_t* r, double fl_value,
                      double foul_value) noexcept nogil:
    """How good a partial board looks to the greedy policy. A full board: its value (royalties,
    the Fantasyland value on entry, `foul_value` when it fouls). Otherwise:
    - the top's royalty and Fantasyland value as its pair or trips stand (exact: a top pair's
      royalty does not depend on its kicker), full rows' royalties;
    - a row whose made hand (`made_key`) already beats the row below: the foul value if the row
      below is full (the board is dead; in deuce a paired middle too), 1.5 times it otherwise
      (the rows are unlikely to be put right);
    - small rewards for made hands low on the board and for suited middle and bottom rows."""
    cdef board_t full
    cdef int kt, km, kb, k, n, suits
    cdef uint64_t key
    cdef uint16_t hv
    cdef double h = 0.0
    cdef uint8_t padded[3]
    if held[0] + held[1] + held[2] == 13:
        full = eval_board(b, r)
        return board_value(&full, r, fl_value, foul_value)
    kt = made_key(b, held[0], False)
    km = made_key(b + 3, held[1], True)
    kb = made_key(b + 8, held[2], True)
    if kt >= 13:                       # a pair or trips on top: price it with a low kicker
        for k in range(held[0]):
            padded[k] = b[k]
        for k in range(held[0], 3):
            padded[k] = 0 if (padded[0] >> 2) != 0 else 4     # a deuce, or a trey beside deuces
        key = HR_SUIT_COUNTER_START + hr_card_key[padded[0]] + hr_card_key[padded[1]] + hr_card_key[padded[2]]
        hv = high3_value(key)
        h += r.top_royalty[hv] + (fl_value if r.top_fantasyland[hv] else 0.0)
    if held[1] == 5:
        hv = high_value(key_sum(b + 3, 5), card_mask_of(b + 3, 5), 5)
        if r.lowball:
            if not r.middle_ok[hr_low27_of_high[hv]]:
                return foul_value
            h += r.middle_royalty[hr_low27_of_high[hv]]
        else:
            h += r.middle_royalty[hv]
    if held[2] == 5:
        hv = high_value(key_sum(b + 8, 5), card_mask_of(b + 8, 5), 5)
        h += r.bottom_royalty[hv]
    if r.lowball:
        if km >= 13 or (kt > kb and held[2] == 5):
            return foul_value          # dead: a paired middle never makes a 2-7 low
        h += order_penalty(kt, kb, held[2] == 5, foul_value)
        h -= 0.02 * (km % 13)          # a low middle wants low cards
    else:
        if (kt > km and held[1] == 5) or (km > kb and held[2] == 5):
            return foul_value          # dead: made hands only grow
        h += order_penalty(kt, km, held[1] == 5, foul_value)
        h += order_penalty(km, kb, held[2] == 5, foul_value)
        h += 0.005 * km
    h += 0.01 * kb
    for k in range(1 if not r.lowball else 2, 3):
        n = held[k]
        if n >= 2:
            suits = card_suits(b + (3 if k == 1 else 8), n)
            if suits & (suits - 1) == 0:
                h += 0.1 * (n - 1)
    return h


cdef inline double order_penalty(int upper, int lower, bint lower_full, double foul_value) noexcept nogil:
    # (a full lower row below a stronger one is a dead board: the caller returns the foul value)
    return 0.0 if upper <= lower else 1.5 * foul_value


cdef inline int card_suits(const uint8_t* cards, int n) noexcept nogil:
    cdef int k, suits = 0
    for k in range(n):
        suits |= 1 << (cards[k] & 3)
    return suits


cdef inline uint64_t card_mask_of(const uint8_t* cards, int n) noexcept nogil:
    cdef uint64_t bad = 0
    return card_mask(cards, n, &bad)


cdef inline double board_value(const board_t* b, const rules_t* r, double fl_value,
                               double foul_value) noexcept nogil:
    """A finished board's worth on its own: royalties plus the Fantasyland value on entry, or the
    foul value."""
    if b.foul:
        return foul_value
    return (b.royalties[0] + b.royalties[1] + b.royalties[2]
            + (fl_value if fantasyland_cards(b, r, False) else 0.0))


cdef void greedy_completion(const uint8_t* board, const int* held_in, const uint8_t* pool,
                            const deal_t* d, const rules_t* r, double fl_value, double foul_value,
                            uint8_t* out) noexcept nogil:
    """Street by street: each street's cards placed where `heuristic` is highest (the first such
    action of ofc.actions' order: card i's base-4 digit says top, middle, bottom or discard)."""
    cdef int held[3]
    cdef int trial[3]
    cdef int street, p = 0, n, action, actions, k, where, discarded, best_action
    cdef int offset[3]
    cdef int size[3]
    cdef double h, best
    cdef uint8_t work[13]
    cdef bint fits
    offset[0], offset[1], offset[2] = 0, 3, 8
    size[0], size[1], size[2] = 3, 5, 5
    for k in range(13):
        out[k] = board[k]
    for k in range(3):
        held[k] = held_in[k]
    for street in range(d.streets):
        n = d.size[street]
        actions = 1 << (2 * n)
        best = -1e300
        best_action = -1
        for action in range(actions):
            trial[0], trial[1], trial[2] = held[0], held[1], held[2]
            discarded = 0
            fits = True
            for k in range(n):
                where = (action >> (2 * k)) & 3
                if where == 3:
                    discarded += 1
                else:
                    trial[where] += 1
                    fits = fits and trial[where] <= size[where]
            if not fits or discarded != d.discards[street]:
                continue
            for k in range(13):
                work[k] = out[k]
            trial[0], trial[1], trial[2] = held[0], held[1], held[2]
            for k in range(n):
                where = (action >> (2 * k)) & 3
                if where != 3:
                    work[offset[where] + trial[where]] = pool[p + k]
                    trial[where] += 1
            h = heuristic(work, trial, r, fl_value, foul_value)
            if h > best:
                best, best_action = h, action
        for k in range(n):
            where = (best_action >> (2 * k)) & 3
            if where != 3:
                out[offset[where] + held[where]] = pool[p + k]
                held[where] += 1
        p += n


# ----------------------------------------------------------------------------- entry points
cdef int read_deal(const int32_t[::1] sizes, const int32_t[::1] discards, deal_t* d) except -1:
    cdef int k, p = 0, g = 0
    if sizes.shape[0] != discards.shape[0] or sizes.shape[0] > STREETS:
        raise ValueError(f"a deal has at most {STREETS} streets, sizes and discards alike")
    d.streets = <int>sizes.shape[0]
    for k in range(d.streets):
        if not 1 <= sizes[k] <= 5 or not 0 <= discards[k] < sizes[k]:
            raise ValueError(f"street {k}: {sizes[k]} cards, {discards[k]} discarded")
        d.size[k] = sizes[k]
        d.discards[k] = discards[k]
        if discards[k]:
            d.shift[g] = p
            d.width[g] = (<uint32_t>1 << sizes[k]) - 1
            d.keep[g] = sizes[k] - discards[k]
            g += 1
        p += sizes[k]
    if p > POOL:
        raise ValueError(f"a deal has at most {POOL} cards to come, got {p}")
    d.cards = p
    d.groups = g
    return 0


cdef inline bint complete(int mode, const uint8_t* board, const int* held, const uint8_t* pool,
                          const deal_t* d, const rules_t* r, double fl_value, double foul_value,
                          search_t* s, uint8_t* out) noexcept nogil:
    if mode == MODE_BEST:
        return best_completion(board, held, pool, d, r, fl_value, s, out)
    greedy_completion(board, held, pool, d, r, fl_value, foul_value, out)
    return True


def complete_boards(RuleTables tables, int mode, double fl_value, double foul_value,
                    const int32_t[::1] sizes, const int32_t[::1] discards,
                    const uint8_t[:, ::1] boards, const int32_t[:, ::1] held,
                    const uint8_t[:, ::1] pools, uint8_t[:, ::1] out):
    """Complete each board (row i: its 13 bytes, its row counts, its pool of cards to come) into
    out without the GIL; returns -1 (the _batch kernel contract: inputs are checked first)."""
    cdef Py_ssize_t n = boards.shape[0], i
    cdef deal_t d
    cdef search_t s
    cdef void* block
    cdef const rules_t* r = &tables.r
    cdef int h[3]
    read_deal(sizes, discards, &d)
    if pools.shape[1] != d.cards:
        raise ValueError(f"the pools hold {pools.shape[1]} cards; the deal has {d.cards}")
    if n == 0:
        return -1
    block = search_block(&s)
    if block == NULL:
        raise MemoryError()
    with nogil:
        for i in range(n):
            h[0], h[1], h[2] = held[i, 0], held[i, 1], held[i, 2]
            complete(mode, &boards[i, 0], h, &pools[i, 0], &d, r, fl_value, foul_value, &s, &out[i, 0])
        free(block)
    return -1


cdef inline double pair_points(const board_t* a, const board_t* b, const rules_t* r, int scoring,
                               bint to_winner, int moon, uint16_t jack_high) noexcept nogil:
    """a's points from b as ofc.score_batch counts them."""
    cdef double points
    if scoring == POINTS_2_4:
        points = chinese_points(a, b, r, SCORING_2_4, to_winner)
    elif not to_winner:
        points = net_points(a, b, r)
    else:
        points = (net_points(a, b, r) - chinese_points(a, b, r, SCORING_1_6, False)
                  + chinese_points(a, b, r, SCORING_1_6, True))
    if moon:
        points += moon * (shoots_the_moon(a, jack_high) - shoots_the_moon(b, jack_high))
    return points


cdef inline int shoots_the_moon(const board_t* b, uint16_t jack_high) noexcept nogil:
    return not b.foul and b.bottom_row <= jack_high


ctypedef struct shared_t:
    # the rows of a set of placed boards, each distinct row once, completed once per deal for
    # every board that holds it (the boards differ in few rows: a street adds 1 to 5 cards)
    int count                    # distinct rows
    rows_t* rows
    int* board                   # a board that holds each: its index,
    int* which                   # and the row (0 top, 1 middle, 2 bottom)
    int* of                      # (boards, 3): each board's rows among them
    uint32_t* keys               # room for the strength sort
    uint32_t* tmp


cdef int ROW_START[3]
ROW_START[:] = [0, 3, 8]


cdef inline bint same_row(const uint8_t[:, ::1] boards, const int32_t[:, ::1] held, Py_ssize_t a,
                          Py_ssize_t b, int which) noexcept nogil:
    cdef int k, first = ROW_START[which]
    if held[a, which] != held[b, which]:
        return False
    for k in range(held[a, which]):
        if boards[a, first + k] != boards[b, first + k]:
            return False
    return True


cdef inline Py_ssize_t choose(Py_ssize_t n, Py_ssize_t k) noexcept nogil:
    cdef Py_ssize_t c = 1, i
    for i in range(k):
        c = c * (n - i) // (i + 1)
    return c


cdef void* shared_block(const uint8_t[:, ::1] boards, const int32_t[:, ::1] held, int cards,
                        shared_t* s) noexcept nogil:
    """Find the distinct rows of the boards and make room for their completions from a pool of
    `cards` cards; the block to free, NULL when out of memory."""
    cdef Py_ssize_t n = boards.shape[0], i, bytes = 0, most = 0, entries
    cdef int k, u, start
    cdef char* p
    cdef char* block
    s.board = <int*>malloc(9 * n * sizeof(int))
    if s.board == NULL:
        return NULL
    s.which = s.board + 3 * n
    s.of = s.which + 3 * n
    s.count = 0
    for k in range(3):
        start = s.count
        for i in range(n):
            u = start
            while u < s.count and not same_row(boards, held, s.board[u], i, k):
                u += 1
            if u == s.count:
                s.board[u], s.which[u] = <int>i, k
                s.count += 1
                entries = room(choose(cards, (3 if k == 0 else 5) - held[i, k]))
                bytes += entries * ROW_BYTES
                most = entries if entries > most else most
            s.of[3 * i + k] = u
    p = <char*>malloc(s.count * sizeof(rows_t) + 2 * most * 4 + bytes)
    if p == NULL:
        free(s.board)
        return NULL
    block = p
    s.rows = <rows_t*>p; p += s.count * sizeof(rows_t)
    s.keys = <uint32_t*>p; p += most * 4
    s.tmp = <uint32_t*>p; p += most * 4
    for u in range(s.count):
        i = s.board[u]
        p = lay_out_row(&s.rows[u], choose(cards, (3 if s.which[u] == 0 else 5) - held[i, s.which[u]]), p)
    return block


def score_placements(RuleTables tables, int mode, double fl_value, double foul_value,
                     int scoring, bint to_winner, int moon, int jack_high, const int32_t[::1] sizes,
                     const int32_t[::1] discards, const uint8_t[:, ::1] draws,
                     const uint8_t[:, :, ::1] opponents, const uint8_t[:, ::1] boards,
                     const int32_t[:, ::1] held, double[:, ::1] scores, uint8_t[:, ::1] fouls):
    """For each deal (rows of draws: this player's cards to come first) and each placed board
    (rows of boards, held), complete the board and score it: alone (board_value) or against each
    finished opponent board of that deal (opponents: (deals, players, 13), possibly 0 players).
    scores and fouls are (deals, boards). A deal's BEST completions share the work on the rows
    the boards have in common. Without the GIL; returns -1."""
    cdef Py_ssize_t n = boards.shape[0], deals = draws.shape[0], i, j
    cdef Py_ssize_t players = opponents.shape[1], o
    cdef deal_t d
    cdef shared_t s
    cdef void* block = NULL
    cdef const rules_t* r = &tables.r
    cdef const uint8_t* pool
    cdef int h[3]
    cdef int u
    cdef uint8_t done[13]
    cdef board_t mine, theirs
    cdef double total
    read_deal(sizes, discards, &d)
    if (draws.shape[1] < d.cards or opponents.shape[0] != deals or (players and opponents.shape[2] != 13)
            or scores.shape[0] != deals or scores.shape[1] != n or fouls.shape[0] != deals or fouls.shape[1] != n):
        raise ValueError("score_placements: draws, opponents, scores and fouls do not fit the deal")
    if n == 0 or deals == 0:
        return -1
    if mode == MODE_BEST:
        block = shared_block(boards, held, d.cards, &s)
        if block == NULL:
            raise MemoryError()
    with nogil:
        for j in range(deals):
            pool = &draws[j, 0]
            if mode == MODE_BEST:
                for u in range(s.count):
                    i = s.board[u]
                    fill_row(&boards[i, ROW_START[s.which[u]]], held[i, s.which[u]], s.which[u],
                             pool, &d, r, s.keys, s.tmp, &s.rows[u])
            for i in range(n):
                h[0], h[1], h[2] = held[i, 0], held[i, 1], held[i, 2]
                if mode == MODE_BEST:
                    best_of_rows(&boards[i, 0], h, pool, &d, r, fl_value, &s.rows[s.of[3 * i]],
                                 &s.rows[s.of[3 * i + 1]], &s.rows[s.of[3 * i + 2]], done)
                else:
                    greedy_completion(&boards[i, 0], h, pool, &d, r, fl_value, foul_value, done)
                mine = eval_board(done, r)
                fouls[j, i] = mine.foul
                if players == 0:
                    scores[j, i] = board_value(&mine, r, fl_value, foul_value)
                    continue
                total = 0.0
                for o in range(players):
                    theirs = eval_board(&opponents[j, o, 0], r)
                    total += pair_points(&mine, &theirs, r, scoring, to_winner, moon, <uint16_t>jack_high)
                scores[j, i] = total
        if block != NULL:
            free(s.board)
            free(block)
    return -1
