"""Round trips through three independent descriptions of the Avro container: a model (``avro.model.Container``) built
into bytes by the construct spec parses back to the same model with the Kaitai spec (generated parser), with
lakestruct's reader and with the construct spec; what ``avro.write`` writes (null, deflate, zstandard) fastavro reads
back record for record."""

from __future__ import annotations

import io
import os
import string
from pathlib import Path
from typing import Any

import fastavro
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kaitaistruct import KaitaiStream
from lakestruct._generated.avro_ocf import AvroOcf

import lakestruct as ls
from lakestruct.avro import AvroFile
from lakestruct.avro.model import Container, MetaBlock, StoredBlock
from lakestruct.avro.spec import decode_container, encode_container
from lakestruct.avro.write import encode_avro, write_avro

_KEYS = st.text(string.ascii_letters + string.digits + "-._ é", min_size=0, max_size=20).filter(lambda k: not k.startswith("avro."))
_ENTRY = st.tuples(_KEYS, st.binary(max_size=80))


@st.composite
def containers(draw: st.DrawFn) -> Container:
    """A container whose header has a writer schema and the null codec (so the reader takes every block's bytes
    as they are), other entries in blocks of any size, some stating their byte size; blocks of any bytes with
    record counts the framing allows (at most the size + 1)."""
    blocks = []
    first = [("avro.schema", b'"bytes"'), ("avro.codec", b"null")]
    draw(st.randoms()).shuffle(first)
    metas = [MetaBlock(tuple(first), draw(st.booleans()))]
    for entries in draw(st.lists(st.lists(_ENTRY, min_size=1, max_size=4), max_size=3)):
        metas.append(MetaBlock(tuple(entries), draw(st.booleans())))
    for data in draw(st.lists(st.binary(max_size=300), max_size=5)):
        blocks.append(StoredBlock(draw(st.integers(0, len(data) + 1)), data))
    return Container(tuple(metas), draw(st.binary(min_size=16, max_size=16)), tuple(blocks))


def _kaitai_model(ks: AvroOcf) -> Container:
    metas = tuple(MetaBlock(tuple((e.key.text, e.value.data) for e in m.entries), m.count.value < 0)
                  for m in ks.meta_blocks if m.num_entries)
    return Container(metas, ks.sync, tuple(StoredBlock(b.num_objects.value, b.data) for b in ks.blocks))


@settings(max_examples=300, deadline=None)
@given(c=containers())
def test_model_construct_kaitai_reader(c: Container) -> None:
    data = encode_container(c)
    ks = AvroOcf(KaitaiStream(io.BytesIO(data)))
    assert _kaitai_model(ks) == c
    for m, want in zip((m for m in ks.meta_blocks if m.num_entries), c.meta_blocks, strict=True):
        if want.sized:  # the byte size a negative count announces is the entries' size
            assert m.len_block.value == sum(len(e.key.data) + len(e.value.data) + len(_long(len(e.key.data))) +
                                            len(_long(len(e.value.data))) for e in m.entries)
    assert ks.meta_blocks[-1].num_entries == 0
    assert decode_container(data) == c
    f = AvroFile(data)
    assert f.sync == c.sync and f.metadata == c.metadata
    got = list(f.blocks())
    assert [(b.count, b.body) for b in got] == [(b.count, b.data) for b in c.blocks]
    assert [(b.offset, b.size) for b in got] == [(b.offset, b.len_data.value) for b in ks.blocks]
    starts = [f.header_size] + [b.data_at + b.size + 16 for b in got]  # each block starts where the one before ends
    assert [b.offset for b in got] == starts[:-1] and starts[-1] == len(data)


def _long(n: int) -> bytes:
    z = (n << 1) ^ (n >> 63)
    out = bytearray()
    while True:
        if z < 0x80:
            out.append(z)
            return bytes(out)
        out.append((z & 0x7F) | 0x80)
        z >>= 7


SCHEMA: dict[str, Any] = {
    "type": "record", "name": "manifest_entry", "fields": [
        {"name": "status", "type": "int"},
        {"name": "snapshot_id", "type": ["null", "long"]},
        {"name": "data_file", "type": {"type": "record", "name": "r2", "fields": [
            {"name": "file_path", "type": "string"},
            {"name": "record_count", "type": "long"},
            {"name": "lower_bounds", "type": ["null", {"type": "array", "items": {"type": "record", "name": "k_v", "fields": [
                {"name": "key", "type": "int"}, {"name": "value", "type": "bytes"}]}}]},
            {"name": "split_offsets", "type": ["null", {"type": "array", "items": "long"}]},
            {"name": "props", "type": {"type": "map", "values": "string"}},
            {"name": "score", "type": "double"},
        ]}},
    ]}
_LONGS = st.integers(-(2**63), 2**63 - 1)
RECORDS = st.fixed_dictionaries({
    "status": st.integers(0, 2),
    "snapshot_id": st.none() | _LONGS,
    "data_file": st.fixed_dictionaries({
        "file_path": st.text(max_size=30),
        "record_count": _LONGS,
        "lower_bounds": st.none() | st.lists(st.fixed_dictionaries({"key": st.integers(-(2**31), 2**31 - 1),
                                                                    "value": st.binary(max_size=16)}), max_size=4),
        "split_offsets": st.none() | st.lists(_LONGS, max_size=4),
        "props": st.dictionaries(st.text(max_size=5), st.text(max_size=8), max_size=3),
        "score": st.floats(allow_nan=False),
    }),
})


@settings(max_examples=200, deadline=None)
@given(records=st.lists(RECORDS, max_size=12), codec=st.sampled_from(["null", "deflate", "zstd", "zstandard"]),
       per_block=st.integers(1, 5))
def test_written_files_read_back_in_fastavro(records: list[dict[str, Any]], codec: str, per_block: int) -> None:
    data = encode_avro(SCHEMA, records, codec=codec, block_records=per_block, metadata={"format-version": "2", "raw": b"\x01\xc3\xa9"})
    reader = fastavro.reader(io.BytesIO(data))
    assert list(reader) == records
    assert reader.metadata["avro.codec"] == ("zstandard" if codec == "zstd" else codec)
    f = AvroFile(data)
    assert list(f.records()) == records
    assert f.schema == SCHEMA and f.metadata["format-version"] == b"2" and f.metadata["raw"] == b"\x01\xc3\xa9"
    counts = [b.count for b in f.blocks()]
    assert counts == [min(per_block, len(records) - i) for i in range(0, len(records), per_block)]
    ks = AvroOcf(KaitaiStream(io.BytesIO(data)))
    assert [b.num_objects.value for b in ks.blocks] == counts


def test_write_avro_is_atomic_and_deterministic_with_a_sync(tmp_path: Path) -> None:
    records = [{"status": 1, "snapshot_id": 7, "data_file": {"file_path": "a", "record_count": 3, "lower_bounds": None,
                                                             "split_offsets": [4], "props": {}, "score": 0.5}}] * 5
    out = tmp_path / "m.avro"
    out.write_bytes(b"old")
    write_avro(out, SCHEMA, records, codec="deflate", sync=bytes(range(16)), block_records=2)
    assert os.listdir(tmp_path) == ["m.avro"]  # the temporary file is gone, the old content replaced
    data = out.read_bytes()
    assert data == encode_avro(SCHEMA, records, codec="deflate", sync=bytes(range(16)), block_records=2)
    assert list(ls.avro.open(out).records()) == records
    with pytest.raises(ValueError, match="unknown codec"):
        encode_avro(SCHEMA, records, codec="lz4")
    with pytest.raises(ValueError, match="set by the writer"):
        encode_avro(SCHEMA, records, metadata={"avro.codec": "null"})
    with pytest.raises(ValueError, match="16 bytes"):
        encode_container(Container((), b"short", ()))


def test_fastavro_written_files_parse_with_the_construct_spec() -> None:
    records = [{"status": i % 3, "snapshot_id": None, "data_file": {"file_path": str(i), "record_count": i, "lower_bounds": [],
                                                                     "split_offsets": None, "props": {"k": "v"}, "score": 1.5}}
               for i in range(50)]
    for codec in ("null", "deflate"):
        buf = io.BytesIO()
        fastavro.writer(buf, fastavro.parse_schema(SCHEMA), records, codec=codec, sync_interval=300, metadata={"content": "data"})
        data = buf.getvalue()
        c = decode_container(data)
        assert c.metadata["content"] == b"data" and c.metadata["avro.codec"] == codec.encode()
        assert sum(b.count for b in c.blocks) == 50 and len(c.blocks) > 1
        assert encode_container(c) == data  # the framing rebuilt byte for byte
