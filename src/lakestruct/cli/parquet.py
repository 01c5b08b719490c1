"""``lakestruct parquet meta|pages|index|bloom FILE [--column PATH] [--row-group N] [--json]``
(plus ``levels``/``values`` from ``cli/parquet_data.py``).

Tables for humans, JSON for machines; a malformed file exits 1 with the rule, offset and
field path on stderr (see ``lakestruct.cli.main``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import parquet
from ..errors import UsageError
from ..parquet.model import Type, enum_name
from ..parquet.read import ColumnDescriptor, Page, ParquetFile
from ._table import render_table

__all__ = ["register", "meta_json", "pages_json", "index_json", "bloom_json"]


def register(sub: Any) -> None:
    p = sub.add_parser("parquet", help="Parquet internals: footer, pages, page index, bloom filters, levels, values")
    psub = p.add_subparsers(dest="parquet_command", metavar="SUBCOMMAND")
    psub.required = True
    m = psub.add_parser(
        "meta",
        help="the footer: schema, leaf columns, row groups and column chunks",
        description="Show the FileMetaData: where the footer is, the schema's leaf columns (types, levels) and every column chunk.",
    )
    _common(m, column=False)
    m.set_defaults(func=_meta)
    pg = psub.add_parser(
        "pages",
        help="every page header of every column chunk, with offsets and sizes",
        description="Walk the page headers of the column chunks: absolute offset, header size, type, encoding, counts, sizes, CRC.",
    )
    _common(pg)
    pg.set_defaults(func=_pages)
    ix = psub.add_parser(
        "index",
        help="the page index (ColumnIndex and OffsetIndex) of column chunks",
        description="Show each chunk's OffsetIndex (page locations) and ColumnIndex (null pages, min/max, null counts), "
        "checked against the page walk.",
    )
    _common(ix)
    ix.set_defaults(func=_index)
    bl = psub.add_parser(
        "bloom",
        help="a column chunk's split-block bloom filter, and probes",
        description="Show the bloom filter of a column (per row group) and, with --value, whether each value might be present.",
    )
    _common(bl)
    bl.add_argument("--value", action="append", default=[], metavar="V", help="probe this value (repeatable; parsed per the column's type)")
    bl.add_argument("--hex", action="store_true", help="--value arguments are hex bytes")
    bl.set_defaults(func=_bloom)
    from . import parquet_data

    parquet_data.register(psub)


def _common(p: argparse.ArgumentParser, *, column: bool = True) -> None:
    p.add_argument("file", help="path, fsspec URL, or - for standard input")
    if column:
        p.add_argument("--column", metavar="PATH", help="a leaf column: dotted path or index")
        p.add_argument("--row-group", type=int, metavar="N", help="only this row group")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")


def _open(path: str) -> ParquetFile:
    return parquet.open(path)  # "-" is standard input (lakestruct.source.open_source)


def _column_arg(pq: ParquetFile, value: str | None, row_group: int | None = None) -> int | None:
    """The leaf index ``--column`` names (a dotted path or an index); checks ``--row-group`` too."""
    if row_group is not None and not 0 <= row_group < pq.num_row_groups:
        raise UsageError(f"--row-group {row_group}: the file has {pq.num_row_groups} row group(s)")
    if value is None:
        return None
    if value.isdigit():
        n = len(pq.columns())
        if int(value) >= n:
            raise UsageError(f"--column {value}: the file has {n} leaf column(s) (0..{n - 1})")
        return pq.column(int(value)).index
    try:
        return pq.column(value).index
    except KeyError as e:
        raise UsageError(str(e.args[0])) from None


def _emit(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=1))


# -- meta -----------------------------------------------------------------------------------
def _logical(c: ColumnDescriptor) -> str:
    el = c.element
    if el.logicalType is not None:
        return el.logicalType.member or "UNKNOWN-MEMBER"
    return enum_name(el.converted_type) or ""


def meta_json(pq: ParquetFile) -> dict[str, Any]:
    md = pq.metadata
    return {
        "file": pq.name,
        "file_size": pq.footer.file_size,
        "footer": {"offset": pq.footer.offset, "length": pq.footer.length, "thrift_length": pq.footer.thrift_length},
        "columns": [
            {
                "index": c.index,
                "path": c.name,
                "physical_type": c.physical_type_name,
                "type_length": c.type_length,
                "logical_type": _logical(c) or None,
                "max_definition_level": c.max_definition_level,
                "max_repetition_level": c.max_repetition_level,
            }
            for c in pq.columns()
        ],
        "metadata": md.to_dict(),
    }


def _meta(args: argparse.Namespace) -> int:
    with _open(args.file) as pq:
        if args.json:
            _emit(meta_json(pq))
            return 0
        md = pq.metadata
        f = pq.footer
        print(f"{pq.name}: Parquet, {f.file_size} bytes, format version {md.version}")
        print(
            f"  footer: FileMetaData at {f.offset}, {f.length} bytes (length at {f.length_offset})"
            + (f", {f.trailing_bytes} trailing" if f.trailing_bytes else "")
        )
        print(f"  rows: {md.num_rows} in {len(md.row_groups)} row group(s); created by: {md.created_by or '-'}")
        if md.key_value_metadata:
            print(f"  key/value metadata: {', '.join(kv.key for kv in md.key_value_metadata)}")
        if md.encryption_algorithm is not None:
            print("  encrypted columns: plaintext footer with an encryption algorithm")
        print()
        rows = [
            [
                str(c.index),
                c.name,
                c.physical_type_name + (f"({c.type_length})" if c.type_length else ""),
                _logical(c),
                str(c.max_definition_level),
                str(c.max_repetition_level),
            ]
            for c in pq.columns()
        ]
        print("\n".join(render_table(["#", "column", "type", "logical", "max D", "max R"], rows, right={0, 4, 5})))
        for rgi, rg in enumerate(md.row_groups):
            print(f"\nrow group {rgi}: {rg.num_rows} rows, {rg.total_byte_size} bytes uncompressed")
            crows = []
            for ci, cc in enumerate(rg.columns):
                cm = cc.meta_data
                if cm is None:
                    crows.append([str(ci), "(encrypted)", "", "", "", "", "", "", ""])
                    continue
                extras = []
                if cc.column_index_offset is not None:
                    extras.append("column-index")
                if cc.offset_index_offset is not None:
                    extras.append("offset-index")
                if cm.bloom_filter_offset is not None:
                    extras.append("bloom")
                if cm.statistics is not None:
                    extras.append("stats")
                crows.append(
                    [
                        str(ci),
                        ".".join(cm.path_in_schema),
                        enum_name(cm.codec) or "",
                        ",".join(enum_name(e) or "" for e in cm.encodings),
                        str(cm.num_values),
                        str(cm.dictionary_page_offset if cm.dictionary_page_offset is not None else "-"),
                        str(cm.data_page_offset),
                        f"{cm.total_compressed_size}/{cm.total_uncompressed_size}",
                        " ".join(extras),
                    ]
                )
            print(
                "\n".join(
                    render_table(
                        ["#", "chunk", "codec", "encodings", "values", "dict@", "data@", "bytes", "has"], crows, right={0, 4, 5, 6}
                    )
                )
            )
    return 0


# -- pages ----------------------------------------------------------------------------------
def _page_json(p: Page) -> dict[str, Any]:
    return {
        "row_group": p.row_group,
        "column": p.column,
        "index": p.index,
        "offset": p.offset,
        "header_size": p.header_size,
        "data_offset": p.data_offset,
        "type": p.type,
        "compressed_size": p.compressed_size,
        "uncompressed_size": p.uncompressed_size,
        "encoding": p.encoding,
        "num_values": p.num_values,
        "num_nulls": p.num_nulls,
        "num_rows": p.num_rows,
        "crc": p.crc,
        "header": p.header.to_dict(),
    }


def pages_json(pq: ParquetFile, row_group: int | None, column: int | None) -> dict[str, Any]:
    pages = [_page_json(p) for p in pq.pages(row_group, column)]
    return {"file": pq.name, "pages": pages, "warnings": [str(w) for w in pq.warnings]}


def _pages(args: argparse.Namespace) -> int:
    with _open(args.file) as pq:
        col = _column_arg(pq, args.column, args.row_group)
        if args.json:
            _emit(pages_json(pq, args.row_group, col))
            return 0
        names = [c.name for c in pq.columns()]
        rows = []
        for p in pq.pages(args.row_group, col):
            rows.append(
                [
                    str(p.row_group),
                    names[p.column] if p.column < len(names) else str(p.column),
                    str(p.index),
                    str(p.offset),
                    str(p.header_size),
                    p.type,
                    p.encoding or "",
                    _s(p.num_values),
                    _s(p.num_nulls),
                    _s(p.num_rows),
                    str(p.compressed_size),
                    str(p.uncompressed_size),
                    "" if p.crc is None else f"{p.crc & 0xFFFFFFFF:08x}",
                    "yes" if p.statistics is not None else "",
                ]
            )
        hdr = ["rg", "column", "#", "offset", "hdr", "type", "encoding", "values", "nulls", "rows", "stored", "raw", "crc", "stats"]
        print("\n".join(render_table(hdr, rows, right={0, 2, 3, 4, 7, 8, 9, 10, 11, 12})))
        print(f"\n{len(rows)} page(s)")
        for w in pq.warnings:
            print(f"warning: {w}", file=sys.stderr)
    return 0


def _s(v: object) -> str:
    return "" if v is None else str(v)


# -- index ----------------------------------------------------------------------------------
def index_json(pq: ParquetFile, row_group: int | None, column: int | None) -> dict[str, Any]:
    from ..parquet.index import check_offset_index

    chunks = []
    rgs = range(pq.num_row_groups) if row_group is None else [row_group]
    for rg in rgs:
        cols = range(len(pq.metadata.row_groups[rg].columns)) if column is None else [column]
        for ci in cols:
            cix = pq.column_index(rg, ci)
            oi = pq.offset_index(rg, ci)
            if oi is not None:
                check_offset_index(pq, rg, ci)
            chunks.append(
                {
                    "row_group": rg,
                    "column": ci,
                    "column_index": _column_index_json(pq, rg, ci, cix) if cix is not None else None,
                    "offset_index": oi.to_dict() if oi is not None else None,
                }
            )
    return {"file": pq.name, "chunks": chunks, "warnings": [str(w) for w in pq.warnings]}


def _column_index_json(pq: ParquetFile, rg: int, ci: int, cix: Any) -> dict[str, Any]:
    """The ColumnIndex with min/max decoded by the column's type; the stored bytes as hex in ``*_raw``."""
    from ..parquet.index import column_index_bounds
    from .parquet_data import _jsonable

    out: dict[str, Any] = cix.to_dict()
    bounds = column_index_bounds(pq, rg, ci)
    assert bounds is not None
    out["min_values_raw"] = out.pop("min_values")
    out["max_values_raw"] = out.pop("max_values")
    out["min_values"] = [_jsonable(v) for v in bounds[0]]
    out["max_values"] = [_jsonable(v) for v in bounds[1]]
    return out


def _bound(v: Any) -> str:
    from .parquet_data import _show

    return "" if v is None else _show(v)


def _index(args: argparse.Namespace) -> int:
    from ..parquet.index import check_offset_index, column_index_bounds

    with _open(args.file) as pq:
        col = _column_arg(pq, args.column, args.row_group)
        if args.json:
            _emit(index_json(pq, args.row_group, col))
            return 0
        names = [c.name for c in pq.columns()]
        rgs = range(pq.num_row_groups) if args.row_group is None else [args.row_group]
        for rg in rgs:
            cols = range(len(pq.metadata.row_groups[rg].columns)) if col is None else [col]
            for ci in cols:
                cix = pq.column_index(rg, ci)
                oi = pq.offset_index(rg, ci)
                label = f"row group {rg}, column {names[ci] if ci < len(names) else ci}"
                if cix is None and oi is None:
                    print(f"{label}: no page index")
                    continue
                if oi is not None:
                    check_offset_index(pq, rg, ci)
                order = enum_name(cix.boundary_order) if cix is not None else "-"
                print(f"{label}: boundary order {order}")
                n = len(oi.page_locations) if oi is not None else len(cix.null_pages) if cix is not None else 0
                bounds = column_index_bounds(pq, rg, ci) if cix is not None else None
                rows = []
                for i in range(n):
                    loc = oi.page_locations[i] if oi is not None else None
                    rows.append(
                        [
                            str(i),
                            _s(loc.offset if loc else None),
                            _s(loc.compressed_page_size if loc else None),
                            _s(loc.first_row_index if loc else None),
                            ("yes" if cix.null_pages[i] else "") if cix is not None else "",
                            _s(cix.null_counts[i] if cix is not None and cix.null_counts is not None else None),
                            _bound(bounds[0][i]) if bounds is not None and i < len(bounds[0]) else "",
                            _bound(bounds[1][i]) if bounds is not None and i < len(bounds[1]) else "",
                        ]
                    )
                print(
                    "\n".join(
                        render_table(
                            ["page", "offset", "size", "first row", "null page", "nulls", "min", "max"], rows, right={0, 1, 2, 3, 5}
                        )
                    )
                )
                print()
        for w in pq.warnings:
            print(f"warning: {w}", file=sys.stderr)
    return 0


# -- bloom ----------------------------------------------------------------------------------
def _parse_value(text: str, pt: Type | int, as_hex: bool) -> Any:
    if as_hex:
        try:
            return bytes.fromhex(text)
        except ValueError:
            raise UsageError(f"--value {text!r} is not hex bytes (--hex takes pairs of hex digits, such as 00ff)") from None
    try:
        if pt in (Type.INT32, Type.INT64):
            return int(text, 0)
        if pt in (Type.FLOAT, Type.DOUBLE):
            return float(text)
    except ValueError:
        raise UsageError(f"{text!r} is not a {enum_name(pt)} value") from None
    return text


def bloom_json(pq: ParquetFile, row_group: int | None, column: int, values: list[str], as_hex: bool) -> dict[str, Any]:
    out = []
    desc = pq.column(column)
    rgs = range(pq.num_row_groups) if row_group is None else [row_group]
    for rg in rgs:
        bf = pq.bloom_filter(rg, column)
        entry: dict[str, Any] = {"row_group": rg, "column": desc.name, "bloom_filter": None}
        if bf is not None:
            entry["bloom_filter"] = {
                "offset": bf.offset,
                "header_size": bf.header_size,
                "num_bytes": bf.header.numBytes,
                "num_blocks": bf.num_blocks,
                "header": bf.header.to_dict(),
                "probes": [{"value": v, "might_contain": bf.might_contain(_parse_value(v, desc.physical_type, as_hex))} for v in values],
            }
        out.append(entry)
    return {"file": pq.name, "chunks": out}


def _bloom(args: argparse.Namespace) -> int:
    with _open(args.file) as pq:
        col = _column_arg(pq, args.column, args.row_group)
        if col is None:
            raise UsageError("--column is required for bloom")
        doc = bloom_json(pq, args.row_group, col, args.value, args.hex)
        if args.json:
            _emit(doc)
            return 0
        for e in doc["chunks"]:
            bf = e["bloom_filter"]
            if bf is None:
                print(f"row group {e['row_group']}, column {e['column']}: no bloom filter")
                continue
            print(
                f"row group {e['row_group']}, column {e['column']}: split-block bloom filter at {bf['offset']}, "
                f"header {bf['header_size']} bytes, bitset {bf['num_bytes']} bytes ({bf['num_blocks']} blocks), xxHash64"
            )
            for pr in bf["probes"]:
                print(f"  {pr['value']!r}: {'might be present' if pr['might_contain'] else 'definitely absent'}")
    return 0
