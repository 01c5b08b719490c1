"""The sources on Spark equal the plain single-process loop; the inventory job, end to end (one shared session)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from lakestruct.cli import main as cli_main
from lakestruct.spark import SOURCES, full_schema, source
from lakestruct.spark.listing import list_files
from lakestruct.spark.rowsource import plain_loop

REPO = Path(__file__).resolve().parents[2]
#: the sources that read a lake's files as they are (the kaitai source needs a spec: tests/spark/test_kaitai_spark.py)
LAKE_SOURCES = sorted(n for n in SOURCES if n != "kaitai")


def _key(row: dict[str, Any]) -> str:
    return json.dumps(row, sort_keys=True, default=repr)


def normalized(rows: list[dict[str, Any]], root: str = "") -> list[dict[str, Any]]:
    """Rows sorted, with the lake's root cut from paths and messages (to compare a local and an S3 run)."""
    out = []
    for r in rows:
        r = {k: (v.replace(root, "<lake>") if root and k in ("file", "error") and isinstance(v, str) else v) for k, v in r.items()}
        out.append(r)
    return sorted(out, key=_key)


def plain(name: str, paths: list[str], **options: str) -> list[dict[str, Any]]:
    src = source(name)
    t = pa.Table.from_batches(list(plain_loop(src, paths, options)), schema=full_schema(src, options))
    rows: list[dict[str, Any]] = t.to_pylist()
    return rows


def on_spark(spark: Any, name: str, paths: list[str], **options: str) -> list[dict[str, Any]]:
    df = spark.read.format(name).options(**options).load(paths if len(paths) > 1 else paths[0])
    rows: list[dict[str, Any]] = df.toArrow().to_pylist()
    return rows


@pytest.fixture(scope="module")
def lake_paths(demo_lake: Path, corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    import tarfile

    import zstandard

    delta = tmp_path_factory.mktemp("delta")  # a Delta golden table (Delta Spark, a replaced deletion vector)
    archive = corpus / "delta-kernel-rs" / "compacted-log-files-table.tar.zst"
    with archive.open("rb") as f, zstandard.ZstdDecompressor().stream_reader(f) as raw, tarfile.open(fileobj=raw, mode="r|") as tf:
        tf.extractall(delta, filter="data")
    return [
        str(delta),
        str(demo_lake),
        str(corpus / "generated-seed1"),
        str(corpus / "puffin-tools"),
        str(corpus / "iceberg"),
        str(corpus / "parquet-testing" / "bad_data"),
        str(corpus / "parquet-testing" / "data" / "alltypes_tiny_pages.parquet"),
    ]


@pytest.mark.parametrize("name", LAKE_SOURCES)
def test_spark_rows_equal_the_plain_loop(spark: Any, lake_paths: list[str], name: str) -> None:
    theirs = on_spark(spark, name, lake_paths)
    mine = plain(name, lake_paths)
    assert len(theirs) == len(mine) > 0
    assert normalized(theirs) == normalized(mine)
    assert spark.read.format(name).load(lake_paths).columns == full_schema(source(name), {}).names


@pytest.mark.parametrize("options", [{"positions": "true"}, {"explode": "true"}])
def test_deletion_vector_options_on_spark(spark: Any, lake_paths: list[str], options: dict[str, str]) -> None:
    theirs = on_spark(spark, "deletion_vectors", lake_paths, **options)
    assert normalized(theirs) == normalized(plain("deletion_vectors", lake_paths, **options))
    if "explode" in options:
        counted = spark.read.format("deletion_vectors").load(lake_paths).where("error_rule is null").groupBy().sum("cardinality").first()[0]
        assert sum(1 for r in theirs if r["error_rule"] is None) == counted


def test_many_small_files_go_many_to_a_task(spark: Any, demo_lake: Path) -> None:
    df = spark.read.format("lake_files").option("min_partitions", "2").load(str(demo_lake))
    n_files = len(list_files([str(demo_lake)]))
    assert 2 <= df.rdd.getNumPartitions() <= n_files // 2  # several files per task
    assert df.count() == n_files


def test_bad_options_and_missing_paths_fail_clearly(spark: Any, tmp_path: Path) -> None:
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException

    with pytest.raises((PySparkException, Py4JJavaError), match="option explode must be true or false"):
        spark.read.format("deletion_vectors").option("explode", "maybe").load(str(tmp_path)).count()
    with pytest.raises((PySparkException, Py4JJavaError), match="no such file or folder"):
        spark.read.format("puffin").load(str(tmp_path / "missing")).count()


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.urls: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.urls += [v or "" for k, v in attrs if k in ("src", "href")]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture(scope="module")
def inventory(spark: Any, demo_lake: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``lakestruct inventory`` run in this process: the CLI's session builder returns the shared session."""
    out = tmp_path_factory.mktemp("inventory") / "out"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = cli_main(["inventory", str(demo_lake), "--out", str(out), "--quiet", "--engine", "spark"])
    assert rc == 0
    return {"out": out, "stdout": buf.getvalue()}


def _table(out: Path, name: str) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    rows: list[dict[str, Any]] = pq.read_table(out / name).to_pylist()
    return rows


def test_inventory_writes_every_table_and_they_equal_the_sources(inventory: dict[str, Any], demo_lake: Path) -> None:
    out = inventory["out"]
    for table, src in (
        ("files", "lake_files"),
        ("puffin_blobs", "puffin"),
        ("deletion_vectors", "deletion_vectors"),
        ("parquet_chunks", "parquet_chunks"),
        ("parquet_pages", "parquet_pages"),
    ):
        assert normalized(_table(out, table)) == normalized(plain(src, [str(demo_lake)])), table
    files = _table(out, "files")
    broken = {Path(r["file"]).name: r["error_rule"] for r in files if r["ok"] is False}
    assert broken.keys() == {
        "truncated.parquet",
        "bad-crc.dv.bin",
        "wrong-cardinality.puffin",
        "garbage-page-header.parquet",
        "snap-1.stats.puffin",
    }
    assert broken["bad-crc.dv.bin"] == "deletion-vector.crc"
    assert broken["snap-1.stats.puffin"] == "theta_compact.ndv-mismatch"


def test_data_file_deletes_give_the_deleted_share_of_each_data_file(inventory: dict[str, Any], demo_lake: Path) -> None:
    import pyarrow.parquet as pq

    rows = {Path(r["referenced_data_file"]).name: r for r in _table(inventory["out"], "data_file_deletes")}
    for name, share in (("00000-0-indexed.parquet", 0.25), ("00001-0-tiny-pages.parquet", 0.02), ("00002-0-dict-fallback.parquet", 0.05)):
        r = rows[name]
        data = demo_lake / "warehouse/db/orders/data" / name
        assert r["data_file"] == str(data) and r["match"] == "file_name"
        assert r["row_count"] == pq.ParquetFile(data).metadata.num_rows
        assert r["deleted_share"] == pytest.approx(share)
        assert r["vectors"] == 1 and r["positions_past_end"] is False
    gone = rows["00099-0-not-scanned.parquet"]
    assert gone["data_file"] is None and gone["row_count"] is None and gone["deleted_share"] is None and gone["deleted_rows"] == 3
    # the broken DV (wrong cardinality) is not counted
    assert "00003-0-uncompressed.parquet" not in rows


def test_inventory_summary_and_report(inventory: dict[str, Any]) -> None:
    text = inventory["stdout"]
    assert "errors by rule:" in text and "deletion-vector.crc" in text and "25.0% of 5,000 rows deleted" in text
    report = inventory["out"] / "report.html"
    page = _Page()
    page.feed(report.read_text(encoding="utf-8"))
    assert page.tags.count("svg") >= 3  # page sizes, deleted share, errors by rule
    assert not [u for u in page.urls if re.match(r"^(https?:)?//", u)], "the report must not load anything"
    assert "script" not in page.tags
    body = " ".join(page.text)
    assert "00000-0-indexed.parquet" in body and "theta_compact.ndv-mismatch" in body


def test_inventory_on_spark_equals_the_plain_loop(inventory: dict[str, Any], demo_lake: Path, tmp_path: Path) -> None:
    """The same tasks run in this process (no Spark) write the same rows as on Spark."""
    from lakestruct.spark.inventory import TABLES, run

    run([str(demo_lake)], str(tmp_path / "local"), progress=False)
    for table in TABLES:
        assert normalized(_table(tmp_path / "local", table)) == normalized(_table(inventory["out"], table)), table


def test_inventory_on_s3_equals_the_local_run(spark: Any, s3: Any, inventory: dict[str, Any], demo_lake: Path, tmp_path: Path) -> None:
    from lakestruct.spark import demolake
    from lakestruct.spark.inventory import run

    fs = s3.fs()
    bucket = demolake.BUCKET
    if not fs.exists(bucket):
        fs.mkdir(bucket)
    fs.put(str(demo_lake) + "/", f"{bucket}/", recursive=True)
    res = run([f"s3://{bucket}/"], str(tmp_path / "s3-out"), spark, progress=False)
    local_root, s3_root = str(demo_lake), f"s3://{bucket}"
    for table in ("files", "puffin_blobs", "deletion_vectors", "parquet_chunks", "parquet_pages"):
        theirs = normalized(_table(tmp_path / "s3-out", table), s3_root)
        mine = normalized(_table(inventory["out"], table), local_root)
        assert theirs == mine, table
    dfd = {r["referenced_data_file"]: r for r in _table(tmp_path / "s3-out", "data_file_deletes")}
    local = {r["referenced_data_file"]: r for r in _table(inventory["out"], "data_file_deletes")}
    assert dfd.keys() == local.keys()
    for ref, r in dfd.items():
        # on the bucket the DV's locations name the scanned files exactly
        # a table's rows come from its live state (match "table") on the bucket too; loose vectors name the files exactly
        assert r["match"] == ("table" if local[ref]["match"] == "table" else "path" if local[ref]["match"] else None)
        assert {k: v for k, v in r.items() if k not in ("match", "data_file", "dv_files", "table")} == {
            k: v for k, v in local[ref].items() if k not in ("match", "data_file", "dv_files", "table")
        }
    assert res.tables["files"] == len(list_files([str(demo_lake)]))


def test_s3_reads_are_ranges_a_small_fraction_of_a_large_parquet_file(spark: Any, s3: Any, tmp_path: Path) -> None:
    import numpy as np
    import pyarrow.parquet as pq

    rng = np.random.default_rng(3)
    n = 600_000  # 14 MB in 3 row groups of 3 chunks, 25 pages each (64 KiB pages): many small reads, few bytes
    table = pa.table({"a": rng.integers(0, 2**62, n), "b": rng.random(n), "c": rng.integers(0, 2**40, n)})
    local = tmp_path / "big.parquet"
    pq.write_table(table, local, compression="none", write_page_index=True, row_group_size=200_000, data_page_size=64 * 1024)
    size = local.stat().st_size
    assert size > 10_000_000
    fs = s3.fs()
    if not fs.exists("big-bucket"):
        fs.mkdir("big-bucket")
    fs.put(str(local), "big-bucket/t/big.parquet")
    s3.reset()
    url = "s3://big-bucket/t/big.parquet"
    pages = on_spark(spark, "parquet_pages", [url])
    chunks = on_spark(spark, "parquet_chunks", [url])
    files = on_spark(spark, "lake_files", [url])
    fetched = s3.served["big-bucket/t/big.parquet"]
    assert len(pages) == len(plain("parquet_pages", [str(local)])) > 100 and len(chunks) == 9
    assert files[0]["ok"] is True
    assert fetched < 0.05 * size, f"fetched {fetched:,} of {size:,} bytes"


def test_nothing_depends_on_driver_only_state_local_cluster(demo_lake: Path, corpus: Path, tmp_path: Path) -> None:
    """Separate executor JVMs (and their Python workers): rows equal the plain loop, for every lake source, for
    paimon_files over Paimon tables and for the kaitai source over pcap files (all written to Parquet)."""
    from tests.kaitai.conftest import write_pcap

    paths = [str(demo_lake), str(corpus / "generated-seed1" / "iceberg")]
    paimon_tables = [str(corpus / "generated-seed1" / "paimon" / "tables")]
    captures = tmp_path / "captures"
    captures.mkdir()
    for i in range(4):
        write_pcap(captures / f"c{i}.pcap", n=10 + i)
    gallery = corpus / "kaitai-formats"
    kaitai = {"spec": str(gallery / "network/pcap.ksy"), "import_path": str(gallery), "root": "packets"}
    out = tmp_path / "cluster"
    script = f"""
import json, sys
from lakestruct.spark.env import session
spark = session("local-cluster[2,1,1024]", app_name="lakestruct-local-cluster")
assert spark.sparkContext.master.startswith("local-cluster")
for name in {LAKE_SOURCES!r}:
    spark.read.format(name).option("min_partitions", "4").load({paths!r}).write.mode("overwrite").parquet({str(out)!r} + "/" + name)
spark.read.format("paimon_files").option("min_partitions", "4").load({paimon_tables!r}).write.parquet({str(out)!r} + "/paimon_tables")
packets = spark.read.format("kaitai").options(**{kaitai!r}).option("min_partitions", "4").load({str(captures)!r})
packets.write.parquet({str(out)!r} + "/kaitai")  # a type with no fields must not stop the Parquet writer
spark.stop()
"""
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1"}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, env=env, check=False)
    assert proc.returncode == 0, proc.stderr[-4000:]
    for name in LAKE_SOURCES:
        assert normalized(_table(out, name)) == normalized(plain(name, paths)), name
    tables = normalized(_table(out, "paimon_tables"))
    assert len(tables) > 10 and tables == normalized(plain("paimon_files", paimon_tables))
    from lakestruct.spark.rowsource import prepared_options

    src = source("kaitai")
    prepared = prepared_options(src, kaitai)
    mine = pa.Table.from_batches(list(plain_loop(src, [str(captures)], kaitai)), schema=full_schema(src, prepared)).to_pylist()
    packets = _table(out, "kaitai")
    assert len(packets) == 10 + 11 + 12 + 13
    key = lambda r: (r["file"], r["__index"])  # noqa: E731
    assert sorted(packets, key=key) == sorted(mine, key=key)


def test_missing_java_is_one_clear_line(tmp_path: Path) -> None:
    bindir = Path(sys.executable).parent
    env = {k: v for k, v in os.environ.items() if k not in ("JAVA_HOME",)}
    env["PATH"] = str(bindir)  # the venv only: no java
    proc = subprocess.run(
        [str(bindir / "lakestruct"), "inventory", str(tmp_path), "--out", str(tmp_path / "o"), "--engine", "spark"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Java 17" in lines[0] and "install" in lines[0], proc.stderr
