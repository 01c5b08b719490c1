"""One table-neutral shape for Iceberg, Paimon and Delta: what a snapshot (a version, for Delta) holds live.

Files on storage are a table's history; a table's metadata says which of them are live. Every table-level answer
(live rows, deleted rows, orphans) comes from a :class:`TableState` that a format room fills from that metadata:

>>> import lakestruct as ls                                   # doctest: +SKIP
>>> t = ls.tables.open("warehouse/db/t")                     # detects Iceberg, Paimon or Delta from the root
>>> state = t.state()                                        # the live state of the current snapshot
>>> for f in state.data_files:
...     print(f.path, f.record_count, f.deleted_rows, f.live_rows, [d.path for d in f.deletes])
>>> t.orphans(), t.check()

The CLI's ``files``/``deletes``/``orphans`` commands, the Spark sources and the inventory's ``tables``,
``data_file_deletes`` and ``orphan_files`` print these models; the inventory never re-derives table state itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..errors import FormatError

__all__ = [
    "DELETE_KINDS",
    "DeleteFile",
    "LiveFile",
    "Orphan",
    "SnapshotInfo",
    "Table",
    "TableState",
    "TableSummary",
    "summarize",
]

#: kinds of delete files: a deletion vector (Iceberg v3 Puffin blob, Paimon DV index entry, Delta DV), a position
#: delete file (Iceberg v2: ``file_path``, ``pos`` rows), an equality delete file (listed and counted, never applied)
DELETE_KINDS = ("deletion-vector", "position-deletes", "equality-deletes")


@dataclass(frozen=True)
class DeleteFile:
    """A live delete file (or one deletion vector inside a shared file) as the table's metadata records it."""

    path: str  #: absolute location, as the metadata names it (Delta ``i`` vectors: ``"<inline>"``)
    kind: str  #: one of :data:`DELETE_KINDS`
    record_count: int | None  #: rows (positions) the metadata says it deletes: DV cardinality, delete rows
    size: int | None = None  #: the whole file's size in bytes, as recorded
    referenced_data_file: str | None = None  #: the one data file it applies to, when it names one
    offset: int | None = None  #: where the vector starts inside ``path`` (DVs)
    length: int | None = None  #: its length in bytes (DVs)
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)  #: format-specific (sequence numbers, ...)


@dataclass(frozen=True)
class LiveFile:
    """A live data file and the deletes that apply to it."""

    path: str  #: absolute location, as the metadata names it
    record_count: int  #: rows the metadata says the file holds
    size: int | None  #: its size in bytes, as recorded
    partition: Mapping[str, Any] = field(hash=False)  #: decoded partition values (empty when unpartitioned)
    file_format: str | None = None  #: "parquet", "orc", "avro", ...
    deletes: tuple[DeleteFile, ...] = ()  #: what applies to it (equality deletes listed, not applied)
    deleted_rows: int | None = None  #: exact: the size of the union of the positions that apply (None: not computed)
    positions_past_end: int = 0  #: applied positions at or past ``record_count`` (never counted as deleted rows)
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)  #: format-specific

    @property
    def live_rows(self) -> int | None:
        return None if self.deleted_rows is None else self.record_count - self.deleted_rows


@dataclass(frozen=True)
class Orphan:
    """A file under the table's root that nothing retained references (``unreferenced``), or one the metadata
    references that storage lacks (``missing``)."""

    path: str
    size: int | None  #: bytes on storage (unreferenced) or as recorded (missing)
    kind: str  #: "unreferenced" or "missing"
    role: str  #: what it is (or was): "data", "delete", "manifest", "manifest-list", "metadata", "statistics", "other"
    rows: int | None = None  #: rows a missing data/delete file held, as recorded


@dataclass(frozen=True)
class SnapshotInfo:
    """A snapshot (Iceberg, Paimon) or version (Delta), oldest first in :meth:`Table.snapshots`."""

    id: int
    parent_id: int | None
    timestamp_ms: int | None
    operation: str | None
    summary: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class TableState:
    """The live state of one snapshot of a table."""

    format: str  #: "iceberg", "paimon" or "delta"
    root: str  #: the table's root (location)
    snapshot_id: int | None  #: None for a table without a snapshot
    data_files: tuple[LiveFile, ...]
    delete_files: tuple[DeleteFile, ...]  #: every live delete file, once each
    #: reads the exact deleted positions of one live data file (sorted, unique int64)
    positions_reader: Callable[[LiveFile], npt.NDArray[np.int64]] | None = field(default=None, compare=False, repr=False)

    def positions(self, f: LiveFile) -> npt.NDArray[np.int64]:
        """The deleted positions of ``f`` (sorted int64): the union of what applies to it."""
        if self.positions_reader is None or not f.deletes:
            return np.empty(0, dtype=np.int64)
        return self.positions_reader(f)

    @property
    def record_count(self) -> int:
        return sum(f.record_count for f in self.data_files)

    @property
    def deleted_rows(self) -> int | None:
        if any(f.deleted_rows is None for f in self.data_files):
            return None
        return sum(f.deleted_rows or 0 for f in self.data_files)

    @property
    def live_rows(self) -> int | None:
        d = self.deleted_rows
        return None if d is None else self.record_count - d


@runtime_checkable
class Table(Protocol):
    """What every format room's table object offers (``ls.iceberg.open_table``, ``ls.paimon.open_table``,
    ``ls.delta.open_table``)."""

    @property
    def format(self) -> str: ...

    @property
    def root(self) -> str: ...

    def snapshots(self) -> list[SnapshotInfo]: ...

    def state(self, snapshot_id: int | None = None) -> TableState: ...

    def orphans(self) -> list[Orphan]: ...

    def check(self) -> list[FormatError]: ...


@dataclass(frozen=True)
class TableSummary:
    """One row of the inventory's ``tables`` table."""

    format: str
    root: str
    snapshot_id: int | None
    data_files: int
    record_count: int
    deleted_rows: int | None
    live_rows: int | None
    deleted_share: float | None
    delete_files: int
    orphan_files: int
    orphan_bytes: int
    missing_files: int
    rules_broken: tuple[str, ...]
    error: str | None = None  #: the table could not be read at all (then the counts are 0)


def summarize(state: TableState, orphans: list[Orphan], problems: list[FormatError]) -> TableSummary:
    """The ``tables`` row of a table from its live state, its orphans and the rules it breaks."""
    unref = [o for o in orphans if o.kind == "unreferenced"]
    deleted = state.deleted_rows
    total = state.record_count
    return TableSummary(
        format=state.format,
        root=state.root,
        snapshot_id=state.snapshot_id,
        data_files=len(state.data_files),
        record_count=total,
        deleted_rows=deleted,
        live_rows=None if deleted is None else total - deleted,
        deleted_share=(deleted / total) if deleted is not None and total else None,
        delete_files=len(state.delete_files),
        orphan_files=len(unref),
        orphan_bytes=sum(o.size or 0 for o in unref),
        missing_files=sum(1 for o in orphans if o.kind == "missing"),
        rules_broken=tuple(sorted({p.rule for p in problems})),
    )
