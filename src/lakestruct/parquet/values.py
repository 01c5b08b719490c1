"""Decode a column chunk's pages into levels and values (parquet-format ``README.md`` §Data Pages, ``Encodings.md``).

The page walk itself (Thrift page headers) belongs to the structure layer; this
module takes what it found — a :class:`ChunkSpec` with one :class:`PageSpec` per
page, built from any ``PageHeader``-shaped object by :func:`page_spec` — plus a
``read(offset, length) -> bytes`` function, and returns a :class:`ChunkData`: per
page the repetition levels, definition levels and the non-null values.

Checks (each a :class:`~lakestruct.errors.FormatError` naming the absolute offset
and a path like ``row_groups[0].columns[2].pages[5].definition_levels``):
decoded level count == num_values, levels <= their max, repetition levels start
at 0 on a record boundary, v2 ``num_nulls``/``num_rows`` agree with the levels,
the values section holds the non-null count, dictionary indices are in range,
bit widths and varints are bounded, decompression stays within the declared size.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..errors import FormatError, LimitError, TruncatedError
from .assembly import SchemaNode, assemble_column, leaf_chains, leaf_converter, schema_tree, top_level_leaves
from .compression import decompress_page
from .encodings import ENCODINGS, PHYSICAL_TYPES, decode_plain, decode_values
from .levels import Where, bit_width, decode_bit_packed_legacy, decode_hybrid
from .read import ParquetFile

__all__ = [
    "ChunkData",
    "ChunkSpec",
    "DecodeBudget",
    "Entry",
    "PageData",
    "PageSpec",
    "chunk_spec",
    "column_levels",
    "column_values",
    "concat_levels",
    "decode_chunk",
    "iter_chunk",
    "iter_pages",
    "iter_values",
    "leaf_node",
    "level_histograms",
    "page_spec",
    "read_chunk",
    "read_column",
    "read_rows",
    "values_with_nulls",
]

Levels = npt.NDArray[np.int16]
Values = npt.NDArray[Any]

PAGE_TYPES = {0: "DATA_PAGE", 1: "INDEX_PAGE", 2: "DICTIONARY_PAGE", 3: "DATA_PAGE_V2"}
# A page may declare at most MIN_VALUE_CAP values, or this many per stored byte if more. Writers
# cap pages at 20,000 rows (parquet-java, pyarrow) or ~1 MB, so legitimate pages stay far below
# either bound, while a few crafted bytes (one RLE run of 2^31 nulls) cannot make levels and
# values allocate gigabytes: decoding costs at most ~100 bytes of memory per value.
VALUES_PER_BYTE = 64
MIN_VALUE_CAP = 1 << 22
# One decoding call (read_column, read_rows, column_values, iter_pages, ...) may decode at most
# max(MIN_VALUE_CAP, VALUES_PER_STORED_BYTE x the stored bytes of its pages, headers included)
# values in all: the per-page floor above cannot be multiplied by stacking tiny pages or chunks.
# Writers store at most ~600 values a byte (20,000-row all-null pages of ~35 bytes).
VALUES_PER_STORED_BYTE = 1024
# ... and may materialise at most max(MIN_VALUE_BYTES, VALUE_BYTES_PER_STORED_BYTE x stored bytes)
# bytes that dictionary references to byte arrays and DELTA_BYTE_ARRAY prefixes stand for (the
# same expansion bound as decompression; every other encoding produces at most what it reads).
MIN_VALUE_BYTES = 64 << 20
VALUE_BYTES_PER_STORED_BYTE = 1024
# A call that returns its values as one Python list (column_values / ParquetFile.values, read_rows) holds
# every value as a Python object (~50-80 bytes each, list slot included), so it may hold at most
# max(MIN_OBJECT_CAP, OBJECTS_PER_STORED_BYTE x stored bytes) values: ~80 MiB for any small file, and
# ~1.2 KB of objects per stored byte above it. iter_values streams page by page and is not bound by it.
MIN_OBJECT_CAP = 1 << 20
OBJECTS_PER_STORED_BYTE = 16


class DecodeBudget:
    """What one decoding call may produce, relative to the stored bytes it decodes.

    ``max_values`` and ``max_value_bytes`` replace the default bounds (see the module constants)
    with fixed ones, to read a file whose data is legitimately more repetitive than they allow.
    Chunks are counted with :meth:`add_chunk` before any of their pages is decoded; decoders
    :meth:`charge` the bytes they are about to materialise beyond their input.
    """

    __slots__ = ("max_value_bytes", "max_values", "objects", "stored", "value_bytes", "values")

    def __init__(self, max_values: int | None = None, max_value_bytes: int | None = None, *, objects: bool = False) -> None:
        self.max_values = max_values
        self.max_value_bytes = max_value_bytes
        self.objects = objects  # the call returns every value as a Python object (parquet.values.object-limit)
        self.stored = 0  # stored bytes of the pages counted so far
        self.values = 0  # values their data pages declare
        self.value_bytes = 0  # bytes charged so far

    @property
    def value_cap(self) -> int:
        return self.max_values if self.max_values is not None else max(MIN_VALUE_CAP, VALUES_PER_STORED_BYTE * self.stored)

    @property
    def object_cap(self) -> int:
        return self.max_values if self.max_values is not None else max(MIN_OBJECT_CAP, OBJECTS_PER_STORED_BYTE * self.stored)

    @property
    def byte_cap(self) -> int:
        if self.max_value_bytes is not None:
            return self.max_value_bytes
        return max(MIN_VALUE_BYTES, VALUE_BYTES_PER_STORED_BYTE * self.stored)

    def add_chunk(self, spec: ChunkSpec) -> None:
        """Count a chunk's stored bytes and the values its data pages declare (``parquet.values.count-limit``)."""
        declared = 0
        for p in spec.pages:
            self.stored += max(p.data_offset - p.offset, 0) + max(p.compressed_size, 0)
            if p.type in (0, 3) and p.num_values is not None and p.num_values > 0:
                declared += p.num_values
        cap = self.value_cap
        if self.values + declared > cap:
            for p in spec.pages:  # a page over its own bound is the more precise error
                if p.type in (0, 3) and p.num_values is not None:
                    _check_count(p.num_values, p, Where(f"{spec.where_path}.pages[{p.index}]", p.data_offset), self.max_values)
            before = f" after {self.values} in earlier chunks" if self.values else ""
            raise LimitError(
                f"the data pages declare {declared} values{before}, more than the {cap} that {self.stored} stored bytes justify "
                "(max_values= raises the limit)",
                rule="parquet.values.count-limit",
                path=f"{spec.where_path}.pages",
                offset=spec.pages[0].offset if spec.pages else None,
            )
        if self.objects and self.values + declared > self.object_cap:
            before = f" after {self.values} in earlier chunks" if self.values else ""
            raise LimitError(
                f"the data pages declare {declared} values{before}: as one list of Python objects that is more than the "
                f"{self.object_cap} that {self.stored} stored bytes justify (iter_values() streams them page by page; "
                "max_values= raises the limit)",
                rule="parquet.values.object-limit",
                path=f"{spec.where_path}.pages",
                offset=spec.pages[0].offset if spec.pages else None,
            )
        self.values += declared

    def charge(self, nbytes: int, where: Where, pos: int) -> None:
        """Count ``nbytes`` about to be materialised (``parquet.values.size-limit``)."""
        cap = self.byte_cap
        if self.value_bytes + nbytes > cap:
            where.fail(
                f"the values stand for {self.value_bytes + nbytes} bytes, more than the {cap} that {self.stored} stored bytes justify "
                "(max_value_bytes= raises the limit)",
                rule="parquet.values.size-limit",
                pos=pos,
                cls=LimitError,
            )
        self.value_bytes += nbytes


@dataclass(frozen=True)
class PageSpec:
    """What decoding needs to know about one page (from its Thrift ``PageHeader``)."""

    index: int
    offset: int  # of the page header
    data_offset: int  # of the stored page body
    type: int
    compressed_size: int
    uncompressed_size: int
    num_values: int | None = None
    encoding: int | None = None
    definition_level_encoding: int | None = None
    repetition_level_encoding: int | None = None
    num_nulls: int | None = None
    num_rows: int | None = None
    definition_levels_byte_length: int | None = None
    repetition_levels_byte_length: int | None = None
    is_compressed: bool = True

    @property
    def type_name(self) -> str:
        return PAGE_TYPES.get(self.type, str(self.type))


def _int(x: Any) -> int | None:
    return None if x is None else int(x)


def page_spec(index: int, offset: int, header_size: int, header: Any) -> PageSpec:
    """A :class:`PageSpec` from any object shaped like Parquet's Thrift ``PageHeader``."""
    ptype = _int(getattr(header, "type", None))
    common: dict[str, Any] = {
        "index": index,
        "offset": offset,
        "data_offset": offset + header_size,
        "type": -1 if ptype is None else ptype,
        "compressed_size": _int(getattr(header, "compressed_page_size", None)) or 0,
        "uncompressed_size": _int(getattr(header, "uncompressed_page_size", None)) or 0,
    }
    v1 = getattr(header, "data_page_header", None)
    v2 = getattr(header, "data_page_header_v2", None)
    dh = getattr(header, "dictionary_page_header", None)
    if ptype == 0 and v1 is not None:
        return PageSpec(
            **common,
            num_values=_int(v1.num_values),
            encoding=_int(v1.encoding),
            definition_level_encoding=_int(v1.definition_level_encoding),
            repetition_level_encoding=_int(v1.repetition_level_encoding),
        )
    if ptype == 3 and v2 is not None:
        return PageSpec(
            **common,
            num_values=_int(v2.num_values),
            encoding=_int(v2.encoding),
            num_nulls=_int(v2.num_nulls),
            num_rows=_int(v2.num_rows),
            definition_levels_byte_length=_int(v2.definition_levels_byte_length),
            repetition_levels_byte_length=_int(v2.repetition_levels_byte_length),
            is_compressed=v2.is_compressed is not False,
        )
    if ptype == 2 and dh is not None:
        return PageSpec(**common, num_values=_int(dh.num_values), encoding=_int(dh.encoding))
    return PageSpec(**common)


@dataclass(frozen=True)
class ChunkSpec:
    """One column chunk: its leaf column's properties and its pages in file order."""

    row_group: int
    column: int
    path: str  # dotted path_in_schema
    physical_type: int
    max_definition_level: int
    max_repetition_level: int
    codec: int
    pages: Sequence[PageSpec]
    type_length: int | None = None
    num_values: int | None = None  # ColumnMetaData.num_values
    num_rows: int | None = None  # RowGroup.num_rows

    @property
    def where_path(self) -> str:
        return f"row_groups[{self.row_group}].columns[{self.column}]"


@dataclass(frozen=True)
class PageData:
    """One decoded page. ``values`` holds the non-null values only (None for dictionary pages: see ``dictionary``)."""

    index: int
    type: int
    offset: int
    data_offset: int
    num_values: int
    encoding: int | None
    repetition_levels: Levels | None
    definition_levels: Levels | None
    values: Values | None
    dictionary: Values | None = None
    #: absolute file offsets of the level and value sections (None inside a compressed v1 body)
    repetition_levels_at: int | None = None
    definition_levels_at: int | None = None
    values_at: int | None = None
    compressed: bool = False

    @property
    def type_name(self) -> str:
        return PAGE_TYPES.get(self.type, str(self.type))

    @property
    def encoding_name(self) -> str | None:
        return None if self.encoding is None else ENCODINGS.get(self.encoding, str(self.encoding))


@dataclass(frozen=True)
class ChunkData:
    """A decoded column chunk: the data pages' levels and values, concatenated and per page."""

    spec: ChunkSpec
    pages: tuple[PageData, ...]
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def data_pages(self) -> tuple[PageData, ...]:
        return tuple(p for p in self.pages if p.type in (0, 3))

    def _cat(self, name: str, dtype: Any) -> Any:
        if name not in self._cache:
            parts = [getattr(p, name) for p in self.data_pages]
            parts = [p for p in parts if p is not None]
            self._cache[name] = np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)
        return self._cache[name]

    @property
    def num_values(self) -> int:
        return sum(p.num_values for p in self.data_pages)

    @property
    def repetition_levels(self) -> Levels:
        """All repetition levels (zeros when the column is not repeated)."""
        if self.spec.max_repetition_level == 0:
            return np.zeros(self.num_values, dtype=np.int16)
        r: Levels = self._cat("repetition_levels", np.int16)
        return r

    @property
    def definition_levels(self) -> Levels:
        """All definition levels (``max_definition_level`` everywhere when the column is required)."""
        if self.spec.max_definition_level == 0:
            return np.full(self.num_values, 0, dtype=np.int16)
        d: Levels = self._cat("definition_levels", np.int16)
        return d

    @property
    def values(self) -> Values:
        """The non-null values, in order."""
        if "values" not in self._cache:
            parts = [p.values for p in self.data_pages if p.values is not None]
            if not parts:
                self._cache["values"] = np.zeros(0, dtype=object)
            elif all(p.dtype == parts[0].dtype for p in parts):
                self._cache["values"] = np.concatenate(parts)
            else:
                self._cache["values"] = np.concatenate([p.astype(object) for p in parts])
        v: Values = self._cache["values"]
        return v


def level_histograms(chunk: ChunkData | PageData, max_repetition_level: int, max_definition_level: int) -> tuple[list[int], list[int]]:
    """How many entries have each repetition level 0..max and each definition level 0..max
    (``SizeStatistics`` / ``ColumnIndex`` level histograms; empty for a max level of 0, as writers store them)."""

    def hist(levels: Levels | None, mx: int, n: int) -> list[int]:
        if mx == 0:
            return []
        if levels is None:
            return [0] * mx + [n]
        return [int(x) for x in np.bincount(levels.astype(np.intp), minlength=mx + 1)[: mx + 1]]

    n = chunk.num_values
    return hist(chunk.repetition_levels, max_repetition_level, n), hist(chunk.definition_levels, max_definition_level, n)


def values_with_nulls(chunk: ChunkData) -> list[Any]:
    """One entry per level (leaf slot): the value, or None where the definition level is below the max.

    For a flat (non-repeated) column this is the column as a list of rows.
    """
    vals = chunk.values.tolist()
    maxd = chunk.spec.max_definition_level
    if maxd == 0:
        return list(vals)
    defined = (chunk.definition_levels == maxd).tolist()
    out: list[Any] = []
    it = iter(vals)
    for d in defined:
        out.append(next(it) if d else None)
    return out


def _levels(
    buf: bytes | memoryview,
    pos: int,
    end: int,
    encoding: int | None,
    max_level: int,
    count: int,
    where: Where,
    *,
    v1: bool,
) -> tuple[Levels, int]:
    bw = bit_width(max_level)
    what = where.path.rsplit(".", 1)[-1].replace("_", " ")
    if v1 and encoding == 4:
        vals, new = decode_bit_packed_legacy(buf, bw, count, where, start=pos, end=end, what=what)
    elif v1:
        if encoding != 3:
            where.fail(
                f"{what} use encoding {ENCODINGS.get(encoding or -1, encoding)}, expected RLE or BIT_PACKED",
                rule="parquet.levels.encoding",
                pos=pos,
            )
        if pos + 4 > end:
            where.fail(f"{what} length prefix runs past the page", rule="parquet.levels.truncated", pos=pos, cls=TruncatedError)
        n = int.from_bytes(bytes(buf[pos : pos + 4]), "little")
        if n > end - pos - 4:
            where.fail(
                f"{what} declare {n} bytes but only {end - pos - 4} remain", rule="parquet.levels.truncated", pos=pos, cls=TruncatedError
            )
        vals, used = decode_hybrid(buf, bw, count, where, start=pos + 4, end=pos + 4 + n, what=what, max_bw=bw)
        new = pos + 4 + n
        _no_extra_runs(used, new, count, where, what)
    else:
        vals, used = decode_hybrid(buf, bw, count, where, start=pos, end=end, what=what, max_bw=bw)
        new = end
        _no_extra_runs(used, end, count, where, what)
    if count and int(vals.max()) > max_level:
        bad = int(np.argmax(vals > max_level))
        where.fail(f"{what}[{bad}] = {int(vals[bad])} exceeds the column's max level {max_level}", rule="parquet.levels.range", pos=pos)
    return vals.astype(np.int16), new


def _no_extra_runs(used: int, end: int, count: int, where: Where, what: str) -> None:
    """Runs left after ``count`` levels mean the section holds more levels than the page declares."""
    if used < end:
        where.fail(
            f"the {what} hold more runs ({end - used} bytes) after the {count} levels the page declares",
            rule="parquet.levels.count",
            pos=used,
        )


def decode_chunk(
    spec: ChunkSpec,
    read: Callable[[int, int], bytes],
    *,
    values: bool = True,
    limit: int | None = None,
    budget: DecodeBudget | None = None,
) -> ChunkData:
    """Decode every page of ``spec``; ``read(offset, length)`` returns the file's bytes.

    ``values=False`` decodes the levels only (values sections are skipped).
    ``limit`` overrides the per-page decompressed-size cap (:func:`compression.page_limit`);
    ``budget`` bounds what the call may produce (a fresh :class:`DecodeBudget` by default).
    """
    return ChunkData(spec, tuple(iter_chunk(spec, read, values=values, limit=limit, budget=budget)))


def iter_chunk(
    spec: ChunkSpec,
    read: Callable[[int, int], bytes],
    *,
    values: bool = True,
    limit: int | None = None,
    budget: DecodeBudget | None = None,
) -> Iterator[PageData]:
    """:func:`decode_chunk` one page at a time: each page is read and decoded when it is asked for
    (the dictionary page too, before the data pages that use it). The chunk-level checks
    (``parquet.chunk-num-values``, ``parquet.chunk.num-rows``) run after the last page."""
    base = spec.where_path
    ptype = spec.physical_type
    if ptype not in PHYSICAL_TYPES:
        at = spec.pages[0].offset if spec.pages else None
        raise FormatError(f"unknown physical type {ptype}", rule="parquet.values.type", path=f"{base}.meta_data.type", offset=at)
    if budget is None:
        budget = DecodeBudget()
    budget.add_chunk(spec)
    dictionary: Values | None = None
    dict_lengths: npt.NDArray[np.int64] | None = None
    first_data = True
    seen = False
    rows = 0
    total_values = 0
    for page in spec.pages:
        pw = Where(f"{base}.pages[{page.index}]", page.data_offset)
        if page.compressed_size < 0 or page.uncompressed_size < 0:
            pw.fail(
                f"negative page size (compressed {page.compressed_size}, uncompressed {page.uncompressed_size})",
                rule="parquet.page-size",
                pos=0,
            )
        if page.type == 2:
            dictionary = _dictionary_page(spec, page, read, pw, limit)
            dict_lengths = None
            if dictionary.dtype == object:  # byte arrays: references to them are charged by length
                dict_lengths = np.fromiter((len(v) for v in dictionary), dtype=np.int64, count=len(dictionary))
            seen = True
            yield PageData(page.index, 2, page.offset, page.data_offset, len(dictionary), page.encoding, None, None, None, dictionary)
            continue
        if page.type not in (0, 3):
            continue  # INDEX_PAGE or unknown page types carry no data
        pd = _data_page(spec, page, read, pw, dictionary, dict_lengths, values, limit, first_data, budget)
        first_data = False
        seen = True
        total_values += pd.num_values
        rows += pd.num_values if pd.repetition_levels is None else int(np.count_nonzero(pd.repetition_levels == 0))
        yield pd
    if spec.num_values is not None and total_values != spec.num_values and seen:
        raise FormatError(
            f"the data pages hold {total_values} values but ColumnMetaData.num_values is {spec.num_values}",
            rule="parquet.chunk-num-values",
            path=f"{base}.meta_data.num_values",
            offset=spec.pages[0].offset if spec.pages else None,
        )
    if spec.num_rows is not None and rows != spec.num_rows and total_values:
        raise FormatError(
            f"the column chunk holds {rows} rows but its row group has {spec.num_rows}",
            rule="parquet.chunk.num-rows",
            path=f"{base}",
            offset=spec.pages[0].offset if spec.pages else None,
        )


def _body(spec: ChunkSpec, page: PageSpec, read: Callable[[int, int], bytes], pw: Where) -> bytes:
    data = read(page.data_offset, page.compressed_size)
    if len(data) != page.compressed_size:
        pw.fail(
            f"page body needs {page.compressed_size} bytes but the file has {len(data)}",
            rule="parquet.page.truncated",
            pos=0,
            cls=TruncatedError,
        )
    return data


def _dictionary_page(spec: ChunkSpec, page: PageSpec, read: Callable[[int, int], bytes], pw: Where, limit: int | None) -> Values:
    n = page.num_values
    if n is None:
        pw.fail("dictionary page without a DictionaryPageHeader", rule="parquet.page.header", pos=0)
    if n < 0:
        raise FormatError(
            f"dictionary page declares {n} values",
            rule="parquet.dictionary.num-values",
            path=pw.path + ".header.dictionary_page_header.num_values",
            offset=page.offset,
        )
    if page.encoding not in (0, 2):
        pw.fail(
            f"dictionary page encoding {ENCODINGS.get(page.encoding or -1, page.encoding)} is not PLAIN",
            rule="parquet.dictionary.encoding",
            pos=0,
        )
    _check_count(n, page, pw)
    stored = _body(spec, page, read, pw)
    body = decompress_page(spec.codec, stored, page.uncompressed_size, Where(pw.path + ".body", page.data_offset), limit=limit)
    w = Where(pw.path + ".dictionary", page.data_offset if body is stored else None, page.data_offset)
    vals, _ = decode_plain(body, 0, len(body), spec.physical_type, n, w, type_length=spec.type_length)
    return vals


def _check_count(n: int, page: PageSpec, pw: Where, floor: int | None = None) -> None:
    # relative to the stored bytes: a few compressed bytes may not claim billions of levels
    # (``floor``: a caller's max_values, which lifts this bound too)
    cap = max(MIN_VALUE_CAP if floor is None else floor, VALUES_PER_BYTE * page.compressed_size)
    if n > cap:
        raise LimitError(
            f"page declares {n} values, more than its {page.compressed_size} bytes justify",
            rule="parquet.page.num-values",
            path=pw.path + ".header.num_values",
            offset=page.offset,
        )


def _data_page(
    spec: ChunkSpec,
    page: PageSpec,
    read: Callable[[int, int], bytes],
    pw: Where,
    dictionary: Values | None,
    dict_lengths: npt.NDArray[np.int64] | None,
    want_values: bool,
    limit: int | None,
    first: bool,
    budget: DecodeBudget,
) -> PageData:
    n = page.num_values
    hdr = "data_page_header" if page.type == 0 else "data_page_header_v2"
    if n is None or page.encoding is None:
        pw.fail(f"{page.type_name} without its {hdr}", rule="parquet.page.header", pos=0)
    if n < 0:
        raise FormatError(
            f"data page declares {n} values", rule="parquet.page.num-values", path=f"{pw.path}.header.{hdr}.num_values", offset=page.offset
        )
    _check_count(n, page, pw, budget.max_values)
    maxd, maxr = spec.max_definition_level, spec.max_repetition_level
    stored = _body(spec, page, read, pw)
    rep: Levels | None = None
    dfn: Levels | None = None
    rep_at: int | None = None
    def_at: int | None = None
    values_at: int | None
    if page.type == 0:
        body = decompress_page(spec.codec, stored, page.uncompressed_size, Where(pw.path + ".body", page.data_offset), limit=limit)
        raw = body is stored
        bw = Where(pw.path, page.data_offset if raw else None, page.data_offset)
        pos = 0
        if maxr > 0:
            rep_at = page.data_offset + pos if raw else None
            rep, pos = _levels(body, pos, len(body), page.repetition_level_encoding, maxr, n, bw.sub(".repetition_levels"), v1=True)
        if maxd > 0:
            def_at = page.data_offset + pos if raw else None
            dfn, pos = _levels(body, pos, len(body), page.definition_level_encoding, maxd, n, bw.sub(".definition_levels"), v1=True)
        vbuf, vstart, vend = body, pos, len(body)
        values_at = page.data_offset + pos if raw else None
        vwhere = Where(pw.path + ".values", page.data_offset if raw else None, page.data_offset)
    else:
        rl = page.repetition_levels_byte_length or 0
        dl = page.definition_levels_byte_length or 0
        if rl < 0 or dl < 0 or rl + dl > page.compressed_size:
            pw.fail(
                f"level lengths {rl} + {dl} do not fit the page's {page.compressed_size} bytes", rule="parquet.page.level-lengths", pos=0
            )
        if rl + dl > page.uncompressed_size:
            pw.fail(
                f"level lengths {rl} + {dl} exceed uncompressed_page_size {page.uncompressed_size}",
                rule="parquet.page.level-lengths",
                pos=0,
            )
        lw = Where(pw.path, page.data_offset)
        rep_at = page.data_offset if maxr > 0 else None
        def_at = page.data_offset + rl if maxd > 0 else None
        values_at = page.data_offset + rl + dl
        if maxr > 0:
            rep, _ = _levels(stored, 0, rl, None, maxr, n, lw.sub(".repetition_levels"), v1=False)
        if maxd > 0:
            dfn, _ = _levels(stored, rl, rl + dl, None, maxd, n, lw.sub(".definition_levels"), v1=False)
        section = stored[rl + dl :]
        usize = page.uncompressed_size - rl - dl
        if want_values and spec.codec != 0 and page.is_compressed and len(section) > 0:
            vbuf = decompress_page(spec.codec, section, usize, Where(pw.path + ".values", page.data_offset + rl + dl), limit=limit)
            vwhere = Where(pw.path + ".values", None, page.data_offset + rl + dl)
        else:
            vbuf = section
            vwhere = Where(pw.path + ".values", page.data_offset + rl + dl)
        vstart, vend = 0, len(vbuf)
        nulls = 0 if dfn is None else int(np.count_nonzero(dfn < maxd))
        # parquet-cpp counts only leaf nulls (not empty or null lists) in num_nulls, so
        # the count is checked for non-repeated columns, where both readings agree.
        if page.num_nulls is not None and maxr == 0 and page.num_nulls != nulls:
            raise FormatError(
                f"DataPageHeaderV2.num_nulls is {page.num_nulls} but the definition levels hold {nulls} nulls",
                rule="parquet.page.num-nulls",
                path=f"{pw.path}.header.data_page_header_v2.num_nulls",
                offset=page.offset,
            )
        nrows = n if rep is None else int(np.count_nonzero(rep == 0))
        if page.num_rows is not None and page.num_rows != nrows:
            raise FormatError(
                f"DataPageHeaderV2.num_rows is {page.num_rows} but the repetition levels start {nrows} rows",
                rule="parquet.page.num-rows",
                path=f"{pw.path}.header.data_page_header_v2.num_rows",
                offset=page.offset,
            )
    if rep is not None and n and int(rep[0]) != 0 and (first or page.type == 3):
        raise FormatError(
            f"repetition levels start with {int(rep[0])}, but a {'column chunk' if first else 'v2 page'} starts a new record (0)",
            rule="parquet.levels.first-repetition",
            path=f"{pw.path}.repetition_levels",
            offset=page.data_offset,
        )
    if dfn is not None:
        if rep is not None:
            _check_nesting(rep, dfn, spec, pw, page)
        nonnull = int(np.count_nonzero(dfn == maxd))
    else:
        nonnull = n
    vals: Values | None = None
    if want_values:
        vals, _ = decode_values(
            vbuf,
            vstart,
            vend,
            page.encoding,
            spec.physical_type,
            nonnull,
            vwhere,
            type_length=spec.type_length,
            dictionary=dictionary,
            dictionary_lengths=dict_lengths,
            charge=budget.charge,
        )
        if len(vals) != nonnull:  # pragma: no cover - decoders return exactly what was asked
            raise FormatError(
                f"decoded {len(vals)} values, expected {nonnull}", rule="parquet.values.count", path=vwhere.path, offset=page.data_offset
            )
    return PageData(
        page.index,
        page.type,
        page.offset,
        page.data_offset,
        n,
        page.encoding,
        rep,
        dfn,
        vals,
        None,
        rep_at,
        def_at,
        values_at,
        spec.codec != 0,
    )


def _check_nesting(rep: Levels, dfn: Levels, spec: ChunkSpec, pw: Where, page: PageSpec) -> None:
    """A value continuing a list at repetition level r must define that list's element (no-op for sane writers)."""
    # Def level at which the r-th repeated ancestor's element exists is at least r.
    bad = np.nonzero(dfn < rep)[0]
    if len(bad):
        i = int(bad[0])
        raise FormatError(
            f"entry {i} repeats at level {int(rep[i])} but its definition level {int(dfn[i])} leaves that list undefined",
            rule="parquet.levels.inconsistent",
            path=f"{pw.path}.definition_levels",
            offset=page.data_offset,
        )


def concat_levels(chunks: Iterable[ChunkData]) -> tuple[Levels, Levels, Values]:
    """Repetition levels, definition levels and values of several chunks of one column, end to end."""
    cs = list(chunks)
    if not cs:
        z = np.zeros(0, dtype=np.int16)
        return z, z, np.zeros(0, dtype=object)
    vals = [c.values for c in cs]
    same = all(v.dtype == vals[0].dtype for v in vals)
    return (
        np.concatenate([c.repetition_levels for c in cs]),
        np.concatenate([c.definition_levels for c in cs]),
        np.concatenate(vals if same else [v.astype(object) for v in vals]),
    )


# --------------------------------------------------------------------------- file-level API
# Adapters over the structure layer's page walk (lakestruct.parquet.read.ParquetFile).


def chunk_spec(pf: ParquetFile, row_group: int, column: int | str | tuple[str, ...]) -> ChunkSpec:
    """The :class:`ChunkSpec` of one column chunk of an open :class:`~lakestruct.parquet.read.ParquetFile`."""
    desc = pf.column(column)
    if not 0 <= row_group < pf.num_row_groups:
        raise IndexError(f"row group {row_group} out of range (the file has {pf.num_row_groups})")
    if len(pf.metadata.row_groups[row_group].columns) != len(pf.columns()):
        # chunk i holds leaf i only when the counts agree (pyarrow refuses such files too)
        raise pf.row_group_columns_error(row_group)
    cc = pf.column_chunk(row_group, desc.index)
    md = cc.meta_data
    if md is not None and md.num_values == 0 and md.total_compressed_size == 0:
        pages: list[PageSpec] = []  # an empty chunk (pyarrow writes offsets 0 for a 0-row table)
    else:
        pages = [page_spec(p.index, p.offset, p.header_size, p.header) for p in pf.chunk_pages(row_group, desc.index)]
    return ChunkSpec(
        row_group=row_group,
        column=desc.index,
        path=desc.name,
        physical_type=int(desc.physical_type),
        max_definition_level=desc.max_definition_level,
        max_repetition_level=desc.max_repetition_level,
        codec=int(md.codec) if md is not None else 0,
        pages=pages,
        type_length=desc.type_length,
        num_values=md.num_values if md is not None else None,
        num_rows=pf.metadata.row_groups[row_group].num_rows,
    )


def read_chunk(
    pf: ParquetFile,
    row_group: int,
    column: int | str | tuple[str, ...],
    *,
    values: bool = True,
    limit: int | None = None,
    budget: DecodeBudget | None = None,
    max_values: int | None = None,
    max_value_bytes: int | None = None,
) -> ChunkData:
    """Decode one column chunk (levels, and values unless ``values=False``).

    ``max_values`` / ``max_value_bytes`` replace the default decoding bounds (:class:`DecodeBudget`)."""
    spec = chunk_spec(pf, row_group, column)
    if budget is None:
        budget = DecodeBudget(max_values, max_value_bytes)
    try:
        return decode_chunk(spec, pf.source.read, values=values, limit=limit, budget=budget)
    except FormatError as e:
        raise e.with_source(pf.name) from None


def read_column(
    pf: ParquetFile,
    column: int | str | tuple[str, ...],
    *,
    row_group: int | None = None,
    values: bool = True,
    limit: int | None = None,
    budget: DecodeBudget | None = None,
    max_values: int | None = None,
    max_value_bytes: int | None = None,
) -> list[ChunkData]:
    """Decode a leaf column's chunks (all row groups, or one), within one :class:`DecodeBudget`."""
    rgs = range(pf.num_row_groups) if row_group is None else [row_group]
    if budget is None:
        budget = DecodeBudget(max_values, max_value_bytes)
    return [read_chunk(pf, rg, column, values=values, limit=limit, budget=budget) for rg in rgs]


def iter_pages(
    pf: ParquetFile,
    column: int | str | tuple[str, ...],
    *,
    row_group: int | None = None,
    values: bool = True,
    limit: int | None = None,
    max_values: int | None = None,
    max_value_bytes: int | None = None,
) -> Iterator[tuple[ChunkSpec, PageData]]:
    """A leaf column decoded lazily, page by page (dictionary pages included), over all row groups
    or one: ``(chunk spec, page)`` pairs. Nothing is read or decoded before it is asked for, so
    stopping early (the CLI's ``--limit``) stops the work; memory holds one page at a time."""
    rgs = range(pf.num_row_groups) if row_group is None else [row_group]
    budget = DecodeBudget(max_values, max_value_bytes)
    for rg in rgs:
        spec = chunk_spec(pf, rg, column)
        try:
            for page in iter_chunk(spec, pf.source.read, values=values, limit=limit, budget=budget):
                yield spec, page
        except FormatError as e:
            raise e.with_source(pf.name) from None


class Entry(NamedTuple):
    """One level entry of a leaf column: its row group, repetition and definition levels, and value
    (None where the definition level is below the column's max)."""

    row_group: int
    r: int
    d: int
    value: Any


def leaf_node(pf: ParquetFile, column: int | str | tuple[str, ...]) -> SchemaNode:
    """The schema-tree node of a leaf column, found by its position (so sibling fields that share a
    name, which pyarrow reads, are told apart)."""
    desc = pf.column(column)
    chains = leaf_chains(schema_tree(pf.metadata.schema))
    return chains[desc.index][-1]


def _converter(pf: ParquetFile, node: SchemaNode) -> Callable[[Any], Any]:
    """``leaf_converter(node)`` with its warnings recorded in ``pf.warnings`` and its errors
    naming the footer and the file."""

    def warn(w: FormatError) -> None:
        w.offset = pf.footer.offset
        if not any((x.rule, x.path) == (w.rule, w.path) for x in pf.warnings):  # once per file, however often read
            pf.warnings.append(w.with_source(pf.name))

    try:
        return leaf_converter(node, warn)
    except FormatError as e:
        if e.offset is None:
            e.offset = pf.footer.offset
        raise e.with_source(pf.name) from None


def iter_values(
    pf: ParquetFile,
    column: int | str | tuple[str, ...],
    *,
    row_group: int | None = None,
    python: bool = True,
    limit: int | None = None,
    max_values: int | None = None,
    max_value_bytes: int | None = None,
) -> Iterator[Entry]:
    """A leaf column's level entries (:class:`Entry`), decoded page by page as they are consumed."""
    desc = pf.column(column)
    conv = _converter(pf, leaf_node(pf, desc.index)) if python else None
    maxd = desc.max_definition_level
    for spec, page in iter_pages(pf, desc.index, row_group=row_group, limit=limit, max_values=max_values, max_value_bytes=max_value_bytes):
        if page.type not in (0, 3):
            continue
        n = page.num_values
        rg = spec.row_group
        reps = [0] * n if page.repetition_levels is None else page.repetition_levels.tolist()
        defs = [maxd] * n if page.definition_levels is None else page.definition_levels.tolist()
        vals = iter([] if page.values is None else page.values.tolist())
        for r, d in zip(reps, defs, strict=True):
            if d == maxd:
                v = next(vals)
                if conv is not None:
                    try:
                        v = conv(v)
                    except FormatError as e:  # a value its type cannot hold (parquet.values.decimal-length)
                        raise _value_error(e, pf, spec, page) from None
                yield Entry(rg, r, d, v)
            else:
                yield Entry(rg, r, d, None)


def _value_error(e: FormatError, pf: ParquetFile, spec: ChunkSpec, page: PageData) -> FormatError:
    """A conversion error located: the page's value section (or its stored body), the chunk's path, the file."""
    e.offset = page.values_at if page.values_at is not None else page.data_offset
    e.path = f"{spec.where_path}.pages[{page.index}].values"
    return e.with_source(pf.name)


def read_rows(
    pf: ParquetFile,
    field_name: str | int,
    *,
    python: bool = True,
    limit: int | None = None,
    max_values: int | None = None,
    max_value_bytes: int | None = None,
) -> list[Any]:
    """The rows of a top-level field (by name, or by position among the top-level fields),
    assembled from all its leaves (Dremel), shaped as Arrow reads them (see
    :mod:`lakestruct.parquet.assembly`); ``python=True`` converts leaf values with
    :func:`~lakestruct.parquet.assembly.leaf_converter`. All leaves share one :class:`DecodeBudget`."""
    root = schema_tree(pf.metadata.schema)
    names = [c.name for c in root.children]
    if isinstance(field_name, int):
        if not 0 <= field_name < len(names):
            raise IndexError(f"top-level field {field_name} out of range (the file has {len(names)})")
        pos = field_name
    else:
        hits = [i for i, n in enumerate(names) if n == field_name]
        if not hits:
            raise KeyError(f"no top-level field {field_name!r}; fields: {', '.join(names)}")
        if len(hits) > 1:
            raise KeyError(f"{len(hits)} top-level fields are named {field_name!r} (positions {hits}): pass the position")
        pos = hits[0]
    top = root.children[pos]
    chains = leaf_chains(root)
    cols = top_level_leaves(root)[pos]
    paths = [tuple(n.name for n in chains[i]) for i in cols]
    if len(set(paths)) != len(paths):
        dup = next(p for p in paths if paths.count(p) > 1)
        raise FormatError(
            f"field {top.name!r} has sibling fields of the same name ({'.'.join(dup)}); rows cannot be assembled by name "
            "(read each leaf with values() or iter_values())",
            rule="parquet.schema.duplicate-name",
            path=f"schema[{top.element_index}]",
            offset=pf.footer.offset,
            source=pf.name,
        )
    convs: dict[int, Callable[[Any], Any]] = {}
    if python:
        for i in cols:
            convs[id(chains[i][-1])] = _converter(pf, chains[i][-1])
    budget = DecodeBudget(max_values, max_value_bytes, objects=True)
    leaves = {path: concat_levels(read_column(pf, i, limit=limit, budget=budget)) for path, i in zip(paths, cols, strict=True)}

    def conv(node: SchemaNode, v: Any) -> Any:
        return convs[id(node)](v)

    try:
        return assemble_column(top, leaves, leaf=conv if python else None)
    except FormatError as e:
        raise e.with_source(pf.name) from None


def column_levels(
    pf: ParquetFile,
    column: int | str | tuple[str, ...],
    *,
    row_group: int | None = None,
    max_values: int | None = None,
    max_value_bytes: int | None = None,
) -> list[ChunkData]:
    """Repetition and definition levels of a leaf column, per chunk and page (values not decoded).

    Meant as ``ParquetFile.levels`` (``pq.levels("nest.repeated.nest.repeated")``).
    """
    return read_column(pf, column, row_group=row_group, values=False, max_values=max_values, max_value_bytes=max_value_bytes)


def column_values(
    pf: ParquetFile,
    column: int | str | tuple[str, ...],
    *,
    row_group: int | None = None,
    python: bool = True,
    max_values: int | None = None,
    max_value_bytes: int | None = None,
) -> list[Any]:
    """A leaf column's values, one entry per level (None where undefined), over all row groups or one.

    For a flat column this is the column as a list of rows; ``python=True`` converts the values
    with :func:`~lakestruct.parquet.assembly.leaf_converter` (str, Decimal, ...). Meant as
    ``ParquetFile.values`` (``pq.values("col")``); :func:`iter_values` streams the same entries.
    """
    desc = pf.column(column)
    conv = _converter(pf, leaf_node(pf, desc.index)) if python else None
    out: list[Any] = []
    budget = DecodeBudget(max_values, max_value_bytes, objects=True)
    chunks = read_column(pf, desc.index, row_group=row_group, budget=budget)
    for c in chunks:
        out.extend(values_with_nulls(c))
    if conv is None:
        return out
    try:
        return [None if v is None else conv(v) for v in out]
    except FormatError:
        for c in chunks:  # find the page (a rare path: the error is redone page by page to locate it)
            for page in c.data_pages:
                for v in [] if page.values is None else page.values.tolist():
                    try:
                        conv(v)
                    except FormatError as e:
                        raise _value_error(e, pf, c.spec, page) from None
        raise
