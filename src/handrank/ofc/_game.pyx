# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled help for ofc.Game: a turn played by action id, and the deck that ``np.random.default_rng(seed).permutation(52)`` deals
for an int seed, bit for bit, without building a numpy Generator (which costs more than the rest
of a hand played by action ids).

numpy's steps, reproduced exactly: SeedSequence's hash of the seed's 32-bit words into a pool of
4 words and the 4 64-bit words it generates from it; PCG64 (the 128-bit XSL-RR generator) seeded
with state and increment from those words; ``Generator.shuffle``'s Fisher-Yates, each index drawn
by masked rejection from 32-bit halves of 64-bit draws (the low half first).
"""
from libc.stdint cimport uint32_t, uint64_t

from handrank.ofc.partial import PartialBoard
from handrank.ofc.placement import Placement

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


def seeded_deck(uint64_t seed):
    """The 52 card ids of ``np.random.default_rng(seed).permutation(52)``, as a list."""
    cdef pcg64_t g
    cdef int deck[52]
    cdef int i, j, card
    for i in range(52):
        deck[i] = i
    seed_pcg64(&g, seed)
    for i in range(51, 0, -1):
        j = interval(&g, <uint32_t>i)
        card = deck[i]
        deck[i] = deck[j]
        deck[j] = card
    return [deck[i] for i in range(52)]


def play_action(int action, tuple dealt, board, int discards):
    """The `Placement` that `action` (0..1023) makes of the `dealt` cards (ascending, so each
    part is) on `board` (a `PartialBoard`) and the board it leaves, or None when the action is
    not legal: a digit beyond the dealt cards, a row over its free slots, or not exactly
    `discards` discarded (ofc.actions.legal's rule). One call for what took a mask, a loop and
    two objects' constructors in Python."""
    cdef int n = len(dealt), i
    cdef int counts[4]
    cdef tuple top = board.top, middle = board.middle, bottom = board.bottom
    if action >> (2 * n):
        return None
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    for i in range(n):
        counts[(action >> (2 * i)) & 3] += 1
    if (counts[0] > 3 - len(top) or counts[1] > 5 - len(middle) or counts[2] > 5 - len(bottom)
            or counts[3] != discards):
        return None
    parts = ([], [], [], [])
    for i in range(n):
        (<list>parts[(action >> (2 * i)) & 3]).append(dealt[i])
    placement = object.__new__(Placement)
    placement.__dict__.update(top=tuple(parts[0]), middle=tuple(parts[1]), bottom=tuple(parts[2]),
                              discards=tuple(parts[3]))
    after = object.__new__(PartialBoard)
    after.__dict__.update(top=top + placement.top, middle=middle + placement.middle,
                          bottom=bottom + placement.bottom)
    return placement, after
