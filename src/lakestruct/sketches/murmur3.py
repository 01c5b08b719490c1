"""MurmurHash3_x64_128 (Austin Appleby's public-domain algorithm), as DataSketches uses it.

DataSketches hashes every update with MurmurHash3_x64_128 under the sketch's
seed and keeps ``h1 >> 1`` (a 63-bit value). The seed itself is summarised in
each serialized sketch as the *seed hash*: the low 16 bits of ``h1`` of the
seed's 8 little-endian bytes hashed with seed 0.
"""

from __future__ import annotations

import math
import struct

from ..errors import UsageError

__all__ = ["DEFAULT_SEED", "murmur3_x64_128", "compute_seed_hash", "hash_item"]

#: The DataSketches default update seed (Iceberg always uses it).
DEFAULT_SEED = 9001

_M64 = 0xFFFFFFFFFFFFFFFF
_C1 = 0x87C37B91114253D5
_C2 = 0x4CF5AD432745937F
_BLOCKS = struct.Struct("<QQ")


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) & _M64


def _fmix(k: int) -> int:
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & _M64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & _M64
    k ^= k >> 33
    return k


def murmur3_x64_128(data: bytes, seed: int = 0) -> tuple[int, int]:
    """The two 64-bit halves ``(h1, h2)`` of MurmurHash3_x64_128 of ``data``."""
    h1 = h2 = seed & _M64
    n = len(data)
    nblocks = n // 16
    for i in range(nblocks):
        k1, k2 = _BLOCKS.unpack_from(data, i * 16)
        k1 = (k1 * _C1) & _M64
        k1 = _rotl(k1, 31)
        k1 = (k1 * _C2) & _M64
        h1 ^= k1
        h1 = _rotl(h1, 27)
        h1 = (h1 + h2) & _M64
        h1 = (h1 * 5 + 0x52DCE729) & _M64
        k2 = (k2 * _C2) & _M64
        k2 = _rotl(k2, 33)
        k2 = (k2 * _C1) & _M64
        h2 ^= k2
        h2 = _rotl(h2, 31)
        h2 = (h2 + h1) & _M64
        h2 = (h2 * 5 + 0x38495AB5) & _M64
    tail = data[nblocks * 16 :]
    if len(tail) > 8:
        k2 = int.from_bytes(tail[8:], "little")
        k2 = (k2 * _C2) & _M64
        k2 = _rotl(k2, 33)
        k2 = (k2 * _C1) & _M64
        h2 ^= k2
    if tail:
        k1 = int.from_bytes(tail[:8], "little")
        k1 = (k1 * _C1) & _M64
        k1 = _rotl(k1, 31)
        k1 = (k1 * _C2) & _M64
        h1 ^= k1
    h1 ^= n
    h2 ^= n
    h1 = (h1 + h2) & _M64
    h2 = (h2 + h1) & _M64
    h1 = _fmix(h1)
    h2 = _fmix(h2)
    h1 = (h1 + h2) & _M64
    h2 = (h2 + h1) & _M64
    return h1, h2


def compute_seed_hash(seed: int = DEFAULT_SEED) -> int:
    """The 16-bit seed hash stored in sketches built with ``seed`` (9001 -> 0x93CC).

    Raises :class:`UsageError` for a seed whose hash is 0, which DataSketches
    forbids (0 is what Java writes in empty sketches).
    """
    if not -(2**63) <= seed < 2**64:
        raise UsageError(f"seed {seed} does not fit in 64 bits")
    h1, _ = murmur3_x64_128((seed & _M64).to_bytes(8, "little"), 0)
    sh = h1 & 0xFFFF
    if sh == 0:
        raise UsageError(f"seed {seed} has a seed hash of 0, which DataSketches rejects; choose another seed")
    return sh


def hash_item(item: int | float | str | bytes, seed: int = DEFAULT_SEED) -> int:
    """The 63-bit hash a DataSketches update sketch computes for ``item``.

    Follows DataSketches C++/Python: an ``int`` is hashed as its 8-byte
    little-endian two's complement; a ``float`` as its IEEE double (``-0.0`` as
    ``0.0``, every NaN as Java's canonical NaN); a ``str`` as its UTF-8 bytes;
    ``bytes`` as they are. Iceberg feeds bytes (its single-value serialization).
    """
    if isinstance(item, bool):
        raise UsageError("hash_item: booleans are ambiguous; pass bytes")
    if isinstance(item, int):
        if not -(2**63) <= item < 2**64:
            raise UsageError(f"hash_item: integer {item} does not fit in 64 bits")
        data = (item & _M64).to_bytes(8, "little")
    elif isinstance(item, float):
        if item == 0.0:
            item = 0.0
        data = struct.pack("<q", 0x7FF8000000000000) if math.isnan(item) else struct.pack("<d", item)
    elif isinstance(item, str):
        data = item.encode("utf-8")
    elif isinstance(item, (bytes, bytearray, memoryview)):
        data = bytes(item)
    else:
        raise UsageError(f"hash_item: cannot hash a {type(item).__name__}")
    h1, _ = murmur3_x64_128(data, seed)
    return h1 >> 1
