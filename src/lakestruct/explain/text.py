"""The text form of an explanation: one line per field, nested by structure.

::

    offset            size  bytes                     field                   what             value
    00000000-00000003    4  50 41 52 31               magic                   bytes            "PAR1"
    00000071-0000012a  186  15 04 19 2c 48 0c 4d 79 … footer                  FileMetaData     FileMetaData, 5 rows, 1 row group(s)
    00000071-00000072    2  15 04                       version               i32 #1           2

The range is the field's first and last byte, in hex (as hexdump prints offsets); notes (decoded levels,
values, positions) follow their field on lines marked ``│``, errors on lines marked ``!``.
"""

from __future__ import annotations

from collections.abc import Iterator

from .tree import Explanation, Node

__all__ = ["render_text"]

_BYTES_SHOWN = 8
_FIELD_MAX = 56
_KIND_MAX = 24


def _bytes(n: Node) -> str:
    shown = n.head[:_BYTES_SHOWN].hex(" ")
    return shown + (" …" if n.size > _BYTES_SHOWN else "")


def render_text(ex: Explanation) -> Iterator[str]:
    lo, hi = ex.range
    what = f"{ex.name}: {ex.format}, {ex.size} bytes"
    if (lo, hi) != (0, ex.size):
        what += f"; range {lo:#x}:{hi:#x}"
    yield what
    rows = list(ex.walk())
    wide = max([len(f"{n.end - 1:x}") for _, n in rows] + [8])
    fw = min(_FIELD_MAX, max([2 * (lvl - 1) + len(n.name) for lvl, n in rows] + [5]))
    kw = min(_KIND_MAX, max([len(n.kind) for _, n in rows] + [4]))
    sw = max([len(str(n.size)) for _, n in rows] + [4])
    bw = _BYTES_SHOWN * 3 + 1
    yield f"{'offset':<{2 * wide + 1}}  {'size':>{sw}}  {'bytes':<{bw}}  {'field':<{fw}}  {'what':<{kw}}  value"
    pad = " " * (2 * wide + 1 + 2 + sw + 2 + bw + 2)
    for lvl, n in rows:
        indent = "  " * (lvl - 1)
        field = f"{indent}{n.name}"
        rng = f"{n.start:0{wide}x}-{n.end - 1:0{wide}x}" if n.size else f"{n.start:0{wide}x}{'':>{wide + 1}}"
        yield f"{rng}  {n.size:>{sw}}  {_bytes(n):<{bw}}  {field:<{fw}}  {n.kind:<{kw}}  {n.value}".rstrip()
        for note in n.notes:
            yield f"{pad}{indent}  │ {note}"
        if n.error is not None:
            e = n.error
            yield f"{pad}{indent}  ! {e.rule} at offset {e.offset} ({e.path}): {e.message}"
        if n.beside:
            yield from _beside(n, wide)
    for note in ex.notes:
        yield f"note: {note}"
    if ex.errors:
        yield f"{len(ex.errors)} error(s):"
        for e in ex.errors:
            yield f"  {e.rule} at offset {e.offset} ({e.path}): {e.message}"


def _beside(n: Node, wide: int) -> Iterator[str]:
    """The field's bytes, 16 a row (hex and ASCII), with its ``beside`` lines to the right."""
    rows = [n.dump[i : i + 16] for i in range(0, len(n.dump), 16)]
    for i in range(max(len(rows), len(n.beside))):
        right = n.beside[i] if i < len(n.beside) else ""
        if i < len(rows):
            chunk = rows[i]
            text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
            left = f"{n.dump_at + 16 * i:0{wide}x}  {chunk.hex(' '):<47}  {text:<16}"
        else:
            left = " " * (wide + 2 + 47 + 2 + 16)
        yield f"  {left}  │ {right}".rstrip()
