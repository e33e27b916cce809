# Card ids read from Python ints, for the scalar entry points that take a tuple or list of ids.
from cpython.object cimport PyObject

cdef extern from "Python.h":
    bint PyLong_CheckExact(PyObject*)

cdef extern from *:
    """
    /* An exact int that fits one internal digit, read in place (a call to PyLong_AsLong costs more
       than the rest of a scalar evaluation); a negative number for anything negative or larger. */
    static inline long hr_small_int(PyObject* op) {
    #if defined(PYPY_VERSION) || defined(Py_LIMITED_API)
        int overflow;
        long v = PyLong_AsLongAndOverflow(op, &overflow);
        return overflow ? -1 : v;
    #elif PY_VERSION_HEX >= 0x030C0000
        PyLongObject* n = (PyLongObject*)op;
        return PyUnstable_Long_IsCompact(n) ? (long)PyUnstable_Long_CompactValue(n) : -1;
    #else
        Py_ssize_t size = Py_SIZE(op);
        return size == 0 ? 0 : size == 1 ? (long)((PyLongObject*)op)->ob_digit[0] : -1;
    #endif
    }
    """
    long hr_small_int(PyObject* op)
