"""Typed views of generically decoded Thrift structs.

A model class declares its wire fields in ``_THRIFT`` as
``(field id, attribute, kind, required)``; kinds are ``"bool" "i8" "i16" "i32"
"i64" "double" "binary" "string"``, ``("enum", IntEnumClass)``,
``("struct", ModelClass)`` and ``("list", kind)``. :func:`from_raw` builds the model
from a :data:`~lakestruct.thrift.compact.RawStruct` (fields it does not know go to
``unknown``, enum values it does not know stay ``int``); :func:`to_raw` is the
inverse, used to serialise models.

Rules: ``thrift.required-field`` (a required field is absent),
``thrift.field-type`` (list elements of another wire type), ``thrift.field-range``
(an i16/i32 value out of range). A known field that arrives with another wire type is
skipped as Thrift readers do (kept in ``unknown``); i16/i32/i64 are interchangeable.
``thrift.utf8`` (a string field is not UTF-8).
"""

from __future__ import annotations

import dataclasses
from enum import IntEnum
from typing import Any, TypeVar

from ..errors import FormatError
from .compact import (
    BINARY,
    BOOL_FALSE,
    BOOL_TRUE,
    DOUBLE,
    I8,
    I16,
    I32,
    I64,
    LIST,
    MAP,
    SET,
    STRUCT,
    TYPE_NAMES,
    Encoder,
    RawEncoded,
    RawList,
    RawStruct,
    Shape,
    _compiled,
    check_range,
    decode_struct_py,
)

__all__ = ["COMPILED", "clear_cache", "compiled_plan", "decode_model", "decode_model_py", "decode_tuples", "from_raw", "make", "to_raw",
           "tuple_fields", "wire_type"]

M = TypeVar("M")

_SCALAR_WIRE = {
    "bool": (BOOL_TRUE, BOOL_FALSE),
    "i8": (I8,),
    # i16/i32/i64 are all zigzag varints on the wire; writers mix them up
    # (bad_data/ARROW-GH-41317 has list<i16> encodings), so any of them is accepted in range
    "i16": (I16, I32, I64),
    "i32": (I32, I16, I64),
    "i64": (I64, I32, I16),
    "double": (DOUBLE,),
    "binary": (BINARY,),
    "string": (BINARY,),
}


_PLAIN = frozenset(("i32", "i64", "bool", "binary", "i16", "i8", "double"))
_RANGES = {"i16": (-(2**15), 2**15 - 1), "i32": (-(2**31), 2**31 - 1)}


def wire_type(kind: Any) -> int:
    """The wire type a field of ``kind`` is written with (bool: BOOL_TRUE)."""
    if isinstance(kind, str):
        return _SCALAR_WIRE[kind][0]
    tag = kind[0]
    if tag == "enum":
        return I32
    if tag == "struct":
        return STRUCT
    return LIST


def _accepted(kind: Any) -> tuple[int, ...]:
    if isinstance(kind, str):
        return _SCALAR_WIRE[kind]
    tag = kind[0]
    if tag == "enum":
        return _SCALAR_WIRE["i32"]
    if tag == "list":
        return (LIST, SET)
    return (STRUCT,)


# per class: ({field id: (name, kind, accepted wire types, conversion code)}, required (fid, name) pairs)
_PLANS: dict[type, tuple[dict[int, tuple[str, Any, tuple[int, ...], int]], tuple[tuple[int, str], ...]]] = {}
_C_PLAIN, _C_RANGED, _C_STRING, _C_ENUM, _C_OTHER = range(5)


def clear_cache() -> None:
    _PLANS.clear()
    _SHAPES.clear()


def _code(kind: Any) -> int:
    if isinstance(kind, str):
        if kind == "string":
            return _C_STRING
        return _C_RANGED if kind in _RANGES else _C_PLAIN
    return _C_ENUM if kind[0] == "enum" else _C_OTHER


def _plan(cls: type) -> tuple[dict[int, tuple[str, Any, tuple[int, ...], int]], tuple[tuple[int, str], ...]]:
    p = _PLANS.get(cls)
    if p is None:
        fields: dict[int, tuple[str, Any, tuple[int, ...], int]] = {}
        req: list[tuple[int, str]] = []
        for fid, name, kind, required in cls._THRIFT:  # type: ignore[attr-defined]
            fields[fid] = (name, kind, _accepted(kind), _code(kind))
            if required:
                req.append((fid, name))
        p = (fields, tuple(req))
        _PLANS[cls] = p
    return p


# Error paths are built only when an error is raised: a path is a str or a (parent path, child)
# pair whose child is a field name or a list index.
PathLike = Any


def _ps(p: PathLike) -> str:
    if isinstance(p, str):
        return p
    parent, child = p
    base = _ps(parent)
    if isinstance(child, int):
        return f"{base}[{child}]"
    return f"{base}.{child}" if base else child


_ENUM_TABLES: dict[type, tuple[Any, ...] | None] = {}


def _enum(e: type[IntEnum], v: int) -> IntEnum | int:
    table = _ENUM_TABLES.get(e, ())
    if table == ():
        members = sorted(e, key=int)
        table = tuple(members) if [int(m) for m in members] == list(range(len(members))) else None
        _ENUM_TABLES[e] = table
    if table is not None:
        return table[v] if 0 <= v < len(table) else v
    try:
        return e(v)
    except ValueError:
        return v


def _convert(kind: Any, t: int, v: Any, path: PathLike, offset: int | None) -> Any:
    if isinstance(kind, str):
        if kind == "string":
            try:
                return v.decode("utf-8")
            except UnicodeDecodeError as e:
                raise FormatError(f"string is not UTF-8: {e.reason}", rule="thrift.utf8", path=_ps(path), offset=offset) from None
        return v
    tag = kind[0]
    if tag == "enum":
        return _enum(kind[1], v)
    if tag == "struct":
        return from_raw(kind[1], v, path=path, offset=offset)
    # list
    ek = kind[1]
    rl: RawList = v
    accepted = _accepted(ek)
    if rl.items and rl.elem_type not in accepted:
        raise FormatError(
            f"list elements have wire type {TYPE_NAMES.get(rl.elem_type, rl.elem_type)}, expected {TYPE_NAMES[accepted[0]]}",
            rule="thrift.field-type",
            path=_ps(path),
            offset=offset,
        )
    if isinstance(ek, str) and ek != "string":
        if ek in _RANGES:
            lo, hi = _RANGES[ek]
            for i, item in enumerate(rl.items):
                if not lo <= item <= hi:
                    raise FormatError(
                        f"element {item} is out of the {ek} range", rule="thrift.field-range", path=_ps((path, i)), offset=offset
                    )
        return tuple(rl.items)
    et = rl.elem_type
    if not isinstance(ek, str) and ek[0] == "struct":
        sub = ek[1]
        return tuple([from_raw(sub, item, path=(path, i), offset=offset) for i, item in enumerate(rl.items)])
    if not isinstance(ek, str) and ek[0] == "enum":
        enum_cls = ek[1]
        return tuple([_enum(enum_cls, item) for item in rl.items])
    return tuple([_convert(ek, et, item, (path, i), offset) for i, item in enumerate(rl.items)])


def _defaults(cls: type) -> dict[str, Any]:
    d = _DEFAULTS.get(cls)
    if d is None:
        d = {}
        for f in dataclasses.fields(cls):
            if f.default is not dataclasses.MISSING:
                d[f.name] = f.default
            elif f.default_factory is not dataclasses.MISSING:
                d[f.name] = f.default_factory()
        _DEFAULTS[cls] = d
    return d


_DEFAULTS: dict[type, dict[str, Any]] = {}


def make(cls: type[M], values: dict[str, Any]) -> M:
    """An instance of a frozen model from attribute values (absent ones get their defaults),
    without running ``__init__`` (the models have no ``__post_init__``)."""
    obj = cls.__new__(cls)
    d = obj.__dict__
    d.update(_defaults(cls))
    d.update(values)
    return obj


def _encoded(t: int, v: Any) -> Any:
    """An unknown field's value as models keep it: a container as its encoded bytes (:class:`RawEncoded`; the
    decoders given a shape build it without decoding the container), anything else as it is."""
    if t in (LIST, SET, MAP, STRUCT) and not isinstance(v, RawEncoded):
        enc = Encoder()
        enc.value(t, v)
        return RawEncoded(t, enc.getvalue())
    return v


_SHAPES: dict[type, Shape] = {}


def shape(cls: type) -> Shape:
    """The model's :data:`~lakestruct.thrift.compact.Shape`: accepted wire types per known field, and the shapes of
    its struct fields and lists of structs (what the pure decoder needs to leave unknown containers encoded)."""
    sh = _SHAPES.get(cls)
    if sh is None:
        sh = {}
        _SHAPES[cls] = sh  # before recursing (a model that contains itself)
        for fid, (_name, kind, accepted, _code) in _plan(cls)[0].items():
            sub: Any = None
            if not isinstance(kind, str):
                if kind[0] == "struct":
                    sub = shape(kind[1])
                elif kind[0] == "list" and not isinstance(kind[1], str) and kind[1][0] == "struct":
                    sub = shape(kind[1][1])
            sh[fid] = (accepted, sub)
    return sh


def from_raw(cls: type[M], raw: RawStruct, *, path: PathLike = "", offset: int | None = None) -> M:
    """Build ``cls`` from decoded fields. ``offset`` (of the struct) is reported in errors."""
    fields, required = _plan(cls)
    kwargs: dict[str, Any] = {}
    unknown: list[tuple[int, int, Any]] = []
    for fid, (t, v) in raw.items():
        spec = fields.get(fid)
        if spec is None:
            unknown.append((fid, t, _encoded(t, v)))
            continue
        name, kind, accepted, code = spec
        if t not in accepted:
            # Thrift semantics: a field whose wire type does not match the IDL is skipped
            # (kept here); a required one is then reported missing below.
            unknown.append((fid, t, _encoded(t, v)))
            continue
        if code == _C_PLAIN:
            kwargs[name] = v
        elif code == _C_ENUM:
            kwargs[name] = _enum(kind[1], v)
        elif code == _C_RANGED:
            lo, hi = _RANGES[kind]
            if not lo <= v <= hi:
                raise FormatError(
                    f"field {fid} ({name}) = {v} is out of the {kind} range",
                    rule="thrift.field-range",
                    path=_ps((path, name)),
                    offset=offset,
                )
            kwargs[name] = v
        elif code == _C_STRING:
            try:
                kwargs[name] = v.decode("utf-8")
            except UnicodeDecodeError:
                kwargs[name] = _convert(kind, t, v, (path, name), offset)  # raises
        else:
            kwargs[name] = _convert(kind, t, v, (path, name), offset)
    for fid, name in required:
        if name not in kwargs:
            raise FormatError(
                f"required field {fid} ({name}) of {cls.__name__} is missing",
                rule="thrift.required-field",
                path=_ps((path, name)),
                offset=offset,
            )
    if unknown:
        kwargs["unknown"] = tuple(unknown)
    return make(cls, kwargs)


# -- compiled plans (the tables the compiled twin decodes with) ---------------------------------
K_BOOL, K_I8, K_I16, K_I32, K_I64, K_DOUBLE, K_BINARY, K_STRING, K_ENUM, K_STRUCT, K_LIST = range(11)
_KCODE = {"bool": K_BOOL, "i8": K_I8, "i16": K_I16, "i32": K_I32, "i64": K_I64, "double": K_DOUBLE, "binary": K_BINARY, "string": K_STRING}
_CPLANS: dict[type, list[Any]] = {}


def _ckind(kind: Any) -> tuple[int, int, Any]:
    """(kind code, accepted wire-type bitmask, sub) of a field kind."""
    mask = 0
    for t in _accepted(kind):
        mask |= 1 << t
    if isinstance(kind, str):
        return (_KCODE[kind], mask, None)
    tag = kind[0]
    if tag == "enum":
        members = tuple(sorted(kind[1], key=int))
        assert [int(m) for m in members] == list(range(len(members))), kind[1]
        return (K_ENUM, mask, members)
    if tag == "struct":
        return (K_STRUCT, mask, compiled_plan(kind[1]))
    return (K_LIST, mask, _ckind(kind[1]))


def compiled_plan(cls: type) -> list[Any]:
    """``[cls, {field id: (name, kind code, wire mask, sub)}, required (fid, name) pairs, defaults]``."""
    p = _CPLANS.get(cls)
    if p is None:
        p = [cls, {}, (), _defaults(cls)]
        _CPLANS[cls] = p  # before recursing (no cycles in practice, but safe)
        fields: dict[int, tuple[str, int, int, Any]] = {}
        for fid, name, kind, _req in cls._THRIFT:  # type: ignore[attr-defined]
            code, mask, sub = _ckind(kind)
            fields[fid] = (name, code, mask, sub)
        p[1] = fields
        p[2] = _plan(cls)[1]
    return p


#: True when the compiled twin (``_compact_c``, Cython) is in use
COMPILED = _compiled is not None


def decode_model_py(
    cls: type[M], buf: bytes, pos: int = 0, end: int | None = None, *, base: int = 0, path: str = "struct"
) -> tuple[M, int]:
    """The pure-Python twin: :func:`from_raw` of :func:`~lakestruct.thrift.compact.decode_struct`."""
    raw, after = decode_struct_py(buf, pos, end, base=base, path=path, shape=shape(cls))
    return from_raw(cls, raw, path=path, offset=base + pos), after


def decode_model(cls: type[M], buf: bytes, pos: int = 0, end: int | None = None, *, base: int = 0, path: str = "struct") -> tuple[M, int]:
    """Decode a struct straight into ``cls``: (model, position after it).

    Uses the compiled twin when it is built; anything it does not handle on its own
    (every error, duplicate field ids) is redone by the pure-Python path, so results and
    errors are identical either way.
    """
    check_range(len(buf), pos, end)
    if _compiled is not None:
        if not isinstance(buf, bytes):
            buf = bytes(buf)
        got = _compiled.decode_model(buf, pos, len(buf) if end is None else end, compiled_plan(cls))
        if got is not None:
            return got  # type: ignore[no-any-return]
    return decode_model_py(cls, buf, pos, end, base=base, path=path)


def tuple_fields(cls: type) -> tuple[str, ...]:
    """The slots of ``cls`` decoded by :func:`decode_tuples`: its Thrift fields in declaration order, then ``unknown``."""
    return (*(name for _fid, name, _kind, _req in cls._THRIFT), "unknown")  # type: ignore[attr-defined]


def decode_tuples(cls: type, buf: bytes, pos: int = 0, end: int | None = None, *, tuples: frozenset[type]) -> tuple[Any, int] | None:
    """:func:`decode_model`, except that the structs of the classes in ``tuples`` become plain tuples of their fields
    (:func:`tuple_fields` order; absent fields hold their defaults): (value, position after it). The compiled twin
    only: None when it is not built or declines (anything unusual, every error: :func:`decode_model` then decides).
    Its reading and checks are those of the compiled :func:`decode_model`, so a value it returns holds exactly the
    values of the models that would be built (for readers that go over many small structs once)."""
    check_range(len(buf), pos, end)
    if _compiled is None or not isinstance(buf, bytes):
        return None
    got: tuple[Any, int] | None = _compiled.decode_tuples(buf, pos, len(buf) if end is None else end, compiled_plan(cls), tuples)
    return got


def _to_raw_value(kind: Any, v: Any) -> Any:
    if isinstance(kind, str):
        if kind == "string":
            return v.encode("utf-8")
        return v
    tag = kind[0]
    if tag == "enum":
        return int(v)
    if tag == "struct":
        return to_raw(v)
    ek = kind[1]
    return RawList(wire_type(ek), [_to_raw_value(ek, x) for x in v])


def to_raw(model: Any) -> RawStruct:
    """The wire fields of a model (known fields in id order, then unknown ones)."""
    out: RawStruct = {}
    for fid, name, kind, _req in model._THRIFT:
        v = getattr(model, name)
        if v is None:
            continue
        out[fid] = (wire_type(kind), _to_raw_value(kind, v))
    for fid, t, v in model.unknown:
        out[fid] = (t, v)
    return dict(sorted(out.items()))
