"""Delta: log replay against deltalake (delta-rs) 1.6.6.

* Replay: the live add actions of the golden table ``300k-add-files-100-col-partitioned`` (five JSON commits, 45 MB,
  300,000 adds). lakestruct: ``delta.open_table(path).replay()`` (listing, every commit parsed, actions reconciled by
  (path, DV id): the live add actions with their fields as read). deltalake: ``DeltaTable(path).get_add_actions()``
  (the same live set, as an Arrow table). Runs alternate, best of 5 each; the live sets are compared once.
  For information: ``add_files()`` (every live add typed and checked) and ``state()`` (the table-neutral TableState).
* Memory: peak traced memory of a replay over 200 commits that each replace the 1,000 files of the one before, against
  20 such commits: the live set is the same, the log 10 times longer (goal: within 1.5x).
"""

from __future__ import annotations

import json
import os
import sys
import tarfile
import tempfile
import time
import tracemalloc
from pathlib import Path

from common import Result

from lakestruct import delta

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("LAKESTRUCT_SHARED", REPO.parent / "shared"))
BIG = "300k-add-files-100-col-partitioned"


def _unpack(into: str) -> Path | None:
    archive = SHARED / "corpus" / "delta-kernel-rs" / f"{BIG}.tar.zst"
    if not archive.is_file():
        print(f"bench_delta: {archive} not found (set LAKESTRUCT_SHARED)", file=sys.stderr)
        return None
    import zstandard

    with archive.open("rb") as f, zstandard.ZstdDecompressor().stream_reader(f) as z, tarfile.open(fileobj=z, mode="r|") as tar:
        tar.extractall(into, filter="data")
    return Path(into) / BIG


def _timed(fn: object) -> float:
    t0 = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - t0


def _replay(results: list[Result]) -> None:
    try:
        import deltalake
    except ImportError:
        print("bench_delta: deltalake is not installed (pip install -e '.[dev]')", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = _unpack(tmp)
        if root is None:
            return
        p = str(root)
        ours_keys = set(delta.open_table(p).replay().adds)
        theirs = deltalake.DeltaTable(p).get_add_actions().column("path").to_pylist()
        assert len(ours_keys) == 300_000 and ours_keys == set(theirs), "live sets differ"
        best = {"ours": float("inf"), "typed": float("inf"), "state": float("inf"), "deltalake": float("inf")}
        for _ in range(5):
            best["deltalake"] = min(best["deltalake"], _timed(lambda: deltalake.DeltaTable(p).get_add_actions()))
            best["ours"] = min(best["ours"], _timed(lambda: delta.open_table(p).replay()))
            best["typed"] = min(best["typed"], _timed(lambda: delta.open_table(p).add_files()))
            best["state"] = min(best["state"], _timed(lambda: delta.open_table(p).state()))
        dl = best["deltalake"]
        peer = "deltalake 1.6.6 get_add_actions"
        results.append(Result("Delta log replay, 300,000 adds (5 commits, 45 MB)", peer, dl / best["ours"], 2.0,
                              f"{best['ours'] * 1000:.0f} ms vs {dl * 1000:.0f} ms"))
        results.append(Result("  the same, every add typed and checked (add_files)", peer, dl / best["typed"], 0,
                              f"{best['typed'] * 1000:.0f} ms"))
        results.append(Result("  the same, as a TableState (state)", peer, dl / best["state"], 0, f"{best['state'] * 1000:.0f} ms"))


def write_replacing_log(root: Path, commits: int, files: int) -> None:
    """A log whose every commit removes the previous commit's files and adds as many new ones."""
    log = root / "_delta_log"
    log.mkdir(parents=True)
    schema = json.dumps({"type": "struct", "fields": [{"name": "x", "type": "long", "nullable": True, "metadata": {}}]})
    for v in range(commits):
        lines = []
        if v == 0:
            lines.append({"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}})
            lines.append({"metaData": {"id": "m", "format": {"provider": "parquet", "options": {}}, "schemaString": schema,
                                       "partitionColumns": [], "configuration": {}}})  # fmt: skip
        lines.append({"commitInfo": {"timestamp": 1700000000000 + v, "operation": "WRITE"}})
        for i in range(files):
            if v:
                lines.append({"remove": {"path": f"part-{v - 1}-{i}.parquet", "deletionTimestamp": 1, "dataChange": True}})
            lines.append({"add": {"path": f"part-{v}-{i}.parquet", "partitionValues": {}, "size": 100 + i, "modificationTime": v,
                                  "dataChange": True, "stats": json.dumps({"numRecords": i})}})  # fmt: skip
        (log / f"{v:020d}.json").write_text("\n".join(json.dumps(x, separators=(",", ":")) for x in lines) + "\n")


def peak_replay(root: Path) -> int:
    t = delta.open_table(root)
    tracemalloc.start()
    try:
        t.replay()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _memory(results: list[Result]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        short, long = Path(tmp) / "short", Path(tmp) / "long"
        write_replacing_log(short, 20, 1000)
        write_replacing_log(long, 200, 1000)
        a, b = peak_replay(short), peak_replay(long)
        results.append(Result("Delta replay peak memory, 200 vs 20 commits replacing 1,000 files", "the same live set, 20 commits",
                              b / a, 1.5, f"{b / 2**20:.1f} MiB vs {a / 2**20:.1f} MiB", higher_is_better=False))


def run() -> list[Result]:
    results: list[Result] = []
    _replay(results)
    _memory(results)
    return results
