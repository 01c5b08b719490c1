"""The compiled twin of the ``parquet_chunks`` row loop (``spark/_chunks_c.pyx``) gives the pure twin's rows.

The oracle is the pure twin (``sources._pure_chunk_rows``), itself held to parquet-java and pyarrow by
tests/spark/test_sources.py. Compared on every Parquet file of the shared corpus (the damaged ones of parquet-testing
and the fuzz inputs included: there the compiled twin hands a row group over to the pure one), on files written here
by pyarrow with many row groups (batches cut between row groups), and on random footers of hypothesis.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as papq
import pytest

from lakestruct.spark import sources
from lakestruct.spark.rowsource import plain_loop
from tests.conftest import shared_dir

pytestmark = pytest.mark.skipif(sources._chunks_twin() is None, reason="the compiled twin spark/_chunks_c is not built")


def _table(paths: list[str], pure: bool, monkeypatch: pytest.MonkeyPatch, source: str = "parquet_chunks") -> pa.Table:
    with monkeypatch.context() as m:
        if pure:
            m.setattr(sources, "_chunks_twin", lambda: None)
            m.setattr(sources, "_chunks_module", lambda: None)
        return pa.Table.from_batches(list(plain_loop(source, paths)))


def _same(paths: list[str], monkeypatch: pytest.MonkeyPatch, source: str = "parquet_chunks") -> pa.Table:
    compiled, pure = _table(paths, False, monkeypatch, source), _table(paths, True, monkeypatch, source)
    assert compiled.schema == pure.schema
    for name in compiled.schema.names:  # one column at a time: the failure names it
        assert compiled.column(name).to_pylist() == pure.column(name).to_pylist(), name
    return compiled


def _parquet_files(root: Path) -> Iterator[str]:
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.stat().st_size < 64 << 20:
            with open(p, "rb") as f:
                if f.read(4) == b"PAR1":
                    yield str(p)


def test_every_corpus_parquet_file(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = list(_parquet_files(corpus))
    assert len(paths) > 50, len(paths)
    t = _same(paths, monkeypatch)
    errors = t.filter(pa.compute.is_valid(t.column("error_rule")))
    assert t.num_rows > 1000 and errors.num_rows > 0  # damaged files are among them: the pure twin's error rows


def test_pages_of_every_corpus_parquet_file(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The twin of the ``parquet_pages`` loop (``page_columns``): CRC errors and broken chunks included."""
    t = _same(list(_parquet_files(corpus)), monkeypatch, "parquet_pages")
    rules = set(t.column("error_rule").to_pylist())
    assert t.num_rows > 10_000 and "parquet.page-crc" in rules and len(rules - {None, "parquet.page-crc"}) > 0, rules


def test_fuzz_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    shared = shared_dir()
    roots = [d for d in (shared / "corpus" / "fuzz-repro", shared / "fuzz-repro-round2") if d.is_dir()]
    if not roots:
        pytest.skip("no fuzz-repro folders in the shared material")
    paths = [p for r in roots for p in _parquet_files(r)]
    if not paths:
        pytest.skip("no Parquet inputs among the fuzz reproducers")
    _same(paths, monkeypatch)
    _same(paths, monkeypatch, "parquet_pages")


def test_many_row_groups_cut_into_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """3,000 row groups x 7 columns: more than one batch of rows per file, cut between row groups."""
    n = 3_000
    t = pa.table({
        "i": pa.array(range(n), pa.int32()), "l": pa.array(range(n), pa.int64()), "f": pa.array([i / 7 for i in range(n)], pa.float32()),
        "d": pa.array([i / 3 for i in range(n)]), "s": pa.array([f"s{i}" for i in range(n)]),
        "b": pa.array([i % 3 == 0 for i in range(n)]), "ts": pa.array(range(n), pa.timestamp("us", tz="UTC")),
    })  # fmt: skip
    p = tmp_path / "many.parquet"
    papq.write_table(t, p, row_group_size=1, write_page_index=True, use_dictionary=["s"])
    got = _same([str(p)], monkeypatch)
    assert got.num_rows == n * 7
    assert got.column("row_group").to_pylist() == [i // 7 for i in range(n * 7)]
    meta = papq.ParquetFile(p).metadata  # and a few values against pyarrow
    for rg in (0, 1234, n - 1):
        for c in range(7):
            row = got.slice(rg * 7 + c, 1).to_pylist()[0]
            want = meta.row_group(rg).column(c)
            assert (row["column_path"], row["num_values"], row["total_compressed_size"], row["data_page_offset"]) == (
                want.path_in_schema, want.num_values, want.total_compressed_size, want.data_page_offset)


def _tuples(pq: Any, md: Any = None) -> Any:
    """The footer of ``pq`` (or ``md`` encoded) decoded as the compiled twin reads it: row groups, chunks and their
    metadata as tuples."""
    from lakestruct.thrift import compact, typed

    footer = pq.source.read(pq.footer.offset, pq.footer.length) if md is None else compact.encode_struct(typed.to_raw(md))
    got = typed.decode_tuples(type(pq.metadata), footer, tuples=sources._tuple_classes())
    assert got is not None
    return got[0]


def test_twin_stops_between_row_groups(tmp_path: Path) -> None:
    import lakestruct as ls

    p = tmp_path / "f.parquet"
    papq.write_table(pa.table({"a": list(range(10)), "b": [str(i) for i in range(10)]}), p, row_group_size=3)
    twin = sources._chunks_twin()
    with ls.parquet.open(str(p)) as pq:
        _, leaves = sources._schema_info(pq)
        md = _tuples(pq)
        whole, end = twin(md, leaves, pq.footer.offset, 0, 1 << 20)
        assert end == 4 and len(whole[0]) == 8
        parts: list[list[Any]] = [[] for _ in whole]
        rg = 0
        while rg < 4:
            data, nxt = twin(md, leaves, pq.footer.offset, rg, 1)
            assert nxt == rg + 1 and len(data[0]) == 2  # one row group (2 chunks) reaches max_rows=1
            for acc, col in zip(parts, data, strict=True):
                acc.extend(col)
            rg = nxt
        assert parts == whole


# -- random statistics and optional fields on a real footer ---------------------------------------------------------


def _typed_file(tmp: Path) -> Path:
    import decimal

    p = tmp / "typed.parquet"
    t = pa.table({
        "i": pa.array([1, -2], pa.int32()), "l": pa.array([3, 4], pa.int64()), "f": pa.array([0.5, 1.5], pa.float32()),
        "d": pa.array([0.25, -1.0]), "s": pa.array(["a", "é"]), "b": pa.array([True, False]),
        "ts": pa.array([0, 10**15], pa.timestamp("us")), "dec": pa.array([decimal.Decimal("1.25"), None], pa.decimal128(9, 2)),
        "u": pa.array([1, 2], pa.uint32()), "bin": pa.array([b"\x00", b"\xff"]), "dt": pa.array([0, 19000], pa.date32()),
    })  # fmt: skip
    papq.write_table(t, p, row_group_size=1, store_decimal_as_integer=True)
    return p


class _FakeFile:
    """What ``_pure_chunk_rows`` uses of a ParquetFile, over a replaced footer model (no chunk breaks a rule here; the
    twin reads the same model encoded and decoded as tuples)."""

    def __init__(self, real: Any, md: Any) -> None:
        self.metadata, self.footer, self.name = md, real.footer, real.name

    def chunk_range(self, rg: int, ci: int) -> None:
        raise AssertionError("the strategies keep every chunk in range")


def test_random_statistics_and_optional_fields(tmp_path: Path) -> None:
    import dataclasses

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    import lakestruct as ls
    from lakestruct.parquet.model import Encoding, PageEncodingStats, PageType, Statistics

    p = _typed_file(tmp_path)
    twin = sources._chunks_twin()
    pq = ls.parquet.open(str(p))
    _, leaves = sources._schema_info(pq)
    md = pq.metadata
    raw = st.none() | st.binary(max_size=10)
    count = st.none() | st.integers(-(2**63), 2**63 - 1)
    stats = st.none() | st.builds(Statistics, max=raw, min=raw, max_value=raw, min_value=raw, null_count=count, distinct_count=count)
    enc_stats = st.none() | st.lists(st.builds(PageEncodingStats, page_type=st.sampled_from(list(PageType)) | st.integers(0, 9),
                                               encoding=st.sampled_from(list(Encoding)) | st.integers(0, 20),
                                               count=st.integers(0, 3)), max_size=4).map(tuple)
    small = st.none() | st.integers(0, 2**31 - 1)
    encodings = st.lists(st.sampled_from(list(Encoding)) | st.integers(0, 20), max_size=4).map(tuple)

    def dictionary_offset(cm: Any) -> Any:
        """The offset as written, or (when the chunk then still ends before the footer) none, or one below 4 (absent
        too: written so by old parquet-mr)."""
        if cm.data_page_offset + cm.total_compressed_size > pq.footer.offset:
            return st.just(cm.dictionary_page_offset)
        return st.just(cm.dictionary_page_offset) | st.none() | st.integers(0, 3)

    @st.composite
    def footer(draw: Any) -> Any:
        groups = []
        for rg in md.row_groups:
            chunks = []
            for cc in rg.columns:
                cm = cc.meta_data
                cm2 = dataclasses.replace(cm, statistics=draw(stats), encoding_stats=draw(enc_stats), encodings=draw(encodings),
                                          bloom_filter_offset=draw(small), bloom_filter_length=draw(small),
                                          dictionary_page_offset=draw(dictionary_offset(cm)),
                                          path_in_schema=draw(st.sampled_from([cm.path_in_schema, ()])))
                chunks.append(dataclasses.replace(cc, meta_data=cm2, column_index_offset=draw(small), offset_index_offset=draw(small),
                                                  column_index_length=draw(small), offset_index_length=draw(small)))
            groups.append(dataclasses.replace(rg, columns=tuple(chunks)))
        return dataclasses.replace(md, row_groups=tuple(groups), created_by=draw(st.none() | st.text(max_size=5)))

    @settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(footer())
    def check(md2: Any) -> None:
        got = twin(_tuples(pq, md2), leaves, pq.footer.offset, 0, 1 << 20)
        assert got is not None
        data, end = got
        assert end == len(md2.row_groups)
        (rows,) = [c.rows for c in sources._pure_chunk_rows(_FakeFile(pq, md2), leaves)]
        want = [list(col) for col in zip(*rows, strict=True)][: len(data)]
        assert [r[-4:] for r in rows] == [(None,) * 4] * len(rows)
        for name, a, b in zip(sources.CHUNKS_SCHEMA.names, data, want, strict=True):
            assert a == b, name

    try:
        check()
    finally:
        pq.close()
