"""``LAKESTRUCT_PURE`` forces the pure twins (issue 17): a subprocess with it set reports ``pure`` in ``twins()`` and
``lakestruct --version``, and decodes the same things to the same results as the default (compiled) process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import lakestruct as ls

_PROBE = r"""
import hashlib, json, sys
import lakestruct as ls
from lakestruct import paimon
out = {"twins": ls.twins()}
corpus = sys.argv[1]
# roaring: a deletion vector's positions
dvs = ls.deletes.read_paimon_deletion_vectors(corpus + "/paimon/paimon-core/src/test/resources/compatibility/dvindex-64")
out["roaring"] = [e.vector.positions().tolist() for e in dvs]
# thrift: a Parquet footer and every page header
pq = ls.parquet.open(corpus + "/parquet-testing/data/alltypes_plain.parquet")
out["thrift"] = [json.dumps(pq.metadata.to_dict(), sort_keys=True, default=str), [(p.offset, p.num_values) for p in pq.pages()]]
# avro: a Paimon table's live files and deleted rows
t = paimon.open_table(corpus + "/generated-seed1/paimon/tables/de_dv")
out["avro"] = sorted((f.path, f.row_count, f.level) for f in t.live_files())
out["deleted"] = sorted((p, a.tolist()) for p, a in t.deletion_vectors().items())
print(json.dumps(out))
"""


def _run(env_value: str | None, corpus: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "LAKESTRUCT_PURE"}
    if env_value is not None:
        env["LAKESTRUCT_PURE"] = env_value
    proc = subprocess.run([sys.executable, "-c", _PROBE, str(corpus)], capture_output=True, text=True, timeout=300, env=env,
                          check=True)
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def _version(env_value: str) -> str:
    env = {**os.environ, "LAKESTRUCT_PURE": env_value}
    proc = subprocess.run([sys.executable, "-c", "from lakestruct.cli import main; main(['--version'])"], capture_output=True,
                          text=True, timeout=120, env=env)
    return proc.stdout + proc.stderr


def test_pure_everywhere_gives_the_same_results(corpus: Path) -> None:
    if not (corpus / "generated-seed1" / "paimon" / "tables" / "de_dv").is_dir():
        pytest.skip("the generated Paimon tables are not in this corpus")
    default = _run(None, corpus)
    pure = _run("1", corpus)
    assert set(pure["twins"].values()) == {"pure"}  # type: ignore[attr-defined]
    assert set(pure["twins"]) == set(ls.twins())  # type: ignore[arg-type]
    for key in ("roaring", "thrift", "avro", "deleted"):
        assert pure[key] == default[key], key
    assert default["roaring"] and default["avro"] and default["deleted"]


def test_some_twins_by_name(corpus: Path) -> None:
    got = _run("roaring, thrift", corpus)["twins"]
    assert got["roaring"] == got["thrift"] == "pure"  # type: ignore[index]
    others = {k: v for k, v in got.items() if k not in ("roaring", "thrift")}  # type: ignore[union-attr]
    assert others == {k: v for k, v in ls.twins().items() if k not in ("roaring", "thrift")}
    got = _run("paimon", corpus)["twins"]  # the Avro twin's old name
    assert got["avro"] == got["paimon"] == "pure"  # type: ignore[index]
    assert _run("0", corpus)["twins"] == ls.twins()


def test_version_says_pure() -> None:
    text = _version("1")
    assert "lakestruct" in text and "compiled" not in text and text.count("pure") == len(ls.twins())


def test_an_unknown_name_is_warned_about() -> None:
    env = {**os.environ, "LAKESTRUCT_PURE": "roaring,rocket"}
    proc = subprocess.run([sys.executable, "-W", "always", "-c", "import lakestruct as ls; print(ls.twins()['roaring'])"],
                          capture_output=True, text=True, timeout=120, env=env, check=True)
    assert proc.stdout.strip() == "pure" and "rocket" in proc.stderr
