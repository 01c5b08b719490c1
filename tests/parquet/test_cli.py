"""``lakestruct parquet meta|pages|index|bloom`` and Parquet in ``lakestruct scan``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import lakestruct as ls
from lakestruct.cli import main
from lakestruct.scan import check_file, detect


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_meta_json_and_table(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(corpus / "seed-files" / "simple.parquet")
    rc, out, _ = _run(capsys, "parquet", "meta", path, "--json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["footer"] == {"offset": 113, "length": 186, "thrift_length": 186}
    assert doc["columns"][0]["path"] == "text" and doc["columns"][0]["logical_type"] == "STRING"
    assert doc["metadata"]["row_groups"][0]["columns"][0]["meta_data"]["statistics"]["min_value"] == b"text1".hex()
    rc, out, _ = _run(capsys, "parquet", "meta", path)
    assert rc == 0 and "FileMetaData at 113, 186 bytes (length at 299)" in out and "text" in out


def test_pages_json_matches_api(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus / "generated-seed1" / "parquet" / "files" / "pa_nested_v2.parquet"
    rc, out, _ = _run(capsys, "parquet", "pages", str(path), "--json", "--row-group", "0", "--column", "1")
    assert rc == 0
    got = json.loads(out)["pages"]
    want = list(ls.parquet.open(path).pages(0, 1))
    assert [(p["offset"], p["header_size"], p["type"], p["compressed_size"]) for p in got] == [
        (p.offset, p.header_size, p.type, p.compressed_size) for p in want
    ]
    rc, out, _ = _run(capsys, "parquet", "pages", str(path))
    assert rc == 0 and f"{sum(1 for _ in ls.parquet.open(path).pages())} page(s)" in out


def test_index_and_bloom(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus / "generated-seed1" / "parquet" / "files" / "spark_flat_v1_bloom.parquet"
    rc, out, _ = _run(capsys, "parquet", "index", str(path), "--column", "id", "--json")
    assert rc == 0
    chunks = json.loads(out)["chunks"]
    assert len(chunks) == 3 and all(c["offset_index"] for c in chunks)
    rc, out, _ = _run(
        capsys, "parquet", "bloom", str(path), "--column", "id", "--row-group", "0", "--value", "807", "--value", "27111", "--json"
    )
    assert rc == 0
    probes = json.loads(out)["chunks"][0]["bloom_filter"]["probes"]
    assert [p["might_contain"] for p in probes] == [True, False]  # parquet-java's findHash answers (expected.json)
    rc, out, _ = _run(capsys, "parquet", "bloom", str(path), "--column", "id", "--value", "807")
    assert rc == 0 and "might be present" in out and "definitely absent" in out


def test_malformed_exits_1_with_rule(tmp_path: Path, corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.parquet"
    data = (corpus / "seed-files" / "simple.parquet").read_bytes()
    bad.write_bytes(data[:-8] + (10**6).to_bytes(4, "little") + b"PAR1")
    rc, _, err = _run(capsys, "parquet", "meta", str(bad))
    assert rc == 1 and "parquet.footer-length" in err and "offset 299" in err
    enc = corpus / "parquet-testing" / "data" / "uniform_encryption.parquet.encrypted"
    rc, _, err = _run(capsys, "parquet", "pages", str(enc))
    assert rc == 1 and "parquet.encrypted" in err


def test_scan_detects_parquet(corpus: Path) -> None:
    ok = corpus / "seed-files" / "nested.parquet"
    assert detect(str(ok)) == "parquet"
    r = check_file(str(ok), "parquet")
    assert r.ok and "2 pages" in r.summary
    enc = corpus / "parquet-testing" / "data" / "encrypt_columns_and_footer.parquet.encrypted"
    assert detect(str(enc)) == "parquet"
    r = check_file(str(enc), "parquet")
    assert r.ok and "encrypted" in r.summary and r.rule == "parquet.encrypted"
    bad = corpus / "parquet-testing" / "bad_data" / "ARROW-GH-41321.parquet"
    r = check_file(str(bad), "parquet")
    assert not r.ok and r.rule == "thrift.field-id" and r.offset is not None
