"""Parsed Kaitai objects -> Arrow record batches, column by column (the fast twin of :mod:`.walk`).

:class:`Walker` turns one object into one dict at a time, then Arrow converts the dicts: for wide schemas
(pcap: 347 leaf columns, most of them the empty branches of switches) that costs more than parsing. Here
each schema node gets a builder, made once per (plan, loaded bundle), that turns the *list* of values at
that node for a whole batch into one Arrow array: a struct reads each field of its present objects with
one list comprehension and builds its children from those lists, absent structs and switch cases that no
row takes become null arrays without looking at a row (cached per length), sparse ones are built over the
present objects only and spread out with ``take``. Instances are read only when the plan asks for them.

The result is the same table :class:`Walker` gives (tests/kaitai/test_columns.py holds the two to each
other). Anything irregular (an instance that fails, a value out of range, a value Arrow refuses) raises
:class:`Fallback` or the error itself, and the caller converts that batch with the walker, which puts the
error on the row as it always did.
"""

from __future__ import annotations

import enum
import functools
import itertools
import operator
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from .model import Field, Node, Plan
from .runtime import paused_gc
from .walk import _I64, Walker

__all__ = ["Columns", "Fallback"]

Build = Callable[[Sequence[Any]], Any]  # values at a node (None: null) -> a pyarrow Array
_Enum = enum.Enum
_NO_CASE = -2
_NULL = -1


class Fallback(Exception):
    """The batch needs the row-by-row walker (it carries an error on some row)."""


class Columns:
    """Builds the record batches of a plan's rows (data columns only, as :meth:`Plan.schema`)."""

    def __init__(self, walker: Walker) -> None:
        self.walker = walker
        self.plan: Plan = walker.plan
        self.schema = self.plan.schema()
        self._nulls: dict[tuple[int, int], Any] = {}
        #: during :meth:`batch` with ``seen``: that list, to which every struct object converted is added
        self.seen: list[Sequence[Any]] | None = None
        row = self.plan.row
        if row.kind == "struct":
            self._top = self._fields(row)
        else:
            value, raw = self.build(row), self.raw_build(row)

            def single(items: Sequence[Any]) -> list[Any]:
                return [value(items)] if raw is None else [value(items), raw(items)]

            self._top = single

    def batch(self, items: list[Any], start: int = 0, seen: list[Sequence[Any]] | None = None) -> pa.RecordBatch:
        """The rows of ``items`` (``__index`` from ``start``); raises when a row needs the walker. With
        ``seen``, the struct objects converted are added to it (lists of them), for :func:`unlink`."""
        cols: list[Any] = []
        if self.plan.root_path:
            cols.append(pa.array(range(start, start + len(items)), pa.int64()))
        if seen is not None and self.plan.row.kind == "struct":
            seen.append(items)
        self.seen = seen
        try:
            with paused_gc():
                cols += self._top(items)
        finally:
            self.seen = None
        return pa.RecordBatch.from_arrays(cols, schema=self.schema)

    # builders -------------------------------------------------------------------------------------
    def nulls(self, node: Node, n: int) -> Any:
        key = (id(node), n)
        a = self._nulls.get(key)
        if a is None:
            a = self._nulls[key] = pa.nulls(n, node.arrow)
        return a

    def build(self, n: Node) -> Build:
        k = n.kind
        if k == "prim":
            return _prim(n)
        if k == "enum":
            return _enum_names
        if k in ("text", "json"):
            c = self.walker.conv(n)
            assert c is not None
            t = n.arrow

            def each(vals: Sequence[Any]) -> Any:
                return pa.array([None if v is None else c(v) for v in vals], t)

            return each
        if k == "array":
            assert n.elem is not None
            return _list_of(n.arrow, self.build(n.elem))
        if k == "struct":
            return self._struct(n)
        if k == "switch":
            return self._switch(n)
        raise AssertionError(k)

    def raw_build(self, n: Node) -> Build | None:
        """The builder of an enum's ``__raw`` sibling (None when ``n`` has none), as :meth:`Walker._raw_conv`."""
        if n.kind == "enum":
            assert n.elem is not None
            return _enum_raw(n.elem.arrow)
        if n.kind == "array" and n.elem is not None and n.elem.kind == "enum":
            assert n.elem.elem is not None
            return _list_of(n.raw_arrow, _enum_raw(n.elem.elem.arrow))
        if n.raw_arrow is not None:
            return lambda vals: pa.nulls(len(vals), n.raw_arrow)
        return None

    def _fields(self, n: Node) -> Callable[[Sequence[Any]], list[Any]]:
        """The child arrays of struct ``n`` for a list of objects (all present: None has no fields).

        The seq fields of all objects are read in one C-level pass (``attrgetter`` of every field, rows
        transposed into columns); a field some object lacks (an ``if:`` skipped it) is read with
        ``getattr(o, name, None)`` instead, from then on."""
        parts: list[tuple[Field, Build, Build | None]] = [(f, self.build(f.node), self.raw_build(f.node)) for f in n.fields]
        plain = [f.attr for f in n.fields if not f.instance]
        optional: set[str] = set()  # fields found missing on some object
        positions, marker = n.positions, n.marker

        def columns(objs: Sequence[Any]) -> dict[str, Sequence[Any]]:
            got: dict[str, Sequence[Any]] = {}
            sure = [a for a in plain if a not in optional]
            if len(sure) > 1:
                try:
                    got = dict(zip(sure, zip(*map(attrgetter(*sure), objs), strict=True), strict=True))
                except AttributeError:
                    sure = [a for a in sure if not _missing(objs, a, optional)]
                    if len(sure) > 1:
                        got = dict(zip(sure, zip(*map(attrgetter(*sure), objs), strict=True), strict=True))
            if len(sure) == 1:
                try:
                    got[sure[0]] = list(map(attrgetter(sure[0]), objs))
                except AttributeError:
                    optional.add(sure[0])
            for a in plain:
                if a not in got:
                    got[a] = [getattr(o, a, None) for o in objs]
            return got

        def children(objs: Sequence[Any]) -> list[Any]:
            got = columns(objs) if plain else {}
            out: list[Any] = []
            for f, value, raw in parts:
                vals = _instances(objs, f.attr) if f.instance else got[f.attr]
                out.append(value(vals))
                if raw is not None:
                    out.append(raw(vals))
            if positions:
                dicts = [o.__dict__ for o in objs]
                out.append(pa.array([d.get("_ls_off") for d in dicts], pa.int64()))
                out.append(pa.array([d.get("_ls_size") for d in dicts], pa.int64()))
            if marker:
                out.append(pa.array([True] * len(objs), pa.bool_()))
            return out

        return children

    def _struct(self, n: Node) -> Build:
        children = self._fields(n)
        fields = list(n.arrow)  # never empty: a type without fields gets the __present marker

        def struct(vals: Sequence[Any]) -> Any:
            present = list(filter(_is_value, vals))
            if self.seen is not None:
                self.seen.append(present)
            m = len(present)
            if not m:
                return self.nulls(n, len(vals))
            arr = pa.StructArray.from_arrays(children(present), fields=fields)
            if m == len(vals):
                return arr
            return arr.take(_spread(vals))

        return struct

    def _switch(self, n: Node) -> Build:
        w = self.walker
        kinds: dict[str, tuple[type, ...]] = {"int": (int,), "float": (float,), "str": (str,), "bytes": (bytes, bytearray), "bool": (bool,)}
        by_class: list[tuple[Any, int]] = []
        by_kind: dict[type, int] = {}
        builders: list[Build] = []
        for i, f in enumerate(n.fields):
            builders.append(self.build(f.node))
            m = n.case_match[f.name]
            if isinstance(m, str):
                for py in kinds.get(m, ()):
                    by_kind.setdefault(py, i)
            else:
                cls = w.loaded.classes.get(m.qualname)
                if cls is not None:
                    by_class.append((cls, i))
        cases: dict[type, int] = {type(None): _NULL}

        def case_of(t: type) -> int:
            for cls, i in by_class:
                if issubclass(t, cls):
                    return i
            return by_kind.get(t, _NO_CASE)

        fields = list(n.arrow)
        case_nodes = [f.node for f in n.fields]

        def switch(vals: Sequence[Any]) -> Any:
            size = len(vals)
            tys = list(map(type, vals))
            for t in set(tys):
                if t not in cases:
                    cases[t] = case_of(t)
            ks = list(map(cases.__getitem__, tys))
            seen = set(ks)
            if seen == {_NULL}:
                return self.nulls(n, size)
            children: list[Any] = []
            for i, b in enumerate(builders):
                if i not in seen:
                    children.append(self.nulls(case_nodes[i], size))
                elif len(seen) == 1:
                    children.append(b(vals))
                else:
                    children.append(b([v if k == i else None for v, k in zip(vals, ks, strict=True)]))
            mask = pc.equal(pa.array(ks, pa.int32()), _NULL) if _NULL in seen else None
            return pa.StructArray.from_arrays(children, fields=fields, mask=mask)

        return switch


_is_value = functools.partial(operator.is_not, None)


def unlink(groups: list[Sequence[Any]]) -> None:
    """Drop the ``_parent`` and ``_root`` links of parsed objects that are done with, so that reference
    counting frees a file's objects as soon as the last reference goes (each object points at its parent
    and its root, which point back: left alone, they wait for a pass of the cyclic collector, which costs
    more than the parse's tail). Objects never converted keep their links and their cycles: the
    collector frees those as before. Only for objects nothing will read again."""
    for objs in groups:
        try:
            for o in objs:
                o._parent = None
                o._root = None
        except (AttributeError, TypeError):  # not a parsed structure (a value typed as one): leave the group
            continue


def _missing(objs: Sequence[Any], attr: str, optional: set[str]) -> bool:
    """Whether some object lacks ``attr`` (then remembered in ``optional``)."""
    try:
        for _ in map(attrgetter(attr), objs):
            pass
    except AttributeError:
        optional.add(attr)
        return True
    return False


def _spread(vals: Sequence[Any]) -> Any:
    """Take indices placing the present values (in order) at their rows, null elsewhere."""
    valid = pa.array(list(map(_is_value, vals)), pa.bool_())
    return pc.if_else(valid, pc.subtract(pc.cumulative_sum(valid.cast(pa.int32())), 1), pa.scalar(None, pa.int32()))


def _instances(objs: Sequence[Any], attr: str) -> list[Any]:
    """Instance values as :meth:`Walker._instance` reads them; an instance that fails needs the walker."""
    out: list[Any] = []
    for o in objs:
        try:
            out.append(getattr(o, attr))
        except AttributeError as e:
            if hasattr(type(o), attr):
                raise Fallback(attr) from e
            out.append(None)
        except Exception as e:
            raise Fallback(attr) from e
    return out


def _enum_names(vals: Sequence[Any]) -> Any:
    kinds = set(map(type, vals)) - {_NONE}
    if len(kinds) == 1:
        (k,) = kinds
        if issubclass(k, _Enum):  # one enum class: its members' names by dict lookup
            names = _NAMES.get(k)
            if names is None:
                names = _NAMES[k] = {m: m.name for m in k}
            return pa.array(list(map(names.get, vals)), pa.string())
    return pa.array([v.name if isinstance(v, _Enum) else None for v in vals], pa.string())


def _enum_raw(t: Any) -> Build:
    def raw(vals: Sequence[Any]) -> Any:
        if all(k is int or k is _NONE or (issubclass(k, int) and issubclass(k, _Enum)) for k in set(map(type, vals))):
            return pa.array(vals, t)  # Arrow reads an IntEnum member as its number, as int() does
        return pa.array([None if v is None else int(v) for v in vals], t)

    return raw


def _exact(t: Any, ok: frozenset[type], conv: Callable[[Any], Any]) -> Build:
    """``pa.array`` of the values when every one is of a type in ``ok`` (or None), else of ``conv(v)``."""

    def build(vals: Sequence[Any]) -> Any:
        if set(map(type, vals)) <= ok:
            return pa.array(vals, t)
        return pa.array([None if v is None else conv(v) for v in vals], t)

    return build


_NONE = type(None)
_NAMES: dict[type, dict[Any, str]] = {}


def _list_of(arrow: Any, elem: Build) -> Build:
    def lists(vals: Sequence[Any]) -> Any:
        lens = [0 if v is None else len(v) for v in vals]
        flat = [x for v in vals if v is not None for x in v]
        offsets = pa.array(itertools.accumulate(lens, initial=0), pa.int32())
        mask = pa.array([v is None for v in vals], pa.bool_()) if None in vals else None
        return pa.ListArray.from_arrays(offsets, elem(flat), type=arrow, mask=mask)

    return lists


def _prim(n: Node) -> Build:
    t = n.arrow
    conv = n.conv
    if conv in ("id", "u8dec"):
        return lambda vals: pa.array(vals, t)
    if conv == "u8long":
        return lambda vals: pa.array([None if v is None else v - (1 << 64) if v >= (1 << 63) else v for v in vals], t)
    if conv == "calc":
        lo, hi = _I64

        def calc(vals: Sequence[Any]) -> Any:
            out = [None if v is None else v if type(v) is int else int(v) for v in vals]
            for v in vals:
                if type(v) is int and not lo <= v <= hi:
                    raise Fallback("value-range")
            return pa.array(out, t)

        return calc
    if conv == "float":
        return _exact(t, frozenset({float, _NONE}), float)
    if conv == "bytes":
        return _exact(t, frozenset({bytes, _NONE}), bytes)
    if conv == "bool":
        return _exact(t, frozenset({bool, _NONE}), bool)
    raise AssertionError(conv)
