"""Runs inside the pypaimon 2.1 environment (tests/paimon/pypaimon_env.py), never in lakestruct's: pypaimon as the
independent reader of Paimon tables, and the writer of the bench's table. Imports pypaimon and pyarrow only.

    python pypaimon_probe.py scan TABLE_DIR [REPEAT]   # JSON: live files and deletion vectors; best scan-planning times
    python pypaimon_probe.py make WAREHOUSE COMMITS    # writes WAREHOUSE/bench.db/t: COMMITS appends into 8 partitions
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


if __name__ == "__main__":
    if sys.argv[1] == "scan":
        print(json.dumps(scan(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1)))
    elif sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(f"unknown mode {sys.argv[1]}")
