"""Z85 and deletion-vector descriptors: PROTOCOL.md's own examples, round trips, and the rules of bad strings."""

from __future__ import annotations

import uuid

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyroaring import BitMap64

import lakestruct as ls
from lakestruct.delta import DvDescriptor, Where, dv_location, read_dv, z85


def test_protocol_examples() -> None:
    """PROTOCOL.md "Deletion Vector Descriptor Schema", examples 1 and 3."""
    d = DvDescriptor("u", "ab^-aqEH.-t@S}K{vb[*k^", 4, 40, 6)
    assert dv_location("s3://mytable", d) == "s3://mytable/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin"
    assert d.unique_id == "uab^-aqEH.-t@S}K{vb[*k^@4"
    inline = DvDescriptor("i", "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", None, 40, 6)
    assert read_dv("/t", inline).tolist() == [3, 4, 7, 11, 18, 29]  # the native format's example
    assert inline.unique_id == "iwi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L"
    p = DvDescriptor("p", "s3://mytable/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin", 4, 40, 6)
    assert dv_location("/elsewhere", p) == p.path_or_inline_dv


def test_rfc_32_test_vector() -> None:
    """ZeroMQ RFC 32's test vector: 86 4F D2 6F B5 59 F7 5B <-> HelloWorld."""
    raw = bytes.fromhex("864FD26FB559F75B")
    assert z85.encode(raw) == "HelloWorld"
    assert z85.decode("HelloWorld") == raw


@given(st.binary(max_size=64))
def test_round_trip(data: bytes) -> None:
    text = z85.encode(data)
    assert len(text) == z85.encoded_length(len(data))
    assert z85.decode(text, size=len(data)) == data


@given(st.uuids(), st.text(alphabet="abcdefghij0123456789", max_size=3))
def test_uuid_round_trip(u: uuid.UUID, prefix: str) -> None:
    assert z85.decode_uuid(z85.encode_uuid(u, prefix)) == (prefix, u)


@given(st.sets(st.integers(0, 2**40), max_size=200))
def test_inline_vectors_round_trip(positions: set[int]) -> None:
    """Inline vectors built with pyroaring (magic + portable 64-bit bitmap, Z85) decode to their positions."""
    raw = bytes.fromhex("d1d33964") + BitMap64(positions).serialize()
    d = DvDescriptor("i", z85.encode(raw), None, len(raw), len(positions))
    assert np.array_equal(read_dv("/t", d), np.array(sorted(positions), dtype=np.int64))


@pytest.mark.parametrize(("text", "size", "rule"), [
    ("Hello", 8, "delta.dv.z85-length"),
    ("HelloWorl", None, "delta.dv.z85-length"),
    ("Hell~World", None, "delta.dv.z85-char"),
    ("Hell\u00e9World", None, "delta.dv.z85-char"),
    ("#####", None, "delta.dv.z85-value"),
])  # fmt: skip
def test_bad_strings(text: str, size: int | None, rule: str) -> None:
    with pytest.raises(ls.FormatError) as e:
        z85.decode(text, size=size, path="p", offset=7)
    assert (e.value.rule, e.value.path, e.value.offset) == (rule, "p", 7)


def test_bad_descriptors() -> None:
    w = Where("log.json", line=3, offset=99)
    with pytest.raises(ls.FormatError) as e:
        dv_location("/t", DvDescriptor("u", "tooShort", 1, 40, 6), w)
    assert (e.value.rule, e.value.path, e.value.source, e.value.offset) == (
        "delta.dv.z85-length", "line[3].add.deletionVector.pathOrInlineDv", "log.json", 99)
    raw = bytes.fromhex("00000000") + BitMap64({1}).serialize()
    with pytest.raises(ls.FormatError) as e:
        read_dv("/t", DvDescriptor("i", z85.encode(raw), None, len(raw), 1), w)
    assert e.value.rule == "delta.dv.magic"
    raw = bytes.fromhex("d1d33964") + BitMap64({1, 2}).serialize()
    with pytest.raises(ls.FormatError) as e:
        read_dv("/t", DvDescriptor("i", z85.encode(raw), None, len(raw), 1), w)
    assert (e.value.rule, e.value.path) == ("delta.dv.cardinality", "line[3].add.deletionVector.cardinality")
    for bad in ({"storageType": "x", "pathOrInlineDv": "a", "sizeInBytes": 4, "cardinality": 1},
                {"storageType": "i", "pathOrInlineDv": "a", "offset": 1, "sizeInBytes": 4, "cardinality": 1},
                {"storageType": "u", "pathOrInlineDv": "a", "sizeInBytes": 4, "cardinality": -1}):
        with pytest.raises(ls.FormatError) as e:
            ls.delta.parse_dv(bad, w, "add.deletionVector")
        assert e.value.rule == "delta.dv.descriptor"
