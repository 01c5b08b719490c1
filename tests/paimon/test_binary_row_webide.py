"""paimon_binary_row.ksy in the Web IDE's JavaScript: rows of more than 32 fields with nulls past bit 31.

``is_null`` is taken with ``/`` and ``%`` of one byte of the null-bit area (docs/webide.md: the specs use no
``<<``, ``|``, ``^``, ``&``, which JavaScript computes on 32 bits). The JavaScript build must agree with
lakestruct's decoder on every null bit, at any field index."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from lakestruct import paimon
from lakestruct.paimon.types import parse_type
from tests.helpers import webide_parse

pytestmark = [pytest.mark.node]


def test_nulls_past_bit_31_in_javascript(tmp_path: Path) -> None:
    rng = random.Random(17)
    rows = []
    for arity, nulls in ((33, {31, 32}), (40, {0, 7, 8, 23, 24, 31, 32, 33, 39}), (70, {55, 56, 63, 64, 69}),
                         (100, set(rng.sample(range(100), 40)))):
        types = [parse_type("BIGINT" if i % 3 else "STRING") for i in range(arity)]
        values = [None if i in nulls else (i * 2**40 + 5 if i % 3 else f"s{i}") for i in range(arity)]
        data = paimon.encode_binary_row(values, types)
        assert paimon.decode_binary_row(data, types) == values
        rows.append((arity, nulls, data))
        (tmp_path / f"row{arity}.bin").write_bytes(data)
    outs = webide_parse("formats/paimon/paimon_binary_row.ksy", [tmp_path / f"row{a}.bin" for a, _, _ in rows])
    for out, (arity, nulls, _) in zip(outs, rows, strict=True):
        assert out["ok"], out["error"]
        slots = out["tree"]["row"]["slots"]
        assert len(slots) == arity
        assert {i for i, s in enumerate(slots) if s["is_null"]} == nulls, arity
