"""handrank.equity against OMPEval's equity calculator on the same three spots, in alternating
rounds in one process (the machines are shared: only same-sitting comparisons mean anything).

    bash ../shared/anchors/ompeval/equity.sh 1 0     # builds /tmp/handrank-ompeval/equity once
    python benchmarks/equity_vs_ompeval.py [rounds]
"""
import os
import re
import statistics
import subprocess
import sys
import time

from handrank import equity

BINARY = os.path.join(os.environ.get("TMPDIR", "/tmp"), "handrank-ompeval", "equity")
WIDE = "22+,A2s+,K9s+,Q9s+,J9s+,T9s,A9o+,KTo+,QTo+,JTo"


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main(rounds):
    omp = {"preflop ms": [], "flop ms": [], "monte carlo M/s": []}
    ours = {"preflop ms": [], "flop ms": [], "monte carlo M/s": [], "small call us": []}
    for r in range(rounds):
        lines = subprocess.run([BINARY, "1", "1"], capture_output=True, text=True,
                               check=True).stdout.splitlines()
        omp["preflop ms"].append(float(re.search(r": ([\d.]+) ms", lines[0])[1]))
        omp["flop ms"].append(float(re.search(r": ([\d.]+) ms", lines[1])[1]))
        omp["monte carlo M/s"].append(float(re.search(r"showdowns/s ([\d.]+) M", lines[2])[1]))
        ours["preflop ms"].append(1e3 * timed(lambda: equity.calculate(["AhAs", "KcKd"], exact=True,
                                                                       threads=1))[0])
        ours["flop ms"].append(1e3 * timed(lambda: equity.calculate(["QQ+,AKs", WIDE], "Jh Th 2c",
                                                                    exact=True, threads=1))[0])
        seconds, result = timed(lambda: equity.calculate(["random"] * 6, samples=2_000_000, seed=r,
                                                         threads=1))
        ours["monte carlo M/s"].append(result.showdowns / seconds / 1e6)
        seconds = timed(lambda: [equity.calculate(["AsKs", "QhQd"], board="Jh Th 2c")
                                 for _ in range(1000)])[0]
        ours["small call us"].append(seconds * 1e3)
    for name, figures in (("OMPEval", omp), ("handrank", ours)):
        for key, values in figures.items():
            print(f"{name:9} {key:16} median {statistics.median(values):8.2f}  "
                  f"({', '.join(f'{v:.2f}' for v in values)})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
