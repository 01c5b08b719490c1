"""pypaimon 2.1 as the independent oracle: the live files and deleted positions it plans for each table of
generated-seed1 equal lakestruct's. pypaimon runs in its own environment (tests/paimon/pypaimon_env.py creates it;
it pins pyarrow<20), through tests/paimon/pypaimon_probe.py; the test skips, saying why, when it cannot be created."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from lakestruct import paimon
from lakestruct.errors import FormatError

HERE = Path(__file__).resolve().parent
pytestmark = pytest.mark.xdist_group("pypaimon")  # one worker runs the module-scoped writer once
SEED = "generated-seed1/paimon/tables"


@pytest.fixture(scope="module")
def pypaimon() -> Path:
    import sys

    sys.path.insert(0, str(HERE))
    from pypaimon_env import pypaimon_python

    python, reason = pypaimon_python()
    if python is None:
        pytest.skip(reason)
    return python


@pytest.mark.parametrize("name", ["append_p", "append_b", "pk", "de_dv"])
def test_live_files_and_deletion_vectors_equal_pypaimon(corpus: Path, pypaimon: Path, name: str) -> None:
    table = corpus / SEED / name
    out = subprocess.run([str(pypaimon), str(HERE / "pypaimon_probe.py"), "scan", str(table)], capture_output=True, text=True,
                         timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    theirs = {f["file_name"]: f for f in json.loads(out.stdout)["files"]}
    t = paimon.open_table(table)
    live = t.live_files()
    dvs = t.deletion_vectors(files=live)
    assert sorted(theirs) == sorted(f.file.file_name for f in live)
    for f in live:
        x = theirs[f.file.file_name]
        assert (x["bucket"], x["row_count"], x["level"]) == (f.bucket, f.row_count, f.level)
        assert x["positions"] == (dvs[f.path].tolist() if f.path in dvs else None)


@pytest.fixture(scope="module")
def evolved(pypaimon: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A table written by pypaimon under three schemas (see pypaimon_probe.evolve) and pypaimon's own view of them."""
    wh = tmp_path_factory.mktemp("evolved")
    out = subprocess.run([str(pypaimon), str(HERE / "pypaimon_probe.py"), "evolve", str(wh)], capture_output=True, text=True,
                         timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    doc = json.loads(out.stdout.strip().splitlines()[-1])
    return Path(doc["table"]), doc


def _stats_from_data(path: str) -> dict[str, tuple]:
    """(min, max, null count) of each user column, computed from the data file's rows by pyarrow."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    data = pq.read_table(path)
    out = {}
    for name in data.column_names:
        if name.startswith("_KEY_") or name in ("_SEQUENCE_NUMBER", "_VALUE_KIND"):
            continue
        col = data.column(name)
        mm = pc.min_max(col).as_py()
        out[name] = (mm["min"], mm["max"], col.null_count)
    return out


def test_schema_evolution_each_file_decoded_with_its_own_schema(evolved: tuple[Path, dict]) -> None:
    table, theirs = evolved
    t = paimon.open_table(table)
    # every schema version equals pypaimon's: field ids survive the rename, the dropped column's id is not reused
    assert [{"id": s.id, "fields": [[f.id, f.name, str(f.type)] for f in s.fields], "partition_keys": list(s.partition_keys),
             "primary_keys": list(s.primary_keys)} for s in t.schemas()] == theirs["schemas"]
    live = t.live_files()
    assert sorted({f.file.schema_id for f in live}) == [0, 1, 2]
    for f in live:
        mine = t.value_stats(f)
        # names and arity from the file's own schema; values equal the data's own min/max/null counts
        assert list(mine) == [x.name for x in t.schema(f.file.schema_id).fields]
        assert {n: (s.min, s.max, s.null_count) for n, s in mine.items()} == _stats_from_data(f.path), f.file.file_name
        lo, hi = t.key_range(f)
        assert (lo["id"], hi["id"]) == (mine["id"].min, mine["id"].max)
    # the INT written under schema 0 is negative: read with schema 2's BIGINT it would not be -5
    old = next(f for f in live if f.file.schema_id == 0 and f.partition == {"p": "p0"})
    assert t.value_stats(old)["a"].min == -5
    with pytest.raises(FormatError) as ei:  # read with the latest schema, the arity differs: refused, not misread
        t._stats(old.file.value_stats, list(t.schema(2).fields), "value_stats")
    assert ei.value.rule == "paimon.binary-row.arity"


def test_schema_evolution_live_files_equal_pypaimon(evolved: tuple[Path, dict], pypaimon: Path) -> None:
    table, _ = evolved
    out = subprocess.run([str(pypaimon), str(HERE / "pypaimon_probe.py"), "scan", str(table)], capture_output=True, text=True,
                         timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    theirs = sorted((f["file_name"], f["row_count"]) for f in json.loads(out.stdout)["files"])
    assert theirs == sorted((f.file.file_name, f.row_count) for f in paimon.open_table(table).live_files())


def test_schema_evolution_cli(evolved: tuple[Path, dict]) -> None:
    import contextlib
    import io

    from lakestruct.cli import main

    table, theirs = evolved
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["paimon", "schema", "--all", "--json", str(table)]) == 0
    assert [s["id"] for s in json.loads(buf.getvalue())["schemas"]] == [s["id"] for s in theirs["schemas"]]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["paimon", "files", "--json", str(table)]) == 0
    for row in json.loads(buf.getvalue())["files"]:
        data = _stats_from_data(str(table / row["path"]))
        assert list(row["value_stats"]) == list(data)
        assert {c: v["null_count"] for c, v in row["value_stats"].items()} == {c: v[2] for c, v in data.items()}


def test_external_data_paths_and_external_index_files(pypaimon: Path, tmp_path: Path) -> None:
    """Data files in two external directories, and DV index files there too, both recorded as ``file:/...``
    Hadoop paths: lakestruct opens them where they are; files, rows and deleted positions equal pypaimon's."""
    import pyarrow.parquet as pq

    out = subprocess.run([str(pypaimon), str(HERE / "pypaimon_probe.py"), "external", str(tmp_path)], capture_output=True,
                         text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    table = Path(json.loads(out.stdout.strip().splitlines()[-1])["table"])
    t = paimon.open_table(table)
    live = t.live_files()
    assert all(f.file.external_path and f.file.external_path.startswith("file:/") for f in live)
    # every one in an external directory (which one is pypaimon's round-robin, from a random start: not asserted)
    assert {Path(f.path).relative_to(tmp_path).parts[0] for f in live} <= {"ext1", "ext2"}
    for f in live:
        assert pq.ParquetFile(f.path).metadata.num_rows == f.row_count  # the path is the real local file
    with_dv = [f for f in live if f.deletion_file is not None]
    for f in with_dv:  # in an external directory too, under the data file's partition and bucket
        where = Path(f.deletion_file.path)
        assert where.is_file() and where.relative_to(tmp_path).parts[0] in ("ext1", "ext2")
        assert where.parent.parts[-2:] == Path(f.path).parent.parts[-2:]
    assert with_dv
    assert all(e.index_file.external_path for e in t.index_entries())
    dvs = t.deletion_vectors(files=live)
    scan = subprocess.run([str(pypaimon), str(HERE / "pypaimon_probe.py"), "scan", str(table)], capture_output=True, text=True,
                          timeout=300, check=False)
    assert scan.returncode == 0, scan.stderr[-2000:]
    theirs = {f["file_name"]: f for f in json.loads(scan.stdout)["files"]}
    assert sorted(theirs) == sorted(f.file.file_name for f in live)
    for f in live:
        assert theirs[f.file.file_name]["positions"] == (dvs[f.path].tolist() if f.path in dvs else None)
    assert sum(len(v) for v in dvs.values()) == 58
