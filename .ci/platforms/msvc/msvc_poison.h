/* Forced in front of every translation unit (clang -include) by .ci/platforms/msvc-check.sh. clang in MSVC
   mode, like clang-cl, accepts GCC's builtins, which cl.exe does not have: poisoning them makes
   every use a hard error ("attempt to use a poisoned identifier") that cl.exe would turn into an
   unresolved external at link time. Only builtins are listed: MSVC mode already rejects most
   other GNU syntax, and unifdef-scan.py reports __attribute__, __asm__ and <cpuid.h>. */
#pragma GCC poison __builtin_popcount __builtin_popcountl __builtin_popcountll
#pragma GCC poison __builtin_ctz __builtin_ctzl __builtin_ctzll
#pragma GCC poison __builtin_clz __builtin_clzl __builtin_clzll
#pragma GCC poison __builtin_ffs __builtin_ffsl __builtin_ffsll __builtin_parity __builtin_parityll
#pragma GCC poison __builtin_cpu_init __builtin_cpu_supports __builtin_cpu_is
#pragma GCC poison __builtin_bswap16 __builtin_bswap32 __builtin_bswap64
#pragma GCC poison __builtin_prefetch __builtin_assume_aligned
/* not __builtin_unreachable: Cython's own `#elif __Pyx_has_cbuiltin(__builtin_unreachable)` names
   it behind __has_builtin, which cl.exe does not define (Cython supports MSVC) */
