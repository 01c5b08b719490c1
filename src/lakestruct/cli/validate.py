"""``lakestruct validate PATH... [--deep] [--format F] [--json]``: every rule of every format, as a table.

The checks are ``lakestruct.scan``'s (``detect`` and ``validate_file``, the code behind ``scan`` and
the Spark inventory); ``--deep`` also decodes every Parquet page's levels and values. One row per
rule broken (and per warning) and one per valid file: file, format, status, rule, offset, field path,
message. Files of other formats found in folders are counted, not reported; a file named on the
command line that is of no format lakestruct reads is a failure (``scan.format-unknown``) unless
``--format`` says what to check it as.

Exit status: 0 when every file is valid (warnings and encrypted Parquet files, not readable without
keys, are not failures), 1 when any file breaks a rule, is of no known format or a path does not
exist, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..rules import meaning
from ..scan import FORMATS, FileReport, Finding, detect, validate_file, walk
from ..source import STDIN
from ._table import render_table
from .deletes import add_max_positions

__all__ = ["register", "UNKNOWN_FORMAT"]

#: The rule of a file named on the command line that no format's signature matches.
UNKNOWN_FORMAT = "scan.format-unknown"

_HEADER = ("file", "format", "status", "rule", "offset", "field path", "message")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "validate",
        help="check files against every rule of their format; a table of the rules broken",
        description="Check every Puffin, Parquet, deletion-vector, Theta sketch and Roaring file under the given paths against "
        "every rule lakestruct knows for its format, and print each rule broken (file, rule, offset, field path, message). "
        "--deep also decodes every Parquet page's levels and values. Exits 1 when any file is invalid.",
    )
    p.add_argument("paths", nargs="+", help="files or folders (local, s3://... or any fsspec URL; - for standard input)")
    p.add_argument("--deep", action="store_true", help="also decode every Parquet page's levels and values")
    p.add_argument("--format", choices=FORMATS, help="check every file as this format instead of detecting it")
    p.add_argument("--json", action="store_true", help="one JSON object per file, then a summary object")
    add_max_positions(p)
    p.set_defaults(func=_validate)


def _validate(args: argparse.Namespace) -> int:
    missing = [p for p in args.paths if p != STDIN and "://" not in p and not os.path.lexists(p)]
    for p in missing:
        print(f"lakestruct: error: {p}: no such file or directory", file=sys.stderr)
    reports: list[FileReport] = []
    skipped = 0
    rows: list[list[str]] = []
    for arg in (p for p in args.paths if p not in missing):
        named = arg == STDIN or not (os.path.isdir(arg) or "://" in arg)
        for path in walk([arg], nested_tables=True):  # Paimon tables below a folder, as scan finds them
            fmt = args.format or detect(path)
            if fmt is None:
                if not named:
                    skipped += 1
                    continue
                report = _unknown(path)
            else:
                report = validate_file(path, fmt, deep=args.deep, max_positions=args.max_positions)
            reports.append(report)
            if args.json:
                print(json.dumps(_json(report), ensure_ascii=False), flush=True)
            else:
                rows.extend(_rows(report))
    bad = sum(not r.result.ok for r in reports)
    summary: dict[str, Any] = {
        "files": len(reports),
        "valid": len(reports) - bad,
        "invalid": bad,
        "errors": sum(len(r.errors) + r.more for r in reports),
        "warnings": sum(len(r.warnings) for r in reports),
        "other_files": skipped,
        "deep": args.deep,
    }
    if missing:
        summary["missing_paths"] = len(missing)
    if args.json:
        print(json.dumps({"summary": summary}))
    else:
        if rows:
            print("\n".join(render_table(_HEADER, rows, right={4})))
            print()
        mode = "deep" if args.deep else "structure"
        print(f"{summary['files']} file(s) validated ({mode}): {summary['valid']} valid, {bad} invalid "
              f"({summary['errors']} error(s), {summary['warnings']} warning(s)); {skipped} other file(s) skipped")
    return 1 if bad or missing else 0


def _unknown(path: str) -> FileReport:
    from ..scan import ScanResult

    msg = f"not a format lakestruct reads ({', '.join(FORMATS)}); --format F checks it as F"
    return FileReport(ScanResult(path, "?", False, msg, UNKNOWN_FORMAT, 0, ""), (Finding(UNKNOWN_FORMAT, 0, "", msg),))


def _cell(v: object) -> str:
    return "-" if v is None or v == "" else str(v)


def _rows(r: FileReport) -> list[list[str]]:
    res = r.result
    if res.ok and not r.findings:
        return [[res.path, res.format, "ok", "-", "-", "-", res.summary]]
    out = []
    for f in r.findings:
        status = "warn" if f.warning else "FAIL"
        out.append([res.path, res.format, status, _cell(f.rule), _cell(f.offset), _cell(f.field_path), f.message])
    if res.ok:  # valid with warnings: what the file holds, after them
        out.append([res.path, res.format, "ok", "-", "-", "-", res.summary])
    if r.more:
        out.append([res.path, res.format, "FAIL", "-", "-", "-", f"... {r.more} more finding(s) not shown"])
    return out


def _json(r: FileReport) -> dict[str, Any]:
    res = r.result
    return {
        "path": res.path,
        "format": res.format,
        "valid": res.ok,
        "summary": res.summary,
        "findings": [
            {"rule": f.rule, "meaning": meaning(f.rule) if f.rule else None, "offset": f.offset, "field_path": f.field_path,
             "message": f.message, "severity": "warning" if f.warning else "error"}
            for f in r.findings
        ],
        "more_findings": r.more,
    }
