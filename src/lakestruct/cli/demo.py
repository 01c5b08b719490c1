"""``lakestruct demo OUTDIR``: write sample files with lakestruct's own writers.

They exercise what other implementations cannot produce (an LZ4-compressed Puffin
footer) next to the common cases, so ``make run`` has real files to inspect on a
machine without the shared corpus.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .. import puffin, sketches

__all__ = ["register", "write_demo"]


def write_demo(outdir: str) -> list[str]:
    os.makedirs(outdir, exist_ok=True)
    written = []
    text = ("lakestruct demo blob " * 64).encode()
    for name, compress_footer in (("plain.puffin", False), ("lz4-footer.puffin", True)):
        path = os.path.join(outdir, name)
        with puffin.PuffinWriter(path, compress_footer=compress_footer, properties={"demo": "true"}) as w:
            w.add_blob("lakestruct-demo-raw", text, fields=[1])
            w.add_blob("lakestruct-demo-lz4", text, fields=[2], codec="lz4", snapshot_id=42, sequence_number=7)
            w.add_blob("lakestruct-demo-zstd", text, fields=[3, 4], codec="zstd", properties={"note": "zstd frame"})
        written.append(path)
    # Iceberg's two blob types: deletion vectors (one with rows past 2^32) and Theta sketches
    dv_path = os.path.join(outdir, "deletes.puffin")
    with puffin.PuffinWriter(dv_path) as w:
        w.add_deletion_vector(range(0, 1000, 3), "s3://lake/db/t/data/00000-0-demo.parquet")
        w.add_deletion_vector([7, 8, 9, (1 << 32) + 5, (3 << 32) + 1], "s3://lake/db/t/data/00001-0-demo.parquet")
    written.append(dv_path)
    stats_path = os.path.join(outdir, "stats.puffin")
    with puffin.PuffinWriter(stats_path) as w:
        for field_id, n in ((1, 300), (2, 20_000)):
            sketch = _theta_of(range(n))
            w.add_blob(puffin.THETA_V1, sketch.to_bytes(3), fields=[field_id], codec="zstd",
                       properties={"ndv": str(int(sketch.estimate()))})
    written.append(stats_path)
    empty = os.path.join(outdir, "empty.puffin")
    with puffin.PuffinWriter(empty):
        pass
    written.append(empty)
    return written


def _theta_of(values: range, k: int = 4096) -> sketches.ThetaSketch:
    """A compact Theta sketch of long values (Iceberg's 8-byte little-endian serialization): the k smallest
    hashes, theta at the (k+1)-th when there are more (a KMV sketch, readable by DataSketches)."""
    hashes = sorted({sketches.hash_item(v.to_bytes(8, "little", signed=True)) for v in values})
    if len(hashes) <= k:
        return sketches.ThetaSketch.from_hashes(hashes)
    return sketches.ThetaSketch.from_hashes(hashes[:k], theta=hashes[k])


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="write sample files made by lakestruct's writers")
    p.add_argument("outdir")
    p.set_defaults(func=_demo)


def _demo(args: argparse.Namespace) -> int:
    try:
        written = write_demo(args.outdir)
    except OSError as e:  # an unwritable, missing or full folder: exit 1 with the reason, no traceback
        where = f" ({e.filename})" if e.filename and e.filename != args.outdir else ""
        print(f"lakestruct: error: cannot write the demo files to {args.outdir}: {e.strerror or e}{where}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path} ({os.path.getsize(path)} bytes)")
    return 0
