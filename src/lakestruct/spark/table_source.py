"""Sources with one row per live data file of a table: ``iceberg_files``, ``delta_files`` and ``table_files`` (any
of Iceberg, Paimon and Delta).

Input units are table roots, found on the driver among the files under the paths (:func:`lakestruct.tables.find_roots`:
Iceberg ``metadata/*.metadata.json``, Delta ``_delta_log/``, Paimon ``snapshot/`` + ``schema/``), each sized by its
metadata files for packing. A task opens its table by the format's room and computes the live state of the snapshot
asked for (default: the current one): the live data files, the deletes that apply to each and the exact deleted rows
(the union of the positions that apply). A table that breaks a rule gives one error row.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pyarrow as pa

import lakestruct as _ls  # the table rooms load on first use

from ..source import Input, list_files
from .rowsource import Chunk, Options, RowSource, col, option_int

__all__ = ["DELTA_FILES", "ICEBERG_FILES", "TABLE_FILES", "list_table_roots"]

TABLE_FILES_SCHEMA = pa.schema(
    [
        col("table_format", pa.string(), "iceberg, paimon or delta"),
        col("snapshot_id", pa.int64(), "the snapshot read (Delta: the version); option `snapshot_id`, default the current one"),
        col("file_path", pa.string(), "the data file as the metadata names it"),
        col("file_format", pa.string(), "parquet, orc, avro"),
        col("partition", pa.string(), "partition values as JSON (an empty object when unpartitioned)"),
        col("record_count", pa.int64(), "rows in the data file, as its metadata records"),
        col("file_size_in_bytes", pa.int64(), "bytes of the data file, as recorded"),
        col("deleted_rows", pa.int64(), "distinct positions deleted by the deletes that apply (equality deletes not applied)"),
        col("live_rows", pa.int64(), "record_count - deleted_rows"),
        col("positions_past_end", pa.int64(), "applied positions at or past record_count (not counted as deleted)"),
        col("delete_files", pa.list_(pa.string()), "the delete files (deletion vectors, position and equality delete files) that apply"),
        col("delete_kinds", pa.list_(pa.string()), "their kinds: deletion-vector, position-deletes, equality-deletes"),
    ]
)


def list_table_roots(formats: frozenset[str] | None) -> Callable[[list[str], Options], list[Input]]:
    def inputs(paths: list[str], options: Options) -> list[Input]:
        files = list_files(paths)
        roots = _ls.tables.find_roots(p for p, _ in files)
        chosen = {r for r, fmt in roots.items() if formats is None or fmt in formats}
        sizes = dict.fromkeys(chosen, 0)
        for p, size in files:
            hit = _ls.tables.root_of(p)
            if hit is not None and hit[0] in sizes:
                sizes[hit[0]] += size
        return sorted(sizes.items())

    return inputs


def _rows(root: str, options: Options) -> Iterator[Chunk]:
    t = _ls.tables.open(root)
    state = t.state(option_int(options, "snapshot_id", None))
    for f in state.data_files:
        yield {
            "table_format": state.format, "snapshot_id": state.snapshot_id, "file_path": f.path, "file_format": f.file_format,
            "partition": json.dumps(_ls.paimon.jsonable(dict(f.partition)), sort_keys=True),
            "record_count": f.record_count, "file_size_in_bytes": f.size, "deleted_rows": f.deleted_rows, "live_rows": f.live_rows,
            "positions_past_end": f.positions_past_end, "delete_files": [d.path for d in f.deletes],
            "delete_kinds": [d.kind for d in f.deletes],
        }  # fmt: skip


def _source(name: str, formats: frozenset[str] | None, what: str) -> RowSource:
    return RowSource(
        name=name,
        schema=lambda options: TABLE_FILES_SCHEMA,
        rows=_rows,
        list_inputs=list_table_roots(formats),
        options={"snapshot_id": "snapshot id (Delta: version) to read in every table (default: each table's current one)"},
        doc=f"One row per live data file of every {what} under the paths, from the table's metadata: its row count, the "
        "deletes that apply to it now and the exact rows they delete (a superseded deletion vector is not live). The "
        "file column is the table's root; a table that breaks a rule gives one error row.",
    )


ICEBERG_FILES = _source("iceberg_files", frozenset({"iceberg"}), "Iceberg table")
DELTA_FILES = _source("delta_files", frozenset({"delta"}), "Delta table")
TABLE_FILES = _source("table_files", None, "Iceberg, Paimon or Delta table")
