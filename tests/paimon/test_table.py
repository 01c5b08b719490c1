"""ls.paimon.open_table against real tables: the pypaimon-written tables of generated-seed1 (expected.json computed
without lakestruct), Paimon Java's golden warehouse (pypaimon's test resources), paimon-rust's fixtures; statistics
checked against pyarrow's reading of the data files; malformed metadata gets named errors."""

from __future__ import annotations

import hashlib
import json
import shutil
import tarfile
from pathlib import Path
from typing import Any

import fastavro
import numpy as np
import pytest

from lakestruct import paimon
from lakestruct.avro import avro_header, read_avro_records
from lakestruct.errors import ChecksumError, FormatError, SourceError

SEED = "generated-seed1/paimon"
GOLDEN = "paimon/paimon-python/pypaimon/tests/resources/pk_global_index_golden.tar.gz"
RUST = "paimon-rust/crates/paimon/tests/fixtures"
TABLES = ("append_p", "append_b", "pk", "de_dv")


@pytest.fixture(scope="module")
def expected(corpus: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((corpus / SEED / "expected.json").read_text())["tables"]
    return doc


@pytest.fixture(scope="module")
def golden(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("golden")
    with tarfile.open(corpus / GOLDEN) as tf:
        tf.extractall(out, filter="data")
    return out / "default.db"


def _sha(pos: np.ndarray[Any, Any]) -> str:
    return hashlib.sha256(pos.astype("<i8").tobytes()).hexdigest()


def _plain(v: Any) -> Any:
    """A record as expected.json spells it (bytes as hex, datetimes as str)."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, bytes):
        return v.hex()
    if v is not None and not isinstance(v, (int, float, str, bool)):
        return str(v)
    return v


@pytest.mark.parametrize("name", TABLES)
def test_snapshots_and_manifests(corpus: Path, expected: dict[str, Any], name: str) -> None:
    exp = expected[name]
    t = paimon.open_table(corpus / SEED / "tables" / name)
    assert t.latest_snapshot_id() == exp["latest"] and t.earliest_snapshot_id() == 1
    assert [s.id for s in t.snapshots()] == [s["id"] for s in exp["snapshots"]]
    for s in exp["snapshots"]:
        snap = t.snapshot(s["id"])
        j = s["json"]
        assert (snap.schema_id, snap.base_manifest_list, snap.delta_manifest_list, snap.commit_kind, snap.total_record_count,
                snap.delta_record_count, snap.index_manifest, snap.next_row_id, snap.writer_version) == (
            j["schemaId"], j["baseManifestList"], j["deltaManifestList"], j["commitKind"], j["totalRecordCount"],
            j["deltaRecordCount"], j.get("indexManifest"), j.get("nextRowId"), j.get("writerVersion"))  # fmt: skip
        assert [m.file_name for m in t.manifest_list(snap.base_manifest_list)] == s["manifests"]["baseManifestList"]
        assert [m.file_name for m in t.manifest_list(snap.delta_manifest_list)] == s["manifests"]["deltaManifestList"]
    schema = t.schema()
    assert [f.name for f in schema.fields] == [f["name"] for f in exp["schema"]["fields"]]
    assert list(schema.partition_keys) == exp["schema"]["partitionKeys"] and list(schema.primary_keys) == exp["schema"]["primaryKeys"]
    # every Avro file under manifest/ reads as fastavro decoded it for expected.json
    for fname, doc in exp["avro"].items():
        records = read_avro_records((Path(t.path) / "manifest" / fname).read_bytes())
        assert [_plain(r) for r in records] == doc["records"], fname


@pytest.mark.parametrize("name", TABLES)
def test_live_files(corpus: Path, expected: dict[str, Any], name: str) -> None:
    t = paimon.open_table(corpus / SEED / "tables" / name)
    got = {f.path[len(t.path) + 1 :]: f for f in t.live_files()}
    want = {x["path"]: x for x in expected[name]["live_data_files"]}
    assert sorted(got) == sorted(want)
    for path, x in want.items():
        f = got[path]
        assert (f.partition, f.bucket, f.row_count, f.file.first_row_id, f.file.file_name) == (
            x["partition"], x["bucket"], x["row_count"], x["first_row_id"], x["file_name"])
        assert Path(f.path).is_file()
        if "min_key" in x:
            assert t.key_range(f) == (x["min_key"], x["max_key"])
            assert [f.file.min_sequence_number, f.file.max_sequence_number] == x["sequence_numbers"]
            assert t.key_stats(f)["id"].min == x["min_key"]["id"]


def test_deletion_vectors(corpus: Path, expected: dict[str, Any]) -> None:
    t = paimon.open_table(corpus / SEED / "tables" / "de_dv")
    by_snapshot: dict[int, dict[str, Any]] = {}
    for f in expected["de_dv"]["deletion_vector_index_files"]:
        for v in f["vectors"]:
            by_snapshot.setdefault(f["snapshot_id"], {})[v["data_file_path"]] = (f["index_file"], v)
    assert sorted(by_snapshot) == [3, 4]
    for sid, vecs in by_snapshot.items():
        dvs = t.deletion_vectors(sid)
        assert sorted(p[len(t.path) + 1 :] for p in dvs) == sorted(vecs)
        live = {f.path[len(t.path) + 1 :]: f for f in t.live_files(sid)}
        for rel, (index_file, v) in vecs.items():
            pos = dvs[f"{t.path}/{rel}"]
            assert (pos.size, _sha(pos), pos[:20].tolist(), pos[-20:].tolist()) == (
                v["positions"]["count"], v["positions"]["sha256"], v["positions"]["first"], v["positions"]["last"])
            d = live[rel].deletion_file
            assert d is not None
            assert (d.index_file_name, d.offset, d.length, d.cardinality) == (index_file, v["offset"], v["length"], v["cardinality"])
            assert t.deletion_vector(live[rel]).tolist() == pos.tolist()  # one entry by its range
    # snapshots before the deletes have none
    assert t.deletion_vectors(2) == {} and all(f.deletion_file is None for f in t.live_files(2))
    # the rows a reader keeps: 4282 appended minus the deleted ones = pypaimon's read-back count
    kept = sum(f.row_count for f in t.live_files()) - sum(p.size for p in t.deletion_vectors().values())
    assert kept == expected["de_dv"]["rows_read_back"]


def test_java_golden_warehouse(golden: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    seen = 0
    for d in sorted(golden.iterdir()):
        t = paimon.open_table(d)
        h = t.hints()
        assert h["earliest"]["ok"] and h["latest"]["ok"]
        assert t.latest_snapshot_id() == max(t.snapshot_ids())
        schema = t.schema()
        assert schema.primary_keys == ("id",)
        for f in t.live_files():
            table = pq.read_table(f.path)
            assert table.num_rows == f.row_count
            lo, hi = t.key_range(f)
            ids = table.column("id").to_pylist()
            assert (lo["id"], hi["id"]) == (min(ids), max(ids))
            for col, st in t.value_stats(f).items():
                values = [v for v in table.column(col).to_pylist() if v is not None]
                assert st.null_count == table.num_rows - len(values)
                if values and isinstance(values[0], str):  # Paimon truncates string bounds to 16 characters
                    assert min(values).startswith(st.min[:15]) and st.max[:15] <= max(values)[:16]
                elif values and not isinstance(values[0], list):
                    assert (st.min, st.max) == (min(values), max(values)), col
            seen += 1
        kinds = {e.index_file.index_type for e in t.index_entries()}  # Java's global indexes, no deletion vectors
        assert kinds and "DELETION_VECTORS" not in kinds and t.deletion_vectors() == {}
    assert seen >= 4


def test_rust_fixtures(corpus: Path) -> None:
    fx = corpus / RUST
    for f in sorted(p for p in fx.glob("*_type*.json") if not p.name.startswith("highly")):
        doc = json.loads(f.read_text())
        t = paimon.parse_type(doc)
        assert t.nullable == f.stem.endswith("_nullable"), f.name
    nested = paimon.parse_type(json.loads((fx / "highly_complex_nested_row_type.json").read_text()))
    assert nested.root == "ROW" and nested.fields
    meta_schema = paimon.parse_type(json.loads((fx / "manifest_file_meta_schema.json").read_text()))
    assert [f.name for f in meta_schema.fields][:4] == ["_FILE_NAME", "_FILE_SIZE", "_NUM_ADDED_FILES", "_NUM_DELETED_FILES"]
    s = paimon.parse_snapshot((fx / "snapshot/snapshot-v3.json").read_bytes())
    assert (s.id, s.changelog_manifest_list, s.changelog_record_count, s.statistics) == (
        2, "manifest-list-ea4b892d-edc8-4ee7-9eee-7068b83a947b-2", 2, "statistics_string")
    s = paimon.parse_snapshot((fx / "snapshot/snapshot-v3-none-field.json").read_bytes())
    assert s.changelog_manifest_list is None and s.statistics is None
    # 0.9-era Avro: nullable root and nested records, snappy blocks; fastavro's own reader as the oracle
    for m in sorted((fx / "manifest").iterdir()):
        with m.open("rb") as fh:
            oracle = list(fastavro.reader(fh))
        if m.name.startswith("manifest-list"):
            metas = paimon.read_manifest_list(str(m))
            assert [(x.file_name, x.num_added_files, x.num_deleted_files, x.schema_id) for x in metas] == [
                (r["_FILE_NAME"], r["_NUM_ADDED_FILES"], r["_NUM_DELETED_FILES"], r["_SCHEMA_ID"]) for r in oracle]
            assert metas[0].min_bucket is None and metas[0].partition_stats is not None
        else:
            entries = paimon.read_data_manifest(str(m))
            assert [(e.kind, e.bucket, e.file.file_name, e.file.delete_row_count) for e in entries] == [
                (r["_KIND"], r["_BUCKET"], r["_FILE"]["_FILE_NAME"], r["_FILE"]["_DELETE_ROW_COUNT"]) for r in oracle]
            assert entries[0].file.file_source is None and entries[0].file.value_stats_cols is None
            types = [paimon.parse_type("STRING"), paimon.parse_type("INT")]
            assert paimon.decode_binary_row(entries[0].file.key_stats.min_values, types) == ["1", 1]  # type: ignore[union-attr]


# -- hints, malformed metadata ------------------------------------------------------------------------


def _copy(corpus: Path, tmp_path: Path, name: str) -> Path:
    dst = tmp_path / name
    shutil.copytree(corpus / SEED / "tables" / name, dst)
    return dst


def test_wrong_or_missing_hints_fall_back_to_listing(corpus: Path, tmp_path: Path) -> None:
    d = _copy(corpus, tmp_path, "de_dv")
    t = paimon.open_table(d)
    for text in ("2", "99", "garbage"):
        (d / "snapshot" / "LATEST").write_text(text)
        assert paimon.open_table(d).latest_snapshot_id() == 4
    assert paimon.open_table(d).hints()["latest"] == {"hint": None, "listed": 4, "ok": None}
    (d / "snapshot" / "LATEST").write_text("2")
    assert paimon.open_table(d).hints()["latest"]["ok"] is False
    (d / "snapshot" / "LATEST").unlink()
    (d / "snapshot" / "EARLIEST").write_text("3")
    t = paimon.open_table(d)
    assert (t.latest_snapshot_id(), t.earliest_snapshot_id()) == (4, 1)
    (d / "snapshot" / "snapshot-1").unlink()
    assert paimon.open_table(d).earliest_snapshot_id() == 2
    with pytest.raises(SourceError):
        paimon.open_table(tmp_path / "nowhere")


def _rewrite_avro(path: Path, change: Any) -> None:
    data = path.read_bytes()
    schema, _ = avro_header(data)
    records = change(list(read_avro_records(data)))
    with path.open("wb") as fh:
        fastavro.writer(fh, schema, records, codec="null")


def test_malformed_metadata_named_rules(corpus: Path, tmp_path: Path) -> None:
    def fails(d: Path, rule: str, call: Any = lambda t: t.deletion_vectors()) -> FormatError:
        with pytest.raises(FormatError) as ei:
            call(paimon.open_table(d))
        assert ei.value.rule == rule, ei.value
        return ei.value

    d = _copy(corpus, tmp_path, "de_dv")
    snap = d / "snapshot" / "snapshot-4"
    good = snap.read_bytes()
    snap.write_bytes(good[:40])
    fails(d, "paimon.snapshot.json")
    snap.write_text(json.dumps({**json.loads(good), "schemaId": "zero"}))
    e = fails(d, "paimon.snapshot.field")
    assert e.path == "snapshot.schemaId" and e.source == str(snap)
    snap.write_text(json.dumps({**json.loads(good), "id": 3}))
    fails(d, "paimon.snapshot.id")
    snap.write_bytes(good)

    index_manifest = d / "manifest" / json.loads(good)["indexManifest"]
    raw = index_manifest.read_bytes()
    index_manifest.write_bytes(raw[:-30])
    fails(d, "avro.truncated")
    index_manifest.write_bytes(raw[:-1] + bytes([raw[-1] ^ 1]))
    fails(d, "avro.sync")
    index_manifest.write_bytes(b"Obj\x02" + raw[4:])
    fails(d, "avro.magic")

    def cardinality(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        recs[0]["_DELETIONS_VECTORS_RANGES"][0]["_CARDINALITY"] += 1
        return recs

    index_manifest.write_bytes(raw)
    _rewrite_avro(index_manifest, cardinality)
    fails(d, "paimon-dv.cardinality")
    fails(d, "paimon-dv.cardinality", lambda t: t.deletion_vector(next(f for f in t.live_files() if f.deletion_file)))

    def length(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        recs[0]["_DELETIONS_VECTORS_RANGES"][0]["f2"] += 8
        return recs

    index_manifest.write_bytes(raw)
    _rewrite_avro(index_manifest, length)
    fails(d, "paimon-dv.meta-range")

    def row_count(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        recs[0]["_ROW_COUNT"] = 5
        return recs

    index_manifest.write_bytes(raw)
    _rewrite_avro(index_manifest, row_count)
    fails(d, "paimon.index.row-count")
    index_manifest.write_bytes(raw)

    # a flipped bit in a vector: the CRC catches it
    index_file = d / "index" / "index-c67d4796-5a61-4dce-99c1-dabecef8f9be-1"
    original = index_file.read_bytes()
    data = bytearray(original)
    data[30] ^= 0x01
    index_file.write_bytes(bytes(data))
    with pytest.raises(ChecksumError) as ei:
        paimon.open_table(d).deletion_vectors()
    assert ei.value.rule == "paimon-dv.crc" and ei.value.source == str(index_file)
    index_file.write_bytes(original + b"\x00")
    fails(d, "paimon.index.file-size")


def test_manifest_merge_rules(corpus: Path, tmp_path: Path) -> None:
    d = _copy(corpus, tmp_path, "append_p")
    t = paimon.open_table(d)
    s = t.snapshot()
    metas = t.data_manifests(s)
    first = d / "manifest" / metas[0].file_name
    raw = first.read_bytes()

    def delete_one(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [recs[0], {**recs[0], "_KIND": 1}, *recs[1:]]

    _rewrite_avro(first, delete_one)
    live = paimon.open_table(d).live_files()
    assert len(live) == 5  # the ADD then DELETE of one file cancel out

    first.write_bytes(raw)
    _rewrite_avro(first, lambda recs: [*recs, recs[0]])
    with pytest.raises(FormatError, match="added twice") as ei:
        paimon.open_table(d).live_files()
    assert ei.value.rule == "paimon.manifest.duplicate-add"

    first.write_bytes(raw)
    _rewrite_avro(first, lambda recs: [{**recs[0], "_FILE": {**recs[0]["_FILE"], "_FILE_NAME": "gone.parquet"}, "_KIND": 1}, *recs])
    with pytest.raises(FormatError) as ei:
        paimon.open_table(d).live_files()
    assert ei.value.rule == "paimon.manifest.delete-unknown"

    first.write_bytes(raw)
    _rewrite_avro(first, lambda recs: [{**recs[0], "_VERSION": 1}])
    with pytest.raises(FormatError, match="recreate") as ei:
        paimon.open_table(d).live_files()
    assert ei.value.rule == "paimon.manifest.version"

    first.write_bytes(raw)
    _rewrite_avro(first, lambda recs: [{**recs[0], "_PARTITION": b"\x00\x00\x00\x01" + bytes(8) + b"\x00" * 4 + b"\x00\x00\x10\x00"}])
    with pytest.raises(FormatError) as ei:
        paimon.open_table(d).live_files()
    assert ei.value.rule == "paimon.binary-row.offset" and ei.value.path == "partition.p"


def test_partition_paths() -> None:
    assert paimon.partition_path({"dt": "2024-01-01", "h": 3}) == "dt=2024-01-01/h=3"
    assert paimon.partition_path({"a": None, "b": ""}) == "a=__DEFAULT_PARTITION__/b=__DEFAULT_PARTITION__"
    assert paimon.partition_path({"s": "a/b:c%"}) == "s=a%2Fb%3Ac%25"


def test_external_locations_from_hadoop_paths() -> None:
    # Paimon records external paths as Hadoop path strings: their local forms become local paths; URLs stay
    from lakestruct.paimon.read import external_location

    assert external_location("file:/data/ext/p=1/bucket-0/f.parquet") == "/data/ext/p=1/bucket-0/f.parquet"
    assert external_location("file:///data/f.parquet") == "/data/f.parquet"
    assert external_location("file://localhost/data/f.parquet") == "/data/f.parquet"
    assert external_location("file://otherhost/data/f.parquet") == "file://otherhost/data/f.parquet"
    assert external_location("s3://bucket/ext/f.parquet") == "s3://bucket/ext/f.parquet"
    assert external_location("oss://bucket/f") == "oss://bucket/f"
    assert external_location("file:relative/f") == "file:relative/f"
