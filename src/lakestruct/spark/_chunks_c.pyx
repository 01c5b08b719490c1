# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twins of the row loops of the Parquet Spark sources (``lakestruct.spark.sources``) and of the scalar
column builders of ``lakestruct.spark.columns``.

``chunk_columns`` (twin of ``_pure_chunk_rows``) turns a footer decoded with its row groups, column chunks, column
metadata and statistics as tuples (``lakestruct.thrift.typed.decode_tuples``: the compiled decoder's own reading and
checks, without a model per struct) into the ``parquet_chunks`` data columns (one Python list per column, in the
order of ``CHUNKS_SCHEMA``), the statistics decoded as the pure twin decodes them. ``page_columns`` does the same for
one column chunk's page headers (``parquet_pages``). They never build an error row: when a chunk needs one (no leaf
for it, no metadata, encrypted, in another file, outside the page region) or a value is of an unexpected type,
``chunk_columns`` returns ``None`` and the caller runs the pure twin for the whole file. So both give the same
columns; tests/spark/test_chunks_twin.py holds them to it on every Parquet file of the corpus, the fuzz inputs and
random footers.
"""

cimport cython
from libc.stdint cimport int32_t, int64_t
from libc.string cimport memcpy

import struct as _struct

from lakestruct.errors import LakestructError

cdef tuple _CATCH = (_struct.error, IndexError, ValueError, ArithmeticError, TypeError, LakestructError)
#: number of data columns of CHUNKS_SCHEMA
DEF NCOLS = 31
#: tuple slots of the footer structs (see SLOTS)
DEF RG_COLUMNS = 0
DEF RG_NUM_ROWS = 2
DEF CC_FILE_PATH = 0
DEF CC_META_DATA = 2
DEF CC_OFFSET_INDEX_OFFSET = 3
DEF CC_OFFSET_INDEX_LENGTH = 4
DEF CC_COLUMN_INDEX_OFFSET = 5
DEF CC_COLUMN_INDEX_LENGTH = 6
DEF CC_CRYPTO_METADATA = 7
DEF CM_TYPE = 0
DEF CM_ENCODINGS = 1
DEF CM_PATH_IN_SCHEMA = 2
DEF CM_CODEC = 3
DEF CM_NUM_VALUES = 4
DEF CM_TOTAL_UNCOMPRESSED_SIZE = 5
DEF CM_TOTAL_COMPRESSED_SIZE = 6
DEF CM_DATA_PAGE_OFFSET = 8
DEF CM_DICTIONARY_PAGE_OFFSET = 10
DEF CM_STATISTICS = 11
DEF CM_ENCODING_STATS = 12
DEF CM_BLOOM_FILTER_OFFSET = 13
DEF CM_BLOOM_FILTER_LENGTH = 14
DEF ST_MAX = 0
DEF ST_MIN = 1
DEF ST_NULL_COUNT = 2
DEF ST_DISTINCT_COUNT = 3
DEF ST_MAX_VALUE = 4
DEF ST_MIN_VALUE = 5
DEF ES_PAGE_TYPE = 0
DEF ES_ENCODING = 1
DEF ES_COUNT = 2


class _Bail(Exception):
    pass


cdef inline object _name(dict names, object v):
    n = names.get(v)
    if n is not None:
        return n
    return None if v is None else str(v)


cdef object _decode(int physical, object conv, bytes raw):
    cdef Py_ssize_t n = len(raw)
    cdef const char* p = raw
    cdef int32_t i32
    cdef int64_t i64
    cdef float f32
    cdef double f64
    if physical == 1:
        if n != 4:
            raise _struct.error("size")
        memcpy(&i32, p, 4)
        v = i32
    elif physical == 2:
        if n != 8:
            raise _struct.error("size")
        memcpy(&i64, p, 8)
        v = i64
    elif physical == 4:
        if n != 4:
            raise _struct.error("size")
        memcpy(&f32, p, 4)
        v = <double>f32
    elif physical == 5:
        if n != 8:
            raise _struct.error("size")
        memcpy(&f64, p, 8)
        v = f64
    elif physical == 0:
        if n == 0:
            raise IndexError("empty")
        v = bool(<unsigned char>p[0])
    else:
        v = raw
    if conv is not None:
        v = conv(v)
    return v


cdef object _stat_text(int physical, object conv, object raw):
    if raw is None:
        return None
    if type(raw) is not bytes:
        raise _Bail()
    try:
        v = _decode(physical, conv, <bytes>raw)
        if isinstance(v, bytes):
            return "0x" + v.hex()
        return str(v)
    except _CATCH:
        return "0x" + raw.hex()


cdef object _fallback(tuple cm, object dictionary_page, object data_pages, frozenset dict_encodings):
    es = cm[CM_ENCODING_STATS]
    if not es:
        return None
    cdef bint dictionary = False, fallback = False
    cdef tuple d
    for s in es:
        d = <tuple?>s
        if d[ES_COUNT]:
            pt = d[ES_PAGE_TYPE]
            if pt == dictionary_page:
                dictionary = True
            elif pt in data_pages and d[ES_ENCODING] not in dict_encodings:
                fallback = True
    return fallback if dictionary else False


cdef inline bint _range_ok(object data_page_offset, object dpo, object tcs, int64_t footer_offset) except -1:
    start = data_page_offset
    if dpo is not None and dpo >= 4 and (dpo < start or start < 4):
        start = dpo
    return start >= 4 and tcs >= 0 and start + tcs <= footer_offset


def chunk_columns(object md, list leaves, int64_t footer_offset, Py_ssize_t first, Py_ssize_t max_rows,
                  dict type_names, dict codec_names, dict enc_names, dict enc_cache, frozenset dict_encodings,
                  object dictionary_page, tuple data_pages):
    """(The data columns of the chunks of ``md``'s row groups from ``first`` on (a list of NCOLS lists), stopping
    after the row group that reaches ``max_rows`` rows; the next row group), or None: a chunk of those row groups
    needs the pure twin. ``md`` is a FileMetaData whose row groups, column chunks, column metadata, statistics and
    page encoding stats are tuples (``lakestruct.thrift.typed.decode_tuples``; slots: the CC_/CM_/ST_/ES_ constants,
    checked against ``tuple_fields`` by the caller)."""
    cdef list out = [[] for _ in range(NCOLS)]
    cdef list c_rg = out[0], c_ci = out[1], c_path = out[2], c_type = out[3], c_logical = out[4], c_codec = out[5]
    cdef list c_enc = out[6], c_rgrows = out[7], c_nv = out[8], c_nulls = out[9], c_lo = out[10], c_hi = out[11]
    cdef list c_lo_raw = out[12], c_hi_raw = out[13], c_distinct = out[14], c_tcs = out[15], c_tus = out[16]
    cdef list c_ratio = out[17], c_dpo = out[18], c_dict = out[19], c_cio = out[20], c_cil = out[21], c_oio = out[22]
    cdef list c_oil = out[23], c_bfo = out[24], c_bfl = out[25], c_has_pi = out[26], c_has_bf = out[27]
    cdef list c_has_dict = out[28], c_fb = out[29], c_created = out[30]
    cdef Py_ssize_t ncols = len(leaves), rg_i = first, ci, n = 0
    cdef tuple leaf, rg, cc, cm, st
    cdef int physical
    created_by = md.created_by
    groups = md.row_groups
    cdef Py_ssize_t n_groups = len(groups)
    try:
        while rg_i < n_groups and n < max_rows:
            rg = <tuple?>groups[rg_i]
            rg_rows = rg[RG_NUM_ROWS]
            ci = 0
            for chunk in <tuple?>rg[RG_COLUMNS]:
                if ci >= ncols:
                    return None
                leaf = <tuple?>leaves[ci]
                cc = <tuple?>chunk
                meta = cc[CC_META_DATA]
                if meta is None or cc[CC_CRYPTO_METADATA] is not None or cc[CC_FILE_PATH] is not None:
                    return None
                cm = <tuple?>meta
                dpo = cm[CM_DICTIONARY_PAGE_OFFSET]
                tcs = cm[CM_TOTAL_COMPRESSED_SIZE]
                data_page_offset = cm[CM_DATA_PAGE_OFFSET]
                if not _range_ok(data_page_offset, dpo, tcs, footer_offset):
                    return None
                encs = cm[CM_ENCODINGS]
                enc = enc_cache.get(encs)
                if enc is None:
                    enc = enc_cache[encs] = ([_name(enc_names, e) for e in encs], any(e in dict_encodings for e in encs))
                tus = cm[CM_TOTAL_UNCOMPRESSED_SIZE]
                cio = cc[CC_COLUMN_INDEX_OFFSET]
                oio = cc[CC_OFFSET_INDEX_OFFSET]
                bfo = cm[CM_BLOOM_FILTER_OFFSET]
                stats = cm[CM_STATISTICS]
                path = ".".join(cm[CM_PATH_IN_SCHEMA])
                c_rg.append(rg_i)
                c_ci.append(ci)
                c_path.append(path if path else leaf[0])
                c_type.append(_name(type_names, cm[CM_TYPE]))
                c_logical.append(leaf[1])
                c_codec.append(_name(codec_names, cm[CM_CODEC]))
                c_enc.append(enc[0])
                c_rgrows.append(rg_rows)
                c_nv.append(cm[CM_NUM_VALUES])
                if stats is None:
                    c_nulls.append(None)
                    c_lo.append(None)
                    c_hi.append(None)
                    c_lo_raw.append(None)
                    c_hi_raw.append(None)
                    c_distinct.append(None)
                else:
                    st = <tuple?>stats
                    lo = st[ST_MIN_VALUE]
                    if lo is None:
                        lo = st[ST_MIN]
                    hi = st[ST_MAX_VALUE]
                    if hi is None:
                        hi = st[ST_MAX]
                    physical = leaf[2]
                    conv = leaf[3]
                    c_nulls.append(st[ST_NULL_COUNT])
                    c_lo.append(_stat_text(physical, conv, lo))
                    c_hi.append(_stat_text(physical, conv, hi))
                    c_lo_raw.append(lo)
                    c_hi_raw.append(hi)
                    c_distinct.append(st[ST_DISTINCT_COUNT])
                c_tcs.append(tcs)
                c_tus.append(tus)
                c_ratio.append(tus / tcs if tcs > 0 else None)
                c_dpo.append(data_page_offset)
                c_dict.append(dpo)
                c_cio.append(cio)
                c_cil.append(cc[CC_COLUMN_INDEX_LENGTH])
                c_oio.append(oio)
                c_oil.append(cc[CC_OFFSET_INDEX_LENGTH])
                c_bfo.append(bfo)
                c_bfl.append(cm[CM_BLOOM_FILTER_LENGTH])
                c_has_pi.append(cio is not None and oio is not None)
                c_has_bf.append(bfo is not None)
                c_has_dict.append((dpo is not None and dpo >= 4) or enc[1])
                c_fb.append(_fallback(cm, dictionary_page, data_pages, dict_encodings))
                c_created.append(created_by)
                ci += 1
            n += ci
            rg_i += 1
    except (_Bail, TypeError, AttributeError, IndexError):
        return None
    return out, rg_i


#: the slots this loop reads (the DEF constants above, in lakestruct.thrift.typed.tuple_fields order); sources.py
#: checks them against tuple_fields before the twin's first use
SLOTS = {
    "RowGroup": {"columns": RG_COLUMNS, "num_rows": RG_NUM_ROWS},
    "ColumnChunk": {"file_path": CC_FILE_PATH, "meta_data": CC_META_DATA, "offset_index_offset": CC_OFFSET_INDEX_OFFSET,
                    "offset_index_length": CC_OFFSET_INDEX_LENGTH, "column_index_offset": CC_COLUMN_INDEX_OFFSET,
                    "column_index_length": CC_COLUMN_INDEX_LENGTH, "crypto_metadata": CC_CRYPTO_METADATA},
    "ColumnMetaData": {"type": CM_TYPE, "encodings": CM_ENCODINGS, "path_in_schema": CM_PATH_IN_SCHEMA, "codec": CM_CODEC,
                       "num_values": CM_NUM_VALUES, "total_uncompressed_size": CM_TOTAL_UNCOMPRESSED_SIZE,
                       "total_compressed_size": CM_TOTAL_COMPRESSED_SIZE, "data_page_offset": CM_DATA_PAGE_OFFSET,
                       "dictionary_page_offset": CM_DICTIONARY_PAGE_OFFSET, "statistics": CM_STATISTICS,
                       "encoding_stats": CM_ENCODING_STATS, "bloom_filter_offset": CM_BLOOM_FILTER_OFFSET,
                       "bloom_filter_length": CM_BLOOM_FILTER_LENGTH},
    "Statistics": {"max": ST_MAX, "min": ST_MIN, "null_count": ST_NULL_COUNT, "distinct_count": ST_DISTINCT_COUNT,
                   "max_value": ST_MAX_VALUE, "min_value": ST_MIN_VALUE},
    "PageEncodingStats": {"page_type": ES_PAGE_TYPE, "encoding": ES_ENCODING, "count": ES_COUNT},
}


cdef void _flatten(object v, list out) except *:
    cdef type t = type(v)
    if v is None or t is int or t is str or t is bytes or t is bool or t is float:
        out.append(v)
    elif t is tuple:
        out.append(_TUPLE)
        out.append(len(<tuple>v))
        for x in <tuple>v:
            _flatten(x, out)
    elif isinstance(v, int):  # an enum member: its value (the models hold a member for every value the enum knows)
        out.append(int(v))
    else:
        d = getattr(v, "__dict__", None)
        if type(d) is not dict:
            raise _Bail()
        out.append(t)
        out.append(len(<dict>d))
        for k, x in (<dict>d).items():
            out.append(k)
            _flatten(x, out)


cdef object _TUPLE = object()


def schema_key(tuple schema):
    """A hashable key equal for equal schemas (tuples of SchemaElement models), cheaper to hash and compare than the
    models themselves: their fields (names and values) flattened, with the model classes and tuple lengths as
    separators; None when a value is of a kind it does not flatten."""
    cdef list out = []
    try:
        for el in schema:
            _flatten(el, out)
    except (_Bail, RecursionError):
        return None
    return tuple(out)


#: number of columns of the pages rows: PAGES_SCHEMA's data columns, then the 4 error columns
DEF NPAGECOLS = 25


def page_columns(object pages, Py_ssize_t rg_i, Py_ssize_t ci, tuple leaf, dict page_names, dict enc_names,
                 list out, object crc_error):
    """Append the rows of one column chunk's ``pages`` (Page objects) to ``out`` (NPAGECOLS lists: the data columns
    of PAGES_SCHEMA, then the error columns), as ``_page_rows`` builds them; ``crc_error(page)`` checks a page's CRC
    (None: it holds, else the error columns; not called when CRCs are not checked: pass None). An error of the
    iteration propagates; the rows of the pages before it are in ``out``, whole."""
    if len(out) != NPAGECOLS:
        raise ValueError("out must hold one list per column")
    cdef list c_rg = out[0], c_ci = out[1], c_name = out[2], c_idx = out[3], c_off = out[4], c_hs = out[5]
    cdef list c_type = out[6], c_enc = out[7], c_cs = out[8], c_us = out[9], c_nv = out[10], c_nn = out[11]
    cdef list c_nr = out[12], c_has_crc = out[13], c_crc = out[14], c_crc_ok = out[15], c_nulls = out[16]
    cdef list c_lo = out[17], c_hi = out[18], c_lo_raw = out[19], c_hi_raw = out[20]
    cdef list e_rule = out[21], e_off = out[22], e_path = out[23], e_msg = out[24]
    cdef int physical = leaf[2]
    conv = leaf[3]
    name = leaf[0]
    cdef Py_ssize_t n = 0
    for p in pages:
        h = p.header
        v1 = h.data_page_header
        v2 = h.data_page_header_v2
        sub = v1 or v2 or h.dictionary_page_header
        data_sub = v1 or v2
        crc = h.crc
        crc_ok = None
        err = None
        if crc is not None and crc_error is not None:
            err = crc_error(p)
            crc_ok = err is None
        st = data_sub.statistics if data_sub is not None else None
        if st is not None:
            lo = st.min_value
            if lo is None:
                lo = st.min
            hi = st.max_value
            if hi is None:
                hi = st.max
            lo_text = _stat_text_py(physical, conv, lo)
            hi_text = _stat_text_py(physical, conv, hi)
        page_type = _name(page_names, h.type)
        c_rg.append(rg_i)
        c_ci.append(ci)
        c_name.append(name)
        c_idx.append(p.index)
        c_off.append(p.offset)
        c_hs.append(p.header_size)
        c_type.append(page_type if page_type is not None else "?")
        c_enc.append(_name(enc_names, sub.encoding) if sub is not None else None)
        c_cs.append(h.compressed_page_size)
        c_us.append(h.uncompressed_page_size)
        c_nv.append(sub.num_values if sub is not None else None)
        c_nn.append(v2.num_nulls if v2 is not None else None)
        c_nr.append(v2.num_rows if v2 is not None else None)
        c_has_crc.append(crc is not None)
        c_crc.append(None if crc is None else crc & 0xFFFFFFFF)
        c_crc_ok.append(crc_ok)
        if st is None:
            c_nulls.append(None)
            c_lo.append(None)
            c_hi.append(None)
            c_lo_raw.append(None)
            c_hi_raw.append(None)
        else:
            c_nulls.append(st.null_count)
            c_lo.append(lo_text)
            c_hi.append(hi_text)
            c_lo_raw.append(lo)
            c_hi_raw.append(hi)
        if err is None:
            e_rule.append(None)
            e_off.append(None)
            e_path.append(None)
            e_msg.append(None)
        else:
            e_rule.append(err[0])
            e_off.append(err[1])
            e_path.append(err[2])
            e_msg.append(err[3])
        n += 1
    return n


cdef object _stat_text_py(int physical, object conv, object raw):
    """``_stat_text`` for any value (a page header's statistics may hold what the chunk twin would bail on)."""
    if raw is None:
        return None
    if type(raw) is not bytes:
        raw = bytes(raw)
    return _stat_text(physical, conv, raw)


# -- column buffers (compiled twins of lakestruct.spark.columns' builders) --------------------------------------------

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.long cimport PyLong_AsLongLong
from libc.string cimport memset

cdef extern from "Python.h":
    const char* PyUnicode_AsUTF8AndSize(object s, Py_ssize_t* size) except NULL
    Py_ssize_t PyBytes_GET_SIZE(object o)


cdef bytes _new_bytes(Py_ssize_t n):
    cdef bytes b = PyBytes_FromStringAndSize(NULL, n)
    if n:
        memset(PyBytes_AS_STRING(b), 0, n)
    return b


cdef inline void _set_bit(char* bits, Py_ssize_t i) noexcept:
    bits[i >> 3] = <char>((<unsigned char>bits[i >> 3]) | (1 << (i & 7)))


def int_column(list values, int width):
    """(little-endian values of ``width`` bytes (4 or 8, signed), validity bitmap or None, null count) for a list of
    ints and Nones; None when a value is anything else or does not fit (the pure builder decides then)."""
    cdef Py_ssize_t n = len(values), i, nulls = 0
    cdef bytes data = _new_bytes(n * width)
    cdef bytes valid = _new_bytes((n + 7) // 8)
    cdef char* d = PyBytes_AS_STRING(data)
    cdef char* vb = PyBytes_AS_STRING(valid)
    cdef long long x
    cdef int32_t x32
    for i in range(n):
        v = values[i]
        if v is None:
            nulls += 1
            continue
        if type(v) is not int:
            return None
        try:
            x = PyLong_AsLongLong(v)
        except OverflowError:
            return None
        if width == 8:
            memcpy(d + 8 * i, &x, 8)
        else:
            if x < -2147483648 or x > 2147483647:
                return None
            x32 = <int32_t>x
            memcpy(d + 4 * i, &x32, 4)
        _set_bit(vb, i)
    return data, (valid if nulls else None), nulls


def float_column(list values):
    """(little-endian float64 values, validity or None, null count) for floats and Nones; None for anything else."""
    cdef Py_ssize_t n = len(values), i, nulls = 0
    cdef bytes data = _new_bytes(n * 8)
    cdef bytes valid = _new_bytes((n + 7) // 8)
    cdef char* d = PyBytes_AS_STRING(data)
    cdef char* vb = PyBytes_AS_STRING(valid)
    cdef double x
    for i in range(n):
        v = values[i]
        if v is None:
            nulls += 1
            continue
        if type(v) is not float:
            return None
        x = <double>v
        memcpy(d + 8 * i, &x, 8)
        _set_bit(vb, i)
    return data, (valid if nulls else None), nulls


def bool_column(list values):
    """(value bitmap, validity or None, null count) for True, False and None; None for anything else."""
    cdef Py_ssize_t n = len(values), i, nulls = 0
    cdef bytes bits = _new_bytes((n + 7) // 8)
    cdef bytes valid = _new_bytes((n + 7) // 8)
    cdef char* b = PyBytes_AS_STRING(bits)
    cdef char* vb = PyBytes_AS_STRING(valid)
    for i in range(n):
        v = values[i]
        if v is None:
            nulls += 1
            continue
        if v is True:
            _set_bit(b, i)
        elif v is not False:
            return None
        _set_bit(vb, i)
    return bits, (valid if nulls else None), nulls


def str_column(list values, bint binary):
    """(int32 offsets, data, validity or None, null count) of str (UTF-8) or, with ``binary``, bytes values and Nones;
    None for anything else or when the data passes 2^31 - 1 bytes."""
    cdef Py_ssize_t n = len(values), i, nulls = 0, total = 0, size
    cdef const char* s
    for i in range(n):  # pass 1: types and the total size
        v = values[i]
        if v is None:
            nulls += 1
        elif binary:
            if type(v) is not bytes:
                return None
            total += PyBytes_GET_SIZE(v)
        else:
            if type(v) is not str:
                return None
            try:
                PyUnicode_AsUTF8AndSize(v, &size)
            except UnicodeEncodeError:  # a lone surrogate: the pure builder raises its own error
                return None
            total += size
        if total > 2147483647:
            return None
    cdef bytes offsets = _new_bytes((n + 1) * 4)
    cdef bytes data = _new_bytes(total)
    cdef bytes valid = _new_bytes((n + 7) // 8)
    cdef char* o = PyBytes_AS_STRING(offsets)
    cdef char* d = PyBytes_AS_STRING(data)
    cdef char* vb = PyBytes_AS_STRING(valid)
    cdef int32_t at = 0
    for i in range(n):  # pass 2: copy
        v = values[i]
        if v is not None:
            if binary:
                size = PyBytes_GET_SIZE(v)
                s = PyBytes_AS_STRING(v)
            else:
                s = PyUnicode_AsUTF8AndSize(v, &size)
            memcpy(d + at, s, size)
            at += <int32_t>size
            _set_bit(vb, i)
        memcpy(o + 4 * (i + 1), &at, 4)
    return offsets, data, (valid if nulls else None), nulls
