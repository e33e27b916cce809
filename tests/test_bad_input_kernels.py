"""Bad rows in every compiled batch kernel, and inputs written by another thread during a call.

Each check runs in a child process: a kernel that reads a table out of bounds may crash the
interpreter, which must fail the test, not end the test session."""
import os
import subprocess
import sys
import textwrap

import pytest


def run_child(script: str, timeout: float = 120) -> None:
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True,
                            text=True, timeout=timeout)
    assert result.returncode == 0, (f"exit status {result.returncode}\n"
                                    f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")


# Shared by the child scripts: the ways to spoil a valid row, and the check of one call.
SPOILERS = """
import numpy as np

BAD_IDS = (52, 53, 63, 64, 127, 128, 200, 255)
ROWS, BAD_ROW = 9, 6


def spoiled(row):
    # a card repeated 2 to 5 times (each run of places), and each id 52..255 in each place
    k = len(row)
    for times in range(2, min(k, 5) + 1):
        for start in range(k - times + 1):
            bad = list(row)
            bad[start:start + times] = [row[start]] * times
            yield f"{row[start]} x{times} at {start}", bad
    for place in range(k):
        for card in BAD_IDS:
            bad = list(row)
            bad[place] = card
            yield f"{card} at {place}", bad


def inputs(good, bad):
    # the same rows as uint8 and int64 arrays and as a list of lists, the bad one at BAD_ROW
    rows = [list(good)] * ROWS
    rows[BAD_ROW] = list(bad)
    return (("uint8", np.array(rows, dtype=np.uint8)), ("int64", np.array(rows, dtype=np.int64)),
            ("list", rows))


failures = []


def check(what, call):
    # `call(out)` must raise ValueError naming BAD_ROW and leave `out` as it was
    out = np.arange(100, 100 + ROWS, dtype=np.uint16)
    try:
        call(out)
    except ValueError as exc:
        if not str(exc).startswith(f"row {BAD_ROW}: "):
            failures.append(f"{what}: {exc}")
    except Exception as exc:
        failures.append(f"{what}: {type(exc).__name__}: {exc}")
    else:
        failures.append(f"{what}: no error")
    if not np.array_equal(out, np.arange(100, 100 + ROWS)):
        failures.append(f"{what}: out changed")


def report():
    print("\\n".join(failures[:50]))
    raise SystemExit(1 if failures else 0)
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_bad_rows_of_one_hand_array(threads):
    run_child(SPOILERS + f"""
from handrank import badugi, high, high3, low27, lowa5, rows, shortdeck

THREADS = {threads}
CALLS = [(high.evaluate_batch, k, {{}}) for k in (5, 6, 7)] \\
    + [(lowa5.evaluate_batch, k, {{}}) for k in (5, 6, 7)] \\
    + [(low27.evaluate_batch, 5, {{}}), (high3.evaluate_batch, 3, {{}})] \\
    + [(rows.value_batch, k, {{}}) for k in (3, 5)] \\
    + [(shortdeck.evaluate_batch, k, {{"rules": r}}) for k in (5, 6, 7) for r in ("standard", "triton")] \\
    + [(badugi.evaluate_batch, 4, {{"ace_low": a}}) for a in (True, False)]
for fn, k, options in CALLS:
    lowest = 16 if fn is shortdeck.evaluate_batch else 0
    # one suit (flushes) and mixed suits
    for good in ([lowest + 4 * i for i in range(k)], [lowest + 5 * i for i in range(k)]):
        for what, bad in spoiled(good):
            for dtype, cards in inputs(good, bad):
                check(f"{{fn.__module__}} {{k}} {{options}} {{good}} {{what}} {{dtype}}",
                      lambda out: fn(cards, out=out, threads=THREADS, **options))
report()
""")


@pytest.mark.parametrize("threads", [1, 2])
def test_bad_rows_of_omaha_hands(threads):
    # The crash of issue 37: a board repeating a card three times, two hole cards of its suit.
    run_child(SPOILERS + f"""
from handrank import omaha

THREADS = {threads}
for fn in (omaha.evaluate_batch, omaha.evaluate_low8_batch):
    for k in (4, 5, 6):
        for nb in (3, 4, 5):
            # one suit: every spoiled board meets two hole cards of its suit
            for step in (4, 5):
                hole = [step * i for i in range(k)]
                board = [step * (k + i) for i in range(nb)]
                cases = [(f"hole {{what}}", bad, board) for what, bad in spoiled(hole)]
                cases += [(f"board {{what}}", hole, bad) for what, bad in spoiled(board)]
                cases += [(f"hole card {{c}} on the board", hole, [c] + board[1:]) for c in hole]
                for what, bad_hole, bad_board in cases:
                    for (dtype, holes), (_, boards) in zip(inputs(hole, bad_hole), inputs(board, bad_board)):
                        check(f"{{fn.__name__}} {{k}}+{{nb}} {{what}} {{dtype}}",
                              lambda out: fn(holes, boards, out=out, threads=THREADS))
if not failures:
    # the issue's own case, one row
    try:
        omaha.evaluate_batch(np.array([[0, 4, 3, 5]], np.uint8), np.array([[8, 8, 8]], np.uint8))
        failures.append("[[0, 4, 3, 5]] on [[8, 8, 8]]: no error")
    except ValueError as exc:
        if str(exc) != "row 0: 4c appears twice in the board":
            failures.append(str(exc))
report()
""")


# ----------------------------------------------------------------------------- racing writers
# A writer thread flips one row (or index) between a valid value and a bad one while the calls
# run. A call must raise ValueError or return valid results: never crash, never another error.
RACE = f"""
import sys, time
sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})
import numpy as np
from handrank import _iso, iso, omaha, shortdeck
from racing import flipping

sys.setswitchinterval(1e-5)
failures = []


def race(what, array, where, good, bad, call, check):
    # call(array) while a writer sets array[where] to bad and back; check(result) or ValueError
    errors = 0
    with flipping(array, where, good, bad):
        deadline = time.monotonic() + 0.7
        while time.monotonic() < deadline and errors < 50:
            try:
                check(call(array))
            except ValueError as exc:
                errors += 1
                if not ("changed during the call" in str(exc) or str(exc).startswith(f"row {{len(array) - 1}}: ")):
                    failures.append(f"{{what}}: {{exc}}")
            except Exception as exc:
                failures.append(f"{{what}}: {{type(exc).__name__}}: {{exc}}")
                break
    if not errors:
        failures.append(f"{{what}}: the writer never made a call fail")
"""


def test_cards_written_during_shortdeck_and_omaha_calls():
    # shortdeck's error for a bad row read the cards again: a row that read well by then was an
    # IndexError; omaha's a ValueError of min() on an empty sequence
    run_child(RACE + """
n = 100_000
cards = np.broadcast_to(np.array([16, 21, 26, 31, 36], np.uint8), (n, 5)).copy()
expected = shortdeck.evaluate_batch(cards[:1])[0]
race("shortdeck", cards, n - 1, [16, 21, 26, 31, 36], [16, 16, 26, 31, 36], shortdeck.evaluate_batch,
     lambda values: None)
hole = np.broadcast_to(np.array([0, 4, 3, 5], np.uint8), (n, 4)).copy()
board = np.broadcast_to(np.array([8, 12, 16], np.uint8), (n, 3)).copy()
for fn in (omaha.evaluate_batch, omaha.evaluate_low8_batch):
    race(fn.__name__, board, n - 1, [8, 12, 16], [8, 8, 8], lambda b: fn(hole, b), lambda values: None)
print("\\n".join(failures))
raise SystemExit(1 if failures else 0)
""")


def test_iso_input_written_during_the_call():
    # unindex read each index several times after the range check: one written past the range in
    # between indexed its bucket table out of bounds. index re-read the one-card rounds' cards
    # after checking them.
    run_child(RACE + """
ix = iso.Indexer([2, 3, 1, 1])
n = 50_000
size = ix.size(3)
indices = np.arange(n, dtype=np.uint64) * np.uint64(size // n)
hands = ix.unindex_batch(3, indices)
last = int(indices[-1])
for kernel in ["portable"] + (["pext"] if _iso.has_fast_pext() else []):
    _iso.set_kernel(kernel)

    def unindexed(found):
        assert np.array_equal(found[:-1], hands[:-1])
        assert ix.index_batch(found[-1:])[0] == last

    race(f"unindex {kernel}", indices, n - 1, last, np.uint64(2**64 - 1),
         lambda a: ix.unindex_batch(3, a), unindexed)
    # the turn card of the last hand turned into id 255 (suit 3), its river a spade
    river_spade = hands[hands[:, 6] % 4 == 3][0]
    rows = np.broadcast_to(river_spade, (n, 7)).copy()

    def indexed(found):
        assert np.all(found == ix.index_batch(river_spade[None, :])[0])

    race(f"index {kernel}", rows, (n - 1, 5), river_spade[5], 255, ix.index_batch, indexed)
print("\\n".join(failures))
raise SystemExit(1 if failures else 0)
""")
