/* Forced in front of every translation unit (gcc -include) by .ci/platforms/msvc-check.sh: build the
   generated C with gcc as if the compiler were not GNU (nor clang, nor MSVC) and the CPU not x86.
   `-U__GNUC__` on the command line alone breaks glibc's headers, and gcc still accepts its
   builtins with __GNUC__ gone. So: the system and Python headers are included first, with
   __GNUC__ still defined; then __GNUC__, __clang__ and the x86 macros are undefined for the code
   that follows (handrank's verbatim C and Cython's own checks), and the GCC builtins are poisoned:
   a use after this point is a hard error, while macros defined before (glibc's, Python's) still
   expand. Anything that still compiles has a working non-GNU, non-x86 fallback. */
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <limits.h>
#include <float.h>
#include <assert.h>
#undef __GNUC__
#undef __GNUC_MINOR__
#undef __GNUC_PATCHLEVEL__
#undef __clang__
#undef __x86_64__
#undef __x86_64
#undef __amd64__
#undef __i386__
#undef __SSE2__
#pragma GCC poison __builtin_popcount __builtin_popcountl __builtin_popcountll
#pragma GCC poison __builtin_ctz __builtin_ctzl __builtin_ctzll
#pragma GCC poison __builtin_clz __builtin_clzl __builtin_clzll
#pragma GCC poison __builtin_cpu_init __builtin_cpu_supports __builtin_cpu_is
#pragma GCC poison __builtin_bswap16 __builtin_bswap32 __builtin_bswap64
#pragma GCC poison __builtin_prefetch __builtin_assume_aligned __builtin_unreachable
