"""The page index: ColumnIndex and OffsetIndex of a column chunk (PQF ``PageIndex.md``).

Both are Thrift structs located by ``ColumnChunk.{column,offset}_index_{offset,length}``.
Rules: ``parquet.page-index-range`` (the stored range is outside the file or negative),
``parquet.page-index-length`` (the struct does not use exactly the stored length),
``parquet.column-index-shape`` (ColumnIndex lists of different lengths),
``parquet.offset-index-order`` (page offsets / first rows not increasing, or
pages outside the chunk) and ``parquet.offset-index-pages`` (OffsetIndex disagrees
with the page walk), the last two from :func:`check_offset_index`.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import FormatError
from ..thrift.typed import from_raw
from .model import ColumnChunk, ColumnIndex, OffsetIndex, ThriftModel, Type

if TYPE_CHECKING:
    from .read import Page, ParquetFile

__all__ = ["check_file", "column_index", "offset_index", "check_offset_index", "column_index_bounds", "decode_bound"]

M = TypeVar("M", bound=ThriftModel)


def _read_struct(pq: ParquetFile, cls: type[M], offset: int | None, length: int | None, path: str) -> M | None:
    if offset is None or length is None:
        return None
    if offset < 4 or length <= 0 or offset + length > pq.footer.offset:
        raise FormatError(
            f"{cls.__name__} range [{offset}, {offset}+{length}) is outside [4, {pq.footer.offset})",
            rule="parquet.page-index-range",
            path=path,
            offset=offset,
            source=pq.name,
        )
    data = pq.source.read_exact(offset, length, rule="parquet.page-index-range", path=path)
    from .read import _engine

    try:
        raw, used = _engine(pq.engine)(data, 0, base=offset, path=path)
        model = from_raw(cls, raw, path=path, offset=offset)
    except FormatError as e:
        raise e.with_source(pq.name) from None
    if used != length:
        raise FormatError(
            f"{cls.__name__} uses {used} bytes but its stored length is {length}",
            rule="parquet.page-index-length",
            path=path,
            offset=offset + used,
            source=pq.name,
        )
    return model


def _chunk(pq: ParquetFile, row_group: int, column: int | str) -> tuple[int, ColumnChunk]:
    """The leaf index and the ColumnChunk; a row group whose chunks are not one per leaf is
    ``parquet.row-group-columns`` (as ``check()`` says), whichever column is asked for."""
    col = column if isinstance(column, int) else pq.column(column).index
    rgs = pq.metadata.row_groups
    if 0 <= row_group < len(rgs) and len(rgs[row_group].columns) != len(pq.columns()):
        raise pq.row_group_columns_error(row_group)
    return col, pq.column_chunk(row_group, col)


def column_index(pq: ParquetFile, row_group: int, column: int | str) -> ColumnIndex | None:
    """The chunk's ColumnIndex, or None when it has none."""
    col, cc = _chunk(pq, row_group, column)
    path = f"row_groups[{row_group}].columns[{col}].column_index"
    ci = _read_struct(pq, ColumnIndex, cc.column_index_offset, cc.column_index_length, path)
    if ci is not None:
        n = len(ci.null_pages)
        lists: dict[str, tuple[object, ...] | None] = {
            "min_values": ci.min_values,
            "max_values": ci.max_values,
            "null_counts": ci.null_counts,
            "nan_counts": ci.nan_counts,
        }
        for name, lst in lists.items():
            if lst is not None and len(lst) != n:
                raise FormatError(
                    f"{name} has {len(lst)} entries but null_pages has {n}",
                    rule="parquet.column-index-shape",
                    path=f"{path}.{name}",
                    offset=cc.column_index_offset,
                    source=pq.name,
                )
    return ci


def offset_index(pq: ParquetFile, row_group: int, column: int | str) -> OffsetIndex | None:
    """The chunk's OffsetIndex, or None when it has none."""
    col, cc = _chunk(pq, row_group, column)
    path = f"row_groups[{row_group}].columns[{col}].offset_index"
    return _read_struct(pq, OffsetIndex, cc.offset_index_offset, cc.offset_index_length, path)


def check_offset_index(pq: ParquetFile, row_group: int, column: int, pages: list[Page] | None = None) -> None:
    """Hold the OffsetIndex to the page walk: one location per data page, same offsets and
    sizes (header included), increasing first_row_index starting at 0."""
    oi = offset_index(pq, row_group, column)
    if oi is None:
        return
    path = f"row_groups[{row_group}].columns[{column}].offset_index"
    off = pq.column_chunk(row_group, column).offset_index_offset
    data_pages = [p for p in (pages if pages is not None else list(pq.chunk_pages(row_group, column))) if p.is_data]
    locs = oi.page_locations
    prev_row = -1
    for i, loc in enumerate(locs):
        if loc.first_row_index <= prev_row or (i == 0 and loc.first_row_index != 0):
            raise FormatError(
                f"page_locations[{i}].first_row_index {loc.first_row_index} does not increase from {prev_row}",
                rule="parquet.offset-index-order",
                path=f"{path}.page_locations[{i}]",
                offset=off,
                source=pq.name,
            )
        prev_row = loc.first_row_index
    if len(locs) != len(data_pages):
        raise FormatError(
            f"the OffsetIndex lists {len(locs)} pages, the chunk has {len(data_pages)} data pages",
            rule="parquet.offset-index-pages",
            path=path,
            offset=off,
            source=pq.name,
        )
    for i, (loc, p) in enumerate(zip(locs, data_pages, strict=True)):
        if loc.offset != p.offset or loc.compressed_page_size != p.header_size + p.compressed_size:
            raise FormatError(
                f"page_locations[{i}] = ({loc.offset}, {loc.compressed_page_size}) but the page walk found "
                f"({p.offset}, {p.header_size + p.compressed_size})",
                rule="parquet.offset-index-pages",
                path=f"{path}.page_locations[{i}]",
                offset=off,
                source=pq.name,
            )


_BOUND_FORMATS = {0: "?", 1: "<i", 2: "<q", 4: "<f", 5: "<d"}
_BOUND_WIDTHS = {0: 1, 1: 4, 2: 8, 3: 12, 4: 4, 5: 8}


def decode_bound(raw: bytes, physical_type: int, type_length: int | None = None, *, path: str = "column_index") -> Any:
    """A ColumnIndex (or Statistics) min/max value as its physical type: PLAIN bytes, without the
    BYTE_ARRAY length prefix (PQF ``PageIndex.md``). ``bool``, ``int``, ``float``, or ``bytes`` for
    BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY (writers may truncate these) and INT96.
    A fixed-width value of another size raises ``parquet.column-index-value``."""
    pt = int(physical_type)
    if pt in (6, 7):
        return bytes(raw)
    width = _BOUND_WIDTHS.get(pt)
    if width is None or len(raw) != width:
        raise FormatError(
            f"a bound of physical type {pt} takes {width} bytes, this one has {len(raw)}", rule="parquet.column-index-value", path=path
        )
    if pt == 3:
        return bytes(raw)
    v: Any = struct.unpack(_BOUND_FORMATS[pt], raw)[0]
    return v


def column_index_bounds(pq: ParquetFile, row_group: int, column: int | str) -> tuple[list[Any], list[Any]] | None:
    """The chunk's ColumnIndex ``min_values`` and ``max_values`` decoded with the column's physical
    and logical type, by the converter the values layer uses (``str``, ``Decimal``, unsigned ints,
    ...): None for null pages. A bound that cannot be decoded stays ``bytes`` and a
    ``parquet.column-index-value`` warning goes to ``pq.warnings``; so does the conversion error of
    an impossible annotation (the physical value is kept). None when the chunk has no ColumnIndex."""
    from .values import _converter, leaf_node

    col = column if isinstance(column, int) else pq.column(column).index
    ci = column_index(pq, row_group, col)
    if ci is None:
        return None
    desc = pq.column(col)
    offset = pq.column_chunk(row_group, col).column_index_offset
    try:
        conv = _converter(pq, leaf_node(pq, col))
    except FormatError as e:
        pq.warnings.append(e)
        conv = None

    def one(raw: bytes, null: bool, name: str, i: int) -> Any:
        if null:
            return None
        path = f"row_groups[{row_group}].columns[{col}].column_index.{name}[{i}]"
        try:
            v = decode_bound(raw, desc.physical_type, desc.type_length, path=path)
        except FormatError as e:
            e.offset = offset
            pq.warnings.append(e.with_source(pq.name))
            return bytes(raw)
        if conv is None or (desc.physical_type == 7 and len(raw) != desc.type_length):
            return v  # a truncated FIXED_LEN_BYTE_ARRAY bound stays bytes
        try:
            return conv(v)
        except FormatError as e:  # a value the type cannot hold (parquet.values.decimal-length): the stored bytes
            e.path, e.offset = path, offset
            pq.warnings.append(e.with_source(pq.name))
            return v

    mins = [one(r, n, "min_values", i) for i, (r, n) in enumerate(zip(ci.min_values, ci.null_pages, strict=True))]
    maxs = [one(r, n, "max_values", i) for i, (r, n) in enumerate(zip(ci.max_values, ci.null_pages, strict=True))]
    return mins, maxs


def check_file(pq: ParquetFile) -> int:
    """``ParquetFile.check()``: every structural check: the schema, every page header of every chunk, pages tiling
    each chunk exactly (``parquet.chunk-size``, kept as a warning when the stated size is
    short), data-page value counts summing to ``num_values`` (``parquet.chunk-num-values``),
    each OffsetIndex against the walk, and every page CRC that is present (``parquet.page-crc``).
    Encrypted columns raise :class:`~lakestruct.parquet.read.EncryptedError`. A schema element whose physical type is
    none of ``Type``'s values (kept as a plain int on reading) is ``parquet.schema.physical-type``.
    Returns the number of pages."""
    leaves = len(pq.columns())
    for i, el in enumerate(pq.metadata.schema):
        if el.type is not None and not isinstance(el.type, Type):
            raise FormatError(
                f"schema element {el.name!r} has physical type {el.type}, which is not a Parquet type (0-7: BOOLEAN to "
                "FIXED_LEN_BYTE_ARRAY)",
                rule="parquet.schema.physical-type",
                path=f"footer.schema[{i}].type",
                offset=pq.footer.offset,
                source=pq.name,
            )
    n = 0
    for rg in range(pq.num_row_groups):
        ncols = len(pq.metadata.row_groups[rg].columns)
        if ncols != leaves:
            raise pq.row_group_columns_error(rg)
        for col in range(ncols):
            pages = list(pq.chunk_pages(rg, col))
            start, end = pq.chunk_range(rg, col)
            md = pq._chunk_meta(rg, col)
            path = f"footer.row_groups[{rg}].columns[{col}].meta_data"
            last = pages[-1].end if pages else start
            if last < end:
                raise FormatError(
                    f"the pages end at {last} but total_compressed_size says the chunk ends at {end}",
                    rule="parquet.chunk-size",
                    path=path,
                    offset=last,
                    source=pq.name,
                )
            values = sum(p.num_values or 0 for p in pages if p.is_data)
            if values != md.num_values:
                raise FormatError(
                    f"the data pages hold {values} values but num_values is {md.num_values}",
                    rule="parquet.chunk-num-values",
                    path=f"{path}.num_values",
                    offset=start,
                    source=pq.name,
                )
            check_offset_index(pq, rg, col, pages)
            for page in pages:
                pq.check_page_crc(page)
            n += len(pages)
    return n
