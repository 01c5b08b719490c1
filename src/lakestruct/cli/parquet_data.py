"""``lakestruct parquet levels|values`` (data-decoding subcommands).

Registered by ``cli/parquet.py`` into the ``parquet`` subcommand group::

    lakestruct parquet levels FILE --column PATH [--row-group N] [--limit N] [--json]
    lakestruct parquet values FILE --column PATH [--row-group N] [--limit N] [--json]
    lakestruct parquet values FILE --column PATH --rows [--limit N] [--json]

``levels`` prints, per data page, where the page and its level sections sit in the
file and the repetition (R) and definition (D) levels; ``values`` prints one line per
level entry (R, D and the value, or null where the definition level is below the max);
``values --rows`` prints the rows of the column's top-level field, assembled from levels.
"""

from __future__ import annotations

import argparse
import base64
import decimal
import json
import math
from typing import Any

from ..errors import UsageError
from ..parquet import read as pqread
from ..parquet.assembly import leaf_converter, schema_tree
from ..parquet.compression import CODECS
from ..parquet.values import ChunkData, read_column, read_rows
from ._table import render_table

__all__ = ["levels_json", "register", "values_json"]


def register(psub: Any) -> None:
    """Add the data-decoding subcommands to the ``parquet`` group."""
    lv = psub.add_parser(
        "levels",
        help="repetition and definition levels of a leaf column, per page",
        description="Decode the repetition (R) and definition (D) levels of one leaf column, page by page, with their file offsets.",
    )
    _common(lv)
    lv.add_argument("--limit", type=int, default=None, metavar="N", help="print at most N levels per page (text output)")
    lv.set_defaults(func=_levels)
    va = psub.add_parser(
        "values",
        help="decoded values of a leaf column",
        description="Decode one leaf column: one line per level entry with its R and D levels and its value (null when undefined).",
    )
    _common(va)
    va.add_argument("--limit", type=int, default=None, metavar="N", help="print at most N entries (rows with --rows)")
    va.add_argument(
        "--rows",
        action="store_true",
        help="print the rows of the top-level field holding the column, assembled from all its leaves (Dremel), one JSON value per row",
    )
    va.set_defaults(func=_values)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="path, fsspec URL, or - for standard input")
    p.add_argument("--column", required=True, metavar="PATH", help="leaf column: dotted path (a.b.c) or index")
    p.add_argument("--row-group", type=int, default=None, metavar="N", help="only this row group (default: all)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


def _column_key(pf: pqread.ParquetFile, spec: str) -> int:
    try:
        return pf.column(int(spec) if spec.isdigit() else spec).index
    except (KeyError, IndexError) as e:
        raise UsageError(str(e).strip("'\"")) from None


def _chunks(args: argparse.Namespace, *, values: bool) -> tuple[pqread.ParquetFile, pqread.ColumnDescriptor, list[ChunkData]]:
    pf = pqread.open(args.file)
    idx = _column_key(pf, args.column)
    if args.row_group is not None and not 0 <= args.row_group < pf.num_row_groups:
        raise UsageError(f"row group {args.row_group} out of range (the file has {pf.num_row_groups})")
    return pf, pf.column(idx), read_column(pf, idx, row_group=args.row_group, values=values)


def _header(desc: pqread.ColumnDescriptor) -> dict[str, Any]:
    return {
        "column": desc.name,
        "index": desc.index,
        "physical_type": desc.physical_type_name,
        "max_definition_level": desc.max_definition_level,
        "max_repetition_level": desc.max_repetition_level,
    }


def levels_json(desc: pqread.ColumnDescriptor, chunks: list[ChunkData]) -> dict[str, Any]:
    out = _header(desc)
    out["row_groups"] = [
        {
            "row_group": c.spec.row_group,
            "codec": CODECS.get(c.spec.codec, str(c.spec.codec)),
            "pages": [
                {
                    "index": p.index,
                    "type": p.type_name,
                    "offset": p.offset,
                    "data_offset": p.data_offset,
                    "num_values": p.num_values,
                    "encoding": p.encoding_name,
                    "repetition_levels_offset": p.repetition_levels_at,
                    "definition_levels_offset": p.definition_levels_at,
                    "values_offset": p.values_at,
                    "repetition_levels": None if p.repetition_levels is None else p.repetition_levels.tolist(),
                    "definition_levels": None if p.definition_levels is None else p.definition_levels.tolist(),
                }
                for p in c.data_pages
            ],
        }
        for c in chunks
    ]
    return out


def _at(x: int | None) -> str:
    return "inside the compressed page" if x is None else f"at offset {x}"


def _levels(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 0:
        raise UsageError("--limit must be >= 0")
    pf, desc, chunks = _chunks(args, values=False)
    with pf:
        if args.json:
            print(json.dumps(levels_json(desc, chunks), indent=2))
            return 0
        print(
            f"{pf.name}: column {desc.name} ({desc.physical_type_name}, max definition level {desc.max_definition_level}, "
            f"max repetition level {desc.max_repetition_level})"
        )
        for c in chunks:
            print(f"row group {c.spec.row_group} ({CODECS.get(c.spec.codec, c.spec.codec)})")
            for p in c.data_pages:
                print(
                    f"  page {p.index}: {p.type_name} at offset {p.offset} (body at {p.data_offset}), "
                    f"{p.num_values} values, {p.encoding_name}"
                )
                r = (
                    "0 (not repeated: no repetition levels stored)"
                    if p.repetition_levels is None
                    else _join(p.repetition_levels.tolist(), args.limit)
                )
                d = (
                    f"{desc.max_definition_level} (required: no definition levels stored)"
                    if p.definition_levels is None
                    else _join(p.definition_levels.tolist(), args.limit)
                )
                rat = "" if p.repetition_levels is None else f"   [{_at(p.repetition_levels_at)}]"
                dat = "" if p.definition_levels is None else f"   [{_at(p.definition_levels_at)}]"
                print(f"    R {r}{rat}")
                print(f"    D {d}{dat}")
    return 0


def _join(xs: list[int], limit: int | None = None) -> str:
    if limit is not None and len(xs) > limit:
        return ",".join(map(str, xs[:limit])) + f",... ({len(xs) - limit} more)"
    return ",".join(map(str, xs))


def _jsonable(v: Any) -> Any:
    if isinstance(v, bytes):
        try:
            return v.decode("utf-8")
        except UnicodeDecodeError:
            return {"base64": base64.b64encode(v).decode()}
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return str(v)
    if hasattr(v, "item"):
        return _jsonable(v.item())
    return v


def _entries(pf: pqread.ParquetFile, desc: pqread.ColumnDescriptor, chunks: list[ChunkData], limit: int | None) -> list[dict[str, Any]]:
    node = schema_tree(pf.metadata.schema)
    for name in desc.path:
        node = next(c for c in node.children if c.name == name)
    conv = leaf_converter(node)
    out: list[dict[str, Any]] = []
    maxd = desc.max_definition_level
    for c in chunks:
        it = iter(c.values.tolist())
        for r, d in zip(c.repetition_levels.tolist(), c.definition_levels.tolist(), strict=True):
            if limit is not None and len(out) >= limit:
                return out
            v = conv(next(it)) if d == maxd else None
            out.append({"row_group": c.spec.row_group, "r": r, "d": d, "value": v})
    return out


def values_json(pf: pqread.ParquetFile, desc: pqread.ColumnDescriptor, chunks: list[ChunkData], limit: int | None) -> dict[str, Any]:
    out = _header(desc)
    out["num_values"] = sum(c.num_values for c in chunks)
    out["entries"] = [{**e, "value": _jsonable(e["value"])} for e in _entries(pf, desc, chunks, limit)]
    return out


def _rows(args: argparse.Namespace) -> int:
    if args.row_group is not None:
        raise UsageError("--rows assembles whole columns; it does not take --row-group")
    with pqread.open(args.file) as pf:
        top = args.column.split(".")[0]
        if not any(c.path[0] == top for c in pf.columns()):
            idx = _column_key(pf, args.column)
            top = pf.column(idx).path[0]
        rows = read_rows(pf, top)
        shown = rows if args.limit is None else rows[: args.limit]
        if args.json:
            print(json.dumps({"field": top, "num_rows": len(rows), "rows": [_deep(r) for r in shown]}, indent=2, ensure_ascii=False))
            return 0
        print(f"{pf.name}: field {top}, {len(rows)} rows")
        for r in shown:
            print(json.dumps(_deep(r), ensure_ascii=False))
        if len(shown) < len(rows):
            print(f"... {len(rows) - len(shown)} more (use --limit)")
    return 0


def _deep(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _deep(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_deep(x) for x in v]
    return _jsonable(v)


def _values(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 0:
        raise UsageError("--limit must be >= 0")
    if args.rows:
        return _rows(args)
    pf, desc, chunks = _chunks(args, values=True)
    with pf:
        if args.json:
            print(json.dumps(values_json(pf, desc, chunks, args.limit), indent=2, ensure_ascii=False))
            return 0
        total = sum(c.num_values for c in chunks)
        entries = _entries(pf, desc, chunks, args.limit)
        print(f"{pf.name}: column {desc.name} ({desc.physical_type_name}), {total} entries")
        rows = [
            [str(i), str(e["row_group"]), str(e["r"]), str(e["d"]), "null" if e["value"] is None else _show(e["value"])]
            for i, e in enumerate(entries)
        ]
        for line in render_table(["#", "row group", "R", "D", "value"], rows, right={0, 1, 2, 3}):
            print(line)
        if len(entries) < total:
            print(f"... {total - len(entries)} more (use --limit)")
    return 0


def _show(v: Any) -> str:
    j = _jsonable(v)
    if isinstance(j, dict):
        return "0x" + (v.hex() if isinstance(v, bytes) else str(j))
    return str(j)
