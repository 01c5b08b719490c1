"""Find the lake files lakestruct understands and check them: the one code path behind
``lakestruct scan``, the Spark inventory's ``files`` table and ``lakestruct validate``.

``detect(path)`` names a file's format from its magic bytes; ``check_file(path, fmt)``
runs that format's checks and returns a :class:`ScanResult` (never raises for malformed
input: the broken rule, offset and field path are in the result).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from . import parquet, puffin
from .errors import FormatError, LakestructError
from .source import open_source

__all__ = ["ScanResult", "check_file", "detect", "walk"]


@dataclass(frozen=True)
class ScanResult:
    path: str
    format: str
    ok: bool
    summary: str
    rule: str | None = None
    offset: int | None = None
    field_path: str | None = None


def detect(path: str) -> str | None:
    """The format of a file from its magic bytes, or None."""
    try:
        with open_source(path) as src:
            if src.size < 4:
                return None
            head = src.read(0, 4)
            tail = src.read(src.size - 4, 4)
    except LakestructError:
        return None
    if head == puffin.MAGIC or tail == puffin.MAGIC:
        return "puffin"
    if head in (parquet.MAGIC, parquet.MAGIC_ENCRYPTED) or tail in (parquet.MAGIC, parquet.MAGIC_ENCRYPTED):
        return "parquet"
    return None


def check_file(path: str, fmt: str) -> ScanResult:
    """Run every check of ``fmt`` on ``path``; malformed input becomes a failed result."""
    try:
        if fmt == "parquet":
            return _check_parquet(path)
        if fmt == "puffin":
            with puffin.open(path) as r:
                r.check()
                kinds: dict[str, int] = {}
                for b in r.blobs:
                    kinds[b.type] = kinds.get(b.type, 0) + 1
                desc = ", ".join(f"{n} {t}" for t, n in kinds.items()) or "no blobs"
                return ScanResult(path, fmt, True, f"{len(r.blobs)} blob(s): {desc}")
        raise ValueError(f"unknown format {fmt!r}")
    except FormatError as e:
        where = f"offset {e.offset}" if e.offset is not None else "offset unknown"
        return ScanResult(path, fmt, False, f"{e.rule} at {where} ({e.path}): {e.message}", e.rule, e.offset, e.path)
    except LakestructError as e:
        return ScanResult(path, fmt, False, str(e))


def _check_parquet(path: str) -> ScanResult:
    """Footer, schema and every page header; encrypted files are reported, not failed."""
    try:
        with parquet.open(path) as pq:
            n_pages = pq.check()
            md = pq.metadata
            note = f"; {len(pq.warnings)} warning(s): {pq.warnings[0].rule}" if pq.warnings else ""
            summary = f"{md.num_rows} rows, {len(md.row_groups)} row group(s), {len(pq.columns())} column(s), {n_pages} pages{note}"
            return ScanResult(path, "parquet", True, summary)
    except parquet.EncryptedError as e:
        return ScanResult(path, "parquet", True, f"encrypted footer/columns, not readable: {e.message}", e.rule, e.offset, e.path)


def walk(paths: list[str]) -> Iterator[str]:
    """Every file under ``paths`` (directories recursively, sorted), files as given."""
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for f in sorted(files):
                    yield os.path.join(root, f)
        else:
            yield p
