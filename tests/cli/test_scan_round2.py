"""``scan`` and ``validate`` after fuzz round two (issue 17): they skip files that are not regular files (a named pipe
in a folder hung ``scan``), they decode at most the one cap of every command (``roaring.CHECK_MAX_POSITIONS``, 2^24
positions a file, the cap of ``deletes show``; they decoded 2^28 before, 2.1 GB), and ``validate DIR`` finds the
Paimon tables below a folder as ``scan DIR`` does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lakestruct.cli.deletes import CLI_MAX_POSITIONS
from lakestruct.roaring import CHECK_MAX_POSITIONS
from lakestruct.scan import validate_file, walk

_RUN = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))  # 2^28 positions take 2 GiB
from lakestruct.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _run(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", _RUN, *args], capture_output=True, text=True, timeout=timeout)


def _lines(out: str) -> list[dict[str, object]]:
    return [json.loads(x) for x in out.splitlines() if x.strip()]


def test_one_cap_everywhere() -> None:
    assert CLI_MAX_POSITIONS == CHECK_MAX_POSITIONS == 1 << 24


@pytest.fixture
def big_vectors(corpus: Path) -> list[str]:
    names = ["crafted_dv_runs_2gib.bin", "crafted_paimon32_2p28_runs.index", "crafted_roaring32_2p28_runs.bin"]
    paths = [corpus / "fuzz-repro" / n for n in names]
    if not all(p.is_file() for p in paths):
        pytest.skip("the 2^28-position reproducers are not in this corpus")
    return [str(p) for p in paths]


@pytest.mark.parametrize("command", [["scan", "--json"], ["validate", "--json"], ["validate", "--deep", "--json"]])
def test_scan_and_validate_stop_at_the_cap(big_vectors: list[str], command: list[str]) -> None:
    proc = _run([*command, *big_vectors])
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "MemoryError" not in proc.stderr, proc.stderr
    docs = [d for d in _lines(proc.stdout) if "path" in d]
    assert len(docs) == 3
    for d in docs:
        rule = d.get("rule") or d["findings"][0]["rule"]  # type: ignore[index]
        assert rule == "roaring.max-positions", d
        text = json.dumps(d)
        assert f"the limit is {CHECK_MAX_POSITIONS}" in text


def test_the_cap_is_an_option(big_vectors: list[str]) -> None:
    # --max-positions, as deletes show takes it: a lower cap is named in the message
    proc = _run(["validate", "--max-positions", "1000", big_vectors[0]])
    assert proc.returncode == 1 and "the limit is 1000" in proc.stdout
    report = validate_file(big_vectors[0], "dv-blob", max_positions=5)
    assert report.result.rule == "roaring.max-positions" and "the limit is 5" in report.result.summary


def test_a_named_pipe_is_skipped(tmp_path: Path, corpus: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes on this system")
    d = tmp_path / "lake"
    d.mkdir()
    os.mkfifo(d / "a_pipe.parquet")  # opening it for reading would block until a writer comes
    sample = corpus / "parquet-testing" / "data" / "alltypes_plain.parquet"
    (d / "real.parquet").write_bytes(sample.read_bytes())
    assert list(walk([str(d)])) == [str(d / "real.parquet")]
    for command in (["scan", "--json"], ["validate", "--json"], ["validate", "--deep", "--json"]):
        proc = _run([*command, str(d)], timeout=60)  # hung forever before
        assert proc.returncode == 0, (command, proc.stderr)
        docs = _lines(proc.stdout)
        assert [x["path"] for x in docs if "path" in x] == [str(d / "real.parquet")]


def test_validate_finds_paimon_tables_below_a_folder_as_scan_does(corpus: Path) -> None:
    tables = corpus / "generated-seed1" / "paimon" / "tables"
    if not tables.is_dir():
        pytest.skip("the generated Paimon tables are not in this corpus")
    found: dict[str, set[str]] = {}
    for command in (["scan", "--json"], ["validate", "--json"]):
        proc = _run([*command, str(tables.parent)], timeout=300)
        assert proc.returncode in (0, 1), proc.stderr
        found[command[0]] = {str(x["path"]) for x in _lines(proc.stdout) if x.get("format") == "paimon-table"}
    want = {str(tables / n) for n in sorted(os.listdir(tables)) if (tables / n / "snapshot").is_dir()}
    assert len(want) == 4
    assert found["scan"] == found["validate"] == want
