"""The Paimon inputs of the second fuzzing campaign (``../shared/fuzz-repro-round2``, read in place; see its README),
and the Paimon items of issue 17 (deleted rows of pre-1.0 index manifests, upper-case schemes, level-0 files).

Before: a huge ``timeMillis`` (ValueError in ``paimon snapshots``), JSON nested 100,000 deep (RecursionError), a NUL in
a file name (ValueError), invalid UTF-8 in an ORC/Parquet manifest (UnicodeDecodeError) were tracebacks;
``BitmapIndex.check()`` decoded 40 copies of a 2^24-row bitmap (MemoryError at 3 GB), ``parse_bsi`` five 512 MiB
arrays, ``rows(None)`` three 2 GiB temporaries.
"""

from __future__ import annotations

import json
import shutil
import time
import tracemalloc
from pathlib import Path
from typing import Any

import fastavro
import numpy as np
import pytest

from lakestruct import paimon, scan
from lakestruct.avro.container import AvroFile
from lakestruct.cli import main
from lakestruct.errors import FormatError, LimitError
from lakestruct.paimon.indexes import parse_bitmap, parse_bsi
from lakestruct.paimon.read import _arrow_records, external_location, parse_snapshot, read_data_manifest
from lakestruct.paimon.types import parse_type

INT = parse_type("INT")


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


# -- snapshots ------------------------------------------------------------------------------------------------


def test_a_time_past_year_9999_is_printed_raw(fuzz_round2: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t = fuzz_round2 / "paimon_snapshot_timemillis_table"
    snaps = paimon.open_table(t).snapshots()
    assert {s.time_millis for s in snaps} == {10**17}  # what the README says (a long, but year ~3.2 million)
    rc, out, err = _cli(["paimon", "snapshots", str(t)], capsys)
    assert rc == 0 and out.count(f"{10**17} ms") == len(snaps) and err == ""
    rc, out, _ = _cli(["paimon", "snapshots", str(t), "--json"], capsys)
    assert rc == 0 and [s["time_millis"] for s in json.loads(out)["snapshots"]] == [10**17] * len(snaps)


@pytest.mark.parametrize("value", [2**63, -(2**63) - 1, 10**40])
def test_a_long_field_past_a_java_long_is_a_rule(fuzz_round2: Path, value: int) -> None:
    doc = json.loads((fuzz_round2 / "paimon_snapshot_timemillis_table" / "snapshot" / "snapshot-1").read_text())
    for key in ("timeMillis", "totalRecordCount"):
        bad = {**doc, key: value}
        with pytest.raises(FormatError) as ei:
            parse_snapshot(json.dumps(bad).encode())
        assert (ei.value.rule, ei.value.path) == ("paimon.snapshot.field", f"snapshot.{key}") and "Java long" in ei.value.message
    edge = {**doc, "timeMillis": 2**63 - 1}
    assert parse_snapshot(json.dumps(edge).encode()).time_millis == 2**63 - 1


def test_json_nested_past_the_stack_is_a_rule(fuzz_round2: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t = fuzz_round2 / "paimon_json_recursion_table"
    deep = max((t / "snapshot").glob("snapshot-*"), key=lambda p: p.stat().st_size)
    assert deep.read_bytes().count(b"[") >= 100_000
    with pytest.raises(FormatError) as ei:
        parse_snapshot(deep.read_bytes(), name=str(deep))
    assert ei.value.rule == "paimon.snapshot.json"
    for cmd in (["paimon", "snapshots"], ["paimon", "files"]):
        rc, _, err = _cli([*cmd, str(t)], capsys)
        assert rc == 1 and "paimon.snapshot.json" in err and "Traceback" not in err and "RecursionError" not in err
    res = scan.check_file(str(t), "paimon-table")
    assert not res.ok and res.rule == "paimon.snapshot.json"
    schema_doc = b'{"id": 0, "fields": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with pytest.raises(FormatError) as ei:
        paimon.parse_schema(schema_doc)
    assert ei.value.rule == "paimon.schema.json"


def test_a_nul_in_a_file_name_is_a_rule_naming_the_field(fuzz_round2: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t = fuzz_round2 / "paimon_nul_in_file_name_table"
    table = paimon.open_table(t)
    with pytest.raises(FormatError) as ei:
        table.live_files()
    e = ei.value
    assert (e.rule, e.path) == ("paimon.file-name", "snapshot.deltaManifestList") and e.source.endswith("snapshot-2")
    rc, _, err = _cli(["paimon", "files", str(t)], capsys)
    assert rc == 1 and "paimon.file-name" in err and "snapshot.deltaManifestList" in err and "Traceback" not in err
    assert scan.check_file(str(t), "paimon-table").rule == "paimon.file-name"
    # a name from a manifest record reaches the file system through one reader: refused there too
    with pytest.raises(FormatError) as ei:
        read_data_manifest(str(t / "manifest" / "manifest-x\x00"))
    assert ei.value.rule == "paimon.file-name"


@pytest.mark.parametrize("fmt", ["parquet", "orc"])
def test_invalid_utf8_in_an_arrow_manifest_is_a_format_error(tmp_path: Path, fmt: str) -> None:
    pa = pytest.importorskip("pyarrow")
    # a string column whose bytes are not UTF-8, built without validation, as a broken writer would store it
    names = pa.Array.from_buffers(pa.string(), 2, [None, pa.py_buffer(np.array([0, 3, 6], dtype=np.int32).tobytes()),
                                                    pa.py_buffer(b"ok!\xff\xfe\xfd")])
    table = pa.table({"_FILE_NAME": names, "_KIND": pa.array([0, 0], pa.int8())})
    path = tmp_path / f"manifest-bad.{fmt}"
    from pyarrow import orc

    if fmt == "parquet":
        import pyarrow.parquet as papq

        papq.write_table(table, path)
    else:
        orc.write_table(table, str(path))
    data = path.read_bytes()
    if fmt == "parquet":
        import pyarrow.parquet as papq

        back = papq.read_table(path)
    else:
        back = orc.ORCFile(str(path)).read()
    with pytest.raises(UnicodeDecodeError):  # what pyarrow does: it reads the file, then cannot convert the strings
        back.to_pylist()
    with pytest.raises(FormatError) as ei:
        list(_arrow_records(data, str(path)))
    assert ei.value.rule == "paimon.manifest.format" and ei.value.source == str(path)
    with pytest.raises(FormatError) as ei:
        read_data_manifest(str(path))
    assert ei.value.rule == "paimon.manifest.format"


# -- data-file indexes ----------------------------------------------------------------------------------------


def test_bitmap_check_holds_one_compact_bitmap_at_a_time(fuzz_round2: Path, traced: None) -> None:
    data = (fuzz_round2 / "paimon_bitmap_check_duplicate_entries.bin").read_bytes()
    ix = parse_bitmap(data, INT)
    assert (ix.version, ix.row_count, len(ix.entries)) == (2, 1 << 24, 40)  # as the README says
    base, _ = tracemalloc.get_traced_memory()
    with pytest.raises(FormatError) as ei:
        ix.check()
    _, peak = tracemalloc.get_traced_memory()
    assert ei.value.rule == "paimon.file-index.bitmap-overlap" and "row 0 is listed under two values" in ei.value.message
    assert peak - base < 16 << 20  # 40 x 128 MiB before


def test_bitmap_check_passes_paimon_java_s_own_indexes() -> None:
    # Paimon Java's payloads (tests/paimon/test_file_index.py): no overlap, so check() passes, and the rows of every
    # key are the rows that hold its value
    from tests.paimon.test_file_index import BITMAP_JAVA

    for tname, values, v1, v2, _ in BITMAP_JAVA:
        for payload in (v1, v2):
            ix = parse_bitmap(bytes.fromhex(payload), parse_type(tname))
            ix.check()
            rows = sorted(r for _, a in ix.items() for r in a.tolist())
            assert rows == [i for i, v in enumerate(values) if v is not None]


def test_bsi_refuses_rows_it_cannot_hold_before_decoding(fuzz_round2: Path, traced: None) -> None:
    data = (fuzz_round2 / "paimon_bsi_parse_memory.bin").read_bytes()
    t0 = time.perf_counter()
    with pytest.raises(LimitError) as ei:
        parse_bsi(data, INT)
    _, peak = tracemalloc.get_traced_memory()
    assert ei.value.rule == "roaring.max-positions" and "67108864 positions" in ei.value.message
    assert peak < 16 << 20 and time.perf_counter() - t0 < 5  # five 512 MiB arrays, a MemoryError, before
    # through a table, the data file's row count is checked first (the payload says 2^26 rows)
    with pytest.raises(FormatError) as ei:
        parse_bsi(data, INT, row_count=1000)
    assert ei.value.rule == "paimon.file-index.row-count"
    # max_positions= lifts the bound for a payload one trusts (here only to see the next rule, not to decode it)
    with pytest.raises(LimitError):
        parse_bsi(data, INT, max_positions=1 << 25)


def test_bsi_null_rows_are_bounded(fuzz_round2: Path, traced: None) -> None:
    ix = parse_bsi((fuzz_round2 / "paimon_bsi_null_rows_2p28.bin").read_bytes(), INT)
    assert ix.row_count == 2**28 - 1 and ix.not_null_rows().size == 0
    for call in (lambda: ix.rows(None), lambda: ix.null_rows()):
        with pytest.raises(LimitError) as ei:
            call()
        assert ei.value.rule == "roaring.max-positions"
    _, peak = tracemalloc.get_traced_memory()
    assert peak < 16 << 20
    # the complement itself: every row no slice holds, as the set difference says
    rng = np.random.default_rng(7)
    rows = np.unique(rng.integers(0, 5000, 3000)).astype(np.int64)
    small = type(ix)(5000, INT, rows, np.zeros(rows.size, dtype=np.int64), (0, 0), None)
    assert small.null_rows().tolist() == sorted(set(range(5000)) - set(rows.tolist()))


# -- tables: external paths, pre-1.0 deletion vectors, level 0 ------------------------------------------------


def test_schemes_are_case_insensitive(tmp_path: Path) -> None:
    f = tmp_path / "x.parquet"
    f.write_bytes(b"PAR1")
    for spelled in (f"FILE:{f}", f"File:{f}", f"FILE://{f}", f"file://LOCALHOST{f}", f"file:{f}"):
        assert external_location(spelled) == str(f), spelled
        assert paimon.read._read_bytes(external_location(spelled)) == b"PAR1"
    assert external_location("S3://bucket/t/data.parquet") == "s3://bucket/t/data.parquet"
    assert external_location("/plain/path") == "/plain/path" and external_location("C:/x") == "C:/x"


def _without_cardinality(table: Path) -> None:
    """Rewrite the table's index manifests as Paimon before 1.0 wrote them: DeletionVectorMeta without _CARDINALITY."""
    for path in sorted((table / "manifest").glob("index-manifest-*")):
        av = AvroFile.from_bytes(path.read_bytes())
        schema: Any = json.loads(json.dumps(av.schema))
        ranges = next(f for f in schema["fields"] if f["name"] == "_DELETIONS_VECTORS_RANGES")
        meta = ranges["type"][1]["items"]
        meta["fields"] = [f for f in meta["fields"] if f["name"] != "_CARDINALITY"]
        records = list(av.records())
        for r in records:
            for m in r["_DELETIONS_VECTORS_RANGES"] or []:
                del m["_CARDINALITY"]
        with path.open("wb") as out:
            fastavro.writer(out, fastavro.parse_schema(schema), records, codec="null")


def test_pre_1_0_deleted_rows_have_one_answer(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = corpus / "generated-seed1" / "paimon" / "tables" / "de_dv"
    if not src.is_dir():
        pytest.skip("the generated de_dv table is not in this corpus")
    t = tmp_path / "de_dv"
    shutil.copytree(src, t)
    _without_cardinality(t)
    table = paimon.open_table(t)
    live = table.live_files()
    assert live and all(f.deletion_file is None or f.deletion_file.cardinality is None for f in live)
    decoded = {f: int(p.size) for f, p in table.deletion_vectors().items()}  # the vectors themselves
    assert sum(decoded.values()) > 0
    rc, out, _ = _cli(["paimon", "files", str(t), "--json"], capsys)
    rows = json.loads(out)["files"]
    assert rc == 0 and sum(r["deleted_rows"] for r in rows) == sum(decoded.values())
    by_name = {Path(p).name: n for p, n in decoded.items()}
    assert {Path(r["path"]).name: r["deleted_rows"] for r in rows if r["deletion_file"]} == by_name
    rc, out, _ = _cli(["paimon", "files", str(t)], capsys)
    assert f"{sum(decoded.values())} deleted by deletion vectors" in out and " ? " not in out
    rc, out, _ = _cli(["paimon", "dv", str(t), "--json"], capsys)
    assert rc == 0
    res = scan.check_file(str(t), "paimon-table")
    assert res.ok and f"({sum(decoded.values())} deleted rows)" in res.summary


def test_level_0_files_are_noted_where_dv_readers_skip_them(corpus: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    src = corpus / "generated-seed1" / "paimon" / "tables" / "pk"
    if not src.is_dir():
        pytest.skip("the generated pk table is not in this corpus")
    rc, out, _ = _cli(["paimon", "files", str(src)], capsys)
    assert rc == 0 and "level-0" not in out  # no deletion vectors: level 0 is read like any level
    t = tmp_path / "pk"
    shutil.copytree(src, t)
    for s in (t / "schema").glob("schema-*"):
        doc = json.loads(s.read_text())
        doc["options"]["deletion-vectors.enabled"] = "true"
        s.write_text(json.dumps(doc))
    live = paimon.open_table(t).live_files()
    level0 = [f for f in live if f.level == 0]
    assert level0
    rc, out, _ = _cli(["paimon", "files", str(t)], capsys)
    assert rc == 0
    assert f"note: {len(level0)} level-0 file(s), {sum(f.row_count for f in level0)} rows" in out and "skip level-0" in out
    rc, out, _ = _cli(["paimon", "files", str(t), "--json"], capsys)
    assert "skip level-0" in json.loads(out)["note"]


# -- Avro arrays: a bound on the items a block may hold, in both twins ------------------------------------------


def test_an_array_of_2_27_nulls_is_refused_by_both_twins(fuzz_round2: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lakestruct.avro.container import MIN_ITEMS
    from lakestruct.paimon.read import _manifest_file_meta, decode_avro

    t = fuzz_round2 / "paimon_avro_nullcounts_table"
    # the manifest list whose one block decompresses to 2^27 bytes (what the README describes)
    bomb = next(p for p in sorted((t / "manifest").glob("manifest-list-*"))
                if any(len(b.body) >= 1 << 27 for b in AvroFile.from_bytes(p.read_bytes()).blocks()))
    data = bomb.read_bytes()
    assert len(data) < 8_000 and AvroFile.from_bytes(data).max_items == MIN_ITEMS
    for compiled in (True, False):  # the compiled plan, then fastavro and the checked conversion (the reference)
        tracemalloc.start()
        t0 = time.perf_counter()
        try:
            with pytest.raises(LimitError) as ei:
                decode_avro(data, _manifest_file_meta, "manifest-file", compiled=compiled)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert ei.value.rule == "avro.items", compiled
        assert peak < 300 << 20 and time.perf_counter() - t0 < 10  # (the decompressed block is 128 MiB) 2.2 GB, 19-60 s before
    rc, _, err = _cli(["paimon", "files", str(t)], capsys)
    assert rc == 1 and "avro.items" in err and "Traceback" not in err


def _container(schema: dict[str, Any], body: bytes, count: int) -> bytes:
    def zz(n: int) -> bytes:
        n = (n << 1) ^ (n >> 63)
        out = bytearray()
        while True:
            b = n & 0x7F
            n >>= 7
            out.append(b | (0x80 if n else 0))
            if not n:
                return bytes(out)

    def s(b: bytes) -> bytes:
        return zz(len(b)) + b

    sync = bytes(range(16))
    meta = zz(2) + s(b"avro.schema") + s(json.dumps(schema).encode()) + s(b"avro.codec") + s(b"null") + zz(0)
    return b"Obj\x01" + meta + sync + zz(count) + zz(len(body)) + body + sync


def test_items_that_take_no_bytes_are_counted_from_the_block_headers() -> None:
    schema = {"type": "record", "name": "r", "fields": [{"name": "a", "type": {"type": "array", "items": "null"}}]}
    ok = _container(schema, bytes([0x06, 0x00]), 1)  # one record: an array of 3 nulls
    assert list(AvroFile.from_bytes(ok).records()) == [{"a": [None, None, None]}]  # as fastavro reads it
    bomb = _container(schema, bytes([0x80, 0x80, 0x80, 0x80, 0x08, 0x00]), 1)  # 2^30 nulls in 6 bytes
    t0 = time.perf_counter()
    with pytest.raises(LimitError) as ei:
        list(AvroFile.from_bytes(bomb).records())
    assert ei.value.rule == "avro.items" and time.perf_counter() - t0 < 2
