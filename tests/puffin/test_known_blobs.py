"""Puffin + the blob types Iceberg defines: deep checks, add_deletion_vector, and what inspect shows."""

from __future__ import annotations

import hashlib
import io
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from datasketches import compact_theta_sketch, update_theta_sketch

import lakestruct as ls
from lakestruct.cli import main
from lakestruct.errors import FormatError
from tests.conftest import shared_dir


def sha(positions: Any) -> str:
    return hashlib.sha256(np.asarray(positions, dtype="<i8").tobytes()).hexdigest()


def test_add_deletion_vector_writes_iceberg_javas_bytes(corpus: Path) -> None:
    """Re-encode the positions of every DV blob Iceberg Java wrote: the same blob bytes, the same footer entry."""
    files = sorted((corpus / "generated-seed1/iceberg/files").glob("*.puffin"))
    assert len(files) == 9
    for f in files:
        with ls.puffin.open(f) as r:
            dvs = ls.deletes.read_deletion_vectors(f)
            buf = io.BytesIO()
            w = ls.puffin.PuffinWriter(buf)
            w.properties.clear()
            w.properties.update(r.properties)
            for b in r.blobs:
                ref = b.properties["referenced-data-file"]
                written = w.add_deletion_vector(dvs[ref].positions(), ref)
                assert written == b, f.name
            w.close()
            assert buf.getvalue() == f.read_bytes(), f.name


def test_add_deletion_vector_accepts_a_generator() -> None:
    buf = io.BytesIO()
    with ls.puffin.PuffinWriter(buf) as w:
        b = w.add_deletion_vector((i * 7 for i in range(1000)), "f.parquet", properties={"note": "x"})
    assert b.properties == {"referenced-data-file": "f.parquet", "cardinality": "1000", "note": "x"}
    dvs = ls.deletes.read_deletion_vectors(buf.getvalue())
    assert dvs["f.parquet"].positions().tolist() == [i * 7 for i in range(1000)]


def test_deep_check_rejects_a_lying_cardinality() -> None:
    buf = io.BytesIO()
    with ls.puffin.PuffinWriter(buf) as w:
        blob = ls.deletes.encode_deletion_vector_blob([1, 2, 3])
        w.add_blob("deletion-vector-v1", blob, fields=[2147483645], properties={"referenced-data-file": "f", "cardinality": "4"})
    with ls.puffin.open(buf.getvalue()) as r:
        r.check(deep=False)  # the container is fine
        with pytest.raises(FormatError) as ei:
            r.check()
    assert ei.value.rule == "deletion-vector.cardinality"
    assert ei.value.path == "footer.payload.blobs[0].properties.cardinality"


def test_deep_check_rejects_two_vectors_for_one_data_file() -> None:
    buf = io.BytesIO()
    with ls.puffin.PuffinWriter(buf) as w:
        w.add_deletion_vector([1], "s3://b/f.parquet")
        w.add_deletion_vector([2], "s3://b/f.parquet")
    with ls.puffin.open(buf.getvalue()) as r, pytest.raises(FormatError) as ei:
        r.check()
    assert ei.value.rule == "deletion-vector.duplicate-data-file"


def test_deep_check_rejects_a_crc_flip_in_a_dv_blob() -> None:
    buf = io.BytesIO()
    with ls.puffin.PuffinWriter(buf) as w:
        b = w.add_deletion_vector(range(0, 10000, 3), "f")
    data = bytearray(buf.getvalue())
    data[b.offset + b.length - 1] ^= 0x01
    with ls.puffin.open(bytes(data)) as r, pytest.raises(ls.ChecksumError) as ei:
        r.check()
    assert ei.value.offset is not None and b.offset <= ei.value.offset < b.offset + b.length


def theta_bytes(n: int) -> bytes:
    sk = update_theta_sketch()
    for i in range(n):
        sk.update(i)
    data: bytes = sk.compact().serialize()
    return data


def test_theta_ndv_is_checked_against_the_sketch() -> None:
    data = theta_bytes(100)
    for ndv, ok in (("100", True), ("99", False), ("abc", False)):
        buf = io.BytesIO()
        with ls.puffin.PuffinWriter(buf) as w:
            w.add_blob("apache-datasketches-theta-v1", data, fields=[1], codec="zstd", properties={"ndv": ndv})
        with ls.puffin.open(buf.getvalue()) as r:
            if ok:
                r.check()
            else:
                with pytest.raises(FormatError) as ei:
                    r.check()
                assert ei.value.rule.startswith("theta_compact.ndv-")
                assert ei.value.path == "footer.payload.blobs[0].properties.ndv"


def test_a_corrupt_sketch_names_the_blob() -> None:
    data = bytearray(theta_bytes(10))
    data[2] = 7  # family id
    buf = io.BytesIO()
    with ls.puffin.PuffinWriter(buf) as w:
        w.add_blob("x", b"pad")
        w.add_blob("apache-datasketches-theta-v1", bytes(data), fields=[1])
    with ls.puffin.open(buf.getvalue()) as r, pytest.raises(FormatError) as ei:
        r.check()
    assert ei.value.path.startswith("blobs[1].")
    assert ei.value.offset == r.blobs[1].offset + 2


def test_inspect_shows_the_seeds_deleted_rows(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed = next((p.read_text() for p in sorted((shared_dir() / "seeds").glob("*.txt")) if "deletedRows" in p.read_text()), None)
    if seed is None:
        pytest.skip("Puffin walkthrough seed not found")
    m = re.search(r"deletedRows: (\[[\d, ]*\])", seed)
    assert m
    rows = json.loads(m.group(1))
    path = corpus / "puffin-tools/src/test/resources/deletion-vector-v1.puffin"
    assert main(["puffin", "inspect", str(path)]) == 0
    assert f"deletedRows {m.group(1)}" in capsys.readouterr().out
    assert main(["puffin", "inspect", str(path), "--json"]) == 0
    decoded = json.loads(capsys.readouterr().out)["blobs"][0]["decoded"]
    assert decoded == {"kind": "deletion-vector", "cardinality": len(rows), "deleted_rows": rows}


def test_inspect_decodes_every_generated_seed1_file(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exp = json.loads((corpus / "generated-seed1/iceberg/expected.json").read_text())
    for name, entry in exp["files"].items():
        assert main(["puffin", "inspect", str(corpus / "generated-seed1/iceberg/files" / name), "--json", "--all"]) == 0
        shown = json.loads(capsys.readouterr().out)
        if entry["kind"] == "deletion-vectors":
            by_file = {b["properties"]["referenced-data-file"]: b["decoded"] for b in shown["blobs"]}
            for want in entry["blobs"]:
                got = by_file[want["referenced_data_file"]]
                assert got["cardinality"] == want["positions"]["count"]
                assert sha(got["deleted_rows"]) == want["positions"]["sha256"], name
        else:
            for b, want in zip(shown["blobs"], entry["statistics"]["blob-metadata"], strict=True):
                ds = want["datasketches_python"]
                assert b["decoded"]["estimate"] == ds["estimate"]
                assert b["decoded"]["num_retained"] == ds["num_retained"]
                assert b["decoded"]["theta"] == ds["theta"]
    # truncation without --all, and its text form
    big = corpus / "generated-seed1/iceberg/files/dv_patterns.dv.seq3.0.puffin"
    assert main(["puffin", "inspect", str(big), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)["blobs"][0]["decoded"]
    assert len(d["deleted_rows"]) == 20 and d["deleted_rows_truncated"] is True
    assert main(["puffin", "inspect", str(big)]) == 0
    assert "(--all shows all" in capsys.readouterr().out


def test_inspect_estimate_equals_datasketches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = theta_bytes(50_000)  # estimation mode
    ours = tmp_path / "s.stats"
    est = compact_theta_sketch.deserialize(data).get_estimate()
    with ls.puffin.PuffinWriter(ours) as w:
        w.add_blob("apache-datasketches-theta-v1", data, fields=[3], codec="zstd", properties={"ndv": str(int(est))})
    assert main(["puffin", "inspect", str(ours), "--json"]) == 0
    decoded = json.loads(capsys.readouterr().out)["blobs"][0]["decoded"]
    assert decoded["estimate"] == est and decoded["estimation_mode"] is True
