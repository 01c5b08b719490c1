"""``lakestruct puffin inspect FILE [--json]``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .. import puffin
from ..errors import LimitError
from ..puffin.decode import DecodedBlob, check_blobs
from ._table import render_table
from .deletes import add_max_positions, explain_limit

#: Deleted rows shown per deletion vector unless --all.
SHOWN_ROWS = 20

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
    i.add_argument("--no-check", action="store_true", help="read the footer only; do not read, decompress or decode blobs")
    i.add_argument("--all", action="store_true", help=f"show every deleted row of deletion vectors (default: the first {SHOWN_ROWS})")
    add_max_positions(i)
    i.set_defaults(func=_inspect)


def _open(path: str) -> puffin.PuffinReader:
    return puffin.open(path)  # "-" is standard input (lakestruct.source.open_source)


def inspect_json(r: puffin.PuffinReader, decoded: list[DecodedBlob] | None = None, *, all_rows: bool = False) -> dict[str, Any]:
    blobs = [b.to_json() for b in r.blobs]
    for d in decoded or []:
        if d.deletion_vector is not None or d.sketch is not None:
            decoded_json = d.to_json(max_positions=None if all_rows else SHOWN_ROWS)
            blobs[d.index]["decoded"] = {k.replace("-", "_"): v for k, v in decoded_json.items()}  # lakestruct's keys: snake_case
    f = r.footer
    return {
        "file": r.name,
        "file_size": f.file_size,
        "footer": {"offset": f.offset, "size": f.size, "payload_offset": f.payload_offset, "payload_length": f.payload_length,
                   "payload_compressed": f.compressed},
        "properties": dict(r.properties),
        "blobs": blobs,
    }


def describe(d: DecodedBlob, *, all_rows: bool = False) -> str | None:
    """One line for a decoded blob, or None for opaque ones."""
    if d.deletion_vector is not None:
        pos = d.deletion_vector.positions()
        n = int(pos.size)
        if all_rows or n <= SHOWN_ROWS:
            rows = ", ".join(map(str, pos.tolist()))
            return f"deletion vector, cardinality {n}: deletedRows [{rows}]"
        head = ", ".join(map(str, pos[:SHOWN_ROWS].tolist()))
        return f"deletion vector, cardinality {n}: deletedRows [{head}, ... {int(pos[-1])}] (--all shows all {n})"
    if d.sketch is not None:
        s = d.sketch
        mode = f"theta {s.theta:.6g}, estimation mode" if s.is_estimation_mode else "exact"
        line = (
            f"theta sketch (serial version {s.serial_version}): {s.num_retained} retained, {mode}, "
            f"estimate {s.estimate():.6g} [{s.lower_bound(2):.6g}, {s.upper_bound(2):.6g} at 2 sd]"
        )
        return line + (f"; {d.ndv_message}" if d.ndv_message else "")
    return None


def inspect_text(r: puffin.PuffinReader, decoded: list[DecodedBlob] | None = None, *, all_rows: bool = False) -> str:
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
    described = [(d.index, describe(d, all_rows=all_rows)) for d in decoded or []]
    described = [(i, text) for i, text in described if text]
    if described:
        lines += ["", "decoded blobs"]
        lines += [f"  #{i}  {text}" for i, text in described]
    return "\n".join(lines)


def _inspect(args: argparse.Namespace) -> int:
    with _open(args.file) as r:
        decoded: list[DecodedBlob] = []
        if not args.no_check:
            r.check_header()
            try:
                decoded = check_blobs(r, max_positions=args.max_positions)  # every blob read once, known types decoded
            except LimitError as e:
                raise explain_limit(e) from None
        if args.json:
            print(json.dumps(inspect_json(r, decoded, all_rows=args.all), indent=2, ensure_ascii=False))
        else:
            print(inspect_text(r, decoded, all_rows=args.all))
    return 0
