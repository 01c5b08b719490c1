"""The specs keep to what docs/webide.md promises: no ``<<``, ``|``, ``^`` or ``&`` in any expression (JavaScript,
and so the Kaitai Web IDE, computes them on 32 bits; the specs use ``+``, ``*``, ``/``, ``%``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
#: keys whose values are Kaitai expressions (or hold them: `valid`, `type` with arguments, `cases`)
EXPR_KEYS = {"value", "if", "pos", "size", "repeat-expr", "repeat-until", "valid", "type", "switch-on", "expr", "min", "max",
             "eq", "any-of", "cases", "io", "parent", "terminator", "pad-right"}
FORBIDDEN = re.compile(r"<<|&|\^|(?<![|])\|(?![|])")


def expressions(node: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("doc", "doc-ref", "-webide-representation", "enums", "meta") or str(k).startswith("-"):
                continue
            yield from expressions(v, str(k) if k in EXPR_KEYS else key)
            if k == "cases" and isinstance(v, dict):
                yield from ((k, str(c)) for c in v)
    elif isinstance(node, list):
        for v in node:
            yield from expressions(v, key)
    elif key and isinstance(node, str):
        yield key, node


def test_no_32_bit_operators_in_any_spec() -> None:
    specs = sorted(REPO.glob("formats/*/*.ksy"))
    assert specs
    seen = 0
    for spec in specs:
        doc = yaml.safe_load(spec.read_text())
        for key, expr in expressions(doc):
            seen += 1
            assert not FORBIDDEN.search(expr), f"{spec.relative_to(REPO)}: {key}: {expr}"
    assert seen > 200  # the walk reaches the expressions
