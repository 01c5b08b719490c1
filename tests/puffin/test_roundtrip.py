"""Round trips: random models -> PuffinWriter bytes -> three independent readers -> the same model.

The readers are lakestruct's reader (driving the Kaitai-generated parser of
formats/puffin/puffin.ksy), the construct spec in lakestruct.puffin.spec, and
pyiceberg's PuffinFile (which cannot read LZ4 footers or LZ4 blobs, so it only
judges files without them).
"""

from __future__ import annotations

import io
import json
from typing import Any

import zstandard
from hypothesis import given
from hypothesis import strategies as st
from kaitaistruct import KaitaiStream
from lakestruct._generated.puffin import Puffin as KsPuffin
from pyiceberg.table.puffin import PuffinFile as IcebergPuffinFile

import lakestruct as ls
from lakestruct.codecs import decompress
from lakestruct.puffin import spec
from tests.helpers import assert_roundtrip

# A model of what a writer is asked to store; every reader must give it back.
Blob = tuple[str, tuple[int, ...], int, int, "str | None", dict[str, str], bytes]
Model = tuple[dict[str, str], bool, list[Blob]]

text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20)
blob = st.tuples(
    text.filter(bool),
    st.lists(st.integers(-(2**31), 2**31 - 1), max_size=4).map(tuple),
    st.integers(-(2**63), 2**63 - 1),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([None, "lz4", "zstd"]),
    st.dictionaries(text, text, max_size=3),
    st.binary(max_size=300) | st.builds(lambda n, b: b * n, st.integers(1, 2000), st.binary(min_size=1, max_size=3)),
)
models = st.tuples(st.dictionaries(text, text, max_size=3), st.booleans(), st.lists(blob, max_size=5))


def write(model: Model) -> bytes:
    props, compress_footer, blobs = model
    buf = io.BytesIO()
    w = ls.puffin.PuffinWriter(buf, properties=props, created_by=props.get("created-by", "test"), compress_footer=compress_footer)
    for btype, fields, sid, seq, codec, bprops, data in blobs:
        w.add_blob(btype, data, fields=fields, snapshot_id=sid, sequence_number=seq, codec=codec, properties=bprops)
    w.close()
    return buf.getvalue()


def expected_props(model: Model) -> dict[str, str]:
    props = dict(model[0])
    props.setdefault("created-by", "test")
    return props


def read_lakestruct(data: bytes) -> Model:
    with ls.puffin.open(data) as r:
        r.check()
        blobs = [
            (b.type, b.fields, b.snapshot_id, b.sequence_number, b.compression_codec, dict(b.properties), r.read_blob(b)) for b in r.blobs
        ]
        return dict(r.properties), r.footer.compressed, blobs


def _from_footer_json(doc: dict[str, Any], data: bytes, compressed: bool, payload_of: Any) -> Model:
    blobs = []
    for b in doc["blobs"]:
        stored = data[b["offset"] : b["offset"] + b["length"]]
        codec = b.get("compression-codec")
        raw = payload_of(codec, stored)
        blobs.append((b["type"], tuple(b["fields"]), b["snapshot-id"], b["sequence-number"], codec, b.get("properties", {}), raw))
    return doc.get("properties", {}), compressed, blobs


def _decode(codec: str | None, stored: bytes) -> bytes:
    return stored if codec is None else decompress(codec, stored, limit=1 << 26, rule="t", path="t", offset=None)


def read_kaitai(data: bytes) -> Model:
    """The generated parser alone (no lakestruct reader code)."""
    ks = KsPuffin(KaitaiStream(io.BytesIO(data)))
    ks._read()
    payload = ks.footer.payload
    compressed = ks.tail.flags.payload_compressed
    if compressed:
        payload = _decode("lz4", payload)
    else:
        assert ks.footer.payload_text.encode() == payload
    return _from_footer_json(json.loads(payload), data, compressed, _decode)


def read_construct(data: bytes) -> Model:
    c = spec.parse_file(data)
    payload = c.payload
    if c.tail.flags.payload_compressed:
        payload = _decode("lz4", payload)
    return _from_footer_json(json.loads(payload), data, c.tail.flags.payload_compressed, _decode)


def read_pyiceberg(data: bytes) -> Model:
    pf = IcebergPuffinFile(data)
    blobs = [
        (b.type, tuple(b.fields), b.snapshot_id, b.sequence_number, b.compression_codec, dict(b.properties), pf.get_blob_payload(b))
        for b in pf.footer.blobs
    ]
    return dict(pf.footer.properties), False, blobs


@given(models)
def test_roundtrip_three_readers(model: Model) -> None:
    expected: Model = (expected_props(model), model[1], model[2])
    parsers = {"lakestruct": read_lakestruct, "kaitai": read_kaitai, "construct": read_construct}
    pyiceberg_can = not model[1] and all(b[4] != "lz4" for b in model[2])
    if pyiceberg_can:
        parsers["pyiceberg"] = read_pyiceberg
    assert_roundtrip(expected, lambda _m: write(model), parsers)


@given(models)
def test_layout_is_what_the_spec_says(model: Model) -> None:
    data = write(model)
    with ls.puffin.open(data) as r:
        # blobs are contiguous from offset 4 and end where the footer starts
        pos = 4
        for b in r.blobs:
            assert b.offset == pos
            pos += b.length
        assert r.footer.offset == pos
        assert r.footer.size == len(data) - pos
        assert data[:4] == data[pos : pos + 4] == data[-4:] == b"PFA1"
        # the stored blob is the codec's single frame with its content size
        for b in r.blobs:
            stored = r.read_blob(b, raw=True)
            assert len(stored) == b.length
            if b.compression_codec == "zstd":
                assert zstandard.get_frame_parameters(stored).content_size == len(r.read_blob(b))


def test_footer_json_is_compact_and_in_spec_order(tmp_path: Any) -> None:
    path = tmp_path / "x.puffin"
    with ls.puffin.PuffinWriter(path, created_by="unit test") as w:
        w.add_blob("t", b"abc", fields=[1, 2], codec="zstd", properties={"k": "v"})
    data = path.read_bytes()
    footer_len = int.from_bytes(data[-12:-8], "little", signed=True)
    payload = data[-12 - footer_len : -12].decode()
    assert payload.startswith('{"blobs":[{"type":"t","fields":[1,2],"snapshot-id":-1,"sequence-number":-1,"offset":4,')
    assert '"compression-codec":"zstd","properties":{"k":"v"}}]' in payload
    assert payload.endswith(',"properties":{"created-by":"unit test"}}')
    assert " " not in payload.replace("unit test", "")


def test_empty_file_is_byte_identical_to_iceberg_java(corpus: Any) -> None:
    golden = (corpus / "iceberg/core/src/test/resources/org/apache/iceberg/puffin/v1/empty-puffin-uncompressed.bin").read_bytes()
    buf = io.BytesIO()
    w = ls.puffin.PuffinWriter(buf)
    w.properties.clear()  # Iceberg's golden file has no properties at all
    w.close()
    assert buf.getvalue() == golden


def test_corpus_files_rewritten_blob_for_blob_are_identical(corpus: Any) -> None:
    """Copying every blob raw with the same properties reproduces Iceberg Java's and Trino's bytes."""
    files = sorted((corpus / "generated-seed1/iceberg/files").glob("*.puffin")) + sorted(
        (corpus / "iceberg/core/src/test/resources/org/apache/iceberg/puffin/v1").glob("*.bin")
    )
    files += sorted((corpus / "puffin-tools/src/test/resources").glob("*.puffin"))
    assert files
    for f in files:
        original = f.read_bytes()
        with ls.puffin.open(original) as r:
            buf = io.BytesIO()
            w = ls.puffin.PuffinWriter(buf)
            w.properties.clear()
            w.properties.update(r.properties)
            for b in r.blobs:
                w.add_raw_blob(b, r.read_blob(b, raw=True))
            w.close()
        assert buf.getvalue() == original, f.name
