"""Parquet levels/values decoding throughput, side by side with pyarrow and fastparquet.

The issue sets no numeric goal for value decoding (goal 0: informational); these figures
show where the NumPy-vectorised pure-Python decoders stand against the C++/Cython peers on
1M-row columns written by pyarrow (dictionary+SNAPPY, PLAIN+ZSTD, DELTA encodings, a nested list).
"""

from __future__ import annotations

import io
import os
import tempfile

import numpy as np
import pyarrow as pa
import pyarrow.parquet as papq
from common import Result, best_of

import lakestruct.parquet as lp
from lakestruct.parquet.values import read_column

N = 1_000_000


def _table() -> pa.Table:
    rng = np.random.default_rng(7)
    ints = rng.integers(0, 10**9, N)
    nulls = rng.random(N) < 0.2
    return pa.table(
        {
            "i64": pa.array(rng.integers(0, 1000, N)),
            "f64": pa.array(rng.random(N)),
            "str": pa.array([f"s{x}" for x in rng.integers(0, 50000, N)]),
            "opt": pa.array(ints, mask=nulls),
            "lst": pa.array([[1, 2, 3]] * N, pa.list_(pa.int32())),
        }
    )


CASES = [
    ("dict+snappy", {"use_dictionary": True, "compression": "snappy"}),
    ("plain+zstd", {"use_dictionary": False, "compression": "zstd"}),
    (
        "delta",
        {"use_dictionary": False, "compression": "none", "column_encoding": {"i64": "DELTA_BINARY_PACKED", "str": "DELTA_BYTE_ARRAY"}},
    ),
]
LEAF = {"lst": "lst.list.element"}


def run() -> list[Result]:
    import fastparquet

    t = _table()
    out: list[Result] = []
    with tempfile.TemporaryDirectory() as d:
        for label, opts in CASES:
            path = os.path.join(d, f"{label}.parquet")
            papq.write_table(t, path, **opts)
            data = open(path, "rb").read()  # noqa: SIM115
            fp = fastparquet.ParquetFile(path)
            for col in t.column_names:
                leaf = LEAF.get(col, col)

                def ours(leaf: str = leaf, data: bytes = data) -> None:
                    with lp.open(data) as pf:
                        read_column(pf, leaf)

                def arrow(col: str = col, data: bytes = data) -> None:
                    papq.read_table(io.BytesIO(data), columns=[col])

                ours_t = best_of(ours, repeat=3)
                arrow_t = best_of(arrow, repeat=3)
                detail = f"ours {ours_t * 1e3:.1f} ms, pyarrow {arrow_t * 1e3:.1f} ms"
                try:
                    fp_t = best_of(lambda col=col, fp=fp: fp.to_pandas(columns=[col]), repeat=3)
                    detail += f", fastparquet {fp_t * 1e3:.1f} ms"
                except Exception as e:  # fastparquet lacks some encodings
                    detail += f", fastparquet n/a ({type(e).__name__})"
                out.append(
                    Result(f"parquet values {label} {col} ({len(t)} rows)", "pyarrow read_table(column)", arrow_t / ours_t, 0.0, detail)
                )
    return out


if __name__ == "__main__":
    for r in run():
        print(f"{r.name:45s} {r.ratio:6.2f}  {r.detail}")
