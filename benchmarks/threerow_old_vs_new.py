"""The setting solver of this checkout (handrank._threerow._kernel) against another build's,
alternated round by round in one process through the public API: Chinese poker's
``best_setting_batch`` ("royalties") and OFC's ``solve_fantasyland_batch``, one thread, fixed-seed
hands. The other build's _kernel is loaded under its own name and swapped into the Python modules
that call it (its RuleTables rebuilt by it), so only the compiled code differs; every round's
answers must match between the builds.

    python benchmarks/threerow_old_vs_new.py OLD_DIR [rounds]

OLD_DIR holds the other build's _threerow/_kernel .so (e.g. main's src/handrank/_threerow).
Prints each round's hands/s of both builds and the median of the per-round ratios (above 1:
this build is faster)."""
import glob
import importlib.machinery
import importlib.util
import statistics
import sys
import time

import numpy as np

import handrank as hr
from handrank import chinese, ofc
from handrank._threerow import _kernel as this_build
import handrank._threerow.solver
import handrank.chinese.rules
import handrank.chinese.setting
import handrank.ofc.rules

CALLERS = [handrank._threerow.solver, handrank.chinese.rules, handrank.chinese.setting, handrank.ofc.rules]


def load(path):
    loader = importlib.machinery.ExtensionFileLoader("handrank._threerow._kernel", path)
    spec = importlib.util.spec_from_file_location("handrank._threerow._kernel", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def use(kernel):
    for module in CALLERS:
        module._kernel = kernel
    handrank.chinese.rules.solver_tables.cache_clear()
    handrank.ofc.rules.tables.cache_clear()


WORKLOADS = [
    ("chinese best_setting royalties 1-6", hr.random_hands(2000, 13, seed=1313),
     lambda h: chinese.best_setting_batch(h, "1-6", "royalties", threads=1)),
    ("ofc Fantasyland 14 cards pineapple", hr.random_hands(300, 14, seed=14),
     lambda h: ofc.solve_fantasyland_batch(h, "pineapple", threads=1)),
    ("ofc Fantasyland 15 cards progressive", hr.random_hands(200, 15, seed=15),
     lambda h: ofc.solve_fantasyland_batch(h, "progressive", threads=1)),
    ("ofc Fantasyland 14 cards deuce", hr.random_hands(300, 14, seed=114),
     lambda h: ofc.solve_fantasyland_batch(h, "deuce", threads=1)),
]


def timed(kernel, hands, call):
    use(kernel)
    start = time.process_time()
    result = call(hands)
    return time.process_time() - start, result


def main():
    other = load(glob.glob(sys.argv[1] + "/_kernel*.so")[0])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    for name, hands, call in WORKLOADS:
        ratios = []
        for _ in range(rounds):
            t_old, old = timed(other, hands, call)
            t_new, new = timed(this_build, hands, call)
            assert all(np.array_equal(a, b) for a, b in zip(old, new)), name
            ratios.append(t_old / t_new)
            print(f"{name}: other {len(hands) / t_old:,.0f}, this {len(hands) / t_new:,.0f} hands/s "
                  f"(CPU time), {t_old / t_new:.2f}x")
        print(f"{name}: median ratio {statistics.median(ratios):.2f}x")
    use(this_build)


if __name__ == "__main__":
    main()
