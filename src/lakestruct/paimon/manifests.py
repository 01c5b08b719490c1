"""Paimon manifests: manifest lists, data manifests and index manifests (Avro; ORC and Parquet through pyarrow)
decoded into models, by the compiled Avro plan where it applies and a checked path otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .._frozen import constructor
from ..avro.container import MAGIC as AVRO_MAGIC
from ..avro.container import AvroFile, read_avro_records
from ..avro.plan import decode_block, plan_for
from ..errors import FormatError, SourceError
from .meta import _read_bytes
from .model import (
    ADD,
    DELETE,
    DataFileMeta,
    DeletionVectorMeta,
    IndexFileMeta,
    IndexManifestEntry,
    ManifestEntry,
    ManifestFileMeta,
    SimpleStats,
)
from .targets import TARGETS

__all__ = [
    "decode_avro",
    "read_data_manifest",
    "read_index_manifest",
    "read_manifest_list",
]


# -- Avro records -> models -------------------------------------------------------------------------


class _Rec:
    """Field access on one Avro record with named errors (``rule``/``path`` say which record and field)."""

    __slots__ = ("path", "rec", "rule")

    def __init__(self, rec: Any, rule: str, path: str) -> None:
        if not isinstance(rec, dict):
            raise FormatError(f"expected a record, found {type(rec).__name__}", rule=rule, path=path)
        self.rec, self.rule, self.path = rec, rule, path

    def req(self, key: str, kind: type | tuple[type, ...]) -> Any:
        v = self.rec.get(key)
        if v is None or not isinstance(v, kind) or (isinstance(v, bool) and kind is int):
            what = "missing" if v is None else f"a {type(v).__name__}"
            raise FormatError(f"{key} is {what}, it must be {getattr(kind, '__name__', kind)}", rule=self.rule, path=f"{self.path}.{key}")
        return v

    def opt(self, key: str, kind: type | tuple[type, ...]) -> Any:
        v = self.rec.get(key)
        return None if v is None else self.req(key, kind)

    def sub(self, key: str) -> _Rec | None:
        v = self.rec.get(key)
        return None if v is None else _Rec(v, self.rule, f"{self.path}.{key}")


def _stats(r: _Rec | None) -> SimpleStats | None:
    if r is None:
        return None
    nulls = r.opt("_NULL_COUNTS", list)
    return SimpleStats(r.req("_MIN_VALUES", bytes), r.req("_MAX_VALUES", bytes), tuple(nulls) if nulls is not None else None)


def _version(r: _Rec, expected: int, what: str) -> int:
    v: int = r.req("_VERSION", int)
    if v != expected:
        hint = " (written by Paimon before 0.5: Paimon asks to recreate the table)" if what == "manifest" and v == 1 else ""
        raise FormatError(f"{what} records have _VERSION {expected}, this one {v}{hint}", rule=f"paimon.{what}.version",
                          path=f"{r.path}._VERSION")
    return v


def _records(data: bytes, name: str) -> Iterator[dict[str, Any]]:
    if data[:3] == b"ORC" or data[:4] == b"PAR1":
        yield from _arrow_records(data, name)
    else:
        yield from read_avro_records(data, name=name)


def _arrow_records(data: bytes, name: str) -> Iterator[dict[str, Any]]:
    """ORC or Parquet manifests (``manifest.format``), read with pyarrow."""
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover - pyarrow comes with lakestruct[spark]
        raise SourceError(f"{name}: an ORC/Parquet manifest needs pyarrow (pip install 'lakestruct[spark]')") from None
    try:
        if data[:3] == b"ORC":
            from pyarrow import orc

            table = orc.ORCFile(pa.BufferReader(data)).read()
        else:
            import pyarrow.parquet as pq

            table = pq.read_table(pa.BufferReader(data))
        rows = table.to_pylist()  # converts strings: invalid UTF-8 surfaces here, not when pyarrow reads the file
    except Exception as e:
        raise FormatError(f"pyarrow cannot read the manifest: {e}", rule="paimon.manifest.format", path="manifest", source=name) from None
    yield from rows


def _manifest_file_meta(rec: dict[str, Any], i: int) -> ManifestFileMeta:
    r = _Rec(rec, "paimon.manifest-list.field", f"records[{i}]")
    return ManifestFileMeta(
        version=_version(r, 2, "manifest-list"),
        file_name=r.req("_FILE_NAME", str),
        file_size=r.req("_FILE_SIZE", int),
        num_added_files=r.req("_NUM_ADDED_FILES", int),
        num_deleted_files=r.req("_NUM_DELETED_FILES", int),
        partition_stats=_stats(r.sub("_PARTITION_STATS")),
        schema_id=r.req("_SCHEMA_ID", int),
        min_bucket=r.opt("_MIN_BUCKET", int),
        max_bucket=r.opt("_MAX_BUCKET", int),
        min_level=r.opt("_MIN_LEVEL", int),
        max_level=r.opt("_MAX_LEVEL", int),
        min_row_id=r.opt("_MIN_ROW_ID", int),
        max_row_id=r.opt("_MAX_ROW_ID", int),
    )


def _str_list(r: _Rec, key: str) -> tuple[str, ...] | None:
    v = r.opt(key, list)
    if v is None:
        return None
    if not all(isinstance(x, str) for x in v):
        raise FormatError(f"{key} must hold strings", rule=r.rule, path=f"{r.path}.{key}")
    return tuple(v)


_new_stats = constructor(SimpleStats)
_new_data_file = constructor(DataFileMeta)
_new_entry = constructor(ManifestEntry)


def _fast_stats(v: Any) -> SimpleStats | bool | None:
    """SimpleStats from a record dict without the per-field error plumbing; False when the slow path must explain."""
    if v is None:
        return None
    if type(v) is not dict:
        return False
    lo, hi, nulls = v.get("_MIN_VALUES"), v.get("_MAX_VALUES"), v.get("_NULL_COUNTS")
    if type(lo) is not bytes or type(hi) is not bytes or (nulls is not None and type(nulls) is not list):
        return False
    out: SimpleStats = _new_stats(lo, hi, tuple(nulls) if nulls is not None else None)
    return out


def _strs(v: Any) -> bool:
    return type(v) is list and (not v or all(type(x) is str for x in v))


def _data_file_meta(r: _Rec) -> DataFileMeta:
    g: Any = r.rec.get
    name, size, rows, lo, hi = g("_FILE_NAME"), g("_FILE_SIZE"), g("_ROW_COUNT"), g("_MIN_KEY"), g("_MAX_KEY")
    min_seq, max_seq, schema_id, level = g("_MIN_SEQUENCE_NUMBER"), g("_MAX_SEQUENCE_NUMBER"), g("_SCHEMA_ID"), g("_LEVEL")
    deleted, index, source, external, first = (g("_DELETE_ROW_COUNT"), g("_EMBEDDED_FILE_INDEX"), g("_FILE_SOURCE"), g("_EXTERNAL_PATH"),
                                               g("_FIRST_ROW_ID"))
    extra, stats_cols, write_cols = g("_EXTRA_FILES"), g("_VALUE_STATS_COLS"), g("_WRITE_COLS")
    ks, vs = _fast_stats(g("_KEY_STATS")), _fast_stats(g("_VALUE_STATS"))
    if (type(name) is str and type(size) is int and type(rows) is int and type(lo) is bytes and type(hi) is bytes
            and type(min_seq) is int and type(max_seq) is int and type(schema_id) is int and type(level) is int
            and (deleted is None or type(deleted) is int) and (index is None or type(index) is bytes)
            and (source is None or type(source) is int) and (external is None or type(external) is str)
            and (first is None or type(first) is int) and ks is not False and vs is not False and _strs(extra)
            and (stats_cols is None or _strs(stats_cols)) and (write_cols is None or _strs(write_cols))):
        out: DataFileMeta = _new_data_file(name, size, rows, lo, hi, ks, vs, min_seq, max_seq, schema_id, level, tuple(extra),
                                           g("_CREATION_TIME"), deleted, index, source,
                                           None if stats_cols is None else tuple(stats_cols), external, first,
                                           None if write_cols is None else tuple(write_cols))
        return out
    return _data_file_meta_checked(r)


def _data_file_meta_checked(r: _Rec) -> DataFileMeta:
    """The checked way: names the field that is wrong."""
    return DataFileMeta(
        file_name=r.req("_FILE_NAME", str),
        file_size=r.req("_FILE_SIZE", int),
        row_count=r.req("_ROW_COUNT", int),
        min_key=r.req("_MIN_KEY", bytes),
        max_key=r.req("_MAX_KEY", bytes),
        key_stats=_stats(r.sub("_KEY_STATS")),
        value_stats=_stats(r.sub("_VALUE_STATS")),
        min_sequence_number=r.req("_MIN_SEQUENCE_NUMBER", int),
        max_sequence_number=r.req("_MAX_SEQUENCE_NUMBER", int),
        schema_id=r.req("_SCHEMA_ID", int),
        level=r.req("_LEVEL", int),
        extra_files=_str_list(r, "_EXTRA_FILES") or (),
        creation_time=r.rec.get("_CREATION_TIME"),
        delete_row_count=r.opt("_DELETE_ROW_COUNT", int),
        embedded_index=r.opt("_EMBEDDED_FILE_INDEX", bytes),
        file_source=r.opt("_FILE_SOURCE", int),
        value_stats_cols=_str_list(r, "_VALUE_STATS_COLS"),
        external_path=r.opt("_EXTERNAL_PATH", str),
        first_row_id=r.opt("_FIRST_ROW_ID", int),
        write_cols=_str_list(r, "_WRITE_COLS"),
    )


def _manifest_entry(rec: dict[str, Any], i: int) -> ManifestEntry:
    f = rec.get("_FILE") if type(rec) is dict else None
    if (type(f) is dict and rec.get("_VERSION") == 2 and rec.get("_KIND") in (ADD, DELETE) and type(rec.get("_PARTITION")) is bytes
            and type(rec.get("_BUCKET")) is int and type(rec.get("_TOTAL_BUCKETS")) is int):
        out: ManifestEntry = _new_entry(rec["_KIND"], rec["_PARTITION"], rec["_BUCKET"], rec["_TOTAL_BUCKETS"],
                                        _data_file_meta(_Rec(f, "paimon.manifest.field", f"records[{i}]._FILE")), 2)
        return out
    r = _Rec(rec, "paimon.manifest.field", f"records[{i}]")
    version = _version(r, 2, "manifest")
    kind = r.req("_KIND", int)
    if kind not in (ADD, DELETE):
        raise FormatError(f"_KIND is 0 (ADD) or 1 (DELETE), found {kind}", rule="paimon.manifest.kind", path=f"{r.path}._KIND")
    f = r.sub("_FILE")
    if f is None:
        raise FormatError("_FILE is missing", rule="paimon.manifest.field", path=f"{r.path}._FILE")
    return ManifestEntry(kind, r.req("_PARTITION", bytes), r.req("_BUCKET", int), r.req("_TOTAL_BUCKETS", int), _data_file_meta(f), version)


def _index_entry(rec: dict[str, Any], i: int) -> IndexManifestEntry:
    r = _Rec(rec, "paimon.index-manifest.field", f"records[{i}]")
    version = _version(r, 1, "index-manifest")
    kind = r.req("_KIND", int)
    if kind not in (ADD, DELETE):
        raise FormatError(f"_KIND is 0 (ADD) or 1 (DELETE), found {kind}", rule="paimon.index-manifest.kind", path=f"{r.path}._KIND")
    raw_ranges = r.opt("_DELETIONS_VECTORS_RANGES", list)
    ranges = None
    if raw_ranges is not None:
        out = []
        for j, item in enumerate(raw_ranges):
            d = _Rec(item, r.rule, f"{r.path}._DELETIONS_VECTORS_RANGES[{j}]")
            out.append(DeletionVectorMeta(d.req("f0", str), d.req("f1", int), d.req("f2", int), d.opt("_CARDINALITY", int)))
        ranges = tuple(out)
    gi = r.opt("_GLOBAL_INDEX", dict)
    meta = IndexFileMeta(r.req("_INDEX_TYPE", str), r.req("_FILE_NAME", str), r.req("_FILE_SIZE", int), r.req("_ROW_COUNT", int),
                         ranges, r.opt("_EXTERNAL_PATH", str), gi)
    return IndexManifestEntry(kind, r.req("_PARTITION", bytes), r.req("_BUCKET", int), meta, version)


def _read_records(path: str, convert: Any, target: str | None = None) -> list[Any]:
    data = _read_bytes(path)
    try:
        if target is not None and data[:4] == AVRO_MAGIC:
            return decode_avro(data, convert, target)
        return [convert(rec, i) for i, rec in enumerate(_records(data, path))]
    except FormatError as e:
        raise e.with_source(path) from None


def decode_avro(data: bytes, convert: Any, target: str, *, compiled: bool = True) -> list[Any]:
    """The records of an Avro manifest as models: each block decoded by the compiled plan of its writer schema
    (:mod:`lakestruct.avro.plan`, targets in :mod:`.targets`), or, without one or when the plan gives up on the
    block, by fastavro and ``convert`` (which raises the named error); ``compiled=False``: always the latter (the reference)."""
    f = AvroFile(data)
    f.parsed_schema()  # the schema must parse with fastavro either way (avro.schema)
    plan = plan_for(f.raw_schema, TARGETS[target]) if compiled else None
    out: list[Any] = []
    for block in f.blocks():
        got = decode_block(block.body, block.count, plan, f.max_items) if plan is not None else None
        if got is None:
            base = len(out)
            got = [convert(rec, base + i) for i, rec in enumerate(f.records(block))]
        out.extend(got)
    return out


def read_manifest_list(path: str) -> list[ManifestFileMeta]:
    """The records of a manifest list (rules ``paimon.manifest-list.*``, ``avro.*``)."""
    return _read_records(path, _manifest_file_meta, "manifest-file")


def read_data_manifest(path: str) -> list[ManifestEntry]:
    """The entries of a data manifest (rules ``paimon.manifest.*``, ``avro.*``)."""
    return _read_records(path, _manifest_entry, "entry")


def read_index_manifest(path: str) -> list[IndexManifestEntry]:
    """The entries of an index manifest (rules ``paimon.index-manifest.*``, ``avro.*``)."""
    return _read_records(path, _index_entry, "index-entry")


