"""The kaitai source: records/s on local[2] against the generated parser in a plain loop on one core.

Files: pcap captures (Ethernet/IPv4/UDP-or-TCP packets laid out with struct per the pcap spec) read with the
gallery's pcap.ksy (shared corpus) and ``root=packets``. Peers, measured in this run:

- the generated parser alone in a plain loop (``Pcap.from_bytes`` per file, one process): the issue's goal,
  local[2] >= 1.5x its records/s. The modules are imported from files as a user imports what ``lakestruct gen``
  wrote, with the ``kaitaistruct`` runtime as installed (none of lakestruct's stream, budget or GC pause);
- the source's own single-process loop (``lakestruct.spark.plain_loop``: parse + rows + Arrow, best of 3, the
  spec compiled before timing), for information.

Spark figures are the best of 3 jobs on a warm session (Python workers reused), session start-up excluded.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import Result, spark_missing

N_FILES = 16
PACKETS = 4_000


def _gallery() -> Path | None:
    shared = os.environ.get("LAKESTRUCT_SHARED", str(Path(__file__).resolve().parents[2] / "shared"))
    g = Path(shared) / "corpus" / "kaitai-formats"
    return g if (g / "network" / "pcap.ksy").is_file() else None


def _generated(modules: dict[str, str], folder: Path, main: str) -> Any:
    """The root class of the generated modules imported as a user imports them (a package of the files
    `lakestruct gen` writes, the kaitaistruct runtime as installed): none of lakestruct's runtime in the loop."""
    pkg = f"lakestruct_bench_{folder.parent.name.replace('-', '_')}"
    d = folder / pkg
    d.mkdir(parents=True)
    (d / "__init__.py").write_text("")
    for name, text in modules.items():
        (d / f"{name}.py").write_text(text, encoding="utf-8")
    sys.path.insert(0, str(folder))
    mod = importlib.import_module(f"{pkg}.{main}")
    return getattr(mod, "".join(p[:1].upper() + p[1:] for p in main.split("_")))


def run() -> list[Result]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from lakestruct.kaitai import KaitaiToolchainError, Spec
    from lakestruct.spark import source
    from lakestruct.spark.rowsource import plain_loop, prepared_options
    from tests.kaitai.conftest import write_pcap

    gallery = _gallery()
    if gallery is None:
        print("bench_kaitai skipped: no shared corpus (kaitai-formats/network/pcap.ksy)", file=sys.stderr)
        return []
    if spark_missing("bench_kaitai"):
        return []
    from lakestruct.spark.env import session

    out: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="lakestruct-bench-kaitai-") as tmp:
        root = Path(tmp) / "captures"
        root.mkdir()
        for i in range(N_FILES):
            write_pcap(root / f"{i:03d}.pcap", n=PACKETS)
        records = N_FILES * PACKETS
        opts = {"spec": str(gallery / "network" / "pcap.ksy"), "import_path": str(gallery), "root": "packets"}
        try:
            spec = Spec.open(opts["spec"], import_dirs=[str(gallery)])
        except KaitaiToolchainError as e:
            print(f"bench_kaitai skipped: {e}", file=sys.stderr)
            return []
        cls = _generated(spec.bundle.modules, Path(tmp) / "generated", spec.id)
        files = sorted(root.iterdir())
        best_parse = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            n = 0
            for f in files:
                n += len(cls.from_bytes(f.read_bytes()).packets)
            best_parse = min(best_parse, time.perf_counter() - t0)
        assert n == records
        src = source("kaitai")
        prepared = prepared_options(src, opts)  # compiles the spec: not timed
        loop_s = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            loop_rows = sum(b.num_rows for b in plain_loop(src, [str(root)], prepared))
            loop_s = min(loop_s, time.perf_counter() - t0)
        assert loop_rows == records
        spark = session("local[2]", app_name="lakestruct-bench-kaitai")
        df = spark.read.format("kaitai").options(**opts).option("min_partitions", "2").load(str(root))
        df.count()  # warm the Python workers
        best_spark = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            rows = df.count()
            best_spark = min(best_spark, time.perf_counter() - t0)
        spark.stop()
        assert rows == records, rows
        out.append(Result(
            f"kaitai source, {records:,} pcap packets in {N_FILES} files: local[2] records/s", "generated parser, plain loop, 1 core",
            best_parse / best_spark, 1.5,
            f"local[2] {records / best_spark:,.0f}/s ({best_spark:.2f} s), parser alone {records / best_parse:,.0f}/s ({best_parse:.2f} s)",
        ))  # fmt: skip
        out.append(Result(
            "kaitai source: local[2] vs its own single-process loop (parse + rows + Arrow)", "lakestruct.spark.batches, 1 core",
            loop_s / best_spark, 0, f"loop {records / loop_s:,.0f}/s ({loop_s:.2f} s)",
        ))  # fmt: skip
    return out
