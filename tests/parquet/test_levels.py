"""RLE/bit-packing hybrid and legacy BIT_PACKED levels: spec examples, round trips, malformed input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.errors import FormatError, LimitError, TruncatedError
from lakestruct.parquet.levels import (
    Where,
    bit_width,
    decode_bit_packed_legacy,
    decode_hybrid,
    encode_bit_packed_legacy,
    encode_hybrid,
    unpack_bits,
)

W = Where("t.levels", 1000)


def dec(buf: bytes, bw: int, n: int) -> list[int]:
    vals, _ = decode_hybrid(buf, bw, n, W)
    return [int(x) for x in vals]


def test_spec_bit_packing_example() -> None:
    # Encodings.md: 0..7 with bit width 3 packs to 88 C6 FA (one group: header (1 << 1) | 1 = 0x03).
    assert dec(bytes([0x03, 0x88, 0xC6, 0xFA]), 3, 8) == list(range(8))
    assert encode_hybrid(list(range(8)), 3) == bytes([0x03, 0x88, 0xC6, 0xFA])


def test_seed_worked_example_bytes() -> None:
    """The seed's hex dump: nest.nest D = 04 02 02 01; nested R = 02 00 04 02 02 01 02 02 04 00, D = 0C 04 02 01."""
    assert dec(bytes.fromhex("04020201"), 2, 3) == [2, 2, 1]
    assert dec(bytes.fromhex("02000402020102020400"), 2, 7) == [0, 2, 2, 1, 2, 0, 0]
    assert dec(bytes.fromhex("0c040201"), 3, 7) == [4, 4, 4, 4, 4, 4, 1]


def test_bit_width() -> None:
    assert [bit_width(m) for m in (0, 1, 2, 3, 4, 7, 8, 255, 256)] == [0, 1, 2, 2, 3, 3, 4, 8, 9]


def test_rle_run_wider_value() -> None:
    # bit width 9 -> 2 value bytes, little-endian
    assert dec(bytes([5 << 1, 0x01, 0x01]), 9, 5) == [257] * 5


def test_width_zero_is_all_zero() -> None:
    assert dec(bytes([50 << 1]), 0, 50) == [0] * 50


def test_huge_run_allocates_only_what_is_asked() -> None:
    # one RLE run claiming 2^31 - 1 values: only the 10 requested are materialised
    header = bytearray()
    n = ((1 << 31) - 1) << 1
    while True:
        b = n & 0x7F
        n >>= 7
        header.append(b | (0x80 if n else 0))
        if not n:
            break
    vals, _ = decode_hybrid(bytes(header) + b"\x01", 1, 10, W)
    assert vals.tolist() == [1] * 10


def test_last_bit_packed_group_may_be_cut_short() -> None:
    # 1 group declared (8 values of 4 bits = 4 bytes) but only 2 bytes stored: 4 values usable
    assert dec(bytes([0x03, 0x21, 0x43]), 4, 4) == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("buf", "bw", "n", "rule", "cls"),
    [
        (b"", 1, 1, "parquet.levels.count", TruncatedError),  # no runs at all
        (bytes([2 << 1, 1]), 1, 3, "parquet.levels.count", TruncatedError),  # runs hold fewer values
        (bytes([0x00]), 1, 1, "parquet.rle.run-length", FormatError),  # zero-length RLE run
        (bytes([0x01]), 1, 1, "parquet.rle.run-length", FormatError),  # zero-group bit-packed run
        (bytes([0x80] * 6), 1, 1, "parquet.varint.overlong", FormatError),
        (bytes([0x80, 0x80]), 1, 1, "parquet.varint.truncated", TruncatedError),
        (bytes([4 << 1, 0x05]), 2, 4, "parquet.rle.value", FormatError),  # value 5 does not fit 2 bits
        (bytes([4 << 1]), 2, 4, "parquet.rle.truncated", TruncatedError),  # RLE value byte missing
        (bytes([0x03]), 3, 8, "parquet.rle.truncated", TruncatedError),  # bit-packed body missing
    ],
)
def test_malformed(buf: bytes, bw: int, n: int, rule: str, cls: type[FormatError]) -> None:
    with pytest.raises(cls) as ei:
        decode_hybrid(buf, bw, n, Where("row_groups[0].columns[2].pages[5].definition_levels", 5000))
    assert ei.value.rule == rule
    assert ei.value.path == "row_groups[0].columns[2].pages[5].definition_levels"
    assert ei.value.offset is not None and 5000 <= ei.value.offset <= 5000 + len(buf)


def test_bit_width_out_of_range() -> None:
    with pytest.raises(FormatError) as ei:
        decode_hybrid(b"\x02\x00", 40, 1, W)
    assert ei.value.rule == "parquet.rle.bit-width"


def test_decompressed_offsets_name_the_page() -> None:
    w = Where("p.levels", None, 777)
    with pytest.raises(FormatError) as ei:
        decode_hybrid(b"", 1, 1, w)
    assert ei.value.offset == 777 and "decompressed" in ei.value.message


def test_legacy_bit_packed_msb_first() -> None:
    # Encodings.md BIT_PACKED example: 0..7 with bit width 3 -> 05 39 77 (24 bits)
    assert encode_bit_packed_legacy(list(range(8)), 3) == bytes.fromhex("053977")
    vals, end = decode_bit_packed_legacy(bytes.fromhex("053977"), 3, 8, W)
    assert vals.tolist() == list(range(8)) and end == 3
    with pytest.raises(TruncatedError):
        decode_bit_packed_legacy(b"\x00", 3, 8, W)


@given(st.integers(0, 20).flatmap(lambda bw: st.tuples(st.just(bw), st.lists(st.integers(0, (1 << bw) - 1), max_size=300))))
def test_hybrid_round_trip(case: tuple[int, list[int]]) -> None:
    bw, vals = case
    enc = encode_hybrid(vals, bw)
    got, end = decode_hybrid(enc, bw, len(vals), W)
    assert got.tolist() == vals
    assert end <= len(enc)


@given(st.integers(1, 16).flatmap(lambda bw: st.tuples(st.just(bw), st.lists(st.integers(0, (1 << bw) - 1), max_size=200))))
def test_legacy_round_trip(case: tuple[int, list[int]]) -> None:
    bw, vals = case
    got, _ = decode_bit_packed_legacy(encode_bit_packed_legacy(vals, bw), bw, len(vals), W)
    assert got.tolist() == vals


@given(st.integers(1, 64), st.lists(st.integers(0, 255), max_size=64))
def test_unpack_bits_matches_bigint(bw: int, raw: list[int]) -> None:
    data = bytes(raw)
    n = len(data) * 8 // bw
    acc = int.from_bytes(data, "little")
    want = [(acc >> (i * bw)) & ((1 << bw) - 1) for i in range(n)]
    assert unpack_bits(data, bw, n).tolist() == want


@settings(max_examples=300)
@given(st.binary(max_size=40), st.integers(0, 33), st.integers(0, 1000))
def test_random_bytes_only_raise_format_errors(buf: bytes, bw: int, n: int) -> None:
    try:
        vals, end = decode_hybrid(buf, bw, n, W)
    except (FormatError, LimitError):
        return
    assert len(vals) == n and end <= len(buf)
    if bw < 64:
        assert not len(vals) or int(np.max(vals)) < (1 << bw)
