"""handrank.equity against OMPEval's equity calculator on the same three spots, in alternating
rounds in one process (the machines are shared: only same-sitting comparisons mean anything).

    bash ../shared/anchors/ompeval/equity.sh 1 0     # builds /tmp/handrank-ompeval/equity once
    python benchmarks/equity_vs_ompeval.py [rounds] [threads]
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


def main(rounds, threads):
    # Monte Carlo both ways: showdowns per second, and the time to a standard error of 2e-4
    # (OMPEval's own stopping rule), which also counts how much each showdown tells
    omp = {"preflop ms": [], "flop ms": [], "monte carlo M/s": [], "mc to 2e-4 ms": []}
    ours = {"preflop ms": [], "flop ms": [], "monte carlo M/s": [], "mc to 2e-4 ms": [],
            "small call us": []}
    for r in range(rounds):
        lines = subprocess.run([BINARY, str(threads), "1"], capture_output=True, text=True,
                               check=True).stdout.splitlines()
        omp["preflop ms"].append(float(re.search(r": ([\d.]+) ms", lines[0])[1]))
        omp["flop ms"].append(float(re.search(r": ([\d.]+) ms", lines[1])[1]))
        omp["monte carlo M/s"].append(float(re.search(r"showdowns/s ([\d.]+) M", lines[2])[1]))
        omp["mc to 2e-4 ms"].append(float(re.search(r": ([\d.]+) ms", lines[2])[1]))
        ours["preflop ms"].append(1e3 * timed(lambda: equity.calculate(["AhAs", "KcKd"], exact=True,
                                                                       threads=threads))[0])
        ours["flop ms"].append(1e3 * timed(lambda: equity.calculate(["QQ+,AKs", WIDE], "Jh Th 2c",
                                                                    exact=True, threads=threads))[0])
        seconds, result = timed(lambda: equity.calculate(["random"] * 6, samples=2_000_000, seed=r,
                                                         threads=threads))
        ours["monte carlo M/s"].append(result.showdowns / seconds / 1e6)
        ours["mc to 2e-4 ms"].append(1e3 * timed(lambda: equity.calculate(
            ["random"] * 6, stderr=2e-4, seed=r, threads=threads))[0])
        seconds = timed(lambda: [equity.calculate(["AsKs", "QhQd"], board="Jh Th 2c")
                                 for _ in range(1000)])[0]
        ours["small call us"].append(seconds * 1e3)
    for name, figures in (("OMPEval", omp), ("handrank", ours)):
        for key, values in figures.items():
            print(f"{name:9} {key:16} median {statistics.median(values):8.2f}  "
                  f"({', '.join(f'{v:.2f}' for v in values)})")
    for key in omp:     # per round, handrank's speed as a multiple of OMPEval's; and best of each
        ratios = [o / h if key.endswith("ms") else h / o for o, h in zip(omp[key], ours[key])]
        best = min(omp[key]) / min(ours[key]) if key.endswith("ms") else max(ours[key]) / max(omp[key])
        print(f"handrank/OMPEval speed, {key:16} median of rounds {statistics.median(ratios):.2f}"
              f"  best of each {best:.2f}")
    print(f"threads {threads}, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
