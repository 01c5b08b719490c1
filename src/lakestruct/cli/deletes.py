"""``lakestruct deletes show FILE``: the deletion vectors in a Puffin file, a bare blob,
or a Delta Lake / Paimon deletion-vector file, every rule checked."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .. import deletes
from ..source import open_source

__all__ = ["register"]

SHOWN_ROWS = 20
KINDS = ("auto", "puffin", "blob", "dv-file")


def register(sub: Any) -> None:
    p = sub.add_parser("deletes", help="deletion vectors (Iceberg DV blobs, Delta and Paimon DV files)")
    dsub = p.add_subparsers(dest="deletes_command", metavar="SUBCOMMAND")
    dsub.required = True
    s = dsub.add_parser(
        "show",
        help="decode and check deletion vectors",
        description="Decode deletion vectors and check every rule (envelope length, magic, CRC, Roaring structure, "
        "Iceberg key limits, cardinality). FILE is a Puffin file (all DV blobs, or the one at --offset/--length as an "
        "Iceberg manifest records it), a bare deletion-vector-v1 blob, or a Delta/Paimon DV file (version byte 1, then "
        "entries; --offset/--length pick one as a Delta descriptor's offset/sizeInBytes do).",
    )
    s.add_argument("file", help="path, fsspec URL, or - for standard input")
    s.add_argument("--kind", choices=KINDS, default="auto", help="what FILE is (default: from its magic bytes)")
    s.add_argument("--offset", type=int, help="Puffin: content_offset; DV file: the descriptor's offset")
    s.add_argument("--length", type=int, help="Puffin: content_size_in_bytes; DV file: the descriptor's sizeInBytes")
    s.add_argument("--all", action="store_true", help=f"show every deleted row (default: the first {SHOWN_ROWS})")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_show)


def detect(head: bytes) -> str:
    if head[:4] == b"PFA1":
        return "puffin"
    if head[:1] == b"\x01" and head[5:9] in (deletes.MAGIC, bytes.fromhex("5e43f2d0")):
        return "dv-file"
    return "blob"


def _rows(dv: deletes.DeletionVector, all_rows: bool) -> dict[str, Any]:
    pos = dv.positions()
    shown = pos if all_rows or pos.size <= SHOWN_ROWS else pos[:SHOWN_ROWS]
    out: dict[str, Any] = {"cardinality": int(pos.size), "deleted_rows": shown.tolist()}
    if shown.size < pos.size:
        out["deleted_rows_truncated"] = True
        out["last_deleted_row"] = int(pos[-1])
    return out


def _show(args: argparse.Namespace) -> int:
    if (args.offset is None) != (args.length is None):
        raise SystemExit("lakestruct: error: --offset and --length go together")
    kind = args.kind
    if kind == "auto":
        with open_source(args.file) as src:
            kind = detect(src.read(0, 9))
    entries: list[dict[str, Any]] = []
    if kind == "puffin":
        if args.offset is not None:
            found = {"?": deletes.read_deletion_vector(args.file, offset=args.offset, length=args.length)}
        else:
            found = dict(deletes.read_deletion_vectors(args.file))
        for ref, dv in found.items():
            entries.append({"referenced_data_file": dv.referenced_data_file or ref, "offset": dv.offset, "length": dv.length,
                            **_rows(dv, args.all)})
    elif kind == "dv-file":
        if args.offset is not None:
            dv = deletes.read_delta_deletion_vector(args.file, offset=args.offset, size_in_bytes=args.length)
            entries.append({"offset": dv.offset, "length": dv.length, "bits": 64, **_rows(dv, args.all)})
        else:
            for entry in deletes.read_paimon_deletion_vectors(args.file):
                entries.append({"offset": entry.offset, "length": entry.length, "bits": entry.bits, **_rows(entry.vector, args.all)})
    else:
        with open_source(args.file) as src:
            start, size = (args.offset, args.length) if args.offset is not None else (0, src.size)
            raw = src.read_exact(start, size, rule="deletion-vector.truncated", path="blob")
        dv = deletes.DeletionVector.from_blob(raw)
        entries.append({"offset": start, "length": size, **_rows(dv, args.all)})
    if args.json:
        print(json.dumps({"file": args.file, "kind": kind, "deletion_vectors": entries}, indent=2))
        return 0
    print(f"{args.file}: {kind}, {len(entries)} deletion vector(s)")
    for i, e in enumerate(entries):
        where = f"offset {e['offset']}, length {e['length']}"
        ref = f" for {e['referenced_data_file']}" if "referenced_data_file" in e else ""
        rows = ", ".join(map(str, e["deleted_rows"]))
        more = f", ... {e['last_deleted_row']}] (--all shows all {e['cardinality']})" if e.get("deleted_rows_truncated") else "]"
        print(f"  #{i}{ref} ({where}): cardinality {e['cardinality']}")
        print(f"      deletedRows [{rows}{more}")
    return 0
