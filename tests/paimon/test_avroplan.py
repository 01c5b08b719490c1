"""The compiled manifest decoder (``lakestruct.avro._plan_c`` running ``lakestruct.avro.plan`` plans for Paimon's
targets) against the reference way (fastavro decoding each record with the writer schema, then read.py's checked
conversion): the same models, or the same named error, on every corpus manifest and manifest list (pypaimon 2.1,
Paimon Java's golden warehouse, paimon-rust's 0.9-era files with nullable records), on random manifests fastavro
writes under each of their writer schemas, on mutated blocks, and on schemas no plan covers."""

from __future__ import annotations

import datetime
import io
import json
import tarfile
from pathlib import Path
from typing import Any

import fastavro
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.avro import AvroFile
from lakestruct.avro import plan as avroplan
from lakestruct.errors import FormatError
from lakestruct.paimon import read
from lakestruct.paimon.targets import ENTRY, TARGETS

pytestmark = pytest.mark.skipif(not avroplan.COMPILED, reason="the compiled twin is not built (pip install -e .)")

GOLDEN = "paimon/paimon-python/pypaimon/tests/resources/pk_global_index_golden.tar.gz"
ROOTS = ("generated-seed1/paimon/tables", "paimon-rust/crates/paimon/tests/fixtures/manifest")
CONVERT = {"entry": read._manifest_entry, "manifest-file": read._manifest_file_meta, "index-entry": read._index_entry}


@pytest.fixture(scope="module")
def manifests(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, str]]:
    """(file, target) for every data manifest, manifest list and index manifest of the corpus and the golden warehouse."""
    golden = tmp_path_factory.mktemp("golden")
    with tarfile.open(corpus / GOLDEN) as tf:
        tf.extractall(golden, filter="data")
    out = []
    for root in (*(corpus / r for r in ROOTS), golden):
        for p in sorted(root.rglob("*")):
            if p.is_file() and p.parent.name == "manifest":
                out.append((p, "manifest-file" if p.name.startswith("manifest-list") else
                            "index-entry" if p.name.startswith("index-manifest") else "entry"))
    assert len(out) > 60
    return out


@pytest.fixture(scope="module")
def with_records(manifests: list[tuple[Path, str]]) -> list[tuple[Path, str]]:
    return [(p, t) for p, t in manifests if any(True for _ in read.read_avro_records(p.read_bytes()))]


def _outcome(data: bytes, target: str, *, compiled: bool) -> Any:
    try:
        return read.decode_avro(data, CONVERT[target], target, compiled=compiled)
    except FormatError as e:
        return ("error", e.rule, e.path, e.offset)


def _same(a: Any, b: Any) -> None:
    assert a == b
    if isinstance(a, list):
        for x, y in zip(a, b, strict=True):
            assert type(x) is type(y) and x.__dict__ == y.__dict__  # every attribute, in the dataclass's order
            assert list(x.__dict__) == list(y.__dict__)
            if hasattr(x, "file"):
                assert type(x.file) is type(y.file) and list(x.file.__dict__) == list(y.file.__dict__)
                tx, ty = x.file.creation_time, y.file.creation_time
                assert type(tx) is type(ty) and getattr(tx, "tzinfo", None) == getattr(ty, "tzinfo", None)


def test_every_corpus_manifest_decodes_compiled(manifests: list[tuple[Path, str]]) -> None:
    schemas = set()
    records = 0
    for path, target in manifests:
        data = path.read_bytes()
        f = AvroFile(data)
        plan = avroplan.plan_for(f.raw_schema, TARGETS[target])
        assert plan is not None, path  # every writer schema of the corpus is covered
        schemas.add(f.raw_schema)
        for block in f.blocks():  # and the compiled twin decides every block of a valid file
            if avroplan.decode_block(block.body, block.count, plan) is None:  # but global indexes: fastavro reads them
                assert target == "index-entry" and any(r["_GLOBAL_INDEX"] for r in f.records(block)), path
        want = _outcome(data, target, compiled=False)
        assert isinstance(want, list)
        _same(_outcome(data, target, compiled=True), want)
        records += len(want)
    assert records > 100
    assert len(schemas) >= 8  # pypaimon's, Java's and the 0.9-era schemas: manifests, manifest lists, index manifests


# -- random manifests under the corpus's writer schemas ------------------------------------------------

_PRIMS: dict[str, st.SearchStrategy[Any]] = {
    "null": st.none(), "boolean": st.booleans(), "int": st.integers(-(2**31), 2**31 - 1), "long": st.integers(-(2**63), 2**63 - 1),
    "float": st.floats(width=32), "double": st.floats(), "bytes": st.binary(max_size=24), "string": st.text(max_size=12),
}
# values the conversion checks: mostly valid, sometimes not
_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "_VERSION": st.sampled_from([2, 2, 2, 1, 1, 3]), "_KIND": st.sampled_from([0, 1, 0, 1, 2, -1]),
}
_FIRST_MS, _LAST_MS = -62_135_596_800_000, 253_402_300_799_999  # 0001-01-01 and 9999-12-31T23:59:59.999 (UTC)
_MILLIS = st.one_of(st.integers(_FIRST_MS, _LAST_MS), st.integers(-(2**63), 2**63 - 1),
                    st.sampled_from([_FIRST_MS - 1, _FIRST_MS, _LAST_MS, _LAST_MS + 1, -1, 0, 951_782_400_000]))


def _strategy(t: Any, named: dict[str, Any], field: str = "") -> st.SearchStrategy[Any]:
    if isinstance(t, str):
        if t in _PRIMS:
            return _FIELDS.get(field, _PRIMS[t])
        return _strategy(named[t.rsplit(".", 1)[-1]], named, field)
    if isinstance(t, list):  # fastavro picks the branch by the value's type
        return st.one_of([_strategy(b, named, field) for b in t])
    kind = t["type"]
    if t.get("logicalType") == "timestamp-millis":
        return _MILLIS
    if kind in _PRIMS:
        return _FIELDS.get(field, _PRIMS[kind])
    if kind == "array":
        return st.lists(_strategy(t["items"], named), max_size=3)
    if kind == "record":
        named[t["name"]] = t
        return st.fixed_dictionaries({f["name"]: _strategy(f["type"], named, f["name"]) for f in t["fields"]})
    raise AssertionError(t)


def _write(schema: Any, records: list[Any], codec: str, sync_interval: int) -> bytes:
    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(schema), records, codec=codec, sync_interval=sync_interval, validator=False)
    return buf.getvalue()


def _schemas(manifests: list[tuple[Path, str]]) -> list[tuple[Any, str]]:
    seen: dict[bytes, tuple[Any, str]] = {}
    for path, target in manifests:
        f = AvroFile(path.read_bytes())
        seen.setdefault(f.raw_schema, (json.loads(f.raw_schema), target))
    return list(seen.values())


@settings(max_examples=300)
@given(data=st.data())
def test_random_manifests_same_models_or_same_error(manifests: list[tuple[Path, str]], data: st.DataObject) -> None:
    schema, target = data.draw(st.sampled_from(_schemas(manifests)))
    try:
        records = data.draw(st.lists(_strategy(schema, {}), max_size=6))
        raw = _write(schema, records, data.draw(st.sampled_from(["null", "deflate"])), data.draw(st.sampled_from([1, 200, 16000])))
    except (ValueError, OverflowError, TypeError):  # a value fastavro's writer refuses (a timestamp it cannot hold)
        return
    _same(_outcome(raw, target, compiled=True), _outcome(raw, target, compiled=False))


@settings(max_examples=300)
@given(data=st.data())
def test_mutated_blocks_same_models_or_same_error(with_records: list[tuple[Path, str]], data: st.DataObject) -> None:
    path, target = data.draw(st.sampled_from(with_records))
    f = AvroFile(path.read_bytes())
    schema = json.loads(f.raw_schema)
    records = list(read.read_avro_records(path.read_bytes()))
    raw = bytearray(_write(schema, records, "null", 16000))  # uncompressed: a changed byte changes a record
    start = AvroFile(bytes(raw)).header_size  # the blocks: counts, records, sync markers
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(start, len(raw) - 17))
        raw[i] = data.draw(st.integers(0, 255))
    raw = bytes(raw)
    _same(_outcome(raw, target, compiled=True), _outcome(raw, target, compiled=False))
    # the compiled twin alone: a block it decodes is the block the reference decodes
    g = AvroFile(raw)
    plan = avroplan.plan_for(g.raw_schema, TARGETS[target])
    try:
        blocks = list(g.blocks())
    except FormatError:
        return
    for block in blocks:
        got = avroplan.decode_block(block.body, block.count, plan)
        try:
            want: Any = [CONVERT[target](r, i) for i, r in enumerate(g.records(block))]
        except FormatError:
            want = None
        if got is not None:
            _same(got, want)


# -- schemas no plan covers: the reference way reads them ---------------------------------------------


def _file_field(schema: dict[str, Any], name: str) -> dict[str, Any]:
    file_type = next(f for f in schema["fields"] if f["name"] == "_FILE")["type"]
    field: dict[str, Any] = next(f for f in file_type["fields"] if f["name"] == name)
    return field


def test_uncovered_schemas_have_no_plan_and_read_the_reference_way(manifests: list[tuple[Path, str]]) -> None:
    # a pypaimon 2.1 manifest (its schema has _WRITE_COLS_SEQUENCES, which the models do not keep)
    path = next(p for p, t in manifests if t == "entry" and b"_WRITE_COLS_SEQUENCES" in AvroFile(p.read_bytes()).raw_schema)
    base = json.loads(AvroFile(path.read_bytes()).raw_schema)
    records = list(read.read_avro_records(path.read_bytes()))

    def variant(change: Any, fix: Any) -> Any:
        schema = json.loads(json.dumps(base))
        change(schema)
        raw = _write(schema, [fix(r) for r in records], "null", 16000)
        assert avroplan.compile_spec(schema, ENTRY) is None
        assert avroplan.plan_for(AvroFile(raw).raw_schema, ENTRY) is None
        want = _outcome(raw, "entry", compiled=False)
        _same(_outcome(raw, "entry", compiled=True), want)
        return want

    # the creation time as a string: the conversion keeps whatever the record holds
    got = variant(lambda s: _file_field(s, "_CREATION_TIME").update(type=["null", "string"]),
                  lambda r: {**r, "_FILE": {**r["_FILE"], "_CREATION_TIME": "then"}})
    assert isinstance(got, list) and got[0].file.creation_time == "then"
    # a logical type on a field the models do not keep: fastavro converts it (a date here), a plan would not
    got = variant(lambda s: _file_field(s, "_WRITE_COLS_SEQUENCES").update(type=["null", {"type": "int", "logicalType": "date"}]),
                  lambda r: {**r, "_FILE": {**r["_FILE"], "_WRITE_COLS_SEQUENCES": datetime.date(2020, 1, 1)}})
    assert isinstance(got, list) and len(got) == len(records)
    # _FILE_NAME as bytes: the conversion names the field
    got = variant(lambda s: _file_field(s, "_FILE_NAME").update(type="bytes"),
                  lambda r: {**r, "_FILE": {**r["_FILE"], "_FILE_NAME": r["_FILE"]["_FILE_NAME"].encode()}})
    assert got[:3] == ("error", "paimon.manifest.field", "records[0]._FILE._FILE_NAME")
    # a required field missing from the writer schema
    got = variant(lambda s: s.update(fields=[f for f in s["fields"] if f["name"] != "_TOTAL_BUCKETS"]),
                  lambda r: {k: v for k, v in r.items() if k != "_TOTAL_BUCKETS"})
    assert got[:3] == ("error", "paimon.manifest.field", "records[0]._TOTAL_BUCKETS")


def test_plans_refuse_recursive_and_malformed_schemas() -> None:
    recursive = {"type": "record", "name": "ManifestEntry", "fields": [
        {"name": "_KIND", "type": "int"}, {"name": "next", "type": ["null", "ManifestEntry"]}]}
    assert avroplan.compile_spec(recursive, ENTRY) is None
    assert avroplan.compile_spec({"type": "record", "name": "x", "fields": "nope"}, ENTRY) is None
    assert avroplan.compile_spec(["null", "string"], ENTRY) is None
    assert avroplan.compile_spec({"type": "record", "name": "x", "fields": [{"name": "_KIND", "type": "Unknown"}]}, ENTRY) is None


_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


@settings(max_examples=2000)
@given(st.one_of(st.integers(_FIRST_MS - 10, _LAST_MS + 10), st.integers(-(2**63), 2**63 - 1),
                 st.sampled_from([_FIRST_MS - 1, _FIRST_MS, _LAST_MS, _LAST_MS + 1, -1, 0, -86_400_000, -86_400_001])))
def test_timestamp_millis_is_fastavros(ms: int) -> None:
    """The compiled twin builds the creation time's datetime itself: fastavro's epoch + timedelta, or a refusal where
    that overflows."""
    from lakestruct.avro import _plan_c  # type: ignore[attr-defined]

    try:
        want: Any = _EPOCH + datetime.timedelta(microseconds=ms * 1000)
    except OverflowError:
        want = None
    got = _plan_c.timestamp_millis(ms)
    assert got == want
    if want is not None:
        assert got.tzinfo is want.tzinfo and (got.year, got.month, got.day, got.hour, got.minute, got.second, got.microsecond) == (
            want.year, want.month, want.day, want.hour, want.minute, want.second, want.microsecond)
