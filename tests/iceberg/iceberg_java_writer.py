"""Writes Iceberg tables with Iceberg Java 1.10 (Spark 3.5, Hadoop catalog) and dumps what Iceberg itself says of them.

Run by the PySpark 3.5 venv that tests/iceberg/iceberg_java_env.py builds (never by lakestruct's own venv, and it
imports nothing of lakestruct):

    VENV35_PYTHON iceberg_java_writer.py JARS OUT [TABLE...]

writes ``OUT/warehouse/db/<table>`` and ``OUT/<table>.json`` for each table (all of :data:`TABLES` by default). Every
fact in the JSON comes from Iceberg itself: its metadata tables, queries, procedures and scan planning; paths are as
Iceberg writes them (``file:/...``). The keys of ``<table>.json``:

- ``location``, ``format_version``, ``metadata_location`` (current), ``metadata_log`` (``metadata_log_entries``),
  ``current_snapshot_id``, ``snapshots`` (the ``snapshots`` table, oldest first: snapshot_id, parent_id, operation,
  summary, committed_at, manifest_list), ``refs`` (as the metadata file holds them);
- ``current``, ``earlier`` (an earlier snapshot, ``VERSION AS OF``) and ``tags`` ({tag: ...}) are states:
  ``snapshot_id``, ``data_files`` / ``delete_files`` (the metadata tables: content, file_path, file_format, spec_id,
  partition, record_count, file_size_in_bytes, referenced_data_file, content_offset, content_size_in_bytes,
  first_row_id), ``live_rows`` ({data file: rows Iceberg reads from it, ``_file``}), ``deleted_positions`` ({data
  file: [0, record_count) minus the ``_pos`` it reads}), ``planned_deletes`` ({data file: [[delete file,
  content_offset], ...] from ``newScan().useSnapshot(id).planFiles()``}), ``entries`` (the ``entries`` table: status,
  snapshot_id, sequence_number, file_sequence_number, content, file_path, content_offset); ``earlier`` also has
  ``metadata_location`` (the metadata file that was current then);
- ``all_files``, ``all_manifests`` (paths, every retained snapshot), ``orphans`` (``remove_orphan_files``' dry run),
  ``statistics``, ``partition_statistics`` (as the metadata file holds them), ``calls`` (what the procedures returned),
  ``strays`` (the orphans made on purpose), ``iceberg`` and ``spark`` (versions).
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import os
import shutil
import sys
import time
import uuid
from pathlib import Path
from typing import Any

N = 200_000  # rows of the big tables
TABLES = ("v3_dv", "v2_posdel", "compacted", "expired", "partitioned_stats")
FUTURE = "TIMESTAMP '2999-01-01 00:00:00'"  # older_than for expire_snapshots: every snapshot counts as old
AGED_DAYS = 10  # remove_orphan_files refuses older_than within 24 h of now: the table's files are aged this many days
MOR = ("'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read', "
       "'write.merge.mode'='merge-on-read'")  # fmt: skip


def session(jars: str, warehouse: Path) -> Any:
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    return (SparkSession.builder.master("local[2]").appName("lakestruct-iceberg-oracle")
            .config("spark.jars", jars)
            .config("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
            .config("spark.sql.catalog.local", "org.apache.iceberg.spark.SparkCatalog")
            .config("spark.sql.catalog.local.type", "hadoop")
            .config("spark.sql.catalog.local.warehouse", "file:" + str(warehouse))  # paths are written file:/...
            .config("spark.sql.shuffle.partitions", "2").config("spark.default.parallelism", "2")
            .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").config("spark.driver.memory", "1g")
            .config("spark.sql.session.timeZone", "UTC")
            # short jobs on a small machine: the JIT's C2 compiler and parallel GC threads cost more CPU than they save
            .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .getOrCreate())  # fmt: skip


def plain(v: Any) -> Any:
    """A Spark value as JSON: rows and maps as dicts, dates and timestamps as ISO strings, bytes as hex."""
    if hasattr(v, "asDict"):
        return {k: plain(x) for k, x in v.asDict().items()}
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, (dt.datetime, dt.date)):
        return v.isoformat()
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if isinstance(v, decimal.Decimal):
        return str(v)
    return v


FILE_COLS = ("content", "file_path", "file_format", "spec_id", "partition", "record_count", "file_size_in_bytes",
             "referenced_data_file", "content_offset", "content_size_in_bytes", "first_row_id")  # fmt: skip


def files(spark: Any, t: str, kind: str, sid: int | None) -> list[dict]:
    at = f" VERSION AS OF {sid}" if sid is not None else ""
    df = spark.sql(f"SELECT * FROM local.db.{t}.{kind}{at}")
    cols = [c for c in FILE_COLS if c in df.columns]
    rows = [plain(r) for r in df.select(*cols).collect()]
    return sorted(rows, key=lambda r: (r["file_path"], r.get("content_offset") or 0))


def state(spark: Any, t: str, sid: int) -> dict:
    """What Iceberg says is live at snapshot ``sid``."""
    data = files(spark, t, "data_files", sid)
    deletes = files(spark, t, "delete_files", sid)
    live = spark.sql(f"SELECT _file, _pos FROM local.db.{t} VERSION AS OF {sid}").toPandas()
    rows: dict[str, int] = {}
    deleted: dict[str, list[int]] = {}
    for f in data:
        pos = live.loc[live["_file"] == f["file_path"], "_pos"]
        rows[f["file_path"]] = len(pos)
        gone = sorted(set(range(f["record_count"])) - set(int(p) for p in pos))
        deleted[f["file_path"]] = gone
    unknown = set(live["_file"]) - set(rows)
    assert not unknown, f"rows read from files data_files does not list: {unknown}"
    grouped = {r["_file"]: r["n"] for r in spark.sql(
        f"SELECT _file, count(*) AS n FROM local.db.{t} VERSION AS OF {sid} GROUP BY _file").collect()}  # fmt: skip
    assert grouped == {k: v for k, v in rows.items() if v}, "count(*) per _file disagrees with _pos"
    entries = sorted((plain(r) for r in spark.sql(
        f"SELECT status, snapshot_id, sequence_number, file_sequence_number, data_file.content AS content, "
        f"data_file.file_path AS file_path, data_file.content_offset AS content_offset "
        f"FROM local.db.{t}.entries VERSION AS OF {sid}").collect()),
        key=lambda r: (r["file_path"], r["content_offset"] or 0, r["status"]))  # fmt: skip
    return {"snapshot_id": sid, "data_files": data, "delete_files": deletes, "live_rows": rows,
            "deleted_positions": deleted, "planned_deletes": planned_deletes(spark, t, sid), "entries": entries}  # fmt: skip


def planned_deletes(spark: Any, t: str, sid: int) -> dict[str, list[list]]:
    """Iceberg Java's own scan plan (``Table.newScan().useSnapshot(sid).planFiles()``): for each live data file, the
    delete files it applies to it, as [location, content_offset] (content_offset: a DV's place in its Puffin file)."""
    jvm = spark.sparkContext._jvm
    table = jvm.org.apache.iceberg.spark.Spark3Util.loadIcebergTable(spark._jsparkSession, f"local.db.{t}")
    tasks = table.newScan().useSnapshot(sid).planFiles()
    out: dict[str, list[list]] = {}
    try:
        it = tasks.iterator()
        while it.hasNext():
            task = it.next()
            out[task.file().location()] = sorted([d.location(), d.contentOffset()] for d in task.deletes())
    finally:
        tasks.close()
    return out


def local(path: str) -> Path:
    """A ``file:/...`` (or ``file:///...``) location as a local path."""
    return Path("/" + path.removeprefix("file:").lstrip("/"))


def orphan_files(spark: Any, t: str, root: Path) -> list[str]:
    """What remove_orphan_files would delete (dry run). It only considers files older than ``older_than``, which it
    wants at least a day in the past: every file under the table is aged first (as if written AGED_DAYS ago), so
    every file is a candidate; hidden files (``.crc``) are skipped by Iceberg itself."""
    aged = time.time() - AGED_DAYS * 86400
    for p in root.rglob("*"):
        if p.is_file():
            os.utime(p, (aged, aged))
    cutoff = dt.datetime.fromtimestamp(time.time() - 2 * 86400, dt.UTC).strftime("%Y-%m-%d %H:%M:%S")
    return sorted(r[0] for r in spark.sql(f"CALL local.system.remove_orphan_files(table => 'db.{t}', "
                                          f"older_than => TIMESTAMP '{cutoff}', dry_run => true)").collect())  # fmt: skip


def metadata_file_of(log: list[dict], sid: int | None) -> str:
    """The last metadata file whose current snapshot is ``sid`` (None: the current metadata file)."""
    if sid is None:
        return log[-1]["file"]
    return [e for e in log if e["latest_snapshot_id"] == sid][-1]["file"]


def truth(spark: Any, t: str, earlier: int | None, extra: dict) -> dict:
    snaps = [plain(r) for r in spark.sql(
        f"SELECT snapshot_id, parent_id, operation, summary, committed_at, manifest_list FROM local.db.{t}.snapshots "
        "ORDER BY committed_at").collect()]  # fmt: skip
    log = [plain(r) for r in spark.sql(f"SELECT * FROM local.db.{t}.metadata_log_entries ORDER BY timestamp").collect()]
    current = log[-1]["latest_snapshot_id"]
    meta_path = metadata_file_of(log, None)
    orphans = orphan_files(spark, t, local(meta_path).parent.parent)
    meta = json.loads(local(meta_path).read_text())
    out = {
        "table": t,
        "location": meta["location"],
        "format_version": meta["format-version"],
        "metadata_location": meta_path,
        "metadata_log": log,
        "current_snapshot_id": current,
        "snapshots": snaps,
        "current": state(spark, t, current),
        "earlier": None,
        "all_files": sorted({r[0] for r in spark.sql(f"SELECT file_path FROM local.db.{t}.all_files").collect()}),
        "all_manifests": sorted({r[0] for r in spark.sql(f"SELECT path FROM local.db.{t}.all_manifests").collect()}),
        "orphans": orphans,
        "statistics": meta.get("statistics", []),
        "partition_statistics": meta.get("partition-statistics", []),
        "refs": meta.get("refs", {}),
        "tags": {},
        **extra,
    }
    for name, ref in meta.get("refs", {}).items():
        if ref["type"] == "tag":
            out["tags"][name] = state(spark, t, ref["snapshot-id"])
    if earlier is not None:
        out["earlier"] = state(spark, t, earlier) | {"metadata_location": metadata_file_of(log, earlier)}
    return out


def snapshot_id(spark: Any, t: str) -> int:
    return int(spark.sql(f"SELECT snapshot_id FROM local.db.{t}.snapshots ORDER BY committed_at DESC LIMIT 1").first()[0])


def rows(spark: Any, n: int, parts: int, start: int = 0) -> Any:
    return spark.range(start, start + n, 1, parts).selectExpr(
        "id", "concat('c', CAST(id % 7 AS STRING)) AS cat", "CAST(id * 0.5 AS DOUBLE) AS v",
        "TIMESTAMP '2026-11-20 00:00:00' + make_interval(0, 0, 0, 0, CAST(id % 48 AS INT), 0, 0) AS ts")  # fmt: skip


def create(spark: Any, t: str, version: int, props: str = "", partitioned_by: str = "") -> None:
    spark.sql(f"DROP TABLE IF EXISTS local.db.{t}")
    spark.sql(f"CREATE TABLE local.db.{t} (id bigint, cat string, v double, ts timestamp) USING iceberg "
              f"{partitioned_by} TBLPROPERTIES ('format-version'='{version}', {MOR}{props})")  # fmt: skip


def v3_dv(spark: Any) -> tuple[int | None, dict]:
    """Format v3: ~200,000 rows in 4 files; two DELETEs hitting the same files (the second DV of each file replaces
    the first and holds its positions too), then an UPDATE (a third DV generation plus a new data file)."""
    create(spark, "v3_dv", 3)
    rows(spark, N, 4).writeTo("local.db.v3_dv").append()
    spark.sql("DELETE FROM local.db.v3_dv WHERE id % 10 = 3")
    earlier = snapshot_id(spark, "v3_dv")
    spark.sql("DELETE FROM local.db.v3_dv WHERE id % 7 = 2")
    spark.sql("UPDATE local.db.v3_dv SET v = -1 WHERE id % 1000 = 5")
    return earlier, {}


def v2_posdel(spark: Any) -> tuple[int | None, dict]:
    """Format v2: position delete files (Parquet), partition-scoped (one delete file names several data files), two
    DELETEs; the second adds a second delete file on the same data files."""
    create(spark, "v2_posdel", 2, ", 'write.delete.granularity'='partition'")
    rows(spark, N, 3).writeTo("local.db.v2_posdel").append()
    spark.sql("DELETE FROM local.db.v2_posdel WHERE id % 10 = 3")
    earlier = snapshot_id(spark, "v2_posdel")
    spark.sql("DELETE FROM local.db.v2_posdel WHERE id % 7 = 2")
    return earlier, {}


def compacted(spark: Any) -> tuple[int | None, dict]:
    """Format v2: two appends, two DELETEs with file-scoped position deletes (the second file of each data file
    replaces the first, as DVs do), then rewrite_data_files (rewrite-all: one data file, the deletes applied), two
    more DELETEs, and rewrite_position_delete_files: none of the earlier data or delete files is live any more."""
    create(spark, "compacted", 2, ", 'write.delete.granularity'='file'")
    rows(spark, N // 2, 2).writeTo("local.db.compacted").append()
    rows(spark, N // 2, 2, start=N // 2).writeTo("local.db.compacted").append()
    spark.sql("DELETE FROM local.db.compacted WHERE id % 10 = 3")
    spark.sql("DELETE FROM local.db.compacted WHERE id % 10 = 4")
    earlier = snapshot_id(spark, "compacted")
    calls = {"rewrite_data_files": [plain(r) for r in spark.sql(
        "CALL local.system.rewrite_data_files(table => 'db.compacted', "
        "options => map('rewrite-all', 'true', 'remove-dangling-deletes', 'true'))").collect()]}  # fmt: skip
    spark.sql("DELETE FROM local.db.compacted WHERE id % 10 = 5")
    spark.sql("DELETE FROM local.db.compacted WHERE id % 10 = 6")
    calls["rewrite_position_delete_files"] = [plain(r) for r in spark.sql(
        "CALL local.system.rewrite_position_delete_files(table => 'db.compacted', "
        "options => map('rewrite-all', 'true'))").collect()]  # fmt: skip
    return earlier, {"calls": calls}


def expired(spark: Any, out: Path) -> tuple[int | None, dict]:
    """Format v3: four commits, the second one tagged (``two_appends``: expire_snapshots keeps it), expire_snapshots
    (retain_last 1), one more append (its parent is the kept snapshot);
    then orphans made on purpose: a real Parquet file named like a data file in data/, a copy of a manifest under a
    new name in metadata/."""
    create(spark, "expired", 3)
    rows(spark, N // 4, 1).writeTo("local.db.expired").append()
    rows(spark, N // 4, 1, start=N // 4).writeTo("local.db.expired").append()
    spark.sql(f"ALTER TABLE local.db.expired CREATE TAG two_appends AS OF VERSION {snapshot_id(spark, 'expired')} "
              "RETAIN 3650 DAYS")  # fmt: skip
    spark.sql("DELETE FROM local.db.expired WHERE id % 10 = 3")
    spark.sql("DELETE FROM local.db.expired WHERE id < 1000")
    calls = {"expire_snapshots": [plain(r) for r in spark.sql(
        f"CALL local.system.expire_snapshots(table => 'db.expired', older_than => {FUTURE}, retain_last => 1)").collect()]}  # fmt: skip
    earlier = snapshot_id(spark, "expired")
    rows(spark, 1000, 1, start=N).writeTo("local.db.expired").append()
    root = out / "warehouse" / "db" / "expired"
    import pyarrow as pa
    import pyarrow.parquet as pq

    stray_data = root / "data" / f"00000-9-{uuid.uuid4()}-0-00001.parquet"
    pq.write_table(pa.table({"id": pa.array(range(10), pa.int64())}), stray_data)
    manifest = sorted((root / "metadata").glob("*-m0.avro"))[0]
    stray_meta = root / "metadata" / f"{uuid.uuid4()}-m0.avro"
    shutil.copyfile(manifest, stray_meta)
    return earlier, {"calls": calls, "strays": [str(stray_data), str(stray_meta)]}


def partitioned_stats(spark: Any) -> tuple[int | None, dict]:
    """Format v3, partitioned by identity(cat) and day(ts), then also bucket(3, id) (partition evolution: live files
    under two specs); DVs from two DELETEs; compute_table_stats (a Puffin file of Theta sketches, in the metadata's
    ``statistics``) and compute_partition_stats when this Iceberg has it."""
    create(spark, "partitioned_stats", 3, partitioned_by="PARTITIONED BY (cat, days(ts))")
    rows(spark, N // 4, 2).writeTo("local.db.partitioned_stats").append()
    spark.sql("DELETE FROM local.db.partitioned_stats WHERE id % 10 = 3")
    earlier = snapshot_id(spark, "partitioned_stats")
    spark.sql("ALTER TABLE local.db.partitioned_stats ADD PARTITION FIELD bucket(3, id)")  # a second partition spec
    rows(spark, N // 20, 1, start=N).writeTo("local.db.partitioned_stats").append()
    spark.sql("DELETE FROM local.db.partitioned_stats WHERE id % 9 = 1")  # files of both specs
    calls = {"compute_table_stats": [plain(r) for r in spark.sql(
        "CALL local.system.compute_table_stats(table => 'db.partitioned_stats')").collect()]}  # fmt: skip
    try:
        calls["compute_partition_stats"] = [plain(r) for r in spark.sql(
            "CALL local.system.compute_partition_stats(table => 'db.partitioned_stats')").collect()]  # fmt: skip
    except Exception as e:  # older runtimes lack the procedure: then the table has no partition statistics
        calls["compute_partition_stats"] = f"unavailable: {str(e).splitlines()[0][:200]}"
    return earlier, {"calls": calls}


def main() -> None:
    jars, out = sys.argv[1], Path(sys.argv[2]).resolve()
    wanted = sys.argv[3:] or list(TABLES)
    out.mkdir(parents=True, exist_ok=True)
    spark = session(jars, out / "warehouse")
    spark.sparkContext.setLogLevel("ERROR")
    version = spark.sparkContext._jvm.org.apache.iceberg.IcebergBuild.fullVersion()
    for t in wanted:
        t0 = time.monotonic()
        earlier, extra = expired(spark, out) if t == "expired" else globals()[t](spark)
        doc = truth(spark, t, earlier, extra | {"iceberg": version, "spark": spark.version})
        part = out / f"{t}.json.part"
        part.write_text(json.dumps(doc, indent=1, sort_keys=True))
        part.replace(out / f"{t}.json")
        print(f"{t}: {len(doc['current']['data_files'])} data files, {len(doc['current']['delete_files'])} delete files, "
              f"{len(doc['snapshots'])} snapshots, {len(doc['orphans'])} orphans ({time.monotonic() - t0:.1f} s)", flush=True)  # fmt: skip
    jvm_pid = spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid()
    print(f"cpu: jvm {cpu_seconds(int(jvm_pid)):.1f} s, python {sum(os.times()[:2]):.1f} s", flush=True)
    spark.stop()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
