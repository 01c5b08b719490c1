"""Unknown Thrift fields are kept as their encoded bytes (``compact.RawEncoded``), by both twins.

``../shared/fuzz-repro-round2/thrift_footer_empty_lists_4MB.parquet`` (read in place) holds an unknown footer field of
4M empty lists: decoded into Python objects it took 567 MiB (~140 bytes of heap per input byte), 18 s compiled and 44 s
pure. Both twins now step over it and keep its 4 MB; written back, the footer is the same bytes.
"""

from __future__ import annotations

import struct
import tracemalloc
from pathlib import Path

import pytest

import lakestruct as ls
from lakestruct.errors import FormatError
from lakestruct.parquet import model as m
from lakestruct.thrift import compact
from lakestruct.thrift.compact import RawEncoded
from lakestruct.thrift.typed import COMPILED, decode_model, decode_model_py, from_raw, to_raw

NAME = "thrift_footer_empty_lists_4MB.parquet"


def _footer(path: Path) -> tuple[bytes, int]:
    data = path.read_bytes()
    n = struct.unpack("<i", data[-8:-4])[0]
    return data, n


def test_the_footer_keeps_its_unknown_field_as_bytes(fuzz_round2: Path, traced: None) -> None:
    path = fuzz_round2 / NAME
    data, n = _footer(path)
    footer = data[-8 - n : -8]
    base, _ = tracemalloc.get_traced_memory()
    pq = ls.parquet.open(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()  # (tracing slows the decoding below tenfold)
    assert peak - base < 24 << 20  # the input is 4 MB; 567 MiB before
    (fid, t, v), = pq.metadata.unknown
    assert (fid, t) == (30, compact.LIST) and isinstance(v, RawEncoded) and len(v.data) == 4_000_005
    # what the README says the field is: a list of lists (header 0xF9, then the size as a varint), 4M of them, each
    # empty (one byte: size 0, element type i32)
    size, after = compact.read_varint(v.data, 1, len(v.data))
    assert v.data[0] == 0xF9 and size == 4_000_000 and v.data[after:] == b"\x05" * size
    # written back, byte for byte: the model keeps the field as read
    assert compact.encode_struct(to_raw(pq.metadata)) == footer


def test_the_pure_twin_keeps_the_same(fuzz_round2: Path) -> None:
    data, n = _footer(fuzz_round2 / NAME)
    footer = data[-8 - n : -8]
    pure, used = decode_model_py(m.FileMetaData, footer, 0)
    assert used == n
    assert pure == ls.parquet.open(fuzz_round2 / NAME).metadata
    assert isinstance(pure.unknown[0][2], RawEncoded)


def _header_with(unknown_field: bytes) -> bytes:
    """A valid PageHeader (type 0, sizes 1 and 1) followed by ``unknown_field`` (field 20 onwards), then stop."""
    head = bytes([0x15, 0x00, 0x15, 0x02, 0x15, 0x02])  # fields 1, 2, 3 (i32 deltas)
    return head + unknown_field + b"\x00"


CASES = {
    # field id 20 (long form: 0x09 list, zigzag 20 = 40), list<i32> of 3: 1, 2, 3
    "list": bytes([0x09, 40, 0x35, 0x02, 0x04, 0x06]),
    # the same list in the long size form (0xF5 then a varint 3): another spelling of the same value
    "list_long_form": bytes([0x09, 40, 0xF5, 0x03, 0x02, 0x04, 0x06]),
    # a struct {1: i32 7}
    "struct": bytes([0x0C, 40, 0x15, 0x0E, 0x00]),
    # a map<i32, binary> {1: "a"}
    "map": bytes([0x0B, 40, 0x01, 0x58, 0x02, 0x01, 0x61]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_both_twins_keep_unknown_containers_encoded(case: str) -> None:
    data = _header_with(CASES[case])
    got, used = decode_model(m.PageHeader, data, 0)
    pure, pused = decode_model_py(m.PageHeader, data, 0)
    assert (got, used) == (pure, pused) and used == len(data)
    (fid, _, v), = got.unknown
    assert fid == 20 and isinstance(v, RawEncoded) and v.data == CASES[case][2:]
    # the generic decoders (and so the Kaitai engine, through from_raw) see the same value
    raw, _ = compact.decode_struct_py(data, 0)
    assert from_raw(m.PageHeader, raw) == got
    assert v.value() == raw[20][1]


def test_two_spellings_of_one_value_are_equal() -> None:
    a = decode_model_py(m.PageHeader, _header_with(CASES["list"]), 0)[0]
    b = decode_model_py(m.PageHeader, _header_with(CASES["list_long_form"]), 0)[0]
    assert a.unknown[0][2].data != b.unknown[0][2].data
    assert a == b and hash(a.unknown[0][2]) == hash(b.unknown[0][2])


@pytest.mark.parametrize(
    ("field", "rule"),
    [
        (bytes([0x09, 40, 0x35, 0x02, 0x04]), "thrift.truncated"),  # a list of 3 with 2 elements before the stop byte
        (bytes([0x09, 40, 0x3E, 0x01]), "thrift.field-type"),  # element type 14
        (bytes([0x0C, 40, 0x15, 0x80]), "thrift.truncated"),  # a struct whose varint runs off the end
        (bytes([0x0B, 40, 0xFF, 0xFF, 0xFF, 0x7F, 0x55]), "thrift.length"),  # a map of 268M entries
        (bytes([0x09, 40, 0x19]) + bytes([0x19]) * 70, "thrift.depth"),  # lists nested 70 deep
    ],
)
def test_malformed_unknown_containers_are_named_the_same_by_every_path(field: bytes, rule: str) -> None:
    data = _header_with(field)
    errors = []
    for decode in (decode_model, decode_model_py):
        with pytest.raises(FormatError) as ei:
            decode(m.PageHeader, data, 0)
        errors.append((ei.value.rule, ei.value.path, ei.value.offset))
    with pytest.raises(FormatError) as ei:
        compact.decode_struct_py(data, 0)  # the generic decoder, which decodes the value
    errors.append((ei.value.rule, ei.value.path, ei.value.offset))
    assert errors[0] == errors[1] == errors[2], errors
    assert errors[0][0] == rule


@pytest.mark.skipif(not COMPILED, reason="the compiled twin is not built")
def test_the_compiled_twin_keeps_it_without_the_pure_path(fuzz_round2: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lakestruct.thrift import typed

    def refuse(*a: object, **kw: object) -> object:
        raise AssertionError("the compiled twin handed the footer to the pure path")

    monkeypatch.setattr(typed, "decode_model_py", refuse)
    pq = ls.parquet.open(fuzz_round2 / NAME)
    assert isinstance(pq.metadata.unknown[0][2], RawEncoded)
