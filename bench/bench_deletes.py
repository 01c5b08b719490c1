"""Deletion vectors: decode speed against pyiceberg and pyroaring, peak memory of a 100M-position decode.

* pyiceberg 0.12 decodes a DV blob with ``DeletionVector._deserialize_bitmap``
  (one ``pyroaring.BitMap`` per key, re-serialized to find its length, empty
  bitmaps for gaps) and ``to_vector()`` (a ``pyarrow.ChunkedArray`` built from a
  Python generator over every position). That is what
  ``pyiceberg.io.pyarrow._read_deletes`` calls, so we time exactly that.
* pyroaring: ``BitMap64.deserialize(vector)`` + ``to_array()`` viewed as NumPy,
  the bare speed of CRoaring with no Iceberg checks.
* lakestruct: ``decode_blob`` (envelope, CRC, every Roaring and Iceberg rule)
  and ``decode_roaring64(vector, iceberg=True)`` for the like-for-like ratio.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import numpy as np
from common import Result, best_of
from pyiceberg.table.deletion_vector import DeletionVector as PyIcebergDV
from pyiceberg.table.deletion_vector import _extract_vector_payload
from pyroaring import BitMap, BitMap64

from lakestruct.deletes import decode_blob, encode_deletion_vector_blob, wrap_vector
from lakestruct.roaring import HAVE_C, decode_roaring64

N = 1_000_000


def _pyiceberg(blob: bytes) -> object:
    return PyIcebergDV("f", PyIcebergDV._deserialize_bitmap(_extract_vector_payload(blob))).to_vector()


def _pyroaring(vector: bytes) -> np.ndarray:
    return np.frombuffer(BitMap64.deserialize(vector).to_array(), dtype=np.uint64)


def _cases() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(42)
    return {
        # 1M of the 50M rows of one data file, uniformly at random (array containers of ~1300 values)
        "random": np.sort(rng.choice(50_000_000, N, replace=False)).astype(np.int64),
        # 1M positions spread above 2^32: 125k random rows of the first 6.25M of each of keys 0..7
        # (positions k * 2^32 + [0, 6.25M)), so the containers are as dense as in "random"
        "spread>2^32": np.concatenate(
            [(k << 32) + np.sort(rng.choice(6_250_000, N // 8, replace=False)) for k in range(8)]
        ).astype(np.int64),
        # worst case for container-level work: 1M uniform in [0, 2^36), ~630k containers of 1-2 values
        "uniform[0,2^36) worst case": np.unique(rng.integers(0, 2**36, N)).astype(np.int64),
    }


def _memory(n: int = 100_000_000, impl: str = "auto") -> tuple[float, str]:
    """Peak traced memory while decoding an n-position DV, over the output array's size (in a subprocess)."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "dv.bin"
        # every other row of a 200M-row file: bitmap containers, as a heavy delete leaves them. pyroaring builds
        # it fast from a range; its container choice equals Java's here (bitmaps), so the bytes are Iceberg's.
        bm = BitMap(range(0, 2 * n, 2))
        path.write_bytes(wrap_vector((1).to_bytes(8, "little") + (0).to_bytes(4, "little") + bm.serialize()))
        code = textwrap.dedent(
            f"""
            import json, tracemalloc
            from lakestruct.deletes import decode_blob
            blob = open({str(path)!r}, "rb").read()
            tracemalloc.start()
            out = decode_blob(blob, impl={impl!r})
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            assert out.size == {n} and int(out[-1]) == {2 * n - 2}
            print(json.dumps({{"peak": peak, "out": out.nbytes, "blob": len(blob)}}))
            """
        )
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        m = json.loads(res.stdout)
    ratio = m["peak"] / m["out"]
    return ratio, f"peak {m['peak'] / 2**20:.0f} MiB for a {m['out'] / 2**20:.0f} MiB output ({m['blob'] / 2**20:.1f} MiB blob)"


def run() -> list[Result]:
    results: list[Result] = []
    impl = "c" if HAVE_C else "python"
    for name, pos in _cases().items():
        blob = encode_deletion_vector_blob(pos)
        vector = blob[8:-4]
        np.testing.assert_array_equal(decode_blob(blob), pos)
        np.testing.assert_array_equal(_pyroaring(vector).view(np.int64), pos)
        ours_blob = best_of(lambda b=blob: decode_blob(b), repeat=7)
        ours_vec = best_of(lambda v=vector: decode_roaring64(v, iceberg=True), repeat=7)
        ours_py = best_of(lambda v=vector: decode_roaring64(v, iceberg=True, impl="python"), repeat=3)
        peer_ice = best_of(lambda b=blob: _pyiceberg(b), repeat=2)
        peer_roar = best_of(lambda v=vector: _pyroaring(v), repeat=7)
        goal = 30.0 if name == "random" else 80.0  # the goals: random >= 30x, spread above 2^32 >= 80x
        results.append(Result(f"dv decode 1M {name} -> int64 array", "pyiceberg 0.12 to_vector", peer_ice / ours_blob, goal,
                              f"ours {ours_blob * 1e3:.2f} ms ({impl}), pyiceberg {peer_ice * 1e3:.0f} ms"))
        results.append(Result(f"roaring64 decode 1M {name} (checked)", "pyroaring deserialize+to_array", peer_roar / ours_vec, 0.8,
                              f"ours {ours_vec * 1e3:.2f} ms ({impl}), pyroaring {peer_roar * 1e3:.2f} ms; "
                              f"pure NumPy twin {ours_py * 1e3:.1f} ms"))
    for twin in (["c"] if HAVE_C else []) + ["python"]:
        ratio, detail = _memory(impl=twin)
        results.append(Result(f"dv decode 100M positions, peak memory ({twin})", "output array size", ratio, 1.2, detail,
                              higher_is_better=False))
    return results


if __name__ == "__main__":
    for r in run():
        print(f"{r.name:45} {r.peer:32} {r.ratio:8.2f} {r.goal_text:>6} {'met' if r.met else 'MISSED'}  {r.detail}")
