"""The page walk: every corpus file, the expected page headers of generated-seed1, the
declarative paths (parquet.ksy, Kaitai engine) against the fast one, and malformed chunks."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as papq
import pytest
from hypothesis import given, settings
from kaitaistruct import KaitaiStream
from lakestruct._generated.parquet import Parquet as KsParquet

import lakestruct as ls
from lakestruct.errors import FormatError
from lakestruct.parquet.index import check_offset_index
from lakestruct.parquet.model import PageHeader as PageHeaderModel
from lakestruct.parquet.model import PageType, enum_name
from tests.helpers import webide_parse
from tests.parquet import _thrift_ref


def _data_files(corpus: Path) -> list[Path]:
    return sorted((corpus / "parquet-testing" / "data").rglob("*.parquet"))


def _gen(corpus: Path) -> Path:
    return corpus / "generated-seed1" / "parquet"


def test_every_data_file_walks(corpus: Path) -> None:
    """Every page header of every chunk; pages tile the chunk; the OffsetIndex agrees."""
    n_files = n_pages = 0
    for path in _data_files(corpus):
        pq = ls.parquet.open(path)
        for rg in range(pq.num_row_groups):
            for col in range(len(pq.columns())):
                pages = list(pq.chunk_pages(rg, col))
                start, end = pq.chunk_range(rg, col)
                md = pq.column_chunk(rg, col).meta_data
                assert md is not None
                assert pages[0].offset == start if pages else md.num_values == 0
                for a, b in itertools.pairwise(pages):
                    assert a.end == b.offset
                # total_compressed_size includes headers (nation.dict-malformed is short: a recorded warning)
                if pages and not pq.warnings:
                    assert pages[-1].end == end, (path, rg, col)
                    data_values = sum(p.num_values or 0 for p in pages if p.is_data)
                    assert data_values == md.num_values, (path, rg, col)
                check_offset_index(pq, rg, col, pages)
                n_pages += len(pages)
        n_files += 1
    assert n_files >= 75 and n_pages > 50000


def test_dictionary_page_offset_quirks(corpus: Path) -> None:
    data = corpus / "parquet-testing" / "data"
    pq = ls.parquet.open(data / "dict-page-offset-zero.parquet")
    md = pq.column_chunk(0, 0).meta_data
    assert md is not None and md.dictionary_page_offset == 0
    assert pq.chunk_range(0, 0)[0] == md.data_page_offset  # never seek to 0
    pq = ls.parquet.open(data / "nation.dict-malformed.parquet")
    md = pq.column_chunk(0, 1).meta_data
    assert md is not None and md.dictionary_page_offset is None
    first = next(pq.chunk_pages(0, 1))
    assert first.offset == md.data_page_offset and first.type == "DICTIONARY_PAGE"
    list(pq.pages())
    assert {w.rule for w in pq.warnings} == {"parquet.chunk-size"}


def _expected(corpus: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((_gen(corpus) / "expected.json").read_text())["files"]
    return data


def _opt_enum(v: Any) -> str | None:
    return enum_name(v) if v is not None else None


def test_generated_pages_match_expected(corpus: Path) -> None:
    """generated-seed1/parquet: every page header field parquet-java reported, chunk sizes, statistics."""
    for name, fe in _expected(corpus).items():
        pq = ls.parquet.open(_gen(corpus) / "files" / name)
        assert pq.metadata.num_rows == fe["num_rows"] and pq.metadata.created_by == fe["created_by"]
        assert [(c.name, c.physical_type_name, c.max_definition_level, c.max_repetition_level) for c in pq.columns()] == [
            (lf["path"], lf["physical_type"], lf["max_definition_level"], lf["max_repetition_level"]) for lf in fe["leaves"]
        ]
        for rgi, rge in enumerate(fe["row_groups"]):
            rg = pq.metadata.row_groups[rgi]
            assert (rg.num_rows, rg.total_byte_size) == (rge["num_rows"], rge["total_byte_size"])
            for ci, ce in enumerate(rge["columns"]):
                md = rg.columns[ci].meta_data
                assert md is not None
                assert ".".join(md.path_in_schema) == ce["path_in_schema"]
                assert (enum_name(md.codec), int(md.codec), md.num_values) == (ce["codec"], ce["codec_id"], ce["num_values"])
                assert sorted(enum_name(e) or "" for e in md.encodings) == sorted(ce["encodings"])  # parquet-java reports a set
                assert (md.total_compressed_size, md.total_uncompressed_size) == (
                    ce["total_compressed_size"],
                    ce["total_uncompressed_size"],
                )
                assert md.data_page_offset == ce["data_page_offset"]
                assert md.dictionary_page_offset == ce["dictionary_page_offset"]
                stats, se = md.statistics, ce.get("statistics")
                if se is not None:
                    assert stats is not None and stats.null_count == se["null_count"]
                    if se.get("has_min_max"):
                        assert (stats.min_value or stats.min or b"").hex() == se["min_hex"]
                        assert (stats.max_value or stats.max or b"").hex() == se["max_hex"]
                ss = ce.get("size_statistics")
                if ss is not None:
                    got = md.size_statistics
                    assert got is not None
                    assert got.unencoded_byte_array_data_bytes == ss["unencoded_byte_array_data_bytes"]
                    assert list(got.definition_level_histogram or ()) == ss["definition_level_histogram"]
                    assert list(got.repetition_level_histogram or ()) == ss["repetition_level_histogram"]
                pages = list(pq.chunk_pages(rgi, ci))
                pe = ce.get("pages", {})
                v1 = [p.header.data_page_header for p in pages]
                v2 = [p.header.data_page_header_v2 for p in pages]
                dic = [p.header.dictionary_page_header for p in pages]
                got_cols = {
                    "offset": [p.offset for p in pages],
                    "header_size": [p.header_size for p in pages],
                    "type": [p.type for p in pages],
                    "uncompressed_page_size": [p.uncompressed_size for p in pages],
                    "compressed_page_size": [p.compressed_size for p in pages],
                    "crc": [p.crc for p in pages],
                    "num_values": [p.num_values for p in pages],
                    "encoding": [p.encoding for p in pages],
                    "def_level_encoding": [_opt_enum(h.definition_level_encoding) if h else None for h in v1],
                    "rep_level_encoding": [_opt_enum(h.repetition_level_encoding) if h else None for h in v1],
                    "num_nulls": [h.num_nulls if h else None for h in v2],
                    "num_rows": [h.num_rows if h else None for h in v2],
                    "def_levels_byte_length": [h.definition_levels_byte_length if h else None for h in v2],
                    "rep_levels_byte_length": [h.repetition_levels_byte_length if h else None for h in v2],
                    "is_compressed": [h.compressed if h else None for h in v2],
                    "is_sorted": [(h.is_sorted if h else None) for h in dic],
                    "has_statistics": [
                        (a.statistics is not None if a else (b.statistics is not None if b else None)) for a, b in zip(v1, v2, strict=True)
                    ],
                }
                for key, want in pe.items():
                    assert got_cols[key] == want, (name, rgi, ci, key)
                assert sum(p.header_size + p.compressed_size for p in pages) == md.total_compressed_size
                assert sum(p.header_size + p.uncompressed_size for p in pages) == md.total_uncompressed_size


KS_FILES = [
    "parquet-testing/data/alltypes_plain.parquet",
    "parquet-testing/data/alltypes_tiny_pages.parquet",
    "parquet-testing/data/datapage_v2.snappy.parquet",
    "parquet-testing/data/dict-page-offset-zero.parquet",
    "parquet-testing/data/nation.dict-malformed.parquet",
    "parquet-testing/data/int32_with_null_pages.parquet",
    "parquet-testing/data/nested_structs.rust.parquet",
    "parquet-testing/data/column_chunk_key_value_metadata.parquet",
    "parquet-testing/data/unknown-logical-type.parquet",
    "generated-seed1/parquet/files/spark_flat_v1_bloom.parquet",
    "generated-seed1/parquet/files/pa_nested_v2.parquet",
    "seed-files/nested.parquet",
]


@pytest.mark.parametrize("rel", KS_FILES)
def test_parquet_ksy_walk_matches(corpus: Path, rel: str) -> None:
    """formats/parquet/parquet.ksy (Python parser) finds the same pages, page index and bloom filters."""
    path = corpus / rel
    pq = ls.parquet.open(path)
    ks = KsParquet(KaitaiStream(io.BytesIO(path.read_bytes())))
    assert ks.ofs_footer == pq.footer.offset and ks.tail.len_footer == pq.footer.length
    fm = ks.file_meta_data
    assert (fm.num_rows, fm.num_row_groups, fm.version) == (pq.metadata.num_rows, pq.num_row_groups, pq.metadata.version)
    for rgi, rg in enumerate(fm.row_groups):
        for ci, cc in enumerate(rg.columns):
            ours = list(pq.chunk_pages(rgi, ci))
            ks_pages = cc.pages.pages
            assert len(ks_pages) == len(ours)
            for p, k in zip(ours, ks_pages, strict=True):
                assert int(k.view.type) == int(p.header.type)
                assert (k.view.compressed_page_size, k.view.uncompressed_page_size) == (p.compressed_size, p.uncompressed_size)
                assert bytes(k.body) == pq.read_page_body(p)
                if p.header.data_page_header_v2 is not None:
                    v2 = k.view.data_page_header_v2
                    assert (v2.num_values, v2.num_nulls, v2.num_rows, v2.is_compressed) == (
                        p.num_values,
                        p.num_nulls,
                        p.num_rows,
                        p.header.data_page_header_v2.compressed,
                    )
                elif p.header.data_page_header is not None:
                    assert k.view.data_page_header.num_values == p.num_values
            oi = pq.offset_index(rgi, ci)
            if oi is not None:
                assert [(x.offset, x.compressed_page_size, x.first_row_index) for x in cc.offset_index.page_locations] == [
                    (x.offset, x.compressed_page_size, x.first_row_index) for x in oi.page_locations
                ]
            ci_model = pq.column_index(rgi, ci)
            if ci_model is not None:
                assert cc.column_index.num_pages == len(ci_model.null_pages)
                assert int(cc.column_index.boundary_order) == int(ci_model.boundary_order)
            bf = pq.bloom_filter(rgi, ci)
            if bf is not None:
                assert cc.bloom_filter.header.view.num_bytes == bf.header.numBytes and bytes(cc.bloom_filter.bitset) == bf.bitset


@pytest.mark.parametrize("rel", ["parquet-testing/data/alltypes_plain.parquet", "generated-seed1/parquet/files/pa_worked_example.parquet"])
def test_kaitai_engine_matches_fast(corpus: Path, rel: str) -> None:
    fast = ls.parquet.open(corpus / rel)
    slow = ls.parquet.open(corpus / rel, engine="kaitai")
    assert fast.metadata == slow.metadata
    assert list(fast.pages()) == list(slow.pages())


@pytest.mark.node
def test_webide_loads_real_files(corpus: Path) -> None:
    """The Web IDE's JavaScript path parses real files with parquet.ksy and gets the same values."""
    files = [
        corpus / "seed-files" / "simple.parquet",
        corpus / "parquet-testing" / "data" / "int32_with_null_pages.parquet",
        corpus / "parquet-testing" / "data" / "datapage_v2.snappy.parquet",
    ]
    results = webide_parse("formats/parquet/parquet.ksy", files)
    for path, res in zip(files, results, strict=True):
        assert res["ok"], res.get("error")
        tree = res["tree"]
        pq = ls.parquet.open(path)
        fm = tree["file_meta_data"]
        assert fm["num_rows"] == pq.metadata.num_rows and fm["num_row_groups"] == pq.num_row_groups
        rg0 = fm["row_groups"][0]
        for ci, cc in enumerate(rg0["columns"]):
            pages = list(pq.chunk_pages(0, ci))
            js_pages = cc["pages"]["pages"]
            assert [p["view"]["compressed_page_size"] for p in js_pages] == [p.compressed_size for p in pages]
            assert [p["view"]["type"] for p in js_pages] == [int(p.header.type) for p in pages]
            crcs = [p["view"].get("crc") for p in js_pages]
            assert crcs == [p.crc for p in pages]
            cix = pq.column_index(0, ci)
            if cix is not None:  # list<bool> with element type 1 / false = 0x02 read in JavaScript too
                js_ci = cc["column_index"]
                assert js_ci["num_pages"] == len(cix.null_pages) and js_ci["boundary_order"] == int(cix.boundary_order)
                at = js_ci["f_null_pages"][-1]["found"]  # the lookup's last step: the field's index
                js_null = [e["bool_value"] for e in js_ci["raw"]["fields"][at]["value"]["list_value"]["elements"]]
                assert js_null == list(cix.null_pages)
            oi = pq.offset_index(0, ci)
            if oi is not None:
                assert [(x["offset"], x["first_row_index"]) for x in cc["offset_index"]["page_locations"]] == [
                    (x.offset, x.first_row_index) for x in oi.page_locations
                ]


@pytest.mark.node
def test_thrift_compact_ksy_in_webide(corpus: Path, tmp_path: Path) -> None:
    """thrift_compact.ksy in the IDE path: a real page header, and i64 values beyond 32 bits
    (varints by + and *, zigzag by % and /) come out exact."""
    from lakestruct.thrift import compact

    seed = (corpus / "seed-files" / "simple.parquet").read_bytes()[4:32]
    big = compact.encode_struct({1: (compact.I64, 2**40 + 7), 2: (compact.I64, -(2**45) - 3), 3: (compact.I32, -457214166)})
    files = [tmp_path / "seed_header.bin", tmp_path / "big.bin"]
    files[0].write_bytes(seed)
    files[1].write_bytes(big)
    results = webide_parse("formats/thrift/thrift_compact.ksy", files)
    for f, res in zip(files, results, strict=True):
        assert res["ok"], res.get("error")
        want = compact.decode_struct(f.read_bytes())[0]
        got = {}
        for fld in res["tree"]["fields"]:
            if fld["is_stop"]:
                continue
            v = fld["value"]
            if "int_value" in v and v["int_value"] is not None:
                got[fld["field_id"]] = int(v["int_value"]["value"])
        assert got == {k: v for k, (t, v) in want.items() if t in (compact.I16, compact.I32, compact.I64)}


def _write(tmp_path: Path, **kw: Any) -> Path:
    path = tmp_path / "t.parquet"
    papq.write_table(pa.table({"a": list(range(2000)), "b": [str(i % 7) for i in range(2000)]}), path, write_batch_size=64, **kw)
    return path


def test_malformed_chunks_are_named(tmp_path: Path) -> None:
    path = _write(tmp_path, data_page_size=512, compression="NONE", use_dictionary=False)
    good = path.read_bytes()
    pq = ls.parquet.open(good)
    pages = list(pq.chunk_pages(0, 0))
    assert len(pages) > 3
    # 1. a page size that runs past the chunk and into the footer
    p = pages[1]
    hdr = bytearray(good[p.offset : p.data_offset])
    from lakestruct.parquet import spec
    from lakestruct.thrift import compact
    from lakestruct.thrift.typed import from_raw

    h = from_raw(type(p.header), compact.decode_struct(bytes(hdr))[0])
    import dataclasses

    for size, rule in ((10**8, "parquet.page-overrun"), (-5, "parquet.page-size")):
        bad_h = spec.build_model(dataclasses.replace(h, compressed_page_size=size))  # the construct spec builds it
        bad = good[: p.offset] + bad_h + good[p.data_offset :]
        with pytest.raises(FormatError) as e:
            list(ls.parquet.open(bad).chunk_pages(0, 0))
        assert e.value.rule == rule and e.value.offset == p.offset
    # 2. garbage where a header should be
    bad = good[: p.offset] + b"\xff" * 8 + good[p.offset + 8 :]
    with pytest.raises(FormatError) as e:
        list(ls.parquet.open(bad).chunk_pages(0, 0))
    assert e.value.rule.startswith("thrift.") and e.value.offset is not None and e.value.offset >= p.offset
    # 3. every single-byte corruption of the first page header: a named error or a walk, never a crash
    for i in range(pages[0].offset, pages[0].data_offset):
        for v in (0x00, 0xFF, 0x15):
            bad = good[:i] + bytes([v]) + good[i + 1 :]
            try:
                for _ in ls.parquet.open(bad).pages():
                    pass
            except FormatError:
                pass


def test_page_selection_and_body(tmp_path: Path) -> None:
    path = _write(tmp_path, data_page_size=256, compression="SNAPPY", row_group_size=700)
    pq = ls.parquet.open(path)
    assert pq.num_row_groups == 3
    assert all(p.column == 1 for p in pq.pages(column="b"))
    assert all(p.row_group == 2 for p in pq.pages(row_group=2))
    assert list(pq.pages(column=1)) == list(pq.pages(column="b"))
    with pytest.raises(KeyError):
        list(pq.pages(column="nope"))
    dict_pages = [p for p in pq.pages(column="b") if p.header.type == PageType.DICTIONARY_PAGE]
    assert len(dict_pages) == 3
    import cramjam

    body = pq.read_page_body(dict_pages[0])
    assert len(body) == dict_pages[0].compressed_size
    assert len(bytes(cramjam.snappy.decompress_raw(body))) == dict_pages[0].uncompressed_size


def test_levels_and_values_methods(corpus: Path) -> None:
    """api-sketch: pq.levels(...) / pq.values(...) reach the data layer; the seed's hand-derived levels."""
    pq = ls.parquet.open(corpus / "seed-files" / "nested.parquet")
    (chunk,) = pq.levels("nest.repeated.nest.repeated")
    assert [int(x) for x in chunk.repetition_levels] == [0, 2, 2, 1, 2, 0, 0]
    assert [int(x) for x in chunk.definition_levels] == [4, 4, 4, 4, 4, 4, 1]
    assert pq.values("nest.nest") == ["nest1", "nest2", None]


@settings(max_examples=40)
@given(_thrift_ref.strategy("PageHeader"))
def test_parquet_page_header_type_matches(obj: Any) -> None:
    """parquet.ksy's ``parquet_page_header`` (typed view over the generic struct) reads thriftpy2-written headers."""
    data = _thrift_ref.serialize(obj)
    want = _thrift_ref.to_model(obj, PageHeaderModel)
    k = KsParquet.ParquetPageHeader(KaitaiStream(io.BytesIO(data)))
    v = k.view
    assert (int(v.type), v.uncompressed_page_size, v.compressed_page_size) == (
        int(want.type),
        want.uncompressed_page_size,
        want.compressed_page_size,
    )
    assert (v.crc if v.f_crc[-1].found >= 0 else None) == want.crc
    if want.data_page_header_v2 is not None:
        v2 = v.data_page_header_v2
        assert (v2.num_values, v2.num_nulls, v2.num_rows, v2.is_compressed) == (
            want.data_page_header_v2.num_values,
            want.data_page_header_v2.num_nulls,
            want.data_page_header_v2.num_rows,
            want.data_page_header_v2.compressed,
        )
    if want.dictionary_page_header is not None:
        assert v.dictionary_page_header.num_values == want.dictionary_page_header.num_values


def test_windowed_walk_matches_whole_chunk_reads(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks larger than CHUNK_READ_MAX are walked through header windows: same pages, bounded reads."""
    from lakestruct.parquet import read as pread
    from lakestruct.source import open_source

    path = corpus / "parquet-testing" / "data" / "alltypes_tiny_pages_plain.parquet"
    want = list(ls.parquet.open(path).pages())
    monkeypatch.setattr(pread, "CHUNK_READ_MAX", 1024)
    monkeypatch.setattr(pread, "HEADER_WINDOW", 256)
    src = open_source(path)
    pq = ls.parquet.open(src)
    got = list(pq.pages())
    assert got == want
    assert src.reads <= 2 * len(want) + 2 * len(pq.columns()) + 1


def test_parquet_ksy_walks_every_data_file(corpus: Path) -> None:
    """parquet.ksy on every data/ file (up to 1,000 pages): the same pages (type, sizes, and the very
    body bytes, which pins their offsets) as the reader."""
    n_files = 0
    for path in _data_files(corpus):
        data = path.read_bytes()
        pq = ls.parquet.open(data)
        pages = list(pq.pages())
        if len(pages) > 1000:
            continue
        ours = [(p.row_group, p.column, int(p.header.type), p.compressed_size, p.uncompressed_size, pq.read_page_body(p)) for p in pages]
        ks = KsParquet(KaitaiStream(io.BytesIO(data)))
        theirs = [
            (rgi, ci, int(pg.view.type), pg.view.compressed_page_size, pg.view.uncompressed_page_size, bytes(pg.body))
            for rgi, rg in enumerate(ks.file_meta_data.row_groups)
            for ci, cc in enumerate(rg.columns)
            for pg in cc.pages.pages
        ]
        assert theirs == ours, path
        n_files += 1
    assert n_files >= 70
