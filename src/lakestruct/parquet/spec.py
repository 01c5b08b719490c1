"""An independent ``construct`` description of the Thrift compact encoding of Parquet's
page-level structs: PageHeader (and DataPageHeader, DataPageHeaderV2,
DictionaryPageHeader, IndexPageHeader, Statistics), PageLocation, OffsetIndex,
ColumnIndex and BloomFilterHeader.

It is written from the Thrift compact-protocol spec and the parquet-format IDL
(``parquet.thrift``), not from the Kaitai specs or ``lakestruct.thrift.compact``:
field headers (``ddddtttt`` id delta + wire type, long form with a zigzag i16 id),
ULEB128 varints, zigzag integers, binaries, list headers (``sssstttt``), nested
structs and the stop byte. It is symmetric: :func:`build` writes a struct from a
plain dict (``{"type": 3, "compressed_page_size": 10, ...}``; nested structs as
dicts, lists as lists) and :func:`parse` reads one back, so tests hold the Kaitai
parser and the fast decoder to it (and writers use it to produce page headers).
"""

from __future__ import annotations

from typing import Any

from construct import (
    Adapter,
    Array,
    Byte,
    Bytes,
    Computed,
    Construct,
    Float64l,
    If,
    Int8sb,
    LazyBound,
    RepeatUntil,
    Struct,
    Switch,
    VarInt,
    ZigZag,
    this,
)

__all__ = ["STRUCTS", "COMPACT_STRUCT", "build", "build_model", "model_dict", "parse", "parse_with_size", "struct_construct"]

# wire types (compact protocol)
T_TRUE, T_FALSE, T_I8, T_I16, T_I32, T_I64, T_DOUBLE, T_BINARY, T_LIST, T_SET, T_MAP, T_STRUCT = range(1, 13)

#: The parquet-format structs this spec knows: name -> {field id: (field name, wire type, element/struct)}
STRUCTS: dict[str, dict[int, tuple[str, int, Any]]] = {
    "Statistics": {
        1: ("max", T_BINARY, None),
        2: ("min", T_BINARY, None),
        3: ("null_count", T_I64, None),
        4: ("distinct_count", T_I64, None),
        5: ("max_value", T_BINARY, None),
        6: ("min_value", T_BINARY, None),
        7: ("is_max_value_exact", T_TRUE, None),
        8: ("is_min_value_exact", T_TRUE, None),
        9: ("nan_count", T_I64, None),
    },
    "DataPageHeader": {
        1: ("num_values", T_I32, None),
        2: ("encoding", T_I32, None),
        3: ("definition_level_encoding", T_I32, None),
        4: ("repetition_level_encoding", T_I32, None),
        5: ("statistics", T_STRUCT, "Statistics"),
    },
    "IndexPageHeader": {},
    "DictionaryPageHeader": {
        1: ("num_values", T_I32, None),
        2: ("encoding", T_I32, None),
        3: ("is_sorted", T_TRUE, None),
    },
    "DataPageHeaderV2": {
        1: ("num_values", T_I32, None),
        2: ("num_nulls", T_I32, None),
        3: ("num_rows", T_I32, None),
        4: ("encoding", T_I32, None),
        5: ("definition_levels_byte_length", T_I32, None),
        6: ("repetition_levels_byte_length", T_I32, None),
        7: ("is_compressed", T_TRUE, None),
        8: ("statistics", T_STRUCT, "Statistics"),
    },
    "PageHeader": {
        1: ("type", T_I32, None),
        2: ("uncompressed_page_size", T_I32, None),
        3: ("compressed_page_size", T_I32, None),
        4: ("crc", T_I32, None),
        5: ("data_page_header", T_STRUCT, "DataPageHeader"),
        6: ("index_page_header", T_STRUCT, "IndexPageHeader"),
        7: ("dictionary_page_header", T_STRUCT, "DictionaryPageHeader"),
        8: ("data_page_header_v2", T_STRUCT, "DataPageHeaderV2"),
    },
    "PageLocation": {
        1: ("offset", T_I64, None),
        2: ("compressed_page_size", T_I32, None),
        3: ("first_row_index", T_I64, None),
    },
    "OffsetIndex": {
        1: ("page_locations", T_LIST, (T_STRUCT, "PageLocation")),
        2: ("unencoded_byte_array_data_bytes", T_LIST, (T_I64, None)),
    },
    "ColumnIndex": {
        1: ("null_pages", T_LIST, (T_TRUE, None)),
        2: ("min_values", T_LIST, (T_BINARY, None)),
        3: ("max_values", T_LIST, (T_BINARY, None)),
        4: ("boundary_order", T_I32, None),
        5: ("null_counts", T_LIST, (T_I64, None)),
        6: ("repetition_level_histograms", T_LIST, (T_I64, None)),
        7: ("definition_level_histograms", T_LIST, (T_I64, None)),
        8: ("nan_counts", T_LIST, (T_I64, None)),
    },
    "Empty": {},
    "BloomFilterAlgorithm": {1: ("BLOCK", T_STRUCT, "Empty")},
    "BloomFilterHash": {1: ("XXHASH", T_STRUCT, "Empty")},
    "BloomFilterCompression": {1: ("UNCOMPRESSED", T_STRUCT, "Empty")},
    "BloomFilterHeader": {
        1: ("numBytes", T_I32, None),
        2: ("algorithm", T_STRUCT, "BloomFilterAlgorithm"),
        3: ("hash", T_STRUCT, "BloomFilterHash"),
        4: ("compression", T_STRUCT, "BloomFilterCompression"),
    },
}

#: A zigzag varint (i16/i32/i64)
ZIGZAG = ZigZag

#: binary/string: ULEB128 length + bytes
BINARY = Struct("length" / VarInt, "data" / Bytes(this.length))


def _value(type_of: Any) -> Construct:
    """A value whose wire type is ``type_of(ctx)``."""
    return Switch(
        type_of,
        {
            T_TRUE: Byte,  # only as a collection element: 1 byte (1 = true)
            T_FALSE: Byte,
            T_I8: Int8sb,
            T_I16: ZIGZAG,
            T_I32: ZIGZAG,
            T_I64: ZIGZAG,
            T_DOUBLE: Float64l,
            T_BINARY: BINARY,
            T_LIST: LazyBound(lambda: LIST),
            T_SET: LazyBound(lambda: LIST),
            T_STRUCT: LazyBound(lambda: COMPACT_STRUCT),
        },
    )


#: list/set: header `sssstttt` (size 0..14, or 15 + varint size), then the elements
LIST = Struct(
    "header" / Byte,
    "elem_type" / Computed(this.header & 0x0F),
    "long_size" / If(this.header >> 4 == 15, VarInt),
    "size" / Computed(lambda ctx: ctx.long_size if ctx.header >> 4 == 15 else ctx.header >> 4),
    "elements" / Array(this.size, _value(this.elem_type)),
)

#: one field header + value, or the stop byte
RAW_FIELD = Struct(
    "header" / Byte,
    "wire_type" / Computed(this.header & 0x0F),
    "delta" / Computed(this.header >> 4),
    "long_id" / If(lambda ctx: ctx.header != 0 and ctx.header >> 4 == 0, ZIGZAG),
    "value" / If(lambda ctx: ctx.header != 0 and ctx.wire_type not in (T_TRUE, T_FALSE), _value(this.wire_type)),
)


class _FieldsAdapter(Adapter):  # type: ignore[misc]
    """Raw field records <-> [(field id, wire type, value)] (ids from deltas; stop byte implicit)."""

    def _decode(self, obj: Any, context: Any, path: Any) -> list[tuple[int, int, Any]]:
        out = []
        fid = 0
        for f in obj:
            if f.header == 0:
                break
            fid = f.long_id if f.delta == 0 else fid + f.delta
            wt = f.wire_type
            out.append((fid, wt, wt == T_TRUE if wt in (T_TRUE, T_FALSE) else f.value))
        return out

    def _encode(self, obj: Any, context: Any, path: Any) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        prev = 0
        for fid, wt, value in obj:
            if wt in (T_TRUE, T_FALSE):
                wt, value = (T_TRUE if value else T_FALSE), None
            delta = fid - prev
            if 0 < delta <= 15:
                out.append({"header": (delta << 4) | wt, "long_id": None, "value": value})
            else:
                out.append({"header": wt, "long_id": fid, "value": value})
            prev = fid
        out.append({"header": 0, "long_id": None, "value": None})
        return out


#: a struct: fields until the stop byte, as [(field id, wire type, value)]
COMPACT_STRUCT = _FieldsAdapter(RepeatUntil(lambda obj, lst, ctx: obj["header"] == 0, RAW_FIELD))


def _to_generic(name: str, d: dict[str, Any]) -> list[tuple[int, int, Any]]:
    spec = STRUCTS[name]
    out = []
    for fid, (fname, wt, sub) in sorted(spec.items()):
        v = d.get(fname)
        if v is None:
            continue
        out.append((fid, wt, _to_generic_value(wt, sub, v)))
    return out


def _to_generic_value(wt: int, sub: Any, v: Any) -> Any:
    if wt == T_STRUCT:
        return _to_generic(sub, v)
    if wt == T_BINARY:
        return {"length": len(v), "data": bytes(v)}
    if wt == T_LIST:
        et, esub = sub
        items = [(1 if x else 2) if et == T_TRUE else _to_generic_value(et, esub, x) for x in v]
        n = len(items)
        return {"header": (n << 4 | et) if n < 15 else (0xF0 | et), "long_size": n if n >= 15 else None, "elements": items}
    return v


def _from_generic(name: str, fields: list[tuple[int, int, Any]]) -> dict[str, Any]:
    spec = STRUCTS[name]
    out: dict[str, Any] = {}
    for fid, wt, v in fields:
        if fid not in spec:
            out.setdefault("unknown", []).append((fid, wt, v))
            continue
        fname, _, sub = spec[fid]
        out[fname] = _from_generic_value(wt, sub, v)
    return out


def _from_generic_value(wt: int, sub: Any, v: Any) -> Any:
    if wt == T_STRUCT:
        return _from_generic(sub, v)
    if wt == T_BINARY:
        return bytes(v.data)
    if wt in (T_LIST, T_SET):
        et, esub = sub
        return [x == 1 if et == T_TRUE else _from_generic_value(v.elem_type, esub, x) for x in v.elements]
    return v


def struct_construct() -> Construct:
    """The generic compact-struct construct ([(id, wire type, value)] <-> bytes)."""
    return COMPACT_STRUCT


def build(name: str, d: dict[str, Any]) -> bytes:
    """Serialise the struct ``name`` (a key of :data:`STRUCTS`) from a plain dict."""
    data: bytes = COMPACT_STRUCT.build(_to_generic(name, d))
    return data


def parse(name: str, data: bytes) -> dict[str, Any]:
    """Parse the struct ``name`` from the start of ``data`` into a plain dict."""
    return _from_generic(name, COMPACT_STRUCT.parse(data))


def model_dict(model: Any) -> dict[str, Any]:
    """A model of ``lakestruct.parquet.model`` (PageHeader, ColumnIndex, ...) as the plain dict
    :func:`build` takes (enums as ints, nested models as dicts, tuples as lists)."""
    out: dict[str, Any] = {}
    for fname, _wt, _sub in STRUCTS[type(model).__name__ if type(model).__name__ in STRUCTS else "Empty"].values():
        v = getattr(model, fname, None)
        if v is None:
            continue
        out[fname] = _plain_value(v)
    return out


def _plain_value(v: Any) -> Any:
    if hasattr(v, "_THRIFT"):
        return model_dict(v)
    if isinstance(v, tuple):
        return [_plain_value(x) for x in v]
    if isinstance(v, int) and not isinstance(v, bool):
        return int(v)
    return v


def build_model(model: Any) -> bytes:
    """Serialise a PageHeader / ColumnIndex / OffsetIndex / BloomFilterHeader model (known fields)."""
    name = type(model).__name__
    if name not in STRUCTS:
        raise ValueError(f"the construct spec does not describe {name}")
    return build(name, model_dict(model))


def parse_with_size(name: str, data: bytes) -> tuple[dict[str, Any], int]:
    """Like :func:`parse`, also returning the bytes the struct used."""
    sized = Struct("s" / COMPACT_STRUCT, "end" / Computed(lambda ctx: ctx._io.tell()))
    r = sized.parse(data)
    return _from_generic(name, r.s), int(r.end)
