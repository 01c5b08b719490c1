"""lakestruct's Iceberg table writer (lakestruct.iceberg.write) held to independent readers.

Oracles: pyiceberg 0.12 reads the tables (snapshots, ``inspect.files()``, ``scan().plan_files()``, and the rows its
scan returns: each row carries a unique ``id``, so the ids a scan returns say exactly which positions of which file
are deleted); fastavro reads every manifest and manifest list, whose Avro schemas must carry the field ids of the
Iceberg spec (format/spec.md, copied here from the spec's tables, not from the writer); Puffin footers are read by
lakestruct's Puffin reader; and lakestruct's Iceberg reader (``open_table(root).state()``, ``check()``,
``orphans()``) must find the live state a plain in-memory model says the writes made.
"""

from __future__ import annotations

import glob
import itertools
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lakestruct as ls
from lakestruct.errors import UsageError
from lakestruct.iceberg.write import TableWriter, data_file, fields_from_arrow

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

# -- the spec's field ids (format/spec.md, "Manifests" and "Manifest Lists" tables) ------------------------------------
SPEC_ENTRY = {"status": 0, "snapshot_id": 1, "sequence_number": 3, "file_sequence_number": 4, "data_file": 2}
SPEC_DATA_FILE = {
    "content": 134, "file_path": 100, "file_format": 101, "partition": 102, "record_count": 103, "file_size_in_bytes": 104,
    "column_sizes": 108, "value_counts": 109, "null_value_counts": 110, "nan_value_counts": 137, "lower_bounds": 125,
    "upper_bounds": 128, "key_metadata": 131, "split_offsets": 132, "equality_ids": 135, "sort_order_id": 140,
    "referenced_data_file": 143,
}  # fmt: skip
SPEC_DATA_FILE_V3 = {"first_row_id": 142, "content_offset": 144, "content_size_in_bytes": 145}
SPEC_MAP_IDS = {"column_sizes": (117, 118), "value_counts": (119, 120), "null_value_counts": (121, 122),
                "nan_value_counts": (138, 139), "lower_bounds": (126, 127), "upper_bounds": (129, 130)}  # fmt: skip
SPEC_MANIFEST_FILE = {
    "manifest_path": 500, "manifest_length": 501, "partition_spec_id": 502, "content": 517, "sequence_number": 515,
    "min_sequence_number": 516, "added_snapshot_id": 503, "added_files_count": 504, "existing_files_count": 505,
    "deleted_files_count": 506, "added_rows_count": 512, "existing_rows_count": 513, "deleted_rows_count": 514,
    "partitions": 507, "key_metadata": 519,
}  # fmt: skip
SPEC_FIELD_SUMMARY = {"contains_null": 509, "contains_nan": 518, "lower_bound": 510, "upper_bound": 511}

SCHEMA = pa.schema([pa.field("id", pa.int64(), False, {"PARQUET:field_id": "1"}),
                    pa.field("kind", pa.string(), True, {"PARQUET:field_id": "2"})])  # fmt: skip


class Lake:
    """A table being written, and the model of what it holds: {data file path: (ids of its rows, deleted positions)}."""

    def __init__(self, root: str, version: int, partitioned: bool = False, seed: int = 0) -> None:
        self.root = root
        self.version = version
        self.partitioned = partitioned
        spec = [("kind", "identity", "kind")] if partitioned else None
        self.w = TableWriter(root, fields_from_arrow(SCHEMA), spec, format_version=version, seed=seed)
        self.files: dict[str, tuple[np.ndarray[Any, Any], set[int], str]] = {}
        self.next_id = 0
        self.n = 0
        self.history: list[tuple[int, set[int]]] = []  # (snapshot id, live ids)

    def _write(self, ids: np.ndarray[Any, Any], kind: str) -> Any:
        path = os.path.join(self.root, "data", f"f{self.n:04d}.parquet")
        self.n += 1
        pq.write_table(pa.table({"id": ids, "kind": [kind] * len(ids)}, schema=SCHEMA), path)
        df = data_file(path, partition={"kind": kind} if self.partitioned else None)
        self.files[df.file_path] = (ids, set(), kind)
        return df

    def new_file(self, rows: int, kind: str = "a") -> Any:
        ids = np.arange(self.next_id, self.next_id + rows, dtype=np.int64)
        self.next_id += rows
        return self._write(ids, kind)

    def record(self, sid: int) -> None:
        self.history.append((sid, self.live_ids()))

    def append(self, sizes: list[tuple[int, str]]) -> None:
        self.record(self.w.append([self.new_file(n, k) for n, k in sizes]))

    def delete(self, todo: dict[str, list[int]]) -> None:
        sid = self.w.delete_positions(todo)
        for p, pos in todo.items():
            self.files[p][1].update(pos)
        self.record(sid)

    def rewrite(self, old: list[str]) -> None:
        """Compaction: the live rows of ``old`` (one partition) into one new file."""
        kind = self.files[old[0]][2]
        ids = np.concatenate([np.array([x for i, x in enumerate(self.files[p][0]) if i not in self.files[p][1]], dtype=np.int64)
                              for p in old])  # fmt: skip
        new = self._write(ids, kind)
        for p in old:
            del self.files[p]
        self.record(self.w.rewrite(old, [new]))

    def live_ids(self) -> set[int]:
        return {int(x) for ids, dels, _ in self.files.values() for i, x in enumerate(ids) if i not in dels}


def norm(p: str) -> str:
    return "/" + p.removeprefix("file:").lstrip("/") if p.startswith("file:") else p


def assert_lakestruct_state(lake: Lake) -> None:
    t = ls.iceberg.open_table(lake.root)
    state = t.state()
    assert state.snapshot_id == lake.history[-1][0]
    got = {f.path: (f.record_count, state.positions(f).tolist()) for f in state.data_files}
    want = {p: (len(ids), sorted(dels)) for p, (ids, dels, _) in lake.files.items()}
    assert got == want
    assert [f.deleted_rows for f in state.data_files] == [len(want[f.path][1]) for f in state.data_files]
    if lake.version >= 3:  # at most one live DV per data file, and only for files with deletes
        refs = [d.referenced_data_file for d in state.delete_files]
        assert all(d.kind == "deletion-vector" for d in state.delete_files)
        assert sorted(refs) == sorted(p for p, (_, dels, _) in lake.files.items() if dels)  # type: ignore[type-var]
    assert [str(e) for e in t.check()] == []
    assert t.orphans() == []


def build_story(root: str, version: int) -> Lake:
    """The demo lake's story: one append of 3 files, two DELETEs (the second extends the first's DVs), a compaction."""
    lake = Lake(root, version, seed=3)
    lake.append([(1000, "a"), (800, "a"), (600, "a")])
    f0, f1, _f2 = list(lake.files)
    lake.delete({f0: list(range(0, 1000, 10)), f1: [1, 2, 3, 799]})
    lake.delete({f0: list(range(5, 1000, 10)), f1: list(range(100, 200))})
    lake.rewrite([f1])
    return lake


@pytest.fixture(params=[3, 2], ids=["v3", "v2"])
def story(request: pytest.FixtureRequest, tmp_path: Path) -> Lake:
    return build_story(str(tmp_path / "t"), request.param)


# -- lakestruct's reader ---------------------------------------------------------------------------------------------


def test_lakestruct_live_state_equals_what_was_written(story: Lake) -> None:
    assert_lakestruct_state(story)
    t = ls.iceberg.open_table(story.root)
    # every earlier snapshot too: time travel gives the model's state at that commit
    for sid, ids in story.history:
        st_ = t.state(snapshot_id=sid)
        assert sum(f.record_count - (f.deleted_rows or 0) for f in st_.data_files) == len(ids)
    assert [s.operation for s in t.snapshots()] == ["append", "delete", "delete", "replace"]


def test_superseded_dv_is_deleted_in_the_new_snapshot(tmp_path: Path) -> None:
    """The second DELETE's DVs hold the union and the first's manifest entries are DELETED (as Iceberg Java does);
    the compaction marks the compacted file's DV DELETED. Read with fastavro and lakestruct's Puffin reader."""
    lake = build_story(str(tmp_path / "t"), 3)
    f0 = next(iter(lake.files))
    md = json.loads(Path(lake.w.metadata_path).read_text())
    snaps = md["snapshots"]

    def delete_entries(snap: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        for m in read_avro(local(snap["manifest-list"]))[1]:
            if m["content"] == 1:
                out += read_avro(local(m["manifest_path"]))[1]
        return out

    first = delete_entries(snaps[1])
    assert sorted(e["status"] for e in first) == [1, 1]
    second = delete_entries(snaps[2])
    added = {e["data_file"]["referenced_data_file"]: e for e in second if e["status"] == 1}
    deleted = {e["data_file"]["referenced_data_file"]: e for e in second if e["status"] == 2}
    assert set(added) == set(deleted) == {e["data_file"]["referenced_data_file"] for e in first}
    assert deleted[f0]["snapshot_id"] == snaps[2]["snapshot-id"] and deleted[f0]["sequence_number"] == 2
    f1 = next(r for r in added if r != f0)
    want = {f0: set(range(0, 1000, 10)) | set(range(5, 1000, 10)), f1: {1, 2, 3, 799} | set(range(100, 200))}
    for ref, e in added.items():
        df = e["data_file"]
        dv = ls.deletes.read_deletion_vector(local(df["file_path"]), offset=df["content_offset"], length=df["content_size_in_bytes"])
        assert set(dv.positions().tolist()) == want[ref]
        assert df["record_count"] == dv.cardinality and df["file_format"] == "PUFFIN"
        old = deleted[ref]["data_file"]
        old_dv = ls.deletes.read_deletion_vector(local(old["file_path"]), offset=old["content_offset"], length=old["content_size_in_bytes"])
        assert set(old_dv.positions().tolist()) < set(dv.positions().tolist())
        with ls.puffin.open(local(df["file_path"])) as pf:
            blob = next(b for b in pf.blobs if b.offset == df["content_offset"])
            assert blob.length == df["content_size_in_bytes"] and blob.properties["referenced-data-file"] == ref
    third = delete_entries(snaps[3])
    assert sorted(e["status"] for e in third) == [0, 2]  # f0's DV lives on, the compacted file's is DELETED
    summary = snaps[2]["summary"]
    assert summary["removed-dvs"] == "2" and summary["added-dvs"] == "2"
    assert summary["total-position-deletes"] == str(len(want[f0]) + len(want[f1]))
    assert summary["removed-position-deletes"] == str(100 + 4) and summary["added-position-deletes"] == summary["total-position-deletes"]
    assert int(snaps[3]["summary"]["total-position-deletes"]) == sum(len(d) for _, d, _ in lake.files.values())


# -- fastavro and the spec's field ids ------------------------------------------------------------------------------


def read_avro(path: str) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, str]]:
    import fastavro

    with open(path, "rb") as f:
        r = fastavro.reader(f)
        return json.loads(r.metadata["avro.schema"]), list(r), dict(r.metadata)


def local(uri: str) -> str:
    return norm(uri)


def ids_of(record: dict[str, Any]) -> dict[str, int]:
    return {f["name"]: f["field-id"] for f in record["fields"]}


def inner(t: Any) -> Any:
    return next(x for x in t if x != "null") if isinstance(t, list) else t


@pytest.mark.parametrize("version", [2, 3])
def test_every_manifest_reads_with_fastavro_and_carries_the_spec_field_ids(tmp_path: Path, version: int) -> None:
    lake = build_story(str(tmp_path / "t"), version)
    lists = glob.glob(os.path.join(lake.root, "metadata", "snap-*.avro"))
    manifests = glob.glob(os.path.join(lake.root, "metadata", "*-m*.avro"))
    assert len(lists) == 4 and len(manifests) >= 5
    for p in lists:
        schema, records, meta = read_avro(p)
        want = dict(SPEC_MANIFEST_FILE, **({"first_row_id": 520} if version >= 3 else {}))
        assert ids_of(schema) == want
        parts = inner(next(f for f in schema["fields"] if f["name"] == "partitions")["type"])
        assert parts["element-id"] == 508 and ids_of(parts["items"]) == SPEC_FIELD_SUMMARY
        assert meta["format-version"] == str(version) and int(meta["sequence-number"]) >= 1
        for r in records:
            assert r["manifest_length"] == os.path.getsize(local(r["manifest_path"]))
            assert (r["first_row_id"] is not None) == (version >= 3 and r["content"] == 0) if version >= 3 else "first_row_id" not in r
    for p in manifests:
        schema, records, meta = read_avro(p)
        assert ids_of(schema) == SPEC_ENTRY
        df = inner(next(f for f in schema["fields"] if f["name"] == "data_file")["type"])
        assert ids_of(df) == dict(SPEC_DATA_FILE, **(SPEC_DATA_FILE_V3 if version >= 3 else {}))
        for name, (k, v) in SPEC_MAP_IDS.items():
            m = inner(next(f for f in df["fields"] if f["name"] == name)["type"])
            assert m["logicalType"] == "map" and ids_of(m["items"]) == {"key": k, "value": v}
        assert meta["content"] in ("data", "deletes") and meta["format-version"] == str(version)
        assert json.loads(meta["schema"])["fields"][0] == {"id": 1, "name": "id", "required": True, "type": "long"}
        for r in records:
            assert r["data_file"]["content"] == (0 if meta["content"] == "data" else 1)
            if r["status"] == 1:  # ADDED entries inherit their sequence numbers
                assert r["sequence_number"] is None and r["file_sequence_number"] is None
            else:
                assert r["sequence_number"] is not None and r["snapshot_id"] is not None


def test_v3_row_lineage(tmp_path: Path) -> None:
    """first-row-id / added-rows / next-row-id: each snapshot's ids start where the last ended, and every data file
    (ADDED ones by inheritance) gets a distinct id range."""
    lake = build_story(str(tmp_path / "t"), 3)
    md = json.loads(Path(lake.w.metadata_path).read_text())
    nxt = 0
    for s in md["snapshots"]:
        assert s["first-row-id"] == nxt
        nxt += s["added-rows"]
    assert md["next-row-id"] == nxt
    t = ls.iceberg.open_table(lake.root)
    ranges = sorted((f.extra["first_row_id"], f.record_count) for f in t.state().data_files)
    assert all(a + n <= b for (a, n), (b, _) in itertools.pairwise(ranges))
    assert ranges[-1][0] + ranges[-1][1] <= nxt


# -- pyiceberg ---------------------------------------------------------------------------------------------------------


def static(lake: Lake) -> Any:
    pyiceberg_table = pytest.importorskip("pyiceberg.table")
    return pyiceberg_table.StaticTable.from_metadata(lake.w.metadata_path)


def test_pyiceberg_reads_the_tables(story: Lake) -> None:
    t = static(story)
    assert t.metadata.format_version == story.version
    assert [s.snapshot_id for s in t.snapshots()] == [sid for sid, _ in story.history]
    assert [s.summary.operation.value for s in t.snapshots()] == ["append", "delete", "delete", "replace"]
    # the rows pyiceberg's scan returns are the model's live rows, at every snapshot
    for sid, ids in story.history:
        got = t.scan(snapshot_id=sid).to_arrow().column("id").to_pylist()
        assert sorted(got) == sorted(ids)
    files = t.inspect.files().to_pylist()
    assert sorted((f["file_path"], f["record_count"]) for f in files if f["content"] == 0) == sorted(
        (p, len(ids)) for p, (ids, _, _) in story.files.items())
    dels = [f for f in files if f["content"] == 1]
    if story.version >= 3:  # one DV per data file with deletes, holding all of them
        assert sum(f["record_count"] for f in dels) == sum(len(d) for _, d, _ in story.files.values())
    else:  # position delete files: their rows (read by pyarrow) that name live files are the model's deletes
        rows = {(r["file_path"], r["pos"]) for f in dels for r in pq.read_table(local(f["file_path"])).to_pylist()}
        assert all(f["record_count"] == pq.read_metadata(local(f["file_path"])).num_rows for f in dels)
        assert {(p, x) for p, x in rows if p in story.files} == {(p, x) for p, (_, d, _) in story.files.items() for x in d}
    planned = {task.file.file_path: {d.file_path for d in task.delete_files} for task in t.scan().plan_files()}
    assert set(planned) == set(story.files)
    for p, (_, d, _) in story.files.items():
        if d:
            assert planned[p], p  # pyiceberg 0.12 plans DVs by partition, so files without deletes may list some too
    if story.version == 2:  # pyiceberg 0.12's entries table needs column_sizes, which Java leaves null on DVs (v3)
        entries = t.inspect.entries().to_pylist()
        assert sorted((e["status"], e["data_file"]["content"]) for e in entries) == [(0, 0), (0, 0), (1, 0), (1, 1), (1, 1), (2, 0)]
        assert {e["sequence_number"] for e in entries if e["status"] == 1 and e["data_file"]["content"] == 0} == {4}
    snap = t.current_snapshot()
    assert snap is not None and int(snap.summary["total-records"]) == sum(len(i) for i, _, _ in story.files.values())


def test_pyiceberg_prunes_partitions_by_the_manifest_summaries(tmp_path: Path) -> None:
    """An identity-partitioned table: pyiceberg plans a partition filter from the partition tuples and the manifest
    list's field summaries the writer computed, and returns that partition's live rows."""
    lake = Lake(str(tmp_path / "t"), 3, partitioned=True)
    lake.append([(50, "a"), (40, "b")])
    lake.append([(30, "c")])
    fa, fb, fc = list(lake.files)
    lake.delete({fa: [0, 1], fc: [29]})
    assert_lakestruct_state(lake)
    t = static(lake)
    from pyiceberg.expressions import EqualTo

    for kind, f in (("a", fa), ("b", fb), ("c", fc)):
        tasks = list(t.scan(row_filter=EqualTo("kind", kind)).plan_files())
        assert [task.file.file_path for task in tasks] == [f]
        got = t.scan(row_filter=EqualTo("kind", kind)).to_arrow().column("id").to_pylist()
        ids, dels, _ = lake.files[f]
        assert sorted(got) == [int(x) for i, x in enumerate(ids) if i not in dels]
    lists = [read_avro(local(s.manifest_list))[1] for s in t.snapshots()]
    summaries = [m["partitions"][0] for m in lists[-1] if m["content"] == 0]
    assert sorted((s["lower_bound"], s["upper_bound"]) for s in summaries) == [(b"a", b"b"), (b"c", b"c")]


# -- hypothesis: random histories against the model ------------------------------------------------------------------


@st.composite
def histories(draw: st.DrawFn) -> list[tuple[str, Any]]:
    ops: list[tuple[str, Any]] = [("append", draw(st.lists(st.integers(1, 70), min_size=1, max_size=3)))]
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["append", "delete", "delete", "rewrite"]))
        if kind == "append":
            ops.append(("append", draw(st.lists(st.integers(1, 70), min_size=1, max_size=2))))
        else:
            ops.append((kind, draw(st.randoms(use_true_random=False))))
    return ops


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(version=st.sampled_from([2, 3]), ops=histories())
def test_random_histories_equal_the_model(version: int, ops: list[tuple[str, Any]]) -> None:
    """Random appends, deletes (some extending earlier DVs) and compactions: lakestruct's reader finds the model's
    deleted positions per file, no broken rule and no orphan; pyiceberg's scan returns the model's live rows."""
    with tempfile.TemporaryDirectory() as d:
        lake = Lake(os.path.join(d, "t"), version)
        for kind, arg in ops:
            if kind == "append":
                lake.append([(n, "a") for n in arg])
            elif kind == "delete":
                paths = sorted(lake.files)
                chosen = arg.sample(paths, arg.randint(1, len(paths)))
                todo = {p: arg.sample(range(len(lake.files[p][0])), arg.randint(1, len(lake.files[p][0]))) for p in chosen}
                lake.delete(todo)
            else:
                paths = sorted(lake.files)
                old = arg.sample(paths, arg.randint(1, len(paths)))
                if sum(len(lake.files[p][0]) - len(lake.files[p][1]) for p in old) == 0:
                    continue  # nothing live to compact into a new file
                lake.rewrite(old)
        assert_lakestruct_state(lake)
        t = ls.iceberg.open_table(lake.root)
        for sid, ids in lake.history:
            assert t.state(snapshot_id=sid).live_rows == len(ids)
        try:
            from pyiceberg.table import StaticTable
        except ImportError:
            return
        got = StaticTable.from_metadata(lake.w.metadata_path).scan().to_arrow().column("id").to_pylist()
        assert sorted(got) == sorted(lake.live_ids())  # pyiceberg applies the deletes to the rows the same way


# -- bad usage -------------------------------------------------------------------------------------------------------


def test_bad_usage_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lake = Lake(str(tmp_path / "t"), 3)
    lake.append([(10, "a")])
    (p,) = lake.files
    with pytest.raises(UsageError, match="positions"):
        lake.w.delete_positions({p: [10]})
    with pytest.raises(UsageError, match="not a live data file"):
        lake.w.delete_positions({p + "x": [1]})
    with pytest.raises(UsageError, match="already"):
        lake.w.append([data_file(local(p))])
    with pytest.raises(UsageError, match="exists"):
        TableWriter(lake.root, fields_from_arrow(SCHEMA))
    with pytest.raises(UsageError, match="format_version"):
        TableWriter(str(tmp_path / "u"), fields_from_arrow(SCHEMA), format_version=1)
    with pytest.raises(UsageError, match="partition"):
        TableWriter(str(tmp_path / "v"), fields_from_arrow(SCHEMA), [("nope", "identity", "x")])
    v2 = Lake(str(tmp_path / "w"), 2)
    v2.append([(10, "a")])
    import builtins

    real = builtins.__import__

    def no_pyarrow(name: str, *a: Any, **k: Any) -> Any:
        if name.startswith("pyarrow"):
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    with pytest.raises(UsageError, match="pyarrow"):
        v2.w.delete_positions({next(iter(v2.files)): [1]})


# -- the demo lake's Iceberg table ---------------------------------------------------------------------------------


def test_demo_lake_events_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``lakestruct demo-lake``'s Iceberg v3 table, built without pyiceberg importable: two superseding DELETEs, a
    compaction and an orphan; pyiceberg's scan (event ids are unique, file i holds ids i*rows..) says which rows are
    live, and lakestruct's live state, checks and orphans agree."""
    import sys

    from lakestruct.spark import demolake

    monkeypatch.setitem(sys.modules, "pyiceberg", None)  # the demo lake needs lakestruct[spark] only
    out = demolake.build(str(tmp_path / "lake"), rows_per_file=800)
    monkeypatch.delitem(sys.modules, "pyiceberg")
    root = str(tmp_path / "lake" / demolake.EVENTS)
    assert all(os.path.isfile(p) and p.startswith(root) for p in out["iceberg"])
    assert out["parquet"] and all("orders" in p for p in out["parquet"])  # the rest of the lake is as before
    t = ls.iceberg.open_table(root)
    assert [s.operation for s in t.snapshots()] == ["append", "delete", "delete", "replace"]
    second = t.snapshots()[2].summary
    assert second["added-dvs"] == second["removed-dvs"] == "2"
    assert [str(e) for e in t.check()] == []
    assert sorted(o.path for o in t.orphans()) == sorted(out["iceberg-orphans"])
    state = t.state()
    rows = 200
    by_name = {Path(norm(f.path)).name: f for f in state.data_files}
    assert sorted(by_name) == ["00000-0-events.parquet", "00002-0-events.parquet", "00003-1-events-compacted.parquet"]
    assert by_name["00000-0-events.parquet"].deleted_rows == rows // 5
    assert by_name["00002-0-events.parquet"].deleted_rows == 0 and not by_name["00003-1-events-compacted.parquet"].deletes
    pyiceberg_table = pytest.importorskip("pyiceberg.table")
    pt = pyiceberg_table.StaticTable.from_metadata(os.path.join(root, "metadata", "v5.metadata.json"))
    live = set(pt.scan().to_arrow().column("event_id").to_pylist())
    f0 = by_name["00000-0-events.parquet"]
    assert state.positions(f0).tolist() == sorted(set(range(rows)) - {x for x in live if x < rows})
    assert len(live) == sum(f.record_count - (f.deleted_rows or 0) for f in state.data_files)
    for s in pt.snapshots():  # every snapshot: pyiceberg's row count is lakestruct's live rows
        assert pt.scan(snapshot_id=s.snapshot_id).to_arrow().num_rows == t.state(snapshot_id=s.snapshot_id).live_rows


# -- Iceberg Java ------------------------------------------------------------------------------------------------------


@pytest.mark.xdist_group("iceberg_java")
def test_iceberg_java_reads_the_tables(tmp_path: Path) -> None:
    """Iceberg Java 1.10 (Spark 3.5, Hadoop catalog) reads the v3 and v2 story tables and a partitioned v3 table:
    the rows (``_file``, ``_pos``, ``id``) of every snapshot are the model's live rows, its ``entries`` table shows the
    superseded DVs and the compacted file DELETED with the sequence numbers it inherited, and its ``delete_files``
    are one DV per data file holding the model's deletes (v3)."""
    import subprocess

    from tests.iceberg.iceberg_java_env import iceberg_java

    env, why = iceberg_java()
    if env is None:
        pytest.skip(why)
    python, jars = env
    wh = tmp_path / "wh"
    lakes = {"v3": build_story(str(wh / "db" / "v3"), 3), "v2": build_story(str(wh / "db" / "v2"), 2)}
    parted = lakes["parted"] = Lake(str(wh / "db" / "parted"), 3, partitioned=True, seed=5)
    parted.append([(300, "a"), (200, "b")])
    fa, fb = list(parted.files)
    parted.delete({fa: list(range(0, 300, 3)), fb: [0]})
    parted.delete({fb: list(range(100, 200))})
    out = tmp_path / "java.json"
    r = subprocess.run([str(python), str(Path(__file__).parent / "iceberg_java_reader.py"), jars, str(wh), str(out), *lakes],
                       capture_output=True, text=True, timeout=1200, check=False)  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    java = json.loads(out.read_text())
    for name, lake in lakes.items():
        got = java[name]
        assert [s["snapshot_id"] for s in got["snapshots"]] == [sid for sid, _ in lake.history], name
        for sid, ids in lake.history:
            assert sorted(x[2] for x in got["rows"][str(sid)]) == sorted(ids), (name, sid)
        for file, pos, id_ in got["rows"][str(lake.history[-1][0])]:
            ids, dels, _ = lake.files[file]
            assert ids[pos] == id_ and pos not in dels
        entries = {(e["file_path"], e["referenced_data_file"], e["status"]): e for e in got["entries"]}
        assert all(e["sequence_number"] is not None and e["file_sequence_number"] is not None for e in got["entries"])
        if name == "parted":
            assert [s["operation"] for s in got["snapshots"]] == ["append", "delete", "delete"]
            assert sorted(e["status"] for e in got["entries"] if e["content"] == 1) == [0, 1, 2]  # fb's first DV superseded
        else:
            assert [s["operation"] for s in got["snapshots"]] == ["append", "delete", "delete", "replace"]
            deleted = [k[0] for k in entries if k[2] == 2 and e_content(entries[k]) == 0]
            assert len(deleted) == 1 and deleted[0] not in lake.files  # the compacted file
            # added by the compaction (entries of carried manifests keep the ADDED status of their own snapshot)
            added = [e for k, e in entries.items() if k[2] == 1 and e["snapshot_id"] == lake.history[-1][0]]
            assert [e["file_path"] for e in added] == [p for p in lake.files if p not in {k[0] for k in entries if k[2] != 1}]
            assert added[0]["sequence_number"] == 4  # inherited from the manifest list
            if name == "v3":  # the compacted file's DV is DELETED with it
                assert [k[1] for k in entries if k[2] == 2 and e_content(entries[k]) == 1] == deleted
        if lake.version >= 3:
            dvs = {d["referenced_data_file"]: d for d in got["delete_files"]}
            assert {p: d["record_count"] for p, d in dvs.items()} == {p: len(d) for p, (_, d, _) in lake.files.items() if d}
            assert all(d["file_format"] == "PUFFIN" and d["content_offset"] is not None for d in dvs.values())


def e_content(e: dict[str, Any]) -> int:
    return int(e["content"])


def test_a_failed_commit_leaves_the_previous_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Writing the manifest list fails: readers still see the previous snapshot (nothing the commit wrote is
    referenced: its manifests and DV file are orphans), and the writer commits again from where it was."""
    from lakestruct.iceberg import write as w_mod

    lake = Lake(str(tmp_path / "t"), 3)
    lake.append([(40, "a"), (30, "a")])
    f0, f1 = list(lake.files)
    lake.delete({f0: [1, 2]})
    before = sorted(os.listdir(os.path.join(lake.root, "metadata")))
    data_before = set(os.listdir(os.path.join(lake.root, "data")))
    real = w_mod.write_avro

    def failing(path: str, *a: Any, **k: Any) -> None:
        if os.path.basename(path).startswith("snap-"):
            raise OSError("disk full")
        real(path, *a, **k)

    monkeypatch.setattr(w_mod, "write_avro", failing)
    with pytest.raises(OSError, match="disk full"):
        lake.w.delete_positions({f0: [3], f1: [4]})
    monkeypatch.setattr(w_mod, "write_avro", real)
    t = ls.iceberg.open_table(lake.root)
    assert t.current_snapshot_id == lake.history[-1][0]
    assert [str(e) for e in t.check()] == []
    after = sorted(os.listdir(os.path.join(lake.root, "metadata")))
    new = set(after) - set(before)
    assert new and all(n.endswith("-m0.avro") or n.endswith("-m1.avro") or n.endswith("-m2.avro") for n in new)
    new_data = set(os.listdir(os.path.join(lake.root, "data"))) - data_before
    assert len(new_data) == 1 and next(iter(new_data)).endswith("-deletes.puffin")  # the failed commit's DVs
    assert {Path(o.path).name for o in t.orphans()} == new | new_data
    lake.delete({f0: [3], f1: [4]})  # the writer goes on as if the failed commit never happened
    assert_lakestruct_state_but_orphans(lake)


def assert_lakestruct_state_but_orphans(lake: Lake) -> None:
    t = ls.iceberg.open_table(lake.root)
    state = t.state()
    assert {f.path: state.positions(f).tolist() for f in state.data_files} == {p: sorted(d) for p, (_, d, _) in lake.files.items()}
    assert [str(e) for e in t.check()] == []


def test_v2_compaction_removes_the_position_delete_files_of_the_rewritten_files_only(tmp_path: Path) -> None:
    """v2: a position delete file that names only compacted files is DELETED by the compaction; one that still names
    a live file stays (it cannot apply to the new file: its sequence number is lower)."""
    lake = Lake(str(tmp_path / "t"), 2)
    lake.append([(50, "a"), (40, "a"), (30, "a")])
    f0, f1, f2 = list(lake.files)
    lake.delete({f1: [0, 1]})  # names f1 only
    lake.delete({f0: [5], f2: [6]})  # names f0 and f2
    lake.rewrite([f1, f2])
    md = json.loads(Path(lake.w.metadata_path).read_text())
    last = md["snapshots"][-1]
    assert last["summary"]["removed-position-delete-files"] == "1" and last["summary"]["total-delete-files"] == "1"
    entries = [e for m in read_avro(local(last["manifest-list"]))[1] if m["content"] == 1 for e in read_avro(local(m["manifest_path"]))[1]]
    status = {e["data_file"]["referenced_data_file"]: e["status"] for e in entries}
    assert status == {f1: 2, None: 1}  # the other one sits in a manifest carried over as it was
    for e in entries:  # file_path (field 2147483546) bounds: the data files it names (equal: file-scoped)
        df = e["data_file"]
        lo, hi = ({kv["key"]: kv["value"] for kv in df[k]} for k in ("lower_bounds", "upper_bounds"))
        named = [f1] if df["referenced_data_file"] == f1 else [f0, f2]
        assert (lo[2147483546], hi[2147483546]) == (min(named).encode(), max(named).encode())
    assert_lakestruct_state(lake)
    t = static(lake)
    assert sorted(t.scan().to_arrow().column("id").to_pylist()) == sorted(lake.live_ids())


def test_data_file_metrics_equal_pyiceberg_s(tmp_path: Path) -> None:
    """``data_file``'s column metrics from the Parquet footer (lakestruct's reader) equal what pyiceberg computes from
    pyarrow's footer (``data_file_statistics_from_parquet_metadata``): sizes, value and null counts, and the bounds
    over several row groups, for long, int, date, double, string and binary columns with nulls."""
    import datetime as dt

    pio = pytest.importorskip("pyiceberg.io.pyarrow")
    from pyiceberg.schema import Schema
    from pyiceberg.types import BinaryType, DateType, DoubleType, IntegerType, LongType, NestedField, StringType

    n = 3000
    rng = np.random.default_rng(4)

    def fid(name: str, t: Any, i: int) -> Any:
        return pa.field(name, t, True, {"PARQUET:field_id": str(i)})

    schema = pa.schema([fid("l", pa.int64(), 1), fid("i", pa.int32(), 2), fid("d", pa.date32(), 3), fid("x", pa.float64(), 4),
                        fid("s", pa.string(), 5), fid("b", pa.binary(), 6)])  # fmt: skip
    mask = rng.random(n) < 0.1
    cols = [rng.integers(-(2**40), 2**40, n), rng.integers(-1000, 1000, n).astype(np.int32),
            [dt.date(2020, 1, 1) + dt.timedelta(days=int(x)) for x in rng.integers(0, 900, n)], rng.normal(size=n),
            [f"k{x:03d}" for x in rng.integers(0, 500, n)], [bytes([x % 256, 7]) for x in rng.integers(0, 999, n)]]  # fmt: skip
    table = pa.table([pa.array(c, type=f.type, mask=mask) for c, f in zip(cols, schema, strict=True)], schema=schema)
    path = tmp_path / "m.parquet"
    pq.write_table(table, path, row_group_size=700)
    mine = data_file(path)
    ice = Schema(NestedField(1, "l", LongType()), NestedField(2, "i", IntegerType()), NestedField(3, "d", DateType()),
                 NestedField(4, "x", DoubleType()), NestedField(5, "s", StringType()), NestedField(6, "b", BinaryType()))  # fmt: skip
    stats = pio.data_file_statistics_from_parquet_metadata(pq.read_metadata(path), pio.compute_statistics_plan(ice, {}),
                                                          pio.parquet_path_to_id_mapping(ice))  # fmt: skip
    theirs = stats.to_serialized_dict()
    assert pq.read_metadata(path).num_row_groups == 5 and mine.record_count == n
    assert dict(mine.column_sizes or {}) == theirs["column_sizes"]
    assert dict(mine.value_counts or {}) == theirs["value_counts"]
    assert dict(mine.null_value_counts or {}) == theirs["null_value_counts"]
    assert len(theirs["lower_bounds"]) == len(theirs["upper_bounds"]) == 6
    assert dict(mine.lower_bounds or {}) == theirs["lower_bounds"]
    assert dict(mine.upper_bounds or {}) == theirs["upper_bounds"]
