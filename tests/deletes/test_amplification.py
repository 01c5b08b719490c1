"""A small vector of run containers can claim billions of positions: refused before allocating."""

from __future__ import annotations

import io
import tracemalloc

import pyroaring
import pytest

import lakestruct as ls


def full_key_blob() -> bytes:
    bm = pyroaring.BitMap()
    bm.add_range(0, 1 << 32)  # 65,536 run containers: 2^32 positions in under 1 MB
    bm.run_optimize()
    return ls.deletes.wrap_vector((1).to_bytes(8, "little") + (0).to_bytes(4, "little") + bm.serialize())


@pytest.mark.parametrize("impl", ["auto", "python"])
def test_footer_cardinality_bounds_the_decode(impl: str) -> None:
    blob = full_key_blob()
    assert len(blob) < 1 << 20
    buf = io.BytesIO()
    with ls.puffin.PuffinWriter(buf) as w:
        w.add_blob("deletion-vector-v1", blob, fields=[2147483645], properties={"referenced-data-file": "f", "cardinality": "3"})
    tracemalloc.start()
    try:
        with pytest.raises(ls.FormatError) as ei:
            ls.deletes.read_deletion_vectors(buf.getvalue(), impl=impl)  # type: ignore[arg-type]
        assert ei.value.rule == "deletion-vector.cardinality"
        assert "3" in ei.value.message and str(1 << 32) in ei.value.message
        with ls.puffin.open(buf.getvalue()) as r, pytest.raises(ls.FormatError) as ei2:
            r.check()
        assert ei2.value.rule == "deletion-vector.cardinality"
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20, f"peak {peak} bytes for a {len(blob)}-byte blob"


def test_bare_blob_has_a_default_limit_that_a_caller_can_raise() -> None:
    blob = full_key_blob()
    with pytest.raises(ls.LimitError) as ei:
        ls.deletes.decode_blob(blob)
    assert ei.value.rule == "roaring.max-positions"
    small = ls.deletes.encode_deletion_vector_blob(range(0, 1 << 20))  # one run container per 65,536
    assert ls.deletes.decode_blob(small, max_positions=1 << 20).size == 1 << 20
    with pytest.raises(ls.LimitError):
        ls.deletes.decode_blob(small, max_positions=(1 << 20) - 1)
