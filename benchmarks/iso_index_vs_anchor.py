"""handrank.iso's index_batch against Kevin Waugh's C indexer with a chosen set of handrank's loops:
runs the anchor's compare.py (../shared/anchors/hand-isomorphism, beside the main checkout or a
worktree) after picking "pext" (pext, pdep and popcnt; the default where the CPU has fast ones) or
"portable" (what a CPU without them runs), so that both can be measured on one machine.
--cpu-time times both sides by the thread's CPU time (time.thread_time) instead of the wall
clock: on a shared machine whose other work takes the cores away, the ratios stay those of the loops.

    python benchmarks/iso_index_vs_anchor.py [--anchor DIR] [--cpu-time] [pext|portable]
"""
import os
import runpy
import sys
import time

from handrank import _iso

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from iso_unindex_vs_anchor import ANCHOR  # noqa: E402  (where the anchor is: one place)


def main(argv):
    anchor_dir = ANCHOR
    if "--anchor" in argv:
        at = argv.index("--anchor")
        anchor_dir = argv[at + 1]
        argv = argv[:at] + argv[at + 2:]
    if "--cpu-time" in argv:
        argv = [a for a in argv if a != "--cpu-time"]
        time.perf_counter = time.thread_time     # compare.py times by perf_counter; one thread runs both
        print("timed by CPU time")
    loops = argv[0] if argv else _iso.kernel_name()
    _iso.set_kernel(loops)
    print(f"handrank's {_iso.kernel_name()} loops")
    sys.argv = [os.path.join(anchor_dir, "compare.py")]
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
    except SystemExit as done:
        return done.code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
