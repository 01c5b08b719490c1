"""``lakestruct explain FILE``: an annotated hex dump, one line per field (``lakestruct.explain``).

Exit status: 0 when the file reads without error, 1 when it breaks a rule (the explanation still shows
everything read before each error, and the errors with their rule, offset and field path) or is of no
format explain reads, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import UsageError
from ..explain import FORMATS, MAX_FIELDS, explain, render_text, write_html

__all__ = ["parse_range", "register"]


def parse_range(text: str) -> tuple[int, int | None]:
    """``START:END`` (half open; decimal or 0x hex; either may be left out) as (start, end or None)."""
    start_s, sep, end_s = text.partition(":")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected START:END, not {text!r}")
    try:
        start = int(start_s, 0) if start_s.strip() else 0
        end = int(end_s, 0) if end_s.strip() else None
    except ValueError:
        raise argparse.ArgumentTypeError(f"START and END must be integers (decimal or 0x hex), not {text!r}") from None
    if start < 0 or (end is not None and end < start):
        raise argparse.ArgumentTypeError(f"invalid range {text!r}: need 0 <= START <= END")
    return start, end


def _depth(text: str) -> int:
    """A positive integer (--depth, --max-fields)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def register(sub: Any) -> None:
    p = sub.add_parser(
        "explain",
        help="annotated hex dump: every field with its byte range and decoded value",
        description="Show every field of a Parquet, Puffin, deletion-vector, Roaring or Theta file with its byte range, "
        "first bytes and decoded value, nested by structure (Parquet pages with their decoded levels and first values, "
        "the Puffin footer JSON beside its bytes, Roaring containers with keys and cardinalities). Only the structures "
        "the range touches are read.",
    )
    p.add_argument("file", help="the file (a path, an fsspec URL, or - for standard input)")
    p.add_argument("--format", choices=FORMATS, help="the format (default: detected from the magic bytes)")
    p.add_argument("--range", type=parse_range, metavar="START:END", help="only the fields overlapping these bytes (0x hex allowed)")
    p.add_argument("--depth", type=_depth, metavar="N", help="show N levels of nesting (1: top-level structures only)")
    p.add_argument(
        "--max-fields", type=_depth, metavar="N", default=MAX_FIELDS,
        help=f"stop walking after about N fields (default {MAX_FIELDS}); a note says where, --range from there continues",
    )
    p.add_argument("--html", metavar="OUT", help="write a self-contained HTML page (hex view and field tree) to OUT instead")
    p.add_argument("--json", action="store_true", help="one JSON object: the fields (path, level, start, end, kind, value, notes)")
    p.set_defaults(func=_explain)


def _explain(args: argparse.Namespace) -> int:
    if args.html and args.json:
        raise UsageError("--html and --json write different outputs: choose one")
    ex = explain(
        args.file, format=args.format, range=args.range, depth=args.depth, with_bytes=bool(args.html), max_fields=args.max_fields
    )
    if args.html:
        write_html(ex, args.html)
        print(f"lakestruct: wrote {args.html} ({sum(1 for _ in ex.walk())} fields)", file=sys.stderr)
    elif args.json:
        print(json.dumps(ex.to_dict(), ensure_ascii=False))
    else:
        for line in render_text(ex):
            print(line)
    for e in ex.errors:
        print(f"lakestruct: error: {e}", file=sys.stderr)
    return 1 if ex.errors else 0
