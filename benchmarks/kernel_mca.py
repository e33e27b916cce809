"""Throughput models of the batch loops and of OMPEval's and phevaluator's, per CPU, from llvm-mca.

    python benchmarks/kernel_mca.py [--mca llvm-mca-19] [--ompeval ../shared/anchors/ompeval]
                                    [--phevaluator ../shared/anchors/phevaluator]

Compiles the Cython-generated _evaluate.c and _omaha.c of the last in-place build (build/temp.*)
with the flags setup.py uses (-O3, baseline x86-64) plus HR_MCA_MARKERS, which brackets the main
loop of every batch function with LLVM-MCA-BEGIN/END comments and marks the flush branch unlikely
(so gcc moves the flush lookup out of the body the model reads; the model is of the ~97% of 7-card
hands and ~99.8% of 5-card hands without a flush, and of the Omaha hands whose hole and board
cannot make one, about four in five on a river). OMPEval's two batch loops (the anchor's
batch.cpp) get the same markers and hint. phevaluator's PLO4 is modelled from its installed
binary: the phevaluator anchor's plo.c loop (markers around one row), then the straight-line
no-flush path of the wheel's evaluate_plo4_cards and its two hash_quinary calls (each cut after
the ranks a random hand's highest card needs on average), disassembled by objdump.
Prints llvm-mca's block reciprocal throughput per hand (cycles; lower is faster) for AMD
Zen 1/2/3/4 and Intel Skylake/Ice Lake/Alder Lake/Sapphire Rapids models (nan where this llvm-mca
has no model of the CPU). The models see ports and dispatch width, not cache misses or branch
mispredicts: they rank loop bodies, the timings in compare.py rank programs.
"""
import argparse
import glob
import math
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CPUS = ["znver1", "znver2", "znver3", "znver4", "skylake", "icelake-server", "alderlake", "sapphirerapids"]


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
    """{name: (body, hands per iteration)} of the batch loops of _evaluate and _omaha."""
    generated = glob.glob(os.path.join(ROOT, "build", "temp.*", "generated"))
    bodies = {}
    for module in ("_evaluate", "_omaha"):
        sources = glob.glob(os.path.join(ROOT, "build", "temp.*", "cython", "src", "handrank", module + ".c"))
        if not sources or not generated:
            sys.exit("build first: python setup.py build_ext --inplace")
        asm = subprocess.run(["gcc", "-O3", "-fPIC", "-DHR_MCA_MARKERS", f"-I{generated[0]}",
                              f"-I{os.path.join(ROOT, 'src', 'handrank')}",
                              f"-I{sysconfig.get_paths()['include']}", "-S", "-o", "-", sources[0]],
                             capture_output=True, text=True, check=True).stdout
        for name, found in regions(asm).items():
            if name.startswith("hr_omaha_"):
                # one hand an iteration, no `saved` variant (batch() copies `out` first)
                bodies[name] = (found[0], 1)
                continue
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


def disassembly(library):
    """{function: [(address, instruction)]} of a shared library's text, in AT&T syntax that
    llvm-mca reads back (jump and call targets as absolute addresses)."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", library], capture_output=True,
                         text=True, check=True).stdout
    functions, current = {}, None
    for line in out.splitlines():
        head = re.match(r"^[0-9a-f]+ <(\S+)>:$", line)
        if head:
            current = functions.setdefault(head[1], [])
            continue
        insn = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if insn and current is not None:
            text = re.sub(r"\s*(#|<).*$", "", insn[2]).strip()
            text = re.sub(r"^((j\w+|call)\s+)([0-9a-f]+)$", r"\g<1>0x\3", text)
            if text:
                current.append((int(insn[1], 16), text))
    return functions


def highest_rank_steps(cards):
    """hash_quinary's steps for a random hand of `cards` cards: it walks the ranks from the deuce
    up and stops after the highest it holds; the mean of that rank + 1, rounded."""
    total = math.comb(52, cards)
    mean = sum((r + 1) * (math.comb(4 * (r + 1), cards) - math.comb(4 * r, cards)) for r in range(13)) / total
    return round(mean)


def phevaluator(folder):
    """phevaluator's PLO4 per hand: the anchor's plo.c loop body, evaluate_plo4_cards' no-flush
    path and its two hash_quinary calls (5 board, 4 hole ranks), each through its PLT jump."""
    try:
        import phevaluator._pheval as ext
    except ImportError:
        return {}
    functions = disassembly(ext.__file__)
    if "evaluate_plo4_cards" not in functions or "hash_quinary" not in functions:
        return {}

    def until_ret(insns):
        # in address order: the branches the common hand does not take fall through
        body = []
        for _, text in insns:
            body.append(text)
            if text == "ret" or text.startswith("ret "):
                break
        return body

    evaluate = until_ret(functions["evaluate_plo4_cards"])
    quinary = until_ret(functions["hash_quinary"])
    exit_at = [i for i, text in enumerate(quinary) if re.match(r"^jle\s", text)]
    epilogue = quinary[next(i for i, text in enumerate(quinary) if text.startswith("mov") and i > exit_at[-1]):]

    def quinary_steps(steps):
        # the step ending at the steps-th exit test, then the return (the last step has none)
        if steps > len(exit_at):
            return quinary
        return quinary[:exit_at[steps - 1] + 1] + epilogue

    plt_jump = ["jmp *0x0(%rip)"]      # each call goes through the PLT's indirect jump
    called = evaluate + plt_jump + quinary_steps(highest_rank_steps(5)) + plt_jump + quinary_steps(highest_rank_steps(4))
    text = open(os.path.join(folder, "plo.c")).read()
    text = text.replace("    int best = 100000;", '    __asm__ volatile("# LLVM-MCA-BEGIN phevaluator"); int best = 100000;')
    text = text.replace("    out[i] = (uint16_t)(7463 - best);",
                        '    out[i] = (uint16_t)(7463 - best); __asm__ volatile("# LLVM-MCA-END phevaluator");')
    tmp = tempfile.mkdtemp()
    try:
        with open(os.path.join(tmp, "plo.c"), "w") as f:
            f.write(text)
        asm = subprocess.run(["cc", "-O3", "-fPIC", "-S", "-o", "-", os.path.join(tmp, "plo.c")],
                             capture_output=True, text=True, check=True).stdout
    finally:
        shutil.rmtree(tmp)
    loop = regions(asm).get("phevaluator", [])
    if not loop:
        return {}
    return {"phevaluator PLO4 (no flush)": (loop[0] + "\n".join(called) + "\n", 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mca", default=shutil.which("llvm-mca-19") or "llvm-mca")
    beside = [os.path.join(ROOT, *up, "shared", "anchors", "ompeval") for up in ([".."], ["..", ".."])]
    ap.add_argument("--ompeval", default=next((d for d in beside if os.path.isdir(d)), beside[0]),
                    help="the OMPEval anchor (default: beside the checkout or its parent folder)")
    beside = [os.path.join(ROOT, *up, "shared", "anchors", "phevaluator") for up in ([".."], ["..", ".."])]
    ap.add_argument("--phevaluator", default=next((d for d in beside if os.path.isdir(d)), beside[0]),
                    help="the phevaluator anchor with plo.c (default: beside the checkout or its parent "
                         "folder); needs the phevaluator package")
    ap.add_argument("--loops", default="hr_high5_popcnt,hr_high7_popcnt,hr_omaha_high45_popcnt,"
                                       "hr_omaha_high45_portable,hr_omaha_high55_popcnt,hr_omaha_high65_popcnt",
                    help="comma-separated batch functions to model")
    args = ap.parse_args()
    mine = ours()
    bodies = {name: found for name, found in mine.items()
              if name.split(" ")[0] in args.loops.split(",")}
    if os.path.isdir(args.ompeval):
        bodies.update(ompeval(args.ompeval))
    if os.path.isdir(args.phevaluator):
        bodies.update(phevaluator(args.phevaluator))
    print(f"{os.path.basename(args.mca)}: block reciprocal throughput, cycles per hand")
    print(f"{'loop':32s}" + "".join(f"{cpu:>15s}" for cpu in CPUS))
    for name, (body, hands) in sorted(bodies.items()):
        print(f"{name:32s}" + "".join(f"{throughput(args.mca, body, cpu) / hands:15.2f}" for cpu in CPUS))


if __name__ == "__main__":
    main()
