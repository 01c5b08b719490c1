"""Iceberg tables written at test time by pyiceberg 0.12 (the oracle's own writer), with a catalog that keeps its
tables in a dict and their metadata in files (pyiceberg's SQL catalog would need SQLAlchemy): appends, overwrites,
copy-on-write deletes, partitioned tables, format versions 1 and 2.

pyiceberg writes no position delete files or deletion vectors (its deletes rewrite data files). :func:`add_deletes`
adds a snapshot with them the way the spec describes (a delete manifest with the position delete Parquet files or
Puffin deletion vectors, written with pyarrow and lakestruct's writers), so pyiceberg's reader can be the oracle of
what they delete.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pyiceberg = pytest.importorskip("pyiceberg")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from pyiceberg.catalog import MetastoreCatalog  # noqa: E402
from pyiceberg.exceptions import NoSuchTableError  # noqa: E402
from pyiceberg.table import CommitTableResponse, Table  # noqa: E402


class FileCatalog(MetastoreCatalog):
    """Tables in a dict, metadata in files under the warehouse (what a Hadoop catalog keeps, minus version-hint)."""

    def __init__(self, name: str, warehouse: str) -> None:
        super().__init__(name, warehouse=warehouse)
        self.tables: dict[tuple[str, ...], str] = {}

    def create_table(self, identifier: Any, schema: Any, location: Any = None, partition_spec: Any = None, sort_order: Any = None,
                     properties: Any = None) -> Table:
        from pyiceberg.partitioning import UNPARTITIONED_PARTITION_SPEC
        from pyiceberg.table.sorting import UNSORTED_SORT_ORDER

        ident = self.identifier_to_tuple(identifier)
        staged = self._create_staged_table(ident, schema, location, partition_spec or UNPARTITIONED_PARTITION_SPEC,
                                           sort_order or UNSORTED_SORT_ORDER, properties or {})
        self._write_metadata(staged.metadata, staged.io, staged.metadata_location)
        self.tables[ident] = staged.metadata_location
        return self.load_table(ident)

    def load_table(self, identifier: Any) -> Table:
        ident = self.identifier_to_tuple(identifier)
        if ident not in self.tables:
            raise NoSuchTableError(str(ident))
        loc = self.tables[ident]
        io = self._load_file_io(location=loc)
        from pyiceberg.serializers import FromInputFile

        md = FromInputFile.table_metadata(io.new_input(loc))
        return Table(ident, metadata=md, metadata_location=loc, io=io, catalog=self)

    def commit_table(self, table: Table, requirements: Any, updates: Any) -> CommitTableResponse:
        ident = self.identifier_to_tuple(table.name())
        current = self.load_table(ident)
        staged = self._update_and_stage_table(current, ident, requirements, updates)
        self._write_metadata(staged.metadata, staged.io, staged.metadata_location)
        self.tables[ident] = staged.metadata_location
        return CommitTableResponse(metadata=staged.metadata, metadata_location=staged.metadata_location)

    def _unsupported(self, *a: Any, **k: Any) -> Any:
        raise NotImplementedError

    def load_namespace_properties(self, namespace: Any) -> dict[str, str]:
        return {}

    register_table = drop_table = rename_table = create_namespace = drop_namespace = _unsupported
    list_tables = list_namespaces = list_views = load_view = _unsupported
    update_namespace_properties = drop_view = view_exists = register_view = _unsupported


@dataclass
class Written:
    table: Table
    root: Path
    catalog: FileCatalog


def make_table(tmp: Path, name: str = "t", *, format_version: int = 2, partitioned: bool = False, rows: int = 100,
               appends: int = 3, properties: dict[str, str] | None = None) -> Written:
    """A table of ``appends`` appends of ``rows`` rows each (columns id: long, grp: string, v: double)."""
    from pyiceberg.partitioning import PartitionField, PartitionSpec
    from pyiceberg.schema import Schema
    from pyiceberg.transforms import IdentityTransform
    from pyiceberg.types import DoubleType, LongType, NestedField, StringType

    wh = tmp / "warehouse"
    wh.mkdir(parents=True, exist_ok=True)
    cat = FileCatalog("test", warehouse=f"file://{wh}")
    schema = Schema(NestedField(1, "id", LongType(), required=False), NestedField(2, "grp", StringType(), required=False),
                    NestedField(3, "v", DoubleType(), required=False))
    spec = PartitionSpec(PartitionField(2, 1000, IdentityTransform(), "grp")) if partitioned else None
    props = {"format-version": str(format_version), **(properties or {})}
    t = cat.create_table(("db", name), schema, partition_spec=spec, properties=props)
    for a in range(appends):
        ids = list(range(a * rows, (a + 1) * rows))
        t.append(pa.table({"id": pa.array(ids, pa.int64()), "grp": pa.array([f"g{i % 3}" for i in ids]),
                           "v": pa.array([i * 0.5 for i in ids])}))
    t = cat.load_table(("db", name))
    return Written(t, wh / "db" / name, cat)


def local(path: str) -> str:
    return path[7:] if path.startswith("file://") else path[5:] if path.startswith("file:") else path


def _partition(spec: Any, data_file: Any) -> dict[str, Any]:
    return {f.name: data_file.partition[i] for i, f in enumerate(spec.fields)}


def add_deletes(w: Written, deletes: dict[str, list[int]], *, kind: str = "position", referenced: bool = False,
                one_file: bool = True, supersede: bool = False, summary_delta: int = 0) -> Table:
    """Commit a snapshot that adds position delete files (``kind="position"``, Parquet ``file_path``/``pos``) or deletion
    vectors (``kind="dv"``, one Puffin file) for ``deletes`` ({data file path: positions}), by writing the delete
    manifest and a new manifest list and metadata file (the table's other manifests are kept as they are).

    ``supersede``: as Iceberg Java does when a data file's DV grows, the older DVs of the data files in ``deletes``
    are marked DELETED (their delete manifests rewritten: those entries DELETED, the others EXISTING), so the new
    DV (which the caller makes the union) is the only live one. ``summary_delta`` is added to the summary's
    total-position-deletes (a wrong summary, for the checks)."""
    import lakestruct as ls
    from lakestruct.iceberg import DataFile, ManifestEntry, ManifestFile
    from lakestruct.iceberg.manifest_write import manifest_bytes, manifest_list_bytes

    t = w.catalog.load_table(w.table.name())
    md = t.metadata
    # deletion vectors need a v3 table: pyiceberg 0.12 writes v2 only, so a v2 table is upgraded here (its manifests
    # stay v2, as an upgraded table's do; no row lineage is assigned: next-row-id stays 0)
    fv = 3 if kind == "dv" else md.format_version
    parent = t.current_snapshot()
    assert parent is not None
    seq = md.last_sequence_number + 1
    sid = int(uuid.uuid4().int >> 65)
    meta_dir = w.root / "metadata"
    data_dir = w.root / "data"
    loc = md.location
    spec = md.spec()
    part_fields = [(f.name, f.field_id, "string") for f in spec.fields]
    data_entries = {}
    for m in parent.manifests(t.io):
        for e in m.fetch_manifest_entry(t.io, discard_deleted=True):
            data_entries[e.data_file.file_path] = e.data_file
    entries = []
    if kind == "position":
        groups = [sorted(deletes.items())] if one_file else [[kv] for kv in sorted(deletes.items())]
        for gi, group in enumerate(groups):
            paths = [p for p, pos in group for _ in pos]
            poss = [x for _, pos in group for x in sorted(pos)]
            name = f"pos-{seq}-{gi}-{uuid.uuid4().hex[:8]}-deletes.parquet"
            target = data_dir / name
            pq.write_table(pa.table({"file_path": pa.array(paths, pa.string()), "pos": pa.array(poss, pa.int64())}), target)
            first = group[0][0]
            part = _partition(spec, data_entries[first])
            entries.append(ManifestEntry(1, sid, None, None, DataFile(
                1, f"{loc}/data/{name}", "parquet", part, len(poss), target.stat().st_size,
                referenced_data_file=first if (referenced and len(group) == 1) else None)))
    elif kind == "equality":  # deletes: {a data file (for its partition): ids}; an equality delete file on column id
        for gi, (first, ids) in enumerate(sorted(deletes.items())):
            name = f"eq-{seq}-{gi}-{uuid.uuid4().hex[:8]}-deletes.parquet"
            target = data_dir / name
            pq.write_table(pa.table({"id": pa.array(ids, pa.int64())}), target)
            entries.append(ManifestEntry(1, sid, None, None, DataFile(
                2, f"{loc}/data/{name}", "parquet", _partition(spec, data_entries[first]), len(ids), target.stat().st_size,
                equality_ids=(1,))))
    else:
        name = f"dv-{seq}-{uuid.uuid4().hex[:8]}.puffin"
        target = data_dir / name
        with ls.puffin.PuffinWriter(str(target), created_by="lakestruct tests") as pw:
            for path, pos in sorted(deletes.items()):
                pw.add_deletion_vector(sorted(pos), path)
        with ls.puffin.open(str(target)) as pf:
            blobs = list(pf.blobs)
        size = target.stat().st_size
        for b in blobs:
            ref = b.properties["referenced-data-file"]
            part = _partition(spec, data_entries[ref])
            entries.append(ManifestEntry(1, sid, None, None, DataFile(
                1, f"{loc}/data/{name}", "puffin", part, int(b.properties["cardinality"]), size, referenced_data_file=ref,
                content_offset=b.offset, content_size_in_bytes=b.length)))
    mname = f"{uuid.uuid4()}-m0.avro"
    mbytes = manifest_bytes(entries, format_version=fv, partition_type=part_fields, content=1,
                            schema_json=md.schema().model_dump_json(), spec_id=spec.spec_id)
    (meta_dir / mname).write_bytes(mbytes)
    new_manifest = ManifestFile(f"{loc}/metadata/{mname}", len(mbytes), spec.spec_id, 1, seq, seq, sid, len(entries), 0, 0,
                                sum(e.data_file.record_count for e in entries), 0, 0)
    from lakestruct.iceberg.manifest import read_manifest_list

    old = read_manifest_list(Path(local(parent.manifest_list)).read_bytes())
    removed = removed_files = 0
    if supersede:
        from lakestruct.iceberg.manifest import iter_manifest

        kept = []
        for m in old:
            if m.content != 1:
                kept.append(m)
                continue
            es = list(iter_manifest(Path(local(m.manifest_path)).read_bytes(), manifest=m))
            if not any(e.data_file.referenced_data_file in deletes and e.status != 2 for e in es):
                kept.append(m)
                continue
            out = []
            for e in es:
                if e.status == 2:
                    continue
                gone = e.data_file.referenced_data_file in deletes
                removed += e.data_file.record_count if gone else 0
                out.append(ManifestEntry(2 if gone else 0, sid if gone else e.snapshot_id, e.sequence_number, e.file_sequence_number,
                                         e.data_file))
            rname = f"{uuid.uuid4()}-m1.avro"
            rb = manifest_bytes(out, format_version=fv, partition_type=part_fields, content=1, schema_json=md.schema().model_dump_json(),
                                spec_id=spec.spec_id)
            (meta_dir / rname).write_bytes(rb)
            n_del = sum(1 for e in out if e.status == 2)
            removed_files += n_del
            kept.append(ManifestFile(f"{loc}/metadata/{rname}", len(rb), spec.spec_id, 1, seq, m.min_sequence_number, sid, 0,
                                     len(out) - n_del, n_del, 0, sum(e.data_file.record_count for e in out if e.status == 0),
                                     sum(e.data_file.record_count for e in out if e.status == 2)))
        old = kept
    lname = f"snap-{sid}-1-{uuid.uuid4()}.avro"
    lbytes = manifest_list_bytes([*old, new_manifest], format_version=fv, snapshot_id=sid, parent_snapshot_id=parent.snapshot_id,
                                 sequence_number=seq)
    (meta_dir / lname).write_bytes(lbytes)
    doc = json.loads(Path(local(t.metadata_location)).read_text())
    prev = parent.summary.additional_properties if parent.summary else {}
    ndel = sum(e.data_file.record_count for e in entries if e.data_file.content == 1)
    neq = sum(e.data_file.record_count for e in entries if e.data_file.content == 2)
    summary = {"operation": "delete", "added-delete-files": str(len({e.data_file.file_path for e in entries})),
               "added-position-deletes": str(ndel), "total-records": prev.get("total-records", "0"),
               "total-data-files": prev.get("total-data-files", "0"),
               "total-delete-files": str(int(prev.get("total-delete-files", "0")) + len(entries) - removed_files),
               "total-position-deletes": str(int(prev.get("total-position-deletes", "0")) + ndel - removed + summary_delta),
               "total-equality-deletes": str(int(prev.get("total-equality-deletes", "0")) + neq)}
    now = int(time.time() * 1000)
    doc["snapshots"].append({"snapshot-id": sid, "parent-snapshot-id": parent.snapshot_id, "sequence-number": seq,
                             "timestamp-ms": now, "manifest-list": f"{loc}/metadata/{lname}", "summary": summary,
                             "schema-id": md.current_schema_id})
    if fv == 3 and doc["format-version"] < 3:
        doc["format-version"] = 3
        doc["next-row-id"] = 0
    doc["current-snapshot-id"] = sid
    doc["last-sequence-number"] = seq
    doc["last-updated-ms"] = now
    doc.setdefault("snapshot-log", []).append({"snapshot-id": sid, "timestamp-ms": now})
    doc.setdefault("metadata-log", []).append({"metadata-file": t.metadata_location, "timestamp-ms": md.last_updated_ms})
    doc["refs"] = {"main": {"snapshot-id": sid, "type": "branch"}}
    version = max(int(n.split("-")[0]) for n in os.listdir(meta_dir) if n.endswith(".metadata.json")) + 1
    new_loc = meta_dir / f"{version:05d}-{uuid.uuid4()}.metadata.json"
    new_loc.write_text(json.dumps(doc))
    w.catalog.tables[w.table.name()] = f"file://{new_loc}"
    return w.catalog.load_table(w.table.name())
