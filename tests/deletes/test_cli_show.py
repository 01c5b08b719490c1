"""``lakestruct deletes show`` and ``puffin inspect``: usage exit codes, empty Paimon index files, one Paimon entry by
its ``DeletionVectorMeta`` (offset, length), and ``--max-positions``."""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lakestruct as ls
from lakestruct.cli import main

COMPAT = "paimon/paimon-core/src/test/resources/compatibility"
DE_DV = "generated-seed1/paimon/tables/de_dv/index"


def show(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    assert main(["deletes", "show", *argv, "--json", "--all"]) == 0
    return json.loads(capsys.readouterr().out)


# -- usage ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "extra",
    [["--offset", "4"], ["--length", "46"], ["--offset", "-1", "--length", "46"], ["--max-positions", "0"], ["--max-positions", "x"]],
)
def test_bad_usage_exits_2(tmp_path: Path, extra: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    blob = tmp_path / "dv.bin"
    blob.write_bytes(ls.deletes.encode_deletion_vector_blob([1, 2, 3]))
    with pytest.raises(SystemExit) as e:  # argparse's own usage errors exit 2 by raising
        rc = main(["deletes", "show", str(blob), *extra])
        raise SystemExit(rc)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "error" in err and "Traceback" not in err


# -- an empty Paimon index file: just the version byte --------------------------------------------------
def test_empty_paimon_index_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "index-empty-0"
    path.write_bytes(b"\x01")
    assert ls.deletes.read_paimon_deletion_vectors(path) == []
    shown = show([str(path)], capsys)
    assert shown["kind"] == "dv-file" and shown["deletion_vectors"] == []
    assert main(["deletes", "show", str(path)]) == 0
    assert "dv-file, 0 deletion vector(s)" in capsys.readouterr().out
    path.write_bytes(b"")  # no version byte: not a DV file of any kind
    assert main(["deletes", "show", str(path), "--kind", "dv-file"]) == 1
    assert "paimon-dv.version" in capsys.readouterr().err


# -- one Paimon entry, as DeletionVectorMeta records it --------------------------------------------------
def _paimon_metas(corpus: Path) -> dict[str, list[tuple[int, int, int, str]]]:
    """(offset, length, cardinality, data file) of every DeletionVectorMeta in the Paimon index manifests."""
    table = json.loads((corpus / "generated-seed1/paimon/expected.json").read_text())["tables"]["de_dv"]
    metas: dict[str, list[tuple[int, int, int, str]]] = {}
    for name, manifest in table["avro"].items():
        if name.startswith("index-manifest"):
            for rec in manifest["records"]:
                for r in rec["_DELETIONS_VECTORS_RANGES"] or []:
                    metas.setdefault(rec["_FILE_NAME"], []).append((r["f1"], r["f2"], r["_CARDINALITY"], r["f0"]))
    return metas


def test_paimon_entry_by_deletion_vector_meta(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    metas = _paimon_metas(corpus)
    positions = {  # what expected.json says each entry holds
        (f["index_file"], v["offset"]): v["positions"]
        for f in json.loads((corpus / "generated-seed1/paimon/expected.json").read_text())["tables"]["de_dv"]["deletion_vector_index_files"]
        for v in f["vectors"]
    }
    checked = 0
    for index_file, entries in metas.items():
        path = corpus / DE_DV / index_file
        for offset, length, cardinality, _ in entries:
            (d,) = show([str(path), "--offset", str(offset), "--length", str(length)], capsys)["deletion_vectors"]
            assert (d["offset"], d["length"], d["cardinality"]) == (offset, length, cardinality)
            assert d["cardinality"] == positions[(index_file, offset)]["count"]
            entry = ls.deletes.read_paimon_deletion_vector(path, offset=offset, length=length, cardinality=cardinality)
            assert entry.vector.positions().tolist() == d["deleted_rows"]
            checked += 1
    assert checked >= 8


def test_paimon_64bit_entry_and_wrong_lengths(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus / COMPAT / "dvindex-64"
    whole = ls.deletes.read_paimon_deletion_vectors(path)
    for e in whole:  # 64-bit entries: Paimon records size + 8
        (d,) = show([str(path), "--offset", str(e.offset), "--length", str(e.length)], capsys)["deletion_vectors"]
        assert (d["bits"], d["deleted_rows"]) == (64, e.vector.positions().tolist())
    first = whole[0]
    assert main(["deletes", "show", str(path), "--offset", str(first.offset), "--length", str(first.length - 8)]) == 0  # Delta's
    capsys.readouterr()  # (the same bytes, as a Delta descriptor's sizeInBytes)
    path32 = corpus / COMPAT / "dvindex-32"
    e32 = ls.deletes.read_paimon_deletion_vectors(path32)[0]
    with pytest.raises(ls.FormatError) as err:
        ls.deletes.read_paimon_deletion_vector(path32, offset=e32.offset, length=e32.length + 8)
    assert err.value.rule == "paimon-dv.meta-range" and err.value.offset == e32.offset
    with pytest.raises(ls.FormatError) as err:
        ls.deletes.read_paimon_deletion_vector(path32, offset=e32.offset, length=e32.length, cardinality=e32.vector.cardinality + 1)
    assert err.value.rule == "paimon-dv.cardinality"
    assert main(["deletes", "show", str(path32), "--offset", str(e32.offset), "--length", str(e32.length + 1)]) == 1
    assert "paimon-dv.meta-range" in capsys.readouterr().err


# -- --max-positions ---------------------------------------------------------------------------------------
def _two_dvs(path: Path) -> None:
    with ls.puffin.PuffinWriter(path) as w:
        w.add_deletion_vector([1, 2, 3], "s3://b/t/a.parquet")
        w.add_deletion_vector(np.arange(10, 13), "s3://b/t/b.parquet")


def test_max_positions_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "two.puffin"
    _two_dvs(p)
    assert len(show([str(p), "--max-positions", "6"], capsys)["deletion_vectors"]) == 2
    for cmd in (["deletes", "show", str(p)], ["puffin", "inspect", str(p)]):
        assert main([*cmd, "--max-positions", "5"]) == 1  # the limit is for the whole file: 3 + 3 > 5
        err = capsys.readouterr().err
        assert "roaring.max-positions" in err and "the vectors before this one took 3" in err and "--max-positions N" in err
        assert main([*cmd, "--max-positions", "2"]) == 1
        assert "the limit is 2" in capsys.readouterr().err
        assert main([*cmd, "--max-positions", "none"]) == 0
        capsys.readouterr()
    blob = tmp_path / "dv.bin"
    blob.write_bytes(ls.deletes.encode_deletion_vector_blob([5, 6, 7]))
    assert main(["deletes", "show", str(blob), "--max-positions", "2"]) == 1
    assert f"{blob}: roaring.max-positions" in capsys.readouterr().err


def test_library_limit_is_per_file(tmp_path: Path) -> None:
    p = tmp_path / "two.puffin"
    _two_dvs(p)
    with pytest.raises(ls.LimitError):
        ls.deletes.read_deletion_vectors(p, max_positions=5)
    assert len(ls.deletes.read_deletion_vectors(p, max_positions=6)) == 2
    body = ls.deletes.PAIMON_MAGIC32 + ls.roaring.encode32([1, 2, 3])
    entry = len(body).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")
    paimon = b"\x01" + entry + entry
    assert len(ls.deletes.read_paimon_deletion_vectors(paimon, max_positions=6)) == 2
    with pytest.raises(ls.LimitError) as e:
        ls.deletes.read_paimon_deletion_vectors(paimon, max_positions=5)
    assert e.value.path == "entries[1].vector"
