"""The inventory job without Spark: one pass per file equals the per-source rows, table answers from live state,
``--out`` and argument checks before anything starts, the engine choice, one line on Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import lakestruct as ls
from lakestruct.cli import main as cli_main
from lakestruct.source import list_files
from lakestruct.spark import full_schema, source
from lakestruct.spark.inventory import MARKER, run
from lakestruct.spark.onepass import FILE_TABLES, file_task
from lakestruct.spark.rowsource import plain_loop

LAKESTRUCT = str(Path(sys.executable).parent / "lakestruct")


def _key(row: dict[str, Any]) -> str:
    return json.dumps(row, sort_keys=True, default=repr)


def _table(out: Path, name: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(out / name).to_pylist()
    return rows


def test_one_pass_rows_equal_the_sources_on_the_shared_corpus(corpus: Path) -> None:
    """Each file read once, every file-level table's rows from that read: the very rows each source gives alone."""
    inputs = list_files([str(corpus)])
    one_pass = file_task(inputs, {})
    paths = [str(corpus)]
    for table, (src, _) in FILE_TABLES.items():
        alone = pa.Table.from_batches(list(plain_loop(src, paths, {})), schema=full_schema(src, {})).to_pylist()
        mine = one_pass[table].to_pylist()
        assert len(mine) == len(alone) > 0, table
        assert sorted(mine, key=_key) == sorted(alone, key=_key), table


def _golden_warehouse(corpus: Path, tmp: Path) -> Path:
    archive = corpus / "paimon/paimon-python/pypaimon/tests/resources/pk_global_index_golden.tar.gz"
    with tarfile.open(archive) as tf:
        tf.extractall(tmp, filter="data")
    return tmp


def test_paimon_tables_are_counted_from_their_live_state(corpus: Path, tmp_path: Path) -> None:
    """Deleted rows of Paimon tables come from each table's latest snapshot (its index manifest's vectors), never
    from every DV index file on storage: before, the inventory said '18 deletion vectors over 0 data files'."""
    lake = tmp_path / "lake"
    lake.mkdir()
    _golden_warehouse(corpus, lake / "golden")
    seed = corpus / "generated-seed1" / "paimon" / "tables"
    out = tmp_path / "out"
    res = run([str(lake), str(seed)], str(out), progress=False)
    tables = {r["table"]: r for r in _table(out, "tables")}
    found = ls.tables.find_roots(p for p, _ in list_files([str(lake), str(seed)]))
    assert set(tables) == set(found) and len(found) >= 5
    dfd = _table(out, "data_file_deletes")
    checked = 0
    for root, fmt in found.items():
        assert fmt == "paimon"
        t = ls.paimon.open_table(root)
        live = t.live_files()
        dvs = t.deletion_vectors()
        row = tables[root]
        assert row["error_rule"] is None, row
        assert row["snapshot_id"] == t.latest_snapshot_id()
        assert row["data_files"] == len(live)
        assert row["record_count"] == sum(f.row_count for f in live)
        assert row["deleted_rows"] == sum(int(p.size) for p in dvs.values())
        assert row["delete_files"] == len(dvs)
        mine = {r["referenced_data_file"]: r for r in dfd if r["table"] == root}
        assert mine.keys() == dvs.keys()
        for path, pos in dvs.items():
            r = mine[path]
            n = next(f.row_count for f in live if f.path == path)
            assert (r["deleted_rows"], r["row_count"], r["match"]) == (int(pos.size), n, "table")
            assert r["deleted_share"] == pytest.approx(pos.size / n)
            checked += 1
    assert checked >= 4  # de_dv has four data files with vectors
    # the tables' own DV index files are not counted again as loose vectors
    assert not [r for r in dfd if r["table"] is None and "/index/" in "".join(r["dv_files"])]
    assert res.tables["tables"] == len(found)


def test_superseded_vectors_are_not_live(tmp_path: Path, corpus: Path) -> None:
    """A Paimon primary-key table deleted from more than once: a later index manifest replaces a file's vector; the
    old index files stay on storage (the deletion_vectors table sees them all), the table counts the live ones."""
    seed_tables = corpus / "generated-seed1/paimon/tables/de_dv"
    out = tmp_path / "out"
    run([str(seed_tables)], str(out), progress=False)
    on_storage = [r for r in _table(out, "deletion_vectors") if r["error_rule"] is None]
    t = ls.paimon.open_table(str(seed_tables))
    live = t.deletion_vectors()
    assert len(on_storage) > len(live)  # old snapshots' vectors are still on storage
    (row,) = _table(out, "tables")
    assert row["deleted_rows"] == sum(int(p.size) for p in live.values())
    assert row["deleted_rows"] < sum(r["cardinality"] for r in on_storage)


def test_out_is_checked_before_anything_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lake = tmp_path / "lake"
    lake.mkdir()
    (lake / "x.bin").write_bytes(b"hello")
    user = tmp_path / "mine"
    user.mkdir()
    (user / "files").mkdir()
    precious = user / "files" / "mydata.csv"
    precious.write_text("a,b\n")
    t0 = time.monotonic()
    assert cli_main(["inventory", str(lake), "--out", str(user), "--engine", "spark"]) == 2
    assert time.monotonic() - t0 < 5  # no Spark session was started
    err = capsys.readouterr().err
    assert "not empty" in err and "--overwrite" in err and len(err.strip().splitlines()) == 1
    assert precious.read_text() == "a,b\n"
    # --overwrite writes into a folder of the user's, but never over a file the inventory did not write
    assert cli_main(["inventory", str(lake), "--out", str(user), "--overwrite", "--quiet", "--engine", "local"]) == 2
    assert "mydata.csv" in capsys.readouterr().err and precious.read_text() == "a,b\n"
    precious.unlink()
    (user / "notes.txt").write_text("keep me")
    assert cli_main(["inventory", str(lake), "--out", str(user), "--overwrite", "--quiet", "--engine", "local"]) == 0
    assert (user / MARKER).is_file() and (user / "notes.txt").read_text() == "keep me"
    # a previous inventory may be overwritten without asking; the user's other files stay
    assert cli_main(["inventory", str(lake), "--out", str(user), "--quiet", "--engine", "local"]) == 0
    assert (user / "notes.txt").read_text() == "keep me"
    capsys.readouterr()
    # object storage: refused in one line, nothing created locally
    assert cli_main(["inventory", str(lake), "--out", "s3://lake/inv", "--engine", "spark"]) == 2
    err = capsys.readouterr().err
    assert "s3://lake/inv" in err and len(err.strip().splitlines()) == 1
    assert not Path("s3:").exists()
    # a path that does not exist: one line, exit 1, before Spark
    t0 = time.monotonic()
    assert cli_main(["inventory", str(tmp_path / "nope"), "--out", str(tmp_path / "o2"), "--engine", "spark"]) == 1
    assert time.monotonic() - t0 < 5
    assert "no such file or folder" in capsys.readouterr().err


def test_overwrite_replaces_only_the_inventorys_part_files(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    lake.mkdir()
    (lake / "x.bin").write_bytes(b"hello")
    out = tmp_path / "out"
    run([str(lake)], str(out), progress=False, overwrite=True)
    (out / "report-notes.txt").write_text("mine")
    before = {p.relative_to(out) for p in out.rglob("*")}
    run([str(lake)], str(out), progress=False)
    assert {p.relative_to(out) for p in out.rglob("*")} == before
    assert (out / "report-notes.txt").read_text() == "mine"
    assert _table(out, "files")[0]["size"] == 5


def test_small_lake_runs_without_spark_and_says_so(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    lake.mkdir()
    (lake / "x.bin").write_bytes(b"hello")
    env = {**os.environ, "JAVA_HOME": str(tmp_path / "no-java")}  # Spark could not start: it must not be needed
    t0 = time.monotonic()
    proc = subprocess.run([LAKESTRUCT, "inventory", str(lake), "--out", str(tmp_path / "o")],
                          capture_output=True, text=True, timeout=120, env=env, check=False)
    took = time.monotonic() - t0
    assert proc.returncode == 0, proc.stderr
    assert "without Spark" in proc.stderr and "--engine spark" in proc.stderr
    assert "time: listing" in proc.stdout
    assert took < 15  # the goal for a one-file inventory


def test_ctrl_c_is_one_line(tmp_path: Path, corpus: Path) -> None:
    proc = subprocess.Popen([LAKESTRUCT, "inventory", str(corpus), "--out", str(tmp_path / "o"), "--engine", "local"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:  # interrupt once the job is reading files (not while Python is still importing)
        seen.append(line)
        if line.startswith("inventory: reading"):
            break
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the inventory finished before the interrupt")
    assert proc.returncode == 130, (seen, err)
    assert err.strip().splitlines() == ["lakestruct: interrupted"], err


def test_summary_says_how_many_are_shown(tmp_path: Path, corpus: Path) -> None:
    from lakestruct.spark.inventory import InventoryResult, format_summary, summarize

    out = tmp_path / "out"
    run([str(corpus / "parquet-testing")], str(out), progress=False)
    s = summarize(str(out), top=2)
    assert s["failed_files_total"] > len(s["failed_files"]) == 2
    text = format_summary(s, InventoryResult(out=str(out)))
    if len(s["errors_by_rule"]) > 15:
        assert f"(15 of {len(s['errors_by_rule'])} shown)" in text


def test_source_names_are_listed(tmp_path: Path) -> None:
    # the three table sources exist and read nothing where there is no table
    for name in ("iceberg_files", "delta_files", "table_files"):
        src = source(name)
        (tmp_path / "x.bin").write_bytes(b"x")
        assert list(plain_loop(src, [str(tmp_path)], {})) == []


def _local(p: str) -> str:
    return p[7:] if p.startswith("file://") else p[5:] if p.startswith("file:") else p


@pytest.mark.xdist_group("iceberg_java")
def test_iceberg_java_tables_deleted_rows_equal_icebergs_own(tmp_path: Path) -> None:
    """The inventory of a warehouse Iceberg Java 1.10 wrote (superseding DVs, position deletes, a compaction, expired
    snapshots with orphans, a partitioned table with statistics): per table and per live data file, the deleted rows
    equal what Iceberg reads (record_count - count(*) per _file), and Iceberg's remove_orphan_files are orphans."""
    from tests.iceberg.conftest import java_tables_or_skip

    java = java_tables_or_skip()
    out = tmp_path / "out"
    run([str(java.warehouse)], str(out), progress=False)
    tables = {Path(r["table"]).name: r for r in _table(out, "tables")}
    dfd = _table(out, "data_file_deletes")
    orphans = _table(out, "orphan_files")
    assert set(java.truth) <= set(tables)
    for name, truth in java.truth.items():
        row = tables[name]
        assert row["format"] == "iceberg" and row["error_rule"] is None, row
        cur = truth["current"]
        assert row["snapshot_id"] == truth["current_snapshot_id"]
        assert row["data_files"] == len(cur["data_files"])
        want_deleted = {_local(f["file_path"]): f["record_count"] - cur["live_rows"][f["file_path"]] for f in cur["data_files"]}
        assert row["record_count"] == sum(f["record_count"] for f in cur["data_files"])
        assert row["deleted_rows"] == sum(want_deleted.values()), name
        assert row["delete_files"] == len(cur["delete_files"]), name
        assert row["rules_broken"] == [], name
        mine = {_local(r["referenced_data_file"]): r["deleted_rows"] for r in dfd if r["table"] == row["table"]}
        assert mine == {f: n for f, n in want_deleted.items() if n}, name
        found = {_local(o["file"]) for o in orphans if o["table"] == row["table"] and o["kind"] == "unreferenced"}
        assert {_local(p) for p in truth["orphans"]} <= found, name
        live = set(want_deleted) | {_local(d["file_path"]) for d in cur["delete_files"]}
        assert not (found & live), name
    # the v3 table deleted from twice: the superseded vectors are on storage but not counted
    v3 = tables["v3_dv"]
    on_storage = [r for r in _table(out, "deletion_vectors") if r["error_rule"] is None and "/v3_dv/" in r["file"]]
    assert sum(r["cardinality"] for r in on_storage) > v3["deleted_rows"]


def test_demo_lake_table_in_summary_and_report(tmp_path: Path) -> None:
    """The demo lake's Iceberg table (two superseding DELETEs, a compaction, an orphan): the summary and the report
    show its live deleted share beside what its vectors on storage name, and its orphan."""
    from lakestruct.spark import demolake
    from lakestruct.spark.inventory import format_summary

    lake = tmp_path / "lake"
    demolake.build(str(lake), rows_per_file=2_000)
    out = tmp_path / "out"
    res = run([str(lake)], str(out), progress=False, report=str(out / "report.html"))
    (row,) = _table(out, "tables")
    t = ls.iceberg.open_table(row["table"])
    st = t.state()
    assert row["deleted_rows"] == sum(int(st.positions(f).size) for f in st.data_files) > 0
    text = format_summary(res.summary, res)
    assert "old snapshots' included: not live" in text and f"({row['deleted_rows']:,} rows)" in text
    orphans = _table(out, "orphan_files")
    assert [Path(o["file"]).name for o in orphans] == ["00099-0-events-orphan.parquet"]
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<h2>Tables</h2>" in page and "00099-0-events-orphan.parquet" in page and "superseded" in page


def _unpack_delta(corpus: Path, name: str, into: Path) -> Path:
    import io

    import zstandard

    raw = zstandard.ZstdDecompressor().stream_reader(io.BytesIO((corpus / "delta-kernel-rs" / f"{name}.tar.zst").read_bytes()))
    with tarfile.open(fileobj=io.BytesIO(raw.read()), mode="r:") as tf:
        tf.extractall(into, filter="data")
    (log,) = into.rglob("_delta_log")
    return log.parent


def _log_adds(table: Path) -> dict[str, dict[str, Any]]:
    """The live add actions of a Delta table whose log is JSON commits only: a plain replay, independent of lakestruct."""
    live: dict[str, dict[str, Any]] = {}
    for commit in sorted((table / "_delta_log").glob("[0-9]*.json")):
        if ".compacted." in commit.name or not commit.name.split(".")[0].isdigit():
            continue
        for line in commit.read_text().splitlines():
            action = json.loads(line) if line.strip() else {}
            if "add" in action:
                live[action["add"]["path"]] = action["add"]
            elif "remove" in action:
                live.pop(action["remove"]["path"], None)
    return live


@pytest.mark.parametrize("name", ["compacted-log-files-table", "cdf-table-with-dv", "v2-checkpoints-json-with-sidecars"])
def test_delta_tables_counted_from_their_log(corpus: Path, tmp_path: Path, name: str) -> None:
    """Delta golden tables (Delta Spark): the inventory's live files are deltalake's add actions, and each data file's
    deleted rows are its live deletion vector's cardinality (a replaced vector's file stays on storage, not counted)."""
    deltalake = pytest.importorskip("deltalake", reason="deltalake (delta-rs) is the oracle of the live add actions")
    table = _unpack_delta(corpus, name, tmp_path / "lake")
    out = tmp_path / "out"
    run([str(tmp_path / "lake")], str(out), progress=False)
    (row,) = [r for r in _table(out, "tables") if r["format"] == "delta"]
    adds = deltalake.DeltaTable(str(table)).get_add_actions(flatten=True)
    adds = adds if isinstance(adds, pa.Table) else pa.table(adds)
    assert row["data_files"] == adds.num_rows
    assert row["record_count"] == sum(adds.column("num_records").to_pylist())
    dfd = {Path(r["data_file"]).name: r for r in _table(out, "data_file_deletes") if r["table"] == row["table"]}
    if not list((table / "_delta_log").glob("*.checkpoint*")):
        want = {Path(p).name: a["deletionVector"]["cardinality"] for p, a in _log_adds(table).items() if a.get("deletionVector")}
        assert dfd.keys() == want.keys()
        for f, n in want.items():
            got = dfd[f]
            assert got["deleted_rows"] == n or (got["positions_past_end"] and got["deleted_rows"] < n), (f, got, n)
    elif name.startswith("v2-checkpoints"):
        assert dfd == {}
