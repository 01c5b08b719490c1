"""``fuzz-repro/crafted_roaring32_2p28_runs.bin`` (read in place): 57,860 bytes, 4096 full run containers, 2^28 values.

Both twins decoded 32-bit bitmaps into uint64 and then copied them to uint32 (12 bytes per value at the peak: 3 GiB here,
a MemoryError under a 3 GB limit). They now write uint32 straight into the output (4 bytes per value), and
``DEFAULT_MAX_POSITIONS`` (2^28, which this bitmap reaches exactly) bounds the output at 1 GiB.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from pyroaring import BitMap

from lakestruct.errors import LimitError
from lakestruct.roaring import DEFAULT_MAX_POSITIONS, HAVE_C, decode_roaring32, describe_roaring32, encode32

IMPLS = ["python", "c"] if HAVE_C else ["python"]
NAME = "crafted_roaring32_2p28_runs.bin"


@pytest.fixture
def data(corpus: Path) -> bytes:
    path = corpus / "fuzz-repro" / NAME
    if not path.is_file():
        pytest.skip(f"{NAME} is not in this corpus")
    return path.read_bytes()


def test_the_bitmap_is_what_its_note_says(data: bytes) -> None:
    theirs = BitMap.deserialize(data)  # CRoaring: valid, 2^28 values 0 .. 2^28-1
    info = describe_roaring32(data)
    assert len(theirs) == info.cardinality == DEFAULT_MAX_POSITIONS == 2**28
    assert len(info.containers) == 4096 and {c.kind for c in info.containers} == {"run"}


@pytest.mark.parametrize("impl", IMPLS)
def test_limit_is_checked_before_allocating(data: bytes, impl: str, traced: None) -> None:
    with pytest.raises(LimitError) as e:
        decode_roaring32(data, impl=impl, max_positions=DEFAULT_MAX_POSITIONS - 1)  # type: ignore[arg-type]
    _, peak = tracemalloc.get_traced_memory()
    assert e.value.rule == "roaring.max-positions" and e.value.offset == 0
    assert str(2**28) in e.value.message
    assert peak < 4 * 2**20


@pytest.mark.parametrize("impl", IMPLS)
def test_decoded_straight_into_uint32(impl: str, traced: None) -> None:
    """4 bytes per value at the peak, for every container kind (2^22 values: runs, bitmaps, arrays)."""
    rng = np.random.default_rng(7)
    runs = np.arange(0, 3 * 2**20, dtype=np.uint64)  # 48 full run containers
    bitmaps = np.unique(rng.integers(2**22, 2**22 + 2**21, 2**20)).astype(np.uint64)  # ~0.4 of each 64 Ki: bitmaps
    arrays = np.unique(rng.integers(2**24, 2**31, 2**17)).astype(np.uint64)
    values = np.concatenate([runs, bitmaps, arrays])
    raw = encode32(values)
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    got = decode_roaring32(raw, impl=impl)  # type: ignore[arg-type]
    _, peak = tracemalloc.get_traced_memory()
    assert got.dtype == np.uint32
    np.testing.assert_array_equal(got, np.asarray(BitMap.deserialize(raw).to_array(), dtype=np.uint32))
    # the output (4 B/value) plus chunk-sized temporaries; the uint64-then-copy decode peaked at 12 B/value
    assert peak - base < 4 * values.size + 12 * 2**20, f"{(peak - base) / values.size:.1f} bytes per value"
    wide = decode_roaring32(raw, impl=impl, wide=True)  # type: ignore[arg-type]
    assert wide.dtype == np.uint64 and np.array_equal(wide, got)


def test_the_reproducer_decodes_within_its_output(data: bytes, traced: None) -> None:
    """Under the default limit the bitmap is legitimately 1 GiB of uint32: decoded once, not 3 GiB."""
    base, _ = tracemalloc.get_traced_memory()
    got = decode_roaring32(data)  # the compiled twin when built
    _, peak = tracemalloc.get_traced_memory()
    assert got.dtype == np.uint32 and got.size == 2**28
    assert peak - base < 2**30 + 64 * 2**20, f"peak {(peak - base) / 2**20:.0f} MiB for a 1024 MiB output"
    idx = np.random.default_rng(1).integers(0, got.size, 1000)
    theirs = BitMap.deserialize(data)
    assert [int(got[i]) for i in idx] == [theirs[int(i)] for i in idx]
