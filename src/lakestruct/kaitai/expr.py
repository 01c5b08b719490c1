"""Static types of Kaitai Struct expressions (value instances), as far as a schema needs them.

The Kaitai compiler infers the type of every ``value:`` instance but the Python code it emits does not
record it, and a Spark schema must be known before any data is read. This module parses the expression
language (literals, names, ``_root``/``_parent``/``_io``, enum references ``a::b``, unary and binary
operators with Kaitai's precedence, the ternary, ``.method``/``.as<T>``/``[i]`` postfixes, ``sizeof<T>``)
and computes a type with the compiler's rules: arithmetic on integers gives a computed integer, any float
makes a float, comparisons and ``and``/``or``/``not`` give booleans, ``+`` joins strings, a ternary joins
its branches' types. What it cannot type becomes :data:`ANY` (the column then holds the value's text).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["ANY", "BOOL", "BYTES", "CALC_FLOAT", "CALC_INT", "STR", "ExprError", "Ty", "infer", "unify"]


@dataclass(frozen=True)
class Ty:
    """An expression type: ``kind`` in int, float, bool, str, bytes, enum, user, array, io, any.

    ``prim`` is the primitive an integer or float came from (``u1``..``s8``, ``b3``, ``f4``, ``f8``) or
    ``calc`` for a computed one; ``ref`` is the enum or user type (the model's object); ``elem`` the item
    type of an array."""

    kind: str
    prim: str = ""
    ref: Any = None
    elem: Ty | None = None


ANY = Ty("any")
BOOL = Ty("bool")
STR = Ty("str")
BYTES = Ty("bytes")
CALC_INT = Ty("int", "calc")
CALC_FLOAT = Ty("float", "calc")
IO = Ty("io")


class ExprError(ValueError):
    """An expression this parser does not understand."""


_TOKEN = re.compile(
    r"""\s*(?:
    (?P<float>\d[\d_]*\.\d[\d_]*(?:[eE][+-]?\d+)?|\d[\d_]*[eE][+-]?\d+)
  | (?P<int>0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*)
  | (?P<str>'[^']*'|"(?:\\.|[^"\\])*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>::|<<|>>|<=|>=|==|!=|[-+*/%&|^~?:()\[\],.<>])
    )""",
    re.X,
)


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ExprError(f"cannot read {text[pos:pos + 20]!r}")
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind)))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    out.append(("end", ""))
    return out


#: binary operators by precedence (Kaitai follows Python's order)
_BINARY: dict[str, int] = {
    "or": 2, "and": 3,
    "<": 5, "<=": 5, ">": 5, ">=": 5, "==": 5, "!=": 5,
    "|": 6, "^": 7, "&": 8, "<<": 9, ">>": 9, "+": 10, "-": 10, "*": 11, "/": 11, "%": 11,
}  # fmt: skip


class Context:
    """What names mean where the expression is evaluated (the model implements it)."""

    def field(self, name: str) -> Ty:  # pragma: no cover - interface
        raise NotImplementedError

    def parent(self) -> Ty:  # pragma: no cover - interface
        raise NotImplementedError

    def root(self) -> Ty:  # pragma: no cover - interface
        raise NotImplementedError

    def member(self, user: Any, name: str) -> Ty:  # pragma: no cover - interface
        """The type of ``name`` in the user type ``user``."""
        raise NotImplementedError

    def enum(self, path: list[str]) -> Ty:  # pragma: no cover - interface
        raise NotImplementedError

    def type_named(self, name: str) -> Ty:  # pragma: no cover - interface
        raise NotImplementedError


def unify(a: Ty, b: Ty) -> Ty:
    """The type of ``c ? a : b``."""
    if a == b:
        return a
    if a.kind == "any":
        return b
    if b.kind == "any":
        return a
    if a.kind == b.kind == "int":
        return CALC_INT
    if {a.kind, b.kind} <= {"int", "float"}:
        return CALC_FLOAT
    if a.kind == b.kind and a.kind in ("bool", "str", "bytes", "io"):
        return a
    if a.kind == b.kind == "enum" and a.ref is b.ref:
        return Ty("enum", "calc" if a.prim != b.prim else a.prim, a.ref)
    if a.kind == b.kind == "array" and a.elem is not None and b.elem is not None:
        return Ty("array", elem=unify(a.elem, b.elem))
    return ANY


class _Parser:
    def __init__(self, text: str, ctx: Context) -> None:
        self.toks = _tokens(text)
        self.i = 0
        self.ctx = ctx

    def peek(self, k: int = 0) -> tuple[str, str]:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def take(self, value: str | None = None) -> tuple[str, str]:
        tok = self.toks[self.i]
        if value is not None and tok[1] != value:
            raise ExprError(f"expected {value!r}, found {tok[1]!r}")
        self.i += 1
        return tok

    def parse(self) -> Ty:
        t = self.ternary()
        if self.peek()[0] != "end":
            raise ExprError(f"unexpected {self.peek()[1]!r}")
        return t

    def ternary(self) -> Ty:
        cond = self.binary(0)
        if self.peek()[1] == "?":
            self.take("?")
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            del cond
            return unify(a, b)
        return cond

    def binary(self, min_prec: int) -> Ty:
        left = self.unary()
        while True:
            op = self.peek()[1]
            prec = _BINARY.get(op)
            if prec is None or prec <= min_prec or self.peek()[0] not in ("op", "name"):
                return left
            self.take()
            right = self.binary(prec)
            left = _binary_type(op, left, right)

    def unary(self) -> Ty:
        kind, v = self.peek()
        if v == "not" and kind == "name":
            self.take()
            self.binary(4)
            return BOOL
        if v in ("-", "~") and kind == "op":
            self.take()
            t = self.unary()
            if v == "-" and t.kind == "float":
                return CALC_FLOAT
            return CALC_INT if t.kind in ("int", "any") else ANY
        return self.postfix(self.primary())

    def type_arg(self) -> str:
        self.take("<")
        parts = [self.take()[1]]
        while self.peek()[1] == "::":
            self.take()
            parts.append(self.take()[1])
        self.take(">")
        return "::".join(parts)

    def primary(self) -> Ty:
        kind, v = self.take()
        if kind == "int":
            return CALC_INT
        if kind == "float":
            return CALC_FLOAT
        if kind == "str":
            return STR
        if v == "(":
            t = self.ternary()
            self.take(")")
            return t
        if v == "[":
            elems: list[Ty] = []
            while self.peek()[1] != "]":
                elems.append(self.ternary())
                if self.peek()[1] == ",":
                    self.take()
            self.take("]")
            return ANY  # an array literal: bytes or a list depending on use
        if kind != "name":
            raise ExprError(f"unexpected {v!r}")
        if v in ("true", "false"):
            return BOOL
        if v in ("sizeof", "bitsizeof") and self.peek()[1] == "<":
            self.type_arg()
            return CALC_INT
        if self.peek()[1] == "::":
            path = [v]
            while self.peek()[1] == "::":
                self.take()
                path.append(self.take()[1])
            return self.ctx.enum(path)
        if v == "_root":
            return self.ctx.root()
        if v == "_parent":
            return self.ctx.parent()
        if v == "_io":
            return IO
        if v in ("_index", "_sizeof"):
            return CALC_INT
        if v == "_":
            return ANY
        return self.ctx.field(v)

    def postfix(self, t: Ty) -> Ty:
        while True:
            v = self.peek()[1]
            if v == "[":
                self.take()
                self.ternary()
                self.take("]")
                t = t.elem if t.kind == "array" and t.elem is not None else Ty("int", "u1") if t.kind == "bytes" else ANY
            elif v == ".":
                self.take()
                name = self.take()[1]
                if name == "as" and self.peek()[1] == "<":
                    t = self.ctx.type_named(self.type_arg())
                    continue
                args = 0
                if self.peek()[1] == "(":
                    self.take()
                    while self.peek()[1] != ")":
                        self.ternary()
                        args += 1
                        if self.peek()[1] == ",":
                            self.take()
                    self.take(")")
                t = self._method(t, name)
            else:
                return t

    def _method(self, t: Ty, name: str) -> Ty:
        k = t.kind
        if k == "user":
            if name == "_io":
                return IO
            if name == "_parent":
                return self.ctx.member(t.ref, "_parent")
            if name == "_root":
                return self.ctx.root()
            if name == "_sizeof":
                return CALC_INT
            return self.ctx.member(t.ref, name)
        table: dict[str, dict[str, Callable[[Ty], Ty]]] = {
            "int": {"to_s": lambda _: STR},
            "float": {"to_i": lambda _: CALC_INT},
            "bool": {"to_i": lambda _: CALC_INT},
            "enum": {"to_i": lambda x: Ty("int", x.prim or "calc")},
            "str": {"length": lambda _: CALC_INT, "reverse": lambda _: STR, "substring": lambda _: STR, "to_i": lambda _: CALC_INT},
            "bytes": {
                "length": lambda _: CALC_INT, "size": lambda _: CALC_INT, "to_s": lambda _: STR, "first": lambda _: Ty("int", "u1"),
                "last": lambda _: Ty("int", "u1"), "min": lambda _: Ty("int", "u1"), "max": lambda _: Ty("int", "u1"),
            },
            "array": {
                "size": lambda _: CALC_INT, "length": lambda _: CALC_INT, "first": lambda x: x.elem or ANY,
                "last": lambda x: x.elem or ANY, "min": lambda x: x.elem or ANY, "max": lambda x: x.elem or ANY, "reverse": lambda x: x,
            },
            "io": {"size": lambda _: CALC_INT, "pos": lambda _: CALC_INT, "eof": lambda _: BOOL},
        }  # fmt: skip
        fn = table.get(k, {}).get(name)
        return fn(t) if fn else ANY


def _binary_type(op: str, a: Ty, b: Ty) -> Ty:
    if op in ("or", "and", "<", "<=", ">", ">=", "==", "!="):
        return BOOL
    if op == "+" and a.kind == b.kind and a.kind in ("str", "bytes"):
        return a
    if op in ("+", "-", "*", "/", "%"):
        if a.kind == "float" or b.kind == "float":
            return CALC_FLOAT if {a.kind, b.kind} <= {"int", "float"} else ANY
        return CALC_INT if a.kind == b.kind == "int" else ANY
    # bitwise and shifts
    if a.kind == b.kind == "bool" and op in ("&", "|", "^"):
        return BOOL
    return CALC_INT if a.kind in ("int", "any") and b.kind in ("int", "any") and "any" not in (a.kind, b.kind) else ANY


def infer(text: Any, ctx: Context) -> Ty:
    """The type of the expression ``text`` (a string, or a YAML number/boolean) in ``ctx``."""
    if isinstance(text, bool):
        return BOOL
    if isinstance(text, int):
        return CALC_INT
    if isinstance(text, float):
        return CALC_FLOAT
    return _Parser(str(text), ctx).parse()
