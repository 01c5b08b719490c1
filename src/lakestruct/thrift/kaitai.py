"""The declarative path: Thrift compact structs parsed by the parser generated from
``formats/thrift/thrift_compact.ksy``, turned into the same
:data:`~lakestruct.thrift.compact.RawStruct` the pure-Python decoder returns.

Tests decode the same bytes both ways and require equal results; readers can run on
this path (``lakestruct.parquet.open(..., engine="kaitai")``).
"""

from __future__ import annotations

import io
from typing import Any

from kaitaistruct import KaitaiStream

from .._generated.thrift_compact import ThriftCompact
from .._kaitai import kaitai_call
from ..errors import FormatError
from .compact import (
    BINARY,
    BOOL_FALSE,
    BOOL_TRUE,
    DOUBLE,
    I8,
    I16,
    I32,
    I64,
    LIST,
    MAP,
    SET,
    STRUCT,
    UUID,
    RawList,
    RawMap,
    RawStruct,
)

__all__ = ["decode_struct", "from_kaitai"]

_last: tuple[Any, io.BytesIO] | None = None


def _varint(v: Any, path: str) -> int:
    """The value of a ``uvarint`` or ``zigzag_varint``, with the fast decoder's checks: at most
    10 bytes, and no more than 64 bits (the spec's 10th group may carry up to 7 bits)."""
    raw = v.raw if hasattr(v, "raw") else v
    if raw.too_long:
        raise FormatError("varint longer than 10 bytes", rule="thrift.varint", path=path)
    if raw.value >= 1 << 64:
        raise FormatError("varint overflows 64 bits", rule="thrift.varint", path=path)
    return int(v.value)


def _value(t: int, v: Any, path: str) -> Any:
    if t in (I16, I32, I64):
        n = _varint(v.int_value, path)
        # as compact._Decoder.value: an i16/i32 wire value must fit 32 bits (typed models narrow i16 further)
        if t != I64 and not -(1 << 31) <= n < (1 << 31):
            raise FormatError(f"{'i16' if t == I16 else 'i32'} value {n} out of range", rule="thrift.varint", path=path)
        return n
    if t == BINARY:
        _varint(v.binary_value.len_data, path)
        return bytes(v.binary_value.data)
    if t == STRUCT:
        return from_kaitai(v.struct_value, path)
    if t in (LIST, SET):
        lv = v.list_value
        et = int(lv.elem_type)
        return RawList(et, [_value(et, e, f"{path}[{i}]") for i, e in enumerate(lv.elements)])
    if t == I8:
        return int(v.byte_value)
    if t == DOUBLE:
        return float(v.double_value)
    if t in (BOOL_TRUE, BOOL_FALSE):
        return bool(v.bool_value)
    if t == MAP:
        mv = v.map_value
        if mv.size.value == 0:
            return RawMap(0, 0, [])
        kt, vt = mv.types // 16, mv.types % 16
        return RawMap(kt, vt, [(_value(kt, e.key, path), _value(vt, e.val, path)) for e in mv.entries])
    if t == UUID:
        return bytes(v.uuid_value)
    raise FormatError(f"unknown wire type {t}", rule="thrift.field-type", path=path)


def from_kaitai(st: Any, path: str = "struct") -> RawStruct:
    """A parsed ``compact_struct`` (or the top-level ``ThriftCompact``) as a RawStruct."""
    out: RawStruct = {}
    for f in st.fields:
        if f.is_stop:
            break
        t = int(f.wire_type)
        if getattr(f, "explicit_id", None) is not None:
            _varint(f.explicit_id, path)  # an overflowing long-form id is a varint error first, as in compact.py
        fid = int(f.field_id)
        if not 0 < fid < 32768:
            raise FormatError(f"field id {fid} outside 1..32767", rule="thrift.field-id", path=path)
        if f.is_bool:
            out[fid] = (t, bool(f.bool_value))
        else:
            out[fid] = (t, _value(t, f.value, f"{path}.{fid}"))
    return out


def decode_struct(
    buf: bytes | bytearray | memoryview, pos: int = 0, end: int | None = None, *, base: int = 0, path: str = "struct"
) -> tuple[RawStruct, int]:
    """Same contract as :func:`lakestruct.thrift.compact.decode_struct`, via Kaitai."""
    if end is None or end == len(buf):
        # one stream per buffer (a page walk decodes many headers from one buffer)
        global _last
        if _last is None or _last[0] is not buf:
            _last = (buf, io.BytesIO(bytes(buf)))
        bio = _last[1]
        start = pos
    else:
        bio = io.BytesIO(bytes(buf[pos:end]))
        start = 0
    stream = KaitaiStream(bio)
    stream.seek(start)

    def parse() -> tuple[RawStruct, int]:
        st = ThriftCompact(stream)
        raw = from_kaitai(st, path)
        return raw, pos + stream.pos() - start

    try:
        return kaitai_call("thrift_compact", bio, parse, path=path, root=path)
    except RecursionError:
        raise FormatError("structure nests too deeply", rule="thrift.depth", path=path, offset=base + pos) from None
    except FormatError as e:
        if e.rule.startswith("thrift_compact."):  # the generic Kaitai rules, in our namespace
            e.rule = "thrift." + e.rule[len("thrift_compact.") :]
        # Kaitai reports offsets within its stream
        e.offset = base + (pos if e.offset is None else e.offset + pos - start)
        raise
