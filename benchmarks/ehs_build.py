"""Build the three EHS tables from scratch and report each street's time and size (run by hand:
``HANDRANK_CACHE_DIR=/tmp/x python benchmarks/ehs_build.py``; about 4 GB of memory, 1.1 GB of disk).
"""
import time

from handrank import ehs

started = {}


def progress(street: str, done: int, total: int) -> None:
    if street not in started:
        started[street] = time.perf_counter()
        print(f"{street} started at {started[street] - t0:.1f} s", flush=True)


t0 = time.perf_counter()
table = ehs.ehs_table("flop", progress=progress)
end = time.perf_counter()
print(f"river + turn + flop built in {end - t0:.1f} s")
for street in ("river", "turn", "flop"):
    t = ehs.ehs_table(street)
    print(f"{street}: {t.ehs.size:,} classes, {2 * t.ehs.nbytes / 1e6:.0f} MB")
