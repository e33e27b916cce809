# A seeded random stream for compiled loops: xoshiro256** (Blackman and Vigna) seeded by
# splitmix64 from (seed, stream), so that every unit of work (a hand, a thread) owns a stream and
# the results never depend on how the work was split. Integers below n are exact (Lemire's multiply,
# with the rare biased draws redrawn); each 64-bit draw serves two 32-bit ones.
# handrank.equity draws from the same xoshiro_next / splitmix_seed with its own bounded draws.
from libc.stdint cimport uint32_t, uint64_t

ctypedef struct random_t:
    uint64_t s[4]
    uint64_t word      # the half of the last draw not used yet
    bint half


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline void splitmix_seed(uint64_t* s, uint64_t seed, uint64_t stream) noexcept nogil:
    """Four words of xoshiro state by splitmix64 from seed ^ stream * (an odd constant)."""
    cdef uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ULL), z
    cdef int i
    for i in range(4):
        x += 0x9E3779B97F4A7C15ULL
        z = x
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
        s[i] = z ^ (z >> 31)


cdef inline uint64_t xoshiro_next(uint64_t* s) noexcept nogil:
    cdef uint64_t result = _rotl(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


cdef inline void seed_random(random_t* r, uint64_t seed, uint64_t stream) noexcept nogil:
    splitmix_seed(r.s, seed, stream)
    r.half = False


cdef inline uint64_t next_random(random_t* r) noexcept nogil:
    return xoshiro_next(r.s)


cdef inline uint32_t next32(random_t* r) noexcept nogil:
    if r.half:
        r.half = False
        return <uint32_t>(r.word >> 32)
    r.word = next_random(r)
    r.half = True
    return <uint32_t>r.word


cdef inline uint32_t below(random_t* r, uint32_t n) noexcept nogil:
    """A uniform integer in 0..n-1 (n >= 1)."""
    cdef uint64_t m = <uint64_t>next32(r) * n
    cdef uint32_t threshold
    if <uint32_t>m < n:
        threshold = (<uint32_t>(-n)) % n
        while <uint32_t>m < threshold:
            m = <uint64_t>next32(r) * n
    return <uint32_t>(m >> 32)
