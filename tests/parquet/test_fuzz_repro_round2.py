"""The Parquet inputs of the second fuzzing campaign (``../shared/fuzz-repro-round2``, read in place; see its README).

- ``parquet_values_python_objects_2GB.parquet`` (33 KB declaring 33.6M values) and ``parquet_values_floor_131B.parquet``
  (131 B, 4M values): ``values`` / ``read_rows`` / ``parquet values --rows`` built one Python object per value
  (2.1 GB and 306 MiB); a call returning one list now has an object budget (``parquet.values.object-limit``), and
  ``iter_values`` / ``parquet values`` stream.
- ``parquet_decimal_bytearray_quadratic.parquet``: a DECIMAL(1, 0) value of 300 KB took 30 s (int -> Decimal is
  quadratic); a value longer than its precision needs is ``parquet.values.decimal-length`` (pyarrow refuses it too).
- ``parquet_index_cli_indexerror.parquet``: ``parquet index`` on a row group with more chunks than leaves raised
  IndexError; it is ``parquet.row-group-columns``, as ``check()`` says.
"""

from __future__ import annotations

import dataclasses
import decimal
import io
import itertools
import json
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

import lakestruct as ls
from lakestruct.parquet.assembly import decimal_bytes
from lakestruct.parquet.index import column_index, column_index_bounds, offset_index
from lakestruct.parquet.values import MIN_OBJECT_CAP, iter_values, read_rows

pa = pytest.importorskip("pyarrow")
papq = pytest.importorskip("pyarrow.parquet")

OBJECTS_2GB = "parquet_values_python_objects_2GB.parquet"
FLOOR_131B = "parquet_values_floor_131B.parquet"
DECIMAL = "parquet_decimal_bytearray_quadratic.parquet"
INDEX = "parquet_index_cli_indexerror.parquet"

_PROBE = """
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
import lakestruct as ls
from lakestruct.parquet.values import read_rows
pq = ls.parquet.open(sys.argv[1])
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
calls = {"levels": lambda: pq.levels(0), "values": lambda: pq.values(0), "raw": lambda: pq.values(0, python=False),
         "rows": lambda: read_rows(pq, 0)}
out = {}
for name, call in calls.items():
    t = time.perf_counter()
    try:
        call()
        rule = "ok"
    except ls.FormatError as e:
        rule = e.rule
    out[name] = [rule, time.perf_counter() - t]
out["grew_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base
print(json.dumps(out))
"""


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from lakestruct.cli import main

    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize("name", [OBJECTS_2GB, FLOOR_131B])
def test_lists_of_python_objects_are_budgeted(fuzz_round2: Path, name: str) -> None:
    proc = subprocess.run([sys.executable, "-c", _PROBE, str(fuzz_round2 / name)], capture_output=True, text=True, timeout=300,
                          check=True)
    out = json.loads(proc.stdout)
    # levels are NumPy arrays (2 bytes a level): within the count budget; the three list-returning calls are refused
    # from the page headers, before a page is decoded
    assert {k: v[0] for k, v in out.items() if k != "grew_kib"} == {
        "levels": "ok", "values": "parquet.values.object-limit", "raw": "parquet.values.object-limit",
        "rows": "parquet.values.object-limit",
    }  # fmt: skip
    assert max(v[1] for k, v in out.items() if k not in ("grew_kib", "levels")) < 2.0  # seconds (17-90 s before)
    assert out["grew_kib"] < 160 * 1024  # peak RSS grew by less than 160 MiB (2.1 GB and 306 MiB before)


def test_the_cli_streams_values_and_refuses_rows(fuzz_round2: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(fuzz_round2 / OBJECTS_2GB)
    t = time.perf_counter()
    rc, out, _ = _cli(["parquet", "values", path, "--column", "0", "--limit", "3"], capsys)
    assert rc == 0 and out.count("123456789") == 3 and "33599997 more" in out
    assert time.perf_counter() - t < 5
    rc, out, err = _cli(["parquet", "values", path, "--column", "0", "--rows"], capsys)
    assert (rc, out) == (1, "") and "parquet.values.object-limit" in err and "Traceback" not in err
    # the library generator takes the same values page by page, in constant memory
    pq = ls.parquet.open(path)
    tracemalloc.start()
    try:
        first = [e.value for e in itertools.islice(iter_values(pq, 0), 50_000)]  # three pages of 24,000
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert set(first) == {123456789} and len(first) == 50_000
    assert peak < 40 << 20


def test_iter_values_still_meets_the_byte_budget(corpus: Path) -> None:
    # round one's 4M references to one 1,000-byte string: the object budget refuses the list (above), the stream
    # is refused by the materialised-bytes budget before it builds the strings
    pq = ls.parquet.open(corpus / "fuzz-repro" / "crafted_dict_string_bomb.parquet")
    with pytest.raises(ls.LimitError) as ei:
        next(iter_values(pq, 0))
    assert ei.value.rule == "parquet.values.size-limit"


def test_a_legitimately_repetitive_column_reads_with_max_values(tmp_path: Path) -> None:
    n = MIN_OBJECT_CAP + 200_000  # one value over 1.2M rows: a few KB of RLE dictionary indices
    path = tmp_path / "constant.parquet"
    papq.write_table(pa.table({"s": pa.array(["same"] * n)}), path)
    assert path.stat().st_size * 16 < n
    pq = ls.parquet.open(path)
    with pytest.raises(ls.LimitError) as ei:
        pq.values("s")
    assert ei.value.rule == "parquet.values.object-limit" and "max_values=" in ei.value.message
    got = pq.values("s", max_values=n)
    assert got == papq.read_table(path).column(0).to_pylist()
    assert sum(1 for _ in iter_values(pq, "s")) == n  # streaming needs no option


def test_decimal_bytes_match_the_precision() -> None:
    # the largest unscaled value of each precision, two's complement, fits decimal_bytes(p) and not one byte fewer
    for p in range(1, 80):
        need = ((10**p - 1).bit_length() + 1 + 7) // 8
        assert decimal_bytes(p) == need, p
    assert decimal_bytes(38) == 16 and decimal_bytes(76) == 32


def test_an_oversized_byte_array_decimal_is_a_named_error(fuzz_round2: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = fuzz_round2 / DECIMAL
    with pytest.raises(pa.ArrowInvalid, match="Invalid BYTE_ARRAY length"):  # the oracle refuses the file too
        papq.read_table(path)
    pq = ls.parquet.open(path)
    t = time.perf_counter()
    calls = [lambda: pq.values(0), lambda: list(iter_values(pq, 0)), lambda: read_rows(pq, 0)]
    for i, call in enumerate(calls):
        with pytest.raises(ls.FormatError) as ei:
            call()
        e = ei.value
        assert e.rule == "parquet.values.decimal-length" and "300000 bytes" in e.message and e.source == str(path)
        if i < 2:  # the leaf readers locate the page; rows assembly names the schema element
            assert e.path == "row_groups[0].columns[0].pages[0].values" and e.offset == 25
    assert time.perf_counter() - t < 2  # 30 s each before
    assert len(pq.values(0, python=False)[0]) == 300_000  # the raw bytes stay readable
    rc, _, err = _cli(["parquet", "values", str(path), "--column", "0"], capsys)
    assert rc == 1 and "parquet.values.decimal-length" in err and "Traceback" not in err


def _precision(data: bytes, p: int) -> bytes:
    """``data`` with its first leaf's DECIMAL precision set to ``p`` (the element's and its logical type's)."""
    from tests.parquet.test_fuzz_repro import _patch_schema

    el = ls.parquet.open(data).metadata.schema[1]
    lt = el.logicalType
    assert lt is not None and lt.DECIMAL is not None
    return _patch_schema(data, 1, precision=p, logicalType=dataclasses.replace(lt, DECIMAL=dataclasses.replace(lt.DECIMAL, precision=p)))


def test_sign_extended_decimals_still_read() -> None:
    vals = [decimal.Decimal("9.9"), decimal.Decimal("-9.9"), decimal.Decimal("0.1"), None]
    data = io.BytesIO()
    papq.write_table(pa.table({"d": pa.array(vals, pa.decimal128(2, 1))}), data)
    pq = ls.parquet.open(data.getvalue())
    assert pq.values(0) == vals == papq.read_table(io.BytesIO(data.getvalue())).column(0).to_pylist()
    # FIXED_LEN_BYTE_ARRAY(16) values for DECIMAL(2, 1), as writers that pad small precisions store them: 15 bytes of
    # sign extension, not digits, so they are read (pyarrow reads them too)
    buf = io.BytesIO()
    papq.write_table(pa.table({"d": pa.array(vals, pa.decimal128(38, 1))}), buf)
    patched = _precision(buf.getvalue(), 2)
    assert ls.parquet.open(patched).values(0) == vals == papq.read_table(io.BytesIO(patched)).column(0).to_pylist()


def test_index_bounds_keep_an_oversized_decimal_as_bytes() -> None:
    buf = io.BytesIO()
    papq.write_table(pa.table({"d": pa.array([decimal.Decimal("123456789012345678901234567890.12")], pa.decimal128(38, 2))}),
                     buf, write_page_index=True)
    patched = _precision(buf.getvalue(), 3)  # 16 bytes of digits for a precision that needs 2
    pq = ls.parquet.open(patched)
    bounds = column_index_bounds(pq, 0, 0)
    assert bounds is not None and all(isinstance(v, bytes) and len(v) == 16 for v in bounds[0] + bounds[1])
    assert [w.rule for w in pq.warnings] == ["parquet.values.decimal-length"] * 2


def test_a_row_group_with_more_chunks_than_leaves(fuzz_round2: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = fuzz_round2 / INDEX
    pq = ls.parquet.open(path)
    leaves, chunks = len(pq.columns()), len(pq.metadata.row_groups[0].columns)
    assert chunks > leaves  # what the README says the input is
    with pytest.raises(ls.FormatError) as ei:
        pq.check()
    want = (ei.value.rule, ei.value.path)
    assert want == ("parquet.row-group-columns", "footer.row_groups[0].columns")
    for call in (column_index, offset_index, column_index_bounds):
        with pytest.raises(ls.FormatError) as ei:
            call(pq, 0, 0)
        assert (ei.value.rule, ei.value.path) == want
    for extra in ([], ["--json"], ["--column", "0"]):
        rc, _, err = _cli(["parquet", "index", str(path), *extra], capsys)
        assert rc == 1 and "parquet.row-group-columns" in err and "Traceback" not in err, extra
