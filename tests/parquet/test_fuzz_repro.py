"""Regression tests for the Parquet and Thrift inputs of ``corpus/fuzz-repro`` (issue 8), read in place.

Each input once ended in an uncaught exception, unbounded memory, or a disagreement between
two decoders that should agree; each test names what must happen now.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import lakestruct as ls
from lakestruct.errors import FormatError
from lakestruct.parquet import model as m
from lakestruct.parquet.pages import scan_pages, scan_pages_py
from lakestruct.parquet.read import Page, decode_page_header
from lakestruct.thrift import compact
from lakestruct.thrift import kaitai as thrift_kaitai
from lakestruct.thrift.typed import compiled_plan, decode_model_py


@pytest.fixture(scope="module")
def repro(corpus: Path) -> Path:
    d = corpus / "fuzz-repro"
    if not d.is_dir():
        pytest.skip(f"{d} is absent")
    return d


def _one(d: Path, pattern: str) -> Path:
    hits = sorted(d.glob(pattern))
    assert len(hits) == 1, (pattern, hits)
    return hits[0]


# -- Thrift: the fast and Kaitai engines, the compiled and pure twins ----------------------------------


@pytest.mark.parametrize(
    ("pattern", "path"),
    [
        ("thrift_DIFF_page_header_fast_fe_FormatError_thrift.varint_N_page_header.N.N_kaitai_ok.bin", "page_header.5.3"),
        ("thrift_DIFF_page_header_fast_fe_FormatError_thrift.varint_N_page_header.N_kaitai_ok.bin", "page_header.1"),
    ],
)
def test_an_i32_out_of_range_is_refused_by_both_engines(repro: Path, pattern: str, path: str) -> None:
    # a 10-byte varint in an i32 field: zigzag gives -2^63. The fast decoder (both twins) refused it,
    # the Kaitai engine accepted it; now both name the same rule and field.
    data = _one(repro, pattern).read_bytes()
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
    data = _one(repro, "thrift_DIFF_scan_pages_compiled_reached_*.bin").read_bytes()
    py = scan_pages_py(data, 0, 0, len(data), 0, 0, 0, Page)
    assert (len(py[0]), py[1]) == (1, 22)
    assert py[0][0].header.compressed_page_size == 6
    assert scan_pages(data, 0, 0, len(data), 0, 0, 0, Page) == py
    if compact._compiled is not None:
        assert compact._compiled.scan_pages(data, 0, 0, len(data), 0, 0, 0, Page, compiled_plan(m.PageHeader)) == py


def test_a_map_count_of_2_63_plus_1_is_refused_everywhere(repro: Path) -> None:
    # unknown footer field 30: map<i32,i32> with 2^63 + 1 entries. The compiled twin computed
    # 2 * n in 64 bits (= 2) and accepted an empty map; every decoder now refuses it.
    path = _one(repro, "thrift_map_count_wrap_footer.parquet")
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
