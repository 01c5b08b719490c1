"""pypaimon 2.1 as the independent oracle: the live files and deleted positions it plans for each table of
generated-seed1 equal lakestruct's. pypaimon runs in its own environment (tests/paimon/pypaimon_env.py creates it;
it pins pyarrow<20), through tests/paimon/pypaimon_probe.py; the test skips, saying why, when it cannot be created."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from lakestruct import paimon

HERE = Path(__file__).resolve().parent
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
