"""The Spark pipeline: scaling with cores, per-file overhead against the plain loop, page-header throughput.

- scaling: the ``puffin`` source over 10,000 small Puffin files (written by lakestruct's writer), ``local[2]``
  against ``local[1]`` (goal >= 1.8x; the machine has 2 cores);
- overhead: per-file cost of the ``puffin`` source on ``local[1]`` against the plain Python loop over the same
  files (``lakestruct.spark.batches``, one process; goal: within 2x, i.e. ratio loop/Spark >= 1/2);
- the inventory's path (information): the same files through ``rdd.map`` over the packed tasks, each task returning
  its rows as Arrow IPC bytes (what ``lakestruct inventory`` runs), beside the data source; and the fixed cost of one
  job of each kind (one file);
- throughput: ``parquet_pages`` over the Parquet files of the shared corpus, page headers per second on
  ``local[2]``, beside the single-process loop (information).

Each Spark figure is the best of 5 runs of the job on a warm session, after 3 warm-up runs: the Python workers are
reused and the JVM's JIT has compiled the row conversion (on the first runs the JVM spends as much CPU as the
Python workers, on two cores that halves the scaling). Session start-up (~10 s, once per application) is excluded.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

from common import Result, spark_missing

N_FILES = 10_000


def _write_puffins(root: Path, n: int) -> list[str]:
    import numpy as np

    from lakestruct import puffin

    rng = np.random.default_rng(5)
    paths = []
    for i in range(n):
        p = root / f"d{i // 1000:02d}" / f"{i:05d}-deletes.puffin"
        p.parent.mkdir(parents=True, exist_ok=True)
        with puffin.PuffinWriter(str(p), created_by="bench") as w:
            w.add_deletion_vector(rng.choice(10_000, 20, replace=False), f"s3://b/t/data/{i:05d}.parquet")
        paths.append(str(p))
    return paths


def _time_job(spark: Any, fmt: str, paths: list[str], repeat: int = 3, **options: str) -> tuple[float, int]:
    best, rows = float("inf"), 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        rows = spark.read.format(fmt).options(**options).load(paths).count()
        best = min(best, time.perf_counter() - t0)
    return best, rows


def _rdd_job(spark: Any, paths: list[str], parallelism: int) -> tuple[float, int]:
    """The puffin rows of ``paths`` the way the inventory computes them: the files packed into tasks, ``rdd.map`` over
    the tasks, each returning its rows as Arrow IPC bytes, the driver reading them back."""
    import pyarrow as pa

    from lakestruct.source import list_files
    from lakestruct.spark.listing import pack
    from lakestruct.spark.onepass import from_ipc, to_ipc
    from lakestruct.spark.rowsource import batches
    from lakestruct.spark.sources import PUFFIN

    tasks = pack(list_files(paths), min_partitions=parallelism)

    def task(inputs: list[Any]) -> dict[str, bytes]:
        return to_ipc({"puffin": pa.Table.from_batches(list(batches(PUFFIN, inputs, {})))})

    t0 = time.perf_counter()
    res = spark.sparkContext.parallelize(tasks, len(tasks)).map(task).collect()
    took = time.perf_counter() - t0
    return took, sum(from_ipc(r["puffin"]).num_rows for r in res if "puffin" in r)


def _plain(fmt: str, paths: list[str]) -> tuple[float, int]:
    from lakestruct.spark import source
    from lakestruct.spark.rowsource import plain_loop

    t0 = time.perf_counter()
    rows = sum(b.num_rows for b in plain_loop(source(fmt), paths))
    return time.perf_counter() - t0, rows


def run() -> list[Result]:
    if spark_missing("bench_spark"):
        return []
    from lakestruct.spark.env import session

    out: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="lakestruct-bench-spark-") as tmp:
        root = Path(tmp) / "puffins"
        _write_puffins(root, N_FILES)
        folder = [str(root)]
        loop_s, loop_rows = _plain("puffin", folder)
        times: dict[str, float] = {}
        for master in ("local[1]", "local[2]"):
            spark = session(master, app_name=f"lakestruct-bench-{master}")
            parallelism = str(spark.sparkContext.defaultParallelism)
            _time_job(spark, "puffin", folder, repeat=3, min_partitions=parallelism)  # warm the Python workers and the JIT
            times[master], rows = _time_job(spark, "puffin", folder, repeat=5, min_partitions=parallelism)
            assert rows == loop_rows == N_FILES, (rows, loop_rows)
            par = spark.sparkContext.defaultParallelism
            _rdd_job(spark, folder, par)  # warm
            rdd_s, rdd_rows = min(_rdd_job(spark, folder, par) for _ in range(3))
            assert rdd_rows == N_FILES
            one = [str(root / "d00" / "00000-deletes.puffin")]
            floor_ds, _ = _time_job(spark, "puffin", one, repeat=3)
            floor_rdd = min(_rdd_job(spark, one, 1)[0] for _ in range(3))
            out.append(
                Result(
                    f"puffin rows of {N_FILES:,} files on {master}: inventory's rdd.map path (ratio = data source / rdd)",
                    "the puffin data source, same master",
                    times[master] / rdd_s,
                    0,
                    f"rdd.map {rdd_s:.2f} s, data source {times[master]:.2f} s; one file: rdd.map {floor_rdd:.2f} s, "
                    f"data source {floor_ds:.2f} s (the fixed cost of a job)",
                )
            )
            if master == "local[2]":
                shared = os.environ.get("LAKESTRUCT_SHARED", str(Path(__file__).resolve().parents[2] / "shared"))
                corpus = Path(shared) / "corpus"
                if corpus.is_dir():
                    pq_paths = [str(corpus / "parquet-testing" / "data"), str(corpus / "generated-seed1" / "parquet")]
                    spark_s, pages = _time_job(spark, "parquet_pages", pq_paths, min_partitions=parallelism)
                    single_s, pages_loop = _plain("parquet_pages", pq_paths)
                    assert pages == pages_loop
                    out.append(
                        Result(
                            "parquet_pages over the corpus, page headers/s",
                            "single-process loop",
                            single_s / spark_s,
                            0,
                            f"{pages:,} pages: local[2] {pages / spark_s:,.0f}/s ({spark_s:.2f} s), "
                            f"loop {pages / single_s:,.0f}/s ({single_s:.2f} s)",
                        )
                    )
            spark.stop()
        scale = times["local[1]"] / times["local[2]"]
        out.insert(
            0,
            Result(
                f"puffin source, {N_FILES:,} small Puffin files: local[2] vs local[1]",
                "the same job on local[1]",
                scale,
                1.8,
                f"local[1] {times['local[1]']:.2f} s, local[2] {times['local[2]']:.2f} s",
            ),
        )
        per_file_spark = times["local[1]"] / N_FILES
        per_file_loop = loop_s / N_FILES
        out.insert(
            1,
            Result(
                "puffin source per-file cost on local[1] (ratio = loop / Spark)",
                "plain Python loop, one process",
                per_file_loop / per_file_spark,
                1 / 2,
                f"Spark {per_file_spark * 1e3:.3f} ms/file, loop {per_file_loop * 1e3:.3f} ms/file "
                f"({per_file_spark / per_file_loop:.2f}x the loop)",
            ),
        )
    return out
