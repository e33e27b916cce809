"""Which GNU-only constructs survive in Cython's generated C when the preprocessor conditionals are
resolved the way MSVC on x64 resolves them? No compiler and no headers needed: `unifdef` keeps or
drops each #if/#ifdef block given the macros below (blocks on macros it is not told about are kept
as they are), then every surviving line is searched for GNU-only names. Each hit is mapped back
to its .pyx line through Cython's `/* "file.pyx":N` comments where the C came from Cython code,
or shown as verbatim C (a `cdef extern from *` block) otherwise.

usage: python unifdef_scan.py [--target msvc|generic] FILE.c...
  msvc:    _MSC_VER, _WIN32, _WIN64, _M_X64 defined; __GNUC__, __clang__, __x86_64__ undefined
  generic: a C99 compiler that is neither GCC, clang nor MSVC, on a CPU that is not x86
Exit status 1 when anything was found.
"""
import argparse
import re
import subprocess
import sys

# What src/handrank/_bits.h derives from the macros above (unifdef does not follow a #define), so
# that its own conditionals resolve too
BITS_MSVC = ["-UHANDRANK_PORTABLE", "-DHR_BITS_MSVC=1", "-UHR_BITS_GNU", "-DHR_X86_64=1"]
BITS_GENERIC = ["-UHANDRANK_PORTABLE", "-UHR_BITS_MSVC", "-UHR_BITS_GNU", "-DHR_X86_64=0"]
TARGETS = {
    "msvc": ["-D_MSC_VER=1938", "-D_WIN32=1", "-D_WIN64=1", "-D_M_X64=100", "-D_M_AMD64=100",
             "-U__GNUC__", "-U__clang__", "-U__x86_64__", "-U__i386__", "-U__aarch64__",
             "-U__APPLE__", "-U__linux__", "-U__unix__", "-U__INTEL_COMPILER", "-U__MINGW32__",
             "-U__CYGWIN__", "-UPYPY_VERSION", "-UHR_MCA_MARKERS", "-U__BYTE_ORDER__",
             "-U__GNUC_MINOR__", "-U__STRICT_ANSI__", *BITS_MSVC],
    "generic": ["-U_MSC_VER", "-U__GNUC__", "-U__clang__", "-U__x86_64__", "-U_M_X64",
                "-U__i386__", "-U__INTEL_COMPILER", "-U__MINGW32__", "-UPYPY_VERSION",
                "-UHR_MCA_MARKERS", "-U__GNUC_MINOR__", *BITS_GENERIC],
}
GNU_ONLY = re.compile(r"\b(__builtin_\w+|__attribute__|__asm__|asm\s+volatile|__typeof__|"
                      r"__int128|__extension__)\b|#\s*include\s*<(cpuid|x86intrin|x86gprintrin)\.h>")
# Cython's own portability macros: guarded by __has_attribute / __has_builtin tests that unifdef
# cannot evaluate and that cl.exe does not pass (Cython supports MSVC); not handrank's code
CYTHON_BOILERPLATE = re.compile(r"^\s*#\s*(define|elif|if)\b.*\b(CYTHON_\w+|__Pyx_\w+)")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
PYX_LINE = re.compile(r'/\* "([^"]+\.p(?:yx|xd))":(\d+)')


def scan(path, target):
    done = subprocess.run(["unifdef", "-x2", *TARGETS[target], path], capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"unifdef failed on {path}: {done.stderr.strip()}")
    hits = []
    where = None
    text = done.stdout
    # comments out (Cython echoes the .pyx source in them), line numbers kept
    code_lines = COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text).splitlines()
    for number, (line, code) in enumerate(zip(text.splitlines(), code_lines), 1):
        m = PYX_LINE.search(line)
        if m:
            where = f"{m.group(1)}:{m.group(2)}"
        if CYTHON_BOILERPLATE.search(code):
            continue
        for hit in GNU_ONLY.finditer(code):
            hits.append((number, where or "verbatim C / Cython boilerplate", hit.group(0), line.strip()))
    return hits


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", choices=sorted(TARGETS), default="msvc")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    found = 0
    for path in args.files:
        for number, where, name, line in scan(path, args.target):
            found += 1
            print(f"{path}:{number}: [{where}] {name}: {line[:110]}")
    print(f"{found} GNU-only construct(s) left under the {args.target} conditionals "
          f"in {len(args.files)} file(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
