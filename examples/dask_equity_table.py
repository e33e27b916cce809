"""Heads-up preflop equity of hand classes as a Dask job (handrank.dask.equity_table).

    python examples/dask_equity_table.py                    # a few matchups, local threads
    python examples/dask_equity_table.py --workers 4        # on a LocalCluster of 4 processes
    python examples/dask_equity_table.py --scheduler tcp://host:8786 --full --out table.csv

--full computes the whole 169 x 169 table (14,365 exact matchups of a few tenths of a second of
one core each, split over every worker of the cluster); the table is written as CSV, row class against column class.
Needs pip install 'handrank[dask]'.
"""
from __future__ import annotations

import argparse
import csv
import sys
from contextlib import nullcontext

from dask.diagnostics import ProgressBar

import handrank.dask as hd

SMALL = [("AA", "KK"), ("AKs", "QQ"), ("AKo", "22"), ("JTs", "AKo"), ("72o", "AA"), ("T9s", "66")]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler")
    where.add_argument("--workers", type=int, metavar="N", help="start a LocalCluster of N processes")
    parser.add_argument("--full", action="store_true", help="all 169 x 169 classes")
    parser.add_argument("--out", metavar="CSV", help="write the table here (with --full)")
    args = parser.parse_args(argv)

    job = hd.equity_table(None if args.full else SMALL)
    if args.scheduler or args.workers:
        from distributed import Client, LocalCluster, progress
        where = nullcontext(args.scheduler) if args.scheduler else \
            LocalCluster(n_workers=args.workers, threads_per_worker=1)
        with where as cluster, Client(cluster) as client:
            print(f"dashboard: {client.dashboard_link}", file=sys.stderr)
            future = client.compute(job)
            progress(future)
            result = future.result()
    else:
        with ProgressBar():
            result = job.compute()

    if not args.full:
        for (a, b), e in zip(SMALL, result):
            print(f"{a:>4} vs {b:<4} {e:8.4%}")
        return
    out = open(args.out, "w", newline="") if args.out else sys.stdout
    writer = csv.writer(out)
    writer.writerow(["", *hd.CLASSES])
    for name, row in zip(hd.CLASSES, result):
        writer.writerow([name, *(f"{e:.6f}" for e in row)])
    if args.out:
        out.close()


if __name__ == "__main__":
    main()
