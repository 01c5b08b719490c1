"""Annotated bytes: every field of a lake file with its byte range and decoded value (``lakestruct explain``).

>>> import lakestruct as ls                                  # doctest: +SKIP
>>> ex = ls.explain.explain("x.parquet", range=(0, 4096))
>>> for level, node in ex.walk():
...     print(node.start, node.end, node.path, node.value)
>>> print("\\n".join(ls.explain.render_text(ex)))
>>> ls.explain.write_html(ex, "x.html")

The byte ranges come from the parsers generated in debug mode (``generated/debug``: each field's start
and end as the Kaitai spec read it); Parquet levels and values come from :mod:`lakestruct.parquet.values`,
deletion-vector positions and sketch estimates from the format's reader. Reading goes through range reads
(:class:`~lakestruct.explain.tree.Reader` over a :class:`~lakestruct.source.ByteSource`): only the
structures the range touches are read. See ``docs/explain.md``.
"""

from __future__ import annotations

import os

from ..errors import UsageError
from ..source import ByteSource, SourceLike, open_source
from .html import render_html, write_html
from .parquet import explain_parquet
from .puffin import explain_puffin
from .small import MAX_TREE_BYTES, explain_structure
from .text import render_text
from .tree import Explanation, Node, Reader

__all__ = [
    "FORMATS",
    "HTML_MAX_BYTES",
    "MAX_FIELDS",
    "MAX_TREE_BYTES",
    "Explanation",
    "Node",
    "explain",
    "render_html",
    "render_text",
    "write_html",
]

#: The formats explain reads (``lakestruct.scan.FORMATS``).
FORMATS = ("puffin", "parquet", "dv-file", "dv-blob", "theta", "roaring32", "roaring64")
#: About how many fields explain builds before it stops walking (``max_fields``; the CLI's --max-fields).
MAX_FIELDS = 20_000
#: Bytes of the range the HTML page's hex view holds (the field tree still covers the whole range).
HTML_MAX_BYTES = 256 << 10


class _Borrowed(ByteSource):
    """A source lent to a reader that closes what it is given: reads go to (and are counted by) the
    real source; closing it does nothing."""

    def __init__(self, inner: ByteSource) -> None:
        super().__init__(inner.name, inner.size)
        self.inner = inner
        self.remote = inner.remote

    def _read(self, offset: int, length: int) -> bytes:
        return self.inner.read(offset, length)


def explain(
    source: SourceLike,
    *,
    format: str | None = None,
    range: tuple[int, int | None] | None = None,
    depth: int | None = None,
    with_bytes: bool = False,
    max_fields: int | None = MAX_FIELDS,
) -> Explanation:
    """Explain a file: its fields, their byte ranges and decoded values.

    ``format`` is one of :data:`FORMATS` (detected from the magic bytes when None: ``source`` must then be a
    path or URL). ``range`` = (start, end or None for the end of the file) limits what is read and shown;
    ``depth`` the nesting shown (1: top-level structures only). ``with_bytes`` keeps the range's bytes (up
    to :data:`HTML_MAX_BYTES`) for the HTML page. Once about ``max_fields`` fields are built the walk stops
    (a note says where; ``range`` from there explains the rest). Malformed input does not raise: the explanation shows
    what was read before each error, and lists the errors (``Explanation.errors``). A file of no format
    explain reads raises :class:`~lakestruct.errors.UsageError` (pass ``format`` to force one).
    """
    if depth is not None and depth < 1:
        raise UsageError(f"depth must be at least 1, not {depth}")
    if format is not None and format not in FORMATS:
        raise UsageError(f"unknown format {format!r} (choose from {', '.join(FORMATS)})")
    if format is None:
        if not isinstance(source, (str, os.PathLike)):
            raise UsageError("pass format= to explain a source that is not a path (the format is detected from a path)")
        from ..scan import detect

        format = detect(os.fspath(source))
        if format is None:
            open_source(source).close()  # a missing or unreadable file is a SourceError (exit 1), not a format question
            raise UsageError(f"{os.fspath(source)}: not a file explain reads (no {', '.join(FORMATS)} signature); --format forces one")
    owned = not isinstance(source, ByteSource)
    src = open_source(source)
    try:
        size = src.size
        lo, hi = (0, size) if range is None else (range[0], size if range[1] is None else range[1])
        if lo < 0 or hi < lo:
            raise UsageError(f"invalid range {lo}:{hi} (START:END with 0 <= START <= END)")
        lo, hi = min(lo, size), min(hi, size)
        ex = Explanation(src.name, format, size, (lo, hi), depth, max_fields=max_fields)
        reader = Reader(src)
        borrowed = _Borrowed(src)
        _dispatch(ex, format, reader, borrowed)
        ex.finish(reader)
        if with_bytes:
            ex.data = (lo, reader.source.read(lo, min(hi - lo, HTML_MAX_BYTES)))
        for e in ex.errors:
            e.with_source(src.name)
        return ex
    finally:
        if owned:
            src.close()


def _dispatch(ex: Explanation, fmt: str, reader: Reader, source: ByteSource) -> None:
    try:
        if fmt == "parquet":
            explain_parquet(ex, reader, source)
        elif fmt == "puffin":
            explain_puffin(ex, reader, source)
        else:
            explain_structure(ex, fmt, reader.fetch)
    except RecursionError:  # the readers name their own nesting limits; this is explain's last guard
        ex.notes.append("the structure nests too deeply to explain further")
