"""``-`` is standard input for every command that takes a FILE: the same output as the file's path gives
(piped input is read once, into memory; a redirected file is read by ranges)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lakestruct.cli import main

EXE = Path(sys.executable).parent / "lakestruct"
PQ = "parquet-testing/data"
DELETES = "iceberg/core/src/test/resources/org/apache/iceberg/deletes"

#: (argv with FILE where the path goes, corpus file): every command and subcommand that takes a FILE.
COMMANDS: list[tuple[list[str], str]] = [
    (["puffin", "inspect", "FILE", "--json", "--all"], "puffin-tools/src/test/resources/apache-datasketches-theta-v1.puffin"),
    (["deletes", "show", "FILE", "--json"], "puffin-tools/src/test/resources/deletion-vector-v1.puffin"),
    (["deletes", "show", "FILE", "--json", "--offset", "4", "--length", "46"], "puffin-tools/src/test/resources/deletion-vector-v1.puffin"),
    (["deletes", "show", "FILE", "--json"], "paimon/paimon-core/src/test/resources/compatibility/dvindex-32"),
    (["deletes", "show", "FILE", "--json"], f"{DELETES}/all-container-types-position-index.bin"),
    (["parquet", "meta", "FILE", "--json"], f"{PQ}/alltypes_plain.parquet"),
    (["parquet", "pages", "FILE", "--json"], f"{PQ}/alltypes_plain.parquet"),
    (["parquet", "index", "FILE", "--json"], f"{PQ}/int32_with_null_pages.parquet"),
    (["parquet", "bloom", "FILE", "--json", "--column", "0", "--value", "Hello"], f"{PQ}/data_index_bloom_encoding_stats.parquet"),
    (["parquet", "levels", "FILE", "--json", "--column", "0"], "seed-files/nested.parquet"),
    (["parquet", "values", "FILE", "--json", "--column", "0"], "seed-files/nested.parquet"),
    (["parquet", "values", "FILE", "--json", "--column", "0", "--rows"], "seed-files/nested.parquet"),
    (["scan", "FILE", "--json"], "datasketches-go/serialization_test_data/java_generated_files/theta_n100_java.sk"),
]


def _without_names(doc: Any) -> Any:
    """The document without the input's name (``file``, scan's ``path``), which differs by design."""
    if isinstance(doc, dict):
        return {k: _without_names(v) for k, v in doc.items() if k not in ("file", "path")}
    if isinstance(doc, list):
        return [_without_names(v) for v in doc]
    return doc


def _docs(text: str) -> list[Any]:
    text = text.strip()
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:  # scan: one object per line
        return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize(("argv", "rel"), COMMANDS, ids=[" ".join(a[:2]) + f" {i}" for i, (a, _) in enumerate(COMMANDS)])
def test_stdin_gives_the_same_output_as_the_path(argv: list[str], rel: str, corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus / rel
    assert main([str(path) if a == "FILE" else a for a in argv]) == 0
    by_path = _docs(capsys.readouterr().out)
    res = subprocess.run([str(EXE), *["-" if a == "FILE" else a for a in argv]], input=path.read_bytes(), capture_output=True,
                         check=False, timeout=120)
    assert res.returncode == 0, res.stderr.decode()
    by_stdin = _docs(res.stdout.decode())
    assert _without_names(by_stdin) == _without_names(by_path)
    names = {d.get("file", d.get("path")) for d in by_stdin if isinstance(d, dict)} - {None}
    assert names <= {"<stdin>", "-"}, names


def test_text_output_names_stdin_and_a_redirected_file_works(corpus: Path) -> None:
    path = corpus / "seed-files/nested.parquet"
    with path.open("rb") as f:  # seekable standard input: read by ranges, like a file
        res = subprocess.run([str(EXE), "parquet", "meta", "-"], stdin=f, capture_output=True, check=False, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(b"<stdin>: Parquet, 598 bytes")


def test_malformed_stdin_exits_1_with_the_rule(corpus: Path) -> None:
    data = (corpus / "croaring/tests/testdata/crashproneinput2.bin").read_bytes()
    res = subprocess.run([str(EXE), "scan", "-"], input=data, capture_output=True, check=False, timeout=120)
    assert res.returncode == 1 and b"roaring32.container-count" in res.stdout
    res = subprocess.run([str(EXE), "parquet", "meta", "-"], input=b"PAR1 not really", capture_output=True, check=False, timeout=120)
    assert res.returncode == 1 and b"<stdin>" in res.stderr and b"parquet." in res.stderr and b"Traceback" not in res.stderr
