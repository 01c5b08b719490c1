"""The README's Python tour runs as written, on real files put in place of its example paths."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

import lakestruct as ls

REPO = Path(__file__).resolve().parents[2]


def tour() -> str:
    text = (REPO / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    (code,) = [b for b in blocks if b.startswith("import lakestruct as ls")]
    return code


def test_the_api_tour_runs(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    places = {
        '"x.puffin"': corpus / "puffin-tools/src/test/resources/deletion-vector-v1.puffin",  # its DV blob: offset 4, length 46
        '"stats.puffin"': corpus / "puffin-tools/src/test/resources/apache-datasketches-theta-v1.puffin",
        '"out.puffin"': tmp_path / "out.puffin",
        '"f.parquet"': corpus / "parquet-testing/data/data_index_bloom_encoding_stats.parquet",  # has a bloom filter
        '"a.b"': "String",  # its one column
        '"nested.parquet"': corpus / "seed-files/nested.parquet",
    }
    code = tour()
    for placeholder, real in places.items():
        assert placeholder in code, placeholder  # the tour still uses it: keep this table in step
        code = code.replace(placeholder, repr(str(real)))
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    scope: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), scope)
    printed = out.getvalue().splitlines()
    assert printed[0] == "Trino version testversion ['deletion-vector-v1']"
    assert [line.split(" ", 1)[0] for line in printed[1:4]] == ["(1,)", "(2,)", "(3,)"]  # one sketch per column
    assert printed[-1] in ("True", "False")  # the bloom filter probe ran
    dv = scope["dv"]
    assert isinstance(dv, ls.deletes.DeletionVector) and dv.positions().tolist() == [0, 2, 4]
    written = ls.deletes.read_deletion_vectors(tmp_path / "out.puffin")
    assert written["s3://bucket/t/data/f.parquet"].positions().tolist() == [3, 7, 2**32 + 1]
    assert scope["bf"] is not None  # the bloom filter probe
    assert set(ls.twins()) == {"roaring", "thrift", "avro", "paimon", "delta", "chunks"}  # paimon: the old name of avro
