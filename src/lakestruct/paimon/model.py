"""Typed, frozen models of a Paimon table's metadata: schemas, snapshots, manifest lists, manifests, index manifests,
deletion files. Field names follow Paimon's Java classes in snake_case; every field of every version is here, absent
ones are ``None``. Raw bytes (partitions, keys, statistics) stay as stored; :class:`Table` decodes them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .types import DataField

__all__ = [
    "ADD",
    "DELETE",
    "DataFileMeta",
    "DeletionFile",
    "DeletionVectorMeta",
    "IndexFileMeta",
    "IndexManifestEntry",
    "LiveFile",
    "ManifestEntry",
    "ManifestFileMeta",
    "Schema",
    "SimpleStats",
    "Snapshot",
]

#: ``_KIND`` values of manifest entries.
ADD = 0
DELETE = 1


@dataclass(frozen=True)
class Schema:
    """``schema/schema-<id>``."""

    id: int
    version: int | None
    fields: tuple[DataField, ...]
    highest_field_id: int | None
    partition_keys: tuple[str, ...]
    primary_keys: tuple[str, ...]
    options: dict[str, str] = field(hash=False)
    comment: str | None = None
    time_millis: int | None = None

    def field(self, name: str) -> DataField:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    @property
    def partition_fields(self) -> tuple[DataField, ...]:
        return tuple(self.field(n) for n in self.partition_keys)

    @property
    def trimmed_primary_keys(self) -> tuple[str, ...]:
        """Primary keys without the partition keys: the fields of a data file's min/max key and key statistics."""
        return tuple(k for k in self.primary_keys if k not in self.partition_keys)

    @property
    def key_fields(self) -> tuple[DataField, ...]:
        return tuple(self.field(n) for n in self.trimmed_primary_keys)

    @property
    def bucket(self) -> int:
        """The ``bucket`` option (-1, dynamic or unaware, when absent; 1 for 0.7-era schemas without it)."""
        raw = self.options.get("bucket")
        if raw is None:
            return 1 if (self.version or 0) <= 1 else -1
        try:
            return int(raw)
        except ValueError:
            return -1

    @property
    def file_format(self) -> str:
        return self.options.get("file.format", "orc" if (self.version or 0) <= 2 else "parquet")


@dataclass(frozen=True)
class Snapshot:
    """``snapshot/snapshot-<id>`` (every field of versions 1 to 3; ``None`` when the file has none)."""

    id: int
    version: int | None
    schema_id: int
    base_manifest_list: str
    delta_manifest_list: str
    commit_user: str | None
    commit_identifier: int | None
    commit_kind: str | None
    time_millis: int | None
    base_manifest_list_size: int | None = None
    delta_manifest_list_size: int | None = None
    changelog_manifest_list: str | None = None
    changelog_manifest_list_size: int | None = None
    index_manifest: str | None = None
    total_record_count: int | None = None
    delta_record_count: int | None = None
    changelog_record_count: int | None = None
    watermark: int | None = None
    statistics: str | None = None
    properties: dict[str, str] | None = field(default=None, hash=False)
    next_row_id: int | None = None
    uuid: str | None = None
    writer_version: str | None = None
    operation: str | None = None


@dataclass(frozen=True)
class SimpleStats:
    """Minimum and maximum values (serialized BinaryRows) and null counts of some fields."""

    min_values: bytes
    max_values: bytes
    null_counts: tuple[int | None, ...] | None


@dataclass(frozen=True)
class ManifestFileMeta:
    """One record of a manifest list: a manifest file and what it holds."""

    file_name: str
    file_size: int
    num_added_files: int
    num_deleted_files: int
    partition_stats: SimpleStats | None
    schema_id: int
    min_bucket: int | None = None
    max_bucket: int | None = None
    min_level: int | None = None
    max_level: int | None = None
    min_row_id: int | None = None
    max_row_id: int | None = None
    version: int | None = None


@dataclass(frozen=True)
class DataFileMeta:
    """A data file as a manifest entry describes it (``_FILE``)."""

    file_name: str
    file_size: int
    row_count: int
    min_key: bytes
    max_key: bytes
    key_stats: SimpleStats | None
    value_stats: SimpleStats | None
    min_sequence_number: int
    max_sequence_number: int
    schema_id: int
    level: int
    extra_files: tuple[str, ...]
    creation_time: Any = None  # datetime (UTC) as Avro timestamp-millis decodes it
    delete_row_count: int | None = None
    embedded_index: bytes | None = None
    file_source: int | None = None
    value_stats_cols: tuple[str, ...] | None = None
    external_path: str | None = None
    first_row_id: int | None = None
    write_cols: tuple[str, ...] | None = None


@dataclass(frozen=True)
class ManifestEntry:
    """One record of a manifest: a data file added (``kind`` 0) or deleted (1) in a partition and bucket."""

    kind: int
    partition: bytes
    bucket: int
    total_buckets: int
    file: DataFileMeta
    version: int | None = None

    @property
    def identifier(self) -> tuple[Any, ...]:
        """What identifies a file across ADD and DELETE entries (Paimon's ``FileEntry.Identifier``)."""
        f = self.file
        return (self.partition, self.bucket, f.level, f.file_name, f.extra_files, f.embedded_index, f.external_path)


@dataclass(frozen=True)
class DeletionVectorMeta:
    """Where one data file's deletion vector lies in a DV index file: ``offset`` of the entry's size field and
    ``length`` as Paimon records it (S for a 32-bit entry, S + 8 for a 64-bit one)."""

    data_file_name: str
    offset: int
    length: int
    cardinality: int | None


@dataclass(frozen=True)
class IndexFileMeta:
    """An index file (``index/index-*``): deletion vectors, dynamic-bucket hashes, global indexes."""

    index_type: str
    file_name: str
    file_size: int
    row_count: int
    dv_ranges: tuple[DeletionVectorMeta, ...] | None
    external_path: str | None = None
    global_index: dict[str, Any] | None = field(default=None, hash=False)


@dataclass(frozen=True)
class IndexManifestEntry:
    """One record of an index manifest."""

    kind: int
    partition: bytes
    bucket: int
    index_file: IndexFileMeta
    version: int | None = None


@dataclass(frozen=True)
class DeletionFile:
    """A data file's deletion vector: the index file, the entry's offset and length (as Paimon records them), and
    the cardinality the index manifest states (``None`` before Paimon 1.0)."""

    path: str
    offset: int
    length: int
    cardinality: int | None
    index_file_name: str


@dataclass(frozen=True)
class LiveFile:
    """A data file of a snapshot, with its decoded partition and its deletion vector (when it has one)."""

    entry: ManifestEntry
    path: str
    partition: dict[str, Any] = field(hash=False)
    deletion_file: DeletionFile | None = None

    @property
    def file(self) -> DataFileMeta:
        return self.entry.file

    @property
    def bucket(self) -> int:
        return self.entry.bucket

    @property
    def level(self) -> int:
        return self.entry.file.level

    @property
    def row_count(self) -> int:
        return self.entry.file.row_count
