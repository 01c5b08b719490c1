"""The Avro container reader (``lakestruct.avro``) on real files: Paimon manifests of the corpus and Iceberg manifests
and manifest lists pyiceberg writes; fastavro is the oracle for the blocks (its ``block_reader``), the records and
the header; the construct spec and the generated Kaitai parser of ``formats/avro/avro_ocf.ksy`` agree on the
framing."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import fastavro
import pytest
from kaitaistruct import KaitaiStream
from lakestruct._generated.avro_ocf import AvroOcf

import lakestruct as ls
from lakestruct._kaitai import kaitai_call
from lakestruct.avro import AvroFile
from lakestruct.avro.spec import decode_container


def fastavro_blocks(data: bytes) -> list[tuple[int, int, int]]:
    """(offset, count, size) of every block, as fastavro's block reader finds them (its size is the whole block's:
    count, size, records and sync marker)."""
    out = []
    for b in fastavro.block_reader(io.BytesIO(data)):
        out.append((b.offset, b.num_records, b.size))
    return out


def ours(data: bytes) -> list[tuple[int, int, int]]:
    return [(b.offset, b.count, b.size) for b in AvroFile(data).blocks()]


def kaitai(data: bytes) -> AvroOcf:
    reader = io.BytesIO(data)
    return kaitai_call("avro_ocf", reader, lambda: AvroOcf(KaitaiStream(reader)))


def kaitai_blocks(ks: AvroOcf) -> list[tuple[int, int, int]]:
    return [(b.offset, b.num_objects.value, b.len_data.value) for b in ks.blocks]


def check_file(data: bytes) -> list[dict[str, Any]]:
    f = AvroFile.from_bytes(data, name="x.avro")
    blocks = ours(data)
    fa = fastavro_blocks(data)
    assert [(b.offset, b.count, b.data_at + b.size + 16 - b.offset) for b in f.blocks()] == fa
    ks = kaitai(data)
    assert kaitai_blocks(ks) == blocks
    assert ks.sync == f.sync
    assert {e.key.text: e.value.data for b in ks.meta_blocks for e in b.entries} == f.metadata
    c = decode_container(data)
    assert c.sync == f.sync and c.metadata == f.metadata
    assert [(b.count, len(b.data)) for b in c.blocks] == [(n, s) for _, n, s in blocks]
    records = list(f.records())
    reader = fastavro.reader(io.BytesIO(data))
    want = list(reader)
    assert len(records) == len(want) == sum(n for _, n, _ in blocks)
    assert records == want
    assert f.schema == json.loads(reader.metadata["avro.schema"])
    assert f.codec == reader.metadata.get("avro.codec", "null")
    assert {k: v.decode() for k, v in f.metadata.items()} == reader.metadata
    return records


def test_paimon_manifests(paimon_manifests: list[Path]) -> None:
    codecs = set()
    records = 0
    for p in paimon_manifests:
        data = p.read_bytes()
        records += len(check_file(data))
        codecs.add(AvroFile(data).codec)
    assert records > 100
    assert {"zstandard", "snappy"} <= codecs, codecs


def test_iceberg_manifests(iceberg_manifests: list[Path]) -> None:
    kinds = set()
    for p in iceberg_manifests:
        data = p.read_bytes()
        records = check_file(data)
        f = ls.avro.open(p)
        assert f.name == str(p)
        meta = f.metadata
        assert meta["format-version"] == b"2"
        if p.name.startswith("m-"):  # a manifest: Iceberg's table facts in the header
            kinds.add(meta["content"])
            assert json.loads(meta["schema"])["fields"][0]["name"] == "id"
            assert json.loads(meta["partition-spec"])[0]["name"] == "ts_day"
            assert all(r["status"] == 1 for r in records)
            assert len(list(f.blocks())) == len(records)  # pyiceberg writes one block per entry
        else:
            kinds.add(b"list")
            assert meta["snapshot-id"].decode() == p.name.split("-")[1]
            assert f.schema["name"] == "manifest_file"
    assert kinds == {b"data", b"list"}  # pyiceberg writes delete files into manifests it marks "data" too
    assert {AvroFile(p.read_bytes()).codec for p in iceberg_manifests} == {"deflate", "null", "zstandard"}


def test_iceberg_java_manifests(java_manifests: list[Path]) -> None:
    keys: set[str] = set()
    records = 0
    for p in java_manifests:
        records += len(check_file(p.read_bytes()))
        keys |= set(ls.avro.open(p).metadata)
    assert records > 50
    # what Iceberg Java keeps in the header of manifests and manifest lists
    assert {"schema", "partition-spec", "partition-spec-id", "format-version", "content", "snapshot-id", "sequence-number"} <= keys


def test_open_sources(iceberg_manifests: list[Path]) -> None:
    p = iceberg_manifests[0]
    data = p.read_bytes()
    want = list(AvroFile(data).records())
    assert list(ls.avro.open(data).records()) == want
    with p.open("rb") as fobj:
        assert list(ls.avro.open(fobj).records()) == want
    assert list(ls.avro.open(f"file://{p}").records()) == want
    f = AvroFile(data)
    assert list(f.records()) == list(f.records()) == want  # every call starts again from the first block
    assert [r for b in f.blocks() for r in f.records(b)] == want


def test_errors_name_the_source(tmp_path: Path, iceberg_manifests: list[Path]) -> None:
    bad = tmp_path / "cut.avro"
    bad.write_bytes(iceberg_manifests[0].read_bytes()[:-5])
    with pytest.raises(ls.FormatError) as ei:
        list(ls.avro.open(bad).records())
    assert ei.value.rule == "avro.truncated" and ei.value.source == str(bad)
    with pytest.raises(ls.SourceError):
        ls.avro.open(tmp_path / "missing.avro")


def test_twins_name_the_avro_decoder() -> None:
    from lakestruct.avro import plan

    t = ls.twins()
    assert t["avro"] == t["paimon"] == ("compiled" if plan.COMPILED else "pure")
