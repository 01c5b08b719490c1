"""The DeletionVector API, the envelope and Puffin-metadata rules, Delta DV files, and round trips through
construct (writer), Kaitai (deletion_vector_v1.ksy) and pyiceberg."""

from __future__ import annotations

import io
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from kaitaistruct import KaitaiStream
from lakestruct._generated.deletion_vector_v1 import DeletionVectorV1
from pyroaring import BitMap64

from lakestruct import puffin
from lakestruct.deletes import (
    DV_FIELDS,
    MAX_POSITION,
    DeletionVector,
    blob_properties,
    decode_blob,
    encode_deletion_vector,
    encode_deletion_vector_blob,
    encode_delta_dv_file,
    read_deletion_vector,
    read_deletion_vectors,
    read_delta_deletion_vector,
    wrap_vector,
)
from lakestruct.deletes import spec as dspec
from lakestruct.errors import ChecksumError, FormatError, MagicError, UsageError
from lakestruct.roaring import HAVE_C, encode64
from lakestruct.roaring.read import reference_values64
from tests.helpers import assert_roundtrip
from tests.roaring.test_properties import position_sets

IMPLS = ["python", "c"] if HAVE_C else ["python"]


def _kaitai_positions(blob: bytes) -> tuple[int, ...]:
    ks = DeletionVectorV1(KaitaiStream(io.BytesIO(blob)))
    assert ks.len_body == len(blob) - 8 and ks.crc == zlib.crc32(blob[4:-4])
    return tuple(reference_values64(blob[8:-4]).tolist())


def _construct_positions(blob: bytes) -> tuple[int, ...]:
    parsed = dspec.parse_blob(blob)  # checks length, magic and CRC
    return tuple(DeletionVector.from_blob(dspec.DV_BLOB.build({"vector": parsed.vector})).positions().tolist())


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(position_sets(max_key=4))
def test_blob_roundtrip(pos: np.ndarray) -> None:
    model = tuple(pos.tolist())
    parsers = {
        "kaitai": _kaitai_positions,
        "construct": _construct_positions,
        **{impl: (lambda b, impl=impl: tuple(decode_blob(b, impl=impl).tolist())) for impl in IMPLS},
    }
    blob = assert_roundtrip(model, lambda m: encode_deletion_vector_blob(np.array(m, dtype=np.int64)), parsers)
    from tests.deletes.test_corpus import _pyiceberg_positions

    assert tuple(_pyiceberg_positions(blob).tolist()) == model


def test_api() -> None:
    dv = DeletionVector.from_positions([9, 1, 3, 3, 2**33 + 5], "s3://b/f.parquet")
    assert dv.cardinality == len(dv) == 4
    assert dv.positions().dtype == np.int64 and dv.positions().tolist() == [1, 3, 9, 2**33 + 5]
    assert not dv.positions().flags.writeable
    assert dv.contains(3) and 9 in dv and not dv.contains(4) and not dv.contains(-1) and not dv.contains(2**40)
    assert [c.tolist() for c in dv.iter_chunks(3)] == [[1, 3, 9], [2**33 + 5]]
    assert list(dv) == [1, 3, 9, 2**33 + 5]
    bm = dv.bitmap
    assert isinstance(bm, BitMap64) and list(bm) == [1, 3, 9, 2**33 + 5]
    assert list(bm & BitMap64([3, 4, 9])) == [3, 9]
    assert DeletionVector.from_positions(bm) == DeletionVector.from_positions(np.array([1, 3, 9, 2**33 + 5]))
    assert DeletionVector.from_blob(dv.to_blob(), referenced_data_file="s3://b/f.parquet") == dv
    assert blob_properties(dv, "s3://b/f.parquet") == {"referenced-data-file": "s3://b/f.parquet", "cardinality": "4"}
    blob, props = encode_deletion_vector((p for p in [9, 1, 3, 2**33 + 5]), "f.parquet")  # a generator is read once
    assert blob == dv.to_blob() and props == {"referenced-data-file": "f.parquet", "cardinality": "4"}
    assert "cardinality=4" in repr(dv) and dv.to_json()["first"] == [1, 3, 9, 2**33 + 5]
    assert MAX_POSITION == 0x7FFFFFFE_80000000  # Iceberg Java's RoaringPositionBitmap.MAX_POSITION
    for bad in ([-1], [MAX_POSITION + 1], [1.5], "abc"):
        with pytest.raises(UsageError):
            encode_deletion_vector_blob(bad)
    with pytest.raises(UsageError):  # Java would need 2^31 - 1 bitmaps for the gaps; we refuse instead
        encode_deletion_vector_blob([MAX_POSITION])
    compact = wrap_vector(encode64([5, MAX_POSITION, MAX_POSITION + 1], fill_gaps=False))  # readers accept missing keys
    assert DeletionVector.from_blob(compact).positions().tolist() == [5, MAX_POSITION, MAX_POSITION + 1]  # and keys only


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize(
    ("mutate", "rule", "cls", "offset"),
    [
        (lambda b: b[:-1], "deletion-vector.length", FormatError, 0),
        (lambda b: (len(b) - 7).to_bytes(4, "big") + b[4:], "deletion-vector.length", FormatError, 0),
        (lambda b: b[:4] + b"\xd1\xd3\x39\x65" + b[8:], "deletion-vector.magic", MagicError, 4),
        (lambda b: b[:-4] + bytes(4), "deletion-vector.crc", ChecksumError, None),
        (lambda b: b[:5], "deletion-vector.truncated", FormatError, 0),
    ],
)
def test_envelope_rules(impl: str, mutate: object, rule: str, cls: type, offset: int | None) -> None:
    good = encode_deletion_vector_blob([1, 3, 5, 7, 9])
    bad = mutate(good)  # type: ignore[operator]
    with pytest.raises(cls) as e:
        decode_blob(bad, base_offset=1000, impl=impl)  # type: ignore[arg-type]
    assert e.value.rule == rule
    assert e.value.offset == 1000 + (offset if offset is not None else len(bad) - 4)


def test_vector_errors_carry_absolute_offsets_and_paths() -> None:
    good = bytearray(encode_deletion_vector_blob([1, 3, 5]))
    # 8 (envelope) + 8 (count) + 4 (key) + 4 (cookie) + 4 (size) + 4 (descriptor) + 4 (offset) -> values at 36
    good[38:40] = (1).to_bytes(2, "little")
    good[-4:] = zlib.crc32(bytes(good[4:-4])).to_bytes(4, "big")
    with pytest.raises(FormatError) as e:
        decode_blob(bytes(good), base_offset=4)
    assert e.value.rule == "roaring32.array-order"
    assert e.value.path == "vector.bitmaps[0].containers[0].values[1]" and e.value.offset == 4 + 38


def _puffin_with(tmp_path: Path, **kw: object) -> Path:
    path = tmp_path / "dv.puffin"
    blob = encode_deletion_vector_blob([1, 2, 3])
    props = {"referenced-data-file": "f.parquet", "cardinality": "3"}
    props.update(kw.pop("props", {}))  # type: ignore[arg-type]
    props = {k: v for k, v in props.items() if v is not None}
    with puffin.PuffinWriter(path) as w:
        w.add_blob("deletion-vector-v1", blob, fields=DV_FIELDS, properties=props, **kw)  # type: ignore[arg-type]
        w.add_blob("apache-datasketches-theta-v1", b"not a sketch", fields=[1])  # other blob types are skipped
    return path


def test_puffin_dv_read(tmp_path: Path) -> None:
    path = _puffin_with(tmp_path)
    (dv,) = read_deletion_vectors(path).values()
    assert dv.positions().tolist() == [1, 2, 3] and dv.referenced_data_file == "f.parquet" and (dv.offset, dv.length) == (4, 46)
    assert read_deletion_vector(path, offset=4, length=46, record_count=3, referenced_data_file="f.parquet") == dv
    for kw, rule in [
        ({"offset": 5, "length": 46}, "deletion-vector.manifest-range"),
        ({"offset": 4, "length": 46, "record_count": 4}, "deletion-vector.record-count"),
        ({"offset": 4, "length": 46, "referenced_data_file": "g.parquet"}, "deletion-vector.referenced-data-file"),
    ]:
        with pytest.raises(FormatError) as e:
            read_deletion_vector(path, **kw)  # type: ignore[arg-type]
        assert e.value.rule == rule and e.value.source == str(path)


@pytest.mark.parametrize(
    ("kw", "rule"),
    [
        ({"props": {"cardinality": "4"}}, "deletion-vector.cardinality"),
        ({"props": {"cardinality": None}}, "deletion-vector.cardinality"),
        ({"props": {"cardinality": "three"}}, "deletion-vector.cardinality"),
        ({"props": {"referenced-data-file": None}}, "deletion-vector.referenced-data-file"),
        ({"codec": "zstd"}, "deletion-vector.compression-codec"),
        ({"snapshot_id": 7}, "deletion-vector.snapshot-id"),
        ({"sequence_number": 3}, "deletion-vector.sequence-number"),
    ],
)
def test_puffin_metadata_rules(tmp_path: Path, kw: dict[str, object], rule: str) -> None:
    path = _puffin_with(tmp_path, **kw)
    with pytest.raises(FormatError) as e:
        read_deletion_vectors(path)
    assert e.value.rule == rule and e.value.path.startswith("footer.payload.blobs[0]")


def test_duplicate_data_file(tmp_path: Path) -> None:
    path = tmp_path / "dup.puffin"
    with puffin.PuffinWriter(path) as w:
        for pos in ([1], [2]):
            blob = encode_deletion_vector_blob(pos)
            w.add_blob("deletion-vector-v1", blob, fields=DV_FIELDS, properties=blob_properties(pos, "f.parquet"))
    with pytest.raises(FormatError) as e:
        read_deletion_vectors(path)
    assert e.value.rule == "deletion-vector.duplicate-data-file"


def test_delta_dv_file(tmp_path: Path) -> None:
    data, descs = encode_delta_dv_file([[0, 5, 9], np.arange(100, 5000), []])
    path = tmp_path / "deletion_vector_x.bin"
    path.write_bytes(data)
    assert descs[0][0] == 1 and data[0] == 1
    got = [read_delta_deletion_vector(path, offset=o, size_in_bytes=s).positions().tolist() for o, s in descs]
    assert got == [[0, 5, 9], list(range(100, 5000)), []]
    parsed = dspec.DELTA_DV_FILE.parse(data)  # construct second opinion
    assert [len(v.vector) + 4 for v in parsed.vectors] == [s for _, s in descs]
    with pytest.raises(FormatError) as e:
        read_delta_deletion_vector(path, offset=descs[1][0], size_in_bytes=descs[1][1] + 1)
    assert e.value.rule == "delta-dv.size"
    with pytest.raises(FormatError) as e:
        read_delta_deletion_vector(b"\x02" + data[1:], offset=1, size_in_bytes=descs[0][1])
    assert e.value.rule == "delta-dv.version"
    with pytest.raises(FormatError) as e:
        read_delta_deletion_vector(path, offset=1, size_in_bytes=descs[0][1], cardinality=4)
    assert e.value.rule == "delta-dv.cardinality"


def test_kaitai_dv_spec_rules() -> None:
    from lakestruct._kaitai import kaitai_call
    from lakestruct.source import RangeReader, open_source

    good = encode_deletion_vector_blob([1, 3])
    for bad, rule in [(good[:4] + b"\x00\x00\x00\x00" + good[8:], "deletion-vector.magic"), (good + b"\x00", "deletion-vector.length")]:
        reader = RangeReader(open_source(bad))
        with pytest.raises(FormatError) as e:
            kaitai_call("deletion_vector_v1", reader, lambda r=reader: DeletionVectorV1(KaitaiStream(r)))
        assert e.value.rule == rule
