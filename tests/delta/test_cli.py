"""``lakestruct delta versions|files|deletes|orphans|check``: the table's answers in text and JSON, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import lakestruct as ls
from lakestruct.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    rc = main(list(argv))
    out, _ = capsys.readouterr()
    return rc, out


def test_files_and_deletes(golden_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = golden_root / "compacted-log-files-table"
    rc, out = run(capsys, "delta", "files", str(root), "--version", "10", "--json")
    doc = json.loads(out)
    st = ls.delta.open_table(root).state(10)
    assert rc == 0 and doc["version"] == 10
    assert [(f["file_path"], f["record_count"], f["deleted_rows"], f["live_rows"]) for f in doc["files"]] == [
        (f.path, f.record_count, f.deleted_rows, f.live_rows) for f in st.data_files]
    assert set(doc["files"][0]) >= {"file_path", "record_count", "file_size_in_bytes", "partition", "deleted_rows", "live_rows",
                                    "deletion_vector"}
    dv = next(f["deletion_vector"] for f in doc["files"] if f["deletion_vector"])
    assert set(dv) == {"path", "storage_type", "path_or_inline_dv", "offset", "size_in_bytes", "cardinality", "unique_id"}
    rc, out = run(capsys, "delta", "deletes", str(root), "--version", "10", "--json")
    dels = json.loads(out)["deletion_vectors"]
    assert rc == 0 and dels and all(len(d["positions"]) == d["cardinality"] for d in dels)
    rc, out = run(capsys, "delta", "files", str(root))
    assert rc == 0 and out.startswith("version 25: 2 live data file(s)")
    rc, out = run(capsys, "delta", "deletes", str(root))
    assert rc == 0 and "positions [" in out


def test_versions_orphans_check(golden_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = golden_root / "v2-checkpoints-json-with-sidecars"
    rc, out = run(capsys, "delta", "versions", str(root), "--json")
    doc = json.loads(out)
    assert rc == 0 and [v["version"] for v in doc["versions"]] == list(range(7))
    rc, out = run(capsys, "delta", "orphans", str(root))
    assert rc == 0 and out.startswith("0 unreferenced file(s)")
    rc, out = run(capsys, "delta", "check", str(root))
    assert rc == 0 and "ok" in out
    rc, out = run(capsys, "delta", "check", str(golden_root / "compacted-log-files-table"))
    assert rc == 1 and "delta.compaction.duplicate" in out


def test_scan_and_validate_recognise_a_delta_table(golden_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lakestruct import scan

    root = golden_root / "v2-classic-checkpoint-parquet"
    assert scan.detect(str(root)) == "delta-table" and scan.is_delta_table(str(root))
    r = scan.check_file(str(root), "delta-table")
    assert r.ok and "Delta table: version 1, 4 live data file(s), 20 rows" in r.summary
    bad = scan.check_file(str(golden_root / "cdf-table-with-dv"), "delta-table")
    assert not bad.ok and bad.rule == "delta.dv.z85-value"
    assert str(root) in list(scan.walk([str(root)]))


def test_json_keys_are_snake_case(golden_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """lakestruct's own keys in snake_case; the table's own (partition columns, commitInfo's parameters and metrics)
    as the log spells them."""
    import re

    snake = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
    owned = {"partition", "operation_parameters", "operation_metrics"}

    def keys(doc: object) -> set[str]:
        out: set[str] = set()
        if isinstance(doc, dict):
            for k, v in doc.items():
                out.add(k)
                if k not in owned:
                    out |= keys(v)
        elif isinstance(doc, list):
            for v in doc:
                out |= keys(v)
        return out

    root = str(golden_root / "compacted-log-files-table")
    for cmd in ("versions", "files", "deletes", "orphans", "check"):
        rc = main(["delta", cmd, root, "--json"])
        doc = json.loads(capsys.readouterr().out)
        assert rc in (0, 1)
        assert all(snake.match(k) for k in keys(doc)), (cmd, sorted(k for k in keys(doc) if not snake.match(k)))
