"""The payloads of a Paimon data-file index (``FileIndexFormat``), probed: ``bloom-filter`` ("could this file contain
k?"), ``bitmap`` versions 1 and 2 ("which rows have k?") and ``bsi`` (bit-sliced index: equality and ranges on
integer-like columns). Written from Paimon's Java classes (``BloomFilterFileIndex``, ``BloomFilter64``, ``FastHash``,
``BitmapFileIndex``, ``BitmapFileIndexMeta``, ``BitmapFileIndexMetaV2``, ``BitSliceIndexBitmapFileIndex``,
``BitSliceIndexRoaringBitmap``); bitmaps are 32-bit portable Roaring bitmaps, decoded by :mod:`lakestruct.roaring`.

Values are given as Python values of the column's type (:func:`index_value` maps them to what Paimon's index stores:
UTF-8 bytes, Java ints and longs, float bits, epoch days, milliseconds of the day, epoch milliseconds or
microseconds). Every malformed payload raises a :class:`~lakestruct.errors.FormatError` whose rule starts with
``paimon.file-index.`` (or ``roaring32.``), at its absolute offset in the index image.
"""

from __future__ import annotations

import datetime
import math
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

import numpy as np
import numpy.typing as npt
import xxhash
from pyroaring import BitMap

from ..errors import FormatError, LimitError, TruncatedError, UsageError
from ..roaring.read import CHECK_MAX_POSITIONS, DEFAULT_MAX_POSITIONS, decode_roaring32, describe_roaring32
from .binrow import Timestamp
from .types import DataType

__all__ = [
    "BLOOM_FILTER",
    "BITMAP",
    "BSI",
    "MAX_HASH_FUNCTIONS",
    "BitmapIndex",
    "BloomFilter",
    "BsiIndex",
    "bloom_hash",
    "index_value",
    "indexes_type",
    "long_hash",
    "parse_bitmap",
    "parse_bloom_filter",
    "parse_bsi",
    "parse_value",
]

BLOOM_FILTER = "bloom-filter"
BITMAP = "bitmap"
BSI = "bsi"
#: Most hash functions a bloom filter may ask for: Paimon's writer computes round(numBits / items * ln 2), which stays
#: under 1,100 for any double fpp; a larger count would only make every probe loop longer (rule paimon.file-index.bloom).
MAX_HASH_FUNCTIONS = 2048

Rows = npt.NDArray[np.int64]
_M64 = (1 << 64) - 1
_EPOCH = datetime.date(1970, 1, 1)
_EPOCH_DT = datetime.datetime(1970, 1, 1)
_INT_BITS = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}
_TS = ("TIMESTAMP", "TIMESTAMP_LTZ")
_EMPTY: Rows = np.empty(0, dtype=np.int64)


def _s64(x: int) -> int:
    x &= _M64
    return x - (1 << 64) if x >> 63 else x


def _s32(x: int) -> int:
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >> 31 else x


# -- values ------------------------------------------------------------------------------------------


def _java_int(v: Any, bits: int, t: DataType) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise UsageError(f"{t} needs an integer, not {v!r}")
    i = int(v)
    if not -(1 << (bits - 1)) <= i < (1 << (bits - 1)):
        raise UsageError(f"{i} does not fit {t}")
    return i


def _float_bits(v: Any, t: DataType) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.floating, np.integer)):
        raise UsageError(f"{t} needs a number, not {v!r}")
    f = float(v)
    if t.root == "DOUBLE":  # Double.doubleToLongBits: one NaN
        return struct.unpack(">q", struct.pack(">d", math.nan if f != f else f))[0]  # type: ignore[no-any-return]
    if f != f:  # Float.floatToIntBits: one NaN
        return 0x7FC00000
    try:
        return struct.unpack(">i", struct.pack(">f", f))[0]  # type: ignore[no-any-return]
    except OverflowError:  # (float) of a double beyond Float.MAX_VALUE is an infinity
        return struct.unpack(">i", struct.pack(">f", math.copysign(math.inf, f)))[0]  # type: ignore[no-any-return]


def _timestamp(v: Any, t: DataType) -> Timestamp:
    if isinstance(v, Timestamp):
        return v
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.UTC).replace(tzinfo=None)
        d = v - _EPOCH_DT
        micros = (d.days * 86400 + d.seconds) * 1_000_000 + d.microseconds
        return Timestamp(micros // 1000, (micros % 1000) * 1000)
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return Timestamp(int(v))  # epoch milliseconds
    raise UsageError(f"{t} needs a lakestruct.paimon.Timestamp, a datetime or epoch milliseconds, not {v!r}")


def _unscaled(v: Any, t: DataType) -> int:
    try:
        d = v if isinstance(v, Decimal) else Decimal(str(v) if isinstance(v, float) else v)
        scaled = d.scaleb(t.scale or 0)
    except (InvalidOperation, TypeError, ValueError):
        raise UsageError(f"{t} needs a decimal number, not {v!r}") from None
    if scaled != scaled.to_integral_value():
        raise UsageError(f"{v} has more than {t.scale} decimal places for {t}")
    u = int(scaled)
    if not -(1 << 63) <= u < (1 << 63):
        raise UsageError(f"{v} does not fit a long unscaled value ({t})")
    return u


def index_value(value: Any, t: DataType) -> Any:
    """``value`` as Paimon's file indexes see it for a column of type ``t``: bytes for CHAR/VARCHAR (UTF-8) and
    BINARY/VARBINARY; an int for TINYINT..BIGINT, DATE (epoch days; ``datetime.date`` accepted), TIME (milliseconds of
    the day; ``datetime.time`` or ``timedelta`` accepted), FLOAT/DOUBLE (their Java bits: ``floatToIntBits`` /
    ``doubleToLongBits``, one NaN), TIMESTAMP/TIMESTAMP_LTZ (epoch milliseconds for precision <= 3, else epoch
    microseconds; a :class:`Timestamp`, a ``datetime`` or epoch milliseconds accepted) and DECIMAL (the unscaled long);
    a bool for BOOLEAN. A value the type cannot hold is a :class:`UsageError`."""
    r = t.root
    if r in ("CHAR", "VARCHAR"):
        if isinstance(value, str):
            return value.encode("utf-8")
        if isinstance(value, (bytes, bytearray)):
            return bytes(value)
        raise UsageError(f"{t} needs a string, not {value!r}")
    if r in ("BINARY", "VARBINARY"):
        if isinstance(value, (bytes, bytearray)):
            return bytes(value)
        if isinstance(value, str):
            return value.encode("utf-8")
        raise UsageError(f"{t} needs bytes, not {value!r}")
    if r in _INT_BITS:
        return _java_int(value, _INT_BITS[r], t)
    if r in ("FLOAT", "DOUBLE"):
        return _float_bits(value, t)
    if r == "BOOLEAN":
        if not isinstance(value, (bool, np.bool_)):
            raise UsageError(f"{t} needs True or False, not {value!r}")
        return bool(value)
    if r == "DATE":
        if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
            return (value - _EPOCH).days
        return _java_int(value, 32, t)
    if r == "TIME":
        if isinstance(value, datetime.time):
            return ((value.hour * 60 + value.minute) * 60 + value.second) * 1000 + value.microsecond // 1000
        if isinstance(value, datetime.timedelta):
            return (value.days * 86400 + value.seconds) * 1000 + value.microseconds // 1000
        return _java_int(value, 32, t)
    if r in _TS:
        ts = _timestamp(value, t)
        if (t.precision if t.precision is not None else 6) <= 3:
            return _s64(ts.millisecond)
        return _s64(ts.millisecond * 1000 + ts.nano_of_millisecond // 1000)  # Timestamp.toMicros
    if r == "DECIMAL":
        return _unscaled(value, t)
    raise UsageError(f"Paimon's file indexes do not index {t}")


def parse_value(text: str, t: DataType) -> Any:
    """A command-line value for a column of type ``t`` (``null`` is None): integers, decimals, ``true``/``false``,
    ISO dates, times (``HH:MM:SS[.fff]``) and timestamps (``YYYY-MM-DD[ HH:MM:SS[.ffffff]]``, or epoch milliseconds),
    ``0x``-prefixed hex for binaries, strings as they are."""
    if text.lower() == "null":
        return None
    r = t.root
    try:
        if r in _INT_BITS:
            return int(text)
        if r in ("FLOAT", "DOUBLE"):
            return float(text)
        if r == "DECIMAL":
            return Decimal(text)
        if r == "BOOLEAN":
            if text.lower() not in ("true", "false"):
                raise ValueError(text)
            return text.lower() == "true"
        if r == "DATE":
            return int(text) if text.lstrip("-").isdigit() else datetime.date.fromisoformat(text)
        if r == "TIME":
            return int(text) if text.isdigit() else datetime.time.fromisoformat(text)
        if r in _TS:
            return int(text) if text.lstrip("-").isdigit() else datetime.datetime.fromisoformat(text)
        if r in ("BINARY", "VARBINARY") and text.lower().startswith("0x"):
            return bytes.fromhex(text[2:])
    except ValueError:
        raise UsageError(f"{text!r} is not a value of {t}") from None
    return text


# -- bloom filter ------------------------------------------------------------------------------------


def long_hash(key: int) -> int:
    """Thomas Wang's 64-bit integer hash as Paimon's ``FastHash.getLongHash`` computes it (Java long arithmetic,
    arithmetic right shifts); a signed 64-bit int."""
    k = _s64(key)
    k = _s64(~k + (k << 21))
    k = k ^ (k >> 24)
    k = _s64(k + (k << 3) + (k << 8))
    k = k ^ (k >> 14)
    k = _s64(k + (k << 2) + (k << 4))
    k = k ^ (k >> 28)
    return _s64(k + (k << 31))


def bloom_hash(key: Any, t: DataType) -> int:
    """Paimon's ``FastHash`` of an :func:`index_value`: XXH64 (seed 0) of the bytes of strings and binaries,
    :func:`long_hash` of integers, dates, times, float bits (as an int, sign-extended) and timestamps."""
    r = t.root
    if r in ("CHAR", "VARCHAR", "BINARY", "VARBINARY"):
        return _s64(xxhash.xxh64_intdigest(key))
    if r in _INT_BITS or r in ("DATE", "TIME", "FLOAT", "DOUBLE") or r in _TS:
        return long_hash(key)
    raise UsageError(f"Paimon's bloom filter does not index {t}")


@dataclass(frozen=True)
class BloomFilter:
    """A ``bloom-filter`` payload: the number of hash functions and the bit set (bit i is bit i % 8 of byte i / 8)."""

    num_hash_functions: int
    bits: bytes

    @property
    def num_bits(self) -> int:
        return len(self.bits) * 8

    def test_hash(self, h: int) -> bool:
        """``BloomFilter64.testHash``: probe k positions ``h1 + i * h2`` (Java int arithmetic, negatives flipped)."""
        u = h & _M64
        h1, h2 = _s32(u), _s32(u >> 32)
        n, bits = self.num_bits, self.bits
        for i in range(1, self.num_hash_functions + 1):
            c = _s32(h1 + i * h2)
            if c < 0:
                c = ~c
            pos = c % n
            if not bits[pos >> 3] >> (pos & 7) & 1:
                return False
        return True

    def might_contain(self, value: Any, t: DataType) -> bool:
        """False only when the file certainly holds no row with ``value`` in the column (of type ``t``). Null keys are
        never added, and Paimon's reader answers "may contain" for them: so does this."""
        if value is None:
            return True
        return self.test_hash(bloom_hash(index_value(value, t), t))


def _err(msg: str, rule: str, path: str, offset: int) -> FormatError:
    return FormatError(msg, rule=f"paimon.file-index.{rule}", path=path, offset=offset)


def parse_bloom_filter(data: bytes, *, base: int = 0, path: str = "bloom-filter") -> BloomFilter:
    """A ``bloom-filter`` payload (``base``: its absolute offset, for errors)."""
    if len(data) < 5:
        raise _err(f"a bloom filter holds a 4-byte hash-function count and at least one bit-set byte, this one {len(data)} bytes",
                   "bloom", f"{path}.bits", base)
    k = int.from_bytes(data[:4], "big", signed=True)
    if not 1 <= k <= MAX_HASH_FUNCTIONS:
        raise _err(f"{k} hash functions: Paimon's writer uses 1 to ~1,080 (at most {MAX_HASH_FUNCTIONS} are probed)", "bloom",
                   f"{path}.num_hash_functions", base)
    return BloomFilter(k, bytes(data[4:]))


# -- reading helpers ---------------------------------------------------------------------------------


class _Reader:
    """Big-endian fields of one payload, with named truncation errors at absolute offsets."""

    def __init__(self, data: bytes, base: int, path: str, pos: int = 0) -> None:
        self.data, self.base, self.path, self.pos = data, base, path, pos

    def need(self, n: int, what: str) -> None:
        if self.pos + n > len(self.data):
            raise TruncatedError(f"{what} needs {n} bytes at {self.base + self.pos}, the payload ends at {self.base + len(self.data)}",
                                 rule="paimon.file-index.payload-truncated", path=f"{self.path}.{what}", offset=self.base + self.pos)

    def unpack(self, fmt: str, what: str) -> Any:
        n = struct.calcsize(fmt)
        self.need(n, what)
        v = struct.unpack_from(fmt, self.data, self.pos)[0]
        self.pos += n
        return v

    def i8(self, what: str) -> int:
        return int(self.unpack(">b", what))

    def u8(self, what: str) -> int:
        return int(self.unpack(">B", what))

    def i32(self, what: str) -> int:
        return int(self.unpack(">i", what))

    def i64(self, what: str) -> int:
        return int(self.unpack(">q", what))

    def flag(self, what: str) -> bool:
        at = self.pos
        b = self.u8(what)
        if b > 1:
            raise _err(f"a boolean byte is 0 or 1, not {b}", "bitmap" if self.path.startswith("bitmap") else "bsi",
                       f"{self.path}.{what}", self.base + at)
        return b == 1


def _roaring(data: bytes, start: int, stop: int | None, base: int, path: str, *, exact: bool = False,
             max_positions: int | None = DEFAULT_MAX_POSITIONS) -> tuple[Rows, int]:
    """The values of the 32-bit portable Roaring bitmap at ``data[start:stop]`` (int64) and its length in bytes."""
    view = memoryview(data)[start:stop]
    if exact:
        values = decode_roaring32(view, base_offset=base + start, path=path, max_positions=max_positions, wide=True)
        return values.view(np.int64), len(view)
    length = describe_roaring32(view, base_offset=base + start, allow_trailing=True).length
    values = decode_roaring32(view[:length], base_offset=base + start, path=path, max_positions=max_positions, wide=True)
    return values.view(np.int64), length


# -- bitmap index ------------------------------------------------------------------------------------


def _key_codec(t: DataType) -> tuple[str, Callable[[_Reader, str], Any]]:
    """How a bitmap index stores keys of type ``t`` (``BitmapTypeVisitor``): the kind and a reader."""
    r = t.root
    if r in ("CHAR", "VARCHAR"):
        def string(rd: _Reader, what: str) -> bytes:
            n = rd.i32(f"{what}.length")
            if n < 0:
                raise _err(f"a string key of length {n}", "bitmap", f"{rd.path}.{what}.length", rd.base + rd.pos - 4)
            rd.need(n, what)
            v = rd.data[rd.pos : rd.pos + n]
            rd.pos += n
            return bytes(v)

        return "string", string
    fixed = {"BOOLEAN": ">?", "TINYINT": ">b", "SMALLINT": ">h", "INT": ">i", "DATE": ">i", "TIME": ">i", "BIGINT": ">q",
             "TIMESTAMP": ">q", "TIMESTAMP_LTZ": ">q", "FLOAT": ">i", "DOUBLE": ">q"}.get(r)  # fmt: skip
    if fixed is None:
        raise UsageError(f"Paimon's bitmap index does not index {t}")
    if r == "BOOLEAN":
        return "bool", lambda rd, what: rd.flag(what)
    return fixed, lambda rd, what: rd.unpack(fixed, what)


def _sort_key(key: Any, t: DataType) -> Any:
    """The order of ``BitmapFileIndexMetaV2.getComparator``: bytes unsigned, numbers as Java compares them (Float and
    Double by ``compare``: -0.0 before 0.0, NaN last)."""
    if t.root == "FLOAT":
        return key ^ 0x7FFFFFFF if key < 0 else key
    if t.root == "DOUBLE":
        return key ^ 0x7FFFFFFFFFFFFFFF if key < 0 else key
    return key


@dataclass(frozen=True)
class _Entry:
    offset: int  # relative to the body; negative: -1 - row of a one-row bitmap
    length: int  # -1: unknown (read the self-delimiting bitmap)
    at: int  # absolute offset of the entry (for errors)
    path: str


@dataclass
class BitmapIndex:
    """A ``bitmap`` payload (version 1 or 2): per distinct value, the rows that hold it."""

    version: int
    row_count: int
    type: DataType
    data: bytes = field(repr=False)
    base: int
    path: str
    has_null: bool
    null_entry: _Entry | None
    body_start: int  # in data
    entries: dict[Any, _Entry] = field(repr=False)

    @property
    def keys(self) -> list[Any]:
        """The distinct non-null values, as stored (:func:`index_value`'s form), in the payload's order."""
        return list(self.entries)

    def _rows_of(self, e: _Entry, what: str) -> Rows:
        if e.offset < 0:
            row = -1 - e.offset
            out = np.array([row], dtype=np.int64)
        else:
            start = self.body_start + e.offset
            stop = None if e.length < 0 else start + e.length
            if start > len(self.data) or (stop is not None and stop > len(self.data)):
                raise _err(f"the bitmap at body offset {e.offset} (length {e.length}) lies outside the {len(self.data)}-byte payload",
                           "bitmap", e.path, e.at)
            out, _ = _roaring(self.data, start, stop, self.base, f"{self.path}.bitmaps[{what}]")
        if out.size and int(out[-1]) >= self.row_count:
            raise _err(f"the bitmap of {what} holds row {int(out[-1])}, the index counts {self.row_count} rows", "bitmap-rows",
                       e.path, e.at)
        return out

    def rows(self, value: Any) -> Rows:
        """The rows (sorted int64) whose value is ``value`` (None: the null rows)."""
        if value is None:
            return self.null_rows()
        key = index_value(value, self.type)
        e = self.entries.get(key)
        return _EMPTY.copy() if e is None else self._rows_of(e, repr(value))

    def rows_of_key(self, key: Any) -> Rows:
        """The rows of a stored key (one of :attr:`keys`, :func:`index_value`'s form)."""
        e = self.entries.get(key)
        return _EMPTY.copy() if e is None else self._rows_of(e, repr(key))

    def null_rows(self) -> Rows:
        return _EMPTY.copy() if self.null_entry is None else self._rows_of(self.null_entry, "null")

    def might_contain(self, value: Any) -> bool:
        return bool(self.rows(value).size)

    def items(self) -> Iterator[tuple[Any, Rows]]:
        """(stored key, rows) of every distinct non-null value."""
        for k, e in self.entries.items():
            yield k, self._rows_of(e, repr(k))

    def _bitmap_of(self, e: _Entry, what: str) -> BitMap:
        """The rows of an entry as a compact ``pyroaring.BitMap`` (deserialised from its checked bytes, never
        expanded to an array), held to the row count like :meth:`_rows_of`."""
        if e.offset < 0:
            bm = BitMap([-1 - e.offset])
        else:
            start = self.body_start + e.offset
            stop = None if e.length < 0 else start + e.length
            if start > len(self.data) or (stop is not None and stop > len(self.data)):
                self._rows_of(e, what)  # raises the bounds error
            view = memoryview(self.data)[start:stop]
            try:  # the structure checks (no values materialised), then CRoaring's own validating reader
                length = describe_roaring32(view, base_offset=self.base + start, allow_trailing=stop is None).length
                bm = BitMap.deserialize(bytes(view[:length]))
            except (FormatError, ValueError):
                return BitMap(self._rows_of(e, what))  # our decoder names the rule broken
        if bm and bm.max() >= self.row_count:
            raise _err(f"the bitmap of {what} holds row {bm.max()}, the index counts {self.row_count} rows", "bitmap-rows",
                       e.path, e.at)
        return bm

    def check(self) -> None:
        """Check every bitmap: rows below the row count (``paimon.file-index.bitmap-rows``), no row under two values
        or under a value and null (``paimon.file-index.bitmap-overlap``). Bitmaps are held as compact Roaring bitmaps
        (about their stored size), one at a time against the union of those before: never expanded to row arrays."""
        parts = [("null", self.null_entry)] if self.null_entry is not None else []
        named = [(name, e) for name, e in (*parts, *((repr(k), e) for k, e in self.entries.items())) if e is not None]
        for name, e in named:  # every bitmap's rows below the row count first
            self._bitmap_of(e, name)
        seen = BitMap()
        for name, e in named:
            bm = self._bitmap_of(e, name)
            common = seen & bm
            if common:
                raise _err(f"row {common.min()} is listed under two values (the second: {name})", "bitmap-overlap", e.path, e.at)
            seen |= bm


def parse_bitmap(data: bytes, t: DataType, *, base: int = 0, path: str = "bitmap") -> BitmapIndex:
    """A ``bitmap`` payload (``BitmapFileIndexMeta`` version 1 or ``BitmapFileIndexMetaV2``) for a column of type
    ``t``: the head and the dictionary are read and checked; bitmaps are decoded when asked for."""
    rd = _Reader(data, base, path)
    version = rd.u8("version")
    if version not in (1, 2):
        raise _err(f"bitmap index version {version}: Paimon writes 1 and 2", "bitmap-version", f"{path}.version", base)
    _, read_key = _key_codec(t)
    rows = rd.i32("row_count")
    if rows < 0:
        raise _err(f"row count {rows}", "bitmap", f"{path}.row_count", base + 1)
    num = rd.i32("num_values")
    if not 0 <= num <= len(data):
        raise _err(f"{num} distinct values cannot fit a {len(data)}-byte payload", "bitmap", f"{path}.num_values", base + 5)
    has_null = rd.flag("has_null")
    null_entry: _Entry | None = None
    if has_null:
        at = rd.pos
        null_offset = rd.i32("null_offset")
        null_length = rd.i32("null_length") if version == 2 else -1
        null_entry = _Entry(null_offset, null_length, base + at, f"{path}.null_offset")
    entries: dict[Any, _Entry] = {}
    if version == 1:
        offs: list[tuple[Any, int, int]] = []
        for i in range(num):
            at = rd.pos
            k = read_key(rd, f"entries[{i}].key")
            offs.append((k, rd.i32(f"entries[{i}].offset"), at))
        body = rd.pos
        # BitmapFileIndexMeta: a bitmap's length is the next non-negative offset minus its own (the null bitmap first)
        nonneg = [(o, i) for i, (_, o, _) in enumerate(offs) if o >= 0]
        lengths = {i: (nonneg[j + 1][0] - o if j + 1 < len(nonneg) else None) for j, (o, i) in enumerate(nonneg)}
        for i, (k, off, at) in enumerate(offs):
            if k in entries:
                raise _err(f"the value {k!r} is listed twice", "bitmap", f"{path}.entries[{i}].key", base + at)
            length = lengths.get(i)
            if length is not None and length < 0:
                raise _err(f"bitmap offsets must grow: {off} is followed by {off + length}", "bitmap", f"{path}.entries[{i}].offset",
                           base + at)
            entries[k] = _Entry(off, -1 if length is None else length, base + at, f"{path}.entries[{i}]")
        if null_entry is not None and null_entry.offset >= 0:
            first = nonneg[0][0] if nonneg else -1
            null_entry = _Entry(null_entry.offset, first - null_entry.offset if first >= null_entry.offset else -1, null_entry.at,
                                null_entry.path)
    else:
        blocks_n = rd.i32("num_blocks")
        if not 0 <= blocks_n <= max(num, 0) or (num and not blocks_n):
            raise _err(f"{blocks_n} index blocks for {num} values", "bitmap", f"{path}.num_blocks", base + rd.pos - 4)
        blocks = []
        for i in range(blocks_n):
            at = rd.pos
            k = read_key(rd, f"blocks[{i}].key")
            blocks.append((k, rd.i32(f"blocks[{i}].offset"), at))
        body_offset = rd.i32("bitmap_body_offset")
        blocks_start = rd.pos
        if not 0 <= body_offset <= len(data) - blocks_start:
            raise _err(f"the index blocks ({body_offset} bytes) do not fit the payload", "bitmap", f"{path}.bitmap_body_offset",
                       base + blocks_start - 4)
        body = blocks_start + body_offset
        last: Any = None
        n_seen = 0
        for b, (bkey, boff, bat) in enumerate(blocks):
            end = blocks[b + 1][1] if b + 1 < len(blocks) else body_offset
            if not 0 <= boff <= end <= body_offset:
                raise _err(f"index block {b} at {boff} (next at {end}) lies outside the {body_offset} bytes of index blocks", "bitmap",
                           f"{path}.blocks[{b}].offset", base + bat)
            brd = _Reader(data[: blocks_start + end], base, f"{path}.index_blocks[{b}]", blocks_start + boff)
            count = brd.i32("num_entries")
            if not 1 <= count <= end - boff:
                raise _err(f"{count} entries in a {end - boff}-byte index block", "bitmap", f"{brd.path}.num_entries", base + brd.pos - 4)
            for i in range(count):
                at = brd.pos
                k = read_key(brd, f"entries[{i}].key")
                off = brd.i32(f"entries[{i}].offset")
                length = brd.i32(f"entries[{i}].length")
                epath = f"{brd.path}.entries[{i}]"
                if i == 0 and k != bkey:
                    raise _err(f"the block's key {bkey!r} is not its first entry's ({k!r})", "bitmap-order", f"{path}.blocks[{b}].key",
                               base + bat)
                sk = _sort_key(k, t)
                if last is not None and not last < sk:
                    raise _err(f"keys must be strictly ascending (Paimon binary-searches them): {k!r} follows a key not below it",
                               "bitmap-order", epath, base + at)
                last = sk
                if off >= 0 and (length < 0 or body + off + length > len(data)):
                    raise _err(f"the bitmap ({off}, {length}) lies outside the body [{body - blocks_start}, {len(data) - blocks_start})",
                               "bitmap", epath, base + at)
                entries[k] = _Entry(off, length if off >= 0 else -1, base + at, epath)
                n_seen += 1
        if n_seen != num:
            raise _err(f"the index blocks hold {n_seen} values, the head says {num}", "bitmap", f"{path}.num_values", base + 5)
    if null_entry is not None and null_entry.offset >= 0 and body + null_entry.offset > len(data):
        raise _err(f"the null bitmap at body offset {null_entry.offset} lies outside the payload", "bitmap", null_entry.path,
                   null_entry.at)
    return BitmapIndex(version, rows, t, bytes(data), base, path, has_null, null_entry, body, entries)


# -- bit-sliced index --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Slices:
    """One ``BitSliceIndexRoaringBitmap``: min, max, the rows it holds (ebm) and their values (reconstructed)."""

    min: int
    max: int
    rows: Rows
    magnitudes: npt.NDArray[np.uint64]


def _bsi_part(rd: _Reader, what: str, row_count: int, max_positions: int | None = CHECK_MAX_POSITIONS) -> _Slices:
    at = rd.pos
    version = rd.i8(f"{what}.version")
    if version != 1:
        raise _err(f"bit-sliced bitmap version {version}: Paimon reads version 1", "bsi-version", f"{rd.path}.{what}.version", rd.base + at)
    lo = rd.i64(f"{what}.min")
    hi = rd.i64(f"{what}.max")
    if not 0 <= lo <= hi:
        raise _err(f"min {lo} and max {hi}: Paimon's writer keeps 0 <= min <= max", "bsi", f"{rd.path}.{what}.min", rd.base + at + 1)
    # the rows a BSI holds cost ~40 bytes each to reconstruct, and a run container stores 65,536 of them in 4 bytes:
    # at most max_positions rows (roaring.max-positions), refused before they are decoded
    ebm, n = _roaring(rd.data, rd.pos, None, rd.base, f"{rd.path}.{what}.ebm", max_positions=max_positions)
    rd.pos += n
    if ebm.size and int(ebm[-1]) >= row_count:
        raise _err(f"row {int(ebm[-1])} is past the {row_count} rows", "bsi-rows", f"{rd.path}.{what}.ebm", rd.base + rd.pos - n)
    at = rd.pos
    count = rd.i32(f"{what}.num_slices")
    width = (hi - lo).bit_length()
    if count != width:
        raise _err(f"{count} slices for values up to {hi - lo} (max - min): the writer stores {width}", "bsi",
                   f"{rd.path}.{what}.num_slices", rd.base + at)
    mags = np.zeros(ebm.size, dtype=np.uint64)
    for i in range(count):
        spath = f"{rd.path}.{what}.slices[{i}]"
        s, n = _roaring(rd.data, rd.pos, None, rd.base, spath, max_positions=max_positions)
        idx = np.searchsorted(ebm, s)
        if s.size and (int(idx[-1]) >= ebm.size or not np.array_equal(ebm[np.minimum(idx, ebm.size - 1)], s)):
            raise _err("a slice holds a row the existence bitmap does not", "bsi-rows", spath, rd.base + rd.pos)
        mags[idx] |= np.uint64(1) << np.uint64(i)
        rd.pos += n
    if lo:
        mags += np.uint64(lo)
    if mags.size and int(mags.max()) > hi:
        raise _err(f"a row's value {int(mags.max())} exceeds max {hi}", "bsi", f"{rd.path}.{what}.max", rd.base + at)
    return _Slices(lo, hi, ebm, mags)


@dataclass(frozen=True)
class BsiIndex:
    """A ``bsi`` payload: the row count and the non-negative and negative values' bit-sliced bitmaps, as row and
    value arrays (every row's value is reconstructed from its slices once, when the payload is read)."""

    row_count: int
    type: DataType
    rows_: Rows = field(repr=False)  # rows with a value, sorted
    values_: npt.NDArray[Any] = field(repr=False)  # their values (int64, or Python ints beyond int64)
    positive: tuple[int, int] | None  # (min, max) as stored
    negative: tuple[int, int] | None

    def values(self) -> tuple[Rows, npt.NDArray[Any]]:
        """(rows, values) of every non-null row, by row."""
        return self.rows_.copy(), self.values_.copy()

    def not_null_rows(self) -> Rows:
        return self.rows_.copy()

    def null_rows(self, *, max_positions: int | None = CHECK_MAX_POSITIONS) -> Rows:
        """The rows without a value: every row of the row count the index states that no bitmap holds (at most
        ``max_positions`` of them, default 2^24, ``roaring.max-positions``: the row count is 4 bytes of the payload).
        Memory: the output and one byte per row of the row count."""
        n = self.row_count - self.rows_.size
        if max_positions is not None and n > max_positions:
            raise LimitError(f"{n} null rows exceed the limit of {max_positions} positions (max_positions= raises it)",
                             rule="roaring.max-positions", path="bsi.row_count", offset=None)
        keep = np.ones(self.row_count, dtype=bool)
        keep[self.rows_] = False
        out: Rows = np.flatnonzero(keep).astype(np.int64, copy=False)
        return out

    def _key(self, value: Any) -> int:
        return int(index_value(value, self.type))

    def rows(self, value: Any) -> Rows:
        """Rows whose value equals ``value`` (None: the null rows)."""
        if value is None:
            return self.null_rows()
        out: Rows = self.rows_[self.values_ == self._key(value)]
        return out

    def rows_between(self, lo: Any = None, hi: Any = None, *, lo_inclusive: bool = True, hi_inclusive: bool = True) -> Rows:
        """Rows whose value lies between ``lo`` and ``hi`` (None: unbounded); nulls never match."""
        mask = np.ones(self.rows_.size, dtype=bool)
        if lo is not None:
            k = self._key(lo)
            mask &= self.values_ >= k if lo_inclusive else self.values_ > k
        if hi is not None:
            k = self._key(hi)
            mask &= self.values_ <= k if hi_inclusive else self.values_ < k
        out: Rows = self.rows_[mask]
        return out

    def might_contain(self, value: Any) -> bool:
        return bool(self.rows(value).size)


_BSI_TYPES = set(_INT_BITS) | {"DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "DECIMAL"}
_BLOOM_TYPES = set(_INT_BITS) | {"DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "FLOAT", "DOUBLE", "CHAR", "VARCHAR", "BINARY", "VARBINARY"}
_BITMAP_TYPES = set(_INT_BITS) | {"DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "FLOAT", "DOUBLE", "CHAR", "VARCHAR", "BOOLEAN"}


def indexes_type(index_type: str, t: DataType) -> bool:
    """Whether Paimon builds an index of ``index_type`` (bloom-filter, bitmap, bsi) for columns of type ``t``."""
    return t.root in {BLOOM_FILTER: _BLOOM_TYPES, BITMAP: _BITMAP_TYPES, BSI: _BSI_TYPES}.get(index_type, set())


def parse_bsi(data: bytes, t: DataType, *, base: int = 0, path: str = "bsi", row_count: int | None = None,
              max_positions: int | None = CHECK_MAX_POSITIONS) -> BsiIndex:
    """A ``bsi`` payload (``BitSliceIndexBitmapFileIndex`` version 1) for a column of type ``t``, every bitmap decoded
    and checked: rows below the row count, slices inside the existence bitmap, a row never both non-negative and
    negative (``paimon.file-index.bsi-rows``), the slice count of ``max - min``, values within ``max``.

    ``row_count``: the data file's, which the payload's must equal (``paimon.file-index.row-count``, checked before
    any bitmap is decoded). A part (non-negative or negative values) may hold at most ``max_positions`` rows (default
    2^24, ``roaring.max-positions``, refused before they are decoded): reconstructing costs ~40 bytes a row."""
    if t.root not in _BSI_TYPES:
        raise UsageError(f"Paimon's bit-sliced index does not index {t}")
    rd = _Reader(data, base, path)
    version = rd.i8("version")
    if version != 1:
        raise _err(f"BSI index version {version}: Paimon reads version 1", "bsi-version", f"{path}.version", base)
    rows = rd.i32("row_count")
    if rows < 0:
        raise _err(f"row count {rows}", "bsi", f"{path}.row_count", base + 1)
    if row_count is not None and rows != row_count:
        raise _err(f"the index counts {rows} rows, the data file has {row_count}", "row-count", f"{path}.row_count", base + 1)
    pos = _bsi_part(rd, "positive", rows, max_positions) if rd.flag("has_positive") else None
    neg = _bsi_part(rd, "negative", rows, max_positions) if rd.flag("has_negative") else None
    if rd.pos != len(data):
        raise _err(f"{len(data) - rd.pos} bytes follow the index", "bsi", f"{path}.trailing", base + rd.pos)
    parts_r: list[Rows] = []
    parts_v: list[npt.NDArray[Any]] = []
    for part, sign in ((pos, 1), (neg, -1)):
        if part is None:
            continue
        mags = part.magnitudes
        big = mags.size and int(mags.max()) >= 1 << 63
        v: npt.NDArray[Any] = (np.array([sign * int(m) for m in mags], dtype=object) if big
                               else mags.astype(np.int64) * sign)
        parts_r.append(part.rows)
        parts_v.append(v)
    if len(parts_r) == 2 and np.intersect1d(parts_r[0], parts_r[1]).size:
        row = int(np.intersect1d(parts_r[0], parts_r[1])[0])
        raise _err(f"row {row} is in both the non-negative and the negative bitmap", "bsi-rows", f"{path}.negative.ebm", base)
    all_rows = np.concatenate(parts_r) if parts_r else _EMPTY.copy()
    all_vals = np.concatenate(parts_v) if parts_v else np.empty(0, dtype=np.int64)
    order = np.argsort(all_rows, kind="stable")
    return BsiIndex(rows, t, all_rows[order], all_vals[order], None if pos is None else (pos.min, pos.max),
                    None if neg is None else (neg.min, neg.max))
