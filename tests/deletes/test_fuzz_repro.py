"""Deletion vectors from ``fuzz-repro/`` (read in place), and the property and CLI rules they led to."""

from __future__ import annotations

import time
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from pyroaring import BitMap64

import lakestruct as ls
from lakestruct.cli import main
from lakestruct.cli.deletes import CLI_MAX_POSITIONS
from lakestruct.errors import FormatError, LimitError
from lakestruct.roaring import DEFAULT_MAX_POSITIONS, EMPTY32, HAVE_C, describe_roaring64, encode32


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


# -- the reproducers ------------------------------------------------------------------------------------
DV_2GIB = "crafted_dv_runs_2gib.bin"
PAIMON32 = "crafted_paimon32_2p28_runs.index"
DV_TIMEOUT = "dvblob_TIMEOUT.bin"
IMPLS = ["python", "c"] if HAVE_C else ["python"]


def _repro(corpus: Path, name: str) -> Path:
    path = corpus / "fuzz-repro" / name
    if not path.is_file():
        pytest.skip(f"{name} is not in this corpus")
    return path


def test_2gib_blob_is_exactly_the_documented_limit(corpus: Path) -> None:
    """57,884 bytes of 4096 full run containers: 2^28 positions, exactly DEFAULT_MAX_POSITIONS (2 GiB of int64),
    so the library decodes it (documented in docs/deletes.md) and one position fewer of limit refuses it."""
    data = _repro(corpus, DV_2GIB).read_bytes()
    theirs = BitMap64.deserialize(data[8:-4])  # CRoaring agrees it is a valid vector of 2^28 positions
    assert len(theirs) == DEFAULT_MAX_POSITIONS == 2**28 and theirs.max() == 2**28 - 1
    info = describe_roaring64(data[8:-4], iceberg=True, base_offset=8)
    assert sum(c.cardinality for b in info.buckets for c in b.bitmap.containers) == 2**28
    for impl in IMPLS:
        with pytest.raises(LimitError) as e:
            ls.deletes.decode_blob(data, impl=impl, max_positions=2**28 - 1)  # type: ignore[arg-type]
        assert e.value.rule == "roaring.max-positions" and e.value.offset == 8


def test_2gib_blob_cli_default_is_lower(corpus: Path, capsys: pytest.CaptureFixture[str], traced: None) -> None:
    path = _repro(corpus, DV_2GIB)
    assert main(["deletes", "show", str(path)]) == 1
    _, peak = tracemalloc.get_traced_memory()
    err = capsys.readouterr().err
    assert "roaring.max-positions" in err and f"the limit is {CLI_MAX_POSITIONS}" in err and "--max-positions N" in err
    assert "Traceback" not in err and peak < 16 * 2**20
    assert main(["deletes", "show", str(path), "--max-positions", str(2**28 - 1)]) == 1
    assert f"the limit is {2**28 - 1}" in capsys.readouterr().err


def test_paimon32_reproducer(corpus: Path, capsys: pytest.CaptureFixture[str], traced: None) -> None:
    """The same bitmap as a 32-bit Paimon entry: it raised MemoryError (uint64, uint32 copy, int64 copy); now the
    limit applies before any allocation, and under it the entry decodes straight into the int64 positions."""
    path = _repro(corpus, PAIMON32)
    for impl in IMPLS:
        with pytest.raises(LimitError) as e:
            ls.deletes.read_paimon_deletion_vectors(path, impl=impl, max_positions=2**28 - 1)  # type: ignore[arg-type]
        assert e.value.rule == "roaring.max-positions" and e.value.path == "entries[0].vector" and e.value.offset == 9
    assert main(["deletes", "show", str(path)]) == 1
    err = capsys.readouterr().err
    assert "roaring.max-positions" in err and "--max-positions N" in err
    _, peak = tracemalloc.get_traced_memory()
    assert peak < 16 * 2**20


def _paimon32_file(values: np.ndarray) -> bytes:
    body = ls.deletes.PAIMON_MAGIC32 + encode32(values)
    return b"\x01" + len(body).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")


@pytest.mark.parametrize("impl", IMPLS)
def test_paimon32_positions_are_the_decoded_array(impl: str, traced: None) -> None:
    values = np.arange(0, 2**22, dtype=np.uint64)  # 64 full run containers, 32 MiB of int64 positions
    data = _paimon32_file(values)
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    (entry,) = ls.deletes.read_paimon_deletion_vectors(data, impl=impl)  # type: ignore[arg-type]
    _, peak = tracemalloc.get_traced_memory()
    assert entry.bits == 32 and np.array_equal(entry.vector.positions(), values.astype(np.int64))
    # the int64 positions (8 B each) plus chunk-sized temporaries; it was uint64, a uint32 copy, an int64 copy
    assert peak - base < 8 * values.size + 12 * 2**20, f"{(peak - base) / values.size:.1f} bytes per position"


def test_timeout_blob(corpus: Path) -> None:
    """39 bytes: 32,770 positions above key 2^23. Decoding was fast; writing it back as Iceberg Java does (every key
    from 0 to the largest, empty bitmaps for the gaps: 8,388,609 bitmaps, 96 MiB) made one Python object per key
    (2.5 s and more). The gaps are now written in one vectorised step."""
    data = _repro(corpus, DV_TIMEOUT).read_bytes()
    dv = ls.deletes.DeletionVector.from_blob(data)
    theirs = BitMap64.deserialize(data[8:-4])
    assert dv.cardinality == len(theirs) == 32770
    assert np.array_equal(dv.positions(), np.asarray(theirs.to_array(), dtype=np.int64))
    key = int(dv.positions()[-1]) >> 32
    blob = dv.to_blob()
    vector = blob[8:-4]
    assert int.from_bytes(vector[:8], "little") == key + 1  # Iceberg's layout: one bitmap per key from 0
    assert vector[8:20] == (0).to_bytes(4, "little") + EMPTY32 and len(vector) == 8 + 12 * key + (len(data) - 20)
    assert BitMap64.deserialize(vector) == theirs
    assert ls.deletes.DeletionVector.from_blob(blob, max_positions=None) == dv  # the compiled twin when built

    def best(fn: Callable[[], object]) -> float:
        times = []
        for _ in range(3):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        return min(times)

    # as costly as a few copies of its 96 MiB output, not one Python object per key (that was ~25 copies)
    copies = best(lambda: b"".join([np.zeros(len(blob), np.uint8).tobytes(), b""]))
    assert best(dv.to_blob) < 12 * copies
