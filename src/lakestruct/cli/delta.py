"""``lakestruct delta versions|files|deletes|check|orphans TABLE [--version N]``: a Delta Lake table read from its
``_delta_log`` (JSON commits, checkpoints, sidecars, compactions), deletion vectors decoded and held to their
descriptors, every rule checked (docs/delta.md)."""

from __future__ import annotations

import argparse
import datetime
import json
from typing import Any

from .. import delta
from ..errors import FormatError, LimitError
from ..tables.model import DeleteFile, LiveFile
from ._table import render_table
from .deletes import add_max_positions, explain_limit

__all__ = ["register"]

SHOWN_ROWS = 20


def register(sub: Any) -> None:
    p = sub.add_parser("delta", help="Delta Lake tables: versions, live files with exact deleted rows, deletion vectors, orphans, checks")
    dsub = p.add_subparsers(dest="delta_command", metavar="SUBCOMMAND")
    dsub.required = True
    commands = {
        "versions": ("every version of the table, oldest first: time, operation, what the commit did", _versions),
        "files": ("the live data files of a version: rows, deleted rows (decoded deletion vectors), live rows, the vector", _files),
        "deletes": ("the deletion vectors of a version: descriptor, file, deleted row positions", _deletes),
        "orphans": ("files under the table no action of the log references, and referenced files storage lacks", _orphans),
        "check": ("every rule the log and the live deletion vectors break (exit 1 when one is broken)", _check),
    }
    for name, (help_text, func) in commands.items():
        s = dsub.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".")
        s.add_argument("table", metavar="TABLE", help="the table root (the folder holding _delta_log/): local path or fsspec URL")
        if name in ("files", "deletes"):
            s.add_argument("--version", type=int, metavar="N", help="the table version (default: the latest)")
        if name == "deletes":
            s.add_argument("--all", action="store_true", help=f"show every deleted row (default: the first {SHOWN_ROWS})")
            add_max_positions(s, per="deletion vector")
        s.add_argument("--json", action="store_true")
        s.set_defaults(func=func)


def _print(doc: Any) -> None:
    print(json.dumps(doc, indent=2, default=str))


def _time(ms: int | None) -> str:
    if ms is None:
        return ""
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


def _open(args: argparse.Namespace) -> delta.Table:
    return delta.open_table(args.table, getattr(args, "version", None))


def _versions(args: argparse.Namespace) -> int:
    t = _open(args)
    snaps = t.snapshots()
    lst = t.listing
    rows: list[dict[str, Any]] = []
    for s in snaps:
        info = s.summary
        metrics = info.get("operationMetrics") if isinstance(info.get("operationMetrics"), dict) else {}
        rows.append({"version": s.id, "timestamp_ms": s.timestamp_ms, "operation": s.operation,
                     "operation_parameters": info.get("operationParameters"), "engine_info": info.get("engineInfo"),
                     "commit_file": s.id in lst.commits, "checkpoint": s.id in lst.checkpoints,
                     "operation_metrics": metrics})  # fmt: skip
    if args.json:
        _print({"table": args.table, "latest_version": t.latest_version, "versions": rows})
        return 0
    print(f"Delta table at {t.root}: {len(rows)} version(s), latest {t.latest_version}")
    cells = [[str(r["version"]), _time(r["timestamp_ms"]), r["operation"] or "", "yes" if r["checkpoint"] else "",
              ", ".join(f"{k}={v}" for k, v in sorted((r["operation_metrics"] or {}).items())
                        if k in ("numAddedFiles", "numRemovedFiles", "numOutputRows", "numDeletedRows", "numDeletionVectorsAdded"))]
             for r in rows]  # fmt: skip
    if cells:
        print("\n".join(render_table(["version", "time (UTC)", "operation", "checkpoint", "metrics"], cells, right={0})))
    return 0


def _dv_doc(d: DeleteFile) -> dict[str, Any]:
    return {"path": d.path, "storage_type": d.extra.get("storage_type"), "path_or_inline_dv": d.extra.get("path_or_inline_dv"),
            "offset": d.offset, "size_in_bytes": d.length, "cardinality": d.record_count, "unique_id": d.extra.get("unique_id")}


def _file_doc(f: LiveFile) -> dict[str, Any]:
    n = f.extra.get("num_records")
    return {"file_path": f.path, "file_format": f.file_format, "record_count": n, "file_size_in_bytes": f.size,
            "partition": _jsonable(f.partition), "deleted_rows": f.deleted_rows, "live_rows": None if n is None else f.live_rows,
            "positions_past_end": f.positions_past_end, "version": f.extra.get("version"),
            "deletion_vector": _dv_doc(f.deletes[0]) if f.deletes else None}  # fmt: skip


def _q(v: Any) -> str:
    return "?" if v is None else str(v)


def _files(args: argparse.Namespace) -> int:
    t = _open(args)
    st = t.state()
    rows = [_file_doc(f) for f in st.data_files]
    if args.json:
        _print({"table": args.table, "version": st.snapshot_id, "files": rows})
        return 0
    unknown = sum(1 for r in rows if r["record_count"] is None)
    total = sum(r["record_count"] or 0 for r in rows)
    deleted = sum(r["deleted_rows"] or 0 for r in rows)
    note = f" ({unknown} file(s) without stats.numRecords: rows unknown)" if unknown else ""
    print(f"version {st.snapshot_id}: {len(rows)} live data file(s), {total} rows{note}, {deleted} deleted (exact), "
          f"{total - deleted} live")
    cells = [[r["file_path"], _q(r["record_count"]), _q(r["deleted_rows"]), _q(r["live_rows"]),
              "-" if r["deletion_vector"] is None else f"{r['deletion_vector']['storage_type']}:{r['deletion_vector']['cardinality']}"]
             for r in rows]  # fmt: skip
    if cells:
        print("\n".join(render_table(["file_path", "rows", "deleted", "live", "deletion vector"], cells, right={1, 2, 3})))
    past = sum(r["positions_past_end"] for r in rows)
    if past:
        print(f"{past} deleted position(s) at or past their file's numRecords (not counted)")
    return 0


def _deletes(args: argparse.Namespace) -> int:
    try:
        return _deletes_checked(args)
    except LimitError as e:
        raise explain_limit(e) from None


def _deletes_checked(args: argparse.Namespace) -> int:
    t = _open(args)
    st = t.state(max_positions=args.max_positions)
    out = []
    for f in st.data_files:
        if not f.deletes:
            continue
        pos = st.positions(f)
        shown = pos if args.all or pos.size <= SHOWN_ROWS else pos[:SHOWN_ROWS]
        doc: dict[str, Any] = {"data_file": f.path, "record_count": f.extra.get("num_records"), **_dv_doc(f.deletes[0]),
                               "deleted_rows": f.deleted_rows, "positions_past_end": f.positions_past_end,
                               "positions": shown.tolist()}  # fmt: skip
        if shown.size < pos.size:
            doc["positions_truncated"] = True
            doc["last_position"] = int(pos[-1])
        out.append(doc)
    if args.json:
        _print({"table": args.table, "version": st.snapshot_id, "deletion_vectors": out})
        return 0
    print(f"version {st.snapshot_id}: {len(out)} of {len(st.data_files)} live data file(s) have a deletion vector")
    for d in out:
        where = "inline" if d["storage_type"] == "i" else f"{d['path']} offset {d['offset']}"
        more = f", ... {d['last_position']}] (--all shows all {d['cardinality']})" if d.get("positions_truncated") else "]"
        print(f"  {d['data_file']}: {d['deleted_rows']} of {_q(d['record_count'])} rows deleted ({d['storage_type']}: {where}, "
              f"{d['size_in_bytes']} bytes, cardinality {d['cardinality']})")
        print(f"      positions [{', '.join(map(str, d['positions']))}{more}")
    return 0


def _orphans(args: argparse.Namespace) -> int:
    t = _open(args)
    found = t.orphans()
    rows = [{"path": o.path, "size": o.size, "kind": o.kind, "role": o.role, "rows": o.rows} for o in found]
    if args.json:
        _print({"table": args.table, "orphans": rows})
        return 0
    unref = [o for o in found if o.kind == "unreferenced"]
    missing = [o for o in found if o.kind == "missing"]
    print(f"{len(unref)} unreferenced file(s), {sum(o.size or 0 for o in unref)} bytes; {len(missing)} referenced file(s) missing")
    cells = [[o.kind, o.role, o.path, "" if o.size is None else str(o.size), "" if o.rows is None else str(o.rows)] for o in found]
    if cells:
        print("\n".join(render_table(["kind", "role", "path", "bytes", "rows"], cells, right={3, 4})))
    return 0


def _problem_doc(e: FormatError) -> dict[str, Any]:
    return {"rule": e.rule, "file": e.source, "path": e.path, "offset": e.offset, "message": e.message}


def _check(args: argparse.Namespace) -> int:
    t = _open(args)
    problems = t.check()
    if args.json:
        _print({"table": args.table, "ok": not problems, "problems": [_problem_doc(e) for e in problems]})
        return 1 if problems else 0
    if not problems:
        print(f"{args.table}: ok (Delta table, version {t.latest_version}, every rule holds)")
        return 0
    for e in problems:
        print(str(e))
    print(f"{len(problems)} rule(s) broken")
    return 1
