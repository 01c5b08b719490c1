"""Paimon data-file indexes (``FileIndexFormat``): the head of a ``<data file>.index`` file or of a manifest entry's
``_EMBEDDED_FILE_INDEX``, listing per column each index type and where its payload is
(``formats/paimon/paimon_file_index.ksy`` shows the layout), and the probes of its payloads
(:mod:`lakestruct.paimon.indexes`): :meth:`FileIndex.probe` asks every index of a column about a value.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import FormatError, MagicError, TruncatedError, UsageError
from ..source import SourceLike, open_source
from .indexes import (
    BITMAP,
    BLOOM_FILTER,
    BSI,
    BitmapIndex,
    BloomFilter,
    BsiIndex,
    indexes_type,
    parse_bitmap,
    parse_bloom_filter,
    parse_bsi,
)
from .spec import FILE_INDEX_MAGIC
from .types import DataType

__all__ = ["OPS", "FileIndex", "IndexRef", "Probe", "parse_file_index", "read_file_index"]

#: The predicates :meth:`FileIndex.probe` asks: equality (a value, or None for IS NULL) and the four comparisons.
OPS = ("eq", "lt", "le", "gt", "ge")


@dataclass(frozen=True)
class IndexRef:
    """One index of one column: its type and the absolute offset and length of its payload (start -1: empty)."""

    column: str
    type: str
    start: int
    length: int
    path: str = ""  # where the entry is in the head (columns[c].indexes[j])


@dataclass(frozen=True)
class Probe:
    """What one index of a column answers about a predicate (``column op value``):

    * ``"absent"``: no row of the file can match (``rows`` is empty for exact indexes);
    * ``"maybe"``: a bloom filter cannot rule the value out;
    * ``"rows"``: the exact rows (positions in the data file as written; deletion vectors are not applied);
    * ``"unsupported"``: this index type cannot answer this predicate (``reason`` says why).
    """

    column: str
    type: str
    answer: str
    rows: npt.NDArray[np.int64] | None = field(default=None, compare=False)
    reason: str = ""

    @property
    def might_match(self) -> bool | None:
        """False when the index proves no row matches, True when some may (or do), None when it cannot say."""
        if self.answer == "unsupported":
            return None
        if self.answer == "rows":
            return bool(self.rows is not None and self.rows.size)
        return self.answer == "maybe"


@dataclass(frozen=True)
class FileIndex:
    """The head of a data-file index and the image's bytes."""

    head_length: int
    indexes: tuple[IndexRef, ...]
    data: bytes = field(repr=False)
    _readers: dict[tuple[IndexRef, DataType], Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def kinds(self) -> list[str]:
        """The index types present, in order of first appearance."""
        return list(dict.fromkeys(r.type for r in self.indexes))

    def payload(self, ref: IndexRef) -> bytes:
        return b"" if ref.start < 0 else self.data[ref.start : ref.start + ref.length]

    def columns(self) -> list[str]:
        return list(dict.fromkeys(r.column for r in self.indexes))

    def refs(self, column: str) -> list[IndexRef]:
        return [r for r in self.indexes if r.column == column]

    def reader(self, ref: IndexRef, t: DataType, *, row_count: int | None = None) -> BloomFilter | BitmapIndex | BsiIndex | None:
        """The parsed payload of a bloom-filter, bitmap or bsi index (for a column of type ``t``); None for an empty
        index (start -1) and for index types lakestruct does not read. ``row_count``: the data file's, which a
        bitmap's or BSI's must equal (``paimon.file-index.row-count``)."""
        if ref.start < 0 or ref.type not in (BLOOM_FILTER, BITMAP, BSI):
            return None
        hit = self._readers.get((ref, t))
        if hit is None:
            data, path = self.payload(ref), f"{ref.path}.payload"
            if ref.type == BLOOM_FILTER:
                hit = parse_bloom_filter(data, base=ref.start, path=path)
            elif ref.type == BITMAP:
                hit = parse_bitmap(data, t, base=ref.start, path=path)
            else:
                hit = parse_bsi(data, t, base=ref.start, path=path, row_count=row_count)  # the row count before decoding
            self._readers[(ref, t)] = hit
        if row_count is not None and isinstance(hit, (BitmapIndex, BsiIndex)) and hit.row_count != row_count:
            raise _err(f"the index counts {hit.row_count} rows, the data file has {row_count}", "row-count",
                       f"{ref.path}.payload.row_count", ref.start + 1)
        out: BloomFilter | BitmapIndex | BsiIndex = hit
        return out

    def probe(self, column: str, value: Any, t: DataType, op: str = "eq", *, row_count: int | None = None) -> list[Probe]:
        """Ask every index of ``column`` (of type ``t``) whether rows with ``column op value`` can be in the file
        (``op`` one of :data:`OPS`; ``value`` None with ``eq``: IS NULL). Bloom filters answer equality, bitmaps
        equality and IS NULL with the exact rows, bit-sliced indexes all five with the exact rows; an empty index
        (the column holds no value) rules out every comparison with a value. ``row_count``: the data file's (see
        :meth:`reader`)."""
        if op not in OPS:
            raise UsageError(f"op is one of {', '.join(OPS)}, not {op!r}")
        if value is None and op != "eq":
            raise UsageError("a comparison with null matches no row; ask op='eq' with None for IS NULL")
        out = []
        for ref in self.refs(column):
            out.append(self._probe(ref, value, t, op, row_count))
        return out

    def _probe(self, ref: IndexRef, value: Any, t: DataType, op: str, row_count: int | None) -> Probe:
        def no(reason: str) -> Probe:
            return Probe(ref.column, ref.type, "unsupported", None, reason)

        if ref.start < 0:  # EmptyFileIndexReader: the file holds no value of the column
            if value is None:
                return no("an empty index does not say which rows are null")
            return Probe(ref.column, ref.type, "absent", np.empty(0, dtype=np.int64))
        if ref.type not in (BLOOM_FILTER, BITMAP, BSI):
            return no(f"lakestruct does not read {ref.type!r} indexes")
        if ref.type == BLOOM_FILTER:
            if op != "eq":
                return no("a bloom filter answers equality only")
            if value is None:
                return no("a bloom filter holds no nulls")
        if ref.type == BITMAP and op != "eq":
            return no("a bitmap index answers equality and IS NULL only")
        if not indexes_type(ref.type, t):
            return no(f"Paimon builds no {ref.type} index for {t}")
        r = self.reader(ref, t, row_count=row_count)
        if isinstance(r, BloomFilter):
            return Probe(ref.column, ref.type, "maybe" if r.might_contain(value, t) else "absent")
        if isinstance(r, BitmapIndex):
            return Probe(ref.column, ref.type, "rows", r.rows(value))
        assert isinstance(r, BsiIndex)
        if op == "eq":
            rows = r.rows(value)
        else:
            lo = value if op in ("gt", "ge") else None
            hi = value if op in ("lt", "le") else None
            rows = r.rows_between(lo, hi, lo_inclusive=op == "ge", hi_inclusive=op == "le")
        return Probe(ref.column, ref.type, "rows", rows)


def _err(msg: str, rule: str, path: str, offset: int) -> FormatError:
    return FormatError(msg, rule=f"paimon.file-index.{rule}", path=path, offset=offset)


#: The tail magic of a version-2 container (``FileIndexFormatV2``): ASCII ``PAFIDX02``.
TAIL_MAGIC_V2 = b"PAFIDX02"


def parse_file_index(data: bytes) -> FileIndex:
    """A data-file index image, every offset checked against the image (rules ``paimon.file-index.*``).

    Version 1 (``FileIndexFormatV1``): magic, version, head length, then the head (columns, index types, int32
    absolute payload offsets and lengths, reserved bytes) and the bodies. Version 2 (``FileIndexFormatV2``, newer
    Paimon): magic, version, the bodies, then a footer of the same columns with int64 offsets and lengths, its
    length and the tail magic ``PAFIDX02``."""
    n = len(data)
    if n < 12:
        raise TruncatedError(f"a file index has at least 12 bytes, this one {n}", rule="paimon.file-index.truncated", path="head", offset=0)
    if data[:8] != FILE_INDEX_MAGIC:
        raise MagicError(f"expected {FILE_INDEX_MAGIC.hex(' ')}, found {data[:8].hex(' ')}", rule="paimon.file-index.magic",
                         path="magic", offset=0)
    version = struct.unpack_from(">i", data, 8)[0]
    if version == 2:
        return _parse_v2(data)
    if version != 1:
        raise _err(f"version {version}: Paimon reads versions 1 and 2", "version", "version", 8)
    if n < 24:
        raise TruncatedError(f"a version-1 file index has at least 24 bytes, this one {n}", rule="paimon.file-index.truncated",
                             path="head", offset=12)
    head = struct.unpack_from(">i", data, 12)[0]
    if not 24 <= head <= n:
        raise _err(f"head length {head} does not fit the {n}-byte image", "head-length", "len_head", 12)
    refs, p = _entries(data, 16, head, head, n, 1, "")
    if p + 4 > head:
        raise TruncatedError(f"the head ends at {head}, the field needs 4 bytes at {p}", rule="paimon.file-index.truncated",
                             path="len_redundant", offset=p)
    red = struct.unpack_from(">i", data, p)[0]
    if red < 0 or p + 4 + red > head:
        raise _err(f"redundant length {red} does not fit the head", "redundant-length", "len_redundant", p)
    return FileIndex(head, tuple(refs), data)


def _parse_v2(data: bytes) -> FileIndex:
    n = len(data)
    if n < 24:
        raise TruncatedError(f"a version-2 file index has at least 24 bytes, this one {n}", rule="paimon.file-index.truncated",
                             path="trailer", offset=12)
    if data[-8:] != TAIL_MAGIC_V2:
        raise MagicError(f"a version-2 file index ends with {TAIL_MAGIC_V2!r}, this one with {data[-8:].hex(' ')}",
                         rule="paimon.file-index.tail-magic", path="trailer.tail_magic", offset=n - 8)
    footer_len = struct.unpack_from(">i", data, n - 12)[0]
    footer = n - 12 - footer_len
    if footer_len < 4 or footer < 12:
        raise _err(f"footer length {footer_len} does not fit the {n}-byte image (the body starts at 12)", "footer-length",
                   "trailer.len_footer", n - 12)
    refs, _ = _entries(data, footer, n - 12, 12, footer, 2, "footer.")
    return FileIndex(12, tuple(refs), data)


def _entries(data: bytes, p: int, end: int, body: int, body_end: int, version: int, prefix: str) -> tuple[list[IndexRef], int]:
    """The columns and index entries at ``data[p:end]``: (refs, position after them). Payloads must lie in
    ``[body, body_end)``; offsets and lengths are int32 (version 1) or int64 (version 2)."""
    refs: list[IndexRef] = []
    width = 8 if version == 1 else 16

    def need(k: int, path: str) -> None:
        if p + k > end:
            where = "head" if version == 1 else "footer"
            raise TruncatedError(f"the {where} ends at {end}, the field needs {k} bytes at {p}", rule="paimon.file-index.truncated",
                                 path=prefix + path, offset=p)

    def utf(path: str) -> str:
        nonlocal p
        need(2, path)
        k = int.from_bytes(data[p : p + 2], "big")
        p += 2
        need(k, path)
        try:
            s = data[p : p + k].decode("utf-8")
        except UnicodeDecodeError as e:
            raise _err(f"not valid UTF-8: {e.reason}", "utf8", prefix + path, p) from None
        p += k
        return s

    need(4, "num_columns")
    ncols = struct.unpack_from(">i", data, p)[0]
    if ncols < 0 or ncols * 6 > end - p:
        raise _err(f"{ncols} columns cannot fit {end - p} bytes", "columns", prefix + "num_columns", p)
    p += 4
    for c in range(ncols):
        name = utf(f"columns[{c}].name")
        need(4, f"columns[{c}].num_indexes")
        k = struct.unpack_from(">i", data, p)[0]
        if k < 0 or k * (2 + width) > end - p:
            raise _err(f"{k} indexes cannot fit {end - p} bytes", "indexes", f"{prefix}columns[{c}].num_indexes", p)
        p += 4
        for j in range(k):
            path = f"{prefix}columns[{c}].indexes[{j}]"
            t = utf(f"columns[{c}].indexes[{j}].type")
            need(width, f"columns[{c}].indexes[{j}]")
            start, length = struct.unpack_from(">ii" if version == 1 else ">qq", data, p)
            if start != -1 and (start < body or length < 0 or start + length > body_end):
                raise _err(f"the payload ({start}, {length}) lies outside the body [{body}, {body_end})", "payload-range", path, p)
            refs.append(IndexRef(name, t, start, length, path))
            p += width
    return refs, p


def read_file_index(source: SourceLike) -> FileIndex:
    """A ``<data file>.index`` file (path, bytes, file object or URL)."""
    with open_source(source) as src:
        data = src.read(0, src.size)
        try:
            return parse_file_index(data)
        except FormatError as e:
            raise e.with_source(src.name) from None
