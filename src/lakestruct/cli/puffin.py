"""``lakestruct puffin inspect FILE [--json]``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import puffin
from ._table import render_table

__all__ = ["register", "inspect_json", "inspect_text"]


def register(sub: Any) -> None:
    p = sub.add_parser("puffin", help="Puffin files (Iceberg statistics and deletion vectors)")
    psub = p.add_subparsers(dest="puffin_command", metavar="SUBCOMMAND")
    psub.required = True
    i = psub.add_parser(
        "inspect",
        help="show file properties, the footer and every blob's metadata",
        description="Show a Puffin file's properties, footer and blob metadata, after checking every rule "
        "(magics, sizes, flags, JSON schema, codecs, blob ranges, and that every blob decompresses).",
    )
    i.add_argument("file", help="path, fsspec URL, or - for standard input")
    i.add_argument("--json", action="store_true", help="print JSON instead of tables")
    i.add_argument("--no-check", action="store_true", help="read the footer only; do not read or decompress blobs")
    i.set_defaults(func=_inspect)


def _open(path: str) -> puffin.PuffinReader:
    if path == "-":
        return puffin.open(sys.stdin.buffer.read())
    return puffin.open(path)


def inspect_json(r: puffin.PuffinReader) -> dict[str, Any]:
    return {
        "file": r.name,
        "file-size": r.footer.file_size,
        "footer": r.footer.to_json(),
        "properties": dict(r.properties),
        "blobs": [b.to_json() for b in r.blobs],
    }


def inspect_text(r: puffin.PuffinReader) -> str:
    f = r.footer
    lines = [
        f"file        {r.name}",
        f"size        {f.file_size} bytes",
        f"footer      offset {f.offset}, {f.size} bytes, payload {f.payload_length} bytes"
        + (" (LZ4-compressed)" if f.compressed else " (uncompressed)"),
        "",
        "properties",
    ]
    if r.properties:
        width = max(len(k) for k in r.properties)
        lines += [f"  {k.ljust(width)}  {v}" for k, v in r.properties.items()]
    else:
        lines.append("  (none)")
    lines += ["", f"blobs ({len(r.blobs)})"]
    if r.blobs:
        rows = [
            [
                str(i),
                b.type,
                json.dumps(list(b.fields)),
                str(b.snapshot_id),
                str(b.sequence_number),
                str(b.offset),
                str(b.length),
                b.compression_codec or "none",
            ]
            for i, b in enumerate(r.blobs)
        ]
        header = ["#", "type", "fields", "snapshot-id", "sequence-number", "offset", "length", "codec"]
        lines += ["  " + line for line in render_table(header, rows, right={0, 3, 4, 5, 6})]
        with_props = [(i, b) for i, b in enumerate(r.blobs) if b.properties]
        if with_props:
            lines += ["", "blob properties"]
            for i, b in with_props:
                width = max(len(k) for k in b.properties)
                for k, v in b.properties.items():
                    lines.append(f"  #{i}  {k.ljust(width)}  {v}")
    return "\n".join(lines)


def _inspect(args: argparse.Namespace) -> int:
    with _open(args.file) as r:
        if not args.no_check:
            r.check()
        if args.json:
            print(json.dumps(inspect_json(r), indent=2, ensure_ascii=False))
        else:
            print(inspect_text(r))
    return 0
