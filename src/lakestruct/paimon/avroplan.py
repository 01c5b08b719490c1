"""Decoding the records of Paimon's Avro manifests straight into the models, without building a dict per record.

A *plan* is compiled from a file's own writer schema for a *target* model: manifest entries (:class:`ManifestEntry`
with its :class:`DataFileMeta` and :class:`SimpleStats`) or manifest-list records (:class:`ManifestFileMeta`). Every
field of the writer schema becomes a node that reads the value a model attribute takes, or skips it; nested records
become the nested models. The compiled twin ``_avro_c`` (Cython) runs the plan over a decompressed block.

The reference is what :mod:`lakestruct.paimon.read` does without a plan: fastavro decodes each record with the
writer schema and the checked conversion (``read._manifest_entry``, ``read._manifest_file_meta``) builds the model
or raises the named error. A plan is only compiled for schemas whose every kept field has the Avro type that
conversion accepts (``int``/``long``, ``bytes``, ``string``, arrays of strings, arrays of null counts, the
``timestamp-millis`` creation time, the nested records, each possibly a union with ``null``) and no logical type
elsewhere; for any other schema there is no plan. When the compiled twin meets anything unusual in a block (a null
required field, ``_VERSION`` or ``_KIND`` out of range, a truncated value, invalid UTF-8, bytes left over, ...) it
returns None and the block is decoded the reference way, which names what is wrong. Without the compiled twin
(no C compiler at install time) the reference way is the only one. tests/paimon/test_avroplan.py holds both to the
same models on every corpus manifest and on random ones.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from .model import DataFileMeta, DeletionVectorMeta, IndexFileMeta, IndexManifestEntry, ManifestEntry, ManifestFileMeta, SimpleStats

__all__ = ["COMPILED", "ENTRY", "INDEX_ENTRY", "MANIFEST_FILE", "Target", "compile_spec", "decode_block", "plan_for"]

# node codes (the same in _avro_c.pyx)
NULL, BOOL, INT, LONG, FLOAT, DOUBLE, BYTES, STRING, FIXED, ENUM, ARRAY, MAP, UNION, RECORD, TS_MILLIS, FAIL = range(16)
# attribute flags: required (not null), an int within [lo, hi], list -> tuple, null -> ()
REQ, RANGE, TUPLE, EMPTY = 1, 2, 4, 8

_PRIMITIVE = {"null": NULL, "boolean": BOOL, "int": INT, "long": LONG, "float": FLOAT, "double": DOUBLE, "bytes": BYTES,
              "string": STRING}
_LONG_MAX = 2**63 - 1


@dataclass(frozen=True)
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


def _a(attr: str, field: str | None, kind: Any, flags: int = 0, lo: int = 0, hi: int = 0) -> tuple[str, str | None, Any, int, int, int]:
    return (attr, field, kind, flags, lo, hi)


STATS = Target(SimpleStats, (_a("min_values", "_MIN_VALUES", "bytes", REQ), _a("max_values", "_MAX_VALUES", "bytes", REQ),
                             _a("null_counts", "_NULL_COUNTS", "counts", TUPLE)))
DATA_FILE = Target(DataFileMeta, (
    _a("file_name", "_FILE_NAME", "str", REQ), _a("file_size", "_FILE_SIZE", "int", REQ), _a("row_count", "_ROW_COUNT", "int", REQ),
    _a("min_key", "_MIN_KEY", "bytes", REQ), _a("max_key", "_MAX_KEY", "bytes", REQ), _a("key_stats", "_KEY_STATS", STATS),
    _a("value_stats", "_VALUE_STATS", STATS), _a("min_sequence_number", "_MIN_SEQUENCE_NUMBER", "int", REQ),
    _a("max_sequence_number", "_MAX_SEQUENCE_NUMBER", "int", REQ), _a("schema_id", "_SCHEMA_ID", "int", REQ),
    _a("level", "_LEVEL", "int", REQ), _a("extra_files", "_EXTRA_FILES", "strs", TUPLE | EMPTY),
    _a("creation_time", "_CREATION_TIME", "time"), _a("delete_row_count", "_DELETE_ROW_COUNT", "int"),
    _a("embedded_index", "_EMBEDDED_FILE_INDEX", "bytes"), _a("file_source", "_FILE_SOURCE", "int"),
    _a("value_stats_cols", "_VALUE_STATS_COLS", "strs", TUPLE), _a("external_path", "_EXTERNAL_PATH", "str"),
    _a("first_row_id", "_FIRST_ROW_ID", "int"), _a("write_cols", "_WRITE_COLS", "strs", TUPLE)))
#: manifest entries (``read._manifest_entry``)
ENTRY = Target(ManifestEntry, (
    _a("kind", "_KIND", "int", REQ | RANGE, 0, 1), _a("partition", "_PARTITION", "bytes", REQ), _a("bucket", "_BUCKET", "int", REQ),
    _a("total_buckets", "_TOTAL_BUCKETS", "int", REQ), _a("file", "_FILE", DATA_FILE, REQ),
    _a("version", "_VERSION", "int", REQ | RANGE, 2, 2)))
#: manifest-list records (``read._manifest_file_meta``)
MANIFEST_FILE = Target(ManifestFileMeta, (
    _a("file_name", "_FILE_NAME", "str", REQ), _a("file_size", "_FILE_SIZE", "int", REQ),
    _a("num_added_files", "_NUM_ADDED_FILES", "int", REQ), _a("num_deleted_files", "_NUM_DELETED_FILES", "int", REQ),
    _a("partition_stats", "_PARTITION_STATS", STATS), _a("schema_id", "_SCHEMA_ID", "int", REQ),
    _a("min_bucket", "_MIN_BUCKET", "int"), _a("max_bucket", "_MAX_BUCKET", "int"), _a("min_level", "_MIN_LEVEL", "int"),
    _a("max_level", "_MAX_LEVEL", "int"), _a("min_row_id", "_MIN_ROW_ID", "int"), _a("max_row_id", "_MAX_ROW_ID", "int"),
    _a("version", "_VERSION", "int", REQ | RANGE, 2, 2)))
DV_META = Target(DeletionVectorMeta, (_a("data_file_name", "f0", "str", REQ), _a("offset", "f1", "int", REQ),
                                      _a("length", "f2", "int", REQ), _a("cardinality", "_CARDINALITY", "int")))
INDEX_FILE = Target(IndexFileMeta, (
    _a("index_type", "_INDEX_TYPE", "str", REQ), _a("file_name", "_FILE_NAME", "str", REQ), _a("file_size", "_FILE_SIZE", "int", REQ),
    _a("row_count", "_ROW_COUNT", "int", REQ), _a("dv_ranges", "_DELETIONS_VECTORS_RANGES", [DV_META], TUPLE),
    _a("external_path", "_EXTERNAL_PATH", "str"), _a("global_index", "_GLOBAL_INDEX", "none")))
#: index manifest entries (``read._index_entry``); a global index (kept as fastavro's dict) is left to fastavro
INDEX_ENTRY = Target(IndexManifestEntry, (
    _a("kind", "_KIND", "int", REQ | RANGE, 0, 1), _a("partition", "_PARTITION", "bytes", REQ), _a("bucket", "_BUCKET", "int", REQ),
    _a("index_file", None, INDEX_FILE), _a("version", "_VERSION", "int", REQ | RANGE, 1, 1)))
_TARGETS = {"entry": ENTRY, "manifest-file": MANIFEST_FILE, "index-entry": INDEX_ENTRY}


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
            if "logicalType" in t:
                raise _Refuse
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
    try:
        from . import _avro_c  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - built without Cython
        return None
    return _avro_c


_compiled = _load_compiled()
#: True when the compiled twin (``_avro_c``, Cython) is in use
COMPILED = _compiled is not None
_PLANS: dict[tuple[bytes, str], Any] = {}


def plan_for(raw_schema: bytes, target: str) -> Any:
    """The compiled plan for a writer schema's JSON text and a target (``entry``, ``manifest-file``, ``index-entry``), cached; None
    without the compiled twin or when the schema is not one a plan covers."""
    key = (raw_schema, target)
    if key in _PLANS:
        return _PLANS[key]
    plan = None
    if _compiled is not None:
        try:
            schema = json.loads(raw_schema.decode("utf-8"))
        except ValueError:
            schema = None
        spec = compile_spec(schema, _TARGETS[target]) if schema is not None else None
        plan = _compiled.compile_plan(spec) if spec is not None else None
    if len(_PLANS) < 64:
        _PLANS[key] = plan
    return plan


def decode_block(body: bytes, count: int, plan: Any) -> list[Any] | None:
    """The ``count`` records of a decompressed block as models, or None (then decode it the reference way)."""
    out: list[Any] | None = _compiled.decode_block(body, count, plan)
    return out
