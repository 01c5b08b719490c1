"""Delta tables written at test time by deltalake (delta-rs 1.6.6): partitioned appends, deletes and overwrites
(copy-on-write: delta-rs writes no deletion vectors), checkpoints (``create_checkpoint``), cleaned-up logs, and the
multi-part checkpoints Delta Spark writes (a deltalake checkpoint split into parts with pyarrow). Every version's live
files are held to ``DeltaTable(path, version=v).get_add_actions()``."""

from __future__ import annotations

import datetime
import os
import shutil
from pathlib import Path

import pytest

import lakestruct as ls

deltalake = pytest.importorskip("deltalake")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _batch(start: int, n: int) -> object:
    ids = list(range(start, start + n))
    return pa.table({
        "id": pa.array(ids, pa.int64()),
        "p": pa.array([f"k{i % 3}" for i in ids]),
        "n": pa.array([i % 2 for i in ids], pa.int32()),
        "d": pa.array([datetime.date(2024, 1, 1 + i % 2) for i in ids], pa.date32()),
        "v": pa.array([f"value {i}" for i in ids]),
    })


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("delta-written") / "t"
    write = deltalake.write_deltalake
    write(str(root), _batch(0, 30), partition_by=["p", "n", "d"])  # v0
    write(str(root), _batch(30, 20), mode="append")  # v1
    dt = deltalake.DeltaTable(str(root))
    dt.delete("id % 4 = 0")  # v2: files rewritten
    write(str(root), _batch(100, 12), mode="append")  # v3
    deltalake.DeltaTable(str(root)).create_checkpoint()  # checkpoint of v3
    write(str(root), _batch(200, 9), mode="overwrite")  # v4
    deltalake.DeltaTable(str(root)).delete("id = 201")  # v5
    write(str(root), _batch(300, 5), mode="append")  # v6
    deltalake.DeltaTable(str(root)).create_checkpoint()  # checkpoint of v6
    write(str(root), _batch(400, 4), mode="append")  # v7
    return root


def oracle(root: Path, version: int) -> dict[str, dict[str, object]]:
    t = deltalake.DeltaTable(str(root), version=version).get_add_actions()
    cols = {n: t.column(n).to_pylist() for n in ("path", "size_bytes", "num_records", "partition", "modification_time")}
    return {p: {"size": s, "num_records": n, "partition": part, "modification_time": m}
            for p, s, n, part, m in zip(*cols.values(), strict=True)}  # fmt: skip


def ours(root: Path, version: int) -> dict[str, dict[str, object]]:
    st = ls.delta.open_table(root).state(version)
    return {f.extra["log_path"]: {"size": f.size, "num_records": f.record_count, "partition": dict(f.partition),
                                  "modification_time": f.extra["modification_time"]} for f in st.data_files}  # fmt: skip


def test_every_version_matches_deltalake(written: Path) -> None:
    t = ls.delta.open_table(written)
    assert t.latest_version == 7 and t.versions() == list(range(8))
    for v in range(8):
        assert ours(written, v) == oracle(written, v), f"version {v}"
    st = t.state()
    assert st.record_count == 9 - 1 + 5 + 4 and st.deleted_rows == 0
    f = st.data_files[0]
    assert isinstance(f.partition["n"], int) and isinstance(f.partition["d"], datetime.date) and f.file_format == "parquet"


def test_replay_starts_from_the_newest_checkpoint_at_or_before_the_version(written: Path) -> None:
    t = ls.delta.open_table(written)
    assert [Path(p).name for p in t.replay(7).checkpoint] == ["00000000000000000006.checkpoint.parquet"]
    assert [Path(p).name for p in t.replay(5).checkpoint] == ["00000000000000000003.checkpoint.parquet"]
    assert t.replay(2).checkpoint == []
    assert [s.kind for s in t.replay(7).sources] == ["checkpoint", "commit"]


def test_checkpoints_agree_with_the_commits(written: Path, tmp_path: Path) -> None:
    """The same versions read from the commits alone (checkpoints deleted) and from checkpoints alone (commits
    before them deleted, as metadata cleanup does): the same live files, deltalake's."""
    only_commits = tmp_path / "commits"
    shutil.copytree(written, only_commits)
    for p in (only_commits / "_delta_log").glob("*checkpoint*"):
        p.unlink()
    cleaned = tmp_path / "cleaned"
    shutil.copytree(written, cleaned)
    for v in range(6):
        (cleaned / "_delta_log" / f"{v:020d}.json").unlink()
    (cleaned / "_delta_log" / "00000000000000000003.checkpoint.parquet").unlink()
    for v in range(8):
        assert ours(only_commits, v) == oracle(written, v)
    for v in (6, 7):
        assert ours(cleaned, v) == oracle(written, v)
    with pytest.raises(ls.FormatError) as e:
        ls.delta.open_table(cleaned).state(4)
    assert e.value.rule == "delta.log.missing-commit"


def test_multi_part_checkpoint(written: Path, tmp_path: Path) -> None:
    """A checkpoint split in three parts (named as Delta Spark names them) reads as the single one; a missing part
    makes the checkpoint ignored (replay falls back to the commits) and check says so."""
    root = tmp_path / "t"
    shutil.copytree(written, root)
    log = root / "_delta_log"
    single = log / "00000000000000000006.checkpoint.parquet"
    table = pq.read_table(single)
    n = table.num_rows
    for i in range(3):
        pq.write_table(table.slice(i * n // 3, (i + 1) * n // 3 - i * n // 3), log / f"{6:020d}.checkpoint.{i + 1:010d}.{3:010d}.parquet")
    single.unlink()
    (log / "_last_checkpoint").write_text(f'{{"version":6,"size":{n},"parts":3}}')
    t = ls.delta.open_table(root)
    assert [Path(p).name for p in t.replay(7).checkpoint] == [f"{6:020d}.checkpoint.{i:010d}.{3:010d}.parquet" for i in (1, 2, 3)]
    for v in (6, 7):
        assert ours(root, v) == oracle(written, v)
    assert t.check() == []
    (log / f"{6:020d}.checkpoint.{2:010d}.{3:010d}.parquet").unlink()
    t = ls.delta.open_table(root)
    assert [Path(p).name for p in t.replay(7).checkpoint] == ["00000000000000000003.checkpoint.parquet"]
    assert ours(root, 7) == oracle(written, 7)
    assert {e.rule for e in t.check()} == {"delta.checkpoint.incomplete", "delta.last-checkpoint.version"}


def test_orphans_of_a_written_table(written: Path, tmp_path: Path) -> None:
    root = tmp_path / "t"
    shutil.copytree(written, root)
    t = ls.delta.open_table(root)
    assert t.orphans() == []  # files removed by deletes and the overwrite are still named by remove actions
    stray = root / "p=k0" / "stray.parquet"
    stray.write_bytes(b"x" * 10)
    (root / "_tmp_hidden").mkdir()
    (root / "_tmp_hidden" / "x.parquet").write_bytes(b"x")
    live = t.state().data_files[0]
    os.unlink(live.path)
    found = t.orphans()
    assert [(o.kind, o.path, o.size) for o in found if o.kind == "unreferenced"] == [("unreferenced", str(stray), 10)]
    assert [(o.kind, o.role, o.path, o.rows) for o in found if o.kind == "missing"] == [("missing", "data", live.path,
                                                                                          live.record_count)]


def test_snapshots_are_deltalake_history(written: Path) -> None:
    hist = {h["version"]: h for h in deltalake.DeltaTable(str(written)).history()}
    snaps = ls.delta.open_table(written).snapshots()
    assert [(s.id, s.operation, s.timestamp_ms) for s in snaps] == [(v, hist[v]["operation"], hist[v]["timestamp"]) for v in sorted(hist)]


def test_fast_path_and_json_agree(written: Path) -> None:
    """The regular-expression fast path for plain add lines and json.loads give the same action for every line."""
    import json

    from lakestruct.delta.log import _FAST_ADD

    hits = 0
    for p in sorted((written / "_delta_log").glob("*.json")):
        for line in p.read_bytes().split(b"\n"):
            m = _FAST_ADD.fullmatch(line)
            if m is None:
                continue
            hits += 1
            a = json.loads(line)["add"]
            path_b, _, size_b, mt_b, dc_b, stats_b = m.groups()
            assert a["path"] == path_b.decode() and a["size"] == int(size_b) and a["modificationTime"] == int(mt_b)
            assert a["dataChange"] == (dc_b == b"true") and a.get("stats") == (json.loads(stats_b[9:]) if stats_b else None)
    assert hits > 10


def _replacing_log(root: Path, commits: int, files: int) -> None:
    """A log whose every commit removes the files of the one before and adds as many new ones."""
    import json

    log = root / "_delta_log"
    log.mkdir(parents=True)
    schema = json.dumps({"type": "struct", "fields": [{"name": "x", "type": "long", "nullable": True, "metadata": {}}]})
    for v in range(commits):
        lines: list[dict[str, object]] = [{"commitInfo": {"timestamp": 1700000000000 + v, "operation": "WRITE"}}]
        if v == 0:
            lines += [{"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
                      {"metaData": {"id": "m", "format": {"provider": "parquet", "options": {}}, "schemaString": schema,
                                    "partitionColumns": [], "configuration": {}}}]  # fmt: skip
        for i in range(files):
            if v:
                lines.append({"remove": {"path": f"part-{v - 1}-{i}.parquet", "deletionTimestamp": 1, "dataChange": True}})
            lines.append({"add": {"path": f"part-{v}-{i}.parquet", "partitionValues": {}, "size": 100 + i, "modificationTime": v,
                                  "dataChange": True, "stats": json.dumps({"numRecords": i})}})  # fmt: skip
        (log / f"{v:020d}.json").write_text("\n".join(json.dumps(x, separators=(",", ":")) for x in lines) + "\n")


def test_memory_follows_the_live_set_not_the_log(tmp_path: Path) -> None:
    """Replay of 200 commits that each replace 200 files peaks where replay of 20 such commits does (tombstones are
    kept only when asked for: ``remove_files``); the live set is the last commit's files, with deltalake's answer."""
    import tracemalloc

    peaks = {}
    for n in (20, 200):
        root = tmp_path / f"t{n}"
        _replacing_log(root, n, 200)
        t = ls.delta.open_table(root)
        tracemalloc.start()
        try:
            rp = t.replay()
            peaks[n] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert set(rp.adds) == {f"part-{n - 1}-{i}.parquet" for i in range(200)}
        assert set(deltalake.DeltaTable(str(root)).get_add_actions().column("path").to_pylist()) == set(rp.adds)
        assert len(t.remove_files()) == (n - 1) * 200
    assert peaks[200] < 1.5 * peaks[20], peaks


def test_checkpoint_with_stats_as_struct_only(tmp_path: Path) -> None:
    """delta.checkpoint.writeStatsAsStruct without writeStatsAsJson: the checkpoint's adds hold stats_parsed and no
    stats; numRecords is read from stats_parsed.numRecords (deltalake's num_records), partitions from partitionValues."""
    root = tmp_path / "t"
    deltalake.write_deltalake(str(root), pa.table({"id": pa.array(range(10), pa.int64()), "p": pa.array(["a", "b"] * 5)}),
                              partition_by=["p"], configuration={"delta.checkpoint.writeStatsAsStruct": "true",
                                                                 "delta.checkpoint.writeStatsAsJson": "false"})  # fmt: skip
    deltalake.write_deltalake(str(root), pa.table({"id": pa.array(range(3), pa.int64()), "p": pa.array(["a", "b", "c"])}), mode="append")
    deltalake.DeltaTable(str(root)).create_checkpoint()
    cp = root / "_delta_log" / "00000000000000000001.checkpoint.parquet"
    add = pq.read_schema(cp).field("add").type
    assert add.get_field_index("stats") < 0 and add.get_field_index("stats_parsed") >= 0
    t = ls.delta.open_table(root)
    assert t.replay().checkpoint == [str(cp)]
    assert ours(root, 1) == oracle(root, 1)
    assert sorted(f.record_count for f in t.state().data_files) == [1, 1, 1, 5, 5]
