"""``lakestruct iceberg snapshots|files|deletes|orphans|check TABLE``: an Iceberg table read from its files (metadata
JSON, manifest lists, manifests, deletion vectors, position delete files), every rule checked (docs/iceberg.md)."""

from __future__ import annotations

import argparse
import datetime
import json
from typing import Any

from .. import iceberg
from ..errors import FormatError
from ..tables.model import DeleteFile, LiveFile
from ._table import render_table

__all__ = ["register"]


def register(sub: Any) -> None:
    p = sub.add_parser("iceberg", help="Iceberg tables: snapshots, live files with exact deleted rows, delete files, orphans, checks")
    isub = p.add_subparsers(dest="iceberg_command", metavar="SUBCOMMAND")
    isub.required = True
    commands = {
        "snapshots": ("every snapshot the metadata retains, oldest first, with its summary and refs", _snapshots),
        "files": ("the live data files of a snapshot: rows, deleted rows (exact), live rows and the delete files that apply", _files),
        "deletes": ("the live delete files of a snapshot: deletion vectors, position and equality delete files", _deletes),
        "orphans": ("files under the table no retained metadata references, and referenced files storage lacks", _orphans),
        "check": ("every rule the table's files break (exit 1 when one is broken)", _check),
    }
    for name, (help_text, func) in commands.items():
        s = sub_parser(isub, name, help_text)
        s.add_argument("table", metavar="TABLE", help="the table directory, a metadata.json file, or an fsspec URL")
        if name in ("files", "deletes"):
            g = s.add_mutually_exclusive_group()
            g.add_argument("--snapshot", type=int, metavar="ID", help="snapshot id (default: the current snapshot)")
            g.add_argument("--ref", metavar="NAME", help="a branch or tag")
        s.add_argument("--json", action="store_true")
        s.set_defaults(func=func)


def sub_parser(isub: Any, name: str, help_text: str) -> Any:
    return isub.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".")


def _print(doc: Any) -> None:
    print(json.dumps(doc, indent=2, default=str))


def _time(ms: int | None) -> str:
    if ms is None:
        return ""
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")


def _jsonable(v: Any) -> Any:
    if isinstance(v, (bytes, bytearray)):
        return v.hex()
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


def _rel(t: iceberg.Table, path: str) -> str:
    """A path as the table's metadata writes it, shown relative to the table's location (text output only)."""
    loc = t.location.rstrip("/") + "/"
    return path[len(loc):] if path.startswith(loc) else path


def _snapshots(args: argparse.Namespace) -> int:
    t = iceberg.open_table(args.table)
    md = t.metadata
    refs: dict[int, list[str]] = {}
    for name, r in md.refs.items():
        refs.setdefault(r.snapshot_id, []).append(name)
    rows: list[dict[str, Any]] = []
    for s in sorted(md.snapshots, key=lambda s: (s.sequence_number, s.timestamp_ms)):
        rows.append({"snapshot_id": s.snapshot_id, "parent_id": s.parent_snapshot_id, "sequence_number": s.sequence_number,
                     "timestamp_ms": s.timestamp_ms, "operation": s.operation, "manifest_list": s.manifest_list,
                     "schema_id": s.schema_id, "first_row_id": s.first_row_id, "added_rows": s.added_rows,
                     "refs": sorted(refs.get(s.snapshot_id, [])), "current": s.snapshot_id == md.current_snapshot_id,
                     "summary": dict(s.summary)})  # fmt: skip
    if args.json:
        _print({"table": args.table, "metadata_file": t.metadata_path, "format_version": md.format_version, "location": md.location,
                "current_snapshot_id": md.current_snapshot_id, "snapshots": rows})
        return 0
    print(f"Iceberg table v{md.format_version} at {md.location} ({t.metadata_path}): {len(rows)} snapshot(s), "
          f"current {md.current_snapshot_id if md.current_snapshot_id is not None else '-'}")
    header = ["snapshot", "parent", "seq", "time (UTC)", "operation", "records", "data files", "delete files", "refs"]
    cells = [[str(r["snapshot_id"]), str(r["parent_id"] if r["parent_id"] is not None else "-"), str(r["sequence_number"]),
              _time(r["timestamp_ms"]), r["operation"] or "", r["summary"].get("total-records", ""),
              r["summary"].get("total-data-files", ""), r["summary"].get("total-delete-files", ""), ",".join(r["refs"])]
             for r in rows]  # fmt: skip
    if cells:
        print("\n".join(render_table(header, cells, right={2, 5, 6, 7})))
    return 0


def _delete_doc(d: DeleteFile) -> dict[str, Any]:
    doc: dict[str, Any] = {"path": d.path, "kind": d.kind, "record_count": d.record_count, "file_size_in_bytes": d.size}
    if d.referenced_data_file is not None:
        doc["referenced_data_file"] = d.referenced_data_file
    if d.offset is not None:
        doc["content_offset"], doc["content_size_in_bytes"] = d.offset, d.length
    doc["sequence_number"] = d.extra.get("sequence_number")
    doc["partition"] = _jsonable(d.extra.get("partition", {}))
    if d.kind == "equality-deletes":
        doc["equality_ids"] = d.extra.get("equality_ids")
    return doc


def _file_doc(f: LiveFile) -> dict[str, Any]:
    return {"file_path": f.path, "file_format": f.file_format, "record_count": f.record_count, "file_size_in_bytes": f.size,
            "partition": _jsonable(f.partition), "deleted_rows": f.deleted_rows, "live_rows": f.live_rows,
            "positions_past_end": f.positions_past_end, "sequence_number": f.extra.get("sequence_number"),
            "deletes": [{"path": d.path, "kind": d.kind, **({"content_offset": d.offset} if d.offset is not None else {})}
                        for d in f.deletes]}  # fmt: skip


def _files(args: argparse.Namespace) -> int:
    t = iceberg.open_table(args.table)
    st = t.state(args.snapshot, ref=args.ref)
    rows = [_file_doc(f) for f in st.data_files]
    if args.json:
        _print({"table": args.table, "snapshot_id": st.snapshot_id, "files": rows})
        return 0
    if st.snapshot_id is None:
        print("the table has no snapshot")
        return 0
    eq = sum(1 for f in st.data_files for d in f.deletes if d.kind == "equality-deletes")
    print(f"snapshot {st.snapshot_id}: {len(rows)} live data file(s), {st.record_count} rows, {st.deleted_rows} deleted "
          f"(exact), {st.live_rows} live" + (f"; {eq} equality delete file(s) apply, not counted" if eq else ""))
    cells = [[_rel(t, r["file_path"]), str(r["record_count"]), str(r["deleted_rows"]), str(r["live_rows"]),
              ",".join(sorted({d["kind"] for d in r["deletes"]})) or "-"] for r in rows]  # fmt: skip
    past = sum(r["positions_past_end"] for r in rows)
    if cells:
        print(f"(paths relative to {t.location})")
        print("\n".join(render_table(["file_path", "rows", "deleted", "live", "deletes"], cells, right={1, 2, 3})))
    if past:
        print(f"{past} deleted position(s) at or past their file's record_count (not counted)")
    return 0


def _deletes(args: argparse.Namespace) -> int:
    t = iceberg.open_table(args.table)
    st = t.state(args.snapshot, ref=args.ref)
    applies: dict[tuple[str, int | None], int] = {}
    for f in st.data_files:
        for d in f.deletes:
            applies[(d.path, d.offset)] = applies.get((d.path, d.offset), 0) + 1
    rows = []
    for d in st.delete_files:
        doc = _delete_doc(d)
        doc["applies_to"] = applies.get((d.path, d.offset), 0)
        rows.append(doc)
    if args.json:
        _print({"table": args.table, "snapshot_id": st.snapshot_id, "delete_files": rows})
        return 0
    print(f"snapshot {st.snapshot_id}: {len(rows)} live delete file(s)")
    cells = [[_rel(t, r["path"]), r["kind"], str(r["record_count"]), str(r.get("content_offset", "")),
              _rel(t, r.get("referenced_data_file", "") or ""),
              str(r["applies_to"])] for r in rows]  # fmt: skip
    if cells:
        print("\n".join(render_table(["path", "kind", "rows", "offset", "referenced data file", "applies to"], cells, right={2, 3, 5})))
    return 0


def _orphans(args: argparse.Namespace) -> int:
    t = iceberg.open_table(args.table)
    found = t.orphans()
    rows = [{"path": o.path, "size": o.size, "kind": o.kind, "role": o.role, "rows": o.rows} for o in found]
    if args.json:
        _print({"table": args.table, "orphans": rows})
        return 0
    unref = [o for o in found if o.kind == "unreferenced"]
    missing = [o for o in found if o.kind == "missing"]
    print(f"{len(unref)} unreferenced file(s), {sum(o.size or 0 for o in unref)} bytes; {len(missing)} referenced file(s) missing "
          f"(paths relative to {t.root})")
    root = t.root.rstrip("/") + "/"
    cells = [[o.kind, o.role, o.path[len(root):] if o.path.startswith(root) else _rel(t, o.path), "" if o.size is None else str(o.size),
              "" if o.rows is None else str(o.rows)]
             for o in found]  # fmt: skip
    if cells:
        print("\n".join(render_table(["kind", "role", "path", "bytes", "rows"], cells, right={3, 4})))
    return 0


def _problem_doc(e: FormatError) -> dict[str, Any]:
    return {"rule": e.rule, "file": e.source, "path": e.path, "offset": e.offset, "message": e.message}


def _check(args: argparse.Namespace) -> int:
    t = iceberg.open_table(args.table)
    problems = t.check()
    if args.json:
        _print({"table": args.table, "ok": not problems, "problems": [_problem_doc(e) for e in problems]})
        return 1 if problems else 0
    if not problems:
        print(f"{args.table}: ok (Iceberg v{t.metadata.format_version}, {len(t.metadata.snapshots)} snapshot(s), every rule holds)")
        return 0
    for e in problems:
        print(str(e))
    print(f"{len(problems)} rule(s) broken")
    return 1
