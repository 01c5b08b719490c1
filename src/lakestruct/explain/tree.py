"""The annotated tree ``lakestruct explain`` builds: one :class:`Node` per field with its absolute byte
range, and the reader every builder goes through (range reads with a small cache, counted by the
:class:`~lakestruct.source.ByteSource`)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import FormatError
from ..source import ByteSource, RangeReader

__all__ = ["Explanation", "Node", "Reader", "show_bytes", "show_list"]

#: Bytes of each field shown on its line (and kept in ``Node.head``).
HEAD_BYTES = 16
#: Values of a list (array field, levels, values) shown before an ellipsis.
LIST_SHOWN = 16
#: Bytes of a field dumped in full beside its ``beside`` lines (the Puffin footer payload).
MAX_DUMP = 1 << 20


@dataclass
class Node:
    """One field: its name within its parent, absolute byte range ``[start, end)``, decoded value."""

    name: str
    start: int
    end: int
    #: the decoded value as shown (empty for a structure without a one-line summary)
    value: str = ""
    #: the decoded value as data (int, str, bool, float, None, or a list of them) for --json and tests
    data: Any = None
    #: what it is on the wire (``u4le``, ``i32 #3``, ``PageHeader``, ...)
    kind: str = ""
    children: list[Node] = field(default_factory=list)
    #: lines shown under the field (decoded levels and values, a container's positions, ...)
    notes: list[str] = field(default_factory=list)
    #: lines shown beside the field's bytes, dumped 16 a row (the Puffin footer JSON beside its payload)
    beside: list[str] = field(default_factory=list)
    #: the bytes dumped beside ``beside`` (set by :meth:`Explanation.finish` for a node with ``beside``)
    dump: bytes = b""
    dump_at: int = 0
    #: the error met while reading this field (its children are what was read before it)
    error: FormatError | None = None
    #: dotted path from the root (set by :meth:`Explanation.finish`)
    path: str = ""
    #: its first bytes (set by :meth:`Explanation.finish`)
    head: bytes = b""

    @property
    def size(self) -> int:
        return self.end - self.start

    def add(self, child: Node) -> Node:
        self.children.append(child)
        return child


@dataclass
class Explanation:
    """What ``explain`` found in one file."""

    name: str
    format: str
    size: int
    #: the byte range asked for, ``[start, end)``
    range: tuple[int, int]
    #: deepest level shown (1 = top-level structures only), None for all
    depth: int | None
    nodes: list[Node] = field(default_factory=list)
    #: every error met (each is also on the node it broke, when there is one)
    errors: list[FormatError] = field(default_factory=list)
    #: things worth knowing that are not errors (an encrypted column, a structure too large to parse)
    notes: list[str] = field(default_factory=list)
    #: the bytes of the range (only for the HTML page): ``(offset of data[0], data)``
    data: tuple[int, bytes] | None = None
    #: fields built so far, and the most the builders build before they stop walking (None: no limit)
    fields: int = 0
    max_fields: int | None = None
    #: where the walk stopped when the field limit was reached (None: it was not)
    cut_at: int | None = None

    def count(self, node: Node) -> None:
        """Count ``node`` and its subtree against ``max_fields``."""
        stack = [node]
        while stack:
            n = stack.pop()
            self.fields += 1
            stack.extend(n.children)

    def exhausted(self, at: int) -> bool:
        """Whether the field limit is reached; the first time, note where the walk stops (``at``)."""
        if self.max_fields is None or self.fields < self.max_fields:
            return False
        if self.cut_at is None:
            self.cut_at = at
            self.notes.append(
                f"stopped at offset {at:#x} after {self.fields} fields (the field limit, --max-fields {self.max_fields}); "
                f"--range {at:#x}: explains the rest"
            )
        return True

    def walk(self, nodes: list[Node] | None = None, level: int = 1) -> Iterator[tuple[int, Node]]:
        """(level, node) depth first, in file order, limited to the range and the depth."""
        lo, hi = self.range
        for n in nodes if nodes is not None else self.nodes:
            if not (n.start < hi and n.end > lo) and not (n.start == n.end and lo <= n.start <= hi):
                continue
            yield level, n
            if self.depth is None or level < self.depth:
                yield from self.walk(n.children, level + 1)

    def finish(self, reader: Reader) -> None:
        """Sort the tree by offset, set every node's path and first bytes (read through ``reader``)."""

        def fix(nodes: list[Node], prefix: str) -> None:
            nodes.sort(key=lambda n: (n.start, -n.end))
            for n in nodes:
                n.path = f"{prefix}.{n.name}" if prefix and not n.name.startswith("[") else f"{prefix}{n.name}"
                fix(n.children, n.path)

        fix(self.nodes, "")
        lo, hi = self.range
        for _, n in self.walk():
            if n.size > 0 and not n.head:
                want = min(n.size, HEAD_BYTES)
                # a field that starts before the range (a row group around it): its first bytes only if already read
                n.head = reader.fetch(n.start, want) if n.start >= lo else reader.cached(n.start, want)
            if n.beside and not n.dump:
                s, e = max(n.start, lo), min(n.end, hi, n.start + MAX_DUMP)
                n.dump, n.dump_at = (reader.fetch(s, e - s) if e > s else b""), s

    def error(self, e: FormatError, node: Node | None = None) -> None:
        """Record an error (on ``node`` too, when given)."""
        if node is not None and node.error is None:
            node.error = e
        if not any(x is e for x in self.errors):
            self.errors.append(e)

    def to_dict(self) -> dict[str, Any]:
        def one(level: int, n: Node) -> dict[str, Any]:
            d: dict[str, Any] = {
                "path": n.path,
                "level": level,
                "start": n.start,
                "end": n.end,
                "kind": n.kind,
                "value": n.data,
                "text": n.value,
            }
            if n.notes:
                d["notes"] = n.notes
            if n.beside:
                d["beside"] = n.beside
            if n.error is not None:
                d["error"] = _err(n.error)
            return d

        return {
            "file": self.name,
            "format": self.format,
            "size": self.size,
            "range": list(self.range),
            "fields": [one(level, n) for level, n in self.walk()],
            "errors": [_err(e) for e in self.errors],
            "notes": self.notes,
        }


def _err(e: FormatError) -> dict[str, Any]:
    return {"rule": e.rule, "offset": e.offset, "path": e.path, "message": e.message}


class Reader(RangeReader):
    """A :class:`RangeReader` that reads ahead: a read the cache does not hold fetches at least ``window``
    bytes (Kaitai parsers read a varint byte by byte), and the cache keeps the last ``keep`` fetches, so
    memory stays bounded however much of a large file is walked. ``fetch(offset, length)`` reads
    through the same cache without moving the position."""

    def __init__(self, source: ByteSource, *, window: int = 4096, keep: int = 32) -> None:
        super().__init__(source)
        self.window = window
        self.keep = keep

    def fetch(self, offset: int, length: int) -> bytes:
        length = max(0, min(length, self.source.size - offset))
        if length == 0:
            return b""
        end = offset + length
        for off, data in reversed(self._chunks):
            if off <= offset and end <= off + len(data):
                return data[offset - off : end - off]
        data = self.source.read(offset, max(length, self.window))
        self._chunks.append((offset, data))
        if len(self._chunks) > self.keep:
            del self._chunks[0]
        return data[:length]

    def cached(self, offset: int, length: int) -> bytes:
        """The bytes at ``offset`` if the cache holds them all, else b'' (never reads)."""
        for off, data in reversed(self._chunks):
            if off <= offset and offset + length <= off + len(data):
                return data[offset - off : offset + length - off]
        return b""

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            size = max(0, self.source.size - self._pos)
        data = self.fetch(self._pos, size)
        self._pos += len(data)
        return data


def show_bytes(b: bytes, limit: int = 24) -> str:
    """Bytes as text when they are printable ASCII, else as hex (``…`` when cut)."""
    cut = b[:limit]
    more = "…" if len(b) > limit else ""
    try:
        text = cut.decode("ascii")
    except UnicodeDecodeError:
        text = ""
    if text and text.isprintable():
        return f'"{text}{more}"'
    return cut.hex(" ") + (f" … ({len(b)} bytes)" if more else "")


def show_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else str(v)
    if isinstance(v, (bytes, bytearray)):
        return show_bytes(bytes(v))
    if isinstance(v, str):
        return repr(v) if len(v) <= 80 else repr(v[:80]) + "…"
    return str(v)


def show_list(values: list[Any], total: int | None = None, limit: int = LIST_SHOWN) -> str:
    """``a, b, c, … (n)``: the first ``limit`` of ``total`` values."""
    n = len(values) if total is None else total
    shown = ", ".join(show_value(v) for v in values[:limit])
    return f"{shown}{', …' if n > limit else ''} ({n})" if n > limit else shown
