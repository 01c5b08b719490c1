"""The compiled twin (``lakestruct.thrift._compact_c``, Cython) against the pure-Python path
and the declarative Kaitai parser: differential tests on valid, mutated and random input.

The compiled code either returns exactly what the pure path returns or declines (None),
after which the pure path decides (and names any error)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.errors import FormatError
from lakestruct.parquet import model as m
from lakestruct.parquet.pages import scan_pages_py
from lakestruct.parquet.read import Page
from lakestruct.thrift import compact
from lakestruct.thrift import kaitai as thrift_kaitai
from lakestruct.thrift.typed import compiled_plan, decode_model_py, from_raw
from tests.parquet import _thrift_ref as ref

_c = compact._compiled
pytestmark = pytest.mark.skipif(_c is None, reason="the compiled twin is not built (pip install -e .)")

NAMES = ["PageHeader", "ColumnIndex", "OffsetIndex", "BloomFilterHeader", "FileMetaData"]


def _pure(cls: type, data: bytes) -> Any:
    try:
        return decode_model_py(cls, data, 0)
    except FormatError as e:
        return ("error", e.rule, e.offset)


def _check(cls: type, data: bytes, *, must_decide: bool) -> None:
    want = _pure(cls, data)
    got = _c.decode_model(data, 0, len(data), compiled_plan(cls))
    if got is None:
        assert not must_decide, "the compiled twin declined a valid struct"
    else:
        assert got == want
        assert type(got[0]) is cls
    raw = _c.decode_struct(data, 0, len(data))
    try:
        want_raw: Any = compact.decode_struct_py(data, 0)
    except FormatError:
        want_raw = None
    if raw is not None:
        assert raw == want_raw
    # the declarative parser agrees with both: same model, or a rejection too (with the same rule
    # when it is a value check; Kaitai notices truncation while parsing, before any value check)
    try:
        kraw, kused = thrift_kaitai.decode_struct(data, 0)
        kaitai: Any = (from_raw(cls, kraw), kused)
    except FormatError as e:
        kaitai = ("error", e.rule, e.offset)
    if isinstance(want, tuple) and want[0] == "error":
        assert isinstance(kaitai, tuple) and kaitai[0] == "error", f"Kaitai accepted what the fast path refuses ({want[1]})"
    else:
        assert kaitai == want


@pytest.mark.parametrize("name", NAMES)
def test_valid_structs_agree(name: str) -> None:
    cls = m.MODELS[name]

    @settings(max_examples=40 if name != "FileMetaData" else 10)
    @given(ref.strategy(name))
    def run(obj: Any) -> None:
        _check(cls, ref.serialize(obj), must_decide=True)

    run()


@settings(max_examples=200)
@given(ref.strategy("PageHeader"), st.data())
def test_mutated_page_headers_agree(obj: Any, data: st.DataObject) -> None:
    raw = bytearray(ref.serialize(obj))
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    for blob in (bytes(raw), bytes(raw[:cut])):
        _check(m.PageHeader, blob, must_decide=False)


@settings(max_examples=300)
@given(st.binary(max_size=48))
def test_random_bytes_agree(data: bytes) -> None:
    want = _pure(m.PageHeader, data)
    got = _c.decode_model(data, 0, len(data), compiled_plan(m.PageHeader))
    assert got is None or got == want


def test_duplicate_field_ids_follow_the_pure_path() -> None:
    # field 3 twice: the pure path keeps the last value (dict semantics); the compiled twin declines
    data = bytes([0x15, 0x00, 0x15, 0x02, 0x15, 0x04, 0x05, 0x06, 0x08, 0x00])  # ids 1,2,3 then long-form id 3 again (= 4)
    assert _c.decode_model(data, 0, len(data), compiled_plan(m.PageHeader)) is None
    from lakestruct.thrift.typed import decode_model

    h, _ = decode_model(m.PageHeader, data)
    assert h.compressed_page_size == 4


def _chunks(corpus: Path) -> list[tuple[bytes, int, int]]:
    import lakestruct as ls

    out = []
    for rel in (
        "parquet-testing/data/alltypes_tiny_pages.parquet",
        "parquet-testing/data/datapage_v2.snappy.parquet",
        "generated-seed1/parquet/files/pa_nested_v2.parquet",
        "parquet-testing/data/nation.dict-malformed.parquet",
    ):
        data = (corpus / rel).read_bytes()
        pq = ls.parquet.open(data)
        for rg in range(pq.num_row_groups):
            for col in range(len(pq.columns())):
                s, e = pq.chunk_range(rg, col)
                out.append((data, s, e))
    return out


def test_scan_pages_twins_agree_on_real_chunks(corpus: Path) -> None:
    n = 0
    for data, s, e in _chunks(corpus):
        a = _c.scan_pages(data, 0, s, e, 0, 0, 0, Page, compiled_plan(m.PageHeader))
        b = scan_pages_py(data, 0, s, e, 0, 0, 0, Page)
        assert a == b
        n += len(a[0])
    assert n > 1000


@settings(max_examples=60)
@given(st.data())
def test_scan_pages_twins_agree_on_corrupted_chunks(corpus: Path, data: st.DataObject) -> None:
    chunks = _chunks(corpus)
    blob, s, e = chunks[data.draw(st.integers(0, len(chunks) - 1))]
    buf = bytearray(blob[s:e])
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(buf) - 1))
        buf[i] = data.draw(st.integers(0, 255))
    b = bytes(buf)
    assert _c.scan_pages(b, s, s, e, 1, 2, 3, Page, compiled_plan(m.PageHeader)) == scan_pages_py(b, s, s, e, 1, 2, 3, Page)


def test_gc_untracking_is_limited_to_acyclic_models() -> None:
    """The compiled twin untracks frozen models holding only atomic values / untracked models."""
    import gc

    plain = compact.encode_struct(
        {
            1: (compact.I32, 0),
            2: (compact.I32, 1),
            3: (compact.I32, 1),
            5: (compact.STRUCT, {1: (compact.I32, 1), 2: (compact.I32, 0), 3: (compact.I32, 3), 4: (compact.I32, 3)}),
        }
    )
    h, _ = _c.decode_model(plain, 0, len(plain), compiled_plan(m.PageHeader))
    assert not gc.is_tracked(h) and not gc.is_tracked(h.data_page_header)
    # an unknown field keeps generic (possibly container) values: stays tracked
    odd = compact.encode_struct(
        {1: (compact.I32, 0), 2: (compact.I32, 1), 3: (compact.I32, 1), 20: (compact.LIST, compact.RawList(compact.I32, [1]))}
    )
    h2, _ = _c.decode_model(odd, 0, len(odd), compiled_plan(m.PageHeader))
    assert gc.is_tracked(h2) and h2.unknown[0][0] == 20
    assert h == decode_model_py(m.PageHeader, plain)[0] and h2 == decode_model_py(m.PageHeader, odd)[0]
    gc.collect()
