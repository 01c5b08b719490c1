"""Roaring conformance: RoaringFormatSpec and CRoaring test files, read by every decoder we have.

Expected values come from the files' own documentation (the README programs that
generated them) and from pyroaring (CRoaring) as an independent oracle.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pyroaring import BitMap, BitMap64

from lakestruct.errors import FormatError
from lakestruct.roaring import HAVE_C, decode_roaring32, decode_roaring64, describe_roaring32, describe_roaring64, encode32
from lakestruct.roaring import spec as rspec
from lakestruct.roaring.read import reference_values32, reference_values64

IMPLS = ["python", "c"] if HAVE_C else ["python"]
RFS = "roaring-format-spec"
CRT = "croaring/tests/testdata"
ICE = "iceberg/core/src/test/resources/org/apache/iceberg/deletes"


def _rfs_values() -> np.ndarray:
    # testdata/README.md: multiples of 1000 in [0,100000), 3k for k in [100000,200000), all of [700000,800000)
    return np.concatenate([np.arange(0, 100000, 1000), 3 * np.arange(100000, 200000), np.arange(700000, 800000)]).astype(np.uint32)


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("name", ["bitmapwithoutruns.bin", "bitmapwithruns.bin"])
def test_roaring_format_spec_32(corpus: Path, name: str, impl: str) -> None:
    data = (corpus / RFS / "testdata" / name).read_bytes()
    got = decode_roaring32(data, impl=impl)  # type: ignore[arg-type]
    expected = _rfs_values()
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got, np.array(BitMap.deserialize(data).to_array(), dtype=np.uint32))
    np.testing.assert_array_equal(reference_values32(data), expected)
    assert rspec.container_values(rspec.parse32(data)) == expected.tolist()
    info = describe_roaring32(data)
    assert info.cardinality == expected.size and info.length == len(data)
    assert info.has_runs == (name == "bitmapwithruns.bin")
    assert {c.kind for c in info.containers} == ({"array", "bitmap", "run"} if info.has_runs else {"array", "bitmap"})


def test_roaring_format_spec_with_runs_reencodes_identically(corpus: Path) -> None:
    data = (corpus / RFS / "testdata" / "bitmapwithruns.bin").read_bytes()  # written by Java RoaringBitmap after runOptimize
    assert encode32(_rfs_values()) == data


def _bitmap64_values() -> np.ndarray:
    # testdata64/README.md (bitmap64.bin): every other value of [0, 2^16), [2^32, 2^32 + 1e6), and 2^48
    return np.concatenate([np.arange(0, 65536, 2), np.arange(2**32, 2**32 + 1_000_000), [2**48]]).astype(np.uint64)


def _portable_bitmap64_values() -> np.ndarray:
    # testdata64/README.md (portable_bitmap64.bin): per i in {0,1}: [0,0x9000], [0xA000,0x10000],
    # 0x20000, 0x20005, and the even values of 0x80000 + [0,0x10000)
    parts = []
    for i in range(2):
        base = i << 32
        parts += [np.arange(0, 0x9001), np.arange(0xA000, 0x10001), [0x20000, 0x20005], 0x80000 + np.arange(0, 0x10000, 2)]
        parts = [*parts[:-4], *(np.asarray(p, dtype=np.uint64) + np.uint64(base) for p in parts[-4:])]
    return np.unique(np.concatenate([np.asarray(p, dtype=np.uint64) for p in parts]))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize(("name", "expected"), [("bitmap64.bin", _bitmap64_values), ("portable_bitmap64.bin", _portable_bitmap64_values)])
def test_roaring_format_spec_64(corpus: Path, name: str, expected: object, impl: str) -> None:
    data = (corpus / RFS / "testdata64" / name).read_bytes()
    want = expected()  # type: ignore[operator]
    got = decode_roaring64(data, impl=impl)  # type: ignore[arg-type]
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.array(BitMap64.deserialize(data).to_array(), dtype=np.uint64), want)
    np.testing.assert_array_equal(reference_values64(data), want)
    parsed = rspec.parse64(data)
    assert sum(len(rspec.container_values(b.bitmap)) for b in parsed.bitmaps) == want.size
    info = describe_roaring64(data)
    assert info.cardinality == want.size
    assert info.keys == tuple(sorted({int(v) >> 32 for v in want.tolist()}))


def test_bitmap64_readme_byte_positions(corpus: Path) -> None:
    # README: key 0 at byte 8, key 1 at byte 8220, key 65536 at byte 8454; 16 run containers under key 1
    info = describe_roaring64((corpus / RFS / "testdata64" / "bitmap64.bin").read_bytes())
    assert [(b.key, b.key_offset) for b in info.buckets] == [(0, 8), (1, 8220), (65536, 8454)]
    assert [c.kind for c in info.buckets[0].bitmap.containers] == ["bitmap"]
    assert [c.kind for c in info.buckets[1].bitmap.containers] == ["run"] * 16
    assert [c.kind for c in info.buckets[2].bitmap.containers] == ["array"]


@pytest.mark.parametrize("impl", IMPLS)
def test_croaring_addoffsetinput(corpus: Path, impl: str) -> None:
    data = (corpus / CRT / "addoffsetinput.bin").read_bytes()
    got = decode_roaring32(data, impl=impl)  # type: ignore[arg-type]
    np.testing.assert_array_equal(got, np.array(BitMap.deserialize(data).to_array(), dtype=np.uint32))
    np.testing.assert_array_equal(reference_values32(data), got)


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("n", range(1, 8))
def test_croaring_crashprone_inputs_fail_cleanly(corpus: Path, n: int, impl: str) -> None:
    data = (corpus / CRT / f"crashproneinput{n}.bin").read_bytes()
    with pytest.raises(FormatError) as e:
        decode_roaring32(data, impl=impl)  # type: ignore[arg-type]
    assert e.value.rule.startswith("roaring32.") and e.value.offset is not None
    with pytest.raises(FormatError):
        reference_values32(data)
    with pytest.raises(FormatError):
        decode_roaring64(data, impl=impl)  # type: ignore[arg-type]


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("64mapemptyinput.bin", "roaring64.truncated"),
        ("64mapsizetoosmall.bin", "roaring64.truncated"),
        ("64mapinvalidsize.bin", "roaring64.bitmap-count"),
        ("64mapkeytoosmall.bin", "roaring64.bitmap-count"),
    ],
)
def test_croaring_64_invalid(corpus: Path, name: str, rule: str, impl: str) -> None:
    data = (corpus / CRT / name).read_bytes()
    with pytest.raises(FormatError) as e:
        decode_roaring64(data, impl=impl)  # type: ignore[arg-type]
    assert e.value.rule == rule
    with pytest.raises((ValueError, IndexError)):  # CRoaring (pyroaring) rejects them too
        BitMap64.deserialize(data)


@pytest.mark.parametrize("impl", IMPLS)
def test_highvals_valid_roaring64_but_not_iceberg(corpus: Path, impl: str) -> None:
    data = (corpus / CRT / "64maphighvals.bin").read_bytes()
    got = decode_roaring64(data, impl=impl)  # type: ignore[arg-type]
    # MANIFEST: keys 0xFFFFFFF5..0xFFFFFFFF, each with low values 0xFFFFFFF5..0xFFFFFFFF
    want = np.array([(k << 32) | v for k in range(0xFFFFFFF5, 2**32) for v in range(0xFFFFFFF5, 2**32)], dtype=np.uint64)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.array(BitMap64.deserialize(data).to_array(), dtype=np.uint64), want)
    with pytest.raises(FormatError) as e:
        decode_roaring64(data, iceberg=True, impl=impl)  # type: ignore[arg-type]
    assert e.value.rule == "deletion-vector.key-unsigned"
    assert e.value.offset == 8 and e.value.path == "bitmaps[0].key"
    assert "Invalid unsigned key" in e.value.message


@pytest.mark.parametrize("impl", IMPLS)
def test_iceberg_mangled_highvals_fails(corpus: Path, impl: str) -> None:
    data = (corpus / ICE / "64maphighvals.bin").read_bytes()
    # the UTF-8 mangling turned byte 8 (the first key) into EF BF BD: Iceberg reads it as a negative
    # key ("Invalid unsigned key"); as plain Roaring64 the next field, the cookie, is no cookie
    for iceberg, rule, at in ((False, "roaring32.cookie", 12), (True, "deletion-vector.key-unsigned", 8)):
        with pytest.raises(FormatError) as e:
            decode_roaring64(data, iceberg=iceberg, impl=impl)  # type: ignore[arg-type]
        assert (e.value.rule, e.value.offset) == (rule, at)


@pytest.mark.parametrize("impl", IMPLS)
def test_iceberg_64map_files(corpus: Path, impl: str) -> None:
    d = corpus / ICE
    assert decode_roaring64((d / "64mapempty.bin").read_bytes(), impl=impl).size == 0  # type: ignore[arg-type]
    np.testing.assert_array_equal(decode_roaring64((d / "64map32bitvals.bin").read_bytes(), iceberg=True, impl=impl), np.arange(10))  # type: ignore[arg-type]
    spread = decode_roaring64((d / "64mapspreadvals.bin").read_bytes(), iceberg=True, impl=impl)  # type: ignore[arg-type]
    np.testing.assert_array_equal(spread, [(k << 32) | v for k in range(10) for v in range(10)])
