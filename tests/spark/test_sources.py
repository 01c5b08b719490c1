"""The sources' rows (plain single-process loop, no Spark) against independent oracles: the writers' own
metadata in generated-seed1/expected.json (Iceberg Java, parquet-java, pyarrow), pyarrow and datasketches."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as papq
import pytest

from lakestruct.spark import SOURCES, demolake, full_schema, source
from lakestruct.spark.listing import list_files
from lakestruct.spark.rowsource import plain_loop


def rows(name: str, paths: list[str], **options: str) -> list[dict[str, Any]]:
    src = source(name)
    table = pa.Table.from_batches(list(plain_loop(src, paths, options)), schema=full_schema(src, options))
    out: list[dict[str, Any]] = table.to_pylist()
    return out


@pytest.fixture(scope="module")
def iceberg(corpus: Path) -> tuple[Path, dict[str, Any]]:
    d = corpus / "generated-seed1" / "iceberg"
    return d / "files", json.loads((d / "expected.json").read_text())


@pytest.fixture(scope="module")
def pq_expected(corpus: Path) -> tuple[Path, dict[str, Any]]:
    d = corpus / "generated-seed1" / "parquet"
    return d / "files", json.loads((d / "expected.json").read_text())


def test_every_schema_starts_with_file_and_ends_with_the_error_columns() -> None:
    for name, src in SOURCES.items():
        for opts in ({}, {"positions": "true"}, {"explode": "true"}):
            names = full_schema(src, opts).names
            assert names[0] == "file", name
            assert names[-4:] == ["error_rule", "error_offset", "error_path", "error"], name
            assert all(n == n.lower() and " " not in n and "-" not in n for n in names), name


def test_deletion_vectors_match_iceberg_java(iceberg: tuple[Path, dict[str, Any]]) -> None:
    files, exp = iceberg
    got = rows("deletion_vectors", [str(files)], positions="true")
    assert all(r["error_rule"] is None for r in got)
    by_key = {(Path(r["file"]).name, r["offset"]): r for r in got}
    n = 0
    for name, f in exp["files"].items():
        if f["kind"] != "deletion-vectors":
            continue
        for b in f["blobs"]:
            r = by_key.pop((name, b["content_offset"]))
            assert (r["kind"], r["referenced_data_file"], r["length"]) == ("puffin", b["referenced_data_file"], b["content_size_in_bytes"])
            assert r["cardinality"] == b["record_count"] == b["positions"]["count"]
            pos = np.array(r["positions"], dtype="<i8")
            assert hashlib.sha256(pos.tobytes()).hexdigest() == b["positions"]["sha256"]
            assert (r["min_position"], r["max_position"]) == (b["positions"]["first"][0], b["positions"]["last"][-1])
            n += 1
    assert n == 37 and not by_key


def test_exploded_positions_are_the_deleted_rows(iceberg: tuple[Path, dict[str, Any]]) -> None:
    files, exp = iceberg
    name = "dv_patterns.dv.seq2.0.puffin"
    got = rows("deletion_vectors", [str(files / name)], explode="true")
    assert set(full_schema(source("deletion_vectors"), {"explode": "true"}).names) >= {"position", "referenced_data_file"}
    for b in exp["files"][name]["blobs"]:
        pos = [r["position"] for r in got if r["referenced_data_file"] == b["referenced_data_file"]]
        assert pos == sorted(pos) and len(pos) == b["record_count"]
        assert hashlib.sha256(np.array(pos, dtype="<i8").tobytes()).hexdigest() == b["positions"]["sha256"]


def test_puffin_blobs_match_iceberg_metadata_and_datasketches(iceberg: tuple[Path, dict[str, Any]]) -> None:
    files, exp = iceberg
    got = rows("puffin", [str(files)])
    for name, f in exp["files"].items():
        mine = sorted((r for r in got if Path(r["file"]).name == name), key=lambda r: r["blob_index"])
        if f["kind"] == "theta-statistics":
            meta = f["statistics"]["blob-metadata"]
            assert len(mine) == len(meta)
            for r, m in zip(mine, meta, strict=True):
                ds = m["datasketches_python"]
                assert (r["type"], r["fields"], r["snapshot_id"], r["sequence_number"]) == (
                    m["type"],
                    m["fields"],
                    m["snapshot-id"],
                    m["sequence-number"],
                )
                assert dict(r["properties"]) == m["properties"] and r["ndv"] == int(m["properties"]["ndv"])
                assert r["ndv_ok"] is True and r["error_rule"] is None
                assert r["theta_estimate"] == pytest.approx(ds["estimate"], rel=1e-12)
                assert r["theta_lower_bound"] == pytest.approx(ds["lower_bound_2sd"], rel=1e-9)
                assert r["theta_upper_bound"] == pytest.approx(ds["upper_bound_2sd"], rel=1e-9)
                assert r["theta_retained"] == ds["num_retained"]
        else:
            assert [(r["offset"], r["length"], r["cardinality"]) for r in mine] == [
                (b["content_offset"], b["content_size_in_bytes"], b["record_count"]) for b in f["blobs"]
            ]
            assert all(r["snapshot_id"] == -1 and r["codec"] is None for r in mine)


def test_parquet_pages_match_every_page_header_parquet_java_read(pq_expected: tuple[Path, dict[str, Any]]) -> None:
    files, exp = pq_expected
    got = rows("parquet_pages", [str(files)])
    assert all(r["error_rule"] is None for r in got)
    checked = 0
    for name, f in exp["files"].items():
        mine = [r for r in got if Path(r["file"]).name == name]
        for rg_i, rg in enumerate(f["row_groups"]):
            for c in rg["columns"]:
                p = c["pages"]
                ours = [r for r in mine if r["row_group"] == rg_i and r["column_path"] == c["path_in_schema"]]
                assert [r["offset"] for r in ours] == p["offset"]
                assert [r["header_size"] for r in ours] == p["header_size"]
                assert [r["page_type"] for r in ours] == p["type"]
                assert [r["compressed_size"] for r in ours] == p["compressed_page_size"]
                assert [r["uncompressed_size"] for r in ours] == p["uncompressed_page_size"]
                assert [r["num_values"] for r in ours] == p["num_values"]
                assert [r["encoding"] for r in ours] == p["encoding"]
                assert [r["num_nulls"] for r in ours] == p["num_nulls"]
                assert [r["crc"] for r in ours] == [None if x is None else x & 0xFFFFFFFF for x in p["crc"]]
                assert [r["crc_ok"] for r in ours] == [None if x is None else True for x in p["crc"]]
                assert [r["page_ordinal"] for r in ours] == list(range(len(ours)))
                checked += len(ours)
        assert len(mine) == sum(len(c["pages"]["offset"]) for rg in f["row_groups"] for c in rg["columns"])
    assert checked > 500


def test_parquet_chunks_match_parquet_java_and_pyarrow(pq_expected: tuple[Path, dict[str, Any]]) -> None:
    files, exp = pq_expected
    got = rows("parquet_chunks", [str(files)])
    assert all(r["error_rule"] is None for r in got)
    decoded = 0
    for name, f in exp["files"].items():
        mine = {(r["row_group"], r["column_path"]): r for r in got if Path(r["file"]).name == name}
        views = {(v["row_group"], v["path_in_schema"]): v for v in f["pyarrow_view"]}
        md = papq.ParquetFile(files / name).metadata
        assert len(mine) == sum(len(rg["columns"]) for rg in f["row_groups"])
        for rg_i, rg in enumerate(f["row_groups"]):
            for c in rg["columns"]:
                path = c["path_in_schema"]
                r = mine[(rg_i, path)]
                assert (r["physical_type"], r["codec"], sorted(r["encodings"])) == (c["physical_type"], c["codec"], sorted(c["encodings"]))
                assert (r["num_values"], r["total_compressed_size"], r["total_uncompressed_size"]) == (
                    c["num_values"],
                    c["total_compressed_size"],
                    c["total_uncompressed_size"],
                )
                assert (r["data_page_offset"], r["column_index_offset"], r["offset_index_offset"]) == (
                    c["data_page_offset"],
                    c.get("column_index_offset"),
                    c.get("offset_index_offset"),
                )
                assert r["has_page_index"] == (c.get("column_index") is not None and c.get("offset_index") is not None)
                assert r["has_dictionary"] == (c["dictionary_page_offset"] is not None)
                assert r["row_group_rows"] == md.row_group(rg_i).num_rows
                st = c.get("statistics")
                if st is not None and st.get("has_min_max"):
                    assert (r["min_raw"].hex(), r["max_raw"].hex()) == (st["min_hex"], st["max_hex"])
                    assert r["null_count"] == st["null_count"]
                v = views[(rg_i, path)]["statistics"]
                plain_int = r["logical_type"] in (None, "INTEGER") or r["logical_type"].startswith(("INT_", "UINT_"))
                if v and v.get("has_min_max") and c["physical_type"] in ("INT32", "INT64") and plain_int:
                    try:
                        lo, hi = int(v["min"]), int(v["max"])
                    except ValueError:
                        continue  # rendered as something else by pyarrow
                    assert (r["min"], r["max"]) == (str(lo), str(hi))
                    decoded += 1
    assert decoded > 20


def test_lake_files_say_what_scan_says(corpus: Path) -> None:
    from lakestruct.scan import check_file, detect

    paths = [str(corpus / "parquet-testing" / "bad_data"), str(corpus / "puffin-tools")]
    got = rows("lake_files", paths)
    assert len(got) == len(list_files(paths))
    for r in got:
        fmt = detect(r["file"])
        assert r["format"] == fmt
        if fmt is None:
            assert r["ok"] is None and r["error_rule"] is None
            continue
        res = check_file(r["file"], fmt)
        assert (r["ok"], r["error_rule"], r["error_offset"]) == (
            res.ok,
            res.rule if not res.ok else None,
            res.offset if not res.ok else None,
        )
    assert any(r["ok"] is False for r in got) and any(r["ok"] for r in got)


def test_a_broken_file_becomes_an_error_row_and_the_rest_survives(demo_lake: Path) -> None:
    got = rows("deletion_vectors", [str(demo_lake)])
    errors = {Path(r["file"]).name: r for r in got if r["error_rule"] is not None}
    assert errors["bad-crc.dv.bin"]["error_rule"] == "deletion-vector.crc"
    assert errors["wrong-cardinality.puffin"]["error_rule"] == "deletion-vector.cardinality"
    assert all(r["error_offset"] is not None and r["error_path"] for r in errors.values())
    good = [r for r in got if r["error_rule"] is None and f"/{demolake.EVENTS}/" not in r["file"]]  # the Iceberg table's own
    assert sorted(r["cardinality"] for r in good if r["kind"] == "puffin") == [
        3,
        100,
        250,
        1250,
    ]  # 5,000 rows per file: 2%, 5%, 25%, and 3 rows of a file not in the lake
    assert sorted(r["cardinality"] for r in good if r["kind"] == "dv-file") == [3, 100]
    # a blob that breaks a rule keeps its footer columns in the puffin source
    blobs = rows("puffin", [str(demo_lake / "broken" / "wrong-cardinality.puffin")])
    assert len(blobs) == 1 and blobs[0]["type"] == "deletion-vector-v1" and blobs[0]["error_rule"] == "deletion-vector.cardinality"
    assert blobs[0]["referenced_data_file"].endswith("00003-0-uncompressed.parquet")


def test_deletion_vectors_decode_at_most_the_scan_cap_per_file(corpus: Path, traced: Any) -> None:
    """A 2^28-position vector of a few hundred bytes (fuzz-repro) is an error row under the one cap every command
    uses (2^24 positions a file), not gigabytes of positions."""
    import tracemalloc

    from lakestruct.roaring.read import CHECK_MAX_POSITIONS

    paths = [str(corpus / "fuzz-repro" / "crafted_dv_runs_2gib.bin"), str(corpus / "fuzz-repro" / "crafted_paimon32_2p28_runs.index")]
    got = rows("deletion_vectors", paths)
    assert [r["error_rule"] for r in got] == ["roaring.max-positions"] * 2
    assert tracemalloc.get_traced_memory()[1] < 8 * CHECK_MAX_POSITIONS  # at most one capped array was ever built
    blobs = rows("puffin", [str(corpus / "puffin-tools")])
    assert blobs and all(r["error_rule"] != "roaring.max-positions" for r in blobs)
