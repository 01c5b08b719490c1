"""The lake inventory job: every file of a lake, checked and described, as Parquet tables.

``lakestruct inventory PATH... --out DIR`` (or :func:`run`) lists the files once on the driver, then runs
lakestruct's Spark sources over them and writes under ``DIR``:

==================== ===========================================================================
``files``            every file: format, size, ok, and the rule it breaks (source ``lake_files``)
``puffin_blobs``     every Puffin blob (source ``puffin``)
``deletion_vectors`` every deletion vector (source ``deletion_vectors``)
``parquet_chunks``   every Parquet column chunk (source ``parquet_chunks``)
``parquet_pages``    every Parquet page header (source ``parquet_pages``)
``data_file_deletes`` per data file named by a deletion vector: vectors, deleted rows, the file's row
                     count when the Parquet file was among the scanned paths, and the deleted share
==================== ===========================================================================

then prints a short summary and writes a self-contained HTML report (:mod:`.report`).
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..errors import UsageError
from .listing import Input, list_files

__all__ = ["TABLES", "InventoryResult", "run", "summarize"]

#: table name -> (source, formats of the files it reads)
TABLES: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "files": ("lake_files", None),
    "puffin_blobs": ("puffin", ("puffin",)),
    "deletion_vectors": ("deletion_vectors", ("puffin", "dv-file", "dv-blob")),
    "parquet_chunks": ("parquet_chunks", ("parquet",)),
    "parquet_pages": ("parquet_pages", ("parquet",)),
}
DERIVED = ("data_file_deletes",)


@dataclass
class InventoryResult:
    out: str
    tables: dict[str, int] = field(default_factory=dict)  # table -> rows
    seconds: dict[str, float] = field(default_factory=dict)
    summary: dict[str, Any] = field(default_factory=dict)
    report: str | None = None


class Progress:
    """A progress line on stderr: the step, and the running stage's finished/total tasks (Spark's status
    tracker, polled by a thread). On a terminal the line is redrawn; otherwise one line per step."""

    def __init__(self, spark: Any, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.sc = spark.sparkContext
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = enabled and self.stream.isatty()
        self.step = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _line(self) -> str:
        tracker = self.sc.statusTracker()
        done = total = 0
        for sid in tracker.getActiveStageIds():
            info = tracker.getStageInfo(sid)
            if info is not None:
                done += info.numCompletedTasks
                total += info.numTasks
        bar = ""
        if total:
            width = 24
            filled = int(width * done / total)
            bar = f" [{'#' * filled}{'.' * (width - filled)}] {done}/{total} tasks"
        return f"\rinventory: {self.step}{bar}\x1b[K"

    def _poll(self) -> None:
        while not self._stop.wait(0.5):
            try:
                self.stream.write(self._line())
                self.stream.flush()
            except Exception:
                return

    def start(self, step: str) -> float:
        self.step = step
        if self.enabled and not self.tty:
            print(f"inventory: {step} ...", file=self.stream, flush=True)
        if self.tty and self._thread is None:
            self._thread = threading.Thread(target=self._poll, daemon=True)
            self._thread.start()
        return time.monotonic()

    def done(self, step: str, rows: int, t0: float) -> None:
        if self.enabled:
            msg = f"inventory: {step}: {rows:,} rows in {time.monotonic() - t0:.1f} s"
            print(f"\r{msg}\x1b[K" if self.tty else msg, file=self.stream, flush=True)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)


def _write_list(path: str, inputs: Sequence[Input]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for p, size in inputs:
            if "\n" in p or "\t" in p:
                raise UsageError(f"cannot inventory a file whose name holds a tab or newline: {p!r}")
            f.write(f"{size}\t{p}\n")


def normalized_location(col: Any) -> Any:
    """A data file's location as Iceberg/Delta write it, comparable with a scanned path (a Spark column
    expression): ``file:`` / ``file://`` prefixes dropped, ``s3a://`` and ``s3n://`` read as ``s3://``,
    repeated slashes and ``/./`` segments collapsed."""
    from pyspark.sql import functions as F

    c = F.regexp_replace(col, r"^file:(//)?", "")
    c = F.regexp_replace(c, r"^s3[an]://", "s3://")
    c = F.regexp_replace(c, r"/(\./)+", "/")
    return F.regexp_replace(c, r"(?<!:)/{2,}", "/")


def run(
    paths: Sequence[str],
    out: str,
    spark: Any,
    *,
    report: str | None = None,
    progress: bool = True,
    stream: TextIO | None = None,
    options: dict[str, str] | None = None,
) -> InventoryResult:
    """Run the inventory of ``paths`` on ``spark`` and write its tables under ``out`` (overwritten)."""
    from pyspark.sql import functions as F

    from . import register

    register(spark)
    if not paths:
        raise UsageError("inventory: give at least one path")
    os.makedirs(out, exist_ok=True)
    res = InventoryResult(out=out)
    prog = Progress(spark, stream, progress)
    opts = {"min_partitions": str(max(1, spark.sparkContext.defaultParallelism)), **(options or {})}
    try:
        with tempfile.TemporaryDirectory(prefix="lakestruct-inventory-") as tmp:
            t0 = prog.start("listing files")
            inputs = list_files(list(paths))
            prog.done("listing files", len(inputs), t0)
            all_list = os.path.join(tmp, "all.txt")
            _write_list(all_list, inputs)
            sizes = dict(inputs)

            def write(table: str, df: Any) -> Any:
                t = prog.start(table)
                dest = os.path.join(out, table)
                df.write.mode("overwrite").parquet(dest)
                written = spark.read.parquet(dest)
                n = written.count()
                res.tables[table] = n
                res.seconds[table] = round(time.monotonic() - t, 2)
                prog.done(table, n, t)
                return written

            files = write("files", spark.read.format("lake_files").options(**opts, file_list=all_list).load())
            formats: dict[str, list[str]] = {}
            for r in files.select("file", "format").where(F.col("format").isNotNull()).collect():
                formats.setdefault(r["format"], []).append(r["file"])
            for table, (src, fmts) in TABLES.items():
                if fmts is None:
                    continue
                chosen = [(p, sizes.get(p, 0)) for f in fmts for p in formats.get(f, [])]
                lst = os.path.join(tmp, f"{table}.txt")
                _write_list(lst, sorted(set(chosen)))
                write(table, spark.read.format(src).options(**opts, file_list=lst).load())
            write("data_file_deletes", data_file_deletes(spark, out))
        res.summary = summarize(spark, out)
        if report:
            from .report import write_report

            t = prog.start("report")
            write_report(report, res.summary, paths=list(paths))
            res.report = report
            prog.done("report", 1, t)
    finally:
        prog.close()
    return res


def data_file_deletes(spark: Any, out: str) -> Any:
    """Per data file named by a deletion vector: how many vectors, how many rows they delete, and the
    file's row count and deleted share when the Parquet file was scanned. A referenced file is matched
    to a scanned one by its normalised location, else by file name when exactly one scanned Parquet
    file has that name (Iceberg names data files with a UUID); ``match`` says which."""
    from pyspark.sql import functions as F

    dv = spark.read.parquet(os.path.join(out, "deletion_vectors"))
    chunks = spark.read.parquet(os.path.join(out, "parquet_chunks"))
    refs = (
        dv.where(F.col("referenced_data_file").isNotNull() & F.col("error_rule").isNull())
        .groupBy("referenced_data_file")
        .agg(
            F.count(F.lit(1)).alias("vectors"),
            F.sum("cardinality").alias("deleted_rows"),
            F.max("max_position").alias("max_deleted_position"),
            F.sort_array(F.collect_set("file")).alias("dv_files"),
        )
        .withColumn("_key", normalized_location(F.col("referenced_data_file")))
        .withColumn("_name", F.element_at(F.split("_key", "/"), -1))
    )
    rows = (
        chunks.where((F.col("column") == 0) & F.col("error_rule").isNull())
        .groupBy("file")
        .agg(F.sum("row_group_rows").alias("row_count"))
        .withColumn("_key", normalized_location(F.col("file")))
        .withColumn("_name", F.element_at(F.split("_key", "/"), -1))
    )
    unique_names = rows.groupBy("_name").count().where("count = 1").select("_name")
    by_path = rows.select(F.col("_key"), F.col("file").alias("data_file"), F.col("row_count"))
    by_name = rows.join(unique_names, "_name").select(
        F.col("_name"), F.col("file").alias("name_file"), F.col("row_count").alias("name_rows")
    )
    joined = refs.join(by_path, "_key", "left").join(by_name, "_name", "left")
    matched_path = F.col("data_file").isNotNull()
    return (
        joined.select(
            "referenced_data_file",
            F.when(matched_path, F.col("data_file")).otherwise(F.col("name_file")).alias("data_file"),
            F.when(matched_path, F.lit("path")).when(F.col("name_file").isNotNull(), F.lit("file_name")).alias("match"),
            "vectors",
            "deleted_rows",
            "max_deleted_position",
            F.when(matched_path, F.col("row_count")).otherwise(F.col("name_rows")).alias("row_count"),
            "dv_files",
        )
        .withColumn(
            "deleted_share",
            F.when(F.col("row_count") > 0, F.col("deleted_rows") / F.col("row_count")),
        )
        .withColumn(
            # a vector naming positions at or past the file's row count deletes rows that do not exist
            "positions_past_end",
            F.when(F.col("row_count").isNotNull(), F.col("max_deleted_position") >= F.col("row_count")),
        )
        .orderBy(F.col("deleted_share").desc_nulls_last(), "referenced_data_file")
    )


#: what "worst" means in the summary, per question
TINY_PAGE_BYTES = 16 * 1024
HUGE_PAGE_BYTES = 8 * 1024 * 1024
POOR_COMPRESSION = 1.1


def summarize(spark: Any, out: str, *, top: int = 10) -> dict[str, Any]:
    """Counts, errors by rule, the worst offenders and the distributions the report plots, from the
    written tables (small results only are collected)."""
    from pyspark.sql import functions as F

    def t(name: str) -> Any:
        return spark.read.parquet(os.path.join(out, name))

    files, pages, chunks, blobs, dfd = t("files"), t("parquet_pages"), t("parquet_chunks"), t("puffin_blobs"), t("data_file_deletes")
    s: dict[str, Any] = {}
    s["files_by_format"] = {
        (r["format"] or "other"): {"files": r["files"], "ok": r["ok"], "failed": r["failed"], "bytes": r["bytes"]}
        for r in files.groupBy("format")
        .agg(
            F.count(F.lit(1)).alias("files"),
            F.sum(F.when(F.col("ok"), 1).otherwise(0)).alias("ok"),
            F.sum(F.when(~F.col("ok"), 1).otherwise(0)).alias("failed"),
            F.sum("size").alias("bytes"),
        )
        .orderBy("format")
        .collect()
    }
    errors = None
    for name in ("files", "puffin_blobs", "deletion_vectors", "parquet_chunks", "parquet_pages"):
        part = t(name).where(F.col("error_rule").isNotNull()).select(F.lit(name).alias("table"), "error_rule", "file")
        errors = part if errors is None else errors.unionByName(part)
    assert errors is not None
    # a rule broken by a file shows in `files` and again in its format's table: count files once per rule
    s["errors_by_rule"] = [
        {"rule": r["error_rule"], "files": r["files"], "rows": r["rows"], "tables": list(r["tables"])}
        for r in errors.groupBy("error_rule")
        .agg(
            F.countDistinct("file").alias("files"),
            F.count(F.lit(1)).alias("rows"),
            F.sort_array(F.collect_set("table")).alias("tables"),
        )
        .orderBy(F.col("files").desc(), "error_rule")
        .collect()
    ]
    s["failed_files"] = [
        r.asDict()
        for r in files.where(~F.col("ok"))
        .select("file", "format", "error_rule", "error_offset", "error")
        .orderBy("file")
        .limit(top)
        .collect()
    ]
    data_pages = pages.where(F.col("page_type").isin("DATA_PAGE", "DATA_PAGE_V2") & F.col("error_rule").isNull())
    # page sizes by power-of-two bucket: bucket b holds sizes in [2^b, 2^(b+1))
    s["page_size_histogram"] = [
        {"bucket": int(r["b"]), "pages": r["n"]}
        for r in data_pages.select(F.floor(F.log2(F.greatest(F.col("compressed_size"), F.lit(1)))).alias("b"))
        .groupBy("b")
        .agg(F.count(F.lit(1)).alias("n"))
        .orderBy("b")
        .collect()
    ]
    s["pages"] = data_pages.count()
    per_file_pages = data_pages.groupBy("file").agg(
        F.count(F.lit(1)).alias("pages"),
        F.expr("percentile_approx(compressed_size, 0.5)").alias("median_page_bytes"),
        F.max("compressed_size").alias("max_page_bytes"),
    )
    s["tiny_pages"] = [
        r.asDict()
        for r in per_file_pages.where(F.col("median_page_bytes") < TINY_PAGE_BYTES)
        .where(F.col("pages") > 1)
        .orderBy("median_page_bytes", "file")
        .limit(top)
        .collect()
    ]
    s["huge_pages"] = [
        r.asDict()
        for r in per_file_pages.where(F.col("max_page_bytes") > HUGE_PAGE_BYTES)
        .orderBy(F.col("max_page_bytes").desc())
        .limit(top)
        .collect()
    ]
    good_chunks = chunks.where(F.col("error_rule").isNull())
    per_file = (
        good_chunks.groupBy("file")
        .agg(
            F.count(F.lit(1)).alias("chunks"),
            F.sum(F.when(F.col("has_page_index"), 0).otherwise(1)).alias("without_page_index"),
            F.sum(F.when(F.col("has_bloom_filter"), 1).otherwise(0)).alias("with_bloom_filter"),
            F.sum(F.when(F.col("dictionary_fallback"), 1).otherwise(0)).alias("dictionary_fallback"),
            F.sum("total_uncompressed_size").alias("raw_bytes"),
            F.sum("total_compressed_size").alias("stored_bytes"),
        )
        .withColumn("compression_ratio", F.col("raw_bytes") / F.greatest(F.col("stored_bytes"), F.lit(1)))
    )
    s["parquet_files"] = per_file.count()
    s["no_page_index"] = per_file.where(F.col("without_page_index") == F.col("chunks")).count()
    s["no_bloom_filter"] = per_file.where(F.col("with_bloom_filter") == 0).count()
    s["dictionary_fallback"] = [
        r.asDict()
        for r in per_file.where(F.col("dictionary_fallback") > 0).orderBy(F.col("dictionary_fallback").desc(), "file").limit(top).collect()
    ]
    s["poor_compression"] = [
        r.asDict()
        for r in per_file.where((F.col("compression_ratio") < POOR_COMPRESSION) & (F.col("stored_bytes") > 0))
        .orderBy("compression_ratio", "file")
        .limit(top)
        .collect()
    ]
    s["deletes"] = [r.asDict() for r in dfd.orderBy(F.col("deleted_share").desc_nulls_last(), "referenced_data_file").limit(1000).collect()]
    s["deletion_vectors"] = t("deletion_vectors").where(F.col("error_rule").isNull()).count()
    s["ndv_mismatch"] = [
        r.asDict()
        for r in blobs.where(F.col("ndv_ok") == F.lit(False))
        .select("file", "blob_index", "fields", "ndv", "theta_estimate")
        .orderBy("file", "blob_index")
        .limit(top)
        .collect()
    ]
    s["theta_blobs"] = blobs.where(F.col("theta_estimate").isNotNull()).count()
    return s


def format_summary(s: dict[str, Any], res: InventoryResult) -> str:
    """The summary the CLI prints."""
    lines = [f"inventory written to {res.out}/"]
    for table, n in res.tables.items():
        lines.append(f"  {table:<18} {n:>10,} rows")
    lines.append("files:")
    for fmt, c in s["files_by_format"].items():
        extra = f", {c['failed']} breaking a rule" if fmt != "other" else " (not a format lakestruct reads)"
        lines.append(f"  {fmt:<10} {c['files']:>8,} files, {c['bytes'] or 0:>14,} bytes{extra}")
    if s["errors_by_rule"]:
        lines.append("errors by rule:")
        for e in s["errors_by_rule"][:15]:
            lines.append(f"  {e['rule']:<40} {e['files']:>6} file(s)  (rows in {', '.join(e['tables'])})")
    lines.append(
        f"parquet: {s['parquet_files']} files, {s['pages']:,} data pages; {s['no_page_index']} without a page index, "
        f"{s['no_bloom_filter']} without a bloom filter, {len(s['dictionary_fallback'])} with dictionary fallback, "
        f"{len(s['poor_compression'])} compressing < {POOR_COMPRESSION}x"
    )
    deletes = [d for d in s["deletes"] if d.get("deleted_share") is not None]
    lines.append(f"deletes: {s['deletion_vectors']} deletion vectors over {len(s['deletes'])} data file(s)")
    for d in deletes[:5]:
        lines.append(f"  {d['deleted_share']:>7.1%} of {d['row_count']:,} rows deleted in {d['data_file']}")
    if s["ndv_mismatch"]:
        lines.append(f"theta: {len(s['ndv_mismatch'])} blob(s) whose ndv disagrees with the sketch, e.g. {s['ndv_mismatch'][0]['file']}")
    if res.report:
        lines.append(f"report: {res.report}")
    return "\n".join(lines)


def main_job(
    paths: Sequence[str], out: str, *, master: str, report: str | None, progress: bool, echo: Callable[[str], None] = print
) -> InventoryResult:
    """What ``lakestruct inventory`` does: a session on ``master``, the job, the summary."""
    from .env import session

    spark = session(master, app_name="lakestruct inventory")
    res = run(paths, out, spark, report=report, progress=progress)
    echo(format_summary(res.summary, res))
    return res
