"""Listing and packing on the driver (no Spark needed)."""

from __future__ import annotations

from pathlib import Path

import fsspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lakestruct.errors import SourceError
from lakestruct.spark.listing import input_paths, list_files, pack

MB = 1024 * 1024


def test_lists_folders_recursively_sorted_and_skips_hidden_names(tmp_path: Path) -> None:
    (tmp_path / "b" / "c").mkdir(parents=True)
    (tmp_path / "a.bin").write_bytes(b"x" * 3)
    (tmp_path / "b" / "c" / "d.bin").write_bytes(b"y" * 5)
    (tmp_path / "b" / "_SUCCESS").write_bytes(b"")
    (tmp_path / "b" / ".part.crc").write_bytes(b"zz")
    (tmp_path / "_delta_log").mkdir()
    (tmp_path / "_delta_log" / "00.json").write_bytes(b"{}")
    got = list_files([str(tmp_path)])
    assert got == [
        (str(tmp_path / "_delta_log" / "00.json"), 2),
        (str(tmp_path / "a.bin"), 3),
        (str(tmp_path / "b" / "c" / "d.bin"), 5),
    ]
    # a file given directly, twice, and as a file:// URL: listed once each spelling
    assert list_files([str(tmp_path / "a.bin"), str(tmp_path / "a.bin")]) == [(str(tmp_path / "a.bin"), 3)]


def test_missing_path_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file"):
        list_files([str(tmp_path / "nope")])


def test_fsspec_urls_are_listed_with_sizes_without_opening_files() -> None:
    fs = fsspec.filesystem("memory")
    fs.pipe({"/lake-listing/t/data/f1.parquet": b"1" * 10, "/lake-listing/t/data/f2.parquet": b"2" * 20, "/lake-listing/t/_SUCCESS": b""})
    got = list_files(["memory://lake-listing/t"])
    assert got == [("memory:///lake-listing/t/data/f1.parquet", 10), ("memory:///lake-listing/t/data/f2.parquet", 20)]
    with pytest.raises(SourceError):
        list_files(["memory://lake-listing/none"])


def test_pack_spreads_small_files_over_the_minimum_partitions_and_keeps_big_files_alone() -> None:
    small = [(f"s{i:04d}", 2_000) for i in range(10_000)]
    parts = pack(small, min_partitions=4)
    assert len(parts) >= 4
    assert sorted(p for part in parts for p, _ in part) == sorted(p for p, _ in small)
    assert len(parts) % 4 == 0 and max(len(p) for p in parts) - min(len(p) for p in parts) <= 1  # even
    big = [("big", 2_000 * MB), *small[:10]]
    parts = pack(big, min_partitions=2)
    assert ["big"] in [[p for p, _ in part] for part in parts]


def test_pack_is_deterministic_and_empty_for_no_inputs() -> None:
    inputs = [(f"f{i}", (i * 7919) % 50 * MB) for i in range(200)]
    assert pack(inputs, min_partitions=8) == pack(list(reversed(inputs)), min_partitions=8)
    assert pack([], min_partitions=3) == []


@given(st.lists(st.integers(0, 300 * MB), min_size=1, max_size=300), st.integers(1, 64))
def test_pack_balances_tasks_over_the_cores(sizes: list[int], min_parts: int) -> None:
    inputs = [(f"f{i}", s) for i, s in enumerate(sizes)]
    open_cost = 256 * 1024
    parts = pack(inputs, min_partitions=min_parts, max_partition_bytes=512 * MB, open_cost=open_cost)
    assert sorted(x for p in parts for x in p) == sorted(inputs)
    total = sum(s + open_cost for s in sizes)
    n = min(len(sizes), -(-max(min_parts, -(-total // (512 * MB))) // min_parts) * min_parts)
    assert len(parts) <= n
    biggest = max(sizes) + open_cost
    for part in parts:  # longest-processing-time first: no task exceeds the average by more than one file
        assert sum(s + open_cost for _, s in part) <= total / n + biggest
    if len(sizes) >= min_parts:
        assert len(parts) >= min_parts  # every core gets work


def test_input_paths_reads_what_spark_passes() -> None:
    assert input_paths({"path": "/a"}) == ["/a"]
    assert input_paths({"paths": '["/a", "s3://b/c"]'}) == ["/a", "s3://b/c"]
    assert input_paths({"paths": "/a, /b"}) == ["/a", "/b"]
    assert input_paths({}) == []
