"""``lakestruct scan PATH...``: find every file lakestruct understands and check it (``lakestruct.scan``).

This is the single-machine twin of the Spark inventory job: one line per file
(format, verdict, what it holds or the rule it breaks) and a summary. Files of
formats lakestruct does not read are counted, not reported.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import Any

from ..scan import ScanResult, check_file, detect, walk

__all__ = ["register"]


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
        r = check_file(path, fmt)
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
