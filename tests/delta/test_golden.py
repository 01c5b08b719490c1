"""The Delta golden tables (written by Delta Spark; V2 checkpoints with sidecars in JSON and Parquet, classic
checkpoints, log compactions, deletion vectors replaced over 26 commits, inline vectors, 300,000 adds) read by
lakestruct, held to deltalake (delta-rs 1.6.6), which lists each version's live add actions even where it refuses to
read the data, and to pyroaring for the deletion vectors' positions."""

from __future__ import annotations

import uuid
from pathlib import Path

import numpy as np
import pytest
from pyroaring import BitMap64

import lakestruct as ls
from tests.delta.conftest import golden_names

deltalake = pytest.importorskip("deltalake")

NAMES = golden_names()


def oracle(root: Path, version: int) -> dict[str, dict[str, object]]:
    """{path as the log writes it: {size, num_records}} of deltalake's live add actions at ``version``."""
    t = deltalake.DeltaTable(str(root), version=version).get_add_actions()
    cols = {n: t.column(n).to_pylist() for n in ("path", "size_bytes", "num_records")}
    return {p: {"size": s, "num_records": n} for p, s, n in zip(cols["path"], cols["size_bytes"], cols["num_records"], strict=True)}


def z85_decode(text: str) -> bytes:
    """Z85 written here from RFC 32, independently of lakestruct's (wrapping as Delta's decoder does)."""
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"
    out = b""
    for i in range(0, len(text), 5):
        v = 0
        for c in text[i : i + 5]:
            v = v * 85 + alphabet.index(c)
        out += (v % 2**32).to_bytes(4, "big")
    return out


def z85_encode(data: bytes) -> str:
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"
    out = ""
    for i in range(0, len(data), 4):
        v = int.from_bytes(data[i : i + 4], "big")
        out += "".join(alphabet[(v // 85**k) % 85] for k in (4, 3, 2, 1, 0))
    return out


def pyroaring_positions(root: Path, dv: dict[str, object]) -> np.ndarray:
    """A descriptor's positions decoded by pyroaring from the raw bytes (file: size, magic, bitmap, CRC; inline: Z85)."""
    if dv["storage_type"] == "i":
        raw = z85_decode(str(dv["path_or_inline_dv"]))[: int(str(dv["size_in_bytes"]))]
    else:
        data = Path(str(dv["path"])).read_bytes()
        off = int(str(dv["offset"]))
        size = int.from_bytes(data[off : off + 4], "big")
        raw = data[off + 4 : off + 4 + size]
    assert raw[:4] == bytes.fromhex("d1d33964")
    return np.array(list(BitMap64.deserialize(raw[4:])), dtype=np.int64)


@pytest.mark.parametrize("name", NAMES)
def test_every_version_matches_deltalake(golden_root: Path, name: str) -> None:
    root = golden_root / name
    t = ls.delta.open_table(root)
    assert t.format == "delta" and t.root == str(root)
    versions = t.versions()
    assert versions == list(range(versions[0], t.latest_version + 1))
    dvs = 0
    for v in versions:
        st = t.state(v)
        assert st.format == "delta" and st.snapshot_id == v
        ours = {f.extra["log_path"]: f for f in st.data_files}
        theirs = oracle(root, v)
        assert set(ours) == set(theirs), f"version {v}"
        for p, f in ours.items():
            assert f.size == theirs[p]["size"]
            assert f.extra["num_records"] == theirs[p]["num_records"]
            assert f.path == f"{root}/{p.replace('%25', '%')}"
            if f.deletes:
                dvs += 1
                d = f.deletes[0]
                assert d.kind == "deletion-vector" and d.referenced_data_file == f.path
                pos = st.positions(f)
                assert pos.size == d.record_count  # the descriptor's cardinality
                assert (f.deleted_rows or 0) + f.positions_past_end == d.record_count
                doc = {"storage_type": d.extra["storage_type"], "path_or_inline_dv": d.extra["path_or_inline_dv"], "path": d.path,
                       "offset": d.offset, "size_in_bytes": d.length}
                assert np.array_equal(pos, pyroaring_positions(root, doc))
            else:
                assert f.deleted_rows == 0 and f.live_rows == f.record_count
    if name in ("compacted-log-files-table", "cdf-table-with-dv", "cdf-table-with-cdc-and-dvs"):
        assert dvs > 0  # these tables replace deletion vectors over their commits


def test_time_travel_by_open_table(golden_root: Path) -> None:
    root = golden_root / "compacted-log-files-table"
    for v in (0, 3, 17, 25):
        t = ls.delta.open_table(root, version=v)
        assert t.version == v
        assert {f.extra["log_path"] for f in t.state().data_files} == set(oracle(root, v))
    with pytest.raises(ls.UsageError):
        ls.delta.open_table(root, version=26)


def test_versions_read_commit_info(golden_root: Path) -> None:
    root = golden_root / "compacted-log-files-table"
    snaps = ls.delta.open_table(root).snapshots()
    hist = {h["version"]: h for h in deltalake.DeltaTable(str(root)).history()}
    assert [s.id for s in snaps] == sorted(hist)
    for s in snaps:
        assert s.operation == hist[s.id]["operation"]
        assert s.timestamp_ms == hist[s.id]["timestamp"]
        assert s.parent_id == (s.id - 1 if s.id else None)


def test_deleted_rows_over_the_replaced_vectors(golden_root: Path) -> None:
    """compacted-log-files-table: DELETEs add and replace deletion vectors; each version's deleted rows are the
    descriptors' cardinalities, and the commitInfo's numDeletedRows is the growth of one file's vector."""
    root = golden_root / "compacted-log-files-table"
    t = ls.delta.open_table(root)
    seen = 0
    for s in t.snapshots():
        if s.operation != "DELETE":
            continue
        m = s.summary.get("operationMetrics", {})
        st = t.state(s.id)
        before = t.state(s.id - 1)
        assert st.deleted_rows == sum(d.record_count or 0 for d in st.delete_files)
        if int(m.get("numRemovedFiles", 0)) == 0 and int(m.get("numDeletionVectorsAdded", 0)) > 0:
            assert st.deleted_rows - before.deleted_rows == int(m["numDeletedRows"])  # type: ignore[operator]
            seen += 1
    assert seen >= 2


def test_v2_checkpoint_with_sidecars_is_read_from_the_checkpoint(golden_root: Path) -> None:
    for name in ("v2-checkpoints-json-with-sidecars", "v2-checkpoints-parquet-with-sidecars", "v2-classic-checkpoint-parquet"):
        t = ls.delta.open_table(golden_root / name)
        rp = t.replay()
        assert rp.checkpoint, name
        assert any(s.kind == "sidecar" for s in rp.sources), name
        assert t.check() == []


def test_compaction_that_is_not_reconciled_is_not_used(golden_root: Path) -> None:
    """compacted-log-files-table's compactions hold their commits' actions unreconciled (the same logical file added
    and removed): replay reads the commits (deltalake agrees, test above) and check names the rule."""
    t = ls.delta.open_table(golden_root / "compacted-log-files-table")
    assert not any(s.kind == "compaction" for s in t.replay().sources)
    rules = {e.rule for e in t.check()}
    assert rules == {"delta.compaction.duplicate"}


def test_inline_vector_whose_last_group_overflows(golden_root: Path) -> None:
    """cdf-table-with-dv version 5: an inline vector of 34 bytes whose last Z85 group is past 2^32 - 1. lakestruct
    decodes it as Delta's decoder does (32-bit wrap-around), counts the resulting position (past numRecords) apart,
    and check reports the group."""
    t = ls.delta.open_table(golden_root / "cdf-table-with-dv")
    st = t.state(5)
    (f,) = st.data_files
    assert f.deletes[0].extra["storage_type"] == "i" and f.deletes[0].record_count == 1
    assert f.deleted_rows == 0 and f.positions_past_end == 1
    problems = t.check()
    assert {e.rule for e in problems} == {"delta.dv.z85-value"}
    e = problems[0]
    assert e.source is not None and e.source.endswith("00000000000000000005.json")
    assert e.path == "line[2].add.deletionVector.pathOrInlineDv" and e.offset == 511
    assert Path(e.source).read_bytes()[511:518] == b'{"add":'


def test_orphans_of_golden_tables(golden_copy) -> None:  # type: ignore[no-untyped-def]
    root = golden_copy("compacted-log-files-table")
    t = ls.delta.open_table(root)
    before = t.orphans()
    # the table holds one deletion-vector file its log never names (a DELETE that did not commit): its UUID, in Z85
    # (encoded here, independently), is in no log file; every other file under the table is named by the log
    log = b"".join(p.read_bytes() for p in (root / "_delta_log").iterdir() if p.is_file())
    assert [(o.kind, o.role) for o in before] == [("unreferenced", "delete")]
    u = uuid.UUID(Path(before[0].path).name[len("deletion_vector_") : -len(".bin")])
    assert z85_encode(u.bytes).encode() not in log
    for f in root.glob("deletion_vector_*.bin"):
        if str(f) != before[0].path:
            assert z85_encode(uuid.UUID(f.name[16:-4]).bytes).encode() in log
    stray = root / "part-00000-stray.snappy.parquet"
    stray.write_bytes(b"PAR1")
    dv_stray = root / "deletion_vector_00000000-0000-0000-0000-000000000000.bin"
    dv_stray.write_bytes(b"\x01")
    st = t.state()
    victim = next(f for f in st.data_files if f.deletes)
    Path(victim.path).unlink()
    Path(victim.deletes[0].path).unlink()
    found = {(o.kind, o.role, o.path) for o in ls.delta.open_table(root).orphans()}
    assert found == {(before[0].kind, before[0].role, before[0].path), ("unreferenced", "data", str(stray)),
                     ("unreferenced", "delete", str(dv_stray)),
                     ("missing", "data", victim.path), ("missing", "delete", victim.deletes[0].path)}


def test_tables_open_detects_delta(golden_root: Path) -> None:
    root = golden_root / "v2-classic-checkpoint-json"
    assert ls.tables.detect(root) == "delta"
    t = ls.tables.open(root)
    assert isinstance(t, ls.tables.Table)
    s = ls.tables.summarize(t.state(), t.orphans(), t.check())
    assert s.format == "delta" and s.data_files == 4 and s.rules_broken == ()


def test_big_table_matches_deltalake(big_table: Path) -> None:
    t = ls.delta.open_table(big_table)
    theirs = deltalake.DeltaTable(str(big_table)).get_add_actions()
    paths = theirs.column("path").to_pylist()
    sizes = dict(zip(paths, theirs.column("size_bytes").to_pylist(), strict=True))
    adds = t.add_files()
    assert len(adds) == 300_000
    assert {a.path: a.size for a in adds} == sizes
    parts = theirs.column("partition").to_pylist()
    assert {a.path: dict(a.partition_values) for a in adds} == dict(zip(paths, parts, strict=True))
    mtimes = theirs.column("modification_time").to_pylist()
    assert {a.path: a.modification_time for a in adds} == dict(zip(paths, mtimes, strict=True))
    st = t.state()
    assert len(st.data_files) == 300_000 and st.deleted_rows == 0
    assert all(f.extra["num_records"] is None for f in st.data_files[:100])  # no stats in this log: rows unknown


@pytest.mark.parametrize("name", ["compacted-log-files-table", "v2-checkpoints-parquet-with-sidecars"])
def test_fsspec_url_and_file_url(golden_root: Path, name: str) -> None:
    """The same table through ``file://`` and an fsspec URL (``memory://``): the same live files, deleted rows,
    orphans and findings as the local path."""
    import fsspec

    src = golden_root / name
    fs = fsspec.filesystem("memory")
    base = f"/delta-test-{name}"
    for p in src.rglob("*"):
        if p.is_file():
            fs.pipe(f"{base}/{p.relative_to(src).as_posix()}", p.read_bytes())
    try:
        local = ls.delta.open_table(src)
        want = [(f.extra["log_path"], f.deleted_rows, f.record_count) for f in local.state().data_files]
        for url in (f"file://{src}", f"memory://{base}"):
            t = ls.delta.open_table(url)
            st = t.state()
            assert [(f.extra["log_path"], f.deleted_rows, f.record_count) for f in st.data_files] == want
            assert all(f.path.startswith(url + "/") for f in st.data_files)
            assert [o.path[len(url) :] for o in t.orphans()] == [o.path[len(str(src)) :] for o in local.orphans()]
            assert [e.rule for e in t.check()] == [e.rule for e in local.check()]
    finally:
        fs.rm(base, recursive=True)
