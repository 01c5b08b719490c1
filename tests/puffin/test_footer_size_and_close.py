"""``puffin.open(..., footer_size=N)`` checks the footer size table metadata declares (``file-footer-size-in-bytes``,
rule ``puffin.footer-size``) and reads that footer with one tail read; a closed reader refuses to read blobs with a
clear :class:`UsageError`, not a ValueError from deep in the file object."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

import lakestruct as ls
from lakestruct.errors import FormatError, UsageError
from lakestruct.puffin.decode import check_blobs
from lakestruct.source import open_source


def _wide_file(path: Path) -> None:
    with ls.puffin.PuffinWriter(path, properties={f"k{i}": "v" * 50 for i in range(400)}) as w:  # a ~25 KB footer
        w.add_blob("big", os.urandom(1 << 20))
        w.add_blob("small", b"tiny", codec="zstd")


def test_footer_size_from_table_metadata(corpus: Path) -> None:
    """Every statistics file of the Iceberg-written corpus, with the footer size its table metadata declares."""
    exp = json.loads((corpus / "generated-seed1/iceberg/expected.json").read_text())
    checked = 0
    for name, entry in exp["files"].items():
        if entry.get("kind") != "theta-statistics":
            continue
        declared = entry["statistics"]["file-footer-size-in-bytes"]
        path = corpus / "generated-seed1/iceberg/files" / name
        src = open_source(path)
        with ls.puffin.open(src, footer_size=declared) as r:
            assert src.reads == 1 and r.footer.size == declared
        for wrong in (declared - 1, declared + 1):
            with pytest.raises(FormatError) as e:
                ls.puffin.open(path, footer_size=wrong)
            assert e.value.rule == "puffin.footer-size" and e.value.path == "footer"
            assert e.value.offset == path.stat().st_size - wrong and str(declared) in e.value.message
        checked += 1
    assert checked >= 5


def test_declared_footer_is_the_one_tail_read(tmp_path: Path) -> None:
    path = tmp_path / "wide.puffin"
    _wide_file(path)
    with ls.puffin.open(path) as r:
        size = r.footer.size
    assert size > ls.puffin.DEFAULT_TAIL_HINT
    src = open_source(path)
    with ls.puffin.open(src, footer_size=size) as r:  # without it: the 8 KiB hint, then a second read
        assert src.reads == 1 and len(r.properties) == 401


@pytest.mark.parametrize("declared", [0, 15, 10**12])
def test_impossible_footer_size_costs_no_read(tmp_path: Path, declared: int) -> None:
    path = tmp_path / "wide.puffin"
    _wide_file(path)
    src = open_source(path)
    with pytest.raises(FormatError) as e:
        ls.puffin.open(src, footer_size=declared)
    assert e.value.rule == "puffin.footer-size" and src.reads == 0


@pytest.mark.parametrize("declared", [-1, 1.5, True, "100"])
def test_footer_size_argument_type(declared: object) -> None:
    with pytest.raises(UsageError):
        ls.puffin.open(b"", footer_size=declared)  # type: ignore[arg-type]


# -- reading after close ------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["path", "bytes", "file object"])
def test_read_after_close(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "wide.puffin"
    _wide_file(path)
    data = path.read_bytes()
    source: object = {"path": path, "bytes": data, "file object": io.BytesIO(data)}[kind]
    with ls.puffin.open(source) as r:  # type: ignore[arg-type]
        assert r.read_blob(1) == b"tiny" and not r.closed
    assert r.closed and [b.type for b in r.blobs] == ["big", "small"]  # the footer stays readable
    for call in (lambda: r.read_blob(1), lambda: r.read_blob(r.blobs[0], raw=True), r.check, lambda: list(r.iter_blobs()),
                 lambda: check_blobs(r)):
        with pytest.raises(UsageError) as e:
            call()
        assert "closed" in str(e.value) and "with" in str(e.value)
    dv = tmp_path / "dv.puffin"
    with ls.puffin.PuffinWriter(dv) as w:
        w.add_deletion_vector([1, 2], "s3://b/t/f.parquet")
    with ls.puffin.open(dv) as r:
        assert ls.deletes.read_dv_blob(r, 0).cardinality == 2
    with pytest.raises(UsageError):  # the deletes room reads through the same reader
        ls.deletes.read_dv_blob(r, 0)
