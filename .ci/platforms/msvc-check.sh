#!/usr/bin/env bash
# Every extension's generated C checked the way a Windows (MSVC) build sees it, without
# Microsoft's compiler; fails on any finding. Three independent checks:
#   1. unifdef scan: the #if blocks resolved as MSVC x64 resolves them, then a search for GNU-only
#      names (__builtin_*, __attribute__, __asm__, <cpuid.h>) in what is left
#   2. clang in MSVC mode (--target=x86_64-pc-windows-msvc, -U__clang__) against Windows CPython
#      headers (Include/ + PC/pyconfig.h from Debian's python3.11 source) and MinGW-w64's C
#      headers, GCC builtins poisoned (msvc/msvc_poison.h)
#   3. gcc with __GNUC__, __clang__ and the x86 macros undefined after the system headers,
#      builtins poisoned (msvc/generic_prelude.h): the plain-C paths of a non-GNU, non-x86 build
# plus a canary proving that check 2 rejects an unguarded builtin. Before src/handrank/_bits.h,
# all three found bigtwo/_vector.pyx's __builtin_popcountll and __builtin_ctzll.
# Needs: Debian (apt-get, deb-src reachable), PyPI. Measured: ~4 min on 2 cores (docs/installation.md).
. "$(dirname "$0")/common.sh"
apt_need clang-16 mingw-w64-x86-64-dev unifdef gcc libc6-dev
host_venv 'Cython>=3.0' 'setuptools>=77'
source_tree
OUT=$SCRATCH/out
mkdir -p "$OUT"

# Windows-side CPython headers: Include/ plus PC/pyconfig.h from Debian's python3.11 source
list=/etc/apt/sources.list.d/handrank-deb-src.sources
printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' > "$list"
apt-get update -q > /dev/null
(cd "$SCRATCH" && apt-get source -q --download-only python3.11 > /dev/null)
rm -f "$list"; apt-get update -q > /dev/null
(cd "$SCRATCH" && tar xzf python3.11_*.orig.tar.gz --wildcards '*/PC/pyconfig.h' '*/Include/*')
winpy=$SCRATCH/winpy
mkdir -p "$winpy"
cp -r "$SCRATCH"/Python-3.11.*/Include/. "$winpy/"
cp "$SCRATCH"/Python-3.11.*/PC/pyconfig.h "$winpy/pyconfig.h"
# MinGW-w64's headers made usable by clang in MSVC mode: _mingw.h's MSVC branches that put
# __declspec(...) after a declarator become empty, and its `#define __attribute__(x)` (which
# breaks clang's own intrinsic headers) is dropped;
mingw=$SCRATCH/mingw-msvc
cp -r /usr/share/mingw-w64/include "$mingw"
sed -i -E -e 's/__MINGW_MSC_PREREQ *\( *[0-9]+ *, *[0-9]+ *\)/0/g' \
    -e 's|^# define __attribute__\(x\) /\* nothing \*/|/* dropped */|' "$mingw/_mingw.h"
# and its float.h, which defines the limits (DBL_MAX...) only for a compiler that says it is gcc or
# clang (-U__clang__ hides that), hands over to clang's own float.h, as MSVC's float.h would define them
sed -i 's/|| (defined(__clang__) \&\& defined(__clang_major__))/|| defined(__clang_major__)/' "$mingw/float.h"
grep -q '|| defined(__clang_major__)$' "$mingw/float.h"

# the generated tables and C, as setup.py makes them
cd "$SRC"
"$PY" tools/gen_tables.py "$OUT/generated" > /dev/null
"$PY" - "$OUT/cython" <<'PYEOF'
import glob, os, sys
from setuptools import Extension
from Cython.Build import cythonize
exts = []
for source in sorted(glob.glob("src/handrank/**/*.pyx", recursive=True)):   # as setup.py
    name = os.path.splitext(os.path.relpath(source, "src"))[0].replace(os.sep, ".")
    exts.append(Extension(name, [source]))
cythonize(exts, compiler_directives={"language_level": 3}, build_dir=sys.argv[1], quiet=True)
PYEOF
mapfile -t cfiles < <(find "$OUT/cython" -name '*.c' | sort)
echo "${#cfiles[@]} generated C files"
rc=0

echo "== 1. unifdef scan under MSVC's conditionals, then a generic C compiler's (with src/handrank/_bits.h)"
for target in msvc generic; do
    "$PY" "$HERE/msvc/unifdef_scan.py" --target "$target" "${cfiles[@]}" src/handrank/*.h | tail -30 || rc=1
done

echo "== 2. clang in MSVC mode, GNU builtins poisoned"
check=("$PY" "$HERE/msvc/clang_msvc_check.py" --generated "$OUT/generated" --winpy "$winpy"
       --mingw "$mingw" --extra="-I$SRC/src/handrank")
"${check[@]}" "${cfiles[@]}" | grep -v '^ok ' || rc=1

echo "== 3. gcc as a non-GNU compiler on a non-x86 CPU, builtins poisoned"
inc=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
fail=0
for c in "${cfiles[@]}"; do
    if ! gcc -fsyntax-only -Werror=implicit-function-declaration -include "$HERE/msvc/generic_prelude.h" \
            -I "$OUT/generated" -I "$SRC/src/handrank" -I "$inc" "$c" 2> "$OUT/generic.err"; then
        fail=$((fail + 1)); echo "FAIL $(basename "$c")"; grep error "$OUT/generic.err" | head -8
    fi
done
echo "$fail of ${#cfiles[@]} files fail as non-GNU C on a non-x86 CPU"
[ "$fail" = 0 ] || rc=1

echo "== canary: check 2 must reject an unguarded builtin"
printf '#include <Python.h>\nint g(unsigned long long x) { return __builtin_popcountll(x); }\n' > "$OUT/canary.c"
if "${check[@]}" "$OUT/canary.c" > /dev/null; then echo "the MSVC-mode check accepted a GNU builtin"; rc=1; fi
[ "$rc" = 0 ] && echo "MSVC-mode checks: nothing found"
exit "$rc"
