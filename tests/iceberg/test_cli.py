"""``lakestruct iceberg snapshots|files|deletes|orphans|check``: JSON rows held to pyiceberg's reading of the same
table (live files, rows left after deletes, snapshots), text output, exit codes 0/1/2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from lakestruct.cli import main
from tests.iceberg.pyiceberg_tables import add_deletes, local, make_table

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::UserWarning")


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    w = make_table(tmp_path_factory.mktemp("cli"), rows=50, appends=2, partitioned=True)
    files = sorted(t.file.file_path for t in w.table.scan().plan_files())
    add_deletes(w, {files[0]: [0, 1, 2]}, kind="position", referenced=True)
    pt = add_deletes(w, {files[1]: [4, 5]}, kind="dv")
    return w.root, pt


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(["iceberg", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    rc, out, _ = _run(capsys, *args, "--json")
    assert rc == 0
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_files_json_equals_pyiceberg(table: tuple[Path, Any], capsys: pytest.CaptureFixture[str]) -> None:
    from pyiceberg.expressions import AlwaysTrue
    from pyiceberg.io.pyarrow import ArrowScan

    root, pt = table
    doc = _json(capsys, "files", str(root))
    assert doc["snapshot_id"] == pt.current_snapshot().snapshot_id
    tasks = list(pt.scan().plan_files())
    truth = {t.file.file_path: ArrowScan(pt.metadata, pt.io, pt.schema(), AlwaysTrue()).to_table([t]).num_rows for t in tasks}
    assert {r["file_path"]: r["live_rows"] for r in doc["files"]} == truth
    assert {r["file_path"]: (r["record_count"], r["file_size_in_bytes"], r["partition"]) for r in doc["files"]} == {
        t.file.file_path: (t.file.record_count, t.file.file_size_in_bytes, {"grp": t.file.partition[0]}) for t in tasks}
    for r in doc["files"]:
        assert r["deleted_rows"] + r["live_rows"] == r["record_count"]
        assert set(r) >= {"file_path", "record_count", "file_size_in_bytes", "partition", "deleted_rows", "live_rows", "deletes"}
    kinds = sorted(d["kind"] for r in doc["files"] for d in r["deletes"])
    assert kinds == ["deletion-vector", "position-deletes"]
    # the parent snapshot (before the DV): by --snapshot, and the main branch by --ref
    parent = pt.current_snapshot().parent_snapshot_id
    before = _json(capsys, "files", str(root), "--snapshot", str(parent))
    assert sum(r["deleted_rows"] for r in before["files"]) == 3
    assert _json(capsys, "files", str(root), "--ref", "main")["files"] == doc["files"]


def test_deletes_snapshots_orphans_check(table: tuple[Path, Any], capsys: pytest.CaptureFixture[str]) -> None:
    root, pt = table
    dels = _json(capsys, "deletes", str(root))["delete_files"]
    assert sorted((d["kind"], d["record_count"], d["applies_to"]) for d in dels) == [("deletion-vector", 2, 1), ("position-deletes", 3, 1)]
    dv = next(d for d in dels if d["kind"] == "deletion-vector")
    assert {"content_offset", "content_size_in_bytes", "referenced_data_file"} <= set(dv)
    snaps = _json(capsys, "snapshots", str(root))
    assert [s["snapshot_id"] for s in snaps["snapshots"]] == [s.snapshot_id for s in sorted(pt.metadata.snapshots,
                                                                                             key=lambda s: s.sequence_number or 0)]
    assert snaps["snapshots"][-1]["current"] and snaps["snapshots"][-1]["refs"] == ["main"]
    assert _json(capsys, "orphans", str(root))["orphans"] == []
    assert _json(capsys, "check", str(root)) == {"table": str(root), "ok": True, "problems": []}
    for cmd in ("snapshots", "files", "deletes", "orphans", "check"):
        rc, out, err = _run(capsys, cmd, str(root))
        assert rc == 0 and out and not err, cmd


def test_exit_codes(table: tuple[Path, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, _ = table
    rc, _, err = _run(capsys, "files", str(root), "--snapshot", "12345")
    assert rc == 2 and "no snapshot 12345" in err
    rc, _, err = _run(capsys, "files", str(root), "--ref", "nope")
    assert rc == 2 and "no ref 'nope'" in err
    with pytest.raises(SystemExit) as ei:
        main(["iceberg", "files", str(root), "--snapshot", "1", "--ref", "main"])
    assert ei.value.code == 2
    capsys.readouterr()
    rc, _, err = _run(capsys, "files", str(tmp_path / "absent"))
    assert rc == 1 and "no such table" in err
    # a broken copy: check exits 1 naming the rule; files exits 1 with the rule on stderr
    broken = tmp_path / "t"
    shutil.copytree(root, broken)
    from lakestruct.iceberg import open_table

    t = open_table(broken)
    m = next(m for m in t.manifest_list() if m.content == 0)
    p = broken / "metadata" / Path(local(m.manifest_path)).name
    p.write_bytes(p.read_bytes()[:-20])
    rc, out, _ = _run(capsys, "check", str(broken))
    assert rc == 1 and "avro." in out and "rule(s) broken" in out
    doc_rc = main(["iceberg", "check", str(broken), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc_rc == 1 and not doc["ok"] and all({"rule", "file", "path", "offset", "message"} <= set(x) for x in doc["problems"])
    rc, _, err = _run(capsys, "files", str(broken))
    assert rc == 1 and "avro." in err


def test_scan_and_validate_check_the_table_as_a_table(table: tuple[Path, Any], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from lakestruct import scan

    root, _ = table
    assert scan.detect(str(root)) == "iceberg-table"
    assert scan.is_iceberg_table(str(root)) and not scan.is_iceberg_table(str(root / "data"))
    assert str(root) in list(scan.walk([str(root.parent)], nested_tables=True))
    r = scan.check_file(str(root), "iceberg-table")
    assert r.ok and "5 deleted" in r.summary
    rc = main(["scan", str(root.parent)])
    out = capsys.readouterr().out
    assert rc == 0 and f"ok    iceberg-table {root}" in out
    # a broken copy: the table fails with the rule and the file it is in; validate lists every rule
    broken = tmp_path / "t"
    shutil.copytree(root, broken)
    from lakestruct.iceberg import open_table

    t = open_table(broken)
    s = t.snapshot()
    doc = json.loads(Path(t.metadata_path).read_text())
    doc["snapshots"][-1]["summary"]["total-records"] = "7"
    Path(t.metadata_path).write_text(json.dumps(doc))
    rep = scan.validate_file(str(broken), "iceberg-table")
    assert not rep.result.ok
    assert [(f.rule, f.field_path) for f in rep.errors] == [
        ("iceberg.snapshot.summary-totals", f"snapshots[{len(doc['snapshots']) - 1}].summary.total-records")]
    assert rep.errors[0].message.startswith("metadata/") and s.snapshot_id
    rc = main(["validate", str(broken)])
    assert rc == 1 and "iceberg.snapshot.summary-totals" in capsys.readouterr().out
