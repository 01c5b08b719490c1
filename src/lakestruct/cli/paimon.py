"""``lakestruct paimon snapshots|schema|files|dv|index TABLE_DIR``: a Paimon table read from its files, every rule
checked (manifests merged in order, BinaryRows decoded with the schema, deletion vectors against the index manifest).
``index --file NAME --column C --value V`` probes a data file's index (bloom filter, bitmap, bit-sliced index)."""

from __future__ import annotations

import argparse
import datetime
import json
from typing import Any

from .. import paimon
from ..errors import LimitError, UsageError
from ..paimon.fileindex import OPS
from ..paimon.indexes import parse_value
from ._table import render_table
from .deletes import CLI_MAX_POSITIONS, add_max_positions, explain_limit

__all__ = ["register"]

SHOWN_ROWS = 20


def register(sub: Any) -> None:
    p = sub.add_parser("paimon", help="Paimon tables: snapshots, schema, live files, deletion vectors, indexes")
    psub = p.add_subparsers(dest="paimon_command", metavar="SUBCOMMAND")
    psub.required = True
    commands = {
        "snapshots": ("every snapshot (EARLIEST/LATEST hints checked against the listing)", _snapshots),
        "schema": ("the schema of a snapshot (default: the latest)", _schema),
        "files": ("the live data files of a snapshot: partition, bucket, level, rows, deleted rows, key range, indexes", _files),
        "dv": ("each data file's deleted row positions (CRC, range and cardinality checked against the index manifest)", _dv),
        "index": ("the index files of a snapshot (deletion vectors, hash, global indexes) and the data-file indexes", _index),
    }
    for name, (help_text, func) in commands.items():
        s = psub.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".")
        s.add_argument("table", metavar="TABLE_DIR", help="the table directory: local path or fsspec URL")
        if name != "snapshots":
            s.add_argument("--snapshot", type=int, metavar="N", help="snapshot id (default: the latest)")
        if name == "schema":
            s.add_argument("--all", action="store_true", help="every schema version of the table, oldest first")
        if name == "dv":
            s.add_argument("--all", action="store_true", help=f"show every deleted row (default: the first {SHOWN_ROWS})")
            add_max_positions(s, per="index file")  # the deletes commands' option
        if name == "index":
            s.add_argument("--file", metavar="NAME", help="a live data file (its name or path): list its file index, or probe it with "
                           "--column and --value")
            s.add_argument("--column", metavar="C", help="the column to probe (with --file)")
            s.add_argument("--value", metavar="V", help="the value to probe ('null': IS NULL; dates, times and timestamps in ISO form)")
            s.add_argument("--op", choices=OPS, default="eq", help="compare the column with the value: eq (default), lt, le, gt, ge "
                           "(ranges need a bit-sliced index)")
            s.add_argument("--all", action="store_true", help=f"show every matching row (default: the first {SHOWN_ROWS})")
        s.add_argument("--json", action="store_true")
        s.set_defaults(func=func)


def _print(doc: Any) -> None:
    print(json.dumps(doc, indent=2, default=str))


def _time(ms: int | None) -> str:
    if ms is None:
        return ""
    try:
        return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")
    except (ValueError, OverflowError, OSError):  # past year 9999 (or before year 1): the stored value, raw
        return f"{ms} ms"


def _snapshots(args: argparse.Namespace) -> int:
    t = paimon.open_table(args.table)
    hints = t.hints()
    snaps = t.snapshots()
    rows = [{"id": s.id, "schema_id": s.schema_id, "commit_kind": s.commit_kind, "time_millis": s.time_millis,
             "total_record_count": s.total_record_count, "delta_record_count": s.delta_record_count,
             "base_manifest_list": s.base_manifest_list, "delta_manifest_list": s.delta_manifest_list,
             "changelog_manifest_list": s.changelog_manifest_list, "index_manifest": s.index_manifest,
             "commit_user": s.commit_user, "writer_version": s.writer_version} for s in snaps]  # fmt: skip
    if args.json:
        _print({"table": args.table, "hints": hints, "snapshots": rows})
        return 0
    for name, h in hints.items():
        state = "missing" if h["ok"] is None else ("ok" if h["ok"] else f"WRONG (listing says {h['listed']})")
        print(f"{name.upper()} hint: {h['hint'] if h['hint'] is not None else '-'} ({state})")
    header = ["id", "schema", "kind", "time (UTC)", "total rows", "delta rows", "index manifest"]
    cells = [[str(s.id), str(s.schema_id), s.commit_kind or "", _time(s.time_millis), str(s.total_record_count),
              str(s.delta_record_count), s.index_manifest or ""] for s in snaps]  # fmt: skip
    print("\n".join(render_table(header, cells, right={0, 1, 4, 5})))
    return 0


def _type_doc(t: paimon.DataType) -> Any:
    return str(t) if not t.fields and t.element is None and t.key is None else {
        "type": str(t), **({"element": _type_doc(t.element)} if t.element else {}),
        **({"key": _type_doc(t.key)} if t.key else {}), **({"value": _type_doc(t.value)} if t.value else {}),
        **({"fields": [{"id": f.id, "name": f.name, "type": _type_doc(f.type)} for f in t.fields]} if t.fields else {}),
    }  # fmt: skip


def _schema(args: argparse.Namespace) -> int:
    t = paimon.open_table(args.table)
    if args.all:
        schemas = t.schemas()
        if args.json:
            _print({"table": args.table, "schemas": [_schema_doc(s) for s in schemas]})
            return 0
        for i, s in enumerate(schemas):
            if i:
                print()
            _print_schema(s)
        return 0
    s = t.schema(t.snapshot(args.snapshot).schema_id if args.snapshot is not None else None)
    if args.json:
        _print(_schema_doc(s))
        return 0
    _print_schema(s)
    return 0


def _schema_doc(s: paimon.Schema) -> dict[str, Any]:
    return {"id": s.id, "version": s.version,
            "fields": [{"id": f.id, "name": f.name, "type": _type_doc(f.type), "nullable": f.type.nullable} for f in s.fields],
            "partition_keys": list(s.partition_keys), "primary_keys": list(s.primary_keys), "bucket": s.bucket,
            "options": s.options, "comment": s.comment}  # fmt: skip


def _print_schema(s: paimon.Schema) -> None:
    print(f"schema {s.id} (version {s.version}), bucket {s.bucket}, partitioned by {list(s.partition_keys) or '-'}, "
          f"primary key {list(s.primary_keys) or '-'}")
    print("\n".join(render_table(["id", "name", "type"], [[str(f.id), f.name, str(f.type)] for f in s.fields], right={0})))
    for k, v in sorted(s.options.items()):
        print(f"  {k} = {v}")


def _rel(t: paimon.Table, path: str) -> str:
    return path[len(t.path) + 1 :] if path.startswith(t.path + "/") else path


def _files(args: argparse.Namespace) -> int:
    t = paimon.open_table(args.table)
    snap = t.snapshot(args.snapshot)
    schema = t.schema(snap.schema_id)
    rows = []
    live = t.live_files(snap)
    # index manifests written before Paimon 1.0 do not record a vector's cardinality: count it, so the header, the
    # rows, `dv`, `scan` and the Spark sources give one answer
    uncounted = [f for f in live if f.deletion_file is not None and f.deletion_file.cardinality is None]
    counted = {p: int(a.size) for p, a in t.deletion_vectors(snap, files=uncounted, max_positions=CLI_MAX_POSITIONS).items()} \
        if uncounted else {}
    for f in live:
        d = f.deletion_file
        deleted = 0 if d is None else d.cardinality if d.cardinality is not None else counted.get(f.path, 0)
        row: dict[str, Any] = {
            "path": _rel(t, f.path), "partition": paimon.jsonable(f.partition), "bucket": f.bucket, "level": f.level,
            "row_count": f.row_count, "deleted_rows": deleted, "file_size": f.file.file_size,
            "schema_id": f.file.schema_id, "min_sequence_number": f.file.min_sequence_number,
            "max_sequence_number": f.file.max_sequence_number, "first_row_id": f.file.first_row_id,
            "index_kinds": t.index_kinds(f), "deletion_file": None if d is None else
            {"index_file": d.index_file_name, "offset": d.offset, "length": d.length, "cardinality": d.cardinality},
        }  # fmt: skip
        if schema.trimmed_primary_keys:
            lo, hi = t.key_range(f)
            row["min_key"], row["max_key"] = paimon.jsonable(lo), paimon.jsonable(hi)
        # decoded with the schema the file was written with (its column names and types, not the snapshot's)
        row["value_stats"] = {c: {"min": paimon.jsonable(v.min), "max": paimon.jsonable(v.max), "null_count": v.null_count}
                              for c, v in t.value_stats(f).items()}
        rows.append(row)
    note = _level0_note(schema, rows)
    if args.json:
        _print({"table": args.table, "snapshot_id": snap.id, "files": rows, "note": note})
        return 0
    print(f"snapshot {snap.id}: {len(rows)} live data files, {sum(r['row_count'] for r in rows)} rows, "
          f"{sum(r['deleted_rows'] or 0 for r in rows)} deleted by deletion vectors")
    if note:
        print(f"note: {note}")
    several = len({r["schema_id"] for r in rows}) > 1  # written under different schemas: say which
    header = ["path", *(["schema"] if several else []), "bucket", "level", "rows", "deleted", "indexes",
              *(["key range"] if schema.trimmed_primary_keys else [])]
    cells = []
    for r in rows:
        c = [r["path"], *([str(r["schema_id"])] if several else []), str(r["bucket"]), str(r["level"]), str(r["row_count"]),
             str(r["deleted_rows"]), ",".join(r["index_kinds"]) or "-"]
        if "min_key" in r:
            c.append(f"{_key(r['min_key'])} .. {_key(r['max_key'])}")
        cells.append(c)
    print("\n".join(render_table(header, cells, right={1, 2, 3, 4, 5} if several else {1, 2, 3, 4})))
    return 0


def _level0_note(schema: paimon.Schema, rows: list[dict[str, Any]]) -> str | None:
    """What a primary-key table with deletion vectors does with its level-0 files: they are live (listed, counted),
    but Paimon's readers skip them until a compaction moves them to a higher level (docs/paimon.md)."""
    if not schema.trimmed_primary_keys or schema.options.get("deletion-vectors.enabled", "").lower() != "true":
        return None
    level0 = [r for r in rows if r["level"] == 0]
    if not level0:
        return None
    return (f"{len(level0)} level-0 file(s), {sum(r['row_count'] for r in level0)} rows, are counted as live here; with "
            "deletion vectors, Paimon's readers skip level-0 files until a compaction moves them up (not yet visible to queries)")


def _key(k: dict[str, Any]) -> str:
    return ", ".join(f"{n}={v}" for n, v in k.items())


def _dv(args: argparse.Namespace) -> int:
    try:
        return _dv_checked(args)
    except LimitError as e:
        raise explain_limit(e) from None


def _dv_checked(args: argparse.Namespace) -> int:
    t = paimon.open_table(args.table)
    snap = t.snapshot(args.snapshot)
    live = t.live_files(snap)
    dvs = t.deletion_vectors(snap, max_positions=args.max_positions)
    out = []
    for f in live:
        if f.path not in dvs:
            continue
        pos = dvs[f.path]
        d = f.deletion_file
        assert d is not None
        shown = pos if args.all or pos.size <= SHOWN_ROWS else pos[:SHOWN_ROWS]
        e: dict[str, Any] = {"path": _rel(t, f.path), "row_count": f.row_count, "index_file": d.index_file_name, "offset": d.offset,
                             "length": d.length, "cardinality": int(pos.size), "deleted_rows": shown.tolist()}
        if shown.size < pos.size:
            e["deleted_rows_truncated"] = True
            e["last_deleted_row"] = int(pos[-1])
        out.append(e)
    if args.json:
        _print({"table": args.table, "snapshot_id": snap.id, "deletion_vectors": out})
        return 0
    print(f"snapshot {snap.id}: {len(out)} of {len(live)} live data files have deletion vectors")
    for e in out:
        more = f", ... {e['last_deleted_row']}] (--all shows all {e['cardinality']})" if e.get("deleted_rows_truncated") else "]"
        print(f"  {e['path']}: {e['cardinality']} of {e['row_count']} rows deleted ({e['index_file']} offset {e['offset']}, "
              f"length {e['length']})")
        print(f"      deletedRows [{', '.join(map(str, e['deleted_rows']))}{more}")
    return 0


def _index(args: argparse.Namespace) -> int:
    if args.file is None and (args.column is not None or args.value is not None):
        raise UsageError("--column and --value probe the index of one data file: add --file NAME")
    t = paimon.open_table(args.table)
    snap = t.snapshot(args.snapshot)
    if args.file is not None:
        return _index_probe(args, t, snap)
    schema = t.schema(snap.schema_id)
    entries = []
    for e in t.index_entries(snap):
        m = e.index_file
        entries.append({
            "index_type": m.index_type, "file_name": m.file_name, "path": _rel(t, t.index_file_path(e, schema)),
            "partition": paimon.jsonable(t.decode_partition(e.partition, schema)), "bucket": e.bucket, "file_size": m.file_size,
            "row_count": m.row_count,
            "deletion_vectors": None if m.dv_ranges is None else [
                {"data_file": r.data_file_name, "offset": r.offset, "length": r.length, "cardinality": r.cardinality} for r in m.dv_ranges],
        })  # fmt: skip
    file_indexes: list[dict[str, Any]] = []
    for f in t.live_files(snap):
        fi = t.file_index(f)
        if fi is not None:
            refs = [{"column": r.column, "type": r.type, "offset": r.start, "length": r.length} for r in fi.indexes]
            file_indexes.append({"path": _rel(t, f.path), "embedded": bool(f.file.embedded_index), "indexes": refs})
    if args.json:
        _print({"table": args.table, "snapshot_id": snap.id, "index_manifest": snap.index_manifest, "index_files": entries,
                "file_indexes": file_indexes})
        return 0
    print(f"snapshot {snap.id}: index manifest {snap.index_manifest or '-'}, {len(entries)} index files")
    cells = [[e["index_type"], e["path"], str(e["bucket"]), str(e["file_size"]), str(e["row_count"])] for e in entries]
    if cells:
        print("\n".join(render_table(["type", "path", "bucket", "bytes", "rows"], cells, right={2, 3, 4})))
    print(f"{len(file_indexes)} data files have a file index")
    for fi_doc in file_indexes:
        kinds = ", ".join(f"{i['column']}:{i['type']}" for i in fi_doc["indexes"])
        print(f"  {fi_doc['path']}{' (embedded)' if fi_doc['embedded'] else ''}: {kinds}")
    return 0


def _find_file(t: paimon.Table, snap: paimon.Snapshot, name: str) -> paimon.LiveFile:
    live = t.live_files(snap)
    for f in live:
        if name in (f.file.file_name, f.path, _rel(t, f.path)):
            return f
    raise UsageError(f"snapshot {snap.id} has no live data file {name!r} ({len(live)} live files: lakestruct paimon files lists them)")


def _index_probe(args: argparse.Namespace, t: paimon.Table, snap: paimon.Snapshot) -> int:
    f = _find_file(t, snap, args.file)
    fi = t.file_index(f)
    where = "embedded in the manifest entry" if f.file.embedded_index else "none" if fi is None else f"{f.file.file_name}.index"
    doc: dict[str, Any] = {"table": args.table, "snapshot_id": snap.id, "file": _rel(t, f.path), "file_index": where}
    if args.column is None:
        doc["indexes"] = [] if fi is None else [{"column": r.column, "type": r.type, "offset": r.start, "length": r.length}
                                                for r in fi.indexes]  # fmt: skip
        if args.json:
            _print(doc)
            return 0
        print(f"{doc['file']}: file index {where}")
        for i in doc["indexes"]:
            print(f"  {i['column']}: {i['type']} ({'empty' if i['offset'] < 0 else str(i['length']) + ' bytes'})")
        return 0
    if args.value is None:
        raise UsageError("--column needs --value V ('null' for IS NULL)")
    dtype = t.column_type(f, args.column)
    value = parse_value(args.value, dtype)
    probes = t.probe_file_index(f, args.column, value, args.op)
    answers = [p.might_match for p in probes]
    might = False if False in answers else True if True in answers else None
    rows_doc = []
    for p in probes:
        e: dict[str, Any] = {"type": p.type, "answer": p.answer}
        if p.reason:
            e["reason"] = p.reason
        if p.rows is not None:
            shown = p.rows if args.all or p.rows.size <= SHOWN_ROWS else p.rows[:SHOWN_ROWS]
            e["row_count"] = int(p.rows.size)
            e["rows"] = shown.tolist()
            if shown.size < p.rows.size:
                e["rows_truncated"] = True
        rows_doc.append(e)
    doc.update({"column": args.column, "column_type": str(dtype), "op": args.op, "value": paimon.jsonable(value),
                "might_match": might, "indexes": rows_doc})  # fmt: skip
    if args.json:
        _print(doc)
        return 0
    pred = f"{args.column} IS NULL" if value is None else f"{args.column} {_OP_TEXT[args.op]} {args.value}"
    verdict = {False: "no row can match", True: "rows may match", None: "no index of the column can answer"}[might]
    print(f"{doc['file']} (file index {where}), {pred} ({dtype}): {verdict}")
    if not probes:
        print(f"  the file has no index of {args.column}")
    for e in rows_doc:
        if "rows" in e:
            more = f", ... (--all shows all {e['row_count']})" if e.get("rows_truncated") else ""
            text = f"{e['row_count']} row(s): [{', '.join(map(str, e['rows']))}{more}]"
        elif e["answer"] == "unsupported":
            text = f"cannot answer: {e['reason']}"
        else:
            text = {"maybe": "may contain", "absent": "absent"}[e["answer"]]
        print(f"  {e['type']:<13} {text}")
    return 0


_OP_TEXT = {"eq": "=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
