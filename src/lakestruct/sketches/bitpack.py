"""MSB-first bit packing of the deltas in serial-version-4 (compressed) Theta sketches.

The deltas form one continuous big-endian bit stream of ``bits`` bits each; a
block of 8 values therefore takes exactly ``bits`` bytes, which is how both
functions work (one Python integer per block, linear time). The last, partial
block is zero-padded to a whole byte.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["packed_size", "pack", "unpack", "unpack_array"]


def packed_size(n: int, bits: int) -> int:
    """Bytes taken by ``n`` values of ``bits`` bits."""
    return (n * bits + 7) // 8


def unpack(data: bytes, n: int, bits: int) -> list[int]:
    """The ``n`` values of ``bits`` bits packed MSB-first in ``data``.

    ``data`` must hold at least :func:`packed_size` bytes (callers check).
    """
    out: list[int] = []
    mask = (1 << bits) - 1
    full = n // 8
    shifts = [bits * (7 - j) for j in range(8)]
    pos = 0
    for _ in range(full):
        block = int.from_bytes(data[pos : pos + bits], "big")
        pos += bits
        out.extend((block >> s) & mask for s in shifts)
    rest = n - full * 8
    if rest:
        tail = data[pos : pos + packed_size(rest, bits)].ljust(bits, b"\0")
        block = int.from_bytes(tail, "big")
        out.extend((block >> s) & mask for s in shifts[:rest])
    return out


#: Values unpacked per block by :func:`unpack_array` (a multiple of 8, so every block starts on a byte).
BLOCK = 1 << 20


def unpack_array(data: bytes, n: int, bits: int) -> npt.NDArray[np.uint64]:
    """:func:`unpack` vectorised: the ``n`` values as a (writeable, new) uint64 array. Works in blocks of
    :data:`BLOCK` values, so the transient memory (one byte per packed bit) stays below ``BLOCK * bits`` bytes."""
    out = np.zeros(n, dtype=np.uint64)
    if n == 0:
        return out
    packed = np.frombuffer(data, dtype=np.uint8, count=packed_size(n, bits))
    one = np.uint64(1)
    for lo in range(0, n, BLOCK):
        m = min(BLOCK, n - lo)
        first = lo * bits // 8  # BLOCK is a multiple of 8: lo * bits is a whole number of bytes
        bitmat = np.unpackbits(packed[first : first + packed_size(m, bits)])[: m * bits].reshape(m, bits)  # MSB first
        dst = out[lo : lo + m]
        for b in range(bits):
            dst <<= one
            dst |= bitmat[:, b]
    return out


def pack(values: list[int] | tuple[int, ...], bits: int) -> bytes:
    """``values`` (each below ``2**bits``) packed MSB-first, zero-padded."""
    parts: list[bytes] = []
    n = len(values)
    full = n // 8
    for b in range(full):
        block = 0
        for v in values[b * 8 : b * 8 + 8]:
            block = (block << bits) | v
        parts.append(block.to_bytes(bits, "big"))
    rest = n - full * 8
    if rest:
        block = 0
        for v in values[full * 8 :]:
            block = (block << bits) | v
        block <<= bits * (8 - rest)
        parts.append(block.to_bytes(bits, "big")[: packed_size(rest, bits)])
    return b"".join(parts)
