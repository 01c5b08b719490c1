"""Reading Parquet structure: the footer (one tail read), leaf columns, every page header.

>>> pq = lakestruct.parquet.open("x.parquet")              # doctest: +SKIP
>>> pq.metadata.num_rows, [c.name for c in pq.columns()]
>>> for page in pq.pages(column="a.b"):
...     page.offset, page.header_size, page.type, page.compressed_size
>>> pq.read_page_body(page)                                # the stored (compressed) bytes

Rules (``FormatError.rule``): ``parquet.min-size``, ``parquet.header-magic``,
``parquet.trailing-magic``, ``parquet.footer-length``, ``parquet.encrypted``
(:class:`EncryptedError`), ``parquet.schema``, ``parquet.column-missing-metadata``,
``parquet.chunk-range``, ``parquet.page-size``, ``parquet.page-overrun``, ``parquet.row-group-columns``,
``parquet.external-chunk``, ``parquet.chunk-size``, ``parquet.chunk-num-values`` and
``parquet.schema.physical-type`` (:meth:`ParquetFile.check`), plus the ``thrift.*`` rules of the decoder and those of
``index``/``bloom``.
"""

from __future__ import annotations

import itertools
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import ChecksumError, FormatError, LimitError, MagicError, TruncatedError
from ..source import ByteSource, SourceLike, closing_on_error, open_source
from ..thrift import compact
from ..thrift import kaitai as thrift_kaitai
from ..thrift.typed import decode_model, from_raw
from .model import (
    ColumnChunk,
    ColumnIndex,
    ColumnMetaData,
    FieldRepetitionType,
    FileCryptoMetaData,
    FileMetaData,
    OffsetIndex,
    PageHeader,
    PageType,
    SchemaElement,
    Statistics,
    Type,
    enum_name,
)
from .pages import scan_pages

if TYPE_CHECKING:  # types only: read.py imports no module built on it
    from .bloom import SplitBlockBloomFilter
    from .values import ChunkData

__all__ = [
    "MAGIC",
    "MAGIC_ENCRYPTED",
    "DEFAULT_TAIL_HINT",
    "EncryptedError",
    "ColumnDescriptor",
    "FooterInfo",
    "Page",
    "ParquetFile",
    "open",
    "parse_footer",
    "decode_page_header",
    "leaf_columns",
]

MAGIC = b"PAR1"
MAGIC_ENCRYPTED = b"PARE"
#: Bytes read from the end on open; a footer that fits costs one read.
DEFAULT_TAIL_HINT = 64 * 1024
#: "PAR1" + footer length + "PAR1"
MIN_FILE_SIZE = 12
#: Page headers are read through windows of at least this many bytes.
HEADER_WINDOW = 64 * 1024
#: Column chunks up to this size are fetched with one read when walked.
CHUNK_READ_MAX = 4 * 1024 * 1024
#: On remote sources (object storage: every read is a request, every byte is paid for) page headers are
#: read through windows this small (doubled while a header does not fit) and chunks are never fetched whole:
#: a page walk costs about 1 KiB per page.
REMOTE_HEADER_WINDOW = 1024


class EncryptedError(FormatError):
    """The file (``PARE`` footer) or a column (encrypted column metadata) is encrypted: not readable without keys."""


@dataclass(frozen=True)
class FooterInfo:
    """Where the footer is: ``offset`` of the Thrift FileMetaData, its ``length`` (the stored
    footer length), the bytes the Thrift struct actually used (``thrift_length``; a plaintext
    footer of an encrypted file is followed by a 28-byte signature), and the file size."""

    file_size: int
    offset: int
    length: int
    thrift_length: int

    @property
    def trailing_bytes(self) -> int:
        """Bytes between the end of the Thrift struct and the footer length (28: a footer signature)."""
        return self.length - self.thrift_length

    @property
    def length_offset(self) -> int:
        """Where the 4-byte footer length is stored (file size - 8)."""
        return self.file_size - 8


@dataclass(frozen=True)
class ColumnDescriptor:
    """A leaf column: its schema path, types and maximum levels (Dremel)."""

    index: int
    path: tuple[str, ...]
    physical_type: Type | int
    type_length: int | None
    max_definition_level: int
    max_repetition_level: int
    #: the SchemaElement chain from the root (``elements[0]``) to the leaf (``elements[-1]``)
    elements: tuple[SchemaElement, ...]

    @property
    def name(self) -> str:
        return ".".join(self.path)

    @property
    def element(self) -> SchemaElement:
        return self.elements[-1]

    @property
    def physical_type_name(self) -> str:
        return enum_name(self.physical_type) or "?"


@dataclass(frozen=True)
class Page:
    """One page of a column chunk: where its header and body are, and the decoded header."""

    row_group: int
    column: int
    index: int  # position in the chunk
    offset: int  # absolute offset of the header
    header_size: int
    header: PageHeader

    @property
    def data_offset(self) -> int:
        return self.offset + self.header_size

    @property
    def compressed_size(self) -> int:
        return self.header.compressed_page_size

    @property
    def uncompressed_size(self) -> int:
        return self.header.uncompressed_page_size

    @property
    def end(self) -> int:
        return self.data_offset + self.compressed_size

    @property
    def type(self) -> str:
        return enum_name(self.header.type) or "?"

    @property
    def is_data(self) -> bool:
        return self.header.type in (PageType.DATA_PAGE, PageType.DATA_PAGE_V2)

    @property
    def encoding(self) -> str | None:
        h = self.header
        sub: Any = h.data_page_header or h.data_page_header_v2 or h.dictionary_page_header
        return enum_name(sub.encoding) if sub is not None else None

    @property
    def num_values(self) -> int | None:
        h = self.header
        sub: Any = h.data_page_header or h.data_page_header_v2 or h.dictionary_page_header
        return sub.num_values if sub is not None else None

    @property
    def num_nulls(self) -> int | None:
        v2 = self.header.data_page_header_v2
        return v2.num_nulls if v2 is not None else None

    @property
    def num_rows(self) -> int | None:
        v2 = self.header.data_page_header_v2
        return v2.num_rows if v2 is not None else None

    @property
    def statistics(self) -> Statistics | None:
        h = self.header
        sub = h.data_page_header or h.data_page_header_v2
        return sub.statistics if sub is not None else None

    @property
    def crc(self) -> int | None:
        return self.header.crc


def _u32(b: bytes, at: int) -> int:
    v: int = struct.unpack_from("<i", b, at)[0]
    return v


Decoder = Callable[..., tuple[compact.RawStruct, int]]
#: the Thrift decoders by engine name: "fast" (pure Python, or its compiled twin) and "kaitai"
ENGINES: dict[str, Decoder] = {"fast": compact.decode_struct, "kaitai": thrift_kaitai.decode_struct}


def _engine(name: str) -> Decoder:
    try:
        return ENGINES[name]
    except KeyError:
        raise ValueError(f"unknown engine {name!r} (choose from {', '.join(ENGINES)})") from None


def decode_page_header(
    buf: bytes, pos: int = 0, end: int | None = None, *, base: int = 0, path: str = "page_header", engine: str = "fast"
) -> tuple[PageHeader, int]:
    """Decode a PageHeader at ``pos``: (model, position after it). ``base`` = absolute offset of buf[0]."""
    if engine == "fast":
        return decode_model(PageHeader, buf, pos, end, base=base, path=path)
    raw, after = _engine(engine)(buf, pos, end, base=base, path=path)
    return from_raw(PageHeader, raw, path=path, offset=base + pos), after


def parse_footer(footer: bytes, *, offset: int = 0, engine: str = "fast") -> tuple[FileMetaData, int]:
    """Decode a FileMetaData: (model, bytes used by the Thrift struct)."""
    if engine == "fast":
        return decode_model(FileMetaData, footer, 0, base=offset, path="footer")
    raw, used = _engine(engine)(footer, 0, base=offset, path="footer")
    return from_raw(FileMetaData, raw, path="footer", offset=offset), used


#: Deepest schema nesting accepted (real schemas nest a few dozen levels at most); deeper ones are
#: refused before per-leaf paths grow quadratically (``parquet.schema-depth``).
MAX_SCHEMA_DEPTH = 256


def leaf_columns(schema: tuple[SchemaElement, ...]) -> list[ColumnDescriptor]:
    """The leaf columns of a depth-first schema list (root first), in column-chunk order."""
    if not schema:
        raise FormatError("the schema is empty (it needs at least the root element)", rule="parquet.schema", path="footer.schema")
    leaves: list[ColumnDescriptor] = []
    # stack of (element, children left, def level, rep level, chain)
    root = schema[0]
    n_root = root.num_children or 0
    if n_root < 0 or n_root > len(schema) - 1:
        raise FormatError(
            f"root num_children {n_root} is impossible with {len(schema)} elements", rule="parquet.schema", path="footer.schema[0]"
        )
    stack: list[list[Any]] = [[n_root, 0, 0, (root,), ()]]
    i = 1
    while stack:
        top = stack[-1]
        if top[0] == 0:
            stack.pop()
            continue
        if i >= len(schema):
            raise FormatError(
                f"the schema declares more children than its {len(schema)} elements", rule="parquet.schema", path=f"footer.schema[{i}]"
            )
        top[0] -= 1
        el = schema[i]
        rep = el.repetition_type
        d = top[1] + (1 if rep in (FieldRepetitionType.OPTIONAL, FieldRepetitionType.REPEATED) else 0)
        r = top[2] + (1 if rep == FieldRepetitionType.REPEATED else 0)
        chain = (*top[3], el)
        path = (*top[4], el.name)
        nc = el.num_children
        if (nc is not None and nc > 0) or (el.type is None and nc is not None):
            if nc < 0 or nc > len(schema) - i - 1:
                raise FormatError(f"num_children {nc} is impossible", rule="parquet.schema", path=f"footer.schema[{i}]")
            if len(stack) >= MAX_SCHEMA_DEPTH:
                raise LimitError(
                    f"the schema nests deeper than {MAX_SCHEMA_DEPTH} levels", rule="parquet.schema-depth", path=f"footer.schema[{i}]"
                )
            stack.append([nc, d, r, chain, path])
        else:
            if el.type is None:
                raise FormatError(
                    f"schema element {el.name!r} has neither a type nor children", rule="parquet.schema", path=f"footer.schema[{i}]"
                )
            leaves.append(ColumnDescriptor(len(leaves), path, el.type, el.type_length, d, r, chain))
        i += 1
    if i != len(schema):
        raise FormatError(f"the schema tree uses {i} of its {len(schema)} elements", rule="parquet.schema", path=f"footer.schema[{i}]")
    return leaves


class ParquetFile:
    """An open Parquet file: the footer is parsed on open, pages are walked on demand."""

    def __init__(self, source: SourceLike, *, tail_hint: int = DEFAULT_TAIL_HINT, engine: str = "fast") -> None:
        _engine(engine)
        self.engine = engine
        self.source: ByteSource = open_source(source)
        self._columns: list[ColumnDescriptor] | None = None
        #: tolerated discrepancies met while walking (FormatErrors not raised)
        self.warnings: list[FormatError] = []
        with closing_on_error(self.source):
            self.footer, self.metadata = self._read_footer(max(tail_hint, MIN_FILE_SIZE))

    # -- footer -----------------------------------------------------------------------------
    def _read_footer(self, tail_hint: int) -> tuple[FooterInfo, FileMetaData]:
        src = self.source
        size = src.size
        if size < MIN_FILE_SIZE:
            raise TruncatedError(
                f"a Parquet file has at least {MIN_FILE_SIZE} bytes (magic, footer length, magic); this one has {size}",
                rule="parquet.min-size",
                path="file",
                offset=0,
            )
        tail_len = min(size, tail_hint)
        tail = src.read(size - tail_len, tail_len)
        magic = tail[-4:]
        if magic == MAGIC_ENCRYPTED:
            raise EncryptedError(
                "encrypted footer (magic PARE), not readable without the footer key",
                rule="parquet.encrypted",
                path="trailing_magic",
                offset=size - 4,
            )
        if magic != MAGIC:
            raise MagicError(
                f"expected 50 41 52 31 ('PAR1'), found {magic.hex(' ')}",
                rule="parquet.trailing-magic",
                path="trailing_magic",
                offset=size - 4,
            )
        head = tail[:4] if size <= tail_hint else src.read(0, 4)
        if head != MAGIC:
            if head == MAGIC_ENCRYPTED:
                raise EncryptedError("encrypted file (leading magic PARE)", rule="parquet.encrypted", path="magic", offset=0)
            raise MagicError(f"expected 50 41 52 31 ('PAR1'), found {head.hex(' ')}", rule="parquet.header-magic", path="magic", offset=0)
        flen = _u32(tail, tail_len - 8)
        if not 0 < flen <= size - MIN_FILE_SIZE:
            raise FormatError(
                f"footer length {flen} does not fit the file (it must be in 1..{size - MIN_FILE_SIZE})",
                rule="parquet.footer-length",
                path="footer_length",
                offset=size - 8,
            )
        foff = size - 8 - flen
        if flen + 8 <= tail_len:
            footer = tail[tail_len - 8 - flen : tail_len - 8]
        else:
            footer = src.read_exact(foff, flen, rule="parquet.footer-length", path="footer")
        meta, used = parse_footer(footer, offset=foff, engine=self.engine)
        return FooterInfo(size, foff, flen, used), meta

    # -- columns ----------------------------------------------------------------------------
    def columns(self) -> list[ColumnDescriptor]:
        """The leaf column descriptors, in column-chunk order."""
        if self._columns is None:
            try:
                self._columns = leaf_columns(self.metadata.schema)
            except FormatError as e:
                if e.offset is None:
                    e.offset = self.footer.offset  # the schema lives in the footer
                raise e.with_source(self.name) from None
        return self._columns

    def column(self, column: int | str | tuple[str, ...]) -> ColumnDescriptor:
        """A leaf column by index, dotted path or path tuple."""
        cols = self.columns()
        if isinstance(column, int):
            if not 0 <= column < len(cols):
                raise IndexError(f"column index {column} out of range (the file has {len(cols)} leaf columns)")
            return cols[column]
        want = tuple(column.split(".")) if isinstance(column, str) else tuple(column)
        for c in cols:
            if c.path == want:
                return c
        raise KeyError(f"no leaf column {'.'.join(want)!r}; leaf columns: {', '.join(c.name for c in cols)}")

    @property
    def num_row_groups(self) -> int:
        return len(self.metadata.row_groups)

    def column_chunk(self, row_group: int, column: int | str) -> ColumnChunk:
        """The ColumnChunk model of one row group / leaf column."""
        rgs = self.metadata.row_groups
        if not 0 <= row_group < len(rgs):
            raise IndexError(f"row group {row_group} out of range (the file has {len(rgs)})")
        col = column if isinstance(column, int) else self.column(column).index
        cols = rgs[row_group].columns
        if not 0 <= col < len(cols):
            leaves = len(self.columns())
            if 0 <= col < leaves:  # a real leaf column the row group lacks: the file is malformed
                raise self.row_group_columns_error(row_group)
            raise IndexError(f"column {col} out of range (row group {row_group} has {len(cols)} column chunks)")
        return cols[col]

    def row_group_columns_error(self, row_group: int) -> FormatError:
        """The ``parquet.row-group-columns`` error: the row group's column chunks do not match the schema's leaves."""
        ncols = len(self.metadata.row_groups[row_group].columns)
        return FormatError(
            f"row group {row_group} has {ncols} column chunks but the schema has {len(self.columns())} leaf columns",
            rule="parquet.row-group-columns",
            path=f"footer.row_groups[{row_group}].columns",
            offset=self.footer.offset,
            source=self.name,
        )

    def _chunk_meta(self, rg: int, col: int) -> ColumnMetaData:
        cc = self.column_chunk(rg, col)
        path = f"footer.row_groups[{rg}].columns[{col}]"
        if cc.crypto_metadata is not None or (cc.meta_data is None and cc.encrypted_column_metadata is not None):
            raise EncryptedError(
                "column chunk is encrypted (crypto_metadata / encrypted_column_metadata): its pages are not readable without keys",
                rule="parquet.encrypted",
                path=path,
                offset=self.footer.offset,
                source=self.name,
            )
        if cc.meta_data is None:
            raise FormatError(
                "column chunk has no meta_data",
                rule="parquet.column-missing-metadata",
                path=path,
                offset=self.footer.offset,
                source=self.name,
            )
        if cc.file_path is not None:
            raise FormatError(
                f"column chunk lives in another file ({cc.file_path!r})",
                rule="parquet.external-chunk",
                path=path,
                offset=self.footer.offset,
                source=self.name,
            )
        return cc.meta_data

    def chunk_range(self, row_group: int, column: int | str) -> tuple[int, int]:
        """[start, end) of a column chunk: from its first page (the dictionary page when
        ``dictionary_page_offset`` is plausible, else ``data_page_offset``) over
        ``total_compressed_size`` bytes (which include the page headers)."""
        col = column if isinstance(column, int) else self.column(column).index
        md = self._chunk_meta(row_group, col)
        start = md.data_page_offset
        dpo = md.dictionary_page_offset
        # dictionary_page_offset 0 is a known writer bug (ignored); a chunk of 0 rows may
        # have data_page_offset 0 and only a dictionary page
        if dpo is not None and dpo >= 4 and (dpo < start or start < 4):
            start = dpo
        end = start + md.total_compressed_size
        if start < 4 or md.total_compressed_size < 0 or end > self.footer.offset:
            raise FormatError(
                f"column chunk [{start}, {end}) is outside the page region [4, {self.footer.offset})",
                rule="parquet.chunk-range",
                path=f"footer.row_groups[{row_group}].columns[{col}].meta_data",
                offset=self.footer.offset,
                source=self.name,
            )
        return start, end

    # -- pages ------------------------------------------------------------------------------
    def _select(self, row_group: int | None, column: int | str | None) -> Iterator[tuple[int, int]]:
        rgs = range(self.num_row_groups) if row_group is None else [row_group]
        for rg in rgs:
            if not 0 <= rg < self.num_row_groups:
                raise IndexError(f"row group {rg} out of range (the file has {self.num_row_groups})")
            ncols = len(self.metadata.row_groups[rg].columns)
            if column is None:
                yield from ((rg, c) for c in range(ncols))
            else:
                yield rg, column if isinstance(column, int) else self.column(column).index

    def pages(self, row_group: int | None = None, column: int | str | None = None) -> Iterator[Page]:
        """Every page of the selected column chunks, in file order per chunk."""
        return itertools.chain.from_iterable(batch for rg, col in self._select(row_group, column) for batch in self._batches(rg, col))

    def chunk_pages(self, row_group: int, column: int) -> Iterator[Page]:
        """The pages of one column chunk. A chunk whose stated ``total_compressed_size`` is
        short of its last page (``nation.dict-malformed.parquet``) is walked to that page's
        end while it stays in the page region; the discrepancy is recorded in ``warnings``."""
        return itertools.chain.from_iterable(self._batches(row_group, column))

    def _batches(self, row_group: int, column: int) -> Iterator[list[Page]]:
        # pages come in lists (runs of plain pages from the bulk scanner, single pages from
        # the careful path), so iterating them costs no Python frame per page
        start, end = self.chunk_range(row_group, column)
        src = self.source
        name = self.name
        limit = self.footer.offset  # no page may reach into the footer
        window, whole = (REMOTE_HEADER_WINDOW, 0) if src.remote else (HEADER_WINDOW, CHUNK_READ_MAX)
        first = min(limit - start, end - start + window) if end - start <= whole else window
        buf, buf_off = src.read(start, first), start
        pos = start
        index = 0
        path0 = f"row_groups[{row_group}].columns[{column}].pages"
        fast = self.engine == "fast"
        while pos < end:
            if fast:  # plain pages in bulk; the careful path below takes any page needing care
                batch, pos = scan_pages(buf, buf_off, pos, end, row_group, column, index, Page)
                if batch:
                    yield batch
                    index += len(batch)
                if pos >= end:
                    break
            path = f"{path0}[{index}].header"
            while True:
                try:
                    header, after = decode_page_header(buf, pos - buf_off, len(buf), base=buf_off, path=path, engine=self.engine)
                    break
                except FormatError as e:
                    # a header the window cuts off reads as truncated, or as a length running past the window
                    cut = isinstance(e, TruncatedError) or e.rule == "thrift.length"
                    if not cut or buf_off + len(buf) >= limit:
                        raise e.with_source(name) from None
                    want = min(limit - pos, max(window, 2 * (buf_off + len(buf) - pos)))
                    buf, buf_off = src.read(pos, want), pos
            hsize = after + buf_off - pos
            window = max(window, 2 * hsize)  # headers of one chunk are alike: fetch the next one in one read
            h = header
            if h.compressed_page_size < 0 or h.uncompressed_page_size < 0:
                raise FormatError(
                    f"negative page size (compressed {h.compressed_page_size}, uncompressed {h.uncompressed_page_size})",
                    rule="parquet.page-size",
                    path=path,
                    offset=pos,
                    source=name,
                )
            page_end = pos + hsize + h.compressed_page_size
            if page_end > end:
                if page_end > limit:
                    raise FormatError(
                        f"page [{pos}, {page_end}) runs past the end of its column chunk at {end} and into the footer",
                        rule="parquet.page-overrun",
                        path=path,
                        offset=pos,
                        source=name,
                    )
                self.warnings.append(
                    FormatError(
                        f"page [{pos}, {page_end}) ends after the chunk's stated end {end} (total_compressed_size is short)",
                        rule="parquet.chunk-size",
                        path=path,
                        offset=pos,
                        source=name,
                    )
                )
            yield [Page(row_group, column, index, pos, hsize, header)]
            index += 1
            pos = page_end
            if pos > buf_off + len(buf) and pos < end:
                buf, buf_off = b"", pos

    def read_page_body(self, page: Page) -> bytes:
        """The page's stored (compressed) body bytes."""
        return self.source.read_exact(
            page.data_offset,
            page.compressed_size,
            rule="parquet.page-overrun",
            path=f"row_groups[{page.row_group}].columns[{page.column}].pages[{page.index}]",
        )

    # -- the layers built on this file (attached by lakestruct.parquet's __init__; declared here for type checkers) --
    # read.py is the file and its footer: it imports none of index.py, bloom.py, values.py, assembly.py (they import
    # it). ``lakestruct.parquet`` attaches the methods below from them (tests/test_structure.py checks the signatures
    # match); any import of ``lakestruct.parquet.*`` runs that package first, so they are always there.
    if TYPE_CHECKING:
        def check(self) -> int:
            """Every structural check (``index.check_file``)."""

        def column_index(self, row_group: int, column: int | str) -> ColumnIndex | None:
            """The chunk's ColumnIndex, None when absent (``index.column_index``)."""

        def offset_index(self, row_group: int, column: int | str) -> OffsetIndex | None:
            """The chunk's OffsetIndex, None when absent (``index.offset_index``)."""

        def bloom_filter(self, row_group: int, column: int | str) -> SplitBlockBloomFilter | None:
            """The chunk's split-block bloom filter, None when absent (``bloom.bloom_filter``)."""

        def levels(
            self, column: int | str | tuple[str, ...], *, row_group: int | None = None, max_values: int | None = None,
            max_value_bytes: int | None = None,
        ) -> list[ChunkData]:
            """Repetition/definition levels of a leaf column, per chunk and page (``values.column_levels``)."""

        def values(
            self, column: int | str | tuple[str, ...], *, row_group: int | None = None, python: bool = True,
            max_values: int | None = None, max_value_bytes: int | None = None,
        ) -> list[Any]:
            """A leaf column's values, one per level, None where undefined (``values.column_values``)."""

    def check_page_crc(self, page: Page) -> None:
        """A page header's optional ``crc``: CRC-32 (gzip's) of the page body as stored
        (``parquet.page-crc``). Pages without one pass."""
        if page.crc is None:
            return
        stored = page.crc & 0xFFFFFFFF  # a Thrift i32: the bit pattern is the CRC
        actual = zlib.crc32(self.read_page_body(page)) & 0xFFFFFFFF
        if actual != stored:
            raise ChecksumError(
                f"page header says CRC-32 {stored:#010x}, the {page.compressed_size} stored body bytes give {actual:#010x}",
                rule="parquet.page-crc",
                path=f"row_groups[{page.row_group}].columns[{page.column}].pages[{page.index}].header.crc",
                offset=page.offset,
                source=self.name,
            )

    # -- misc -------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.source.name

    def close(self) -> None:
        self.source.close()

    def __enter__(self) -> ParquetFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ParquetFile {self.name!r} rows={self.metadata.num_rows} row_groups={self.num_row_groups}>"


def open(source: SourceLike, *, tail_hint: int = DEFAULT_TAIL_HINT, engine: str = "fast") -> ParquetFile:
    """Open a Parquet file (path, URL, bytes or binary file object); reads only its footer.

    ``engine`` picks the Thrift decoder: ``"fast"`` (default) or ``"kaitai"`` (the parser
    generated from ``formats/thrift/thrift_compact.ksy``; slower, the declarative reference).
    """
    return ParquetFile(source, tail_hint=tail_hint, engine=engine)


def read_crypto_metadata(tail: bytes, *, offset: int = 0) -> FileCryptoMetaData:
    """Decode the FileCryptoMetaData that starts a ``PARE`` file's footer (for reports only)."""
    raw, _ = compact.decode_struct(tail, 0, base=offset, path="crypto_metadata")
    return from_raw(FileCryptoMetaData, raw, path="crypto_metadata", offset=offset)
