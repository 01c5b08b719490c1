"""``lakestruct paimon ...``: the commands against generated-seed1's tables and their expected.json; snake_case JSON
keys; exit 1 with the rule on stderr for a broken table, 2 for bad usage."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from lakestruct.cli import main

SEED = "generated-seed1/paimon"
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
#: keys that are the table's own data (schema options, partition and key field names), not lakestruct's
OWNED = {"options", "partition", "min_key", "max_key"}


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    rc = main([*argv, "--json"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    return json.loads(out.out)


def _keys(doc: Any) -> list[str]:
    if isinstance(doc, dict):
        return [k for k, v in doc.items() for k in [k, *(_keys(v) if k not in OWNED else [])]]
    if isinstance(doc, list):
        return [k for v in doc for k in _keys(v)]
    return []


def test_commands_agree_with_expected(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exp = json.loads((corpus / SEED / "expected.json").read_text())["tables"]
    for name in ("append_p", "append_b", "pk", "de_dv"):
        table = str(corpus / SEED / "tables" / name)
        docs = {cmd: _json(["paimon", cmd, table], capsys) for cmd in ("snapshots", "schema", "files", "dv", "index")}
        for doc in docs.values():
            assert all(SNAKE.match(k) for k in _keys(doc)), _keys(doc)
        assert [s["id"] for s in docs["snapshots"]["snapshots"]] == [s["id"] for s in exp[name]["snapshots"]]
        assert docs["snapshots"]["hints"]["latest"] == {"hint": exp[name]["latest"], "listed": exp[name]["latest"], "ok": True}
        assert [f["name"] for f in docs["schema"]["fields"]] == [f["name"] for f in exp[name]["schema"]["fields"]]
        files = {f["path"]: f for f in docs["files"]["files"]}
        assert {p: (f["partition"], f["bucket"], f["row_count"]) for p, f in files.items()} == {
            x["path"]: (x["partition"], x["bucket"], x["row_count"]) for x in exp[name]["live_data_files"]}
        for x in exp[name]["live_data_files"]:
            if "min_key" in x:
                assert (files[x["path"]]["min_key"], files[x["path"]]["max_key"]) == (x["min_key"], x["max_key"])
    dv = _json(["paimon", "dv", str(corpus / SEED / "tables/de_dv"), "--snapshot", "3", "--all"], capsys)
    want = {v["data_file_path"]: v for f in exp["de_dv"]["deletion_vector_index_files"] if f["snapshot_id"] == 3 for v in f["vectors"]}
    got = {e["path"]: e for e in dv["deletion_vectors"]}
    assert sorted(got) == sorted(want)
    for p, e in got.items():
        assert e["cardinality"] == want[p]["cardinality"] and e["deleted_rows"][:20] == want[p]["positions"]["first"]
        assert e["deleted_rows"][-20:] == want[p]["positions"]["last"] and "deleted_rows_truncated" not in e
    short = _json(["paimon", "dv", str(corpus / SEED / "tables/de_dv")], capsys)
    assert all(len(e["deleted_rows"]) <= 20 for e in short["deletion_vectors"])
    assert any(e.get("deleted_rows_truncated") for e in short["deletion_vectors"])
    idx = _json(["paimon", "index", str(corpus / SEED / "tables/de_dv"), "--snapshot", "3"], capsys)
    assert sorted(e["file_name"] for e in idx["index_files"]) == sorted(
        f["index_file"] for f in exp["de_dv"]["deletion_vector_index_files"] if f["snapshot_id"] == 3)


def test_text_output(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = str(corpus / SEED / "tables/de_dv")
    assert main(["paimon", "files", table]) == 0
    out = capsys.readouterr().out
    assert "4 live data files, 4282 rows, 1094 deleted by deletion vectors" in out
    assert main(["paimon", "dv", table, "--snapshot", "3"]) == 0
    out = capsys.readouterr().out
    assert "deletedRows [157, 1039]" in out and "(--all shows all 535)" in out


def test_exit_status(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "t"
    shutil.copytree(corpus / SEED / "tables/de_dv", d)
    index = d / "index" / "index-c67d4796-5a61-4dce-99c1-dabecef8f9be-1"
    data = bytearray(index.read_bytes())
    data[-1] ^= 0xFF
    index.write_bytes(bytes(data))
    assert main(["paimon", "dv", str(d)]) == 1
    err = capsys.readouterr().err
    assert "paimon-dv.crc" in err and "index-c67d4796" in err
    assert main(["paimon", "files", str(tmp_path / "missing")]) == 1
    assert "no such table directory" in capsys.readouterr().err
    with pytest.raises(SystemExit) as ei:
        main(["paimon", "files"])
    assert ei.value.code == 2
    with pytest.raises(SystemExit) as ei:
        main(["paimon", "dv", str(d), "--snapshot", "x"])
    assert ei.value.code == 2


def test_dv_position_cap_says_how_to_raise_it(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = str(corpus / SEED / "tables" / "de_dv")
    assert main(["paimon", "dv", table, "--max-positions", "5"]) == 1
    err = capsys.readouterr().err
    assert "roaring.max-positions" in err and "--max-positions N raises the limit" in err
    assert main(["paimon", "dv", table, "--max-positions", "none", "--json"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["paimon", "dv", table, "--max-positions", "0"])
    assert "expected a positive integer or 'none'" in capsys.readouterr().err
