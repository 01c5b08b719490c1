"""Planning speed without losing rigour: the compiled manifest decoder (iceberg/targets.py) against the reference
(fastavro + the checked conversion of iceberg/manifest.py), Puffin footers parsed once per table read, and memory
bounded by one manifest plus the live set.

Oracles: the reference reading of the same bytes (every entry equal once the column metrics, which planning does not
read, are set aside; damaged manifests fail with the same rule); Iceberg Java 1.10's tables (its manifests, read both
ways); the writer's own record of what it deleted (deleted rows per file); tracemalloc for memory.
"""

from __future__ import annotations

import os
import random
import struct
import tracemalloc
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lakestruct as ls
from lakestruct.errors import FormatError
from lakestruct.iceberg import puffins, targets
from lakestruct.iceberg.manifest import iter_manifest
from lakestruct.iceberg.model import DataFile, DataFileContent, ManifestEntry
from lakestruct.iceberg.write import TableWriter

FIELDS = [{"id": 1, "name": "id", "type": "long", "required": True}, {"id": 2, "name": "day", "type": "int", "required": True},
          {"id": 3, "name": "region", "type": "string", "required": False}]  # fmt: skip


@pytest.fixture
def no_fsync() -> Iterator[None]:
    """The writer's fsync made a no-op (temporary tables: durability is not under test, and the machine is shared)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "fsync", lambda fd: None)
        yield


def _table(root: Path, *, manifests: int, per: int, dvs: int, version: int = 3, spec: list[tuple[str, str, str]] | None = None,
           seed: int = 1, metrics: bool = True) -> TableWriter:
    """``manifests`` appends of ``per`` metadata-only data files (100,000 rows each), then one DELETE of ``dvs`` of them."""
    spec = [("day", "identity", "day"), ("region", "identity", "region")] if spec is None else spec
    w = TableWriter(root, FIELDS, spec, format_version=version, seed=seed)
    rng = random.Random(seed)
    paths = []
    n = 0
    for m in range(manifests):
        files = []
        for _ in range(per):
            part = {k: v for k, v in (("day", m % 7), ("region", None if n % 11 == 0 else f"r{n % 3}")) if k in {s[2] for s in spec}}
            stats: dict[str, Any] = {}
            if metrics:
                stats = dict(column_sizes={1: 800 + n, 2: 10}, value_counts={1: 100_000, 2: 100_000}, null_value_counts={1: 0, 2: 0},
                             lower_bounds={1: struct.pack("<q", n * 100_000)}, upper_bounds={1: struct.pack("<q", n * 100_000 + 99_999)},
                             split_offsets=(4,))  # fmt: skip
            files.append(DataFile(DataFileContent.DATA, w.path_of(root / "data" / f"{n:05d}.parquet"), "PARQUET", part, 100_000,
                                  1_000_000 + n, **stats))
            paths.append(files[-1].file_path)
            n += 1
        w.append(files)
    if dvs:
        chosen = rng.sample(paths, dvs)
        w.delete_positions({p: sorted(rng.sample(range(100_000), rng.randint(1, 60))) for p in chosen})
    return w


def _no_metrics(e: ManifestEntry) -> ManifestEntry:
    return replace(e, data_file=replace(e.data_file, column_sizes=None, value_counts=None, null_value_counts=None, nan_value_counts=None,
                                        lower_bounds=None, upper_bounds=None))


def _both_ways(t: ls.iceberg.Table) -> tuple[int, int]:
    """Every manifest of every snapshot read by the plan and by the reference, live_only both ways: (manifests read by
    the plan, manifests in all). Asserts they agree."""
    planned = total = 0
    seen = set()
    for snap in t.metadata.snapshots:
        for m in t.manifest_list(snap):
            if m.manifest_path in seen:
                continue
            seen.add(m.manifest_path)
            total += 1
            for live_only in (False, True):
                ref = list(t.entries(m, live_only=live_only))
                fast = list(t.entries(m, live_only=live_only, metrics=False))
                assert [_no_metrics(e) for e in fast] == [_no_metrics(e) for e in ref], m.manifest_path
                if any(e.data_file.content == 1 and e.data_file.content_offset is None for e in ref):
                    assert fast == ref, m.manifest_path  # position delete files keep their metrics (file_path bounds)
            data = Path(t.resolve(m.manifest_path)).read_bytes()
            got = targets.planned_entries(data, manifest=m, version=t.metadata.format_version, spec_id=m.partition_spec_id, live_only=False,
                                          deletes=m.content != 0)
            if got is not None:
                planned += 1
                assert got == [_no_metrics(e) for e in t.entries(m)]
    return planned, total


@pytest.mark.parametrize(("version", "spec"), [(3, None), (3, []), (2, [("region", "identity", "region")])], ids=["v3-part", "v3", "v2"])
def test_plan_equals_reference_on_written_tables(tmp_path: Path, no_fsync: None, version: int, spec: list[Any] | None) -> None:
    w = _table(tmp_path / "t", manifests=6, per=9, dvs=0 if version == 2 else 12, version=version, spec=spec)
    if version == 3:  # a second DELETE supersedes some DVs, a compaction rewrites a manifest (EXISTING and DELETED entries)
        some = sorted(w.data_files)[:5]
        w.delete_positions({p: [1, 2, 3] for p in some})
        w.rewrite(some[:2], [DataFile(DataFileContent.DATA, w.path_of(tmp_path / "t" / "data" / "c.parquet"), "parquet",
                                      dict(w.data_files[some[0]].partition), 7, 70)])
    t = ls.iceberg.open_table(tmp_path / "t")
    planned, total = _both_ways(t)
    if targets.COMPILED:
        assert planned == total  # every manifest (data, and DVs in v3) read by the plan
    st = t.state()
    assert {f.path for f in st.data_files} == set(w.data_files)
    for f in st.data_files:
        assert f.deleted_rows == w.deleted_positions(f.path).size
        assert st.positions(f).tolist() == w.deleted_positions(f.path).tolist()


def test_plan_equals_reference_on_iceberg_java_tables(iceberg_java_tables: Any) -> None:
    """Iceberg Java 1.10's manifests (v2 and v3, DVs, position deletes, compaction, expiry, partition evolution):
    the plan, where there is one, reads what the reference reads; the state is the same either way."""
    from tests.iceberg.iceberg_java_env import TABLES

    for name in TABLES:
        t = ls.iceberg.open_table(iceberg_java_tables.table(name))
        _both_ways(t)


_METRICS = ("column_sizes", "value_counts", "null_value_counts", "nan_value_counts", "lower_bounds", "upper_bounds")


def _flip(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(b) // 3, len(b))  # past the header, mostly in the blocks
        b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def test_damaged_manifests_same_rule_both_ways(tmp_path: Path, no_fsync: None) -> None:
    """Random bit flips in a data manifest: the plan gives up and the reference reads it, so both ways give the same
    entries or the same named error (never a traceback)."""
    _table(tmp_path / "t", manifests=1, per=40, dvs=0)
    t = ls.iceberg.open_table(tmp_path / "t")
    m = t.manifest_list()[0]
    data = Path(t.resolve(m.manifest_path)).read_bytes()
    rng = random.Random(5)
    outcomes = set()
    for _ in range(300):
        bad = _flip(data, rng)

        def read(metrics: bool, bad: bytes = bad) -> Any:
            try:
                got = list(iter_manifest(bad, name="m.avro", manifest=m, metrics=metrics))
                return [_no_metrics(e) for e in got]
            except FormatError as e:
                return (e.rule, e.path)

        ref, fast = read(True), read(False)
        metrics_only = isinstance(ref, tuple) and any(k in ref[1] for k in _METRICS)
        assert fast == ref or (metrics_only and isinstance(fast, list))  # planning does not read the metrics; check() does
        outcomes.add("ok" if isinstance(ref, list) else ref[0])
    assert len(outcomes) > 2, outcomes  # the flips reached entries and framing, not only harmless bytes


def test_state_parses_each_puffin_footer_once(tmp_path: Path, no_fsync: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """300 DVs in one Puffin file: state() and check() parse its footer once each (it was once per DV: quadratic)."""
    w = _table(tmp_path / "t", manifests=3, per=100, dvs=300, metrics=False)
    import importlib

    puffin_read = importlib.import_module("lakestruct.puffin.read")

    calls = []
    real = puffin_read.parse_footer_payload

    def counting(*a: Any, **k: Any) -> Any:
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(puffin_read, "parse_footer_payload", counting)
    t = ls.iceberg.open_table(tmp_path / "t")
    st = t.state()
    assert len(calls) == 1
    assert sum(f.deleted_rows or 0 for f in st.data_files) == sum(w.deleted_positions(p).size for p in w.data_files)
    calls.clear()
    assert {e.rule for e in t.check()} == {"iceberg.file.missing"}  # (the data files are metadata only)
    assert len(calls) == 1
    calls.clear()
    some = [f for f in st.data_files if f.deletes][:20]
    assert [st.positions(f).tolist() for f in some] == [w.deleted_positions(f.path).tolist() for f in some]
    assert len(calls) == 1  # the state's positions() keeps the footers it parsed


def test_puffin_blobs_errors_named_and_cached(tmp_path: Path) -> None:
    """A DV range that is no blob of the footer is deletion-vector.manifest-range; a damaged Puffin file raises its
    rule once read and again without being read again."""
    from lakestruct.puffin import PuffinWriter

    p = tmp_path / "d.puffin"
    with PuffinWriter(str(p)) as pw:
        b = pw.add_deletion_vector(np.array([1, 5, 9], dtype=np.int64), "file:/x.parquet")
    with puffins.PuffinBlobs() as pb:
        assert pb.read_dv(str(p), b.offset, b.length).positions().tolist() == [1, 5, 9]
        with pytest.raises(FormatError) as ei:
            pb.read_dv(str(p), b.offset + 1, b.length)
        assert ei.value.rule == "deletion-vector.manifest-range"
    bad = tmp_path / "bad.puffin"
    bad.write_bytes(p.read_bytes()[:-3])
    with puffins.PuffinBlobs() as pb:
        rules = []
        for _ in range(2):
            with pytest.raises(FormatError) as ei:
                pb.read_dv(str(bad), b.offset, b.length)
            rules.append(ei.value.rule)
        assert rules[0] == rules[1] and rules[0].startswith("puffin.")


def test_state_memory_one_manifest_plus_live_set(tmp_path: Path, no_fsync: None, traced: None) -> None:
    """80 manifests of 50 files (4,000 live files, 200 with a DV): state()'s peak traced memory, less what its result
    keeps, stays within a few manifests' worth plus a part of the live set: the manifests are streamed, one at a time,
    and no second copy of the live entries is held."""
    _table(tmp_path / "t", manifests=80, per=50, dvs=200)
    t = ls.iceberg.open_table(tmp_path / "t")
    t.state()  # imports, plans and caches warmed
    manifests = [Path(t.resolve(m.manifest_path)).stat().st_size for m in t.manifest_list()]
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    st = t.state()
    kept, peak = tracemalloc.get_traced_memory()
    kept -= base
    transient = peak - base - kept
    assert len(st.data_files) == 4000
    # a few manifests' worth, plus a part of the live set's size (the DVs' Puffin footer, the delete entries)
    bound = 8 * max(manifests) + kept // 2
    assert transient < bound, (transient, bound, kept, sum(manifests))
