/* Variants of the 5- and 7-card batch loops measured for issue 33 (docs/tables.md), compiled
   apart from the package: cur* is the loop before the issue, w* adds 8-byte row loads, h* the
   pre-hashed card keys (hr_card_hashes), hw* both (hw7 and hw8_5 are the loops kept), *nt* a
   non-temporal `saved` copy. Built and timed by run.sh. */
#include <stdint.h>
#include <string.h>
#include <stddef.h>
#include <emmintrin.h>
typedef ptrdiff_t Py_ssize_t;
#include "handrank_tables.h"
#define HR_SLOT(N, h) ((uint32_t)(((h) >> HR_HASH##N##_SLOT_SHIFT) \
    ^ hr_hash##N##_displacement[(h) >> HR_HASH##N##_BUCKET_SHIFT]) & HR_HASH##N##_SLOT_MASK)
static inline uint32_t hr_flush_ranks(uint64_t key, uint64_t mask) {
    if (key & 0x8) return mask & 0x1fff;
    if (key & 0x80) return (mask >> 16) & 0x1fff;
    if (key & 0x800) return (mask >> 32) & 0x1fff;
    return (mask >> 48) & 0x1fff;
}
static inline uint16_t hr_high_value(uint64_t key, uint64_t mask, int k) {
    if (key & HR_FLUSH_BITS) return hr_flush[hr_flush_ranks(key, mask)];
    if (k == 7) { uint64_t h = (key >> 32) * HR_HASH7_MUL; return hr_high7[HR_SLOT(7, h)]; }
    if (k == 6) { uint64_t h = (key >> 32) * HR_HASH6_MUL; return hr_high6[HR_SLOT(6, h)]; }
    uint64_t h = (key >> 32) * HR_HASH5_MUL; return hr_high5[HR_SLOT(5, h)];
}
typedef __m128i hr_sums;
#define HR_SUMS_START() _mm_set_epi64x(0, (long long)HR_SUIT_COUNTER_START)
#define HR_SUMS_ADD(s, card) _mm_add_epi64((s), _mm_load_si128((const __m128i*)(hr_card_sums + 2 * (card))))
/* byte j of a row word, as the byte offset of its entry in hr_card_sums */
#define HR_SUMS_ADDW(s, w, j) _mm_add_epi64((s), _mm_load_si128((const __m128i*)((const char*)hr_card_sums + \
        ((j) == 0 ? (((w) << 4) & 0xff0) : (((w) >> (8 * (j) - 4)) & 0xff0)))))
#define HR_SUMS_KEY(s) ((uint64_t)_mm_cvtsi128_si64(s))
#define HR_SUMS_BITS(s) ((uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64((s), (s))))
#ifdef MCA
#define MCA_BEGIN(N) __asm__ volatile("# LLVM-MCA-BEGIN " #N);
#define MCA_END(N) __asm__ volatile("# LLVM-MCA-END " #N);
#else
#define MCA_BEGIN(N)
#define MCA_END(N)
#endif
#define HR_INLINE __attribute__((always_inline)) inline

/* the loop before issue 33: byte loads, hr_card_sums (key >> 32, then the multiply) */
#define LOOP_CUR(NAME, K, ATTR, POPCOUNT) \
ATTR static HR_INLINE uint64_t NAME##_body(const uint8_t* __restrict c, Py_ssize_t n, \
        uint16_t* __restrict out, uint16_t* __restrict saved, const int SAVE) { \
    uint64_t bits_set = 0; Py_ssize_t i = 0; int j, h; \
    for (; i + 4 <= n; i += 4, c += 4 * K) { \
        MCA_BEGIN(NAME) hr_sums s[4]; \
        for (h = 0; h < 4; h++) s[h] = HR_SUMS_START(); \
        for (j = 0; j < K; j++) for (h = 0; h < 4; h++) s[h] = HR_SUMS_ADD(s[h], c[h * K + j]); \
        if (SAVE) memcpy(saved + i, out + i, 4 * sizeof(uint16_t)); \
        for (h = 0; h < 4; h++) { bits_set += POPCOUNT(HR_SUMS_BITS(s[h])); \
            out[i + h] = hr_high_value(HR_SUMS_KEY(s[h]), HR_SUMS_BITS(s[h]), K); } \
        MCA_END(NAME) } \
    for (; i < n; i++, c += K) { hr_sums s = HR_SUMS_START(); \
        for (j = 0; j < K; j++) s = HR_SUMS_ADD(s, c[j]); \
        bits_set += POPCOUNT(HR_SUMS_BITS(s)); if (SAVE) saved[i] = out[i]; \
        out[i] = hr_high_value(HR_SUMS_KEY(s), HR_SUMS_BITS(s), K); } \
    return bits_set != (uint64_t)n * K; } \
ATTR uint64_t NAME(const uint8_t* c, Py_ssize_t n, uint16_t* out, uint16_t* saved) { \
    return saved ? NAME##_body(c, n, out, saved, 1) : NAME##_body(c, n, out, saved, 0); }

/* word loads: one 8-byte load per row (the last row, which an 8-byte load would overrun, by bytes) */
#define LOOP_W(NAME, K, ATTR, POPCOUNT, NT) \
ATTR static HR_INLINE uint64_t NAME##_body(const uint8_t* __restrict c, Py_ssize_t n, \
        uint16_t* __restrict out, uint16_t* __restrict saved, const int SAVE) { \
    uint64_t bits_set = 0; Py_ssize_t i = 0; int j, h; \
    for (; i + 4 < n; i += 4, c += 4 * K) { \
        hr_sums s[4]; uint64_t w[4]; \
        for (h = 0; h < 4; h++) { memcpy(&w[h], c + h * K, 8); s[h] = HR_SUMS_START(); } \
        for (j = 0; j < K; j++) for (h = 0; h < 4; h++) s[h] = HR_SUMS_ADDW(s[h], w[h], j); \
        if (SAVE) { uint64_t o; memcpy(&o, out + i, 8); if (NT) _mm_stream_si64((long long*)(saved + i), (long long)o); else memcpy(saved + i, &o, 8); } \
        for (h = 0; h < 4; h++) { bits_set += POPCOUNT(HR_SUMS_BITS(s[h])); \
            out[i + h] = hr_high_value(HR_SUMS_KEY(s[h]), HR_SUMS_BITS(s[h]), K); } \
    } \
    for (; i < n; i++, c += K) { hr_sums s = HR_SUMS_START(); \
        for (j = 0; j < K; j++) s = HR_SUMS_ADD(s, c[j]); \
        bits_set += POPCOUNT(HR_SUMS_BITS(s)); if (SAVE) saved[i] = out[i]; \
        out[i] = hr_high_value(HR_SUMS_KEY(s), HR_SUMS_BITS(s), K); } \
    return bits_set != (uint64_t)n * K; } \
ATTR uint64_t NAME(const uint8_t* c, Py_ssize_t n, uint16_t* out, uint16_t* saved) { \
    return saved ? NAME##_body(c, n, out, saved, 1) : NAME##_body(c, n, out, saved, 0); }

#define POPC __attribute__((target("popcnt")))
LOOP_CUR(cur7, 7, POPC, __builtin_popcountll)
LOOP_CUR(cur5, 5, POPC, __builtin_popcountll)
LOOP_W(w7, 7, POPC, __builtin_popcountll, 0)
LOOP_W(w5, 5, POPC, __builtin_popcountll, 0)
LOOP_W(wnt7, 7, POPC, __builtin_popcountll, 1)
LOOP_W(wnt5, 5, POPC, __builtin_popcountll, 1)

/* hashed card table: the key word is rank_sum * C + suit counters */
static inline uint16_t hr_high_h(uint64_t key, uint64_t mask, int k) {
    if (key & HR_FLUSH_BITS) return hr_flush[hr_flush_ranks(key, mask)];
    if (k == 7) return hr_high7[HR_SLOT(7, key)];
    if (k == 6) return hr_high6[HR_SLOT(6, key)];
    return hr_high5[HR_SLOT(5, key)];
}
#define HH_ADD(s, card) _mm_add_epi64((s), _mm_load_si128((const __m128i*)(hr_card_hashes + 2 * (card))))
#define HH_ADDW(s, w, j) _mm_add_epi64((s), _mm_load_si128((const __m128i*)((const char*)hr_card_hashes + \
        ((j) == 0 ? (((w) << 4) & 0xff0) : (((w) >> (8 * (j) - 4)) & 0xff0)))))
#define LOOP_H(NAME, K, ATTR, POPCOUNT, WORD, H) \
ATTR static HR_INLINE uint64_t NAME##_body(const uint8_t* __restrict c, Py_ssize_t n, \
        uint16_t* __restrict out, uint16_t* __restrict saved, const int SAVE) { \
    uint64_t bits_set = 0; Py_ssize_t i = 0; int j, h; \
    for (; i + H < n; i += H, c += H * K) { \
        MCA_BEGIN(NAME) hr_sums s[H]; \
        if (WORD) { uint64_t w[H]; \
            for (h = 0; h < H; h++) { memcpy(&w[h], c + h * K, 8); s[h] = HR_SUMS_START(); } \
            for (j = 0; j < K; j++) for (h = 0; h < H; h++) s[h] = HH_ADDW(s[h], w[h], j); \
        } else { \
            for (h = 0; h < H; h++) s[h] = HR_SUMS_START(); \
            for (j = 0; j < K; j++) for (h = 0; h < H; h++) s[h] = HH_ADD(s[h], c[h * K + j]); \
        } \
        if (SAVE) memcpy(saved + i, out + i, H * sizeof(uint16_t)); \
        for (h = 0; h < H; h++) { bits_set += POPCOUNT(HR_SUMS_BITS(s[h])); \
            out[i + h] = hr_high_h(HR_SUMS_KEY(s[h]), HR_SUMS_BITS(s[h]), K); } \
        MCA_END(NAME) } \
    for (; i < n; i++, c += K) { hr_sums s = HR_SUMS_START(); \
        for (j = 0; j < K; j++) s = HH_ADD(s, c[j]); \
        bits_set += POPCOUNT(HR_SUMS_BITS(s)); if (SAVE) saved[i] = out[i]; \
        out[i] = hr_high_h(HR_SUMS_KEY(s), HR_SUMS_BITS(s), K); } \
    return bits_set != (uint64_t)n * K; } \
ATTR uint64_t NAME(const uint8_t* c, Py_ssize_t n, uint16_t* out, uint16_t* saved) { \
    return saved ? NAME##_body(c, n, out, saved, 1) : NAME##_body(c, n, out, saved, 0); }
LOOP_H(h7, 7, POPC, __builtin_popcountll, 0, 4)
LOOP_H(h5, 5, POPC, __builtin_popcountll, 0, 4)
LOOP_H(hw7, 7, POPC, __builtin_popcountll, 1, 4)
LOOP_H(hw5, 5, POPC, __builtin_popcountll, 1, 4)
LOOP_H(hw8_7, 7, POPC, __builtin_popcountll, 1, 8)
LOOP_H(hw8_5, 5, POPC, __builtin_popcountll, 1, 8)
