"""Value encodings of Parquet data pages (parquet-format ``Encodings.md``).

Every decoder takes a buffer, the section ``start:end`` it may read, the number of
values wanted and a :class:`~lakestruct.parquet.levels.Where` for errors, and
returns ``(values, position after the last byte used)``.

Values come back as NumPy arrays: fixed-width types as their little-endian dtypes
(BOOLEAN as ``bool``), and BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY / INT96 as ``object``
arrays of ``bytes`` (INT96: the 12 raw bytes, see :func:`int96_to_nanos`).
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import FormatError, LimitError, TruncatedError
from ..thrift.compact import Encoder, zigzag_decode, zigzag_encode
from .levels import Where, decode_hybrid, read_uvarint, unpack_bits

__all__ = [
    "Charge",
    "ENCODINGS",
    "PHYSICAL_TYPES",
    "decode_byte_stream_split",
    "decode_delta_binary_packed",
    "decode_delta_byte_array",
    "decode_delta_length_byte_array",
    "decode_dictionary_indices",
    "decode_plain",
    "decode_rle_boolean",
    "decode_values",
    "encode_delta_binary_packed",
    "encode_plain",
    "int96_to_nanos",
]

Values = npt.NDArray[Any]

PHYSICAL_TYPES = {0: "BOOLEAN", 1: "INT32", 2: "INT64", 3: "INT96", 4: "FLOAT", 5: "DOUBLE", 6: "BYTE_ARRAY", 7: "FIXED_LEN_BYTE_ARRAY"}
ENCODINGS = {
    0: "PLAIN",
    2: "PLAIN_DICTIONARY",
    3: "RLE",
    4: "BIT_PACKED",
    5: "DELTA_BINARY_PACKED",
    6: "DELTA_LENGTH_BYTE_ARRAY",
    7: "DELTA_BYTE_ARRAY",
    8: "RLE_DICTIONARY",
    9: "BYTE_STREAM_SPLIT",
    10: "ALP",
}
_FIXED = {1: "<i4", 2: "<i8", 4: "<f4", 5: "<f8"}
_WIDTH = {1: 4, 2: 8, 3: 12, 4: 4, 5: 8}


def _need(where: Where, start: int, n: int, end: int, what: str) -> None:
    if n > end - start:
        where.fail(f"{what} need {n} bytes but only {end - start} remain", rule="parquet.values.truncated", pos=start, cls=TruncatedError)


def _type_width(ptype: int, type_length: int | None, where: Where, pos: int) -> int:
    if ptype == 7:
        if type_length is None or type_length <= 0:
            where.fail(f"FIXED_LEN_BYTE_ARRAY needs a positive type_length, got {type_length}", rule="parquet.schema.type-length", pos=pos)
        return type_length
    if ptype not in _WIDTH:
        where.fail(f"physical type {ptype} has no fixed width", rule="parquet.values.type", pos=pos)
    return _WIDTH[ptype]


def _bytes_objects(raw: bytes | memoryview, width: int, count: int) -> Values:
    if count == 0:
        return np.empty(0, dtype=object)
    return np.frombuffer(raw, dtype=f"V{width}", count=count).astype(object)


def decode_plain(
    buf: bytes | memoryview, start: int, end: int, ptype: int, count: int, where: Where, *, type_length: int | None = None
) -> tuple[Values, int]:
    """PLAIN values of physical type ``ptype`` (parquet-format ``Encodings.md``)."""
    mv = memoryview(buf)
    if ptype == 0:
        nbytes = (count + 7) // 8
        _need(where, start, nbytes, end, f"{count} PLAIN BOOLEAN values")
        bits = np.unpackbits(np.frombuffer(mv, dtype=np.uint8, count=nbytes, offset=start), bitorder="little")[:count]
        return bits.astype(bool), start + nbytes
    if ptype in _FIXED:
        w = _WIDTH[ptype]
        _need(where, start, count * w, end, f"{count} PLAIN {PHYSICAL_TYPES[ptype]} values")
        return np.frombuffer(mv, dtype=_FIXED[ptype], count=count, offset=start), start + count * w
    if ptype in (3, 7):
        w = _type_width(ptype, type_length, where, start)
        _need(where, start, count * w, end, f"{count} PLAIN {PHYSICAL_TYPES[ptype]} values of {w} bytes")
        return _bytes_objects(mv[start : start + count * w], w, count), start + count * w
    if ptype == 6:
        # Each value is at least 4 bytes: refuse counts the section cannot hold before allocating.
        if count * 4 > end - start:
            where.fail(
                f"{count} PLAIN BYTE_ARRAY values need at least {count * 4} bytes but only {end - start} remain",
                rule="parquet.values.truncated",
                pos=start,
                cls=TruncatedError,
            )
        # The loop leans on struct.error for a length prefix past the end (one try, no
        # per-value bound checks); an over-long last value is caught by the final position.
        unpack = struct.Struct("<I").unpack_from
        raw = bytes(mv[start:end])
        lim = end - start
        vals: list[bytes] = [b""] * count
        p = n = i = 0
        try:
            for i in range(count):
                n = unpack(raw, p)[0]
                p += 4
                vals[i] = raw[p : p + n]
                p += n
        except struct.error:
            where.fail(
                f"BYTE_ARRAY value {i} length prefix runs past the values section",
                rule="parquet.values.truncated",
                pos=start + p,
                cls=TruncatedError,
            )
        if p > lim:
            where.fail(
                f"BYTE_ARRAY value {i} declares {n} bytes but only {lim - (p - n)} remain",
                rule="parquet.values.truncated",
                pos=start + p - n - 4,
                cls=TruncatedError,
            )
        out = np.empty(count, dtype=object)
        out[:] = vals
        return out, start + p
    where.fail(f"unknown physical type {ptype}", rule="parquet.values.type", pos=start)


def encode_plain(values: Any, ptype: int) -> bytes:
    """PLAIN-encode ``values`` (used by tests and writers)."""
    if ptype == 0:
        bits = np.asarray(values, dtype=bool).astype(np.uint8)
        return np.packbits(bits, bitorder="little").tobytes()
    if ptype in _FIXED:
        return np.asarray(values, dtype=_FIXED[ptype]).tobytes()
    if ptype == 6:
        return b"".join(len(v).to_bytes(4, "little") + bytes(v) for v in values)
    return b"".join(bytes(v) for v in values)


def int96_to_nanos(raw: bytes) -> int:
    """An INT96 timestamp (8 bytes LE nanoseconds of day + 4 bytes LE Julian day) as ns since the Unix epoch."""
    nanos = int.from_bytes(raw[:8], "little")
    day = int.from_bytes(raw[8:12], "little")  # unsigned, as parquet-cpp reads it
    return (day - 2440588) * 86_400_000_000_000 + nanos


def decode_rle_boolean(buf: bytes | memoryview, start: int, end: int, count: int, where: Where) -> tuple[Values, int]:
    """RLE-encoded BOOLEAN values: 4-byte LE length then the hybrid with bit width 1."""
    _need(where, start, 4, end, "the RLE boolean length prefix")
    (n,) = struct.unpack_from("<I", buf, start)
    _need(where, start + 4, n, end, "RLE boolean values")
    vals, _ = decode_hybrid(buf, 1, count, where, start=start + 4, end=start + 4 + n, what="RLE boolean values", max_bw=1)
    return vals.astype(bool), start + 4 + n


def decode_dictionary_indices(buf: bytes | memoryview, start: int, end: int, count: int, where: Where) -> tuple[npt.NDArray[np.int64], int]:
    """RLE_DICTIONARY / PLAIN_DICTIONARY data: one bit-width byte, then hybrid runs (no length prefix)."""
    if count == 0:
        return np.zeros(0, dtype=np.int64), start
    _need(where, start, 1, end, "the dictionary index bit width")
    bw = buf[start]
    if bw > 32:
        where.fail(f"dictionary index bit width {bw} is above 32", rule="parquet.dictionary.bit-width", pos=start)
    vals, pos = decode_hybrid(buf, bw, count, where, start=start + 1, end=end, what="dictionary indices", max_bw=32)
    return vals.astype(np.int64), pos


def decode_delta_binary_packed(
    buf: bytes | memoryview, start: int, end: int, where: Where, *, bits: int = 64, count: int | None = None
) -> tuple[npt.NDArray[np.int64], int]:
    """DELTA_BINARY_PACKED integers (wrapping ``bits``-bit two's-complement arithmetic).

    Returns all values the header declares (``count``, when given, must not exceed it).
    """
    pos = start
    block_size, pos = read_uvarint(buf, pos, end, where, what="delta block size")
    mini_count, pos = read_uvarint(buf, pos, end, where, what="delta miniblock count")
    total, pos = read_uvarint(buf, pos, end, where, what="delta value count")
    first_raw, pos = read_uvarint(buf, pos, end, where, what="delta first value")
    if block_size == 0 or block_size % 128:
        where.fail(f"delta block size {block_size} is not a positive multiple of 128", rule="parquet.delta.block-size", pos=start)
    if mini_count == 0 or block_size % mini_count or (block_size // mini_count) % 32:
        where.fail(
            f"delta miniblock count {mini_count} does not split block size {block_size} into multiples of 32",
            rule="parquet.delta.miniblocks",
            pos=start,
        )
    if count is not None and total < count:
        where.fail(f"delta header holds {total} values but {count} are needed", rule="parquet.delta.count", pos=start)
    want = total if count is None else count
    # Every block costs at least 1 + mini_count bytes and holds block_size values: a header
    # claiming more values than the section can hold is refused before anything is allocated.
    if total > 1 and (total - 1 + block_size - 1) // block_size > (end - pos) // (1 + mini_count):
        where.fail(
            f"delta header declares {total} values, more than its {end - start} bytes can hold",
            rule="parquet.delta.count",
            pos=start,
            cls=LimitError,
        )
    per_mini = block_size // mini_count
    mask = (1 << bits) - 1
    first = zigzag_decode(first_raw) & mask
    # Pass 1 (Python): block headers; miniblocks grouped by bit width. Pass 2 (NumPy): one
    # unpack per distinct width, min deltas added with one repeat, one cumulative sum.
    groups: dict[int, list[tuple[int, int, int, memoryview]]] = {}  # width -> (dst, use, capacity, bytes)
    mins: list[int] = []
    uses: list[int] = []
    mv = memoryview(buf)
    got = 1 if total else 0
    while got < total:
        block_at = pos
        min_raw, pos = read_uvarint(buf, pos, end, where, what="delta block min delta")
        min_delta = zigzag_decode(min_raw) & mask
        _need(where, pos, mini_count, end, "delta miniblock bit widths")
        widths = bytes(mv[pos : pos + mini_count])
        pos += mini_count
        for w in widths:
            if got >= total:
                break
            if w > bits:
                where.fail(f"delta miniblock bit width {w} is above {bits}", rule="parquet.delta.bit-width", pos=block_at)
            n = min(per_mini, total - got)
            nbytes = per_mini * w // 8
            avail = min(nbytes, end - pos)
            if avail * 8 < n * w:
                where.fail(
                    f"delta miniblock needs {(n * w + 7) // 8} bytes but only {end - pos} remain",
                    rule="parquet.delta.truncated",
                    pos=pos,
                    cls=TruncatedError,
                )
            if got < want:
                use = min(n, want - got)
                groups.setdefault(w, []).append((got - 1, use, per_mini if avail == nbytes else use, mv[pos : pos + avail]))
                mins.append(min_delta)
                uses.append(use)
            pos += avail
            got += n
    if want == 0:
        return np.zeros(0, dtype=np.int64), pos
    allv = np.empty(want, dtype=np.uint64)
    allv[0] = first
    deltas = allv[1:]
    for w, items in groups.items():
        if w == 0:
            for dst, use, _cap, _b in items:
                deltas[dst : dst + use] = 0
            continue
        packed = unpack_bits(b"".join(b for _d, _u, _c, b in items), w, sum(c for _d, _u, c, _b in items))
        off = 0
        for dst, use, cap, _b in items:
            deltas[dst : dst + use] = packed[off : off + use]
            off += cap
    if mins:
        with np.errstate(over="ignore"):
            deltas += np.repeat(np.array(mins, dtype=np.uint64), uses)
    with np.errstate(over="ignore"):
        vals = np.cumsum(allv, dtype=np.uint64)
    if bits == 32:
        return vals.astype(np.uint32).view(np.int32).astype(np.int64), pos
    return vals.view(np.int64), pos


def encode_delta_binary_packed(values: Any, *, block_size: int = 128, mini_count: int = 4, bits: int = 64) -> bytes:
    """A straightforward DELTA_BINARY_PACKED encoder (tests, writers)."""
    vals = [int(v) for v in values]
    mask = (1 << bits) - 1

    def signed(n: int) -> int:
        n &= mask
        return n - (1 << bits) if n >> (bits - 1) else n

    uv, zz = Encoder.varint, zigzag_encode
    out = bytearray(uv(block_size) + uv(mini_count) + uv(len(vals)) + uv(zz(signed(vals[0]) if vals else 0)))
    deltas = [signed(b - a) for a, b in itertools.pairwise(vals)]
    per_mini = block_size // mini_count
    for b0 in range(0, len(deltas), block_size):
        block = deltas[b0 : b0 + block_size]
        mn = min(block)
        out += uv(zz(mn))
        widths = []
        bodies = []
        for m in range(mini_count):
            mb = [(d - mn) & mask for d in block[m * per_mini : (m + 1) * per_mini]]
            if not mb:
                widths.append(0)
                continue
            w = max(mb).bit_length()
            widths.append(w)
            mb += [0] * (per_mini - len(mb))
            acc = 0
            for i, v in enumerate(mb):
                acc |= v << (i * w)
            bodies.append(acc.to_bytes(per_mini * w // 8, "little"))
        out += bytes(widths) + b"".join(bodies)
    return bytes(out)


def decode_delta_length_byte_array(buf: bytes | memoryview, start: int, end: int, count: int, where: Where) -> tuple[Values, int]:
    """DELTA_LENGTH_BYTE_ARRAY: DELTA_BINARY_PACKED lengths, then the concatenated bytes."""
    lengths, pos = decode_delta_binary_packed(buf, start, end, where, bits=32, count=count)
    return _split_concat(buf, pos, end, lengths[:count], where, "DELTA_LENGTH_BYTE_ARRAY")


def _split_concat(
    buf: bytes | memoryview, pos: int, end: int, lengths: npt.NDArray[np.int64], where: Where, what: str
) -> tuple[Values, int]:
    if len(lengths) and int(lengths.min()) < 0:
        where.fail(f"{what} has a negative length", rule="parquet.delta.length", pos=pos)
    total = int(lengths.sum())
    _need(where, pos, total, end, f"{what} data of {len(lengths)} values")
    raw = bytes(memoryview(buf)[pos : pos + total])
    ends = np.cumsum(lengths)
    starts = (ends - lengths).tolist()
    out = np.empty(len(lengths), dtype=object)
    out[:] = [raw[a:b] for a, b in zip(starts, ends.tolist(), strict=True)]
    return out, pos + total


#: ``charge(nbytes, where, pos)``: called with the bytes a decoder is about to materialise beyond its input
#: (dictionary references, DELTA_BYTE_ARRAY prefixes) before it does; raises when they exceed a budget
Charge = Callable[[int, Where, int], None]


def decode_delta_byte_array(
    buf: bytes | memoryview, start: int, end: int, count: int, where: Where, *, charge: Charge | None = None
) -> tuple[Values, int]:
    """DELTA_BYTE_ARRAY: DELTA_BINARY_PACKED prefix lengths, then DELTA_LENGTH_BYTE_ARRAY suffixes.

    Each value reuses up to its predecessor's length, so a few bytes can describe gigabytes:
    ``charge`` is told the total length before any value is built."""
    prefixes, pos = decode_delta_binary_packed(buf, start, end, where, bits=32, count=count)
    prefixes = prefixes[:count]
    slens, pos = decode_delta_binary_packed(buf, pos, end, where, bits=32, count=count)
    slens = slens[:count]
    suffixes, pos = _split_concat(buf, pos, end, slens, where, "DELTA_BYTE_ARRAY suffixes")
    # value i has length prefix[i] + suffix_len[i] and may reuse at most its predecessor's length
    lengths = prefixes + slens
    before = np.concatenate([np.zeros(1, dtype=np.int64), lengths[:-1]]) if count else lengths
    bad = np.nonzero((prefixes < 0) | (prefixes > before))[0]
    if len(bad):
        i = int(bad[0])
        where.fail(
            f"DELTA_BYTE_ARRAY value {i} reuses {int(prefixes[i])} bytes of a {int(before[i])}-byte predecessor",
            rule="parquet.delta.prefix",
            pos=start,
        )
    if charge is not None:
        charge(int(lengths.sum()), where, start)
    vals: list[bytes] = suffixes.tolist()
    prev = b""
    for i, p in enumerate(prefixes.tolist()):
        if p:
            prev = vals[i] = prev[:p] + vals[i]
        else:
            prev = vals[i]
    out = np.empty(count, dtype=object)
    out[:] = vals
    return out, pos


def decode_byte_stream_split(
    buf: bytes | memoryview, start: int, end: int, ptype: int, count: int, where: Where, *, type_length: int | None = None
) -> tuple[Values, int]:
    """BYTE_STREAM_SPLIT: K streams, stream j holding byte j of every value."""
    if ptype not in (1, 2, 4, 5, 7):
        where.fail(f"BYTE_STREAM_SPLIT does not apply to {PHYSICAL_TYPES.get(ptype, ptype)}", rule="parquet.values.encoding", pos=start)
    k = _type_width(ptype, type_length, where, start)
    _need(where, start, count * k, end, f"{count} BYTE_STREAM_SPLIT values")
    raw = np.frombuffer(memoryview(buf), dtype=np.uint8, count=count * k, offset=start).reshape(k, count)
    joined = np.ascontiguousarray(raw.T).tobytes()
    if ptype == 7:
        return _bytes_objects(joined, k, count), start + count * k
    return np.frombuffer(joined, dtype=_FIXED[ptype]), start + count * k


def decode_values(
    buf: bytes | memoryview,
    start: int,
    end: int,
    encoding: int,
    ptype: int,
    count: int,
    where: Where,
    *,
    type_length: int | None = None,
    dictionary: Values | None = None,
    dictionary_lengths: npt.NDArray[np.int64] | None = None,
    charge: Charge | None = None,
) -> tuple[Values, int]:
    """Decode ``count`` non-null values of a data page's value section.

    ``charge`` (see :data:`Charge`) is told the bytes that dictionary references to byte-array
    values (``dictionary_lengths``: the length of each dictionary entry) and DELTA_BYTE_ARRAY
    prefixes stand for; every other encoding produces at most the bytes it reads."""
    if encoding == 0:
        return decode_plain(buf, start, end, ptype, count, where, type_length=type_length)
    if encoding in (2, 8):
        if dictionary is None:
            where.fail("dictionary-encoded page but the column chunk has no dictionary page", rule="parquet.dictionary.missing", pos=start)
        idx, pos = decode_dictionary_indices(buf, start, end, count, where)
        if len(idx) and int(idx.max()) >= len(dictionary):
            bad = int(idx.max())
            where.fail(
                f"dictionary index {bad} is out of range for a dictionary of {len(dictionary)} values",
                rule="parquet.dictionary.index",
                pos=start,
            )
        if charge is not None and dictionary_lengths is not None and len(idx):
            charge(int(dictionary_lengths[idx].sum()), where, start)
        return dictionary[idx], pos
    if encoding == 3 and ptype == 0:
        return decode_rle_boolean(buf, start, end, count, where)
    if encoding == 5 and ptype in (1, 2):
        vals, pos = decode_delta_binary_packed(buf, start, end, where, bits=32 if ptype == 1 else 64, count=count)
        vals = vals[:count]
        return (vals.astype(np.int32) if ptype == 1 else vals), pos
    if encoding == 6 and ptype == 6:
        return decode_delta_length_byte_array(buf, start, end, count, where)
    if encoding == 7 and ptype in (6, 7):
        vals, pos = decode_delta_byte_array(buf, start, end, count, where, charge=charge)
        if ptype == 7 and type_length is not None and any(len(v) != type_length for v in vals):
            where.fail(f"DELTA_BYTE_ARRAY value length differs from type_length {type_length}", rule="parquet.values.length", pos=start)
        return vals, pos
    if encoding == 9:
        return decode_byte_stream_split(buf, start, end, ptype, count, where, type_length=type_length)
    raise FormatError(
        f"encoding {ENCODINGS.get(encoding, encoding)} is not supported for {PHYSICAL_TYPES.get(ptype, ptype)} values",
        rule="parquet.values.encoding",
        path=where.path,
        offset=where.offset(start),
    )
