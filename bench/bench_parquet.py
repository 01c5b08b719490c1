"""Parquet structure: page-header scan and footer parse, side by side with the peers.

1. Page-header scan of a file with >= 3,000 pages (written here with pyarrow, small
   data_page_size): lakestruct's ``for page in pq.pages()`` (typed PageHeader models,
   chunk bounds and overruns checked) against the same loop on fastparquet's compiled
   reader (``ThriftObject.from_buffer(buf, "PageHeader")`` over each chunk, reading
   ``compressed_page_size`` and seeking past the body, as ``fastparquet.core`` does).
   Goal >= 1.0x.
2. Footer parse of a 10,000-column file: ``lakestruct.parquet.open`` (typed FileMetaData)
   against a 1 s budget (goal: at least 2x under it, "well under a second") and, for the
   record, against pyarrow's ``pq.read_metadata`` (goal 0 = informational).
3. The same scan on the pure-Python twin and on the Kaitai engine, informational.
"""

from __future__ import annotations

import io
import os
import tempfile
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as papq
from common import Result, best_of
from fastparquet.cencoding import NumpyIO, ThriftObject

import lakestruct.parquet as lp
from lakestruct.thrift import compact

N_ROWS = 400_000


def _many_pages() -> bytes:
    t = pa.table({"a": np.arange(N_ROWS, dtype=np.int64), "b": (np.arange(N_ROWS) % 1000).astype(np.int32)})
    buf = io.BytesIO()
    papq.write_table(t, buf, data_page_size=1024, write_batch_size=128, compression="NONE", row_group_size=N_ROWS // 2)
    return buf.getvalue()


def _wide() -> bytes:
    t = pa.table({f"c{i}": pa.array([i, i + 1], pa.int64()) for i in range(10_000)})
    buf = io.BytesIO()
    papq.write_table(t, buf)
    return buf.getvalue()


def run() -> list[Result]:
    results: list[Result] = []
    data = _many_pages()
    pq = lp.open(data)
    chunks = [pq.chunk_range(rg, c) for rg in range(pq.num_row_groups) for c in range(len(pq.columns()))]
    n_pages = sum(1 for _ in pq.pages())
    assert n_pages >= 3000, n_pages

    def ours() -> int:
        f = lp.open(data)
        n = 0
        for p in f.pages():
            n += p.compressed_size >= 0
        return n

    def peer() -> int:
        n = 0
        for s, e in chunks:
            buf = NumpyIO(data[s:e])
            pos = 0
            while pos < e - s:
                ph = ThriftObject.from_buffer(buf, "PageHeader")
                pos = buf.tell() + ph.compressed_page_size
                buf.seek(pos)
                n += 1
        return n

    assert ours() == peer() == n_pages
    t_ours = best_of(ours, repeat=15)
    t_peer = best_of(peer, repeat=15)
    results.append(
        Result(
            f"page-header scan ({n_pages} pages)",
            "fastparquet ThriftObject.from_buffer",
            t_peer / t_ours,
            1.0,
            f"ours {t_ours * 1e3:.2f} ms ({t_ours / n_pages * 1e6:.2f} us/page, compiled={compact._compiled is not None}), "
            f"fastparquet {t_peer * 1e3:.2f} ms",
        )
    )

    # the pure-Python twin and the declarative engine, for the record
    saved = compact._compiled
    try:
        compact._compiled = None
        import lakestruct.parquet.pages as pages_mod
        import lakestruct.thrift.typed as typed_mod

        pages_mod._compiled, typed_mod._compiled = None, None
        t_pure = best_of(ours, repeat=3)
    finally:
        compact._compiled = saved
        pages_mod._compiled, typed_mod._compiled = saved, saved
    results.append(
        Result("page-header scan, pure-Python twin", "fastparquet ThriftObject.from_buffer", t_peer / t_pure, 0.0, f"{t_pure * 1e3:.1f} ms")
    )

    def kaitai() -> int:
        return sum(1 for _ in lp.open(data, engine="kaitai").pages())

    t_k = best_of(kaitai, repeat=1)
    results.append(
        Result("page-header scan, Kaitai engine", "fastparquet ThriftObject.from_buffer", t_peer / t_k, 0.0, f"{t_k * 1e3:.0f} ms")
    )

    wide = _wide()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "wide.parquet")
        with open(path, "wb") as f:
            f.write(wide)
        t0 = time.perf_counter()
        lp.open(path)
        first = time.perf_counter() - t0
        t_meta = best_of(lambda: lp.open(path), repeat=5)
        t_pa = best_of(lambda: papq.read_metadata(path), repeat=5)
    flen = lp.open(wide).footer.length
    results.append(
        Result(
            "footer parse, 10,000 columns, vs a 1 s budget",
            "1 s budget",
            1.0 / t_meta,
            2.0,  # "well under a second": at least twice as fast as the budget
            f"ours {t_meta * 1e3:.0f} ms, first call {first * 1e3:.0f} ms",
        )
    )
    results.append(
        Result(
            "footer parse, 10,000 columns",
            "pyarrow pq.read_metadata",
            t_pa / t_meta,
            0.0,
            f"ours {t_meta * 1e3:.0f} ms (first call {first * 1e3:.0f} ms; goal: well under 1 s), "
            f"pyarrow {t_pa * 1e3:.0f} ms, footer {flen} bytes",
        )
    )
    return results


if __name__ == "__main__":
    for r in run():
        print(f"{r.name}: {r.ratio:.2f}x vs {r.peer} (goal {r.goal_text}) {r.detail}")
