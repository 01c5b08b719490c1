"""lakestruct's Iceberg tables held to Iceberg Java 1.10 itself (and to pyiceberg 0.12, a second oracle).

The tables are written at test time by Iceberg Java through Spark 3.5 (tests/iceberg/iceberg_java_writer.py, in its
own venv built by tests/iceberg/iceberg_java_env.py; cached per machine): ``v3_dv`` (deletion vectors superseded
twice, an UPDATE), ``v2_posdel`` (partition-scoped position delete files), ``compacted`` (v2 file-scoped position
deletes superseding each other, rewrite_data_files, rewrite_position_delete_files), ``expired`` (a tag,
expire_snapshots, an orphan data file and an orphan manifest made on purpose), ``partitioned_stats`` (identity + day
partitions, then bucket too: two specs; DVs; compute_table_stats and compute_partition_stats). The truth is what
Iceberg says: its metadata tables (``snapshots``, ``data_files``, ``delete_files``, ``entries``, ``all_files``,
``all_manifests``) at the current snapshot, ``VERSION AS OF`` an earlier one and at the tag, the rows it reads from
each data file (``_file``, ``_pos``), its scan planning (the deletes applied to each file) and
``remove_orphan_files``' dry run. The Python API, the CLI (``iceberg files|orphans|check``, ``scan``) and ``ls.tables``
are held to it. Nothing here is copied from lakestruct's own output.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import pytest

import lakestruct as ls
from tests.iceberg.iceberg_java_env import TABLES, JavaTables

pytestmark = pytest.mark.xdist_group("iceberg_java")
WHICH = ("current", "earlier")
STATES = [(t, w) for t in TABLES for w in WHICH]
KINDS = {1: "position-deletes", 2: "equality-deletes"}  # delete_files' ``content``; a Puffin one is a DV


def norm(p: str | None) -> str | None:
    """``file:/x``, ``file:///x`` and ``/x`` as ``/x``."""
    if p is None:
        return None
    return "/" + p.removeprefix("file:").lstrip("/") if p.startswith("file:") else p


def kind(d: dict[str, Any]) -> str:
    return "deletion-vector" if d["file_format"] == "PUFFIN" else KINDS[d["content"]]


@pytest.fixture(scope="module")
def tables(iceberg_java_tables: JavaTables) -> dict[str, Any]:
    return {t: ls.iceberg.open_table(iceberg_java_tables.table(t)) for t in TABLES}


def _state(tables: dict[str, Any], java: JavaTables, t: str, which: str) -> tuple[Any, dict[str, Any]]:
    truth = java.truth[t][which]
    assert truth is not None, f"{t}: the writer recorded no {which} snapshot"
    st = tables[t].state(snapshot_id=truth["snapshot_id"])
    assert st.snapshot_id == truth["snapshot_id"]
    return st, truth


def test_the_tables_are_what_the_oracle_meant_to_write(iceberg_java_tables: JavaTables) -> None:
    """The writer made what these tests rely on (else a passing test would prove less than it says)."""
    truth = iceberg_java_tables.truth
    assert truth["v3_dv"]["format_version"] == 3 and truth["v2_posdel"]["format_version"] == 2
    assert truth["v3_dv"]["iceberg"].startswith("Apache Iceberg 1.10")
    dv, pos = truth["v3_dv"], truth["v2_posdel"]
    assert sum(f["record_count"] for f in dv["current"]["data_files"]) >= 200_000
    assert all(kind(d) == "deletion-vector" for d in dv["current"]["delete_files"])
    # the current DVs replaced the earlier snapshot's: other Puffin files, each holding more positions
    assert {d["file_path"] for d in dv["current"]["delete_files"]}.isdisjoint(d["file_path"] for d in dv["earlier"]["delete_files"])
    earlier = {d["referenced_data_file"]: d["record_count"] for d in dv["earlier"]["delete_files"]}
    assert all(d["record_count"] > earlier[d["referenced_data_file"]] for d in dv["current"]["delete_files"]
               if d["referenced_data_file"] in earlier)  # fmt: skip
    assert {kind(d) for d in pos["current"]["delete_files"]} == {"position-deletes"}
    assert any(d["referenced_data_file"] is None for d in pos["current"]["delete_files"])  # partition-scoped
    c = truth["compacted"]
    assert {f["file_path"] for f in c["current"]["data_files"]}.isdisjoint(f["file_path"] for f in c["earlier"]["data_files"])
    e = truth["expired"]
    assert len(e["snapshots"]) == 3 and len(e["orphans"]) == 2 and e["tags"]  # tagged, kept, appended after expiry
    assert {norm(p) for p in e["orphans"]} == {norm(p) for p in e["strays"]}
    ps = truth["partitioned_stats"]
    assert ps["statistics"] and len({tuple(sorted(f["partition"].items())) for f in ps["current"]["data_files"]}) > 1
    assert {f["spec_id"] for f in ps["current"]["data_files"]} == {0, 1}  # partition evolution


@pytest.mark.parametrize(("t", "which"), STATES)
def test_live_data_files_equal_iceberg_data_files(tables: dict[str, Any], iceberg_java_tables: JavaTables, t: str,
                                                  which: str) -> None:  # fmt: skip
    st, truth = _state(tables, iceberg_java_tables, t, which)
    ours = {norm(f.path): f for f in st.data_files}
    theirs = {norm(f["file_path"]): f for f in truth["data_files"]}
    assert len(ours) == len(st.data_files), "a data file is listed twice"
    assert sorted(ours) == sorted(theirs)
    for p, f in ours.items():
        x = theirs[p]
        assert (f.record_count, f.size) == (x["record_count"], x["file_size_in_bytes"]), p
        assert (f.file_format or "").lower() == x["file_format"].lower(), p
        spark = x.get("partition") or {}
        ours = _partition(f.partition, spark)
        assert ours == {k: v for k, v in spark.items() if v is not None or k in ours}, p


def _partition(values: Any, spark: dict[str, Any]) -> dict[str, Any]:
    """lakestruct's decoded partition values as Spark shows them: a day-transform value (a date; the spec stores days
    from 1970-01-01 as an int) as its ISO date. (Spark shows the fields of every spec the table had, None for a field
    the file's spec lacks.)"""
    out = {}
    for k, v in dict(values).items():
        if isinstance(v, int) and not isinstance(v, bool) and isinstance(spark.get(k), str) and k.endswith("_day"):
            v = dt.date(1970, 1, 1) + dt.timedelta(days=v)
        out[k] = v.isoformat() if isinstance(v, dt.date) else v
    return out


@pytest.mark.parametrize(("t", "which"), STATES)
def test_deleted_rows_of_each_live_file_equal_what_iceberg_reads(tables: dict[str, Any], iceberg_java_tables: JavaTables,
                                                                 t: str, which: str) -> None:  # fmt: skip
    """deleted_rows = record_count - count(*) of the file's rows Iceberg reads; the positions themselves too."""
    st, truth = _state(tables, iceberg_java_tables, t, which)
    live = {norm(p): n for p, n in truth["live_rows"].items()}
    gone = {norm(p): v for p, v in truth["deleted_positions"].items()}
    for f in st.data_files:
        p = norm(f.path)
        assert f.deleted_rows == f.record_count - live[p], p
        assert f.live_rows == live[p], p
        assert f.positions_past_end == 0, p
        assert st.positions(f).tolist() == gone[p], p
    assert st.live_rows == sum(live.values())
    assert st.deleted_rows, f"{t} {which}: no deleted rows at all (the writer deleted some in every state)"


@pytest.mark.parametrize(("t", "which"), STATES)
def test_live_delete_files_equal_iceberg_delete_files(tables: dict[str, Any], iceberg_java_tables: JavaTables, t: str,
                                                      which: str) -> None:  # fmt: skip
    st, truth = _state(tables, iceberg_java_tables, t, which)

    def key(path: str, k: str, rows: int | None, size: int | None, ref: str | None, off: int | None,
            length: int | None) -> tuple:  # fmt: skip
        return (norm(path), k, rows, size, norm(ref), off, length)

    ours = sorted(key(d.path, d.kind, d.record_count, d.size, d.referenced_data_file, d.offset, d.length)
                  for d in st.delete_files)  # fmt: skip
    theirs = sorted(key(d["file_path"], kind(d), d["record_count"], d["file_size_in_bytes"], d.get("referenced_data_file"),
                        d.get("content_offset"), d.get("content_size_in_bytes")) for d in truth["delete_files"])  # fmt: skip
    assert ours == theirs
    live = {norm(f.path) for f in st.data_files}
    for f in st.data_files:  # what applies to a file is live, and a DV (any file naming one) applies to the file it names
        for d in f.deletes:
            assert key(d.path, d.kind, d.record_count, d.size, d.referenced_data_file, d.offset, d.length) in theirs
            if d.referenced_data_file is not None:
                assert norm(d.referenced_data_file) == norm(f.path)
        assert sum(d.kind == "deletion-vector" for d in f.deletes) <= 1
    for d in st.delete_files:
        assert d.referenced_data_file is None or norm(d.referenced_data_file) in live


@pytest.mark.parametrize(("t", "which"), STATES)
def test_deletes_applying_to_each_file_equal_iceberg_java_scan_plan(tables: dict[str, Any], iceberg_java_tables: JavaTables,
                                                                    t: str, which: str) -> None:  # fmt: skip
    """The delete files lakestruct says apply to each live data file are those Iceberg Java's scan planning
    (``newScan().useSnapshot(id).planFiles()``) gives its task: by sequence number and partition, a DV by the file
    it references, a file-scoped v2 position delete file (``file_path`` bounds equal) only to that file."""
    st, truth = _state(tables, iceberg_java_tables, t, which)
    ours = {norm(f.path): sorted([norm(d.path), d.offset if d.kind == "deletion-vector" else None] for d in f.deletes)
            for f in st.data_files}  # fmt: skip
    theirs = {norm(p): sorted([norm(d), off] for d, off in ds) for p, ds in truth["planned_deletes"].items()}
    assert ours == theirs


@pytest.mark.parametrize(("t", "which"), STATES)
def test_sequence_numbers_and_snapshot_ids_equal_iceberg_entries(tables: dict[str, Any], iceberg_java_tables: JavaTables,
                                                                 t: str, which: str) -> None:  # fmt: skip
    """Inherited sequence numbers and snapshot ids of every live data and delete file, the entry status, spec id and
    v3 first_row_id of every live data file, as Iceberg's ``entries`` and ``data_files`` tables show them."""
    st, truth = _state(tables, iceberg_java_tables, t, which)
    status = {0: "EXISTING", 1: "ADDED"}
    live = [e for e in truth["entries"] if e["status"] != 2]
    theirs = {(norm(e["file_path"]), e["content_offset"]): (e["snapshot_id"], e["sequence_number"], e["file_sequence_number"])
              for e in live}  # fmt: skip
    ours = {(norm(f.path), f.offset if isinstance(f, ls.tables.DeleteFile) else None):
            (f.extra["snapshot_id"], f.extra["sequence_number"], f.extra["file_sequence_number"])
            for f in (*st.data_files, *st.delete_files)}  # fmt: skip
    assert ours == theirs
    data = {norm(x["file_path"]): x for x in truth["data_files"]}
    entry = {norm(e["file_path"]): status[e["status"]] for e in live if e["content"] == 0}
    for f in st.data_files:
        x = data[norm(f.path)]
        assert (f.extra["status"], f.extra["spec_id"], f.extra["first_row_id"]) == \
            (entry[norm(f.path)], x["spec_id"], x.get("first_row_id")), f.path  # fmt: skip


def test_a_tag_keeps_its_snapshot_and_state_reads_it(tables: dict[str, Any], iceberg_java_tables: JavaTables) -> None:
    """``expired``'s tag survives expire_snapshots: ``state(ref=tag)`` is the tagged snapshot's state."""
    truth = iceberg_java_tables.truth["expired"]
    assert truth["tags"]
    for name, x in truth["tags"].items():
        st = tables["expired"].state(ref=name)
        assert st.snapshot_id == x["snapshot_id"] == truth["refs"][name]["snapshot-id"]
        assert sorted((norm(f.path), f.record_count, f.deleted_rows) for f in st.data_files) == \
            sorted((norm(f["file_path"]), f["record_count"], f["record_count"] - x["live_rows"][f["file_path"]])
                   for f in x["data_files"])  # fmt: skip


@pytest.mark.parametrize("t", TABLES)
def test_an_older_metadata_file_opens_at_its_own_snapshot(iceberg_java_tables: JavaTables, t: str) -> None:
    """``open_table`` on the metadata file that was current at the earlier snapshot (``metadata_log_entries``)."""
    truth = iceberg_java_tables.truth[t]["earlier"]
    st = ls.iceberg.open_table(norm(truth["metadata_location"])).state()
    assert st.snapshot_id == truth["snapshot_id"]
    assert sorted((norm(f.path), f.deleted_rows) for f in st.data_files) == \
        sorted((norm(f["file_path"]), f["record_count"] - truth["live_rows"][f["file_path"]]) for f in truth["data_files"])  # fmt: skip


@pytest.mark.parametrize("t", TABLES)
def test_snapshots_equal_iceberg_snapshots(tables: dict[str, Any], iceberg_java_tables: JavaTables, t: str) -> None:
    truth = iceberg_java_tables.truth[t]
    ours = tables[t].snapshots()
    theirs = truth["snapshots"]  # ordered by committed_at
    assert [(s.id, s.parent_id, s.operation) for s in ours] == [(s["snapshot_id"], s["parent_id"], s["operation"]) for s in theirs]
    for s, x in zip(ours, theirs, strict=True):
        summary = dict(s.summary)  # as the metadata file holds it; Spark's table shows ``operation`` in its own column
        assert summary.pop("operation", x["operation"]) == x["operation"]
        assert summary == x["summary"], s.id
        committed = dt.datetime.fromisoformat(x["committed_at"]).replace(tzinfo=dt.UTC)  # session time zone UTC
        assert s.timestamp_ms == round(committed.timestamp() * 1000), s.id
    assert tables[t].state().snapshot_id == truth["current_snapshot_id"]


@pytest.mark.parametrize("t", TABLES)
def test_orphans_equal_remove_orphan_files(tables: dict[str, Any], iceberg_java_tables: JavaTables, t: str) -> None:
    """Every file remove_orphan_files would delete is found unreferenced, nothing else is, and no file Iceberg still
    references (any retained snapshot's data, delete files and manifests, manifest lists, metadata files) is called
    an orphan."""
    truth = iceberg_java_tables.truth[t]
    orphans = tables[t].orphans()
    unreferenced = {norm(o.path): o for o in orphans if o.kind == "unreferenced"}
    assert sorted(unreferenced) == sorted(norm(p) for p in truth["orphans"])
    for p, o in unreferenced.items():
        assert o.size == os.path.getsize(p), p
    assert [o for o in orphans if o.kind == "missing"] == []  # nothing Iceberg references is gone
    referenced = {norm(p) for p in truth["all_files"] + truth["all_manifests"]}
    referenced |= {norm(s["manifest_list"]) for s in truth["snapshots"]}
    referenced |= {norm(e["file"]) for e in truth["metadata_log"]}
    referenced |= {norm(s["statistics-path"]) for s in truth["statistics"] + truth["partition_statistics"]}
    assert referenced and not referenced & {norm(o.path) for o in orphans}


def test_orphans_made_on_purpose_are_found_with_their_role(tables: dict[str, Any], iceberg_java_tables: JavaTables) -> None:
    strays = {norm(p) for p in iceberg_java_tables.truth["expired"]["strays"]}
    roles = {norm(o.path): o.role for o in tables["expired"].orphans() if o.kind == "unreferenced"}
    assert {p: roles.get(p) for p in strays} == {p: ("data" if p.endswith(".parquet") else "manifest") for p in strays}


@pytest.mark.parametrize("t", TABLES)
def test_check_finds_nothing_wrong_in_iceberg_java_tables(tables: dict[str, Any], t: str) -> None:
    problems = tables[t].check()
    assert problems == [], [f"{p.rule}: {p}" for p in problems]


def test_statistics_file_matches_its_puffin_file(tables: dict[str, Any], iceberg_java_tables: JavaTables) -> None:
    """compute_table_stats' Puffin file: the metadata's ``statistics`` entry (as lakestruct reads it, and as Iceberg
    wrote it) equals the file: its size, its footer's size, its blobs; the Theta sketches' estimates equal ``ndv``."""
    truth = iceberg_java_tables.truth["partitioned_stats"]
    ours = tables["partitioned_stats"].metadata.statistics
    assert len(ours) == len(truth["statistics"]) >= 1
    for s, x in zip(ours, truth["statistics"], strict=True):
        path = norm(x["statistics-path"])
        assert (norm(s.statistics_path), s.snapshot_id, s.file_size_in_bytes, s.file_footer_size_in_bytes) == \
            (path, x["snapshot-id"], x["file-size-in-bytes"], x["file-footer-size-in-bytes"])  # fmt: skip
        assert s.snapshot_id == truth["current_snapshot_id"]
        assert Path(path).stat().st_size == x["file-size-in-bytes"]
        with ls.puffin.open(path) as pf:
            assert pf.footer.size == x["file-footer-size-in-bytes"]
            blobs = [(b.type, b.snapshot_id, b.sequence_number, list(b.fields)) for b in pf.blobs]
            assert blobs == [(b["type"], b["snapshot-id"], b["sequence-number"], b["fields"]) for b in x["blob-metadata"]]
            assert blobs == [(b.type, b.snapshot_id, b.sequence_number, list(b.fields)) for b in s.blob_metadata]
            for b, m in zip(pf.blobs, x["blob-metadata"], strict=True):
                assert b.type == "apache-datasketches-theta-v1"
                sk = ls.sketches.ThetaSketch.from_bytes(pf.read_blob(b))
                assert int(sk.estimate()) == int(m["properties"]["ndv"]) == int(b.properties["ndv"])  # Java: (long) estimate


# -- pyiceberg 0.12, a second oracle ----------------------------------------------------------------------------


@pytest.mark.parametrize(("t", "which"), STATES)
def test_pyiceberg_agrees_on_live_files_their_deletes_and_rows(tables: dict[str, Any], iceberg_java_tables: JavaTables, t: str,
                                                               which: str) -> None:  # fmt: skip
    """pyiceberg's scan planning over the same metadata file: the same live data files; the delete files it plans
    for each differ from lakestruct's only by files holding no position of that data file (pyiceberg 0.12 plans a DV
    for every older data file and sorts it out when reading; what a position delete file names is read here with
    pyarrow); and pyiceberg reads as many live rows as lakestruct counts."""
    static = pytest.importorskip("pyiceberg.table").StaticTable
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    truth = iceberg_java_tables.truth[t]
    sid = truth[which]["snapshot_id"]
    scan = static.from_metadata(norm(truth["metadata_location"])).scan(snapshot_id=sid)
    theirs = {norm(task.file.file_path): {norm(d.file_path) for d in task.delete_files} for task in scan.plan_files()}
    st = tables[t].state(snapshot_id=sid)
    ours = {norm(f.path): {norm(d.path) for d in f.deletes} for f in st.data_files}
    assert sorted(ours) == sorted(theirs)
    names: dict[str, set[str | None]] = {}  # delete file -> the data files it holds positions of
    for d in truth[which]["delete_files"]:
        path = norm(d["file_path"])
        if d["file_format"] == "PUFFIN":
            names.setdefault(path, set()).add(norm(d["referenced_data_file"]))
        elif path not in names:
            names[path] = {norm(v) for v in pc.unique(pq.read_table(path, columns=["file_path"]).column(0)).to_pylist()}
    for p in ours:
        for other in ours[p] ^ theirs[p]:
            assert p not in names[other], (p, other)
    assert scan.to_arrow().num_rows == st.live_rows


# -- the command line ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("t", "which"), STATES)
def test_cli_files_prints_icebergs_deleted_rows(iceberg_java_tables: JavaTables, t: str, which: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from lakestruct.cli import main

    truth = iceberg_java_tables.truth[t][which]
    assert main(["iceberg", "files", str(iceberg_java_tables.table(t)), "--snapshot", str(truth["snapshot_id"]), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["snapshot_id"] == truth["snapshot_id"]
    got = {norm(f["file_path"]): (f["record_count"], f["deleted_rows"], f["live_rows"]) for f in doc["files"]}
    assert got == {norm(f["file_path"]): (f["record_count"], f["record_count"] - truth["live_rows"][f["file_path"]],
                                          truth["live_rows"][f["file_path"]]) for f in truth["data_files"]}  # fmt: skip


@pytest.mark.parametrize("t", TABLES)
def test_cli_orphans_and_check(iceberg_java_tables: JavaTables, t: str, capsys: pytest.CaptureFixture[str]) -> None:
    from lakestruct.cli import main

    root = str(iceberg_java_tables.table(t))
    assert main(["iceberg", "orphans", root, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(norm(o["path"]) for o in doc["orphans"] if o["kind"] == "unreferenced") == \
        sorted(norm(p) for p in iceberg_java_tables.truth[t]["orphans"])  # fmt: skip
    assert main(["iceberg", "check", root, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_the_warehouse_holds_five_iceberg_tables_found_by_their_roots(iceberg_java_tables: JavaTables) -> None:
    """``ls.tables`` finds each table root in the warehouse, detects Iceberg, and opens the same current state."""
    from lakestruct.source import list_files

    roots = ls.tables.find_roots(p for p, _ in list_files([str(iceberg_java_tables.warehouse)]))
    assert {norm(r): f for r, f in roots.items()} == {str(iceberg_java_tables.table(t)): "iceberg" for t in TABLES}
    for t in TABLES:
        root = iceberg_java_tables.table(t)
        assert ls.tables.detect(root) == "iceberg"
        st = ls.tables.open(root).state()
        truth = iceberg_java_tables.truth[t]
        assert st.format == "iceberg" and st.snapshot_id == truth["current_snapshot_id"]
        assert st.live_rows == sum(truth["current"]["live_rows"].values())


def test_scan_checks_each_table_and_counts_icebergs_deleted_rows(iceberg_java_tables: JavaTables,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """``lakestruct scan WAREHOUSE``: exit 0, one ``iceberg-table`` row per table, ok, with Iceberg's deleted rows."""
    import re

    from lakestruct.cli import main

    assert main(["scan", "--json", str(iceberg_java_tables.warehouse)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    tables = {Path(r["path"]).name: r for r in rows if r.get("format") == "iceberg-table"}
    assert sorted(tables) == sorted(TABLES)
    for t, r in tables.items():
        cur = iceberg_java_tables.truth[t]["current"]
        deleted = sum(f["record_count"] - cur["live_rows"][f["file_path"]] for f in cur["data_files"])
        assert r["ok"] is True and r["rule"] is None, r
        assert re.search(r"\b(\d+) deleted\b", r["summary"]).group(1) == str(deleted), r["summary"]  # type: ignore[union-attr]
