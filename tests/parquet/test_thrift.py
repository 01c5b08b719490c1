"""Parquet's Thrift structs: models vs our IDL (thriftpy2), and round trips through the
four decoders (fast, compiled twin when built, Kaitai, construct) against thriftpy2."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from thriftpy2.thrift import TType

from lakestruct.errors import FormatError
from lakestruct.parquet import model as m
from lakestruct.parquet import spec
from lakestruct.parquet.model import MODELS, ThriftModel
from lakestruct.thrift import compact
from lakestruct.thrift import kaitai as thrift_kaitai
from lakestruct.thrift.typed import from_raw, to_raw
from tests.parquet import _thrift_ref as ref

# thriftpy2 type codes for our kinds
_KIND_TTYPE = {"bool": TType.BOOL, "i8": TType.BYTE, "i16": TType.I16, "i32": TType.I32, "i64": TType.I64, "double": TType.DOUBLE}


def _ttype(kind: Any) -> tuple[int, ...]:
    if isinstance(kind, str):
        if kind == "string":
            return (TType.STRING,)
        if kind == "binary":
            return (TType.BINARY,)
        return (_KIND_TTYPE[kind],)
    tag = kind[0]
    if tag == "enum":
        return (TType.I32,)
    if tag == "struct":
        return (TType.STRUCT,)
    return (TType.LIST,)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_matches_idl(name: str) -> None:
    """Every model field is the IDL's: same id, name, type, requiredness (ColumnChunk.file_offset excepted)."""
    cls = MODELS[name]
    idl = getattr(ref.IDL, name).thrift_spec
    ours = {fid: (fname, kind, req) for fid, fname, kind, req in cls._THRIFT}
    assert set(ours) == set(idl), f"{name}: ids {sorted(ours)} vs IDL {sorted(idl)}"
    for fid, entry in idl.items():
        fname, kind, req = ours[fid]
        assert fname == entry[1], f"{name}.{fid}"
        assert entry[0] in _ttype(kind), f"{name}.{fname}: {kind} vs ttype {entry[0]}"
        if not (name == "ColumnChunk" and fname == "file_offset"):
            assert req == entry[-1], f"{name}.{fname} required"
        if isinstance(kind, tuple) and kind[0] == "enum":
            idl_enum = entry[2]
            assert {e.name: int(e) for e in kind[1]} == dict(idl_enum._NAMES_TO_VALUES), f"{name}.{fname} enum"


def _decoders() -> dict[str, Any]:
    d: dict[str, Any] = {"pure": compact.decode_struct_py, "kaitai": thrift_kaitai.decode_struct}
    if compact._compiled is not None:  # the compiled twin (falls back to the pure path when undecided)
        d["compiled"] = compact.decode_struct
    return d


DECODERS = _decoders()


def _check_roundtrip(name: str, obj: Any) -> None:
    cls = MODELS[name]
    data = ref.serialize(obj)
    want = ref.to_model(obj, cls)
    for dname, dec in DECODERS.items():
        raw, used = dec(data, 0)
        assert used == len(data), dname
        got = from_raw(cls, raw)
        assert got == want, f"{dname}: {got!r} != {want!r}"
    if name in spec.STRUCTS:  # the construct spec: parses the same, and builds bytes thriftpy2 reads back
        parsed, used = spec.parse_with_size(name, data)
        assert used == len(data)
        assert parsed == _plain(want)
        rebuilt = spec.build(name, parsed)
        # building from the model gives the canonical bytes our encoder writes too
        assert spec.build_model(want) == compact.encode_struct(to_raw(want))
        assert _idl_defaults(ref.to_model(ref.deserialize(name, rebuilt), cls)) == _idl_defaults(want)
    # model -> our encoder -> thriftpy2 reads the same object
    ours = compact.encode_struct(to_raw(want))
    assert _idl_defaults(ref.to_model(ref.deserialize(name, ours), cls)) == _idl_defaults(want)


def _idl_defaults(x: Any) -> Any:
    """thriftpy2 fills IDL defaults of absent fields (DataPageHeaderV2.is_compressed = true)."""
    if isinstance(x, tuple):
        return tuple(_idl_defaults(v) for v in x)
    if not isinstance(x, ThriftModel):
        return x
    changes = {f.name: _idl_defaults(getattr(x, f.name)) for f in dataclasses.fields(x) if f.name != "unknown"}
    if isinstance(x, m.DataPageHeaderV2) and x.is_compressed is None:
        changes["is_compressed"] = True
    return dataclasses.replace(x, **changes)


def _plain(model: ThriftModel) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for _fid, name, _kind, _r in model._THRIFT:
        v = getattr(model, name)
        if v is None:
            continue
        if isinstance(v, ThriftModel):
            v = _plain(v)
        elif isinstance(v, tuple):
            v = [_plain(x) if isinstance(x, ThriftModel) else (int(x) if isinstance(x, int) and not isinstance(x, bool) else x) for x in v]
        elif isinstance(v, int) and not isinstance(v, bool):
            v = int(v)
        out[name] = v
    return out


@settings(max_examples=60)
@given(ref.strategy("PageHeader"))
def test_page_header_roundtrip(obj: Any) -> None:
    _check_roundtrip("PageHeader", obj)


@settings(max_examples=40)
@given(ref.strategy("ColumnIndex"))
def test_column_index_roundtrip(obj: Any) -> None:
    _check_roundtrip("ColumnIndex", obj)


@settings(max_examples=40)
@given(ref.strategy("OffsetIndex"))
def test_offset_index_roundtrip(obj: Any) -> None:
    _check_roundtrip("OffsetIndex", obj)


@settings(max_examples=30)
@given(ref.strategy("BloomFilterHeader"))
def test_bloom_filter_header_roundtrip(obj: Any) -> None:
    _check_roundtrip("BloomFilterHeader", obj)


@settings(max_examples=15)
@given(ref.strategy("FileMetaData"))
def test_file_metadata_roundtrip(obj: Any) -> None:
    _check_roundtrip("FileMetaData", obj)


def test_unknown_fields_and_enum_values_are_kept() -> None:
    # PageHeader with an unknown field 99 (i32) and an unknown page type 42
    raw = {1: (compact.I32, 42), 2: (compact.I32, 1), 3: (compact.I32, 1), 99: (compact.I32, 7)}
    data = compact.encode_struct(raw)
    for dec in DECODERS.values():
        h = from_raw(m.PageHeader, dec(data, 0)[0])
        assert h.type == 42 and not isinstance(h.type, m.PageType)
        assert h.unknown == ((99, compact.I32, 7),)
    # re-encoding keeps the unknown field
    assert compact.decode_struct(compact.encode_struct(to_raw(h)))[0] == raw


def test_required_field_missing_is_named() -> None:
    data = compact.encode_struct({1: (compact.I32, 0), 2: (compact.I32, 1)})
    with pytest.raises(FormatError) as e:
        from_raw(m.PageHeader, compact.decode_struct(data)[0], path="page_header", offset=100)
    assert e.value.rule == "thrift.required-field" and e.value.offset == 100 and "compressed_page_size" in e.value.path


def test_mismatched_wire_type_is_skipped_like_thrift() -> None:
    """A known field with another wire type is skipped (kept in ``unknown``), as Thrift readers do."""
    data = compact.encode_struct({1: (compact.I32, 2), 9: (compact.BINARY, b"x"), 15: (compact.LIST, compact.RawList(compact.I32, [1]))})
    st = from_raw(m.Statistics, compact.decode_struct(data)[0])
    assert st.max is None and st.nan_count is None and st.unknown[0] == (1, compact.I32, 2)


def test_i16_where_i32_expected_is_accepted() -> None:
    """bad_data/ARROW-GH-41317 writes list<i16> encodings; compact i16/i32/i64 are all zigzag varints."""
    data = compact.encode_struct({1: (compact.I16, 5), 2: (compact.I16, 0), 3: (compact.I64, 0), 4: (compact.I32, 3)})
    h = from_raw(m.DataPageHeader, compact.decode_struct(data)[0])
    assert h.num_values == 5 and h.repetition_level_encoding == m.Encoding.RLE
    big = compact.encode_struct({1: (compact.I64, 2**40), 2: (compact.I32, 0), 3: (compact.I32, 0), 4: (compact.I32, 0)})
    with pytest.raises(FormatError) as e:
        from_raw(m.DataPageHeader, compact.decode_struct(big)[0])
    assert e.value.rule == "thrift.field-range"
