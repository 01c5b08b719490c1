"""Every malformed Puffin file gets a named lakestruct error with an offset, never a traceback or a hang."""

from __future__ import annotations

import io
import json
import struct
from pathlib import Path

import lz4.frame
import pytest
import zstandard
from hypothesis import given
from hypothesis import strategies as st

import lakestruct as ls
from lakestruct.errors import FormatError, LimitError, MagicError, TruncatedError


def sample(compress_footer: bool = False) -> bytes:
    buf = io.BytesIO()
    with ls.puffin.PuffinWriter(buf, created_by="t", compress_footer=compress_footer) as w:
        w.add_blob("a", b"hello world" * 10, fields=[1])
        w.add_blob("b", b"zstd blob" * 50, fields=[2], codec="zstd")
        w.add_blob("c", b"lz4 blob" * 50, fields=[3], codec="lz4")
    return buf.getvalue()


def with_payload(payload: bytes, *, flags: bytes = b"\0\0\0\0", blobs: bytes = b"") -> bytes:
    return b"PFA1" + blobs + b"PFA1" + payload + struct.pack("<i", len(payload)) + flags + b"PFA1"


def check_all(data: bytes) -> None:
    with ls.puffin.open(data) as r:
        r.check()


def raises_rule(data: bytes, rule: str, cls: type[FormatError] = FormatError) -> FormatError:
    with pytest.raises(cls) as ei:
        check_all(data)
    assert ei.value.rule == rule, str(ei.value)
    assert ei.value.path
    assert str(ei.value).startswith(("<bytes>: ", rule))
    return ei.value


@pytest.mark.parametrize("compress_footer", [False, True])
def test_every_truncation_is_a_named_error(compress_footer: bool) -> None:
    data = sample(compress_footer)
    for n in range(len(data)):
        with pytest.raises(FormatError) as ei:
            check_all(data[:n])
        assert ei.value.rule.startswith("puffin."), (n, ei.value)
    check_all(data)


def test_every_prefix_cut_is_a_named_error() -> None:
    data = sample()
    for n in range(1, len(data)):
        with pytest.raises(FormatError):
            check_all(data[n:])


def test_magics() -> None:
    data = bytearray(sample())
    footer = ls.puffin.open(bytes(data)).footer
    bad = bytearray(data)
    bad[0:4] = b"PFA2"
    e = raises_rule(bytes(bad), "puffin.header-magic", MagicError)
    assert e.offset == 0 and e.path == "magic"
    bad = bytearray(data)
    bad[-4:] = b"XFA1"
    e = raises_rule(bytes(bad), "puffin.trailing-magic", MagicError)
    assert e.offset == len(data) - 4 and e.path == "tail.magic"
    bad = bytearray(data)
    bad[footer.offset] ^= 0xFF
    e = raises_rule(bytes(bad), "puffin.footer-magic", MagicError)
    assert e.offset == footer.offset and e.path == "footer.magic"


def test_lying_payload_sizes() -> None:
    data = bytearray(sample())
    for lie in (len(data), len(data) - 19, 2**31 - 1, -1, -(2**31)):
        bad = bytearray(data)
        bad[-12:-8] = struct.pack("<i", lie)
        e = raises_rule(bytes(bad), "puffin.payload-size")
        assert e.offset == len(data) - 12 and e.path == "tail.len_payload"
    # a size that stays inside the file but points the footer magic at blob bytes
    bad = bytearray(data)
    real = struct.unpack("<i", bytes(data[-12:-8]))[0]
    bad[-12:-8] = struct.pack("<i", real + 7)
    raises_rule(bytes(bad), "puffin.footer-magic", MagicError)


@pytest.mark.parametrize("byte,bit", [(0, 1), (0, 7), (1, 0), (2, 3), (3, 7)])
def test_reserved_flag_bits(byte: int, bit: int) -> None:
    data = bytearray(sample())
    data[-8 + byte] |= 1 << bit
    e = raises_rule(bytes(data), "puffin.flags-reserved")
    assert e.offset == len(data) - 8 + byte
    assert e.path.startswith("tail.flags.reserved")


@pytest.mark.parametrize(
    "payload,rule,path",
    [
        (b"\xff\xfe{}", "puffin.json-utf8", "footer.payload"),
        (b'{"blobs": [', "puffin.json-syntax", "footer.payload"),
        (b"[]", "puffin.json-object", "footer.payload"),
        (b"{}", "puffin.json-required-field", "footer.payload.blobs"),
        (b'{"blobs": {}}', "puffin.json-field-type", "footer.payload.blobs"),
        (b'{"blobs": [1]}', "puffin.json-object", "footer.payload.blobs[0]"),
        (b'{"blobs": [{"fields": []}]}', "puffin.json-required-field", "footer.payload.blobs[0].type"),
        (
            b'{"blobs": [{"type": "t", "fields": ["1"], "snapshot-id": 1, "sequence-number": 1, "offset": 4, "length": 0}]}',
            "puffin.json-field-type",
            "footer.payload.blobs[0].fields[0]",
        ),
        (
            b'{"blobs": [{"type": "t", "fields": [], "snapshot-id": 1.5, "sequence-number": 1, "offset": 4, "length": 0}]}',
            "puffin.json-field-type",
            "footer.payload.blobs[0].snapshot-id",
        ),
        (
            b'{"blobs": [{"type": "t", "fields": [], "snapshot-id": 1, "sequence-number": 1, "offset": 4}]}',
            "puffin.json-required-field",
            "footer.payload.blobs[0].length",
        ),
        (
            b'{"blobs": [{"type": "t", "fields": [], "snapshot-id": 1, "sequence-number": true, "offset": 4, "length": 0}]}',
            "puffin.json-field-type",
            "footer.payload.blobs[0].sequence-number",
        ),
        (
            b'{"blobs": [{"type": "t", "fields": [], "snapshot-id": 99999999999999999999, "sequence-number": 1,'
            b' "offset": 4, "length": 0}]}',
            "puffin.json-field-range",
            "footer.payload.blobs[0].snapshot-id",
        ),
        (
            b'{"blobs": [{"type": "t", "fields": [], "snapshot-id": 1, "sequence-number": 1, "offset": 4, "length": 0,'
            b' "compression-codec": "snappy"}]}',
            "puffin.blob-codec",
            "footer.payload.blobs[0].compression-codec",
        ),
        (
            b'{"blobs": [{"type": "t", "fields": [], "snapshot-id": 1, "sequence-number": 1, "offset": 4, "length": 0,'
            b' "properties": {"n": 5}}]}',
            "puffin.json-properties",
            "footer.payload.blobs[0].properties.n",
        ),
        (b'{"blobs": [], "properties": []}', "puffin.json-properties", "footer.payload.properties"),
        (
            b'{"blobs": [{"type": "t", "fields": [], "snapshot-id": 1, "sequence-number": 1, "offset": 4, "length": 1}]}',
            "puffin.blob-range",
            "footer.payload.blobs[0]",
        ),
        (
            b'{"blobs": [{"type": "t", "fields": [], "snapshot-id": 1, "sequence-number": 1, "offset": 0, "length": 0}]}',
            "puffin.blob-range",
            "footer.payload.blobs[0]",
        ),
        (
            b'{"blobs": [{"type": "t", "fields": [], "snapshot-id": 1, "sequence-number": 1, "offset": -4, "length": 0}]}',
            "puffin.json-field-range",
            "footer.payload.blobs[0].offset",
        ),
        (b"[" * 100000, "puffin.json-syntax", "footer.payload"),
    ],
)
def test_bad_footer_json(payload: bytes, rule: str, path: str) -> None:
    e = raises_rule(with_payload(payload), rule)
    assert e.path == path
    assert e.offset is not None and 8 <= e.offset <= 8 + len(payload)


def test_json_syntax_error_offset_points_into_the_payload() -> None:
    payload = '{"blobs": [], "properties": {"é": "x",}}'.encode()
    e = raises_rule(with_payload(payload), "puffin.json-syntax")
    # the byte offset of the stray '}' (after a 2-byte UTF-8 character)
    assert e.offset == 8 + payload.index(b",}") + 1


def test_corrupt_blob_frames() -> None:
    good = zstandard.ZstdCompressor().compress(b"x" * 1000)
    meta = {"blobs": [{"type": "t", "fields": [], "snapshot-id": 1, "sequence-number": 1, "offset": 4, "length": 0}]}

    def file_with(stored: bytes, codec: str) -> bytes:
        meta["blobs"][0].update(length=len(stored), **{"compression-codec": codec})
        return with_payload(json.dumps(meta).encode(), blobs=stored)

    raises_rule(file_with(good[:-3], "zstd"), "puffin.blob-decompress")
    raises_rule(file_with(good + good, "zstd"), "puffin.blob-decompress")
    raises_rule(file_with(b"not a frame at all", "zstd"), "puffin.blob-decompress")
    raises_rule(file_with(b"not a frame at all", "lz4"), "puffin.blob-decompress")
    lz = lz4.frame.compress(b"y" * 1000)
    raises_rule(file_with(lz[:-4], "lz4"), "puffin.blob-decompress")
    raises_rule(file_with(lz + b"junk", "lz4"), "puffin.blob-decompress")
    # raw reads never decompress, so they succeed
    with ls.puffin.open(file_with(b"not a frame at all", "zstd")) as r:
        assert r.read_blob(0, raw=True) == b"not a frame at all"


def test_decompression_bombs_are_refused() -> None:
    # 256 MiB of zeros compresses to a few KB with zstd; the default limit is 64 MiB or 1024x the input.
    bomb = zstandard.ZstdCompressor(level=19).compress(b"\0" * (256 << 20))
    assert len(bomb) < 64 << 10
    meta = {
        "blobs": [
            {
                "type": "t", "fields": [], "snapshot-id": 1, "sequence-number": 1,
                "offset": 4, "length": len(bomb), "compression-codec": "zstd",
            }
        ]
    }
    data = with_payload(json.dumps(meta).encode(), blobs=bomb)
    e = raises_rule(data, "puffin.blob-decompress", LimitError)
    assert "limit" in e.message
    # an explicit, larger limit lets a caller who trusts the file read it
    with ls.puffin.open(data, max_blob_size=300 << 20) as r:
        assert len(r.read_blob(0)) == 256 << 20
    # an LZ4 footer payload declaring a huge content size is refused before any allocation
    frame = bytearray(lz4.frame.compress(b"{}" * 10, store_size=True))
    frame[6:14] = struct.pack("<Q", 2**40)  # content size field of the frame descriptor
    e = raises_rule(with_payload(bytes(frame), flags=b"\x01\0\0\0"), "puffin.footer-lz4", FormatError)


def test_short_and_empty_inputs() -> None:
    for data in (b"", b"P", b"PFA1", b"PFA1PFA1", b"PFA1" * 4):
        e = raises_rule(data, "puffin.min-size", TruncatedError)
        assert e.offset == 0


@given(st.binary(max_size=200))
def test_random_bytes_never_escape_the_hierarchy(data: bytes) -> None:
    try:
        check_all(data)
    except FormatError:
        pass


@given(st.data())
def test_mutations_of_a_valid_file_never_escape_the_hierarchy(data: st.DataObject) -> None:
    original = bytearray(sample(data.draw(st.booleans())))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(original) - 1))
        original[i] = data.draw(st.integers(0, 255))
    try:
        check_all(bytes(original))
    except FormatError as e:
        assert e.rule.startswith("puffin.")


def test_errors_name_the_file(tmp_path: Path) -> None:
    p = tmp_path / "bad.puffin"
    p.write_bytes(b"PFA1" + b"\0" * 30)
    with pytest.raises(FormatError) as ei:
        ls.puffin.open(p)
    assert str(ei.value).startswith(f"{p}: puffin.trailing-magic at offset 30 (tail.magic)")
    with pytest.raises(ls.SourceError):
        ls.puffin.open(tmp_path / "missing.puffin")
