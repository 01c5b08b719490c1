"""Levels and values of real files against independent oracles.

* pyarrow: every top-level column of every file it can read in parquet-testing/data,
  generated-seed1 and the seed files, compared as rows (``to_pylist()``, temporal types
  as their integer storage) with lakestruct's Dremel assembly, and as levels with an
  independent shredding of pyarrow's rows (tests/parquet/_oracle.py);
* generated-seed1/parquet/expected.json ``levels`` (decoded by parquet-java, checked by a
  second shredder) and its textbook examples (Dremel paper Figure 3, the seed's worked example);
* the ``*_expect.csv`` files of parquet-testing;
* bad_data/: every file gets a named FormatError.
"""

from __future__ import annotations

import csv
import json
import math
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as papq
import pytest

import lakestruct.parquet as lp
from lakestruct.errors import FormatError, LimitError
from lakestruct.parquet.assembly import assemble_column, leaf_converter, schema_tree
from lakestruct.parquet.values import concat_levels, read_column, read_rows, values_with_nulls

from ..conftest import corpus_dir
from ._oracle import arrow_rows, norm, shred

C = corpus_dir()
DATA = C / "parquet-testing" / "data" if C else None
GEN = C / "generated-seed1" / "parquet" if C else None


def _files(base: Path | None, pattern: str) -> list[str]:
    if base is None or not base.is_dir():
        return []
    return sorted(str(p.relative_to(C)) for p in base.glob(pattern))  # type: ignore[arg-type]


PYARROW_FILES = [
    f
    for f in _files(DATA, "**/*.parquet") + _files(GEN, "files/*.parquet") + _files(C / "seed-files" if C else None, "*.parquet")
    if not f.endswith(("large_string_map.brotli.parquet", "incorrect_map_schema.parquet"))
]
BAD_FILES = [Path(f).name for f in _files(C / "parquet-testing" / "bad_data" if C else None, "*.parquet")]


def _leaf_rows(pf: lp.ParquetFile, key: tuple[str, ...]) -> tuple[list[int], list[int], list[Any]]:
    chunks = read_column(pf, key)
    rep, dfn, _ = concat_levels(chunks)
    conv = leaf_converter(_node(pf, key))
    vals = [None if v is None else conv(v) for c in chunks for v in values_with_nulls(c)]
    return rep.tolist(), dfn.tolist(), vals


def _node(pf: lp.ParquetFile, key: tuple[str, ...]) -> Any:
    node = schema_tree(pf.metadata.schema)
    for name in key:
        node = next(c for c in node.children if c.name == name)
    return node


@pytest.mark.corpus
@pytest.mark.parametrize("rel", PYARROW_FILES)
def test_rows_and_levels_match_pyarrow(corpus: Path, rel: str) -> None:
    path = corpus / rel
    with lp.open(path) as pf:
        root = schema_tree(pf.metadata.schema)
        assert root.children, "schema without fields"
        decoded = {c.path: concat_levels(read_column(pf, c.index)) for c in pf.columns()}  # each chunk decoded once
        for top in root.children:
            expected = arrow_rows(path, top.name)
            got = norm(assemble_column(top, {k: v for k, v in decoded.items() if k[0] == top.name}, leaf=_convert))
            assert got == expected, f"{rel}: rows of {top.name} differ from pyarrow"
            for key, (r, d, v) in shred(top, expected).items():
                rep, dfn, vals = decoded[key]
                assert rep.tolist() == r, f"{'.'.join(key)}: repetition levels differ from the shredded pyarrow rows"
                assert dfn.tolist() == d, f"{'.'.join(key)}: definition levels differ from the shredded pyarrow rows"
                conv = leaf_converter(_node(pf, key))
                assert norm([conv(x) for x in vals.tolist()]) == v, f"{'.'.join(key)}: values differ from the shredded pyarrow rows"


def _convert(node: Any, v: Any) -> Any:
    return leaf_converter(node)(v)


@pytest.mark.corpus
@pytest.mark.parametrize("rel", ["parquet-testing/data/nested_maps.snappy.parquet", "generated-seed1/parquet/files/pa_nested_v2.parquet"])
def test_read_rows_api(corpus: Path, rel: str) -> None:
    """The one-call API (read_rows) gives pyarrow's rows for every top-level field."""
    with lp.open(corpus / rel) as pf:
        for top in schema_tree(pf.metadata.schema).children:
            assert norm(read_rows(pf, top.name)) == arrow_rows(corpus / rel, top.name)
        with pytest.raises(KeyError):
            read_rows(pf, "no_such_field")


@pytest.mark.corpus
def test_incorrect_map_schema_still_decodes(corpus: Path) -> None:
    """pyarrow refuses the schema (map keys not required); the levels and values are still readable."""
    path = corpus / "parquet-testing/data/incorrect_map_schema.parquet"
    with lp.open(path) as pf:
        for c in pf.columns():
            chunks = read_column(pf, c.index)
            n = sum(ch.num_values for ch in chunks)
            assert n == sum(pf.column_chunk(rg, c.index).meta_data.num_values for rg in range(pf.num_row_groups))  # type: ignore[union-attr]
        rows = read_rows(pf, "my_map")
        assert len(rows) == pf.metadata.num_rows


@pytest.mark.corpus
def test_large_string_map_is_refused_without_decompressing(corpus: Path) -> None:
    """A 1 GiB dictionary page in 1627 BROTLI bytes: LimitError before any allocation."""
    path = corpus / "parquet-testing/data/large_string_map.brotli.parquet"
    t = time.perf_counter()
    with lp.open(path) as pf, pytest.raises(LimitError) as ei:
        read_column(pf, "arr.key_value.key")
    assert time.perf_counter() - t < 5
    assert ei.value.rule == "parquet.codec.limit"
    assert ei.value.path == "row_groups[0].columns[0].pages[0].body"
    assert ei.value.offset is not None and ei.value.offset > 4


@pytest.mark.corpus
def test_levels_only_skips_values(corpus: Path) -> None:
    path = corpus / "parquet-testing/data/nested_lists.snappy.parquet"
    with lp.open(path) as pf:
        full = read_column(pf, 0)
        lev = read_column(pf, 0, values=False)
    assert all(p.values is None for c in lev for p in c.data_pages)
    assert [c.definition_levels.tolist() for c in lev] == [c.definition_levels.tolist() for c in full]


# ----------------------------------------------------------------------- expected.json


def _expected() -> dict[str, Any]:
    assert GEN is not None
    data: dict[str, Any] = json.loads((GEN / "expected.json").read_text())
    return data


LEVEL_CASES = (
    [(fn, col) for fn, f in _expected()["files"].items() for col in (f.get("levels") or {})] if GEN is not None and GEN.is_dir() else []
)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return bool(a == b)


@pytest.mark.corpus
@pytest.mark.parametrize(("fn", "col"), LEVEL_CASES)
def test_levels_match_generated_expected(corpus: Path, fn: str, col: str) -> None:
    exp = _expected()["files"][fn]["levels"][col]
    with lp.open(corpus / "generated-seed1/parquet/files" / fn) as pf:
        key = tuple(col.split("."))
        rep, dfn, vals = _leaf_rows(pf, key)
        counts = [c.num_values for c in read_column(pf, key)]
    assert rep == exp["rep"]
    assert dfn == exp["def"]
    assert len(vals) == len(exp["values"]) and all(_same(a, b) for a, b in zip(vals, exp["values"], strict=True))
    assert counts == exp["row_group_value_counts"]


@pytest.mark.corpus
def test_dremel_paper_figure3(corpus: Path) -> None:
    fig = _expected()["textbook_levels_checked"]["dremel_paper_figure3"]
    with lp.open(corpus / "generated-seed1/parquet/files/pj_dremel_paper.parquet") as pf:
        for col, triples in fig.items():
            rep, dfn, vals = _leaf_rows(pf, tuple(col.split(".")))
            assert [[v, r, d] for v, r, d in zip(vals, rep, dfn, strict=True)] == triples, col


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("rel", "prefix"),
    [
        ("generated-seed1/parquet/files/pj_worked_example.parquet", ""),
        ("seed-files/nested.parquet", ""),
    ],
)
def test_seed_worked_example(corpus: Path, rel: str, prefix: str) -> None:
    ex = _expected()["textbook_levels_checked"]["seed_worked_example"]
    assert ex["nest.repeated.nest.repeated"] == {"def": [4, 4, 4, 4, 4, 4, 1], "rep": [0, 2, 2, 1, 2, 0, 0]}
    with lp.open(corpus / rel) as pf:
        for col, lv in ex.items():
            rep, dfn, vals = _leaf_rows(pf, tuple(col.split(".")))
            assert (dfn, rep) == (lv["def"], lv["rep"]), col
        _r, _d, vals = _leaf_rows(pf, ("nest", "repeated", "nest", "repeated"))
    assert vals == [b"nestRep1", b"nestRep2", b"nestRep3", b"nestRep4", b"nestRep5", b"nestRep6", None] or vals == [
        "nestRep1",
        "nestRep2",
        "nestRep3",
        "nestRep4",
        "nestRep5",
        "nestRep6",
        None,
    ]


# ----------------------------------------------------------------------- *_expect.csv

CSV_CASES = [Path(f).name[: -len("_expect.csv")] for f in _files(DATA, "*_expect.csv")]


@pytest.mark.corpus
@pytest.mark.parametrize("stem", CSV_CASES)
def test_expect_csv(corpus: Path, stem: str) -> None:
    base = corpus / "parquet-testing/data"
    with (base / f"{stem}_expect.csv").open(newline="") as fh:
        rows = list(csv.reader(fh))
    header, body = rows[0], rows[1:]
    with lp.open(base / f"{stem}.parquet") as pf:
        cols = pf.columns()
        assert len(cols) == len(header)
        for i, c in enumerate(cols):
            _r, _d, vals = _leaf_rows(pf, c.path)
            assert len(vals) == len(body), c.name
            for j, (v, row) in enumerate(zip(vals, body, strict=True)):
                cell = row[i]
                if v is None:
                    assert cell == "", (c.name, j)
                else:
                    assert str(v) == cell, (c.name, j, v, cell)


# ----------------------------------------------------------------------- bad_data


@pytest.mark.corpus
@pytest.mark.parametrize("rel", BAD_FILES)
def test_bad_data_named_error(corpus: Path, rel: str) -> None:
    path = corpus / "parquet-testing/bad_data" / rel
    if rel == "ARROW-GH-43605.parquet":
        # Dictionary indices with bit width 0 are valid (all index 0): the file decodes, as pyarrow reads it.
        with lp.open(path) as pf:
            assert norm(read_rows(pf, "min_fl")) == arrow_rows(path, "min_fl")
            assert any(p.encoding == 8 for c in read_column(pf, 0) for p in c.data_pages)
        return
    with pytest.raises(FormatError) as ei, lp.open(path) as pf:
        for c in pf.columns():
            read_column(pf, c.index)
        root = schema_tree(pf.metadata.schema)
        for top in root.children:
            read_rows(pf, top.name)
    e = ei.value
    assert e.rule.startswith("parquet."), e.rule
    assert e.path and e.offset is not None
    assert str(e).startswith(str(path)) or e.source is not None


EXPECTED_BAD = {
    "ARROW-GH-45185.parquet": ("parquet.levels.first-repetition", "row_groups[0].columns[0].pages[0].repetition_levels"),
    "ARROW-GH-47662.parquet": ("parquet.values.truncated", "row_groups[0].columns[0].pages[0].values"),
    "ARROW-RS-GH-6229-LEVELS.parquet": ("parquet.levels.count", "row_groups[0].columns[0].pages[1].repetition_levels"),
    "ARROW-GH-41321.parquet": (None, "definition_levels"),
}


@pytest.mark.corpus
@pytest.mark.parametrize("rel", sorted(EXPECTED_BAD))
def test_bad_data_data_rules(corpus: Path, rel: str) -> None:
    """The data-layer defects are reported at the page and section that hold them."""
    rule, path = EXPECTED_BAD[rel]
    with pytest.raises(FormatError) as ei, lp.open(corpus / "parquet-testing/bad_data" / rel) as pf:
        for c in pf.columns():
            read_column(pf, c.index)
    if rule is not None:
        assert ei.value.rule == rule
    assert ei.value.path.endswith(path)
    assert ei.value.offset is not None


@pytest.mark.corpus
def test_encrypted_files(corpus: Path) -> None:
    """Encrypted footers refuse to open; with a plaintext footer, plaintext columns decode and encrypted ones are named."""
    from lakestruct.parquet.read import EncryptedError

    base = corpus / "parquet-testing/data"
    for f in sorted(base.glob("**/*.parquet.encrypted")):
        try:
            pf = lp.open(f)
        except EncryptedError as e:
            assert e.rule == "parquet.encrypted"
            continue
        with pf:
            plain = 0
            for c in pf.columns():
                cc = pf.column_chunk(0, c.index)
                if cc.crypto_metadata is None:
                    chunks = read_column(pf, c.index)
                    rows = sum(int((ch.repetition_levels == 0).sum()) for ch in chunks)
                    assert rows == pf.metadata.num_rows, c.name
                    plain += 1
                else:
                    with pytest.raises(EncryptedError):
                        read_column(pf, c.index)
            assert plain > 0 or "aes256" in str(f)


STAT_FILES = sorted(_expected()["files"]) if GEN is not None and GEN.is_dir() else []


@pytest.mark.corpus
@pytest.mark.parametrize("fn", STAT_FILES)
def test_level_histograms_and_null_counts_match_writer_statistics(corpus: Path, fn: str) -> None:
    """The writers' SizeStatistics and ColumnIndex (histograms, null counts, unencoded byte-array bytes), as
    parquet-java reads them in expected.json, agree with the decoded levels and values of every chunk and page."""
    from lakestruct.parquet.values import level_histograms

    exp = _expected()["files"][fn]
    checked = 0
    with lp.open(corpus / "generated-seed1/parquet/files" / fn) as pf:
        for rgi, rg in enumerate(exp["row_groups"]):
            for ci, col in enumerate(rg["columns"]):
                desc = pf.column(ci)
                assert desc.name == col["path_in_schema"]
                chunk = read_column(pf, ci, row_group=rgi)[0]
                mr, md = desc.max_repetition_level, desc.max_definition_level
                ss = col.get("size_statistics")
                if ss:
                    rh, dh = level_histograms(chunk, mr, md)
                    # parquet.thrift: a histogram may be omitted (stored empty) when its max level is 0, or 1 for definitions
                    if ss.get("repetition_level_histogram"):
                        assert rh == ss["repetition_level_histogram"], (desc.name, rgi)
                    if ss.get("definition_level_histogram"):
                        assert dh == ss["definition_level_histogram"], (desc.name, rgi)
                    if ss.get("unencoded_byte_array_data_bytes") is not None:
                        assert sum(len(v) for v in chunk.values.tolist()) == ss["unencoded_byte_array_data_bytes"]
                    checked += 1
                cix = col.get("column_index")
                if cix:
                    pages = chunk.data_pages
                    # parquet-cpp counts only leaf nulls (not empty or null lists): compared for non-repeated columns
                    if cix.get("null_counts") is not None and (mr == 0 or fn.startswith(("pj_", "spark_"))):
                        assert [int((p.definition_levels < md).sum()) if p.definition_levels is not None else 0 for p in pages] == cix[
                            "null_counts"
                        ], (desc.name, rgi)
                    for key, attr in (("repetition_level_histogram", 0), ("definition_level_histogram", 1)):
                        if cix.get(key):
                            flat = [x for p in pages for x in level_histograms(p, mr, md)[attr]]
                            assert flat == cix[key], (desc.name, rgi, key)
                    checked += 1
    # every file but these two carries size statistics or a column index
    assert checked > 0 or fn in ("pa_flat_mixed_codecs.parquet", "pa_worked_example.parquet")


@pytest.mark.corpus
def test_column_levels_and_values_api(corpus: Path) -> None:
    """The api-sketch calls: levels per page of the seed's nested column, and a flat column's values as pyarrow reads it."""
    from lakestruct.parquet.values import column_levels, column_values

    with lp.open(corpus / "seed-files/nested.parquet") as pf:
        (chunk,) = column_levels(pf, "nest.repeated.nest.repeated")
        (page,) = chunk.data_pages
        assert page.definition_levels is not None and page.repetition_levels is not None and page.values is None
        assert (page.definition_levels.tolist(), page.repetition_levels.tolist()) == ([4, 4, 4, 4, 4, 4, 1], [0, 2, 2, 1, 2, 0, 0])
    path = corpus / "parquet-testing/data/alltypes_tiny_pages.parquet"
    with lp.open(path) as pf:
        assert column_values(pf, "string_col") == papq.read_table(path, columns=["string_col"]).column(0).to_pylist()
        assert (
            column_values(pf, "id", row_group=0)
            == papq.read_table(path, columns=["id"]).column(0).to_pylist()[: pf.metadata.row_groups[0].num_rows]
        )
