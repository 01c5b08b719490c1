"""Parquet internals: footer, leaf columns, page headers, page index, bloom filters (structure),
plus levels and values (data; see ``levels``/``values``).

>>> import lakestruct as ls                                  # doctest: +SKIP
>>> pq = ls.parquet.open("x.parquet")
>>> pq.metadata.num_rows, [c.name for c in pq.columns()]
>>> [(p.offset, p.type, p.compressed_size) for p in pq.pages(column="a")]
"""

from __future__ import annotations

from . import assembly, bloom, compression, encodings, levels, model, values
from .model import (
    ColumnChunk,
    ColumnIndex,
    ColumnMetaData,
    FileMetaData,
    OffsetIndex,
    PageHeader,
    RowGroup,
    SchemaElement,
    Statistics,
)
from .read import (
    MAGIC,
    MAGIC_ENCRYPTED,
    ColumnDescriptor,
    EncryptedError,
    FooterInfo,
    Page,
    ParquetFile,
    decode_page_header,
    leaf_columns,
    open,
    parse_footer,
)
from .values import ChunkData, PageData, column_levels, column_values, read_column, read_rows

__all__ = [
    "MAGIC",
    "MAGIC_ENCRYPTED",
    "ChunkData",
    "PageData",
    "ColumnChunk",
    "ColumnDescriptor",
    "ColumnIndex",
    "ColumnMetaData",
    "EncryptedError",
    "FileMetaData",
    "FooterInfo",
    "OffsetIndex",
    "Page",
    "PageHeader",
    "ParquetFile",
    "RowGroup",
    "SchemaElement",
    "Statistics",
    "assembly",
    "bloom",
    "column_levels",
    "column_values",
    "compression",
    "decode_page_header",
    "encodings",
    "levels",
    "leaf_columns",
    "model",
    "open",
    "parse_footer",
    "read_column",
    "read_rows",
    "values",
]
