"""``lakestruct scan PATH...``: find every file lakestruct understands and check it (``lakestruct.scan``).

This is the single-machine twin of the Spark inventory job: one line per file
(format, verdict, what it holds or the rule it breaks) and a summary. Files of
formats lakestruct does not read are counted, not reported.

Exit status: 0 when every file checked passes, 1 when any breaks a rule or a path
does not exist (encrypted Parquet files, not readable without keys, are not failures).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict
from typing import Any

from ..scan import ScanResult, check_file, detect, walk
from ..source import STDIN
from .deletes import add_max_positions

__all__ = ["register"]


def register(sub: Any) -> None:
    p = sub.add_parser(
        "scan",
        help="check every file lakestruct understands under the given paths",
        description="Check every Puffin, Parquet, deletion-vector (Iceberg blob, Delta/Paimon file), Theta sketch and "
        "Roaring file under the given paths. Exits 1 when any breaks a rule.",
    )
    p.add_argument("paths", nargs="+", help="files or directories (- for standard input)")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    add_max_positions(p)
    p.add_argument("--strict", action="store_true", help=argparse.SUPPRESS)  # the default since 0.1; kept so scripts still run
    p.set_defaults(func=_scan)


def _scan(args: argparse.Namespace) -> int:
    results: list[ScanResult] = []
    skipped = 0
    missing = [p for p in args.paths if p != STDIN and "://" not in p and not os.path.lexists(p)]
    for p in missing:
        print(f"lakestruct: error: {p}: no such file or directory", file=sys.stderr)
    for path in walk([p for p in args.paths if p not in missing], nested_tables=True):
        fmt = detect(path)
        if fmt is None:
            skipped += 1
            continue
        r = check_file(path, fmt, max_positions=args.max_positions)
        results.append(r)
        if args.json:
            print(json.dumps(asdict(r), ensure_ascii=False))
        else:
            print(f"{'ok  ' if r.ok else 'FAIL'}  {r.format:<9} {r.path}: {r.summary}")
    bad = sum(not r.ok for r in results)
    summary: dict[str, Any] = {"files": len(results), "ok": len(results) - bad, "failed": bad, "other_files": skipped}
    if missing:
        summary["missing_paths"] = len(missing)
    if args.json:
        print(json.dumps({"summary": summary}))
    else:
        print(f"\n{summary['files']} file(s) checked: {summary['ok']} ok, {bad} breaking a rule; {skipped} other file(s) skipped")
    return 1 if bad or missing else 0
