# The portable bit helpers of _bits.h (popcount, lowest and highest set bit, CPU checks) for
# Cython code; C blocks (`cdef extern from *`) include the header themselves. setup.py puts
# src/handrank on every extension's include path.
from libc.stdint cimport uint32_t, uint64_t

cdef extern from "_bits.h" nogil:
    const char* HR_BITS_MODE        # "gnu", "msvc" or "portable" (plain C)
    int hr_popcount32(uint32_t x)
    int hr_popcount64(uint64_t x)
    int hr_ctz32(uint32_t x)                # x != 0
    int hr_ctz64(uint64_t x)                # x != 0
    int hr_highest_bit32(uint32_t x)        # x != 0
    int hr_highest_bit64(uint64_t x)        # x != 0
    int hr_cpu_has_popcnt()
    int hr_cpu_has_fast_pext()
