"""Malformed Avro containers: every one gives a named ``avro.*`` rule (with its offset and field path), never a
traceback from deep inside, and what the reader allocates stays bounded by the input whatever it declares. The
Kaitai spec refuses the same framing errors, on the rule lakestruct names."""

from __future__ import annotations

import bz2
import io
import lzma
import tracemalloc
import zlib
from typing import Any

import cramjam
import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st
from kaitaistruct import KaitaiStream
from lakestruct._generated.avro_ocf import AvroOcf

from lakestruct import FormatError, LimitError, MagicError, TruncatedError
from lakestruct._kaitai import kaitai_call
from lakestruct.avro import AvroFile, container
from lakestruct.avro.model import Container, MetaBlock, StoredBlock
from lakestruct.avro.spec import encode_container
from lakestruct.avro.write import encode_avro

SCHEMA = {"type": "record", "name": "r", "fields": [{"name": "id", "type": "long"}, {"name": "path", "type": "string"},
                                                    {"name": "tags", "type": {"type": "array", "items": "string"}}]}
RECORDS = [{"id": i, "path": f"/data/{i}.parquet", "tags": ["a"] * (i % 3)} for i in range(12)]
SYNC = bytes(range(100, 116))


def sample(codec: str = "deflate") -> bytes:
    return encode_avro(SCHEMA, RECORDS, codec=codec, sync=SYNC, block_records=5)


def read_all(data: bytes) -> list[dict[str, Any]]:
    return list(AvroFile(data, name="bad.avro").records())


def error(data: bytes) -> FormatError:
    with pytest.raises(FormatError) as ei:
        read_all(data)
    e = ei.value
    assert e.rule is not None and e.rule.startswith("avro."), e.rule
    assert e.source == "bad.avro"
    return e


def ks_error(data: bytes) -> FormatError:
    reader = io.BytesIO(data)
    with pytest.raises(FormatError) as ei:
        kaitai_call("avro_ocf", reader, lambda: AvroOcf(KaitaiStream(reader)))
    return ei.value


def _long(n: int) -> bytes:
    z = (n << 1) ^ (n >> 63)
    out = bytearray()
    while z >= 0x80:
        out.append((z & 0x7F) | 0x80)
        z >>= 7
    out.append(z)
    return bytes(out)


def _header(c: Container) -> int:
    return len(encode_container(Container(c.meta_blocks, c.sync, ())))


def _blocks_at(data: bytes) -> list[int]:
    """Where each block starts, and the end of the file: the lengths at which a cut leaves a whole file."""
    f = AvroFile(data)
    return [f.header_size, *(b.data_at + b.size + 16 for b in f.blocks())]


@pytest.mark.parametrize("codec", ["null", "deflate", "zstandard"])
def test_every_truncation_is_named(codec: str) -> None:
    data = sample(codec)
    whole = set(_blocks_at(data))
    for n in range(len(data)):
        if n in whole:  # a cut between blocks leaves a shorter, valid file
            assert len(read_all(data[:n])) == 5 * sorted(whole).index(n)
            continue
        e = error(data[:n])
        assert e.rule in ("avro.truncated", "avro.magic"), (n, e.rule)
        assert isinstance(e, TruncatedError), n
        assert e.offset is not None and 0 <= e.offset <= n
        k = ks_error(data[:n])
        assert k.rule in ("avro_ocf.truncated", "avro.header"), (n, k.rule)


def test_magic_sync_counts() -> None:
    data = sample("null")
    f = AvroFile(data)
    blocks = list(f.blocks())
    e = error(b"Obj\x02" + data[4:])
    assert isinstance(e, MagicError) and (e.rule, e.offset, e.path) == ("avro.magic", 0, "magic")
    assert ks_error(b"Obj\x02" + data[4:]).rule == "avro.magic"
    # a changed sync marker after the second block
    at = blocks[1].data_at + blocks[1].size
    bad = data[:at] + bytes([data[at] ^ 0x40]) + data[at + 1 :]
    e = error(bad)
    assert (e.rule, e.offset, e.path) == ("avro.sync", at, "blocks[1].sync")
    k = ks_error(bad)
    assert k.rule == "avro.sync" and k.offset == at
    # record counts: one more than the block holds, one fewer, negative, beyond the size
    start = blocks[0].offset
    body = data[start + len(_long(5)) :]
    assert error(data[:start] + _long(6) + body).rule == "avro.record"
    e = error(data[:start] + _long(4) + body)
    assert e.rule == "avro.block" and "end after" in e.message
    e = error(data[:start] + _long(-1) + body)
    assert (e.rule, e.offset, e.path) == ("avro.block", start, "blocks[0]")
    assert ks_error(data[:start] + _long(-1) + body).rule == "avro.block"
    huge = data[:start] + _long(2**62) + body
    assert error(huge).rule == "avro.block"
    assert ks_error(huge).rule == "avro.block"


def test_giant_declared_sizes_allocate_nothing(traced: None) -> None:
    data = sample("null")
    f = AvroFile(data)
    start = next(iter(f.blocks())).offset
    cases = {
        "block size": data[:start] + _long(5) + _long(2**62) + data[start + 2 :],
        "block size 2^53": data[:start] + _long(5) + _long(2**53) + data[start + 2 :],
        "metadata count": data[:4] + _long(2**40) + data[5:],
        "metadata block size": data[:4] + _long(-(2**40)) + _long(2**62) + data[5:],
        "key length": data[:4] + _long(2) + _long(2**50) + data[6:],
        "varint": data[:start] + b"\xff" * 11 + data[start + 1 :],
    }
    assert data[4:6] == b"\x04\x16"  # one metadata block of 2 entries, the first key 11 bytes long
    want = {"block size": "avro.truncated", "block size 2^53": "avro.truncated", "metadata count": "avro.header",
            "metadata block size": "avro.header", "key length": "avro.truncated", "varint": "avro.varint"}
    for name, bad in cases.items():
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        e = error(bad)
        assert e.rule == want[name], (name, e.rule, e.message)
        k = ks_error(bad)
        assert k.rule in (want[name], "avro_ocf.truncated"), (name, k.rule)
        assert tracemalloc.get_traced_memory()[1] - base < 20 * len(bad) + 200_000, name


def _bomb(codec: str, size: int) -> bytes:
    zeros = bytes(size)
    if codec == "deflate":
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        return c.compress(zeros) + c.flush()
    if codec == "zstandard":
        return bytes(zstandard.ZstdCompressor(write_content_size=True).compress(zeros))
    if codec == "zstandard-unsized":
        return bytes(zstandard.ZstdCompressor(write_content_size=False).compress(zeros))
    if codec == "snappy":
        return bytes(cramjam.snappy.compress_raw(zeros)) + zlib.crc32(zeros).to_bytes(4, "big")
    if codec == "bzip2":
        return bz2.compress(zeros)
    return lzma.compress(zeros, preset=0)  # a 256 KiB dictionary


@pytest.mark.parametrize("codec", ["deflate", "zstandard", "zstandard-unsized", "snappy", "bzip2", "xz"])
def test_decompression_bombs_stop_at_the_block_limit(codec: str, monkeypatch: pytest.MonkeyPatch, traced: None) -> None:
    limit = 1 << 20
    monkeypatch.setattr(container, "MAX_BLOCK_BYTES", limit)
    raw = _bomb(codec, 8 * limit)
    name = codec.split("-")[0]
    empty = b'{"type": "record", "name": "e", "fields": []}'  # records of no bytes
    c = Container((MetaBlock((("avro.schema", empty), ("avro.codec", name.encode()))),), SYNC, (StoredBlock(1, raw),))
    data = encode_container(c)
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    e = error(data)
    assert isinstance(e, LimitError) and e.rule == "avro.block-size", (codec, e.rule, e.message)
    assert e.path == "blocks[0]"
    assert tracemalloc.get_traced_memory()[1] - base < 3 * limit, codec
    # within the limit the same codec decompresses (one empty record, then bytes left over)
    ok = encode_container(Container(c.meta_blocks, SYNC, (StoredBlock(1, _bomb(codec, 1000)),)))
    assert error(ok).rule == "avro.block"
    if codec == "xz":  # a stream whose dictionary (8 MiB at preset 6) needs more decoder memory than the limit allows
        big = encode_container(Container(c.meta_blocks, SYNC, (StoredBlock(1, lzma.compress(bytes(1000))),)))
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        e = error(big)
        assert isinstance(e, LimitError) and e.rule == "avro.block-size" and "decoder memory" in e.message
        assert tracemalloc.get_traced_memory()[1] - base < 3 * limit


def test_bad_codec_schema_and_blocks() -> None:
    def with_meta(entries: tuple[tuple[str, bytes], ...], blocks: tuple[StoredBlock, ...] = ()) -> bytes:
        return encode_container(Container((MetaBlock(entries),), SYNC, blocks))

    e = error(with_meta((("avro.codec", b"null"),)))
    assert e.rule == "avro.schema"
    e = error(with_meta((("avro.schema", b"{not json"),)))
    assert e.rule == "avro.schema"
    e = error(with_meta((("avro.schema", b'{"type": "nope"}'),)))
    assert e.rule == "avro.schema"
    e = error(with_meta((("avro.schema", b'"long"'), ("avro.codec", b"lz77")), (StoredBlock(1, b"\x02"),)))
    assert e.rule == "avro.codec"
    e = error(with_meta((("avro.schema", b'"long"'), ("avro.codec", b"deflate")), (StoredBlock(1, b"\xff\xff\xff"),)))
    assert e.rule == "avro.block" and "does not decompress" in e.message
    snappy = bytes(cramjam.snappy.compress_raw(b"\x02")) + b"\x00\x00\x00\x00"
    e = error(with_meta((("avro.schema", b'"long"'), ("avro.codec", b"snappy")), (StoredBlock(1, snappy),)))
    assert e.rule == "avro.block-crc"
    rec = b'{"type": "record", "name": "r", "fields": [{"name": "x", "type": "long"}]}'
    e = error(with_meta((("avro.schema", rec),), (StoredBlock(1, b"\x02\x02"),)))  # one record, a byte left
    assert e.rule == "avro.block" and e.path == "blocks[0]"
    assert read_all(with_meta((("avro.schema", rec),), (StoredBlock(2, b"\x02\x03"),))) == [{"x": 1}, {"x": -2}]
    e = error(with_meta((("avro.schema", b'"long"'),), (StoredBlock(2, b"\x02\x03"),)))  # longs, not records
    assert e.rule == "avro.record" and e.path == "blocks[0].records[0]"


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_random_mutations_name_a_rule(data: st.DataObject) -> None:
    raw = bytearray(sample(data.draw(st.sampled_from(["null", "deflate", "zstandard"]))))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        raw = raw[: data.draw(st.integers(0, len(raw)))]
    try:
        read_all(bytes(raw))
    except FormatError as e:
        assert e.rule is not None and e.rule.startswith("avro."), e.rule
    reader = io.BytesIO(bytes(raw))
    try:
        kaitai_call("avro_ocf", reader, lambda: AvroOcf(KaitaiStream(reader)))
    except FormatError as e:
        assert e.rule is not None and (e.rule.startswith("avro.") or e.rule.startswith("avro_ocf.")), e.rule


def test_the_blocks_of_a_file_decompress_to_a_bounded_total(traced: None) -> None:
    """Many small bombs, each within the block limit: together at most MAX_EXPANSION times the file."""
    frame = bytes(zstandard.ZstdCompressor(write_content_size=True).compress(bytes(4 << 20)))  # 4 MiB from ~150 bytes
    empty = b'{"type": "record", "name": "e", "fields": []}'
    meta = (MetaBlock((("avro.schema", empty), ("avro.codec", b"zstandard"))),)
    data = encode_container(Container(meta, SYNC, tuple(StoredBlock(0, frame) for _ in range(200))))
    assert len(data) * container.MAX_EXPANSION < 200 * (4 << 20) and len(frame) < 1000
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    f = AvroFile(data, name="bad.avro")
    with pytest.raises(LimitError) as ei:
        for _ in f.blocks():
            pass
    assert ei.value.rule == "avro.block-size" and "times the file" in ei.value.message
    assert tracemalloc.get_traced_memory()[1] - base < 3 * (4 << 20)
    # a file of the same blocks that stays within the bound reads
    few = encode_container(Container(meta, SYNC, tuple(StoredBlock(0, frame) for _ in range(2))))
    assert [len(b.body) for b in AvroFile(few).blocks()] == [4 << 20] * 2
