# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled twin of the JSON log scan of ``lakestruct.delta.log`` (``replay_json``'s fast path).

Plain ``add`` lines, the shape ``log._FAST_ADD`` matches, are matched here byte by byte and applied to the replay's
``adds``; every other non-empty line goes, in file order, to ``slow(line_number, line_bytes)`` (the pure twin's
generic path). The result is the pure twin's, action for action (tests/delta/test_twins.py).
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeASCII
from libc.string cimport memchr, memcmp

cdef const char* ADD_HEAD = b'{"add":{"path":"'
cdef const char* PV_HEAD = b'","partitionValues":{'
cdef const char* SIZE_HEAD = b',"size":'
cdef const char* MT_HEAD = b',"modificationTime":'
cdef const char* DC_HEAD = b',"dataChange":'
cdef const char* STATS_HEAD = b',"stats":"'
cdef const char* NULLS[4]
NULLS[0] = b',"tags":null'
NULLS[1] = b',"baseRowId":null'
NULLS[2] = b',"defaultRowCommitVersion":null'
NULLS[3] = b',"clusteringProvider":null'
cdef Py_ssize_t NULL_LEN[4]
NULL_LEN[:] = [12, 17, 31, 26]


cdef inline bint _plain(unsigned char c) nogil:
    # printable ASCII but the quote and the backslash
    return 0x20 <= c <= 0x7e and c != 0x22 and c != 0x5c


cdef inline Py_ssize_t _lit(const unsigned char* b, Py_ssize_t i, Py_ssize_t end, const char* lit, Py_ssize_t n) nogil:
    if end - i < n or memcmp(b + i, lit, n) != 0:
        return -1
    return i + n


cdef inline Py_ssize_t _str(const unsigned char* b, Py_ssize_t i, Py_ssize_t end) nogil:
    # a quoted string of plain characters starting at b[i] == '"'; the index after its closing quote, or -1
    if i >= end or b[i] != 0x22:
        return -1
    i += 1
    while i < end and _plain(b[i]):
        i += 1
    if i >= end or b[i] != 0x22:
        return -1
    return i + 1


cdef inline Py_ssize_t _digits(const unsigned char* b, Py_ssize_t i, Py_ssize_t end, long long* out) nogil:
    # 0 | [1-9][0-9]{0,17}
    cdef Py_ssize_t start = i
    cdef long long v = 0
    if i >= end or not (0x30 <= b[i] <= 0x39):
        return -1
    if b[i] == 0x30:
        out[0] = 0
        return i + 1
    while i < end and 0x30 <= b[i] <= 0x39 and i - start < 18:
        v = v * 10 + (b[i] - 0x30)
        i += 1
    out[0] = v
    return i


cdef inline bint _hex(unsigned char c) nogil:
    return (0x30 <= c <= 0x39) or (0x41 <= c <= 0x46) or (0x61 <= c <= 0x66)


cdef Py_ssize_t _json_str(const unsigned char* b, Py_ssize_t i, Py_ssize_t end) nogil:
    # the body of a JSON string after its opening quote: the index of the closing quote, or -1
    cdef unsigned char c
    while i < end:
        c = b[i]
        if c == 0x22:
            return i
        if c < 0x20:
            return -1
        if c == 0x5c:
            if i + 1 >= end:
                return -1
            c = b[i + 1]
            if c == 0x75:  # \uXXXX
                if i + 5 >= end or not (_hex(b[i + 2]) and _hex(b[i + 3]) and _hex(b[i + 4]) and _hex(b[i + 5])):
                    return -1
                i += 6
                continue
            if c in (0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74):
                i += 2
                continue
            return -1
        i += 1
    return -1


def scan(bytes data, dict adds, dict removes, int si, dict pv_cache, object pv_parse, object loads, object slow):
    """Apply the plain add lines of ``data`` to ``adds`` (and drop their keys from ``removes``); pass every other
    non-empty line to ``slow(line_number, line)`` in order."""
    cdef const unsigned char* b = <const unsigned char*> PyBytes_AS_STRING(data)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data)
    cdef Py_ssize_t start = 0, end = 0, e = 0, i = 0, j = 0, ps = 0, pe = 0, vs = 0, ve = 0, ss = -1, se = -1
    cdef long long size = 0, mt = 0
    cdef bint dc = False, ok = False, blank = True
    cdef Py_ssize_t lineno = 0
    cdef const unsigned char* nl
    cdef int k
    while start <= n:
        nl = <const unsigned char*> memchr(b + start, 0x0a, n - start) if start < n else NULL
        end = (nl - b) if nl != NULL else n
        lineno += 1
        e = end
        if e > start and b[e - 1] == 0x0d:
            e -= 1
        ok = False
        i = _lit(b, start, e, ADD_HEAD, 16)
        if i >= 0:
            ps = i
            while i < e and _plain(b[i]):
                i += 1
            pe = i
            if pe > ps:
                i = _lit(b, i, e, PV_HEAD, 21)
            else:
                i = -1
            if i >= 0:
                vs = i
                if i < e and b[i] == 0x22:  # pairs "k":"v" or "k":null
                    while True:
                        i = _str(b, i, e)
                        if i < 0 or i >= e or b[i] != 0x3a:
                            i = -1
                            break
                        i += 1
                        if i < e and b[i] == 0x22:
                            i = _str(b, i, e)
                        else:
                            i = _lit(b, i, e, b"null", 4)
                        if i < 0:
                            break
                        if i < e and b[i] == 0x2c:
                            i += 1
                            if i >= e or b[i] != 0x22:
                                i = -1
                                break
                            continue
                        break
                ve = i
                if i >= 0 and i < e and b[i] == 0x7d:
                    i = _lit(b, i + 1, e, SIZE_HEAD, 8)
                else:
                    i = -1
            if i >= 0:
                i = _digits(b, i, e, &size)
            if i >= 0:
                i = _lit(b, i, e, MT_HEAD, 20)
            if i >= 0:
                i = _digits(b, i, e, &mt)
            if i >= 0:
                i = _lit(b, i, e, DC_HEAD, 14)
            if i >= 0:
                j = _lit(b, i, e, b"true", 4)
                if j >= 0:
                    dc = True
                    i = j
                else:
                    i = _lit(b, i, e, b"false", 5)
                    dc = False
            ss = -1
            se = -1
            if i >= 0:
                j = _lit(b, i, e, STATS_HEAD, 10)
                if j >= 0:
                    se = _json_str(b, j, e)
                    if se < 0:
                        i = -1
                    else:
                        ss = j - 1
                        se += 1
                        i = se
            if i >= 0:
                while True:
                    for k in range(4):
                        j = _lit(b, i, e, NULLS[k], NULL_LEN[k])
                        if j >= 0:
                            i = j
                            break
                    else:
                        break
                ok = e - i == 2 and b[i] == 0x7d and b[i + 1] == 0x7d
        stats = None
        if ok and ss >= 0:
            try:
                stats = loads(PyBytes_FromStringAndSize(<const char*> b + ss, se - ss))
            except ValueError:  # not UTF-8: the generic path names the line
                ok = False
        if ok:
            pv_b = PyBytes_FromStringAndSize(<const char*> b + vs, ve - vs)
            pv = pv_cache.get(pv_b)
            if pv is None:
                pv = pv_parse(pv_b) if ve > vs else {}
                if len(pv_cache) < 65536:
                    pv_cache[pv_b] = pv
            p = PyUnicode_DecodeASCII(<const char*> b + ps, pe - ps, NULL)
            a = {"path": p, "partitionValues": pv, "size": size, "modificationTime": mt, "dataChange": dc}
            if ss >= 0:
                a["stats"] = stats
            adds[p] = (a, si, lineno)
            if removes:
                removes.pop(p, None)
        else:
            blank = True
            for j in range(start, end):
                if b[j] not in (0x20, 0x09, 0x0d, 0x0a, 0x0b, 0x0c):
                    blank = False
                    break
            if not blank:
                slow(lineno, PyBytes_FromStringAndSize(<const char*> b + start, end - start))
        if nl == NULL:
            break
        start = end + 1
