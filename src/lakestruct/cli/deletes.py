"""``lakestruct deletes show FILE``: the deletion vectors in a Puffin file, a bare blob,
or a Delta Lake / Paimon deletion-vector file, every rule checked."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .. import deletes
from ..errors import FormatError, LimitError, UsageError
from ..roaring.read import CHECK_MAX_POSITIONS
from ..source import open_source

__all__ = ["CLI_MAX_POSITIONS", "add_max_positions", "explain_limit", "register"]

SHOWN_ROWS = 20
KINDS = ("auto", "puffin", "blob", "dv-file")
#: Positions the CLI decodes per file unless ``--max-positions`` says otherwise: ``roaring.CHECK_MAX_POSITIONS``, 2^24
#: (128 MiB of int64), the one cap of scan, validate and the inventory too. The library's default,
#: ``roaring.DEFAULT_MAX_POSITIONS`` (2^28, 2 GiB), is reached by a 58 KB blob of run containers.
CLI_MAX_POSITIONS = CHECK_MAX_POSITIONS


def _max_positions(text: str) -> int | None:
    if text.lower() in ("none", "unlimited"):
        return None
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer or 'none', not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer or 'none', not {text!r}")
    return n


def add_max_positions(parser: argparse.ArgumentParser, per: str = "file") -> None:
    parser.add_argument(
        "--max-positions",
        type=_max_positions,
        default=CLI_MAX_POSITIONS,
        metavar="N",
        help=f"decode at most N deleted positions per {per} (default {CLI_MAX_POSITIONS:,} = 2^24, 128 MiB; "
        "'none' for no limit); more exit 1 with roaring.max-positions",
    )


def explain_limit(e: LimitError) -> LimitError:
    """Say how to raise the CLI's position limit (the error is raised again by the caller)."""
    if e.rule == "roaring.max-positions" and "--max-positions" not in e.message:
        e.message += "; --max-positions N raises the limit ('none' lifts it)"
    return e


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
        "entries; --offset/--length pick one as a Delta descriptor's offset/sizeInBytes or a Paimon DeletionVectorMeta's "
        "offset/length do; a file of just the version byte holds none).",
    )
    s.add_argument("file", help="path, fsspec URL, or - for standard input")
    s.add_argument("--kind", choices=KINDS, default="auto", help="what FILE is (default: from its magic bytes)")
    s.add_argument("--offset", type=int, help="Puffin: content_offset; DV file: the Delta descriptor's or Paimon "
                   "DeletionVectorMeta's offset")
    s.add_argument("--length", type=int, help="Puffin: content_size_in_bytes; DV file: the Delta sizeInBytes or Paimon length "
                   "(with --offset)")
    add_max_positions(s)
    s.add_argument("--all", action="store_true", help=f"show every deleted row (default: the first {SHOWN_ROWS})")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_show)


def detect(head: bytes) -> str:
    if head[:4] == b"PFA1":
        return "puffin"
    if head == b"\x01" or (head[:1] == b"\x01" and head[5:9] in (deletes.MAGIC, deletes.PAIMON_MAGIC32)):
        return "dv-file"  # (a file of just the version byte: an index file with no entries, as Paimon writes it)
    return "blob"


def _rows(dv: deletes.DeletionVector, all_rows: bool) -> dict[str, Any]:
    pos = dv.positions()
    shown = pos if all_rows or pos.size <= SHOWN_ROWS else pos[:SHOWN_ROWS]
    out: dict[str, Any] = {"cardinality": int(pos.size), "deleted_rows": shown.tolist()}
    if shown.size < pos.size:
        out["deleted_rows_truncated"] = True
        out["last_deleted_row"] = int(pos[-1])
    return out


def _dv_file_entry(args: argparse.Namespace) -> dict[str, Any]:
    """One entry of a Delta DV file (descriptor offset, sizeInBytes S) or a Paimon index file (DeletionVectorMeta
    offset, length: S for a 32-bit entry, S + 8 for a 64-bit one), told apart by the entry's magic and length."""
    with open_source(args.file) as src:
        head = src.read(args.offset, 8)
    size = int.from_bytes(head[:4], "big", signed=True) if len(head) == 8 else None
    if size is not None and (head[4:8] == deletes.PAIMON_MAGIC32 or (head[4:8] == deletes.MAGIC and args.length == size + 8)):
        e = deletes.read_paimon_deletion_vector(args.file, offset=args.offset, length=args.length, max_positions=args.max_positions)
        return {"offset": e.offset, "length": e.length, "bits": e.bits, **_rows(e.vector, args.all)}
    dv = deletes.read_delta_deletion_vector(args.file, offset=args.offset, size_in_bytes=args.length, max_positions=args.max_positions)
    return {"offset": dv.offset, "length": dv.length, "bits": 64, **_rows(dv, args.all)}


def _show(args: argparse.Namespace) -> int:
    try:
        return _show_checked(args)
    except LimitError as e:
        raise explain_limit(e) from None


def _show_checked(args: argparse.Namespace) -> int:
    if (args.offset is None) != (args.length is None):
        raise UsageError("--offset and --length go together")
    if args.offset is not None and (args.offset < 0 or args.length < 0):
        raise UsageError("--offset and --length must not be negative")
    kind = args.kind
    if kind == "auto":
        with open_source(args.file) as src:
            kind = detect(src.read(0, 9))
    entries: list[dict[str, Any]] = []
    if kind == "puffin":
        if args.offset is not None:
            found = {"?": deletes.read_deletion_vector(args.file, offset=args.offset, length=args.length, max_positions=args.max_positions)}
        else:
            found = dict(deletes.read_deletion_vectors(args.file, max_positions=args.max_positions))
        for ref, dv in found.items():
            entries.append({"referenced_data_file": dv.referenced_data_file or ref, "offset": dv.offset, "length": dv.length,
                            **_rows(dv, args.all)})
    elif kind == "dv-file":
        if args.offset is not None:
            entries.append(_dv_file_entry(args))
        else:
            for entry in deletes.read_paimon_deletion_vectors(args.file, max_positions=args.max_positions):
                entries.append({"offset": entry.offset, "length": entry.length, "bits": entry.bits, **_rows(entry.vector, args.all)})
    else:
        with open_source(args.file) as src:
            start, size = (args.offset, args.length) if args.offset is not None else (0, src.size)
            raw = src.read_exact(start, size, rule="deletion-vector.truncated", path="blob")
        try:
            dv = deletes.DeletionVector.from_blob(raw, max_positions=args.max_positions)
        except FormatError as err:
            raise err.with_source(src.name) from None
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
