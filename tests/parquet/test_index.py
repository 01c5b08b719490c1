"""Page index: ColumnIndex / OffsetIndex against parquet-java's answers and pyarrow-written files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as papq
import pytest

import lakestruct as ls
from lakestruct.errors import FormatError
from lakestruct.parquet.index import check_offset_index
from lakestruct.parquet.model import enum_name


def test_generated_page_index_matches_expected(corpus: Path) -> None:
    base = corpus / "generated-seed1" / "parquet"
    files = json.loads((base / "expected.json").read_text())["files"]
    n = 0
    for name, fe in files.items():
        pq = ls.parquet.open(base / "files" / name)
        for rgi, rge in enumerate(fe["row_groups"]):
            for ci, ce in enumerate(rge["columns"]):
                cc = pq.column_chunk(rgi, ci)
                assert cc.column_index_offset == ce.get("column_index_offset")
                assert cc.offset_index_offset == ce.get("offset_index_offset")
                cie = ce.get("column_index")
                cix = pq.column_index(rgi, ci)
                if cie is None:
                    assert cix is None or ce.get("column_index_offset") is not None
                else:
                    assert cix is not None
                    assert enum_name(cix.boundary_order) == cie["boundary_order"]
                    assert list(cix.null_pages) == cie["null_pages"]
                    assert list(cix.null_counts or ()) == cie["null_counts"]
                    assert [v.hex() for v in cix.min_values] == cie["min_hex"]
                    assert [v.hex() for v in cix.max_values] == cie["max_hex"]
                    assert list(cix.repetition_level_histograms or ()) == cie["repetition_level_histogram"]
                    assert list(cix.definition_level_histograms or ()) == cie["definition_level_histogram"]
                    n += 1
                oie = ce.get("offset_index")
                oi = pq.offset_index(rgi, ci)
                if oie is not None:
                    assert oi is not None
                    locs = oi.page_locations
                    assert [x.offset for x in locs] == oie["offset"]
                    assert [x.compressed_page_size for x in locs] == oie["compressed_page_size"]
                    assert [x.first_row_index for x in locs] == oie["first_row_index"]
                    ub = oie.get("unencoded_byte_array_data_bytes")
                    if ub is not None and any(v is not None for v in ub):
                        assert list(oi.unencoded_byte_array_data_bytes or ()) == ub
                    check_offset_index(pq, rgi, ci)
    assert n > 50


def test_null_pages_quirk(corpus: Path) -> None:
    """int32_with_null_pages: list<bool> with element type 1 and false = 0x02, as parquet-mr and parquet-rs write it."""
    path = corpus / "parquet-testing" / "data" / "int32_with_null_pages.parquet"
    pq = ls.parquet.open(path)
    cix = pq.column_index(0, 0)
    assert cix is not None
    raw = path.read_bytes()[pq.column_chunk(0, 0).column_index_offset or 0 :][:2]
    assert raw == bytes.fromhex("19a1")  # list header: 10 elements of type 1
    assert len(cix.null_pages) == 10 and any(cix.null_pages) and not all(cix.null_pages)
    for page_null, mn in zip(cix.null_pages, cix.min_values, strict=True):
        if page_null:
            assert mn == b""


def test_page_index_of_pyarrow_file(tmp_path: Path) -> None:
    path = tmp_path / "pi.parquet"
    t = pa.table({"x": pa.array([i if i % 5 else None for i in range(3000)], pa.int64())})
    papq.write_table(t, path, write_page_index=True, data_page_size=1024, write_batch_size=100)
    pq = ls.parquet.open(path)
    cix, oi = pq.column_index(0, "x"), pq.offset_index(0, "x")
    assert cix is not None and oi is not None
    pages = [p for p in pq.pages(column="x") if p.is_data]
    assert len(oi.page_locations) == len(pages) > 3
    assert sum(cix.null_counts or ()) == 600
    check_offset_index(pq, 0, 0)


def test_page_index_errors(tmp_path: Path) -> None:
    path = tmp_path / "pi.parquet"
    papq.write_table(pa.table({"x": list(range(1000))}), path, write_page_index=True, data_page_size=512, write_batch_size=50)
    good = path.read_bytes()
    pq = ls.parquet.open(good)
    cc = pq.column_chunk(0, 0)
    assert cc.offset_index_offset is not None and cc.column_index_offset is not None
    # corrupt the first OffsetIndex byte -> a named Thrift/page-index error at or after its offset
    off = cc.offset_index_offset
    for v in (0x00, 0xFF):
        bad = good[:off] + bytes([v]) + good[off + 1 :]
        with pytest.raises(FormatError) as e:
            ls.parquet.open(bad).offset_index(0, 0)
        assert e.value.rule.startswith(("thrift.", "parquet.page-index")) and (e.value.offset or 0) >= off
    # an OffsetIndex that disagrees with the page walk
    from lakestruct.thrift import compact
    from lakestruct.thrift.typed import to_raw

    oi = pq.offset_index(0, 0)
    assert oi is not None
    import dataclasses

    loc0 = dataclasses.replace(oi.page_locations[1], offset=oi.page_locations[1].offset + 1)
    wrong = compact.encode_struct(to_raw(dataclasses.replace(oi, page_locations=(oi.page_locations[0], loc0, *oi.page_locations[2:]))))
    assert len(wrong) == cc.offset_index_length
    bad = good[:off] + wrong + good[off + len(wrong) :]
    with pytest.raises(FormatError) as e:
        check_offset_index(ls.parquet.open(bad), 0, 0)
    assert e.value.rule == "parquet.offset-index-pages"


def _pyarrow_bounds(st: Any) -> tuple[object, object]:
    """pyarrow's chunk statistics, as the values layer converts them: temporal types stay integers,
    FLOAT16 (bytes in pyarrow) becomes a float, strings str."""
    import struct

    lt = str(st.logical_type)
    if lt.startswith(("Date", "Time", "Timestamp")):
        return st.min_raw, st.max_raw
    if lt == "Float16":
        return struct.unpack("<e", st.min_raw)[0], struct.unpack("<e", st.max_raw)[0]
    return st.min, st.max


def _consistent(ours: object, theirs: object, *, upper: bool) -> bool:
    """Equal, or one of two byte-array bounds truncated by its writer: a lower bound is cut to a
    prefix, an upper bound to a prefix whose last byte is raised (parquet-java, parquet-rs)."""
    if ours == theirs:
        return True
    if not isinstance(ours, str | bytes) or type(ours) is not type(theirs):
        return False
    a, b = (x.encode() if isinstance(x, str) else x for x in (ours, theirs))
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return short >= long if upper else long.startswith(short)


def test_column_index_bounds_agree_with_pyarrow_statistics(corpus: Path) -> None:
    import math

    from lakestruct.parquet.index import column_index_bounds

    exact = truncated = 0
    for path in sorted(corpus.rglob("*.parquet")):
        if "fuzz-repro" in path.parts:
            continue
        try:
            pq = ls.parquet.open(path)
            meta = papq.ParquetFile(path).metadata
        except Exception:  # encrypted, or malformed on purpose
            continue
        for rg in range(pq.num_row_groups):
            for ci, desc in enumerate(pq.columns()):
                if pq.metadata.row_groups[rg].columns[ci].column_index_offset is None:
                    continue
                bounds = column_index_bounds(pq, rg, ci)
                st = meta.row_group(rg).column(ci).statistics
                assert bounds is not None
                if st is None or not st.has_min_max or desc.physical_type_name == "INT96":
                    continue
                mins = [v for v in bounds[0] if v is not None and not (isinstance(v, float) and math.isnan(v))]
                maxs = [v for v in bounds[1] if v is not None and not (isinstance(v, float) and math.isnan(v))]
                want = _pyarrow_bounds(st)
                got = (min(mins), max(maxs))
                where = f"{path.name} rg {rg} {desc.name}"
                assert _consistent(got[0], want[0], upper=False) and _consistent(got[1], want[1], upper=True), (where, got, want)
                exact += got == want
                truncated += got != want
        assert not [w for w in pq.warnings if w.rule == "parquet.column-index-value"], path
    assert exact > 400 and truncated < 20, (exact, truncated)


def test_index_cli_decodes_bounds_and_keeps_the_stored_bytes(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lakestruct.cli import main

    path = corpus / "parquet-testing/data/alltypes_tiny_pages.parquet"
    assert main(["parquet", "index", str(path), "--column", "string_col", "--row-group", "0", "--json"]) == 0
    (chunk,) = json.loads(capsys.readouterr().out)["chunks"]
    cix = chunk["column_index"]
    assert cix["min_values"][:2] == ["0", "0"] and cix["max_values"][:2] == ["9", "9"]
    assert cix["min_values_raw"][:2] == ["30", "30"] and cix["max_values_raw"][:2] == ["39", "39"]
    assert main(["parquet", "index", str(path), "--column", "id", "--row-group", "0", "--json"]) == 0
    cix = json.loads(capsys.readouterr().out)["chunks"][0]["column_index"]
    assert cix["min_values"][0] == 122 and cix["min_values_raw"][0] == (122).to_bytes(4, "little").hex()
    assert main(["parquet", "index", str(path), "--column", "id", "--row-group", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[3].split()[-2:] == ["122", "142"]  # page 0: min and max as numbers, not hex


def test_a_bound_of_the_wrong_width_is_a_warning(tmp_path: Path) -> None:
    import dataclasses
    import struct as st

    from lakestruct.parquet.index import column_index_bounds, decode_bound
    from lakestruct.thrift.compact import encode_struct
    from lakestruct.thrift.typed import to_raw

    with pytest.raises(FormatError) as ei:
        decode_bound(b"\x01\x02\x03", 1)
    assert ei.value.rule == "parquet.column-index-value"
    assert decode_bound(st.pack("<d", 2.5), 5) == 2.5 and decode_bound(b"\x01", 0) is True
    # a ColumnIndex whose INT32 min has 3 bytes, stored after the pages (the footer points at it)
    path = tmp_path / "x.parquet"
    papq.write_table(pa.table({"a": pa.array([1, 2, 3], pa.int32())}), path, write_page_index=True)
    data = path.read_bytes()
    pq = ls.parquet.open(data)
    cix = pq.column_index(0, 0)
    assert cix is not None
    bad = encode_struct(to_raw(dataclasses.replace(cix, min_values=(b"\x01\x00\x00",))))
    cc = pq.metadata.row_groups[0].columns[0]
    at = pq.footer.offset
    rg = dataclasses.replace(
        pq.metadata.row_groups[0], columns=(dataclasses.replace(cc, column_index_offset=at, column_index_length=len(bad)),)
    )
    footer = encode_struct(to_raw(dataclasses.replace(pq.metadata, row_groups=(rg,))))
    patched = data[:at] + bad + footer + st.pack("<i", len(footer)) + b"PAR1"
    pq2 = ls.parquet.open(patched)
    bounds = column_index_bounds(pq2, 0, 0)
    assert bounds == ([b"\x01\x00\x00"], [3])
    [w] = pq2.warnings
    assert (w.rule, w.path, w.offset) == ("parquet.column-index-value", "row_groups[0].columns[0].column_index.min_values[0]", at)
