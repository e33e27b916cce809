# The move enumeration of handrank.bigtwo._bigtwo as C functions other compiled modules cimport
# (handrank.bigtwo._vector steps games without a Python object per move). A ruleset's tables are
# passed as the opaque pointer `tables_of` returns; it lives as long as its Tables object.
from libc.stdint cimport int32_t, uint8_t, uint64_t

cdef const void* tables_of(object t) except NULL
cdef int tables_width(const void* t) noexcept nogil
cdef size_t move_record_size() noexcept nogil
cdef Py_ssize_t move_capacity(const void* t, const uint8_t* ids, int n, int want) noexcept nogil
cdef Py_ssize_t list_moves(const void* t, const uint8_t* ids, int n, int want, int32_t above,
                           uint64_t must, uint8_t* cards, void* records, int32_t* keys,
                           uint8_t* sizes) noexcept nogil
cdef int32_t play_key(const void* t, const uint8_t* cards, int k) noexcept nogil
