"""The fast paths of table reading against the checked ways they skip: snapshots (one pass over the fields, else
the field-by-field checks that name the wrong one), atomic types (parsed once per text), local files (read with
os.read, else through a byte source)."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lakestruct import paimon
from lakestruct.avro import read_avro_records
from lakestruct.errors import FormatError, SourceError
from lakestruct.paimon import read, types

GOLDEN = "paimon/paimon-python/pypaimon/tests/resources/pk_global_index_golden.tar.gz"
RUST_SNAPSHOTS = "paimon-rust/crates/paimon/tests/fixtures/snapshot"


@pytest.fixture(scope="module")
def snapshots(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    golden = tmp_path_factory.mktemp("golden")
    with tarfile.open(corpus / GOLDEN) as tf:
        tf.extractall(golden, filter="data")
    files = [*(corpus / "generated-seed1/paimon/tables").glob("*/snapshot/snapshot-*"), *golden.glob("*/*/snapshot/snapshot-*"),
             *(corpus / RUST_SNAPSHOTS).glob("*.json")]
    assert len(files) > 10
    return [p.read_bytes() for p in sorted(files)]


def _outcome(parse: Any, data: bytes) -> Any:
    try:
        return parse(data)
    except FormatError as e:
        return ("error", e.rule, e.path, e.source)


def _checked(data: bytes) -> Any:
    return read._snapshot_checked(read._json(data, "snapshot", "snapshot"), "snapshot")


def test_every_corpus_snapshot(snapshots: list[bytes]) -> None:
    for data in snapshots:
        got = paimon.parse_snapshot(data)
        assert got == _checked(data) and list(vars(got)) == list(vars(_checked(data)))


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.text(max_size=5), st.floats(allow_nan=False),
                    st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@given(data=st.data())
def test_changed_snapshots_same_model_or_same_error(snapshots: list[bytes], data: st.DataObject) -> None:
    doc = json.loads(data.draw(st.sampled_from(snapshots)))
    keys = [k for k, _, _ in read._SNAPSHOT_FIELDS]
    for _ in range(data.draw(st.integers(0, 3))):
        key = data.draw(st.sampled_from([*keys, "logOffsets", "other"]))
        if data.draw(st.booleans()):
            doc.pop(key, None)
        else:
            doc[key] = data.draw(_VALUES)
    raw = json.dumps(doc).encode()
    assert _outcome(paimon.parse_snapshot, raw) == _outcome(_checked, raw)


def test_atomic_types_parsed_once_per_text() -> None:
    a, b = paimon.parse_type("DECIMAL(23, 5) NOT NULL"), paimon.parse_type("DECIMAL(23, 5) NOT NULL")
    assert a is b and a == types._parse_atomic_text("DECIMAL(23, 5) NOT NULL", "t")
    assert (a.precision, a.scale, a.nullable) == (23, 5, False)
    for _ in range(2):  # errors are not remembered
        with pytest.raises(FormatError) as ei:
            paimon.parse_type("DECIMAL(40, 1)", "x")
        assert ei.value.rule == "paimon.schema.type" and ei.value.path == "x"


def test_local_reads(tmp_path: Path) -> None:
    big = bytes(range(256)) * 1000  # more than one os.read
    (tmp_path / "f").write_bytes(big)
    (tmp_path / "e").write_bytes(b"")
    assert read._read_bytes(str(tmp_path / "f")) == big
    assert read._read_bytes(f"file://{tmp_path / 'f'}") == big
    assert read._read_bytes(str(tmp_path / "e")) == b""
    with pytest.raises(SourceError, match="no such file"):
        read._read_bytes(str(tmp_path / "missing"))
    with pytest.raises(SourceError, match="is a directory"):
        read._read_bytes(str(tmp_path))


@pytest.fixture(scope="module")
def file_records(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The _FILE records (fastavro's dicts) of every data manifest of the corpus and the golden warehouse."""
    golden = tmp_path_factory.mktemp("golden")
    with tarfile.open(corpus / GOLDEN) as tf:
        tf.extractall(golden, filter="data")
    out = []
    for root in (corpus / "generated-seed1/paimon/tables", corpus / "paimon-rust/crates/paimon/tests/fixtures", golden):
        for p in sorted(root.rglob("manifest-*")):
            if p.parent.name == "manifest" and not p.name.startswith("manifest-list"):
                out.extend(r["_FILE"] for r in read_avro_records(p.read_bytes()))
    assert len(out) > 40
    return out


def _dfm(convert: Any, rec: dict[str, Any]) -> Any:
    try:
        got = convert(read._Rec(rec, "paimon.manifest.field", "records[0]._FILE"))
    except FormatError as e:
        return ("error", e.rule, e.path)
    return got, list(vars(got)), [list(vars(s)) for s in (got.key_stats, got.value_stats) if s is not None]


_FIELD_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=3), st.binary(max_size=3),
                          st.lists(st.one_of(st.text(max_size=2), st.none(), st.integers()), max_size=2),
                          st.fixed_dictionaries({"_MIN_VALUES": st.binary(max_size=2),
                                                 "_MAX_VALUES": st.one_of(st.binary(max_size=2), st.none()),
                                                 "_NULL_COUNTS": st.one_of(st.none(), st.lists(st.integers(), max_size=2), st.text())}))


@given(data=st.data())
def test_data_file_records_fast_as_checked(file_records: list[dict[str, Any]], data: st.DataObject) -> None:
    """read._data_file_meta's one-pass conversion against the field-by-field checks: the same model (attributes in the
    dataclass's order) or the same error."""
    rec = dict(data.draw(st.sampled_from(file_records)))
    for _ in range(data.draw(st.integers(0, 2))):
        key = data.draw(st.sampled_from(sorted(rec)))
        if data.draw(st.booleans()):
            rec.pop(key)
        else:
            rec[key] = data.draw(_FIELD_VALUES)
    assert _dfm(read._data_file_meta, rec) == _dfm(read._data_file_meta_checked, rec)
