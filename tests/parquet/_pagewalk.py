"""TEST-ONLY page locator built on pyarrow's metadata and fastparquet's Thrift reader.

An independent way to find column chunks and page headers, so the data decoders can be
tested on real files without relying on lakestruct's own structure layer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow.parquet as papq
from fastparquet.cencoding import NumpyIO, ThriftObject

from lakestruct.parquet.values import ChunkSpec, PageSpec, page_spec

_CODECS = {"UNCOMPRESSED": 0, "SNAPPY": 1, "GZIP": 2, "LZO": 3, "BROTLI": 4, "LZ4": 5, "ZSTD": 6, "LZ4_RAW": 7}
_TYPES = {"BOOLEAN": 0, "INT32": 1, "INT64": 2, "INT96": 3, "FLOAT": 4, "DOUBLE": 5, "BYTE_ARRAY": 6, "FIXED_LEN_BYTE_ARRAY": 7}


class WalkError(Exception):
    """The test-only walker could not follow the pages (the file is malformed)."""


def walk_pages(data: bytes, start: int, size: int) -> list[PageSpec]:
    io = NumpyIO(data)
    pages: list[PageSpec] = []
    pos = start
    end = min(start + size, len(data))
    while pos < end:
        io.seek(pos)
        try:
            h: Any = ThriftObject.from_buffer(io, "PageHeader")
        except Exception as e:  # fastparquet's own failure on malformed headers
            raise WalkError(f"page header at {pos}: {e}") from e
        hs = io.tell() - pos
        if h.compressed_page_size is None or int(h.compressed_page_size) < 0:
            raise WalkError(f"page header at {pos} has no usable compressed_page_size")
        pages.append(page_spec(len(pages), pos, hs, h))
        pos += hs + int(h.compressed_page_size)
    return pages


def chunk_specs(path: str | Path, *, codec_ids: bool = True) -> list[ChunkSpec]:
    """Every column chunk of the file, with its pages (fastparquet's Thrift parser)."""
    data = Path(path).read_bytes()
    md = papq.ParquetFile(path).metadata
    # fastparquet reports the raw codec id (pyarrow maps LZ4_RAW and LZ4 both to "LZ4").
    import fastparquet

    fmd = fastparquet.ParquetFile(str(path)).fmd
    out = []
    for rg in range(md.num_row_groups):
        for c in range(md.num_columns):
            cc = md.row_group(rg).column(c)
            fcc = fmd.row_groups[rg].columns[c].meta_data
            codec = int(fcc.codec) if fcc is not None else _CODECS[cc.compression]
            col = md.schema.column(c)
            start = cc.data_page_offset
            if cc.dictionary_page_offset and 0 < cc.dictionary_page_offset < start:
                start = cc.dictionary_page_offset
            pages = walk_pages(data, start, cc.total_compressed_size)
            out.append(
                ChunkSpec(
                    row_group=rg,
                    column=c,
                    path=cc.path_in_schema,
                    physical_type=_TYPES[cc.physical_type],
                    max_definition_level=col.max_definition_level,
                    max_repetition_level=col.max_repetition_level,
                    codec=codec,
                    pages=pages,
                    type_length=col.length if cc.physical_type == "FIXED_LEN_BYTE_ARRAY" else None,
                    num_values=cc.num_values,
                    num_rows=md.row_group(rg).num_rows,
                )
            )
    return out
