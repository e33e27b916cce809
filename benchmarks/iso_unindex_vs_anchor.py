"""handrank.iso's unindex_batch against Kevin Waugh's C hand_unindex loop (the measuring stick in
../shared/anchors/hand-isomorphism, built by its compare.py) on the same random indices of the last
round (each side's own numbering), alternating rounds in one process; prints the median of the per-round speed ratios (> 1.0:
handrank is faster). Both sides allocate their output each round.

    python benchmarks/iso_unindex_vs_anchor.py [--anchor DIR] [N] [ROUNDS]
"""
import os
import statistics
import sys
import time

import numpy as np

from handrank import iso

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# ../shared beside the main checkout, ../../shared beside a worktree under wt/
ANCHOR = next((d for d in (os.path.join(ROOT, "..", "shared", "anchors", "hand-isomorphism"),
                           os.path.join(ROOT, "..", "..", "shared", "anchors", "hand-isomorphism"))
               if os.path.isdir(d)), os.path.join(ROOT, "..", "shared", "anchors", "hand-isomorphism"))


def main(argv):
    anchor_dir = ANCHOR
    if "--anchor" in argv:
        at = argv.index("--anchor")
        anchor_dir = argv[at + 1]
        argv = argv[:at] + argv[at + 2:]
    n = int(argv[0]) if argv else 1_000_000
    rounds = int(argv[1]) if len(argv) > 1 else 7
    sys.path.insert(0, os.path.abspath(anchor_dir))
    import compare      # the anchor's build and wrapper

    lib = compare.build()
    import ctypes
    for name, structure in compare.STRUCTURES.items():
        a = compare.Anchor(lib, structure)
        ix = iso.Indexer(structure)
        last = len(structure) - 1
        rng = np.random.default_rng(len(name))
        indices = rng.integers(0, min(a.sizes[-1], 2**63), n, dtype=np.uint64)

        def anchor_unindex(idx=indices, a=a, last=last):
            out = np.empty((len(idx), a.k), np.uint8)
            lib.iso_unindex_batch(ctypes.c_void_p(a.p), last, idx.ctypes.data, len(idx), a.k, out.ctypes.data)
            return out

        # the two number the classes differently: each side's hands are checked against its own
        # indexer (handrank's here; the anchor's is upstream's)
        mine = ix.unindex_batch(last, indices[:100_000])
        if not np.array_equal(ix.index_batch(mine), indices[:100_000]):
            print(f"{name}: handrank's unindex_batch does not round-trip")
            return 1
        ratios, best_h, best_a = [], 0.0, 0.0
        for _ in range(rounds):
            t = time.perf_counter(); ix.unindex_batch(last, indices); th = time.perf_counter() - t
            t = time.perf_counter(); anchor_unindex(); ta = time.perf_counter() - t
            ratios.append(ta / th)
            best_h, best_a = max(best_h, n / th / 1e6), max(best_a, n / ta / 1e6)
        print(f"{name} {structure}: unindex_batch, last round: handrank {best_h:.1f} M/s, anchor "
              f"{best_a:.1f} M/s, handrank's speed vs the anchor {statistics.median(ratios):.2f}x "
              f"(median of {rounds} rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
