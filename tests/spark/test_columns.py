"""The sources' column builders (lakestruct.spark.columns) against pyarrow's own conversion, and the executors' path
without pandas."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.spark import columns

MAP = pa.map_(pa.string(), pa.string())

CASES: list[tuple[list[Any], pa.DataType]] = [
    ([1, None, 3], pa.int32()),
    ([], pa.int64()),
    ([None], pa.int64()),
    ([2**63 - 1, -(2**63)], pa.int64()),
    ([2**64 - 1, 0], pa.uint64()),
    ([1.5, None, -0.0], pa.float64()),
    ([True, None, False], pa.bool_()),
    (["a", None, "é", "", "日本"], pa.string()),
    ([None, None], pa.string()),
    ([b"\x00", None, b"", b"\xff" * 3], pa.binary()),
    ([["a", "b"], None, [], [None]], pa.list_(pa.string())),
    ([[1], None, [None, 2], (3, 4)], pa.list_(pa.int32())),
    ([np.arange(3), None, np.arange(2), np.array([], np.int64)], pa.list_(pa.int64())),
    ([np.arange(3), np.arange(3)], pa.list_(pa.int64())),
    ([[("a", "b"), ("c", None)], None, [], {"x": "y"}], MAP),
]


@pytest.fixture(params=["compiled", "pure"])
def twin(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both builders: the compiled twin of the scalar columns (spark/_chunks_c) and the NumPy one."""
    if request.param == "pure":
        monkeypatch.setattr(columns, "_TWIN", None)
    elif columns._twin() is None:
        pytest.skip("the compiled twin spark/_chunks_c is not built")
    return str(request.param)


@pytest.mark.parametrize(("values", "type_"), CASES, ids=[f"{t}-{i}" for i, (_, t) in enumerate(CASES)])
def test_array_is_what_pyarrow_builds(values: list[Any], type_: pa.DataType, twin: str) -> None:
    got = columns.array(values, type_)
    got.validate(full=True)
    want = pa.array([list(v) if isinstance(v, np.ndarray) else v for v in values], type_)
    assert got.type == want.type and got.equals(want)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1))),
    st.lists(st.one_of(st.none(), st.text())),
    st.lists(st.one_of(st.none(), st.binary())),
    st.lists(st.one_of(st.none(), st.lists(st.one_of(st.none(), st.text(max_size=5)), max_size=4))),
    st.lists(st.one_of(st.none(), st.dictionaries(st.text(max_size=4), st.one_of(st.none(), st.text(max_size=4)), max_size=3))),
)
def test_random_columns_are_what_pyarrow_builds(ints: list[Any], texts: list[Any], blobs: list[Any], lists: list[Any],
                                                maps: list[Any]) -> None:  # fmt: skip
    i32 = [None if v is None else v % 2**31 for v in ints]
    floats = [None if v is None else v / 7 for v in ints]
    bools = [None if v is None else v % 2 == 0 for v in ints]
    cases = ((ints, pa.int64()), (i32, pa.int32()), (floats, pa.float64()), (bools, pa.bool_()), (texts, pa.string()),
             (blobs, pa.binary()), (lists, pa.list_(pa.string())), (maps, MAP))
    for pure in (False, True):  # the compiled builders (when built), then the NumPy ones
        saved = columns._TWIN
        if pure:
            columns._TWIN = None
        try:
            for values, t in cases:
                got = columns.array(values, t)
                got.validate(full=True)
                assert got.equals(pa.array(values, t)), (t, pure)
        finally:
            columns._TWIN = saved


def test_the_compiled_builders_leave_what_they_do_not_take_to_numpy() -> None:
    c = columns._twin()
    if c is None:
        pytest.skip("the compiled twin spark/_chunks_c is not built")
    assert c.int_column([1, 2**40], 4) is None and c.int_column([2**63], 8) is None and c.int_column([1.0], 8) is None
    assert c.float_column([1]) is None and c.bool_column([1]) is None
    assert c.str_column([b"x"], False) is None and c.str_column(["x"], True) is None and c.str_column(["\ud800"], False) is None
    assert columns.array([np.int64(3), None], pa.int64()).to_pylist() == [3, None]  # NumPy ints: the NumPy builder


def test_batch_is_from_pylist() -> None:
    schema = pa.schema([pa.field("a", pa.int64()), pa.field("m", MAP), pa.field("s", pa.string()), pa.field("l", pa.list_(pa.int32()))])
    rows = [{"a": 1, "m": [("k", "v")], "l": [1, 2]}, {"s": "z", "x": 9}, {}]
    assert columns.batch(rows, schema).equals(pa.RecordBatch.from_pylist(rows, schema=schema))
    odd = pa.schema([pa.field("d", pa.decimal128(5, 2))])  # a type the builders leave to pyarrow
    assert not columns.supported(odd.field("d").type)
    assert columns.batch([{"d": None}], odd).equals(pa.RecordBatch.from_pylist([{"d": None}], schema=odd))


def test_repeat_strings() -> None:
    for values, counts in ((["ab", "é"], [2, 3]), ([], []), (["x"], [0]), ([""], [3])):
        got = columns.repeat_strings(values, counts)
        got.validate(full=True)
        assert got.to_pylist() == [v for v, k in zip(values, counts, strict=True) for _ in range(k)]


def test_the_parquet_sources_import_no_pandas(corpus: Path) -> None:
    """The executors' path: pyarrow's ``pa.array`` imports pandas; the sources' rows are built without it."""
    code = (
        "import sys\n"
        "from lakestruct.spark.rowsource import plain_loop\n"
        "from lakestruct.spark.onepass import file_task\n"
        "from lakestruct.source import list_files\n"
        f"paths = [{str(corpus / 'parquet-testing')!r}]\n"
        "n = sum(b.num_rows for s in ('parquet_chunks', 'parquet_pages', 'lake_files') for b in plain_loop(s, paths))\n"
        "t = file_task(list_files(paths), {})\n"
        "assert n > 1000 and t['parquet_chunks'].num_rows > 100, n\n"
        "print('pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600)
    assert out.stdout.strip() == "False"


def test_the_inventory_in_this_process_imports_no_pandas(corpus: Path, tmp_path: Path) -> None:
    """The whole in-process inventory (reading, writing the tables, reading them back, the summary and the report)
    runs without pandas: importing it cost ~0.5 s of a small inventory."""
    out = tmp_path / "inv"
    code = (
        "import sys, contextlib, io\n"
        "from lakestruct.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        f"    rc = main(['inventory', {str(corpus / 'puffin-tools')!r}, {str(corpus / 'generated-seed1')!r}, '--out', {str(out)!r}, "
        "'--engine', 'local'])\n"
        "print(rc, 'pandas' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600)
    assert proc.stdout.split() == ["0", "False"], proc.stdout + proc.stderr[-2000:]
    assert (out / "report.html").is_file() and any((out / "parquet_pages").glob("*.parquet"))
