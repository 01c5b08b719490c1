"""Page CRCs: every page header's crc is checked against the stored body by check()."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

import lakestruct as ls

DATA = "parquet-testing/data"


@pytest.mark.parametrize("name", ["datapage_v1-corrupt-checksum.parquet", "rle-dict-uncompressed-corrupt-checksum.parquet"])
def test_corrupt_checksums_are_named(corpus: Path, name: str) -> None:
    pq = ls.parquet.open(corpus / DATA / name)
    with pytest.raises(ls.ChecksumError) as ei:
        pq.check()
    e = ei.value
    assert e.rule == "parquet.page-crc" and e.path.endswith(".header.crc")
    page = next(p for p in pq.pages() if p.offset == e.offset)
    assert zlib.crc32(pq.read_page_body(page)) != page.crc & 0xFFFFFFFF


@pytest.mark.parametrize(
    "name",
    ["datapage_v1-uncompressed-checksum.parquet", "datapage_v1-snappy-compressed-checksum.parquet",
     "plain-dict-uncompressed-checksum.parquet", "rle-dict-snappy-checksum.parquet"],
)
def test_matching_checksums_pass(corpus: Path, name: str) -> None:
    pq = ls.parquet.open(corpus / DATA / name)
    assert pq.check() > 0
    assert any(p.crc is not None for p in pq.pages())


def test_one_flipped_body_byte_is_caught(corpus: Path, tmp_path: Path) -> None:
    src = corpus / DATA / "datapage_v1-uncompressed-checksum.parquet"
    pq = ls.parquet.open(src)
    page = next(p for p in pq.pages() if p.crc is not None)
    data = bytearray(src.read_bytes())
    data[page.data_offset + page.compressed_size // 2] ^= 0x40
    bad = tmp_path / "flipped.parquet"
    bad.write_bytes(bytes(data))
    with pytest.raises(ls.ChecksumError) as ei:
        ls.parquet.open(bad).check()
    assert ei.value.offset == page.offset
