"""Deletion vectors from ``fuzz-repro/`` (read in place), and the property and CLI rules they led to."""

from __future__ import annotations

from pathlib import Path

import pytest

import lakestruct as ls
from lakestruct.errors import FormatError


def _dv_puffin(path: Path, cardinality: str) -> None:
    with ls.puffin.PuffinWriter(path) as w:
        w.add_blob(
            ls.puffin.DELETION_VECTOR_V1,
            ls.deletes.encode_deletion_vector_blob([1, 5, 9]),
            fields=list(ls.deletes.DV_FIELDS),
            snapshot_id=-1,
            sequence_number=-1,
            properties={"referenced-data-file": "s3://b/t/data/f.parquet", "cardinality": cardinality},
        )


@pytest.mark.parametrize("digits", [20, 400, 4301, 5000])
def test_cardinality_beyond_a_long(tmp_path: Path, digits: int) -> None:
    """A cardinality of thousands of digits raised ValueError from int() (over 4,300 digits); now a named rule."""
    p = tmp_path / "dv.puffin"
    _dv_puffin(p, "9" * digits)
    with pytest.raises(FormatError) as e:
        ls.deletes.read_deletion_vectors(p)
    assert e.value.rule == "deletion-vector.cardinality"
    assert e.value.path == "footer.payload.blobs[0].properties.cardinality"
    assert "Java long" in e.value.message and len(e.value.message) < 300
    with ls.puffin.open(p) as r, pytest.raises(FormatError) as e2:
        r.check()
    assert e2.value.rule == "deletion-vector.cardinality"


def test_cardinality_long_boundary(tmp_path: Path) -> None:
    ok = tmp_path / "ok.puffin"
    _dv_puffin(ok, "0003")  # leading zeros: the number 3
    assert ls.deletes.read_deletion_vectors(ok)["s3://b/t/data/f.parquet"].cardinality == 3
    for value, what in ((str(2**63 - 1), "the vector holds 3"), (str(2**63), "Java long")):
        p = tmp_path / f"{value}.puffin"
        _dv_puffin(p, value)
        with pytest.raises(FormatError) as e:
            ls.deletes.read_deletion_vectors(p)
        assert e.value.rule == "deletion-vector.cardinality" and what in e.value.message
