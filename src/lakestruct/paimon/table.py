"""A Paimon table read from its files: partitions, statistics, the live data files of a snapshot, their deletion
vectors (DV index files, read by :mod:`lakestruct.paimon.dv`) and data-file indexes, orphans and checks.
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import FormatError, SourceError, UsageError
from ..roaring.read import DEFAULT_MAX_POSITIONS
from ..source import list_files
from ..tables.model import Orphan, SnapshotInfo, TableState
from .binrow import Timestamp, decode_binary_row
from .dv import parse_dv_index, read_dv_entry
from .fileindex import FileIndex, Probe, parse_file_index, read_file_index
from .indexes import BSI, BsiIndex
from .manifests import read_data_manifest, read_index_manifest, read_manifest_list
from .meta import (
    _SCHEMA_RE,
    _SNAPSHOT_RE,
    DEFAULT_PARTITION_NAME,
    DELETION_VECTORS,
    _exists,
    _is_url,
    _join,
    _read_bytes,
    external_location,
    parse_schema,
    parse_snapshot,
)
from .model import (
    ADD,
    DataFileMeta,
    DeletionFile,
    IndexManifestEntry,
    LiveFile,
    ManifestEntry,
    ManifestFileMeta,
    Schema,
    SimpleStats,
    Snapshot,
)
from .types import DataField, DataType

__all__ = [
    "ColumnStats",
    "Table",
    "jsonable",
    "open_table",
    "partition_path",
]


# -- partitions, statistics -------------------------------------------------------------------------


def _text(v: Any) -> str:
    """A partition value as Paimon renders it in a directory name."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, datetime.timedelta):  # TIME
        total = v // datetime.timedelta(milliseconds=1)  # exact integer milliseconds
        h, rem = divmod(total, 3_600_000)
        m, rem = divmod(rem, 60_000)
        s, ms = divmod(rem, 1000)
        return f"{h:02d}:{m:02d}:{s:02d}" + (f".{ms:03d}" if ms else "")
    if isinstance(v, Decimal):
        return format(v, "f")
    return str(v)


_ESCAPE = set('"#%\'*/:=?\\\x7f{[]^')


def _escape(s: str) -> str:
    """Hive's ``escapePathName``: the characters a path segment cannot hold become %XX."""
    return "".join(f"%{ord(c):02X}" if c in _ESCAPE or ord(c) < 0x20 else c for c in s)


def partition_path(values: dict[str, Any], default_name: str = DEFAULT_PARTITION_NAME) -> str:
    """``k1=v1/k2=v2`` for a decoded partition (``""`` for an unpartitioned table)."""
    parts = []
    for k, v in values.items():
        text = default_name if v is None or v == "" else _text(v)
        parts.append(f"{_escape(k)}={_escape(text)}")
    return "/".join(parts)


@dataclass(frozen=True)
class ColumnStats:
    """One column's statistics in a data file: minimum, maximum (decoded with the file's schema), null count."""

    min: Any
    max: Any
    null_count: int | None


def jsonable(v: Any) -> Any:
    """A decoded value as JSON can hold it (dates, times, decimals, timestamps as text; bytes as hex)."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if v == v and v not in (float("inf"), float("-inf")) else str(v)
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if isinstance(v, (Decimal, Timestamp, datetime.date)):
        return str(v)
    if isinstance(v, datetime.timedelta):
        return _text(v)
    if isinstance(v, dict):
        return {str(jsonable(k)): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    return str(v)


# -- the table ----------------------------------------------------------------------------------------


class Table:
    """A Paimon table directory (local path, ``file://`` or any fsspec URL). Files are read lazily and cached."""

    def __init__(self, path: str) -> None:
        self.path = str(path).rstrip("/") or "/"
        self._schemas: dict[int, Schema] = {}
        self._snapshots: dict[int, Snapshot] = {}
        self._partition_cache: dict[tuple[int, bytes], dict[str, Any]] = {}
        self._file_indexes: dict[tuple[str, bytes | None, tuple[str, ...]], FileIndex | None] = {}

    def __repr__(self) -> str:
        return f"<paimon.Table {self.path!r}>"

    # the table-neutral shape (lakestruct.tables): what the inventory and `lakestruct tables` print --------------

    format = "paimon"

    @property
    def root(self) -> str:
        return self.path

    def state(self, snapshot_id: int | None = None) -> TableState:
        """The live state of a snapshot (default: the latest): data files with exact deleted rows (tables.TableState)."""
        from .tablestate import state

        return state(self, snapshot_id)

    def orphans(self) -> list[Orphan]:
        """Files under the table that no retained snapshot or tag references, and referenced files storage lacks."""
        from .tablestate import orphans

        return orphans(self)

    def check(self) -> list[FormatError]:
        """The rules the latest snapshot breaks (every manifest, index manifest and deletion vector read), as errors."""
        from .tablestate import check

        return check(self)

    def snapshots_info(self) -> list[SnapshotInfo]:
        """Every snapshot in the table-neutral shape (tables.SnapshotInfo), oldest first."""
        from .tablestate import snapshots_info

        return snapshots_info(self)

    # schemas ---------------------------------------------------------------------------------------

    def schema_ids(self) -> list[int]:
        """Every schema id, by listing ``schema/``."""
        return sorted(self._ids("schema", _SCHEMA_RE))

    def schema(self, schema_id: int | None = None) -> Schema:
        """Schema ``schema_id`` (default: that of the latest snapshot, else the highest listed)."""
        if schema_id is None:
            latest = self.latest_snapshot_id()
            if latest is not None:
                schema_id = self.snapshot(latest).schema_id
            else:
                ids = self.schema_ids()
                if not ids:
                    raise SourceError(f"{self.path}: no schema files under schema/ (not a Paimon table?)")
                schema_id = ids[-1]
        if schema_id not in self._schemas:
            name = _join(self.path, "schema", f"schema-{schema_id}")
            s = parse_schema(_read_bytes(name), name=name)
            if s.id != schema_id:
                raise FormatError(f"schema-{schema_id} says its id is {s.id}", rule="paimon.schema.id", path="schema.id", source=name)
            self._schemas[schema_id] = s
        return self._schemas[schema_id]

    def schemas(self) -> list[Schema]:
        return [self.schema(i) for i in self.schema_ids()]

    # snapshots -------------------------------------------------------------------------------------

    def _ids(self, folder: str, pattern: re.Pattern[str]) -> list[int]:
        d = _join(self.path, folder)
        try:
            found = list_files([d])
        except SourceError:
            return []
        out = []
        for p, _ in found:
            m = pattern.match(p.rstrip("/").rsplit("/", 1)[-1].rsplit(os.sep, 1)[-1])
            if m:
                out.append(int(m.group(1)))
        return out

    def snapshot_ids(self) -> list[int]:
        """Every snapshot id, by listing ``snapshot/`` (what the spec says to do when the hints are wrong)."""
        return sorted(self._ids("snapshot", _SNAPSHOT_RE))

    def _hint(self, name: str) -> int | None:
        p = _join(self.path, "snapshot", name)
        try:
            text = _read_bytes(p).decode("utf-8", "replace").strip()
        except SourceError:
            return None
        return int(text) if text.isdigit() else None

    def _snapshot_path(self, i: int) -> str:
        return _join(self.path, "snapshot", f"snapshot-{i}")

    def latest_snapshot_id(self) -> int | None:
        """The LATEST hint when it is right (snapshot-N exists, snapshot-N+1 does not), else the highest listed id."""
        hint = self._hint("LATEST")
        if hint is not None and _exists(self._snapshot_path(hint)) and not _exists(self._snapshot_path(hint + 1)):
            return hint
        ids = self.snapshot_ids()
        return ids[-1] if ids else None

    def earliest_snapshot_id(self) -> int | None:
        """The EARLIEST hint when it is right (snapshot-N exists, snapshot-N-1 does not), else the lowest listed id."""
        hint = self._hint("EARLIEST")
        if hint is not None and _exists(self._snapshot_path(hint)) and not _exists(self._snapshot_path(hint - 1)):
            return hint
        ids = self.snapshot_ids()
        return ids[0] if ids else None

    def hints(self) -> dict[str, Any]:
        """The EARLIEST and LATEST hints as stored, and whether they agree with the listing (``ok`` None: no hint file)."""
        ids = self.snapshot_ids()
        out: dict[str, Any] = {}
        for name, want in (("EARLIEST", ids[0] if ids else None), ("LATEST", ids[-1] if ids else None)):
            h = self._hint(name)
            out[name.lower()] = {"hint": h, "listed": want, "ok": None if h is None else h == want}
        return out

    def snapshot(self, snapshot_id: int | None = None) -> Snapshot:
        """Snapshot ``snapshot_id`` (default: the latest)."""
        if snapshot_id is None:
            snapshot_id = self.latest_snapshot_id()
            if snapshot_id is None:
                raise SourceError(f"{self.path}: the table has no snapshot")
        if snapshot_id not in self._snapshots:
            name = self._snapshot_path(snapshot_id)
            s = parse_snapshot(_read_bytes(name), name=name)
            if s.id != snapshot_id:
                raise FormatError(f"snapshot-{snapshot_id} says its id is {s.id}", rule="paimon.snapshot.id", path="snapshot.id",
                                  source=name)
            self._snapshots[snapshot_id] = s
        return self._snapshots[snapshot_id]

    def snapshots(self) -> list[Snapshot]:
        return [self.snapshot(i) for i in self.snapshot_ids()]

    # manifests -------------------------------------------------------------------------------------

    def manifest_path(self, name: str) -> str:
        return _join(self.path, "manifest", name)

    def manifest_list(self, name: str) -> list[ManifestFileMeta]:
        return read_manifest_list(self.manifest_path(name))

    def manifest(self, name: str) -> list[ManifestEntry]:
        return read_data_manifest(self.manifest_path(name))

    def index_manifest(self, name: str) -> list[IndexManifestEntry]:
        return read_index_manifest(self.manifest_path(name))

    def data_manifests(self, snapshot: Snapshot | int | None = None) -> list[ManifestFileMeta]:
        """The manifests of a snapshot: its base manifest list, then its delta manifest list."""
        s = self._snap(snapshot)
        return [*self.manifest_list(s.base_manifest_list), *self.manifest_list(s.delta_manifest_list)]

    def _snap(self, snapshot: Snapshot | int | None) -> Snapshot:
        return snapshot if isinstance(snapshot, Snapshot) else self.snapshot(snapshot)

    def entries(self, snapshot: Snapshot | int | None = None) -> list[ManifestEntry]:
        """The live data files of a snapshot as ADD entries: every entry of its manifests merged in order (an ADD
        adds a file, a later DELETE of the same file removes it), as Paimon's ``FileEntry.mergeEntries`` does.
        Adding a file twice is ``paimon.manifest.duplicate-add``; deleting one never added,
        ``paimon.manifest.delete-unknown``."""
        live: dict[tuple[Any, ...], ManifestEntry] = {}
        deleted: dict[tuple[Any, ...], str] = {}
        for meta in self.data_manifests(snapshot):
            path = self.manifest_path(meta.file_name)
            for i, e in enumerate(self.manifest(meta.file_name)):
                key = e.identifier
                if e.kind == ADD:
                    if key in live:
                        raise FormatError(f"{e.file.file_name} is added twice", rule="paimon.manifest.duplicate-add",
                                          path=f"records[{i}]", source=path)
                    live[key] = e
                elif key in live:
                    del live[key]
                else:
                    deleted[key] = f"{path}: records[{i}]"
        if deleted:
            key, where = next(iter(deleted.items()))
            raise FormatError(f"{len(deleted)} DELETE entries name files never added, first {key[3]} ({where})",
                              rule="paimon.manifest.delete-unknown", path=where.rsplit(": ", 1)[-1], source=where.rsplit(": ", 1)[0])
        return list(live.values())

    def index_entries(self, snapshot: Snapshot | int | None = None) -> list[IndexManifestEntry]:
        """The live index files of a snapshot (its index manifest; DELETE entries remove earlier ADDs)."""
        s = self._snap(snapshot)
        if not s.index_manifest:
            return []
        live: dict[tuple[Any, ...], IndexManifestEntry] = {}
        for e in self.index_manifest(s.index_manifest):
            key = (e.partition, e.bucket, e.index_file.index_type, e.index_file.file_name)
            if e.kind == ADD:
                live[key] = e
            else:
                live.pop(key, None)
        return list(live.values())

    # decoding --------------------------------------------------------------------------------------

    def decode_partition(self, partition: bytes, schema: Schema | None = None) -> dict[str, Any]:
        """A partition BinaryRow as {partition key: value}."""
        s = schema or self.schema()
        key = (s.id, partition)
        hit = self._partition_cache.get(key)
        if hit is None:
            fields = s.partition_fields
            values = decode_binary_row(partition, [f.type for f in fields], names=[f.name for f in fields], path="partition")
            hit = dict(zip(s.partition_keys, values, strict=True))
            self._partition_cache[key] = hit
        return dict(hit)

    def _fields_of(self, names: Sequence[str], schema: Schema) -> list[DataField]:
        out = []
        for n in names:
            try:
                out.append(schema.field(n))
            except KeyError:
                raise FormatError(f"statistics name the column {n!r}, which schema {schema.id} does not have",
                                  rule="paimon.stats.column", path="_VALUE_STATS_COLS") from None
        return out

    def key_range(self, file: DataFileMeta | LiveFile) -> tuple[dict[str, Any], dict[str, Any]]:
        """(min key, max key) of a data file, decoded with the key fields (primary keys without partition keys) of
        the schema the file was written with."""
        f = file.file if isinstance(file, LiveFile) else file
        s = self.schema(f.schema_id)
        fields = s.key_fields
        types, names = [x.type for x in fields], [x.name for x in fields]
        lo = decode_binary_row(f.min_key, types, names=names, path="min_key")
        hi = decode_binary_row(f.max_key, types, names=names, path="max_key")
        return dict(zip(names, lo, strict=True)), dict(zip(names, hi, strict=True))

    def value_stats(self, file: DataFileMeta | LiveFile) -> dict[str, ColumnStats]:
        """Per column, the value statistics of a data file, decoded with the schema it was written with (only the
        ``_VALUE_STATS_COLS`` when the file lists them; none when statistics are off)."""
        f = file.file if isinstance(file, LiveFile) else file
        s = self.schema(f.schema_id)
        fields = list(s.fields) if f.value_stats_cols is None else self._fields_of(f.value_stats_cols, s)
        return self._stats(f.value_stats, fields, "value_stats")

    def key_stats(self, file: DataFileMeta | LiveFile) -> dict[str, ColumnStats]:
        f = file.file if isinstance(file, LiveFile) else file
        return self._stats(f.key_stats, list(self.schema(f.schema_id).key_fields), "key_stats")

    def _stats(self, st: SimpleStats | None, fields: list[DataField], path: str) -> dict[str, ColumnStats]:
        if st is None:
            return {}
        types, names = [x.type for x in fields], [x.name for x in fields]
        if len(st.min_values) >= 4 and int.from_bytes(st.min_values[:4], "big", signed=True) == 0 and fields:
            return {}  # statistics disabled for these columns (metadata.stats-mode none)
        lo = decode_binary_row(st.min_values, types, names=names, path=f"{path}.min_values")
        hi = decode_binary_row(st.max_values, types, names=names, path=f"{path}.max_values")
        nulls = st.null_counts
        if nulls is not None and len(nulls) != len(fields):
            raise FormatError(f"{len(nulls)} null counts for {len(fields)} columns", rule="paimon.stats.null-counts",
                              path=f"{path}.null_counts")
        return {n: ColumnStats(lo[i], hi[i], nulls[i] if nulls is not None else None) for i, n in enumerate(names)}

    # paths -----------------------------------------------------------------------------------------

    def bucket_dir(self, partition: dict[str, Any], bucket: int, schema: Schema | None = None) -> str:
        s = schema or self.schema()
        root = _join(self.path, s.options.get("data-file.path-directory", ""))
        part = partition_path(partition, s.options.get("partition.default-name", DEFAULT_PARTITION_NAME))
        return _join(root, part, "bucket-postpone" if bucket == -2 else f"bucket-{bucket}")

    def data_file_path(self, entry: ManifestEntry, partition: dict[str, Any] | None = None, schema: Schema | None = None) -> str:
        """Where a data file is: its external path, or ``<table>/[<partition>/]bucket-<n>/<file name>``."""
        if entry.file.external_path:
            return external_location(entry.file.external_path)
        part = partition if partition is not None else self.decode_partition(entry.partition, schema)
        return _join(self.bucket_dir(part, entry.bucket, schema), entry.file.file_name)

    def index_file_path(self, entry: IndexManifestEntry, schema: Schema | None = None) -> str:
        """Where an index file is: its external path, ``<table>/index/<name>``, or the bucket directory with
        ``index-file-in-data-file-dir``."""
        meta = entry.index_file
        if meta.external_path:
            return external_location(meta.external_path)
        s = schema or self.schema()
        if s.options.get("index-file-in-data-file-dir", "false").lower() == "true":
            return _join(self.bucket_dir(self.decode_partition(entry.partition, s), entry.bucket, s), meta.file_name)
        return _join(self.path, "index", meta.file_name)

    # data-file indexes -----------------------------------------------------------------------------

    def file_index(self, file: LiveFile) -> FileIndex | None:
        """A data file's index: embedded in its manifest entry, or the ``.index`` extra file beside it (None: none).
        Read once per table object (its payloads are parsed once too, when probed)."""
        key = (file.path, file.file.embedded_index, file.file.extra_files)
        if key not in self._file_indexes:
            self._file_indexes[key] = self._read_file_index(file)
        return self._file_indexes[key]

    def _read_file_index(self, file: LiveFile) -> FileIndex | None:
        f = file.file
        if f.embedded_index:
            try:
                return parse_file_index(f.embedded_index)
            except FormatError as e:
                raise e.with_source(f"{file.path} (_EMBEDDED_FILE_INDEX)") from None
        for name in f.extra_files:
            if name.endswith(".index"):
                return read_file_index(name if _is_url(name) or name.startswith("/") else _join(file.path.rsplit("/", 1)[0], name))
        return None

    def index_kinds(self, file: LiveFile) -> list[str]:
        """What indexes a data file has: ``deletion-vector`` when it has one, then its file index types."""
        kinds = ["deletion-vector"] if file.deletion_file is not None else []
        fi = self.file_index(file)
        return kinds + (fi.kinds if fi is not None else [])

    def column_type(self, file: LiveFile | DataFileMeta, column: str) -> DataType:
        """The type of ``column`` in the schema the data file was written with (a :class:`UsageError` when it has none)."""
        f = file.file if isinstance(file, LiveFile) else file
        s = self.schema(f.schema_id)
        try:
            return s.field(column).type
        except KeyError:
            raise UsageError(f"schema {s.id} (of {f.file_name}) has no column {column!r}: {', '.join(x.name for x in s.fields)}") from None

    def probe_file_index(self, file: LiveFile, column: str, value: Any, op: str = "eq") -> list[Probe]:
        """Every index of ``column`` in the data file's index, asked about ``column op value`` (``op``: eq, lt, le, gt,
        ge; None with eq: IS NULL): bloom filters say "maybe" or "absent", bitmaps and bit-sliced indexes give the exact
        rows (positions in the file as written: deletion vectors are not applied). Empty when the file has no index
        of the column."""
        fi = self.file_index(file)
        if fi is None:
            return []
        t = self.column_type(file, column)
        try:
            return fi.probe(column, value, t, op, row_count=file.row_count)
        except FormatError as e:
            raise e.with_source(self.file_index_source(file)) from None

    def file_index_source(self, file: LiveFile) -> str:
        """Where a data file's index is: ``<data file> (_EMBEDDED_FILE_INDEX)`` or the ``.index`` file's path."""
        if file.file.embedded_index:
            return f"{file.path} (_EMBEDDED_FILE_INDEX)"
        for name in file.file.extra_files:
            if name.endswith(".index"):
                return name if _is_url(name) or name.startswith("/") else _join(file.path.rsplit("/", 1)[0], name)
        return file.path

    def might_contain(self, file: LiveFile, column: str, value: Any) -> bool:
        """False when an index of the data file proves that no row has ``column == value``; True otherwise (also
        when the file has no index that can answer)."""
        return all(p.might_match is not False for p in self.probe_file_index(file, column, value))

    def rows_with(self, file: LiveFile, column: str, value: Any) -> npt.NDArray[np.int64] | None:
        """The rows of the data file with ``column == value`` (None: IS NULL), from a bitmap or bit-sliced index
        (positions in the file as written); None when the file has no such index of the column."""
        for p in self.probe_file_index(file, column, value):
            if p.answer == "rows" or (p.answer == "absent" and p.rows is not None):
                return p.rows
        return None

    def rows_in_range(self, file: LiveFile, column: str, lo: Any = None, hi: Any = None, *, lo_inclusive: bool = True,
                      hi_inclusive: bool = True) -> npt.NDArray[np.int64] | None:
        """The rows of the data file whose value lies between ``lo`` and ``hi`` (None: unbounded; nulls never match),
        from a bit-sliced index; None when the file has no BSI index of the column."""
        fi = self.file_index(file)
        if fi is None:
            return None
        t = self.column_type(file, column)
        for ref in fi.refs(column):
            if ref.type == BSI:
                if ref.start < 0:
                    return np.empty(0, dtype=np.int64)
                try:
                    r = fi.reader(ref, t, row_count=file.row_count)
                except FormatError as e:
                    raise e.with_source(self.file_index_source(file)) from None
                assert isinstance(r, BsiIndex)
                rows: npt.NDArray[np.int64] = r.rows_between(lo, hi, lo_inclusive=lo_inclusive, hi_inclusive=hi_inclusive)
                return rows
        return None

    # live files and deletion vectors ---------------------------------------------------------------

    def deletion_files(self, snapshot: Snapshot | int | None = None) -> dict[tuple[bytes, int, str], DeletionFile]:
        """{(partition, bucket, data file name): DeletionFile} from the snapshot's index manifest (two vectors for one
        data file are ``paimon.index.duplicate-dv``; ``_ROW_COUNT`` must count the vectors, ``paimon.index.row-count``)."""
        s = self._snap(snapshot)
        schema = self.schema(s.schema_id)
        out: dict[tuple[bytes, int, str], DeletionFile] = {}
        for e in self.index_entries(s):
            meta = e.index_file
            if meta.index_type != DELETION_VECTORS or meta.dv_ranges is None:
                continue
            where = self.manifest_path(s.index_manifest or "")
            if meta.row_count != len(meta.dv_ranges):
                raise FormatError(f"{meta.file_name}: _ROW_COUNT {meta.row_count} but {len(meta.dv_ranges)} deletion vectors",
                                  rule="paimon.index.row-count", path="_ROW_COUNT", source=where)
            path = self.index_file_path(e, schema)
            for r in meta.dv_ranges:
                key = (e.partition, e.bucket, r.data_file_name)
                if key in out:
                    raise FormatError(f"two deletion vectors for {r.data_file_name} in bucket {e.bucket}",
                                      rule="paimon.index.duplicate-dv", path="_DELETIONS_VECTORS_RANGES", source=where)
                out[key] = DeletionFile(path, r.offset, r.length, r.cardinality, meta.file_name)
        return out

    def live_files(self, snapshot: Snapshot | int | None = None) -> list[LiveFile]:
        """The data files of a snapshot (default: the latest) with their decoded partition, path and deletion file."""
        s = self._snap(snapshot)
        schema = self.schema(s.schema_id)
        dfiles = self.deletion_files(s)
        dirs: dict[tuple[bytes, int], str] = {}  # bucket directories: a few for many files
        out = []
        for e in self.entries(s):
            part = self.decode_partition(e.partition, schema)
            f = e.file
            if f.external_path:
                path = external_location(f.external_path)
            else:
                d = dirs.get((e.partition, e.bucket))
                if d is None:
                    d = dirs[(e.partition, e.bucket)] = self.bucket_dir(part, e.bucket, schema)
                path = _join(d, f.file_name)
            out.append(LiveFile(e, path, part, dfiles.get((e.partition, e.bucket, f.file_name))))
        return out

    def deletion_vector(self, file: LiveFile, *, max_positions: int | None = DEFAULT_MAX_POSITIONS) -> npt.NDArray[np.int64]:
        """The deleted positions of one data file (sorted int64; empty without a deletion vector), reading only its
        entry: CRC, the index manifest's length and cardinality, and positions below the file's row count checked."""
        d = file.deletion_file
        if d is None:
            return np.empty(0, dtype=np.int64)
        entry = read_dv_entry(d.path, offset=d.offset, length=d.length, cardinality=d.cardinality, max_positions=max_positions)
        pos = entry.positions
        _check_past_end(pos, file, d)
        return pos

    def deletion_vectors(self, snapshot: Snapshot | int | None = None, *, files: Iterable[LiveFile] | None = None,
                         max_positions: int | None = DEFAULT_MAX_POSITIONS) -> dict[str, npt.NDArray[np.int64]]:
        """{data file path: deleted positions} for every live file with a deletion vector. Each index file is read once
        and every entry checked (CRC, Roaring structure); each DeletionVectorMeta must locate exactly one entry
        (``paimon-dv.meta-range``) with its cardinality (``paimon-dv.cardinality``); the index file's size must be
        the index manifest's ``_FILE_SIZE`` (``paimon.index.file-size``)."""
        live = list(files) if files is not None else self.live_files(snapshot)
        by_index: dict[str, list[LiveFile]] = {}
        for f in live:
            if f.deletion_file is not None:
                by_index.setdefault(f.deletion_file.path, []).append(f)
        sizes = self._index_sizes(snapshot) if files is None else {}
        out: dict[str, npt.NDArray[np.int64]] = {}
        budget = max_positions
        for path, group in by_index.items():
            data = _read_bytes(path)
            want = sizes.get(path)
            if want is not None and want != len(data):
                raise FormatError(f"the index manifest says {want} bytes, the file has {len(data)}", rule="paimon.index.file-size",
                                  path="_FILE_SIZE", source=path)
            try:
                entries = {e.offset: e for e in parse_dv_index(data, max_positions=budget, name=path)}
            except FormatError as e:
                raise e.with_source(path) from None
            for f in group:
                d = f.deletion_file
                assert d is not None
                hit = entries.get(d.offset)
                if hit is None or hit.length != d.length:
                    found = "no entry starts there" if hit is None else f"the entry there has length {hit.length}"
                    raise FormatError(f"DeletionVectorMeta of {f.file.file_name} (offset {d.offset}, length {d.length}): {found}",
                                      rule="paimon-dv.meta-range", path="entry", offset=d.offset, source=path)
                pos = hit.positions
                if d.cardinality is not None and d.cardinality != pos.size:
                    raise FormatError(f"DeletionVectorMeta cardinality of {f.file.file_name} is {d.cardinality}, "
                                      f"the vector holds {pos.size}", rule="paimon-dv.cardinality", path="entry", offset=d.offset,
                                      source=path)
                _check_past_end(pos, f, d)
                out[f.path] = pos
            if budget is not None:
                budget -= sum(x.cardinality for x in entries.values())
                budget = max(budget, 0)
        return out

    def _index_sizes(self, snapshot: Snapshot | int | None) -> dict[str, int]:
        s = self._snap(snapshot)
        schema = self.schema(s.schema_id)
        return {self.index_file_path(e, schema): e.index_file.file_size for e in self.index_entries(s)}


def _check_past_end(pos: npt.NDArray[np.int64], f: LiveFile, d: DeletionFile) -> None:
    if pos.size and int(pos[-1]) >= f.row_count:
        raise FormatError(f"the deletion vector of {f.file.file_name} deletes position {int(pos[-1])}, the file has {f.row_count} rows",
                          rule="paimon.dv.position-past-end", path="entry", offset=d.offset, source=d.path)


def open_table(path: str | os.PathLike[str]) -> Table:
    """A Paimon table by its directory (local path, ``file://`` or any fsspec URL). Nothing is read until asked."""
    p = os.fspath(path)
    if not (_is_url(p) and not p.startswith("file://")) and not os.path.isdir(p[7:] if p.startswith("file://") else p):
        raise SourceError(f"{p}: no such table directory")
    return Table(p)
