"""TEST-ONLY oracles: pyarrow's rows in comparable form, and an independent Dremel shredder.

The shredder walks Arrow-shaped rows (what ``to_pylist()`` returns) down the Parquet
schema and emits (repetition, definition, value) per leaf — the inverse direction of
lakestruct's assembly, written separately, so agreement is evidence for both.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as papq

from lakestruct.parquet.assembly import REPEATED, SchemaNode, _is_legacy_element

NAN = "<NaN>"


def physicalize(t: pa.DataType) -> pa.DataType:
    """Arrow type with temporal types as their integer storage, float16 as float32, dictionaries decoded."""
    if pa.types.is_dictionary(t):
        return physicalize(t.value_type)
    if pa.types.is_timestamp(t) or pa.types.is_date64(t) or pa.types.is_duration(t) or pa.types.is_time64(t):
        return pa.int64()
    if pa.types.is_date32(t) or pa.types.is_time32(t):
        return pa.int32()
    if pa.types.is_float16(t):
        return pa.float32()
    if pa.types.is_map(t):
        return pa.map_(physicalize(t.key_type), physicalize(t.item_type))
    if pa.types.is_large_list(t):
        return pa.large_list(t.value_field.with_type(physicalize(t.value_type)))
    if pa.types.is_list(t):
        return pa.list_(t.value_field.with_type(physicalize(t.value_type)))
    if pa.types.is_fixed_size_list(t):
        return pa.list_(t.value_field.with_type(physicalize(t.value_type)))
    if pa.types.is_struct(t):
        return pa.struct([t.field(i).with_type(physicalize(t.field(i).type)) for i in range(t.num_fields)])
    if isinstance(t, pa.ExtensionType):
        return physicalize(t.storage_type)
    return t


def norm(v: Any) -> Any:
    """NaN-safe comparable form (NaN -> marker, tuples kept, floats from float16 rounded consistently)."""
    if isinstance(v, float) and math.isnan(v):
        return NAN
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, tuple):
        return tuple(norm(x) for x in v)
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    return v


def arrow_rows(path: str | Path, name: str) -> list[Any]:
    col = papq.read_table(path, columns=[name]).column(0)
    if isinstance(col.type, pa.ExtensionType):
        col = pa.chunked_array([c.storage for c in col.chunks], type=col.type.storage_type)
    return norm(col.cast(physicalize(col.type)).to_pylist())


# ----------------------------------------------------------------- shredding


def _leaves(node: SchemaNode, prefix: tuple[str, ...]) -> list[tuple[str, ...]]:
    here = (*prefix, node.name)
    if not node.children:
        return [here]
    out: list[tuple[str, ...]] = []
    for c in node.children:
        out += _leaves(c, here)
    return out


class Shredder:
    def __init__(self, top: SchemaNode) -> None:
        self.top = top
        self.cols: dict[tuple[str, ...], tuple[list[int], list[int], list[Any]]] = {k: ([], [], []) for k in _leaves(top, ())}

    def null(self, node: SchemaNode, prefix: tuple[str, ...], r: int, d: int) -> None:
        for k in _leaves(node, prefix):
            rr, dd, _ = self.cols[k]
            rr.append(r)
            dd.append(d)

    def field(self, node: SchemaNode, prefix: tuple[str, ...], v: Any, r: int, d: int, rr: int) -> None:
        if node.repetition == REPEATED:
            if not v:
                self.null(node, prefix, r, d)
                return
            for i, el in enumerate(v):
                self.instance(node, prefix, el, r if i == 0 else rr + 1, d + 1, rr + 1)
        elif node.repetition == 1:
            if v is None:
                self.null(node, prefix, r, d)
            else:
                self.instance(node, prefix, v, r, d + 1, rr)
        else:
            self.instance(node, prefix, v, r, d, rr)

    def instance(self, node: SchemaNode, prefix: tuple[str, ...], v: Any, r: int, d: int, rr: int) -> None:
        here = (*prefix, node.name)
        if not node.children:
            a, b, c = self.cols[here]
            a.append(r)
            b.append(d)
            c.append(v)
            return
        if node.is_list and len(node.children) == 1 and node.children[0].repetition == REPEATED:
            c0 = node.children[0]
            if not v:
                self.null(c0, here, r, d)
                return
            for i, el in enumerate(v):
                ri = r if i == 0 else rr + 1
                if _is_legacy_element(node, c0):
                    self.instance(c0, here, el, ri, d + 1, rr + 1)
                else:
                    self.field(c0.children[0], (*here, c0.name), el, ri, d + 1, rr + 1)
            return
        if node.is_map and len(node.children) == 1 and node.children[0].repetition == REPEATED and node.children[0].children:
            kv = node.children[0]
            if not v:
                self.null(kv, here, r, d)
                return
            for i, el in enumerate(v):
                ri = r if i == 0 else rr + 1
                if len(kv.children) == 1:
                    el = (el,)
                for f, x in zip(kv.children, el, strict=True):
                    self.field(f, (*here, kv.name), x, ri, d + 1, rr + 1)
            return
        for c in node.children:
            self.field(c, here, v.get(c.name) if v is not None else None, r, d, rr)


def shred(top: SchemaNode, rows: list[Any]) -> dict[tuple[str, ...], tuple[list[int], list[int], list[Any]]]:
    s = Shredder(top)
    for row in rows:
        s.field(top, (), row, 0, 0, 0)
    return s.cols
