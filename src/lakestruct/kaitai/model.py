"""The types of a Kaitai spec (and the specs it imports) and the Spark/Arrow schema derived from them.

Everything here is static: it reads the parsed ``.ksy`` trees (as the Kaitai compiler saw them, see
:mod:`lakestruct.kaitai.toolchain`) and needs no data. :class:`Model` resolves type and enum names the
way the compiler does (the type's own ``types``/``enums``, then the enclosing types', then other specs
by their id), and :func:`plan` turns the root type (or the repeated field picked by ``root``) into a tree
of :class:`Node` s, each with its Arrow type; :mod:`lakestruct.kaitai.walk` turns parsed objects into rows
with the same tree.

Mapping (docs/kaitai.md has the table): integers to the narrowest Spark integer holding every value of
the type (``u1`` smallint, ``u2``/``s4`` int, ``u4``/``s8`` bigint, ``s1`` tinyint, ``s2`` smallint, ``bN``
likewise, ``b1`` boolean), ``u8``/``b64`` to decimal(20,0) (option ``u8=long``: bigint holding the same 64
bits, as Java and Parquet store UINT64); ``f4`` float, ``f8`` double; strings (any encoding, decoded by the
parser) to string; byte arrays and ``contents`` to binary; enums to the member name (string; null for a
value the enum does not name) plus ``<name>__raw`` with the number; user types to structs; ``repeat`` to
arrays; ``switch-on`` to a struct with one nullable field per case type (``__bytes`` for the raw bytes of an
unmatched case), or to one column when every case is an integer (float, string) type; value instances
(``instances`` option) typed by :mod:`lakestruct.kaitai.expr`; a type inside itself (recursion) to a
string column holding that subtree as JSON.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from ..errors import UsageError
from . import expr
from .expr import ANY, BOOL, BYTES, STR, Ty

__all__ = ["EnumDef", "Field", "Model", "Node", "Plan", "TypeDef", "plan", "upper_camel"]

_INT = re.compile(r"^([us])([1248])(le|be)?$")
_BITS = re.compile(r"^b(\d+)(le|be)?$")
_FLOAT = re.compile(r"^f([48])(le|be)?$")

#: columns every source row has; a top-level field of the same name gets a trailing underscore
RESERVED = ("file", "error_rule", "error_offset", "error_path", "error")
#: deeper than this, a nested struct becomes a JSON string column (protects against schema explosion)
MAX_DEPTH = 48


def upper_camel(name: str) -> str:
    """Kaitai's Python class name for a type or enum id (``ipv4_packet`` -> ``Ipv4Packet``)."""
    if name.startswith("_"):
        return "_" + upper_camel(name[1:])
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


@dataclass(eq=False)
class EnumDef:
    owner: TypeDef
    name: str
    values: dict[int, str]

    @property
    def qualname(self) -> str:
        return f"{self.owner.qualname}::{self.name}"

    @property
    def class_path(self) -> tuple[str, ...]:
        return (*self.owner.class_path, upper_camel(self.name))


@dataclass(eq=False)
class TypeDef:
    model: Model
    spec_id: str
    path: tuple[str, ...]
    node: Mapping[str, Any]
    outer: TypeDef | None
    children: dict[str, TypeDef] = field(default_factory=dict)
    enums: dict[str, EnumDef] = field(default_factory=dict)
    parents: list[TypeDef] = field(default_factory=list)

    @property
    def qualname(self) -> str:
        return "::".join((self.spec_id, *self.path))

    @property
    def class_path(self) -> tuple[str, ...]:
        """Module, then the nested class names of the generated parser."""
        return (self.spec_id, upper_camel(self.spec_id), *(upper_camel(p) for p in self.path))

    @property
    def seq(self) -> list[Mapping[str, Any]]:
        return list(self.node.get("seq") or [])

    @property
    def instances(self) -> Mapping[str, Mapping[str, Any]]:
        return self.node.get("instances") or {}

    @property
    def params(self) -> list[Mapping[str, Any]]:
        return list(self.node.get("params") or [])

    def meta(self, key: str) -> Any:
        t: TypeDef | None = self
        while t is not None:
            m = t.node.get("meta") or {}
            if key in m:
                return m[key]
            t = t.outer
        return None

    def _up(self) -> Iterable[TypeDef]:
        t: TypeDef | None = self
        while t is not None:
            yield t
            t = t.outer

    def resolve_type(self, name: str) -> TypeDef | None:
        parts = name.split("::")
        first: TypeDef | None = None
        for t in self._up():
            if parts[0] in t.children:
                first = t.children[parts[0]]
                break
            if not t.path and t.spec_id == parts[0] and t.outer is None:
                first = t
                break
        if first is None:
            first = self.model.roots.get(parts[0])
        for p in parts[1:]:
            if first is None:
                return None
            first = first.children.get(p)
        return first

    def resolve_enum(self, name: str) -> EnumDef | None:
        parts = name.split("::")
        if len(parts) == 1:
            for t in self._up():
                if parts[0] in t.enums:
                    return t.enums[parts[0]]
            return None
        owner = self.resolve_type("::".join(parts[:-1]))
        return owner.enums.get(parts[-1]) if owner else None

    def member(self, name: str) -> tuple[str, Mapping[str, Any]] | None:
        """("seq" | "instance" | "param", its spec) for a name of this type."""
        for a in self.seq:
            if a.get("id") == name:
                return "seq", a
        if name in self.instances:
            return "instance", self.instances[name]
        for p in self.params:
            if p.get("id") == name:
                return "param", p
        return None


class Model:
    """Every type and enum of a set of parsed specs (one main spec and what it imports)."""

    def __init__(self, specs: Mapping[str, Mapping[str, Any]], main: str) -> None:
        if main not in specs:
            raise UsageError(f"spec {main!r} is not among the compiled specs ({', '.join(sorted(specs))})")
        self.specs = specs
        self.main = main
        self.roots: dict[str, TypeDef] = {}
        for sid, tree in specs.items():
            self.roots[sid] = self._build(sid, (), tree, None)
        for t in self.all_types():
            for ref in self._referenced(t):
                if t not in ref.parents:
                    ref.parents.append(t)

    def _build(self, sid: str, path: tuple[str, ...], node: Mapping[str, Any], outer: TypeDef | None) -> TypeDef:
        t = TypeDef(self, sid, path, node, outer)
        for name, sub in (node.get("types") or {}).items():
            t.children[name] = self._build(sid, (*path, name), sub or {}, t)
        for name, values in (node.get("enums") or {}).items():
            vals: dict[int, str] = {}
            for k, v in (values or {}).items():
                try:
                    key = int(k, 0) if isinstance(k, str) else int(k)
                except ValueError:
                    continue
                vals[key] = v["id"] if isinstance(v, Mapping) else str(v)
            t.enums[name] = EnumDef(t, name, vals)
        return t

    def all_types(self) -> Iterable[TypeDef]:
        def walk(t: TypeDef) -> Iterable[TypeDef]:
            yield t
            for c in t.children.values():
                yield from walk(c)

        for r in self.roots.values():
            yield from walk(r)

    def _referenced(self, t: TypeDef) -> Iterable[TypeDef]:
        attrs = [*t.seq, *t.instances.values()]
        for a in attrs:
            for name in type_names(a.get("type")):
                ref = t.resolve_type(name)
                if ref is not None:
                    yield ref

    @property
    def root(self) -> TypeDef:
        return self.roots[self.main]


def type_names(ty: Any) -> list[str]:
    """User-type names an attribute's ``type`` may name (switch cases included), arguments stripped."""
    if isinstance(ty, str):
        return [ty.split("(", 1)[0].strip()]
    if isinstance(ty, Mapping) and "cases" in ty:
        return [str(v).split("(", 1)[0].strip() for v in (ty.get("cases") or {}).values()]
    return []


# -- schema nodes ----------------------------------------------------------------------------------


@dataclass(eq=False)
class Node:
    """One value's place in the schema: ``kind`` is prim, enum, struct, switch, array, json or text."""

    kind: str
    arrow: Any
    #: prim: how a parsed value becomes the column's value: id, u8dec, u8long, calc, float, bytes, bool
    conv: str = "id"
    typedef: TypeDef | None = None
    enum: EnumDef | None = None
    elem: Node | None = None  # array item; enum: the raw integer node
    fields: list[Field] = field(default_factory=list)  # struct fields / switch cases
    positions: bool = False
    #: a struct of a type with no fields (and no positions asked): one ``__present`` column, true where the type
    #: was parsed, because Parquet, ORC and Spark's writers refuse a struct with no fields
    marker: bool = False
    #: switch cases: field name -> what the value must be (a TypeDef, or a Python kind: int, float, str, bytes, bool)
    case_match: dict[str, Any] = field(default_factory=dict)

    @property
    def raw_arrow(self) -> Any:
        """The Arrow type of the ``__raw`` sibling of an enum (or array of enums) column, else None."""
        if self.kind == "enum" and self.elem is not None:
            return self.elem.arrow
        if self.kind == "array" and self.elem is not None and self.elem.raw_arrow is not None:
            return pa.list_(self.elem.raw_arrow)
        return None


@dataclass(eq=False)
class Field:
    attr: str  # attribute of the parsed object
    name: str  # column / struct field name
    node: Node
    doc: str = ""
    instance: bool = False


POS_FIELDS = (("__offset", "absolute byte offset of the structure in the file (null inside processed data)"),
              ("__size", "bytes its fields span"))  # fmt: skip
MARKER_FIELD = ("__present", "true: the structure was parsed (its type has no fields; Parquet refuses an empty struct)")


def _arrow_fields(fields: list[Field], positions: bool) -> list[Any]:
    out = []
    for f in fields:
        out.append(pa.field(f.name, f.node.arrow, metadata={"doc": f.doc} if f.doc else None))
        if f.node.raw_arrow is not None:
            out.append(pa.field(f.name + "__raw", f.node.raw_arrow, metadata={"doc": f"number behind {f.name}"}))
    if positions:
        out += [pa.field(n, pa.int64(), metadata={"doc": d}) for n, d in POS_FIELDS]
    return out


def int_node(bits: int, signed: bool, u8: str) -> Node:
    if not signed and bits >= 64:
        return Node("prim", pa.decimal128(20, 0), "u8dec") if u8 == "decimal" else Node("prim", pa.int64(), "u8long")
    width = bits if signed else bits + 1
    for n, t in ((8, pa.int8()), (16, pa.int16()), (32, pa.int32()), (64, pa.int64())):
        if width <= n:
            return Node("prim", t)
    return Node("prim", pa.int64(), "calc")


def prim_node(name: str, u8: str) -> Node | None:
    """The node of a primitive Kaitai type name, or None when ``name`` is not one."""
    m = _INT.match(name)
    if m:
        return int_node(int(m.group(2)) * 8, m.group(1) == "s", u8)
    m = _BITS.match(name)
    if m:
        n = int(m.group(1))
        return Node("prim", pa.bool_(), "bool") if n == 1 else int_node(n, False, u8)
    m = _FLOAT.match(name)
    if m:
        return Node("prim", pa.float32() if m.group(1) == "4" else pa.float64(), "float")
    if name in ("str", "strz"):
        return Node("prim", pa.string())
    if name == "bytes":
        return Node("prim", pa.binary(), "bytes")
    if name == "bool":
        return Node("prim", pa.bool_(), "bool")
    return None


def _prim_kind(n: Node) -> str:
    t = n.arrow
    if pa.types.is_integer(t) or pa.types.is_decimal(t):
        return "int"
    if pa.types.is_floating(t):
        return "float"
    if pa.types.is_boolean(t):
        return "bool"
    if pa.types.is_string(t):
        return "str"
    if pa.types.is_binary(t):
        return "bytes"
    return "other"


def _widest(nodes: list[Node]) -> Node:
    def rank(n: Node) -> int:
        t = n.arrow
        if pa.types.is_decimal(t) or n.conv == "u8long":
            return 100
        return int(t.bit_width) if hasattr(t, "bit_width") else 64

    return max(nodes, key=rank)


# -- the builder -------------------------------------------------------------------------------------


class _ExprCtx(expr.Context):
    def __init__(self, builder: _Builder, t: TypeDef, seen: frozenset[tuple[int, str]]) -> None:
        self.b, self.t, self.seen = builder, t, seen

    def field(self, name: str) -> Ty:
        return self.b.member_ty(self.t, name, self.seen)

    def member(self, user: Any, name: str) -> Ty:
        if name == "_parent":
            return self._parent_of(user)
        return self.b.member_ty(user, name, self.seen)

    def parent(self) -> Ty:
        return self._parent_of(self.t)

    def _parent_of(self, t: TypeDef) -> Ty:
        return Ty("user", ref=t.parents[0]) if len(t.parents) == 1 else ANY

    def root(self) -> Ty:
        return Ty("user", ref=self.b.model.roots[self.t.spec_id])

    def enum(self, path: list[str]) -> Ty:
        e = self.t.resolve_enum("::".join(path[:-1]))
        return Ty("enum", "calc", e) if e else ANY

    def type_named(self, name: str) -> Ty:
        n = prim_node(name, "decimal")
        if n is not None:
            k = _prim_kind(n)
            if k == "int":
                return Ty("int", name)
            return {"float": Ty("float", name[:2]), "bool": BOOL, "str": STR, "bytes": BYTES}.get(k, ANY)
        ref = self.t.resolve_type(name)
        return Ty("user", ref=ref) if ref else ANY


class _Builder:
    def __init__(self, model: Model, *, u8: str, instances: frozenset[str] | None, positions: bool) -> None:
        self.model, self.u8, self.instances, self.positions = model, u8, instances, positions

    # expression types -------------------------------------------------------------------------
    def attr_ty(self, t: TypeDef, a: Mapping[str, Any], seen: frozenset[tuple[int, str]]) -> Ty:
        base = self._value_ty(t, a, seen) if "value" in a else self._parsed_ty(t, a)
        if a.get("enum") is not None:
            e = t.resolve_enum(str(a["enum"]))
            base = Ty("enum", base.prim if base.kind == "int" else "calc", e) if e else base
        if "repeat" in a:
            return Ty("array", elem=base)
        return base

    def _value_ty(self, t: TypeDef, a: Mapping[str, Any], seen: frozenset[tuple[int, str]]) -> Ty:
        try:
            return expr.infer(a["value"], _ExprCtx(self, t, seen))
        except (expr.ExprError, RecursionError):
            return ANY

    def _parsed_ty(self, t: TypeDef, a: Mapping[str, Any]) -> Ty:
        ty = a.get("type")
        if ty is None:
            return BYTES
        if isinstance(ty, Mapping):
            kinds = [self._named_ty(t, n) for n in type_names(ty)]
            out = kinds[0] if kinds else ANY
            for k in kinds[1:]:
                out = expr.unify(out, k)
            return out
        return self._named_ty(t, str(ty).split("(", 1)[0].strip())

    def _named_ty(self, t: TypeDef, name: str) -> Ty:
        n = prim_node(name, self.u8)
        if n is not None:
            k = _prim_kind(n)
            if k == "int":
                return Ty("int", name)
            return {"float": Ty("float", name[:2]), "bool": BOOL, "str": STR, "bytes": BYTES}.get(k, ANY)
        ref = t.resolve_type(name)
        return Ty("user", ref=ref) if ref else ANY

    def member_ty(self, t: Any, name: str, seen: frozenset[tuple[int, str]]) -> Ty:
        if not isinstance(t, TypeDef):
            return ANY
        key = (id(t), name)
        if key in seen:
            return ANY
        m = t.member(name)
        if m is None:
            return ANY
        kind, spec = m
        if kind == "param":
            return self._param_ty(t, spec)
        return self.attr_ty(t, spec, seen | {key})

    def _param_ty(self, t: TypeDef, p: Mapping[str, Any]) -> Ty:
        ty = str(p.get("type") or "any")
        base: Ty
        if ty.endswith("[]"):
            return Ty("array", elem=self._named_ty(t, ty[:-2]))
        if ty in ("struct", "any"):
            base = ANY
        elif ty == "io":
            base = expr.IO
        else:
            base = self._named_ty(t, ty)
        if p.get("enum") is not None:
            e = t.resolve_enum(str(p["enum"]))
            if e:
                return Ty("enum", base.prim if base.kind == "int" else "calc", e)
        return base

    # nodes ----------------------------------------------------------------------------------------
    def node_of_ty(self, t: TypeDef, ty: Ty, stack: tuple[TypeDef, ...]) -> Node:
        if ty.kind == "int":
            if ty.prim == "calc":
                return Node("prim", pa.int64(), "calc")
            return prim_node(ty.prim, self.u8) or Node("prim", pa.int64(), "calc")
        if ty.kind == "float":
            return Node("prim", pa.float32(), "float") if ty.prim == "f4" else Node("prim", pa.float64(), "float")
        if ty.kind == "bool":
            return Node("prim", pa.bool_(), "bool")
        if ty.kind == "str":
            return Node("prim", pa.string())
        if ty.kind == "bytes":
            return Node("prim", pa.binary(), "bytes")
        if ty.kind == "enum":
            raw = self.node_of_ty(t, Ty("int", ty.prim or "calc"), stack)
            return Node("enum", pa.string(), enum=ty.ref, elem=raw)
        if ty.kind == "user":
            return self.struct(ty.ref, stack)
        if ty.kind == "array" and ty.elem is not None:
            e = self.node_of_ty(t, ty.elem, stack)
            return Node("array", pa.list_(e.arrow), elem=e)
        return Node("text", pa.string())

    def attr_node(self, t: TypeDef, a: Mapping[str, Any], stack: tuple[TypeDef, ...]) -> Node:
        if "value" in a:
            n = self.node_of_ty(t, self.attr_ty(t, a, frozenset()), stack)
            return n
        ty = a.get("type")
        base: Node
        if isinstance(ty, Mapping) and "cases" in ty:
            base = self.switch(t, a, stack)
        elif ty is None:
            base = Node("prim", pa.binary(), "bytes")
        else:
            name = str(ty).split("(", 1)[0].strip()
            p = prim_node(name, self.u8)
            if p is not None:
                base = p
            else:
                ref = t.resolve_type(name)
                if ref is None:
                    raise UsageError(f"{t.qualname}: type {name!r} of {a.get('id')!r} is not defined")
                base = self.struct(ref, stack)
        if a.get("enum") is not None:
            e = t.resolve_enum(str(a["enum"]))
            if e is None:
                raise UsageError(f"{t.qualname}: enum {a['enum']!r} of {a.get('id')!r} is not defined")
            base = Node("enum", pa.string(), enum=e, elem=base)
        if "repeat" in a:
            return Node("array", pa.list_(base.arrow), elem=base)
        return base

    def switch(self, t: TypeDef, a: Mapping[str, Any], stack: tuple[TypeDef, ...]) -> Node:
        cases: Mapping[Any, Any] = a["type"].get("cases") or {}
        names: dict[str, tuple[Node, Any]] = {}
        for raw in cases.values():
            name = str(raw).split("(", 1)[0].strip()
            p = prim_node(name, self.u8)
            if p is not None:
                names.setdefault(name.replace("::", "__"), (p, _prim_kind(p)))
                continue
            ref = t.resolve_type(name)
            if ref is None:
                raise UsageError(f"{t.qualname}: type {name!r} in the switch of {a.get('id')!r} is not defined")
            names.setdefault(name.split("::")[-1], (self.struct(ref, stack), ref))
        unmatched_bytes = ("size" in a or a.get("size-eos")) and "_" not in cases
        nodes = [n for n, _ in names.values()]
        kinds = {_prim_kind(n) if n.kind == "prim" else "struct" for n in nodes}
        if not unmatched_bytes and len(kinds) == 1 and next(iter(kinds)) in ("int", "float", "str") and nodes:
            k = next(iter(kinds))
            if k == "int":
                return _widest(nodes)
            return nodes[0] if k == "str" else Node("prim", pa.float64(), "float")
        sw = Node("switch", None)
        for fname, (n, match) in names.items():
            sw.fields.append(Field(fname, fname, n, f"set when the value is a {fname}"))
            sw.case_match[fname] = match
        if unmatched_bytes:
            sw.fields.append(Field("__bytes", "__bytes", Node("prim", pa.binary(), "bytes"), "raw bytes: no case matched"))
            sw.case_match["__bytes"] = "bytes"
        sw.arrow = pa.struct(_arrow_fields(sw.fields, False))
        return sw

    def wants(self, t: TypeDef, name: str) -> bool:
        if self.instances is None:
            return False
        return "*" in self.instances or name in self.instances or f"{t.qualname.split('::', 1)[-1]}.{name}" in self.instances

    def struct(self, t: TypeDef, stack: tuple[TypeDef, ...]) -> Node:
        if t in stack or len(stack) >= MAX_DEPTH:
            return Node("json", pa.string(), typedef=t)
        stack = (*stack, t)
        n = Node("struct", None, typedef=t, positions=self.positions)
        for a in t.seq:
            if "id" not in a:
                continue
            n.fields.append(Field(a["id"], a["id"], self.attr_node(t, a, stack), _doc(t, a)))
        for name, inst in t.instances.items():
            if self.wants(t, name):
                n.fields.append(Field(name, name, self.attr_node(t, inst, stack), _doc(t, inst), instance=True))
        fields = _arrow_fields(n.fields, self.positions)
        if not fields:
            n.marker = True
            fields = [pa.field(MARKER_FIELD[0], pa.bool_(), metadata={"doc": MARKER_FIELD[1]})]
        n.arrow = pa.struct(fields)
        return n


def _doc(t: TypeDef, a: Mapping[str, Any]) -> str:
    ty = a.get("type")
    if "value" in a:
        what = f"value: {' '.join(str(a['value']).split())}"
    elif isinstance(ty, Mapping):
        what = f"switch-on {ty.get('switch-on')}"
    elif ty is None:
        what = "bytes" if "contents" not in a else "contents"
    else:
        what = str(ty)
        if what in ("str", "strz"):
            what += f" ({a.get('encoding') or t.meta('encoding') or '?'})"
    if "repeat" in a:
        what += f", repeat {a['repeat']}"
    if a.get("enum"):
        what += f", enum {a['enum']}"
    text = " ".join(str(a.get("doc") or "").split())
    if len(text) > 100:
        text = text[:97] + "..."
    return f"{what}: {text}" if text else what


# -- the plan: what one input file becomes ------------------------------------------------------------


@dataclass(eq=False)
class Plan:
    model: Model
    #: the attribute path from the root object to the row items (empty: one row per file)
    root_path: tuple[str, ...]
    #: which path components are arrays (flattened)
    root_arrays: tuple[bool, ...]
    #: the node of one row: a struct (its fields are the columns) or another node (one column ``row_name``)
    row: Node
    row_name: str
    u8: str
    positions: bool
    instances: frozenset[str] | None

    def schema(self) -> pa.Schema:
        fields: list[Any] = []
        if self.root_path:
            fields.append(pa.field("__index", pa.int64(), metadata={"doc": "position of the record among the file's records, from 0"}))
        if self.row.kind == "struct":
            fields += _arrow_fields(self.row.fields, self.positions)
        else:
            fields += _arrow_fields([Field(self.row_name, self.row_name, self.row, "")], False)
        return pa.schema([f.with_name(f.name + "_") if f.name in RESERVED else f for f in fields])


def plan(
    model: Model,
    *,
    root: str = "",
    u8: str = "decimal",
    instances: Iterable[str] | None = None,
    positions: bool = False,
) -> Plan:
    """The rows of one file of ``model``'s main spec: the root object, or the items of the field ``root``
    (a dotted path of attribute ids from the root type; arrays on the way are flattened)."""
    if u8 not in ("decimal", "long"):
        raise UsageError(f"option u8 must be decimal or long, found {u8!r}")
    inst = frozenset(s.strip() for s in instances if s.strip()) if instances is not None else None
    if inst is not None and inst & {"all", "*"}:
        inst = frozenset({"*"})
    b = _Builder(model, u8=u8, instances=inst or None, positions=positions)
    t = model.root
    node = b.struct(t, ())
    path = tuple(p for p in root.split(".") if p) if root else ()
    arrays: list[bool] = []
    name = model.main
    for i, comp in enumerate(path):
        if node.kind != "struct":
            raise UsageError(f"root {root!r}: {'.'.join(path[:i]) or model.main} is not a structure ({node.kind})")
        f = next((f for f in node.fields if f.attr == comp), None)
        if f is None:
            assert node.typedef is not None
            m = node.typedef.member(comp)
            if m is None or m[0] == "param":
                names = ", ".join(x.attr for x in node.fields)
                raise UsageError(f"root {root!r}: {node.typedef.qualname} has no field {comp!r} (fields: {names})")
            f = Field(comp, comp, b.attr_node(node.typedef, m[1], ()), instance=True)
        node = f.node
        arrays.append(node.kind == "array")
        if node.kind == "array":
            assert node.elem is not None
            node = node.elem
        name = comp
    return Plan(model, path, tuple(arrays), node, name, u8, positions, inst)
