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
    "RawEncoded",
    "RawList",
    "RawMap",
    "RawStruct",
    "Shape",
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


class RawEncoded:
    """A struct, list, set or map kept as its encoded bytes, not decoded: what typed models keep of a field they do
    not know (``ThriftModel.unknown``), so that an unknown field costs its own bytes, not ~140 bytes of Python objects
    per input byte (fuzz round two: a footer field of 4M empty lists took 567 MiB). The bytes are checked as they are
    stepped over (the same rules as a decoded value); :class:`Encoder` writes them back as they are; :meth:`value`
    decodes them. Two are equal when they encode the same value (a writer may spell a value in more than one way)."""

    __slots__ = ("_canon", "data", "wire_type")

    def __init__(self, wire_type: int, data: bytes) -> None:
        self.wire_type = wire_type
        self.data = data
        self._canon: bytes | None = None

    def value(self) -> Any:
        """The generic decoded value (RawList, RawMap or RawStruct)."""
        return _Decoder(self.data, len(self.data), 0).value(self.wire_type, 0, 0, "value")[0]

    def canonical(self) -> bytes:
        if self._canon is None:
            enc = Encoder()
            enc.value(self.wire_type, self.value())
            self._canon = bytes(enc.out)
        return self._canon

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RawEncoded):
            return NotImplemented
        return self.wire_type == other.wire_type and (self.data == other.data or self.canonical() == other.canonical())

    def __hash__(self) -> int:
        return hash((self.wire_type, self.canonical()))

    def __repr__(self) -> str:
        head = self.data[:16].hex() + ("..." if len(self.data) > 16 else "")
        return f"RawEncoded({TYPE_NAMES.get(self.wire_type, self.wire_type)}, {len(self.data)} bytes: {head})"


RawStruct = dict[int, tuple[int, Any]]
RawValue = int | bool | bytes | float | RawList | RawMap | RawStruct | RawEncoded
#: (accepted wire types, the shape of a struct field or of a list's struct elements) per known field id: what
#: :func:`decode_struct_py` needs to keep unknown containers as :class:`RawEncoded` (``typed`` builds it per model)
Shape = dict[int, tuple[tuple[int, ...], Any]]
_CONTAINERS = frozenset((9, 10, 11, 12))  # LIST, SET, MAP, STRUCT


_EMPTY_OK = frozenset((0, *range(1, 14)))  # element types an empty list may carry (0: fastparquet's empty lists)
_FIXED_WIDTH = {3: 1, 7: 8, 13: 16, 1: 1, 2: 1}  # I8, DOUBLE, UUID, and bools as collection elements: bytes a value


class _Malformed(Exception):
    """The quick skip met something malformed: the checked skip names it."""


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

    def skip(self, t: int, pos: int, depth: int, path: str) -> int:
        """The position after a value of wire type ``t``, checked as :meth:`value` checks it but not built. A quick
        walk without field paths first; on anything malformed, the walk that names the rule, offset and path."""
        try:
            return self._skim(t, pos, depth)
        except (FormatError, _Malformed):
            return self._skip_checked(t, pos, depth, path)

    def _skim(self, t: int, pos: int, depth: int) -> int:
        buf, end = self.buf, self.end
        if t in (LIST, SET):
            if depth + 1 > MAX_DEPTH or pos >= end:
                raise _Malformed
            h = buf[pos]
            pos += 1
            et, n = h & 0x0F, h >> 4
            if n == 15:
                n, pos = self.varint(pos, "")
            if (et not in TYPE_NAMES and not (et == 0 and n == 0)) or n > end - pos:
                raise _Malformed
            width = _FIXED_WIDTH.get(et)
            if width is not None:
                pos += n * width
                if pos > end:
                    raise _Malformed
                return pos
            skim = self._skim
            if et in (LIST, SET, STRUCT) and depth + 2 <= MAX_DEPTH:  # empty elements (one byte) without a call each
                for _ in range(n):
                    if pos < end and (buf[pos] == 0 if et == STRUCT else (buf[pos] >> 4 == 0 and (buf[pos] & 0x0F) in _EMPTY_OK)):
                        pos += 1
                    else:
                        pos = skim(et, pos, depth + 1)
                return pos
            for _ in range(n):
                pos = skim(et, pos, depth + 1)
            return pos
        if t == STRUCT:
            if depth + 1 > MAX_DEPTH:
                raise _Malformed
            fid = 0
            while True:
                fid, ft, pos = self.field_header(pos, fid, "")
                if ft < 0:
                    return pos
                if ft not in (BOOL_TRUE, BOOL_FALSE):
                    pos = self._skim(ft, pos, depth + 1)
        if t == MAP:
            kt, vt, n, pos = self.map_header(pos, depth + 1, "")
            for _ in range(n):
                pos = self._skim(vt, self._skim(kt, pos, depth + 1), depth + 1)
            return pos
        return self.value(t, pos, depth, "")[1]

    def _skip_checked(self, t: int, pos: int, depth: int, path: str) -> int:
        if t == STRUCT:
            return self.skip_struct(pos, depth + 1, path)
        if t in (LIST, SET):
            et, n, pos = self.list_header(pos, depth + 1, path)
            for i in range(n):
                pos = self._skip_checked(et, pos, depth + 1, f"{path}[{i}]")
            return pos
        if t == MAP:
            kt, vt, n, pos = self.map_header(pos, depth + 1, path)
            for i in range(n):
                pos = self._skip_checked(kt, pos, depth + 1, f"{path}[{i}].key")
                pos = self._skip_checked(vt, pos, depth + 1, f"{path}[{i}].value")
            return pos
        return self.value(t, pos, depth, path)[1]

    def skip_struct(self, pos: int, depth: int, path: str) -> int:
        if depth > MAX_DEPTH:
            raise LimitError(f"nesting deeper than {MAX_DEPTH}", rule="thrift.depth", path=path, offset=self.base + pos)
        fid = 0
        while True:
            fid, t, pos = self.field_header(pos, fid, path)
            if t < 0:
                return pos
            if t not in (BOOL_TRUE, BOOL_FALSE):
                pos = self._skip_checked(t, pos, depth, f"{path}.{fid}")

    def field_header(self, pos: int, fid: int, path: str) -> tuple[int, int, int]:
        """(field id, wire type, position after the header); wire type -1 at the stop byte."""
        if pos >= self.end:
            raise _trunc("a struct (no stop byte)", pos, self.base, path)
        h = self.buf[pos]
        pos += 1
        if h == 0:
            return fid, -1, pos
        t = h & 0x0F
        d = h >> 4
        if d:
            fid += d
        else:
            n, pos = self.varint(pos, path)
            fid = (n >> 1) ^ -(n & 1)
        if not 0 < fid < 32768:
            raise FormatError(f"field id {fid} outside 1..32767", rule="thrift.field-id", path=path, offset=self.base + pos - 1)
        return fid, t, pos

    def list_header(self, pos: int, depth: int, path: str) -> tuple[int, int, int]:
        """(element type, size, position after the header), checked."""
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
        return et, n, pos

    def map_header(self, pos: int, depth: int, path: str) -> tuple[int, int, int, int]:
        """(key type, value type, size, position after the header), checked (types 0 for an empty map)."""
        if depth > MAX_DEPTH:
            raise LimitError(f"nesting deeper than {MAX_DEPTH}", rule="thrift.depth", path=path, offset=self.base + pos)
        start = pos
        n, pos = self.varint(pos, path)
        if n == 0:
            return 0, 0, 0, pos
        if 2 * n > self.end - pos:
            raise FormatError(f"map of {n} entries exceeds the input", rule="thrift.length", path=path, offset=self.base + start)
        if pos >= self.end:
            raise _trunc("a map header", pos, self.base, path)
        kv = self.buf[pos]
        pos += 1
        kt, vt = kv >> 4, kv & 0x0F
        if kt not in TYPE_NAMES or vt not in TYPE_NAMES:
            raise FormatError(f"unknown map key/value type {kt}/{vt}", rule="thrift.field-type", path=path, offset=self.base + pos - 1)
        return kt, vt, n, pos

    def list(self, pos: int, depth: int, path: str, shape: Shape | None = None) -> tuple[RawList, int]:
        et, n, pos = self.list_header(pos, depth, path)
        items: list[Any] = []
        append = items.append
        if shape is not None and et == STRUCT:  # a known list of structs: their unknown containers stay encoded
            for i in range(n):
                v, pos = self.struct(pos, depth + 1, f"{path}[{i}]", shape)
                append(v)
            return RawList(et, items), pos
        value = self.value
        for i in range(n):
            v, pos = value(et, pos, depth, f"{path}[{i}]")
            append(v)
        return RawList(et, items), pos

    def map(self, pos: int, depth: int, path: str) -> tuple[RawMap, int]:
        kt, vt, n, pos = self.map_header(pos, depth, path)
        items: list[tuple[Any, Any]] = []
        for i in range(n):
            k, pos = self.value(kt, pos, depth, f"{path}[{i}].key")
            v, pos = self.value(vt, pos, depth, f"{path}[{i}].value")
            items.append((k, v))
        return RawMap(kt, vt, items), pos

    def struct(self, pos: int, depth: int, path: str, shape: Shape | None = None) -> tuple[RawStruct, int]:
        """A struct's fields. With the ``shape`` of a typed model, a field it does not know (or of a wire type it does
        not accept) that is a container is stepped over and kept as :class:`RawEncoded`."""
        if depth > MAX_DEPTH:
            raise LimitError(f"nesting deeper than {MAX_DEPTH}", rule="thrift.depth", path=path, offset=self.base + pos)
        out: RawStruct = {}
        fid = 0
        while True:
            fid, t, pos = self.field_header(pos, fid, path)
            if t < 0:
                return out, pos
            if t == BOOL_TRUE:
                out[fid] = (t, True)
            elif t == BOOL_FALSE:
                out[fid] = (t, False)
            elif shape is None:
                v, pos = self.value(t, pos, depth, f"{path}.{fid}")
                out[fid] = (t, v)
            else:
                spec = shape.get(fid)
                fpath = f"{path}.{fid}"
                if spec is None or t not in spec[0]:
                    if t in _CONTAINERS:
                        start = pos
                        pos = self.skip(t, pos, depth, fpath)
                        out[fid] = (t, RawEncoded(t, bytes(self.buf[start:pos])))
                    else:
                        v, pos = self.value(t, pos, depth, fpath)
                        out[fid] = (t, v)
                elif spec[1] is not None and t == STRUCT:
                    v, pos = self.struct(pos, depth + 1, fpath, spec[1])
                    out[fid] = (t, v)
                elif spec[1] is not None and t in (LIST, SET):
                    v, pos = self.list(pos, depth + 1, fpath, spec[1])
                    out[fid] = (t, v)
                else:
                    v, pos = self.value(t, pos, depth, fpath)
                    out[fid] = (t, v)


def check_range(size: int, pos: int, end: int | None) -> None:
    """``pos >= 0`` and ``0 <= end <= size``, or UsageError (both twins index the buffer; a
    ``pos`` at or past ``end`` is fine: it reads as truncated input)."""
    if pos < 0 or (end is not None and not 0 <= end <= size):
        raise UsageError(f"cannot decode at pos={pos}, end={end} in a buffer of {size} bytes")


def decode_struct_py(
    buf: bytes | bytearray | memoryview,
    pos: int = 0,
    end: int | None = None,
    *,
    base: int = 0,
    path: str = "struct",
    shape: Shape | None = None,
) -> tuple[RawStruct, int]:
    """Decode one struct starting at ``pos``: (fields, position after its stop byte).

    ``base`` is the absolute offset of ``buf[0]`` (for error offsets). ``shape`` (a typed model's, see
    ``typed.decode_model_py``) keeps the containers of fields it does not know as :class:`RawEncoded`.
    """
    check_range(len(buf), pos, end)
    if end is None:
        end = len(buf)
    return _Decoder(bytes(buf) if not isinstance(buf, bytes) else buf, end, base).struct(pos, 0, path, shape)


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
        if isinstance(v, RawEncoded):  # kept as read: written back as read
            o += v.data
            return
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
    from .._twins import forced_pure

    if forced_pure("thrift"):  # LAKESTRUCT_PURE
        return None
    try:
        from . import _compact_c  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - built without Cython
        return None
    return _compact_c


_compiled = _load_compiled()
