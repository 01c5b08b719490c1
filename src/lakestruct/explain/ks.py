"""Nodes from the parsers compiled in debug mode (``generated/debug``, ``lakestruct._generated.debug``).

A debug-mode object records where each field it read starts and ends, ``obj._debug[name] =
{"start": s, "end": e}`` (arrays add ``"arr"``, one range per element), relative to its own stream;
a field read through ``size:`` gets a substream, so its object's positions start at 0 there. The
walkers here turn those positions into absolute byte ranges (``base`` = the absolute offset of the
object's stream) and name the fields: :func:`struct_nodes` generically, with per-type summaries;
:func:`thrift_nodes` for Thrift compact structs, by the field names of a Parquet model's IDL.

A parse that failed part way leaves the fields it read (the walkers show them: a field whose end
was never recorded is left out), so a broken file still shows everything before the break.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import Any

from kaitaistruct import KaitaiStruct

from ..parquet.model import enum_name
from ..thrift import compact
from .tree import Node, show_list, show_value

__all__ = ["Summaries", "base_of", "span", "struct_nodes", "summary", "thrift_nodes"]

#: class name -> one-line summary of an object of that class
Summaries = dict[str, Callable[[Any], str]]


def span(obj: Any, name: str, base: int) -> tuple[int, int] | None:
    """The absolute range of field (or instance ``_m_x``) ``name`` of ``obj``, if it was read to its end."""
    d = getattr(obj, "_debug", {}).get(name)
    if not d or "start" not in d or "end" not in d:
        return None
    return base + int(d["start"]), base + int(d["end"])


def base_of(parent: Any, parent_base: int, child: Any, start_in_parent: int) -> int:
    """The absolute offset of ``child``'s stream: the parent's, or a substream starting where the field did."""
    if getattr(child, "_io", None) is getattr(parent, "_io", None):
        return parent_base
    return start_in_parent


def _fields(obj: Any) -> list[str]:
    names = list(getattr(obj, "SEQ_FIELDS", []))
    names += [k for k in getattr(obj, "_debug", {}) if k.startswith("_m_")]
    return names


def _scalar(v: Any) -> tuple[str, Any]:
    if isinstance(v, IntEnum):
        return f"{v.name} ({int(v)})", v.name
    if isinstance(v, (bytes, bytearray)):
        b = bytes(v)
        return show_value(b), b.hex()
    return show_value(v), v


def struct_nodes(obj: Any, base: int, summaries: Summaries, *, skip: frozenset[str] = frozenset()) -> list[Node]:
    """The fields of a debug-mode Kaitai object (and the position instances it read) as nodes, recursively."""
    out: list[Node] = []
    for name in _fields(obj):
        label = name[3:] if name.startswith("_m_") else name
        if label in skip:
            continue
        rng = span(obj, name, base)
        if rng is None or not hasattr(obj, name):
            continue
        s, e = rng
        v = getattr(obj, name)
        if isinstance(v, KaitaiStruct):
            if s == e and not _has_bytes(v):
                continue  # a zero-size check or typed view: no bytes of its own
            node = Node(label, s, e, kind=type(v).__name__)
            child_base = base_of(obj, base, v, s)
            node.value = summary(v, summaries)
            node.children = struct_nodes(v, child_base, summaries)
            out.append(node)
        elif isinstance(v, list):
            if s == e and not v:
                continue
            node = Node(label, s, e, kind=f"array[{len(v)}]")
            arr = obj._debug[name].get("arr", [])
            if v and all(isinstance(x, KaitaiStruct) for x in v):
                node.value = f"{len(v)} x {type(v[0]).__name__}"
                for i, (x, d) in enumerate(zip(v, arr, strict=False)):
                    if "end" not in d:
                        continue
                    xs, xe = base + int(d["start"]), base + int(d["end"])
                    child = Node(f"[{i}]", xs, xe, kind=type(x).__name__, value=summary(x, summaries))
                    child.children = struct_nodes(x, base_of(obj, base, x, xs), summaries)
                    node.children.append(child)
            else:
                shown = [_scalar(x)[1] for x in v]
                node.value = show_list(shown)
                node.data = shown
            out.append(node)
        else:
            if s == e:
                if not isinstance(v, (bool, int)) or s <= base:
                    continue
                s -= 1  # a bit field read from the byte before (a byte's first bit field moved past it)
            node = Node(label, s, e)
            node.value, node.data = _scalar(v)
            node.kind = "bits" if e - s == 1 and isinstance(v, bool) else type(v).__name__
            out.append(node)
    return out


def _has_bytes(v: Any) -> bool:
    for name in _fields(v):
        d = v._debug.get(name, {})
        if "end" in d and d["end"] != d.get("start"):
            return True
    return False


def summary(v: Any, summaries: Summaries) -> str:
    """The one-line summary of a Kaitai object (by its class's qualified name), or ''."""
    fn = summaries.get(type(v).__qualname__)
    if fn is None:
        return ""
    try:
        return fn(v)
    except Exception:  # a summary of a partly read object: the nodes below say what is there
        return ""


# -- Thrift compact structs ----------------------------------------------------------------------

_WIRE_NAMES = {
    compact.BOOL_TRUE: "bool",
    compact.BOOL_FALSE: "bool",
    compact.I8: "i8",
    compact.I16: "i16",
    compact.I32: "i32",
    compact.I64: "i64",
    compact.DOUBLE: "double",
    compact.BINARY: "binary",
    compact.LIST: "list",
    compact.SET: "set",
    compact.MAP: "map",
    compact.STRUCT: "struct",
    compact.UUID: "uuid",
}


def _kind_of(model: Any, fid: int) -> tuple[str, Any]:
    for f, name, kind, _req in getattr(model, "_THRIFT", ()):
        if f == fid:
            return name, kind
    return f"field_{fid}", None


def _model_of(kind: Any) -> Any:
    if isinstance(kind, tuple) and kind[0] == "struct":
        return kind[1]
    return None


def thrift_nodes(st: Any, base: int, model: Any) -> list[Node]:
    """The fields of a debug-mode ``compact_struct`` (or a top-level ``ThriftCompact``), named by
    ``model``'s IDL (``_THRIFT``; None names them ``field_<id>``), with their stop byte."""
    out: list[Node] = []
    arr = st._debug.get("fields", {}).get("arr", [])
    for f, d in zip(getattr(st, "fields", []) or [], arr, strict=False):
        if "end" not in d:
            continue
        s, e = base + int(d["start"]), base + int(d["end"])
        if f.is_stop:
            out.append(Node("(stop)", s, e, kind="stop", value="end of struct"))
            continue
        fid = int(f.field_id)
        name, kind = _kind_of(model, fid)
        wt = int(f.wire_type)
        node = Node(name, s, e, kind=f"{_WIRE_NAMES.get(wt, str(wt))} #{fid}")
        if f.is_bool:
            node.value, node.data = show_value(bool(f.bool_value)), bool(f.bool_value)
        elif getattr(f, "value", None) is not None:
            _thrift_value(node, wt, f.value, base, kind)
        out.append(node)
    return out


def _thrift_value(node: Node, wt: int, v: Any, base: int, kind: Any) -> None:
    """Fill ``node`` (its value, its children) from a ``compact_value`` of wire type ``wt``."""
    if wt in (compact.I16, compact.I32, compact.I64) and getattr(v, "int_value", None) is not None:
        n = int(v.int_value.value)
        if isinstance(kind, tuple) and kind[0] == "enum":
            try:
                name = enum_name(kind[1](n))
            except ValueError:
                name = None
            node.value, node.data = (f"{name} ({n})", name) if name else (str(n), n)
        else:
            node.value, node.data = str(n), n
    elif wt == compact.BINARY and getattr(v, "binary_value", None) is not None:
        b = bytes(v.binary_value.data)
        text: str | None
        try:
            text = b.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None and (kind == "string" or (text.isprintable() and text)):
            node.value, node.data = show_value(text), text
        else:
            node.value, node.data = show_value(b), b.hex()
    elif wt == compact.STRUCT and getattr(v, "struct_value", None) is not None:
        model = _model_of(kind)
        node.value = getattr(model, "__name__", "struct")
        node.children = thrift_nodes(v.struct_value, base, model)
    elif wt in (compact.LIST, compact.SET) and getattr(v, "list_value", None) is not None:
        lv = v.list_value
        et = int(lv.elem_type)
        ekind = kind[1] if isinstance(kind, tuple) and kind[0] == "list" else None
        elems = getattr(lv, "elements", None) or []
        arr = lv._debug.get("elements", {}).get("arr", [])
        node.value = f"{_WIRE_NAMES.get(et, str(et))} x {int(lv.num_elements)}"
        scalars = []
        for i, (x, d) in enumerate(zip(elems, arr, strict=False)):
            if "end" not in d:
                continue
            child = Node(f"[{i}]", base + int(d["start"]), base + int(d["end"]), kind=_WIRE_NAMES.get(et, str(et)))
            if et in (compact.BOOL_TRUE, compact.BOOL_FALSE):
                child.value, child.data = show_value(bool(x.bool_value)), bool(x.bool_value)
            else:
                _thrift_value(child, et, x, base, ekind)
            scalars.append(child.data)
            node.children.append(child)
        if et != compact.STRUCT and scalars:
            node.data = scalars
    elif wt == compact.MAP and getattr(v, "map_value", None) is not None:
        mv = v.map_value
        node.value = f"map x {int(mv.size.value)}"
    elif wt == compact.I8 and getattr(v, "byte_value", None) is not None:
        node.value, node.data = str(int(v.byte_value)), int(v.byte_value)
    elif wt == compact.DOUBLE and getattr(v, "double_value", None) is not None:
        node.value, node.data = show_value(float(v.double_value)), float(v.double_value)
    elif wt == compact.UUID and getattr(v, "uuid_value", None) is not None:
        node.value, node.data = bytes(v.uuid_value).hex(), bytes(v.uuid_value).hex()
