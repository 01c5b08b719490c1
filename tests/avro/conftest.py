"""Real Avro object container files for the Avro room's tests: every Paimon manifest, manifest list and index
manifest of the shared corpus (pypaimon 2.1, Paimon Java's golden warehouse, paimon-rust's 0.9-era files), and
Iceberg manifests and manifest lists written at test time (the corpus has none) by pyiceberg's own Avro writer and
by Iceberg Java 1.10 (the tables of tests/iceberg/iceberg_java_env.py, skipped when Iceberg Java cannot be built)."""

from __future__ import annotations

import io
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import fastavro
import pytest

GOLDEN = "paimon/paimon-python/pypaimon/tests/resources/pk_global_index_golden.tar.gz"
PAIMON_ROOTS = ("generated-seed1/paimon/tables", "paimon-rust/crates/paimon/tests/fixtures/manifest")


def _zstandard_block(fo: IO[bytes]) -> io.BytesIO:
    """A ``zstandard`` block for fastavro's reader (fastavro needs ``backports.zstd`` for it before Python 3.14):
    a long length, the frames, decompressed by the ``zstandard`` library (independent of lakestruct's reader)."""
    import zstandard

    acc = shift = 0
    while True:
        b = fo.read(1)[0]
        acc |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            break
    raw = fo.read((acc >> 1) ^ -(acc & 1))
    with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw), read_across_frames=True) as r:
        return io.BytesIO(r.read())


@pytest.fixture(scope="session", autouse=True)
def fastavro_zstandard() -> Iterator[None]:
    """fastavro, the oracle, reads zstandard blocks (Paimon's default codec) for the tests of this folder."""
    readers = fastavro.read.BLOCK_READERS
    before = readers.get("zstandard")
    readers["zstandard"] = _zstandard_block
    try:
        yield
    finally:
        if before is None:
            readers.pop("zstandard", None)
        else:
            readers["zstandard"] = before


@pytest.fixture(scope="session")
def paimon_manifests(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    golden = tmp_path_factory.mktemp("golden")
    with tarfile.open(corpus / GOLDEN) as tf:
        tf.extractall(golden, filter="data")
    out = [p for root in (*(corpus / r for r in PAIMON_ROOTS), golden) for p in sorted(root.rglob("*"))
           if p.is_file() and p.parent.name == "manifest" and p.read_bytes()[:4] == b"Obj\x01"]
    assert len(out) > 60
    return out


@pytest.fixture(scope="session")
def iceberg_manifests(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """A v2 table's data and delete manifests and manifest lists, written by pyiceberg (a catalog-free table:
    pyiceberg's ``write_manifest`` / ``write_manifest_list``), with the codecs Iceberg uses (deflate, its default
    for manifests, null and zstandard); partitioned by a day transform."""
    from pyiceberg.io.pyarrow import PyArrowFileIO
    from pyiceberg.manifest import DataFile, DataFileContent, FileFormat, ManifestEntry, write_manifest, write_manifest_list
    from pyiceberg.partitioning import PartitionField, PartitionSpec
    from pyiceberg.schema import Schema
    from pyiceberg.transforms import DayTransform
    from pyiceberg.typedef import Record
    from pyiceberg.types import LongType, NestedField, StringType, TimestampType

    root = tmp_path_factory.mktemp("iceberg")
    io = PyArrowFileIO()
    schema = Schema(NestedField(1, "id", LongType(), required=True), NestedField(2, "name", StringType()),
                    NestedField(3, "ts", TimestampType()))
    spec = PartitionSpec(PartitionField(source_id=3, field_id=1000, transform=DayTransform(), name="ts_day"), spec_id=0)
    out: list[Path] = []
    parent = None
    for snap, codec in enumerate(("deflate", "null", "zstandard"), start=1):
        manifests = []
        for content, n in ((DataFileContent.DATA, 7 * snap), (DataFileContent.POSITION_DELETES, snap)):
            path = root / f"m-{snap}-{content.name.lower()}.avro"
            with write_manifest(2, spec, schema, io.new_output(str(path)), snap, codec) as w:
                for i in range(n):
                    df = DataFile.from_args(
                        content=content, file_path=f"/warehouse/t/data/ts_day={19000 + i % 3}/{snap}-{i}.parquet",
                        file_format=FileFormat.PARQUET, partition=Record(19000 + i % 3), record_count=1000 + i,
                        file_size_in_bytes=4096 + 17 * i, column_sizes={1: 100 + i, 2: 200}, value_counts={1: 1000 + i},
                        null_value_counts={2: i}, nan_value_counts={}, lower_bounds={1: (i).to_bytes(8, "little")},
                        upper_bounds={1: (i + 999).to_bytes(8, "little")}, split_offsets=[4], sort_order_id=0)
                    w.add(ManifestEntry.from_args(status=None, snapshot_id=snap, sequence_number=snap, data_file=df))
            manifests.append(w.to_manifest_file())
            out.append(path)
        mlist = root / f"snap-{snap}-{codec}.avro"
        with write_manifest_list(2, io.new_output(str(mlist)), snap, parent, snap, codec) as lw:
            lw.add_manifests(manifests)
        out.append(mlist)
        parent = snap
    return out


@pytest.fixture(scope="session")
def java_manifests() -> list[Path]:
    """Every manifest and manifest list of the tables Iceberg Java 1.10 writes for tests/iceberg (v3 with deletion
    vectors, v2 with position deletes, compacted, expired, partitioned with statistics)."""
    from tests.iceberg.iceberg_java_env import iceberg_java_tables

    tables, why = iceberg_java_tables()
    if tables is None:
        pytest.skip(why)
    out = sorted(tables.warehouse.rglob("metadata/*.avro"))
    assert len(out) > 20
    return out


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "java_manifests" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("iceberg_java"))
