"""Decoding the records of an Avro block straight into frozen models, without building a dict per record.

A *plan* is compiled from a file's own writer schema for a *target*: a :class:`Target` names a model class and,
per attribute, the Avro field it comes from and the kind of value it holds (Paimon's manifest targets are in
``lakestruct.paimon.targets``). Every field of the writer schema becomes a node that reads the value a model
attribute takes, or skips it; nested records become the nested models. The compiled twin ``_plan_c`` (Cython) runs
the plan over a decompressed block (:func:`decode_block`).

The reference is what a reader does without a plan: fastavro decodes each record with the writer schema
(:meth:`lakestruct.avro.AvroFile.records`) and the reader's checked conversion builds the model or raises the named
error. A plan is only compiled for schemas whose every kept field has the Avro type the target's kind accepts
(``int``/``long``, ``bytes``, ``string``, arrays of strings, arrays of nullable ints, the ``timestamp-millis``
time, the nested records, each possibly a union with ``null``) and no logical type elsewhere; for any other schema
there is no plan. When the compiled twin meets anything unusual in a block (a null required field, an int out of
its target's range, a truncated value, invalid UTF-8, bytes left over, ...) it returns None and the block is
decoded the reference way, which names what is wrong. Without the compiled twin (no C compiler at install time)
the reference way is the only one. tests/paimon/test_avroplan.py holds both to the same models on every corpus
manifest and on random ones.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

__all__ = ["COMPILED", "EMPTY", "RANGE", "REQ", "TUPLE", "Target", "attr", "compile_spec", "decode_block", "plan_for"]

# node codes (the same in _plan_c.pyx)
NULL, BOOL, INT, LONG, FLOAT, DOUBLE, BYTES, STRING, FIXED, ENUM, ARRAY, MAP, UNION, RECORD, TS_MILLIS, FAIL = range(16)
# attribute flags: required (not null), an int within [lo, hi], list -> tuple, null -> ()
REQ, RANGE, TUPLE, EMPTY = 1, 2, 4, 8

_PRIMITIVE = {"null": NULL, "boolean": BOOL, "int": INT, "long": LONG, "float": FLOAT, "double": DOUBLE, "bytes": BYTES,
              "string": STRING}
_LONG_MAX = 2**63 - 1


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: plans are cached per target
class Target:
    """A model and, per attribute in the dataclass's field order, the Avro field it comes from, what kind of value
    it holds, flags and range. Kinds: ``int``, ``bytes``, ``str``, ``strs`` (strings), ``counts`` (ints or nulls),
    ``time`` (the creation time), ``none`` (a field the plan reads only when null), a Target (a nested record), a
    one-element list of a Target (an array of such records); with the field None, a Target built from the same
    record's fields (an index manifest entry's index file)."""

    cls: type
    attrs: tuple[tuple[str, str | None, Any, int, int, int], ...]

    def __post_init__(self) -> None:
        names = [a[0] for a in self.attrs]
        if names != [f.name for f in dataclasses.fields(self.cls)]:
            raise AssertionError(f"{self.cls.__name__}: the target lists {names}")

    def leaves(self) -> list[tuple[str, Any]]:
        """(Avro field, kind) of every attribute read from the record, inline targets included, in order."""
        out: list[tuple[str, Any]] = []
        for _, field, kind, _, _, _ in self.attrs:
            if field is None:
                out.extend(kind.leaves())
            else:
                out.append((field, kind))
        return out

    def required(self) -> set[str]:
        out = set()
        for _, field, kind, flags, _, _ in self.attrs:
            if field is None:
                out |= kind.required()
            elif flags & REQ:
                out.add(field)
        return out


def attr(name: str, field: str | None, kind: Any, flags: int = 0, lo: int = 0, hi: int = 0) -> tuple[str, str | None, Any, int, int, int]:
    """One attribute of a :class:`Target`: the model attribute ``name`` read from the Avro ``field`` as ``kind``,
    with ``flags`` (:data:`REQ`, :data:`RANGE` within [lo, hi], :data:`TUPLE`, :data:`EMPTY`)."""
    return (name, field, kind, flags, lo, hi)


class _Refuse(Exception):
    """The schema is not one a plan covers: no plan, the reference way decodes every block."""


class _Compiler:
    MAX_DEPTH = 32

    def __init__(self) -> None:
        self.named: dict[str, tuple[dict[str, Any], str]] = {}
        self.busy: set[str] = set()
        self.depth = 0

    def _define(self, t: dict[str, Any], ns: str) -> tuple[str, str]:
        name = t.get("name")
        if not isinstance(name, str) or not name:
            raise _Refuse
        tns = t.get("namespace", ns) if "." not in name else name.rsplit(".", 1)[0]
        if not isinstance(tns, str):
            raise _Refuse
        full = name if "." in name or not tns else f"{tns}.{name}"
        if full in self.named and self.named[full][0] is not t:
            raise _Refuse  # defined twice
        self.named[full] = (t, tns)
        return full, tns

    def _resolve(self, t: Any, ns: str) -> tuple[Any, str, str | None]:
        """(the type, its namespace, its full name when named) of a schema or a reference to a named type."""
        if isinstance(t, str):
            if t in _PRIMITIVE:
                return t, ns, None
            hits = {c for c in (t if "." in t or not ns else f"{ns}.{t}", t) if c in self.named}
            if len(hits) != 1:
                raise _Refuse  # unknown or ambiguous
            full = hits.pop()
            ref, tns = self.named[full]
            return ref, tns, full
        if isinstance(t, dict):
            kind = t.get("type")
            if kind in ("record", "error", "enum", "fixed"):
                full, tns = self._define(t, ns)
                return t, tns, full
            return t, ns, None
        if isinstance(t, list):
            return t, ns, None
        raise _Refuse

    def _enter(self, full: str | None) -> None:
        self.depth += 1
        if self.depth > self.MAX_DEPTH or (full is not None and full in self.busy):
            raise _Refuse  # too deep, or recursive
        if full is not None:
            self.busy.add(full)

    def _leave(self, full: str | None) -> None:
        self.depth -= 1
        if full is not None:
            self.busy.discard(full)

    def skip(self, t: Any, ns: str) -> tuple[Any, ...]:
        """A node that reads past a value of any type (no logical type: fastavro could fail converting one)."""
        t, ns, full = self._resolve(t, ns)
        self._enter(full)
        try:
            if isinstance(t, list):
                if any(isinstance(b, list) for b in t) or not t:
                    raise _Refuse
                return (UNION, tuple(self.skip(b, ns) for b in t))
            if isinstance(t, str):
                return (_PRIMITIVE[t],)
            if "logicalType" in t and not (t.get("type") == "array" and t.get("logicalType") == "map"):
                raise _Refuse  # (Iceberg's maps, arrays of key/value records marked "map", are plain arrays to fastavro)
            kind = t.get("type")
            if isinstance(kind, str) and kind in _PRIMITIVE:
                return (_PRIMITIVE[kind],)
            if kind == "array":
                return (ARRAY, self.skip(t.get("items"), ns))
            if kind == "map":
                return (MAP, self.skip(t.get("values"), ns))
            if kind == "enum":
                symbols = t.get("symbols")
                if not isinstance(symbols, list):
                    raise _Refuse
                return (ENUM, len(symbols))
            if kind == "fixed":
                size = t.get("size")
                if type(size) is not int or size < 0:
                    raise _Refuse
                return (FIXED, size)
            if kind in ("record", "error"):
                return (RECORD, tuple((self.skip(f["type"], ns), -1) for f in self._fields(t)), None, 0)
            raise _Refuse
        finally:
            self._leave(full)

    @staticmethod
    def _fields(t: dict[str, Any]) -> list[dict[str, Any]]:
        fields = t.get("fields")
        if not isinstance(fields, list) or not all(isinstance(f, dict) and isinstance(f.get("name"), str) and "type" in f
                                                   for f in fields):
            raise _Refuse
        names = [f["name"] for f in fields]
        if len(set(names)) != len(names):
            raise _Refuse
        return fields

    def value(self, t: Any, kind: Any, ns: str) -> tuple[Any, ...]:
        """A node that reads what the conversion keeps for an attribute of ``kind``: the type, or a union of it and null."""
        t, ns, full = self._resolve(t, ns)
        if isinstance(t, list):
            branches: list[tuple[Any, ...]] = []
            for b in t:
                if b == "null" or b == {"type": "null"}:
                    branches.append((NULL,))
                elif kind == "none":
                    branches.append((FAIL,))  # read only when null: fastavro decodes anything else
                else:
                    branches.append(self._plain(b, kind, ns))
            if sum(b != (NULL,) for b in branches) > 1:
                raise _Refuse
            return (UNION, tuple(branches))
        return self._plain(t, kind, ns, resolved=(t, ns, full))

    def item(self, t: Any, kind: Any, ns: str) -> tuple[Any, ...]:
        """An array item the conversion requires: a null one makes the plan give up (the conversion names it)."""
        node = self.value(t, kind, ns)
        if node[0] == UNION:
            return (UNION, tuple((FAIL,) if b == (NULL,) else b for b in node[1]))
        return node

    def _plain(self, t: Any, kind: Any, ns: str, resolved: tuple[Any, str, str | None] | None = None) -> tuple[Any, ...]:
        t, ns, full = resolved if resolved is not None else self._resolve(t, ns)
        if isinstance(t, list):
            raise _Refuse  # a union inside a union
        self._enter(full)
        try:
            base = t if isinstance(t, str) else t.get("type")
            logical = None if isinstance(t, str) else t.get("logicalType")
            if kind == "time" and base == "long" and logical == "timestamp-millis":
                return (TS_MILLIS,)
            if logical is not None:
                raise _Refuse
            if base == "null":
                return (NULL,)
            if kind in ("int", "time") and base in ("int", "long"):
                return (_PRIMITIVE[base],)
            if (kind, base) in (("bytes", "bytes"), ("str", "string")):
                return (_PRIMITIVE[base],)
            if kind in ("strs", "counts") and base == "array" and isinstance(t, dict):
                items = t.get("items")
                return (ARRAY, self._plain(items, "str", ns) if kind == "strs" else self.value(items, "int", ns))
            if isinstance(kind, list) and base == "array" and isinstance(t, dict):
                return (ARRAY, self.item(t.get("items"), kind[0], ns))
            if isinstance(kind, Target) and base in ("record", "error") and isinstance(t, dict):
                return self._record(t, kind, ns)
            raise _Refuse
        finally:
            self._leave(full)

    def _record(self, t: dict[str, Any], target: Target, ns: str) -> tuple[Any, ...]:
        leaves = target.leaves()
        slot = {field: i for i, (field, _) in enumerate(leaves)}
        if len(slot) != len(leaves):
            raise _Refuse
        nodes = []
        present = set()
        for f in self._fields(t):
            i = slot.get(f["name"])
            if i is None:
                nodes.append((self.skip(f["type"], ns), -1))
            else:
                nodes.append((self.value(f["type"], leaves[i][1], ns), i))
                present.add(f["name"])
        if not target.required() <= present:
            raise _Refuse  # the conversion names the missing field
        return (RECORD, tuple(nodes), self._builder(target, slot), len(leaves))

    def _builder(self, target: Target, slot: dict[str, int]) -> tuple[Any, ...]:
        srcs = tuple(self._builder(a[2], slot) if a[1] is None else slot[a[1]] for a in target.attrs)
        return (target.cls, tuple(a[0] for a in target.attrs), srcs, tuple(a[3] for a in target.attrs),
                tuple(a[4] for a in target.attrs), tuple(a[5] for a in target.attrs))


def compile_spec(schema: Any, target: Target) -> tuple[Any, ...] | None:
    """The plan (nested tuples) that decodes records of the writer ``schema`` (parsed JSON) into ``target``'s model, or
    None when the schema is not one a plan covers."""
    try:
        return _Compiler().value(schema, target, "")
    except (_Refuse, RecursionError):
        return None


def _load_compiled() -> Any:
    from .._twins import forced_pure

    if forced_pure("avro"):  # LAKESTRUCT_PURE (avro, or its alias paimon)
        return None
    try:
        from . import _plan_c  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - built without Cython
        return None
    return _plan_c


_compiled = _load_compiled()
#: True when the compiled twin (``_plan_c``, Cython) is in use
COMPILED = _compiled is not None
_PLANS: dict[tuple[bytes, Target], Any] = {}


def plan_for(raw_schema: bytes, target: Target) -> Any:
    """The compiled plan for a writer schema's JSON text and a target, cached (per target object); None without the
    compiled twin or when the schema is not one a plan covers."""
    key = (raw_schema, target)
    if key in _PLANS:
        return _PLANS[key]
    plan = None
    if _compiled is not None:
        try:
            schema = json.loads(raw_schema.decode("utf-8"))
        except ValueError:
            schema = None
        spec = compile_spec(schema, target) if schema is not None else None
        plan = _compiled.compile_plan(spec) if spec is not None else None
    if len(_PLANS) < 64:
        _PLANS[key] = plan
    return plan


def decode_block(body: bytes, count: int, plan: Any, max_items: int | None = None) -> list[Any] | None:
    """The ``count`` records of a decompressed block as models, or None (then decode it the reference way). With
    ``max_items`` (``AvroFile.max_items``), a block whose arrays and maps hold more items gives None before they are
    built, and the reference way refuses it (``avro.items``)."""
    out: list[Any] | None = _compiled.decode_block(body, count, plan, -1 if max_items is None else max_items)
    return out
