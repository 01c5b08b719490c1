"""Paimon data-file indexes (``FileIndexFormat``): the head of a ``<data file>.index`` file or of a manifest entry's
``_EMBEDDED_FILE_INDEX``, listing per column each index type and where its payload is
(``formats/paimon/paimon_file_index.ksy`` shows the layout). Payloads are returned as bytes; probing them (bloom
filter, bitmap, BSI) is not implemented yet.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ..errors import FormatError, MagicError, TruncatedError
from ..source import SourceLike, open_source
from .spec import FILE_INDEX_MAGIC

__all__ = ["FileIndex", "IndexRef", "parse_file_index", "read_file_index"]


@dataclass(frozen=True)
class IndexRef:
    """One index of one column: its type and the absolute offset and length of its payload (start -1: empty)."""

    column: str
    type: str
    start: int
    length: int


@dataclass(frozen=True)
class FileIndex:
    """The head of a data-file index and the image's bytes."""

    head_length: int
    indexes: tuple[IndexRef, ...]
    data: bytes

    @property
    def kinds(self) -> list[str]:
        """The index types present, in order of first appearance."""
        return list(dict.fromkeys(r.type for r in self.indexes))

    def payload(self, ref: IndexRef) -> bytes:
        return b"" if ref.start < 0 else self.data[ref.start : ref.start + ref.length]


def _err(msg: str, rule: str, path: str, offset: int) -> FormatError:
    return FormatError(msg, rule=f"paimon.file-index.{rule}", path=path, offset=offset)


def parse_file_index(data: bytes) -> FileIndex:
    """The head of a data-file index image, every offset checked against the image (rules ``paimon.file-index.*``)."""
    n = len(data)
    if n < 24:
        raise TruncatedError(f"a file index has at least 24 bytes, this one {n}", rule="paimon.file-index.truncated", path="head", offset=0)
    if data[:8] != FILE_INDEX_MAGIC:
        raise MagicError(f"expected {FILE_INDEX_MAGIC.hex(' ')}, found {data[:8].hex(' ')}", rule="paimon.file-index.magic",
                         path="magic", offset=0)
    version, head, ncols = struct.unpack_from(">iii", data, 8)
    if version != 1:
        raise _err(f"version {version}: Paimon reads only version 1", "version", "version", 8)
    if not 24 <= head <= n:
        raise _err(f"head length {head} does not fit the {n}-byte image", "head-length", "len_head", 12)
    p = 20
    refs: list[IndexRef] = []

    def need(k: int, path: str) -> None:
        if p + k > head:
            raise TruncatedError(f"the head ends at {head}, the field needs {k} bytes at {p}", rule="paimon.file-index.truncated",
                                 path=path, offset=p)

    def utf(path: str) -> str:
        nonlocal p
        need(2, path)
        k = int.from_bytes(data[p : p + 2], "big")
        p += 2
        need(k, path)
        try:
            s = data[p : p + k].decode("utf-8")
        except UnicodeDecodeError as e:
            raise _err(f"not valid UTF-8: {e.reason}", "utf8", path, p) from None
        p += k
        return s

    if ncols < 0 or ncols * 6 > head:
        raise _err(f"{ncols} columns cannot fit a {head}-byte head", "columns", "num_columns", 16)
    for c in range(ncols):
        name = utf(f"columns[{c}].name")
        need(4, f"columns[{c}].num_indexes")
        k = struct.unpack_from(">i", data, p)[0]
        if k < 0 or k * 10 > head:
            raise _err(f"{k} indexes cannot fit the head", "indexes", f"columns[{c}].num_indexes", p)
        p += 4
        for j in range(k):
            path = f"columns[{c}].indexes[{j}]"
            t = utf(f"{path}.type")
            need(8, path)
            start, length = struct.unpack_from(">ii", data, p)
            if start != -1 and (start < head or length < 0 or start + length > n):
                raise _err(f"the payload ({start}, {length}) lies outside the body [{head}, {n})", "payload-range", path, p)
            refs.append(IndexRef(name, t, start, length))
            p += 8
    need(4, "len_redundant")
    red = struct.unpack_from(">i", data, p)[0]
    if red < 0 or p + 4 + red > head:
        raise _err(f"redundant length {red} does not fit the head", "redundant-length", "len_redundant", p)
    return FileIndex(head, tuple(refs), data)


def read_file_index(source: SourceLike) -> FileIndex:
    """A ``<data file>.index`` file (path, bytes, file object or URL)."""
    with open_source(source) as src:
        data = src.read(0, src.size)
        try:
            return parse_file_index(data)
        except FormatError as e:
            raise e.with_source(src.name) from None
