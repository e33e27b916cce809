"""Does racing pick the same first-street placement as a long run without it?

For each of SPOTS seeded first-street pineapple deals (5 cards on an empty board), the top
placement of ofc.best_placement with racing (1,000 samples, completion "best") is compared with
the top of a 5,000-sample run without racing on other deals. The target: the same placement on
at least 9 of 10 spots. Where they differ the line shows how much less the raced pick is worth in
the long run (points per hand), since two placements can be worth about the same.

    python benchmarks/ofc_racing_check.py [spots] [threads] [long samples] [same deals: 0 or 1]

With a long run of 5,000 samples on the same deals (``10 2 5000 1``: the race draws up to 5 times
its 1,000 samples, the same 5,000 deals) it checks the race itself: whether racing ever drops the
placement that every deal would have ranked first.
"""
import sys
import time

import numpy as np

from handrank import ofc
from handrank.cards import hand_str


def main(spots: int = 10, threads: int = 2, long: int = 5000, same_deals: int = 0) -> None:
    same = 0
    for spot in range(spots):
        dealt = np.random.default_rng(spot).permutation(52)[:5].tolist()
        start = time.perf_counter()
        raced = ofc.best_placement(ofc.PartialBoard(), dealt, samples=1000, seed=1000 + spot,
                                   threads=threads)
        raced_s = time.perf_counter() - start
        start = time.perf_counter()
        full = ofc.best_placement(ofc.PartialBoard(), dealt, samples=long,
                                  seed=1000 + spot if same_deals else spot, threads=threads,
                                  race=False)
        full_s = time.perf_counter() - start
        top = full.ranked[0]
        pick = next(v for v in full.ranked if v.placement == raced.best)
        match = raced.best == top.placement
        same += match
        print(f"spot {spot}: dealt {hand_str(dealt)}"
              f" raced {raced.best} ({raced_s:.1f} s, {raced.deals} deals) | {long} without racing {top.placement} "
              f"({full_s:.1f} s) | {'same' if match else f'differ by {top.mean - pick.mean:.3f}'}",
              flush=True)
    print(f"same top placement on {same} of {spots} spots")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:5]))
