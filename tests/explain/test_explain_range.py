"""A range explains without reading the file: only the footer, the headers of the touched chunk up to the
range, and the range's own bytes are read (counted at the byte source), in a Parquet file written by pyarrow."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import lakestruct as ls
from lakestruct.explain import explain
from lakestruct.source import ByteSource, open_source

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


class Counting(ByteSource):
    """A file's bytes, every range read recorded."""

    def __init__(self, path: Path) -> None:
        self.inner = open_source(str(path))
        super().__init__(str(path), self.inner.size)
        self.ranges: list[tuple[int, int]] = []

    def _read(self, offset: int, length: int) -> bytes:
        self.ranges.append((offset, length))
        return self.inner.read(offset, length)

    def close(self) -> None:
        self.inner.close()

    @property
    def bytes_read(self) -> int:
        return sum(n for _, n in self.ranges)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = np.random.default_rng(7)
    n = 1_500_000
    table = pa.table({"a": rng.integers(0, 2**62, n), "b": rng.integers(0, 2**62, n), "s": [f"v{i % 1000}" for i in range(n)]})
    path = tmp_path_factory.mktemp("explain") / "big.parquet"
    pq.write_table(table, path, row_group_size=500_000, data_page_size=64 << 10, compression="none", use_dictionary=["s"])
    return path


def test_a_range_reads_only_what_it_explains(big: Path) -> None:
    size = big.stat().st_size
    with ls.parquet.open(str(big)) as pf:
        pages = list(pf.pages(row_group=1, column=1))
        target = pages[len(pages) // 2]
        chunk = pf.chunk_range(1, 1)
        footer = pf.footer.offset
        n_pages = sum(1 for _ in pf.pages())
    assert size > 20 << 20 and len(pages) > 50
    src = Counting(big)
    ex = explain(src, format="parquet", range=(target.offset, target.end))
    src.close()
    shown = {n.path: n for _, n in ex.walk()}
    page = shown[f"row_groups[1].columns[1].pages[{target.index}]"]
    assert (page.start, page.end) == (target.offset, target.end)
    assert any(note.startswith("values: ") for note in page.notes)
    assert f"row_groups[1].columns[1].pages[{target.index}].header.data_page_header.num_values" in shown
    assert not [p for p in shown if ".pages[" in p and not p.startswith(f"row_groups[1].columns[1].pages[{target.index}]")]
    # what was read: the leading magic (one 4 KiB window), the tail (the footer), and the target chunk from its
    # start to the end of the range (page headers in 4 KiB windows, then the page itself); nothing of the other 8 chunks
    for off, n in src.ranges:
        magic = off == 0 and n <= 4096
        in_tail = off >= min(footer, size - (64 << 10))
        in_chunk = chunk[0] <= off and off + n <= target.end + 4096
        assert magic or in_tail or in_chunk, (off, n, chunk, target.offset, target.end)
    assert src.bytes_read < size / 20, (src.bytes_read, size)
    assert len(src.ranges) <= target.index + 8 < n_pages
    assert not ex.errors


def test_without_a_range_the_walk_stops_at_the_field_limit(big: Path) -> None:
    src = Counting(big)
    ex = explain(src, format="parquet", max_fields=2000)
    src.close()
    assert ex.cut_at is not None and any(f"--range {ex.cut_at:#x}:" in n for n in ex.notes)
    assert ex.fields < 2500
    assert src.bytes_read < big.stat().st_size / 4
    rest = explain(str(big), range=(ex.cut_at, None), max_fields=2000)
    first = min((n.start for _, n in rest.walk() if ".pages[" in n.path), default=None)
    assert first is not None and first >= ex.cut_at
