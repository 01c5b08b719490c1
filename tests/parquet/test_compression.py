"""Page decompression: every codec, legacy LZ4 framings, concatenated gzip, size bounds."""

from __future__ import annotations

import gzip
import zlib

import cramjam
import lz4.block
import lz4.frame
import pytest
import zstandard
from hypothesis import given
from hypothesis import strategies as st

from lakestruct.errors import DecompressionError, FormatError, LimitError
from lakestruct.parquet.compression import FLOOR, MAX_EXPANSION, decompress_page, page_limit
from lakestruct.parquet.levels import Where

W = Where("row_groups[0].columns[1].pages[0].body", 4000)

# Independent compressors (stdlib gzip/zlib, python-lz4, zstandard) where available; cramjam for snappy/brotli.
COMPRESS = {
    1: lambda d: bytes(cramjam.snappy.compress_raw(d)),
    2: gzip.compress,
    4: lambda d: bytes(cramjam.brotli.compress(d)),
    6: lambda d: zstandard.ZstdCompressor().compress(d),
    7: lambda d: lz4.block.compress(d, store_size=False),
}


@pytest.mark.parametrize("codec", sorted(COMPRESS))
@given(data=st.binary(max_size=3000) | st.builds(lambda n: b"ab" * n, st.integers(0, 5000)))
def test_codecs_round_trip(codec: int, data: bytes) -> None:
    assert decompress_page(codec, COMPRESS[codec](data), len(data), W) == data


def test_uncompressed_size_must_match() -> None:
    assert decompress_page(0, b"abc", 3, W) == b"abc"
    with pytest.raises(FormatError) as ei:
        decompress_page(0, b"abc", 4, W)
    assert ei.value.rule == "parquet.codec.size"


def test_gzip_concatenated_members() -> None:
    data = gzip.compress(b"hello ") + gzip.compress(b"world")
    assert decompress_page(2, data, 11, W) == b"hello world"


def test_zlib_stream_is_not_gzip() -> None:
    with pytest.raises(DecompressionError):
        decompress_page(2, zlib.compress(b"x" * 100), 100, W)


def _hadoop(chunks: list[bytes]) -> bytes:
    out = b""
    for c in chunks:
        block = lz4.block.compress(c, store_size=False)
        out += len(c).to_bytes(4, "big") + len(block).to_bytes(4, "big") + block
    return out


def test_lz4_hadoop_framing_and_raw_fallback() -> None:
    a, b = b"parquet " * 50, b"hadoop lz4 " * 30
    assert decompress_page(5, _hadoop([a, b]), len(a) + len(b), W) == a + b
    raw = lz4.block.compress(a + b, store_size=False)
    assert decompress_page(5, raw, len(a) + len(b), W) == a + b
    framed = lz4.frame.compress(a + b)  # some writers used the LZ4 frame format for codec 5
    assert decompress_page(5, framed, len(a) + len(b), W) == a + b


@pytest.mark.parametrize("codec", sorted(COMPRESS))
def test_wrong_declared_size(codec: int) -> None:
    data = b"0123456789" * 100
    comp = COMPRESS[codec](data)
    for declared in (len(data) - 1, len(data) + 1):
        with pytest.raises(DecompressionError) as ei:
            decompress_page(codec, comp, declared, W)
        assert ei.value.rule in ("parquet.codec.size", "parquet.codec.corrupt")
        assert ei.value.path == W.path and ei.value.offset == 4000


@pytest.mark.parametrize("codec", sorted(COMPRESS))
def test_corrupt(codec: int) -> None:
    with pytest.raises(DecompressionError):
        decompress_page(codec, b"\xff\xfe\xfd\xfc" * 8, 1000, W)


def test_declared_size_is_capped() -> None:
    assert page_limit(10) == FLOOR and page_limit(10**6) == MAX_EXPANSION * 10**6
    bomb = zstandard.ZstdCompressor().compress(b"\x00" * 1000)
    with pytest.raises(LimitError) as ei:
        decompress_page(6, bomb, FLOOR + 1, W)
    assert ei.value.rule == "parquet.codec.limit"
    with pytest.raises(LimitError):
        decompress_page(6, bomb, 2000, W, limit=1500)


def test_unknown_and_unsupported_codecs() -> None:
    with pytest.raises(FormatError) as ei:
        decompress_page(9, b"x", 1, W)
    assert ei.value.rule == "parquet.codec.unknown"
    with pytest.raises(DecompressionError) as ei:
        decompress_page(3, b"x", 1, W)
    assert ei.value.rule == "parquet.codec.unsupported"
