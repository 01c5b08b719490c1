# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of the row loop of the ``parquet_chunks`` source (``lakestruct.spark.sources._file_chunk_columns``).

It turns one file's footer model into the source's data columns (one Python list per column, in the order of
``CHUNKS_SCHEMA``), with the statistics decoded as the pure twin decodes them. It never builds an error row: when a
chunk of the file needs one (no leaf for it, no metadata, encrypted, in another file, outside the page region) or a
value is of an unexpected type, it returns ``None`` and the caller runs the pure twin for the whole file. So both
give the same columns; tests/spark/test_chunks_twin.py holds them to it on every Parquet file of the corpus.
"""

cimport cython
from libc.stdint cimport int32_t, int64_t
from libc.string cimport memcpy
from cpython.dict cimport PyDict_GetItem
from cpython.object cimport PyObject

import struct as _struct

from lakestruct.errors import LakestructError

cdef tuple _CATCH = (_struct.error, IndexError, ValueError, ArithmeticError, TypeError, LakestructError)
#: number of data columns of CHUNKS_SCHEMA
DEF NCOLS = 31


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


cdef class _M:
    """A model's fields by name: its instance dict (the frozen dataclasses of lakestruct.parquet.model have no slots),
    else the class attribute (a field the decoder left at its default is not in the instance dict)."""
    cdef dict d
    cdef object model

    cdef inline object get(self, str name):
        cdef PyObject* v = PyDict_GetItem(self.d, name)
        if v is not NULL:
            return <object>v
        return getattr(self.model, name)


cdef inline _M _fields(object model):
    cdef _M m = _M.__new__(_M)
    m.d = <dict?>model.__dict__
    m.model = model
    return m


cdef object _fallback(_M cm, object dictionary_page, object data_pages, frozenset dict_encodings):
    es = cm.get("encoding_stats")
    if not es:
        return None
    cdef bint dictionary = False, fallback = False
    cdef _M d
    for s in es:
        d = _fields(s)
        if d.get("count"):
            pt = d.get("page_type")
            if pt == dictionary_page:
                dictionary = True
            elif pt in data_pages and d.get("encoding") not in dict_encodings:
                fallback = True
    return fallback if dictionary else False


cdef inline bint _range_ok(_M cm, int64_t footer_offset) except -1:
    start = cm.get("data_page_offset")
    dpo = cm.get("dictionary_page_offset")
    if dpo is not None and dpo >= 4 and (dpo < start or start < 4):
        start = dpo
    tcs = cm.get("total_compressed_size")
    return start >= 4 and tcs >= 0 and start + tcs <= footer_offset


def chunk_columns(object md, list leaves, int64_t footer_offset, Py_ssize_t first, Py_ssize_t max_rows,
                  dict type_names, dict codec_names, dict enc_names, dict enc_cache, frozenset dict_encodings,
                  object dictionary_page, tuple data_pages):
    """(The data columns of the chunks of ``md``'s row groups from ``first`` on (a list of NCOLS lists), stopping
    after the row group that reaches ``max_rows`` rows; the next row group), or None: a chunk of those row groups
    needs the pure twin."""
    cdef list out = [[] for _ in range(NCOLS)]
    cdef list c_rg = out[0], c_ci = out[1], c_path = out[2], c_type = out[3], c_logical = out[4], c_codec = out[5]
    cdef list c_enc = out[6], c_rgrows = out[7], c_nv = out[8], c_nulls = out[9], c_lo = out[10], c_hi = out[11]
    cdef list c_lo_raw = out[12], c_hi_raw = out[13], c_distinct = out[14], c_tcs = out[15], c_tus = out[16]
    cdef list c_ratio = out[17], c_dpo = out[18], c_dict = out[19], c_cio = out[20], c_cil = out[21], c_oio = out[22]
    cdef list c_oil = out[23], c_bfo = out[24], c_bfl = out[25], c_has_pi = out[26], c_has_bf = out[27]
    cdef list c_has_dict = out[28], c_fb = out[29], c_created = out[30]
    cdef Py_ssize_t ncols = len(leaves), rg_i = first, ci, n = 0
    cdef tuple leaf
    cdef int physical
    cdef _M cc, cm, st
    created_by = md.created_by
    groups = md.row_groups
    cdef Py_ssize_t n_groups = len(groups)
    try:
        while rg_i < n_groups and n < max_rows:
            rg = groups[rg_i]
            rg_rows = rg.num_rows
            ci = 0
            for chunk in rg.columns:
                if ci >= ncols:
                    return None
                leaf = <tuple?>leaves[ci]
                cc = _fields(chunk)
                meta = cc.get("meta_data")
                if meta is None or cc.get("crypto_metadata") is not None or cc.get("file_path") is not None:
                    return None
                cm = _fields(meta)
                if not _range_ok(cm, footer_offset):
                    return None
                encs = cm.get("encodings")
                enc = enc_cache.get(encs)
                if enc is None:
                    enc = enc_cache[encs] = ([_name(enc_names, e) for e in encs], any(e in dict_encodings for e in encs))
                dpo = cm.get("dictionary_page_offset")
                tcs = cm.get("total_compressed_size")
                tus = cm.get("total_uncompressed_size")
                cio = cc.get("column_index_offset")
                oio = cc.get("offset_index_offset")
                bfo = cm.get("bloom_filter_offset")
                stats = cm.get("statistics")
                path = ".".join(cm.get("path_in_schema"))
                c_rg.append(rg_i)
                c_ci.append(ci)
                c_path.append(path if path else leaf[0])
                c_type.append(_name(type_names, cm.get("type")))
                c_logical.append(leaf[1])
                c_codec.append(_name(codec_names, cm.get("codec")))
                c_enc.append(enc[0])
                c_rgrows.append(rg_rows)
                c_nv.append(cm.get("num_values"))
                if stats is None:
                    c_nulls.append(None)
                    c_lo.append(None)
                    c_hi.append(None)
                    c_lo_raw.append(None)
                    c_hi_raw.append(None)
                    c_distinct.append(None)
                else:
                    st = _fields(stats)
                    lo = st.get("min_value")
                    if lo is None:
                        lo = st.get("min")
                    hi = st.get("max_value")
                    if hi is None:
                        hi = st.get("max")
                    physical = leaf[2]
                    conv = leaf[3]
                    c_nulls.append(st.get("null_count"))
                    c_lo.append(_stat_text(physical, conv, lo))
                    c_hi.append(_stat_text(physical, conv, hi))
                    c_lo_raw.append(lo)
                    c_hi_raw.append(hi)
                    c_distinct.append(st.get("distinct_count"))
                c_tcs.append(tcs)
                c_tus.append(tus)
                c_ratio.append(tus / tcs if tcs > 0 else None)
                c_dpo.append(cm.get("data_page_offset"))
                c_dict.append(dpo)
                c_cio.append(cio)
                c_cil.append(cc.get("column_index_length"))
                c_oio.append(oio)
                c_oil.append(cc.get("offset_index_length"))
                c_bfo.append(bfo)
                c_bfl.append(cm.get("bloom_filter_length"))
                c_has_pi.append(cio is not None and oio is not None)
                c_has_bf.append(bfo is not None)
                c_has_dict.append((dpo is not None and dpo >= 4) or enc[1])
                c_fb.append(_fallback(cm, dictionary_page, data_pages, dict_encodings))
                c_created.append(created_by)
                ci += 1
            n += ci
            rg_i += 1
    except (_Bail, TypeError, AttributeError, KeyError):
        return None
    return out, rg_i


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
