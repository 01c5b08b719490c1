"""Record assembly (Dremel): rebuild nested rows from repetition/definition levels.

Two steps:

1. :func:`assemble_leaf` turns one leaf column's levels and values into per-row
   *raw* Parquet nesting along the leaf's schema chain (top-level field .. leaf):
   a group instance is a ``dict`` {child name: value}, an OPTIONAL node may be
   ``None``, a REPEATED node is a ``list`` of instances. :func:`merge` combines the
   raw rows of the leaves under one top-level field.
2. :func:`shape` applies the logical annotations the way Arrow reads them:
   LIST groups (3-level, and the legacy 2-level forms) become lists, MAP /
   MAP_KEY_VALUE groups become lists of ``(key, value)`` tuples, other groups
   become dicts, unannotated REPEATED fields become lists.

:func:`assemble_column` does both for a top-level field, matching pyarrow's
``table.column(name).to_pylist()`` (leaf values as given, e.g. raw ``bytes``).
"""

from __future__ import annotations

import decimal
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import FormatError, LimitError

__all__ = [
    "SchemaNode",
    "assemble_column",
    "assemble_leaf",
    "leaf_chains",
    "leaf_converter",
    "merge",
    "schema_tree",
    "shape",
    "top_level_leaves",
]

REQUIRED, OPTIONAL, REPEATED = 0, 1, 2
_CT_MAP, _CT_MAP_KEY_VALUE, _CT_LIST = 1, 2, 3


@dataclass(frozen=True)
class SchemaNode:
    """One schema element, with its children (a tree built by :func:`schema_tree`)."""

    name: str
    repetition: int  # 0 REQUIRED, 1 OPTIONAL, 2 REPEATED
    converted_type: int | None = None
    logical: str | None = None  # LogicalType member name (LIST, MAP, STRING, ...)
    physical_type: int | None = None
    children: tuple[SchemaNode, ...] = field(default=())
    scale: int | None = None  # DECIMAL
    unsigned: bool = False  # UINT_* / INTEGER(isSigned=false)
    type_length: int | None = None
    precision: int | None = None  # DECIMAL
    #: position of the node's SchemaElement in FileMetaData.schema (for error paths)
    element_index: int | None = None

    @property
    def is_leaf(self) -> bool:
        return not self.children and self.physical_type is not None

    @property
    def is_list(self) -> bool:
        return self.logical == "LIST" or self.converted_type == _CT_LIST

    @property
    def is_map(self) -> bool:
        return self.logical == "MAP" or self.converted_type in (_CT_MAP, _CT_MAP_KEY_VALUE)


def _logical_name(lt: Any) -> str | None:
    if lt is None:
        return None
    member = getattr(lt, "member", None)
    if isinstance(member, str):
        return member
    if isinstance(lt, Mapping):
        for k, v in lt.items():
            if v is not None:
                return str(k)
        return None
    for name in ("LIST", "MAP", "STRING", "DECIMAL", "DATE", "TIME", "TIMESTAMP", "INTEGER", "UUID", "FLOAT16", "ENUM", "JSON", "BSON"):
        if getattr(lt, name, None) is not None:
            return name
    return None


def schema_tree(elements: Sequence[Any]) -> SchemaNode:
    """The root :class:`SchemaNode` of a flat, depth-first ``FileMetaData.schema`` list.

    Elements may be any objects with Parquet's ``SchemaElement`` attribute names.
    """
    from .read import MAX_SCHEMA_DEPTH

    pos = 0

    def build(path: str, depth: int = 0) -> SchemaNode:
        nonlocal pos
        if depth > MAX_SCHEMA_DEPTH:
            raise LimitError(f"the schema nests deeper than {MAX_SCHEMA_DEPTH} levels", rule="parquet.schema-depth", path=path)
        if pos >= len(elements):
            raise FormatError("schema ends before the children it declares", rule="parquet.schema.children", path=path, offset=None)
        e = elements[pos]
        index = pos
        pos += 1
        n = int(getattr(e, "num_children", None) or 0)
        if n < 0 or n > len(elements) - pos:
            raise FormatError(f"schema element declares {n} children", rule="parquet.schema.children", path=path, offset=None)
        kids = tuple(build(f"{path}.children[{i}]", depth + 1) for i in range(n))
        rt = getattr(e, "repetition_type", None)
        pt = getattr(e, "type", None)
        ct = getattr(e, "converted_type", None)
        lt = getattr(e, "logicalType", None) or getattr(e, "logical_type", None)
        lname = _logical_name(lt)
        scale = getattr(e, "scale", None)
        precision = getattr(e, "precision", None)
        unsigned = ct is not None and 11 <= int(ct) <= 14
        if lname == "DECIMAL":
            dec = lt["DECIMAL"] if isinstance(lt, Mapping) else getattr(lt, "DECIMAL", None)
            dscale = dec.get("scale") if isinstance(dec, Mapping) else getattr(dec, "scale", None)
            dprec = dec.get("precision") if isinstance(dec, Mapping) else getattr(dec, "precision", None)
            scale = dscale if dscale is not None else scale
            precision = dprec if dprec is not None else precision
        elif lname == "INTEGER":
            it = lt["INTEGER"] if isinstance(lt, Mapping) else getattr(lt, "INTEGER", None)
            signed = it.get("isSigned") if isinstance(it, Mapping) else getattr(it, "isSigned", None)
            unsigned = signed is False
        elif lname is None and ct is not None and int(ct) != 5:
            scale = None
        tl = getattr(e, "type_length", None)
        is_decimal = lname == "DECIMAL" or (ct is not None and int(ct) == 5)
        return SchemaNode(
            name=str(getattr(e, "name", "")),
            repetition=REQUIRED if rt is None else int(rt),
            converted_type=None if ct is None else int(ct),
            logical=lname,
            physical_type=None if (pt is None or n) else int(pt),
            children=kids,
            scale=None if scale is None or not is_decimal else int(scale),
            unsigned=unsigned,
            type_length=None if tl is None else int(tl),
            precision=None if precision is None or not is_decimal else int(precision),
            element_index=index,
        )

    return build("schema[0]")


_STRINGS = {"STRING", "ENUM", "JSON"}
_BOOLEAN, _INT32, _INT64, _INT96, _FLOAT, _DOUBLE, _BYTE_ARRAY, _FLBA = range(8)
#: physical types (and FIXED_LEN_BYTE_ARRAY length) each annotation applies to (parquet-format LogicalTypes.md;
#: parquet-cpp's ``is_applicable``). LIST/MAP/VARIANT annotate groups, so no leaf type is listed.
_LOGICAL_APPLIES: dict[str, tuple[frozenset[int], int | None]] = {
    "STRING": (frozenset({_BYTE_ARRAY}), None),
    "ENUM": (frozenset({_BYTE_ARRAY}), None),
    "JSON": (frozenset({_BYTE_ARRAY}), None),
    "BSON": (frozenset({_BYTE_ARRAY}), None),
    "DECIMAL": (frozenset({_INT32, _INT64, _BYTE_ARRAY, _FLBA}), None),
    "DATE": (frozenset({_INT32}), None),
    "TIME": (frozenset({_INT32, _INT64}), None),
    "TIMESTAMP": (frozenset({_INT64}), None),
    "INTEGER": (frozenset({_INT32, _INT64}), None),
    "UUID": (frozenset({_FLBA}), 16),
    "FLOAT16": (frozenset({_FLBA}), 2),
    "GEOMETRY": (frozenset({_BYTE_ARRAY}), None),
    "GEOGRAPHY": (frozenset({_BYTE_ARRAY}), None),
    "LIST": (frozenset(), None),
    "MAP": (frozenset(), None),
    "VARIANT": (frozenset(), None),
}
#: ConvertedType value -> (name, physical types, FIXED_LEN_BYTE_ARRAY length)
_CONVERTED_APPLIES: dict[int, tuple[str, frozenset[int], int | None]] = {
    0: ("UTF8", frozenset({_BYTE_ARRAY}), None),
    4: ("ENUM", frozenset({_BYTE_ARRAY}), None),
    5: ("DECIMAL", frozenset({_INT32, _INT64, _BYTE_ARRAY, _FLBA}), None),
    6: ("DATE", frozenset({_INT32}), None),
    7: ("TIME_MILLIS", frozenset({_INT32}), None),
    8: ("TIME_MICROS", frozenset({_INT64}), None),
    9: ("TIMESTAMP_MILLIS", frozenset({_INT64}), None),
    10: ("TIMESTAMP_MICROS", frozenset({_INT64}), None),
    11: ("UINT_8", frozenset({_INT32}), None),
    12: ("UINT_16", frozenset({_INT32}), None),
    13: ("UINT_32", frozenset({_INT32}), None),
    14: ("UINT_64", frozenset({_INT64}), None),
    15: ("INT_8", frozenset({_INT32}), None),
    16: ("INT_16", frozenset({_INT32}), None),
    17: ("INT_32", frozenset({_INT32}), None),
    18: ("INT_64", frozenset({_INT64}), None),
    19: ("JSON", frozenset({_BYTE_ARRAY}), None),
    20: ("BSON", frozenset({_BYTE_ARRAY}), None),
    21: ("INTERVAL", frozenset({_FLBA}), 12),
}
_PHYSICAL_NAMES = ("BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY")
#: Decimal arithmetic without rounding or exponent limits (the default context rounds to 28 digits)
_EXACT = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


def _physical(node: SchemaNode) -> str:
    pt = node.physical_type
    name = _PHYSICAL_NAMES[pt] if pt is not None and 0 <= pt < len(_PHYSICAL_NAMES) else str(pt)
    return f"{name}({node.type_length})" if pt == _FLBA else name


def _applies(types: frozenset[int], length: int | None, node: SchemaNode) -> bool:
    return node.physical_type in types and (length is None or node.type_length == length)


def leaf_converter(node: SchemaNode, warn: Callable[[FormatError], None] | None = None) -> Callable[[Any], Any]:
    """Plain Python values for a leaf: ``str`` for STRING/ENUM/JSON (and UTF8), ``Decimal`` for DECIMAL,
    unsigned ints for UINT/INTEGER(unsigned), ``float`` for FLOAT16, INT96 as nanoseconds since the
    epoch (wrapped to int64, as Arrow does); other values (temporal ints, bytes) unchanged.

    Annotations are read as pyarrow reads them. The ``logicalType`` decides when it is present
    (``converted_type`` is its legacy twin); one that does not apply to the physical type (FLOAT16 on
    ``FIXED_LEN_BYTE_ARRAY(3)``, DECIMAL on INT96 or DOUBLE) is ignored: the raw value is returned and
    ``warn`` gets a ``parquet.schema.annotation`` :class:`FormatError`. A ``converted_type`` alone that
    does not apply, or DECIMAL parameters that are impossible (scale < 0 or > precision, precision < 1),
    raise ``parquet.schema.annotation`` / ``parquet.schema.decimal`` (pyarrow refuses such files).
    """
    from .encodings import int96_to_nanos

    pt = node.physical_type
    at = f"schema[{node.element_index}]" if node.element_index is not None else f"schema.{node.name}"
    logical = node.logical
    kind: str | None  # the annotation that decides: a LogicalType member name, or a ConvertedType name
    if logical is not None:
        kind = logical
        rule = _LOGICAL_APPLIES.get(logical)
        if kind == "DECIMAL":
            _check_decimal(node, f"{at}.logicalType.DECIMAL")
        if rule is not None and not _applies(rule[0], rule[1], node):
            if warn is not None:
                warn(
                    FormatError(
                        f"logical type {logical} does not apply to {_physical(node)} (column {node.name!r}); "
                        "it is ignored and the raw values are returned, as pyarrow does",
                        rule="parquet.schema.annotation",
                        path=f"{at}.logicalType",
                    )
                )
            kind = None
    elif node.converted_type is not None and node.converted_type in _CONVERTED_APPLIES:
        kind, types, length = _CONVERTED_APPLIES[node.converted_type]
        if not _applies(types, length, node):
            raise FormatError(
                f"converted type {kind} cannot annotate {_physical(node)} (column {node.name!r})",
                rule="parquet.schema.annotation",
                path=f"{at}.converted_type",
            )
        if kind == "DECIMAL":
            _check_decimal(node, at)
    else:
        kind = None

    if kind == "DECIMAL":
        neg = -(node.scale or 0)
        exact = _EXACT
        if pt in (_BYTE_ARRAY, _FLBA):
            width = decimal_bytes(node.precision or 1)
            vpath = f"{at}.values"

            def dec(v: Any) -> decimal.Decimal:
                n = int.from_bytes(v, "big", signed=True)
                # more bytes than the precision needs (beyond sign extension) would make Decimal(n) quadratic
                if len(v) > width and n.bit_length() >= 8 * width:
                    raise FormatError(
                        f"a DECIMAL({node.precision}, {node.scale or 0}) value of column {node.name!r} takes {len(v)} bytes; "
                        f"its precision needs at most {width}",
                        rule="parquet.values.decimal-length",
                        path=vpath,
                    )
                return decimal.Decimal(n).scaleb(neg, exact)

            return dec
        return lambda v: decimal.Decimal(int(v)).scaleb(neg, exact)
    if kind in _STRINGS or kind in ("UTF8", "ENUM", "JSON"):
        return lambda v: v.decode("utf-8", "replace") if isinstance(v, bytes) else v
    if (kind in ("UINT_8", "UINT_16", "UINT_32", "UINT_64") or (kind == "INTEGER" and node.unsigned)) and pt in (_INT32, _INT64):
        mask = (1 << (32 if pt == _INT32 else 64)) - 1
        return lambda v: int(v) & mask
    if kind == "FLOAT16":
        unpack = struct.Struct("<e").unpack
        return lambda v: unpack(v)[0]
    if pt == _INT96:

        def int96(v: Any) -> int:
            n = int96_to_nanos(v) & ((1 << 64) - 1)
            return n - (1 << 64) if n >> 63 else n

        return int96
    return lambda v: v


def decimal_bytes(precision: int) -> int:
    """The bytes a two's-complement unscaled value of ``precision`` decimal digits needs (at most; 16 for 38 digits,
    32 for 76): a byte-array DECIMAL value longer than this, beyond sign extension, is ``parquet.values.decimal-length``."""
    return (int(precision * 3.321928094887362) + 2 + 7) // 8  # bits of 10^p - 1 (log2 10 rounded up), + a sign bit


def _check_decimal(node: SchemaNode, path: str) -> None:
    """DECIMAL(precision, scale) needs 1 <= precision and 0 <= scale <= precision (parquet-format
    LogicalTypes.md; pyarrow and parquet-java refuse other values)."""
    p, sc = node.precision, node.scale or 0
    if p is None or p < 1:
        raise FormatError(
            f"DECIMAL column {node.name!r} has precision {p}; it must be at least 1",
            rule="parquet.schema.decimal",
            path=f"{path}.precision",
        )
    if not 0 <= sc <= p:
        raise FormatError(
            f"DECIMAL column {node.name!r} has scale {sc}; it must be between 0 and the precision {p}",
            rule="parquet.schema.decimal",
            path=f"{path}.scale",
        )


def leaf_chains(root: SchemaNode) -> list[tuple[SchemaNode, ...]]:
    """For each leaf (in schema order), the chain of nodes from the top-level field to it."""
    out: list[tuple[SchemaNode, ...]] = []

    def walk(node: SchemaNode, chain: tuple[SchemaNode, ...]) -> None:
        if not node.children:
            if node.physical_type is not None:  # a group without children holds no column
                out.append(chain)
            return
        for c in node.children:
            walk(c, (*chain, c))

    for top in root.children:
        walk(top, (top,))
    return out


def top_level_leaves(root: SchemaNode) -> list[range]:
    """For each top-level field (in schema order), the leaf column indices under it."""
    tops = [chain[0] for chain in leaf_chains(root)]  # in leaf order, so each field's leaves are contiguous
    out: list[range] = []
    n = 0
    for top in root.children:
        k = sum(1 for t in tops if t is top)
        out.append(range(n, n + k))
        n += k
    return out


def assemble_leaf(chain: Sequence[SchemaNode], rep: Any, defs: Any, values: Any, *, path: str = "column") -> list[Any]:
    """Raw per-row nesting of one leaf (see module doc). ``values`` are the non-null values."""
    m = len(chain)
    dl: list[int] = []
    rnodes: list[int] = []
    d = 0
    for i, node in enumerate(chain):
        if node.repetition in (OPTIONAL, REPEATED):
            d += 1
        if node.repetition == REPEATED:
            rnodes.append(i)
        dl.append(d)
    maxd = d
    names = [n.name for n in chain]
    reps = [n.repetition for n in chain]
    r_list = np.asarray(rep).tolist()
    d_list = np.asarray(defs).tolist()
    v_list = values.tolist() if hasattr(values, "tolist") else list(values)
    if len(r_list) != len(d_list):
        raise FormatError(
            f"{len(r_list)} repetition levels but {len(d_list)} definition levels", rule="parquet.levels.count", path=path, offset=None
        )
    lists: list[list[Any] | None] = [None] * m
    vi = 0
    nvals = len(v_list)

    def elem(i: int, d: int) -> Any:
        nonlocal vi
        if i == m - 1:
            if vi >= nvals:
                raise FormatError(
                    f"definition levels define more than the {nvals} values decoded", rule="parquet.values.count", path=path, offset=None
                )
            v = v_list[vi]
            vi += 1
            return v
        return {names[i + 1]: build(i + 1, d)}

    def build(i: int, d: int) -> Any:
        r = reps[i]
        if r == OPTIONAL and d < dl[i]:
            return None
        if r == REPEATED:
            lst: list[Any] = []
            lists[i] = lst
            if d >= dl[i]:
                lst.append(elem(i, d))
            return lst
        return elem(i, d)

    rows: list[Any] = []
    for k, (r, d) in enumerate(zip(r_list, d_list, strict=True)):
        if d > maxd or r > len(rnodes):
            raise FormatError(
                f"level pair (r={r}, d={d}) at entry {k} exceeds the column's max levels ({len(rnodes)}, {maxd})",
                rule="parquet.levels.range",
                path=path,
                offset=None,
            )
        if r == 0:
            rows.append(build(0, d))
            continue
        j = rnodes[r - 1]
        target = lists[j]
        if target is None or not rows:
            raise FormatError(
                f"entry {k} repeats at level {r} before any record starts", rule="parquet.levels.first-repetition", path=path, offset=None
            )
        if d < dl[j]:
            raise FormatError(
                f"entry {k} repeats at level {r} but its definition level {d} leaves that list undefined",
                rule="parquet.levels.inconsistent",
                path=path,
                offset=None,
            )
        target.append(elem(j, d))
    if vi != nvals:
        raise FormatError(
            f"definition levels define {vi} values but {nvals} were decoded", rule="parquet.values.count", path=path, offset=None
        )
    return rows


def merge(a: Any, b: Any) -> Any:
    """Combine two leaves' raw nesting of the same row (dict keys union, lists element-wise)."""
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for k, v in b.items():
            out[k] = merge(out[k], v) if k in out else v
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            raise FormatError(
                f"sibling columns disagree on a list's length ({len(a)} vs {len(b)})",
                rule="parquet.assembly.mismatch",
                path="row",
                offset=None,
            )
        return [merge(x, y) for x, y in zip(a, b, strict=True)]
    return a


def _is_legacy_element(node: SchemaNode, child: SchemaNode) -> bool:
    """The backward-compatibility rules of the LIST annotation: is ``child`` (repeated) itself the element?"""
    return not child.children or len(child.children) > 1 or child.name == "array" or child.name == f"{node.name}_tuple"


def shape(node: SchemaNode, raw: Any, leaf: Callable[[SchemaNode, Any], Any] | None = None) -> Any:
    """Arrow's reading of ``node``'s raw value (a list when ``node`` is REPEATED)."""
    if node.repetition == REPEATED:
        return [_inner(node, x, leaf) for x in (raw or [])]
    if raw is None:
        return None
    return _inner(node, raw, leaf)


def _inner(node: SchemaNode, raw: Any, leaf: Callable[[SchemaNode, Any], Any] | None) -> Any:
    if raw is None:
        return None
    if not node.children:
        return leaf(node, raw) if leaf is not None else raw
    if node.is_list and len(node.children) == 1 and node.children[0].repetition == REPEATED:
        c = node.children[0]
        items = raw.get(c.name) or []
        if _is_legacy_element(node, c):
            return [_inner(c, x, leaf) for x in items]
        e = c.children[0]
        return [shape(e, x.get(e.name) if x is not None else None, leaf) for x in items]
    if node.is_map and len(node.children) == 1 and node.children[0].repetition == REPEATED and node.children[0].children:
        kv = node.children[0]
        items = raw.get(kv.name) or []
        if len(kv.children) == 1:  # a map without values reads as a list of keys
            k = kv.children[0]
            return [shape(k, x.get(k.name), leaf) for x in items]
        return [tuple(shape(f, x.get(f.name), leaf) for f in kv.children) for x in items]
    return {c.name: shape(c, raw.get(c.name), leaf) for c in node.children}


def _flat(node: SchemaNode, rep: Any, defs: Any, values: Any, leaf: Callable[[SchemaNode, Any], Any] | None) -> list[Any]:
    """A top-level primitive field: its values with None where the definition level is 0 (vectorised)."""
    vals = values.tolist() if hasattr(values, "tolist") else list(values)
    if leaf is not None:
        vals = [leaf(node, v) for v in vals]
    if node.repetition == REQUIRED:
        return vals
    d = np.asarray(defs)
    if len(vals) != int(np.count_nonzero(d >= 1)) or (len(d) and int(d.max()) > 1):
        return assemble_leaf((node,), rep, defs, values if leaf is None else np.asarray(vals, dtype=object), path=node.name)
    out = np.full(len(d), None, dtype=object)
    filled = np.empty(len(vals), dtype=object)
    filled[:] = vals
    out[d == 1] = filled
    rows: list[Any] = out.tolist()
    return rows


def assemble_column(
    top: SchemaNode,
    leaves: Mapping[tuple[str, ...], tuple[Any, Any, Any]],
    *,
    leaf: Callable[[SchemaNode, Any], Any] | None = None,
) -> list[Any]:
    """Rows of top-level field ``top`` from its leaves' ``(rep, def, values)`` keyed by path (names from ``top`` down).

    ``leaf(node, value)`` may convert each leaf value (for example bytes -> str).
    """
    chains: list[tuple[SchemaNode, ...]] = []

    def walk(node: SchemaNode, chain: tuple[SchemaNode, ...]) -> None:
        if not node.children:
            chains.append(chain)
        for c in node.children:
            walk(c, (*chain, c))

    walk(top, (top,))
    if not top.children and top.repetition != REPEATED and (top.name,) in leaves:
        return _flat(top, *leaves[(top.name,)], leaf)
    rows: list[Any] | None = None
    for chain in chains:
        key = tuple(n.name for n in chain)
        if key not in leaves:
            continue
        rep, defs, vals = leaves[key]
        raw = assemble_leaf(chain, rep, defs, vals, path=".".join(key))
        if rows is None:
            rows = raw
        else:
            if len(raw) != len(rows):
                raise FormatError(
                    f"leaf {'.'.join(key)} has {len(raw)} rows but its siblings {len(rows)}",
                    rule="parquet.assembly.mismatch",
                    path=".".join(key),
                    offset=None,
                )
            rows = [merge(a, b) for a, b in zip(rows, raw, strict=True)]
    if rows is None:
        return []
    return [shape(top, r, leaf) for r in rows]
