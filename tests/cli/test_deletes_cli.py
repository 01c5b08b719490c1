"""``lakestruct deletes show``: Puffin files, manifest ranges, bare blobs, Paimon/Delta DV files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lakestruct as ls
from lakestruct.cli import main


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    assert main([*argv, "--json", "--all"]) == 0
    return json.loads(capsys.readouterr().out)


def sha(rows: list[int]) -> str:
    return hashlib.sha256(np.asarray(rows, dtype="<i8").tobytes()).hexdigest()


def test_paimon_index_files_match_expected(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exp = json.loads((corpus / "generated-seed1/paimon/expected.json").read_text())
    files = exp["tables"]["de_dv"]["deletion_vector_index_files"]
    assert files
    for f in files:
        shown = run_json(["deletes", "show", str(corpus / "generated-seed1/paimon/tables/de_dv/index" / f["index_file"])], capsys)
        assert shown["kind"] == "dv-file"
        got = {(d["offset"], d["length"]): d for d in shown["deletion_vectors"]}
        for v in f["vectors"]:
            d = got[(v["offset"], v["length"])]
            assert d["cardinality"] == v["cardinality"] == v["positions"]["count"]
            assert sha(d["deleted_rows"]) == v["positions"]["sha256"]


def test_manifest_range_and_bare_blob(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exp = json.loads((corpus / "generated-seed1/iceberg/expected.json").read_text())
    name, entry = next((n, e) for n, e in exp["files"].items() if e["kind"] == "deletion-vectors")
    path = corpus / "generated-seed1/iceberg/files" / name
    for want in entry["blobs"]:
        off, size = want["content_offset"], want["content_size_in_bytes"]
        by_manifest = run_json(["deletes", "show", str(path), "--offset", str(off), "--length", str(size)], capsys)
        (d,) = by_manifest["deletion_vectors"]
        assert d["referenced_data_file"] == want["referenced_data_file"]
        assert sha(d["deleted_rows"]) == want["positions"]["sha256"]
        # the same range read as a bare blob (no footer), as an engine holding only the manifest would
        bare = run_json(["deletes", "show", str(path), "--kind", "blob", "--offset", str(off), "--length", str(size)], capsys)
        assert bare["deletion_vectors"][0]["deleted_rows"] == d["deleted_rows"]
    # a range that is not a blob of the footer is named as such
    assert main(["deletes", "show", str(path), "--offset", "5", "--length", "10"]) == 1
    assert "deletion-vector.manifest-range" in capsys.readouterr().err


def test_truncated_rows_and_corrupt_blob(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blob = tmp_path / "dv.bin"
    blob.write_bytes(ls.deletes.encode_deletion_vector_blob(range(0, 300, 2)))
    assert main(["deletes", "show", str(blob)]) == 0
    out = capsys.readouterr().out
    assert "cardinality 150" in out and "... 298] (--all shows all 150)" in out
    data = bytearray(blob.read_bytes())
    data[-1] ^= 0xFF
    blob.write_bytes(bytes(data))
    assert main(["deletes", "show", str(blob)]) == 1
    assert "deletion-vector.crc" in capsys.readouterr().err
