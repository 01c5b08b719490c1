"""Table metadata JSON: the Iceberg Java 1.10-written v3 metadata files of the shared corpus (generated-seed1) read
field by field against pyiceberg's parser and the corpus' expected.json (written from Iceberg's own metadata tables);
statistics entries against their Puffin files; broken metadata (a 1-byte file, deep nesting, wrong types, a snapshot
cycle) gives a named rule with the field path, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import lakestruct as ls
from lakestruct.errors import FormatError

TABLES = ("dv_patterns", "dv_update", "stats_types")


@pytest.fixture(scope="module")
def seed(corpus: Path) -> Path:
    d = corpus / "generated-seed1" / "iceberg"
    if not (d / "expected.json").is_file():
        pytest.skip(f"{d}/expected.json not in the corpus")
    return d


@pytest.mark.parametrize("name", TABLES)
def test_corpus_metadata_equals_pyiceberg(seed: Path, name: str) -> None:
    from pyiceberg.table.metadata import TableMetadataUtil

    raw = (seed / "files" / f"{name}.metadata.json").read_bytes()
    md = ls.iceberg.parse_metadata(raw)
    p = TableMetadataUtil.parse_raw(raw)
    assert md.format_version == p.format_version == 3
    assert (md.location, md.table_uuid, md.last_sequence_number, md.last_updated_ms, md.last_column_id) == (
        p.location, str(p.table_uuid), p.last_sequence_number, p.last_updated_ms, p.last_column_id)
    assert md.current_snapshot_id == p.current_snapshot_id
    assert md.next_row_id == p.next_row_id
    assert [(s.snapshot_id, s.parent_snapshot_id, s.sequence_number, s.timestamp_ms, s.manifest_list, s.schema_id, s.first_row_id,
             s.added_rows) for s in md.snapshots] == [
        (s.snapshot_id, s.parent_snapshot_id, s.sequence_number, s.timestamp_ms, s.manifest_list, s.schema_id, s.first_row_id,
         s.added_rows) for s in p.snapshots]  # fmt: skip
    assert [dict(s.summary) for s in md.snapshots] == [
        {"operation": s.summary.operation.value, **s.summary.additional_properties} for s in p.snapshots]
    assert [(f.id, f.name, f.required) for f in md.schema().fields] == [(f.field_id, f.name, f.required) for f in p.schema().fields]
    assert [[(f.source_id, f.field_id, f.name, f.transform) for f in s.fields] for s in md.partition_specs] == \
        [[(f.source_id, f.field_id, f.name, str(f.transform)) for f in s.fields] for s in p.partition_specs]
    assert [(o.order_id, len(o.fields)) for o in md.sort_orders] == [(o.order_id, len(o.fields)) for o in p.sort_orders]
    assert {k: (r.snapshot_id, r.type) for k, r in md.refs.items()} == {
        k: (r.snapshot_id, r.snapshot_ref_type.value) for k, r in p.refs.items()}
    assert [(e.snapshot_id, e.timestamp_ms) for e in md.snapshot_log] == [(e.snapshot_id, e.timestamp_ms) for e in p.snapshot_log]
    assert [(e.metadata_file, e.timestamp_ms) for e in md.metadata_log] == [(e.metadata_file, e.timestamp_ms) for e in p.metadata_log]
    assert [(s.snapshot_id, s.statistics_path, s.file_size_in_bytes, s.file_footer_size_in_bytes) for s in md.statistics] == [
        (s.snapshot_id, s.statistics_path, s.file_size_in_bytes, s.file_footer_size_in_bytes) for s in p.statistics]
    assert dict(md.properties) == dict(p.properties)


@pytest.mark.parametrize("name", TABLES)
def test_corpus_statistics_entries_match_their_puffin_files(seed: Path, name: str) -> None:
    """Each ``statistics`` entry the corpus recorded (expected.json, from the metadata Iceberg wrote right after
    compute_table_stats) equals lakestruct's model, and its sizes equal the Puffin file's size and footer size."""
    expected = json.loads((seed / "expected.json").read_text())
    checked = 0
    for fname, f in expected["files"].items():
        if f.get("kind") != "theta-statistics" or not fname.startswith(name + "."):
            continue
        e = f["statistics"]
        md = ls.iceberg.parse_metadata_json({"format-version": 3, "table-uuid": "x", "location": "/t", "last-sequence-number": 0,
                                             "last-updated-ms": 0, "last-column-id": 0, "schemas": [], "current-schema-id": 0,
                                             "partition-specs": [], "default-spec-id": 0, "last-partition-id": 0,
                                             "sort-orders": [], "default-sort-order-id": 0, "statistics": [e]})
        (s,) = md.statistics
        assert (s.snapshot_id, s.statistics_path, s.file_size_in_bytes, s.file_footer_size_in_bytes) == (
            e["snapshot-id"], e["statistics-path"], e["file-size-in-bytes"], e["file-footer-size-in-bytes"])
        assert [(b.type, list(b.fields), dict(b.properties)) for b in s.blob_metadata] == [
            (b["type"], b["fields"], b.get("properties", {})) for b in e["blob-metadata"]]
        path = seed / "files" / fname
        assert path.stat().st_size == s.file_size_in_bytes
        with ls.puffin.open(str(path)) as pf:
            assert pf.footer.size == s.file_footer_size_in_bytes
        checked += 1
    assert checked >= 1


def _base(**kw: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format-version": 2, "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1", "location": "s3://b/t", "last-sequence-number": 2,
        "last-updated-ms": 1, "last-column-id": 1, "current-schema-id": 0,
        "schemas": [{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "x", "required": True, "type": "long"}]}],
        "default-spec-id": 0, "partition-specs": [{"spec-id": 0, "fields": []}], "last-partition-id": 999,
        "default-sort-order-id": 0, "sort-orders": [{"order-id": 0, "fields": []}], "current-snapshot-id": 2,
        "snapshots": [
            {"snapshot-id": 1, "sequence-number": 1, "timestamp-ms": 1, "manifest-list": "s3://b/t/metadata/snap-1.avro",
             "summary": {"operation": "append"}},
            {"snapshot-id": 2, "parent-snapshot-id": 1, "sequence-number": 2, "timestamp-ms": 2,
             "manifest-list": "s3://b/t/metadata/snap-2.avro", "summary": {"operation": "append"}},
        ],
    }  # fmt: skip
    doc.update(kw)
    return doc


def _rule(data: bytes) -> tuple[str, str]:
    with pytest.raises(FormatError) as ei:
        ls.iceberg.parse_metadata(data, name="m.json")
    assert ei.value.source == "m.json"
    return ei.value.rule, ei.value.path


def test_broken_metadata_json_named_rules() -> None:
    assert ls.iceberg.parse_metadata(json.dumps(_base()).encode()).current_snapshot_id == 2
    assert _rule(b"{")[0] == "iceberg.metadata.json-syntax"  # a 1-byte metadata file
    assert _rule(b"")[0] == "iceberg.metadata.json-syntax"
    assert _rule(b"[" * 100_000 + b"]" * 100_000)[0] == "iceberg.metadata.json-syntax"  # deep nesting, no RecursionError
    assert _rule(b"\xff\xfe")[0] == "iceberg.metadata.json-utf8"
    assert _rule(b"[1]")[0] == "iceberg.metadata.json-object"
    assert _rule(b"\x1f\x8b\x08\x00garbage")[0] == "iceberg.metadata.gzip"
    assert _rule(json.dumps(_base(**{"format-version": 4})).encode()) == ("iceberg.metadata.format-version", "format-version")
    doc = _base()
    del doc["snapshots"][1]["manifest-list"]
    assert _rule(json.dumps(doc).encode()) == ("iceberg.metadata.required-field", "snapshots[1].manifest-list")
    doc = _base()
    doc["snapshots"][0]["sequence-number"] = "1"
    assert _rule(json.dumps(doc).encode()) == ("iceberg.metadata.field-type", "snapshots[0].sequence-number")
    doc = _base()
    doc["snapshots"][0]["timestamp-ms"] = 1 << 64
    assert _rule(json.dumps(doc).encode()) == ("iceberg.metadata.field-type", "snapshots[0].timestamp-ms")
    doc = _base()
    doc["schemas"][0]["fields"][0] = 5
    assert _rule(json.dumps(doc).encode()) == ("iceberg.metadata.field-type", "schemas[0].fields[0]")
    doc = _base()
    del doc["snapshots"][0]["summary"]["operation"]
    assert _rule(json.dumps(doc).encode()) == ("iceberg.metadata.required-field", "snapshots[0].summary.operation")


def _table_with(tmp_path: Path, doc: dict[str, Any]) -> ls.iceberg.Table:
    (tmp_path / "metadata").mkdir(exist_ok=True)
    (tmp_path / "metadata" / "v1.metadata.json").write_text(json.dumps(doc))
    return ls.iceberg.open_table(tmp_path)


def test_snapshot_rules_in_check(tmp_path: Path) -> None:
    """A cycle in parent-snapshot-id, sequence numbers going down, a current snapshot or ref naming nothing: named
    rules from check() (the manifest lists are absent: reported as missing, the metadata rules still checked)."""
    doc = _base()
    doc["snapshots"][0]["parent-snapshot-id"] = 2  # 1 -> 2 -> 1
    doc["snapshots"][1]["sequence-number"] = 1  # not above its parent's
    doc["refs"] = {"main": {"snapshot-id": 2, "type": "branch"}, "gone": {"snapshot-id": 7, "type": "tag"}}
    probs = {(p.rule, p.path) for p in _table_with(tmp_path, doc).check()}
    assert ("iceberg.snapshot.parent-cycle", "snapshots[0].parent-snapshot-id") in probs
    assert ("iceberg.snapshot.sequence-number", "snapshots[1].sequence-number") in probs
    assert ("iceberg.metadata.ref", "refs.gone.snapshot-id") in probs
    assert ("iceberg.file.missing", "file") in probs
    doc = _base(**{"current-snapshot-id": 9, "last-sequence-number": 1})
    t = _table_with(tmp_path, doc)
    probs = {(p.rule, p.path) for p in t.check()}
    assert ("iceberg.metadata.current-snapshot", "current-snapshot-id") in probs
    assert ("iceberg.metadata.last-sequence-number", "snapshots[1].sequence-number") in probs
    with pytest.raises(FormatError) as ei:
        t.state()
    assert ei.value.rule == "iceberg.metadata.current-snapshot"


def test_open_table_errors(tmp_path: Path) -> None:
    with pytest.raises(ls.SourceError):
        ls.iceberg.open_table(tmp_path / "nope")
    with pytest.raises(ls.SourceError):
        ls.iceberg.open_table(tmp_path)  # no metadata/
    (tmp_path / "metadata").mkdir()
    (tmp_path / "metadata" / "v1.metadata.json").write_bytes(b"{")
    with pytest.raises(FormatError) as ei:
        ls.iceberg.open_table(tmp_path)
    assert ei.value.rule == "iceberg.metadata.json-syntax" and ei.value.source.endswith("v1.metadata.json")
