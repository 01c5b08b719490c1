"""Page index: ColumnIndex / OffsetIndex against parquet-java's answers and pyarrow-written files."""

from __future__ import annotations

import json
from pathlib import Path

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
