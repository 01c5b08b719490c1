"""Typed, frozen models of an Iceberg table's metadata: the table metadata JSON (format versions 1-3), manifest
lists and manifests (Avro), as the spec (format/spec.md) names their fields.

Field names follow the spec's snake_case names (``manifest_path``, ``added_files_count``, ``content_offset``);
JSON keys (``parent-snapshot-id``) become snake_case attributes (``parent_snapshot_id``). Every model keeps what it
was read from where the spec allows unknown content (``raw`` on :class:`TableMetadata` and :class:`Schema`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

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
    "TableMetadata",
]


class EntryStatus(IntEnum):
    """``manifest_entry.status`` (field 0)."""

    EXISTING = 0
    ADDED = 1
    DELETED = 2


class DataFileContent(IntEnum):
    """``data_file.content`` (field 134; every v1 file is DATA)."""

    DATA = 0
    POSITION_DELETES = 1
    EQUALITY_DELETES = 2


class ManifestContent(IntEnum):
    """``manifest_file.content`` (field 517; every v1 manifest holds data)."""

    DATA = 0
    DELETES = 1


# -- table metadata ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NestedField:
    id: int
    name: str
    type: Any  #: a primitive type name ("long", "decimal(9,2)") or a nested type object (struct, list, map), as in JSON
    required: bool
    doc: str | None = None


@dataclass(frozen=True)
class Schema:
    schema_id: int
    fields: tuple[NestedField, ...]
    identifier_field_ids: tuple[int, ...] = ()
    raw: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False, repr=False)

    def find(self, field_id: int) -> NestedField | None:
        """The field with ``field_id``, at any depth of structs (top-level fields first)."""
        stack: list[Any] = list(self.fields)
        while stack:
            f = stack.pop(0)
            if f.id == field_id:
                return f  # type: ignore[no-any-return]
            t = f.type
            if isinstance(t, dict) and t.get("type") == "struct":
                stack.extend(_nested(x) for x in t.get("fields", ()) if isinstance(x, dict))
        return None


def _nested(d: Mapping[str, Any]) -> NestedField:
    return NestedField(int(d.get("id", -1)), str(d.get("name", "")), d.get("type"), bool(d.get("required", False)), d.get("doc"))


@dataclass(frozen=True)
class PartitionField:
    source_id: int
    field_id: int | None  #: v1 specs may omit it (then 1000, 1001, ... in order)
    name: str
    transform: str  #: "identity", "bucket[16]", "truncate[4]", "year", "month", "day", "hour", "void", ...
    source_ids: tuple[int, ...] = ()  #: v3 multi-argument transforms


@dataclass(frozen=True)
class PartitionSpec:
    spec_id: int
    fields: tuple[PartitionField, ...]

    @property
    def is_unpartitioned(self) -> bool:
        """No fields, or only ``void`` ones (a delete file of such a spec applies globally, equality deletes)."""
        return all(f.transform == "void" for f in self.fields)


@dataclass(frozen=True)
class SortField:
    source_id: int
    transform: str
    direction: str  #: "asc" or "desc"
    null_order: str  #: "nulls-first" or "nulls-last"


@dataclass(frozen=True)
class SortOrder:
    order_id: int
    fields: tuple[SortField, ...]


@dataclass(frozen=True)
class Snapshot:
    snapshot_id: int
    parent_snapshot_id: int | None
    sequence_number: int  #: 0 for v1 snapshots (the spec's default)
    timestamp_ms: int
    manifest_list: str | None  #: None only in v1 snapshots that list ``manifests`` inline
    manifests: tuple[str, ...] = ()  #: v1 only: manifest paths inline, no manifest list
    summary: Mapping[str, str] = field(default_factory=dict, hash=False, compare=False)
    schema_id: int | None = None
    first_row_id: int | None = None  #: v3
    added_rows: int | None = None  #: v3
    key_id: str | None = None

    @property
    def operation(self) -> str | None:
        op = self.summary.get("operation")
        return None if op is None else str(op)


@dataclass(frozen=True)
class SnapshotRef:
    name: str
    snapshot_id: int
    type: str  #: "branch" or "tag"
    min_snapshots_to_keep: int | None = None
    max_snapshot_age_ms: int | None = None
    max_ref_age_ms: int | None = None


@dataclass(frozen=True)
class SnapshotLogEntry:
    snapshot_id: int
    timestamp_ms: int


@dataclass(frozen=True)
class MetadataLogEntry:
    metadata_file: str
    timestamp_ms: int


@dataclass(frozen=True)
class BlobMetadata:
    """One ``blob-metadata`` entry of a ``statistics`` file."""

    type: str
    snapshot_id: int
    sequence_number: int
    fields: tuple[int, ...]
    properties: Mapping[str, str] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class StatisticsFile:
    """A ``statistics`` entry: a Puffin file of table statistics for one snapshot."""

    snapshot_id: int
    statistics_path: str
    file_size_in_bytes: int
    file_footer_size_in_bytes: int
    key_metadata: str | None = None
    blob_metadata: tuple[BlobMetadata, ...] = ()


@dataclass(frozen=True)
class PartitionStatisticsFile:
    """A ``partition-statistics`` entry: a file of per-partition statistics for one snapshot."""

    snapshot_id: int
    statistics_path: str
    file_size_in_bytes: int


@dataclass(frozen=True)
class TableMetadata:
    format_version: int
    table_uuid: str | None
    location: str
    last_sequence_number: int
    last_updated_ms: int
    last_column_id: int
    schemas: tuple[Schema, ...]
    current_schema_id: int
    partition_specs: tuple[PartitionSpec, ...]
    default_spec_id: int
    last_partition_id: int | None
    properties: Mapping[str, str]
    current_snapshot_id: int | None  #: None when the table has no snapshot (-1 in older writers' JSON)
    snapshots: tuple[Snapshot, ...]
    snapshot_log: tuple[SnapshotLogEntry, ...]
    metadata_log: tuple[MetadataLogEntry, ...]
    sort_orders: tuple[SortOrder, ...]
    default_sort_order_id: int | None
    refs: Mapping[str, SnapshotRef]
    statistics: tuple[StatisticsFile, ...] = ()
    partition_statistics: tuple[PartitionStatisticsFile, ...] = ()
    next_row_id: int | None = None  #: v3
    raw: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False, repr=False)

    def schema(self, schema_id: int | None = None) -> Schema | None:
        sid = self.current_schema_id if schema_id is None else schema_id
        return next((s for s in self.schemas if s.schema_id == sid), None)

    def spec(self, spec_id: int | None = None) -> PartitionSpec | None:
        sid = self.default_spec_id if spec_id is None else spec_id
        return next((s for s in self.partition_specs if s.spec_id == sid), None)

    def snapshot(self, snapshot_id: int) -> Snapshot | None:
        return next((s for s in self.snapshots if s.snapshot_id == snapshot_id), None)


# -- manifest lists and manifests ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FieldSummary:
    """``manifest_file.partitions[]`` (field 508): one partition field's summary over a manifest."""

    contains_null: bool
    contains_nan: bool | None = None
    lower_bound: bytes | None = None
    upper_bound: bytes | None = None


@dataclass(frozen=True)
class ManifestFile:
    """One entry of a manifest list (``manifest_file``, fields 500-520). v1 lists name the counts
    ``added_data_files_count`` etc.; they are read into the same attributes. ``sequence_number`` and
    ``min_sequence_number`` are 0 in v1."""

    manifest_path: str
    manifest_length: int
    partition_spec_id: int
    content: int  #: :class:`ManifestContent`
    sequence_number: int
    min_sequence_number: int
    added_snapshot_id: int | None
    added_files_count: int | None
    existing_files_count: int | None
    deleted_files_count: int | None
    added_rows_count: int | None
    existing_rows_count: int | None
    deleted_rows_count: int | None
    partitions: tuple[FieldSummary, ...] | None = None
    key_metadata: bytes | None = None
    first_row_id: int | None = None  #: v3

    def inherit(self, version: int, status: int, snapshot_id: int | None, sequence_number: int | None,
                file_sequence_number: int | None) -> tuple[int | None, int | None, int | None, str | None]:
        """An entry's snapshot id and sequence numbers with what the spec lets it inherit from this manifest (a null
        snapshot id this manifest's; in v1 null sequence numbers 0; from v2 only an ADDED entry inherits them), and
        the name of a null sequence number that may not be inherited (None when all is well)."""
        sid = self.added_snapshot_id if snapshot_id is None else snapshot_id
        seq, fseq = sequence_number, file_sequence_number
        if version == 1:
            return sid, 0 if seq is None else seq, 0 if fseq is None else fseq, None
        if (seq is None or fseq is None) and status != EntryStatus.ADDED:
            return sid, seq, fseq, "sequence_number" if seq is None else "file_sequence_number"
        return (sid, self.sequence_number if seq is None else seq, self.sequence_number if fseq is None else fseq, None)


@dataclass(frozen=True)
class DataFile:
    """``data_file`` (field 2 of a manifest entry): a data file, a position or equality delete file, or a deletion
    vector (v3: ``file_format`` "puffin" with ``content_offset`` / ``content_size_in_bytes``)."""

    content: int  #: :class:`DataFileContent`
    file_path: str
    file_format: str
    partition: Mapping[str, Any] = field(hash=False)  #: the partition tuple, by the spec's field names, in order
    record_count: int = 0
    file_size_in_bytes: int = 0
    column_sizes: Mapping[int, int] | None = field(default=None, hash=False)
    value_counts: Mapping[int, int] | None = field(default=None, hash=False)
    null_value_counts: Mapping[int, int] | None = field(default=None, hash=False)
    nan_value_counts: Mapping[int, int] | None = field(default=None, hash=False)
    lower_bounds: Mapping[int, bytes] | None = field(default=None, hash=False)
    upper_bounds: Mapping[int, bytes] | None = field(default=None, hash=False)
    key_metadata: bytes | None = None
    split_offsets: tuple[int, ...] | None = None
    equality_ids: tuple[int, ...] | None = None
    sort_order_id: int | None = None
    first_row_id: int | None = None  #: v3 (inherited from the manifest's when null, see :attr:`ManifestEntry`)
    referenced_data_file: str | None = None  #: v2+: the one data file all deletes reference
    content_offset: int | None = None  #: v3: where the deletion vector starts in the Puffin file
    content_size_in_bytes: int | None = None  #: v3: its length
    spec_id: int | None = None  #: the partition spec of the manifest it was read from

    @property
    def is_deletion_vector(self) -> bool:
        return self.content == DataFileContent.POSITION_DELETES and self.content_offset is not None


@dataclass(frozen=True)
class ManifestEntry:
    """``manifest_entry``: a file's status in a manifest. Read through :meth:`Table.entries`, ``snapshot_id``,
    ``sequence_number`` and ``file_sequence_number`` are inherited from the manifest list's entry when null (and
    the status ADDED, for the sequence numbers), as the spec says; ``raw_*`` keep what the manifest stored."""

    status: int  #: :class:`EntryStatus`
    snapshot_id: int | None
    sequence_number: int | None  #: the data sequence number
    file_sequence_number: int | None
    data_file: DataFile
    raw_snapshot_id: int | None = field(default=None, compare=False)
    raw_sequence_number: int | None = field(default=None, compare=False)
    raw_file_sequence_number: int | None = field(default=None, compare=False)

    @property
    def live(self) -> bool:
        return self.status != EntryStatus.DELETED
