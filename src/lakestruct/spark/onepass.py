"""The inventory's work, free of Spark: one pass per file, one pass per table, rows as Arrow tables.

A *task* is either a pack of files or one table root. A file task reads each file once (its bytes are pinned in
memory while every reader runs over it, :func:`lakestruct.source.pinned`) and emits the rows of every file-level
table at once: ``files``, ``puffin_blobs``, ``deletion_vectors``, ``parquet_chunks``, ``parquet_pages`` — the very
rows the Spark sources of the same names give (the same row functions build them). A table task opens a table by its
room (:func:`lakestruct.tables.open`) and emits its ``tables`` row, the ``data_file_deletes`` rows of its live data
files and its ``orphan_files``: table answers come from the table's live state, never from files on storage.

The same task function runs in Spark tasks (:mod:`.inventory`, ``rdd.map``) and in the plain loop, so the two give
the same rows. Imports pyarrow and lakestruct only.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pyarrow as pa

from ..errors import LakestructError
from ..source import Input, local_path, open_source, pinned
from . import columns
from .rowsource import FILE_FIELD, Batcher, Options, RowSource, col, full_schema
from .sources import DELETION_VECTORS, LAKE_FILES, PARQUET_CHUNKS, PARQUET_PAGES, PUFFIN

__all__ = [
    "DFD_SCHEMA",
    "FILE_TABLES",
    "ORPHANS_SCHEMA",
    "PIN_BYTES",
    "TABLES_SCHEMA",
    "TABLE_TABLES",
    "file_task",
    "run_task",
    "schema_of",
    "table_task",
]

#: file-level table -> (its source, the formats of the files it reads; None: every file)
FILE_TABLES: dict[str, tuple[RowSource, frozenset[str] | None]] = {
    "files": (LAKE_FILES, None),
    "puffin_blobs": (PUFFIN, frozenset({"puffin"})),
    "deletion_vectors": (DELETION_VECTORS, frozenset({"puffin", "dv-file", "dv-blob"})),
    "parquet_chunks": (PARQUET_CHUNKS, frozenset({"parquet"})),
    "parquet_pages": (PARQUET_PAGES, frozenset({"parquet"})),
}

#: a file up to this size is read once into memory and every reader runs over those bytes; a larger one is read by
#: ranges (footers, headers) by each reader
PIN_BYTES = 64 * 1024 * 1024

TABLES_SCHEMA = pa.schema(
    [
        col("table", pa.string(), "the table's root, as listed", nullable=False),
        col("format", pa.string(), "iceberg, paimon or delta"),
        col("snapshot_id", pa.int64(), "the current snapshot (Delta: version) whose live state is counted"),
        col("data_files", pa.int64(), "live data files"),
        col("record_count", pa.int64(), "rows the live data files hold, as their metadata records"),
        col("deleted_rows", pa.int64(), "rows deleted by the live deletes: per data file the union of the positions that apply"),
        col("live_rows", pa.int64(), "record_count - deleted_rows (equality deletes are not applied)"),
        col("deleted_share", pa.float64(), "deleted_rows / record_count"),
        col("delete_files", pa.int64(), "live delete files (deletion vectors, position and equality delete files)"),
        col("orphan_files", pa.int64(), "files under the root that no retained snapshot references"),
        col("orphan_bytes", pa.int64(), "their bytes"),
        col("missing_files", pa.int64(), "files the metadata references that storage lacks"),
        col("rules_broken", pa.list_(pa.string()), "rules the table's metadata and files break (lakestruct's table check)"),
        col("error_rule", pa.string(), "the table could not be read: the rule (its counts are then null)"),
        col("error", pa.string(), "the whole error message"),
    ]
)

DFD_SCHEMA = pa.schema(
    [
        col("table", pa.string(), "the table whose live state names the data file; null: a deletion vector outside any table"),
        col("referenced_data_file", pa.string(), "the data file as the table metadata (or the deletion vector) names it"),
        col("data_file", pa.string(), "the scanned file it is; for files outside tables, matched by location or unique name"),
        col("match", pa.string(), "table (live state), path or file_name (files outside tables); null: not scanned"),
        col("vectors", pa.int64(), "deletion vectors and delete files that apply"),
        col("deleted_rows", pa.int64(), "distinct deleted positions below the file's row count"),
        col("max_deleted_position", pa.int64(), "the largest deleted position"),
        col("row_count", pa.int64(), "rows in the data file (table metadata; else its Parquet footer when scanned)"),
        col("dv_files", pa.list_(pa.string()), "the files holding the deletes"),
        col("deleted_share", pa.float64(), "deleted_rows / row_count"),
        col("positions_past_end", pa.bool_(), "a delete names a position at or past the file's row count"),
    ]
)

ORPHANS_SCHEMA = pa.schema(
    [
        col("table", pa.string(), "the table's root", nullable=False),
        col("file", pa.string(), "the file", nullable=False),
        col("size", pa.int64(), "bytes (on storage; for missing files as recorded)"),
        col("kind", pa.string(), "unreferenced (on storage, referenced by no retained snapshot) or missing (referenced, absent)"),
        col("role", pa.string(), "data, delete, manifest, manifest-list, metadata, statistics or other"),
        col("rows", pa.int64(), "rows a missing data or delete file held, as recorded"),
    ]
)

#: table-level table -> schema
TABLE_TABLES: dict[str, pa.Schema] = {"tables": TABLES_SCHEMA, "data_file_deletes": DFD_SCHEMA, "orphan_files": ORPHANS_SCHEMA}


def schema_of(table: str, options: Options) -> pa.Schema:
    if table in FILE_TABLES:
        return full_schema(FILE_TABLES[table][0], options)
    return TABLE_TABLES[table]


def _empty(schema: pa.Schema) -> pa.Table:
    return pa.Table.from_batches([], schema=schema)  # (Schema.empty_table imports pandas)


def _table(rows: list[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    """``pa.Table.from_pylist`` without importing pandas (:mod:`.columns`)."""
    return pa.Table.from_batches([columns.batch(rows, schema)], schema=schema)


def file_task(inputs: Iterable[Input], options: Options) -> dict[str, pa.Table]:
    """The rows of every file-level table for ``inputs``, each file read once."""
    from .. import scan

    out: dict[str, list[pa.RecordBatch]] = {t: [] for t in FILE_TABLES}
    # each table's rows of consecutive files are joined into batches (no batch per file and table)
    batchers = {t: Batcher(source, options) for t, (source, _) in FILE_TABLES.items()}
    for path, size in inputs:
        fmt = scan.detect(path)  # its head and tail only: a file of no format lakestruct reads is not read whole
        data: bytes | None = None
        if fmt is not None and size <= PIN_BYTES:
            try:
                with open_source(path) as src:
                    data = src.read(0, src.size)
            except LakestructError:
                data = None  # the lake_files row says why
        with pinned(path, data):
            for table, (_, fmts) in FILE_TABLES.items():
                if fmts is None or fmt in fmts:
                    out[table].extend(batchers[table].add(path))
    for table, b in batchers.items():
        out[table].extend(b.finish())
    return {t: pa.Table.from_batches(b, schema=full_schema(FILE_TABLES[t][0], options)) for t, b in out.items()}


def _error_table_row(root: str, fmt: str, e: BaseException) -> dict[str, Any]:
    rule = getattr(e, "rule", None) or "io.unreadable"
    return {"table": root, "format": fmt, "error_rule": rule, "error": str(e)}


def table_task(root: str, fmt: str) -> dict[str, pa.Table]:
    """The ``tables``, ``data_file_deletes`` and ``orphan_files`` rows of one table, from its live state."""
    from .. import tables

    try:
        t = tables.open(root, format=fmt)
        # a Delta vector that cannot be read leaves its file's deleted rows unknown (the rule is in check()), not the table
        state = t.state(strict=False) if fmt == "delta" else t.state()
        orphans = t.orphans()
        problems = t.check()
    except ImportError as e:  # a room this build does not have
        row: dict[str, Any] = {"table": root, "format": fmt, "error_rule": "table.unsupported",
                               "error": f"{fmt} tables are not read by this build: {e}"}
        return {"tables": _table([row], TABLES_SCHEMA), "data_file_deletes": _empty(DFD_SCHEMA),
                "orphan_files": _empty(ORPHANS_SCHEMA)}
    except LakestructError as e:
        return {"tables": _table([_error_table_row(root, fmt, e)], TABLES_SCHEMA),
                "data_file_deletes": _empty(DFD_SCHEMA), "orphan_files": _empty(ORPHANS_SCHEMA)}
    s = tables.summarize(state, orphans, problems)
    row = {
        "table": root, "format": s.format, "snapshot_id": s.snapshot_id, "data_files": s.data_files, "record_count": s.record_count,
        "deleted_rows": s.deleted_rows, "live_rows": s.live_rows, "deleted_share": s.deleted_share, "delete_files": s.delete_files,
        "orphan_files": s.orphan_files, "orphan_bytes": s.orphan_bytes, "missing_files": s.missing_files,
        "rules_broken": list(s.rules_broken),
    }  # fmt: skip
    dfd = []
    for f in state.data_files:
        applied = [d for d in f.deletes if d.kind != "equality-deletes"]
        if not applied:
            continue
        deleted = f.deleted_rows
        dfd.append({
            "table": root, "referenced_data_file": f.path, "data_file": local_path(f.path), "match": "table", "vectors": len(applied),
            "deleted_rows": deleted, "max_deleted_position": f.extra.get("max_deleted_position"), "row_count": f.record_count,
            "dv_files": sorted({d.path for d in applied}),
            "deleted_share": (deleted / f.record_count) if deleted is not None and f.record_count else None,
            "positions_past_end": f.positions_past_end > 0,
        })  # fmt: skip
    orph = [{"table": root, "file": o.path, "size": o.size, "kind": o.kind, "role": o.role, "rows": o.rows} for o in orphans]
    return {
        "tables": _table([row], TABLES_SCHEMA),
        "data_file_deletes": _table(dfd, DFD_SCHEMA),
        "orphan_files": _table(orph, ORPHANS_SCHEMA),
    }


#: a task: ("files", [(path, size), ...]) or ("table", (root, format))
Task = tuple[str, Any]


def run_task(task: Task, options: Mapping[str, str]) -> dict[str, pa.Table]:
    kind, arg = task
    if kind == "files":
        return file_task(arg, options)
    root, fmt = arg
    return table_task(root, fmt)


def to_ipc(tables: Mapping[str, pa.Table]) -> dict[str, bytes]:
    """Tables as Arrow IPC streams (what a Spark task returns to the driver)."""
    out = {}
    for name, t in tables.items():
        if t.num_rows == 0:
            continue
        sink = io.BytesIO()
        with pa.ipc.new_stream(sink, t.schema, options=pa.ipc.IpcWriteOptions(compression="zstd")) as w:
            w.write_table(t)
        out[name] = sink.getvalue()
    return out


def from_ipc(data: bytes) -> pa.Table:
    with pa.ipc.open_stream(pa.py_buffer(data)) as r:
        return r.read_all()


def run_task_ipc(task: Task, options: Mapping[str, str]) -> dict[str, bytes]:
    """:func:`run_task` with its tables as IPC bytes: the function Spark's tasks run."""
    return to_ipc(run_task(task, options))


def plan(inputs: Sequence[Input], roots: Mapping[str, str], *, parallelism: int, options: Mapping[str, str]) -> list[Task]:
    """The tasks of an inventory: the files packed by size (as the sources pack them), then one task per table."""
    from .listing import DEFAULT_MAX_PARTITION_BYTES, DEFAULT_OPEN_COST_BYTES, pack
    from .rowsource import option_int

    packs = pack(
        inputs,
        min_partitions=max(1, parallelism),
        max_partition_bytes=option_int(options, "max_partition_bytes", DEFAULT_MAX_PARTITION_BYTES) or DEFAULT_MAX_PARTITION_BYTES,
        open_cost=option_int(options, "open_cost_bytes", DEFAULT_OPEN_COST_BYTES) or 0,
    )
    tasks: list[Task] = [("files", p) for p in packs]
    tasks += [("table", (root, fmt)) for root, fmt in roots.items()]
    return tasks


__all__ += ["FILE_FIELD", "from_ipc", "plan", "run_task_ipc", "to_ipc"]
