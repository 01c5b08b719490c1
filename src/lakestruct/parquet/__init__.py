"""Parquet internals: footer, leaf columns, page headers, page index, bloom filters (structure),
plus levels and values (data; see ``levels``/``values``).

>>> import lakestruct as ls                                  # doctest: +SKIP
>>> pq = ls.parquet.open("x.parquet")
>>> pq.metadata.num_rows, [c.name for c in pq.columns()]
>>> [(p.offset, p.type, p.compressed_size) for p in pq.pages(column="a")]
"""

from __future__ import annotations

from . import assembly, bloom, compression, encodings, index, levels, model, values
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

#: ``read.py`` is the file and its footer; the page index, bloom filters and values build on it (they import it, it
#: imports none of them). The package composes them: these ``ParquetFile`` methods are the functions of the modules
#: built on it, attached here (declared in ``read.py`` for type checkers; tests/test_structure.py checks the
#: signatures agree). Any import of ``lakestruct.parquet.*`` runs this first, so every ``ParquetFile`` has them.
LAYER_METHODS = {
    "check": index.check_file,
    "column_index": index.column_index,
    "offset_index": index.offset_index,
    "bloom_filter": bloom.bloom_filter,
    "levels": column_levels,
    "values": column_values,
}
for _name, _fn in LAYER_METHODS.items():
    setattr(ParquetFile, _name, _fn)
del _name, _fn

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
    "index",
    "levels",
    "leaf_columns",
    "model",
    "open",
    "parse_footer",
    "read_column",
    "read_rows",
    "values",
]
