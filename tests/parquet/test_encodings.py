"""Value encodings on synthetic bytes: PLAIN per physical type, dictionary indices, DELTA_*,
BYTE_STREAM_SPLIT, RLE booleans; round trips and malformed input."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.errors import FormatError, LimitError, TruncatedError
from lakestruct.parquet.encodings import (
    decode_byte_stream_split,
    decode_delta_binary_packed,
    decode_delta_byte_array,
    decode_delta_length_byte_array,
    decode_plain,
    decode_rle_boolean,
    decode_values,
    encode_delta_binary_packed,
    encode_plain,
    int96_to_nanos,
)
from lakestruct.parquet.levels import Where, encode_hybrid

W = Where("row_groups[0].columns[0].pages[1].values", 100)

I32 = st.integers(-(2**31), 2**31 - 1)
I64 = st.integers(-(2**63), 2**63 - 1)


def test_plain_boolean_lsb_first() -> None:
    vals, end = decode_plain(bytes([0b00000101, 0b1]), 0, 2, 0, 9, W)
    assert vals.tolist() == [True, False, True, False, False, False, False, False, True] and end == 2


@pytest.mark.parametrize(
    ("ptype", "strat"), [(1, I32), (2, I64), (4, st.floats(width=32, allow_nan=False)), (5, st.floats(allow_nan=False))]
)
def test_plain_fixed_round_trip(ptype: int, strat: st.SearchStrategy[object]) -> None:
    @given(st.lists(strat, max_size=50))
    def check(vals: list[object]) -> None:
        buf = encode_plain(vals, ptype)
        fmt = {1: "<i", 2: "<q", 4: "<f", 5: "<d"}[ptype]
        assert buf == b"".join(struct.pack(fmt, v) for v in vals)
        got, end = decode_plain(buf, 0, len(buf), ptype, len(vals), W)
        assert got.tolist() == vals and end == len(buf)

    check()


@given(st.lists(st.binary(max_size=20), max_size=30))
def test_plain_byte_array_round_trip(vals: list[bytes]) -> None:
    buf = b"junk" + encode_plain(vals, 6)
    got, end = decode_plain(buf, 4, len(buf), 6, len(vals), W)
    assert got.tolist() == vals and end == len(buf)


def test_plain_flba_and_int96() -> None:
    raw = bytes(range(24))
    got, _ = decode_plain(raw, 0, 24, 7, 3, W, type_length=8)
    assert got.tolist() == [raw[0:8], raw[8:16], raw[16:24]]
    got, _ = decode_plain(raw, 0, 24, 3, 2, W)
    assert got.tolist() == [raw[:12], raw[12:]]
    # 2009-03-01 00:00:00: Julian day 2454892, 0 ns
    assert int96_to_nanos((0).to_bytes(8, "little") + (2454892).to_bytes(4, "little")) == 1235865600 * 10**9


@pytest.mark.parametrize(
    ("buf", "ptype", "n", "kw"),
    [
        (b"\x00" * 7, 1, 2, {}),
        (b"\x00" * 15, 2, 2, {}),
        (b"\x00", 0, 9, {}),
        (b"\x05\x00\x00\x00abc", 6, 1, {}),  # length 5, 3 bytes left
        (b"\x01\x00", 6, 1, {}),  # length prefix cut
        (b"\x00" * 7, 7, 2, {"type_length": 4}),
        (b"\x00" * 23, 3, 2, {}),
    ],
)
def test_plain_truncated(buf: bytes, ptype: int, n: int, kw: dict[str, int]) -> None:
    with pytest.raises(TruncatedError) as ei:
        decode_plain(buf, 0, len(buf), ptype, n, W, **kw)
    assert ei.value.rule == "parquet.values.truncated"
    assert ei.value.path == W.path and ei.value.offset is not None and ei.value.offset >= 100


def test_plain_byte_array_count_bounded_before_allocating() -> None:
    with pytest.raises(TruncatedError):
        decode_plain(b"\x00" * 8, 0, 8, 6, 10**9, W)


def test_unknown_type_and_missing_type_length() -> None:
    with pytest.raises(FormatError) as ei:
        decode_plain(b"", 0, 0, 9, 0, W)
    assert ei.value.rule == "parquet.values.type"
    with pytest.raises(FormatError) as ei:
        decode_plain(b"", 0, 0, 7, 0, W)
    assert ei.value.rule == "parquet.schema.type-length"


# ----------------------------------------------------------------- dictionary


def test_dictionary_indices() -> None:
    d = np.array([b"a", b"b", b"c"], dtype=object)
    buf = bytes([2]) + encode_hybrid([0, 2, 1, 1, 0], 2)
    vals, _ = decode_values(buf, 0, len(buf), 8, 6, 5, W, dictionary=d)
    assert vals.tolist() == [b"a", b"c", b"b", b"b", b"a"]
    # PLAIN_DICTIONARY (2) in a data page means the same
    vals2, _ = decode_values(buf, 0, len(buf), 2, 6, 5, W, dictionary=d)
    assert vals2.tolist() == vals.tolist()
    # bit width 0: every index is 0
    vals, _ = decode_values(bytes([0, 10 << 1]), 0, 2, 8, 6, 10, W, dictionary=d)
    assert vals.tolist() == [b"a"] * 10


@pytest.mark.parametrize(
    ("buf", "dictionary", "rule"),
    [
        (bytes([2]) + encode_hybrid([0, 3], 2), np.array([1, 2, 3]), "parquet.dictionary.index"),
        (bytes([33, 2, 0]), np.array([1]), "parquet.dictionary.bit-width"),
        (bytes([1, 2, 0]), None, "parquet.dictionary.missing"),
        (b"", np.array([1]), "parquet.values.truncated"),
    ],
)
def test_dictionary_malformed(buf: bytes, dictionary: np.ndarray | None, rule: str) -> None:
    with pytest.raises(FormatError) as ei:
        decode_values(buf, 0, len(buf), 8, 1, 2, W, dictionary=dictionary)
    assert ei.value.rule == rule


# ----------------------------------------------------------------- delta


def test_delta_spec_example() -> None:
    # Encodings.md example 1: 1, 2, 3, 4, 5 -> deltas all 1, min delta 1, bit widths 0
    buf = encode_delta_binary_packed([1, 2, 3, 4, 5])
    assert buf[:4] == bytes([0x80, 0x01, 0x04, 0x05]) and buf[4] == 0x02  # block 128, 4 miniblocks, 5 values, first 1 (zigzag 2)
    vals, end = decode_delta_binary_packed(buf, 0, len(buf), W)
    assert vals.tolist() == [1, 2, 3, 4, 5] and end == len(buf)


@given(st.lists(I64, max_size=700), st.sampled_from([(128, 4), (128, 1), (256, 8), (128, 2)]))
def test_delta_int64_round_trip(vals: list[int], shape: tuple[int, int]) -> None:
    buf = encode_delta_binary_packed(vals, block_size=shape[0], mini_count=shape[1])
    got, end = decode_delta_binary_packed(buf, 0, len(buf), W, bits=64)
    assert got.tolist() == vals and end == len(buf)


@given(st.lists(I32, max_size=300))
def test_delta_int32_wraps(vals: list[int]) -> None:
    buf = encode_delta_binary_packed(vals, bits=32)
    got, _ = decode_delta_binary_packed(buf, 0, len(buf), W, bits=32)
    assert got.tolist() == vals


@given(st.lists(st.binary(max_size=12), max_size=200))
def test_delta_length_byte_array(vals: list[bytes]) -> None:
    buf = encode_delta_binary_packed([len(v) for v in vals], bits=32) + b"".join(vals)
    got, end = decode_delta_length_byte_array(buf, 0, len(buf), len(vals), W)
    assert got.tolist() == vals and end == len(buf)


@given(st.lists(st.sampled_from([b"", b"a", b"ab", b"abc", b"abd", b"b", b"ba"]), max_size=100))
def test_delta_byte_array(vals: list[bytes]) -> None:
    prefixes, suffixes, prev = [], [], b""
    for v in vals:
        p = 0
        while p < min(len(v), len(prev)) and v[p] == prev[p]:
            p += 1
        prefixes.append(p)
        suffixes.append(v[p:])
        prev = v
    buf = (
        encode_delta_binary_packed(prefixes, bits=32) + encode_delta_binary_packed([len(s) for s in suffixes], bits=32) + b"".join(suffixes)
    )
    got, end = decode_delta_byte_array(buf, 0, len(buf), len(vals), W)
    assert got.tolist() == vals and end == len(buf)


def _uv(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


@pytest.mark.parametrize(
    ("buf", "rule", "cls"),
    [
        (_uv(100) + _uv(4) + _uv(1) + _uv(0), "parquet.delta.block-size", FormatError),
        (_uv(128) + _uv(3) + _uv(1) + _uv(0), "parquet.delta.miniblocks", FormatError),
        (_uv(128) + _uv(8) + _uv(1) + _uv(0), "parquet.delta.miniblocks", FormatError),  # 16 values per miniblock
        (_uv(128) + _uv(4) + _uv(10**12) + _uv(0) + b"\x00" * 5, "parquet.delta.count", LimitError),
        (_uv(128) + _uv(4) + _uv(3) + _uv(0) + _uv(0) + bytes([65, 0, 0, 0]), "parquet.delta.bit-width", FormatError),
        (_uv(128) + _uv(4) + _uv(3) + _uv(0) + _uv(0) + bytes([8, 0, 0, 0]) + b"\x01", "parquet.delta.truncated", TruncatedError),
        (_uv(128) + _uv(4), "parquet.varint.truncated", TruncatedError),
        (b"\xff" * 12, "parquet.varint.overlong", FormatError),
    ],
)
def test_delta_malformed(buf: bytes, rule: str, cls: type[FormatError]) -> None:
    with pytest.raises(cls) as ei:
        decode_delta_binary_packed(buf, 0, len(buf), W)
    assert ei.value.rule == rule


def test_delta_byte_array_prefix_too_long() -> None:
    buf = encode_delta_binary_packed([0, 5], bits=32) + encode_delta_binary_packed([1, 1], bits=32) + b"ab"
    with pytest.raises(FormatError) as ei:
        decode_delta_byte_array(buf, 0, len(buf), 2, W)
    assert ei.value.rule == "parquet.delta.prefix"


# ----------------------------------------------------------------- byte stream split, RLE booleans


@given(st.lists(st.floats(allow_nan=False), max_size=50))
def test_byte_stream_split_double(vals: list[float]) -> None:
    raw = np.asarray(vals, dtype="<f8").view(np.uint8).reshape(-1, 8)
    buf = np.ascontiguousarray(raw.T).tobytes()
    got, end = decode_byte_stream_split(buf, 0, len(buf), 5, len(vals), W)
    assert got.tolist() == vals and end == len(buf)


def test_byte_stream_split_flba() -> None:
    vals = [b"abc", b"def"]
    buf = b"adbecf"
    got, _ = decode_byte_stream_split(buf, 0, len(buf), 7, 2, W, type_length=3)
    assert got.tolist() == vals
    with pytest.raises(FormatError):
        decode_byte_stream_split(buf, 0, len(buf), 6, 1, W)


@given(st.lists(st.booleans(), max_size=200))
def test_rle_boolean(vals: list[bool]) -> None:
    buf = encode_hybrid([int(v) for v in vals], 1, length_prefix=True)
    got, end = decode_rle_boolean(buf, 0, len(buf), len(vals), W)
    assert got.tolist() == vals and end == len(buf)


def test_unsupported_encoding() -> None:
    with pytest.raises(FormatError) as ei:
        decode_values(b"", 0, 0, 6, 1, 1, W)  # DELTA_LENGTH_BYTE_ARRAY for INT32
    assert ei.value.rule == "parquet.values.encoding"


@settings(max_examples=150)
@given(st.binary(max_size=64), st.sampled_from([0, 3, 5, 6, 7, 8, 9]), st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7]), st.integers(0, 300))
def test_random_value_sections_only_raise_format_errors(buf: bytes, enc: int, ptype: int, n: int) -> None:
    d = np.arange(5)
    try:
        vals, end = decode_values(buf, 0, len(buf), enc, ptype, n, W, type_length=3, dictionary=d)
    except FormatError:
        return
    assert len(vals) == n and end <= len(buf)
