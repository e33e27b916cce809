"""src/handrank/_bits.h, the portable bit helpers: each helper in each of its versions (GNU, and the
plain C that HANDRANK_PORTABLE=1 and unknown compilers build) against Python's integers, compiled
here with the C compiler; and a HANDRANK_PORTABLE=1 build's kernels on their plain-C paths."""
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HEADER = Path(__file__).resolve().parents[1] / "src" / "handrank" / "_bits.h"
COMPILER = next((c for c in (os.environ.get("CC"), "cc", "gcc", "clang") if c and shutil.which(c)), None)

PROGRAM = r"""
#include <stdio.h>
#include "_bits.h"
int main(void) {
    unsigned long long x;
    printf("%s %d %d\n", HR_BITS_MODE, HR_HAVE_POPCNT, hr_cpu_has_popcnt());
    while (scanf("%llu", &x) == 1) {
        uint32_t low = (uint32_t)x;
        printf("%d %d", hr_popcount64(x), hr_popcount32(low));
        if (x) printf(" %d %d", hr_ctz64(x), hr_highest_bit64(x));
        if (low) printf(" %d %d", hr_ctz32(low), hr_highest_bit32(low));
        printf("\n");
    }
    return 0;
}
"""


def _values():
    rng = random.Random(38)
    single = [1 << i for i in range(64)]
    edges = [0, 2**32 - 1, 2**32, 2**64 - 1, 0x8000000000000001, 0xFFFFFFFF00000000]
    return single + [v - 1 for v in single[1:]] + edges + [rng.getrandbits(64) for _ in range(2000)]


def _expected(x):
    low = x & 0xFFFFFFFF
    row = [bin(x).count("1"), bin(low).count("1")]
    if x:
        row += [(x & -x).bit_length() - 1, x.bit_length() - 1]
    if low:
        row += [(low & -low).bit_length() - 1, low.bit_length() - 1]
    return row


@pytest.mark.skipif(COMPILER is None or not HEADER.exists(), reason="needs a C compiler and the source tree")
@pytest.mark.parametrize("defines, mode", [([], "gnu"), (["-DHANDRANK_PORTABLE=1"], "portable"),
                                           (["-DHANDRANK_PORTABLE=1", "-O0"], "portable")])
def test_every_helper_against_python(tmp_path, defines, mode):
    (tmp_path / "bits.c").write_text(PROGRAM)
    exe = tmp_path / "bits"
    subprocess.run([COMPILER, "-std=c99", "-O2", "-Wall", "-Werror", *defines, "-I", str(HEADER.parent),
                    str(tmp_path / "bits.c"), "-o", str(exe)], check=True)
    values = _values()
    out = subprocess.run([str(exe)], input="\n".join(map(str, values)), capture_output=True,
                         text=True, check=True).stdout.splitlines()
    got_mode, have_popcnt, has_popcnt = out[0].split()
    assert got_mode == mode
    if mode == "portable":                  # no dispatch at all: no cpuid, no instruction
        assert (have_popcnt, has_popcnt) == ("0", "0")
    for x, line in zip(values, out[1:], strict=True):
        assert list(map(int, line.split())) == _expected(x), hex(x)


@pytest.mark.skipif(os.environ.get("HANDRANK_PORTABLE") != "1",
                    reason="for a build made with HANDRANK_PORTABLE=1 (.ci/run: HANDRANK_PORTABLE=1 .ci/platforms/wheel-check.sh)")
def test_a_portable_build_runs_the_plain_c_kernels():
    from handrank import _evaluate, _iso, _omaha
    assert _evaluate.batch_kernel() == "portable" and _iso.kernel_name() == "portable"
    assert _omaha.kernel_name() == "portable"
    assert not _iso.has_fast_pext() and not _omaha.has_popcnt()
    with pytest.raises(ValueError):
        _evaluate.set_batch_kernel("popcnt")
    with pytest.raises(ValueError):
        _omaha.set_kernel("popcnt")
