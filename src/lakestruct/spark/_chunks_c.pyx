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


cdef object _fallback(object cm, object dictionary_page, object data_pages, frozenset dict_encodings):
    es = cm.encoding_stats
    if not es:
        return None
    cdef bint dictionary = False, fallback = False
    for s in es:
        if s.count:
            pt = s.page_type
            if pt == dictionary_page:
                dictionary = True
            elif pt in data_pages and s.encoding not in dict_encodings:
                fallback = True
    return fallback if dictionary else False


cdef inline bint _range_ok(object cm, int64_t footer_offset) except -1:
    start = cm.data_page_offset
    dpo = cm.dictionary_page_offset
    if dpo is not None and dpo >= 4 and (dpo < start or start < 4):
        start = dpo
    tcs = cm.total_compressed_size
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
    created_by = md.created_by
    groups = md.row_groups
    cdef Py_ssize_t n_groups = len(groups)
    try:
        while rg_i < n_groups and n < max_rows:
            rg = groups[rg_i]
            rg_rows = rg.num_rows
            ci = 0
            for cc in rg.columns:
                if ci >= ncols:
                    return None
                leaf = <tuple?>leaves[ci]
                cm = cc.meta_data
                if cm is None or cc.crypto_metadata is not None or cc.file_path is not None or not _range_ok(cm, footer_offset):
                    return None
                encs = cm.encodings
                enc = enc_cache.get(encs)
                if enc is None:
                    enc = enc_cache[encs] = ([_name(enc_names, e) for e in encs], any(e in dict_encodings for e in encs))
                dpo = cm.dictionary_page_offset
                tcs = cm.total_compressed_size
                tus = cm.total_uncompressed_size
                cio = cc.column_index_offset
                oio = cc.offset_index_offset
                bfo = cm.bloom_filter_offset
                st = cm.statistics
                path = ".".join(cm.path_in_schema)
                c_rg.append(rg_i)
                c_ci.append(ci)
                c_path.append(path if path else leaf[0])
                c_type.append(_name(type_names, cm.type))
                c_logical.append(leaf[1])
                c_codec.append(_name(codec_names, cm.codec))
                c_enc.append(enc[0])
                c_rgrows.append(rg_rows)
                c_nv.append(cm.num_values)
                if st is None:
                    c_nulls.append(None)
                    c_lo.append(None)
                    c_hi.append(None)
                    c_lo_raw.append(None)
                    c_hi_raw.append(None)
                    c_distinct.append(None)
                else:
                    lo = st.min_value
                    if lo is None:
                        lo = st.min
                    hi = st.max_value
                    if hi is None:
                        hi = st.max
                    physical = leaf[2]
                    conv = leaf[3]
                    c_nulls.append(st.null_count)
                    c_lo.append(_stat_text(physical, conv, lo))
                    c_hi.append(_stat_text(physical, conv, hi))
                    c_lo_raw.append(lo)
                    c_hi_raw.append(hi)
                    c_distinct.append(st.distinct_count)
                c_tcs.append(tcs)
                c_tus.append(tus)
                c_ratio.append(tus / tcs if tcs > 0 else None)
                c_dpo.append(cm.data_page_offset)
                c_dict.append(dpo)
                c_cio.append(cio)
                c_cil.append(cc.column_index_length)
                c_oio.append(oio)
                c_oil.append(cc.offset_index_length)
                c_bfo.append(bfo)
                c_bfl.append(cm.bloom_filter_length)
                c_has_pi.append(cio is not None and oio is not None)
                c_has_bf.append(bfo is not None)
                c_has_dict.append((dpo is not None and dpo >= 4) or enc[1])
                c_fb.append(_fallback(cm, dictionary_page, data_pages, dict_encodings))
                c_created.append(created_by)
                ci += 1
            n += ci
            rg_i += 1
    except (_Bail, TypeError, AttributeError):
        return None
    return out, rg_i
