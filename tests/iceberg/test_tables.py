"""Iceberg tables written by pyiceberg 0.12 at test time, read by lakestruct and held to pyiceberg's own reading:
snapshots, manifest lists and manifests (field by field), the live data files of each snapshot (``plan_files``), and
the rows each live file keeps once deletes apply (pyiceberg's Arrow scan of that file's task). Position delete files
and deletion vectors are added the way the spec describes (tests/iceberg/pyiceberg_tables.py), since pyiceberg writes
neither; pyiceberg reading them is the oracle of what they delete."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

import lakestruct as ls
from tests.iceberg.pyiceberg_tables import add_deletes, local, make_table

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::UserWarning")


def _live_rows_by_pyiceberg(t: Any, snapshot_id: int | None = None) -> dict[str, int]:
    """{data file path: rows left after deletes}, each file's task read on its own by pyiceberg's Arrow scan."""
    from pyiceberg.expressions import AlwaysTrue
    from pyiceberg.io.pyarrow import ArrowScan

    scan = t.scan(snapshot_id=snapshot_id)
    out = {}
    for task in scan.plan_files():
        arrow = ArrowScan(t.metadata, t.io, t.schema(), AlwaysTrue()).to_table([task])
        out[task.file.file_path] = arrow.num_rows
    return out


def _data_files(t: Any) -> list[str]:
    return sorted(task.file.file_path for task in t.scan().plan_files())


@pytest.mark.parametrize("format_version", [1, 2])
@pytest.mark.parametrize("partitioned", [False, True])
def test_metadata_snapshots_and_manifests_equal_pyiceberg(tmp_path: Path, format_version: int, partitioned: bool) -> None:
    w = make_table(tmp_path, format_version=format_version, partitioned=partitioned)
    pt = w.table
    pt.delete("id < 20")  # copy-on-write: data files rewritten, old entries DELETED
    pt = w.catalog.load_table(pt.name())
    t = ls.iceberg.open_table(w.root)
    md = t.metadata
    pmd = pt.metadata
    assert md.format_version == pmd.format_version and md.location == pmd.location
    assert t.current_snapshot_id == pt.current_snapshot().snapshot_id
    assert md.last_sequence_number == getattr(pmd, "last_sequence_number", 0)
    assert [s.schema_id for s in md.schemas] == [s.schema_id for s in pmd.schemas]
    assert [(f.id, f.name, f.required) for f in md.schema().fields] == [(f.field_id, f.name, f.required) for f in pmd.schema().fields]
    assert [[(f.source_id, f.field_id, f.name, f.transform) for f in s.fields] for s in md.partition_specs] == \
        [[(f.source_id, f.field_id, f.name, str(f.transform)) for f in s.fields] for s in pmd.partition_specs]
    assert [(s.snapshot_id, s.parent_snapshot_id, s.sequence_number, s.timestamp_ms, s.manifest_list, dict(s.summary))
            for s in md.snapshots] == [
        (s.snapshot_id, s.parent_snapshot_id, s.sequence_number or 0, s.timestamp_ms, s.manifest_list,
         {"operation": s.summary.operation.value, **s.summary.additional_properties}) for s in pmd.snapshots]
    assert [i.id for i in t.snapshots()] == [s.snapshot_id for s in sorted(pmd.snapshots, key=lambda s: s.timestamp_ms)]
    assert {k: r.snapshot_id for k, r in md.refs.items()} == {k: r.snapshot_id for k, r in pmd.refs.items()}
    n_entries = 0
    for ps in pmd.snapshots:
        ours = t.manifest_list(t.snapshot(ps.snapshot_id))
        theirs = ps.manifests(pt.io)
        assert len(ours) == len(theirs)
        for m, pm in zip(ours, theirs, strict=True):
            assert (m.manifest_path, m.manifest_length, m.partition_spec_id, m.content, m.sequence_number, m.min_sequence_number,
                    m.added_snapshot_id, m.added_files_count, m.existing_files_count, m.deleted_files_count, m.added_rows_count,
                    m.existing_rows_count, m.deleted_rows_count) == (
                pm.manifest_path, pm.manifest_length, pm.partition_spec_id, int(pm.content), pm.sequence_number or 0,
                pm.min_sequence_number or 0, pm.added_snapshot_id, pm.added_files_count, pm.existing_files_count,
                pm.deleted_files_count, pm.added_rows_count, pm.existing_rows_count, pm.deleted_rows_count)
            assert [(p.contains_null, p.contains_nan, p.lower_bound, p.upper_bound) for p in m.partitions or ()] == \
                [(p.contains_null, p.contains_nan, p.lower_bound, p.upper_bound) for p in pm.partitions or ()]
            mine = list(t.entries(m))
            pys = pm.fetch_manifest_entry(pt.io, discard_deleted=False)
            assert len(mine) == len(pys)
            for e, pe in zip(mine, pys, strict=True):
                n_entries += 1
                d, pd = e.data_file, pe.data_file
                assert (e.status, e.snapshot_id, e.sequence_number, e.file_sequence_number) == (
                    int(pe.status), pe.snapshot_id, pe.sequence_number or 0, pe.file_sequence_number or 0)
                assert (d.content, d.file_path, d.file_format, d.record_count, d.file_size_in_bytes) == (
                    int(pd.content), pd.file_path, pd.file_format.value.lower(), pd.record_count, pd.file_size_in_bytes)
                assert list(d.partition.values()) == list(pd.partition._data)
                assert dict(d.value_counts or {}) == dict(pd.value_counts or {})
                assert dict(d.null_value_counts or {}) == dict(pd.null_value_counts or {})
                assert dict(d.lower_bounds or {}) == dict(pd.lower_bounds or {})
                assert dict(d.upper_bounds or {}) == dict(pd.upper_bounds or {})
                assert list(d.split_offsets or ()) == list(pd.split_offsets or ())
    assert n_entries >= 8
    # live state of every snapshot: the files pyiceberg plans
    for ps in pmd.snapshots:
        st = t.state(ps.snapshot_id)
        planned = {task.file.file_path: task.file.record_count for task in pt.scan(snapshot_id=ps.snapshot_id).plan_files()}
        assert {f.path: f.record_count for f in st.data_files} == planned
        assert all(f.deleted_rows == 0 and f.live_rows == f.record_count for f in st.data_files)
    assert t.check() == []
    assert t.orphans() == []


@pytest.mark.parametrize("kind", ["position", "dv"])
@pytest.mark.parametrize("partitioned", [False, True])
def test_deleted_rows_equal_pyiceberg_per_file(tmp_path: Path, kind: str, partitioned: bool) -> None:
    w = make_table(tmp_path, partitioned=partitioned, rows=120)
    files = _data_files(w.table)
    # a position past the end of the file (200 in a file of at most 120 rows) is flagged, not counted
    dels = {files[0]: [0, 1, 2, 5, 200], files[1]: [3], files[-1]: list(range(10, 30))}
    # position delete files in the partition of the files they name (one file for all when unpartitioned)
    pt = add_deletes(w, dels, kind=kind, one_file=not partitioned)
    t = ls.iceberg.open_table(w.root)
    st = t.state()
    truth = _live_rows_by_pyiceberg(pt)
    assert {f.path: f.live_rows for f in st.data_files} == truth
    by_path = {f.path: f for f in st.data_files}
    assert by_path[files[0]].positions_past_end == 1
    assert sum(f.positions_past_end for f in st.data_files) == 1
    assert st.positions(by_path[files[0]]).tolist() == [0, 1, 2, 5]
    assert st.deleted_rows == sum(f.record_count for f in st.data_files) - pt.scan().to_arrow().num_rows
    kinds = {d.kind for d in st.delete_files}
    assert kinds == {"deletion-vector" if kind == "dv" else "position-deletes"}
    if kind == "dv":  # one DV per data file, applied to it only
        assert sorted(d.referenced_data_file for d in st.delete_files) == sorted(dels)
        assert all(len(f.deletes) == (1 if f.path in dels else 0) for f in st.data_files)
    assert t.check() == []
    # the snapshot before the deletes: nothing deleted
    parent = t.snapshot().parent_snapshot_id
    assert parent is not None and t.state(parent).deleted_rows == 0


def test_position_deletes_apply_by_sequence_number_and_partition(tmp_path: Path) -> None:
    """A position delete file applies to data files of its partition with a data sequence number <= its own; a data
    file appended after it keeps all its rows even when the delete file names it (pyiceberg agrees); a delete file
    with referenced_data_file applies to that file only."""
    w = make_table(tmp_path, partitioned=True, appends=2, rows=60)
    first = _data_files(w.table)
    add_deletes(w, {first[0]: [0, 1]}, kind="position", referenced=True)
    pt = w.catalog.load_table(w.table.name())
    import pyarrow as pa

    pt.append(pa.table({"id": pa.array([1000, 1001, 1002], pa.int64()), "grp": pa.array(["g0", "g0", "g0"]),
                        "v": pa.array([1.0, 2.0, 3.0])}))
    pt = w.catalog.load_table(w.table.name())
    newest = sorted(set(_data_files(pt)) - set(first))
    assert len(newest) == 1
    # a second delete file, written now (sequence number above the new file's), naming the old and the new file
    pt = add_deletes(w, {first[0]: [7], newest[0]: [0]}, kind="position")
    t = ls.iceberg.open_table(w.root)
    st = t.state()
    assert {f.path: f.live_rows for f in st.data_files} == _live_rows_by_pyiceberg(pt)
    f0 = next(f for f in st.data_files if f.path == first[0])
    assert f0.deleted_rows == 3 and len(f0.deletes) == 2
    # the referenced delete file applies to first[0] only, though other files share its partition
    ref_path = next(d.path for d in f0.deletes if d.referenced_data_file is not None)
    assert [f.path for f in st.data_files if any(d.path == ref_path for d in f.deletes)] == [first[0]]
    # the previous snapshot: the newest file appended after the first delete file keeps its rows
    prev = t.state(t.snapshot().parent_snapshot_id)
    fn = next(f for f in prev.data_files if f.path == newest[0])
    assert fn.deleted_rows == 0
    assert {f.path: f.live_rows for f in prev.data_files} == _live_rows_by_pyiceberg(pt, t.snapshot().parent_snapshot_id)
    assert t.check() == []


def test_superseding_deletion_vector_is_not_counted_twice(tmp_path: Path) -> None:
    """The issue's 36.4 % vs 22.1 %: a second DELETE writes a new DV (the union) and marks the old one DELETED; the
    old Puffin file stays on storage for the old snapshot. Deleted rows count the live DV only; pyiceberg agrees."""
    w = make_table(tmp_path, rows=100, appends=2)
    files = _data_files(w.table)
    add_deletes(w, {files[0]: list(range(0, 20)), files[1]: [5]}, kind="dv")
    pt = add_deletes(w, {files[0]: list(range(0, 30))}, kind="dv", supersede=True)
    t = ls.iceberg.open_table(w.root)
    st = t.state()
    assert {f.path: f.deleted_rows for f in st.data_files} == {files[0]: 30, files[1]: 1}
    assert {f.path: f.live_rows for f in st.data_files} == _live_rows_by_pyiceberg(pt)
    assert len(st.delete_files) == 2
    puffins = sorted(p.name for p in (w.root / "data").glob("*.puffin"))
    assert len(puffins) == 2  # both Puffin files on storage, one DV of the older still live (files[1])
    assert t.check() == [] and t.orphans() == []
    assert t.state(t.snapshot().parent_snapshot_id).deleted_rows == 21
    # the same table without the supersede (the old DV left live): two DVs for files[0] break one-per-data-file
    w2 = make_table(tmp_path / "b", rows=100, appends=2)
    files2 = _data_files(w2.table)
    add_deletes(w2, {files2[0]: list(range(0, 20))}, kind="dv")
    add_deletes(w2, {files2[0]: list(range(0, 30))}, kind="dv")
    rules = {p.rule for p in ls.iceberg.open_table(w2.root).check()}
    assert "iceberg.dv.one-per-data-file" in rules


def test_orphans_unreferenced_and_missing(tmp_path: Path) -> None:
    w = make_table(tmp_path, rows=50, appends=2)
    files = _data_files(w.table)
    add_deletes(w, {files[0]: [1]}, kind="dv")
    t = ls.iceberg.open_table(w.root)
    assert t.orphans() == []
    stray = w.root / "data" / "00000-9-stray.parquet"
    shutil.copy(local(files[1]), stray)
    (w.root / "metadata" / "snap-1-1-leftover.avro").write_bytes(b"Obj\x01")
    (w.root / "data" / ".hidden.crc").write_bytes(b"x")
    os.unlink(local(files[0]))  # a live data file gone from storage
    found = ls.iceberg.open_table(w.root).orphans()
    unref = {(Path(o.path).name, o.role, o.size) for o in found if o.kind == "unreferenced"}
    assert unref == {("00000-9-stray.parquet", "data", stray.stat().st_size), ("snap-1-1-leftover.avro", "manifest-list", 4)}
    missing = [o for o in found if o.kind == "missing"]
    assert [(o.path, o.role, o.rows) for o in missing] == [(files[0], "data", 50)]
    assert "iceberg.file.missing" in {p.rule for p in ls.iceberg.open_table(w.root).check()}
    # no live file is an orphan: every live data and delete file is referenced
    live = {f.path for f in t.state().data_files} | {d.path for d in t.state().delete_files}
    assert not live & {o.path for o in found if o.kind == "unreferenced"}


def test_moved_table_maps_location_onto_root(tmp_path: Path) -> None:
    """A table copied elsewhere (its metadata still names the old location) reads from where it was opened."""
    w = make_table(tmp_path / "a", rows=40, appends=2)
    files = _data_files(w.table)
    add_deletes(w, {files[0]: [0, 3]}, kind="position")
    moved = tmp_path / "elsewhere" / "t"
    shutil.copytree(w.root, moved)
    shutil.rmtree(w.root)
    t = ls.iceberg.open_table(moved)
    assert t.location.endswith("/a/warehouse/db/t")
    st = t.state()
    assert st.deleted_rows == 2 and st.record_count == 80
    assert t.check() == [] and t.orphans() == []
    # opened through its metadata file (and as a file: URI) too
    meta = sorted((moved / "metadata").glob("*.metadata.json"))[-1]
    assert ls.iceberg.open_table(meta).state().deleted_rows == 2
    assert ls.iceberg.open_table(f"file://{moved}").root == str(moved)


def test_version_hint_and_highest_version(tmp_path: Path) -> None:
    w = make_table(tmp_path, rows=10, appends=3)
    metas = sorted((w.root / "metadata").glob("*.metadata.json"))
    assert ls.iceberg.open_table(w.root).metadata_path == str(metas[-1])
    # a Hadoop table: vN.metadata.json and version-hint.text naming N (an older version here)
    for i, m in enumerate(metas):
        m.rename(m.with_name(f"v{i + 1}.metadata.json"))
    (w.root / "metadata" / "version-hint.text").write_text("2\n")
    t = ls.iceberg.open_table(w.root)
    assert Path(t.metadata_path).name == "v2.metadata.json"
    assert len(t.metadata.snapshots) == 1
    (w.root / "metadata" / "version-hint.text").write_text("99")  # names no file: the highest version
    assert Path(ls.iceberg.open_table(w.root).metadata_path).name == f"v{len(metas)}.metadata.json"


def test_statistics_files_checked(tmp_path: Path) -> None:
    """statistics entries: file-size-in-bytes and file-footer-size-in-bytes against the Puffin file."""
    w = make_table(tmp_path, rows=10, appends=1)
    t = ls.iceberg.open_table(w.root)
    sid = t.current_snapshot_id
    stats = w.root / "metadata" / "stats.puffin"
    with ls.puffin.PuffinWriter(str(stats), created_by="tests") as pw:
        pw.add_blob("apache-datasketches-theta-v1", b"\x00" * 16, fields=[1], snapshot_id=sid, sequence_number=1)
    with ls.puffin.open(str(stats)) as pf:
        footer = pf.footer.size
    doc = json.loads(Path(t.metadata_path).read_text())
    entry = {"snapshot-id": sid, "statistics-path": f"{t.location}/metadata/stats.puffin", "file-size-in-bytes": stats.stat().st_size,
             "file-footer-size-in-bytes": footer,
             "blob-metadata": [{"type": "apache-datasketches-theta-v1", "snapshot-id": sid, "sequence-number": 1, "fields": [1]}]}
    doc["statistics"] = [entry]
    Path(t.metadata_path).write_text(json.dumps(doc))
    t = ls.iceberg.open_table(w.root)
    assert t.metadata.statistics[0].file_footer_size_in_bytes == footer
    assert t.check() == [] and t.orphans() == []
    entry["file-size-in-bytes"] += 1
    entry["file-footer-size-in-bytes"] -= 1
    Path(t.metadata_path).write_text(json.dumps(doc))
    probs = {(p.rule, p.path) for p in ls.iceberg.open_table(w.root).check()}
    assert probs == {("iceberg.statistics.file-size", "statistics[0].file-size-in-bytes"),
                     ("iceberg.statistics.footer-size", "statistics[0].file-footer-size-in-bytes")}
    stats.unlink()
    found = ls.iceberg.open_table(w.root).orphans()
    assert [(o.kind, o.role) for o in found] == [("missing", "statistics")]


def _rewrite_list(t: ls.iceberg.Table, change: Any) -> None:
    """Rewrite the current snapshot's manifest list with ``change`` applied to its ManifestFiles."""
    from dataclasses import replace

    from lakestruct.iceberg.manifest_write import manifest_list_bytes

    s = t.snapshot()
    ms = [change(replace(m)) for m in t.manifest_list(s)]
    assert s.manifest_list is not None
    Path(local(s.manifest_list)).write_bytes(manifest_list_bytes(ms, format_version=t.metadata.format_version, snapshot_id=s.snapshot_id,
                                                                sequence_number=s.sequence_number))


def test_checks_name_each_broken_rule(tmp_path: Path) -> None:
    from dataclasses import replace

    w = make_table(tmp_path, rows=30, appends=2)
    files = _data_files(w.table)
    add_deletes(w, {files[0]: [1, 2]}, kind="dv", summary_delta=5)
    t = ls.iceberg.open_table(w.root)
    probs = t.check()
    assert [(p.rule, p.path) for p in probs] == [("iceberg.snapshot.summary-totals", f"snapshots[{len(t.metadata.snapshots) - 1}]"
                                                  ".summary.total-position-deletes")]
    assert probs[0].source == t.metadata_path
    # manifest list counts and lengths that disagree with the manifests
    _rewrite_list(t, lambda m: replace(m, added_rows_count=(m.added_rows_count or 0) + 1) if m.content == 0 else m)
    rules = {(p.rule, p.path.split(".")[-1]) for p in ls.iceberg.open_table(w.root).check()}
    assert ("iceberg.manifest-list.counts", "added_rows_count") in rules
    _rewrite_list(t, lambda m: replace(m, manifest_length=m.manifest_length + 3))
    rules = {p.rule for p in ls.iceberg.open_table(w.root).check()}
    assert "iceberg.file-size" in rules


def test_dv_entry_against_its_puffin_blob(tmp_path: Path) -> None:
    """A DV entry whose record_count, range or referenced_data_file disagree with its Puffin blob."""
    from lakestruct.iceberg import DataFile, ManifestEntry
    from lakestruct.iceberg.manifest_write import manifest_bytes

    w = make_table(tmp_path, rows=30, appends=1)
    files = _data_files(w.table)
    add_deletes(w, {files[0]: [1, 2, 3]}, kind="dv")
    t = ls.iceberg.open_table(w.root)
    m = next(m for m in t.manifest_list() if m.content == 1)
    (e,) = list(t.entries(m))
    path = Path(local(m.manifest_path))

    def rewrite(**kw: Any) -> set[tuple[str, str]]:
        from dataclasses import replace

        df = replace(e.data_file, **kw)
        path.write_bytes(manifest_bytes([ManifestEntry(1, None, None, None, df)], format_version=3, partition_type=[], content=1))
        return {(p.rule, p.path) for p in ls.iceberg.open_table(w.root).check()}

    assert ("iceberg.dv.cardinality", "entries[0].data_file.record_count") in rewrite(record_count=4)
    assert ("iceberg.dv.content-range", "entries[0].data_file.content_offset") in rewrite(content_offset=e.data_file.content_offset + 1)
    assert ("iceberg.dv.referenced-data-file", "entries[0].data_file.referenced_data_file") in rewrite(referenced_data_file=files[0] + "x")
    size = e.data_file.file_size_in_bytes
    assert any(r == "iceberg.file-size" for r, _ in rewrite(file_size_in_bytes=size + 1))
    # a range past the end of the Puffin file
    assert ("iceberg.dv.content-range", "entries[0].data_file.content_offset") in rewrite(content_offset=size + 100)
    assert isinstance(DataFile, type)


@pytest.mark.parametrize("partitioned", [False, True])
def test_equality_deletes_listed_not_applied(tmp_path: Path, partitioned: bool) -> None:
    """Equality delete files apply (spec) to data files with a strictly smaller data sequence number, in their
    partition or everywhere when their spec is unpartitioned: listed in each file's deletes, counted in the
    snapshot's delete files, never applied to deleted_rows (lakestruct does not read data rows)."""
    import pyarrow as pa

    w = make_table(tmp_path, partitioned=partitioned, rows=30, appends=2)
    files = _data_files(w.table)
    add_deletes(w, {files[0]: [3, 4]}, kind="position")
    add_deletes(w, {files[0]: [1, 2, 3]}, kind="equality")
    pt = w.catalog.load_table(w.table.name())
    pt.append(pa.table({"id": pa.array([1], pa.int64()), "grp": pa.array(["g0"]), "v": pa.array([0.0])}))  # after the deletes
    t = ls.iceberg.open_table(w.root)
    newest = sorted({f.path for f in t.state().data_files} - set(files))
    assert len(newest) == 1
    st = t.state()
    eq = [d for d in st.delete_files if d.kind == "equality-deletes"]
    assert len(eq) == 1 and eq[0].record_count == 3 and eq[0].extra["equality_ids"] == [1]
    part0 = next(f for f in st.data_files if f.path == files[0]).partition
    for f in st.data_files:
        listed = [d for d in f.deletes if d.kind == "equality-deletes"]
        applies = f.path not in newest and (not partitioned or dict(f.partition) == dict(part0))
        assert bool(listed) == applies, f.path
    f0 = next(f for f in st.data_files if f.path == files[0])
    assert f0.deleted_rows == 2  # the position deletes only
    assert t.check() == []


def test_gzip_metadata_file(tmp_path: Path) -> None:
    """Iceberg Java names gzip-compressed metadata NNNNN-<uuid>.gz.metadata.json; it is found and read."""
    import gzip

    w = make_table(tmp_path, rows=10, appends=2)
    t = ls.iceberg.open_table(w.root)
    gz = w.root / "metadata" / "00099-0c7e5e56-2f4e-4d7a-9d1e-5a0e8f3b7c11.gz.metadata.json"
    gz.write_bytes(gzip.compress(Path(t.metadata_path).read_bytes()))
    g = ls.iceberg.open_table(w.root)
    assert g.metadata_path == str(gz)
    assert g.metadata == t.metadata and g.state().record_count == 20
    gz.write_bytes(gzip.compress(Path(t.metadata_path).read_bytes())[:-12])
    with pytest.raises(ls.FormatError) as ei:
        ls.iceberg.open_table(w.root)
    assert ei.value.rule == "iceberg.metadata.gzip"


def test_fsspec_url_table(tmp_path: Path) -> None:
    """A table on an fsspec file system (memory://), its metadata naming the local location it was written at:
    opened by URL (root or metadata file), read, checked, no orphans."""
    fsspec = pytest.importorskip("fsspec")
    w = make_table(tmp_path, partitioned=True, rows=30, appends=2)
    files = _data_files(w.table)
    add_deletes(w, {files[0]: [1, 2]}, kind="dv")
    pt = add_deletes(w, {files[1]: [0]}, kind="position", referenced=True)
    fs = fsspec.filesystem("memory")
    for p in w.root.rglob("*"):
        if p.is_file():
            fs.pipe(f"/lakestruct-ice/t/{p.relative_to(w.root)}", p.read_bytes())
    try:
        t = ls.iceberg.open_table("memory://lakestruct-ice/t")
        st = t.state()
        assert {f.path: f.live_rows for f in st.data_files} == _live_rows_by_pyiceberg(pt)
        assert t.check() == [] and t.orphans() == []
        fs.pipe("/lakestruct-ice/t/data/stray.parquet", b"x" * 5)
        assert [(o.kind, o.size) for o in t.orphans()] == [("unreferenced", 5)]
        assert ls.iceberg.open_table(t.metadata_path).state().deleted_rows == 3
    finally:
        fs.rm("/lakestruct-ice", recursive=True)


def test_v1_snapshot_with_inline_manifests(tmp_path: Path) -> None:
    """v1 snapshots may list their manifests inline (``manifests``, no manifest list): read the same files."""
    w = make_table(tmp_path, format_version=1, rows=20, appends=2)
    t = ls.iceberg.open_table(w.root)
    want = {f.path: f.record_count for f in t.state().data_files}
    doc = json.loads(Path(t.metadata_path).read_text())
    for s in doc["snapshots"]:
        ms = ls.iceberg.open_table(w.root).manifest_list(s["snapshot-id"])
        s["manifests"] = [m.manifest_path for m in ms]
        del s["manifest-list"]
    Path(t.metadata_path).write_text(json.dumps(doc))
    t = ls.iceberg.open_table(w.root)
    assert all(s.manifest_list is None and s.manifests for s in t.metadata.snapshots)
    assert {f.path: f.record_count for f in t.state().data_files} == want
    assert all(f.extra["sequence_number"] == 0 for f in t.state().data_files)
    # the manifest lists nothing references any more are orphans now; the manifests are not
    roles = {o.role for o in t.orphans()}
    assert roles == {"manifest-list"}
    assert t.check() == []


def test_position_delete_file_rows_checked(tmp_path: Path) -> None:
    """check() reads each live position delete file: its rows against the entry's record_count, and a broken file
    named by its Parquet rule."""
    from dataclasses import replace

    from lakestruct.iceberg import ManifestEntry
    from lakestruct.iceberg.manifest_write import manifest_bytes

    w = make_table(tmp_path, rows=30, appends=1)
    files = _data_files(w.table)
    add_deletes(w, {files[0]: [1, 2, 3]}, kind="position")
    t = ls.iceberg.open_table(w.root)
    assert t.check() == []
    m = next(m for m in t.manifest_list() if m.content == 1)
    (e,) = list(t.entries(m))
    mpath = Path(local(m.manifest_path))
    mpath.write_bytes(manifest_bytes([ManifestEntry(1, None, None, None, replace(e.data_file, record_count=4))], format_version=2,
                                     partition_type=[], content=1))
    probs = [(p.rule, p.path) for p in ls.iceberg.open_table(w.root).check()]
    assert ("iceberg.position-deletes.record-count", "entries[0].data_file.record_count") in probs
    pos = Path(local(e.data_file.file_path))
    pos.write_bytes(pos.read_bytes()[:8] + b"\x00" * (pos.stat().st_size - 8))  # same size, no footer
    probs = ls.iceberg.open_table(w.root).check()
    assert [p.rule for p in probs if p.source in (e.data_file.file_path, str(pos))] == ["parquet.trailing-magic"]


def test_table_neutral_shape(tmp_path: Path) -> None:
    """The room's table is a lakestruct.tables.Table, found and opened by ls.tables, summarized from its state."""
    w = make_table(tmp_path, rows=20, appends=2)
    files = _data_files(w.table)
    add_deletes(w, {files[0]: [0, 1, 2, 3]}, kind="dv")
    (w.root / "data" / "stray.bin").write_bytes(b"abc")
    assert ls.tables.detect(w.root) == "iceberg"
    assert ls.tables.find_roots([str(p) for p in w.root.rglob("*") if p.is_file()]) == {str(w.root): "iceberg"}
    t = ls.tables.open(w.root)
    assert isinstance(t, ls.iceberg.Table) and isinstance(t, ls.tables.Table) and t.format == "iceberg"
    s = ls.tables.summarize(t.state(), t.orphans(), t.check())
    assert (s.format, s.data_files, s.record_count, s.deleted_rows, s.live_rows, s.delete_files, s.orphan_files, s.orphan_bytes,
            s.missing_files, s.rules_broken) == ("iceberg", 2, 40, 4, 36, 1, 1, 3, 0, ())
    assert s.deleted_share == pytest.approx(0.1)
    infos = t.snapshots()
    assert [i.id for i in infos][-1] == t.current_snapshot_id and infos[-1].operation == "delete"
    assert infos[-1].parent_id == infos[-2].id
