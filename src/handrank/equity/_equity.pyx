# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled hold'em equity: exact enumeration of deals and boards, Monte Carlo sampling, and the
heads-up batch. Every loop runs without the GIL; handrank.equity splits the work into parts and
runs them on the shared thread pool.

A deal reaches this module as `groups` of combos (see handrank.equity.deal): each group holds the
joint hole cards of one or more players, with a weight and a card mask per row, so that players
whose ranges overlap are drawn together and never collide. A deal is one row per group.

Accumulator: wins[m] sums the weight of the showdowns whose best hands are held by exactly the
players in bit mask m (one add per showdown); handrank.equity turns it into wins, ties and tie
shares, exact sums of integers whenever the weights are integers.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.math cimport sqrt
from libc.string cimport memcpy, memset
from libc.stdlib cimport calloc, free, malloc
from handrank._bits cimport hr_popcount64 as _popcount
from handrank._tables cimport *
from handrank._kernels cimport card_hash, high_value_hashed
from handrank._random cimport splitmix_seed, xoshiro_next

cdef enum:
    PLAYERS_MAX = 10
    BOARD_CARDS = 5
    EMPTY = 255     # in a row of joint hole cards: a player of another group

MAX_PLAYERS = PLAYERS_MAX
NO_CARD = EMPTY

# C(n, k) for n, k <= 4: the ways to take k of n interchangeable cards of one rank
cdef double[5][5] CHOOSE = [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0],
                            [1, 4, 6, 4, 1]]


cdef struct Table:
    # the players' hole cards of the current deal, as key and mask sums
    int players
    uint64_t hole_key[PLAYERS_MAX]
    uint64_t hole_mask[PLAYERS_MAX]
    double weight           # of the current deal
    double* wins            # by mask of winners, see the module docstring
    # Player 2's values by the last two board cards (first_card, card), for heads-up deals whose
    # board lacks at most two cards: deals come with player 2's combo changing slowest (see
    # deal.fold_suits), so consecutive deals reuse them. An entry is valid while its stamp is the
    # current one; a new combo for player 2 takes a new stamp. values is NULL where unused.
    uint16_t* values
    uint32_t* stamps
    uint32_t stamp
    uint64_t cached_mask     # player 2's cards whose values the current stamp holds
    int cache_on            # this deal's walk may use `values`
    int first_card          # the first of the two cards to come (52: none, the board lacks one)


cdef inline void showdown(Table* t, uint64_t board_key, uint64_t board_mask, double boards) noexcept nogil:
    """Score one board (`boards` equivalent ones) for the current deal."""
    t.wins[winners(t, board_key, board_mask)] += t.weight * boards


cdef inline uint32_t winners(Table* t, uint64_t board_key, uint64_t board_mask) noexcept nogil:
    """The bit mask of the players holding the best hand."""
    cdef uint16_t best = 0, v
    cdef uint32_t mask = 0
    cdef int p
    for p in range(t.players):
        v = high_value_hashed(board_key + t.hole_key[p], board_mask | t.hole_mask[p], 7)
        if v > best:
            best = v
            mask = 1u << p
        elif v == best:
            mask |= 1u << p
    return mask


cdef inline uint32_t winners_without_branches(Table* t, uint64_t board_key, uint64_t board_mask) noexcept nogil:
    """`winners` without branches, for sampled showdowns: which player leads there is a coin
    toss the branch predictor would mostly lose (the walk's neighbouring boards mostly keep
    their leader, and there the branches win)."""
    cdef uint16_t value[PLAYERS_MAX]
    cdef uint16_t best = 0
    cdef uint32_t mask = 0
    cdef int p
    for p in range(t.players):
        value[p] = high_value_hashed(board_key + t.hole_key[p], board_mask | t.hole_mask[p], 7)
        best = value[p] if value[p] > best else best
    for p in range(t.players):
        mask |= (<uint32_t>(value[p] == best)) << p
    return mask


cdef void walk(Table* t, uint8_t* deck, int ndeck, int start, int left, int* suit_room,
               uint64_t key, uint64_t mask, double boards, int part, int parts) noexcept nogil:
    """Every way to add `left` cards of deck[start:] to the board (key, mask).

    A suit is dead for flushes when no player can reach five of it even if every card still to
    come is of that suit (suit_room[s], the most of suit s any player holds with the board, plus
    `left`, is below 5). Cards of one rank in dead suits are interchangeable: the walk takes the
    first j of them for the C(n, j) boards that take any j. The deck is sorted by rank, so the
    cards of a rank are adjacent; the dead ones are moved to the front of their rank's run.

    At the top (parts > 1) the walk takes only its share of the first cards: the step counter
    picks every parts-th one. Deeper calls reorder cards within a rank, so each top-level step
    recurses on its own copy of the deck and the top's own order (hence its steps) is the same in
    every part."""
    cdef int i = start, j, dead, take, suit, rank, step = 0
    cdef uint8_t c, swap
    cdef uint64_t k2, m2
    cdef uint8_t copy[52]
    cdef uint8_t* sub = deck
    if left == 1 and parts == 1 and t.players == 2:
        if t.cache_on:
            last_card_heads_up(t, deck, ndeck, start, suit_room, key, mask, boards)
        else:
            last_card_heads_up_plain(t, deck, ndeck, start, suit_room, key, mask, boards)
        return
    if left == 1 and parts == 1 and suit_room[0] < 4 and suit_room[1] < 4 and suit_room[2] < 4 \
            and suit_room[3] < 4:
        # the last card cannot make a flush: every card of a rank gives the same showdown
        while i < ndeck:
            c = deck[i]
            j = i + 1
            while j < ndeck and deck[j] >> 2 == c >> 2:
                j += 1
            showdown(t, key + card_hash(c), mask | hr_card_mask[c], boards * (j - i))
            i = j
        return
    while i < ndeck:
        c = deck[i]
        suit = c & 3
        if suit_room[suit] + left < 5:
            rank = c >> 2
            dead = 1
            j = i + 1
            while j < ndeck and deck[j] >> 2 == rank:
                if suit_room[deck[j] & 3] + left < 5:
                    swap = deck[j]
                    deck[j] = deck[i + dead]
                    deck[i + dead] = swap
                    dead += 1
                j += 1
            if parts == 1 or step % parts == part:
                if parts > 1:
                    sub = copy
                    for j in range(ndeck):
                        copy[j] = deck[j]
                k2 = key
                m2 = mask
                for take in range(1, min(dead, left) + 1):
                    k2 += card_hash(deck[i + take - 1])
                    m2 |= hr_card_mask[deck[i + take - 1]]
                    if take == left:
                        showdown(t, k2, m2, boards * CHOOSE[dead][take])
                    else:
                        if left - take == 1:
                            t.first_card = deck[i + take - 1]
                        walk(t, sub, ndeck, i + dead, left - take, suit_room, k2, m2,
                             boards * CHOOSE[dead][take], 0, 1)
            i += dead
        else:
            if parts == 1 or step % parts == part:
                if left == 1:
                    showdown(t, key + card_hash(c), mask | hr_card_mask[c], boards)
                else:
                    if parts > 1:
                        sub = copy
                        for j in range(ndeck):
                            copy[j] = deck[j]
                    suit_room[suit] += 1
                    if left == 2:
                        t.first_card = c
                    walk(t, sub, ndeck, i + 1, left - 1, suit_room, key + card_hash(c),
                         mask | hr_card_mask[c], boards, 0, 1)
                    suit_room[suit] -= 1
            i += 1
        step += 1


cdef inline uint16_t player2_value(Table* t, uint16_t* values, uint32_t* stamps, uint8_t c,
                                  uint64_t k1, uint64_t m1) noexcept nogil:
    """Player 2's value with card c to come: from t.values when a deal before computed it."""
    cdef uint16_t v
    if values != NULL and stamps[c] == t.stamp:
        return values[c]
    v = high_value_hashed(k1 + card_hash(c), m1 | hr_card_mask[c], 7)
    if values != NULL:
        values[c] = v
        stamps[c] = t.stamp
    return v


cdef void last_card_heads_up(Table* t, const uint8_t* deck, int ndeck, int i, const int* suit_room,
                             uint64_t key, uint64_t mask, double boards) noexcept nogil:
    """`walk`'s last card for two players: the showdowns are counted in integers held in
    registers and added to t.wins once, where adding each to t.wins[winners] chained every
    showdown to the last through memory, and the winner is found without branches. The cards of a
    rank whose suit is dead (see `walk`) give one showdown, counted as many times."""
    cdef int64_t ahead = 0, behind = 0, total = 0     # player 1 wins, player 2 wins, all
    cdef uint64_t k0 = key + t.hole_key[0], k1 = key + t.hole_key[1]
    cdef uint64_t m0 = mask | t.hole_mask[0], m1 = mask | t.hole_mask[1]
    cdef int j, rank, dead
    cdef uint8_t c, first_dead = 0
    cdef uint16_t v0, v1
    cdef uint16_t* values = t.values + 52 * t.first_card if t.cache_on else NULL
    cdef uint32_t* stamps = t.stamps + 52 * t.first_card if t.cache_on else NULL
    while i < ndeck:
        rank = deck[i] >> 2
        dead = 0
        j = i
        while j < ndeck and deck[j] >> 2 == rank:
            c = deck[j]
            if suit_room[c & 3] + 1 < 5:
                if dead == 0:
                    first_dead = c
                dead += 1
            else:
                v0 = high_value_hashed(k0 + card_hash(c), m0 | hr_card_mask[c], 7)
                v1 = player2_value(t, values, stamps, c, k1, m1)
                ahead += v0 > v1
                behind += v1 > v0
                total += 1
            j += 1
        if dead:
            c = first_dead
            v0 = high_value_hashed(k0 + card_hash(c), m0 | hr_card_mask[c], 7)
            v1 = player2_value(t, values, stamps, c, k1, m1)
            ahead += dead * (v0 > v1)
            behind += dead * (v1 > v0)
            total += dead
        i = j
    t.wins[1] += t.weight * boards * <double>ahead
    t.wins[2] += t.weight * boards * <double>behind
    t.wins[3] += t.weight * boards * <double>(total - ahead - behind)


cdef void last_card_heads_up_plain(Table* t, const uint8_t* deck, int ndeck, int i,
                                   const int* suit_room, uint64_t key, uint64_t mask,
                                   double boards) noexcept nogil:
    """last_card_heads_up without the value tables (preflop, the batch): a copy, not a flag,
    because the tests for the tables cost the preflop walk 2-3%."""
    cdef int64_t ahead = 0, behind = 0, total = 0
    cdef uint64_t k0 = key + t.hole_key[0], k1 = key + t.hole_key[1]
    cdef uint64_t m0 = mask | t.hole_mask[0], m1 = mask | t.hole_mask[1]
    cdef int j, rank, dead
    cdef uint8_t c, first_dead = 0
    cdef uint16_t v0, v1
    while i < ndeck:
        rank = deck[i] >> 2
        dead = 0
        j = i
        while j < ndeck and deck[j] >> 2 == rank:
            c = deck[j]
            if suit_room[c & 3] + 1 < 5:
                if dead == 0:
                    first_dead = c
                dead += 1
            else:
                v0 = high_value_hashed(k0 + card_hash(c), m0 | hr_card_mask[c], 7)
                v1 = high_value_hashed(k1 + card_hash(c), m1 | hr_card_mask[c], 7)
                ahead += v0 > v1
                behind += v1 > v0
                total += 1
            j += 1
        if dead:
            c = first_dead
            v0 = high_value_hashed(k0 + card_hash(c), m0 | hr_card_mask[c], 7)
            v1 = high_value_hashed(k1 + card_hash(c), m1 | hr_card_mask[c], 7)
            ahead += dead * (v0 > v1)
            behind += dead * (v1 > v0)
            total += dead
        i = j
    t.wins[1] += t.weight * boards * <double>ahead
    t.wins[2] += t.weight * boards * <double>behind
    t.wins[3] += t.weight * boards * <double>(total - ahead - behind)


cdef inline void sit_down(Table* t, const uint8_t[:, ::1] holes, int64_t row) noexcept nogil:
    """Seat the players of one group's combo `row`."""
    cdef int p
    cdef uint8_t a, b
    for p in range(t.players):
        a = holes[row, 2 * p]
        if a != EMPTY:
            b = holes[row, 2 * p + 1]
            t.hole_key[p] = card_hash(a) + card_hash(b)
            t.hole_mask[p] = hr_card_mask[a] | hr_card_mask[b]


cdef void walk_deal(Table* t, uint64_t used, uint64_t board_key,
                    uint64_t board_mask, int left, int part, int parts) noexcept nogil:
    """Every board for the deal seated at t, `used` holding every card out of the deck."""
    cdef uint8_t deck[52]
    cdef int suit_room[4]
    cdef int ndeck = 0, c, p, s, count
    cdef uint64_t held
    if left == 0:
        if part == 0:
            showdown(t, board_key, board_mask, 1.0)
        return
    # highest rank first: a rank's cards are adjacent
    for c in range(51, -1, -1):
        if not used & hr_card_mask[c]:
            deck[ndeck] = c
            ndeck += 1
    for s in range(4):
        suit_room[s] = 0
        for p in range(t.players):
            held = (t.hole_mask[p] | board_mask) >> (16 * s)
            count = _popcount(held & 0x1fff)
            if count > suit_room[s]:
                suit_room[s] = count
    cdef uint8_t perms[24][4]
    cdef int nperms = 0, i, j, fixed
    # the cache of player 2's values holds boards that lack two cards or one (first_card 52)
    t.cache_on = t.values != NULL and t.players == 2 and left <= 2
    if t.cache_on:
        t.first_card = 52
        if t.hole_mask[1] != t.cached_mask or t.stamp == 0:
            t.stamp += 1
            t.cached_mask = t.hole_mask[1]
    # the permutations of suits that leave every hand, the board and the dead cards in place;
    # with few cards to come, folding dead suits by rank (in `walk`) does more than they would
    for i in range(24 if left >= 3 else 0):
        fixed = map_mask(board_mask, PERMS[i]) == board_mask and map_mask(used, PERMS[i]) == used
        for p in range(t.players):
            fixed = fixed and map_mask(t.hole_mask[p], PERMS[i]) == t.hole_mask[p]
        if fixed:
            for j in range(4):
                perms[nperms][j] = PERMS[i][j]
            nperms += 1
    if nperms > 1:
        walk_symmetric(t, deck, ndeck, left, suit_room, board_key, board_mask, perms, nperms,
                       part, parts)
    else:
        walk(t, deck, ndeck, 0, left, suit_room, board_key, board_mask, 1.0, part, parts)


cdef void walk_symmetric(Table* t, uint8_t* deck, int ndeck, int left, int* suit_room,
                         uint64_t key, uint64_t mask, uint8_t (*perms)[4], int nperms, int part,
                         int parts) noexcept nogil:
    """`walk` for a deal that some permutations of suits leave in place (suit isomorphism: every
    one of them maps boards to boards with the same showdown). Boards are split by the cards of
    their highest rank; a permutation maps the boards whose top cards are the suits S onto those
    whose top cards are its image of S, so one S per orbit is walked, weighted by the orbit's
    size, and below it every board is walked as usual. A part takes every parts-th orbit (the
    steps depend on which cards are left, never on their order, so every part counts alike)."""
    cdef int i = 0, j, rank, suits, take, size, g, s, image, room[4], step = 0
    cdef uint32_t orbit
    cdef bint first
    cdef uint64_t k2, m2
    while i < ndeck:
        rank = deck[i] >> 2
        suits = 0
        j = i
        while j < ndeck and deck[j] >> 2 == rank:
            suits |= 1 << (deck[j] & 3)
            j += 1
        for take in range(1, 16):
            size = _popcount(take)
            if take & ~suits or size > left:
                continue
            orbit = 0
            first = True
            for g in range(nperms):
                image = 0
                for s in range(4):
                    if take >> s & 1:
                        image |= 1 << perms[g][s]
                if image < take:
                    first = False
                    break
                orbit |= 1u << image
            if not first:
                continue
            step += 1
            if (step - 1) % parts != part:
                continue
            k2 = key
            m2 = mask
            for s in range(4):
                room[s] = suit_room[s]
                if take >> s & 1:
                    k2 += card_hash(4 * rank + s)
                    m2 |= hr_card_mask[4 * rank + s]
                    room[s] += 1
            if size == left:
                showdown(t, k2, m2, _popcount(orbit))
            else:
                # the cards below this rank; the walk reorders only within their ranks
                walk(t, deck + j, ndeck - j, 0, left - size, room, k2, m2, _popcount(orbit), 0, 1)
        i = j


cdef inline uint64_t map_mask(uint64_t mask, const uint8_t* perm) noexcept nogil:
    """Card bits with suit s moved to suit perm[s]."""
    return (((mask & 0x1fff) << (16 * perm[0])) | (((mask >> 16) & 0x1fff) << (16 * perm[1]))
            | (((mask >> 32) & 0x1fff) << (16 * perm[2])) | (((mask >> 48) & 0x1fff) << (16 * perm[3])))


# every permutation of the four suits, the identity first
cdef uint8_t PERMS[24][4]
for _i, _perm in enumerate(__import__("itertools").permutations(range(4))):
    for _j in range(4):
        PERMS[_i][_j] = _perm[_j]


cdef inline uint64_t board_sums(const uint8_t[::1] board, uint64_t* mask) noexcept nogil:
    cdef uint64_t key = HR_SUIT_COUNTER_START
    cdef Py_ssize_t i
    mask[0] = 0
    for i in range(board.shape[0]):
        key += card_hash(board[i])
        mask[0] |= hr_card_mask[board[i]]
    return key


def enumerate_deals(const uint8_t[:, ::1] holes, const double[::1] weights, const uint64_t[::1] masks,
                    const int64_t[::1] group_start, const uint8_t[::1] board, uint64_t out_mask,
                    int64_t first, int64_t last, int part, int parts, double[::1] wins) -> None:
    """Exact: deals first..last-1 (a mixed-radix count over the groups, group 0 fastest), each
    with every board (its share `part` of `parts` of the first board cards). Adds to wins (by
    mask of winners). `out_mask`: the board and dead cards, as card bits."""
    cdef Table t
    cdef int groups = group_start.shape[0] - 1, g
    cdef int64_t combo[PLAYERS_MAX]
    cdef int64_t index, rest, size
    cdef uint64_t used, board_mask, board_key
    cdef bint clash
    cdef uint16_t values[53 * 52]
    cdef uint32_t stamps[53 * 52]
    t.players = holes.shape[1] // 2
    t.wins = &wins[0]
    # a single deal has nothing to reuse: no table to clear
    t.values = values if last - first > 1 else NULL
    t.stamps, t.stamp, t.cached_mask = stamps, 0, 0
    with nogil:
        if t.values != NULL:
            memset(stamps, 0, sizeof(stamps))
        board_key = board_sums(board, &board_mask)
        rest = first
        for g in range(groups):
            size = group_start[g + 1] - group_start[g]
            combo[g] = rest % size
            rest //= size
        for index in range(first, last):
            used = out_mask
            clash = False
            t.weight = 1.0
            for g in range(groups):
                if masks[group_start[g] + combo[g]] & used:
                    clash = True
                    break
                used |= masks[group_start[g] + combo[g]]
                t.weight *= weights[group_start[g] + combo[g]]
            if not clash:
                for g in range(groups):
                    sit_down(&t, holes, group_start[g] + combo[g])
                walk_deal(&t, used, board_key, board_mask, BOARD_CARDS - <int>board.shape[0],
                          part, parts)
            # next deal: the odometer
            for g in range(groups):
                combo[g] += 1
                if combo[g] < group_start[g + 1] - group_start[g]:
                    break
                combo[g] = 0


# xoshiro256** seeded by splitmix64 (handrank/_random.pxd): its state is four words
# handrank.equity keeps per thread, so a seed and a thread count give one answer.
cdef inline uint64_t next_random(uint64_t* s) noexcept nogil:
    return xoshiro_next(s)


cdef inline double unit(uint64_t* s) noexcept nogil:
    """A uniform double in [0, 1)."""
    return (next_random(s) >> 11) * (1.0 / 9007199254740992.0)


def seed_state(uint64_t seed, uint64_t stream) -> list[int]:
    """Four words of xoshiro state for one thread, by splitmix64 from (seed, stream)."""
    cdef uint64_t s[4]
    splitmix_seed(s, seed, stream)
    return [s[0], s[1], s[2], s[3]]


cdef inline int64_t pick(const double[::1] cumulative, int64_t lo, int64_t hi, double u) noexcept nogil:
    """The row of lo..hi-1 whose cumulative weight first exceeds u * total: `cumulative` is the
    running sum of weights within each group (Groups.cumulative), so cumulative[hi - 1] is this
    group's total."""
    cdef double target = u * cumulative[hi - 1]
    cdef int64_t mid
    while lo < hi - 1:
        mid = (lo + hi - 1) // 2
        if cumulative[mid] > target:
            hi = mid + 1
        else:
            lo = mid + 1
    return lo


cdef inline uint32_t below(uint64_t* s, uint32_t n) noexcept nogil:
    """A uniform integer in 0..n-1 (n <= 52): Lemire's multiply on 16 random bits, the rare
    draws that would bias it redrawn."""
    cdef uint32_t m = <uint32_t>(next_random(s) >> 48) * n, threshold
    if (m & 0xffff) < n:
        threshold = (0x10000 - n) % n
        while (m & 0xffff) < threshold:
            m = <uint32_t>(next_random(s) >> 48) * n
    return m >> 16


cdef struct Deck:
    # the cards that can still be dealt, card[0:n], in any order
    uint8_t card[52]
    int n


cdef inline int deal_card(uint64_t* s, Deck* d, uint64_t held) noexcept nogil:
    """A card uniform over those of card[0:n] not in `held`, taken out of the deck: a step of a
    Fisher-Yates shuffle (the order of the deck never matters, only which cards are in it),
    redrawn while it is held (cards of the deal's group rows: a few of the deck at most)."""
    cdef int i = below(s, d.n)
    cdef uint8_t c = d.card[i]
    while held & hr_card_mask[c]:
        i = below(s, d.n)
        c = d.card[i]
    d.n -= 1
    d.card[i] = d.card[d.n]
    d.card[d.n] = c
    return c


# each winner's share of the pot, by mask of winners
cdef double TIE_SHARE[1 << PLAYERS_MAX]
for _mask in range(1, 1 << PLAYERS_MAX):
    TIE_SHARE[_mask] = 1.0 / bin(_mask).count("1")

# The cards dealt for one deal (two per random player, then the board's), twice over so that a
# rotation reads them without wrapping around.
cdef struct Dealt:
    int players         # dealt from the deck
    int cards
    uint64_t key[2 * (2 * PLAYERS_MAX + BOARD_CARDS)]
    uint64_t mask[2 * (2 * PLAYERS_MAX + BOARD_CARDS)]


cdef inline void seat_rotation(Table* t, const Dealt* d, const int32_t* seats, int offset,
                               uint64_t* key, uint64_t* mask) noexcept nogil:
    """Seat the random players on the dealt cards from `offset` on and add the rest to the
    board (key, mask)."""
    cdef int i, p
    for i in range(d.players):
        p = seats[i]
        t.hole_key[p] = d.key[offset + 2 * i] + d.key[offset + 2 * i + 1]
        t.hole_mask[p] = d.mask[offset + 2 * i] | d.mask[offset + 2 * i + 1]
    for i in range(offset + 2 * d.players, offset + d.cards):
        key[0] += d.key[i]
        mask[0] |= d.mask[i]


def sample_deals(const uint8_t[:, ::1] holes, const double[::1] cumulative, const uint64_t[::1] masks,
                 const int64_t[::1] group_start, const int32_t[::1] from_deck,
                 const uint8_t[::1] board, uint64_t out_mask, int64_t samples, int rotations,
                 uint64_t[::1] state, double[::1] wins, double[::1] moments) -> int:
    """Monte Carlo: `samples` showdowns. Each group's combo is drawn by weight (a collision
    between groups rejects the whole deal, so deals are drawn in proportion to the product of
    weights, as exact enumeration counts them); then the cards still to come are dealt: two for
    each player in `from_deck` (uniform ranges), then the board's. Adds 1 per showdown to wins
    (by mask of winners); returns the number of rejected deals. `state`: the thread's
    generator, advanced in place.

    The deck holds the cards that are neither out nor held by a one-row group (those are the
    same in every deal); a card of the deal's other group rows is redrawn.

    With `rotations` > 1 the dealt cards are scored in that many showdowns, a block: rotation
    r shifts them by r * (cards dealt) // rotations places, so the random players and the
    board trade cards. Each rotation is a fixed permutation of uniform cards, so a uniform deal
    of its own, and every showdown counts; the showdowns of a block are dependent, so the
    standard error comes from block sums: per block b with n_b showdowns and pot shares S_b[p]
    summed over them, moments[p] += S_b[p]^2, moments[players + p] += S_b[p] * n_b,
    moments[2 * players] += n_b^2 and moments[2 * players + 1] += 1. (With one rotation the
    blocks are single showdowns, whose moments the caller reads off wins.)"""
    cdef Table t
    cdef Dealt dealt
    cdef int players = holes.shape[1] // 2
    cdef int groups = group_start.shape[0] - 1, g, p, i, r, a, b, full, shown
    cdef int left = BOARD_CARDS - <int>board.shape[0]
    cdef int64_t n = 0, rejected = 0, row
    cdef uint64_t fixed, used, board_mask, board_key, key, mask
    cdef uint64_t s[4]
    cdef uint32_t won
    cdef double share[PLAYERS_MAX]
    cdef double square[PLAYERS_MAX]
    cdef double cross[PLAYERS_MAX]
    cdef double size_square = 0, blocks = 0
    cdef int offset[2 * PLAYERS_MAX + BOARD_CARDS]
    cdef const int32_t* seats = &from_deck[0] if from_deck.shape[0] else NULL
    cdef Deck deck
    cdef bint clash
    t.players = players
    dealt.players = from_deck.shape[0]
    dealt.cards = 2 * dealt.players + left
    for r in range(rotations):
        offset[r] = r * dealt.cards // rotations
    for p in range(players):
        square[p] = cross[p] = 0.0
    with nogil:
        for i in range(4):
            s[i] = state[i]
        board_key = board_sums(board, &board_mask)
        fixed = out_mask
        for g in range(groups):
            if group_start[g + 1] - group_start[g] == 1:
                fixed |= masks[group_start[g]]
                sit_down(&t, holes, group_start[g])
        deck.n = 0
        for a in range(52):
            if not fixed & hr_card_mask[a]:
                deck.card[deck.n] = a
                deck.n += 1
        full = deck.n
        while n < samples:
            used = fixed
            clash = False
            deck.n = full
            for g in range(groups):
                row = group_start[g]
                if group_start[g + 1] - row == 1:
                    continue
                row = pick(cumulative, row, group_start[g + 1], unit(s))
                if masks[row] & used:
                    clash = True
                    break
                used |= masks[row]
                sit_down(&t, holes, row)
            if clash:
                rejected += 1
                continue
            if rotations == 1:
                for i in range(dealt.players):
                    a = deal_card(s, &deck, used)
                    b = deal_card(s, &deck, used)
                    p = seats[i]
                    t.hole_key[p] = card_hash(a) + card_hash(b)
                    t.hole_mask[p] = hr_card_mask[a] | hr_card_mask[b]
                key = board_key
                mask = board_mask
                for i in range(left):
                    a = deal_card(s, &deck, used)
                    key += card_hash(a)
                    mask |= hr_card_mask[a]
                wins[winners_without_branches(&t, key, mask)] += 1.0
                n += 1
                continue
            for i in range(dealt.cards):
                a = deal_card(s, &deck, used)
                dealt.key[i] = dealt.key[i + dealt.cards] = card_hash(a)
                dealt.mask[i] = dealt.mask[i + dealt.cards] = hr_card_mask[a]
            for p in range(players):
                share[p] = 0.0
            shown = 0
            while shown < rotations and n < samples:
                key = board_key
                mask = board_mask
                seat_rotation(&t, &dealt, seats, offset[shown], &key, &mask)
                won = winners_without_branches(&t, key, mask)
                wins[won] += 1.0
                for p in range(players):
                    share[p] += ((won >> p) & 1) * TIE_SHARE[won]
                shown += 1
                n += 1
            for p in range(players):
                square[p] += share[p] * share[p]
                cross[p] += share[p] * shown
            size_square += shown * shown
            blocks += 1.0
        for i in range(4):
            state[i] = s[i]
        for p in range(players):
            moments[p] += square[p]
            moments[players + p] += cross[p]
        moments[2 * players] += size_square
        moments[2 * players + 1] += blocks
    return rejected


def heads_up_rows(const uint8_t[:, ::1] rows, double[::1] out) -> int:
    """The batch: each row is two hole cards, two hole cards, then 0..5 board cards; out gets the
    first player's exact equity. Returns the first row with a bad or repeated card, or -1 (out
    is then partly written)."""
    cdef Table t
    cdef double wins[4]
    cdef Py_ssize_t n = rows.shape[0], i, bad_row = -1
    cdef int k = rows.shape[1], j
    cdef uint64_t used, board_key, board_mask, m
    cdef const uint8_t* r
    t.players = 2
    t.wins = wins
    t.weight = 1.0
    t.values = NULL
    with nogil:
        for i in range(n):
            r = &rows[i, 0]
            used = 0
            for j in range(k):
                if r[j] >= 52 or (used >> r[j]) & 1:
                    bad_row = i
                    break
                used |= (<uint64_t>1) << r[j]
            if bad_row >= 0:
                break
            board_key = HR_SUIT_COUNTER_START
            board_mask = 0
            m = 0
            for j in range(k):
                m |= hr_card_mask[r[j]]
                if j >= 4:
                    board_key += card_hash(r[j])
                    board_mask |= hr_card_mask[r[j]]
            t.hole_key[0] = card_hash(r[0]) + card_hash(r[1])
            t.hole_mask[0] = hr_card_mask[r[0]] | hr_card_mask[r[1]]
            t.hole_key[1] = card_hash(r[2]) + card_hash(r[3])
            t.hole_mask[1] = hr_card_mask[r[2]] | hr_card_mask[r[3]]
            wins[0] = wins[1] = wins[2] = wins[3] = 0
            walk_deal(&t, m, board_key, board_mask, BOARD_CARDS - (k - 4), 0, 1)
            out[i] = (wins[1] + 0.5 * wins[3]) / (wins[1] + wins[2] + wins[3])
    return bad_row


# Heads-up ranges on a known flop, turn or river, board by board: each board's 7-card values are
# computed once per combo and shared by every deal, where the deal-by-deal walk computes one per
# showdown. A combo's index fits in the low 11 bits of a sort key, its side in bit 11.
cdef enum:
    COMBOS = 1326
    INDEX_BITS = 11
    INDEX_MASK = (1 << INDEX_BITS) - 1
    QUERIES = 1 << INDEX_BITS       # the side bit of the larger side's keys


cdef struct Side:
    # one player's combos: the hashed key, card bits, cards and weight of each, and their weight
    # by cards: pair[52 * x + y] of the combo of cards x and y (both ways round), card[x] of those
    # holding x, total of all
    int n
    uint64_t key[COMBOS]
    uint64_t mask[COMBOS]
    uint8_t high[COMBOS]
    uint8_t low[COMBOS]
    double weight[COMBOS]
    double pair[52 * 52]
    double card[52]
    double total


cdef void seat_side(Side* side, const uint8_t[:, ::1] combos, const double[::1] weights) noexcept nogil:
    """Fill `side` (zeroed) with the combos and their weights."""
    cdef int i
    cdef uint8_t a, b
    side.n = combos.shape[0]
    for i in range(side.n):
        a = combos[i, 0]
        b = combos[i, 1]
        side.high[i] = a
        side.low[i] = b
        side.key[i] = card_hash(a) + card_hash(b)
        side.mask[i] = hr_card_mask[a] | hr_card_mask[b]
        side.weight[i] = weights[i]
        side.pair[52 * a + b] = side.pair[52 * b + a] = weights[i]
        side.card[a] += weights[i]
        side.card[b] += weights[i]
        side.total += weights[i]


cdef double alive(const Side* side, const uint8_t* run, int left, double* card) noexcept nogil:
    """The weight of the side's combos that miss the run's cards; card[x]: of those holding x.
    From the side's sums less the combos holding a run card (those holding two added back once),
    where summing the combos would cost a load and a store chained to the last per combo."""
    cdef double total = side.total
    cdef int k, m, x
    memcpy(card, side.card, sizeof(side.card))
    for k in range(left):
        total -= side.card[run[k]]
        for m in range(k):
            total += side.pair[52 * run[k] + run[m]]
        for x in range(52):
            card[x] -= side.pair[52 * run[k] + x]
    for k in range(left):
        card[run[k]] = 0
    return total


cdef int value_keys(const Side* side, uint32_t which, uint64_t key, uint64_t mask, uint64_t run,
                    uint32_t* keys, int n) noexcept nogil:
    """Append a sort key (value, then `which` side, then index) for each combo of `side` that
    the run's cards leave alive; the new count of keys."""
    cdef int i
    cdef uint32_t v
    for i in range(side.n):
        if side.mask[i] & run:
            continue
        v = high_value_hashed(key + side.key[i], mask | side.mask[i], 7)
        keys[n] = (v << (INDEX_BITS + 1)) | which | <uint32_t>i
        n += 1
    return n


cdef void sort_keys(uint32_t* keys, uint32_t* spare, int n) noexcept nogil:
    """keys[0:n] by value and side (bits 11..24): a two-pass radix sort on 7 + 7 bits."""
    cdef uint32_t low[129]
    cdef uint32_t high[129]
    cdef int i
    cdef uint32_t k
    memset(low, 0, sizeof(low))
    memset(high, 0, sizeof(high))
    for i in range(n):
        low[((keys[i] >> INDEX_BITS) & 127) + 1] += 1
        high[(keys[i] >> (INDEX_BITS + 7)) + 1] += 1
    for i in range(1, 129):
        low[i] += low[i - 1]
        high[i] += high[i - 1]
    for i in range(n):
        k = keys[i]
        spare[low[(k >> INDEX_BITS) & 127]] = k
        low[(k >> INDEX_BITS) & 127] += 1
    for i in range(n):
        k = spare[i]
        keys[high[k >> (INDEX_BITS + 7)]] = k
        high[k >> (INDEX_BITS + 7)] += 1


cdef void sweep(const Side* small, const Side* large, uint64_t key, uint64_t mask, uint64_t run,
                uint32_t* keys, uint32_t* spare, double* beats, double* ties) noexcept nogil:
    """The weight of the pairs that share no card where the larger side's combo beats the
    smaller side's (beats) and ties it, on one board: both sides' values sorted together and
    swept once, the smaller side's weight below and at each value summed in all and by card
    (card removal as handrank.showdown does it), read by each combo of the larger side."""
    cdef double below_card[52]
    cdef double group_card[52]
    cdef double below = 0, group, w
    cdef int i, k, n, t = 0, start, middle, a, b
    cdef uint32_t value
    n = value_keys(small, 0, key, mask, run, keys, 0)
    n = value_keys(large, QUERIES, key, mask, run, keys, n)
    sort_keys(keys, spare, n)
    memset(below_card, 0, sizeof(below_card))
    memset(group_card, 0, sizeof(group_card))
    beats[0] = ties[0] = 0
    while t < n:
        # a value's combos of the smaller side come first, then the larger side's
        value = keys[t] >> (INDEX_BITS + 1)
        start = t
        group = 0
        while t < n and keys[t] >> INDEX_BITS == value << 1:
            i = keys[t] & INDEX_MASK
            w = small.weight[i]
            group += w
            group_card[small.high[i]] += w
            group_card[small.low[i]] += w
            t += 1
        middle = t
        while t < n and keys[t] >> (INDEX_BITS + 1) == value:
            i = keys[t] & INDEX_MASK
            a = large.high[i]
            b = large.low[i]
            w = large.weight[i]
            # the smaller side's combos holding a or b share a card: subtracted by card, and the
            # one holding both (subtracted twice, of this value) added back once
            beats[0] += w * (below - below_card[a] - below_card[b])
            ties[0] += w * (group - group_card[a] - group_card[b] + small.pair[52 * a + b])
            t += 1
        for k in range(start, middle):
            i = keys[k] & INDEX_MASK
            below_card[small.high[i]] += small.weight[i]
            below_card[small.low[i]] += small.weight[i]
            group_card[small.high[i]] = 0
            group_card[small.low[i]] = 0
        below += group


def heads_up_boards(const uint8_t[:, ::1] combos1, const double[::1] weights1,
                    const uint8_t[:, ::1] combos2, const double[::1] weights2,
                    const uint8_t[::1] board, const uint8_t[:, ::1] runs, const double[::1] counts,
                    double[::1] wins) -> None:
    """Exact heads-up, board by board: each run of cards to come (runs[r], counted counts[r]
    times) completes the board, whose values are computed once per combo and compared in one
    `sweep`; the pairs that share no card and neither beat nor tie, counted from per-card sums,
    lose. Adds the weighted showdowns to wins[1] (player 1 wins), wins[2] and wins[3] (ties).
    The combos must miss the board and the dead cards."""
    cdef Side* sides = <Side*>calloc(2, sizeof(Side))
    cdef uint32_t* keys = <uint32_t*>malloc(4 * COMBOS * sizeof(uint32_t))
    cdef uint32_t* spare = keys + 2 * COMBOS
    cdef Side* small
    cdef Side* large
    cdef double small_card[52]
    cdef double large_card[52]
    cdef double beats, ties, pairs, same
    cdef uint64_t board_key, board_mask, key, run
    cdef Py_ssize_t r, nruns = runs.shape[0]
    cdef int left = runs.shape[1], i, x
    cdef bint swapped = combos2.shape[0] > combos1.shape[0]
    if sides == NULL or keys == NULL:
        free(sides)
        free(keys)
        raise MemoryError()
    # the sweep's per-card sums are kept for the smaller side
    small, large = (&sides[0], &sides[1]) if swapped else (&sides[1], &sides[0])
    with nogil:
        seat_side(&sides[0], combos1, weights1)
        seat_side(&sides[1], combos2, weights2)
        board_key = board_sums(board, &board_mask)
        for r in range(nruns):
            key = board_key
            run = 0
            for i in range(left):
                key += card_hash(runs[r, i])
                run |= hr_card_mask[runs[r, i]]
            # every pair that shares no card: all pairs less those sharing one, card by card (a
            # pair of the same two cards counted twice, so added back once)
            pairs = alive(small, &runs[r, 0] if left else NULL, left, small_card) \
                * alive(large, &runs[r, 0] if left else NULL, left, large_card)
            same = 0
            for x in range(52):
                pairs -= small_card[x] * large_card[x]
            for i in range(small.n):
                if not small.mask[i] & run:
                    same += small.weight[i] * large.pair[52 * small.high[i] + small.low[i]]
            pairs += same
            sweep(small, large, key, board_mask | run, run, keys, spare, &beats, &ties)
            # the larger side's wins, the ties, and the rest the smaller side's wins
            wins[2 if swapped else 1] += counts[r] * beats
            wins[1 if swapped else 2] += counts[r] * (pairs - beats - ties)
            wins[3] += counts[r] * ties
    free(sides)
    free(keys)
