"""The page-header scanning loop (pure Python), twin of ``lakestruct.thrift._compact_c.scan_pages``.

:func:`scan_pages` decodes consecutive page headers from one buffer while they are plain:
it stops (returning what it has and where it stopped) at the first header that is
malformed, does not fit the buffer, has a negative size or runs past the chunk, and
``ParquetFile.chunk_pages`` takes that page through its careful path (refetching,
warnings, named errors). The compiled twin is used when it is built; both are held to
each other and to the Kaitai parser by tests/thrift/test_compiled.py.
"""

from __future__ import annotations

from typing import Any

from ..errors import FormatError
from ..thrift.compact import _compiled
from ..thrift.typed import compiled_plan, decode_model_py, make
from .model import PageHeader

__all__ = ["scan_pages", "scan_pages_py", "COMPILED"]

COMPILED = _compiled is not None


def scan_pages_py(
    buf: bytes, buf_off: int, pos: int, end: int, row_group: int, column: int, index: int, page_cls: type, plan: Any = None
) -> tuple[list[Any], int]:
    """Pages decoded from ``buf`` (the file's bytes from ``buf_off``) from absolute ``pos``
    until ``end`` or the first page needing care: (pages, absolute position reached)."""
    out: list[Any] = []
    blen = len(buf)
    while pos < end:
        rel = pos - buf_off
        if rel < 0 or rel >= blen:
            break
        try:
            header, after = decode_model_py(PageHeader, buf, rel, blen)
        except FormatError:
            break
        hsize = after - rel
        if header.compressed_page_size < 0 or header.uncompressed_page_size < 0:
            break
        page_end = pos + hsize + header.compressed_page_size
        if page_end > end:
            break
        out.append(
            make(
                page_cls, {"row_group": row_group, "column": column, "index": index, "offset": pos, "header_size": hsize, "header": header}
            )
        )
        index += 1
        pos = page_end
    return out, pos


def scan_pages(
    buf: bytes, buf_off: int, pos: int, end: int, row_group: int, column: int, index: int, page_cls: type
) -> tuple[list[Any], int]:
    """:func:`scan_pages_py`, or its compiled twin when built."""
    if _compiled is not None:
        got: tuple[list[Any], int] = _compiled.scan_pages(
            buf, buf_off, pos, end, row_group, column, index, page_cls, compiled_plan(PageHeader)
        )
        return got
    return scan_pages_py(buf, buf_off, pos, end, row_group, column, index, page_cls)
