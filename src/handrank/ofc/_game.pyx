# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core of ofc.Game (`GameCore`: the state of a hand in C arrays, a turn played by
action id, the points of the finished boards), and the deck that
``np.random.default_rng(seed).permutation(52)`` deals for an int seed, bit for bit, without
building a numpy Generator (which costs more than the rest of a hand played by action ids).

numpy's steps, reproduced exactly: SeedSequence's hash of the seed's 32-bit words into a pool of
4 words and the 4 64-bit words it generates from it; PCG64 (the 128-bit XSL-RR generator) seeded
with state and increment from those words; ``Generator.shuffle``'s Fisher-Yates, each index drawn
by masked rejection from 32-bit halves of 64-bit draws (the low half first).
"""
cimport cython
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from handrank._threerow._kernel cimport (RuleTables, rules_t, board_t, eval_board, net_points,
                                         chinese_points, SCORING_1_6, SCORING_2_4)

import numpy as np

from handrank.cards import cards as parse_cards, hand_str
from handrank.ofc import actions
from handrank.ofc.board import dealt_points
from handrank.ofc.partial import PartialBoard
from handrank.ofc.placement import IllegalPlacement, Placement
from handrank.ofc.rules import as_rules, tables
from handrank.ofc.seed import as_int, check_seed


cdef extern from "Python.h":
    # a frozen dataclass's fields are set as object.__setattr__ sets them
    int PyObject_GenericSetAttr(object obj, object name, object value) except -1

cdef extern from *:
    """
    /* object.__new__(cls) for a class without __new__ of its own (a dataclass) */
    static PyObject* hr_new_instance(PyObject* cls) {
        return PyType_GenericNew((PyTypeObject*)cls, NULL, NULL);
    }
    """
    object new_instance "hr_new_instance" (object cls)

# SeedSequence's hash constants (numpy/random/bit_generator.pyx)
cdef uint32_t INIT_A = 0x43b0d7e5, MULT_A = 0x931e8875, INIT_B = 0x8b51f9dd, MULT_B = 0x58f38ded
cdef uint32_t MIX_MULT_L = 0xca01f9dd, MIX_MULT_R = 0x4973f715
DEF XSHIFT = 16
DEF POOL = 4
# PCG64's 128-bit multiplier, high and low words
cdef uint64_t MULT_HI = 2549297995355413924ULL, MULT_LO = 4865540595714422341ULL

ctypedef struct pcg64_t:
    uint64_t state_hi, state_lo, inc_hi, inc_lo
    uint32_t half           # the high half of the last 64-bit draw, not used yet
    bint has_half


cdef inline uint32_t hashmix(uint32_t value, uint32_t* hash_const) noexcept nogil:
    value ^= hash_const[0]
    hash_const[0] *= MULT_A
    value *= hash_const[0]
    return value ^ (value >> XSHIFT)


cdef inline uint32_t mix(uint32_t x, uint32_t y) noexcept nogil:
    cdef uint32_t result = MIX_MULT_L * x - MIX_MULT_R * y
    return result ^ (result >> XSHIFT)


cdef inline uint64_t mul_high(uint64_t a, uint64_t b) noexcept nogil:
    # the high word of the 128-bit product, in 32-bit pieces (no 128-bit type on every compiler)
    cdef uint64_t a_lo = a & 0xffffffffULL, a_hi = a >> 32, b_lo = b & 0xffffffffULL, b_hi = b >> 32
    cdef uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi
    cdef uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xffffffffULL) + lo_hi
    return a_hi * b_hi + (hi_lo >> 32) + (cross >> 32)


cdef inline void step(pcg64_t* g) noexcept nogil:
    # state = state * MULT + inc (mod 2**128)
    cdef uint64_t lo = g.state_lo * MULT_LO
    cdef uint64_t hi = mul_high(g.state_lo, MULT_LO) + g.state_hi * MULT_LO + g.state_lo * MULT_HI
    g.state_lo = lo + g.inc_lo
    g.state_hi = hi + g.inc_hi + (g.state_lo < lo)


cdef inline uint64_t next64(pcg64_t* g) noexcept nogil:
    step(g)
    cdef uint64_t x = g.state_hi ^ g.state_lo
    cdef unsigned int rot = <unsigned int>(g.state_hi >> 58)
    return (x >> rot) | (x << ((-rot) & 63))


cdef inline uint32_t next32(pcg64_t* g) noexcept nogil:
    cdef uint64_t word
    if g.has_half:
        g.has_half = False
        return g.half
    word = next64(g)
    g.has_half = True
    g.half = <uint32_t>(word >> 32)
    return <uint32_t>word


cdef void seed_pcg64(pcg64_t* g, uint64_t seed) noexcept nogil:
    """PCG64 as ``np.random.PCG64(seed)`` seeds it, for a seed below 2**64."""
    cdef uint32_t entropy[2]
    cdef uint32_t pool[POOL]
    cdef uint32_t words[8]
    cdef uint32_t hash_const = INIT_A, value
    cdef int n_entropy = 2 if seed >> 32 else 1, i, j
    cdef uint64_t init_hi, init_lo, seq_hi, seq_lo, lo
    entropy[0] = <uint32_t>seed
    entropy[1] = <uint32_t>(seed >> 32)
    for i in range(POOL):
        pool[i] = hashmix(entropy[i] if i < n_entropy else 0, &hash_const)
    for i in range(POOL):
        for j in range(POOL):
            if i != j:
                pool[j] = mix(pool[j], hashmix(pool[i], &hash_const))
    hash_const = INIT_B
    for i in range(8):                          # generate_state(4, np.uint64)
        value = pool[i % POOL] ^ hash_const
        hash_const *= MULT_B
        value *= hash_const
        words[i] = value ^ (value >> XSHIFT)
    init_hi = words[0] | (<uint64_t>words[1] << 32)
    init_lo = words[2] | (<uint64_t>words[3] << 32)
    seq_hi = words[4] | (<uint64_t>words[5] << 32)
    seq_lo = words[6] | (<uint64_t>words[7] << 32)
    # pcg_setseq_128_srandom_r: inc = seq << 1 | 1; state = 0, a step, += initial state, a step
    g.inc_hi = (seq_hi << 1) | (seq_lo >> 63)
    g.inc_lo = (seq_lo << 1) | 1
    g.state_hi = 0
    g.state_lo = 0
    step(g)
    lo = g.state_lo
    g.state_lo = lo + init_lo
    g.state_hi = g.state_hi + init_hi + (g.state_lo < lo)
    step(g)
    g.has_half = False


cdef inline uint32_t interval(pcg64_t* g, uint32_t most) noexcept nogil:
    # numpy's random_interval: a draw in 0..most by masked rejection
    cdef uint32_t mask = most, value
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    value = next32(g) & mask
    while value > most:
        value = next32(g) & mask
    return value


cdef void shuffle_deck(uint8_t* deck, uint64_t seed) noexcept nogil:
    cdef pcg64_t g
    cdef int i, j
    cdef uint8_t card
    for i in range(52):
        deck[i] = i
    seed_pcg64(&g, seed)
    for i in range(51, 0, -1):
        j = interval(&g, <uint32_t>i)
        card = deck[i]
        deck[i] = deck[j]
        deck[j] = card


def seeded_deck(uint64_t seed):
    """The 52 card ids of ``np.random.default_rng(seed).permutation(52)``, as a list."""
    cdef uint8_t deck[52]
    shuffle_deck(deck, seed)
    return [deck[i] for i in range(52)]


# ---------------------------------------------------------------------- the game's state
DEF MAX_PLAYERS = 4
DEF DECK = 52
DEF MAX_STREETS = 9
DEF MAX_TURNS = 36            # 4 players, 9 streets
DEF MAX_DISCARDS = 8
DEF MAX_DEALT = 17

# the streets of pineapple dealing, then of classic dealing
STREETS = (((5, 0),) + ((3, 1),) * 4, ((5, 0),) + ((1, 0),) * 8)

# legal_actions' arrays (actions.legal_ids'), by cards dealt, discards and the free slots of the
# three rows: read once per case, then a list lookup
cdef list LEGAL = [None] * (6 * 4 * 4 * 6 * 6)
cdef dict RULES = {}          # as_rules of a preset's name (or None): read once per name
cdef tuple NO_FANTASYLAND = tuple((0,) * n for n in range(MAX_PLAYERS + 1))
cdef object INT64 = np.int64
cdef int CAPACITY[3]
CAPACITY[:] = [3, 5, 5]

# how points() scores a pair of boards (ofc.board._row_points' cases)
cdef enum:
    PAIR_OFC = 0              # royalties cancel: 1-6 with the scoop bonus
    PAIR_2_4 = 1              # Chinese poker's 2-4, royalties cancelling or to the row's winner
    PAIR_1_6_TO_WINNER = 2    # 1-6 with the royalties to each row's winner


cdef dict SCORINGS = {}       # id(rules) -> (rules, scoring_of(rules)): a Rules hashes slowly


cdef object scoring_of(rules):
    """(tables, PAIR_*, royalties to the winner) of `rules`, or None under naturals or shooting
    the moon (scored in a batch by ofc.board.dealt_points)."""
    found = SCORINGS.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    if rules.naturals or rules.shoot_the_moon:
        scoring = None
    elif rules.scoring == "2-4":
        scoring = tables(rules), PAIR_2_4, not rules.royalties_cancel
    else:
        scoring = tables(rules), PAIR_OFC if rules.royalties_cancel else PAIR_1_6_TO_WINNER, True
    if len(SCORINGS) >= 64:
        SCORINGS.clear()
    SCORINGS[id(rules)] = rules, scoring
    return scoring


cdef inline bint split_action(int action, const uint8_t* dealt, int n, const int* free, int discards,
                              uint8_t* parts, int* counts) noexcept nogil:
    """Whether `action` is legal for the `n` cards `dealt` (ascending) on rows with `free` slots:
    no digit beyond the dealt cards, no row over its free slots, exactly `discards` discarded
    (ofc.actions.legal's rule). Fills parts[5 * d:] with the cards sent to d (top, middle,
    bottom, discards), ascending, and counts[d]."""
    cdef int i, d
    if action >> (2 * n):
        return False
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    for i in range(n):
        d = (action >> (2 * i)) & 3
        parts[5 * d + counts[d]] = dealt[i]
        counts[d] += 1
    return counts[0] <= free[0] and counts[1] <= free[1] and counts[2] <= free[2] and counts[3] == discards


cdef inline tuple ids_tuple(const uint8_t* ids, int n):
    cdef tuple out = PyTuple_New(n)
    cdef object card
    cdef int i
    for i in range(n):
        card = ids[i]
        Py_INCREF(card)
        PyTuple_SET_ITEM(out, i, card)
    return out


cdef object new_placement(tuple top, tuple middle, tuple bottom, tuple discards):
    """A `Placement` of parts known valid and ascending (`Placement.of_sorted`)."""
    cdef object placement = new_instance(Placement)
    PyObject_GenericSetAttr(placement, "top", top)
    PyObject_GenericSetAttr(placement, "middle", middle)
    PyObject_GenericSetAttr(placement, "bottom", bottom)
    PyObject_GenericSetAttr(placement, "discards", discards)
    return placement


cdef object new_board(tuple top, tuple middle, tuple bottom):
    """A `PartialBoard` of rows known valid (`PartialBoard.extended`)."""
    cdef object board = new_instance(PartialBoard)
    PyObject_GenericSetAttr(board, "top", top)
    PyObject_GenericSetAttr(board, "middle", middle)
    PyObject_GenericSetAttr(board, "bottom", bottom)
    return board


cdef object legal_ids(int dealt, int discards, int free_top, int free_middle, int free_bottom):
    cdef Py_ssize_t key = (((dealt * 4 + discards) * 4 + free_top) * 6 + free_middle) * 6 + free_bottom
    ids = LEGAL[key]
    if ids is None:
        ids = LEGAL[key] = actions.legal_ids(dealt, (free_top, free_middle, free_bottom), discards)
    return ids


def play_action(int action, tuple dealt, board, int discards):
    """The `Placement` that `action` (0..1023) makes of the `dealt` cards (ascending, so each
    part is) on `board` (a `PartialBoard`) and the board it leaves, or None when the action is
    not legal: a digit beyond the dealt cards, a row over its free slots, or not exactly
    `discards` discarded (ofc.actions.legal's rule): the rule `Game.play_action` applies."""
    cdef uint8_t ids[5]
    cdef uint8_t parts[20]
    cdef int counts[4]
    cdef int free[3]
    cdef int n = len(dealt), i
    if n > 5:
        return None
    for i in range(n):
        ids[i] = dealt[i]
    free[0], free[1], free[2] = board.free
    if not split_action(action, ids, n, free, discards, parts, counts):
        return None
    placement = new_placement(ids_tuple(parts, counts[0]), ids_tuple(parts + 5, counts[1]),
                              ids_tuple(parts + 10, counts[2]), ids_tuple(parts + 15, counts[3]))
    after = new_board(board.top + placement.top, board.middle + placement.middle,
                      board.bottom + placement.bottom)
    return placement, after


def checked_deck(deck, seed):
    """`deck` as the 52 card ids in dealing order (ValueError otherwise, or with a seed too)."""
    if seed is not None:
        raise ValueError("give a seed or a deck, not both")
    ids = parse_cards(deck)
    if sorted(ids) != list(range(DECK)):
        raise ValueError(f"deck must hold each of the {DECK} cards once, in dealing order")
    return ids


def _restored(cls, state, attributes):
    """A game unpickled: `GameCore.__reduce__`'s state set on a new instance of `cls`."""
    game = cls.__new__(cls)
    (<GameCore>game).set_state(state)
    if attributes:
        game.__dict__.update(attributes)
    return game


@cython.auto_pickle(False)     # pickled by __reduce__: the C arrays as bytes
cdef class GameCore:
    """The state of an `ofc.Game` in C arrays (the deck, each board's rows as placed, the
    discards, the cards dealt, who played each turn) and the moves that make a hand by action
    ids without building objects: the objects a caller reads (`boards`, `history`, `dealt`) are
    built when first read, then kept up to date."""

    cdef readonly object rules
    cdef readonly int players, button
    cdef readonly tuple fantasyland, streets
    cdef int nstreets, street_now, seat, turn_now, drawn, ndealt, nturns
    cdef int order[MAX_PLAYERS]
    cdef int fl[MAX_PLAYERS]
    cdef int street_dealt[MAX_STREETS]
    cdef int street_discards[MAX_STREETS]
    cdef uint8_t deck[DECK]
    cdef uint8_t rows[MAX_PLAYERS][3][5]
    cdef int filled[MAX_PLAYERS][3]
    cdef uint8_t discarded[MAX_PLAYERS][MAX_DISCARDS]
    cdef int ndiscarded[MAX_PLAYERS]
    cdef uint8_t dealt_ids[MAX_DEALT]
    cdef uint8_t turn_player[MAX_TURNS]
    cdef list placed                       # the placement of each turn
    cdef object dealt_read, boards_read, history_read     # built when first read (None: not yet)

    def __cinit__(self):
        self.turn_now = -1                 # a game not set up (__new__ alone) reads as over

    def __init__(self, players=2, rules=None, seed=None, button=0, fantasyland=None, *, deck=None):
        cdef int i, per_hand = 0, needed = 0
        key = rules
        if key is None or type(key) is str:
            rules = RULES.get(key)
            if rules is None:
                rules = RULES[key] = as_rules(key)
        else:
            rules = as_rules(rules)
        if type(players) is not int:
            players = as_int(players)
        if type(button) is not int:
            button = as_int(button)
        dealing = rules.dealing
        most = 4 if dealing == "classic" else 3
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= most:
            raise ValueError(f"OFC with {dealing} dealing has 2 to {most} players, got {players!r}")
        if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < players:
            raise ValueError(f"button must be a seat in 0..{players - 1}, got {button!r}")
        if fantasyland is None:
            hands = NO_FANTASYLAND[players]
        else:
            hands = tuple([as_int(n) for n in fantasyland])
            if len(hands) != players or any([isinstance(n, bool) or not isinstance(n, int)
                                             or not (n == 0 or 13 <= n <= 17) for n in hands]):
                raise ValueError(f"fantasyland takes the cards dealt to each of the {players} players "
                                 f"(0, or 13 to 17), got {fantasyland!r}")
        streets = STREETS[dealing == "classic"]
        self.nstreets = len(streets)
        for i in range(self.nstreets):
            self.street_dealt[i], self.street_discards[i] = streets[i]
            per_hand += self.street_dealt[i]
        for i in range(<int>players):
            self.fl[i] = hands[i]
            needed += self.fl[i] or per_hand
        if needed > DECK:
            raise ValueError(f"this deal needs {needed} cards; the deck has {DECK}")
        if deck is not None:
            self.set_deck(checked_deck(deck, seed))
        elif type(seed) is int and 0 <= seed < 2 ** 64:
            shuffle_deck(self.deck, seed)
        else:
            seed = check_seed(seed)
            if type(seed) is int and seed < 2 ** 64:
                shuffle_deck(self.deck, seed)
            else:
                self.set_deck(np.random.default_rng(seed).permutation(DECK).tolist())
        self.rules, self.players, self.button = rules, players, button
        self.fantasyland, self.streets = hands, streets
        for i in range(self.players):
            self.order[i] = (self.button + 1 + i) % self.players
        memset(self.filled, 0, sizeof(self.filled))
        memset(self.ndiscarded, 0, sizeof(self.ndiscarded))
        self.street_now = self.seat = self.drawn = self.nturns = 0
        self.turn_now = self.order[0]
        self.placed = []
        self.boards_read = self.history_read = None
        self.deal()

    cdef void set_deck(self, list ids) except *:
        cdef int i
        for i in range(DECK):
            self.deck[i] = ids[i]

    # ------------------------------------------------------------------ what a caller reads
    @property
    def turn(self):
        """The seat of the player to act (None once the hand is over)."""
        return None if self.turn_now < 0 else self.turn_now

    @property
    def street(self):
        """The street being played, from 0 (``len(streets)`` once the hand is over)."""
        return self.street_now

    @property
    def over(self):
        """Whether the hand is over (every board is full)."""
        return self.turn_now < 0

    @property
    def dealt(self):
        """The cards dealt to the player to act, ascending (() once the hand is over)."""
        if self.dealt_read is None:
            self.dealt_read = ids_tuple(self.dealt_ids, self.ndealt)
        return self.dealt_read

    @property
    def boards(self):
        """Each player's `PartialBoard`, by seat (boards are immutable: each play replaces one
        in this list)."""
        if self.boards_read is None:
            self.boards_read = [self.board_of(p) for p in range(self.players)]
        return self.boards_read

    @property
    def history(self):
        """Every placement made so far, as (player, placement): the full record, discards and
        face-down Fantasyland boards included (what a player may see: `visible_board`,
        `discards`)."""
        if self.history_read is None:
            self.history_read = [(self.turn_player[k], self.placed[k]) for k in range(self.nturns)]
        return self.history_read

    @property
    def _deck(self):
        """The deck in dealing order."""
        return [self.deck[i] for i in range(DECK)]

    @property
    def _drawn(self):
        """How many cards of the deck have been dealt."""
        return self.drawn

    def _free(self, int player):
        """The free slots of the top, middle and bottom rows of `player` (a seat)."""
        self.check_seat(player)
        return (3 - self.filled[player][0], 5 - self.filled[player][1], 5 - self.filled[player][2])

    def _discarded(self, int player):
        """The cards `player` (a seat) has discarded, in the order discarded."""
        self.check_seat(player)
        return ids_tuple(self.discarded[player], self.ndiscarded[player])

    cdef void check_seat(self, int player) except *:
        if not 0 <= player < self.players:
            raise IndexError(f"no seat {player} at a table of {self.players}")

    cdef object board_of(self, int player):
        return new_board(ids_tuple(self.rows[player][0], self.filled[player][0]),
                         ids_tuple(self.rows[player][1], self.filled[player][1]),
                         ids_tuple(self.rows[player][2], self.filled[player][2]))

    # ------------------------------------------------------------------ moves
    def legal_actions(self):
        """The legal action ids of the player to act (`ofc.actions`), ascending, as a read-only
        int64 array: the fast way for a bot to choose (``play_action(ids[k])``)."""
        cdef int player = self.turn_now
        if player < 0:
            raise IllegalPlacement("the hand is over")
        if self.fl[player]:
            raise IllegalPlacement("a Fantasyland hand is set at once: play a Placement of the "
                                   "whole board, or play_fantasyland()")
        return legal_ids(self.street_dealt[self.street_now], self.street_discards[self.street_now],
                         3 - self.filled[player][0], 5 - self.filled[player][1], 5 - self.filled[player][2])

    def play_action(self, action):
        """Make the placement of `action` (see `ofc.actions`); returns it."""
        cdef int player = self.turn_now, a, r, k, overflow = 0
        cdef long long value = 0
        cdef uint8_t parts[20]
        cdef int counts[4]
        cdef int free[3]
        if player < 0:
            raise IllegalPlacement("the hand is over")
        if self.fl[player]:
            raise IllegalPlacement("a Fantasyland hand has no action: use play_fantasyland()")
        # an int or numpy int64 in range straight to C; anything else through actions.checked
        # (its errors, or a valid action of another type)
        if type(action) is int:
            value = PyLong_AsLongLongAndOverflow(action, &overflow)
        elif type(action) is INT64:
            value = action
        else:
            overflow = 1
        if overflow or not 0 <= value < 1024:
            a = actions.checked(action)
        else:
            a = <int>value
        for r in range(3):
            free[r] = CAPACITY[r] - self.filled[player][r]
        if not split_action(a, self.dealt_ids, self.ndealt, free, self.street_discards[self.street_now],
                            parts, counts):
            raise IllegalPlacement(f"action {a} is not legal now (dealt {hand_str(self.dealt)})")
        placement = new_placement(ids_tuple(parts, counts[0]), ids_tuple(parts + 5, counts[1]),
                                  ids_tuple(parts + 10, counts[2]), ids_tuple(parts + 15, counts[3]))
        for r in range(3):
            for k in range(counts[r]):
                self.rows[player][r][self.filled[player][r]] = parts[5 * r + k]
                self.filled[player][r] += 1
        for k in range(counts[3]):
            self.discarded[player][self.ndiscarded[player]] = parts[15 + k]
            self.ndiscarded[player] += 1
        self.record(player, placement)
        return placement

    def _place(self, int player, placement):
        """Put `placement`, checked legal, on the board of `player`, the player to act, and end
        the turn."""
        if player != self.turn_now or player < 0:
            raise IllegalPlacement(f"seat {player} is not to act")
        cdef int r
        for r, row in enumerate(placement.rows):
            for card in row:
                self.rows[player][r][self.filled[player][r]] = card
                self.filled[player][r] += 1
        for card in placement.discards:
            self.discarded[player][self.ndiscarded[player]] = card
            self.ndiscarded[player] += 1
        self.record(player, placement)

    cdef void record(self, int player, placement) except *:
        """The rest of a turn whose placement is on `player`'s board: the history and the next
        player to act."""
        self.turn_player[self.nturns] = player
        self.nturns += 1
        self.placed.append(placement)
        if self.history_read is not None:
            self.history_read.append((player, placement))
        if self.boards_read is not None:
            self.boards_read[player] = self.board_of(player)
        self.advance()

    cdef void advance(self) except *:
        cdef int player
        while True:
            self.seat += 1
            if self.seat == self.players:
                self.seat = 0
                self.street_now += 1
                if self.street_now == self.nstreets:
                    self.turn_now = -1
                    self.ndealt = 0
                    self.dealt_read = None
                    return
            player = self.order[self.seat]
            self.turn_now = player
            if self.filled[player][0] + self.filled[player][1] + self.filled[player][2] < 13:
                self.deal()
                return

    cdef void deal(self) except *:
        """Deal the player to act their cards, ascending."""
        cdef int n = self.fl[self.turn_now] or self.street_dealt[self.street_now], i, j
        cdef uint8_t card
        for i in range(n):
            card = self.deck[self.drawn + i]
            j = i
            while j and self.dealt_ids[j - 1] > card:
                self.dealt_ids[j] = self.dealt_ids[j - 1]
                j -= 1
            self.dealt_ids[j] = card
        self.drawn += n
        self.ndealt = n
        self.dealt_read = None

    # ------------------------------------------------------------------ the end
    def points(self):
        """Each player's net points for the finished hand (`ofc.score` under the rules)."""
        cdef RuleTables rule_tables
        cdef const rules_t* r
        cdef board_t boards[MAX_PLAYERS]
        cdef uint8_t cards[13]
        cdef int32_t net[MAX_PLAYERS]
        cdef int32_t amount
        cdef int pair, i, j, row, k, n
        cdef bint to_winner
        if self.turn_now >= 0:
            raise ValueError("the hand is not over yet")
        scoring = scoring_of(self.rules)
        if scoring is None:
            return self.points_of_batch()
        rule_tables, pair, to_winner = scoring
        r = &rule_tables.r
        # the game placed every card itself, once: the boards are scored unchecked, as
        # ofc.board.dealt_points scores them
        for i in range(self.players):
            n = 0
            for row in range(3):
                for k in range(CAPACITY[row]):
                    cards[n] = self.rows[i][row][k]
                    n += 1
            boards[i] = eval_board(cards, r)
            net[i] = 0
        for i in range(self.players):
            for j in range(i + 1, self.players):
                if pair == PAIR_2_4:
                    amount = chinese_points(&boards[i], &boards[j], r, SCORING_2_4, to_winner)
                elif pair == PAIR_OFC:
                    amount = net_points(&boards[i], &boards[j], r)
                else:
                    # OFC's points with the scoop bonus, less Chinese poker's royalty difference,
                    # plus its royalties to the winner (ofc.board._row_points)
                    amount = (net_points(&boards[i], &boards[j], r)
                              - chinese_points(&boards[i], &boards[j], r, SCORING_1_6, False)
                              + chinese_points(&boards[i], &boards[j], r, SCORING_1_6, True))
                net[i] += amount
                net[j] -= amount
        return [net[i] for i in range(self.players)]

    cdef list points_of_batch(self):
        """points() under naturals or shooting the moon: `ofc.board.dealt_points`' pairs in one
        batch."""
        pairs = [(i, j) for i in range(self.players) for j in range(i + 1, self.players)]
        cards = [self.board_of(p).cards for p in range(self.players)]
        net = dealt_points(np.array([cards[i] + cards[j] for i, j in pairs], dtype=np.uint8),
                           self.rules).tolist()
        points = [0] * self.players
        for (i, j), amount in zip(pairs, net):
            points[i] += amount
            points[j] -= amount
        return points

    # ------------------------------------------------------------------ pickling
    def __reduce__(self):
        return _restored, (type(self), self.get_state(), getattr(self, "__dict__", None))

    cdef tuple get_state(self):
        cdef int p, r
        filled = bytes([self.filled[p][r] for p in range(MAX_PLAYERS) for r in range(3)])
        return (self.rules, self.players, self.button, self.fantasyland,
                (<char*>self.deck)[:DECK], self.drawn, self.street_now, self.seat, self.turn_now,
                (<char*>self.rows)[:sizeof(self.rows)], filled,
                (<char*>self.discarded)[:sizeof(self.discarded)],
                bytes([self.ndiscarded[p] for p in range(MAX_PLAYERS)]),
                (<char*>self.dealt_ids)[:self.ndealt], (<char*>self.turn_player)[:self.nturns],
                tuple(self.placed))

    cdef void set_state(self, tuple state) except *:
        cdef int i, p, r
        cdef bytes deck, rows, filled, discarded, ndiscarded, dealt, turns
        (self.rules, self.players, self.button, self.fantasyland, deck, self.drawn,
         self.street_now, self.seat, self.turn_now, rows, filled, discarded, ndiscarded, dealt, turns,
         placed) = state
        self.streets = STREETS[self.rules.dealing == "classic"]
        self.nstreets = len(self.streets)
        for i in range(self.nstreets):
            self.street_dealt[i], self.street_discards[i] = self.streets[i]
        for i in range(self.players):
            self.order[i] = (self.button + 1 + i) % self.players
            self.fl[i] = self.fantasyland[i]
        memcpy(self.deck, <char*>deck, DECK)
        memcpy(self.rows, <char*>rows, sizeof(self.rows))
        memcpy(self.discarded, <char*>discarded, sizeof(self.discarded))
        for p in range(MAX_PLAYERS):
            self.ndiscarded[p] = ndiscarded[p]
            for r in range(3):
                self.filled[p][r] = filled[3 * p + r]
        self.ndealt = len(dealt)
        memcpy(self.dealt_ids, <char*>dealt, self.ndealt)
        self.nturns = len(turns)
        memcpy(self.turn_player, <char*>turns, self.nturns)
        self.placed = list(placed)
        self.dealt_read = self.boards_read = self.history_read = None
