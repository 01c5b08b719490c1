"""The lake inventory job: every file and every table of a lake, checked and described, as Parquet tables.

``lakestruct inventory PATH... --out DIR`` (or :func:`run`) lists the files once on the driver, finds the table
roots among them (Iceberg ``metadata/``, Paimon ``snapshot/`` + ``schema/``, Delta ``_delta_log/``), and runs one
job: every file is read once by one task, which emits its rows for every file-level table; every table is read by
one task from its metadata (:mod:`.onepass`). It writes under ``DIR``:

==================== ===========================================================================
``files``            every file: format, size, ok, and the rule it breaks (source ``lake_files``)
``puffin_blobs``     every Puffin blob (source ``puffin``)
``deletion_vectors`` every deletion vector on storage (source ``deletion_vectors``), live or not
``parquet_chunks``   every Parquet column chunk (source ``parquet_chunks``)
``parquet_pages``    every Parquet page header (source ``parquet_pages``)
``tables``           one row per table: format, snapshot, live files and rows, deleted share, orphans, rules
``data_file_deletes`` per data file with deletes: from its table's live state (``table`` set), or, for deletion
                     vectors outside any table, per referenced data file as the vectors on storage say
``orphan_files``     files under a table's root that no retained snapshot references, and missing files
==================== ===========================================================================

then prints a short summary and writes a self-contained HTML report (:mod:`.report`). The summary is computed
from the written tables with pyarrow on the driver (no Spark query per figure).

The job runs on Spark (``rdd.map`` over the tasks; any master) or, for a small lake on a local master, in this
process (the plain loop: no session to start); both run the same task function and write the same rows.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import pyarrow as pa

from ..errors import UsageError
from ..source import local_path
from . import columns
from .listing import Input, list_files
from .onepass import FILE_TABLES, TABLE_TABLES, from_ipc, plan, run_task, run_task_ipc, schema_of, to_ipc

__all__ = [
    "LOCAL_MAX_BYTES",
    "LOCAL_MAX_FILES",
    "MARKER",
    "TABLES",
    "InventoryResult",
    "check_out",
    "format_summary",
    "run",
    "summarize",
]

#: every table the inventory writes, in order
TABLES: tuple[str, ...] = (*FILE_TABLES, *TABLE_TABLES)
#: the file that marks a folder as an inventory's output (``--out`` may be overwritten only then)
MARKER = ".lakestruct-inventory"
#: below both, ``--engine auto`` on a local master runs the plain loop: Spark's session start (~10 s) and its fixed
#: cost per job would take longer than reading the files (docs/spark.md: when Spark pays)
LOCAL_MAX_FILES = 10_000  # measured break-even on this 2-core machine: ~9,000 small files (docs/spark.md)
LOCAL_MAX_BYTES = 2 * 1024**3


@dataclass
class InventoryResult:
    out: str
    tables: dict[str, int] = field(default_factory=dict)  # table -> rows
    seconds: dict[str, float] = field(default_factory=dict)  # step -> seconds
    summary: dict[str, Any] = field(default_factory=dict)
    report: str | None = None
    engine: str = "spark"
    engine_reason: str = ""


class Progress:
    """A progress line on stderr: the step, and on Spark the running stage's finished/total tasks (Spark's status
    tracker, polled by a thread). On a terminal the line is redrawn; otherwise one line per step."""

    def __init__(self, spark: Any | None, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.sc = spark.sparkContext if spark is not None else None
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = enabled and self.stream.isatty()
        self.step = ""
        self.done_tasks = 0
        self.total_tasks = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _line(self) -> str:
        done, total = self.done_tasks, self.total_tasks
        if self.sc is not None:
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

    def done(self, step: str, what: str, t0: float) -> float:
        took = time.monotonic() - t0
        if self.enabled:
            msg = f"inventory: {step}: {what} in {took:.1f} s"
            print(f"\r{msg}\x1b[K" if self.tty else msg, file=self.stream, flush=True)
        return round(took, 2)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)


def _is_url(p: str) -> bool:
    return bool(re.match(r"^[A-Za-z][A-Za-z0-9+.-]+://", p)) and not p.startswith("file://")


def check_out(out: str, *, overwrite: bool = False) -> str:
    """The local folder ``--out`` names, checked before any work: an object-storage URL is refused (write locally,
    then copy), and a folder that holds anything but a previous inventory is refused unless ``overwrite``. Returns
    the local path."""
    if _is_url(out):
        raise UsageError(f"--out {out}: the inventory writes to a local folder; write it locally, then copy it "
                         "(for example: aws s3 cp --recursive DIR s3://...)")
    local = out[len("file://") :] if out.startswith("file://") else out
    if os.path.exists(local) and not os.path.isdir(local):
        raise UsageError(f"--out {out}: is a file, not a folder")
    if os.path.isdir(local) and os.listdir(local) and not os.path.exists(os.path.join(local, MARKER)) and not overwrite:
        raise UsageError(f"--out {out}: the folder is not empty and holds no previous inventory ({MARKER}); "
                         "choose an empty or new folder, or pass --overwrite (only the inventory's own tables are replaced)")
    if os.path.isdir(local):
        for t in TABLES:
            foreign = _foreign(os.path.join(local, t))
            if foreign:
                raise UsageError(f"--out {out}: {t}/ holds {foreign[0]!r}, which no inventory wrote; the inventory would have to "
                                 "replace that folder: choose another --out")
    parent = os.path.dirname(os.path.abspath(local))
    if not os.path.isdir(parent):
        raise UsageError(f"--out {out}: the folder {parent} does not exist")
    if not os.access(parent if not os.path.isdir(local) else local, os.W_OK):
        raise UsageError(f"--out {out}: not writable")
    return local


#: what the inventory writes in a table's folder (and what Spark's writer of earlier versions wrote there)
_OURS = re.compile(r"^(part-\d+.*\.parquet|_SUCCESS|\..*\.crc)$")


def _foreign(folder: str) -> list[str]:
    """Files in ``folder`` that no inventory wrote (sub-folders count as foreign)."""
    if not os.path.isdir(folder):
        return [os.path.basename(folder)] if os.path.exists(folder) else []
    return sorted(n for n in os.listdir(folder) if not (_OURS.match(n) and os.path.isfile(os.path.join(folder, n))))


def _prepare_out(out: str) -> None:
    """Remove the inventory's own files under ``out`` (the tables' part files), nothing else."""
    os.makedirs(out, exist_ok=True)
    for t in TABLES:
        d = os.path.join(out, t)
        if not os.path.isdir(d):
            continue
        if _foreign(d):
            raise UsageError(f"{d} holds files no inventory wrote: {', '.join(_foreign(d)[:3])}")
        for n in os.listdir(d):
            os.remove(os.path.join(d, n))
    with open(os.path.join(out, MARKER), "w", encoding="utf-8") as f:
        f.write("written by lakestruct inventory; its tables: " + ", ".join(TABLES) + "\n")


class _Writers:
    """One Parquet file per table (``OUT/<table>/part-00000.parquet``), written as the tasks' results arrive."""

    def __init__(self, out: str, options: Mapping[str, str]) -> None:
        import pyarrow.parquet as pq

        self._pq = pq
        self.out = out
        self.options = options
        self.writers: dict[str, Any] = {}
        self.rows: dict[str, int] = dict.fromkeys(TABLES, 0)
        self.closed: set[str] = set()

    def add(self, table: str, t: pa.Table) -> None:
        if t.num_rows == 0:
            return
        w = self.writers.get(table)
        if w is None:
            d = os.path.join(self.out, table)
            os.makedirs(d, exist_ok=True)
            w = self.writers[table] = self._pq.ParquetWriter(os.path.join(d, "part-00000.parquet"), schema_of(table, self.options),
                                                             compression="zstd")
        w.write_table(t.cast(schema_of(table, self.options)))
        self.rows[table] += t.num_rows

    def finish(self, table: str) -> None:
        """Close ``table``'s file (an empty table is still a table: a file with the schema and no rows)."""
        if table in self.closed:
            return
        self.closed.add(table)
        w = self.writers.get(table)
        if w is not None:
            w.close()
            return
        d = os.path.join(self.out, table)
        os.makedirs(d, exist_ok=True)
        schema = schema_of(table, self.options)  # (pq.write_table and Schema.empty_table import pandas)
        with self._pq.ParquetWriter(os.path.join(d, "part-00000.parquet"), schema, compression="zstd") as w:
            w.write_table(pa.Table.from_batches([], schema=schema))

    def close(self) -> None:
        for table in TABLES:
            self.finish(table)


def _read(out: str, table: str) -> pa.Table:
    """A written table, its part files read one by one in name order (``pq.read_table`` of the folder would go
    through ``pyarrow.dataset``, which imports pandas: ~0.5 s of a small inventory)."""
    import pyarrow.parquet as pq

    d = os.path.join(out, table)
    parts = sorted(f for f in os.listdir(d) if f.endswith(".parquet") and not f.startswith(("_", ".")))
    tables = [pq.ParquetFile(os.path.join(d, f)).read() for f in parts]
    if not tables:
        raise FileNotFoundError(f"{d}: no part files (the inventory's output is incomplete)")
    return pa.concat_tables(tables) if len(tables) != 1 else tables[0]


def choose_engine(engine: str, master: str, inputs: Sequence[Input]) -> tuple[str, str]:
    """("local" or "spark", why) for ``--engine`` on ``master`` and the listed files."""
    files, size = len(inputs), sum(s for _, s in inputs)
    if engine == "spark":
        return "spark", "--engine spark"
    if engine == "local":
        return "local", "--engine local"
    if not master.startswith("local") or master.startswith("local-cluster"):
        return "spark", f"the master {master} is a cluster"
    if files <= LOCAL_MAX_FILES and size <= LOCAL_MAX_BYTES:
        return "local", (f"{files:,} files, {size / 1024**2:,.1f} MiB: below {LOCAL_MAX_FILES:,} files and "
                         f"{LOCAL_MAX_BYTES // 1024**3} GiB Spark would cost more than it saves (--engine spark to force it)")
    return "spark", f"{files:,} files, {size / 1024**2:,.1f} MiB"


def run(
    paths: Sequence[str],
    out: str,
    spark: Any | None = None,
    *,
    report: str | None = None,
    progress: bool = True,
    stream: TextIO | None = None,
    options: dict[str, str] | None = None,
    inputs: Sequence[Input] | None = None,
    overwrite: bool = True,
) -> InventoryResult:
    """Run the inventory of ``paths`` and write its tables under ``out``: on ``spark`` when given, else in this
    process. ``inputs`` are the listed files when the caller listed them already."""
    if not paths:
        raise UsageError("inventory: give at least one path")
    out = check_out(out, overwrite=overwrite)
    res = InventoryResult(out=out, engine="spark" if spark is not None else "local")
    prog = Progress(spark, stream, progress)
    opts = dict(options or {})
    from .. import tables as _tables

    try:
        if inputs is None:
            t0 = prog.start("listing files")
            inputs = list_files(list(paths))
            res.seconds["listing"] = prog.done("listing files", f"{len(inputs):,} files", t0)
        roots = _tables.find_roots(p for p, _ in inputs)
        parallelism = spark.sparkContext.defaultParallelism if spark is not None else 1
        tasks = plan(inputs, roots, parallelism=parallelism, options=opts)
        _prepare_out(out)
        writers = _Writers(out, opts)
        t0 = prog.start(f"reading {len(inputs):,} files and {len(roots):,} tables ({len(tasks)} tasks)")
        try:
            if spark is not None:
                sc = spark.sparkContext
                results = sc.parallelize(list(enumerate(tasks)), max(1, len(tasks))).map(
                    lambda it: (it[0], run_task_ipc(it[1], opts))
                ).collect()  # fmt: skip
                for _, parts in sorted(results, key=lambda r: r[0]):
                    for table, data in parts.items():
                        writers.add(table, from_ipc(data))
            else:
                prog.total_tasks = len(tasks)
                for task in tasks:
                    for table, t in run_task(task, opts).items():
                        writers.add(table, t)
                    prog.done_tasks += 1
            writers.finish("deletion_vectors")
            writers.finish("parquet_chunks")
            writers.add("data_file_deletes", loose_deletes(out, roots))
        finally:
            writers.close()
        res.tables = dict(writers.rows)
        res.seconds["reading"] = prog.done("reading", f"{sum(writers.rows.values()):,} rows", t0)
        t0 = prog.start("summary")
        res.summary = summarize(out)
        res.seconds["summary"] = prog.done("summary", "done", t0)
        if report:
            from .report import write_report

            t0 = prog.start("report")
            write_report(report, res.summary, paths=list(paths))
            res.report = report
            res.seconds["report"] = prog.done("report", report, t0)
    finally:
        prog.close()
    return res


def _norm_location(p: str) -> str:
    """A data file's location as Iceberg/Delta write it, comparable with a scanned path: ``file:`` / ``file://``
    prefixes dropped, ``s3a://`` and ``s3n://`` read as ``s3://``, repeated slashes and ``/./`` segments collapsed."""
    c = re.sub(r"^s3[an]://", "s3://", local_path(p))
    c = re.sub(r"/(\./)+", "/", c)
    return re.sub(r"(?<!:)/{2,}", "/", c)


def _under(path: str, roots: Sequence[str]) -> bool:
    p = _norm_location(path)
    return any(p == r or p.startswith(r.rstrip("/") + "/") for r in roots)


def loose_deletes(out: str, roots: Mapping[str, str]) -> pa.Table:
    """``data_file_deletes`` rows for deletion vectors that lie outside every table: per referenced data file, how many
    vectors, how many rows they delete, and the file's row count and deleted share when the Parquet file was scanned.
    A referenced file is matched to a scanned one by its normalised location, else by file name when exactly one
    scanned Parquet file has that name (Iceberg names data files with a UUID); ``match`` says which. Vectors inside a
    table are counted from the table's live state instead (a superseded vector is not live)."""
    from .onepass import DFD_SCHEMA

    table_roots = [_norm_location(r) for r in roots]
    dv = _read(out, "deletion_vectors").to_pylist()
    chunks = _read(out, "parquet_chunks").select(["file", "column", "row_group_rows", "error_rule"]).to_pylist()
    rows_of: dict[str, int] = {}
    for c in chunks:
        if c["column"] == 0 and c["error_rule"] is None:
            rows_of[c["file"]] = rows_of.get(c["file"], 0) + (c["row_group_rows"] or 0)
    by_key = {_norm_location(f): f for f in rows_of}
    names: dict[str, list[str]] = {}
    for f in rows_of:
        names.setdefault(_norm_location(f).rsplit("/", 1)[-1], []).append(f)
    refs: dict[str, dict[str, Any]] = {}
    for r in dv:
        ref = r["referenced_data_file"]
        if ref is None or r["error_rule"] is not None or _under(r["file"], table_roots):
            continue
        a = refs.setdefault(ref, {"vectors": 0, "deleted_rows": 0, "max": None, "files": set()})
        a["vectors"] += 1
        a["deleted_rows"] += r["cardinality"] or 0
        if r["max_position"] is not None:
            a["max"] = r["max_position"] if a["max"] is None else max(a["max"], r["max_position"])
        a["files"].add(r["file"])
    rows = []
    for ref, a in refs.items():
        key = _norm_location(ref)
        data_file, match = by_key.get(key), "path"
        if data_file is None:
            cands = names.get(key.rsplit("/", 1)[-1], [])
            data_file, match = (cands[0], "file_name") if len(cands) == 1 else (None, None)  # type: ignore[assignment]
        n = rows_of.get(data_file) if data_file is not None else None
        rows.append({
            "table": None, "referenced_data_file": ref, "data_file": data_file, "match": match, "vectors": a["vectors"],
            "deleted_rows": a["deleted_rows"], "max_deleted_position": a["max"], "row_count": n, "dv_files": sorted(a["files"]),
            "deleted_share": a["deleted_rows"] / n if n else None,
            "positions_past_end": (a["max"] >= n) if n is not None and a["max"] is not None else None,
        })  # fmt: skip
    rows.sort(key=lambda r: (-(r["deleted_share"] if r["deleted_share"] is not None else -1.0), r["referenced_data_file"]))
    return pa.Table.from_batches([columns.batch(rows, DFD_SCHEMA)], schema=DFD_SCHEMA)  # (from_pylist imports pandas)


#: what "worst" means in the summary, per question
TINY_PAGE_BYTES = 16 * 1024
HUGE_PAGE_BYTES = 8 * 1024 * 1024
POOR_COMPRESSION = 1.1


def _top(rows: list[dict[str, Any]], n: int) -> dict[str, Any]:
    """A list cut to ``n`` rows, saying how many there were (``shown`` of ``total``)."""
    return {"rows": rows[:n], "shown": min(n, len(rows)), "total": len(rows)}


def summarize(out: str, *, top: int = 10) -> dict[str, Any]:
    """Counts, errors by rule, the worst offenders, the tables and the distributions the report plots, from the
    written tables (pyarrow, on the driver). Lists cut to ``top`` rows carry ``<name>_total``."""
    import numpy as np
    import pyarrow.compute as pc

    files = _read(out, "files")
    s: dict[str, Any] = {}
    by_fmt: dict[str, dict[str, int]] = {}
    for r in files.select(["format", "ok", "size"]).to_pylist():
        c = by_fmt.setdefault(r["format"] or "other", {"files": 0, "ok": 0, "failed": 0, "bytes": 0})
        c["files"] += 1
        c["ok"] += 1 if r["ok"] is True else 0
        c["failed"] += 1 if r["ok"] is False else 0
        c["bytes"] += r["size"] or 0
    s["files_by_format"] = dict(sorted(by_fmt.items()))
    rules: dict[str, dict[str, Any]] = {}
    for name in FILE_TABLES:
        t = _read(out, name).select(["file", "error_rule"]).to_pylist()
        for r in t:
            if r["error_rule"] is None:
                continue
            e = rules.setdefault(r["error_rule"], {"files": set(), "rows": 0, "tables": set()})
            e["files"].add(r["file"])
            e["rows"] += 1
            e["tables"].add(name)
    errs = [{"rule": k, "files": len(v["files"]), "rows": v["rows"], "tables": sorted(v["tables"])} for k, v in rules.items()]
    s["errors_by_rule"] = sorted(errs, key=lambda e: (-e["files"], e["rule"]))
    failed = sorted(
        ({k: r[k] for k in ("file", "format", "error_rule", "error_offset", "error")} for r in files.to_pylist() if r["ok"] is False),
        key=lambda r: r["file"],
    )
    s["failed_files"] = failed[:top]
    s["failed_files_total"] = len(failed)
    pages = _read(out, "parquet_pages").select(["file", "page_type", "compressed_size", "error_rule"])
    is_data = pc.is_in(pages["page_type"], columns.array(["DATA_PAGE", "DATA_PAGE_V2"], pa.string()))
    data_pages = pages.filter(pc.and_(is_data, pc.is_null(pages["error_rule"])))
    # nulls as 1; through a list: pc.fill_null (it makes a pa.scalar) and to_numpy import pandas
    sizes = np.array([1 if v is None else v for v in data_pages["compressed_size"].to_pylist()], dtype=np.int64)
    buckets = np.floor(np.log2(np.maximum(sizes, 1))).astype(np.int64) if sizes.size else sizes
    vals, counts = np.unique(buckets, return_counts=True)
    s["page_size_histogram"] = [{"bucket": int(b), "pages": int(n)} for b, n in zip(vals, counts, strict=True)]
    s["pages"] = int(data_pages.num_rows)
    per_file: dict[str, list[int]] = {}
    for f, size in zip(data_pages["file"].to_pylist(), sizes.tolist(), strict=True):
        per_file.setdefault(f, []).append(size)
    stats: list[dict[str, Any]] = [
        {"file": f, "pages": len(v), "median_page_bytes": int(np.median(v)), "max_page_bytes": max(v)} for f, v in per_file.items()
    ]
    tiny = sorted((r for r in stats if r["median_page_bytes"] < TINY_PAGE_BYTES and r["pages"] > 1),
                  key=lambda r: (r["median_page_bytes"], r["file"]))
    huge = sorted((r for r in stats if r["max_page_bytes"] > HUGE_PAGE_BYTES), key=lambda r: -r["max_page_bytes"])
    s["tiny_pages"], s["tiny_pages_total"] = tiny[:top], len(tiny)
    s["huge_pages"], s["huge_pages_total"] = huge[:top], len(huge)
    chunks = _read(out, "parquet_chunks")
    good = chunks.filter(pc.is_null(chunks["error_rule"])).select(
        ["file", "has_page_index", "has_bloom_filter", "dictionary_fallback", "total_uncompressed_size", "total_compressed_size"]
    ).to_pylist()
    agg: dict[str, dict[str, int]] = {}
    for r in good:
        a = agg.setdefault(r["file"], {"chunks": 0, "without_page_index": 0, "with_bloom_filter": 0, "dictionary_fallback": 0,
                                       "raw_bytes": 0, "stored_bytes": 0})
        a["chunks"] += 1
        a["without_page_index"] += 0 if r["has_page_index"] else 1
        a["with_bloom_filter"] += 1 if r["has_bloom_filter"] else 0
        a["dictionary_fallback"] += 1 if r["dictionary_fallback"] else 0
        a["raw_bytes"] += r["total_uncompressed_size"] or 0
        a["stored_bytes"] += r["total_compressed_size"] or 0
    pf: list[dict[str, Any]] = [{"file": f, **a, "compression_ratio": a["raw_bytes"] / max(a["stored_bytes"], 1)} for f, a in agg.items()]
    s["parquet_files"] = len(pf)
    s["no_page_index"] = sum(1 for r in pf if r["without_page_index"] == r["chunks"])
    s["no_bloom_filter"] = sum(1 for r in pf if r["with_bloom_filter"] == 0)
    fallback = sorted((r for r in pf if r["dictionary_fallback"] > 0), key=lambda r: (-r["dictionary_fallback"], r["file"]))
    poor = sorted((r for r in pf if r["compression_ratio"] < POOR_COMPRESSION and r["stored_bytes"] > 0),
                  key=lambda r: (r["compression_ratio"], r["file"]))
    s["dictionary_fallback"], s["dictionary_fallback_total"] = fallback[:top], len(fallback)
    s["poor_compression"], s["poor_compression_total"] = poor[:top], len(poor)
    dfd = _read(out, "data_file_deletes").to_pylist()
    dfd.sort(key=lambda r: (-(r["deleted_share"] if r["deleted_share"] is not None else -1.0), r["referenced_data_file"] or ""))
    s["deletes"] = dfd[:1000]
    s["deletes_total"] = len(dfd)
    dv = _read(out, "deletion_vectors")
    s["deletion_vectors"] = int(pc.sum(pc.is_null(dv["error_rule"])).as_py() or 0) if dv.num_rows else 0
    blobs = _read(out, "puffin_blobs").to_pylist()
    mism = sorted(({k: r[k] for k in ("file", "blob_index", "fields", "ndv", "theta_estimate")} for r in blobs if r["ndv_ok"] is False),
                  key=lambda r: (r["file"], r["blob_index"]))
    s["ndv_mismatch"], s["ndv_mismatch_total"] = mism[:top], len(mism)
    s["theta_blobs"] = sum(1 for r in blobs if r["theta_estimate"] is not None)
    s["tables"] = sorted(_read(out, "tables").to_pylist(), key=lambda r: r["table"])
    # what counting files on storage would say: every vector under the table's root, superseded ones included
    dv_rows = [r for r in dv.select(["file", "cardinality", "error_rule"]).to_pylist() if r["error_rule"] is None]
    for t in s["tables"]:
        root = _norm_location(t["table"]).rstrip("/") + "/"
        under = [r for r in dv_rows if _norm_location(r["file"]).startswith(root)]
        t["vectors_on_storage"] = len(under)
        t["positions_on_storage"] = sum(r["cardinality"] or 0 for r in under)
    orphans = _read(out, "orphan_files").to_pylist()
    s["orphans"] = sorted(orphans, key=lambda r: (r["kind"], -(r["size"] or 0), r["file"]))[:1000]
    s["orphans_total"] = len(orphans)
    return s


def _shown(n: int, total: int) -> str:
    return f" ({n} of {total:,} shown)" if total > n else ""


def format_summary(s: dict[str, Any], res: InventoryResult) -> str:
    """The summary the CLI prints."""
    lines = [f"inventory written to {res.out}/ ({res.engine}: {res.engine_reason})" if res.engine_reason else
             f"inventory written to {res.out}/"]
    for table, n in res.tables.items():
        lines.append(f"  {table:<18} {n:>10,} rows")
    lines.append("files:")
    for fmt, c in s["files_by_format"].items():
        extra = f", {c['failed']} breaking a rule" if fmt != "other" else " (not a format lakestruct reads)"
        lines.append(f"  {fmt:<10} {c['files']:>8,} files, {c['bytes'] or 0:>14,} bytes{extra}")
    if s["tables"]:
        lines.append(f"tables: {len(s['tables'])} (live state of each table's current snapshot)")
        for t in s["tables"][:15]:
            if t["error_rule"]:
                lines.append(f"  {t['format']:<8} {t['table']}: not read ({t['error_rule']}: {t['error']})")
                continue
            share = f"{t['deleted_share']:.1%}" if t["deleted_share"] is not None else "-"
            rules = f"; rules broken: {', '.join(t['rules_broken'])}" if t["rules_broken"] else ""
            if t.get("vectors_on_storage"):
                rules += (f"; on storage {t['vectors_on_storage']:,} deletion vectors name {t['positions_on_storage']:,} positions "
                          "(old snapshots' included: not live)")
            lines.append(
                f"  {t['format']:<8} {t['table']}: snapshot {t['snapshot_id']}, {t['data_files']:,} live data files, "
                f"{t['record_count']:,} rows, {share} deleted ({t['deleted_rows'] or 0:,} rows), {t['delete_files']:,} live delete files, "
                f"{t['orphan_files']:,} orphan files ({t['orphan_bytes']:,} bytes){rules}"
            )
        if len(s["tables"]) > 15:
            lines.append(f"  (15 of {len(s['tables']):,} tables shown)")
    if s["errors_by_rule"]:
        errs = s["errors_by_rule"]
        lines.append(f"errors by rule{_shown(15, len(errs))}:")
        for e in errs[:15]:
            lines.append(f"  {e['rule']:<40} {e['files']:>6} file(s)  (rows in {', '.join(e['tables'])})")
    lines.append(
        f"parquet: {s['parquet_files']} files, {s['pages']:,} data pages; {s['no_page_index']} without a page index, "
        f"{s['no_bloom_filter']} without a bloom filter, {s['dictionary_fallback_total']} with dictionary fallback, "
        f"{s['poor_compression_total']} compressing < {POOR_COMPRESSION}x"
    )
    in_tables = [d for d in s["deletes"] if d.get("table") is not None]
    loose = [d for d in s["deletes"] if d.get("table") is None]
    lines.append(f"deletes: {s['deletion_vectors']} deletion vectors on storage; {len(in_tables)} data file(s) with live deletes "
                 f"in tables, {len(loose)} data file(s) named by deletion vectors outside any table")
    shown = [d for d in s["deletes"] if d.get("deleted_share") is not None]
    for d in shown[:5]:
        where = f" (table {d['table']})" if d.get("table") else " (outside any table)"
        name = d["data_file"] or d["referenced_data_file"]
        lines.append(f"  {d['deleted_share']:>7.1%} of {d['row_count']:,} rows deleted in {name}{where}")
    if len(shown) > 5:
        lines.append(f"  (5 of {len(shown):,} shown)")
    if s["ndv_mismatch"]:
        lines.append(f"theta: {s['ndv_mismatch_total']} blob(s) whose ndv disagrees with the sketch, e.g. {s['ndv_mismatch'][0]['file']}")
    if res.report:
        lines.append(f"report: {res.report}")
    if res.seconds:
        lines.append("time: " + ", ".join(f"{k} {v:.1f} s" for k, v in res.seconds.items()))
    return "\n".join(lines)


def main_job(
    paths: Sequence[str],
    out: str,
    *,
    master: str,
    report: str | None,
    progress: bool,
    engine: str = "auto",
    overwrite: bool = False,
    echo: Callable[[str], None] = print,
) -> InventoryResult:
    """What ``lakestruct inventory`` does: arguments and paths checked and the files listed before anything starts;
    then the job on this process (a small lake on a local master) or on a Spark session; then the summary."""
    local_out = check_out(out, overwrite=overwrite)
    if report and _is_url(report):
        raise UsageError(f"--report {report}: the report is written to a local file")
    t0 = time.monotonic()
    inputs = list_files(list(paths))
    listing = round(time.monotonic() - t0, 2)
    chosen, why = choose_engine(engine, master, inputs)
    spark = None
    seconds: dict[str, float] = {"listing": listing}
    if chosen == "spark":
        from .env import session

        t0 = time.monotonic()
        if progress:
            print(f"inventory: starting Spark on {master} ({why})", file=sys.stderr, flush=True)
        spark = session(master, app_name="lakestruct inventory", register=False)  # rdd.map only: no source to register
        seconds["session start"] = round(time.monotonic() - t0, 2)
    elif progress:
        print(f"inventory: in this process, without Spark ({why})", file=sys.stderr, flush=True)
    res = run(paths, local_out, spark, report=report, progress=progress, inputs=inputs, overwrite=True)
    res.seconds = {**seconds, **res.seconds}
    res.engine, res.engine_reason = chosen, why
    echo(format_summary(res.summary, res))
    return res


__all__ += ["choose_engine", "loose_deletes", "main_job", "to_ipc"]
