"""The Batcher joins the rows of consecutive input units (dicts, Rows, Columns, record batches) into record batches of
at most ``batch_rows`` rows, in order, with each row's ``file``; the oracle is ``pa.Table.from_pylist`` of the rows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.spark.rowsource import Batcher, Columns, Rows, RowSource, col

DATA = pa.schema([col("a", pa.int64(), "a"), col("b", pa.string(), "b")])
WITH_ERR = pa.schema([*DATA, col("error_rule", pa.string(), "rule")])

#: one unit: a list of chunks, each (kind, rows as (a, b) pairs)
unit = st.lists(st.tuples(st.sampled_from(["dict", "rows", "columns", "columns_err", "batch"]),
                          st.lists(st.tuples(st.integers(-5, 5), st.none() | st.text(max_size=3)), max_size=12)), max_size=4)


def _chunks(chunks: list[tuple[str, list[tuple[int, Any]]]]) -> Iterator[Any]:
    for kind, rows in chunks:
        if kind == "dict":
            yield from ({"a": a, "b": b} for a, b in rows)
        elif kind == "rows":
            yield Rows(DATA, rows)
        elif kind == "columns":
            yield Columns(DATA, [[a for a, _ in rows], [b for _, b in rows]])
        elif kind == "columns_err":
            yield Columns(WITH_ERR, [[a for a, _ in rows], [b for _, b in rows], ["r"] * len(rows)])
        else:
            yield pa.RecordBatch.from_pylist([{"a": a, "b": b} for a, b in rows], schema=DATA)


@settings(max_examples=200, deadline=None)
@given(units=st.lists(unit, max_size=6), batch_rows=st.integers(1, 9))
def test_batches_hold_the_rows_in_order(units: list[list[tuple[str, list[tuple[int, Any]]]]], batch_rows: int) -> None:
    by_path = {f"f{i}": u for i, u in enumerate(units)}
    source = RowSource(name="t", schema=lambda o: DATA, rows=lambda path, o: _chunks(by_path[path]))
    b = Batcher(source, {}, batch_rows=batch_rows)
    got: list[pa.RecordBatch] = []
    for path in by_path:
        got += list(b.add(path))
    got += list(b.finish())
    want = [{"file": path, "a": a, "b": b_, "error_rule": "r" if kind == "columns_err" else None}
            for path, u in by_path.items() for kind, rows in u for a, b_ in rows]
    rows = [{k: r[k] for k in ("file", "a", "b", "error_rule")} for batch in got for r in batch.to_pylist()]
    assert rows == want
    # joined batches (dicts, Rows, Columns) are cut at batch_rows; record batches pass through whole
    passed = sorted(len(rows) for u in units for kind, rows in u if kind == "batch" and len(rows) > batch_rows)
    for batch in got:
        batch.validate(full=True)
        assert batch.schema == b.schema and batch.num_rows > 0
    assert sorted(x.num_rows for x in got if x.num_rows > batch_rows) == passed
