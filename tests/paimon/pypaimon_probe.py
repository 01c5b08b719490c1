"""Runs inside the pypaimon 2.1 environment (tests/paimon/pypaimon_env.py), never in lakestruct's: pypaimon as the
independent reader of Paimon tables, and the writer of the bench's table. Imports pypaimon and pyarrow only.

    python pypaimon_probe.py scan TABLE_DIR [REPEAT]   # JSON: live files and deletion vectors; best scan-planning times
    python pypaimon_probe.py make WAREHOUSE COMMITS    # writes WAREHOUSE/bench.db/t: COMMITS appends into 8 partitions
    python pypaimon_probe.py evolve WAREHOUSE          # writes WAREHOUSE/evo.db/t: one commit under each of 3 schemas
    python pypaimon_probe.py external ROOT             # writes ROOT/wh/x.db/t with data files under ROOT/ext1, ROOT/ext2
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time


def _table(table_dir: str):  # type: ignore[no-untyped-def]
    from pypaimon import CatalogFactory

    wh = tempfile.mkdtemp(prefix="lakestruct-pypaimon-")
    os.makedirs(os.path.join(wh, "probe.db"))
    os.symlink(os.path.abspath(table_dir), os.path.join(wh, "probe.db", "t"))
    return CatalogFactory.create({"warehouse": wh}).get_table("probe.t")


def scan(table_dir: str, repeat: int) -> dict:
    from pypaimon.deletionvectors.deletion_vector import DeletionVector

    plan_best = both_best = float("inf")
    files: list = []
    for _ in range(repeat):
        t = _table(table_dir)  # a fresh table object: no cached snapshot or manifests
        t0 = time.perf_counter()
        splits = t.new_read_builder().new_scan().plan().splits()
        t1 = time.perf_counter()
        files = []
        for s in splits:
            dfs = s.data_deletion_files or [None] * len(s.files)
            for f, df in zip(s.files, dfs, strict=True):
                positions = None
                if df is not None:
                    dv = DeletionVector.read(t.file_io, df)
                    positions = [int(p) for p in dv.bit_map()]
                files.append({"file_name": f.file_name, "bucket": s.bucket, "row_count": f.row_count, "level": f.level,
                              "positions": positions})
        t2 = time.perf_counter()
        plan_best, both_best = min(plan_best, t1 - t0), min(both_best, t2 - t0)
    return {"files": files, "plan_s": plan_best, "plan_and_dv_s": both_best}


def make(warehouse: str, commits: int) -> None:
    import pyarrow as pa
    from pypaimon import CatalogFactory, Schema

    cat = CatalogFactory.create({"warehouse": warehouse})
    cat.create_database("bench", True)
    schema = pa.schema([("id", pa.int64()), ("v", pa.string()), ("p", pa.string())])
    cat.create_table("bench.t", Schema.from_pyarrow_schema(schema, partition_keys=["p"]), True)
    t = cat.get_table("bench.t")
    for c in range(commits):
        ids = list(range(c * 800, (c + 1) * 800))
        data = pa.table({"id": ids, "v": [f"v{i}" for i in ids], "p": [f"p{i % 8}" for i in ids]}, schema=schema)
        wb = t.new_batch_write_builder()
        w, cm = wb.new_write(), wb.new_commit()
        w.write_arrow(data)
        cm.commit(w.prepare_commit())
        w.close()
        cm.close()


def evolve(warehouse: str) -> None:
    """A primary-key table with full value statistics, one commit under each of three schemas: schema 1 adds a
    DOUBLE, renames a column and widens INT to BIGINT; schema 2 drops the renamed column and adds a DECIMAL. A reader
    that decodes an old file's statistics with the latest schema gets wrong values (an INT's slot read as BIGINT) or
    a wrong arity."""
    from decimal import Decimal

    import pyarrow as pa
    from pypaimon import CatalogFactory, Schema
    from pypaimon.schema.data_types import AtomicType
    from pypaimon.schema.schema_change import SchemaChange

    cat = CatalogFactory.create({"warehouse": warehouse})
    cat.create_database("evo", True)
    key = pa.field("id", pa.int64(), nullable=False)

    def write(data: pa.Table) -> None:
        wb = cat.get_table("evo.t").new_batch_write_builder()
        w, cm = wb.new_write(), wb.new_commit()
        w.write_arrow(data)
        cm.commit(w.prepare_commit())
        w.close()
        cm.close()

    s0 = pa.schema([key, ("a", pa.int32()), ("name", pa.string()), ("p", pa.string())])
    cat.create_table("evo.t", Schema.from_pyarrow_schema(s0, partition_keys=["p"], primary_keys=["id", "p"],
                                                         options={"bucket": "1", "metadata.stats-mode": "full"}), True)
    write(pa.table({"id": [1, 2, 3], "a": [10, -5, None], "name": ["x", "y", "z"], "p": ["p0", "p0", "p1"]}, schema=s0))
    cat.alter_table("evo.t", [SchemaChange.add_column("w", AtomicType("DOUBLE")), SchemaChange.rename_column("name", "label"),
                              SchemaChange.update_column_type("a", AtomicType("BIGINT"))])
    s1 = pa.schema([key, ("a", pa.int64()), ("label", pa.string()), ("p", pa.string()), ("w", pa.float64())])
    write(pa.table({"id": [4, 5], "a": [2**40, -2**35], "label": ["a label longer than seven", None], "p": ["p0", "p0"],
                    "w": [1.5, -2.25]}, schema=s1))
    cat.alter_table("evo.t", [SchemaChange.drop_column("label"), SchemaChange.add_column("d", AtomicType("DECIMAL(10, 2)"))])
    s2 = pa.schema([key, ("a", pa.int64()), ("p", pa.string()), ("w", pa.float64()), ("d", pa.decimal128(10, 2))])
    write(pa.table({"id": [6, 7, 8], "a": [0, 1, 2], "p": ["p1", "p1", "p1"], "w": [None, 0.5, 3.0],
                    "d": [Decimal("12.34"), Decimal("-0.01"), None]}, schema=s2))
    from pypaimon.schema.schema_manager import SchemaManager

    t = cat.get_table("evo.t")
    schemas = SchemaManager(t.file_io, t.table_path).list_all()
    print(json.dumps({"table": t.table_path, "schemas": [
        {"id": s.id, "fields": [[f.id, f.name, str(f.type)] for f in s.fields], "partition_keys": list(s.partition_keys),
         "primary_keys": list(s.primary_keys)} for s in schemas]}))


def external(root: str) -> None:
    """An append table with row tracking and deletion vectors whose data files go to two external directories
    (``data-file.external-paths``, round-robin) and whose DV index files go beside them
    (``index-file-in-data-file-dir``): Paimon records both locations as Hadoop paths (``file:/...``)."""
    import pyarrow as pa
    from pypaimon import CatalogFactory, Schema
    from pypaimon.write.table_delete import TableDeleteByRowId

    cat = CatalogFactory.create({"warehouse": os.path.join(root, "wh")})
    cat.create_database("x", True)
    schema = pa.schema([("id", pa.int64()), ("v", pa.string()), ("p", pa.string())])
    opts = {"row-tracking.enabled": "true", "data-evolution.enabled": "true", "deletion-vectors.enabled": "true",
            "data-file.external-paths": f"file://{root}/ext1,file://{root}/ext2",
            "data-file.external-paths.strategy": "round-robin", "index-file-in-data-file-dir": "true"}
    cat.create_table("x.t", Schema.from_pyarrow_schema(schema, partition_keys=["p"], options=opts), True)

    def commit(messages: list) -> None:
        cm = cat.get_table("x.t").new_batch_write_builder().new_commit()
        cm.commit(messages)
        cm.close()

    for c in range(2):
        w = cat.get_table("x.t").new_batch_write_builder().new_write()
        ids = list(range(c * 1000, c * 1000 + 1000))
        w.write_arrow(pa.table({"id": ids, "v": [f"v{i}" for i in ids], "p": [f"p{i % 2}" for i in ids]}, schema=schema))
        commit(w.prepare_commit())
        w.close()
    commit(TableDeleteByRowId(cat.get_table("x.t")).delete([*range(10, 400, 7), 1500, 1999]))
    print(json.dumps({"table": os.path.join(root, "wh", "x.db", "t")}))


if __name__ == "__main__":
    if sys.argv[1] == "scan":
        print(json.dumps(scan(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1)))
    elif sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "evolve":
        evolve(sys.argv[2])
    elif sys.argv[1] == "external":
        external(sys.argv[2])
    else:
        sys.exit(f"unknown mode {sys.argv[1]}")
