"""Decoding Paimon's BinaryRow with the schema's field types (``formats/paimon/paimon_binary_row.ksy`` shows the layout).

Serialized in manifests (``SerializationUtils.serializeBinaryRow``): a big-endian arity, then the row, little-endian:
header and null bits (``((arity + 63 + 8) / 64) * 8`` bytes; byte 0 is the RowKind; field i is null when bit i + 8 is
set), one 8-byte slot per field, then the variable part. Slots hold fixed-width values at their start, strings and
binaries of at most 7 bytes inline (top byte ``0x80 | length``), or ``offset << 32 | length`` references into the
variable part (offsets from the row start). Non-compact decimals (precision > 18) keep their big-endian unscaled bytes
there, non-compact timestamps (precision > 3) their epoch millis (the slot's low half is the nanos of the millisecond);
arrays (``BinaryArray``: int32 count, null bits in 4-byte words, fixed-width elements, variable part), maps
(``BinaryMap``: int32 key-array size, key array, value array) and nested rows (a BinaryRow without the arity) too.

Every offset and length is checked against the bytes that hold it: a bad row is a :class:`FormatError` with rule
``paimon.binary-row.*``, the absolute offset of the slot or structure, and a field path such as ``partition.dt``.
"""

from __future__ import annotations

import datetime
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Context, Decimal
from typing import Any

from ..errors import FormatError, TruncatedError
from .types import DataType

__all__ = ["ROW_KINDS", "Timestamp", "decode_binary_row", "decode_row_fields", "element_size", "null_bits_size"]

#: RowKind header byte values.
ROW_KINDS = {0: "+I", 1: "-U", 2: "+U", 3: "-D"}
_EPOCH = datetime.date(1970, 1, 1)
#: Decimal arithmetic exact for 38-digit unscaled values (the default context rounds to 28 digits).
_CTX = Context(prec=40)
_Q = struct.Struct("<q")
_D = struct.Struct("<d")
_F = struct.Struct("<f")
_I = struct.Struct("<i")
_H = struct.Struct("<h")


@dataclass(frozen=True, order=True)
class Timestamp:
    """A Paimon TIMESTAMP / TIMESTAMP_LTZ value: epoch milliseconds and the nanoseconds within that millisecond."""

    millisecond: int
    nano_of_millisecond: int = 0

    def to_datetime(self) -> datetime.datetime:
        """As a naive ``datetime`` (microseconds; the nanoseconds below a microsecond are dropped)."""
        micros = self.millisecond * 1000 + self.nano_of_millisecond // 1000
        return datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=micros)

    def __str__(self) -> str:
        try:
            dt = self.to_datetime()
        except OverflowError:
            return f"{self.millisecond}ms+{self.nano_of_millisecond}ns"
        text = dt.strftime("%Y-%m-%d %H:%M:%S")
        nanos = (self.millisecond % 1000) * 1_000_000 + self.nano_of_millisecond
        return f"{text}.{nanos:09d}".rstrip("0").rstrip(".") if nanos else text


def null_bits_size(arity: int) -> int:
    """Bytes of a BinaryRow's header and null bits."""
    return ((arity + 63 + 8) // 64) * 8


def element_size(t: DataType) -> int:
    """Width of one element of a BinaryArray of ``t`` (``BinaryArray.calculateFixLengthPartSize``)."""
    if t.root in ("BOOLEAN", "TINYINT"):
        return 1
    if t.root == "SMALLINT":
        return 2
    if t.root in ("INT", "FLOAT", "DATE", "TIME"):
        return 4
    return 8


def _err(msg: str, rule: str, path: str, offset: int) -> FormatError:
    return FormatError(msg, rule=f"paimon.binary-row.{rule}", path=path, offset=offset)


class _Reader:
    __slots__ = ("abs0", "buf")

    def __init__(self, buf: bytes, abs0: int) -> None:
        self.buf = buf
        self.abs0 = abs0  # absolute offset of buf[0] in the input (for error offsets)

    def region(self, base: int, size: int, slot_at: int, path: str) -> tuple[int, int]:
        """(offset, length) of the variable-part reference in the slot at ``slot_at``, checked to lie in [base, base+size)."""
        word = _Q.unpack_from(self.buf, slot_at)[0] & 0xFFFFFFFFFFFFFFFF
        off, length = word >> 32, word & 0xFFFFFFFF
        if off + length > size:
            raise _err(f"the slot points at {length} bytes at row offset {off}, past the {size} bytes of the row",
                       "offset", path, self.abs0 + slot_at)
        return base + off, length

    def value(self, t: DataType, base: int, size: int, at: int, path: str) -> Any:
        """The value of type ``t`` whose slot (or array element) is at ``at``; ``base``/``size``: the enclosing structure."""
        b = self.buf
        r = t.root
        if r == "INT" or r == "DATE" or r == "TIME":
            v = _I.unpack_from(b, at)[0]
            if r == "DATE":
                try:
                    return _EPOCH + datetime.timedelta(days=v)
                except OverflowError:
                    raise _err(f"DATE {v} days is outside the years 1..9999", "date", path, self.abs0 + at) from None
            if r == "TIME":
                return datetime.timedelta(milliseconds=v)
            return v
        if r == "BIGINT":
            return _Q.unpack_from(b, at)[0]
        if r in ("VARCHAR", "CHAR", "BINARY", "VARBINARY", "BLOB", "VARIANT"):
            raw = self.bytes_at(base, size, at, path)
            if r in ("VARCHAR", "CHAR"):
                try:
                    return raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    raise _err(f"not valid UTF-8: {e.reason}", "utf8", path, self.abs0 + at) from None
            return raw
        if r == "DOUBLE":
            return _D.unpack_from(b, at)[0]
        if r == "FLOAT":
            return _F.unpack_from(b, at)[0]
        if r == "BOOLEAN":
            return b[at] != 0
        if r == "TINYINT":
            return b[at] - 256 if b[at] > 127 else b[at]
        if r == "SMALLINT":
            return _H.unpack_from(b, at)[0]
        if r == "DECIMAL":
            scale = t.scale or 0
            if t.compact:
                return Decimal(_Q.unpack_from(b, at)[0]).scaleb(-scale, _CTX)
            off, n = self.region(base, size, at, path)
            if n > 16:
                raise _err(f"a non-compact decimal holds at most 16 bytes, this one {n}", "decimal", path, self.abs0 + at)
            return Decimal(int.from_bytes(b[off : off + n], "big", signed=True)).scaleb(-scale, _CTX)
        if r in ("TIMESTAMP", "TIMESTAMP_LTZ"):
            if t.compact:
                return Timestamp(_Q.unpack_from(b, at)[0])
            word = _Q.unpack_from(b, at)[0] & 0xFFFFFFFFFFFFFFFF
            off, nanos = word >> 32, word & 0xFFFFFFFF
            if off + 8 > size:
                raise _err(f"the timestamp's millis at row offset {off} lie past the {size} bytes of the row",
                           "offset", path, self.abs0 + at)
            if nanos > 999_999:
                raise _err(f"nano-of-millisecond {nanos} is over 999999", "timestamp", path, self.abs0 + at)
            return Timestamp(_Q.unpack_from(b, base + off)[0], nanos)
        if r in ("ARRAY", "VECTOR"):
            off, n = self.region(base, size, at, path)
            assert t.element is not None
            return self.array(t.element, off, n, path)
        if r in ("MAP", "MULTISET"):
            off, n = self.region(base, size, at, path)
            kt = t.key if r == "MAP" else t.element
            vt = t.value if r == "MAP" else DataType("INT", False)
            assert kt is not None and vt is not None
            return self.map(kt, vt, off, n, path)
        if r == "ROW":
            off, n = self.region(base, size, at, path)
            values = self.fields([f.type for f in t.fields], off, n, path, [f.name for f in t.fields])
            return {f.name: v for f, v in zip(t.fields, values, strict=True)}
        raise _err(f"no decoding for type {t}", "type", path, self.abs0 + at)  # pragma: no cover - types.py knows every root

    def bytes_at(self, base: int, size: int, at: int, path: str) -> bytes:
        b = self.buf
        top = b[at + 7]
        if top & 0x80:
            n = top & 0x7F
            if n > 7:
                raise _err(f"an inline value holds at most 7 bytes, the slot says {n}", "inline-length", path, self.abs0 + at)
            return bytes(b[at : at + n])
        off, n = self.region(base, size, at, path)
        return bytes(b[off : off + n])

    def fields(self, types: Sequence[DataType], start: int, size: int, path: str, names: Sequence[str] | None = None) -> list[Any]:
        n = len(types)
        nb = null_bits_size(n)
        if nb + 8 * n > size:
            raise TruncatedError(f"a row of {n} fields needs {nb + 8 * n} bytes, it has {size}",
                                 rule="paimon.binary-row.truncated", path=path, offset=self.abs0 + start)
        b = self.buf
        kind = b[start]
        if kind > 3:
            raise _err(f"RowKind byte {kind} is not 0..3", "row-kind", path, self.abs0 + start)
        out: list[Any] = []
        for i, t in enumerate(types):
            bit = i + 8
            if (b[start + (bit >> 3)] >> (bit & 7)) & 1:
                out.append(None)
                continue
            out.append(self.value(t, start, size, start + nb + 8 * i, f"{path}.{names[i] if names else i}"))
        return out

    def array(self, et: DataType, start: int, size: int, path: str) -> list[Any]:
        b = self.buf
        if size < 4:
            raise TruncatedError(f"an array needs at least 4 bytes, it has {size}", rule="paimon.binary-row.truncated",
                                 path=path, offset=self.abs0 + start)
        n = _I.unpack_from(b, start)[0]
        es = element_size(et)
        head = 4 + ((n + 31) // 32) * 4
        if n < 0 or head + n * es > size:
            raise _err(f"an array of {n} elements of {es} bytes does not fit its {size} bytes", "array", path, self.abs0 + start)
        out: list[Any] = []
        for i in range(n):
            if (b[start + 4 + (i >> 3)] >> (i & 7)) & 1:
                out.append(None)
            else:
                out.append(self.value(et, start, size, start + head + i * es, f"{path}[{i}]"))
        return out

    def map(self, kt: DataType, vt: DataType, start: int, size: int, path: str) -> Any:
        if size < 4:
            raise TruncatedError(f"a map needs at least 4 bytes, it has {size}", rule="paimon.binary-row.truncated",
                                 path=path, offset=self.abs0 + start)
        ksize = _I.unpack_from(self.buf, start)[0]
        if ksize < 0 or 4 + ksize > size:
            raise _err(f"the key array's size {ksize} does not fit the map's {size} bytes", "map", path, self.abs0 + start)
        keys = self.array(kt, start + 4, ksize, f"{path}.keys")
        values = self.array(vt, start + 4 + ksize, size - 4 - ksize, f"{path}.values")
        if len(keys) != len(values):
            raise _err(f"{len(keys)} keys but {len(values)} values", "map", path, self.abs0 + start)
        try:
            return dict(zip(keys, values, strict=True))
        except TypeError:  # unhashable keys (arrays, maps): keep the pairs
            return list(zip(keys, values, strict=True))


def decode_row_fields(row: bytes, types: Sequence[DataType], *, names: Sequence[str] | None = None, path: str = "row",
                      offset: int = 0) -> tuple[int, list[Any]]:
    """(RowKind, values) of a BinaryRow without the arity prefix (a nested row, or a row as Paimon keeps it in memory)."""
    r = _Reader(row, offset)
    values = r.fields(types, 0, len(row), path, names)
    return row[0] if row else 0, values


def decode_binary_row(data: bytes, types: Sequence[DataType], *, names: Sequence[str] | None = None, path: str = "row",
                      offset: int = 0) -> list[Any]:
    """The values of a serialized BinaryRow (big-endian arity, then the row) decoded with ``types``, one per field.

    The arity must equal ``len(types)`` (``paimon.binary-row.arity``); ``offset`` is where ``data`` sits in its file
    (for error offsets)."""
    if len(data) < 4:
        raise TruncatedError(f"a serialized BinaryRow has at least 4 bytes (its arity), this one {len(data)}",
                             rule="paimon.binary-row.truncated", path=path, offset=offset)
    arity = int.from_bytes(data[:4], "big", signed=True)
    if arity != len(types):
        raise FormatError(f"the row has {arity} fields, the schema gives {len(types)} for it",
                          rule="paimon.binary-row.arity", path=path, offset=offset)
    r = _Reader(data, offset)
    return r.fields(types, 4, len(data) - 4, path, names)


def row_arity(data: bytes) -> int:
    """The arity of a serialized BinaryRow (its first 4 bytes, big-endian), -1 when too short."""
    return int.from_bytes(data[:4], "big", signed=True) if len(data) >= 4 else -1
