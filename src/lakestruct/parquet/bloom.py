"""Split-block bloom filters (parquet-format ``BloomFilter.md``).

The bitset is ``z`` blocks of 32 bytes, each 8 little-endian u32 words. A value is
hashed with XXH64 (seed 0) over its PLAIN encoding without the BYTE_ARRAY length
prefix; block ``((h >> 32) * z) >> 32``; key ``x = h & 0xffffffff``; word ``w`` gets
bit ``(x * SALT[w] mod 2^32) >> 27``.

Rules: ``parquet.bloom-range`` (offset/length outside the file), ``parquet.bloom-header``
(numBytes not a positive multiple of 32, or larger than the stored length),
``parquet.bloom-algorithm`` (not BLOCK / XXHASH / UNCOMPRESSED).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import xxhash

from ..errors import FormatError, TruncatedError
from ..thrift import compact
from ..thrift.typed import from_raw
from .model import BloomFilterHeader, Type

if TYPE_CHECKING:
    from .read import ParquetFile

__all__ = ["SALT", "SplitBlockBloomFilter", "bloom_filter", "hash_value", "plain_bytes"]

SALT = (0x47B6137B, 0x44974D91, 0x8824AD5B, 0xA2B7289D, 0x705495C7, 0x2DF1424B, 0x9EFC4947, 0x5C6BFB31)
#: a header is a few bytes; read this much when bloom_filter_length is absent
HEADER_PROBE = 256


def plain_bytes(value: Any, physical_type: Type | int | None = None) -> bytes:
    """The PLAIN encoding of ``value`` as the bloom filter hashes it (no length prefix)."""
    pt = physical_type
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, bool):
        return b"\x01" if value else b"\x00"
    if isinstance(value, int):
        if pt == Type.INT32:
            return struct.pack("<i", value) if value < 2**31 else struct.pack("<I", value)
        if pt in (Type.INT64, None):
            return struct.pack("<q", value) if value < 2**63 else struct.pack("<Q", value)
        if pt == Type.FLOAT:
            return struct.pack("<f", value)
        if pt == Type.DOUBLE:
            return struct.pack("<d", value)
        raise TypeError(f"cannot hash an int for physical type {pt}")
    if isinstance(value, float):
        return struct.pack("<f", value) if pt == Type.FLOAT else struct.pack("<d", value)
    raise TypeError(f"cannot hash a {type(value).__name__}")


def hash_value(value: Any, physical_type: Type | int | None = None) -> int:
    """XXH64 (seed 0) of the value's PLAIN bytes."""
    return int(xxhash.xxh64_intdigest(plain_bytes(value, physical_type)))


@dataclass(frozen=True)
class SplitBlockBloomFilter:
    """A parsed split-block bloom filter: its header and bitset."""

    header: BloomFilterHeader
    bitset: bytes
    offset: int = 0  # absolute offset of the header
    header_size: int = 0
    physical_type: Type | int | None = None

    @property
    def num_blocks(self) -> int:
        return len(self.bitset) // 32

    def might_contain_hash(self, h: int) -> bool:
        z = self.num_blocks
        block = (((h >> 32) & 0xFFFFFFFF) * z) >> 32
        x = h & 0xFFFFFFFF
        words = struct.unpack_from("<8I", self.bitset, block * 32)
        for w in range(8):
            bit = ((x * SALT[w]) & 0xFFFFFFFF) >> 27
            if not (words[w] >> bit) & 1:
                return False
        return True

    def might_contain(self, value: Any) -> bool:
        """False: the value is certainly absent; True: it may be present."""
        return self.might_contain_hash(hash_value(value, self.physical_type))

    @staticmethod
    def insert_hash(bitset: bytearray, h: int) -> None:
        """Set the bits of hash ``h`` (for writers and tests)."""
        z = len(bitset) // 32
        block = (((h >> 32) & 0xFFFFFFFF) * z) >> 32
        x = h & 0xFFFFFFFF
        for w in range(8):
            bit = ((x * SALT[w]) & 0xFFFFFFFF) >> 27
            at = block * 32 + 4 * w
            word = struct.unpack_from("<I", bitset, at)[0] | (1 << bit)
            struct.pack_into("<I", bitset, at, word)


def parse_bloom_filter(
    data: bytes, *, offset: int = 0, path: str = "bloom_filter", physical_type: Type | int | None = None
) -> SplitBlockBloomFilter:
    """A header + bitset from bytes (``data`` may extend beyond the bitset)."""
    raw, hsize = compact.decode_struct(data, 0, base=offset, path=f"{path}.header")
    header = from_raw(BloomFilterHeader, raw, path=f"{path}.header", offset=offset)
    if header.algorithm is None or header.algorithm.BLOCK is None:
        raise FormatError(
            "algorithm is not BLOCK (split block)", rule="parquet.bloom-algorithm", path=f"{path}.header.algorithm", offset=offset
        )
    if header.hash is None or header.hash.XXHASH is None:
        raise FormatError("hash is not XXHASH", rule="parquet.bloom-algorithm", path=f"{path}.header.hash", offset=offset)
    if header.compression is None or header.compression.UNCOMPRESSED is None:
        raise FormatError(
            "compression is not UNCOMPRESSED", rule="parquet.bloom-algorithm", path=f"{path}.header.compression", offset=offset
        )
    n = header.numBytes
    if n <= 0 or n % 32:
        raise FormatError(
            f"numBytes {n} is not a positive multiple of 32", rule="parquet.bloom-header", path=f"{path}.header.numBytes", offset=offset
        )
    if hsize + n > len(data):
        raise TruncatedError(
            f"the bitset needs {n} bytes after the {hsize}-byte header, {len(data) - hsize} are there",
            rule="parquet.bloom-range",
            path=f"{path}.bitset",
            offset=offset + hsize,
        )
    return SplitBlockBloomFilter(header, bytes(data[hsize : hsize + n]), offset, hsize, physical_type)


def bloom_filter(pq: ParquetFile, row_group: int, column: int | str) -> SplitBlockBloomFilter | None:
    """The chunk's bloom filter, or None when it has none."""
    col = column if isinstance(column, int) else pq.column(column).index
    md = pq._chunk_meta(row_group, col)
    off, length = md.bloom_filter_offset, md.bloom_filter_length
    path = f"row_groups[{row_group}].columns[{col}].bloom_filter"
    if off is None:
        return None
    limit = pq.footer.offset
    if off < 4 or off >= limit or (length is not None and (length <= 0 or off + length > limit)):
        raise FormatError(
            f"bloom filter at {off} (length {length}) is outside [4, {limit})",
            rule="parquet.bloom-range",
            path=path,
            offset=off,
            source=pq.name,
        )
    try:
        if length is not None:
            data = pq.source.read_exact(off, length, rule="parquet.bloom-range", path=path)
        else:
            head = pq.source.read(off, min(HEADER_PROBE, limit - off))
            raw, hsize = compact.decode_struct(head, 0, base=off, path=f"{path}.header")
            n = from_raw(BloomFilterHeader, raw, path=path, offset=off).numBytes
            if n <= 0 or off + hsize + n > limit:
                raise FormatError(
                    f"numBytes {n} does not fit before the footer", rule="parquet.bloom-header", path=f"{path}.header.numBytes", offset=off
                )
            data = pq.source.read_exact(off, hsize + n, rule="parquet.bloom-range", path=path)
        return parse_bloom_filter(data, offset=off, path=path, physical_type=md.type)
    except FormatError as e:
        raise e.with_source(pq.name) from None
