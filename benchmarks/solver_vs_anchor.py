"""handrank.solver against postflop-solver's bench_spot (../shared/anchors/postflop-solver, built
outside the package) and, optionally, against another build of handrank, on the anchor's spots,
run by run in alternation (the machines are shared: only same-sitting comparisons mean anything).

    python benchmarks/solver_vs_anchor.py BENCH_SPOT [OTHER_SRC] [rounds]

BENCH_SPOT: the anchor's binary (target/release/examples/bench_spot); OTHER_SRC: another build's
src/ folder (built in place), e.g. a worktree of the last commit. Each solve runs in its own
process: this checkout's, the other build's and the anchor's, in turn, each round. Prints per
spot and thread count the best wall times and the medians of the per-round ratios (above 1:
handrank faster), wall and CPU time against the other build.
"""
import json
import os
import statistics
import subprocess
import sys

SPOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "anchors",
                     "postflop-solver", "spots")
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
# (spot, target fraction of the pot, threads, rounds as a multiple of the `rounds` argument)
RUNS = [("turn", 0.005, 1, 1), ("turn", 0.005, 2, 1), ("river", 0.003, 1, 3)]
ONE_SOLVE = """
import json, sys, time
from handrank.solver import Game, Spot
game = Game(Spot.from_file(sys.argv[1]))
wall, cpu = time.perf_counter(), time.process_time()
report = game.solve(float(sys.argv[2]), 1000, threads=int(sys.argv[3]), progress=False)
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                  "iterations": game.iterations, "exploitability": report.exploitability_pot}))
"""


def handrank_solve(src, spot, target, threads):
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run([sys.executable, "-c", ONE_SOLVE, spot, str(target), str(threads)],
                         env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def median_ratio(rows, ratio):
    """The median over the rounds of ratio(anchor, this build, other build)."""
    return statistics.median(ratio(*row) for row in rows)


def main(binary, other=None, rounds=3):
    for name, target, threads, times in RUNS:
        spot = os.path.join(SPOTS, name + ".toml")
        rows = []
        for _ in range(rounds * times):
            anchor = json.loads(subprocess.run([binary, "--spot", spot, "--threads", str(threads)],
                                               capture_output=True, text=True, check=True).stdout)
            ours = handrank_solve(HERE, spot, target, threads)
            theirs = handrank_solve(other, spot, target, threads) if other else None
            rows.append((anchor, ours, theirs))
        line = (f"{name} to {target:.1%} of the pot, {threads} thread(s), {len(rows)} rounds: best wall "
                f"{min(r[1]['wall'] for r in rows):.4f} s ({rows[-1][1]['iterations']} iterations) against "
                f"postflop-solver's {min(r[0]['solve_s'] for r in rows):.4f} s "
                f"({rows[-1][0]['iterations']}): {median_ratio(rows, lambda a, o, t: a['solve_s'] / o['wall']):.2f}x")
        if other:
            line += (f"; the other build {min(r[2]['wall'] for r in rows):.4f} s, "
                     f"{median_ratio(rows, lambda a, o, t: a['solve_s'] / t['wall']):.2f}x postflop-solver; this build "
                     f"against it {median_ratio(rows, lambda a, o, t: t['wall'] / o['wall']):.2f}x wall, "
                     f"{median_ratio(rows, lambda a, o, t: t['cpu'] / o['cpu']):.2f}x CPU")
        print(line, flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    main(args[0], args[1] if len(args) > 1 else None, int(args[2]) if len(args) > 2 else 3)
