"""The declarative Thrift spec never loops on input it does not consume (the Web IDE runs it too)."""

from __future__ import annotations

import pytest

from lakestruct.errors import FormatError
from lakestruct.thrift import compact
from lakestruct.thrift import kaitai as thrift_kaitai
from lakestruct.thrift.compact import Encoder


@pytest.mark.parametrize("types", [0x00, 0x0F, 0xE5, 0x5E, 0xF1])
def test_map_entry_types_must_take_bytes(types: int) -> None:
    # field 1, wire type MAP (11): size 10^12, then a key/value type byte whose types read no bytes
    data = bytes([0x1B]) + Encoder.varint(10**12) + bytes([types]) + b"\x00" * 8
    with pytest.raises(FormatError) as ei:
        thrift_kaitai.decode_struct(data, 0)
    assert ei.value.rule == "thrift.field-type"
    with pytest.raises(FormatError):  # the fast decoder agrees that this is not a struct
        compact.decode_struct(data, 0)


def test_a_valid_map_still_decodes() -> None:
    # field 1: map<i32, binary> {1: "a"}
    data = bytes([0x1B]) + Encoder.varint(1) + bytes([0x58]) + Encoder.varint(2) + Encoder.varint(1) + b"a" + b"\x00"
    fast = compact.decode_struct(data, 0)
    declarative = thrift_kaitai.decode_struct(data, 0)
    assert fast == declarative


@pytest.mark.parametrize("pos,end", [(-1, None), (-5000, None), (0, 10), (0, -1)])
def test_out_of_range_positions_are_usage_errors(pos: int, end: int | None) -> None:
    from lakestruct.errors import UsageError
    from lakestruct.parquet.model import PageHeader
    from lakestruct.thrift import typed

    buf = b"\x00\x00\x00"
    with pytest.raises(UsageError):
        compact.decode_struct(buf, pos, end)
    with pytest.raises(UsageError):
        typed.decode_model(PageHeader, bytes(1 << 16) if pos < -1 else buf, pos, end)


def test_a_position_past_the_end_reads_as_truncated() -> None:
    with pytest.raises(FormatError) as ei:
        compact.decode_struct(b"\x15\x02", 2)
    assert ei.value.rule == "thrift.truncated"
