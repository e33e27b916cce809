"""Syntax-check Cython's generated C for every handrank extension the way a Windows x64 build sees
it, without Microsoft's headers: Debian's clang in MSVC mode (--target=x86_64-pc-windows-msvc,
which defines _MSC_VER, _WIN32, _WIN64, _M_X64 and not __GNUC__; -U__clang__ on top, so that
Python's and Cython's headers take their cl.exe branches), MinGW-w64's C headers (a copy with two
GNU-only lines of _mingw.h neutralised, see --mingw), CPython's own headers with PC/pyconfig.h
(the Windows one), msvc_poison.h forced in front so that the GCC builtins clang would
otherwise accept are errors, and msvc_intrinsics.h for the MSVC intrinsics those headers lack. Each diagnostic is mapped back to the .pyx line
(Cython's `/* "file.pyx":N` comments) where the C came from Cython code.

usage: python clang_msvc_check.py --generated DIR --winpy DIR [--clang clang-16] FILE.c...
Exit status 1 when any file has an error.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<kind>error|warning): (?P<msg>.*)$")
PYX_LINE = re.compile(r'/\* "([^"]+\.p(?:yx|xd))":(\d+)')


def pyx_origin(path, line_no, cache={}):
    if path not in cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                cache[path] = f.read().splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    for i in range(min(line_no, len(lines)) - 1, -1, -1):
        m = PYX_LINE.search(lines[i])
        if m:
            return f"{m.group(1)}:{m.group(2)}"
    return "verbatim C or Cython boilerplate"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--generated", required=True, help="tools/gen_tables.py's output dir")
    parser.add_argument("--winpy", required=True, help="CPython Include/ + PC/pyconfig.h")
    parser.add_argument("--clang", default="clang-16")
    # Debian's /usr/share/mingw-w64/include, copied and patched by .ci/platforms/msvc-check.sh: in MSVC mode
    # _mingw.h puts __declspec(noreturn) etc. after declarators (a syntax error) and defines
    # __attribute__ away (which breaks clang's own intrinsic headers)
    parser.add_argument("--mingw", default=os.path.join(os.environ.get("WORK", "."), "mingw-msvc"))
    parser.add_argument("--extra", action="append", default=[], help="one more clang flag")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    flags = [
        "--target=x86_64-pc-windows-msvc", "-fms-compatibility", "-fms-extensions",
        "-fms-compatibility-version=19.38", "-fsyntax-only", "-std=c11", "-U__clang__",
        "-D_PID_T_",        # PC/pyconfig.h typedefs pid_t itself; MinGW's sys/types.h would too
        "-include", os.path.join(HERE, "msvc_poison.h"), "-include", os.path.join(HERE, "msvc_intrinsics.h"),
        "-I", args.generated, "-I", args.winpy, "-isystem", args.mingw,
        "-DNDEBUG", "-Werror=vla", "-Werror=implicit-function-declaration",
        "-Werror=gnu-statement-expression", "-Wno-pragma-pack", "-Wno-ignored-attributes",
        "-Wno-unused-function", "-Wno-unknown-pragmas", "-ferror-limit=50", *args.extra,
    ]
    failed = 0
    for path in args.files:
        done = subprocess.run([args.clang, *flags, path], capture_output=True, text=True)
        errors, warnings = [], []
        for line in done.stderr.splitlines():
            m = DIAG.match(line)
            if not m:
                continue
            origin = pyx_origin(m["file"], int(m["line"])) if m["file"].endswith(".c") else m["file"]
            entry = f"  {m['kind']}: {os.path.basename(m['file'])}:{m['line']} [{origin}] {m['msg']}"
            (errors if m["kind"] == "error" else warnings).append(entry)
        status = "FAIL" if done.returncode else "ok"
        print(f"{status:4} {os.path.basename(path)} ({len(errors)} errors, {len(warnings)} warnings)")
        for entry in errors + sorted(set(warnings)):
            print(entry)
        failed += bool(done.returncode)
    print(f"{failed} of {len(args.files)} files fail the MSVC-mode syntax check")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
