"""Two or more builds of handrank's _iso index loop, alternated in one process on the same rows.

    python benchmarks/iso_loops_ab.py [--n N] [--rounds R] STRUCTURE NAME=PATH[:LOOPS] ...

STRUCTURE: cards per round, e.g. 2,5. Each NAME=PATH loads the _iso extension at PATH (a copy of
the .so of a build, under its own file name: one file loads once per process) and, with :LOOPS,
picks its "pext" or "portable" loops; every build must give the indices of the installed
handrank. Prints each build's best M hands/s over the rounds, timed by the thread's CPU time (on
a shared machine the other work then costs the builds alike). To compare against the last
commit's loop: build it, copy its .so aside, build yours, copy that, and pass both.
"""
import argparse
import importlib.machinery
import importlib.util
import time

import numpy as np

from handrank import iso
from handrank.cards import random_hands


def load(path):
    loader = importlib.machinery.ExtensionFileLoader("handrank._iso", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_file_location("handrank._iso", path,
                                                                                    loader=loader))
    loader.exec_module(module)
    module.init_tables()
    return module


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("structure")
    ap.add_argument("builds", nargs="+", metavar="NAME=PATH[:LOOPS]")
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args()
    structure = [int(x) for x in args.structure.split(",")]
    builds = []
    for spec in args.builds:
        name, _, rest = spec.partition("=")
        path, _, loops = rest.partition(":")
        module = load(path)
        if loops:
            module.set_kernel(loops)
        builds.append((name, module))
    ix = iso.Indexer(structure)
    table, ends = ix._tables[-1], np.array(ix._ends, dtype=np.uint8)
    rows = random_hands(args.n, sum(structure), seed=1)
    expected = ix.index_batch(rows)
    best = dict.fromkeys((name for name, _ in builds), float("inf"))
    for _ in range(args.rounds):
        for name, module in builds:
            out = np.empty(args.n, dtype=np.uint64)
            start = time.thread_time()
            module.index_rows(rows, out, ends, table.radix, table.direct, table.slots, table.shapes, table.terms)
            best[name] = min(best[name], time.thread_time() - start)
            if not np.array_equal(out, expected):
                raise SystemExit(f"{name}: other indices than the installed handrank's")
    print(f"{structure}: " + "  ".join(f"{name} {args.n / t / 1e6:.1f} M/s" for name, t in best.items()))


if __name__ == "__main__":
    main()
