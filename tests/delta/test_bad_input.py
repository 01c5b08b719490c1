"""Broken Delta logs and deletion vectors: every one is a named rule with the file, the line (or offset) and the field
path, from the API, from ``check`` and from the CLI (exit 1, the rule on stderr, never a traceback)."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import lakestruct as ls
from lakestruct.cli import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def rewrite(commit: Path, pick: Callable[[dict[str, Any]], bool], change: Callable[[dict[str, Any]], None]) -> int:
    """Change the first action of a commit file that ``pick`` selects; its line number (from 1)."""
    lines = commit.read_text().splitlines()
    for i, line in enumerate(lines):
        obj = json.loads(line)
        if pick(obj):
            change(obj)
            lines[i] = json.dumps(obj, separators=(",", ":"))
            commit.write_text("\n".join(lines) + "\n")
            return i + 1
    raise AssertionError("no such action")


def offset_of(path: Path, line: int) -> int:
    return sum(len(x) + 1 for x in path.read_bytes().split(b"\n")[: line - 1])


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def live_dv_add(root: Path) -> tuple[Path, int, ls.tables.LiveFile]:
    """The commit file and line of a live add with a file deletion vector ('u'), and its LiveFile."""
    t = ls.delta.open_table(root)
    st = t.state()
    f = next(f for f in st.data_files if f.deletes and f.deletes[0].extra["storage_type"] == "u")
    commit = root / "_delta_log" / f"{f.extra['version']:020d}.json"
    return commit, f.extra["version"], f


def has_dv(path: str) -> Callable[[dict[str, Any]], bool]:
    return lambda o: "add" in o and o["add"]["path"] == path and o["add"].get("deletionVector") is not None


def test_truncated_json_line(golden_copy, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    root = golden_copy("cdf-table-with-dv")
    commit = root / "_delta_log" / "00000000000000000006.json"
    data = commit.read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n") + 1
    commit.write_bytes(data[: last + 40])  # the last line cut in the middle
    nlines = data[:last].count(b"\n") + 1
    with pytest.raises(ls.FormatError) as e:
        ls.delta.open_table(root).state()
    err = e.value
    assert (err.rule, err.source, err.path, err.offset) == ("delta.log.json", str(commit), f"line[{nlines}]", last)
    assert ls.delta.open_table(root).state(5).snapshot_id == 5  # earlier versions still read
    assert "delta.log.json" in {p.rule for p in ls.delta.open_table(root).check()}
    rc, out, errtext = cli(capsys, "delta", "files", str(root))
    assert rc == 1 and "delta.log.json" in errtext and f"line[{nlines}]" in errtext and "Traceback" not in errtext
    rc, out, _ = cli(capsys, "delta", "check", str(root), "--json")
    assert rc == 1 and any(p["rule"] == "delta.log.json" and p["offset"] == last for p in json.loads(out)["problems"])


def test_unknown_action_is_ignored_by_replay_and_named_by_check(golden_copy) -> None:  # type: ignore[no-untyped-def]
    root = golden_copy("cdf-table-with-dv")
    before = ls.delta.open_table(root).state()
    commit = root / "_delta_log" / "00000000000000000006.json"
    size = commit.stat().st_size
    with commit.open("a") as f:
        f.write('{"fancyNewAction":{"x":1}}\n')
    t = ls.delta.open_table(root)
    assert [f.path for f in t.state().data_files] == [f.path for f in before.data_files]
    (p,) = [p for p in t.check() if p.rule == "delta.action.unknown"]
    assert p.source == str(commit) and p.offset == size and p.path.endswith(".fancyNewAction")


def test_checkpoint_without_add_column(golden_root: Path, tmp_path: Path) -> None:
    """A classic (V1) checkpoint whose schema lacks `add` (only protocol and metaData kept)."""
    pytest.importorskip("deltalake")
    import deltalake

    root = tmp_path / "t"
    deltalake.write_deltalake(str(root), pa.table({"x": [1, 2, 3]}))
    deltalake.write_deltalake(str(root), pa.table({"x": [4]}), mode="append")
    deltalake.DeltaTable(str(root)).create_checkpoint()
    cp = root / "_delta_log" / "00000000000000000001.checkpoint.parquet"
    full = pq.read_table(cp)
    pq.write_table(full.select([n for n in full.column_names if n not in ("add", "remove")]), cp)
    with pytest.raises(ls.FormatError) as e:
        ls.delta.open_table(root).state()
    assert (e.value.rule, e.value.source, e.value.path) == ("delta.checkpoint.schema", str(cp), "schema.add")
    assert ls.delta.open_table(root).state(0).snapshot_id == 0
    assert "delta.checkpoint.schema" in {p.rule for p in ls.delta.open_table(root).check()}


@pytest.mark.parametrize("cut", [1, 5])
def test_z85_uuid_of_wrong_length(golden_copy, capsys: pytest.CaptureFixture[str], cut: int) -> None:  # type: ignore[no-untyped-def]
    root = golden_copy("compacted-log-files-table")
    commit, _, f = live_dv_add(root)
    path = f.extra["log_path"]

    def change(o: dict[str, Any]) -> None:
        dv = o["add"]["deletionVector"]
        dv["pathOrInlineDv"] = dv["pathOrInlineDv"][cut:]

    line = rewrite(commit, has_dv(path), change)
    with pytest.raises(ls.FormatError) as e:
        ls.delta.open_table(root).state()
    err = e.value
    assert err.rule == "delta.dv.z85-length"
    assert (err.source, err.path, err.offset) == (str(commit), f"line[{line}].add.deletionVector.pathOrInlineDv", offset_of(commit, line))
    rc, _, errtext = cli(capsys, "delta", "deletes", str(root))
    assert rc == 1 and "delta.dv.z85-length" in errtext and "Traceback" not in errtext


def test_inline_vector_of_wrong_length(golden_copy) -> None:  # type: ignore[no-untyped-def]
    root = golden_copy("cdf-table-with-dv")
    commit = root / "_delta_log" / "00000000000000000003.json"
    line = rewrite(commit, lambda o: "add" in o, lambda o: o["add"]["deletionVector"].update(sizeInBytes=44))
    with pytest.raises(ls.FormatError) as e:
        ls.delta.open_table(root).state(3)
    assert (e.value.rule, e.value.source, e.value.path) == ("delta.dv.z85-length", str(commit),
                                                            f"line[{line}].add.deletionVector.pathOrInlineDv")


def test_inline_cardinality_disagrees_with_the_bitmap(golden_copy) -> None:  # type: ignore[no-untyped-def]
    root = golden_copy("cdf-table-with-dv")
    commit = root / "_delta_log" / "00000000000000000003.json"
    line = rewrite(commit, lambda o: "add" in o, lambda o: o["add"]["deletionVector"].update(cardinality=5))
    with pytest.raises(ls.FormatError) as e:
        ls.delta.open_table(root).state(3)
    err = e.value
    assert (err.rule, err.source, err.path) == ("delta.dv.cardinality", str(commit), f"line[{line}].add.deletionVector.cardinality")
    assert "holds 4" in e.value.message


def test_dv_offset_past_its_file(golden_copy, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    root = golden_copy("compacted-log-files-table")
    commit, _, f = live_dv_add(root)
    dv_file = f.deletes[0].path
    size = Path(dv_file).stat().st_size
    line = rewrite(commit, has_dv(f.extra["log_path"]), lambda o: o["add"]["deletionVector"].update(offset=size + 100))
    with pytest.raises(ls.FormatError) as e:
        ls.delta.open_table(root).state()
    err = e.value
    assert err.rule == "delta-dv.truncated" and err.source == dv_file and err.offset == size + 100
    assert f"{commit} line[{line}].add.deletionVector" in err.message
    problems = ls.delta.open_table(root).check()
    assert [p.rule for p in problems if p.source == dv_file] == ["delta-dv.truncated"]
    rc, _, errtext = cli(capsys, "delta", "files", str(root))
    assert rc == 1 and "delta-dv.truncated" in errtext and "Traceback" not in errtext


def test_file_cardinality_disagrees_with_the_bitmap(golden_copy) -> None:  # type: ignore[no-untyped-def]
    root = golden_copy("compacted-log-files-table")
    commit, _, f = live_dv_add(root)
    card = f.deletes[0].record_count
    rewrite(commit, has_dv(f.extra["log_path"]), lambda o: o["add"]["deletionVector"].update(cardinality=card + 1))
    with pytest.raises(ls.FormatError) as e:
        ls.delta.open_table(root).state()
    assert e.value.rule == "delta-dv.cardinality" and e.value.source == f.deletes[0].path
    st = ls.delta.open_table(root).state(strict=False)  # the inventory's way: the other files, the error recorded
    bad = [x for x in st.data_files if "dv_error" in x.extra]
    assert len(bad) == 1 and bad[0].deleted_rows is None and "delta-dv.cardinality" in bad[0].extra["dv_error"]


def test_positions_past_num_records(golden_copy) -> None:  # type: ignore[no-untyped-def]
    root = golden_copy("compacted-log-files-table")
    commit, _, f = live_dv_add(root)
    pos = ls.delta.open_table(root).state().positions(f)
    n = int(pos[-1])  # numRecords at the last deleted position: that position (and none before) is past the end

    def change(o: dict[str, Any]) -> None:
        stats = json.loads(o["add"]["stats"])
        stats["numRecords"] = n
        o["add"]["stats"] = json.dumps(stats)

    line = rewrite(commit, has_dv(f.extra["log_path"]), change)
    t = ls.delta.open_table(root)
    g = next(x for x in t.state().data_files if x.path == f.path)
    assert (g.record_count, g.positions_past_end, g.deleted_rows) == (n, 1, pos.size - 1)
    (p,) = [p for p in t.check() if p.rule == "delta.dv.position-range"]
    assert (p.source, p.path) == (str(commit), f"line[{line}].add.deletionVector")


def test_missing_commit(golden_copy) -> None:  # type: ignore[no-untyped-def]
    root = golden_copy("cdf-table-with-dv")
    (root / "_delta_log" / "00000000000000000003.json").unlink()
    t = ls.delta.open_table(root)
    assert t.state(2).snapshot_id == 2
    with pytest.raises(ls.FormatError) as e:
        t.state()
    assert e.value.rule == "delta.log.missing-commit" and "3" in e.value.message


def test_not_a_table_and_bad_version(tmp_path: Path, golden_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = cli(capsys, "delta", "files", str(tmp_path))
    assert rc == 1 and "not a Delta table" in err
    rc, _, err = cli(capsys, "delta", "files", str(golden_root / "cdf-table-with-dv"), "--version", "7")
    assert rc == 2 and "version 7" in err


def test_random_damage_never_escapes_as_a_traceback(golden_copy) -> None:  # type: ignore[no-untyped-def]
    """Cuts and byte flips anywhere in a commit file, a checkpoint, a sidecar: a LakestructError or a good read."""
    rng = random.Random(16)
    for name, pattern in (("compacted-log-files-table", "*.json"), ("v2-checkpoints-parquet-with-sidecars", "**/*.parquet"),
                          ("v2-checkpoints-json-with-sidecars", "*.checkpoint.*.json"), ("cdf-table-with-dv", "*.json")):
        src = golden_copy(name)
        files = sorted(p for p in (src / "_delta_log").glob(pattern) if p.is_file())
        for _ in range(6):
            root = src.parent / f"{name}-damaged"
            shutil.rmtree(root, ignore_errors=True)
            shutil.copytree(src, root)
            victim = root / rng.choice(files).relative_to(src)
            data = bytearray(victim.read_bytes())
            if rng.random() < 0.5:
                del data[rng.randrange(len(data)) :]
            else:
                for _ in range(4):
                    data[rng.randrange(len(data))] = rng.randrange(256)
            victim.write_bytes(bytes(data))
            try:
                t = ls.delta.open_table(root)
            except ls.LakestructError:
                continue
            try:
                t.state(strict=False)
            except ls.LakestructError:
                pass
            problems = ls.delta.open_table(root).check()  # check never raises for malformed input: it lists it
            assert all(isinstance(p, ls.FormatError) and p.rule for p in problems)


def test_commit_level_rules(golden_copy) -> None:  # type: ignore[no-untyped-def]
    """A commit naming one path in two adds, and one that adds and removes the same logical file (in either order)."""
    root = golden_copy("cdf-table-with-dv")

    def add(p: str) -> str:
        return json.dumps({"add": {"path": p, "partitionValues": {}, "size": 1, "modificationTime": 1, "dataChange": True}})

    def remove(p: str) -> str:
        return json.dumps({"remove": {"path": p, "deletionTimestamp": 1, "dataChange": True}})

    commit = root / "_delta_log" / "00000000000000000007.json"
    commit.write_text("\n".join([add("a.parquet"), add("a.parquet"), remove("b.parquet"), add("b.parquet"), add("c.parquet"),
                                 remove("c.parquet"), json.dumps({"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}}),
                                 json.dumps({"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}})]) + "\n")
    found = sorted((p.rule, p.path) for p in ls.delta.open_table(root).check() if p.source == str(commit))
    assert found == [("delta.commit.add-and-remove", "line[4].add.path"), ("delta.commit.add-and-remove", "line[6].remove.path"),
                     ("delta.commit.duplicate-action", "line[8].protocol"), ("delta.commit.duplicate-path", "line[2].add.path")]
