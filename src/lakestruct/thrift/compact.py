"""The Thrift compact protocol, decoded generically (pure Python).

A struct decodes to a :data:`RawStruct`: a dict ``field_id -> (wire type, value)``
in wire order. Values are ``int`` (i8/i16/i32/i64, already un-zigzagged), ``bool``,
``bytes`` (binary/string), ``float`` (double), :class:`RawList` (list and set),
:class:`RawMap`, ``bytes`` of 16 (uuid) or a nested :data:`RawStruct`.

This is the byte-level twin of ``formats/thrift/thrift_compact.ksy``: the tests
decode the same bytes with both and require equal results. Typed models are built
on top (``lakestruct.parquet.model``).

Every malformed input raises a :class:`~lakestruct.errors.FormatError` with an
absolute offset (``base`` + position in the buffer) and a ``thrift.*`` rule:
``thrift.truncated``, ``thrift.varint`` (longer than 10 bytes / overflows),
``thrift.field-type`` (unknown wire type), ``thrift.length`` (negative or larger
than the remaining input), ``thrift.depth`` (nesting deeper than ``MAX_DEPTH``),
``thrift.field-id`` (a field id outside 1..32767 / negative).
"""

from __future__ import annotations

import struct
from typing import Any, NamedTuple

from ..errors import FormatError, LimitError, TruncatedError, UsageError

__all__ = [
    "BOOL_TRUE",
    "BOOL_FALSE",
    "I8",
    "I16",
    "I32",
    "I64",
    "DOUBLE",
    "BINARY",
    "LIST",
    "SET",
    "MAP",
    "STRUCT",
    "UUID",
    "TYPE_NAMES",
    "MAX_DEPTH",
    "RawList",
    "RawMap",
    "RawStruct",
    "decode_struct",
    "decode_struct_py",
    "skip_struct",
    "read_varint",
    "zigzag_decode",
    "zigzag_encode",
    "Encoder",
]

BOOL_TRUE = 1
BOOL_FALSE = 2
I8 = 3
I16 = 4
I32 = 5
I64 = 6
DOUBLE = 7
BINARY = 8
LIST = 9
SET = 10
MAP = 11
STRUCT = 12
UUID = 13

TYPE_NAMES = {
    BOOL_TRUE: "bool",
    BOOL_FALSE: "bool",
    I8: "i8",
    I16: "i16",
    I32: "i32",
    I64: "i64",
    DOUBLE: "double",
    BINARY: "binary",
    LIST: "list",
    SET: "set",
    MAP: "map",
    STRUCT: "struct",
    UUID: "uuid",
}

#: Nesting deeper than this is refused (real Parquet metadata nests < 10 levels).
MAX_DEPTH = 64

_unpack_double = struct.Struct("<d").unpack_from


class RawList(NamedTuple):
    """A decoded list or set: the wire element type and the element values."""

    elem_type: int
    items: list[Any]


class RawMap(NamedTuple):
    """A decoded map: key and value wire types and the (key, value) pairs."""

    key_type: int
    value_type: int
    items: list[tuple[Any, Any]]


RawStruct = dict[int, tuple[int, Any]]
RawValue = int | bool | bytes | float | RawList | RawMap | RawStruct


def zigzag_decode(n: int) -> int:
    return (n >> 1) ^ -(n & 1)


def zigzag_encode(n: int) -> int:
    return (n << 1) if n >= 0 else ((-n) << 1) - 1


def _trunc(what: str, pos: int, base: int, path: str) -> TruncatedError:
    return TruncatedError(f"input ends inside {what}", rule="thrift.truncated", path=path, offset=base + pos)


def read_varint(buf: bytes, pos: int, end: int, base: int = 0, path: str = "varint") -> tuple[int, int]:
    """ULEB128 at ``pos``: (value, next position). At most 10 bytes (64 bits)."""
    result = 0
    shift = 0
    start = pos
    while True:
        if pos >= end:
            raise _trunc("a varint", pos, base, path)
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            if result >= 1 << 64:
                raise FormatError("varint overflows 64 bits", rule="thrift.varint", path=path, offset=base + start)
            return result, pos
        shift += 7
        if shift >= 70:
            raise FormatError("varint longer than 10 bytes", rule="thrift.varint", path=path, offset=base + start)


def _to_signed64(n: int) -> int:
    return n - (1 << 64) if n >= 1 << 63 else n


class _Decoder:
    __slots__ = ("base", "buf", "end")

    def __init__(self, buf: bytes, end: int, base: int) -> None:
        self.buf = buf
        self.end = end
        self.base = base

    def varint(self, pos: int, path: str) -> tuple[int, int]:
        buf = self.buf
        if pos < self.end:
            b = buf[pos]
            if b < 0x80:
                return b, pos + 1
        return read_varint(buf, pos, self.end, self.base, path)

    def length(self, pos: int, path: str) -> tuple[int, int]:
        n, pos = self.varint(pos, path)
        if n > self.end - pos:
            raise FormatError(
                f"length {n} exceeds the {self.end - pos} bytes left",
                rule="thrift.length",
                path=path,
                offset=self.base + pos,
            )
        return n, pos

    def value(self, t: int, pos: int, depth: int, path: str) -> tuple[Any, int]:
        buf = self.buf
        if t in (I32, I64, I16):
            n, pos = self.varint(pos, path)
            v = (n >> 1) ^ -(n & 1)
            if t != I64 and not -(1 << 31) <= v < (1 << 31):
                raise FormatError(f"{TYPE_NAMES[t]} value {v} out of range", rule="thrift.varint", path=path, offset=self.base + pos)
            return v, pos
        if t == BINARY:
            n, pos = self.length(pos, path)
            return bytes(buf[pos : pos + n]), pos + n
        if t == STRUCT:
            return self.struct(pos, depth + 1, path)
        if t in (LIST, SET):
            return self.list(pos, depth + 1, path)
        if t == I8:
            if pos >= self.end:
                raise _trunc("an i8", pos, self.base, path)
            b = buf[pos]
            return (b - 256 if b > 127 else b), pos + 1
        if t == DOUBLE:
            if pos + 8 > self.end:
                raise _trunc("a double", pos, self.base, path)
            return _unpack_double(buf, pos)[0], pos + 8
        if t == MAP:
            return self.map(pos, depth + 1, path)
        if t == UUID:
            if pos + 16 > self.end:
                raise _trunc("a uuid", pos, self.base, path)
            return bytes(buf[pos : pos + 16]), pos + 16
        if t in (BOOL_TRUE, BOOL_FALSE):  # a collection element: one byte
            if pos >= self.end:
                raise _trunc("a bool", pos, self.base, path)
            return buf[pos] == 1, pos + 1
        raise FormatError(f"unknown wire type {t}", rule="thrift.field-type", path=path, offset=self.base + pos)

    def list(self, pos: int, depth: int, path: str) -> tuple[RawList, int]:
        if depth > MAX_DEPTH:
            raise LimitError(f"nesting deeper than {MAX_DEPTH}", rule="thrift.depth", path=path, offset=self.base + pos)
        if pos >= self.end:
            raise _trunc("a list header", pos, self.base, path)
        h = self.buf[pos]
        start = pos
        pos += 1
        et = h & 0x0F
        n = h >> 4
        if n == 15:
            n, pos = self.varint(pos, path)
        if et not in TYPE_NAMES and not (et == 0 and n == 0):
            # an empty list may carry element type 0 (fastparquet writes 0x00; Thrift's own
            # readers map type 0 to STOP and accept it)
            raise FormatError(f"unknown list element type {et}", rule="thrift.field-type", path=path, offset=self.base + start)
        # every element takes at least one byte: refuse counts the input cannot hold
        if n > self.end - pos:
            raise FormatError(
                f"list of {n} elements exceeds the {self.end - pos} bytes left", rule="thrift.length", path=path, offset=self.base + start
            )
        items: list[Any] = []
        append = items.append
        value = self.value
        for i in range(n):
            v, pos = value(et, pos, depth, f"{path}[{i}]")
            append(v)
        return RawList(et, items), pos

    def map(self, pos: int, depth: int, path: str) -> tuple[RawMap, int]:
        if depth > MAX_DEPTH:
            raise LimitError(f"nesting deeper than {MAX_DEPTH}", rule="thrift.depth", path=path, offset=self.base + pos)
        start = pos
        n, pos = self.varint(pos, path)
        if n == 0:
            return RawMap(0, 0, []), pos
        if 2 * n > self.end - pos:
            raise FormatError(f"map of {n} entries exceeds the input", rule="thrift.length", path=path, offset=self.base + start)
        if pos >= self.end:
            raise _trunc("a map header", pos, self.base, path)
        kv = self.buf[pos]
        pos += 1
        kt, vt = kv >> 4, kv & 0x0F
        if kt not in TYPE_NAMES or vt not in TYPE_NAMES:
            raise FormatError(f"unknown map key/value type {kt}/{vt}", rule="thrift.field-type", path=path, offset=self.base + pos - 1)
        items: list[tuple[Any, Any]] = []
        for i in range(n):
            k, pos = self.value(kt, pos, depth, f"{path}[{i}].key")
            v, pos = self.value(vt, pos, depth, f"{path}[{i}].value")
            items.append((k, v))
        return RawMap(kt, vt, items), pos

    def struct(self, pos: int, depth: int, path: str) -> tuple[RawStruct, int]:
        if depth > MAX_DEPTH:
            raise LimitError(f"nesting deeper than {MAX_DEPTH}", rule="thrift.depth", path=path, offset=self.base + pos)
        buf = self.buf
        end = self.end
        out: RawStruct = {}
        fid = 0
        while True:
            if pos >= end:
                raise _trunc("a struct (no stop byte)", pos, self.base, path)
            h = buf[pos]
            pos += 1
            if h == 0:
                return out, pos
            t = h & 0x0F
            d = h >> 4
            if d:
                fid += d
            else:
                n, pos = self.varint(pos, path)
                fid = (n >> 1) ^ -(n & 1)
            if not 0 < fid < 32768:
                raise FormatError(f"field id {fid} outside 1..32767", rule="thrift.field-id", path=path, offset=self.base + pos - 1)
            if t == BOOL_TRUE:
                out[fid] = (t, True)
            elif t == BOOL_FALSE:
                out[fid] = (t, False)
            else:
                v, pos = self.value(t, pos, depth, f"{path}.{fid}")
                out[fid] = (t, v)


def check_range(size: int, pos: int, end: int | None) -> None:
    """``pos >= 0`` and ``0 <= end <= size``, or UsageError (both twins index the buffer; a
    ``pos`` at or past ``end`` is fine: it reads as truncated input)."""
    if pos < 0 or (end is not None and not 0 <= end <= size):
        raise UsageError(f"cannot decode at pos={pos}, end={end} in a buffer of {size} bytes")


def decode_struct_py(
    buf: bytes | bytearray | memoryview, pos: int = 0, end: int | None = None, *, base: int = 0, path: str = "struct"
) -> tuple[RawStruct, int]:
    """Decode one struct starting at ``pos``: (fields, position after its stop byte).

    ``base`` is the absolute offset of ``buf[0]`` (for error offsets).
    """
    check_range(len(buf), pos, end)
    if end is None:
        end = len(buf)
    return _Decoder(bytes(buf) if not isinstance(buf, bytes) else buf, end, base).struct(pos, 0, path)


def decode_struct(
    buf: bytes | bytearray | memoryview, pos: int = 0, end: int | None = None, *, base: int = 0, path: str = "struct"
) -> tuple[RawStruct, int]:
    """Decode one struct starting at ``pos``: (fields, position after its stop byte).

    ``base`` is the absolute offset of ``buf[0]`` (for error offsets). Runs the compiled
    twin when it is built; whatever it leaves undecided (every malformed input) is redone by
    :func:`decode_struct_py`, which names the error.
    """
    check_range(len(buf), pos, end)
    if _compiled is not None:
        got = _compiled.decode_struct(buf if isinstance(buf, bytes) else bytes(buf), pos, end)
        if got is not None:
            return got  # type: ignore[no-any-return]
    return decode_struct_py(buf, pos, end, base=base, path=path)


def skip_struct(buf: bytes, pos: int = 0, end: int | None = None, *, base: int = 0, path: str = "struct") -> int:
    """The position after the struct at ``pos`` (decoding it, so malformed input is reported)."""
    return decode_struct(buf, pos, end, base=base, path=path)[1]


class Encoder:
    """A minimal compact-protocol writer used by the tests and writers (mirror of the decoder)."""

    def __init__(self) -> None:
        self.out = bytearray()

    @staticmethod
    def varint(n: int) -> bytes:
        if n < 0:
            raise ValueError("varint of a negative number")
        out = bytearray()
        while True:
            b = n & 0x7F
            n >>= 7
            if n:
                out.append(b | 0x80)
            else:
                out.append(b)
                return bytes(out)

    def value(self, t: int, v: Any) -> None:
        o = self.out
        if t in (I16, I32, I64):
            o += self.varint(zigzag_encode(v))
        elif t == I8:
            o.append(v & 0xFF)
        elif t == BINARY:
            o += self.varint(len(v))
            o += v
        elif t == DOUBLE:
            o += struct.pack("<d", v)
        elif t == UUID:
            o += v
        elif t in (BOOL_TRUE, BOOL_FALSE):
            o.append(1 if v else 2)
        elif t == STRUCT:
            self.struct(v)
        elif t in (LIST, SET):
            rl: RawList = v
            n = len(rl.items)
            if n < 15:
                o.append((n << 4) | rl.elem_type)
            else:
                o.append(0xF0 | rl.elem_type)
                o += self.varint(n)
            for item in rl.items:
                self.value(rl.elem_type, item)
        elif t == MAP:
            rm: RawMap = v
            if not rm.items:
                o.append(0)
                return
            o += self.varint(len(rm.items))
            o.append((rm.key_type << 4) | rm.value_type)
            for k, val in rm.items:
                self.value(rm.key_type, k)
                self.value(rm.value_type, val)
        else:
            raise ValueError(f"unknown type {t}")

    def struct(self, fields: RawStruct) -> None:
        prev = 0
        o = self.out
        for fid, (t, v) in fields.items():
            wt = (BOOL_TRUE if v else BOOL_FALSE) if t in (BOOL_TRUE, BOOL_FALSE) else t
            if 0 < fid - prev <= 15:
                o.append(((fid - prev) << 4) | wt)
            else:
                o.append(wt)
                o += self.varint(zigzag_encode(fid))
            prev = fid
            if wt not in (BOOL_TRUE, BOOL_FALSE):
                self.value(wt, v)
        o.append(0)

    def getvalue(self) -> bytes:
        return bytes(self.out)


def encode_struct(fields: RawStruct) -> bytes:
    e = Encoder()
    e.struct(fields)
    return e.getvalue()


def _load_compiled() -> Any:
    try:
        from . import _compact_c  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - built without Cython
        return None
    return _compact_c


_compiled = _load_compiled()
