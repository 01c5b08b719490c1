"""The inventory's speed: the ``parquet_chunks`` source against DuckDB, the inventory against ``lakestruct scan``, and
from what size Spark beats the plain loop.

1. ``parquet_chunks`` over 1,000 Parquet files written here by pyarrow (2 row groups x 20 columns: 40,000 column
   chunks), one row per chunk, against DuckDB's ``parquet_metadata('dir/*.parquet')`` (2 threads, the same rows: one
   per column chunk with statistics, encodings, sizes and offsets, fetched as an Arrow table). The plain loop (one
   process, warm) goal >= 1.5x DuckDB; Spark ``local[2]`` (warm session, ``count()`` of the source) goal >= 2x.
   DuckDB is skipped, with the reason printed, when it is not installed (``pip install duckdb``: the dev extra).
2. ``lakestruct inventory`` of the shared corpus (``$LAKESTRUCT_SHARED/corpus``) in a cold process against
   ``lakestruct scan`` of the same corpus in a cold process: on Spark ``local[2]`` (``--engine spark``, session start
   included) and with ``--engine auto`` (in this process for a lake this small); goal <= 1.5x scan's wall time each.
   A one-file inventory (``--engine auto``): goal <= 15 s.
3. When Spark pays (information): the inventory's file task over 100 to 1,000 of those files, plain loop against the same
   tasks on a warm ``local[2]`` session (``rdd.map``, as the inventory runs them); per-file costs and the fixed cost of
   a job by least squares, and with the session start the number of files from which Spark is faster (docs/spark.md).

Timings are wall times (best of a few runs where the job is repeated); the machine is shared, so runs vary.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import Result, best_of, spark_missing

N_FILES = 1_000
LAKESTRUCT = str(Path(sys.executable).with_name("lakestruct"))


def _write_parquets(root: Path, n: int) -> list[str]:
    """``n`` pyarrow-written files of 2 row groups x 20 columns (ints, doubles, strings, timestamps, booleans)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as papq

    root.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(1)
    rows = 200
    paths = []
    for i in range(n):
        cols: dict[str, Any] = {}
        for c in range(20):
            k = c % 5
            if k == 0:
                cols[f"i{c}"] = pa.array(rng.integers(0, 1000, rows))
            elif k == 1:
                cols[f"d{c}"] = pa.array(rng.random(rows))
            elif k == 2:
                cols[f"s{c}"] = pa.array([f"v{x}" for x in rng.integers(0, 50, rows)])
            elif k == 3:
                cols[f"t{c}"] = pa.array(rng.integers(0, 10**12, rows).astype("datetime64[ms]"))
            else:
                cols[f"b{c}"] = pa.array(rng.random(rows) > 0.5)
        p = root / f"f{i:04d}.parquet"
        papq.write_table(pa.table(cols), p, row_group_size=rows // 2)
        paths.append(str(p))
    return paths


def _loop_rows(folder: str) -> int:
    from lakestruct.spark.rowsource import plain_loop

    return sum(b.num_rows for b in plain_loop("parquet_chunks", [folder]))


def _duckdb_seconds(folder: str) -> tuple[float, int] | None:
    try:
        import duckdb
    except ImportError:
        print("bench_inventory: DuckDB peer skipped: duckdb is not installed (pip install duckdb, in the dev extra)", file=sys.stderr)
        return None
    con = duckdb.connect(config={"threads": 2})
    query = f"SELECT * FROM parquet_metadata('{folder}/*.parquet')"
    rows = 0

    def fetch() -> None:
        nonlocal rows
        rel = con.sql(query)
        t = rel.to_arrow_table() if hasattr(rel, "to_arrow_table") else rel.arrow()  # DuckDB 2 / 1.x
        rows = t.num_rows

    fetch()  # warm: the extension and the file system cache
    return best_of(fetch, repeat=5), rows


def _chunks_vs_duckdb(folder: str, out: list[Result]) -> None:
    rows = _loop_rows(folder)  # warm
    loop_s = best_of(lambda: _loop_rows(folder), repeat=5)
    assert rows == N_FILES * 40, rows
    cold_t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", f"from lakestruct.spark.rowsource import plain_loop\n"
                    f"print(sum(b.num_rows for b in plain_loop('parquet_chunks', [{folder!r}])))"], check=True, capture_output=True)
    cold_s = time.perf_counter() - cold_t0
    duck = _duckdb_seconds(folder)
    spark_s = None
    if not spark_missing("bench_inventory"):
        from lakestruct.spark.env import session

        spark = session("local[2]", app_name="lakestruct-bench-chunks")
        try:
            count = lambda: spark.read.format("parquet_chunks").option("min_partitions", "2").load(folder).count()  # noqa: E731
            for _ in range(3):  # Python workers and the JVM's JIT warm
                n = count()
            assert n == rows, (n, rows)
            spark_s = best_of(count, repeat=5)
        finally:
            spark.stop()
    detail = f"{rows:,} chunks: loop {loop_s * 1e3:.0f} ms (cold process {cold_s:.2f} s)"
    if duck is None:
        out.append(Result(f"parquet_chunks, {N_FILES:,} files, plain loop", "DuckDB (not installed)", 0, 0, detail))
        return
    duck_s, duck_rows = duck
    assert duck_rows == rows, (duck_rows, rows)
    out.append(Result(f"parquet_chunks, {N_FILES:,} pyarrow files ({rows:,} chunks), plain loop", "DuckDB parquet_metadata, 2 threads",
                      duck_s / loop_s, 1.5, f"{detail}, DuckDB {duck_s * 1e3:.0f} ms"))
    if spark_s is not None:
        out.append(Result(f"parquet_chunks, {N_FILES:,} pyarrow files, Spark local[2]", "DuckDB parquet_metadata, 2 threads",
                          duck_s / spark_s, 2.0, f"Spark {spark_s * 1e3:.0f} ms (warm session), DuckDB {duck_s * 1e3:.0f} ms"))


def _cold(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    took = time.perf_counter() - t0
    if proc.returncode not in (0, 1):  # 1: some files break a rule (the corpus holds broken files on purpose)
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr[-2000:]}")
    return took


def _inventory_vs_scan(tmp: Path, one_file: str, out: list[Result]) -> None:
    shared = os.environ.get("LAKESTRUCT_SHARED", str(Path(__file__).resolve().parents[2] / "shared"))
    corpus = Path(shared) / "corpus"
    if not corpus.is_dir():
        print(f"bench_inventory: inventory vs scan skipped: no corpus at {corpus} (set LAKESTRUCT_SHARED)", file=sys.stderr)
    else:
        scan_s = _cold([LAKESTRUCT, "scan", str(corpus)])
        runs = [("--engine auto", ["--engine", "auto"])]
        if not spark_missing("bench_inventory"):
            runs.insert(0, ("Spark local[2]", ["--engine", "spark", "--master", "local[2]"]))
        for label, args in runs:
            o = tmp / f"inv-{args[1]}"
            inv_s = _cold([LAKESTRUCT, "inventory", str(corpus), "--out", str(o), "--quiet", *args])
            shutil.rmtree(o, ignore_errors=True)
            out.append(Result(f"inventory of the corpus, {label} (ratio = inventory / scan time)", "lakestruct scan, cold process",
                              inv_s / scan_s, 1.5, f"inventory {inv_s:.1f} s, scan {scan_s:.1f} s (both cold processes)",
                              higher_is_better=False))
    o = tmp / "inv-one"
    one_s = _cold([LAKESTRUCT, "inventory", one_file, "--out", str(o), "--quiet"])
    out.append(Result("inventory of one Parquet file, --engine auto (seconds)", "a 15 s budget", one_s, 15,
                      f"{one_s:.1f} s, cold process", higher_is_better=False))


def _fit(points: list[tuple[int, float]]) -> tuple[float, float]:
    """Least squares seconds = fixed + per_file * files."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    per = sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0
    return my - per * mx, per


def _when_spark_pays(paths: list[str], out: list[Result]) -> None:
    if spark_missing("bench_inventory"):
        return
    from lakestruct.spark.env import session
    from lakestruct.spark.onepass import from_ipc, plan, run_task, run_task_ipc

    sizes = [100, 400, 1000]
    files = [(p, os.path.getsize(p)) for p in paths]
    inputs = {n: files[:n] for n in sizes}
    loop = []
    for n in sizes:
        t = best_of(lambda n=n: [run_task(task, {}) for task in plan(inputs[n], {}, parallelism=1, options={})], repeat=1)
        loop.append((n, t))
    # the session start of a cold process (JVM launch included), as `lakestruct inventory --engine spark` pays it
    start_s = _cold([sys.executable, "-c", "from lakestruct.spark.env import session\nsession('local[2]').stop()"])
    spark = session("local[2]", app_name="lakestruct-bench-when")
    try:
        sc = spark.sparkContext

        def job(n: int) -> None:
            tasks = plan(inputs[n], {}, parallelism=sc.defaultParallelism, options={})
            res = sc.parallelize(tasks, len(tasks)).map(lambda t: run_task_ipc(t, {})).collect()
            assert sum(from_ipc(d).num_rows for r in res for k, d in r.items() if k == "parquet_chunks") == n * 40

        job(sizes[1])  # warm the workers and the JIT
        par = [(n, best_of(lambda n=n: job(n), repeat=2)) for n in sizes]
    finally:
        spark.stop()
    loop_fixed, loop_per = _fit(loop)
    spark_fixed, spark_per = _fit(par)
    mean = sum(s for _, s in files) / len(files)
    gain = loop_per - spark_per  # loop = loop_fixed + loop_per * n; Spark = spark_fixed + spark_per * n (+ session start)
    warm = max(0.0, spark_fixed - loop_fixed) / gain if gain > 0 else float("inf")
    cold = max(0.0, spark_fixed + start_s - loop_fixed) / gain if gain > 0 else float("inf")
    rows = ", ".join(f"{n:,}: {a:.2f} s vs {b:.2f} s" for (n, a), (_, b) in zip(loop, par, strict=True))
    out.append(Result("inventory file task: plain loop vs local[2] (files: loop s vs Spark s)", "information", loop[-1][1] / par[-1][1], 0,
                      f"{rows}; per file {loop_per * 1e3:.2f} vs {spark_per * 1e3:.2f} ms, fixed per job {spark_fixed:.2f} s, "
                      f"session start {start_s:.1f} s (cold process)"))
    out.append(Result("files from which local[2] beats the plain loop (warm session / with session start)", "information",
                      warm, 0, f"warm session: {warm:,.0f} files ({warm * mean / 1024**2:,.0f} MiB); with the session start: "
                      f"{cold:,.0f} files ({cold * mean / 1024**2:,.0f} MiB); files of {mean / 1024:.0f} KiB"))


def run() -> list[Result]:
    out: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="lakestruct-bench-inventory-") as tmp:
        folder = Path(tmp) / "chunks"
        paths = _write_parquets(folder, N_FILES)
        _chunks_vs_duckdb(str(folder), out)
        _inventory_vs_scan(Path(tmp), paths[0], out)
        _when_spark_pays(paths, out)
    return out
