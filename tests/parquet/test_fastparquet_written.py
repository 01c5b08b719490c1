"""A second writer: flat columns with nulls written by fastparquet (its own encoders, v1 pages,
INT96 or INT64 times, several codecs) read back as pandas holds them."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import fastparquet
import pandas as pd
import pyarrow.parquet as papq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lakestruct.parquet as lp
from lakestruct.parquet.values import read_rows

ROWS = st.lists(
    st.tuples(
        st.none() | st.integers(-(2**63), 2**63 - 1),
        st.none() | st.text(max_size=5),
        st.floats(allow_nan=False, allow_infinity=False),
        st.booleans(),
        st.none() | st.integers(0, 2**62 // 1000).map(lambda us: us * 1000),
    ),
    min_size=1,
    max_size=30,
)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return bool(a == b)


@settings(max_examples=40, deadline=None)
@given(
    ROWS, st.sampled_from(["UNCOMPRESSED", "SNAPPY", "GZIP", "ZSTD", "BROTLI", "LZ4"]), st.sampled_from(["int64", "int96"]), st.booleans()
)
def test_fastparquet_flat_columns(
    tmp_path_factory: pytest.TempPathFactory, rows: list[tuple[Any, ...]], codec: str, times: str, dic: bool
) -> None:
    df = pd.DataFrame(
        {
            "i": pd.array([r[0] for r in rows], dtype="Int64"),
            "s": pd.Series([r[1] for r in rows], dtype=object),
            "f": [r[2] for r in rows],
            "b": [r[3] for r in rows],
            "t": pd.to_datetime([r[4] for r in rows], unit="ns").astype("datetime64[us]"),  # TIMESTAMP(MICROS) with times="int64"
        }
    )
    path = Path(tmp_path_factory.mktemp("fp")) / "x.parquet"
    fastparquet.write(str(path), df, compression=codec, times=times, row_group_offsets=7, object_encoding="utf8", stats=False)
    pf = lp.open(path)
    with pf:
        assert read_rows(pf, "i") == [None if v is None else v for v in (r[0] for r in rows)]
        assert read_rows(pf, "s") == [r[1] for r in rows]
        assert all(_same(a, b) for a, b in zip(read_rows(pf, "f"), [r[2] for r in rows], strict=True))
        assert read_rows(pf, "b") == [r[3] for r in rows]
        # timestamps: pyarrow reads the stored integers (fastparquet stores a microsecond series as INT96
        # nanoseconds without scaling it, so the input rows are not the oracle here)
        arrow_t = papq.read_table(path, columns=["t"]).column(0).cast("int64").to_pylist()
        assert read_rows(pf, "t") == arrow_t
        if times == "int64":
            assert arrow_t == [None if r[4] is None else r[4] // 1000 for r in rows]
