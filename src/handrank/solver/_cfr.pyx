# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled core of handrank.solver: Discounted CFR, best response and expected values over a
spot's expanded game tree (one copy of a street's betting for every card dealt), vectorised over
each player's combos, without the GIL.

The tree comes as flat arrays (see handrank.solver.game): node kind, player, children (stored
contiguously), the terminal's stake, the offset of a decision node's regrets and strategy sums
([action][combo]), the 5-card board a showdown is on, the card a chance node's child
deals. Utilities are shifted by half the starting pot, so that both players' payoffs sum to zero:
a showdown is worth +-(pot / 2 + chips put in) to the winner and loser, and a fold as much.

Every value for a hero combo is summed over the opposing combos that share no card with it
(card removal through per-card sums: one pass, not one per pair), weighted by their reach.

Compressed storage (regrets as int16, strategy sums as uint16, each node's scaled by its largest
magnitude, a float32 per node): half the memory; a node's numbers are decoded to float32 to be
used and updated, then encoded again.

Suit isomorphism: where a suit permutation leaves the known cards and both ranges unchanged, a
chance node deals one card of each class of interchangeable cards; the values under the others are
the representative's, each combo's moved to its image under the permutation (the reaches above
are symmetric too, as the game is).
"""
cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

import os

import numpy as np

cdef enum:
    OOP_NODE = 0
    IP_NODE = 1
    FOLD_NODE = 2
    SHOWDOWN_NODE = 3
    CHANCE_NODE = 4

cdef inline Py_ssize_t SWEEP_ROOM(Py_ssize_t width) noexcept nogil:
    """The floats a showdown's sweep takes: 3 x width + 53 doubles, aligned."""
    return 6 * width + 108


cdef enum:
    MODE_CFR = 0        # update the traverser's regrets and strategy sums (current strategies)
    MODE_BEST = 1       # the traverser's best response to the other's average strategy
    MODE_AVERAGE = 2    # both players' average strategies

KINDS = {"oop": OOP_NODE, "ip": IP_NODE, "fold": FOLD_NODE, "showdown": SHOWDOWN_NODE,
         "chance": CHANCE_NODE}


# The loops over [action][combo] arrays run action by action over contiguous combos, through
# pointers that do not alias, so that the compiler vectorises them.
cdef inline void multiply(float* dst, const float* a, const float* b, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        dst[i] = a[i] * b[i]


cdef inline void add_product(float* dst, const float* a, const float* b, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        dst[i] += a[i] * b[i]


cdef inline void add(float* dst, const float* a, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        dst[i] += a[i]


cdef inline void maximum(float* dst, const float* a, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        dst[i] = a[i] if a[i] > dst[i] else dst[i]


cdef void normalise(const float* weight, float* strat, Py_ssize_t na, Py_ssize_t n,
                    bint positive, float* total, float* fallback) noexcept nogil:
    """strat: each combo's column of `weight` (its positive part if `positive`) divided by its
    sum, uniform where the sum is 0; `total`, `fallback`: room for n floats each. Branch-free
    (a sum of 0 divides by 1 and adds the uniform share), so that every loop vectorises."""
    cdef Py_ssize_t a, i
    cdef float uniform = 1.0 / na, x, empty, one = 1     # (float: a literal 1 divides in double)
    cdef float* row
    cdef const float* w
    memset(total, 0, n * sizeof(float))
    for a in range(na):
        row = strat + a * n
        w = weight + a * n
        for i in range(n):
            x = w[i]
            if positive:
                x = x if x > 0 else 0
            row[i] = x
            total[i] += x
    for i in range(n):
        empty = 1 if total[i] <= 0 else 0
        fallback[i] = empty * uniform
        total[i] = one / (total[i] + empty)
    for a in range(na):
        row = strat + a * n
        for i in range(n):
            row[i] = row[i] * total[i] + fallback[i]


cdef void matching_shares(const float* regret, const float* reach, Py_ssize_t na, Py_ssize_t n,
                         float* share, float* rest) noexcept nogil:
    """Regret matching times a reach, without the strategy: share[i] = reach[i] / the sum of
    combo i's positive regrets, rest[i] = reach[i] x the uniform share where that sum is 0 (and
    share[i] 0), so that action a's reach is match_reach's."""
    cdef Py_ssize_t a, i
    cdef float uniform = 1.0 / na, x, empty, one = 1
    cdef const float* r
    memset(share, 0, n * sizeof(float))
    for a in range(na):
        r = regret + a * n
        for i in range(n):
            x = r[i]
            share[i] += x if x > 0 else 0
    for i in range(n):
        empty = 1 if share[i] <= 0 else 0
        rest[i] = empty * uniform * reach[i]
        share[i] = reach[i] * (one - empty) / (share[i] + empty)


cdef inline void match_reach(float* dst, const float* regret, const float* share, const float* rest,
                             Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    cdef float x
    for i in range(n):
        x = regret[i]
        dst[i] = (x if x > 0 else 0) * share[i] + rest[i]


cdef void update(float* regret, float* sums, const float* value, const float* mean,
                 const float* strat, const float* reach, Py_ssize_t na, Py_ssize_t n, float pos,
                 float neg, float keep) noexcept nogil:
    """Discounted CFR's step at one node: regrets discounted (by sign) plus each action's value
    over the node's; strategy sums discounted plus the reach-weighted current strategy."""
    cdef Py_ssize_t a, i
    cdef float x
    cdef float* r
    cdef float* s
    cdef const float* v
    cdef const float* st
    for a in range(na):
        r = regret + a * n
        s = sums + a * n
        v = value + a * n
        st = strat + a * n
        for i in range(n):
            x = r[i]
            r[i] = x * (pos if x > 0 else neg) + v[i] - mean[i]
            s[i] = s[i] * keep + reach[i] * st[i]


cdef inline void decode_signed(const int16_t* src, float scale, float* dst, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        dst[i] = src[i] * scale


cdef inline void decode_unsigned(const uint16_t* src, float scale, float* dst, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        dst[i] = src[i] * scale


cdef float encode_signed(const float* src, int16_t* dst, Py_ssize_t n) noexcept nogil:
    """dst: src rounded to the nearest of 65535 steps spanning its largest magnitude; the step."""
    cdef Py_ssize_t i
    cdef float most = 0, x, inverse
    for i in range(n):
        x = src[i] if src[i] > 0 else -src[i]
        most = x if x > most else most
    inverse = 32767 / most if most > 0 else 0
    for i in range(n):
        x = src[i] * inverse
        dst[i] = <int16_t>(x + (0.5 if x >= 0 else -0.5))
    return most / 32767


cdef float encode_unsigned(const float* src, uint16_t* dst, Py_ssize_t n) noexcept nogil:
    """The same for numbers >= 0, in 65536 steps."""
    cdef Py_ssize_t i
    cdef float most = 0, inverse
    for i in range(n):
        most = src[i] if src[i] > most else most
    inverse = 65535 / most if most > 0 else 0
    for i in range(n):
        dst[i] = <uint16_t>(src[i] * inverse + 0.5)
    return most / 65535


# Python's own portable threads and locks (pthreads, Windows threads): plain C calls that need
# no GIL (Cython's cpython.pythread declares them as needing it).
cdef extern from "pythread.h" nogil:
    ctypedef void* PyThread_type_lock
    PyThread_type_lock PyThread_allocate_lock()
    void PyThread_free_lock(PyThread_type_lock)
    int PyThread_acquire_lock(PyThread_type_lock, int)
    void PyThread_release_lock(PyThread_type_lock)
    unsigned long PyThread_start_new_thread(void (*)(void*) noexcept nogil, void*)
    enum: WAIT_LOCK


ctypedef struct Deal:
    void* engine
    int node, hero, cards
    int next                    # the next card to deal, under `taking`
    PyThread_type_lock taking
    const float* hero_reach
    const float* opp_reach
    float* values


ctypedef struct Job:
    Deal* deal
    float* arena
    PyThread_type_lock done


# Each Engine keeps its threads for the solve (a chance node's cards are shared hundreds of times
# an iteration's worth of solving: a thread started for each share cost more than its cards on
# the turn). A forked child has none of its parent's threads: the count below tells an Engine
# its pool is gone, and it starts another.
cdef int fork_generation = 0


def _after_fork_in_child():
    global fork_generation
    fork_generation += 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


ctypedef struct Worker:
    PyThread_type_lock start    # released to hand the worker `job`
    PyThread_type_lock done     # released by the worker when the job is done (or it has ended)
    Job* job                    # NULL: end the thread


cdef void worker_loop(void* arg) noexcept nogil:
    cdef Worker* w = <Worker*>arg
    while True:
        PyThread_acquire_lock(w.start, WAIT_LOCK)
        if w.job == NULL:
            break
        run_job(w.job)
        PyThread_release_lock(w.done)
    PyThread_release_lock(w.done)


cdef void run_job(void* arg) noexcept nogil:
    """A thread's part of a chance node's cards (see Engine.deal_in_parallel): the next card not
    taken, until none is left."""
    cdef Job* job = <Job*>arg
    cdef Deal* d = job.deal
    cdef int a, nh = (<Engine>d.engine).n[d.hero]
    while True:
        PyThread_acquire_lock(d.taking, WAIT_LOCK)
        a = d.next
        d.next += 1
        PyThread_release_lock(d.taking)
        if a >= d.cards:
            break
        (<Engine>d.engine).deal(d.node, a, d.hero, d.hero_reach, d.opp_reach,
                                d.values + <size_t>a * nh, job.arena)
    if job.done != NULL:
        PyThread_release_lock(job.done)


@cython.auto_pickle(False)     # it points into the game's arrays: a game is saved by Game.save
cdef class Engine:
    """The solver state of one game: the tree, the combos, the showdown tables, and the regrets
    and strategy sums (numpy arrays shared with the caller: `regrets`, `strategy_sum`; float32,
    or int16 and uint16 with a step per node in `scales`: compressed)."""

    cdef const int8_t[::1] kind
    cdef const int8_t[::1] player
    cdef const int32_t[::1] first_child
    cdef const int32_t[::1] n_children
    cdef const float[::1] stake
    cdef const int64_t[::1] offset
    cdef const int32_t[::1] board
    cdef const int8_t[::1] card
    cdef int n[2]
    cdef const uint8_t* cards[2]        # combo i of player p: cards[p][2i], cards[p][2i + 1]
    cdef const int32_t* same[2]         # the other player's index of the same combo, or -1
    cdef const int32_t* card_start[2]   # per card (and one past the last): where its group
    cdef const int32_t* card_combos[2]  # of combos begins in card_combos: those holding it
    cdef const int32_t* order[2]        # per board: the combos by rising strength
    cdef const uint16_t* segments[2]    # per board: each card's group by rising strength
    cdef const uint16_t* sweep_index[2] # per board and combo: 8 indices into the sweep's sums
    cdef float* regret                  # float32 storage, or NULL where compressed:
    cdef float* strat_sum
    cdef int16_t* regret16              # the compressed storage
    cdef uint16_t* sum16
    cdef float* regret_scale            # per node: the step of its regrets and strategy sums
    cdef float* sum_scale
    cdef bint compressed
    cdef int mode
    cdef float pos_discount, neg_discount, sum_discount
    cdef object keep                    # the arrays the pointers above point into
    cdef public object regrets
    cdef public object strategy_sum
    cdef const float* root_reach[2]
    cdef const int8_t[::1] locked       # per node: its strategy is fixed (in strategy_sum)
    cdef float* arena                   # every node's buffers, depth by depth
    cdef Py_ssize_t arena_size
    cdef int threads                    # share a chance node's cards among this many threads
    cdef float** worker_arena           # an arena for each thread but this one
    cdef Worker* pool                   # the threads but this one, waiting for cards to deal
    cdef int pool_size
    cdef int pool_generation            # fork_generation when the pool was started
    cdef bint in_parallel               # the cards are being shared: deal the ones below here
    cdef int width                      # the most combos a player has: one buffer's size
    cdef object reach_arrays
    cdef const int32_t[::1] iso_first   # per node dealing a card: its isomorphic cards' entries
    cdef const int32_t[::1] iso_count   # in iso_perm (how many)
    cdef const int32_t[::1] iso_perm    # per entry: the row of perms mapping the combos there
    cdef const int32_t* perms[2]        # per suit permutation kept: each combo's image

    def __init__(self, kind, player, first_child, n_children, stake, offset, board, card,
                 cards0, cards1, same0, same1, card_start0, card_start1, card_combos0,
                 card_combos1, order0, order1, segments0, segments1, sweep_index0, sweep_index1,
                 regrets, strategy_sum, iso_first, iso_count, iso_perm, perms0, perms1, scales):
        cdef const int32_t[:, ::1] p0 = perms0, p1 = perms1
        cdef float[:, ::1] steps = scales
        cdef float[::1] r32, s32
        cdef int16_t[::1] r16
        cdef uint16_t[::1] s16
        cdef const uint8_t[:, ::1] c0 = cards0, c1 = cards1
        cdef const int32_t[::1] s0 = same0, s1 = same1
        cdef const int32_t[::1] cs0 = card_start0, cs1 = card_start1
        cdef const int32_t[::1] cc0 = card_combos0, cc1 = card_combos1
        cdef const int32_t[:, ::1] o0 = order0, o1 = order1
        cdef const uint16_t[:, ::1] g0 = segments0, g1 = segments1
        cdef const uint16_t[:, :, ::1] w0 = sweep_index0, w1 = sweep_index1
        self.kind, self.player, self.first_child, self.n_children = kind, player, first_child, n_children
        self.stake, self.offset, self.board, self.card = stake, offset, board, card
        self.n[0], self.n[1] = c0.shape[0], c1.shape[0]
        self.cards[0], self.cards[1] = &c0[0, 0], &c1[0, 0]
        self.same[0], self.same[1] = &s0[0], &s1[0]
        self.card_start[0], self.card_start[1] = &cs0[0], &cs1[0]
        self.card_combos[0], self.card_combos[1] = &cc0[0], &cc1[0]
        self.order[0], self.order[1] = &o0[0, 0], &o1[0, 0]
        self.segments[0], self.segments[1] = &g0[0, 0], &g1[0, 0]
        self.sweep_index[0], self.sweep_index[1] = &w0[0, 0, 0], &w1[0, 0, 0]
        self.compressed = regrets.dtype == np.int16
        if self.compressed:
            r16, s16 = regrets, strategy_sum
            self.regret16, self.sum16 = &r16[0], &s16[0]
        else:
            r32, s32 = regrets, strategy_sum
            self.regret, self.strat_sum = &r32[0], &s32[0]
        self.regret_scale, self.sum_scale = &steps[0, 0], &steps[1, 0]
        self.regrets, self.strategy_sum = regrets, strategy_sum
        self.iso_first, self.iso_count, self.iso_perm = iso_first, iso_count, iso_perm
        self.perms[0], self.perms[1] = &p0[0, 0], &p1[0, 0]
        self.keep = (cards0, cards1, same0, same1, card_start0, card_start1, card_combos0,
                     card_combos1, order0, order1, segments0, segments1, sweep_index0,
                     sweep_index1, perms0, perms1, scales)
        self.width = max(self.n[0], self.n[1])
        # a node takes at most 2 x actions + 3 buffers (a decision node: strategy, values and
        # reach, then its children's; compressed, 2 x actions + 2 more: its regrets and sums
        # decoded, and room to normalise); a parent comes before its children in the arrays
        cdef Py_ssize_t nodes = kind.shape[0], i, c, most = 1, depth_most = 0
        depth = np.zeros(nodes, dtype=np.int64)
        cdef int64_t[::1] d = depth
        for i in range(nodes):
            most = max(most, self.n_children[i])
            for c in range(self.first_child[i], self.first_child[i] + self.n_children[i]):
                d[c] = d[i] + 1
                depth_most = max(depth_most, d[c])
        # and a showdown's sweep the room for 3 x width + 53 doubles past its own
        self.arena_size = ((depth_most + 2) * ((4 * most + 5) if self.compressed else (2 * most + 3)) * self.width
                           + SWEEP_ROOM(self.width))
        self.arena = <float*>malloc(self.arena_size * sizeof(float))
        if self.arena == NULL:
            raise MemoryError("the solver's work space")
        self.threads = 1

    def set_threads(self, int threads):
        """Share each chance node's cards among `threads` threads (1: this one alone)."""
        cdef int t
        self._free_workers()
        self.worker_arena = <float**>calloc(max(threads - 1, 1), sizeof(float*))
        if self.worker_arena == NULL:
            raise MemoryError("the solver's work space")
        self.threads = threads              # (what _free_workers frees: the rows are NULL till set)
        for t in range(threads - 1):
            self.worker_arena[t] = <float*>malloc(self.arena_size * sizeof(float))
            if self.worker_arena[t] == NULL:
                self._free_workers()
                raise MemoryError("the solver's work space")

    cdef void start_pool(self, int size) noexcept nogil:
        """Start `size` worker threads (fewer where the system gives fewer: the cards then go
        to those there are)."""
        cdef int t
        cdef Worker* w
        self.pool = <Worker*>calloc(max(size, 1), sizeof(Worker))
        self.pool_size = 0
        self.pool_generation = fork_generation
        if self.pool == NULL:
            return
        for t in range(size):
            w = &self.pool[t]
            w.start = PyThread_allocate_lock()
            w.done = PyThread_allocate_lock()
            if w.start == NULL or w.done == NULL:
                break
            PyThread_acquire_lock(w.start, WAIT_LOCK)
            PyThread_acquire_lock(w.done, WAIT_LOCK)
            if PyThread_start_new_thread(worker_loop, w) == <unsigned long>-1:
                break
            self.pool_size += 1
        for t in range(self.pool_size, size):          # the locks of threads never started
            if self.pool[t].start != NULL:
                PyThread_free_lock(self.pool[t].start)
            if self.pool[t].done != NULL:
                PyThread_free_lock(self.pool[t].done)

    cdef void stop_pool(self) noexcept nogil:
        """End the worker threads (in a forked child there are none to end) and free the pool."""
        cdef int t
        if self.pool == NULL:
            return
        for t in range(self.pool_size):
            if self.pool_generation == fork_generation:
                self.pool[t].job = NULL
                PyThread_release_lock(self.pool[t].start)
                PyThread_acquire_lock(self.pool[t].done, WAIT_LOCK)
            PyThread_free_lock(self.pool[t].start)
            PyThread_free_lock(self.pool[t].done)
        free(self.pool)
        self.pool = NULL
        self.pool_size = 0

    cdef void _free_workers(self) noexcept:
        cdef int t
        self.stop_pool()
        if self.worker_arena != NULL:
            for t in range(self.threads - 1):
                free(self.worker_arena[t])
            free(self.worker_arena)
            self.worker_arena = NULL
        self.threads = 1

    def __dealloc__(self):
        self._free_workers()
        free(self.arena)

    def iterate(self, double positive, double negative, double strategy):
        """One CFR iteration: each player in turn updates its regrets (the positive ones first
        multiplied by `positive`, the negative ones by `negative`) and its strategy sums (first
        multiplied by `strategy`), against the other's current strategy."""
        cdef int hero
        self.pos_discount, self.neg_discount, self.sum_discount = positive, negative, strategy
        self.mode = MODE_CFR
        with nogil:
            for hero in range(2):
                self.walk(0, hero, self.root_reach[hero], self.root_reach[1 - hero], self.arena,
                          self.arena + self.width)

    def set_locked(self, locked):
        """Which decision nodes play a fixed strategy (int8, one per node: 1 locked): the
        normalised strategy sums there, never updated, also for a best response."""
        self.locked = locked

    def set_ranges(self, reach0, reach1):
        """The players' range weights (float32, one per combo) at the root."""
        cdef const float[::1] r0 = reach0, r1 = reach1
        self.reach_arrays = (reach0, reach1)
        self.root_reach[0], self.root_reach[1] = &r0[0], &r1[0]

    def values(self, int node, int hero, hero_reach, opp_reach, bint best):
        """The hero's counterfactual values at `node` (one per combo) against `opp_reach`, both
        players on their average strategies, or the hero on its best response (`best`)."""
        cdef const float[::1] h = hero_reach, o = opp_reach
        result = np.empty(self.n[hero], dtype=np.float32)
        cdef float[::1] out = result
        self.mode = MODE_BEST if best else MODE_AVERAGE
        with nogil:
            self.walk(node, hero, &h[0], &o[0], &out[0], self.arena)
        return result

    def best_responses(self):
        """Per player (OOP, IP): its best response's values to the other's average strategy at
        the root, summed over its combos weighted by its range (both in one call: a check of
        the exploitability as the solve loop runs it)."""
        cdef double total[2]
        cdef int hero, i
        self.mode = MODE_BEST
        with nogil:
            for hero in range(2):
                self.walk(0, hero, self.root_reach[hero], self.root_reach[1 - hero], self.arena,
                          self.arena + self.width)
                total[hero] = 0
                for i in range(self.n[hero]):
                    total[hero] += <double>self.root_reach[hero][i] * self.arena[i]
        return total[0], total[1]

    def showdown_sums(self, int board, int hero, opp_reach):
        """(won, lost, compatible): the opposing reach each hero combo beats, loses to, and shares
        no card with, on 5-card board `board`."""
        cdef const float[::1] o = opp_reach
        won = np.empty(self.n[hero], dtype=np.float32)
        lost = np.empty(self.n[hero], dtype=np.float32)
        compatible = np.empty(self.n[hero], dtype=np.float32)
        cdef float[::1] w = won, l = lost, c = compatible
        with nogil:
            self.sweep(board, hero, &o[0], 1, &w[0], &l[0], self.arena)
            self.compatible(hero, &o[0], 1, &c[0])
        return won, lost, compatible

    cdef void compatible(self, int hero, const float* opp_reach, float scale, float* out) noexcept nogil:
        """out[i] = scale x the opposing reach that shares no card with hero combo i: the reach
        holding each card summed over that card's group (a sum in a register per card, where
        adding into a table of 52 waits on the previous add to the same card), the total being
        half of theirs (every combo is in two groups)."""
        cdef int opp = 1 - hero, i, k, c, nh = self.n[hero]
        cdef double card_sum[52]
        cdef double total = 0, r
        cdef const int32_t* start = self.card_start[opp]
        cdef const int32_t* holding = self.card_combos[opp]
        cdef const uint8_t* hc = self.cards[hero]
        cdef const int32_t* same = self.same[hero]
        for c in range(52):
            r = 0
            for k in range(start[c], start[c + 1]):
                r += opp_reach[holding[k]]
            card_sum[c] = r
            total += r
        total *= 0.5
        for i in range(nh):
            r = total - card_sum[hc[2 * i]] - card_sum[hc[2 * i + 1]]
            if same[i] >= 0:
                r += opp_reach[same[i]]     # subtracted twice above
            out[i] = <float>(scale * r)

    cdef void sweep(self, int board, int hero, const float* opp_reach, float scale, float* won,
                    float* lost, float* scratch, float* folded=NULL, float fold_scale=0) noexcept nogil:
        """won[i] / lost[i] = scale x the opposing reach that hero combo i beats / loses to on
        `board`, without the combos that share a card with it. Prefix sums of the opposing
        reach, once over the combos by rising strength and once over each card's group in the
        same order; a hero combo's reach below (above) its strength is read off them at the
        stopping points the board's tables hold: the sum below, less the sums below in its two
        cards' groups. With `lost` NULL, won[i] gets the difference (a showdown's value).
        `scratch`: SWEEP_ROOM(width) floats. `folded` (unless NULL): fold_scale x the opposing
        reach that shares no card with each hero combo, read off the same sums (`compatible`)."""
        cdef int opp = 1 - hero, i, k, c, end, nh = self.n[hero], no = self.n[opp]
        cdef const int32_t* oorder = self.order[opp] + <int64_t>board * no
        cdef const uint16_t* segment = self.segments[opp] + <int64_t>board * 2 * no
        cdef const int32_t* start = self.card_start[opp]
        cdef const uint16_t* at = self.sweep_index[hero] + <int64_t>board * nh * 8
        cdef const int32_t* same = self.same[hero]
        cdef double* below = <double*>((<size_t>scratch + 7) & ~(<size_t>7))
        cdef double* in_group = below + no + 1
        cdef double* q
        cdef double r, w, l
        r = 0
        for k in range(no):
            below[k] = r
            r += opp_reach[oorder[k]]
        below[no] = r
        for c in range(52):
            q = in_group + start[c] + c
            end = start[c + 1] - start[c]
            r = 0
            for k in range(end):
                q[k] = r
                r += opp_reach[segment[start[c] + k]]
            q[end] = r
        for i in range(nh):
            w = below[at[0]] - in_group[at[1]] - in_group[at[2]]
            l = (below[no] - below[at[3]]) - (in_group[at[6]] - in_group[at[4]]) - (in_group[at[7]] - in_group[at[5]])
            if lost == NULL:
                won[i] = <float>(scale * (w - l))
            else:
                won[i] = <float>(scale * w)
                lost[i] = <float>(scale * l)
            if folded != NULL:
                r = below[no] - in_group[at[6]] - in_group[at[7]]
                if same[i] >= 0:
                    r += opp_reach[same[i]]     # subtracted twice
                folded[i] = <float>(fold_scale * r)
            at += 8

    cdef void current_strategy(self, int node, int p, float* strat, float* scratch) noexcept nogil:
        """Regret matching: each combo's positive regrets, normalised (uniform when none);
        `scratch`: room for 2 x width floats."""
        cdef Py_ssize_t na = self.n_children[node], n = self.n[p]
        if self.compressed:             # decoded where the strategy goes, normalised there
            decode_signed(self.regret16 + self.offset[node], self.regret_scale[node], strat, na * n)
            normalise(strat, strat, na, n, True, scratch, scratch + self.width)
        else:
            normalise(self.regret + self.offset[node], strat, na, n, True, scratch, scratch + self.width)

    cdef void average_strategy(self, int node, int p, float* strat, float* scratch) noexcept nogil:
        cdef Py_ssize_t na = self.n_children[node], n = self.n[p]
        if self.compressed:
            decode_unsigned(self.sum16 + self.offset[node], self.sum_scale[node], strat, na * n)
            normalise(strat, strat, na, n, False, scratch, scratch + self.width)
        else:
            normalise(self.strat_sum + self.offset[node], strat, na, n, False, scratch, scratch + self.width)

    cdef void deal(self, int node, int a, int hero, const float* hero_reach, const float* opp_reach,
                   float* out, float* scratch) noexcept nogil:
        """out: the hero's values below chance node `node`'s child `a` (a card dealt), 0 for the
        hero's combos that hold the card; the reaches of the combos that do are 0 there."""
        cdef int m = self.width, i, opp = 1 - hero, nh = self.n[hero], no = self.n[opp]
        cdef int child = self.first_child[node] + a, c = self.card[child]
        cdef const uint8_t* hc = self.cards[hero]
        cdef const uint8_t* oc = self.cards[opp]
        cdef float* reach = scratch
        cdef float* reach2 = scratch + m
        for i in range(no):
            reach[i] = 0 if oc[2 * i] == c or oc[2 * i + 1] == c else opp_reach[i]
        for i in range(nh):
            reach2[i] = 0 if hc[2 * i] == c or hc[2 * i + 1] == c else hero_reach[i]
        self.walk(child, hero, reach2, reach, out, scratch + 2 * m)
        for i in range(nh):
            if hc[2 * i] == c or hc[2 * i + 1] == c:
                out[i] = 0

    cdef void gather(self, int child, int hero, const float* values, float* out) noexcept nogil:
        """out += the hero's values below a card dealt (`child`), and the same values moved to
        each combo's image for every card isomorphic to it."""
        cdef int k, i, nh = self.n[hero]
        cdef const int32_t* image
        add(out, values, nh)
        for k in range(self.iso_first[child], self.iso_first[child] + self.iso_count[child]):
            image = self.perms[hero] + <size_t>self.iso_perm[k] * nh
            for i in range(nh):
                out[image[i]] += values[i]

    cdef void deal_in_parallel(self, int node, int hero, const float* hero_reach,
                               const float* opp_reach, float* out, float* scratch) noexcept nogil:
        """The cards of chance node `node` shared out among the threads (each card's subtree has
        its own regrets: no two threads write the same), each card's values kept apart and
        added up in card order, so that the sums are those of one thread. Each thread takes the
        next card left when it is done with one: a thread that a busy machine holds back leaves
        its cards to the others, which wait for it at most one card's subtree."""
        cdef int na = self.n_children[node], nh = self.n[hero], t, threads = min(self.threads, na), a
        cdef float* values = <float*>malloc(<size_t>na * nh * sizeof(float))
        cdef Job* jobs = <Job*>malloc(threads * sizeof(Job))
        cdef Deal shared
        shared.taking = PyThread_allocate_lock()
        if values == NULL or jobs == NULL or shared.taking == NULL:    # deal here, card by card
            free(values)
            free(jobs)
            if shared.taking != NULL:
                PyThread_free_lock(shared.taking)
            for a in range(na):
                self.deal(node, a, hero, hero_reach, opp_reach, scratch, scratch + self.width)
                self.gather(self.first_child[node] + a, hero, scratch, out)
            return
        shared.engine = <void*>self
        shared.node, shared.hero, shared.cards, shared.next = node, hero, na, 0
        shared.hero_reach, shared.opp_reach, shared.values = hero_reach, opp_reach, values
        if self.pool == NULL or self.pool_generation != fork_generation:
            self.stop_pool()
            self.start_pool(self.threads - 1)
        threads = min(threads, self.pool_size + 1)
        self.in_parallel = True
        for t in range(threads):
            jobs[t].deal = &shared
            jobs[t].arena = scratch if t == 0 else self.worker_arena[t - 1]
            jobs[t].done = NULL
            if t > 0:
                self.pool[t - 1].job = &jobs[t]
                PyThread_release_lock(self.pool[t - 1].start)
        run_job(&jobs[0])
        for t in range(1, threads):
            PyThread_acquire_lock(self.pool[t - 1].done, WAIT_LOCK)
        self.in_parallel = False
        PyThread_free_lock(shared.taking)
        for a in range(na):
            self.gather(self.first_child[node] + a, hero, values + <size_t>a * nh, out)
        free(values)
        free(jobs)

    cdef void walk(self, int node, int hero, const float* hero_reach, const float* opp_reach,
                   float* out, float* scratch) noexcept nogil:
        """out: the hero's counterfactual value of every combo at `node`; `scratch`: the arena's
        free room (a node takes its buffers from it and hands the rest to its children)."""
        cdef int m = self.width
        cdef int k = self.kind[node], opp = 1 - hero
        cdef int nh = self.n[hero], no = self.n[opp], na, a, i, child, c
        cdef float* strat
        cdef float* sub
        cdef float* reach
        cdef float* reach2
        cdef float v
        cdef bint free
        cdef const uint8_t* hc = self.cards[hero]
        cdef const uint8_t* oc = self.cards[opp]
        cdef float* regret
        cdef float* sums
        cdef float* share
        cdef float* rest
        cdef int folds, showdown
        if k == FOLD_NODE:
            v = self.stake[node]
            self.compatible(hero, opp_reach, -v if self.player[node] == hero else v, out)
        elif k == SHOWDOWN_NODE:
            self.sweep(self.board[node], hero, opp_reach, self.stake[node], out, NULL, scratch)
        elif k == CHANCE_NODE:
            na = self.n_children[node]
            memset(out, 0, nh * sizeof(float))
            if self.threads > 1 and not self.in_parallel:
                self.deal_in_parallel(node, hero, hero_reach, opp_reach, out, scratch)
            else:
                for a in range(na):
                    self.deal(node, a, hero, hero_reach, opp_reach, scratch, scratch + m)
                    self.gather(self.first_child[node] + a, hero, scratch, out)
            v = self.stake[node]            # the chance of each card for a pair of combos
            for i in range(nh):
                out[i] *= v
        elif self.player[node] == hero:
            na = self.n_children[node]
            strat, sub, reach = scratch, scratch + na * m, scratch + 2 * na * m
            free = not self.locked[node]
            if self.mode == MODE_CFR and free:
                self.current_strategy(node, hero, strat, reach)
            elif self.mode != MODE_BEST or not free:    # (a best response takes the best action)
                self.average_strategy(node, hero, strat, reach)
            # a fold and a showdown among the children see the same opposing reach: the fold's
            # values come out of the showdown's sweep
            folds = showdown = -1
            for a in range(na):
                c = self.kind[self.first_child[node] + a]
                if c == FOLD_NODE and folds < 0:
                    folds = a
                elif c == SHOWDOWN_NODE and showdown < 0:
                    showdown = a
            if folds >= 0 and showdown >= 0:
                child, i = self.first_child[node] + showdown, self.first_child[node] + folds
                self.sweep(self.board[child], hero, opp_reach, self.stake[child], sub + showdown * nh,
                           NULL, reach + m, sub + folds * nh,
                           -self.stake[i] if self.player[i] == hero else self.stake[i])
            else:
                folds = showdown = -1
            for a in range(na):
                if a == folds or a == showdown:
                    continue
                child = self.first_child[node] + a
                c = self.kind[child]
                if self.mode == MODE_CFR and c != FOLD_NODE and c != SHOWDOWN_NODE:
                    multiply(reach, hero_reach, strat + a * nh, nh)     # (a terminal needs none)
                    self.walk(child, hero, reach, opp_reach, sub + a * nh, reach + m)
                else:
                    self.walk(child, hero, hero_reach, opp_reach, sub + a * nh, reach + m)
            if self.mode == MODE_BEST and free:
                memcpy(out, sub, nh * sizeof(float))
                for a in range(1, na):
                    maximum(out, sub + a * nh, nh)
            else:
                memset(out, 0, nh * sizeof(float))
                for a in range(na):
                    add_product(out, strat + a * nh, sub + a * nh, nh)
            if self.mode == MODE_CFR and free and self.compressed:
                # decoded into the children's room, updated, encoded
                regret, sums = reach + m, reach + (na + 1) * m
                decode_signed(self.regret16 + self.offset[node], self.regret_scale[node], regret, na * nh)
                decode_unsigned(self.sum16 + self.offset[node], self.sum_scale[node], sums, na * nh)
                update(regret, sums, sub, out, strat, hero_reach, na, nh, self.pos_discount,
                       self.neg_discount, self.sum_discount)
                self.regret_scale[node] = encode_signed(regret, self.regret16 + self.offset[node], na * nh)
                self.sum_scale[node] = encode_unsigned(sums, self.sum16 + self.offset[node], na * nh)
            elif self.mode == MODE_CFR and free:
                update(self.regret + self.offset[node], self.strat_sum + self.offset[node], sub,
                       out, strat, hero_reach, na, nh, self.pos_discount, self.neg_discount,
                       self.sum_discount)
        else:
            na = self.n_children[node]
            strat, sub, reach = scratch, scratch + na * m, scratch + (na + 1) * m
            memset(out, 0, nh * sizeof(float))
            if self.mode == MODE_CFR and not self.locked[node]:
                # regret matching folded into the reach: each action's positive regrets times
                # the reach over their sum (`share`), or the uniform share where none is positive
                if self.compressed:
                    regret = strat
                    decode_signed(self.regret16 + self.offset[node], self.regret_scale[node], regret, na * no)
                else:
                    regret = self.regret + self.offset[node]
                share, rest = sub, reach
                matching_shares(regret, opp_reach, na, no, share, rest)
                sub, reach = reach + m, reach + 2 * m
                for a in range(na):
                    match_reach(reach, regret + a * no, share, rest, no)
                    self.walk(self.first_child[node] + a, hero, hero_reach, reach, sub, reach + m)
                    add(out, sub, nh)
                return
            self.average_strategy(node, opp, strat, reach)
            for a in range(na):
                multiply(reach, opp_reach, strat + a * no, no)
                self.walk(self.first_child[node] + a, hero, hero_reach, reach, sub, reach + m)
                add(out, sub, nh)
