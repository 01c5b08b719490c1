"""Iceberg: scan planning against pyiceberg 0.12, and the inventory of a table on Spark against its plain loop.

The table is written at bench time by lakestruct's ``TableWriter`` (format v3, partitioned by an identity ``day``):
200 appends of 50 data files each (10,000 data files in 200 data manifests; the data files are named, sized and
given column metrics in the metadata only: planning reads no data), then one DELETE writing a deletion vector for
2,000 of them into one Puffin file (the Puffin file is real: the DVs are read).

* Planning: the live data files with their deleted rows. lakestruct: ``iceberg.open_table(root).state()`` (every
  manifest read and checked, every DV read, its positions decoded and counted). pyiceberg 0.12:
  ``StaticTable.from_metadata(metadata).scan().plan_files()`` (every manifest read, the Puffin file attached to
  the data files of its partitions, no DV decoded: pyiceberg 0.12 reads no ``referenced_data_file``). Both on a fresh
  table object each run, alternating, best of 3; the live data files are compared once, each DV lakestruct applies must
  be among the delete files pyiceberg attaches, and the deleted rows must be the writer's. Goal: >= 3x.
* Inventory: ``lakestruct.spark.inventory.run([root], out, spark)`` on ``local[2]`` (the table's state, orphans and
  checks: one task) against ``run([root], out, None)`` in this process (best of 3 each); goal: Spark at most 1.5x the
  loop once the session has started (ratio 1.5 x loop / Spark >= 1). The session start and the first job, which
  starts the Python workers and imports lakestruct in them, are reported apart.

The table is written under /dev/shm when there is one (the writer fsyncs every file).
"""

from __future__ import annotations

import os
import struct
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from common import Result, best_of, spark_missing

from lakestruct import iceberg
from lakestruct.avro import plan as avroplan
from lakestruct.iceberg.model import DataFile, DataFileContent
from lakestruct.iceberg.write import TableWriter

REPO = Path(__file__).resolve().parent.parent
N_MANIFESTS = 200
PER_MANIFEST = 50
N_DVS = 2000
ROWS = 100_000


def build_table(root: str, *, manifests: int = N_MANIFESTS, per_manifest: int = PER_MANIFEST, dvs: int = N_DVS,
                rows: int = ROWS, seed: int = 7) -> TableWriter:
    """The bench's table at ``root``: ``manifests`` appends of ``per_manifest`` metadata-only data files, then one
    DELETE with a DV on ``dvs`` of them (random positions, 1 to 200 a file)."""
    fields = [{"id": 1, "name": "id", "type": "long", "required": True}, {"id": 2, "name": "day", "type": "int", "required": True},
              {"id": 3, "name": "name", "type": "string", "required": False},
              {"id": 4, "name": "amount", "type": "double", "required": False}]  # fmt: skip
    w = TableWriter(root, fields, [("day", "identity", "day")], format_version=3, seed=seed)
    rng = np.random.default_rng(seed)
    paths = []
    n = 0
    for m in range(manifests):
        files = []
        for _ in range(per_manifest):
            path = w.path_of(os.path.join(root, "data", f"day={m % 30}", f"{n:06d}-0-data.parquet"))
            lo, hi = n * rows, (n + 1) * rows - 1
            files.append(DataFile(
                content=DataFileContent.DATA, file_path=path, file_format="parquet", partition={"day": m % 30}, record_count=rows,
                file_size_in_bytes=4_000_000 + n, column_sizes={1: 800_000, 2: 1_000, 3: 2_000_000, 4: 800_000},
                value_counts={1: rows, 2: rows, 3: rows, 4: rows}, null_value_counts={1: 0, 2: 0, 3: 17, 4: 5},
                nan_value_counts={4: 0}, lower_bounds={1: struct.pack("<q", lo), 2: struct.pack("<i", m % 30), 3: b"aaron",
                                                        4: struct.pack("<d", 0.5)},
                upper_bounds={1: struct.pack("<q", hi), 2: struct.pack("<i", m % 30), 3: b"zoe", 4: struct.pack("<d", 999.5)},
                split_offsets=(4,), sort_order_id=0))  # fmt: skip
            paths.append(path)
            n += 1
        w.append(files)
    chosen = rng.choice(len(paths), size=min(dvs, len(paths)), replace=False)
    todo = {}
    for i in sorted(chosen.tolist()):
        k = int(rng.integers(1, 201))
        todo[paths[i]] = np.sort(rng.choice(rows, size=k, replace=False)).astype(np.int64)
    if todo:
        w.delete_positions(todo)
    return w


def _ours(root: str) -> Any:
    return iceberg.open_table(root).state()


def _pyiceberg(metadata: str) -> list[Any]:
    from pyiceberg.table import StaticTable

    return list(StaticTable.from_metadata(metadata).scan().plan_files())


def _planning(results: list[Result], root: str, w: TableWriter) -> None:
    try:
        import pyiceberg  # noqa: F401
    except ImportError:
        print("bench_iceberg: pyiceberg is not installed (pip install -e '.[dev]')", file=sys.stderr)
        return
    metadata = w.metadata_path
    st = _ours(root)
    tasks = _pyiceberg(metadata)
    ours_live = {f.path: f for f in st.data_files}
    peer_live = {t.file.file_path: {d.file_path for d in t.delete_files} for t in tasks}
    assert set(ours_live) == set(peer_live) and len(ours_live) == N_MANIFESTS * PER_MANIFEST, (len(ours_live), len(peer_live))
    # pyiceberg 0.12 reads no referenced_data_file: it attaches the Puffin file to every data file of its partitions;
    # each DV lakestruct applies must be among the delete files pyiceberg attaches
    assert all({d.path for d in f.deletes} <= peer_live[p] for p, f in ours_live.items()), "a DV pyiceberg does not attach"
    assert all(f.deleted_rows == w.deleted_positions(p).size for p, f in ours_live.items()), "deleted rows differ from the writer's"
    assert sum(1 for f in ours_live.values() if f.deleted_rows) == N_DVS
    ours_t, peer_t = [], []
    for _ in range(3):  # alternate, best of each
        ours_t.append(best_of(lambda: _ours(root), repeat=1))
        peer_t.append(best_of(lambda: _pyiceberg(metadata), repeat=1))
    o, p = min(ours_t), min(peer_t)
    decoder = "compiled manifest decoder" if avroplan.COMPILED else "fastavro, no compiled twin"
    results.append(Result(f"iceberg planning, {len(ours_live):,} files in {N_MANIFESTS} manifests, {N_DVS:,} DVs",
                          "pyiceberg 0.12 plan_files", p / o, 3.0,
                          f"{o * 1e3:.0f} ms vs {p * 1e3:.0f} ms (ours: state(), every DV decoded; {decoder})"))


def _inventory(results: list[Result], root: str, tmp: str) -> None:
    if spark_missing("bench_iceberg"):
        return
    from lakestruct.spark import inventory
    from lakestruct.spark.env import session

    def loop() -> None:
        inventory.run([root], os.path.join(tmp, "inv-local"), None, progress=False)

    loop()
    local_s = min(best_of(loop, repeat=1) for _ in range(3))
    t0 = time.perf_counter()
    spark = session("local[2]", app_name="lakestruct-bench-iceberg")
    start_s = time.perf_counter() - t0
    try:
        def job() -> None:
            inventory.run([root], os.path.join(tmp, "inv-spark"), spark, progress=False)

        first_s = best_of(job, repeat=1)  # what a user's one run pays after the session start (workers cold)
        warm_s = min(best_of(job, repeat=1) for _ in range(2))
    finally:
        spark.stop()
    results.append(Result("iceberg inventory of that table, local[2]", "1.5x the loop run(..., None)", 1.5 * local_s / warm_s, 1.0,
                          f"Spark {warm_s:.2f} s vs loop {local_s:.2f} s: {warm_s / local_s:.2f}x (after a {start_s:.1f} s session start "
                          f"and a first job of {first_s:.2f} s that starts the Python workers; one table is one task)"))


def run() -> list[Result]:
    results: list[Result] = []
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None  # (the writer fsyncs every file)
    with tempfile.TemporaryDirectory(prefix="lakestruct-bench-iceberg-", dir=shm) as tmp:
        root = os.path.join(tmp, "wh", "db", "t")
        t0 = time.perf_counter()
        w = build_table(root)
        print(f"bench_iceberg: table written in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        _planning(results, root, w)
        _inventory(results, root, tmp)
    return results


if __name__ == "__main__":
    for r in run():
        print(r)
