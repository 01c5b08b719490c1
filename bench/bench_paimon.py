"""Paimon: scan planning against pypaimon 2.1, and the 64-bit deletion-vector decode against the Iceberg DV decoder.

* Planning: listing the live data files of a table's latest snapshot and the deleted positions of every data file.
  lakestruct: ``open_table`` + ``live_files`` + ``deletion_vectors`` (every manifest merged, partitions decoded, every
  DV index file read and checked; manifests decoded by the compiled twin ``avro/_plan_c.pyx`` when it is built).
  pypaimon 2.1 (in its own environment, tests/paimon/pypaimon_env.py, because it pins pyarrow<20):
  ``new_read_builder().new_scan().plan().splits()`` on a fresh table object, plus
  ``DeletionVector.read`` of each deletion file. Tables: one written by pypaimon for the bench (60 appends into 8
  partitions, 480 data files) and generated-seed1's ``de_dv`` (4 files with deletion vectors).
* 64-bit DV entry: a Paimon index file of one ``Bitmap64DeletionVector`` entry of 1M random positions, decoded by
  ``paimon.parse_dv_index``, against ``deletes.decode_blob`` of the same bytes as an Iceberg blob (goal: within 1.2x).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from common import Result, best_of

from lakestruct import deletes, paimon
from lakestruct.avro import plan as avroplan

REPO = Path(__file__).resolve().parent.parent
PROBE = REPO / "tests" / "paimon" / "pypaimon_probe.py"
SHARED = Path(os.environ.get("LAKESTRUCT_SHARED", REPO.parent / "shared"))


def _ours(table: str) -> float:
    def scan() -> None:
        t = paimon.open_table(table)
        live = t.live_files()
        t.deletion_vectors(files=live)

    return best_of(scan, repeat=7)


def _pypaimon(python: Path, table: str) -> dict[str, float]:
    r = subprocess.run([str(python), str(PROBE), "scan", table, "7"], capture_output=True, text=True, timeout=600, check=True)
    doc: dict[str, float] = json.loads(r.stdout)
    return doc


def _planning(results: list[Result]) -> None:
    sys.path.insert(0, str(REPO / "tests" / "paimon"))
    from pypaimon_env import pypaimon_python

    python, reason = pypaimon_python()
    if python is None:
        print(f"bench_paimon: pypaimon comparison skipped: {reason}", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as wh:
        subprocess.run([str(python), str(PROBE), "make", wh, "60"], capture_output=True, text=True, timeout=600, check=True)
        tables = {"480 files, 60 commits": str(Path(wh) / "bench.db" / "t")}
        de_dv = SHARED / "corpus/generated-seed1/paimon/tables/de_dv"
        if de_dv.is_dir():
            tables["de_dv, 4 files with DVs"] = str(de_dv)
        decoder = "compiled manifest decoder" if avroplan.COMPILED else "fastavro, no compiled twin"
        for name, table in tables.items():
            peer = _pypaimon(python, table)
            ours = _ours(table)
            results.append(Result(f"paimon scan planning + DVs ({name})", "pypaimon 2.1 plan + DV read", peer["plan_and_dv_s"] / ours, 5.0,
                                  f"{ours * 1e3:.2f} ms vs {peer['plan_and_dv_s'] * 1e3:.2f} ms (pypaimon plan alone "
                                  f"{peer['plan_s'] * 1e3:.2f} ms; ours {decoder})"))


def _dv64(results: list[Result]) -> None:
    rng = np.random.default_rng(7)
    pos = np.sort(rng.choice(50_000_000, 1_000_000, replace=False)).astype(np.int64)
    entry = paimon.encode_dv_entry(pos, 64)
    index_file = b"\x01" + entry
    ours = best_of(lambda: paimon.parse_dv_index(index_file), repeat=9)
    peer = best_of(lambda: deletes.decode_blob(entry), repeat=9)
    assert paimon.parse_dv_index(index_file)[0].positions.tolist() == deletes.decode_blob(entry).tolist()
    results.append(Result("paimon 64-bit DV entry decode, 1M random positions", "lakestruct Iceberg DV decode_blob", peer / ours,
                          1 / 1.2, f"{ours * 1e3:.2f} ms vs {peer * 1e3:.2f} ms ({ours / 1e6 * 1e9:.2f} ns/position)"))


def run() -> list[Result]:
    results: list[Result] = []
    _dv64(results)
    _planning(results)
    return results


if __name__ == "__main__":
    for r in run():
        print(r)
