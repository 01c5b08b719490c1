"""Writing small Iceberg tables (format v2 and v3) from Python: data files appended, rows deleted (v3 deletion
vectors in Puffin files, v2 position delete files in Parquet), files rewritten (compaction), one snapshot a commit.

>>> from lakestruct.iceberg.write import TableWriter, data_file      # doctest: +SKIP
>>> w = TableWriter("wh/db/t", [NestedField(1, "id", "long", False)])
>>> w.append([data_file("wh/db/t/data/a.parquet")])                   # record_count and size from the file
>>> w.delete_positions({w.path_of("wh/db/t/data/a.parquet"): [0, 5, 7]})
>>> w.rewrite([...old paths...], [...new DataFiles...])

Every commit writes, each file atomically and in this order: the delete files it adds, its manifests
(``<commit-uuid>-m<N>.avro``), its manifest list (``snap-<snapshot-id>-1-<commit-uuid>.avro``), the table metadata
``metadata/v<N>.metadata.json`` and last ``metadata/version-hint.text``: a reader sees the previous table or the new
one. The files follow the spec (format/spec.md): the Avro schemas carry the spec's field ids, ADDED entries inherit
snapshot id and sequence numbers from the manifest list, EXISTING and DELETED entries state them; v3 data manifests
get a ``first_row_id`` from the snapshot's ``first-row-id`` (row lineage). As Iceberg Java does,

- a data file whose deletion vector is extended gets one new DV holding the union of the positions, and the old DV's
  manifest entry is DELETED in the new snapshot (at most one live DV per data file);
- a manifest that holds a removed file is rewritten (removed files DELETED, the others EXISTING); the others are
  carried over unchanged; a manifest with no live file left is dropped from the next snapshot;
- the snapshot summary has the ``added-*`` / ``deleted-*`` / ``removed-*`` counts of the commit and the
  ``total-*`` counts of the table.

Paths: the table's ``location`` is ``file:`` + the absolute path of ``root`` (or ``location=``); the files the writer
makes are named under it. Data files are named as given (:func:`data_file` makes ``file:`` URIs of local paths).
"""

from __future__ import annotations

import json
import os
import random
import struct
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from .._atomic import write_atomic
from ..errors import UsageError
from ..source import local_path
from .model import DataFile, DataFileContent, EntryStatus, ManifestContent, NestedField, PartitionField

__all__ = ["POS_FIELD_ID", "FILE_PATH_FIELD_ID", "TableWriter", "data_file", "fields_from_arrow", "manifest_entry_schema",
           "manifest_file_schema"]

#: field ids of the position delete file's columns (spec: reserved field ids)
FILE_PATH_FIELD_ID = 2147483546
POS_FIELD_ID = 2147483545

_PRIMITIVE_AVRO: dict[str, Any] = {
    "boolean": "boolean",
    "int": "int",
    "long": "long",
    "float": "float",
    "double": "double",
    "date": {"type": "int", "logicalType": "date"},
    "string": "string",
    "binary": "bytes",
}


def _opt(t: Any) -> list[Any]:
    return ["null", t]


def _map(name: str, key_id: int, value_id: int, value: str) -> dict[str, Any]:
    """An Iceberg map with int keys as Avro writes it: an array of key/value records, logicalType ``map``."""
    return {"type": "array", "logicalType": "map", "items": {
        "type": "record", "name": f"k{key_id}_v{value_id}", "fields": [
            {"name": "key", "type": "int", "field-id": key_id},
            {"name": "value", "type": value, "field-id": value_id}]}}  # fmt: skip


def _partition_type(tr: str, source: str | None) -> str:
    """The Iceberg type of a partition field: its transform's result on the source type."""
    if tr.startswith("bucket[") or tr in ("year", "month", "hour"):
        return "int"
    if tr == "day":
        return "date"
    if tr == "identity" or tr.startswith("truncate["):
        if source is None or source not in _PRIMITIVE_AVRO:
            raise UsageError(f"partition transform {tr} of a {source!r} column is not supported by the writer "
                             f"(sources: {', '.join(_PRIMITIVE_AVRO)})")
        return source
    raise UsageError(f"partition transform {tr!r} is not supported by the writer (identity, bucket[N], truncate[W], year, "
                     "month, day, hour)")


def _partition_record(fields: Sequence[tuple[PartitionField, str]]) -> dict[str, Any]:
    return {"type": "record", "name": "r102", "fields": [
        {"name": pf.name, "type": _opt(_PRIMITIVE_AVRO[t]), "default": None, "field-id": pf.field_id}
        for pf, t in fields]}  # fmt: skip


def manifest_entry_schema(partition: Sequence[tuple[PartitionField, str]] = (), *, format_version: int = 3) -> dict[str, Any]:
    """The Avro schema of a v2/v3 manifest (``manifest_entry``), field ids as in the spec; ``partition``: the spec's
    fields with their result types."""
    df: list[dict[str, Any]] = [
        {"name": "content", "type": "int", "field-id": 134},
        {"name": "file_path", "type": "string", "field-id": 100},
        {"name": "file_format", "type": "string", "field-id": 101},
        {"name": "partition", "type": _partition_record(partition), "field-id": 102},
        {"name": "record_count", "type": "long", "field-id": 103},
        {"name": "file_size_in_bytes", "type": "long", "field-id": 104},
        {"name": "column_sizes", "type": _opt(_map("column_sizes", 117, 118, "long")), "default": None, "field-id": 108},
        {"name": "value_counts", "type": _opt(_map("value_counts", 119, 120, "long")), "default": None, "field-id": 109},
        {"name": "null_value_counts", "type": _opt(_map("null_value_counts", 121, 122, "long")), "default": None, "field-id": 110},
        {"name": "nan_value_counts", "type": _opt(_map("nan_value_counts", 138, 139, "long")), "default": None, "field-id": 137},
        {"name": "lower_bounds", "type": _opt(_map("lower_bounds", 126, 127, "bytes")), "default": None, "field-id": 125},
        {"name": "upper_bounds", "type": _opt(_map("upper_bounds", 129, 130, "bytes")), "default": None, "field-id": 128},
        {"name": "key_metadata", "type": _opt("bytes"), "default": None, "field-id": 131},
        {"name": "split_offsets", "type": _opt({"type": "array", "items": "long", "element-id": 133}), "default": None,
         "field-id": 132},
        {"name": "equality_ids", "type": _opt({"type": "array", "items": "int", "element-id": 136}), "default": None,
         "field-id": 135},
        {"name": "sort_order_id", "type": _opt("int"), "default": None, "field-id": 140},
    ]
    if format_version >= 3:
        df.append({"name": "first_row_id", "type": _opt("long"), "default": None, "field-id": 142})
    df.append({"name": "referenced_data_file", "type": _opt("string"), "default": None, "field-id": 143})
    if format_version >= 3:
        df.append({"name": "content_offset", "type": _opt("long"), "default": None, "field-id": 144})
        df.append({"name": "content_size_in_bytes", "type": _opt("long"), "default": None, "field-id": 145})
    return {"type": "record", "name": "manifest_entry", "fields": [
        {"name": "status", "type": "int", "field-id": 0},
        {"name": "snapshot_id", "type": _opt("long"), "default": None, "field-id": 1},
        {"name": "sequence_number", "type": _opt("long"), "default": None, "field-id": 3},
        {"name": "file_sequence_number", "type": _opt("long"), "default": None, "field-id": 4},
        {"name": "data_file", "type": {"type": "record", "name": "r2", "fields": df}, "field-id": 2}]}  # fmt: skip


def manifest_file_schema(*, format_version: int = 3) -> dict[str, Any]:
    """The Avro schema of a v2/v3 manifest list (``manifest_file``), field ids as in the spec."""
    summary = {"type": "record", "name": "r508", "fields": [
        {"name": "contains_null", "type": "boolean", "field-id": 509},
        {"name": "contains_nan", "type": _opt("boolean"), "default": None, "field-id": 518},
        {"name": "lower_bound", "type": _opt("bytes"), "default": None, "field-id": 510},
        {"name": "upper_bound", "type": _opt("bytes"), "default": None, "field-id": 511}]}  # fmt: skip
    fields: list[dict[str, Any]] = [
        {"name": "manifest_path", "type": "string", "field-id": 500},
        {"name": "manifest_length", "type": "long", "field-id": 501},
        {"name": "partition_spec_id", "type": "int", "field-id": 502},
        {"name": "content", "type": "int", "field-id": 517},
        {"name": "sequence_number", "type": "long", "field-id": 515},
        {"name": "min_sequence_number", "type": "long", "field-id": 516},
        {"name": "added_snapshot_id", "type": "long", "field-id": 503},
        {"name": "added_files_count", "type": "int", "field-id": 504},
        {"name": "existing_files_count", "type": "int", "field-id": 505},
        {"name": "deleted_files_count", "type": "int", "field-id": 506},
        {"name": "added_rows_count", "type": "long", "field-id": 512},
        {"name": "existing_rows_count", "type": "long", "field-id": 513},
        {"name": "deleted_rows_count", "type": "long", "field-id": 514},
        {"name": "partitions", "type": _opt({"type": "array", "items": summary, "element-id": 508}), "default": None,
         "field-id": 507},
        {"name": "key_metadata", "type": _opt("bytes"), "default": None, "field-id": 519},
    ]
    if format_version >= 3:
        fields.append({"name": "first_row_id", "type": _opt("long"), "default": None, "field-id": 520})
    return {"type": "record", "name": "manifest_file", "fields": fields}


# -- helpers for callers --------------------------------------------------------------------------------------------


def _uri(path: str) -> str:
    """A local path as a ``file:`` URI the way Iceberg Java writes them (``file:/abs/path``); URIs as given."""
    scheme, sep, _ = path.partition(":")
    if sep and (len(scheme) > 1 and scheme.replace("+", "").replace("-", "").replace(".", "").isalnum()):
        return path
    return "file:" + os.path.abspath(path)


def data_file(path: str | os.PathLike[str], *, partition: Mapping[str, Any] | None = None, record_count: int | None = None,
              file_format: str = "parquet", with_metrics: bool = True) -> DataFile:
    """A :class:`DataFile` for a local data file: its ``file:`` URI, its size, its record count and (``with_metrics``)
    its column metrics, read from the Parquet footer by lakestruct."""
    p = os.fspath(path)
    local = local_path(p)
    size = os.path.getsize(local)
    metrics: dict[str, Any] = {}
    if file_format == "parquet" and (record_count is None or with_metrics):
        from .. import parquet

        with parquet.open(local) as pq:
            md = pq.metadata
        if record_count is None:
            record_count = int(md.num_rows)
        if with_metrics:
            metrics = _parquet_metrics(md)
    if record_count is None:
        raise UsageError(f"record_count is needed for a {file_format} file")
    return DataFile(content=DataFileContent.DATA, file_path=_uri(p), file_format=file_format, partition=dict(partition or {}),
                    record_count=record_count, file_size_in_bytes=size, **metrics)


#: how Parquet statistics of a physical type compare (bounds of several row groups are combined by these values)
_PHYSICAL = {1: "<i", 2: "<q", 4: "<f", 5: "<d"}  # INT32, INT64, FLOAT, DOUBLE; BYTE_ARRAY (6): unsigned bytes


def _parquet_metrics(md: Any) -> dict[str, Any]:
    """Iceberg's column metrics of a Parquet file from its footer, for the top-level columns that carry a field id:
    ``column_sizes``, ``value_counts``, ``null_value_counts`` and ``lower_bounds`` / ``upper_bounds`` (Parquet's plain
    encoding of INT32, INT64, FLOAT, DOUBLE and BYTE_ARRAY values is Iceberg's single-value serialization of int,
    date, long, timestamp, float, double, string and binary). A bound is left out when a row group has none, when
    Parquet says it is not exact (truncated upper bounds), or when it is NaN."""
    ids: dict[str, int] = {}
    types: dict[str, int] = {}
    for el in md.schema[1:]:
        if el.num_children:  # nested columns: no metrics (their leaves' paths are longer than one name)
            continue
        if el.field_id is not None and el.type is not None:
            ids[el.name] = int(el.field_id)
            types[el.name] = int(el.type)
    sizes: dict[int, int] = {}
    values: dict[int, int] = {}
    nulls: dict[int, int | None] = {}
    lower: dict[int, Any] = {}
    upper: dict[int, Any] = {}
    for rg in md.row_groups:
        for c in rg.columns:
            cm = c.meta_data
            if cm is None or len(cm.path_in_schema) != 1 or cm.path_in_schema[0] not in ids:
                continue
            name = cm.path_in_schema[0]
            fid, ptype = ids[name], types[name]
            sizes[fid] = sizes.get(fid, 0) + int(cm.total_compressed_size)
            values[fid] = values.get(fid, 0) + int(cm.num_values)
            st = cm.statistics
            n = None if st is None or st.null_count is None else int(st.null_count)
            had = nulls.get(fid, 0)
            nulls[fid] = None if n is None or had is None else had + n
            for out, raw, exact, pick in ((lower, None if st is None else st.min_value, True, min),
                                          (upper, None if st is None else st.max_value, st is None or st.is_max_value_exact is not False,
                                           max)):  # fmt: skip
                if fid in out and out[fid] is None:
                    continue
                if raw is None or not exact or (ptype not in _PHYSICAL and ptype != 6):
                    out[fid] = None
                    continue
                v = struct.unpack(_PHYSICAL[ptype], raw)[0] if ptype in _PHYSICAL else bytes(raw)
                if isinstance(v, float) and v != v:
                    out[fid] = None
                    continue
                out[fid] = v if fid not in out else pick(out[fid], v)

    def enc(d: dict[int, Any]) -> dict[int, bytes]:
        return {k: struct.pack(_PHYSICAL[types_by_id[k]], v) if types_by_id[k] in _PHYSICAL else v for k, v in d.items() if v is not None}

    types_by_id = {ids[n]: t for n, t in types.items()}
    if not md.row_groups:
        return {}
    return {"column_sizes": sizes, "value_counts": values, "null_value_counts": {k: v for k, v in nulls.items() if v is not None},
            "lower_bounds": enc(lower), "upper_bounds": enc(upper)}


def fields_from_arrow(schema: Any) -> list[NestedField]:
    """The Iceberg fields of a flat pyarrow schema: ids from each field's ``PARQUET:field_id`` metadata when present
    (else 1, 2, ... in order), types mapped (int8/16/32 int, int64 long, float32 float, float64 double, string, binary,
    bool boolean, date32 date, timestamp[us] timestamp / timestamptz)."""
    import pyarrow as pa

    out = []
    for i, f in enumerate(schema):
        meta = f.metadata or {}
        fid = int(meta.get(b"PARQUET:field_id", i + 1))
        t = f.type
        if pa.types.is_boolean(t):
            name = "boolean"
        elif pa.types.is_int64(t):
            name = "long"
        elif pa.types.is_integer(t):
            name = "int"
        elif pa.types.is_float32(t):
            name = "float"
        elif pa.types.is_float64(t):
            name = "double"
        elif pa.types.is_string(t) or pa.types.is_large_string(t):
            name = "string"
        elif pa.types.is_binary(t) or pa.types.is_large_binary(t):
            name = "binary"
        elif pa.types.is_date32(t):
            name = "date"
        elif pa.types.is_timestamp(t) and t.unit == "us":
            name = "timestamptz" if t.tz else "timestamp"
        else:
            raise UsageError(f"column {f.name!r}: arrow type {t} has no Iceberg type the writer maps")
        out.append(NestedField(fid, f.name, name, not f.nullable))
    return out


# -- the writer ---------------------------------------------------------------------------------------------------


@dataclass
class _Entry:
    """A file the table tracks, with what its manifest entries must state once it is no longer ADDED."""

    df: DataFile
    snapshot_id: int
    sequence_number: int
    file_sequence_number: int
    targets: frozenset[str] = frozenset()  #: delete files: the data files they hold positions of

    @property
    def key(self) -> tuple[str, int | None]:
        return (self.df.file_path, self.df.content_offset)


@dataclass
class _Manifest:
    path: str
    length: int
    content: int
    sequence_number: int
    min_sequence_number: int
    added_snapshot_id: int
    counts: tuple[int, int, int, int, int, int]  #: added/existing/deleted files, added/existing/deleted rows
    partitions: list[dict[str, Any]]
    first_row_id: int | None
    entries: list[tuple[int, _Entry]] = field(default_factory=list)

    def live(self) -> list[_Entry]:
        return [e for st, e in self.entries if st != EntryStatus.DELETED]

    def record(self) -> dict[str, Any]:
        a, e, d, ar, er, dr = self.counts
        return {"manifest_path": self.path, "manifest_length": self.length, "partition_spec_id": 0, "content": self.content,
                "sequence_number": self.sequence_number, "min_sequence_number": self.min_sequence_number,
                "added_snapshot_id": self.added_snapshot_id, "added_files_count": a, "existing_files_count": e,
                "deleted_files_count": d, "added_rows_count": ar, "existing_rows_count": er, "deleted_rows_count": dr,
                "partitions": self.partitions, "key_metadata": None, "first_row_id": self.first_row_id}  # fmt: skip


def _positions(v: Any) -> npt.NDArray[np.int64]:
    a = np.unique(np.asarray(list(v) if not isinstance(v, np.ndarray) else v, dtype=np.int64))
    return a


def _single_value(t: str, v: Any) -> bytes:
    """Iceberg's single-value serialization (spec, Appendix D) of a partition value, for manifest summaries."""
    if t in ("int", "date"):
        if t == "date" and not isinstance(v, int):
            import datetime as dt

            v = (v - dt.date(1970, 1, 1)).days
        return struct.pack("<i", v)
    if t == "long":
        return struct.pack("<q", v)
    if t == "float":
        return struct.pack("<f", v)
    if t == "double":
        return struct.pack("<d", v)
    if t == "boolean":
        return b"\x01" if v else b"\x00"
    if t == "string":
        return str(v).encode("utf-8")
    return bytes(v)


class TableWriter:
    """Write an Iceberg table (``format_version`` 2 or 3) at ``root``, one snapshot per operation.

    ``schema_fields``: the table's top-level fields (:class:`NestedField`, or Iceberg JSON field objects);
    ``partition_spec``: ``[(source column name, transform, partition field name), ...]`` (identity, bucket[N],
    truncate[W], year, month, day, hour), partition values given already transformed, by partition field name;
    ``seed`` makes snapshot ids and file names repeatable. The table must not exist yet.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        schema_fields: Iterable[NestedField | Mapping[str, Any]],
        partition_spec: Sequence[tuple[str, str, str]] | None = None,
        format_version: int = 3,
        *,
        location: str | None = None,
        properties: Mapping[str, str] | None = None,
        seed: int | None = None,
        created_by: str = "lakestruct",
    ) -> None:
        if format_version not in (2, 3):
            raise UsageError(f"format_version must be 2 or 3, not {format_version!r}")
        self.root = os.path.abspath(local_path(os.fspath(root)))
        if "://" in os.fspath(root) and not os.fspath(root).startswith("file:"):
            raise UsageError("the writer writes local tables only (give location= to name another place in the metadata)")
        meta_dir = os.path.join(self.root, "metadata")
        if os.path.isdir(meta_dir) and any(n.endswith(".metadata.json") for n in os.listdir(meta_dir)):
            raise UsageError(f"{self.root}: a table exists there already")
        self.format_version = format_version
        self.location = (location or _uri(self.root)).rstrip("/")
        self.properties = dict(properties or {})
        self.created_by = created_by
        self._rng = random.Random(seed)
        self.fields = [f if isinstance(f, NestedField) else
                       NestedField(int(f["id"]), str(f["name"]), f["type"], bool(f.get("required", False)), f.get("doc"))
                       for f in schema_fields]  # fmt: skip
        if not self.fields:
            raise UsageError("a table needs at least one field")
        by_name = {f.name: f for f in self.fields}
        self.partition_fields: list[tuple[PartitionField, str]] = []
        for i, (src, tr, name) in enumerate(partition_spec or ()):
            sf = by_name.get(src)
            if sf is None:
                raise UsageError(f"partition source column {src!r} is not a field of the schema")
            self.partition_fields.append((PartitionField(sf.id, 1000 + i, name, tr), _partition_type(tr, sf.type if isinstance(sf.type, str)
                                                                                                     else None)))
        self.table_uuid = str(uuid.UUID(int=self._rng.getrandbits(128), version=4))
        self.snapshots: list[dict[str, Any]] = []
        self.metadata_files: list[tuple[str, int]] = []
        self.last_sequence_number = 0
        self.next_row_id = 0
        self.current_snapshot_id: int | None = None
        self._manifests: list[_Manifest] = []
        self._data: dict[str, _Entry] = {}  #: live data files by path
        self._dvs: dict[str, _Entry] = {}  #: v3: the live DV of each data file, by data file path
        self._dv_positions: dict[str, npt.NDArray[np.int64]] = {}
        self._pos_files: dict[tuple[str, int | None], _Entry] = {}  #: v2: live position delete files
        self._version = 0
        os.makedirs(os.path.join(self.root, "data"), exist_ok=True)
        os.makedirs(meta_dir, exist_ok=True)
        self._write_metadata()

    # -- what the table holds -------------------------------------------------------------------------------------
    def path_of(self, path: str | os.PathLike[str]) -> str:
        """The path a data file is tracked under (local paths as ``file:`` URIs)."""
        return _uri(os.fspath(path))

    @property
    def data_files(self) -> dict[str, DataFile]:
        """The live data files, by path."""
        return {p: e.df for p, e in self._data.items()}

    def deleted_positions(self, path: str) -> npt.NDArray[np.int64]:
        """The positions deleted from a live data file (sorted)."""
        got = self._dv_positions.get(self._known(path))
        return np.empty(0, dtype=np.int64) if got is None else got

    def _known(self, path: str) -> str:
        p = path if path in self._data else _uri(path)
        if p not in self._data:
            raise UsageError(f"{path} is not a live data file of the table")
        return p

    # -- operations -------------------------------------------------------------------------------------------------
    def append(self, data_files: Iterable[DataFile]) -> int:
        """Add data files in one snapshot (operation ``append``); returns its id."""
        added = self._check_new(data_files)
        return self._commit("append", added_data=added)

    def delete_positions(self, deletes: Mapping[str, Any]) -> int:
        """Delete rows by position: ``{data file path: positions}`` in one snapshot (operation ``delete``); v3 writes one
        Puffin file with one deletion vector per data file (the union with its earlier DV, which the new one
        supersedes), v2 one position delete file per partition (pyarrow needed)."""
        todo: dict[str, npt.NDArray[np.int64]] = {}
        for path, pos in deletes.items():
            p = self._known(path)
            a = _positions(pos)
            rc = self._data[p].df.record_count
            if a.size and (a[0] < 0 or a[-1] >= rc):
                raise UsageError(f"positions of {p} must be in [0, {rc}); got {int(a[0])}..{int(a[-1])}")
            if a.size:
                todo[p] = np.union1d(todo[p], a) if p in todo else a
        if not todo:
            raise UsageError("no positions to delete")
        if self.format_version >= 3:
            return self._delete_v3(todo)
        return self._delete_v2(todo)

    def rewrite(self, old_data_files: Iterable[str], new_data_files: Iterable[DataFile]) -> int:
        """Replace data files by others in one snapshot (operation ``replace``, a compaction): the old files and the
        delete files that applied only to them become DELETED."""
        old = {self._known(p) for p in old_data_files}
        if not old:
            raise UsageError("rewrite needs at least one old data file")
        added = self._check_new(new_data_files)
        removed_deletes: list[_Entry] = []
        if self.format_version >= 3:
            removed_deletes = [self._dvs[p] for p in sorted(old) if p in self._dvs]
        else:
            remaining = set(self._data) - old
            removed_deletes = [e for e in self._pos_files.values() if not (e.targets & remaining)]
        return self._commit("replace", added_data=added, removed_data=[self._data[p] for p in sorted(old)],
                            removed_deletes=removed_deletes)

    def _check_new(self, data_files: Iterable[DataFile]) -> list[DataFile]:
        out = []
        seen: set[str] = set()
        names = {pf.name for pf, _ in self.partition_fields}
        for df in data_files:
            if not isinstance(df, DataFile) or df.content != DataFileContent.DATA:
                raise UsageError(f"not a data file: {df!r}")
            if df.file_path in self._data or df.file_path in seen:
                raise UsageError(f"{df.file_path} is a data file of the table already")
            if set(df.partition) != names:
                raise UsageError(f"{df.file_path}: partition {dict(df.partition)} must name the partition fields {sorted(names)}")
            seen.add(df.file_path)
            out.append(replace(df, spec_id=0, first_row_id=None))
        if not out:
            raise UsageError("no data files given")
        return out

    def _new_file(self, suffix: str) -> tuple[str, str]:
        """(local path, location URI) of a new file under data/."""
        name = f"{self._uuid()}{suffix}"
        return os.path.join(self.root, "data", name), f"{self.location}/data/{name}"

    def _uuid(self) -> str:
        return str(uuid.UUID(int=self._rng.getrandbits(128), version=4))

    def _delete_v3(self, todo: dict[str, npt.NDArray[np.int64]]) -> int:
        from .. import puffin

        local, uri = self._new_file("-deletes.puffin")
        merged = {p: np.union1d(self._dv_positions[p], a) if p in self._dv_positions else a for p, a in sorted(todo.items())}
        blobs = []
        with puffin.PuffinWriter(local, created_by=self.created_by) as w:
            for p, a in merged.items():
                blobs.append((p, w.add_deletion_vector(a, p)))
        size = os.path.getsize(local)
        added = [DataFile(content=DataFileContent.POSITION_DELETES, file_path=uri, file_format="puffin",
                          partition=dict(self._data[p].df.partition), record_count=int(merged[p].size), file_size_in_bytes=size,
                          referenced_data_file=p, content_offset=b.offset, content_size_in_bytes=b.length, spec_id=0)
                 for p, b in blobs]  # fmt: skip
        removed = [self._dvs[p] for p in merged if p in self._dvs]
        sid = self._commit("delete", added_deletes=added, removed_deletes=removed, targets=[frozenset([p]) for p in merged])
        self._dv_positions.update(merged)
        return sid

    def _delete_v2(self, todo: dict[str, npt.NDArray[np.int64]]) -> int:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise UsageError("writing v2 position delete files needs pyarrow (pip install pyarrow)") from None
        groups: dict[str, list[str]] = {}
        for p in sorted(todo):
            key = json.dumps(self._data[p].df.partition, sort_keys=True, default=str)
            groups.setdefault(key, []).append(p)
        schema = pa.schema([pa.field("file_path", pa.string(), False, {b"PARQUET:field_id": str(FILE_PATH_FIELD_ID).encode()}),
                            pa.field("pos", pa.int64(), False, {b"PARQUET:field_id": str(POS_FIELD_ID).encode()})])
        added = []
        targets = []
        for paths in groups.values():
            local, uri = self._new_file("-deletes.parquet")
            col_paths = [p for p in paths for _ in range(todo[p].size)]
            col_pos = np.concatenate([todo[p] for p in paths])
            table = pa.table([pa.array(col_paths, pa.string()), pa.array(col_pos, pa.int64())], schema=schema)
            buf = pa.BufferOutputStream()
            pq.write_table(table, buf)
            write_atomic(local, buf.getvalue().to_pybytes())
            # the columns' metrics, as Iceberg Java keeps them: readers plan a file whose file_path bounds are equal
            # as applying to that one data file
            from .. import parquet

            with parquet.open(local) as pqf:
                metrics = _parquet_metrics(pqf.metadata)
            added.append(DataFile(content=DataFileContent.POSITION_DELETES, file_path=uri, file_format="parquet",
                                  partition=dict(self._data[paths[0]].df.partition), record_count=len(col_paths),
                                  file_size_in_bytes=os.path.getsize(local), **metrics,
                                  referenced_data_file=paths[0] if len(paths) == 1 else None, spec_id=0))  # fmt: skip
            targets.append(frozenset(paths))
        sid = self._commit("delete", added_deletes=added, targets=targets)
        for p, a in todo.items():
            self._dv_positions[p] = np.union1d(self._dv_positions[p], a) if p in self._dv_positions else a
        return sid

    # -- committing -------------------------------------------------------------------------------------------------
    def _commit(self, operation: str, **changes: Any) -> int:
        """One snapshot; when writing any of its files fails, the writer is left as it was before (the files the
        failed commit wrote are orphans of the table, as a failed commit leaves them in Iceberg)."""
        saved = (list(self._manifests), dict(self._data), dict(self._dvs), dict(self._dv_positions), dict(self._pos_files),
                 list(self.snapshots), list(self.metadata_files), self.current_snapshot_id, self.last_sequence_number,
                 self.next_row_id, self._version)  # fmt: skip
        try:
            return self._commit_once(operation, **changes)
        except BaseException:
            (self._manifests, self._data, self._dvs, self._dv_positions, self._pos_files, self.snapshots, self.metadata_files,
             self.current_snapshot_id, self.last_sequence_number, self.next_row_id, self._version) = saved
            raise

    def _commit_once(self, operation: str, *, added_data: Sequence[DataFile] = (), removed_data: Sequence[_Entry] = (),
                     added_deletes: Sequence[DataFile] = (), removed_deletes: Sequence[_Entry] = (),
                     targets: Sequence[frozenset[str]] = ()) -> int:
        v3 = self.format_version >= 3
        sid = self._snapshot_id()
        seq = self.last_sequence_number + 1
        commit = self._uuid()
        removed_keys = {e.key for e in (*removed_data, *removed_deletes)}
        new_entries = [_Entry(df, sid, seq, seq) for df in added_data]
        new_deletes = [_Entry(df, sid, seq, seq, t) for df, t in zip(added_deletes, targets or [frozenset()] * len(added_deletes),
                                                                       strict=True)]
        first_row_id = self.next_row_id
        next_row_id = self.next_row_id
        manifests: list[_Manifest] = []
        count = 0

        def write(content: int, entries: list[tuple[int, _Entry]]) -> None:
            nonlocal count, next_row_id
            m = self._write_manifest(f"{commit}-m{count}.avro", content, entries, sid, seq,
                                     next_row_id if v3 and content == ManifestContent.DATA else None)
            if m.first_row_id is not None:
                next_row_id += m.counts[3] + m.counts[4]
            count += 1
            manifests.append(m)

        if new_entries:
            write(ManifestContent.DATA, [(EntryStatus.ADDED, e) for e in new_entries])
        if new_deletes:
            write(ManifestContent.DELETES, [(EntryStatus.ADDED, e) for e in new_deletes])
        carried: list[_Manifest] = []
        for m in self._manifests:
            live = m.live()
            if not any(e.key in removed_keys for e in live):
                if live:
                    carried.append(m)
                continue
            write(m.content, [(EntryStatus.DELETED if e.key in removed_keys else EntryStatus.EXISTING, e) for e in live])
        manifests += carried

        # the new state
        for e in removed_data:
            del self._data[e.df.file_path]
        for e in removed_deletes:
            if e.df.referenced_data_file is not None and self._dvs.get(e.df.referenced_data_file) is e:
                del self._dvs[e.df.referenced_data_file]
                if e.df.referenced_data_file not in self._data:
                    self._dv_positions.pop(e.df.referenced_data_file, None)
            self._pos_files.pop(e.key, None)
        for m in manifests:
            if m.added_snapshot_id != sid or m.content != ManifestContent.DATA or m.first_row_id is None:
                continue
            row = m.first_row_id
            for i, (st, e) in enumerate(m.entries):
                if st == EntryStatus.ADDED:  # the reader inherits it; later manifests state it
                    e.df = replace(e.df, first_row_id=row)
                    m.entries[i] = (st, e)
                    row += e.df.record_count
        for e in new_entries:
            self._data[e.df.file_path] = e
        for e in new_deletes:
            if e.df.content_offset is not None and e.df.referenced_data_file is not None:
                self._dvs[e.df.referenced_data_file] = e
            else:
                self._pos_files[e.key] = e
        for p in [p for p in self._dv_positions if p not in self._data]:
            del self._dv_positions[p]

        summary = self._summary(operation, new_entries, list(removed_data), new_deletes, list(removed_deletes))
        ml_name = f"snap-{sid}-1-{commit}.avro"
        self._write_manifest_list(ml_name, manifests, sid, seq, first_row_id if v3 else None)
        snap: dict[str, Any] = {"snapshot-id": sid}
        if self.current_snapshot_id is not None:
            snap["parent-snapshot-id"] = self.current_snapshot_id
        snap.update({"sequence-number": seq, "timestamp-ms": self._now(), "summary": summary,
                     "manifest-list": f"{self.location}/metadata/{ml_name}", "schema-id": 0})
        if v3:
            snap["first-row-id"] = first_row_id
            snap["added-rows"] = next_row_id - first_row_id
        self.snapshots.append(snap)
        self._manifests = manifests
        self.current_snapshot_id = sid
        self.last_sequence_number = seq
        self.next_row_id = next_row_id
        self._write_metadata()
        return sid

    def _snapshot_id(self) -> int:
        used = {s["snapshot-id"] for s in self.snapshots}
        while True:
            sid = self._rng.getrandbits(63)
            if sid and sid not in used:
                return sid

    def _now(self) -> int:
        now = int(time.time() * 1000)
        last = self.snapshots[-1]["timestamp-ms"] if self.snapshots else 0
        return max(now, int(last) + 1)

    def _summary(self, operation: str, added: list[_Entry], removed: list[_Entry], added_del: list[_Entry],
                 removed_del: list[_Entry]) -> dict[str, str]:
        def size(e: _Entry) -> int:
            return e.df.content_size_in_bytes if e.df.content_offset is not None and e.df.content_size_in_bytes is not None \
                else e.df.file_size_in_bytes

        s: dict[str, int] = {}

        def put(key: str, v: int) -> None:
            if v:
                s[key] = v

        put("added-data-files", len(added))
        put("deleted-data-files", len(removed))
        put("added-records", sum(e.df.record_count for e in added))
        put("deleted-records", sum(e.df.record_count for e in removed))
        put("added-files-size", sum(size(e) for e in (*added, *added_del)))
        put("removed-files-size", sum(size(e) for e in (*removed, *removed_del)))
        put("added-delete-files", len(added_del))
        put("removed-delete-files", len(removed_del))
        dv = [e for e in added_del if e.df.content_offset is not None]
        rdv = [e for e in removed_del if e.df.content_offset is not None]
        put("added-dvs", len(dv))
        put("removed-dvs", len(rdv))
        put("added-position-delete-files", len(added_del) - len(dv))
        put("removed-position-delete-files", len(removed_del) - len(rdv))
        put("added-position-deletes", sum(e.df.record_count for e in added_del))
        put("removed-position-deletes", sum(e.df.record_count for e in removed_del))
        parts = {json.dumps(e.df.partition, sort_keys=True, default=str) for e in (*added, *removed, *added_del, *removed_del)}
        put("changed-partition-count", len(parts))
        live_del = [*self._dvs.values(), *self._pos_files.values()]
        totals = {
            "total-records": sum(e.df.record_count for e in self._data.values()),
            "total-files-size": sum(size(e) for e in (*self._data.values(), *live_del)),
            "total-data-files": len(self._data),
            "total-delete-files": len(live_del),
            "total-position-deletes": sum(e.df.record_count for e in live_del),
            "total-equality-deletes": 0,
        }
        return {"operation": operation, **{k: str(v) for k, v in s.items()}, **{k: str(v) for k, v in totals.items()}}

    # -- files ------------------------------------------------------------------------------------------------------
    def _schema_json(self) -> dict[str, Any]:
        return {"type": "struct", "schema-id": 0, "fields": [
            {"id": f.id, "name": f.name, "required": f.required, "type": f.type, **({"doc": f.doc} if f.doc else {})}
            for f in self.fields]}  # fmt: skip

    def _spec_fields_json(self) -> list[dict[str, Any]]:
        return [{"name": pf.name, "transform": pf.transform, "source-id": pf.source_id, "field-id": pf.field_id}
                for pf, _ in self.partition_fields]

    def _entry_record(self, status: int, e: _Entry) -> dict[str, Any]:
        df = e.df
        added = status == EntryStatus.ADDED
        d: dict[str, Any] = {
            "content": df.content, "file_path": df.file_path, "file_format": df.file_format.upper(),
            "partition": {pf.name: df.partition.get(pf.name) for pf, _ in self.partition_fields},
            "record_count": df.record_count, "file_size_in_bytes": df.file_size_in_bytes,
            "column_sizes": _kv(df.column_sizes), "value_counts": _kv(df.value_counts), "null_value_counts": _kv(df.null_value_counts),
            "nan_value_counts": _kv(df.nan_value_counts), "lower_bounds": _kv(df.lower_bounds), "upper_bounds": _kv(df.upper_bounds),
            "key_metadata": df.key_metadata, "split_offsets": None if df.split_offsets is None else list(df.split_offsets),
            "equality_ids": None, "sort_order_id": df.sort_order_id if df.content == DataFileContent.DATA else None,
            "referenced_data_file": df.referenced_data_file,
        }  # fmt: skip
        if self.format_version >= 3:
            d["first_row_id"] = None if added or df.content != DataFileContent.DATA else df.first_row_id
            d["content_offset"] = df.content_offset
            d["content_size_in_bytes"] = df.content_size_in_bytes
        return {"status": int(status), "snapshot_id": e.snapshot_id,
                "sequence_number": None if added else e.sequence_number,
                "file_sequence_number": None if added else e.file_sequence_number, "data_file": d}

    def _write_manifest(self, name: str, content: int, entries: list[tuple[int, _Entry]], sid: int, seq: int,
                        first_row_id: int | None) -> _Manifest:
        entries = [(st, _Entry(e.df, sid, e.sequence_number, e.file_sequence_number, e.targets) if st == EntryStatus.DELETED else e)
                   for st, e in entries]  # fmt: skip
        # a DELETED entry states the snapshot that deleted the file; the live entry object keeps its own
        local = os.path.join(self.root, "metadata", name)
        meta = {"schema": json.dumps(self._schema_json(), separators=(",", ":")), "schema-id": "0",
                "partition-spec": json.dumps(self._spec_fields_json(), separators=(",", ":")), "partition-spec-id": "0",
                "format-version": str(self.format_version), "content": "data" if content == ManifestContent.DATA else "deletes"}
        write_avro(local, manifest_entry_schema(self.partition_fields, format_version=self.format_version),
                   [self._entry_record(st, e) for st, e in entries], codec="deflate", metadata=meta)
        counts = [0] * 6
        for st, e in entries:
            i = {EntryStatus.ADDED: 0, EntryStatus.EXISTING: 1, EntryStatus.DELETED: 2}[EntryStatus(st)]
            counts[i] += 1
            counts[3 + i] += e.df.record_count
        live_seqs = [e.sequence_number for st, e in entries if st != EntryStatus.DELETED]
        return _Manifest(f"{self.location}/metadata/{name}", os.path.getsize(local), content, seq, min(live_seqs, default=seq), sid,
                         (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]), self._summaries(entries), first_row_id,
                         entries)  # fmt: skip

    def _summaries(self, entries: list[tuple[int, _Entry]]) -> list[dict[str, Any]]:
        out = []
        for pf, t in self.partition_fields:
            vals = [e.df.partition.get(pf.name) for _, e in entries]
            present = [v for v in vals if v is not None and not (isinstance(v, float) and v != v)]
            nan = any(isinstance(v, float) and v != v for v in vals)
            out.append({"contains_null": any(v is None for v in vals), "contains_nan": nan if t in ("float", "double") else None,
                        "lower_bound": _single_value(t, min(present)) if present else None,
                        "upper_bound": _single_value(t, max(present)) if present else None})
        return out

    def _write_manifest_list(self, name: str, manifests: list[_Manifest], sid: int, seq: int, first_row_id: int | None) -> None:
        meta = {"snapshot-id": str(sid), "parent-snapshot-id": str(self.current_snapshot_id) if self.current_snapshot_id is not None
                else "null", "sequence-number": str(seq), "format-version": str(self.format_version)}  # fmt: skip
        if first_row_id is not None:
            meta["first-row-id"] = str(first_row_id)
        records = [m.record() for m in manifests]
        if self.format_version < 3:
            for r in records:
                r.pop("first_row_id")
        write_avro(os.path.join(self.root, "metadata", name), manifest_file_schema(format_version=self.format_version), records,
                   codec="deflate", metadata=meta)

    def _write_metadata(self) -> None:
        self._version += 1
        now = int(self.snapshots[-1]["timestamp-ms"]) if self.snapshots else self._now()
        md: dict[str, Any] = {
            "format-version": self.format_version,
            "table-uuid": self.table_uuid,
            "location": self.location,
            "last-sequence-number": self.last_sequence_number,
            "last-updated-ms": now,
            "last-column-id": max(f.id for f in self.fields),
            "current-schema-id": 0,
            "schemas": [self._schema_json()],
            "default-spec-id": 0,
            "partition-specs": [{"spec-id": 0, "fields": self._spec_fields_json()}],
            "last-partition-id": max((pf.field_id or 999 for pf, _ in self.partition_fields), default=999),
            "default-sort-order-id": 0,
            "sort-orders": [{"order-id": 0, "fields": []}],
            "properties": {"write.format.default": "parquet", "write.delete.mode": "merge-on-read", **self.properties},
            "current-snapshot-id": self.current_snapshot_id if self.current_snapshot_id is not None else -1,
            "refs": {} if self.current_snapshot_id is None else {"main": {"snapshot-id": self.current_snapshot_id, "type": "branch"}},
            "snapshots": self.snapshots,
            "statistics": [],
            "partition-statistics": [],
            "snapshot-log": [{"timestamp-ms": s["timestamp-ms"], "snapshot-id": s["snapshot-id"]} for s in self.snapshots],
            "metadata-log": [{"timestamp-ms": ts, "metadata-file": p} for p, ts in self.metadata_files],
        }
        if self.format_version >= 3:
            md["next-row-id"] = self.next_row_id
        name = f"v{self._version}.metadata.json"
        meta_dir = os.path.join(self.root, "metadata")
        write_atomic(os.path.join(meta_dir, name), json.dumps(md, indent=2).encode("utf-8"))
        write_atomic(os.path.join(meta_dir, "version-hint.text"), str(self._version).encode("ascii"))
        self.metadata_files.append((f"{self.location}/metadata/{name}", now))

    @property
    def metadata_path(self) -> str:
        """The local path of the current metadata file."""
        return os.path.join(self.root, "metadata", f"v{self._version}.metadata.json")


def write_avro(path: str, schema: Mapping[str, Any], records: Iterable[Mapping[str, Any]], *, metadata: Mapping[str, str],
               codec: str = "deflate") -> None:
    """An Avro object container file written by fastavro (Iceberg Java's default codec: deflate), atomically; the
    schema is stored as given (with its ``field-id`` attributes)."""
    import io

    import fastavro

    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(dict(schema)), records, codec=codec, metadata=dict(metadata))
    write_atomic(path, buf.getvalue())


def _kv(m: Mapping[int, Any] | None) -> list[dict[str, Any]] | None:
    return None if m is None else [{"key": int(k), "value": v} for k, v in sorted(m.items())]
