# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of ``fastavro.schemaless_reader`` + a reader's checked conversion (Paimon's
``read._manifest_entry`` / ``read._manifest_file_meta`` / ``read._index_entry``): the records of one Avro block
decoded straight into the frozen models, after a plan that ``lakestruct.avro.plan.compile_spec`` builds from the
file's writer schema for a target.

It never reports errors itself: on anything unusual (a varint over 64 bits, a length past the block,
a union index out of range, invalid UTF-8, a required field that is null, an int out of its target's
range such as Paimon's ``_VERSION``/``_KIND``, bytes left over, a timestamp datetime cannot hold) it returns ``None`` and the caller
decodes the block again with fastavro and the checked conversion, which raise the named error. So
both paths give identical results; tests/paimon/test_avroplan.py checks it on every corpus manifest
and on random ones.
"""

cimport cython
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.datetime cimport datetime_new, import_datetime
from cpython.list cimport PyList_AsTuple
from cpython.object cimport PyObject, PyObject_GenericSetDict, PyTypeObject
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

cdef extern from "Python.h":
    dict _PyDict_NewPresized(Py_ssize_t minused)

import datetime as _dt

DEF MAX_DEPTH = 64

# node codes (lakestruct.avro.plan)
DEF N_NULL = 0
DEF N_BOOL = 1
DEF N_INT = 2
DEF N_LONG = 3
DEF N_FLOAT = 4
DEF N_DOUBLE = 5
DEF N_BYTES = 6
DEF N_STRING = 7
DEF N_FIXED = 8
DEF N_ENUM = 9
DEF N_ARRAY = 10
DEF N_MAP = 11
DEF N_UNION = 12
DEF N_RECORD = 13
DEF N_TS_MILLIS = 14
DEF N_FAIL = 15  # a value the plan does not read (a global index, a null list item): give up

# attribute flags
DEF F_REQ = 1
DEF F_RANGE = 2
DEF F_TUPLE = 4
DEF F_EMPTY = 8

import_datetime()
cdef object _UTC = _dt.timezone.utc  # fastavro's timestamp-millis: epoch (UTC) + timedelta(microseconds=ms * 1000)
cdef tuple _NOARGS = ()


class _Bail(Exception):
    pass


@cython.final
cdef class Builder:
    """A model built from a record's values: per attribute (in the dataclass's order) the value's slot, or a model
    built from the same values (``subs``), with its flags and range."""
    cdef object cls
    cdef tuple names
    cdef Py_ssize_t n
    cdef int* src  # slot of each attribute's value; -1: the sub-builder at the same index
    cdef tuple subs
    cdef int* flags
    cdef int64_t* lo
    cdef int64_t* hi

    def __dealloc__(self):
        free(self.src)
        free(self.flags)
        free(self.lo)
        free(self.hi)


@cython.final
cdef class Node:
    cdef int op
    cdef Py_ssize_t size  # FIXED: bytes; ENUM: symbols
    cdef Node item  # ARRAY items, MAP values
    cdef tuple kids  # UNION branches, RECORD fields (Node)
    cdef Py_ssize_t nkids
    cdef int* slots  # RECORD: the value slot of each field, -1 to skip it
    cdef Py_ssize_t nvals  # RECORD: value slots
    cdef Builder builder  # RECORD: the model built from the slots (None: the record is only skipped)

    def __dealloc__(self):
        free(self.slots)


cdef Builder _builder(object spec, Py_ssize_t nvals, int depth):
    cdef Builder b = Builder()
    cdef Py_ssize_t i
    if depth > MAX_DEPTH:
        raise ValueError("plan too deep")
    b.cls, b.names, srcs, flags, lo, hi = spec
    b.n = len(b.names)
    if not (len(srcs) == len(flags) == len(lo) == len(hi) == b.n):
        raise ValueError("a builder lists as many sources, flags and ranges as names")
    b.src = <int*>malloc(sizeof(int) * (b.n + 1))
    b.flags = <int*>malloc(sizeof(int) * (b.n + 1))
    b.lo = <int64_t*>malloc(sizeof(int64_t) * (b.n + 1))
    b.hi = <int64_t*>malloc(sizeof(int64_t) * (b.n + 1))
    if b.src == NULL or b.flags == NULL or b.lo == NULL or b.hi == NULL:
        raise MemoryError()
    subs = []
    for i in range(b.n):
        if isinstance(srcs[i], int):
            if not 0 <= srcs[i] < nvals:
                raise ValueError("slot out of range")
            b.src[i] = srcs[i]
            subs.append(None)
        else:
            b.src[i] = -1
            subs.append(_builder(srcs[i], nvals, depth + 1))
        b.flags[i] = flags[i]
        b.lo[i] = lo[i]
        b.hi[i] = hi[i]
    b.subs = tuple(subs)
    return b


cdef Node _compile(object spec, int depth):
    cdef Node n = Node()
    cdef Py_ssize_t i
    if depth > MAX_DEPTH:
        raise ValueError("plan too deep")
    n.op = spec[0]
    if n.op == N_FIXED or n.op == N_ENUM:
        n.size = spec[1]
    elif n.op == N_ARRAY or n.op == N_MAP:
        n.item = _compile(spec[1], depth + 1)
    elif n.op == N_UNION:
        n.kids = tuple([_compile(b, depth + 1) for b in spec[1]])
        n.nkids = len(n.kids)
    elif n.op == N_RECORD:
        fields, builder = spec[1], spec[2]
        n.kids = tuple([_compile(f[0], depth + 1) for f in fields])
        n.nkids = len(n.kids)
        n.slots = <int*>malloc(sizeof(int) * (n.nkids + 1))
        if n.slots == NULL:
            raise MemoryError()
        n.nvals = spec[3] if builder is not None else 0
        for i in range(n.nkids):
            n.slots[i] = fields[i][1]
            if not -1 <= n.slots[i] < n.nvals:
                raise ValueError("slot out of range")
        if builder is not None:
            n.builder = _builder(builder, n.nvals, depth + 1)
    elif not (N_NULL <= n.op <= N_STRING or n.op == N_TS_MILLIS or n.op == N_FAIL):
        raise ValueError(f"unknown node code {n.op}")
    return n


def compile_plan(object spec):
    """The compiled form of a plan (nested tuples, see ``lakestruct.avro.plan``)."""
    return _compile(spec, 0)


@cython.final
cdef class _Reader:
    cdef const uint8_t* p
    cdef Py_ssize_t pos
    cdef Py_ssize_t end
    cdef int64_t items  # array and map items met so far in the block
    cdef int64_t max_items  # more bails (the reference way names avro.items); -1: no bound

    cdef inline int count_items(self, Py_ssize_t n) except -1:
        self.items += n
        if self.max_items >= 0 and self.items > self.max_items:
            raise _Bail()
        return 0

    cdef inline int64_t long_(self) except? -0x7FFFFFFFFFFFFFFF:
        cdef uint64_t acc = 0
        cdef int shift = 0
        cdef uint8_t b
        while True:
            if self.pos >= self.end:
                raise _Bail()
            b = self.p[self.pos]
            self.pos += 1
            if shift == 63 and (b & 0x7F) > 1:
                raise _Bail()  # more than 64 bits
            acc |= (<uint64_t>(b & 0x7F)) << shift
            if b < 0x80:
                return <int64_t>(acc >> 1) ^ -(<int64_t>(acc & 1))
            shift += 7
            if shift > 63:
                raise _Bail()

    cdef inline Py_ssize_t length(self) except -1:
        cdef int64_t n = self.long_()
        if n < 0 or n > self.end - self.pos:
            raise _Bail()
        return <Py_ssize_t>n

    cdef inline Py_ssize_t block_count(self) except -1:
        """An array's or map's block: its item count (0 at the end); a negative count is followed by the block's
        byte size. More items than bytes left is refused (fastavro would loop over items of no bytes)."""
        cdef int64_t n = self.long_()
        if n < 0:
            if n == -0x7FFFFFFFFFFFFFFF - 1:
                raise _Bail()
            n = -n
            if self.long_() < 0:
                raise _Bail()
        if n > self.end - self.pos:
            raise _Bail()
        return <Py_ssize_t>n

    cdef int skip(self, Node n, int depth) except -1:
        cdef Py_ssize_t i, k, count
        cdef int64_t v
        cdef int op = n.op
        if depth > MAX_DEPTH:
            raise _Bail()
        if op == N_NULL:
            return 0
        if op == N_INT or op == N_LONG or op == N_TS_MILLIS:
            self.long_()
            return 0
        if op == N_BYTES:
            self.pos += self.length()
            return 0
        if op == N_STRING:
            k = self.length()
            PyUnicode_DecodeUTF8(<const char*>(self.p + self.pos), k, NULL)  # fastavro decodes it: invalid UTF-8 fails there
            self.pos += k
            return 0
        if op == N_BOOL:
            if self.pos >= self.end:
                raise _Bail()
            self.pos += 1
            return 0
        if op == N_FLOAT or op == N_DOUBLE or op == N_FIXED:
            k = 4 if op == N_FLOAT else 8 if op == N_DOUBLE else n.size
            if k > self.end - self.pos:
                raise _Bail()
            self.pos += k
            return 0
        if op == N_ENUM:
            v = self.long_()
            if v < 0 or v >= n.size:
                raise _Bail()
            return 0
        if op == N_UNION:
            v = self.long_()
            if v < 0 or v >= n.nkids:
                raise _Bail()
            return self.skip(<Node>n.kids[v], depth + 1)
        if op == N_RECORD:
            for i in range(n.nkids):
                self.skip(<Node>n.kids[i], depth + 1)
            return 0
        if op == N_ARRAY or op == N_MAP:
            while True:
                count = self.block_count()
                if count == 0:
                    return 0
                self.count_items(count)
                for i in range(count):
                    if op == N_MAP:
                        k = self.length()
                        PyUnicode_DecodeUTF8(<const char*>(self.p + self.pos), k, NULL)
                        self.pos += k
                    self.skip(n.item, depth + 1)
        raise _Bail()

    cdef object read(self, Node n, int depth):
        cdef Py_ssize_t i, k, count
        cdef int64_t v
        cdef list items
        cdef int op = n.op
        if depth > MAX_DEPTH:
            raise _Bail()
        if op == N_INT or op == N_LONG:
            return self.long_()
        if op == N_STRING:
            k = self.length()
            self.pos += k
            return PyUnicode_DecodeUTF8(<const char*>(self.p + self.pos - k), k, NULL)
        if op == N_BYTES:
            k = self.length()
            self.pos += k
            return PyBytes_FromStringAndSize(<const char*>(self.p + self.pos - k), k)
        if op == N_UNION:
            v = self.long_()
            if v < 0 or v >= n.nkids:
                raise _Bail()
            return self.read(<Node>n.kids[v], depth + 1)
        if op == N_NULL:
            return None
        if op == N_RECORD:
            return self.record(n, depth)
        if op == N_ARRAY:
            items = []
            while True:
                count = self.block_count()
                if count == 0:
                    return items
                self.count_items(count)
                for i in range(count):
                    items.append(self.read(n.item, depth + 1))
        if op == N_TS_MILLIS:
            return _timestamp_millis(self.long_())
        raise _Bail()  # plans read nothing else

    cdef object record(self, Node n, int depth):
        cdef Py_ssize_t i
        cdef int s
        cdef list vals
        if n.builder is None:
            raise _Bail()
        vals = [None] * n.nvals
        for i in range(n.nkids):
            s = n.slots[i]
            if s < 0:
                self.skip(<Node>n.kids[i], depth + 1)
            else:
                vals[s] = self.read(<Node>n.kids[i], depth + 1)
        return _build(n.builder, vals)


cdef object _build(Builder b, list vals):
    cdef Py_ssize_t i
    cdef int f
    cdef int64_t x
    cdef dict d = _PyDict_NewPresized(b.n)
    for i in range(b.n):
        if b.src[i] < 0:
            d[b.names[i]] = _build(<Builder>b.subs[i], vals)
            continue
        value = vals[b.src[i]]
        f = b.flags[i]
        if f:
            if value is None:
                if f & F_REQ:
                    raise _Bail()
                if f & F_EMPTY:
                    value = ()
            else:
                if f & F_RANGE:
                    x = value
                    if x < b.lo[i] or x > b.hi[i]:
                        raise _Bail()
                if f & F_TUPLE:
                    value = PyList_AsTuple(value)
        d[b.names[i]] = value
    obj = (<PyTypeObject*>b.cls).tp_new(b.cls, <PyObject*>_NOARGS, NULL)
    PyObject_GenericSetDict(obj, d, NULL)
    return obj


cdef object _timestamp_millis(int64_t ms):
    """The UTC datetime of epoch milliseconds (proleptic Gregorian, as Python's datetime); years 1..9999 only, as
    fastavro's reader, which raises OverflowError past them."""
    cdef int64_t days, rem, z, era, doe, yoe, y, doy, mp, d, m
    if ms < -62135596800000 or ms > 253402300799999:  # 0001-01-01T00:00:00.000 .. 9999-12-31T23:59:59.999
        raise _Bail()
    days = ms // 86400000
    rem = ms - days * 86400000
    if rem < 0:  # C division truncates: floor it
        days -= 1
        rem += 86400000
    z = days + 719468  # days since 0000-03-01 (H. Hinnant's civil_from_days)
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    if m <= 2:
        y += 1
    return datetime_new(<int>y, <int>m, <int>d, <int>(rem // 3600000), <int>(rem // 60000 % 60), <int>(rem // 1000 % 60),
                        <int>(rem % 1000) * 1000, _UTC)


def timestamp_millis(int64_t ms):
    """:func:`_timestamp_millis` for tests (None where it refuses)."""
    try:
        return _timestamp_millis(ms)
    except _Bail:
        return None


def decode_block(bytes body, Py_ssize_t count, Node root, int64_t max_items=-1):
    """The ``count`` records of a decompressed block as models, or None: the caller decodes the block with
    fastavro and the checked conversion instead (which name what is wrong). More than ``max_items`` array and map
    items in the block (-1: no bound) gives None too, before they are built."""
    cdef _Reader r = _Reader()
    cdef list out = []
    cdef Py_ssize_t i
    r.p = <const uint8_t*>body
    r.pos = 0
    r.end = len(body)
    r.items = 0
    r.max_items = max_items
    try:
        for i in range(count):
            rec = r.read(root, 0)
            if rec is None:
                return None  # a null root record (0.9-era nullable root): not a record
            out.append(rec)
    except Exception:
        return None
    if r.pos != r.end:
        return None
    return out
