"""``lakestruct scan`` and ``lakestruct.scan`` on Paimon tables: a table directory is ``paimon-table`` (its latest
snapshot read whole), its DV index files are ``dv-file``; counts held to generated-seed1's expected.json (computed
without lakestruct); broken tables fail with the rule and the file that breaks it."""

from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path
from typing import Any

import fastavro
import pytest

from lakestruct import paimon, scan
from lakestruct.avro import avro_header, read_avro_records
from lakestruct.cli import main
from lakestruct.paimon.types import parse_type

TABLES = "generated-seed1/paimon/tables"


def test_tables_and_their_dv_files(corpus: Path) -> None:
    exp = json.loads((corpus / "generated-seed1/paimon/expected.json").read_text())["tables"]
    for name, x in exp.items():
        d = str(corpus / TABLES / name)
        assert scan.detect(d) == "paimon-table" and scan.is_paimon_table(d)
        r = scan.check_file(d, "paimon-table")
        assert r.ok, r.summary
        live = x["live_data_files"]
        dvs = [v for f in x.get("deletion_vector_index_files", []) if f["snapshot_id"] == x["latest"] for v in f["vectors"]]
        assert r.summary.startswith(f"Paimon table: snapshot {x['latest']}, {len(live)} live data file(s), "
                                    f"{sum(f['row_count'] for f in live)} rows, {len(dvs)} deletion vector(s) "
                                    f"({sum(v['cardinality'] for v in dvs)} deleted rows)"), r.summary
    for idx in (corpus / TABLES / "de_dv/index").glob("index-*"):
        assert scan.detect(str(idx)) == "dv-file"
    # not tables: a folder without schema/ and snapshot/, a file checked as a table
    assert scan.detect(str(corpus / TABLES)) is None
    assert not scan.check_file(str(corpus / "MANIFEST.md"), "paimon-table").ok


def test_java_golden_tables(corpus: Path, tmp_path: Path) -> None:
    with tarfile.open(corpus / "paimon/paimon-python/pypaimon/tests/resources/pk_global_index_golden.tar.gz") as tar:
        tar.extractall(tmp_path, filter="data")
    tables = [p for p in scan.walk([str(tmp_path)], nested_tables=True) if scan.detect(p) == "paimon-table"]
    assert len(tables) == 3
    for d in tables:
        assert scan.check_file(d, "paimon-table").ok
        t = paimon.open_table(d)
        for e in t.index_entries():
            if e.index_file.index_type == "DELETION_VECTORS" and e.index_file.dv_ranges:
                assert scan.detect(t.index_file_path(e)) == "dv-file"


def test_walk_yields_named_and_nested_tables(corpus: Path) -> None:
    d = str(corpus / TABLES / "de_dv")
    got = list(scan.walk([d]))
    assert got[0] == d and all(Path(p).is_file() for p in got[1:]) and len(got) > 10
    parent = str(corpus / TABLES)
    assert not any(Path(p).is_dir() for p in scan.walk([parent]))  # only files below a folder that is not a table
    nested = [p for p in scan.walk([parent], nested_tables=True) if Path(p).is_dir()]
    assert nested == sorted(str(corpus / TABLES / n) for n in ("append_b", "append_p", "de_dv", "pk"))


def _copy(corpus: Path, tmp_path: Path, name: str) -> Path:
    dst = tmp_path / name
    shutil.copytree(corpus / TABLES / name, dst)
    return dst


def test_broken_tables_name_the_rule_and_the_file(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = _copy(corpus, tmp_path, "de_dv")
    t = paimon.open_table(d)
    dv = next(f for f in t.live_files() if f.deletion_file is not None).deletion_file
    assert dv is not None
    data = bytearray(Path(dv.path).read_bytes())
    data[dv.offset + 10] ^= 0xFF  # a bitmap byte: the entry's CRC no longer matches
    Path(dv.path).write_bytes(bytes(data))
    r = scan.check_file(str(d), "paimon-table")
    assert not r.ok and r.rule == "paimon-dv.crc" and f"index/{Path(dv.path).name}" in r.summary, r.summary
    assert main(["scan", str(d)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL  paimon-table {d}: paimon-dv.crc" in out and f"FAIL  dv-file   {dv.path}" in out
    # a snapshot naming a missing manifest list: the table cannot be read
    d2 = _copy(corpus, tmp_path, "append_b")
    snap = json.loads((d2 / "snapshot/snapshot-2").read_text())
    (d2 / "manifest" / snap["deltaManifestList"]).unlink()
    r = scan.check_file(str(d2), "paimon-table")
    assert not r.ok and r.rule is None and snap["deltaManifestList"] in r.summary
    assert main(["scan", str(corpus / TABLES / "pk"), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["format"] == "paimon-table" and lines[0]["ok"] and lines[-1]["summary"]["failed"] == 0


def _embed(d: Path, image: bytes) -> str:
    """Give the first data file of the table's manifests an embedded file index; return its name."""
    t = paimon.open_table(d)
    name = t.live_files()[0].file.file_name
    for m in t.data_manifests():
        path = Path(t.manifest_path(m.file_name))
        data = path.read_bytes()
        schema, _ = avro_header(data)
        records: list[dict[str, Any]] = list(read_avro_records(data))
        for r in records:
            if r["_FILE"]["_FILE_NAME"] == name:
                r["_FILE"]["_EMBEDDED_FILE_INDEX"] = image
        with path.open("wb") as fh:
            fastavro.writer(fh, schema, records, codec="null")
    return name


def test_deep_checks_index_payloads(corpus: Path, tmp_path: Path) -> None:
    d = _copy(corpus, tmp_path, "append_b")
    t_id = parse_type("BIGINT")
    rows = paimon.open_table(d).live_files()[0].row_count
    bitmap = bytearray(paimon.encode_bitmap_index(list(range(rows)), t_id, version=1))  # one row per value: no bitmaps
    bitmap[-4:] = (-1).to_bytes(4, "big", signed=True)  # the last value in row 0, as value 0 is: one row under two values
    _embed(d, paimon.encode_file_index({"id": {"bitmap": bytes(bitmap)}}))
    assert scan.validate_file(str(d), "paimon-table").result.ok  # structure: the index head is fine
    deep = scan.validate_file(str(d), "paimon-table", deep=True).result
    assert not deep.ok and deep.rule == "paimon.file-index.bitmap-overlap" and "_EMBEDDED_FILE_INDEX" in deep.summary
    d2 = _copy(corpus, tmp_path / "x", "append_b")
    _embed(d2, b"\x00\x05NN\xd0\x1a5\xae" + bytes(16))
    r = scan.check_file(str(d2), "paimon-table")
    assert not r.ok and r.rule == "paimon.file-index.version"
