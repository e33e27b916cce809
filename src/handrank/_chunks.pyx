# cython: language_level=3
"""The chunks of one threaded call (handrank._batch.share): taken one at a time by the calling
thread and by the pool threads that come to help, and the caller's wait for those helpers.

Compiled for what Python cannot promise about Ctrl-C. Each method here holds the GIL from its
bookkeeping's start to its end and runs no signal handler in between, so a KeyboardInterrupt in
the caller never lands halfway through it (the same in Python would hold a lock across signal
checks). And `finish` waits with the GIL released on a lock acquired without its interruptible
flag: no signal handler runs until every helper has left, so the caller raises only once no
other thread writes into the call's arrays. The wait is short: a helper finishes the chunk it
runs and takes no other."""
cimport cython
from cpython.pythread cimport (NOWAIT_LOCK, WAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock,
                               PyThread_free_lock, PyThread_release_lock, PyThread_type_lock)


@cython.auto_pickle(False)     # one call's state and a lock: nothing to send elsewhere
cdef class Chunks:
    """Chunks 0..count-1 of one call. The caller takes them with `take`, helpers run theirs in
    `help`, and the caller ends with `finish`, whether it took every chunk or was interrupted."""
    cdef Py_ssize_t count, taken, helping
    cdef bint stopped
    # held while any helper is inside `help`: what `finish` waits on
    cdef PyThread_type_lock busy
    # the first exception a helper raised (which stopped the call), or None
    cdef readonly object error

    def __cinit__(self):
        self.busy = PyThread_allocate_lock()
        if self.busy == NULL:
            raise MemoryError()

    def __init__(self, Py_ssize_t count):
        self.count = count

    def __dealloc__(self):
        if self.busy != NULL:
            PyThread_free_lock(self.busy)

    cdef Py_ssize_t next_chunk(self):
        if self.stopped or self.taken == self.count:
            return -1
        self.taken += 1
        return self.taken - 1

    def take(self) -> int:
        """The next chunk, or -1 once none is left or the call has stopped."""
        return self.next_chunk()

    def help(self, work) -> None:
        """A pool thread's share: work(i) for each chunk it takes until none is left. An
        exception stops the call; its caller raises it."""
        cdef Py_ssize_t i
        if self.stopped or self.taken == self.count:
            return      # the call ended, or its other threads took every chunk, before this one came
        if self.helping == 0:
            # free here: only a helper or `finish` holds it, and `finish` stopped the call first
            PyThread_acquire_lock(self.busy, NOWAIT_LOCK)
        self.helping += 1
        try:
            i = self.next_chunk()
            while i >= 0:
                work(i)
                i = self.next_chunk()
        except BaseException as exc:
            self.stopped = True
            if self.error is None:
                self.error = exc
        finally:
            self.helping -= 1
            if self.helping == 0:
                PyThread_release_lock(self.busy)

    def finish(self) -> None:
        """Hand out no more chunks; return once no helper runs one."""
        self.stopped = True
        if self.helping:
            with nogil:
                PyThread_acquire_lock(self.busy, WAIT_LOCK)
            PyThread_release_lock(self.busy)
