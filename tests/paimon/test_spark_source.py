"""The ``paimon_files`` Spark source: the plain loop (``lakestruct.spark.batches``) against generated-seed1's
expected.json and a broken table as an error row (the Spark read is in tests/spark/test_paimon_source.py, which
shares the run's one Spark session)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")

from lakestruct.spark.paimon_source import PAIMON_FILES, list_table_dirs  # noqa: E402
from lakestruct.spark.rowsource import batches  # noqa: E402

SEED = "generated-seed1/paimon"


def _rows(paths: list[str], options: dict[str, str] | None = None) -> list[dict[str, Any]]:
    opts = options or {}
    out: list[dict[str, Any]] = []
    for b in batches(PAIMON_FILES, list_table_dirs(paths, opts), opts):
        out += b.to_pylist()
    return out


def test_plain_loop_equals_expected(corpus: Path) -> None:
    exp = json.loads((corpus / SEED / "expected.json").read_text())["tables"]
    root = corpus / SEED
    tables = list_table_dirs([str(root)], {})
    assert [Path(t).name for t, _ in tables] == ["append_b", "append_p", "de_dv", "pk"]
    assert all(size > 0 for _, size in tables)
    rows = _rows([str(root)])
    assert all(r["error_rule"] is None for r in rows)
    for name, t in exp.items():
        mine = {r["path"][len(str(root / "tables" / name)) + 1 :]: r for r in rows if r["file"].endswith("/" + name)}
        want = {x["path"]: x for x in t["live_data_files"]}
        assert sorted(mine) == sorted(want), name
        for p, x in want.items():
            r = mine[p]
            assert (r["snapshot_id"], r["bucket"], r["row_count"], r["first_row_id"], r["file_name"]) == (
                t["latest"], x["bucket"], x["row_count"], x["first_row_id"], x["file_name"])
            assert r["partition"] == "/".join(f"{k}={v}" for k, v in x["partition"].items())
            if "min_key" in x:
                assert (json.loads(r["min_key"]), json.loads(r["max_key"])) == (x["min_key"], x["max_key"])
    for sid in (3, 4):  # the deletion vectors of each snapshot: what the index files hold for each data file
        want = {v["data_file"]: v["cardinality"] for f in exp["de_dv"]["deletion_vector_index_files"] if f["snapshot_id"] == sid
                for v in f["vectors"]}  # fmt: skip
        got = _rows([str(root / "tables/de_dv")], {"snapshot": str(sid)})
        assert {r["file_name"]: r["deleted_rows"] for r in got} == want
        assert all(r["index_kinds"] == ["deletion-vector"] and r["live_rows"] == r["row_count"] - r["deleted_rows"] for r in got)
    assert sum(r["live_rows"] for r in _rows([str(root / "tables/de_dv")])) == exp["de_dv"]["rows_read_back"]


def test_broken_table_is_an_error_row(corpus: Path, tmp_path: Path) -> None:
    shutil.copytree(corpus / SEED / "tables/de_dv", tmp_path / "de_dv")
    shutil.copytree(corpus / SEED / "tables/pk", tmp_path / "pk")
    index = next((tmp_path / "de_dv/index").glob("index-c67d4796*"))
    data = bytearray(index.read_bytes())
    data[-2] ^= 0x40
    index.write_bytes(bytes(data))
    rows = _rows([str(tmp_path)])
    broken = [r for r in rows if r["file"].endswith("de_dv")]
    assert len(broken) == 1 and broken[0]["error_rule"] == "paimon-dv.crc" and broken[0]["path"] is None
    assert len([r for r in rows if r["file"].endswith("pk") and r["error_rule"] is None]) == 8

