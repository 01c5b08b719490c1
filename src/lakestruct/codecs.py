"""Compression codecs shared by the formats (Puffin: single LZ4 and zstd frames).

Decompression is bounded: a frame must declare (or produce) no more than
``limit`` bytes, and the caller derives ``limit`` from the input size, so a
small file can never make lakestruct allocate gigabytes (no decompression bomb).
"""

from __future__ import annotations

from typing import NoReturn

import lz4.frame
import zstandard

from .errors import DecompressionError, LimitError, UsageError

__all__ = ["CODECS", "compress", "decompress", "default_limit"]

CODECS = ("lz4", "zstd")

# A frame may expand to at most this many times its size (or FLOOR bytes), unless
# the caller passes a larger limit. LZ4's own worst case is ~255x; zstd can do more
# on degenerate data, which no Puffin writer produces.
MAX_EXPANSION = 1024
FLOOR = 64 * 1024 * 1024


def default_limit(compressed_size: int) -> int:
    return max(FLOOR, MAX_EXPANSION * compressed_size)


def compress(codec: str, data: bytes) -> bytes:
    """One frame with the content size in its header, as the Puffin spec requires."""
    if codec == "lz4":
        return bytes(lz4.frame.compress(data, store_size=True))
    if codec == "zstd":
        return bytes(zstandard.ZstdCompressor(write_content_size=True).compress(data))
    raise UsageError(f"unknown compression codec {codec!r}; known: {', '.join(CODECS)}")


def decompress(codec: str, data: bytes, *, limit: int, rule: str, path: str, offset: int | None) -> bytes:
    """Decompress exactly one frame of ``codec`` into at most ``limit`` bytes."""

    def fail(msg: str, cls: type[DecompressionError] | type[LimitError] = DecompressionError) -> NoReturn:
        raise cls(msg, rule=rule, path=path, offset=offset)

    if codec == "lz4":
        try:
            info = lz4.frame.get_frame_info(data)
        except RuntimeError as e:
            fail(f"not an LZ4 frame: {e}")
        declared = int(info.get("content_size") or 0)
        if declared > limit:
            fail(f"LZ4 frame declares {declared} bytes, above the limit of {limit}", LimitError)
        d = lz4.frame.LZ4FrameDecompressor()
        try:
            out = d.decompress(data, max_length=limit + 1)
        except RuntimeError as e:
            fail(f"corrupt LZ4 frame: {e}")
        if len(out) > limit:
            fail(f"LZ4 frame expands beyond the limit of {limit} bytes", LimitError)
        if not d.eof:
            fail("LZ4 frame is truncated (no end mark)")
        if d.unused_data:
            fail(f"{len(d.unused_data)} bytes follow the LZ4 frame (one frame expected)")
        if declared and declared != len(out):
            fail(f"LZ4 frame declares {declared} bytes but holds {len(out)}")
        return bytes(out)
    if codec == "zstd":
        try:
            params = zstandard.get_frame_parameters(data)
        except zstandard.ZstdError as e:
            fail(f"not a zstd frame: {e}")
        declared = params.content_size
        if declared != zstandard.CONTENTSIZE_UNKNOWN and declared > limit:
            fail(f"zstd frame declares {declared} bytes, above the limit of {limit}", LimitError)
        try:
            # Bounded: the declared size was checked above; without one, max_output_size caps it.
            out = zstandard.ZstdDecompressor().decompress(data, max_output_size=limit, allow_extra_data=False)
        except zstandard.ZstdError as e:
            msg = str(e)
            if "unused data" in msg:
                fail(f"{msg} (one frame expected)")
            elif declared == zstandard.CONTENTSIZE_UNKNOWN:
                fail(f"zstd frame is corrupt, truncated, or larger than the limit of {limit} bytes: {msg}")
            else:
                fail(f"corrupt or truncated zstd frame: {msg}")
        return bytes(out)
    raise UsageError(f"unknown compression codec {codec!r}; known: {', '.join(CODECS)}")
