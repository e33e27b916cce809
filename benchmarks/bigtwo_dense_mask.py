"""Big Two ``legal="dense"`` steps/s with the env's kept mask buffer (a step clears only the
entries it had set) against the former path (a new (N, 19,899) array every step, every row
cleared), alternated in one process, fixed seeds, one thread, random legal actions.

    python benchmarks/bigtwo_dense_mask.py [--n N] [--steps S] [--rounds R]

Prints each round's steps/s of both and their ratio (kept / new array).
"""
import argparse
import time
from typing import Any

import numpy as np

from handrank.bigtwo.vector import OBSERVATION_SIZE, VectorEnv


def steps_per_s(n: int, steps: int, kept: bool) -> float:
    env = VectorEnv(n, seed=1, legal="dense", threads=1)
    if not kept:
        def new_arrays() -> tuple[Any, Any, Any, Any]:       # the former _outputs: a new mask each step, every row memset
            return (np.empty((n, OBSERVATION_SIZE), dtype=np.int8), np.empty(n, dtype=np.int8),
                    np.empty(n, dtype=np.int64), np.empty((n, env.num_actions), dtype=np.uint8))
        env._outputs = new_arrays  # type: ignore[method-assign]
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(steps):
        if not kept:
            env._mask_synced = False        # so the step clears whole rows, as before
        env.step(env.sample_legal(rng))
    return n * steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for _ in range(args.rounds):
        before, after = steps_per_s(args.n, args.steps, False), steps_per_s(args.n, args.steps, True)
        print(f"N={args.n}: new array {before:,.0f} steps/s, kept buffer {after:,.0f} steps/s, "
              f"ratio {after / before:.2f}")


if __name__ == "__main__":
    main()
