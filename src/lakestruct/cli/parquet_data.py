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
import itertools
import json
import math
import sys
import textwrap
from collections.abc import Iterable, Iterator
from typing import Any

from ..errors import FormatError, UsageError
from ..parquet import read as pqread
from ..parquet.assembly import schema_tree, top_level_leaves
from ..parquet.compression import CODECS
from ..parquet.values import ChunkData, ChunkSpec, DecodeBudget, Entry, PageData, chunk_spec, iter_chunk, iter_values, read_rows
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


def _open(args: argparse.Namespace) -> tuple[pqread.ParquetFile, pqread.ColumnDescriptor]:
    pf = pqread.open(args.file)
    try:
        idx = _column_key(pf, args.column)
        if args.row_group is not None and not 0 <= args.row_group < pf.num_row_groups:
            raise UsageError(f"row group {args.row_group} out of range (the file has {pf.num_row_groups})")
    except BaseException:
        pf.close()
        raise
    return pf, pf.column(idx)


def _row_groups(pf: pqread.ParquetFile, row_group: int | None) -> range | list[int]:
    return range(pf.num_row_groups) if row_group is None else [row_group]


def _chunk_stream(
    pf: pqread.ParquetFile, desc: pqread.ColumnDescriptor, row_group: int | None, *, values: bool
) -> Iterator[tuple[ChunkSpec, Iterator[PageData]]]:
    """Each selected chunk with its pages, decoded lazily (one page in memory at a time)."""
    budget = DecodeBudget()
    for rg in _row_groups(pf, row_group):
        spec = chunk_spec(pf, rg, desc.index)
        yield spec, _sourced(pf, iter_chunk(spec, pf.source.read, values=values, budget=budget))


def _sourced(pf: pqread.ParquetFile, pages: Iterator[PageData]) -> Iterator[PageData]:
    try:
        yield from pages
    except FormatError as e:
        raise e.with_source(pf.name) from None


def _declared_values(pf: pqread.ParquetFile, desc: pqread.ColumnDescriptor, row_group: int | None) -> int:
    """The entries the footer announces (ColumnMetaData.num_values), known before decoding anything."""
    total = 0
    for rg in _row_groups(pf, row_group):
        cols = pf.metadata.row_groups[rg].columns
        md = cols[desc.index].meta_data if desc.index < len(cols) else None
        total += md.num_values if md is not None else 0
    return total


def _warnings(pf: pqread.ParquetFile) -> None:
    for w in pf.warnings:
        print(f"warning: {w}", file=sys.stderr)


def _header(desc: pqread.ColumnDescriptor) -> dict[str, Any]:
    return {
        "column": desc.name,
        "index": desc.index,
        "physical_type": desc.physical_type_name,
        "max_definition_level": desc.max_definition_level,
        "max_repetition_level": desc.max_repetition_level,
    }


def _chunk_levels_json(spec: ChunkSpec, pages: Iterable[PageData]) -> dict[str, Any]:
    return {
        "row_group": spec.row_group,
        "codec": CODECS.get(spec.codec, str(spec.codec)),
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
            for p in pages
            if p.type in (0, 3)
        ],
    }


def levels_json(desc: pqread.ColumnDescriptor, chunks: list[ChunkData]) -> dict[str, Any]:
    """The ``levels --json`` document of decoded chunks (the CLI writes the same document chunk by chunk)."""
    out = _header(desc)
    out["row_groups"] = [_chunk_levels_json(c.spec, c.pages) for c in chunks]
    return out


def _stream_json(
    head: dict[str, Any], key: str, items: Iterable[Any], *, item_indent: int = 4, item_json_indent: int | None = None
) -> None:
    """Write ``head`` with ``key`` holding ``items`` as a JSON list, one item at a time (nothing is held)."""
    text = json.dumps(head, indent=2, ensure_ascii=False)
    sys.stdout.write(text[:-2] + f",\n  {json.dumps(key)}: [")
    sep = ""
    for item in items:
        sys.stdout.write(sep + "\n" + textwrap.indent(json.dumps(item, indent=item_json_indent, ensure_ascii=False), " " * item_indent))
        sep = ","
    sys.stdout.write("\n  ]\n}\n")


def _at(x: int | None) -> str:
    return "inside the compressed page" if x is None else f"at offset {x}"


def _levels(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 0:
        raise UsageError("--limit must be >= 0")
    pf, desc = _open(args)
    with pf:
        chunks = _chunk_stream(pf, desc, args.row_group, values=False)
        if args.json:
            _stream_json(_header(desc), "row_groups", (_chunk_levels_json(spec, pages) for spec, pages in chunks), item_json_indent=2)
            _warnings(pf)
            return 0
        print(
            f"{pf.name}: column {desc.name} ({desc.physical_type_name}, max definition level {desc.max_definition_level}, "
            f"max repetition level {desc.max_repetition_level})"
        )
        for spec, pages in chunks:
            print(f"row group {spec.row_group} ({CODECS.get(spec.codec, spec.codec)})")
            for p in pages:
                if p.type not in (0, 3):
                    continue
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
        _warnings(pf)
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


def _entry_json(e: Entry) -> dict[str, Any]:
    return {"row_group": e.row_group, "r": e.r, "d": e.d, "value": _jsonable(e.value)}


def _entries(pf: pqread.ParquetFile, desc: pqread.ColumnDescriptor, row_group: int | None, limit: int | None) -> Iterator[Entry]:
    """The column's entries, decoded page by page and no further than ``limit`` entries."""
    entries: Iterator[Entry] = iter_values(pf, desc.index, row_group=row_group)
    return entries if limit is None else itertools.islice(entries, limit)


def values_json(pf: pqread.ParquetFile, desc: pqread.ColumnDescriptor, row_group: int | None, limit: int | None) -> dict[str, Any]:
    """The ``values --json`` document (the CLI writes the same document entry by entry)."""
    out = _header(desc)
    out["num_values"] = _declared_values(pf, desc, row_group)
    out["entries"] = [_entry_json(e) for e in _entries(pf, desc, row_group, limit)]
    return out


def _top_field(pf: pqread.ParquetFile, spec: str) -> int:
    """The position of the top-level field ``--column`` names: a leaf index or path (whose top-level
    field holds it) or a top-level field name."""
    root = schema_tree(pf.metadata.schema)
    tops = top_level_leaves(root)
    leaf: int | None = None
    if spec.isdigit():
        leaf = _column_key(pf, spec)
    elif any(c.name == spec for c in pf.columns()):
        leaf = pf.column(spec).index
    if leaf is not None:
        return next(i for i, r in enumerate(tops) if leaf in r)
    name = spec.split(".")[0]
    hits = [i for i, c in enumerate(root.children) if c.name == name]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise UsageError(f"{len(hits)} top-level fields are named {name!r}: name a leaf column (path or index) instead")
    raise UsageError(f"no field {spec!r}; top-level fields: {', '.join(c.name for c in root.children)}")


def _rows(args: argparse.Namespace) -> int:
    if args.row_group is not None:
        raise UsageError("--rows assembles whole columns; it does not take --row-group")
    with pqread.open(args.file) as pf:
        pos = _top_field(pf, args.column)
        top = schema_tree(pf.metadata.schema).children[pos].name
        rows = read_rows(pf, pos)
        shown = rows if args.limit is None else rows[: args.limit]
        if args.json:
            print(json.dumps({"field": top, "num_rows": len(rows), "rows": [_deep(r) for r in shown]}, indent=2, ensure_ascii=False))
            _warnings(pf)
            return 0
        print(f"{pf.name}: field {top}, {len(rows)} rows")
        for r in shown:
            print(json.dumps(_deep(r), ensure_ascii=False))
        if len(shown) < len(rows):
            print(f"... {len(rows) - len(shown)} more (use --limit)")
        _warnings(pf)
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
    pf, desc = _open(args)
    with pf:
        total = _declared_values(pf, desc, args.row_group)
        entries = _entries(pf, desc, args.row_group, args.limit)
        if args.json:
            head = {**_header(desc), "num_values": total}
            _stream_json(head, "entries", (_entry_json(e) for e in entries))
            _warnings(pf)
            return 0
        print(f"{pf.name}: column {desc.name} ({desc.physical_type_name}), {total} entries")
        # columns sized from what the footer announces, so each line is printed as it is decoded
        shown = total if args.limit is None else min(total, args.limit)
        widths = [
            len(str(max(shown - 1, 0))),
            len("row group"),
            max(1, len(str(desc.max_repetition_level))),
            max(1, len(str(desc.max_definition_level))),
            len("value"),
        ]
        header = render_table(["#", "row group", "R", "D", "value"], [[" " * w for w in widths]], right={0, 1, 2, 3})[:2]
        for line in header:
            print(line)
        printed = 0
        for i, e in enumerate(entries):
            cells = [str(i), str(e.row_group), str(e.r), str(e.d)]
            value = "null" if e.value is None else _show(e.value)
            print("  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=False)) + "  " + value)
            printed += 1
        if args.limit is not None and printed == args.limit and total > printed:
            print(f"... {total - printed} more (use --limit)")
        _warnings(pf)
    return 0


def _show(v: Any) -> str:
    j = _jsonable(v)
    if isinstance(j, dict):
        return "0x" + (v.hex() if isinstance(v, bytes) else str(j))
    return str(j)
