"""A few bytes may not make levels or values allocate gigabytes: one RLE run of 2^31-1 nulls."""

from __future__ import annotations

import tracemalloc

import pytest

import lakestruct as ls
from lakestruct.thrift.compact import BINARY, I32, I64, LIST, STRUCT, Encoder, RawList


def all_null_file(n_values: int, pad: int) -> bytes:
    """One optional INT32 column, one v1 page whose definition levels are a single RLE run of zeros."""
    rle = Encoder.varint(n_values << 1) + b"\x00"
    body = len(rle).to_bytes(4, "little") + rle + b"\x00" * pad
    data_page_header = {1: (I32, n_values), 2: (I32, 0), 3: (I32, 3), 4: (I32, 3)}  # PLAIN values, RLE levels
    header = {1: (I32, 0), 2: (I32, len(body)), 3: (I32, len(body)), 5: (STRUCT, data_page_header)}
    e = Encoder()
    e.struct(header)
    chunk = e.getvalue() + body
    schema = [{4: (BINARY, b"schema"), 5: (I32, 1)}, {1: (I32, 1), 3: (I32, 1), 4: (BINARY, b"a")}]
    meta = {1: (I32, 1), 2: (LIST, RawList(I32, [0, 3])), 3: (LIST, RawList(BINARY, [b"a"])), 4: (I32, 0), 5: (I64, n_values),
            6: (I64, len(chunk)), 7: (I64, len(chunk)), 9: (I64, 4)}
    column = {2: (I64, 4), 3: (STRUCT, meta)}
    rg = {1: (LIST, RawList(STRUCT, [column])), 2: (I64, len(chunk)), 3: (I64, n_values)}
    e = Encoder()
    e.struct({1: (I32, 1), 2: (LIST, RawList(STRUCT, schema)), 3: (I64, n_values), 4: (LIST, RawList(STRUCT, [rg]))})
    footer = e.getvalue()
    return b"PAR1" + chunk + footer + len(footer).to_bytes(4, "little") + b"PAR1"


def test_a_small_file_declaring_billions_of_values_is_refused() -> None:
    data = all_null_file(2**31 - 1, 200_000)
    assert len(data) < 300_000
    pq = ls.parquet.open(data)
    assert pq.check() == 1  # structurally it is a valid file
    tracemalloc.start()
    try:
        for fn in (lambda: pq.levels(0), lambda: pq.values(0)):
            with pytest.raises(ls.LimitError) as ei:
                fn()
            assert ei.value.rule == "parquet.page.num-values"
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20


def test_the_same_shape_at_a_plausible_size_decodes() -> None:
    pq = ls.parquet.open(all_null_file(20_000, 0))
    (chunk,) = pq.levels(0)
    assert chunk.definition_levels.tolist() == [0] * 20_000
    assert pq.values(0) == [None] * 20_000


def nested_groups_file(depth: int) -> bytes:
    """An empty file whose single leaf sits under ``depth`` optional groups."""
    group = {3: (I32, 1), 4: (BINARY, b"g"), 5: (I32, 1)}
    schema = [{4: (BINARY, b"r"), 5: (I32, 1)}] + [group] * depth + [{1: (I32, 1), 3: (I32, 1), 4: (BINARY, b"a")}]
    e = Encoder()
    e.struct({1: (I32, 1), 2: (LIST, RawList(STRUCT, schema)), 3: (I64, 0), 4: (LIST, RawList(STRUCT, []))})
    footer = e.getvalue()
    return b"PAR1" + footer + len(footer).to_bytes(4, "little") + b"PAR1"


def test_schema_depth_is_bounded() -> None:
    ok = ls.parquet.open(nested_groups_file(200))
    (leaf,) = ok.columns()
    assert leaf.max_definition_level == 201 and len(leaf.path) == 201
    deep = ls.parquet.open(nested_groups_file(20_000))  # 160 KB: quadratic paths would take gigabytes
    for fn in (deep.columns, deep.check, lambda: ls.parquet.read_rows(deep, "g")):
        with pytest.raises(ls.LimitError) as ei:
            fn()
        assert ei.value.rule == "parquet.schema-depth"
