"""Typed actions of a Delta Lake log (PROTOCOL.md): what replay keeps of ``add``, ``remove``, ``protocol``,
``metaData``, ``txn``, ``domainMetadata`` and ``commitInfo``, and the deletion-vector descriptor."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ACTIONS", "AddFile", "CommitInfo", "DvDescriptor", "LogFile", "Metadata", "Protocol", "RemoveFile", "Where"]

#: the actions this reader knows (PROTOCOL.md "Actions"); any other is ignored by replay, reported by ``check``
ACTIONS = frozenset({"add", "remove", "metaData", "protocol", "commitInfo", "txn", "cdc", "domainMetadata",
                     "checkpointMetadata", "sidecar"})


@dataclass(frozen=True)
class Where:
    """Where an action was read: a log file and its line (JSON, counted from 1) or row (Parquet, from 0)."""

    file: str  #: path of the log file (commit, checkpoint, sidecar, compaction)
    line: int | None = None  #: JSON line, from 1
    offset: int | None = None  #: byte offset of that line
    row: int | None = None  #: Parquet row, from 0

    def path(self, field_path: str) -> str:
        head = f"line[{self.line}]" if self.line is not None else f"row[{self.row}]" if self.row is not None else ""
        return f"{head}.{field_path}" if head else field_path


@dataclass(frozen=True)
class DvDescriptor:
    """A ``deletionVector`` descriptor (PROTOCOL.md "Deletion Vector Descriptor Schema")."""

    storage_type: str  #: "u" (UUID-named file, optional random prefix), "i" (inline, Z85), "p" (absolute path)
    path_or_inline_dv: str
    offset: int | None  #: of the vector's size field in the file (None for inline vectors)
    size_in_bytes: int  #: the vector (magic + bitmap), before Z85 for inline ones
    cardinality: int  #: rows it deletes

    @property
    def unique_id(self) -> str:
        base = f"{self.storage_type}{self.path_or_inline_dv}"
        return base if self.offset is None else f"{base}@{self.offset}"


@dataclass(frozen=True)
class AddFile:
    """A live (or once live) logical file: an ``add`` action."""

    path: str  #: as the log records it (a URI, relative to the table root or absolute)
    partition_values: Mapping[str, str | None] = field(hash=False)
    size: int
    modification_time: int | None
    data_change: bool | None
    stats: str | None  #: the JSON statistics string, as recorded
    num_records: int | None  #: ``stats.numRecords`` (None without statistics)
    deletion_vector: DvDescriptor | None
    tags: Mapping[str, str | None] | None = field(hash=False)
    base_row_id: int | None
    default_row_commit_version: int | None
    version: int  #: the table version whose commit (or checkpoint) holds this action
    where: Where = field(compare=False)


@dataclass(frozen=True)
class RemoveFile:
    """A tombstone: a ``remove`` action."""

    path: str
    deletion_timestamp: int | None
    data_change: bool | None
    deletion_vector: DvDescriptor | None
    size: int | None
    version: int
    where: Where = field(compare=False)


@dataclass(frozen=True)
class Protocol:
    min_reader_version: int
    min_writer_version: int
    reader_features: tuple[str, ...] | None
    writer_features: tuple[str, ...] | None


@dataclass(frozen=True)
class Metadata:
    id: str
    name: str | None
    description: str | None
    provider: str
    schema_string: str
    partition_columns: tuple[str, ...]
    created_time: int | None
    configuration: Mapping[str, str | None] = field(hash=False)


@dataclass(frozen=True)
class CommitInfo:
    """A version of the table as its commit file tells it."""

    version: int
    timestamp_ms: int | None  #: ``inCommitTimestamp``, else ``commitInfo.timestamp``, else the file's modification time
    operation: str | None
    info: Mapping[str, Any] = field(hash=False, compare=False)  #: the whole ``commitInfo`` action


@dataclass(frozen=True)
class LogFile:
    """A file of ``_delta_log``, recognised by its name."""

    name: str  #: relative to ``_delta_log`` (``_sidecars/x.parquet`` for sidecars)
    kind: str  #: "commit", "checkpoint", "checkpoint-part", "checkpoint-v2", "compaction", "crc", "last-checkpoint", "sidecar", "other"
    version: int | None  #: the version it holds (compactions: the last of their range)
    size: int
    start: int | None = None  #: compactions: the first version of their range
    part: int | None = None  #: multi-part checkpoints: this part (from 1)
    parts: int | None = None  #: and how many
    mtime_ms: int | None = None
