# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled core of handrank.bigtwo.vector: N Big Two games stepped together without the GIL.

Each game is a small C struct (hands as 52-bit card sets, the combo to beat, whose turn, the
stock) and its legal actions, kept sorted; the moves come from handrank.bigtwo._bigtwo's
enumeration (cimported), their action ids from the ComboSpace's numbering: a hash of the card set
for plays of 1 to 5 cards, the ComboSpace formula for runs of pairs. `Core` holds the rules as
flat facts (built by handrank.bigtwo.vector from a Rules object) and the games; vector.py checks
the inputs, splits the games over threads and shapes the outputs.
"""
cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset
from handrank._bits cimport hr_ctz64, hr_popcount64 as popcount
from handrank._random cimport random_t, seed_random, below, next32, xoshiro_next
from handrank.bigtwo._bigtwo cimport (tables_of, tables_width, move_record_size, move_capacity,
                                      list_moves, play_key)

import numpy as np

cdef enum:
    KIND_SHIFT = 24
    OBS = 164           # the PettingZoo environment's observation (handrank.bigtwo.env.SIZE)

# outcomes of a game
cdef enum:
    PLAYING = 0
    OUT = 1             # the winner shed every card
    STALEMATE = 2
    DECIDED = 3         # the deal decided it (flow.instant_result), its one step played

ctypedef struct move_t:
    int32_t action
    int32_t key
    uint64_t bits
    uint8_t size

ctypedef struct game_t:
    uint64_t hands[4]
    uint64_t played
    uint64_t trick              # the cards of the combo to beat (0: the player to act leads)
    int32_t trick_key
    int trick_size
    int turn, last_player, passes, out_of_trick, led, started, opening, bomb, outcome
    uint8_t stock[52]
    int stock_pos, stock_len
    random_t rng
    move_t* legal               # sorted by action; the pass (action 0) first when legal
    int n_legal, legal_room
    uint64_t last_play          # the cards of the last play (the winning play at the end)
    int pending                 # a deal the rules decided at once, waiting on its one step
    float owed[4]               # what that step pays


ctypedef struct config_t:
    const void* tables[2]       # the rules' tables, and the 2s-low ones after a dealt bomb
    int width
    int players, step, per_player
    int passing                 # 0 jump_back, 1 out_of_trick, 2 ends_trick
    bint draw                   # a pass draws from the stock
    int last_play               # index into LAST_PLAYS
    int highest[2]              # the top card (last-card rules), per tables
    uint8_t weakest[2][52]      # card ids, lowest first, per tables
    int four_twos               # 0 play, 1 win, 2 draw, 3 redeal
    bint dragun, opening_alone, three_threes, dealt_bomb
    bint plain, bombs_beat_small, four_beats_all, smack_down
    int five_card_match         # 0 any, 1 same_kind, 2 top_card
    int four_kind, sf_kind, base_sf_kind  # key kind fields (0: none) of four of a kind, straight flush
    int four_base               # the highest key of a four-card two pair (0 where none)
    int strength[2][52]         # follow.py's card strength (five_card_match "top_card"), per tables
    # scoring (bigtwo.payments)
    int double_at, triple_at, double_mult, triple_mult, two_mult
    bint double_held, double_winning_play
    # action ids
    uint64_t* hash_bits         # [1 << hash_bits_log] card sets of the plays of 1 to 5 cards (0: empty)
    int32_t* hash_action
    int hash_log                # log2 of the slots: at least twice the plays
    int64_t pair_start[13]
    int n_actions
    # a single card's key (per tables) and action: following a single, most moves of a game,
    # lists its legal plays from these without the enumeration
    int32_t single_key[2][52]
    int32_t single_action[52]


cdef inline int ids_of(uint64_t bits, uint8_t* ids) noexcept nogil:
    cdef int n = 0
    while bits:
        ids[n] = <uint8_t>hr_ctz64(bits)
        bits &= bits - 1
        n += 1
    return n


cdef inline uint32_t hash_slot(uint64_t bits, int log) noexcept nogil:
    return <uint32_t>((bits * 0x9E3779B97F4A7C15ULL) >> (64 - log))


cdef inline int32_t action_of(const config_t* c, const uint8_t* cards, int size, uint64_t bits) noexcept nogil:
    """The ComboSpace action of a play (-1: none, which a play of the rules never is)."""
    cdef uint32_t slot
    cdef int j, low, r, digit, s0, s1
    cdef int64_t action, power
    if size <= 5:
        slot = hash_slot(bits, c.hash_log)
        while c.hash_bits[slot]:
            if c.hash_bits[slot] == bits:
                return c.hash_action[slot]
            slot = (slot + 1) & ((1 << c.hash_log) - 1)
        return -1
    # a run of size / 2 pairs (smack_down): ComboSpace._pair_run_actions, card by card
    low = 13
    for j in range(size):
        r = (cards[j] // 4 + 12) % 13
        if r < low:
            low = r
    action = 0
    power = 1
    for j in range(size // 2):
        # the pair of Big Two rank low + j: cards 2j, 2j+1 of the ascending ids of one rank
        r = (low + j + 1) % 13
        s0 = -1
        s1 = -1
        for digit in range(size):
            if cards[digit] // 4 == r:
                if s0 < 0:
                    s0 = cards[digit] % 4
                else:
                    s1 = cards[digit] % 4
        digit = pair_digit(s0, s1)
        action += digit * power
        power *= 6
    return <int32_t>(c.pair_start[size // 2] + low * power + action)


cdef inline int pair_digit(int a, int b) noexcept nogil:
    # ComboSpace's _SUIT_PAIRS: (0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)
    if b == 1:
        return 0
    if b == 2:
        return 1 if a == 0 else 2
    return 3 + a


cdef inline bint forbidden_last(const config_t* c, int bomb, uint64_t bits, int size) noexcept nogil:
    """flow.forbidden_last: whether these cards may not be a hand's last play."""
    cdef int mode = c.last_play
    cdef bint twos
    if mode == 0:
        return False
    if mode == 2:
        return (bits >> c.highest[bomb]) & 1
    if mode == 1:
        return size == 1 and bits == (<uint64_t>1) << c.highest[bomb]
    twos = (bits & ~(<uint64_t>0xF)) == 0           # ids 0..3 are the 2s
    if mode == 3:
        return size == 1 and twos
    return size <= 2 and twos


cdef inline bint stuck(const config_t* c, const game_t* g, int player) noexcept nogil:
    cdef uint64_t hand = g.hands[player]
    return popcount(hand) == 1 and forbidden_last(c, g.bomb, hand, 1)


cdef inline bint is_four(const config_t* c, int size, int32_t key) noexcept nogil:
    if size == 4:
        return key > c.four_base
    return size == 5 and c.four_kind and (key >> KIND_SHIFT) == c.four_kind


cdef inline int top_strength(const config_t* c, int bomb, uint64_t bits) noexcept nogil:
    cdef int best = -1
    cdef int card
    while bits:
        card = hr_ctz64(bits)
        bits &= bits - 1
        if c.strength[bomb][card] > best:
            best = c.strength[bomb][card]
    return best


cdef inline bint follows(const config_t* c, const game_t* g, int size, int32_t key, uint64_t bits) noexcept nogil:
    """follow.follows of one move on the combo to beat."""
    cdef int cur_size = g.trick_size
    cdef int32_t cur_key = g.trick_key
    cdef int kind = key >> KIND_SHIFT, cur_kind = cur_key >> KIND_SHIFT
    cdef bint ok = size == cur_size and key > cur_key
    if cur_size == 3:
        ok = ok and kind == cur_kind
    if cur_size == 5 and c.five_card_match == 1:
        ok = ok and kind == cur_kind
    elif cur_size == 5 and c.five_card_match == 2:
        ok = size == 5 and top_strength(c, g.bomb, bits) > top_strength(c, g.bomb, g.trick)
    if c.bombs_beat_small and cur_size <= 2:
        ok = ok or (size == 5 and kind != 0 and (kind == c.four_kind or kind == c.sf_kind))
    if c.four_beats_all and not is_four(c, cur_size, cur_key):
        ok = ok or is_four(c, size, key)
    if c.smack_down and cur_size == 1 and g.trick == (<uint64_t>1) << c.highest[0]:
        ok = ok or size == 4 or size > 5
    return ok


ctypedef struct scratch_t:      # one thread's buffers for move enumeration
    uint8_t* cards
    void* records
    int32_t* keys
    uint8_t* sizes
    Py_ssize_t room


cdef int grow_scratch(scratch_t* s, Py_ssize_t need, int width) noexcept nogil:
    if need <= s.room:
        return 0
    free(s.cards)
    free(s.records)
    free(s.keys)
    free(s.sizes)
    s.cards = <uint8_t*>malloc(need * width)
    s.records = malloc(need * move_record_size())
    s.keys = <int32_t*>malloc(need * sizeof(int32_t))
    s.sizes = <uint8_t*>malloc(need)
    if s.cards == NULL or s.records == NULL or s.keys == NULL or s.sizes == NULL:
        s.room = 0
        return -1
    s.room = need
    return 0


cdef void free_scratch(scratch_t* s) noexcept nogil:
    free(s.cards)
    free(s.records)
    free(s.keys)
    free(s.sizes)


cdef int push_legal(game_t* g, int32_t action, int32_t key, uint64_t bits, int size) noexcept nogil:
    cdef void* grown
    cdef int room
    if g.n_legal == g.legal_room:
        room = 2 * g.legal_room + 64
        grown = realloc(g.legal, room * sizeof(move_t))
        if grown == NULL:
            return -1
        g.legal = <move_t*>grown
        g.legal_room = room
    g.legal[g.n_legal].action = action
    g.legal[g.n_legal].key = key
    g.legal[g.n_legal].bits = bits
    g.legal[g.n_legal].size = <uint8_t>size
    g.n_legal += 1
    return 0


cdef int find_legal(const game_t* g, int64_t action) noexcept nogil:
    """The index of `action` in the game's legal list (sorted), or -1."""
    cdef int low = 0, high = g.n_legal, mid
    while low < high:
        mid = (low + high) >> 1
        if g.legal[mid].action < action:
            low = mid + 1
        else:
            high = mid
    if low < g.n_legal and g.legal[low].action == action:
        return low
    return -1


cdef inline void clear_legal(const game_t* g, uint8_t* row) noexcept nogil:
    """Clear a mask row's entries of the game's legal actions (the row holds that set)."""
    cdef int j
    for j in range(g.n_legal):
        row[g.legal[j].action] = 0


cdef void sort_legal(game_t* g) noexcept nogil:
    # insertion sort: a few dozen moves, mostly in order already
    cdef int i, j
    cdef move_t m
    for i in range(1, g.n_legal):
        m = g.legal[i]
        j = i
        while j > 0 and g.legal[j - 1].action > m.action:
            g.legal[j] = g.legal[j - 1]
            j -= 1
        g.legal[j] = m


cdef int find_moves(const config_t* c, game_t* g, scratch_t* s) noexcept nogil:
    """The legal actions of the player to act (Game._mark plus the pass), into g.legal, sorted;
    then the pass is taken away under three_threes_force. -1: out of memory; -2: a move that is
    no action of the space."""
    cdef uint8_t ids[52]
    cdef uint64_t hand = g.hands[g.turn], bits, must = 0
    cdef int n = ids_of(hand, ids), want = 0, width = c.width, j, size
    cdef int32_t above = 0, key, action
    cdef const void* t = c.tables[g.bomb]
    cdef Py_ssize_t m, i
    cdef bint leading = g.trick_size == 0, pass_ok, only_twos
    cdef const uint8_t* row
    if leading and not g.started and g.opening >= 0:
        must = (<uint64_t>1) << g.opening
    if not leading and c.plain:
        want = g.trick_size
        above = g.trick_key
    g.n_legal = 0
    if leading:
        pass_ok = stuck(c, g, g.turn)
    else:
        pass_ok = True
    if pass_ok and push_legal(g, 0, 0, 0, 0) < 0:
        return -1
    only_twos = True
    if want == 1:
        # following a single: the cards whose key is above the trick's, what list_moves would
        # list for want 1 (every single card, none left out by the rules but the last-card rule)
        for j in range(n):
            key = c.single_key[g.bomb][ids[j]]
            if key <= above:
                continue
            bits = (<uint64_t>1) << ids[j]
            if c.last_play and n == 1 and forbidden_last(c, g.bomb, bits, 1):
                continue
            if c.single_action[ids[j]] < 0:     # never for the rules the space was built from
                return -2
            if push_legal(g, c.single_action[ids[j]], key, bits, 1) < 0:
                return -1
            if ids[j] >= 4:
                only_twos = False
        m = 0
    else:
        if grow_scratch(s, move_capacity(t, ids, n, want), width) < 0:
            return -1
        m = list_moves(t, ids, n, want, above, must, s.cards, s.records, s.keys, s.sizes)
    for i in range(m):
        size = s.sizes[i]
        key = s.keys[i]
        row = s.cards + width * i
        bits = 0
        for j in range(size):
            bits |= (<uint64_t>1) << row[j]
        if leading:
            if c.smack_down and (size == 4 or size > 5):
                continue
            if must and c.opening_alone and size != 1:
                continue
        elif not c.plain and not follows(c, g, size, key, bits):
            continue
        if c.last_play and size == n and forbidden_last(c, g.bomb, bits, size):
            continue
        action = action_of(c, row, size, bits)
        if action < 0:                  # never for the rules the space was built from
            return -2
        if push_legal(g, action, key, bits, size) < 0:
            return -1
        if bits & ~(<uint64_t>0xF):
            only_twos = False
    if not leading and c.three_threes and must_answer_threes(g, only_twos):
        g.legal[0] = g.legal[g.n_legal - 1]      # the pass (first) goes
        g.n_legal -= 1
    sort_legal(g)
    return 0


cdef inline bint must_answer_threes(const game_t* g, bint only_twos) noexcept nogil:
    """Game._must_answer_threes: after a lead of three 3s, the next player holds three 2s and
    nothing else to play (g.legal holds the pass and the moves)."""
    cdef uint64_t threes = (<uint64_t>0xF) << 4          # ids 4..7 are the 3s
    if not g.led or g.passes or g.trick_size != 3 or (g.trick & ~threes):
        return False
    return g.n_legal > 1 and only_twos


# ----------------------------------------------------------------------------- the deal and the end
cdef inline bint holds_four(uint64_t hand) noexcept nogil:
    cdef int r
    for r in range(13):
        if ((hand >> (4 * r)) & 0xF) == 0xF:
            return True
    return False


cdef inline bint is_dragun(uint64_t hand) noexcept nogil:
    cdef int r, odd = 0
    if popcount(hand) != 13:
        return False
    for r in range(13):
        odd += popcount((hand >> (4 * r)) & 0xF) & 1
    return odd == 1


cdef bint holds_bonus(const config_t* c, uint64_t hand, scratch_t* s) noexcept nogil:
    """scoring.holds_bonus under the rules: a 2, four of a kind, or a straight flush (a legal
    lead of the rules, so not the whole hand where the last-card rule forbids it)."""
    cdef uint8_t ids[52]
    cdef int n, j
    cdef Py_ssize_t i, m
    cdef uint64_t bits
    if hand & 0xF or holds_four(hand):
        return True
    n = ids_of(hand, ids)
    if n < 5 or not c.base_sf_kind:
        return False
    if grow_scratch(s, move_capacity(c.tables[0], ids, n, 5), c.width) < 0:
        return False
    m = list_moves(c.tables[0], ids, n, 5, 0, 0, s.cards, s.records, s.keys, s.sizes)
    for i in range(m):
        if (s.keys[i] >> KIND_SHIFT) == c.base_sf_kind:
            if n == 5 and c.last_play:
                bits = 0
                for j in range(5):
                    bits |= (<uint64_t>1) << s.cards[c.width * i + j]
                if forbidden_last(c, 0, bits, 5):
                    continue
            return True
    return False


cdef int64_t loser_pays(const config_t* c, uint64_t hand, int everyone, scratch_t* s) noexcept nogil:
    """What a loser holding `hand` pays (scoring.payments, 13 cards dealt)."""
    cdef int count = popcount(hand), twos, k
    cdef int64_t pay = count * (c.triple_mult if count >= c.triple_at else
                                c.double_mult if count >= c.double_at else 1) * everyone
    if c.double_held and holds_bonus(c, hand, s):
        pay *= 2
    if c.two_mult > 1:
        twos = popcount(hand & 0xF)
        for k in range(twos):
            pay *= c.two_mult
    return pay


cdef bint bonus_play(const config_t* c, uint64_t bits) noexcept nogil:
    """scoring.is_bonus_play under the rules (not the 2s-low ones of a dealt bomb)."""
    cdef uint8_t ids[24]
    cdef int n = ids_of(bits, ids)
    cdef int32_t key
    cdef int kind
    if bits & 0xF:
        return True
    if n == 4:
        return holds_four(bits)          # a bare four (a four-card two pair is not one)
    if n != 5:
        return False
    key = play_key(c.tables[0], ids, 5)
    kind = key >> KIND_SHIFT
    return kind != 0 and (kind == c.four_kind or kind == c.base_sf_kind)


cdef void pay_out(const config_t* c, game_t* g, int winner, uint64_t winning_play, float* rewards,
                  scratch_t* s) noexcept nogil:
    """Add the payments of a game `winner` won (Game.payments) to rewards[0 .. players)."""
    cdef int p, everyone = 1
    cdef int64_t pay, total = 0
    if c.double_winning_play and winning_play and bonus_play(c, winning_play):
        everyone = 2
    for p in range(c.players):
        if p != winner:
            pay = loser_pays(c, g.hands[p], everyone, s)
            rewards[p] += <float>(-pay)
            total += pay
    rewards[winner] += <float>total


cdef int settle_deal(const config_t* c, game_t* g, float* rewards, scratch_t* s) noexcept nogil:
    """flow.instant_result of the deal: 1 when it decides the game (its payments added to
    `rewards`), else 0."""
    cdef int p, threes, other
    cdef int64_t owed
    if c.four_twos == 1 or c.four_twos == 2:
        for p in range(c.players):
            if (g.hands[p] & 0xF) == 0xF:
                if c.four_twos == 1:
                    pay_out(c, g, p, 0, rewards, s)
                return 1
    if c.dragun:
        for p in range(c.players):
            if is_dragun(g.hands[p]):
                threes = popcount(g.hands[p] & (<uint64_t>0xF << 4))
                if threes >= 2:             # dragun bla bajd: p pays each other player
                    owed = loser_pays(c, g.hands[p], 1, s)
                    for other in range(c.players):
                        rewards[other] += <float>(-owed * (c.players - 1) if other == p else owed)
                else:
                    pay_out(c, g, p, 0, rewards, s)
                return 1
    return 0


cdef void deal(const config_t* c, game_t* g) noexcept nogil:
    """Shuffle and deal (Game._deal, 13 cards each): the undealt cards are the stock under
    draw_on_pass; the deal is redone while a hand holds four 2s under four_twos "redeal"."""
    cdef uint8_t deck[52]
    cdef int i, j, p
    cdef uint8_t t
    cdef bint again = True
    while again:
        for i in range(52):
            deck[i] = <uint8_t>i
        for i in range(51, 0, -1):
            j = below(&g.rng, i + 1)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        for p in range(4):
            g.hands[p] = 0
        for p in range(c.players):
            for i in range(p * c.per_player, (p + 1) * c.per_player):
                g.hands[p] |= (<uint64_t>1) << deck[i]
        g.stock_len = 0
        if c.draw:
            for i in range(c.players * c.per_player, 52):
                g.stock[g.stock_len] = deck[i]
                g.stock_len += 1
        g.stock_pos = 0
        again = False
        if c.four_twos == 3:
            for p in range(c.players):
                if (g.hands[p] & 0xF) == 0xF:
                    again = True


cdef void open_game(const config_t* c, game_t* g) noexcept nogil:
    """Game._first_leader and a fresh trick: the holder of the lowest card leads with it."""
    cdef int p, i, card
    g.bomb = 0
    if c.dealt_bomb:
        for p in range(c.players):
            if holds_four(g.hands[p]):
                g.bomb = 1
    g.opening = -1
    for i in range(52):
        card = c.weakest[g.bomb][i]
        for p in range(c.players):
            if (g.hands[p] >> card) & 1:
                g.opening = card
                g.turn = p
                break
        if g.opening >= 0:
            break
    g.last_player = g.turn
    g.played = 0
    g.trick = 0
    g.trick_key = 0
    g.trick_size = 0
    g.passes = 0
    g.out_of_trick = 0
    g.led = 0
    g.started = 0
    g.outcome = PLAYING
    g.last_play = 0


cdef int new_game(const config_t* c, game_t* g, scratch_t* s) noexcept nogil:
    """Deal a game and list the opener's legal actions. A deal the rules decide at once is held
    (`pending`, its payments owed): it offers the pass alone, and that one step ends it with
    the payments, so that it is an episode like any other (an episode of one step) rather than
    a payment slipped into another game's step. -1: out of memory."""
    cdef int p
    deal(c, g)
    for p in range(4):
        g.owed[p] = 0
    g.pending = settle_deal(c, g, g.owed, s)
    open_game(c, g)
    return moves_of(c, g, s)


cdef int moves_of(const config_t* c, game_t* g, scratch_t* s) noexcept nogil:
    """The game's legal list: find_moves while it is played; a held deal, or a game over (left
    so by a next-step autoreset, its action then ignored), offers the pass alone (a mask with
    nothing legal would leave a masked policy nothing to sample)."""
    if g.pending or g.outcome != PLAYING:
        g.n_legal = 0
        return push_legal(g, 0, 0, 0, 0)
    return find_moves(c, g, s)


cdef inline int next_player(const config_t* c, const game_t* g) noexcept nogil:
    cdef int p = (g.turn + c.step + c.players) % c.players
    while (g.out_of_trick >> p) & 1:
        p = (p + c.step + c.players) % c.players
    return p


cdef inline void record_pass(const config_t* c, game_t* g) noexcept nogil:
    g.started = 1
    if c.draw and g.stock_pos < g.stock_len:
        g.hands[g.turn] |= (<uint64_t>1) << g.stock[g.stock_pos]
        g.stock_pos += 1


cdef int apply(const config_t* c, game_t* g, int index, float* rewards, scratch_t* s) noexcept nogil:
    """Play legal move `index` of the player to act (Game.pass_ / Game._apply); when the game
    ends, add its payments to `rewards` and return 1, else 0 (-1: out of memory)."""
    cdef move_t m = g.legal[index]
    cdef bint over
    cdef int p, found
    if g.pending:                               # the one step of a deal decided at once
        g.pending = 0
        g.outcome = DECIDED
        for p in range(c.players):
            rewards[p] += g.owed[p]
        return 1
    if m.action == 0:
        if g.trick_size == 0:                   # a leader with nothing to play: the lead moves on
            record_pass(c, g)
            g.turn = (g.turn + c.step + c.players) % c.players
            for p in range(c.players):
                if not stuck(c, g, p):
                    break
            else:
                g.outcome = STALEMATE
                return 1
        else:
            record_pass(c, g)
            g.passes += 1
            if c.passing == 1:
                g.out_of_trick |= 1 << g.turn
                over = popcount(g.out_of_trick) == c.players - 1
            else:
                over = c.passing == 2 or g.passes == c.players - 1
            if over:
                g.trick = 0
                g.trick_key = 0
                g.trick_size = 0
                g.passes = 0
                g.out_of_trick = 0
                g.turn = g.last_player
            else:
                g.turn = next_player(c, g)
    else:
        g.started = 1
        g.hands[g.turn] &= ~m.bits
        g.played |= m.bits
        g.led = g.trick_size == 0
        g.trick = m.bits
        g.trick_key = m.key
        g.trick_size = m.size
        g.last_player = g.turn
        g.last_play = m.bits
        g.passes = 0
        if not g.hands[g.turn]:
            g.outcome = OUT
            pay_out(c, g, g.turn, m.bits, rewards, s)
            return 1
        g.turn = next_player(c, g)
    found = find_moves(c, g, s)
    return 0 if found == 0 else found


cdef void observe(const config_t* c, const game_t* g, int8_t* out) noexcept nogil:
    """The PettingZoo environment's observation of the player to act (handrank.bigtwo.env)."""
    cdef int card, k, p
    cdef uint64_t hand = g.hands[g.turn]
    for card in range(52):
        out[card] = (hand >> card) & 1
        out[52 + card] = (g.trick >> card) & 1
        out[104 + card] = (g.played >> card) & 1
    for k in range(4):
        out[156 + k] = 0
        out[160 + k] = 0
    for k in range(c.players):
        p = (g.turn + c.step * k + 4 * c.players) % c.players
        out[156 + k] = <int8_t>popcount(g.hands[p])
        out[160 + k] = g.trick_size != 0 and p == g.last_player


# the compiled opponents of handrank._against (0: the caller plays the seat)
cdef enum:
    OPPONENT_CALLER = 0
    OPPONENT_RANDOM = 1
    OPPONENT_GREEDY = 2


cdef inline int opponent_move(const game_t* g, int mode, uint64_t* stream) noexcept nogil:
    """The legal-list index an OPPONENT_RANDOM or OPPONENT_GREEDY seat plays: uniform (entry
    floor(u * count / 2**32) for u the high half of the seat's next xoshiro256** draw, as
    `Core.sample`), or the smallest action id but the pass (the weakest of the smallest combos,
    the ComboSpace's order), passing only when nothing else is legal."""
    if mode == OPPONENT_RANDOM:
        return <int>(((xoshiro_next(stream) >> 32) * <uint64_t>g.n_legal) >> 32)
    return 1 if g.n_legal > 1 and g.legal[0].action == 0 else 0


# ----------------------------------------------------------------------------- Python entry points
cdef int raise_failure(int code) except -1:
    if code == -1:
        raise MemoryError()
    if code == -2:
        raise RuntimeError("a legal move is no action of the ComboSpace: the space and the tables "
                           "were built for different rules")
    return 0


@cython.auto_pickle(False)
cdef class Core:
    """N games of one ruleset. Built by handrank.bigtwo.vector.VectorEnv, which checks every
    argument first; the methods below trust their inputs' shapes and dtypes."""
    cdef config_t c
    cdef game_t* games
    cdef readonly Py_ssize_t n
    cdef readonly object keep           # the Tables objects and arrays the config points into

    def __cinit__(self):
        self.games = NULL
        self.n = 0

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.games != NULL:
            for i in range(self.n):
                free(self.games[i].legal)
            free(self.games)

    def __init__(self, Py_ssize_t n, dict facts, tables, bomb_tables,
                 const uint64_t[::1] action_bits, const int64_t[::1] pair_start,
                 const uint8_t[:, ::1] weakest, const int32_t[:, ::1] strength):
        cdef Py_ssize_t i, a
        cdef uint32_t slot
        cdef int j
        cdef config_t* c = &self.c
        if self.games != NULL:
            raise RuntimeError("a Core is built once")
        if n < 1:
            raise ValueError("a Core holds at least one game")
        self.c.tables[0] = tables_of(tables)
        self.c.tables[1] = tables_of(bomb_tables if bomb_tables is not None else tables)
        self.c.width = tables_width(self.c.tables[0])
        for name in ("players", "step", "per_player", "passing", "draw", "last_play", "four_twos",
                     "dragun", "opening_alone", "three_threes", "dealt_bomb", "plain", "bombs_beat_small",
                     "four_beats_all", "smack_down", "five_card_match", "four_kind", "sf_kind",
                     "base_sf_kind", "four_base", "double_at", "triple_at", "double_mult", "triple_mult",
                     "two_mult", "double_held", "double_winning_play", "n_actions"):
            if name not in facts:
                raise ValueError(f"missing rule fact {name}")
        c.players = facts["players"]
        c.step = facts["step"]
        c.per_player = facts["per_player"]
        c.passing = facts["passing"]
        c.draw = facts["draw"]
        c.last_play = facts["last_play"]
        c.highest[0], c.highest[1] = facts["highest"]
        c.four_twos = facts["four_twos"]
        c.dragun = facts["dragun"]
        c.opening_alone = facts["opening_alone"]
        c.three_threes = facts["three_threes"]
        c.dealt_bomb = facts["dealt_bomb"]
        c.plain = facts["plain"]
        c.bombs_beat_small = facts["bombs_beat_small"]
        c.four_beats_all = facts["four_beats_all"]
        c.smack_down = facts["smack_down"]
        c.five_card_match = facts["five_card_match"]
        c.four_kind = facts["four_kind"]
        c.sf_kind = facts["sf_kind"]
        c.base_sf_kind = facts["base_sf_kind"]
        c.four_base = facts["four_base"]
        c.double_at = facts["double_at"]
        c.triple_at = facts["triple_at"]
        c.double_mult = facts["double_mult"]
        c.triple_mult = facts["triple_mult"]
        c.two_mult = facts["two_mult"]
        c.double_held = facts["double_held"]
        c.double_winning_play = facts["double_winning_play"]
        c.n_actions = facts["n_actions"]
        for j in range(2):
            for i in range(52):
                c.weakest[j][i] = weakest[j, i]
                c.strength[j][i] = strength[j, i]
        for j in range(13):
            c.pair_start[j] = pair_start[j]
        # the hash of the plays of 1 to 5 cards: action a + 1 plays action_bits[a]
        c.hash_log = 10
        while (1 << c.hash_log) < 2 * action_bits.shape[0]:
            c.hash_log += 1
        hash_bits = np.zeros(1 << c.hash_log, dtype=np.uint64)
        hash_action = np.zeros(1 << c.hash_log, dtype=np.int32)
        cdef uint64_t[::1] hb = hash_bits
        cdef int32_t[::1] ha = hash_action
        for a in range(action_bits.shape[0]):
            slot = hash_slot(action_bits[a], c.hash_log)
            while hb[slot]:
                slot = (slot + 1) & ((1 << c.hash_log) - 1)
            hb[slot] = action_bits[a]
            ha[slot] = <int32_t>(a + 1)
        self.keep = (tables, bomb_tables, hash_bits, hash_action)
        c.hash_bits = &hb[0]
        c.hash_action = &ha[0]
        cdef uint8_t card
        for card in range(52):
            c.single_key[0][card] = play_key(c.tables[0], &card, 1)
            c.single_key[1][card] = play_key(c.tables[1], &card, 1)
            c.single_action[card] = action_of(c, &card, 1, (<uint64_t>1) << card)
        self.games = <game_t*>malloc(n * sizeof(game_t))
        if self.games == NULL:
            raise MemoryError()
        memset(self.games, 0, n * sizeof(game_t))
        self.n = n

    cdef int span(self, Py_ssize_t a, Py_ssize_t b, Py_ssize_t rows, Py_ssize_t columns=0,
                  Py_ssize_t need=0) except -1:
        """Check a call's game range and an array's rows (and columns >= need): the methods
        below are vector.py's, and a wrong call must fail, never write outside an array."""
        if self.games == NULL or not 0 <= a <= b <= self.n:
            raise ValueError(f"games {a}..{b} outside 0..{self.n}")
        if rows != self.n or columns < need:
            raise ValueError(f"an array of {rows} rows (and {columns} columns) where {self.n} rows "
                             f"(and {need} columns) are needed")
        return 0

    def reset(self, Py_ssize_t a, Py_ssize_t b, const uint64_t[::1] seeds, const uint64_t[::1] streams,
              const uint8_t[::1] chosen, bint reseed):
        """Deal a game in each chosen game of a..b: with `reseed`, game i's generator seeded
        first (xoshiro256** of seeds[i], stream streams[i]); without, from where its stream is."""
        self.span(a, b, seeds.shape[0])
        self.span(a, b, streams.shape[0])
        self.span(a, b, chosen.shape[0])
        cdef Py_ssize_t i
        cdef scratch_t s
        cdef int failed = 0
        memset(&s, 0, sizeof(s))
        with nogil:
            for i in range(a, b):
                if not chosen[i]:
                    continue
                if reseed:
                    seed_random(&self.games[i].rng, seeds[i], streams[i])
                failed = new_game(&self.c, &self.games[i], &s)
                if failed < 0:
                    break
            free_scratch(&s)
        raise_failure(failed)

    def check(self, const int64_t[::1] actions, int32_t[::1] index):
        """The legal-list index of each game's action into `index`; the first game whose action
        is not legal, or -1 (no game changes here)."""
        self.span(0, self.n, actions.shape[0])
        self.span(0, self.n, index.shape[0])
        cdef Py_ssize_t i, bad = -1
        cdef int found
        with nogil:
            for i in range(self.n):
                if self.games[i].outcome != PLAYING:
                    index[i] = 0                # a game over: dealt again, its action ignored
                    continue
                found = find_legal(&self.games[i], actions[i])
                if found < 0:
                    bad = i
                    break
                index[i] = found
        return bad

    def step(self, Py_ssize_t a, Py_ssize_t b, const int32_t[::1] index, float[:, ::1] rewards,
             uint8_t[::1] terminated, int8_t[:, ::1] obs, int8_t[::1] player, int64_t[::1] counts,
             object mask, bint same_step=True, object final=None, bint keep_mask=False):
        """Play each game's checked move (games a..b); a game that ends pays into `rewards`, is
        marked terminated, its observation then written to `final` (not None) and is dealt
        again (`same_step`) or left over, to be dealt by the next call, which ignores its
        move. Then the games' observations, players to act, legal counts and (`mask` not None)
        mask rows, in the same pass. `keep_mask`: each mask row holds its game's legal set now
        (the buffer the last call wrote): only those entries are cleared, not the whole row (a
        Big Two row is the whole ComboSpace, 19,899 entries, against a few dozen legal)."""
        self.span(a, b, index.shape[0])
        self.span(a, b, rewards.shape[0], rewards.shape[1], self.c.players)
        self.span(a, b, terminated.shape[0])
        cdef int8_t[:, ::1] last
        cdef bint keep_last = final is not None
        if keep_last:
            last = final
            self.span(a, b, last.shape[0], last.shape[1], OBS)
        cdef uint8_t* kept = self.kept_rows(a, b, mask if keep_mask else None)
        cdef Py_ssize_t i0
        for i0 in range(a, b):
            if not 0 <= index[i0] < self.games[i0].n_legal:
                raise ValueError(f"game {i0}: legal-list index {index[i0]} out of range")
        cdef Py_ssize_t i
        cdef scratch_t s
        cdef int failed = 0, ended
        cdef game_t* g
        memset(&s, 0, sizeof(s))
        with nogil:
            for i in range(a, b):
                g = &self.games[i]
                if kept != NULL:
                    clear_legal(g, kept + i * self.c.n_actions)
                if g.outcome != PLAYING:        # left over by a next-step call
                    ended = new_game(&self.c, g, &s)
                else:
                    ended = apply(&self.c, g, index[i], &rewards[i, 0], &s)
                    if ended == 1:
                        terminated[i] = 1
                        if keep_last:
                            observe(&self.c, g, &last[i, 0])
                        ended = new_game(&self.c, g, &s) if same_step else moves_of(&self.c, g, &s)
                if ended < 0:
                    failed = ended
                    break
            free_scratch(&s)
        raise_failure(failed)
        self.write(a, b, obs, player, counts, mask, kept != NULL)

    cdef uint8_t* kept_rows(self, Py_ssize_t a, Py_ssize_t b, object mask) except? NULL:
        """Row 0 of `mask` (a (N, actions) uint8 array whose rows hold each game's legal set, to be
        cleared entry by entry), checked; NULL for None."""
        if mask is None:
            return NULL
        cdef uint8_t[:, ::1] rows = mask
        self.span(a, b, rows.shape[0], rows.shape[1], self.c.n_actions)
        if rows.shape[1] != self.c.n_actions:
            raise ValueError(f"mask rows of {rows.shape[1]} entries: the space has {self.c.n_actions}")
        return &rows[0, 0]

    def write(self, Py_ssize_t a, Py_ssize_t b, int8_t[:, ::1] obs, int8_t[::1] player,
              int64_t[::1] counts, object mask=None, bint cleared=False):
        """Observations, players to act, legal counts and (`mask`: a (N, actions) uint8 array,
        or None) mask rows of games a..b; `cleared`: the rows are zero already (`step` cleared
        its legal entries), so only the legal entries are set, not the whole row."""
        self.span(a, b, obs.shape[0], obs.shape[1], OBS)
        self.span(a, b, player.shape[0])
        self.span(a, b, counts.shape[0])
        cdef Py_ssize_t i, width = 0
        cdef int j
        cdef game_t* g
        cdef uint8_t[:, ::1] rows
        cdef uint8_t* row
        cdef bint dense = mask is not None
        if dense:
            rows = mask
            width = rows.shape[1]
            self.span(a, b, rows.shape[0], width, self.c.n_actions)
        with nogil:
            for i in range(a, b):
                g = &self.games[i]
                observe(&self.c, g, &obs[i, 0])
                player[i] = <int8_t>g.turn
                counts[i] = g.n_legal
                if dense:
                    row = &rows[i, 0]
                    if not cleared:
                        memset(row, 0, width)
                    for j in range(g.n_legal):
                        row[g.legal[j].action] = 1

    def write_ids(self, Py_ssize_t a, Py_ssize_t b, const int64_t[::1] indptr, int32_t[::1] ids):
        """The legal actions of games a..b at ids[indptr[i] .. indptr[i + 1])."""
        cdef Py_ssize_t i, at
        cdef int j
        cdef game_t* g
        self.span(a, b, indptr.shape[0] - 1)
        if indptr[b] > ids.shape[0] or indptr[a] < 0:
            raise ValueError("ids is shorter than indptr says")
        for i in range(a, b):
            if indptr[i + 1] - indptr[i] != self.games[i].n_legal:
                raise ValueError(f"indptr does not hold game {i}'s legal count")
        with nogil:
            for i in range(a, b):
                g = &self.games[i]
                at = indptr[i]
                for j in range(g.n_legal):
                    ids[at + j] = g.legal[j].action
        return None

    def sample(self, const uint32_t[::1] draws, int64_t[::1] out):
        """A legal action per game: entry floor(draw * count / 2**32) of its sorted legal list."""
        self.span(0, self.n, draws.shape[0])
        self.span(0, self.n, out.shape[0])
        cdef Py_ssize_t i
        cdef game_t* g
        with nogil:
            for i in range(self.n):
                g = &self.games[i]
                out[i] = g.legal[(<uint64_t>draws[i] * <uint64_t>g.n_legal) >> 32].action

    def save(self):
        """A copy of every game's state (its legal list left out: `restore` lists it again)."""
        return (<char*>self.games)[:self.n * sizeof(game_t)]

    def restore(self, const uint8_t[::1] saved):
        """Put back the games `save` copied, their legal lists listed again from them (each game
        keeps its own buffer): a call that failed half-way then changed nothing."""
        if saved.shape[0] != self.n * <Py_ssize_t>sizeof(game_t):
            raise ValueError(f"a saved state of {saved.shape[0]} bytes, not {self.n * sizeof(game_t)}")
        cdef Py_ssize_t i
        cdef game_t* g
        cdef move_t* legal
        cdef int room, failed = 0
        cdef scratch_t s
        memset(&s, 0, sizeof(s))
        with nogil:
            for i in range(self.n):
                g = &self.games[i]
                legal = g.legal
                room = g.legal_room
                memcpy(g, &saved[i * sizeof(game_t)], sizeof(game_t))
                g.legal = legal
                g.legal_room = room
                failed = moves_of(&self.c, g, &s)
                if failed < 0:
                    break
            free_scratch(&s)
        raise_failure(failed)

    def hands(self, Py_ssize_t i):
        """Game i's hands (sorted ids per player) and the stock left, top card first."""
        self.span(i, i + 1, self.n)
        cdef game_t* g = &self.games[i]
        hands = [[card for card in range(52) if (g.hands[p] >> card) & 1] for p in range(self.c.players)]
        return hands, [g.stock[k] for k in range(g.stock_pos, g.stock_len)]

    def turn(self, Py_ssize_t i):
        """The player to act in game i."""
        self.span(i, i + 1, self.n)
        return self.games[i].turn

    def pending(self, Py_ssize_t i):
        """The payments game i's deal owes when the rules decided it at once, or None."""
        self.span(i, i + 1, self.n)
        cdef game_t* g = &self.games[i]
        return [g.owed[p] for p in range(self.c.players)] if g.pending else None

    def over(self, uint8_t[::1] out):
        """1 in `out` for each game over (left so by a next-step call), else 0."""
        self.span(0, self.n, out.shape[0])
        cdef Py_ssize_t i
        for i in range(self.n):
            out[i] = self.games[i].outcome != PLAYING

    def settle(self, hands):
        """The payments a deal of these hands decides at once (flow.instant_result), or None:
        a check of the compiled end of a game against bigtwo.Game."""
        cdef game_t g
        cdef scratch_t s
        cdef float rewards[4]
        cdef int p, decided
        memset(&g, 0, sizeof(g))
        memset(&s, 0, sizeof(s))
        for p in range(4):
            rewards[p] = 0
        for p, hand in enumerate(hands):
            for card in hand:
                g.hands[p] |= (<uint64_t>1) << card
        decided = settle_deal(&self.c, &g, rewards, &s)
        free_scratch(&s)
        return [rewards[p] for p in range(self.c.players)] if decided else None

    def advance(self, Py_ssize_t a, Py_ssize_t b, const int32_t[::1] index, int seat,
                const int8_t[::1] modes, uint64_t[:, ::1] streams, float[:, ::1] rewards,
                uint8_t[::1] terminated, int8_t[:, ::1] obs, int8_t[::1] player, int64_t[::1] counts,
                object mask, bint same_step=True, bint redeal=True, object final=None,
                bint keep_mask=False):
        """handrank._against's step (games a..b): play each game's checked move (index -1: none),
        then the moves of the compiled opponents (`modes`, per seat; `streams[i]` game i's
        xoshiro256** state for the random ones) until `seat` or a seat the caller plays is to
        act; games that end pay into `rewards`, are marked terminated, observed into `final`
        and dealt again or left over, as in `step` (a game over is dealt again only with
        `redeal`, the first pass of a step). A deal decided at once and a game over wait on
        `seat` (shown as its turn): the learner sees every episode. Then what `write` writes;
        `keep_mask` as in `step` (the opponents' moves then cost no clearing of a whole row)."""
        self.span(a, b, index.shape[0])
        self.span(a, b, streams.shape[0], streams.shape[1], 4)
        self.span(a, b, rewards.shape[0], rewards.shape[1], self.c.players)
        self.span(a, b, terminated.shape[0])
        if modes.shape[0] != self.c.players or not 0 <= seat < self.c.players:
            raise ValueError(f"modes for {modes.shape[0]} seats and seat {seat}: the game has "
                             f"{self.c.players} players")
        cdef Py_ssize_t i0
        for i0 in range(a, b):
            if not -1 <= index[i0] < self.games[i0].n_legal:
                raise ValueError(f"game {i0}: legal-list index {index[i0]} out of range")
        cdef int8_t[:, ::1] last
        cdef bint keep_last = final is not None
        if keep_last:
            last = final
            self.span(a, b, last.shape[0], last.shape[1], OBS)
        cdef uint8_t* kept = self.kept_rows(a, b, mask if keep_mask else None)
        cdef Py_ssize_t i
        cdef scratch_t s
        cdef int failed = 0, ended, move
        cdef game_t* g
        memset(&s, 0, sizeof(s))
        with nogil:
            for i in range(a, b):
                g = &self.games[i]
                if kept != NULL:
                    clear_legal(g, kept + i * self.c.n_actions)
                move = index[i]
                if g.outcome != PLAYING:
                    if not redeal:
                        continue
                    failed = new_game(&self.c, g, &s)
                    if failed < 0:
                        break
                    move = -1
                while True:
                    if move < 0:
                        if g.pending or g.outcome != PLAYING:
                            g.turn = seat
                            break
                        if g.turn == seat or modes[g.turn] == OPPONENT_CALLER:
                            break
                        move = opponent_move(g, modes[g.turn], &streams[i, 0])
                    ended = apply(&self.c, g, move, &rewards[i, 0], &s)
                    if ended == 1:
                        terminated[i] = 1
                        if keep_last:
                            g.turn = seat           # the learner's view of the end
                            observe(&self.c, g, &last[i, 0])
                        ended = new_game(&self.c, g, &s) if same_step else moves_of(&self.c, g, &s)
                    if ended < 0:
                        failed = ended
                        break
                    move = -1
                if failed:
                    break
            free_scratch(&s)
        raise_failure(failed)
        self.write(a, b, obs, player, counts, mask, kept != NULL)
