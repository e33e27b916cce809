"""This checkout's compiled modules against another build's (e.g. main's), alternated round by
round in one process, through the public API: the other build's extension modules are loaded
under other names and swapped into the Python modules that call them, so the Python layer is
the same and only the compiled code differs. Every workload's results must match between builds.

    python benchmarks/old_vs_new_build.py OLD_DIR [rounds] [workload name filter]

OLD_DIR holds the other build's _evaluate, _omaha and equity/_equity .so files (copied from
its src/handrank). Prints, per workload, the median of per-round ratios old time / new time
(above 1: this build is faster) and both builds' best times.
"""
import importlib.machinery
import importlib.util
import math
import os
import statistics
import sys
import time

import numpy as np

import handrank as hr
from handrank import _evaluate, _omaha, high, lowa5, low27, omaha, rows
from handrank.equity import _equity
equity_calculate = sys.modules["handrank.equity.calculate"]     # the module, not the function
from handrank import equity


WIDE = "22+,A2s+,K9s+,Q9s+,J9s+,T9s,A9o+,KTo+,QTo+,JTo"


def load(path, name):
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def find(folder, stem):
    for entry in os.listdir(folder):
        if entry.startswith(stem + ".") and entry.endswith(".so"):
            return os.path.join(folder, entry)
    raise SystemExit(f"no {stem}*.so in {folder}")


def main(old_dir, rounds, only=""):
    old = {"_evaluate": load(find(old_dir, "_evaluate"), "handrank_old._evaluate"),
           "_omaha": load(find(old_dir, "_omaha"), "handrank_old._omaha"),
           "_equity": load(find(os.path.join(old_dir, "equity"), "_equity"), "handrank_old._equity")}
    new = {"_evaluate": _evaluate, "_omaha": _omaha, "_equity": _equity}
    users = {"_evaluate": (high, lowa5, low27, rows), "_omaha": (omaha,), "_equity": (equity_calculate,)}

    by_board = dict(equity_calculate.BY_BOARD)

    def use(build):
        for name, modules in users.items():
            for module in modules:
                setattr(module, name, build[name])
        # a build from before the board-by-board kernel takes the deal walk on every board
        equity_calculate.BY_BOARD = (by_board if hasattr(build["_equity"], "heads_up_boards")
                                     else dict.fromkeys(by_board, math.inf))

    n = 1_000_000
    h5, h6, h7 = (np.ascontiguousarray(hr.random_hands(n, k, seed=k)) for k in (5, 6, 7))
    r3 = np.ascontiguousarray(hr.random_hands(n, 3, seed=3))
    holes = np.ascontiguousarray(hr.random_hands(200_000, 9, seed=9))
    out = np.empty(n, np.uint16)
    # every street of PLO4 and PLO6: (N, k) hole and (N, b) board arrays, each C-contiguous
    omaha_streets = {}
    for k in (4, 6):
        for b in (3, 4, 5):
            dealt = np.ascontiguousarray(hr.random_hands(200_000, k + b, seed=10 * k + b))
            hole, board = np.ascontiguousarray(dealt[:, :k]), np.ascontiguousarray(dealt[:, k:])
            omaha_streets[f"omaha {k}+{b}"] = lambda hole=hole, board=board: omaha.evaluate_batch(hole, board, threads=1)
    workloads = {
        "high 5, out=": lambda: high.evaluate_batch(h5, out=out, threads=1),
        "high 6, out=": lambda: high.evaluate_batch(h6, out=out, threads=1),
        "high 7, out=": lambda: high.evaluate_batch(h7, out=out, threads=1),
        "high 7, new out": lambda: high.evaluate_batch(h7, threads=1),
        "lowa5 7": lambda: lowa5.evaluate_batch(h7, threads=1),
        "low27 5": lambda: low27.evaluate_batch(h5, threads=1),
        "rows 3": lambda: rows.value_batch(r3, threads=1),
        "rows 5": lambda: rows.value_batch(h5, threads=1),
        "omaha high": lambda: omaha.evaluate_batch(holes[:, :4], holes[:, 4:], threads=1),
        **omaha_streets,
        "equity preflop": lambda: equity.calculate(["AhAs", "KcKd"], exact=True, threads=1).equity,
        "equity flop ranges": lambda: equity.calculate(["QQ+,AKs", WIDE], "Jh Th 2c", exact=True,
                                                       threads=1).equity,
        "equity turn ranges": lambda: equity.calculate(["TT+,AQs+", WIDE], "Ah 7c 2d 9s",
                                                       exact=True, threads=1).equity,
        "equity small call": lambda: [equity.calculate(["AsKs", "QhQd"], board="Jh Th 2c").equity
                                      for _ in range(20)],
        "equity mc 6-way": lambda: equity.calculate(["random"] * 6, samples=1_000_000, seed=1,
                                                    threads=1).equity,
    }
    workloads = {name: run for name, run in workloads.items() if only in name}
    times = {name: {"old": [], "new": []} for name in workloads}
    for r in range(rounds):
        for name, run in workloads.items():
            results = {}
            for label, build in (("old", old), ("new", new)) if r % 2 else (("new", new), ("old", old)):
                use(build)
                start = time.perf_counter()
                result = run()
                times[name][label].append(time.perf_counter() - start)
                results[label] = np.array(result)      # a copy: `out=` is reused
            if not np.array_equal(results["old"], results["new"]):
                raise SystemExit(f"{name}: the builds disagree")
    use(new)
    print(f"{rounds} rounds, old build {old_dir}; ratio = old time / new time (median of rounds)")
    for name, t in times.items():
        ratios = [o / w for o, w in zip(t["old"], t["new"])]
        print(f"{name:18s} ratio {statistics.median(ratios):5.3f}  of bests {min(t['old']) / min(t['new']):5.3f}"
              f"  best old {1e3 * min(t['old']):8.2f} ms"
              f"  new {1e3 * min(t['new']):8.2f} ms")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 7, sys.argv[3] if len(sys.argv) > 3 else "")
