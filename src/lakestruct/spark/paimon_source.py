"""The ``paimon_files`` source: one row per live data file of a Paimon table's snapshot.

Input units are table directories: :func:`list_table_dirs` turns the user's paths (a table, a database folder, a
whole warehouse; local or any fsspec URL) into the directories that hold a ``schema/`` folder, each sized by its
metadata files for packing. ``rows`` opens the table with :func:`lakestruct.paimon.open_table`, merges the
snapshot's manifests and reads every deletion-vector index file once (CRC, DeletionVectorMeta range and cardinality
checked), so ``deleted_rows`` is what the vectors hold. A table that breaks a rule gives one error row.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pyarrow as pa

import lakestruct as _ls  # lakestruct.paimon loads on first use: a worker that only plans a read does not import it

from ..source import Input, list_files
from .rowsource import Chunk, Options, RowSource, col, option_int

__all__ = ["PAIMON_FILES", "list_table_dirs"]

_META = re.compile(r"^(?P<table>.*)/(?P<kind>schema|snapshot|manifest)/[^/]+$")

PAIMON_FILES_SCHEMA = pa.schema(
    [
        col("snapshot_id", pa.int64(), "the snapshot read (option `snapshot`; default the latest)"),
        col("path", pa.string(), "path or URL of the data file"),
        col("file_name", pa.string(), "data file name as the manifest records it"),
        col("partition", pa.string(), "partition as a directory name (k1=v1/k2=v2; empty when unpartitioned)"),
        col("bucket", pa.int32(), "bucket of the file"),
        col("level", pa.int32(), "LSM level (0 for new files; append tables keep 0)"),
        col("row_count", pa.int64(), "rows in the file (adds and deletes of a primary-key table)"),
        col("deleted_rows", pa.int64(), "rows its deletion vector deletes (0 without one), decoded and checked"),
        col("live_rows", pa.int64(), "row_count minus deleted_rows"),
        col("file_size", pa.int64(), "bytes of the data file, as the manifest records it"),
        col("schema_id", pa.int64(), "schema the file was written with"),
        col("min_sequence_number", pa.int64(), "smallest sequence number in the file"),
        col("max_sequence_number", pa.int64(), "largest sequence number in the file"),
        col("first_row_id", pa.int64(), "row id of the first row (row-tracking tables; null otherwise)"),
        col("index_kinds", pa.list_(pa.string()),
            "indexes of the file: deletion-vector, then its file index types (bloom-filter, bitmap, ...)"),
        col("dv_index_file", pa.string(), "name of the deletion-vector index file holding its vector (null: none)"),
        col("dv_offset", pa.int64(), "DeletionVectorMeta offset of the vector in that file"),
        col("dv_length", pa.int64(), "DeletionVectorMeta length (the entry's size for 32-bit vectors, size + 8 for 64-bit)"),
        col("min_key", pa.string(), "smallest primary key (without partition keys) as JSON; null for append tables"),
        col("max_key", pa.string(), "largest primary key as JSON"),
    ]
)


def list_table_dirs(paths: list[str], options: Options) -> list[Input]:
    """The Paimon table directories under ``paths`` (those holding ``schema/`` files), each with the bytes of its
    schema, snapshot and manifest files as its size."""
    sizes: dict[str, int] = {}
    for p, size in list_files(paths):
        m = _META.match(p.replace("\\", "/"))
        if m:
            sizes[m.group("table")] = sizes.get(m.group("table"), 0) + size
            if m.group("kind") == "schema":
                sizes.setdefault(m.group("table") + "\0schema", 0)
    return sorted((t, n) for t, n in sizes.items() if "\0" not in t and f"{t}\0schema" in sizes)


def _rows(table_dir: str, options: Options) -> Iterator[Chunk]:
    import json

    paimon = _ls.paimon
    t = paimon.open_table(table_dir)
    snap = t.snapshot(option_int(options, "snapshot", None))
    schema = t.schema(snap.schema_id)
    default_name = schema.options.get("partition.default-name", paimon.read.DEFAULT_PARTITION_NAME)
    live = t.live_files(snap)
    dvs = t.deletion_vectors(snap, files=live)
    for f in live:
        d = f.deletion_file
        deleted = int(dvs[f.path].size) if f.path in dvs else 0
        row = {
            "snapshot_id": snap.id, "path": f.path, "file_name": f.file.file_name,
            "partition": paimon.partition_path(f.partition, default_name), "bucket": f.bucket, "level": f.level,
            "row_count": f.row_count, "deleted_rows": deleted, "live_rows": f.row_count - deleted, "file_size": f.file.file_size,
            "schema_id": f.file.schema_id, "min_sequence_number": f.file.min_sequence_number,
            "max_sequence_number": f.file.max_sequence_number, "first_row_id": f.file.first_row_id,
            "index_kinds": t.index_kinds(f), "dv_index_file": d.index_file_name if d else None,
            "dv_offset": d.offset if d else None, "dv_length": d.length if d else None,
        }  # fmt: skip
        if schema.trimmed_primary_keys:
            lo, hi = t.key_range(f)
            row["min_key"] = json.dumps(paimon.jsonable(lo), sort_keys=True)
            row["max_key"] = json.dumps(paimon.jsonable(hi), sort_keys=True)
        yield row


PAIMON_FILES = RowSource(
    name="paimon_files",
    schema=lambda options: PAIMON_FILES_SCHEMA,
    rows=_rows,
    list_inputs=list_table_dirs,
    options={"snapshot": "snapshot id to read in every table (default: each table's latest)"},
    doc="One row per live data file of a Paimon table's snapshot (every table under the paths: directories holding "
    "`schema/`): partition, bucket, level, row count, the rows its deletion vector deletes, and its index kinds. The "
    "snapshot's manifests are merged in order and every deletion-vector index file is read once and checked (CRC, "
    "DeletionVectorMeta range and cardinality); a table that breaks a rule gives one error row.",
)
