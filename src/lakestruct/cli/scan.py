"""``lakestruct scan PATH...``: find every file lakestruct understands and check it.

This is the single-machine twin of the Spark inventory job: one line per file
(format, verdict, what it holds or the rule it breaks) and a summary. Files of
formats lakestruct does not read are counted, not reported.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from .. import parquet, puffin
from ..errors import FormatError, LakestructError
from ..source import open_source

__all__ = ["register", "ScanResult", "scan_file", "walk"]


@dataclass(frozen=True)
class ScanResult:
    path: str
    format: str
    ok: bool
    summary: str
    rule: str | None = None
    offset: int | None = None


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


def scan_file(path: str, fmt: str) -> ScanResult:
    try:
        if fmt == "parquet":
            return _scan_parquet(path)
        if fmt == "puffin":
            with puffin.open(path) as r:
                r.check()
                kinds: dict[str, int] = {}
                for b in r.blobs:
                    kinds[b.type] = kinds.get(b.type, 0) + 1
                desc = ", ".join(f"{n} {t}" for t, n in kinds.items()) or "no blobs"
                return ScanResult(path, fmt, True, f"{len(r.blobs)} blob(s): {desc}")
        raise AssertionError(fmt)
    except FormatError as e:
        where = f"offset {e.offset}" if e.offset is not None else "offset unknown"
        return ScanResult(path, fmt, False, f"{e.rule} at {where} ({e.path}): {e.message}", e.rule, e.offset)
    except LakestructError as e:
        return ScanResult(path, fmt, False, str(e))


def _scan_parquet(path: str) -> ScanResult:
    """Footer, schema and every page header; encrypted files are reported, not failed."""
    try:
        with parquet.open(path) as pq:
            n_pages = pq.check()
            md = pq.metadata
            note = f"; {len(pq.warnings)} warning(s): {pq.warnings[0].rule}" if pq.warnings else ""
            summary = f"{md.num_rows} rows, {len(md.row_groups)} row group(s), {len(pq.columns())} column(s), {n_pages} pages{note}"
            return ScanResult(path, "parquet", True, summary)
    except parquet.EncryptedError as e:
        return ScanResult(path, "parquet", True, f"encrypted footer/columns, not readable: {e.message}", e.rule, e.offset)


def walk(paths: list[str]) -> Iterator[str]:
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for f in sorted(files):
                    yield os.path.join(root, f)
        else:
            yield p


def register(sub: Any) -> None:
    p = sub.add_parser("scan", help="check every file lakestruct understands under the given paths")
    p.add_argument("paths", nargs="+", help="files or directories")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--strict", action="store_true", help="exit 1 when any file breaks a rule")
    p.set_defaults(func=_scan)


def _scan(args: argparse.Namespace) -> int:
    results: list[ScanResult] = []
    skipped = 0
    for path in walk(args.paths):
        fmt = detect(path)
        if fmt is None:
            skipped += 1
            continue
        r = scan_file(path, fmt)
        results.append(r)
        if args.json:
            print(json.dumps(asdict(r), ensure_ascii=False))
        else:
            print(f"{'ok  ' if r.ok else 'FAIL'}  {r.format:<7} {r.path}: {r.summary}")
    bad = sum(not r.ok for r in results)
    summary: dict[str, Any] = {"files": len(results), "ok": len(results) - bad, "failed": bad, "other_files": skipped}
    if args.json:
        print(json.dumps({"summary": summary}))
    else:
        print(f"\n{summary['files']} file(s) checked: {summary['ok']} ok, {bad} breaking a rule; {skipped} other file(s) skipped")
    return 1 if (bad and args.strict) else 0
