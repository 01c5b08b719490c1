"""Paimon data types as schema files spell them (``"INT NOT NULL"``, ``"DECIMAL(23, 5)"``, or an object for nested
types: ``{"type": "ARRAY", "element": ...}``, ``MAP`` with ``key``/``value``, ``MULTISET``, ``ROW`` with ``fields``,
``VECTOR`` with ``element``/``length``), after Paimon's ``DataTypeJsonParser``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import FormatError

__all__ = ["DataField", "DataType", "parse_type"]

#: Type names and their aliases, as Paimon's parser accepts them.
_ALIASES = {
    "STRING": "VARCHAR",
    "BYTES": "VARBINARY",
    "INTEGER": "INT",
    "DEC": "DECIMAL",
    "NUMERIC": "DECIMAL",
    "TIMESTAMP_LTZ": "TIMESTAMP_LTZ",
}
_PRIMITIVE = {
    "BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ",
    "CHAR", "VARCHAR", "BINARY", "VARBINARY", "DECIMAL", "VARIANT", "BLOB",
}  # fmt: skip
_NESTED = {"ARRAY", "MAP", "MULTISET", "ROW", "VECTOR"}
_MAX_LENGTH = 2147483647
_TYPE_RE = re.compile(
    r"^\s*(?P<name>[A-Z_]+)\s*(?:\(\s*(?P<a>\d+)\s*(?:,\s*(?P<b>\d+)\s*)?\))?"
    r"(?P<ltz>\s+WITH\s+LOCAL\s+TIME\s+ZONE)?(?:\s+WITHOUT\s+TIME\s+ZONE)?(?P<nn>\s+NOT\s+NULL)?(?:\s+NULL)?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DataField:
    """A field of a row type (a table column or a nested row's field)."""

    id: int
    name: str
    type: DataType
    description: str | None = None


@dataclass(frozen=True)
class DataType:
    """One Paimon type. ``root`` is the canonical name (``VARCHAR`` for ``STRING``, ``TIMESTAMP_LTZ`` for
    ``TIMESTAMP(p) WITH LOCAL TIME ZONE``); ``length`` is CHAR/VARCHAR/BINARY/VARBINARY's length or VECTOR's,
    ``precision``/``scale`` DECIMAL's, ``precision`` TIME/TIMESTAMP's."""

    root: str
    nullable: bool = True
    length: int | None = None
    precision: int | None = None
    scale: int | None = None
    element: DataType | None = None
    key: DataType | None = None
    value: DataType | None = None
    fields: tuple[DataField, ...] = ()
    text: str = ""

    @property
    def is_string(self) -> bool:
        return self.root in ("CHAR", "VARCHAR")

    @property
    def is_binary(self) -> bool:
        return self.root in ("BINARY", "VARBINARY", "BLOB")

    @property
    def compact(self) -> bool:
        """Stored in the 8-byte slot itself (compact decimals and timestamps; every fixed-width type)."""
        if self.root == "DECIMAL":
            return (self.precision or 10) <= 18
        if self.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
            return (self.precision if self.precision is not None else 6) <= 3
        return self.root in ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DATE", "TIME")

    def __str__(self) -> str:
        return self.text or self.root


def _bad(msg: str, path: str) -> FormatError:
    return FormatError(msg, rule="paimon.schema.type", path=path)


def parse_type(spec: Any, path: str = "type") -> DataType:
    """A :class:`DataType` from its schema-JSON form; anything else is ``paimon.schema.type``."""
    if isinstance(spec, str):
        return _parse_atomic(spec, path)
    if not isinstance(spec, dict) or not isinstance(spec.get("type"), str):
        raise _bad(f"a type is a string or an object with a string 'type', found {type(spec).__name__}", path)
    head = spec["type"].strip()
    nullable = True
    upper = head.upper()
    if upper.endswith(" NOT NULL"):
        nullable = False
        upper = upper[: -len(" NOT NULL")].strip()
    name = upper.split("(")[0].strip()
    if name not in _NESTED:
        raise _bad(f"unknown nested type {head!r}", path)
    if name in ("ARRAY", "MULTISET"):
        return DataType(name, nullable, element=parse_type(spec.get("element"), f"{path}.element"), text=head)
    if name == "VECTOR":
        length = spec.get("length")
        if not isinstance(length, int) or length < 1:
            raise _bad(f"VECTOR needs a positive 'length', found {length!r}", path)
        return DataType(name, nullable, length=length, element=parse_type(spec.get("element"), f"{path}.element"), text=head)
    if name == "MAP":
        return DataType(name, nullable, key=parse_type(spec.get("key"), f"{path}.key"),
                        value=parse_type(spec.get("value"), f"{path}.value"), text=head)
    raw_fields = spec.get("fields")
    if not isinstance(raw_fields, list):
        raise _bad("ROW needs a 'fields' list", path)
    return DataType("ROW", nullable, fields=tuple(parse_field(f, f"{path}.fields[{i}]") for i, f in enumerate(raw_fields)), text=head)


def parse_field(raw: Any, path: str) -> DataField:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not isinstance(raw.get("id"), int):
        raise FormatError("a field is an object with an integer 'id', a string 'name' and a 'type'", rule="paimon.schema.field", path=path)
    desc = raw.get("description")
    return DataField(raw["id"], raw["name"], parse_type(raw.get("type"), f"{path}.type"), desc if isinstance(desc, str) else None)


#: Atomic types parsed so far, by their text (a table's schemas repeat a few; DataType is frozen).
_ATOMIC: dict[str, DataType] = {}


def _parse_atomic(text: str, path: str) -> DataType:
    hit = _ATOMIC.get(text)
    if hit is None:
        hit = _parse_atomic_text(text, path)
        if len(_ATOMIC) < 4096:
            _ATOMIC[text] = hit
    return hit


def _parse_atomic_text(text: str, path: str) -> DataType:
    m = _TYPE_RE.match(text)
    if m is None:
        raise _bad(f"cannot parse the type {text!r}", path)
    name = m.group("name").upper()
    name = _ALIASES.get(name, name)
    if name not in _PRIMITIVE:
        raise _bad(f"unknown type {text!r}", path)
    a = int(m.group("a")) if m.group("a") is not None else None
    b = int(m.group("b")) if m.group("b") is not None else None
    nullable = m.group("nn") is None
    if m.group("ltz"):
        if name != "TIMESTAMP":
            raise _bad(f"WITH LOCAL TIME ZONE applies to TIMESTAMP only: {text!r}", path)
        name = "TIMESTAMP_LTZ"
    raw_name = m.group("name").upper()
    if name in ("CHAR", "BINARY"):
        return DataType(name, nullable, length=a if a is not None else 1, text=text)
    if name in ("VARCHAR", "VARBINARY"):
        length = _MAX_LENGTH if raw_name in ("STRING", "BYTES") else (a if a is not None else 1)
        return DataType(name, nullable, length=length, text=text)
    if name == "DECIMAL":
        precision = a if a is not None else 10
        scale = b if b is not None else 0
        if not 1 <= precision <= 38 or not 0 <= scale <= precision:
            raise _bad(f"DECIMAL precision must be 1..38 and scale 0..precision: {text!r}", path)
        return DataType(name, nullable, precision=precision, scale=scale, text=text)
    if name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        precision = a if a is not None else 6
        if not 0 <= precision <= 9:
            raise _bad(f"TIMESTAMP precision must be 0..9: {text!r}", path)
        return DataType(name, nullable, precision=precision, text=text)
    if name == "TIME":
        return DataType(name, nullable, precision=a if a is not None else 0, text=text)
    if a is not None:
        raise _bad(f"{name} takes no parameters: {text!r}", path)
    return DataType(name, nullable, text=text)
