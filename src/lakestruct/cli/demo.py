"""``lakestruct demo OUTDIR``: write sample files with lakestruct's own writers.

They exercise what other implementations cannot produce (an LZ4-compressed Puffin
footer) next to the common cases, so ``make run`` has real files to inspect on a
machine without the shared corpus.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from .. import puffin

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
    empty = os.path.join(outdir, "empty.puffin")
    with puffin.PuffinWriter(empty):
        pass
    written.append(empty)
    return written


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="write sample files made by lakestruct's writers")
    p.add_argument("outdir")
    p.set_defaults(func=_demo)


def _demo(args: argparse.Namespace) -> int:
    for path in write_demo(args.outdir):
        print(f"wrote {path} ({os.path.getsize(path)} bytes)")
    return 0
