"""Definition and repetition levels: the RLE/bit-packing hybrid and legacy BIT_PACKED.

parquet-format ``Encodings.md``::

    rle-bit-packed-hybrid := [<length:u32 LE>] <run>*
    bit-packed-run := varint(groups << 1 | 1)  then groups*8 values of bw bits (LSB first)
    rle-run        := varint(count << 1)        then the value in ceil(bw/8) bytes LE

Run headers are parsed in Python; the values are produced with NumPy (every
bit-packed run of a section unpacked in one gather/shift/mask pass, RLE runs filled
by slices). A run never makes the decoder allocate more than the number of values
the caller asked for, so a hostile run length cannot cost memory. Every malformed input raises a
:class:`~lakestruct.errors.FormatError` naming the absolute byte offset (when the
bytes are stored uncompressed in the file) and the field path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from ..errors import FormatError, TruncatedError
from ..thrift.compact import Encoder

__all__ = [
    "Where",
    "bit_width",
    "decode_bit_packed_legacy",
    "decode_hybrid",
    "encode_bit_packed_legacy",
    "encode_hybrid",
    "read_uvarint",
    "unpack_bits",
]

@dataclass(frozen=True)
class Where:
    """Where a byte buffer came from, for error messages.

    ``base`` is the absolute file offset of ``buf[0]`` when the buffer is stored
    verbatim in the file; ``None`` when it is decompressed (errors then name
    ``anchor``, the offset of the compressed bytes, and the position inside the
    decompressed buffer in the message).
    """

    path: str
    base: int | None = 0
    anchor: int | None = None

    def offset(self, pos: int) -> int | None:
        return self.base + pos if self.base is not None else self.anchor

    def fail(self, msg: str, *, rule: str, pos: int, cls: type[FormatError] = FormatError, sub: str = "") -> NoReturn:
        if self.base is None:
            msg = f"{msg} (at byte {pos} of the decompressed page)"
        raise cls(msg, rule=rule, path=self.path + sub, offset=self.offset(pos))

    def sub(self, name: str, skip: int = 0) -> Where:
        """A child location: path ``path + name`` starting ``skip`` bytes further."""
        if self.base is None:
            return Where(self.path + name, None, self.anchor)
        return Where(self.path + name, self.base + skip, self.anchor)


def bit_width(max_value: int) -> int:
    """Bits needed for values 0..max_value (0 when max_value is 0)."""
    return int(max_value).bit_length()


def read_uvarint(
    buf: bytes | memoryview, pos: int, end: int, where: Where, *, max_bytes: int = 10, what: str = "varint"
) -> tuple[int, int]:
    """ULEB128 at ``pos``; returns (value, new position). At most ``max_bytes`` bytes."""
    result = 0
    shift = 0
    start = pos
    while True:
        if pos >= end:
            where.fail(
                f"{what} runs past the end of its {end - start}-byte section",
                rule="parquet.varint.truncated",
                pos=start,
                cls=TruncatedError,
            )
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if pos - start >= max_bytes:
            where.fail(f"{what} is longer than {max_bytes} bytes", rule="parquet.varint.overlong", pos=start)


def unpack_bits(data: bytes | memoryview | npt.NDArray[np.uint8], bw: int, count: int) -> npt.NDArray[np.uint64]:
    """``count`` values of ``bw`` bits, packed LSB-first (the hybrid's bit-packed order)."""
    if count <= 0:
        return np.zeros(0, dtype=np.uint64)
    if bw == 0:
        return np.zeros(count, dtype=np.uint64)
    raw = np.frombuffer(data, dtype=np.uint8) if not isinstance(data, np.ndarray) else data
    nbytes = (count * bw + 7) // 8
    raw = raw[:nbytes]
    if bw == 8:
        return raw[:count].astype(np.uint64)
    if bw in (16, 32, 64) and len(raw) >= count * bw // 8:
        dt = {16: "<u2", 32: "<u4", 64: "<u8"}[bw]
        return np.frombuffer(raw.tobytes()[: count * bw // 8], dtype=dt).astype(np.uint64)
    if bw <= 57:
        # Gather a 4- or 8-byte little-endian window at each value's first byte, shift, mask.
        width = 4 if bw <= 25 else 8
        padded = np.zeros(nbytes + width, dtype=np.uint8)
        padded[: len(raw)] = raw
        windows = np.ndarray((nbytes + 1,), dtype=f"<u{width}", buffer=padded, strides=(1,))
        bitpos = np.arange(count, dtype=np.uint64) * np.uint64(bw)
        first = (bitpos >> np.uint64(3)).astype(np.intp)
        shift = (bitpos & np.uint64(7)).astype(f"u{width}")
        mask = np.array((1 << bw) - 1, dtype=f"u{width}")
        gathered: npt.NDArray[np.uint64] = ((windows[first] >> shift) & mask).astype(np.uint64)
        return gathered
    # 58..63 bits: widen every value to 64 bits and let packbits assemble the bytes.
    bits = np.unpackbits(raw, bitorder="little")[: count * bw].reshape(-1, bw)
    wide = np.zeros((count, 64), dtype=np.uint8)
    wide[: len(bits), :bw] = bits
    packed: npt.NDArray[np.uint64] = np.packbits(wide, axis=1, bitorder="little").view("<u8").reshape(count).astype(np.uint64)
    return packed


def decode_hybrid(
    buf: bytes | memoryview,
    bw: int,
    count: int,
    where: Where,
    *,
    start: int = 0,
    end: int | None = None,
    what: str = "levels",
    max_bw: int = 32,
) -> tuple[npt.NDArray[np.unsignedinteger[Any]], int]:
    """Decode ``count`` values of the RLE/bit-packing hybrid from ``buf[start:end]``.

    Returns the values and the position after the last run read. Raises when the
    runs end before ``count`` values (the last bit-packed run may be cut short by
    the writer: its complete values still count).
    """
    if end is None:
        end = len(buf)
    if not 0 <= bw <= max_bw:
        where.fail(f"bit width {bw} of the {what} is outside 0..{max_bw}", rule="parquet.rle.bit-width", pos=start)
    # Pass 1 (Python): parse the run headers. Pass 2 (NumPy): unpack every bit-packed
    # run's bytes in one call and fill the output by slices.
    have = 0
    pos = start
    vbytes = (bw + 7) // 8
    limit = (1 << bw) - 1
    rle: list[tuple[int, int, int]] = []  # (dst, take, value)
    bp: list[tuple[int, int, int]] = []  # (dst, take, capacity)
    slices: list[bytes | memoryview] = []
    mv = memoryview(buf)
    while have < count:
        if pos >= end:
            where.fail(
                f"the {what} hold {have} values but {count} are declared",
                rule="parquet.levels.count" if what.endswith("levels") else "parquet.rle.count",
                pos=pos,
                cls=TruncatedError,
            )
        run_at = pos
        header = buf[pos]
        if header < 0x80:
            pos += 1
        else:
            header, pos = read_uvarint(buf, pos, end, where, max_bytes=5, what=f"run header of the {what}")
        n = header >> 1
        if n == 0:
            where.fail(f"zero-length run in the {what}", rule="parquet.rle.run-length", pos=run_at)
        if header & 1:  # bit-packed: n groups of 8 values
            nbytes = n * bw
            avail = min(nbytes, end - pos)
            nvals = min(n * 8, (avail * 8) // bw if bw else n * 8)
            take = min(nvals, count - have)
            if take <= 0:
                where.fail(
                    f"bit-packed run of the {what} declares {nbytes} bytes but only {end - pos} remain",
                    rule="parquet.rle.truncated",
                    pos=run_at,
                    cls=TruncatedError,
                )
            bp.append((have, take, nvals if bw else take))  # width 0: no bytes, nothing to align
            slices.append(mv[pos : pos + avail])
            have += take
            pos += avail
        else:  # RLE run
            if pos + vbytes > end:
                where.fail(
                    f"RLE run of the {what} needs {vbytes} value bytes", rule="parquet.rle.truncated", pos=run_at, cls=TruncatedError
                )
            value = buf[pos] if vbytes == 1 else int.from_bytes(bytes(mv[pos : pos + vbytes]), "little")
            pos += vbytes
            if value > limit:
                where.fail(f"RLE run value {value} of the {what} does not fit in {bw} bits", rule="parquet.rle.value", pos=run_at)
            take = min(n, count - have)
            rle.append((have, take, value))
            have += take
    # the narrowest unsigned dtype for the bit width (levels: uint8), so a long run costs 1 byte a value
    odt: type[np.unsignedinteger[Any]] = np.uint8 if bw <= 8 else np.uint16 if bw <= 16 else np.uint32 if bw <= 32 else np.uint64
    if not bp and len(rle) == 1:
        return np.full(count, rle[0][2], dtype=odt), pos
    out: npt.NDArray[np.unsignedinteger[Any]] = np.empty(count, dtype=odt)
    for dst, take, value in rle:
        out[dst : dst + take] = value
    if bp:
        if len(bp) == 1 and not rle:
            return unpack_bits(slices[0], bw, count).astype(odt, copy=False), pos
        # every run but a cut-short last one holds whole groups of 8 values = whole bytes
        packed = unpack_bits(b"".join(slices), bw, sum(c for _d, _t, c in bp))
        off = 0
        for dst, take, cap in bp:
            out[dst : dst + take] = packed[off : off + take]
            off += cap
    return out, pos


def decode_bit_packed_legacy(
    buf: bytes | memoryview, bw: int, count: int, where: Where, *, start: int = 0, end: int | None = None, what: str = "levels"
) -> tuple[npt.NDArray[np.uint64], int]:
    """Deprecated BIT_PACKED (encoding 4): ``count`` values MSB-first, no header."""
    if end is None:
        end = len(buf)
    nbytes = (count * bw + 7) // 8
    if start + nbytes > end:
        where.fail(
            f"BIT_PACKED {what} need {nbytes} bytes but only {end - start} remain",
            rule="parquet.levels.truncated",
            pos=start,
            cls=TruncatedError,
        )
    if bw == 0 or count == 0:
        return np.zeros(count, dtype=np.uint64), start + nbytes
    raw = np.frombuffer(buf, dtype=np.uint8, count=nbytes, offset=start)
    bits = np.unpackbits(raw, bitorder="big")[: count * bw].reshape(count, bw).astype(np.uint64)
    weights = np.uint64(1) << np.arange(bw - 1, -1, -1, dtype=np.uint64)
    return (bits * weights).sum(axis=1, dtype=np.uint64), start + nbytes


# --------------------------------------------------------------------------- encoders


#: ULEB128 run headers: the same varint as Thrift's compact protocol.
_uvarint = Encoder.varint


def _pack_lsb(values: Sequence[int], bw: int) -> bytes:
    acc = 0
    for i, v in enumerate(values):
        acc |= int(v) << (i * bw)
    return acc.to_bytes((len(values) * bw + 7) // 8, "little")


def encode_hybrid(values: Sequence[int] | npt.NDArray[np.integer], bw: int, *, length_prefix: bool = False) -> bytes:
    """Encode with the RLE/bit-packing hybrid (runs of 8+ equal values become RLE runs).

    A trailing bit-packed group is padded with zeros, as the format allows.
    """
    vals = [int(v) for v in values]
    if bw < 0 or bw > 64 or any(v < 0 or v >> bw for v in vals):
        raise ValueError(f"values do not fit in {bw} bits")
    out = bytearray()
    lit: list[int] = []
    vbytes = (bw + 7) // 8

    def flush() -> None:
        if lit:
            pad = (-len(lit)) % 8
            groups = (len(lit) + pad) // 8
            out.extend(_uvarint(groups << 1 | 1))
            out.extend(_pack_lsb([*lit, *([0] * pad)], bw))
            lit.clear()

    i, n = 0, len(vals)
    while i < n:
        j = i
        while j < n and vals[j] == vals[i]:
            j += 1
        run = j - i
        fill = (-len(lit)) % 8
        if run >= 8 and fill == 0:
            flush()
            out.extend(_uvarint(run << 1))
            out.extend(vals[i].to_bytes(vbytes, "little"))
            i = j
        elif run >= 8 + fill:
            lit.extend(vals[i : i + fill])
            i += fill
        else:
            lit.extend(vals[i:j])
            i = j
    flush()
    body = bytes(out)
    return len(body).to_bytes(4, "little") + body if length_prefix else body


def encode_bit_packed_legacy(values: Sequence[int], bw: int) -> bytes:
    """Deprecated BIT_PACKED: values MSB-first, no header."""
    acc = 0
    for v in values:
        acc = (acc << bw) | int(v)
    nbits = len(values) * bw
    pad = (-nbits) % 8
    return (acc << pad).to_bytes((nbits + pad) // 8, "big") if nbits else b""
