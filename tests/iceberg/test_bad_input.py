"""Broken manifest lists and manifests (truncated, bytes flipped, wrong fields) give named rules with the file and
field path: ``state()`` raises a FormatError, ``check()`` returns them and never raises, ``orphans()`` still lists
what it can. Never a decoder's traceback."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import lakestruct as ls
from lakestruct.errors import FormatError
from lakestruct.iceberg import DataFile, ManifestEntry, ManifestFile
from lakestruct.iceberg.manifest_write import manifest_bytes, manifest_list_bytes
from lakestruct.rules import RULES
from tests.iceberg.pyiceberg_tables import add_deletes, local, make_table

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::UserWarning")


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("bad")
    w = make_table(tmp, rows=40, appends=2, partitioned=True)
    files = sorted(t.file.file_path for t in w.table.scan().plan_files())
    add_deletes(w, {files[0]: [1, 2]}, kind="dv")
    return w.root


def _files(root: Path) -> tuple[Path, list[Path]]:
    t = ls.iceberg.open_table(root)
    s = t.snapshot()
    assert s.manifest_list is not None
    return Path(local(s.manifest_list)), [Path(local(m.manifest_path)) for m in t.manifest_list(s)]


def _outcome(root: Path) -> set[str]:
    """The rules state() and check() name; anything but a FormatError (or a SourceError) fails the test."""
    t = ls.iceberg.open_table(root)
    rules: set[str] = set()
    try:
        t.state()
    except FormatError as e:
        assert e.rule in RULES, e.rule
        assert e.source, e
        rules.add(e.rule)
    except ls.SourceError as e:  # a flipped byte in a path: the file it names is not there
        assert "no such file" in str(e)
        rules.add("source")
    probs = t.check()
    for p in probs:
        assert p.rule in RULES, p.rule
        assert p.source is not None or p.rule.startswith("iceberg.metadata"), p
    t.orphans()
    return rules | {p.rule for p in probs}


@pytest.mark.parametrize("which", ["list", "data-manifest", "delete-manifest"])
def test_truncated_and_flipped_avro(table: Path, which: str) -> None:
    ml, _ = _files(table)
    target = ml
    if which != "list":
        t = ls.iceberg.open_table(table)
        ms = t.manifest_list()
        target = Path(local(next(m.manifest_path for m in ms if m.content == (1 if which == "delete-manifest" else 0))))
    original = target.read_bytes()
    rng = random.Random(15)
    seen: set[str] = set()
    try:
        for cut in sorted({1, 3, 4, 10, len(original) // 3, len(original) // 2, len(original) - 17, len(original) - 1}):
            target.write_bytes(original[:cut])
            rules = _outcome(table)
            assert rules, f"truncated at {cut}: no rule"
            seen |= rules
        for _ in range(40):
            data = bytearray(original)
            for _ in range(rng.randint(1, 4)):
                i = rng.randrange(len(data))
                data[i] = rng.randrange(256)
            target.write_bytes(bytes(data))
            seen |= _outcome(table)
    finally:
        target.write_bytes(original)
    assert _outcome(table) == set()
    assert any(r.startswith("avro.") for r in seen), seen


def _rewrite_delete_manifest(root: Path, change: Any) -> set[str]:
    t = ls.iceberg.open_table(root)
    m = next(m for m in t.manifest_list() if m.content == 1)
    path = Path(local(m.manifest_path))
    original = path.read_bytes()
    entries = [change(e) for e in t.entries(m)]
    try:
        path.write_bytes(manifest_bytes(entries, format_version=3, partition_type=[("grp", 1000, "string")], content=1, spec_id=0))
        return {f"{p.rule}@{p.path}" for p in ls.iceberg.open_table(root).check()}
    finally:
        path.write_bytes(original)


def test_wrong_manifest_fields(table: Path) -> None:
    from dataclasses import replace

    def raw(e: ManifestEntry, **kw: Any) -> ManifestEntry:
        fields = {"status": e.status, "snapshot_id": e.raw_snapshot_id, "sequence_number": e.raw_sequence_number,
                  "file_sequence_number": e.raw_file_sequence_number, "data_file": e.data_file, **kw}
        return ManifestEntry(fields["status"], fields["snapshot_id"], fields["sequence_number"], fields["file_sequence_number"],
                             fields["data_file"])

    assert "iceberg.manifest.status@entries[0].status" in _rewrite_delete_manifest(table, lambda e: raw(e, status=7))
    # an EXISTING entry must state its sequence numbers (only ADDED ones inherit them)
    assert "iceberg.manifest.sequence-number@entries[0].sequence_number" in _rewrite_delete_manifest(table, lambda e: raw(e, status=0))
    assert "iceberg.manifest.content@entries[0].data_file.content" in _rewrite_delete_manifest(
        table, lambda e: raw(e, data_file=replace(e.data_file, content=0, content_offset=None, content_size_in_bytes=None)))
    assert "iceberg.manifest.content-range@entries[0].data_file.content_size_in_bytes" in _rewrite_delete_manifest(
        table, lambda e: raw(e, data_file=replace(e.data_file, content_size_in_bytes=None)))
    assert "iceberg.manifest.record-count@entries[0].data_file.record_count" in _rewrite_delete_manifest(
        table, lambda e: raw(e, data_file=replace(e.data_file, record_count=-1)))
    # a data sequence number above the file sequence number, and above the manifest's
    got = _rewrite_delete_manifest(table, lambda e: raw(e, status=0, sequence_number=99, file_sequence_number=98))
    assert "iceberg.manifest.sequence-number@entries[0].sequence_number" in got
    assert "iceberg.manifest.sequence-number@entries[0].file_sequence_number" in got


def test_wrong_manifest_list_fields(table: Path) -> None:
    from dataclasses import replace

    t = ls.iceberg.open_table(table)
    s = t.snapshot()
    assert s.manifest_list is not None
    path = Path(local(s.manifest_list))
    original = path.read_bytes()
    ms = t.manifest_list(s)

    def write(change: Any) -> set[str]:
        path.write_bytes(manifest_list_bytes([change(m) for m in ms], format_version=3, snapshot_id=s.snapshot_id,
                                             sequence_number=s.sequence_number))
        return {f"{p.rule}@{p.path}" for p in ls.iceberg.open_table(table).check()}

    try:
        assert "iceberg.manifest-list.sequence-number@manifests[0].sequence_number" in write(
            lambda m: replace(m, sequence_number=s.sequence_number + 5) if m is ms[0] else m)
        assert "iceberg.manifest-list.counts@manifests[0].existing_files_count" in write(
            lambda m: replace(m, existing_files_count=(m.existing_files_count or 0) + 2) if m is ms[0] else m)
        assert "iceberg.manifest.partition-spec-id@metadata[partition-spec-id]" in write(
            lambda m: replace(m, partition_spec_id=3) if m is ms[0] else m)
        assert "iceberg.manifest.content@metadata[content]" in write(lambda m: replace(m, content=1 - m.content) if m is ms[0] else m)
        # a manifest the list names that storage lacks
        got = write(lambda m: replace(m, manifest_path=m.manifest_path + ".gone") if m is ms[0] else m)
        assert "iceberg.file.missing@file" in got
    finally:
        path.write_bytes(original)
    assert ls.iceberg.open_table(table).check() == []


def test_state_streams_manifests(tmp_path: Path) -> None:
    """A manifest is read, its live entries kept and its bytes dropped before the next: a table naming many deleted
    files (DELETED entries) costs memory for the live ones only."""
    import tracemalloc

    from lakestruct.iceberg.manifest_write import manifest_bytes as mb

    root = tmp_path / "t"
    (root / "metadata").mkdir(parents=True)
    (root / "data").mkdir()
    (root / "data" / "live.parquet").write_bytes(b"x" * 10)
    loc = f"file:{root}"
    n_manifests, per = 20, 1000
    ms = []
    for i in range(n_manifests):
        entries = [ManifestEntry(2, 1, 1, 1, DataFile(0, f"{loc}/data/gone-{i}-{j}.parquet", "parquet", {}, 10, 10))
                   for j in range(per)]
        if i == 0:
            entries.append(ManifestEntry(0, 1, 1, 1, DataFile(0, f"{loc}/data/live.parquet", "parquet", {}, 10, 10)))
        data = mb(entries, format_version=2, partition_type=[], content=0)
        (root / "metadata" / f"m{i}.avro").write_bytes(data)
        ms.append(ManifestFile(f"{loc}/metadata/m{i}.avro", len(data), 0, 0, 2, 1, 2, 0, 1 if i == 0 else 0, per, 0,
                               10 if i == 0 else 0, per * 10))
    (root / "metadata" / "snap-2.avro").write_bytes(manifest_list_bytes(ms, format_version=2, snapshot_id=2, sequence_number=2))
    import json

    doc = {"format-version": 2, "table-uuid": "u", "location": loc, "last-sequence-number": 2, "last-updated-ms": 1,
           "last-column-id": 1, "current-schema-id": 0, "schemas": [{"type": "struct", "schema-id": 0, "fields": []}],
           "default-spec-id": 0, "partition-specs": [{"spec-id": 0, "fields": []}], "last-partition-id": 999,
           "default-sort-order-id": 0, "sort-orders": [{"order-id": 0, "fields": []}], "current-snapshot-id": 2,
           "snapshots": [{"snapshot-id": 2, "sequence-number": 2, "timestamp-ms": 1, "manifest-list": f"{loc}/metadata/snap-2.avro",
                          "summary": {"operation": "delete", "total-data-files": "1", "total-records": "10"}}]}  # fmt: skip
    (root / "metadata" / "v1.metadata.json").write_text(json.dumps(doc))
    t = ls.iceberg.open_table(root)
    t.state()  # modules imported, caches warm
    tracemalloc.start()
    try:
        st = t.state()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        held = [list(ls.avro.AvroFile.from_bytes(p.read_bytes()).records()) for p in sorted((root / "metadata").glob("m*.avro"))]
        _, all_records = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [f.path for f in st.data_files] == [f"{loc}/data/live.parquet"] and sum(map(len, held)) == n_manifests * per + 1
    # 20,000 DELETED entries in all, one live: the peak is a fraction of what holding every decoded record takes
    assert peak < all_records / 8, (peak, all_records)
    assert t.check() == []
