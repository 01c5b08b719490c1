"""Parquet on object storage: a page walk through an fsspec source fetches page headers only (small windows),
never whole chunks, and finds exactly the pages of a local walk."""

from __future__ import annotations

import io
from typing import Any

import fsspec
import numpy as np
import pyarrow as pa
import pyarrow.parquet as papq
import pytest

import lakestruct as ls
from lakestruct import source


def _file(n: int = 600_000, width: int = 0, **opts: Any) -> bytes:
    rng = np.random.default_rng(11)
    pad = "x" * width  # wide strings: page statistics make headers larger than the first window
    t = pa.table({"a": rng.integers(0, 2**62, n), "s": pa.array([f"v{x}{pad}" for x in rng.integers(0, 10**9, n)])})
    buf = io.BytesIO()
    papq.write_table(t, buf, row_group_size=200_000, **{"compression": "none", "write_page_index": True, **opts})
    return buf.getvalue()


@pytest.mark.parametrize(
    "opts",
    [
        {},
        {"write_page_checksum": True, "compression": "zstd"},
        {
            "n": 4_000,
            "width": 1200,
            "data_page_size": 16 * 1024,
            "write_batch_size": 16,
            "use_dictionary": False,
            "write_page_index": False,
        },  # 2.4 KB headers
    ],
)
def test_remote_page_walk_reads_headers_only(monkeypatch: pytest.MonkeyPatch, opts: dict[str, Any]) -> None:
    data = _file(**opts)
    url = f"memory:///remote-reads/{len(data)}.parquet"
    fsspec.filesystem("memory").pipe(url[len("memory://") :], data)
    fetched: list[int] = []
    orig = source.FsspecSource._read

    def counted(self: source.FsspecSource, offset: int, length: int) -> bytes:
        fetched.append(length)
        return orig(self, offset, length)

    monkeypatch.setattr(source.FsspecSource, "_read", counted)
    with ls.parquet.open(url) as remote:
        assert remote.source.remote
        pages = [(p.row_group, p.column, p.offset, p.header_size, p.header) for p in remote.pages()]
    with ls.parquet.open(data) as local:
        assert not local.source.remote
        assert pages == [(p.row_group, p.column, p.offset, p.header_size, p.header) for p in local.pages()]
    assert len(pages) > 50
    header_bytes = sum(h for _, _, _, h, _ in pages)
    if "width" in opts:  # 2.4 KB headers on 20 KB pages: the window grows to two headers, one read a page
        assert sum(fetched) < 3 * header_bytes + 2 * ls.parquet.read.DEFAULT_TAIL_HINT
        assert len(fetched) < 1.2 * len(pages) + 10
    else:
        assert sum(fetched) < 0.02 * len(data), f"{sum(fetched):,} of {len(data):,} bytes for {len(pages)} pages"
    assert max(fetched) <= ls.parquet.read.DEFAULT_TAIL_HINT  # no whole-chunk reads
