"""Page decompression for Parquet's codecs, bounded by the page header's declared size.

Uses ``cramjam`` (no hand-written codecs). The output buffer is allocated once with
the size the page header declares (``uncompressed_page_size``) and the codec writes
into it, so a page can never make lakestruct allocate more than it declares; the
declared size itself must be plausible for the stored size (:func:`page_limit`),
else :class:`~lakestruct.errors.LimitError` (rule ``parquet.codec.limit``).

Codec ids (``CompressionCodec``): UNCOMPRESSED 0, SNAPPY 1, GZIP 2 (concatenated
members are read in sequence), LZO 3 (unsupported), BROTLI 4, LZ4 5 (legacy: Hadoop
framing — big-endian u32 decompressed size, u32 compressed size, LZ4 block, repeated —
else an LZ4 frame, else a raw LZ4 block), ZSTD 6, LZ4_RAW 7.
"""

from __future__ import annotations

import cramjam

from ..codecs import FLOOR, MAX_EXPANSION, default_limit
from ..errors import DecompressionError, LimitError
from .levels import Where

__all__ = ["CODECS", "MAX_EXPANSION", "FLOOR", "decompress_page", "page_limit"]

CODECS = {0: "UNCOMPRESSED", 1: "SNAPPY", 2: "GZIP", 3: "LZO", 4: "BROTLI", 5: "LZ4", 6: "ZSTD", 7: "LZ4_RAW"}

#: The largest uncompressed size a page of ``compressed_size`` stored bytes may declare: the
#: project-wide bound, ``MAX_EXPANSION`` x the stored size or ``FLOOR`` bytes, whichever is larger.
page_limit = default_limit


def _hadoop_lz4(data: bytes, out: bytearray) -> int | None:
    """Hadoop-framed LZ4 into ``out``; None when ``data`` is not Hadoop-framed."""
    pos = 0
    written = 0
    n = len(data)
    while pos < n:
        if pos + 8 > n:
            return None
        raw_len = int.from_bytes(data[pos : pos + 4], "big")
        pos += 4
        if written + raw_len > len(out):
            return None
        # One frame may hold several (compressed-size, block) pairs adding up to raw_len.
        frame_end = written + raw_len
        while written < frame_end:
            if pos + 4 > n:
                return None
            clen = int.from_bytes(data[pos : pos + 4], "big")
            pos += 4
            if clen == 0 or pos + clen > n:
                return None
            view = memoryview(out)[written:frame_end]
            try:
                got = int(cramjam.lz4.decompress_block_into(data[pos : pos + clen], view))
            except Exception:
                return None
            if got <= 0:
                return None
            written += got
            pos += clen
    return written


def decompress_page(codec: int, data: bytes, uncompressed_size: int, where: Where, *, limit: int | None = None) -> bytes:
    """Decompress a page's stored bytes into exactly ``uncompressed_size`` bytes."""
    name = CODECS.get(codec)
    if name is None:
        where.fail(f"unknown compression codec {codec}", rule="parquet.codec.unknown", pos=0)
    if codec == 0:
        if len(data) != uncompressed_size:
            where.fail(f"uncompressed page stores {len(data)} bytes but declares {uncompressed_size}", rule="parquet.codec.size", pos=0)
        return data
    if uncompressed_size < 0:
        where.fail(f"negative uncompressed size {uncompressed_size}", rule="parquet.codec.size", pos=0)
    cap = page_limit(len(data)) if limit is None else limit
    if uncompressed_size > cap:
        where.fail(
            f"{name} page of {len(data)} bytes declares {uncompressed_size} uncompressed bytes, above the limit of {cap}",
            rule="parquet.codec.limit",
            pos=0,
            cls=LimitError,
        )
    if codec == 3:
        where.fail("LZO-compressed pages are not supported", rule="parquet.codec.unsupported", pos=0, cls=DecompressionError)
    out = bytearray(uncompressed_size)
    got: int | None
    try:
        if codec == 1:
            declared = int(cramjam.snappy.decompress_raw_len(data))
            if declared != uncompressed_size:
                where.fail(
                    f"snappy block declares {declared} bytes but the page header {uncompressed_size}",
                    rule="parquet.codec.size",
                    pos=0,
                    cls=DecompressionError,
                )
            got = int(cramjam.snappy.decompress_raw_into(data, out))
        elif codec == 2:
            got = int(cramjam.gzip.decompress_into(data, out))
        elif codec == 4:
            got = int(cramjam.brotli.decompress_into(data, out))
        elif codec == 6:
            got = int(cramjam.zstd.decompress_into(data, out))
        elif codec == 7:
            got = int(cramjam.lz4.decompress_block_into(data, out))
        else:  # codec 5: Hadoop framing first, then an LZ4 frame (magic 04 22 4D 18), then a raw LZ4 block
            got = _hadoop_lz4(data, out)
            if got != uncompressed_size:
                out = bytearray(uncompressed_size)
                if data[:4] == b"\x04\x22\x4d\x18":
                    got = int(cramjam.lz4.decompress_into(data, out))
                else:
                    got = int(cramjam.lz4.decompress_block_into(data, out))
    except DecompressionError:
        raise
    except Exception as e:  # cramjam.DecompressionError and friends
        where.fail(
            f"{name} data does not decompress into the declared {uncompressed_size} bytes: {e}",
            rule="parquet.codec.corrupt",
            pos=0,
            cls=DecompressionError,
        )
    if got != uncompressed_size:
        where.fail(
            f"{name} data decompresses to {got} bytes but the page header declares {uncompressed_size}",
            rule="parquet.codec.size",
            pos=0,
            cls=DecompressionError,
        )
    return bytes(out)
