"""``spark.read.format("paimon_files")`` gives the rows of the plain loop (tests/paimon/test_spark_source.py holds
those to generated-seed1's expected.json)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lakestruct.spark.paimon_source import PAIMON_FILES, list_table_dirs
from lakestruct.spark.rowsource import batches

SEED = "generated-seed1/paimon"


def test_spark_rows_equal_plain_loop(corpus: Path, spark: Any) -> None:
    root = str(corpus / SEED)
    df = spark.read.format("paimon_files").load(root)
    key = ("file", "path")
    got = sorted((r.asDict(recursive=True) for r in df.collect()), key=lambda r: tuple(str(r[k]) for k in key))
    plain = [r for b in batches(PAIMON_FILES, list_table_dirs([root], {}), {}) for r in b.to_pylist()]
    want = sorted(plain, key=lambda r: tuple(str(r[k]) for k in key))
    assert got == want and len(got) == 22
