"""Parsed Kaitai objects -> rows (dicts matching :meth:`lakestruct.kaitai.model.Plan.schema`).

One converter per schema node, built once per (plan, loaded bundle): structs read their fields with
``getattr`` (a field an ``if:`` skipped is null), enums give their member name and ``__raw`` number, switch
structs set the field of the case the value's class (or Python type) matches, recursive types become JSON.
Reading an instance runs generated code, so it may fail on bad input: the value is then null and the row
carries the error (rule, offset, path), like a Puffin blob that breaks a rule while its file is fine.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Iterator
from typing import Any

import kaitaistruct

from ..errors import FormatError
from .model import RESERVED, Node, Plan, TypeDef
from .runtime import Loaded, translate

__all__ = ["Walker"]

Conv = Callable[[Any], Any]
_I64 = (-(2**63), 2**63 - 1)


class _RangeError(Exception):
    pass


class Walker:
    """Turns the parsed root object of one file into rows."""

    def __init__(self, plan: Plan, loaded: Loaded) -> None:
        self.plan = plan
        self.loaded = loaded
        self.errors: list[FormatError] = []
        self.root_stream: Any = None
        self._json_fields: dict[Any, list[str]] = {}
        if plan.row.kind == "struct":
            self._row = self._struct_fields(plan.row)
        else:
            c = self.conv(plan.row)
            name = plan.row_name + ("_" if plan.row_name in RESERVED else "")
            raw = self._raw_conv(plan.row)

            def single(v: Any) -> dict[str, Any]:
                d = {name: None if v is None else (c(v) if c else v)}
                if raw is not None:
                    d[name + "__raw"] = None if v is None else raw(v)
                return d

            self._row = single
        self.rename = {n: n + "_" for n in RESERVED}

    # converters ---------------------------------------------------------------------------------
    def conv(self, n: Node) -> Conv | None:
        """The converter of node ``n`` (None: the parsed value is the column value). Never called with None."""
        k = n.kind
        if k == "prim":
            return _PRIM[n.conv]
        if k == "enum":
            return _enum_name
        if k == "text":
            return str
        if k == "json":
            return lambda v: json.dumps(self._generic(v), sort_keys=False, default=str)
        if k == "array":
            assert n.elem is not None
            c = self.conv(n.elem)
            if c is None:
                return list
            return lambda v: [None if x is None else c(x) for x in v]
        if k == "struct":
            f = self._struct_fields(n)
            return f
        if k == "switch":
            return self._switch(n)
        raise AssertionError(k)

    def _raw_conv(self, n: Node) -> Conv | None:
        """The converter of an enum's ``__raw`` sibling (None when ``n`` has none)."""
        if n.kind == "enum":
            return _enum_raw
        if n.kind == "array" and n.elem is not None and n.elem.kind == "enum":
            return lambda v: [None if x is None else _enum_raw(x) for x in v]
        return None

    def _struct_fields(self, n: Node) -> Callable[[Any], dict[str, Any]]:
        items: list[tuple[str, str, Conv | None, str | None, Conv | None, bool]] = []
        for f in n.fields:
            items.append((f.attr, f.name, self.conv(f.node), f.name + "__raw" if f.node.raw_arrow is not None else None,
                          self._raw_conv(f.node), f.instance))  # fmt: skip
        positions, marker = n.positions, n.marker
        instance_value = self._instance

        def conv(obj: Any) -> dict[str, Any]:
            d: dict[str, Any] = {}
            for attr, name, c, raw_name, raw, inst in items:
                v = instance_value(obj, attr) if inst else getattr(obj, attr, None)
                if v is None:
                    d[name] = None
                    if raw_name:
                        d[raw_name] = None
                    continue
                try:
                    d[name] = c(v) if c is not None else v
                except _RangeError as e:
                    d[name] = None
                    self.errors.append(FormatError(str(e), rule="kaitai.value-range", path=attr, offset=None))
                if raw_name:
                    d[raw_name] = raw(v) if raw is not None else None
            if positions:
                od = obj.__dict__
                d["__offset"] = od.get("_ls_off")
                d["__size"] = od.get("_ls_size")
            if marker:
                d["__present"] = True
            return d

        return conv

    def _instance(self, obj: Any, attr: str) -> Any:
        try:
            return getattr(obj, attr)
        except AttributeError as e:
            if not hasattr(type(obj), attr):
                return None
            self.errors.append(translate(self.loaded, e, self.root_stream))  # a field an `if:` skipped, used by the instance
            return None
        except Exception as e:  # bad input met while computing the instance
            self.errors.append(translate(self.loaded, e, self.root_stream))
            return None

    def _switch(self, n: Node) -> Conv:
        by_class: list[tuple[Any, str, Conv | None]] = []
        by_kind: dict[type, tuple[str, Conv | None]] = {}
        kinds: dict[str, tuple[type, ...]] = {"int": (int,), "float": (float,), "str": (str,), "bytes": (bytes, bytearray), "bool": (bool,)}
        for f in n.fields:
            m = n.case_match[f.name]
            c = self.conv(f.node)
            if isinstance(m, TypeDef):
                cls = self.loaded.classes.get(m.qualname)
                if cls is not None:
                    by_class.append((cls, f.name, c))
            else:
                for py in kinds.get(str(m), ()):
                    by_kind.setdefault(py, (f.name, c))
        empty = {f.name: None for f in n.fields}

        def conv(v: Any) -> dict[str, Any]:
            d = dict(empty)
            for cls, name, c in by_class:
                if isinstance(v, cls):
                    d[name] = c(v) if c else v
                    return d
            hit = by_kind.get(type(v))
            if hit is not None:
                d[hit[0]] = hit[1](v) if hit[1] else v
            return d

        return conv

    def _generic(self, v: Any) -> Any:
        """A parsed value as JSON-able data (recursive types)."""
        if isinstance(v, kaitaistruct.KaitaiStruct):
            cls = type(v)
            names = self._json_fields.get(cls)
            if names is None:
                t = self.loaded.typedefs.get(cls) or next((t for c, t in self.loaded.typedefs.items() if isinstance(v, c)), None)
                names = [a["id"] for a in t.seq if "id" in a] if t is not None else []
                self._json_fields[cls] = names
            return {k: self._generic(getattr(v, k, None)) for k in names}
        if isinstance(v, list):
            return [self._generic(x) for x in v]
        if isinstance(v, enum.Enum):
            return v.name
        if isinstance(v, bytes | bytearray):
            return bytes(v).hex()
        return v

    # rows -----------------------------------------------------------------------------------------
    def items(self, obj: Any) -> list[Any]:
        """The row objects of a file: the root object, or the items of the ``root`` path."""
        current = [obj]
        for name, is_array in zip(self.plan.root_path, self.plan.root_arrays, strict=True):
            nxt: list[Any] = []
            for o in current:
                v = self._instance(o, name) if _is_property(o, name) else getattr(o, name, None)
                if v is None:
                    continue
                if is_array and isinstance(v, list):
                    nxt.extend(v)
                else:
                    nxt.append(v)
            current = nxt
        return current

    def row(self, item: Any) -> dict[str, Any]:
        d = self._row(item)
        if any(k in self.rename for k in d):
            d = {self.rename.get(k, k): v for k, v in d.items()}
        return d

    def rows(self, items: list[Any], start: int = 0) -> Iterator[dict[str, Any]]:
        indexed = bool(self.plan.root_path)
        for i, item in enumerate(items, start):
            self.errors.clear()
            r = self.row(item)
            if indexed:
                r["__index"] = i
            if self.errors:
                e = self.errors[0]
                r.update(error_rule=e.rule, error_offset=e.offset, error_path=e.path, error=str(e))
            yield r


def _is_property(obj: Any, name: str) -> bool:
    return isinstance(getattr(type(obj), name, None), property)


def _enum_name(v: Any) -> Any:
    return v.name if isinstance(v, enum.Enum) else None


def _enum_raw(v: Any) -> Any:
    return int(v)


def _calc(v: Any) -> Any:
    if type(v) is int:
        if not _I64[0] <= v <= _I64[1]:
            raise _RangeError(f"value {v} does not fit a bigint")
        return v
    return int(v)


def _u8long(v: Any) -> Any:
    return v - (1 << 64) if v >= (1 << 63) else v


def _bytes(v: Any) -> Any:
    return bytes(v) if not isinstance(v, bytes) else v


def _float(v: Any) -> Any:
    return float(v)


_PRIM: dict[str, Conv | None] = {
    "id": None,
    "u8dec": None,
    "u8long": _u8long,
    "calc": _calc,
    "float": _float,
    "bytes": _bytes,
    "bool": bool,
}
