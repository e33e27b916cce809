/* handrank's portable bit helpers: the one place where the kernels meet compiler builtins,
   intrinsics and CPU feature checks. Each helper has a GNU version (gcc, clang), an MSVC version
   (cl.exe, clang-cl) and a plain-C one that any C99 compiler builds.

   HANDRANK_PORTABLE (setup.py defines it when HANDRANK_PORTABLE=1 at build time) forces the
   plain-C versions everywhere: no builtins, no intrinsics, no SSE2 loads, no CPU dispatch. That
   is the code an unknown compiler runs, so CI builds and tests it on every run
   (CI builds its wheel that way: .ci/run); docs/installation.md has the build modes.

   The baseline helpers (hr_popcount*, hr_ctz*, hr_highest_bit*) run on every CPU of the
   architecture. The instructions behind a CPU check (hr_*_hw, HR_TARGET_POPCNT) may be used only
   by code that import chose after that check passed. */
#ifndef HANDRANK_BITS_H
#define HANDRANK_BITS_H

#include <stdint.h>

#if defined(HANDRANK_PORTABLE)
#define HR_BITS_MODE "portable"
#elif defined(_MSC_VER)
#define HR_BITS_MSVC 1
#define HR_BITS_MODE "msvc"
#include <intrin.h>
#elif defined(__GNUC__)
#define HR_BITS_GNU 1
#define HR_BITS_MODE "gnu"
#else
#define HR_BITS_MODE "portable"
#endif

/* x86-64, whose SSE2 baseline the batch loops use for their 128-bit sums */
#if !defined(HANDRANK_PORTABLE) && (defined(__x86_64__) || defined(_M_X64))
#define HR_X86_64 1
#else
#define HR_X86_64 0
#endif

#if defined(_MSC_VER)
#define HR_FORCE_INLINE __forceinline
#elif defined(__GNUC__)
#define HR_FORCE_INLINE __attribute__((always_inline)) inline
#else
#define HR_FORCE_INLINE inline
#endif

/* ------------------------------------------------------------------ plain C, every compiler */

static inline int hr_popcount64_c(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

static inline int hr_popcount32_c(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (int)((x * 0x01010101u) >> 24);
}

/* x != 0: the lowest set bit, isolated, times a de Bruijn sequence puts a distinct 6-bit
   pattern in the top bits */
static inline int hr_ctz64_c(uint64_t x) {
    static const uint8_t place[64] = {
        0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
        62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
        63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
        46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6};
    return place[((x & (0 - x)) * 0x03f79d71b4cb0a89ULL) >> 58];
}

/* x != 0: halving steps */
static inline int hr_highest_bit64_c(uint64_t x) {
    int n = 0;
    if (x >> 32) { n += 32; x >>= 32; }
    if (x >> 16) { n += 16; x >>= 16; }
    if (x >> 8) { n += 8; x >>= 8; }
    if (x >> 4) { n += 4; x >>= 4; }
    if (x >> 2) { n += 2; x >>= 2; }
    return n + (int)(x >> 1);
}

/* ------------------------------------------------------------------ baseline helpers */

/* The number of set bits. On x86-64 the popcnt instruction is not baseline: gcc and clang turn
   the builtin into a library call there, slower than the inline steps, and MSVC's __popcnt64
   needs the instruction. */
#if defined(HR_BITS_GNU) && (defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__)))
#define hr_popcount64(x) __builtin_popcountll(x)
#define hr_popcount32(x) __builtin_popcount(x)
#else
#define hr_popcount64(x) hr_popcount64_c(x)
#define hr_popcount32(x) hr_popcount32_c(x)
#endif

/* The place of the lowest set bit (x != 0) and of the highest (x != 0): bsf/bsr, tzcnt/lzcnt or
   rbit/clz, all baseline. */
#if defined(HR_BITS_GNU)
static inline int hr_ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int hr_ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline int hr_highest_bit64(uint64_t x) { return 63 - __builtin_clzll(x); }
static inline int hr_highest_bit32(uint32_t x) { return 31 - __builtin_clz(x); }
#elif defined(HR_BITS_MSVC) && (defined(_M_X64) || defined(_M_ARM64))
static inline int hr_ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
static inline int hr_ctz32(uint32_t x) { unsigned long i; _BitScanForward(&i, x); return (int)i; }
static inline int hr_highest_bit64(uint64_t x) { unsigned long i; _BitScanReverse64(&i, x); return (int)i; }
static inline int hr_highest_bit32(uint32_t x) { unsigned long i; _BitScanReverse(&i, x); return (int)i; }
#else
#define hr_ctz64(x) hr_ctz64_c(x)
#define hr_ctz32(x) hr_ctz64_c((uint32_t)(x))
#define hr_highest_bit64(x) hr_highest_bit64_c(x)
#define hr_highest_bit32(x) hr_highest_bit64_c((uint32_t)(x))
#endif

/* ------------------------------------------------------------------ CPU checks and dispatch */

#if HR_X86_64 && defined(HR_BITS_GNU)
#include <cpuid.h>
#endif

/* cpuid leaf `leaf`, subleaf 0, into r = {eax, ebx, ecx, edx}; 0 where the CPU has no such leaf
   or the build no cpuid */
static inline int hr_cpuid(uint32_t leaf, uint32_t r[4]) {
#if HR_X86_64 && defined(HR_BITS_GNU)
    unsigned int a, b, c, d;
    if (__get_cpuid_max(leaf & 0x80000000u, 0) < leaf) return 0;
    __cpuid_count(leaf, 0, a, b, c, d);
    r[0] = a; r[1] = b; r[2] = c; r[3] = d;
    return 1;
#elif HR_X86_64 && defined(HR_BITS_MSVC)
    int v[4];
    __cpuid(v, (int)(leaf & 0x80000000u));
    if ((uint32_t)v[0] < leaf) return 0;
    __cpuidex(v, (int)leaf, 0);
    r[0] = (uint32_t)v[0]; r[1] = (uint32_t)v[1]; r[2] = (uint32_t)v[2]; r[3] = (uint32_t)v[3];
    return 1;
#else
    (void)leaf; (void)r;
    return 0;
#endif
}

static inline int hr_cpu_has_popcnt(void) {
    uint32_t r[4];
    return hr_cpuid(1, r) && ((r[2] >> 23) & 1);
}

/* bmi2 (pext, pdep) and popcnt, with pext not microcoded: "AuthenticAMD" and "HygonGenuine"
   before family 0x19 (Zen 3) run it in microcode, slower than tables */
static inline int hr_cpu_has_fast_pext(void) {
    uint32_t r[4];
    uint32_t family;
    if (!hr_cpu_has_popcnt() || !hr_cpuid(7, r) || !((r[1] >> 8) & 1)) return 0;
    if (!hr_cpuid(0, r)) return 0;
    if (r[1] == 0x68747541u || r[1] == 0x6f677948u) {
        if (!hr_cpuid(1, r)) return 0;
        family = (r[0] >> 8) & 15;
        if (family == 15) family += (r[0] >> 20) & 255;
        return family >= 0x19;
    }
    return 1;
}

/* HR_HAVE_POPCNT: functions marked HR_TARGET_POPCNT may use hr_popcount64_popcnt (the popcnt
   instruction, scheduled by the compiler), and any function hr_popcnt64_hw (the instruction as
   such); both only after hr_cpu_has_popcnt(). HR_HAVE_PEXT: hr_pext32_hw and hr_pdep32_hw, only
   after hr_cpu_has_fast_pext(). Inline assembly in the GNU versions needs no target attribute;
   cl.exe takes every intrinsic without a flag (clang-cl does not take BMI2's: tables there). */
#if HR_X86_64 && defined(HR_BITS_GNU)
#define HR_HAVE_POPCNT 1
#define HR_HAVE_PEXT 1
#define HR_TARGET_POPCNT __attribute__((target("popcnt")))
#define hr_popcount64_popcnt(x) __builtin_popcountll(x)
static inline uint64_t hr_popcnt64_hw(uint64_t x) {
    uint64_t r;
    __asm__("popcntq %1, %0" : "=r"(r) : "r"(x) : "cc");
    return r;
}
static inline uint32_t hr_pext32_hw(uint32_t bits, uint32_t mask) {
    uint32_t r;
    __asm__("pextl %2, %1, %0" : "=r"(r) : "r"(bits), "r"(mask));
    return r;
}
static inline uint32_t hr_pdep32_hw(uint32_t bits, uint32_t mask) {
    uint32_t r;
    __asm__("pdepl %2, %1, %0" : "=r"(r) : "r"(bits), "r"(mask));
    return r;
}
#elif HR_X86_64 && defined(HR_BITS_MSVC)
#define HR_HAVE_POPCNT 1
#define HR_TARGET_POPCNT
#define hr_popcount64_popcnt(x) ((int)__popcnt64(x))
#define hr_popcnt64_hw(x) ((uint64_t)__popcnt64(x))
#if defined(__clang__)
#define HR_HAVE_PEXT 0
#else
#include <immintrin.h>
#define HR_HAVE_PEXT 1
#define hr_pext32_hw(bits, mask) ((uint32_t)_pext_u32((bits), (mask)))
#define hr_pdep32_hw(bits, mask) ((uint32_t)_pdep_u32((bits), (mask)))
#endif
#else
#define HR_HAVE_POPCNT 0
#define HR_HAVE_PEXT 0
#endif

#endif /* HANDRANK_BITS_H */
