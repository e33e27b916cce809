# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core of handrank.ofc.vector: N independent OFC hands, each a deck, the boards,
discards and the turn, stepped without the GIL.

The rules of a turn are those of ofc.Game (the deal, the street order round the table, a
Fantasyland hand set at its first turn from a board the caller solved beforehand), and each
observation is the card planes of ofc.env for the player to act. The finished boards are scored
by the caller with the batch scorer (ofc.score_batch, ofc.evaluate_batch), so every scoring
option follows the one code path of ofc.score. Every method takes the indices of the games to
work on, so the Python layer can split them over threads: a game's state is touched only by the
call that owns its index.
"""
cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from handrank._random cimport random_t, seed_random, below

DEF MAX_PLAYERS = 4
DEF DECK = 52
DEF PLANES = 14
DEF SIZE = 1024
DEF MAX_STREETS = 9
DEF MAX_DISCARDS = 4
DEF MOST_LEGAL = 243          # 3**5: five cards, each to one of the three rows

cdef int ROW_START[3]
cdef int ROW_SIZE[3]
ROW_START[:] = [0, 3, 8]      # a board is top (3), middle (5), bottom (5) in one row of 13
ROW_SIZE[:] = [3, 5, 5]

# the legal-action tables are indexed by street kind (dealt, discards) and the free slots of the
# three rows: kind * FREE_CASES + free_top * 36 + free_middle * 6 + free_bottom
DEF FREE_CASES = 144
KINDS = ((5, 0), (3, 1), (1, 0))


@cython.auto_pickle(False)     # it holds the games' state arrays: rebuilt, never pickled
cdef class Core:
    """The state of N hands for `players` players seated in `order` (order[0] acts first);
    `fantasyland[p]`: cards seat p is dealt in Fantasyland (0: street play); `streets`: rows of
    (cards dealt, kind index into KINDS); `masks` (kinds * 144, 1024) and `legal_ids`,
    `legal_counts` the legal actions of each case. The arrays are shared with the caller."""

    cdef readonly int num_envs, players, nstreets
    cdef int order[MAX_PLAYERS]
    cdef int fl[MAX_PLAYERS]
    cdef int street_dealt[MAX_STREETS]
    cdef int street_kind[MAX_STREETS]
    cdef readonly object deck_array, board_array, fl_board_array, turn_array
    cdef object state_arrays             # every array above and below: what save() copies
    cdef uint8_t[:, ::1] deck            # (N, 52) the deck, in dealing order
    cdef uint8_t[:, :, ::1] boards       # (N, P, 13) rows in order, each row's cards as placed
    cdef int8_t[:, :, ::1] filled        # (N, P, 3)
    cdef uint8_t[:, :, ::1] discards     # (N, P, 4) a street player's discards
    cdef int8_t[:, ::1] ndiscards        # (N, P)
    cdef uint8_t[:, :, ::1] fl_boards    # (N, P, 13) the solved board of each Fantasyland seat
    cdef uint8_t[:, ::1] dealt           # (N, 5) the cards dealt to the player to act, ascending
    cdef int8_t[::1] ndealt, seat, street, turn     # turn -1 - p: the hand is over, p acted last
    cdef int over_case                   # the tables' last row: a hand over offers action 0 alone
    cdef int32_t[::1] drawn
    cdef const uint8_t[:, ::1] masks
    cdef const int16_t[:, ::1] legal_ids
    cdef const int16_t[::1] legal_counts

    def __init__(self, int num_envs, order, fantasyland, streets, masks, legal_ids, legal_counts):
        import numpy as np
        cdef int p, s
        self.num_envs = num_envs
        self.players = len(order)
        self.nstreets = len(streets)
        for p in range(self.players):
            self.order[p] = order[p]
            self.fl[p] = fantasyland[p]
        for s in range(self.nstreets):
            self.street_dealt[s] = streets[s][0]
            self.street_kind[s] = streets[s][1]
        self.deck_array = np.zeros((num_envs, DECK), dtype=np.uint8)
        self.board_array = np.zeros((num_envs, self.players, 13), dtype=np.uint8)
        self.fl_board_array = np.zeros((num_envs, self.players, 13), dtype=np.uint8)
        self.turn_array = np.full(num_envs, -1, dtype=np.int8)
        self.deck = self.deck_array
        self.boards = self.board_array
        self.fl_boards = self.fl_board_array
        self.turn = self.turn_array
        state = [self.deck_array, self.board_array, self.fl_board_array, self.turn_array,
                 np.zeros((num_envs, self.players, 3), dtype=np.int8),
                 np.zeros((num_envs, self.players, MAX_DISCARDS), dtype=np.uint8),
                 np.zeros((num_envs, self.players), dtype=np.int8),
                 np.zeros((num_envs, 5), dtype=np.uint8),
                 np.zeros(num_envs, dtype=np.int8), np.zeros(num_envs, dtype=np.int8),
                 np.zeros(num_envs, dtype=np.int8), np.zeros(num_envs, dtype=np.int32)]
        (self.filled, self.discards, self.ndiscards, self.dealt, self.ndealt, self.seat,
         self.street, self.drawn) = state[4:]
        self.state_arrays = tuple(state)
        self.masks = masks
        self.legal_ids = legal_ids
        self.legal_counts = legal_counts
        self.over_case = masks.shape[0] - 1

    # ------------------------------------------------------------------ the turn
    cdef inline int case_of(self, Py_ssize_t g) noexcept nogil:
        """The legal-table case of game g's player to act (the over case when the hand is over:
        left so by a next-step autoreset, its action is ignored)."""
        cdef int p = self.turn[g]
        if p < 0:
            return self.over_case
        return (self.street_kind[self.street[g]] * FREE_CASES
                + (3 - self.filled[g, p, 0]) * 36 + (5 - self.filled[g, p, 1]) * 6
                + (5 - self.filled[g, p, 2]))

    cdef inline void deal(self, Py_ssize_t g) noexcept nogil:
        """Deal the street's cards to the player to act, ascending (insertion sort of 1..5)."""
        cdef int k = self.street_dealt[self.street[g]], i, j
        cdef uint8_t c
        cdef uint8_t* hand = &self.dealt[g, 0]
        cdef int at = self.drawn[g]
        for i in range(k):
            c = self.deck[g, at + i]
            j = i
            while j > 0 and hand[j - 1] > c:
                hand[j] = hand[j - 1]
                j -= 1
            hand[j] = c
        self.ndealt[g] = k
        self.drawn[g] = at + k

    cdef void settle(self, Py_ssize_t g, bint first) noexcept nogil:
        """Move to the next player to act, as ofc.Game._advance and ofc.env's settling do: skip
        full boards, set a Fantasyland hand from its solved board (drawing its cards), deal a
        street player their cards; turn -1 when the hand is over. With `first`, start from the
        seat already set instead of the next one."""
        cdef int p
        while True:
            if not first:
                self.seat[g] += 1
                if self.seat[g] == self.players:
                    self.seat[g] = 0
                    self.street[g] += 1
                    if self.street[g] == self.nstreets:
                        self.turn[g] = -1
                        self.ndealt[g] = 0
                        return
            first = False
            p = self.order[self.seat[g]]
            self.turn[g] = p
            if self.filled[g, p, 0] + self.filled[g, p, 1] + self.filled[g, p, 2] == 13:
                continue
            if self.fl[p]:
                memcpy(&self.boards[g, p, 0], &self.fl_boards[g, p, 0], 13)
                self.filled[g, p, 0] = 3
                self.filled[g, p, 1] = 5
                self.filled[g, p, 2] = 5
                self.drawn[g] += self.fl[p]
                continue
            self.deal(g)
            return

    cdef void apply(self, Py_ssize_t g, int action) noexcept nogil:
        """Make `action` (checked legal) for game g's player to act."""
        cdef int p = self.turn[g], j, where, nd
        cdef uint8_t c
        for j in range(self.ndealt[g]):
            where = (action >> (2 * j)) & 3
            c = self.dealt[g, j]
            if where < 3:
                self.boards[g, p, ROW_START[where] + self.filled[g, p, where]] = c
                self.filled[g, p, where] += 1
            else:
                nd = self.ndiscards[g, p]
                self.discards[g, p, nd] = c
                self.ndiscards[g, p] = nd + 1

    cdef void observe(self, Py_ssize_t g, int8_t[:, :, ::1] obs, uint8_t[:, ::1] mask,
                      int8_t[::1] current) noexcept nogil:
        """The planes of ofc.env for the player to act (the last to act when the hand is over),
        their legal mask and seat."""
        cdef int p = self.turn[g], k, other, row, j, plane
        if p < 0:
            p = -1 - p
        cdef int8_t* o = &obs[g, 0, 0]
        memset(o, 0, PLANES * DECK)
        for row in range(3):
            for j in range(self.filled[g, p, row]):
                o[row * DECK + self.boards[g, p, ROW_START[row] + j]] = 1
        for j in range(self.ndealt[g]):
            o[3 * DECK + self.dealt[g, j]] = 1
        for j in range(self.ndiscards[g, p]):
            o[4 * DECK + self.discards[g, p, j]] = 1
        for k in range(1, self.players):
            other = (p + k) % self.players
            if self.fl[other]:
                continue            # a Fantasyland board stays face down until the end
            plane = 5 + 3 * (k - 1)
            for row in range(3):
                for j in range(self.filled[g, other, row]):
                    o[(plane + row) * DECK + self.boards[g, other, ROW_START[row] + j]] = 1
        memcpy(&mask[g, 0], &self.masks[self.case_of(g), 0], SIZE)
        current[g] = p

    # ------------------------------------------------------------------ the calls
    def shuffle(self, const uint64_t[::1] keys, const int64_t[::1] games, const uint64_t[::1] hands):
        """A fresh deck for each game of `games`: a Fisher-Yates shuffle from the stream of
        hand number hands[i] under keys[i]."""
        cdef Py_ssize_t i, g
        cdef int j, other
        cdef uint8_t swap
        cdef random_t r
        with nogil:
            for i in range(games.shape[0]):
                g = games[i]
                seed_random(&r, keys[i], hands[i])
                for j in range(DECK):
                    self.deck[g, j] = j
                for j in range(DECK - 1):
                    other = j + below(&r, DECK - j)
                    swap = self.deck[g, j]
                    self.deck[g, j] = self.deck[g, other]
                    self.deck[g, other] = swap

    def begin(self, const int64_t[::1] games, int8_t[:, :, ::1] obs, uint8_t[:, ::1] mask,
              int8_t[::1] current):
        """Start the hand of each game of `games` from its deck (and its solved Fantasyland
        boards): empty boards, the first player to act dealt in, their observation written."""
        cdef Py_ssize_t i, g
        with nogil:
            for i in range(games.shape[0]):
                g = games[i]
                memset(&self.filled[g, 0, 0], 0, self.players * 3)
                memset(&self.ndiscards[g, 0], 0, self.players)
                self.drawn[g] = 0
                self.seat[g] = 0
                self.street[g] = 0
                self.settle(g, True)
                # (a hand always has a street player: the caller refuses a table of Fantasyland seats only)
                self.observe(g, obs, mask, current)
        return -1

    def step(self, const int64_t[::1] games, const int64_t[::1] actions, int8_t[:, :, ::1] obs,
             uint8_t[:, ::1] mask, int8_t[::1] current, uint8_t[::1] done):
        """Make actions[g] (checked legal by `check`) in each game g of `games`; a game whose hand
        ends is marked in `done` (its boards kept for scoring) and observed as the player who
        acted last sees it, every other as the player to act sees it."""
        cdef Py_ssize_t i, g
        cdef int p
        with nogil:
            for i in range(games.shape[0]):
                g = games[i]
                p = self.turn[g]
                self.apply(g, <int>actions[g])
                self.settle(g, False)
                if self.turn[g] < 0:
                    done[g] = 1
                    self.turn[g] = -1 - p
                else:
                    done[g] = 0
                self.observe(g, obs, mask, current)
        return -1

    def check(self, const int64_t[::1] actions):
        """The first game whose action is out of range or not legal now (-1: none)."""
        cdef Py_ssize_t g, bad = -1
        cdef int64_t a
        with nogil:
            for g in range(actions.shape[0]):
                a = actions[g]
                if a < 0 or a >= SIZE or not self.masks[self.case_of(g), a]:
                    bad = g
                    break
        return bad

    def counts(self, int64_t[::1] out):
        """How many legal actions each game's player to act has."""
        cdef Py_ssize_t g
        with nogil:
            for g in range(out.shape[0]):
                out[g] = self.legal_counts[self.case_of(g)]

    def pick(self, int64_t[::1] choices):
        """Replace each game's choice k (0 <= k < its count) by its k-th legal action."""
        cdef Py_ssize_t g
        with nogil:
            for g in range(choices.shape[0]):
                choices[g] = self.legal_ids[self.case_of(g), choices[g]]

    def write_ids(self, const int64_t[::1] indptr, int32_t[::1] out):
        """Each game's legal action ids, ascending, at out[indptr[g]:indptr[g + 1]] (the
        counts of `counts` summed)."""
        cdef Py_ssize_t g, at
        cdef int c, j
        with nogil:
            for g in range(indptr.shape[0] - 1):
                c = self.case_of(g)
                at = indptr[g]
                for j in range(self.legal_counts[c]):
                    out[at + j] = self.legal_ids[c, j]

    def look(self, const int64_t[::1] games, int8_t[:, :, ::1] obs, uint8_t[:, ::1] mask,
             int8_t[::1] current):
        """Observe each game of `games` as it is (what `step` and `begin` wrote last)."""
        cdef Py_ssize_t i
        with nogil:
            for i in range(games.shape[0]):
                self.observe(games[i], obs, mask, current)

    def save(self):
        """A copy of every game's state, for `restore`."""
        return tuple(a.copy() for a in self.state_arrays)

    def restore(self, saved):
        """Put back the state `save` returned: a call that failed half-way changed nothing."""
        for a, copy in zip(self.state_arrays, saved):
            a[...] = copy

    def state(self, Py_ssize_t g):
        """Game g's (seat to act or -1, street, cards dealt now): for checks and repr."""
        return (self.turn[g], self.street[g],
                tuple(self.dealt[g, j] for j in range(self.ndealt[g])))
