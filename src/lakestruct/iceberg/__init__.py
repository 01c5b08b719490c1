"""Iceberg tables read from their files: table metadata JSON (format v1-v3), manifest lists and manifests (Avro),
deletion vectors (Puffin) and position delete files (Parquet), every rule checked (docs/iceberg.md).

>>> import lakestruct as ls                                           # doctest: +SKIP
>>> t = ls.iceberg.open_table("warehouse/db/t")     # table root, a metadata file or an fsspec URL
>>> t.metadata.format_version, t.current_snapshot_id, t.snapshots()
>>> state = t.state()                               # live data files, the deletes that apply, exact deleted rows
>>> [(f.path, f.record_count, f.deleted_rows) for f in state.data_files]
>>> for m in t.manifests(): list(t.entries(m))      # typed manifest lists and manifests
>>> t.orphans(), t.check()                          # unreferenced / missing files; every rule broken
"""

from __future__ import annotations

from .manifest import iter_manifest, read_manifest_list
from .metadata import parse_metadata, parse_metadata_json
from .model import (
    BlobMetadata,
    DataFile,
    DataFileContent,
    EntryStatus,
    FieldSummary,
    ManifestContent,
    ManifestEntry,
    ManifestFile,
    MetadataLogEntry,
    NestedField,
    PartitionField,
    PartitionSpec,
    PartitionStatisticsFile,
    Schema,
    Snapshot,
    SnapshotLogEntry,
    SnapshotRef,
    SortField,
    SortOrder,
    StatisticsFile,
    TableMetadata,
)
from .table import Table, open_table, read_position_deletes

__all__ = [
    "BlobMetadata",
    "DataFile",
    "DataFileContent",
    "EntryStatus",
    "FieldSummary",
    "ManifestContent",
    "ManifestEntry",
    "ManifestFile",
    "MetadataLogEntry",
    "NestedField",
    "PartitionField",
    "PartitionSpec",
    "PartitionStatisticsFile",
    "Schema",
    "Snapshot",
    "SnapshotLogEntry",
    "SnapshotRef",
    "SortField",
    "SortOrder",
    "StatisticsFile",
    "Table",
    "TableMetadata",
    "iter_manifest",
    "open_table",
    "parse_metadata",
    "parse_metadata_json",
    "read_manifest_list",
    "read_position_deletes",
]
