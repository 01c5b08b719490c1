"""Regression tests for the Parquet and Thrift inputs of ``corpus/fuzz-repro`` (issue 8), read in place.

Each input once ended in an uncaught exception, unbounded memory, or a disagreement between
two decoders that should agree; each test names what must happen now.
"""

from __future__ import annotations

import dataclasses
import decimal
import io
import struct
from pathlib import Path
from typing import Any

import pytest

import lakestruct as ls
from lakestruct.errors import FormatError
from lakestruct.parquet import model as m
from lakestruct.parquet.pages import scan_pages, scan_pages_py
from lakestruct.parquet.read import Page, decode_page_header
from lakestruct.parquet.values import read_rows
from lakestruct.thrift import compact
from lakestruct.thrift import kaitai as thrift_kaitai
from lakestruct.thrift.typed import compiled_plan, decode_model_py, to_raw

pa = pytest.importorskip("pyarrow")
papq = pytest.importorskip("pyarrow.parquet")


@pytest.fixture(scope="module")
def repro(corpus: Path) -> Path:
    d = corpus / "fuzz-repro"
    if not d.is_dir():
        pytest.skip(f"{d} is absent")
    return d


# -- Thrift: the fast and Kaitai engines, the compiled and pure twins ----------------------------------


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("thrift_DIFF_page_header_fast_fe_FormatError_thrift.varint_N_page_header.N.N_kaitai_ok.bin", "page_header.5.3"),
        ("thrift_DIFF_page_header_fast_fe_FormatError_thrift.varint_N_page_header.N_kaitai_ok.bin", "page_header.1"),
    ],
)
def test_an_i32_out_of_range_is_refused_by_both_engines(repro: Path, name: str, path: str) -> None:
    # a 10-byte varint in an i32 field: zigzag gives -2^63. The fast decoder (both twins) refused it,
    # the Kaitai engine accepted it; now both name the same rule and field.
    data = (repro / name).read_bytes()
    errors = []
    for engine in ("fast", "kaitai"):
        with pytest.raises(FormatError) as ei:
            decode_page_header(data, 0, path="page_header", engine=engine)
        errors.append((ei.value.rule, ei.value.path))
    with pytest.raises(FormatError) as ei:
        decode_model_py(m.PageHeader, data, 0, path="page_header")
    errors.append((ei.value.rule, ei.value.path))
    assert errors == [("thrift.varint", path)] * 3
    # the generic struct decoders agree too
    for decode in (compact.decode_struct, compact.decode_struct_py, thrift_kaitai.decode_struct):
        with pytest.raises(FormatError, match="out of range"):
            decode(data, 0)


def test_kaitai_engine_refuses_varints_over_64_bits() -> None:
    # 10 bytes whose last group carries more than the one bit a 64-bit value leaves
    over = bytes([0xFF] * 9 + [0x03])
    data = bytes([0x16]) + over + b"\x00"  # field 1, i64
    for decode in (compact.decode_struct_py, thrift_kaitai.decode_struct):
        with pytest.raises(FormatError) as ei:
            decode(data, 0)
        assert ei.value.rule == "thrift.varint"
    ok = bytes([0x16]) + bytes([0xFF] * 9 + [0x01]) + b"\x00"  # 2^64 - 1 still fits
    assert thrift_kaitai.decode_struct(ok, 0) == compact.decode_struct_py(ok, 0)


def test_scan_twins_take_the_same_pages_in_bulk(repro: Path) -> None:
    # a header with field 2 twice: the compiled scan declined it (stopped at 0), the pure scan took it
    data = (repro / "thrift_DIFF_scan_pages_compiled_reached_N_with_N_pages_py_N_with_N.bin").read_bytes()
    py = scan_pages_py(data, 0, 0, len(data), 0, 0, 0, Page)
    assert (len(py[0]), py[1]) == (1, 22)
    assert py[0][0].header.compressed_page_size == 6
    assert scan_pages(data, 0, 0, len(data), 0, 0, 0, Page) == py
    if compact._compiled is not None:
        assert compact._compiled.scan_pages(data, 0, 0, len(data), 0, 0, 0, Page, compiled_plan(m.PageHeader)) == py


def test_a_map_count_of_2_63_plus_1_is_refused_everywhere(repro: Path) -> None:
    # unknown footer field 30: map<i32,i32> with 2^63 + 1 entries. The compiled twin computed
    # 2 * n in 64 bits (= 2) and accepted an empty map; every decoder now refuses it.
    path = repro / "thrift_map_count_wrap_footer.parquet"
    data = path.read_bytes()
    for engine in ("fast", "kaitai"):
        with pytest.raises(FormatError) as ei:
            ls.parquet.open(path, engine=engine)
        assert ei.value.rule in ("thrift.length", "thrift.truncated")  # Kaitai reads entries until the input ends
        assert ei.value.path == "footer" if engine == "kaitai" else ei.value.path == "footer.30"
    flen = int.from_bytes(data[-8:-4], "little")
    footer = data[-8 - flen : -8]
    with pytest.raises(FormatError, match="map of 9223372036854775809 entries"):
        compact.decode_struct_py(footer, 0)
    if compact._compiled is not None:
        assert compact._compiled.decode_struct(footer, 0, len(footer)) is None  # declined: the pure path names it
    with pytest.raises(FormatError, match="map of 9223372036854775809 entries"):
        compact.decode_struct(footer, 0)


# -- the data layer: a row group short of column chunks ------------------------------------------------

ROW_GROUP_SHORT = "pq_data_builtins.IndexError_lakestruct_parquet_read.py_389_column_chunk.bin"


def test_a_row_group_without_the_leaf_s_chunk_is_a_format_error(repro: Path) -> None:
    path = repro / ROW_GROUP_SHORT
    pq = ls.parquet.open(path)
    assert len(pq.columns()) == 1 and len(pq.metadata.row_groups[0].columns) == 0
    calls = (
        lambda: pq.levels(0),
        lambda: pq.values(0),
        lambda: pq.values(0, python=False),
        lambda: ls.parquet.values.read_rows(pq, "x"),
        lambda: list(ls.parquet.values.iter_values(pq, 0)),
        lambda: pq.column_chunk(0, 0),
        pq.check,
    )
    for call in calls:
        with pytest.raises(FormatError) as ei:
            call()
        assert (ei.value.rule, ei.value.path, ei.value.offset) == (
            "parquet.row-group-columns",
            "footer.row_groups[0].columns",
            pq.footer.offset,
        )
    with pytest.raises(IndexError):  # a column the schema does not have is still a usage error
        pq.column_chunk(0, 1)
    # pyarrow refuses the file too
    with pytest.raises(OSError, match="0 columns"):
        papq.read_table(path)


# -- the data layer: annotations that do not fit the column --------------------------------------------
# pyarrow is the oracle. It reads a logicalType that does not apply to the physical type as if it were
# absent (raw values), and refuses a converted_type that does not apply and impossible DECIMAL
# parameters. lakestruct does the same: raw values plus a parquet.schema.annotation warning, or a named
# error (values(python=False) still returns the raw values: only the conversion needs the annotation).

DECIMAL_SCALE_FILES = [
    ("crafted_decimal_scale.parquet", 0, "schema[1].scale"),
    ("crafted_decimal_flba_scale_neg.parquet", 0, "schema[1].scale"),
    ("pq_data_decimal.InvalidOperation_lakestruct_parquet_assembly.py_148_lambda_.bin", 1, "schema[2].logicalType.DECIMAL.scale"),
    ("pq_data_decimal.InvalidOperation_lakestruct_parquet_assembly.py_149_lambda_.bin", 0, "schema[1].logicalType.DECIMAL.scale"),
]


@pytest.mark.parametrize(("name", "col", "where"), DECIMAL_SCALE_FILES)
def test_an_impossible_decimal_scale_is_a_named_error(repro: Path, name: str, col: int, where: str) -> None:
    path = repro / name
    pq = ls.parquet.open(path)
    raw = pq.values(col, python=False)  # the stored integers are fine
    assert len(raw) > 0 and any(v is not None for v in raw)
    for call in (lambda: pq.values(col), lambda: read_rows(pq, col), lambda: list(ls.parquet.values.iter_values(pq, col))):
        with pytest.raises(FormatError) as ei:
            call()
        assert (ei.value.rule, ei.value.path, ei.value.offset) == ("parquet.schema.decimal", where, pq.footer.offset)
    with pytest.raises(OSError, match=r"(?i)scale"):
        papq.read_table(path)


INT96_DECIMAL = "pq_data_builtins.ValueError_lakestruct_parquet_assembly.py_149_lambda_.bin"


def test_int96_annotated_decimal_and_uuid_reads_as_pyarrow_s_timestamps(repro: Path) -> None:
    # INT96 with converted_type DECIMAL and logicalType UUID: UUID decides and does not apply to INT96,
    # so the column is the INT96 timestamp pyarrow reads (int(bytes) raised ValueError before)
    path = repro / INT96_DECIMAL
    pq = ls.parquet.open(path)
    got = pq.values(0)
    [w] = pq.warnings
    assert (w.rule, w.path, w.offset) == ("parquet.schema.annotation", "schema[1].logicalType", pq.footer.offset)
    assert "UUID does not apply to INT96" in w.message
    raw = pq.values(0, python=False)
    want = papq.ParquetFile(path).read().column(0)
    assert pa.types.is_timestamp(want.type)
    want_ns = want.cast(pa.int64()).to_pylist()
    assert len(got) == len(want_ns) == 400
    # pyarrow returns 0 for Julian day 0 (an all-zero INT96); every other value agrees bit for bit
    checked = [(g, x) for g, x, r in zip(got, want_ns, raw, strict=True) if r is None or r[8:] != bytes(4)]
    assert checked and all(g == x for g, x in checked)
    assert [g is None for g in got] == [x is None for x in want_ns]


@pytest.mark.parametrize(
    ("name", "length"),
    [("crafted_float16_type_length3.parquet", 3), ("pq_data_builtins.ValueError_lakestruct_parquet_assembly.py_156_lambda_.bin", 1)],
)
def test_float16_on_a_fixed_len_byte_array_not_of_2_bytes_stays_raw(repro: Path, name: str, length: int) -> None:
    path = repro / name
    pq = ls.parquet.open(path)
    got = pq.values(0)
    want = papq.read_table(path).column(0)
    assert want.type == pa.binary(length)  # pyarrow ignores the annotation
    assert got == want.to_pylist() == pq.values(0, python=False)
    assert read_rows(pq, 0) == want.to_pylist()
    assert {(w.rule, w.path) for w in pq.warnings} == {("parquet.schema.annotation", "schema[1].logicalType")}


def test_a_file_with_two_leaves_of_one_name_reads_by_position(repro: Path) -> None:
    # two top-level leaves named double_plain (FLOAT16 on FLBA(2), and DOUBLE): values() found the
    # first one by name and fed it the DOUBLE's floats (TypeError)
    path = repro / "pq_data_builtins.TypeError_lakestruct_parquet_assembly.py_156_lambda_.bin"
    pq = ls.parquet.open(path)
    table = papq.ParquetFile(path).read()
    names = [c.name for c in pq.columns()]
    assert names.count("double_plain") == 2
    for i in range(table.num_columns):
        want = table.column(i).to_pylist()
        assert read_rows(pq, i) == want, names[i]
        assert pq.values(i) == want, names[i]
    assert table.column(0).type == pa.float16() and table.column(4).type == pa.float64()
    assert pq.warnings == []
    with pytest.raises(KeyError, match="2 top-level fields are named 'double_plain'"):
        read_rows(pq, "double_plain")


DUPLICATE_NAME = "crafted_duplicate_field_name.parquet"


def test_a_group_named_like_a_leaf_reads_by_position(repro: Path) -> None:
    # group "st" renamed "id", like the first top-level leaf: values(1) walked into the leaf (StopIteration)
    path = repro / DUPLICATE_NAME
    pq = ls.parquet.open(path)
    table = papq.ParquetFile(path).read()
    assert [f.name for f in table.schema][:2] == ["id", "id"]
    for i in range(table.num_columns):
        assert read_rows(pq, i) == table.column(i).to_pylist()
    rows = table.column(1).to_pylist()  # leaf id.a (1), id.b (2), id.c.d (3) against pyarrow's struct
    assert pq.values(1) == [None if r is None else r["a"] for r in rows]
    assert pq.values(2) == [None if r is None else r["b"] for r in rows]
    assert pq.values(3) == [None if r is None or r["c"] is None else r["c"]["d"] for r in rows]


def test_stop_iteration_file_reads_like_pyarrow(repro: Path) -> None:
    # top-level leaf DocId and a repeated group DocId: leaves 3 and 4 (DocId.Language.Code/Country)
    path = repro / "pq_data_builtins.StopIteration_lakestruct_parquet_values.py_679_column_values.bin"
    pq = ls.parquet.open(path)
    assert [c.name for c in pq.columns()][3:5] == ["DocId.Language.Code", "DocId.Language.Country"]
    assert pq.values(3) == [None if v is None else v.decode() for v in pq.values(3, python=False)]
    assert all(isinstance(v, str) for v in pq.values(3) if v is not None) and len(pq.values(4)) == 5
    assert read_rows(pq, 1) == papq.ParquetFile(path).read(columns=["Links"]).column(0).to_pylist()
    for call in (lambda: pq.values(5), lambda: read_rows(pq, 2)):  # DocId.Url's page is corrupt: so says pyarrow
        with pytest.raises(FormatError) as ei:
            call()
        assert ei.value.rule == "parquet.levels.encoding"
    with pytest.raises(OSError, match="Unknown encoding type for levels"):
        papq.ParquetFile(path).read()


def _write(table: Any, **kw: Any) -> bytes:
    b = io.BytesIO()
    papq.write_table(table, b, store_schema=False, **kw)
    return b.getvalue()


def _patch_schema(data: bytes, index: int, **changes: Any) -> bytes:
    """``data`` with FileMetaData.schema[index] changed (the footer re-encoded, the pages kept)."""
    pq = ls.parquet.open(data)
    schema = list(pq.metadata.schema)
    schema[index] = dataclasses.replace(schema[index], **changes)
    footer = compact.encode_struct(to_raw(dataclasses.replace(pq.metadata, schema=tuple(schema))))
    return data[: pq.footer.offset] + footer + struct.pack("<i", len(footer)) + b"PAR1"


def _pyarrow(data: bytes) -> Any:
    try:
        return papq.read_table(io.BytesIO(data)).column(0).to_pylist()
    except (OSError, pa.ArrowInvalid):
        return "refused"


def _ours(data: bytes) -> Any:
    pq = ls.parquet.open(data)
    try:
        got = pq.values(0)
    except FormatError as e:
        return "refused", e.rule, [w.rule for w in pq.warnings]
    assert read_rows(pq, 0) == got
    return got, [w.rule for w in pq.warnings]


DEC = m.LogicalType(DECIMAL=m.DecimalType(scale=2, precision=9))


@pytest.mark.parametrize(
    ("values", "changes", "want"),
    [
        # logical type that does not apply: ignored by pyarrow, raw values + a warning here
        (pa.array([1.5, 2.5]), {"logicalType": m.LogicalType(FLOAT16=m.Empty())}, ([1.5, 2.5], ["parquet.schema.annotation"])),
        (pa.array([1, 2], pa.int32()), {"logicalType": m.LogicalType(FLOAT16=m.Empty())}, ([1, 2], ["parquet.schema.annotation"])),
        (pa.array([1.5, 2.5]), {"logicalType": DEC}, ([1.5, 2.5], ["parquet.schema.annotation"])),
        (pa.array([1, 2], pa.int32()), {"logicalType": m.LogicalType(STRING=m.Empty())}, ([1, 2], ["parquet.schema.annotation"])),
        # converted type that does not apply, impossible DECIMAL parameters: refused by both
        (
            pa.array([1.5, 2.5]),
            {"converted_type": m.ConvertedType.DECIMAL, "scale": 2, "precision": 9},
            ("refused", "parquet.schema.annotation", []),
        ),
        (pa.array([1, 2], pa.int32()), {"converted_type": m.ConvertedType.UTF8}, ("refused", "parquet.schema.annotation", [])),
        (pa.array([1, 2], pa.int32()), {"converted_type": m.ConvertedType.DECIMAL, "scale": 1}, ("refused", "parquet.schema.decimal", [])),
        (
            pa.array([1, 2], pa.int32()),
            {"logicalType": m.LogicalType(DECIMAL=m.DecimalType(scale=-1, precision=9))},
            ("refused", "parquet.schema.decimal", []),
        ),
        (
            pa.array([1.5]),
            {"logicalType": m.LogicalType(DECIMAL=m.DecimalType(scale=10, precision=9))},
            ("refused", "parquet.schema.decimal", []),
        ),
        # annotations that apply
        (
            pa.array([1, 2], pa.int32()),
            {"converted_type": m.ConvertedType.DECIMAL, "scale": 1, "precision": 9},
            ([decimal.Decimal("0.1"), decimal.Decimal("0.2")], []),
        ),
        (pa.array([b"\x00\x3c", b"\x00\xc0"], pa.binary(2)), {"logicalType": m.LogicalType(FLOAT16=m.Empty())}, ([1.0, -2.0], [])),
    ],
)
def test_annotations_read_as_pyarrow_reads_them(values: Any, changes: dict[str, Any], want: Any) -> None:
    data = _patch_schema(_write(pa.table({"a": values})), 1, **changes)
    got = _ours(data)
    assert got == want
    oracle = _pyarrow(data)
    assert oracle == ("refused" if got[0] == "refused" else got[0])


def test_decimals_of_38_digits_are_exact() -> None:
    # Decimal.scaleb in the default context rounded to 28 digits
    vals = [decimal.Decimal("123456789012345678901234567890123456.78"), decimal.Decimal("-0.01"), None]
    for t in (pa.decimal128(38, 2), pa.decimal256(60, 2)):
        data = _write(pa.table({"a": pa.array(vals, t)}))
        assert ls.parquet.open(data).values(0) == vals == papq.read_table(io.BytesIO(data)).column(0).to_pylist()


# -- the data layer: memory the input does not justify --------------------------------------------------

_PROBE = """
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))  # the bombs reached 3 GB before
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


@pytest.mark.parametrize(
    ("name", "levels", "values"),
    [
        ("crafted_delta_byte_array_bomb.parquet", "ok", "parquet.values.size-limit"),  # 186 B -> 1 GB of values
        ("crafted_delta_byte_array_bomb_oom.parquet", "ok", "parquet.values.size-limit"),  # 203 B -> 3.5 GB
        # 1.1 KB -> 4M x a 1000-byte string: as one list, 4M objects are refused from the page headers (round two),
        # before the 4 GB they stand for (parquet.values.size-limit, which iter_values still meets: see below)
        ("crafted_dict_string_bomb.parquet", "ok", "parquet.values.object-limit"),
        ("crafted_page_count_amplification_levels.parquet", "parquet.values.count-limit", "parquet.values.count-limit"),
        ("crafted_page_count_amplification_values.parquet", "parquet.values.count-limit", "parquet.values.count-limit"),
    ],
)
def test_decoding_bombs_are_refused_before_they_allocate(repro: Path, name: str, levels: str, values: str) -> None:
    import json
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", _PROBE, str(repro / name)], capture_output=True, text=True, timeout=120, check=True)
    out = json.loads(proc.stdout)
    assert {k: v[0] for k, v in out.items() if k != "grew_kib"} == {"levels": levels, "values": values, "raw": values, "rows": values}
    assert max(v[1] for k, v in out.items() if k != "grew_kib") < 5.0  # seconds (12-19 s to a MemoryError before)
    assert out["grew_kib"] < 256 * 1024  # peak RSS grew by less than 256 MiB (3 GB before)


def test_max_values_reads_a_legitimately_dense_page() -> None:
    from tests.parquet.test_amplification import all_null_file

    pq = ls.parquet.open(all_null_file(5_000_000, 0))  # one 5M-null page in ~40 bytes: above the 4M floor
    with pytest.raises(ls.LimitError) as ei:
        pq.levels(0)
    assert ei.value.rule == "parquet.page.num-values"
    (chunk,) = pq.levels(0, max_values=6_000_000)
    assert len(chunk.definition_levels) == 5_000_000 and int(chunk.definition_levels.max()) == 0
    with pytest.raises(ls.LimitError) as ei:
        pq.levels(0, max_values=4_999_999)


def test_max_value_bytes_reads_legitimately_repetitive_strings() -> None:
    # 40,000 references to one 2,000-byte dictionary string: 80 MB of values from a few KB
    big = "x" * 1999 + "y"
    data = _write(pa.table({"s": [big] * 40_000}), compression="zstd")
    assert len(data) < 20_000
    pq = ls.parquet.open(data)
    with pytest.raises(ls.LimitError) as ei:
        pq.values(0, python=False)
    assert ei.value.rule == "parquet.values.size-limit" and ei.value.path.endswith(".values")
    raw = pq.values(0, python=False, max_value_bytes=100_000_000)
    assert len(raw) == 40_000 and set(raw) == {big.encode()}
    # the budget spans one call: two chunks of 40 MB each pass alone, not together
    data = _write(pa.table({"s": [big] * 40_000}), compression="zstd", row_group_size=20_000)
    pq = ls.parquet.open(data)
    assert len(pq.values(0, row_group=1, python=False)) == 20_000
    with pytest.raises(ls.LimitError):
        pq.values(0, python=False)


# -- the CLI ---------------------------------------------------------------------------------------------


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from lakestruct.cli import main

    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_bloom_hex_value_that_is_not_hex_is_a_usage_error(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = str(corpus / "parquet-testing/data/data_index_bloom_encoding_stats.parquet")
    rc, out, err = _cli(["parquet", "bloom", f, "--column", "0", "--value", "zz", "--hex"], capsys)
    assert (rc, out) == (2, "") and "'zz' is not hex bytes" in err and "Traceback" not in err
    rc, out, _ = _cli(["parquet", "bloom", f, "--column", "0", "--value", "48656c6c6f", "--hex", "--json"], capsys)
    assert rc == 0
    import json

    (chunk,) = json.loads(out)["chunks"]
    assert chunk["bloom_filter"]["probes"] == [{"value": "48656c6c6f", "might_contain": True}]  # "Hello" is in the column


@pytest.fixture(scope="module")
def many_pages(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """200,000 strings in some 400 data pages of one chunk."""
    path = tmp_path_factory.mktemp("pages") / "many_pages.parquet"
    papq.write_table(pa.table({"s": [f"value-{i:07d}" for i in range(200_000)]}), path, data_page_size=8 * 1024, use_dictionary=False)
    pq = ls.parquet.open(path)
    n = sum(1 for p in pq.pages() if p.is_data)
    assert n > 100
    return path, n


def test_values_limit_stops_decoding(
    many_pages: tuple[Path, int], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from lakestruct.parquet import values

    path, n_pages = many_pages
    decoded: list[int] = []
    real = values._data_page

    def counting(*a: Any, **kw: Any) -> Any:
        page = real(*a, **kw)
        decoded.append(page.index)
        return page

    monkeypatch.setattr(values, "_data_page", counting)
    rc, out, _ = _cli(["parquet", "values", str(path), "--column", "s", "--limit", "5"], capsys)
    assert rc == 0 and "value-0000004" in out and "value-0000005" not in out and "199995 more" in out
    assert decoded == [0]  # one page of some 400
    decoded.clear()
    rc, out, _ = _cli(["parquet", "values", str(path), "--column", "s", "--limit", "5", "--json"], capsys)
    import json

    doc = json.loads(out)
    assert [e["value"] for e in doc["entries"]] == [f"value-{i:07d}" for i in range(5)] and doc["num_values"] == 200_000
    assert decoded == [0]
    decoded.clear()
    rc, out, _ = _cli(["parquet", "values", str(path), "--column", "s"], capsys)
    assert rc == 0 and out.count("\n") == 200_000 + 3 and "value-0199999" in out
    assert len(decoded) == n_pages
    # the library generator reads one page body per page it decodes
    pq = ls.parquet.open(path)
    before = pq.source.reads
    entries = ls.parquet.values.iter_values(pq, "s")
    first = [next(entries) for _ in range(5)]
    assert [e.value for e in first] == [f"value-{i:07d}" for i in range(5)]
    assert pq.source.reads - before == 2  # the chunk's page headers (one read), the first page body
    assert sum(1 for _ in entries) == 200_000 - 5
    assert pq.source.reads - before == 1 + n_pages


_CLI_RSS = """
import contextlib, io, os, resource, sys
from lakestruct.cli import main
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
    rc = main(sys.argv[1:])
print(rc, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base)
"""


def test_values_streams_a_whole_column_in_little_memory(many_pages: tuple[Path, int]) -> None:
    import subprocess
    import sys

    path, _ = many_pages
    for extra in ([], ["--json"]):
        proc = subprocess.run(
            [sys.executable, "-c", _CLI_RSS, "parquet", "values", str(path), "--column", "s", *extra],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        rc, grew_kib = map(int, proc.stdout.split())
        # building every entry first took ~100 MB for these 200,000 values (13.6 GB for a 250 MB file)
        assert rc == 0 and grew_kib < 30 * 1024, extra
