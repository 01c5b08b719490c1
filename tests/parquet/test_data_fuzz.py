"""Corrupted pages of real files: only FormatErrors (with a rule, path and offset), never a crash or hang.

Page bodies are corrupted byte-wise and page-header fields (as the data layer sees them)
are replaced with hostile values; the page walk itself belongs to the structure layer.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lakestruct.parquet as lp
from lakestruct.errors import FormatError
from lakestruct.parquet.values import ChunkSpec, chunk_spec, decode_chunk

from ..conftest import corpus_dir

FILES = [
    "parquet-testing/data/nested_lists.snappy.parquet",
    "parquet-testing/data/datapage_v2.snappy.parquet",
    "parquet-testing/data/delta_encoding_optional_column.parquet",
    "parquet-testing/data/alltypes_plain.parquet",
    "parquet-testing/data/rle_boolean_encoding.parquet",
    "parquet-testing/data/byte_stream_split.zstd.parquet",
    "parquet-testing/data/nullable.impala.parquet",
    "generated-seed1/parquet/files/pa_nested_v2.parquet",
]


def _load() -> list[tuple[bytes, list[ChunkSpec]]]:
    c = corpus_dir()
    if c is None:
        return []
    out = []
    for rel in FILES:
        data = (c / rel).read_bytes()
        with lp.open(data) as pf:
            specs = [chunk_spec(pf, rg, col.index) for rg in range(pf.num_row_groups) for col in pf.columns()]
        out.append((data, [s for s in specs if s.pages][:12]))
    return out


CASES = _load()
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "250"))  # raise locally for a longer search


def _check(spec: ChunkSpec, data: bytes | bytearray) -> None:
    try:
        decode_chunk(spec, lambda o, n: bytes(data[o : o + n]))
    except FormatError as e:
        assert e.rule.startswith("parquet.") and e.path.startswith(spec.where_path)


@pytest.mark.corpus
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_corrupted_page_bodies(data: st.DataObject) -> None:
    if not CASES:
        pytest.skip("corpus not available")
    raw, specs = data.draw(st.sampled_from(CASES))
    spec = data.draw(st.sampled_from(specs))
    page = data.draw(st.sampled_from(list(spec.pages)))
    buf = bytearray(raw)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(page.data_offset, max(page.data_offset, page.data_offset + page.compressed_size - 1)))
        buf[at] = data.draw(st.integers(0, 255))
    _check(spec, buf)


HOSTILE = st.one_of(st.integers(-3, 3), st.integers(0, 2**31 - 1), st.just(2**31 - 1), st.integers(0, 70))


@pytest.mark.corpus
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hostile_page_header_fields(data: st.DataObject) -> None:
    if not CASES:
        pytest.skip("corpus not available")
    raw, specs = data.draw(st.sampled_from(CASES))
    spec = data.draw(st.sampled_from(specs))
    i = data.draw(st.integers(0, len(spec.pages) - 1))
    field = data.draw(
        st.sampled_from(
            [
                "num_values",
                "encoding",
                "definition_level_encoding",
                "repetition_level_encoding",
                "uncompressed_size",
                "num_nulls",
                "num_rows",
                "definition_levels_byte_length",
                "repetition_levels_byte_length",
                "type",
            ]
        )
    )
    pages = list(spec.pages)
    pages[i] = dataclasses.replace(pages[i], **{field: data.draw(HOSTILE)})
    other = data.draw(st.sampled_from(["codec", "physical_type", "type_length", "max_definition_level", "max_repetition_level", None]))
    changes: dict[str, object] = {"pages": pages}
    if other is not None:
        changes[other] = data.draw(st.integers(0, 9))
    _check(dataclasses.replace(spec, **changes), raw)


def test_files_exist() -> None:
    c = corpus_dir()
    if c is None:
        pytest.skip("corpus not available")
    assert all((c / f).is_file() for f in FILES)
    assert isinstance(Path(c), Path)
