"""Deletion vectors from real writers: Iceberg's golden blobs, Iceberg-Java (Spark) Puffin files with
expected positions computed from the data files, Trino's Puffin file, Paimon's index files; pyiceberg as oracle."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from pyiceberg.table.deletion_vector import DeletionVector as PyIcebergDV

import lakestruct as ls
from lakestruct.deletes import (
    DeletionVector,
    decode_blob,
    encode_deletion_vector_blob,
    read_deletion_vector,
    read_deletion_vectors,
    read_paimon_deletion_vectors,
    wrap_vector,
)
from lakestruct.errors import FormatError
from lakestruct.roaring import HAVE_C

IMPLS = ["python", "c"] if HAVE_C else ["python"]
ICE = "iceberg/core/src/test/resources/org/apache/iceberg/deletes"
SEED = "generated-seed1/iceberg"


def _sha(pos: np.ndarray) -> str:
    return hashlib.sha256(np.sort(pos).astype("<i8").tobytes()).hexdigest()


def _runs(pos: np.ndarray) -> list[list[int]]:
    if pos.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(pos) != 1)
    starts = np.concatenate([[0], breaks + 1])
    ends = np.concatenate([breaks, [pos.size - 1]])
    return [[int(pos[s]), int(pos[e])] for s, e in zip(starts, ends, strict=True)]


def _pyiceberg_positions(blob: bytes) -> np.ndarray:
    length = int.from_bytes(blob[:4], "big")
    bitmaps = PyIcebergDV._deserialize_bitmap(blob[8 : 4 + length])
    return np.array([(k << 32) | v for k, bm in enumerate(bitmaps) for v in bm], dtype=np.int64)


GOLDEN = {
    # MANIFEST.md / TestBitmapPositionDeleteIndex
    "empty-position-index.bin": [],
    "small-alternating-values-position-index.bin": [1, 3, 5, 7, 9],
    "small-and-large-values-position-index.bin": [100, 101, 2**31 + 99, 2**31 + 100],
}


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_iceberg_golden_blobs(corpus: Path, name: str, impl: str) -> None:
    raw = (corpus / ICE / name).read_bytes()
    dv = DeletionVector.from_blob(raw)
    assert dv.positions().tolist() == GOLDEN[name]
    np.testing.assert_array_equal(decode_blob(raw, impl=impl), GOLDEN[name])  # type: ignore[arg-type]
    np.testing.assert_array_equal(_pyiceberg_positions(raw), GOLDEN[name])
    assert encode_deletion_vector_blob(GOLDEN[name]) == raw
    assert dv.to_blob() == raw


def test_iceberg_golden_all_container_types(corpus: Path) -> None:
    raw = (corpus / ICE / "all-container-types-position-index.bin").read_bytes()
    dv = DeletionVector.from_blob(raw)
    np.testing.assert_array_equal(dv.positions(), _pyiceberg_positions(raw))
    assert encode_deletion_vector_blob(dv.positions()) == raw  # run cookie path, two keys
    info = ls.roaring.describe_roaring64(raw[8:-4], iceberg=True, base_offset=8)
    assert info.keys == (0, 1)
    assert {c.kind for b in info.buckets for c in b.bitmap.containers} == {"array", "run"}


def test_mangled_highvals_rejected_pristine_rejected_by_dv_reader(corpus: Path) -> None:
    with pytest.raises(FormatError):
        DeletionVector.from_blob(wrap_vector((corpus / ICE / "64maphighvals.bin").read_bytes()))
    pristine = (corpus / "croaring/tests/testdata/64maphighvals.bin").read_bytes()
    assert ls.roaring.decode_roaring64(pristine).size == 121  # a valid Roaring64 bitmap ...
    with pytest.raises(FormatError) as e:  # ... but not a valid Iceberg deletion vector
        DeletionVector.from_blob(wrap_vector(pristine))
    assert e.value.rule == "deletion-vector.key-unsigned" and e.value.offset == 16 and e.value.path == "vector.bitmaps[0].key"


def _seed_blobs(corpus: Path) -> list[tuple[str, dict[str, object]]]:
    expected = json.loads((corpus / SEED / "expected.json").read_text())
    return [(name, b) for name, f in sorted(expected["files"].items()) if f.get("kind") == "deletion-vectors" for b in f["blobs"]]


def test_seed_puffins_match_expected_positions(corpus: Path) -> None:
    seen = 0
    for name, exp in _seed_blobs(corpus):
        path = corpus / SEED / "files" / name
        dvs = read_deletion_vectors(path)
        dv = dvs[exp["referenced_data_file"]]  # type: ignore[index]
        want = exp["positions"]
        pos = dv.positions()
        assert dv.cardinality == want["count"] == exp["record_count"]  # type: ignore[index]
        assert _sha(pos) == want["sha256"]  # type: ignore[index]
        assert pos[:20].tolist() == want["first"] and pos[-20:].tolist() == want["last"]  # type: ignore[index]
        if "runs" in want:  # type: ignore[operator]
            assert _runs(pos) == want["runs"]  # type: ignore[index]
        assert (dv.offset, dv.length) == (exp["content_offset"], exp["content_size_in_bytes"])
        seen += 1
    assert seen >= 30


@pytest.mark.parametrize("impl", IMPLS)
def test_seed_blobs_by_manifest_range_and_reencoded_identically(corpus: Path, impl: str) -> None:
    for name, exp in _seed_blobs(corpus):
        path = corpus / SEED / "files" / name
        off, length = int(exp["content_offset"]), int(exp["content_size_in_bytes"])  # type: ignore[call-overload]
        dv = read_deletion_vector(path, offset=off, length=length, record_count=int(exp["record_count"]), impl=impl)  # type: ignore[call-overload, arg-type]
        raw = path.read_bytes()[off : off + length]
        assert dv.referenced_data_file == exp["referenced_data_file"]
        assert encode_deletion_vector_blob(dv.positions()) == raw  # byte-identical to Iceberg Java 1.10.2
        np.testing.assert_array_equal(_pyiceberg_positions(raw), dv.positions())


def test_seed_stats_files_have_no_dvs(corpus: Path) -> None:
    for f in sorted((corpus / SEED / "files").glob("*.stats")):
        assert read_deletion_vectors(f) == {}


def test_trino_puffin(corpus: Path) -> None:
    path = corpus / "puffin-tools/src/test/resources/deletion-vector-v1.puffin"
    (dv,) = read_deletion_vectors(path).values()
    assert dv.positions().tolist() == [0, 2, 4] and dv.referenced_data_file and dv.referenced_data_file.endswith(".parquet")
    same = read_deletion_vector(path, offset=4, length=46)
    assert same == dv and same.properties["cardinality"] == "3"


def test_paimon_compat_index_files(corpus: Path) -> None:
    d = corpus / "paimon/paimon-core/src/test/resources/compatibility"
    e32 = read_paimon_deletion_vectors(d / "dvindex-32")
    e64 = read_paimon_deletion_vectors(d / "dvindex-64")
    # MANIFEST: two DVs, cardinalities 2 and 1; 32-bit lengths 24/22, 64-bit sizes 36/34 read with lengths 44/42
    assert [(e.offset, e.length, e.bits, e.vector.cardinality) for e in e32] == [(1, 24, 32, 2), (33, 22, 32, 1)]
    assert [(e.offset, e.length, e.bits, e.vector.cardinality) for e in e64] == [(1, 44, 64, 2), (45, 42, 64, 1)]
    assert [e.vector.positions().tolist() for e in e32] == [e.vector.positions().tolist() for e in e64]


def test_paimon_seed_index_files(corpus: Path) -> None:
    root = corpus / "generated-seed1/paimon"
    expected = json.loads((root / "expected.json").read_text())
    checked = 0
    for f in expected["tables"]["de_dv"]["deletion_vector_index_files"]:
        entries = {e.offset: e for e in read_paimon_deletion_vectors(root / "tables/de_dv/index" / f["index_file"])}
        for v in f["vectors"]:
            e = entries[v["offset"]]
            assert e.length == v["length"] and e.vector.cardinality == v["cardinality"]
            assert _sha(e.vector.positions()) == v["positions"]["sha256"]
            checked += 1
    assert checked > 0
