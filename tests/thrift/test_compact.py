"""The Thrift compact protocol: generic structs through every decoder, malformed input,
and the list<bool> interop quirk."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.errors import FormatError, LimitError, TruncatedError
from lakestruct.parquet import spec
from lakestruct.thrift import compact
from lakestruct.thrift import kaitai as thrift_kaitai
from lakestruct.thrift.compact import RawList, RawMap


def _decoders() -> dict[str, Any]:
    d: dict[str, Any] = {"pure": compact.decode_struct_py, "kaitai": thrift_kaitai.decode_struct}
    if compact._compiled is not None:  # the compiled twin (falls back to the pure path when undecided)
        d["compiled"] = compact.decode_struct
    return d


DECODERS = _decoders()

_SCALARS: dict[int, st.SearchStrategy[Any]] = {
    compact.I8: st.integers(-128, 127),
    compact.I16: st.integers(-(2**15), 2**15 - 1),
    compact.I32: st.integers(-(2**31), 2**31 - 1),
    compact.I64: st.integers(-(2**63), 2**63 - 1),
    compact.DOUBLE: st.floats(allow_nan=False),
    compact.BINARY: st.binary(max_size=20),
}


def _value(t: int, depth: int) -> st.SearchStrategy[Any]:
    if t in _SCALARS:
        return _SCALARS[t]
    if t in (compact.BOOL_TRUE, compact.BOOL_FALSE):
        return st.booleans()
    if t == compact.UUID:
        return st.binary(min_size=16, max_size=16)
    if t == compact.STRUCT:
        return raw_structs(depth + 1)
    if t in (compact.LIST, compact.SET):
        return _elem_type(depth).flatmap(
            lambda et: st.lists(_value(et, depth + 1), max_size=18 if depth < 2 else 2).map(lambda items: RawList(et, items))
        )
    if t == compact.MAP:
        return st.tuples(
            st.sampled_from([compact.I32, compact.BINARY]), st.sampled_from([compact.I64, compact.BINARY, compact.BOOL_TRUE])
        ).flatmap(
            lambda kv: st.lists(st.tuples(_value(kv[0], depth + 1), _value(kv[1], depth + 1)), min_size=1, max_size=4).map(
                lambda items: RawMap(kv[0], 1 if kv[1] == compact.BOOL_TRUE else kv[1], items)
            )
        )
    raise AssertionError(t)


def _elem_type(depth: int) -> st.SearchStrategy[int]:
    base = [compact.BOOL_TRUE, compact.I8, compact.I16, compact.I32, compact.I64, compact.DOUBLE, compact.BINARY, compact.UUID]
    return st.sampled_from(base + ([compact.STRUCT, compact.LIST] if depth < 3 else []))


def _field_type(depth: int) -> st.SearchStrategy[int]:
    base = [compact.BOOL_TRUE, compact.I8, compact.I16, compact.I32, compact.I64, compact.DOUBLE, compact.BINARY, compact.UUID]
    return st.sampled_from(base + ([compact.STRUCT, compact.LIST, compact.SET, compact.MAP] if depth < 3 else []))


def raw_structs(depth: int = 0) -> st.SearchStrategy[dict[int, tuple[int, Any]]]:
    field = _field_type(depth).flatmap(lambda t: _value(t, depth).map(lambda v: (t, v)))
    # ids in any order (decreasing ids and gaps > 15 force the long form)
    return st.dictionaries(st.integers(1, 32767), field, max_size=6 if depth < 2 else 2)


def _normalise(v: Any) -> Any:
    """Booleans carry their value in the wire type; list<bool> element type 1 (the interop quirk)."""
    if isinstance(v, dict):
        return {
            k: ((compact.BOOL_TRUE if val else compact.BOOL_FALSE, val) if t in (1, 2) else (t, _normalise(val)))
            for k, (t, val) in v.items()
        }
    if isinstance(v, RawList):
        return RawList(v.elem_type, [_normalise(x) for x in v.items])
    if isinstance(v, RawMap):
        return RawMap(v.key_type, v.value_type, [(_normalise(a), _normalise(b)) for a, b in v.items])
    return v


@settings(max_examples=150)
@given(raw_structs())
def test_every_decoder_reads_what_the_encoder_wrote(raw: dict[int, tuple[int, Any]]) -> None:
    data = compact.encode_struct(raw)
    want = _normalise(raw)
    for name, dec in DECODERS.items():
        got, used = dec(data, 0)
        assert used == len(data), name
        assert got == want, name


@settings(max_examples=100)
@given(raw_structs(), st.binary(max_size=8))
def test_construct_spec_agrees(raw: dict[int, tuple[int, Any]], trailer: bytes) -> None:
    """The construct spec (written independently) reads the same fields and rebuilds the same bytes."""
    raw = {k: v for k, v in raw.items() if v[0] not in (compact.MAP, compact.UUID)}  # the spec covers Parquet's wire types
    if any(_has(v, (compact.MAP, compact.UUID)) for v in raw.values()):
        return
    data = compact.encode_struct(raw)
    fields = spec.COMPACT_STRUCT.parse(data + trailer)
    assert spec.COMPACT_STRUCT.build(fields) == data
    assert [(fid, t) for fid, t, _v in fields] == [
        (fid, (compact.BOOL_TRUE if v else compact.BOOL_FALSE) if t in (1, 2) else t) for fid, (t, v) in raw.items()
    ]


def _has(v: tuple[int, Any], types: tuple[int, ...]) -> bool:
    t, val = v
    if t in types:
        return True
    if isinstance(val, RawList):
        return val.elem_type in types or any(_has((val.elem_type, x), types) for x in val.items)
    if isinstance(val, dict):
        return any(_has(x, types) for x in val.values())
    return False


@settings(max_examples=300)
@given(st.binary(max_size=64))
def test_random_bytes_only_raise_format_errors(data: bytes) -> None:
    for dec in DECODERS.values():
        try:
            dec(data, 0)
        except FormatError:
            pass


@settings(max_examples=150)
@given(raw_structs(), st.data())
def test_truncated_structs_are_named(raw: dict[int, tuple[int, Any]], data: st.DataObject) -> None:
    full = compact.encode_struct(raw)
    cut = data.draw(st.integers(0, len(full) - 1))
    for name, dec in DECODERS.items():
        with pytest.raises(FormatError) as e:
            dec(full[:cut], 0, base=1000)
        assert e.value.offset is not None and e.value.offset >= 1000, name


def test_list_bool_quirk() -> None:
    """parquet-mr writes list<bool> with element type 1 and false as 0x02 (int32_with_null_pages.parquet)."""
    data = bytes([0x19, 0x41, 0x02, 0x01, 0x02, 0x00, 0x00])  # field 1: list of 4 bools (elem type 1): F T F F(0x00)
    for dec in DECODERS.values():
        raw, used = dec(data, 0)
        assert used == len(data)
        assert raw == {1: (compact.LIST, RawList(1, [False, True, False, False]))}


def test_varint_limits() -> None:
    too_long = bytes([0x16]) + b"\x80" * 10 + b"\x01" + b"\x00"  # field 1 i64 with an 11-byte varint
    for name, dec in DECODERS.items():
        with pytest.raises(FormatError) as e:
            dec(too_long, 0)
        assert e.value.rule in ("thrift.varint", "thrift.field-type"), name
    with pytest.raises(FormatError) as e:
        compact.decode_struct(bytes([0x15]) + b"\xff\xff\xff\xff\x7f" + b"\x00")  # i32 out of range
    assert e.value.rule == "thrift.varint"


def test_length_beyond_input_is_refused_without_allocating() -> None:
    data = bytes([0x18]) + compact.Encoder.varint(2**40) + b"abc"
    with pytest.raises(FormatError) as e:
        compact.decode_struct(data, 0, base=50)
    assert e.value.rule == "thrift.length"
    lst = bytes([0x19, 0xF5]) + compact.Encoder.varint(10**9) + b"\x00"
    with pytest.raises(FormatError) as e:
        compact.decode_struct(lst)
    assert e.value.rule == "thrift.length"


def test_deep_nesting_is_limited() -> None:
    data = bytes([0x1C]) * 200 + b"\x00" * 201
    with pytest.raises(LimitError) as e:
        compact.decode_struct(data)
    assert e.value.rule == "thrift.depth"
    with pytest.raises(FormatError):
        thrift_kaitai.decode_struct(data)


def test_truncation_offset_is_absolute() -> None:
    with pytest.raises(TruncatedError) as e:
        compact.decode_struct(bytes([0x15, 0x80]), 0, base=4000, path="x")
    assert e.value.rule == "thrift.truncated" and e.value.offset == 4002


def test_zigzag() -> None:
    for n in (0, -1, 1, -2, 2**31 - 1, -(2**31), 2**63 - 1, -(2**63)):
        assert compact.zigzag_decode(compact.zigzag_encode(n)) == n
    assert [compact.zigzag_encode(n) for n in (0, -1, 1, -2, 2)] == [0, 1, 2, 3, 4]


def test_empty_list_with_element_type_0() -> None:
    """fastparquet writes empty lists as 0x00 (element type 0): Thrift readers accept it when empty."""
    ok = bytes([0x19, 0x00, 0x00])  # field 1: empty list, element type 0
    for name, dec in DECODERS.items():
        raw, used = dec(ok, 0)
        assert used == 3 and raw == {1: (compact.LIST, RawList(0, []))}, name
    bad = bytes([0x19, 0x10, 0x00, 0x00])  # one element of type 0
    for name, dec in DECODERS.items():
        with pytest.raises(FormatError) as e:
            dec(bad, 0)
        assert e.value.rule in ("thrift.field-type", "thrift.truncated"), name
