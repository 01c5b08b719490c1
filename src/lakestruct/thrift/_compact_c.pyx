# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of ``lakestruct.thrift.compact.decode_struct`` + ``lakestruct.thrift.typed.from_raw``
(and of ``lakestruct.parquet.pages.scan_pages``).

It decodes Thrift compact structs straight into the typed models, using the tables of
``typed.compiled_plan``. It never reports errors itself: on anything unusual (malformed
input, duplicate field ids, values out of range, invalid UTF-8) it returns ``None`` and the
caller redoes the work with the pure-Python twin, which raises the named error. So both
paths give identical results; tests/thrift/test_compiled.py checks it on random input.
"""

cimport cython
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.dict cimport PyDict_Copy
from cpython.object cimport PyObject, PyObject_GenericSetDict, PyTypeObject
cdef extern from "Python.h":
    dict _PyDict_NewPresized(Py_ssize_t minused)
    void PyObject_GC_UnTrack(object o)
    int PyObject_GC_IsTracked(object o)

from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.string cimport memcpy

import gc as _gc

from lakestruct.thrift.compact import RawEncoded, RawList, RawMap

DEF MAX_DEPTH = 64
DEF MAXF = 48

# kind codes (lakestruct.thrift.typed.K_*)
DEF K_BOOL = 0
DEF K_I8 = 1
DEF K_I16 = 2
DEF K_I32 = 3
DEF K_I64 = 4
DEF K_DOUBLE = 5
DEF K_BINARY = 6
DEF K_STRING = 7
DEF K_ENUM = 8
DEF K_STRUCT = 9
DEF K_LIST = 10


class _Bail(Exception):
    pass





@cython.final
cdef class _Reader:
    cdef const uint8_t* p
    cdef Py_ssize_t end
    cdef Py_ssize_t pos
    cdef bytes buf
    cdef dict last  # the attribute dict of the struct tstruct finished last

    cdef inline uint64_t varint(self) except? 0xFFFFFFFFFFFFFFFF:
        cdef uint64_t result = 0
        cdef int shift = 0
        cdef uint8_t b
        cdef uint64_t low
        while True:
            if self.pos >= self.end:
                raise _Bail()
            b = self.p[self.pos]
            self.pos += 1
            low = b & 0x7F
            if shift == 63 and low > 1:
                raise _Bail()  # overflows 64 bits
            result |= low << shift
            if b < 0x80:
                return result
            shift += 7
            if shift >= 70:
                raise _Bail()

    cdef inline int64_t zigzag(self) except? -0x7FFFFFFFFFFFFFFF:
        cdef uint64_t n = self.varint()
        return <int64_t>(n >> 1) ^ -(<int64_t>(n & 1))

    cdef inline int64_t i32(self) except? -0x7FFFFFFFFFFFFFFF:
        cdef int64_t v = self.zigzag()
        if v < -2147483648 or v > 2147483647:
            raise _Bail()
        return v

    cdef inline Py_ssize_t length(self) except -1:
        cdef uint64_t n = self.varint()
        if n > <uint64_t>(self.end - self.pos):
            raise _Bail()
        return <Py_ssize_t>n

    cdef inline bytes binary(self):
        cdef Py_ssize_t n = self.length()
        cdef bytes out = PyBytes_FromStringAndSize(<const char*>(self.p + self.pos), n)
        self.pos += n
        return out

    # -- generic values (twin of compact._Decoder) ------------------------------------------
    cdef object gvalue(self, int t, int depth):
        cdef int64_t v
        cdef double d
        cdef uint8_t b
        if t == 5 or t == 6 or t == 4:
            v = self.zigzag()
            if t != 6 and (v < -2147483648 or v > 2147483647):
                raise _Bail()
            return v
        if t == 8:
            return self.binary()
        if t == 12:
            return self.gstruct(depth + 1)
        if t == 9 or t == 10:
            return self.glist(depth + 1)
        if t == 3:
            if self.pos >= self.end:
                raise _Bail()
            b = self.p[self.pos]
            self.pos += 1
            return <int>b - 256 if b > 127 else <int>b
        if t == 7:
            if self.pos + 8 > self.end:
                raise _Bail()
            memcpy(&d, self.p + self.pos, 8)
            self.pos += 8
            return d
        if t == 11:
            return self.gmap(depth + 1)
        if t == 13:
            if self.pos + 16 > self.end:
                raise _Bail()
            self.pos += 16
            return PyBytes_FromStringAndSize(<const char*>(self.p + self.pos - 16), 16)
        if t == 1 or t == 2:
            if self.pos >= self.end:
                raise _Bail()
            b = self.p[self.pos]
            self.pos += 1
            return b == 1
        raise _Bail()

    cdef inline uint64_t list_header(self, int depth, int* et) except? 0xFFFFFFFFFFFFFFFF:
        """A list/set header: the element type into ``et``, the size returned (bails on anything
        the pure-Python twin must name: depth, end of input, bad element type, impossible size)."""
        cdef uint8_t h
        cdef uint64_t n
        if depth > MAX_DEPTH or self.pos >= self.end:
            raise _Bail()
        h = self.p[self.pos]
        self.pos += 1
        et[0] = h & 0x0F
        n = h >> 4
        if n == 15:
            n = self.varint()
        if (et[0] < 1 or et[0] > 13) and not (et[0] == 0 and n == 0):
            raise _Bail()
        if n > <uint64_t>(self.end - self.pos):
            raise _Bail()
        return n

    cdef object glist(self, int depth):
        cdef int et
        cdef Py_ssize_t i
        cdef uint64_t n = self.list_header(depth, &et)
        items = [self.gvalue(et, depth) for i in range(<Py_ssize_t>n)]
        return RawList(et, items)

    cdef object gmap(self, int depth):
        cdef uint64_t n
        cdef uint8_t kv
        cdef int kt, vt
        cdef Py_ssize_t i
        if depth > MAX_DEPTH:
            raise _Bail()
        n = self.varint()
        if n == 0:
            return RawMap(0, 0, [])
        if n > <uint64_t>(self.end - self.pos) // 2:  # 2 * n would wrap for n >= 2^63
            raise _Bail()
        if self.pos >= self.end:
            raise _Bail()
        kv = self.p[self.pos]
        self.pos += 1
        kt = kv >> 4
        vt = kv & 0x0F
        if kt < 1 or kt > 13 or vt < 1 or vt > 13:
            raise _Bail()
        items = []
        for i in range(<Py_ssize_t>n):
            k = self.gvalue(kt, depth)
            items.append((k, self.gvalue(vt, depth)))
        return RawMap(kt, vt, items)

    cdef inline int field_header(self, int* fid, int* t) except -1:
        """Reads a field header: 0 at the stop byte, 1 otherwise."""
        cdef uint8_t h
        cdef int d
        cdef int64_t lid
        if self.pos >= self.end:
            raise _Bail()
        h = self.p[self.pos]
        self.pos += 1
        if h == 0:
            return 0
        t[0] = h & 0x0F
        d = h >> 4
        if d:
            fid[0] += d
        else:
            lid = self.zigzag()
            if lid <= 0 or lid >= 32768:
                raise _Bail()
            fid[0] = <int>lid
        if fid[0] <= 0 or fid[0] >= 32768:
            raise _Bail()
        return 1

    cdef int gskip(self, int t, int depth) except -1:
        """Step over a value of wire type ``t`` as :meth:`gvalue` reads it (the same checks, bailing where it bails),
        building nothing: an unknown field's container is kept as its bytes (twin of ``compact._Decoder.skip``)."""
        cdef int et = 0
        cdef int fid = 0
        cdef int ft = 0
        cdef uint64_t n, i
        cdef uint8_t kv
        cdef int kt, vt
        if t == 5 or t == 4:
            self.i32()
            return 0
        if t == 6:
            self.zigzag()
            return 0
        if t == 8:
            n = self.length()
            self.pos += <Py_ssize_t>n
            return 0
        if t == 12:
            if depth + 1 > MAX_DEPTH:
                raise _Bail()
            while self.field_header(&fid, &ft):
                if ft != 1 and ft != 2:
                    self.gskip(ft, depth + 1)
            return 0
        if t == 9 or t == 10:
            n = self.list_header(depth + 1, &et)
            for i in range(n):
                self.gskip(et, depth + 1)
            return 0
        if t == 3 or t == 1 or t == 2:
            if self.pos >= self.end:
                raise _Bail()
            self.pos += 1
            return 0
        if t == 7 or t == 13:
            if self.pos + (8 if t == 7 else 16) > self.end:
                raise _Bail()
            self.pos += 8 if t == 7 else 16
            return 0
        if t == 11:
            if depth + 1 > MAX_DEPTH:
                raise _Bail()
            n = self.varint()
            if n == 0:
                return 0
            if n > <uint64_t>(self.end - self.pos) // 2:
                raise _Bail()
            if self.pos >= self.end:
                raise _Bail()
            kv = self.p[self.pos]
            self.pos += 1
            kt = kv >> 4
            vt = kv & 0x0F
            if kt < 1 or kt > 13 or vt < 1 or vt > 13:
                raise _Bail()
            for i in range(n):
                self.gskip(kt, depth + 1)
                self.gskip(vt, depth + 1)
            return 0
        raise _Bail()

    cdef dict gstruct(self, int depth):
        cdef dict out = {}
        cdef int fid = 0
        cdef int t = 0
        if depth > MAX_DEPTH:
            raise _Bail()
        while self.field_header(&fid, &t):
            if t == 1:
                out[fid] = (t, True)
            elif t == 2:
                out[fid] = (t, False)
            else:
                out[fid] = (t, self.gvalue(t, depth))
        return out

    # -- typed values (twin of typed.from_raw) -----------------------------------------------
    cdef object tvalue(self, int code, int t, object sub, int depth):
        """A value of kind ``code`` whose wire type ``t`` is accepted."""
        cdef int64_t v
        cdef Py_ssize_t n
        cdef uint64_t u
        if code == K_I32 or code == K_I64 or code == K_I16 or code == K_ENUM:
            u = self.varint()
            v = <int64_t>(u >> 1) ^ -(<int64_t>(u & 1))
            if v < -2147483648 or v > 2147483647:
                if t != 6 or code == K_I32:  # generic i16/i32 wire range; typed i32 range
                    raise _Bail()
            if code == K_I16 and (v < -32768 or v > 32767):
                raise _Bail()
            if code == K_ENUM:
                n = len(<tuple>sub)
                if 0 <= v < n:
                    return (<tuple>sub)[v]
            return v
        if code == K_BINARY:
            return self.binary()
        if code == K_STRING:
            try:
                return self.binary().decode("utf-8")
            except UnicodeDecodeError:
                raise _Bail()
        if code == K_STRUCT:
            return self.tstruct(<_Plan>sub, depth + 1)
        if code == K_LIST:
            return self.tlist(<_Elem>sub, depth + 1)
        # i8, double, bool elements: the generic decoding is the typed value
        return self.gvalue(t, depth)

    cdef object tlist(self, _Elem e, int depth):
        cdef object item
        cdef int et
        cdef Py_ssize_t i
        cdef uint64_t n = self.list_header(depth, &et)
        if n == 0:
            return ()
        if not (e.mask >> et) & 1:
            raise _Bail()  # from_raw: thrift.field-type
        cdef tuple out = tuple([self.tvalue(e.code, et, e.sub, depth) for i in range(<Py_ssize_t>n)])
        if e.code == K_STRUCT:
            for item in out:
                if PyObject_GC_IsTracked(item):
                    return out
        elif e.code == K_LIST:
            return out
        PyObject_GC_UnTrack(out)  # holds only atomic values or untracked models: no cycle possible
        return out

    cdef inline set once(self, int fid, uint64_t* seen, set seen_hi):
        """Bails on a field id met before in this struct (the pure-Python path's dict semantics decide duplicates);
        the set of ids >= 64 seen, created on the first."""
        cdef uint64_t bit
        if fid < 64:
            bit = (<uint64_t>1) << fid
            if seen[0] & bit:
                raise _Bail()
            seen[0] |= bit
            return seen_hi
        if seen_hi is None:
            seen_hi = set()
        if fid in seen_hi:
            raise _Bail()
        seen_hi.add(fid)
        return seen_hi

    cdef inline object known_field(self, _Plan plan, int fid, int t, int depth):
        """The value of field ``fid`` of ``plan`` (its wire type ``t`` accepted)."""
        cdef int code = plan.codes[fid]
        cdef uint64_t u
        if code == K_BOOL:
            return t == 1
        if (code == K_I32 or code == K_I64) and self.pos < self.end and self.p[self.pos] < 0x80:
            # one-byte varint: always in range
            u = self.p[self.pos]
            self.pos += 1
            return <int64_t>(u >> 1) ^ -(<int64_t>(u & 1))
        return self.tvalue(code, t, plan.subs[fid], depth)

    cdef inline tuple unknown_field(self, int fid, int t, int depth):
        """(id, wire type, value) of a field the plan does not take; a container is kept as its encoded bytes."""
        cdef Py_ssize_t start
        if t == 1:
            return (fid, t, True)
        if t == 2:
            return (fid, t, False)
        if t == 9 or t == 10 or t == 11 or t == 12:
            start = self.pos
            self.gskip(t, depth)
            return (fid, t, RawEncoded(t, PyBytes_FromStringAndSize(<const char*>(self.p + start), self.pos - start)))
        return (fid, t, self.gvalue(t, depth))

    cdef object ttuple(self, _Plan plan, int depth):
        """:meth:`tstruct` for a plan in tuple mode: the same reading and the same checks (bailing where it bails),
        the values stored in a tuple (declaration order, then ``unknown``) instead of a model."""
        cdef list vals = list(plan.slot_defaults)
        cdef list unknown = None
        cdef int fid = 0
        cdef int t = 0
        cdef uint64_t seen = 0
        cdef uint64_t got = 0
        cdef set seen_hi = None
        if depth > MAX_DEPTH:
            raise _Bail()
        while self.field_header(&fid, &t):
            seen_hi = self.once(fid, &seen, seen_hi)
            if fid < MAXF and plan.codes[fid] >= 0 and (plan.masks[fid] >> t) & 1:
                got |= (<uint64_t>1) << fid
                vals[plan.slots[fid]] = self.known_field(plan, fid, t, depth)
                continue
            if unknown is None:
                unknown = []
            unknown.append(self.unknown_field(fid, t, depth))
        if (got & plan.required) != plan.required:
            raise _Bail()
        if unknown is not None:
            vals[len(vals) - 1] = tuple(unknown)
        return tuple(vals)

    cdef object tstruct(self, _Plan plan, int depth):
        if plan.as_tuple:
            return self.ttuple(plan, depth)
        cdef dict d = _PyDict_NewPresized(plan.nfields)  # absent fields read their dataclass defaults from the class
        cdef list unknown = None
        cdef int fid = 0
        cdef int t = 0
        cdef uint64_t seen = 0
        cdef uint64_t got = 0  # fields set (accepted wire type)
        cdef set seen_hi = None
        cdef int code
        cdef bint acyclic = True
        cdef object value
        if depth > MAX_DEPTH:
            raise _Bail()
        while self.field_header(&fid, &t):
            # duplicate ids: the pure-Python path's dict semantics decide
            seen_hi = self.once(fid, &seen, seen_hi)
            if fid < MAXF and plan.codes[fid] >= 0 and (plan.masks[fid] >> t) & 1:
                got |= (<uint64_t>1) << fid
                value = self.known_field(plan, fid, t, depth)
                code = plan.codes[fid]
                if (code == K_STRUCT or code == K_LIST) and PyObject_GC_IsTracked(value):
                    acyclic = False
                d[plan.names[fid]] = value
                continue
            if unknown is None:
                unknown = []
                acyclic = False
            unknown.append(self.unknown_field(fid, t, depth))
        if (got & plan.required) != plan.required:
            raise _Bail()
        if unknown is not None:
            d["unknown"] = tuple(unknown)
        obj = (<PyTypeObject*>plan.cls).tp_new(plan.cls, <PyObject*>_EMPTY, NULL)
        PyObject_GenericSetDict(obj, d, NULL)
        if acyclic:
            # A frozen model whose values are atomic (ints, bytes, str, bool, enum members) or
            # untracked models cannot be part of a reference cycle: spare the cycle collector
            # (the same rule msgspec applies to its structs).
            PyObject_GC_UnTrack(d)
            PyObject_GC_UnTrack(obj)
        self.last = d
        return obj



cdef tuple _EMPTY = ()


cdef class _Elem:
    cdef int code
    cdef int mask
    cdef object sub


cdef class _Plan:
    cdef object cls
    cdef dict defaults
    cdef int codes[MAXF]
    cdef int masks[MAXF]
    cdef list names
    cdef list subs
    cdef uint64_t required
    cdef Py_ssize_t nfields
    # tuple mode (decode_tuples): the struct becomes a tuple of its fields in declaration order, then `unknown`
    cdef bint as_tuple
    cdef int slots[MAXF]
    cdef list slot_defaults


cdef object _sub(int code, object sub):
    if code == K_STRUCT:
        return _cplan(sub)
    if code == K_LIST:
        e = _Elem()
        e.code = sub[0]
        e.mask = sub[1]
        e.sub = _sub(sub[0], sub[2])
        return e
    return sub


cdef _Plan _cplan(list plan):
    """The C form of a ``typed.compiled_plan`` list (cached in its 5th slot)."""
    cdef _Plan cp
    cdef int i
    if len(plan) > 4 and plan[4] is not None:
        return <_Plan>plan[4]
    cp = _Plan()
    cp.cls = plan[0]
    cp.defaults = dict(plan[3])
    cp.names = [None] * MAXF
    cp.subs = [None] * MAXF
    for i in range(MAXF):
        cp.codes[i] = -1
        cp.masks[i] = 0
    cp.required = 0
    cp.nfields = min(len(<dict>plan[1]), 8)
    while len(plan) < 5:
        plan.append(None)
    plan[4] = cp  # before recursing
    for fid, spec in (<dict>plan[1]).items():
        if fid >= MAXF or fid >= 64:
            raise ValueError("field ids >= 48 are not supported by the compiled plans")
        cp.names[fid] = spec[0]
        cp.codes[fid] = spec[1]
        cp.masks[fid] = spec[2]
        cp.subs[fid] = _sub(spec[1], spec[3])
    for fid, _name in plan[2]:
        cp.required |= (<uint64_t>1) << <int>fid
    return cp


cdef object _sub_t(int code, object sub, frozenset classes, dict memo):
    if code == K_STRUCT:
        return _cplan_t(sub, classes, memo)
    if code == K_LIST:
        e = _Elem()
        e.code = sub[0]
        e.mask = sub[1]
        e.sub = _sub_t(sub[0], sub[2], classes, memo)
        return e
    return sub


cdef _Plan _cplan_t(list plan, frozenset classes, dict memo):
    """A copy of the C plan tree of ``plan`` in which the structs of ``classes`` decode into tuples."""
    cdef _Plan base = _cplan(plan)
    cdef _Plan cp
    cdef int i, slot
    key = id(plan)
    if key in memo:
        return <_Plan>memo[key]
    cp = _Plan()
    memo[key] = cp  # before recursing
    cp.cls = base.cls
    cp.defaults = base.defaults
    cp.names = list(base.names)
    cp.subs = [None] * MAXF
    cp.required = base.required
    cp.nfields = base.nfields
    cp.as_tuple = base.cls in classes
    for i in range(MAXF):
        cp.codes[i] = base.codes[i]
        cp.masks[i] = base.masks[i]
        cp.slots[i] = -1
    slot = 0
    cp.slot_defaults = []
    for fid, spec in (<dict>plan[1]).items():  # declaration order
        cp.subs[fid] = _sub_t(spec[1], spec[3], classes, memo)
        cp.slots[fid] = slot
        cp.slot_defaults.append(base.defaults.get(spec[0]))
        slot += 1
    cp.slot_defaults.append(())  # unknown
    return cp


cdef dict _TPLANS = {}


def decode_tuples(bytes buf, Py_ssize_t pos, Py_ssize_t end, list plan, frozenset classes):
    """:func:`decode_model` with the structs of ``classes`` decoded into tuples (their fields in declaration order,
    then ``unknown``): (value, position after it), or None when the pure-Python path must decide."""
    key = (id(plan), classes)
    cp = _TPLANS.get(key)
    if cp is None:
        cp = _TPLANS[key] = _cplan_t(plan, classes, {})
    cdef _Reader r = _reader(buf, pos, end)
    try:
        obj = r.tstruct(<_Plan>cp, 0)
    except _Bail:
        return None
    return obj, r.pos


cdef _Reader _reader(bytes buf, Py_ssize_t pos, Py_ssize_t end):
    cdef _Reader r = _Reader.__new__(_Reader)
    r.buf = buf
    r.p = <const uint8_t*>(<char*>buf)
    r.end = min(end, len(buf))
    r.pos = pos
    return r


def decode_struct(bytes buf, Py_ssize_t pos=0, end=None):
    """(RawStruct, position after it), or None when the pure-Python path must decide."""
    cdef _Reader r = _reader(buf, pos, len(buf) if end is None else end)
    try:
        out = r.gstruct(0)
    except _Bail:
        return None
    return out, r.pos


def decode_model(bytes buf, Py_ssize_t pos, Py_ssize_t end, list plan):
    """(model, position after it), or None when the pure-Python path must decide."""
    cdef _Reader r = _reader(buf, pos, end)
    cdef _Plan cp = _cplan(plan)
    try:
        obj = r.tstruct(cp, 0)
    except _Bail:
        return None
    return obj, r.pos


def scan_pages(bytes buf, Py_ssize_t buf_off, Py_ssize_t pos, Py_ssize_t end, int row_group, int column,
               Py_ssize_t index, object page_cls, list plan):
    """Twin of ``lakestruct.parquet.pages.scan_pages``: decode page headers from ``buf``
    (which holds the file bytes from ``buf_off``) starting at absolute ``pos`` while they are
    plain (no error, no overrun of ``end``). Returns (pages, absolute position reached)."""
    cdef _Reader r = _reader(buf, 0, len(buf))
    cdef _Plan cp = _cplan(plan)
    # the loop allocates many small acyclic objects: keep the cycle collector out of it
    cdef bint gc_was_enabled = _gc.isenabled()
    if gc_was_enabled:
        _gc.disable()
    try:
        return _scan(r, cp, buf_off, pos, end, row_group, column, index, page_cls)
    finally:
        if gc_was_enabled:
            _gc.enable()


def _decode_model_py(cls, buf, pos, end):
    from lakestruct.thrift.typed import decode_model_py

    return decode_model_py(cls, buf, pos, end)


from lakestruct.errors import FormatError as _FormatError


cdef tuple _scan(_Reader r, _Plan cp, Py_ssize_t buf_off, Py_ssize_t pos, Py_ssize_t end, int row_group, int column,
                 Py_ssize_t index, object page_cls):
    cdef list out = []
    cdef Py_ssize_t rel, hsize, page_end
    cdef int64_t csz, usz
    cdef Py_ssize_t blen = r.end
    cdef dict pd
    cdef dict template = {"row_group": row_group, "column": column, "index": None, "offset": None, "header_size": None, "header": None}
    while pos < end:
        rel = pos - buf_off
        if rel < 0 or rel >= blen:
            break
        r.pos = rel
        try:
            header = r.tstruct(cp, 0)
            hsize = r.pos - rel
            csz = r.last["compressed_page_size"]
            usz = r.last["uncompressed_page_size"]
        except _Bail:
            # what the compiled code declines (duplicate field ids, ...) the pure twin decides,
            # so both scans take the same pages in bulk
            try:
                header, after = _decode_model_py(cp.cls, r.buf, rel, blen)
            except _FormatError:
                break
            hsize = after - rel
            csz = header.compressed_page_size
            usz = header.uncompressed_page_size
        if csz < 0 or usz < 0:
            break
        page_end = pos + hsize + csz
        if page_end > end:
            break
        page = (<PyTypeObject*>page_cls).tp_new(page_cls, <PyObject*>_EMPTY, NULL)
        pd = PyDict_Copy(template)  # keys in place (a copy clones the key table): only values change
        pd["index"] = index
        pd["offset"] = pos
        pd["header_size"] = hsize
        pd["header"] = header
        PyObject_GenericSetDict(page, pd, NULL)
        if not PyObject_GC_IsTracked(header):
            PyObject_GC_UnTrack(pd)
            PyObject_GC_UnTrack(page)
        out.append(page)
        index += 1
        pos = page_end
    return out, pos
