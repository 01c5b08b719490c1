"""Plain-text tables for the CLI."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["render_table"]


def render_table(header: Sequence[str], rows: Sequence[Sequence[str]], *, right: set[int] | frozenset[int] = frozenset()) -> list[str]:
    """Columns padded to their widest cell; column indexes in ``right`` are right-aligned."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]

    def fmt(cells: Sequence[str]) -> str:
        out = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
        return "  ".join(out).rstrip()

    return [fmt(header), fmt(["-" * w for w in widths]), *(fmt(r) for r in rows)]
