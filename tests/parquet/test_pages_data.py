"""decode_chunk on hand-built pages: every page-level check with its rule, path and offset."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from lakestruct.errors import FormatError, LimitError
from lakestruct.parquet.encodings import encode_plain
from lakestruct.parquet.levels import encode_bit_packed_legacy, encode_hybrid
from lakestruct.parquet.values import ChunkSpec, PageSpec, decode_chunk, level_histograms, values_with_nulls

BASE = 1000  # where the first page body starts in the fake file


def v2(levels_r: list[int] | None, levels_d: list[int] | None, values: bytes, *, mr: int, md: int, **kw: object) -> tuple[PageSpec, bytes]:
    r = encode_hybrid(levels_r, mr.bit_length()) if levels_r is not None else b""
    d = encode_hybrid(levels_d, md.bit_length()) if levels_d is not None else b""
    body = r + d + values
    n = len(levels_d if levels_d is not None else levels_r or [])
    args: dict[str, object] = {
        "index": 0,
        "offset": BASE - 20,
        "data_offset": BASE,
        "type": 3,
        "compressed_size": len(body),
        "uncompressed_size": len(body),
        "num_values": n,
        "encoding": 0,
        "num_nulls": sum(1 for x in (levels_d or []) if x < md),
        "num_rows": sum(1 for x in (levels_r or []) if x == 0) if levels_r is not None else n,
        "definition_levels_byte_length": len(d),
        "repetition_levels_byte_length": len(r),
        "is_compressed": False,
    }
    args.update(kw)
    return PageSpec(**args), body  # type: ignore[arg-type]


def chunk(page: PageSpec, *, mr: int, md: int, ptype: int = 1, codec: int = 0, pages: list[PageSpec] | None = None) -> ChunkSpec:
    return ChunkSpec(0, 2, "c", ptype, md, mr, codec, pages or [page])


def run(spec: ChunkSpec, body: bytes, at: int = BASE):  # type: ignore[no-untyped-def]
    data = bytearray(at + len(body))
    data[at:] = body
    return decode_chunk(spec, lambda o, n: bytes(data[o : o + n]))


def test_v2_nested_page_decodes() -> None:
    page, body = v2([0, 1, 0, 0], [2, 2, 1, 0], encode_plain([7, 8], 1), mr=1, md=2)
    c = run(chunk(page, mr=1, md=2), body)
    assert c.repetition_levels.tolist() == [0, 1, 0, 0] and c.definition_levels.tolist() == [2, 2, 1, 0]
    assert c.values.tolist() == [7, 8] and values_with_nulls(c) == [7, 8, None, None]
    assert level_histograms(c, 1, 2) == ([3, 1], [1, 1, 2])
    (p,) = c.data_pages
    assert (p.repetition_levels_at, p.definition_levels_at) == (BASE, BASE + page.repetition_levels_byte_length)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("levels_r", "levels_d", "vals", "kw", "rule", "where"),
    [
        ([1, 0], [2, 2], [1, 2], {}, "parquet.levels.first-repetition", "repetition_levels"),
        ([0, 0], [2, 3], [1, 2], {}, "parquet.levels.range", "definition_levels"),
        ([0, 0], [2, 2], [1], {}, "parquet.values.truncated", "values"),
        ([0, 1], [2, 0], [1], {}, "parquet.levels.inconsistent", "definition_levels"),
        ([0, 0], [2, 2], [1, 2], {"num_rows": 1}, "parquet.page.num-rows", "header.data_page_header_v2.num_rows"),
        # RLE runs hold exactly their count (a bit-packed run may carry padding values)
        ([0] * 10, [2] * 10, list(range(10)), {"num_values": 11}, "parquet.levels.count", "repetition_levels"),
        ([0, 0], [2, 2], [1, 2], {"num_values": -1}, "parquet.page.num-values", "header.data_page_header_v2.num_values"),
        ([0, 0], [2, 2], [1, 2], {"num_values": 2**31 - 1}, "parquet.page.num-values", "header.num_values"),
        ([0, 0], [2, 2], [1, 2], {"encoding": 8}, "parquet.dictionary.missing", "values"),
        ([0, 0], [2, 2], [1, 2], {"definition_levels_byte_length": 10**6}, "parquet.page.level-lengths", ""),
    ],
)
def test_v2_page_checks(levels_r: list[int], levels_d: list[int], vals: list[int], kw: dict[str, object], rule: str, where: str) -> None:
    page, body = v2(levels_r, levels_d, encode_plain(vals, 1), mr=1, md=2, **kw)
    with pytest.raises(FormatError) as ei:
        run(chunk(page, mr=1, md=2), body)
    e = ei.value
    assert e.rule == rule
    assert e.path == "row_groups[0].columns[2].pages[0]" + (f".{where}" if where else "")
    assert e.offset is not None and BASE - 20 <= e.offset <= BASE + len(body)


def test_repetition_level_above_max() -> None:
    page, body = v2([0, 3], [2, 2], encode_plain([1, 2], 1), mr=2, md=2)  # bit width 2 holds 3, the max is 2
    with pytest.raises(FormatError) as ei:
        run(chunk(page, mr=2, md=2), body)
    assert ei.value.rule == "parquet.levels.range" and ei.value.path.endswith("pages[0].repetition_levels")


def test_v2_num_nulls_checked_for_flat_columns() -> None:
    page, body = v2(None, [1, 0, 1], encode_plain([1, 2], 1), mr=0, md=1, num_nulls=0)
    with pytest.raises(FormatError) as ei:
        run(chunk(page, mr=0, md=1), body)
    assert ei.value.rule == "parquet.page.num-nulls"


def test_extra_level_runs_are_refused() -> None:
    page, _body = v2(None, [1, 1], encode_plain([1, 2], 1), mr=0, md=1)
    extra = encode_hybrid([1] * 8, 1) + encode_hybrid([1] * 8, 1)  # two runs: 16 levels for 2 declared... first run covers them
    page2 = PageSpec(**{**page.__dict__, "definition_levels_byte_length": len(extra), "compressed_size": len(extra) + 8,
                        "uncompressed_size": len(extra) + 8, "num_values": 2, "num_rows": 2})  # fmt: skip
    with pytest.raises(FormatError) as ei:
        run(chunk(page2, mr=0, md=1), extra + encode_plain([1, 2], 1))
    assert ei.value.rule == "parquet.levels.count" and "more runs" in ei.value.message
    assert ei.value.offset == BASE + len(extra) // 2


def test_v1_levels_rle_and_bit_packed_and_compressed() -> None:
    rep = [0, 1, 1, 0]
    dfn = [2, 2, 1, 2]
    vals = encode_plain([5, 6, 7], 2)
    for rep_enc, dfn_enc, rb, db in (
        (3, 3, encode_hybrid(rep, 1, length_prefix=True), encode_hybrid(dfn, 2, length_prefix=True)),
        (4, 4, encode_bit_packed_legacy(rep, 1), encode_bit_packed_legacy(dfn, 2)),
    ):
        raw = rb + db + vals
        for codec, stored in ((0, raw), (2, gzip.compress(raw))):
            page = PageSpec(0, BASE - 20, BASE, 0, len(stored), len(raw), 4, 0, dfn_enc, rep_enc)
            c = run(chunk(page, mr=1, md=2, ptype=2, codec=codec), stored)
            assert c.repetition_levels.tolist() == rep and c.definition_levels.tolist() == dfn and c.values.tolist() == [5, 6, 7]
            (p,) = c.data_pages
            assert (p.repetition_levels_at is None) == (codec != 0)


def test_v1_compressed_errors_name_the_page_body() -> None:
    raw = encode_hybrid([2, 2, 3], 2, length_prefix=True) + encode_plain([1, 2], 1)
    stored = gzip.compress(raw)
    page = PageSpec(0, BASE - 20, BASE, 0, len(stored), len(raw), 3, 0, 3, 3)
    with pytest.raises(FormatError) as ei:
        run(chunk(page, mr=0, md=2, codec=2), stored)
    assert ei.value.rule == "parquet.levels.range" and ei.value.offset == BASE and "decompressed" in ei.value.message


def test_dictionary_page_and_indices() -> None:
    dict_body = encode_plain([b"x", b"yy"], 6)
    dpage = PageSpec(0, BASE - 20, BASE, 2, len(dict_body), len(dict_body), 2, 0)
    idx = bytes([1]) + encode_hybrid([1, 0, 1], 1)
    off2 = BASE + len(dict_body) + 10
    page, body = v2(None, [1, 1, 0, 1], idx, mr=0, md=1, encoding=8, index=1, offset=off2 - 10, data_offset=off2)
    data = bytearray(off2 + len(body))
    data[BASE : BASE + len(dict_body)] = dict_body
    data[off2:] = body
    spec = ChunkSpec(0, 0, "s", 6, 1, 0, 0, [dpage, page])
    c = decode_chunk(spec, lambda o, n: bytes(data[o : o + n]))
    assert values_with_nulls(c) == [b"yy", b"x", None, b"yy"]
    assert c.pages[0].dictionary is not None and c.pages[0].dictionary.tolist() == [b"x", b"yy"]
    bad = PageSpec(**{**dpage.__dict__, "num_values": -26})
    with pytest.raises(FormatError) as ei:
        decode_chunk(ChunkSpec(0, 0, "s", 6, 1, 0, 0, [bad, page]), lambda o, n: bytes(data[o : o + n]))
    assert ei.value.rule == "parquet.dictionary.num-values"
    small = PageSpec(**{**dpage.__dict__, "num_values": 1})
    with pytest.raises(FormatError) as ei:
        decode_chunk(ChunkSpec(0, 0, "s", 6, 1, 0, 0, [small, page]), lambda o, n: bytes(data[o : o + n]))
    assert ei.value.rule == "parquet.dictionary.index"


def test_chunk_totals() -> None:
    page, body = v2(None, [1, 0], encode_plain([3], 1), mr=0, md=1)
    with pytest.raises(FormatError) as ei:
        run(ChunkSpec(0, 2, "c", 1, 1, 0, 0, [page], num_values=5), body)
    assert ei.value.rule == "parquet.chunk-num-values"
    with pytest.raises(FormatError) as ei:
        run(ChunkSpec(0, 2, "c", 1, 1, 0, 0, [page], num_rows=3), body)
    assert ei.value.rule == "parquet.chunk.num-rows"
    with pytest.raises(FormatError) as ei:
        run(ChunkSpec(0, 2, "c", 11, 1, 0, 0, [page]), body)
    assert ei.value.rule == "parquet.values.type"


def test_decompression_bound_before_allocation() -> None:
    raw = encode_plain(list(range(10)), 1)
    stored = gzip.compress(raw)
    page = PageSpec(0, BASE - 20, BASE, 0, len(stored), 1 << 40, 10, 0, 3, 3)
    with pytest.raises(LimitError) as ei:
        run(chunk(page, mr=0, md=0, codec=2), stored)
    assert ei.value.rule == "parquet.codec.limit" and ei.value.path.endswith("pages[0].body")


def test_empty_v2_value_section_is_not_decompressed() -> None:
    # an all-null page: zero value bytes, codec SNAPPY (cramjam would reject an empty input)
    page, body = v2(None, [0, 0, 0], b"", mr=0, md=1, is_compressed=True)
    c = run(chunk(page, mr=0, md=1, codec=1), body)
    assert values_with_nulls(c) == [None, None, None]
    assert isinstance(c.values, np.ndarray) and len(c.values) == 0
