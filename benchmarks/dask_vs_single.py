"""handrank.dask.evaluate on a LocalCluster of 2 worker processes x 1 thread against one process
running high.evaluate_batch on 2 threads, over the same random 7-card hands, in alternating
rounds (the machines are shared: only same-sitting ratios mean anything). Both sides end-to-end
alike: each allocates its output (the single process one array, the workers one per chunk, kept
on the workers), neither moves hands (they are dealt on the workers block by block with fixed
seeds, and the single process deals the same blocks).

    python benchmarks/dask_vs_single.py [hands] [rounds] [rows per block] [--profile]

Blocks are 4M rows (28 MB) unless given: Dask's guidance is chunks of 100 MB or so (its default
`array.chunk-size` is 128 MiB), and fewer, larger tasks leave the cluster less to do.
--profile leaves the workers' statistical profiler on (Dask's default; see docs/dask.md).
Also printed: how many blocks each worker holds (a worker runs the tasks of its own blocks: an
uneven split caps the ratio by itself) and, from Dask's task stream, each worker's time in tasks
against its time between them (median over the rounds): where the Dask side's time goes.
"""
import os
import statistics
from collections import Counter, defaultdict
import sys
import time

import dask
import dask.array as da
import distributed
import numpy as np

import handrank as hr
import handrank.dask as hd
from handrank import high

def deal_block(block_info=None):
    (start, stop), _ = block_info[None]["array-location"]
    return hr.random_hands(stop - start, 7, seed=start)


def main(n, rounds, rows_per_block, profile):
    dask.config.set({"distributed.worker.profile.enabled": profile})
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        chunks = (tuple(min(rows_per_block, n - a) for a in range(0, n, rows_per_block)), (7,))
        hands = client.persist(da.map_blocks(deal_block, chunks=chunks, dtype=np.uint8))
        distributed.wait(hands)
        local = np.concatenate([hr.random_hands(min(rows_per_block, n - a), 7, seed=a)
                                for a in range(0, n, rows_per_block)])
        holders = client.who_has(client.futures_of(hands))
        split = sorted(Counter(workers[0] for workers in holders.values()).values())
        single, spread, streams = [], [], []
        for round_ in range(rounds):
            # alternate which side goes first: the VM's speed drifts within seconds
            for side in ("single", "dask") if round_ % 2 == 0 else ("dask", "single"):
                if side == "single":
                    start = time.perf_counter()
                    expected = high.evaluate_batch(local, threads=2)
                    single.append(time.perf_counter() - start)
                    continue
                with distributed.get_task_stream(client) as stream:
                    start = time.perf_counter()
                    values = client.persist(hd.evaluate(hands))
                    distributed.wait(values)
                    spread.append(time.perf_counter() - start)
                streams.append(in_and_between_tasks(stream.data))
            assert np.array_equal(values[:1000].compute(), expected[:1000])
            del values, expected
            time.sleep(0.5)     # the cluster forgets the results before the next round
        ratios = [a / b for a, b in zip(single, spread)]
        print(f"{n:,} hands in blocks of {rows_per_block:,} rows, worker profiler {'on' if profile else 'off'}: single process "
              f"{statistics.median(single):.2f} s, LocalCluster {statistics.median(spread):.2f} s, "
              f"speed ratio median of rounds {statistics.median(ratios):.2f} "
              f"({', '.join(f'{r:.2f}' for r in ratios)}), of the medians "
              f"{statistics.median(single) / statistics.median(spread):.2f}, load average {os.getloadavg()[0]:.1f}")
        busy, idle = (statistics.median(s[i] for s in streams) for i in (0, 1))
        print(f"blocks per worker {split}; the busiest worker, median of rounds: {busy:.2f} s in "
              f"tasks, {idle:.3f} s idle between them")


def in_and_between_tasks(records):
    """A task stream's (seconds in tasks, seconds idle between its first and last task), each the
    most of any worker."""
    spans = defaultdict(list)
    for record in records:
        spans[record["worker"]] += [(s["start"], s["stop"]) for s in record["startstops"]
                                    if s["action"] == "compute"]
    busy = max(sum(b - a for a, b in s) for s in spans.values())
    idle = max(max(b for _, b in s) - min(a for a, _ in s) - sum(b - a for a, b in s)
               for s in spans.values())
    return busy, idle


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(int(args[0]) if args else 100_000_000, int(args[1]) if len(args) > 1 else 5,
         int(args[2]) if len(args) > 2 else 1 << 22, "--profile" in sys.argv)
