"""formats/paimon/*.ksy: the Kaitai specs, the Web IDE's JavaScript path, the construct specs and lakestruct's readers
agree on real Paimon files (Paimon Java's compatibility blobs, pypaimon-written index files, manifests' BinaryRows)
and on random rows and deletion vectors (hypothesis), with pyroaring as the independent Roaring oracle."""

from __future__ import annotations

import datetime
import io
import struct
from decimal import Context, Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kaitaistruct import KaitaiStream
from lakestruct._generated.paimon_binary_row import PaimonBinaryRow
from lakestruct._generated.paimon_dv_index import PaimonDvIndex
from lakestruct._generated.paimon_file_index import PaimonFileIndex
from pyroaring import BitMap, BitMap64

from lakestruct import deletes, paimon
from lakestruct._kaitai import kaitai_call
from lakestruct.avro import read_avro_records
from lakestruct.errors import FormatError, MagicError
from lakestruct.paimon.spec import BINARY_ROW, DV_INDEX_FILE, FILE_INDEX
from lakestruct.paimon.types import DataType, parse_type
from lakestruct.roaring.read import _ks_values32

COMPAT = "paimon/paimon-core/src/test/resources/compatibility"
TABLES = "generated-seed1/paimon/tables"


def _dv_files(corpus: Path) -> list[Path]:
    return [corpus / COMPAT / "dvindex-32", corpus / COMPAT / "dvindex-64", *sorted((corpus / TABLES / "de_dv/index").glob("index-*"))]


def _ks_dv(data: bytes) -> Any:
    return kaitai_call("paimon_dv_index", None, lambda: PaimonDvIndex(KaitaiStream(io.BytesIO(data))))


def _ks_positions(e: Any) -> list[int]:
    if e.is_64bit:
        return [(b.key << 32) | v for b in e.bitmap.bitmaps for v in _ks_values32(b.bitmap)]
    return _ks_values32(e.bitmap)


# -- deletion-vector index files ---------------------------------------------------------------------


def test_dv_index_kaitai_equals_reader_and_manifest(corpus: Path) -> None:
    import json

    expected = json.loads((corpus / "generated-seed1/paimon/expected.json").read_text())["tables"]["de_dv"]
    metas = {f["index_file"]: [(v["offset"], v["length"], v["cardinality"]) for v in f["vectors"]]
             for f in expected["deletion_vector_index_files"]}  # fmt: skip
    for f in _dv_files(corpus):
        data = f.read_bytes()
        ks = _ks_dv(data)
        ours = deletes.read_paimon_deletion_vectors(f)
        assert [(e.meta_offset, e.meta_length, e.bits) for e in ks.entries] == [(e.offset, e.length, e.bits) for e in ours]
        for e, o in zip(ks.entries, ours, strict=True):
            assert _ks_positions(e) == o.vector.positions().tolist()
        if f.name in metas:  # the pypaimon-written index manifests locate the entries as the spec does
            assert [(e.meta_offset, e.meta_length, len(_ks_positions(e))) for e in ks.entries] == metas[f.name]
    # Paimon Java's compatibility files: the same two vectors, lengths S (32-bit) and S + 8 (64-bit)
    k32, k64 = (_ks_dv((corpus / COMPAT / n).read_bytes()) for n in ("dvindex-32", "dvindex-64"))
    assert [(e.len_body, e.meta_length) for e in k32.entries] == [(24, 24), (22, 22)]
    assert [(e.len_body, e.meta_length) for e in k64.entries] == [(36, 44), (34, 42)]


def test_dv_index_webide(corpus: Path) -> None:
    from tests.helpers import webide_parse

    files = _dv_files(corpus)
    for out, f in zip(webide_parse("formats/paimon/paimon_dv_index.ksy", files), files, strict=True):
        assert out["ok"], out
        ours = deletes.read_paimon_deletion_vectors(f)
        tree = out["tree"]
        assert [(e["meta_offset"], e["meta_length"], e["bits"]) for e in tree["entries"]] == [(e.offset, e.length, e.bits) for e in ours]
        assert all(e["crc"] == int.from_bytes(f.read_bytes()[e["meta_offset"] + 4 + e["len_body"] :][:4], "big") for e in tree["entries"])


def test_java_compat_files_reencode_byte_for_byte(corpus: Path) -> None:
    for name, bits in (("dvindex-32", 32), ("dvindex-64", 64)):
        data = (corpus / COMPAT / name).read_bytes()
        entries = deletes.read_paimon_deletion_vectors(data)
        built, metas = paimon.encode_dv_index_file([e.vector.positions() for e in entries], bits)
        assert built == data
        assert metas == [(e.offset, e.length, e.vector.cardinality) for e in entries]


def test_pypaimon_files_reencode_to_java_form(corpus: Path) -> None:
    # pypaimon writes the 32-bit bitmaps without Java's runOptimize(): the positions survive, Java's form is smaller
    for f in sorted((corpus / TABLES / "de_dv/index").glob("index-*")):
        entries = deletes.read_paimon_deletion_vectors(f)
        built, _ = paimon.encode_dv_index_file([e.vector.positions() for e in entries], 32)
        again = deletes.read_paimon_deletion_vectors(built)
        assert [e.vector.positions().tolist() for e in again] == [e.vector.positions().tolist() for e in entries]
        assert len(built) < f.stat().st_size


_positions32 = st.lists(st.integers(0, 2**31 - 1), max_size=300) | st.lists(st.integers(0, 70_000), max_size=5000)
_positions64 = _positions32 | st.lists(st.integers(0, 2**36), max_size=300)


@settings(max_examples=60)
@given(st.lists(_positions32, max_size=4), st.sampled_from([32, 64]))
def test_dv_index_roundtrip(vectors: list[list[int]], bits: int) -> None:
    data, metas = paimon.encode_dv_index_file(vectors, bits)
    want = [sorted(set(v)) for v in vectors]
    ks = _ks_dv(data)
    assert [(e.meta_offset, e.meta_length) for e in ks.entries] == [(o, n) for o, n, _ in metas]
    assert [_ks_positions(e) for e in ks.entries] == want
    ours = deletes.read_paimon_deletion_vectors(data)
    assert [e.vector.positions().tolist() for e in ours] == want
    parsed = DV_INDEX_FILE.parse(data)  # construct checks every CRC on parse
    for e, v in zip(parsed.entries, want, strict=True):
        oracle = BitMap64.deserialize(e.bitmap) if bits == 64 else BitMap.deserialize(e.bitmap)
        assert list(oracle) == v
    for (off, length, card), v in zip(metas, want, strict=True):
        one = paimon.dv.read_dv_entry(data, offset=off, length=length, cardinality=card)
        assert one.positions.tolist() == v and one.bits == bits
    assert [(e.offset, e.length, e.positions.tolist()) for e in paimon.dv.parse_dv_index(data)] == [
        (o, n, v) for (o, n, _), v in zip(metas, want, strict=True)]


@settings(max_examples=30)
@given(_positions64)
def test_dv64_entry_is_the_iceberg_blob(positions: list[int]) -> None:
    entry = paimon.encode_dv_entry(positions, 64)
    assert entry == deletes.encode_deletion_vector_blob(positions)
    assert deletes.decode_blob(entry).tolist() == sorted(set(positions))


def test_dv_writer_refuses_what_paimon_cannot_hold(tmp_path: Path) -> None:
    from lakestruct.errors import UsageError

    with pytest.raises(UsageError, match="2\\^31 - 1"):
        paimon.encode_dv_entry([2**31], 32)
    with pytest.raises(UsageError):
        paimon.encode_dv_entry([1], 16)
    metas = paimon.write_dv_index_file(tmp_path / "index-x-1", [[1, 2], [7]], 64)
    assert [m[2] for m in metas] == [2, 1]
    assert [e.vector.positions().tolist() for e in deletes.read_paimon_deletion_vectors(tmp_path / "index-x-1")] == [[1, 2], [7]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index-x-1"]  # no temporary file left


def test_dv_index_malformed_named_rules() -> None:
    good, _ = paimon.encode_dv_index_file([[1, 5]], 32)
    cases = {
        "paimon.dv-index.version": b"\x02" + good[1:],
        "paimon.dv-index.magic": good[:5] + b"\x00\x00\x00\x00" + good[9:],
        "paimon.dv-index.length": good[:1] + struct.pack(">i", 10_000) + good[5:],
    }
    for rule, data in cases.items():
        with pytest.raises(FormatError) as ei:
            _ks_dv(data)
        assert ei.value.rule == rule, (rule, ei.value)
    with pytest.raises(MagicError) as ei:  # the reader names its own rule for the same break
        deletes.read_paimon_deletion_vectors(cases["paimon.dv-index.magic"])
    assert ei.value.rule == "paimon-dv.magic" and ei.value.offset == 5


# -- BinaryRow ----------------------------------------------------------------------------------------


def _manifest_rows(corpus: Path) -> list[tuple[bytes, list[DataType]]]:
    """Serialized BinaryRows from real manifests with the types their table's schema gives them."""
    out: list[tuple[bytes, list[DataType]]] = []
    for table, types in (("pk", ["STRING NOT NULL"]), ("de_dv", ["STRING"])):
        for m in sorted((corpus / TABLES / table / "manifest").glob("manifest-[0-9a-f]*")):
            if m.name.startswith("manifest-list"):
                continue
            for rec in read_avro_records(m.read_bytes()):
                out.append((rec["_PARTITION"], [parse_type(t) for t in types]))
                if table == "pk":
                    out.append((rec["_FILE"]["_MIN_KEY"], [parse_type("BIGINT NOT NULL")]))
    rust = corpus / "paimon-rust/crates/paimon/tests/fixtures/manifest"
    for m in sorted(rust.glob("manifest-[0-9a-f]*")):
        for rec in read_avro_records(m.read_bytes()):
            out.append((rec["_FILE"]["_KEY_STATS"]["_MIN_VALUES"], [parse_type("STRING"), parse_type("INT")]))
    return out


def _ks_row(data: bytes) -> Any:
    return kaitai_call("paimon_binary_row", None, lambda: PaimonBinaryRow(KaitaiStream(io.BytesIO(data))))


def _ks_value(slot: Any, t: DataType) -> Any:
    """A slot read the spec's way: inline bytes, or the variable-part bytes it points at, or its low/high halves."""
    if slot.is_null:
        return None
    if t.root in ("VARCHAR", "CHAR"):
        raw = slot.inline_bytes if slot.is_inline else slot.var_bytes
        return raw.decode("utf-8")
    word = slot.low | (slot.high << 32)
    return struct.unpack("<q", struct.pack("<Q", word))[0] if t.root == "BIGINT" else struct.unpack("<i", struct.pack("<I", slot.low))[0]


def test_binary_rows_of_real_manifests(corpus: Path, tmp_path: Path) -> None:
    from tests.helpers import webide_parse

    rows = _manifest_rows(corpus)
    assert len(rows) > 10
    files = []
    for i, (data, types) in enumerate(rows):
        ours = paimon.decode_binary_row(data, types)
        ks = _ks_row(data)
        assert ks.arity == len(types)
        assert [_ks_value(s, t) for s, t in zip(ks.row.slots, types, strict=True)] == ours
        assert paimon.encode_binary_row(ours, types) == data  # Paimon Java / pypaimon lay rows out as we do
        files.append(tmp_path / f"row{i}.bin")
        files[-1].write_bytes(data)
    for out, (data, types) in zip(webide_parse("formats/paimon/paimon_binary_row.ksy", files), rows, strict=True):
        assert out["ok"], out
        slots = out["tree"]["row"]["slots"]
        inline = [bytes.fromhex(s["inline_bytes"]["hex"]) if s["is_inline"] else None for s in slots]
        ours = paimon.decode_binary_row(data, types)
        for raw, v, t in zip(inline, ours, types, strict=True):
            if raw is not None:
                assert t.is_string and raw.decode() == v


_PRIMS = ["BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DATE", "TIME(3)", "STRING", "BYTES",
          "CHAR(5)", "DECIMAL(10, 2)", "DECIMAL(38, 6)", "DECIMAL(19, 0)", "TIMESTAMP(3)", "TIMESTAMP(9)",
          "TIMESTAMP(6) WITH LOCAL TIME ZONE"]  # fmt: skip


def _value(t: DataType) -> st.SearchStrategy[Any]:
    r = t.root
    ints = {"TINYINT": 7, "SMALLINT": 15, "INT": 31, "BIGINT": 63}
    if r in ints:
        return st.integers(-(2 ** ints[r]), 2 ** ints[r] - 1)
    if r == "BOOLEAN":
        return st.booleans()
    if r == "FLOAT":
        return st.floats(width=32, allow_nan=False)
    if r == "DOUBLE":
        return st.floats(allow_nan=False)
    if r == "DATE":
        return st.dates()
    if r == "TIME":
        return st.integers(0, 86_399_999).map(lambda ms: datetime.timedelta(milliseconds=ms))
    if r in ("VARCHAR", "CHAR"):
        return st.text(max_size=20)
    if r in ("VARBINARY", "BINARY"):
        return st.binary(max_size=20)
    if r == "DECIMAL":
        p, s = t.precision or 10, t.scale or 0
        return st.integers(-(10**p) + 1, 10**p - 1).map(lambda u: Decimal(u).scaleb(-s, Context(prec=40)))
    if r in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        nanos = st.integers(0, 999_999) if not t.compact else st.just(0)
        return st.builds(paimon.Timestamp, st.integers(-(2**50), 2**50), nanos)
    if r == "ARRAY":
        assert t.element is not None
        return st.lists(_nullable(t.element), max_size=6)
    if r == "MAP":
        assert t.key is not None and t.value is not None
        return st.dictionaries(_value(t.key), _nullable(t.value), max_size=4)
    assert r == "ROW"
    return st.fixed_dictionaries({f.name: _nullable(f.type) for f in t.fields})


def _nullable(t: DataType) -> st.SearchStrategy[Any]:
    return st.none() | _value(t) if t.nullable else _value(t)


_prim = st.sampled_from(_PRIMS).map(parse_type)
_nested = st.one_of(
    _prim.map(lambda e: parse_type({"type": "ARRAY", "element": str(e)})),
    st.tuples(st.sampled_from(["INT", "STRING", "BIGINT"]), _prim).map(
        lambda kv: parse_type({"type": "MAP", "key": f"{kv[0]} NOT NULL", "value": str(kv[1])})),
    st.lists(_prim, min_size=1, max_size=3).map(
        lambda ts: parse_type({"type": "ROW", "fields": [{"id": i, "name": f"f{i}", "type": str(t)} for i, t in enumerate(ts)]})),
)  # fmt: skip
_types = st.lists(_prim | _nested, max_size=70)


@settings(max_examples=150)
@given(st.data(), _types, st.integers(0, 3))
def test_binary_row_roundtrip(data: st.DataObject, types: list[DataType], kind: int) -> None:
    values = [data.draw(_nullable(t)) for t in types]
    raw = paimon.encode_binary_row(values, types, row_kind=kind)
    assert paimon.decode_binary_row(raw, types) == [_float32(v, t) for v, t in zip(values, types, strict=True)]
    ks = _ks_row(raw)
    c = BINARY_ROW.parse(raw)
    assert ks.arity == c.arity == len(types) and int(ks.row.row_kind) == c.row_kind == kind
    assert [s.low | (s.high << 32) for s in ks.row.slots] == list(c.slots)
    assert [s.is_null for s in ks.row.slots] == [v is None for v in values]
    assert ks.row.var_part == c.var_part and ks.row.len_fixed_part + len(c.var_part) == len(raw) - 4
    for s, v, t in zip(ks.row.slots, values, types, strict=True):
        if v is not None and t.is_string:
            assert (s.inline_bytes if s.is_inline else s.var_bytes) == v.encode()


def _float32(v: Any, t: DataType) -> Any:
    return struct.unpack("<f", struct.pack("<f", v))[0] if v is not None and t.root == "FLOAT" else v


def test_binary_row_malformed_named_rules() -> None:
    t = [parse_type("STRING"), parse_type("INT")]
    good = paimon.encode_binary_row(["a string over 7 bytes", 5], t)
    cases = {
        "paimon.binary-row.arity": good[:3] + b"\x03" + good[4:],
        "paimon.binary-row.truncated": good[:20],
        "paimon.binary-row.row-kind": good[:4] + b"\x09" + good[5:],
        "paimon.binary-row.offset": good[:4 + 8] + struct.pack("<Q", (900 << 32) | 21) + good[4 + 16 :],
        "paimon.binary-row.inline-length": good[:4 + 8] + b"abc\x00\x00\x00\x00\x8f" + good[4 + 16 :],
        "paimon.binary-row.utf8": paimon.encode_binary_row([b"\xff\xfe", 1], [parse_type("BYTES"), t[1]]),
    }  # fmt: skip
    for rule, data in cases.items():
        with pytest.raises(FormatError) as ei:
            paimon.decode_binary_row(data, t)
        assert ei.value.rule == rule, (rule, ei.value)
    assert ei.value.offset == 4 + 8 and ei.value.path == "row.0"
    with pytest.raises(FormatError) as ei:
        _ks_row(cases["paimon.binary-row.row-kind"])
    assert ei.value.rule == "paimon.binary-row.row-kind"  # (Kaitai counts offsets inside the row substream)
    with pytest.raises(FormatError) as ei:
        _ks_row(b"\x00\x00\x10\x00" + bytes(8))
    assert ei.value.rule == "paimon.binary-row.arity"


# -- data-file index ----------------------------------------------------------------------------------


def test_file_index_container(tmp_path: Path) -> None:
    # no Paimon-written data-file index exists in the corpus: the container is built by the construct spec
    bloom = struct.pack(">i", 3) + bytes(range(64))
    bsi = paimon.write.encode_bsi_index([5, None, -2, 0], parse_type("BIGINT"))
    image = paimon.write.encode_file_index({"id": {"bloom-filter": bloom, "bitmap": b""}, "name": {"bsi": bsi}})
    fi = paimon.fileindex.parse_file_index(image)
    ks = PaimonFileIndex(KaitaiStream(io.BytesIO(image)))
    assert ks.len_head == fi.head_length
    refs = [(c.name.value, i.type.value, i.start, i.length) for c in ks.head.columns for i in c.indexes]
    assert refs == [(r.column, r.type, r.start, r.length) for r in fi.indexes]
    assert refs[1][2:] == (-1, 0) and fi.kinds == ["bloom-filter", "bitmap", "bsi"]
    bf = ks.head.columns[0].indexes[0].payload
    assert bf.num_hash_functions == 3 and bf.bits == bytes(range(64)) and fi.payload(fi.indexes[0]) == bloom
    assert FILE_INDEX.parse(image).body == bloom + bsi
    (tmp_path / "f.index").write_bytes(image)
    from tests.helpers import webide_parse

    (out,) = webide_parse("formats/paimon/paimon_file_index.ksy", [tmp_path / "f.index"])
    assert out["ok"], out
    assert out["tree"]["head"]["columns"][0]["indexes"][0]["payload"]["num_hash_functions"] == 3
    ide_bsi = out["tree"]["head"]["columns"][1]["indexes"][0]["payload"]
    assert (ide_bsi["row_count"], ide_bsi["positive"]["max"], ide_bsi["negative"]["max"]) == (4, 5, 2)
    bads = ((b"\x00" * 8 + image[8:], "paimon.file-index.magic"),
            (image[:8] + b"\x00\x00\x00\x03" + image[12:], "paimon.file-index.version"),
            (image[:12] + struct.pack(">i", 10**6) + image[16:], "paimon.file-index.head-length"))
    for bad, rule in bads:
        with pytest.raises(FormatError) as ei:
            paimon.fileindex.parse_file_index(bad)
        assert ei.value.rule == rule
        with pytest.raises(FormatError) as ei:
            kaitai_call("paimon_file_index", None, lambda b=bad: PaimonFileIndex(KaitaiStream(io.BytesIO(b))))
        assert ei.value.rule == rule


def test_roaring_oracle_sanity() -> None:
    # the 32-bit entry holds exactly what pyroaring serializes after run optimisation, as Java's RoaringBitmap does
    pos = np.arange(100, 5000, dtype=np.int64)
    entry = paimon.encode_dv_entry(pos, 32)
    bm = BitMap(pos.tolist())
    bm.run_optimize()
    assert entry[8:-4] == bm.serialize()


def test_time_milliseconds_are_exact() -> None:
    # 4.079 s * 1000 is 4078.999... in binary floating point: TIME is converted with integer arithmetic
    t = [parse_type("TIME(3)")]
    for ms in (4079, 1, 999, 86_399_999, 12_345_678):
        v = datetime.timedelta(milliseconds=ms)
        assert paimon.decode_binary_row(paimon.write.encode_binary_row([v], t), t) == [v]
    from lakestruct.paimon.read import partition_path

    assert partition_path({"t": datetime.timedelta(milliseconds=4079)}) == "t=00%3A00%3A04.079"  # Hive escapes ":"
