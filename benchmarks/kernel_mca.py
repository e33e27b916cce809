"""Throughput models of the 5- and 7-card batch loops and of OMPEval's, per CPU, from llvm-mca.

    python benchmarks/kernel_mca.py [--mca llvm-mca-19] [--ompeval ../shared/anchors/ompeval]

Compiles the Cython-generated _evaluate.c of the last in-place build (build/temp.*) with the
flags setup.py uses (-O3, baseline x86-64) plus HR_MCA_MARKERS, which brackets the main loop of
every batch function with LLVM-MCA-BEGIN/END comments and marks the flush branch unlikely (so
gcc moves the flush lookup out of the body the model reads; the model is of the ~97% of 7-card
hands and ~99.8% of 5-card hands without a flush). OMPEval's two batch loops (the anchor's
batch.cpp) get the same markers and hint. Prints llvm-mca's block reciprocal throughput per hand
(cycles; lower is faster) for AMD Zen 2/3/4 and Intel Skylake/Ice Lake/Alder Lake/Sapphire
Rapids models. The models see ports and dispatch width, not cache misses or branch mispredicts:
they rank loop bodies, the timings in compare.py rank programs.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CPUS = ["znver2", "znver3", "znver4", "skylake", "icelake-server", "alderlake", "sapphirerapids"]


def regions(asm):
    """{name: [bodies]} between the markers, without directives and labels."""
    found, name, body = {}, None, None
    for line in asm.splitlines():
        begin = re.search(r"LLVM-MCA-BEGIN (\S+)", line)
        if begin:
            name, body = begin[1], []
        elif "LLVM-MCA-END" in line and body is not None:
            found.setdefault(name, []).append("\n".join(body) + "\n")
            body = None
        elif body is not None and not line.lstrip().startswith((".", "#")) \
                and not re.match(r"^\s*\S+:\s*$", line):
            body.append(line)
    return found


def throughput(mca, body, cpu):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(body)
    try:
        out = subprocess.run([mca, f"-mcpu={cpu}", "-iterations=200", f.name], capture_output=True,
                             text=True).stdout
    finally:
        os.unlink(f.name)
    found = re.search(r"Block RThroughput:\s+([\d.]+)", out)
    return float(found[1]) if found else float("nan")


def ours():
    sources = glob.glob(os.path.join(ROOT, "build", "temp.*", "cython", "src", "handrank", "_evaluate.c"))
    generated = glob.glob(os.path.join(ROOT, "build", "temp.*", "generated"))
    if not sources or not generated:
        sys.exit("build first: python setup.py build_ext --inplace")
    asm = subprocess.run(["gcc", "-O3", "-fPIC", "-DHR_MCA_MARKERS", f"-I{generated[0]}",
                          f"-I{sysconfig.get_paths()['include']}", "-S", "-o", "-", sources[0]],
                         capture_output=True, text=True, check=True).stdout
    bodies = {}
    for name, found in regions(asm).items():
        hands = 8 if re.search(r"(high5|lowa5_5|low27_5)_", name) else 6
        # each loop is compiled with and without saving `out`: the longer body saves
        for label, body in zip(("", " out="), sorted(found, key=len)):
            bodies[name + label] = (body, hands)
    return bodies


def ompeval(folder):
    tmp = tempfile.mkdtemp()
    try:
        for header in glob.glob(os.path.join(folder, "omp", "*.h")):
            text = open(header).read().replace(
                "if (!tFlushPossible || !hand.hasFlush())",
                "if (__builtin_expect(!tFlushPossible || !hand.hasFlush(), 1))")
            open(os.path.join(tmp, os.path.basename(header)), "w").write(text)
        text = open(os.path.join(folder, "batch.cpp")).read()
        text = text.replace('#include "omp/HandEvaluator.h"', '#include "HandEvaluator.h"')
        text = text.replace("        omp::Hand h = omp::Hand::empty();",
                            '        __asm__ volatile("# LLVM-MCA-BEGIN omp"); omp::Hand h = omp::Hand::empty();')
        text = text.replace("        out[i] = ev->evaluate(h);",
                            '        out[i] = ev->evaluate(h); __asm__ volatile("# LLVM-MCA-END omp");')
        open(os.path.join(tmp, "batch.cpp"), "w").write(text)
        asm = subprocess.run(["g++", "-O3", "-std=c++11", f"-I{tmp}", "-S", "-o", "-",
                              os.path.join(tmp, "batch.cpp")], capture_output=True, text=True,
                             check=True).stdout
    finally:
        shutil.rmtree(tmp)
    bodies = {}
    for body in regions(asm).get("omp", []):
        k = len(re.findall(r"movzbl\s+\d*\(", body))      # one byte load per card
        checked = "popcnt" in body
        bodies[f"OMPEval {k} cards {'validated' if checked else 'raw'}"] = (body, 1)
    return bodies


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mca", default=shutil.which("llvm-mca-19") or "llvm-mca")
    beside = [os.path.join(ROOT, *up, "shared", "anchors", "ompeval") for up in ([".."], ["..", ".."])]
    ap.add_argument("--ompeval", default=next((d for d in beside if os.path.isdir(d)), beside[0]),
                    help="the OMPEval anchor (default: beside the checkout or its parent folder)")
    ap.add_argument("--loops", default="hr_high5_popcnt,hr_high7_popcnt",
                    help="comma-separated batch functions to model")
    args = ap.parse_args()
    mine = ours()
    bodies = {name: found for name, found in mine.items()
              if name.split(" ")[0] in args.loops.split(",")}
    if os.path.isdir(args.ompeval):
        bodies.update(ompeval(args.ompeval))
    print(f"{os.path.basename(args.mca)}: block reciprocal throughput, cycles per hand")
    print(f"{'loop':32s}" + "".join(f"{cpu:>15s}" for cpu in CPUS))
    for name, (body, hands) in sorted(bodies.items()):
        print(f"{name:32s}" + "".join(f"{throughput(args.mca, body, cpu) / hands:15.2f}" for cpu in CPUS))


if __name__ == "__main__":
    main()
