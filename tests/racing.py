"""A writer thread flipping one entry of an array between a good and a bad value while the
calls under test run: the tests of inputs written during a call (tests/test_batch_io.py, and the
child processes of tests/test_bad_input_kernels.py, which may crash)."""
import contextlib
import threading
import time


@contextlib.contextmanager
def flipping(array, where, good, bad):
    stop = threading.Event()

    def writer():
        # sleep(0) hands the GIL over in either state, so calls start (and end) with either
        while not stop.is_set():
            array[where] = bad
            time.sleep(0)
            array[where] = good
            time.sleep(0)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
