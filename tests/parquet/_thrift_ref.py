"""The reference opinion for Parquet's Thrift structs: our IDL loaded by thriftpy2.

- ``IDL``: the thriftpy2 module of ``src/lakestruct/parquet/thrift_idl/parquet.thrift``;
- ``strategy(name)``: hypothesis objects of that IDL struct (unions get one member);
- ``serialize(obj)``: thriftpy2's own compact protocol;
- ``to_model(obj, cls)``: the model we expect lakestruct to read from those bytes.
"""

from __future__ import annotations

from enum import IntEnum
from pathlib import Path
from typing import Any

import thriftpy2
from hypothesis import strategies as st
from thriftpy2.protocol.compact import TCompactProtocolFactory
from thriftpy2.thrift import TType
from thriftpy2.utils import deserialize as _deserialize
from thriftpy2.utils import serialize as _serialize

from lakestruct.parquet import model as m

IDL_PATH = Path(__file__).resolve().parents[2] / "src" / "lakestruct" / "parquet" / "thrift_idl" / "parquet.thrift"
IDL = thriftpy2.load(str(IDL_PATH), module_name="lakestruct_parquet_idl_thrift")

UNIONS = {
    "LogicalType",
    "TimeUnit",
    "ColumnCryptoMetaData",
    "ColumnOrder",
    "EncryptionAlgorithm",
    "BloomFilterAlgorithm",
    "BloomFilterHash",
    "BloomFilterCompression",
}

I32 = st.integers(-(2**31), 2**31 - 1)
I64 = st.integers(-(2**63), 2**63 - 1)


def _enum_values(enum_cls: Any) -> list[int]:
    return sorted(enum_cls._VALUES_TO_NAMES)


def _value_strategy(ttype: int, extra: Any, depth: int) -> st.SearchStrategy[Any]:
    if ttype == TType.BOOL:
        return st.booleans()
    if ttype == TType.BYTE:
        return st.integers(-128, 127)
    if ttype == TType.I16:
        return st.integers(-(2**15), 2**15 - 1)
    if ttype == TType.I32:
        if extra is not None:  # enum: known values mostly, sometimes unknown ones
            return st.one_of(st.sampled_from(_enum_values(extra)), st.integers(-100, 100))
        return I32
    if ttype == TType.I64:
        return I64
    if ttype == TType.DOUBLE:
        return st.floats(allow_nan=False)
    if ttype == TType.STRING:
        return st.text(max_size=12)
    if ttype == TType.BINARY:
        return st.binary(max_size=12)
    if ttype == TType.STRUCT:
        return struct_strategy(extra, depth + 1)
    if ttype in (TType.LIST, TType.SET):
        et, eextra = (extra, None) if isinstance(extra, int) else extra
        return st.lists(_value_strategy(et, eextra, depth), max_size=20 if depth < 2 else 3)
    raise AssertionError(ttype)


def struct_strategy(cls: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    spec = cls.thrift_spec
    name = cls.__name__
    fields = {}
    for _fid, entry in sorted(spec.items()):
        ttype, fname = entry[0], entry[1]
        extra = entry[2] if len(entry) == 4 else None
        fields[fname] = (ttype, extra, entry[-1])
    if name in UNIONS:
        options = [st.builds(lambda v, n=fname: cls(**{n: v}), _value_strategy(t, e, depth)) for fname, (t, e, _r) in fields.items()]
        return st.one_of(options) if options else st.just(cls())
    kw: dict[str, st.SearchStrategy[Any]] = {}
    for fname, (t, e, required) in fields.items():
        v = _value_strategy(t, e, depth)
        kw[fname] = v if required else (st.none() | v if depth < 3 else st.none())
    return st.fixed_dictionaries(kw).map(lambda d: cls(**d))


def strategy(name: str) -> st.SearchStrategy[Any]:
    return struct_strategy(getattr(IDL, name))


def serialize(obj: Any) -> bytes:
    data: bytes = _serialize(obj, TCompactProtocolFactory())
    return data


def deserialize(name: str, data: bytes) -> Any:
    """thriftpy2's reading, without its IDL defaults (absent stays None, as on the wire)."""
    return _deserialize(_blank(getattr(IDL, name)), data, TCompactProtocolFactory())


def _blank(cls: Any) -> Any:
    obj = cls()
    for entry in cls.thrift_spec.values():
        setattr(obj, entry[1], None)
    return obj


def to_model(obj: Any, cls: type) -> Any:
    """The lakestruct model of a thriftpy2 object (by the model's field table)."""
    kwargs: dict[str, Any] = {}
    for _fid, name, kind, _req in cls._THRIFT:  # type: ignore[attr-defined]
        v = getattr(obj, name, None)
        if v is None:
            continue
        kwargs[name] = _conv(kind, v)
    return cls(**kwargs)


def _conv(kind: Any, v: Any) -> Any:
    if isinstance(kind, str):
        return v
    tag = kind[0]
    if tag == "enum":
        e: type[IntEnum] = kind[1]
        try:
            return e(v)
        except ValueError:
            return v
    if tag == "struct":
        return to_model(v, kind[1])
    return tuple(_conv(kind[1], x) for x in v)


def from_model(model: Any, name: str) -> Any:
    """The thriftpy2 object of a lakestruct model (for the reverse direction)."""
    cls = getattr(IDL, name)
    spec = {entry[1]: entry for entry in cls.thrift_spec.values()}
    kwargs = {}
    for _fid, fname, kind, _req in model._THRIFT:
        v = getattr(model, fname)
        if v is None:
            continue
        kwargs[fname] = _back(kind, v, spec[fname])
    return cls(**kwargs)


def _back(kind: Any, v: Any, entry: Any) -> Any:
    if isinstance(kind, str):
        return v
    tag = kind[0]
    if tag == "enum":
        return int(v)
    if tag == "struct":
        return from_model(v, entry[2].__name__)
    et = entry[2]
    sub = (None, None, et[1]) if isinstance(et, tuple) else (None, None, None)
    return [_back(kind[1], x, sub) for x in v]


__all__ = ["IDL", "deserialize", "from_model", "m", "serialize", "strategy", "struct_strategy", "to_model"]
