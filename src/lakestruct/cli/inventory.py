"""``lakestruct inventory PATH... --out DIR``: the lake inventory job on Spark (``lakestruct.spark.inventory``).

Runs embedded on ``local[*]`` by default (nothing to start); ``--master`` takes any Spark master URL.
Needs ``pip install 'lakestruct[spark]'`` and a Java 17+ runtime; says so in one line when either is missing.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..errors import UsageError

__all__ = ["register"]


def register(sub: Any) -> None:
    p = sub.add_parser(
        "inventory",
        help="inventory a lake on Spark: every file checked, Puffin blobs, deletion vectors, Parquet chunks and pages as Parquet tables",
        description="List every file under the paths (local folders or fsspec URLs such as s3://bucket/prefix), run "
        "lakestruct's readers over them once (one pass per file, on Spark or in this process) and read every Iceberg, Paimon "
        "and Delta table found among them from its metadata; write the tables files, puffin_blobs, deletion_vectors, "
        "parquet_chunks, parquet_pages, tables, data_file_deletes and orphan_files as Parquet under --out; print a summary "
        "and write an HTML report.",
    )
    p.add_argument("paths", nargs="+", help="files or folders (local paths or URLs)")
    p.add_argument("--out", required=True, help="local folder for the Parquet tables: new, empty, or a previous inventory")
    p.add_argument("--overwrite", action="store_true",
                   help="write into a non-empty --out that holds no previous inventory (only the inventory's tables are replaced)")
    p.add_argument("--master", default="local[*]", help="Spark master URL (default: local[*], embedded)")
    p.add_argument("--engine", choices=("auto", "spark", "local"), default="auto",
                   help="spark: always on Spark; local: in this process, no Spark; auto (default): in this process when the "
                   "master is local and the lake is small (docs/spark.md: when Spark pays), else Spark")
    p.add_argument("--report", help="write the HTML report here (default: OUT/report.html)")
    p.add_argument("--no-report", action="store_true", help="write no HTML report")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=_inventory)

    d = sub.add_parser(
        "demo-lake",
        help="write a small demo lake (pyarrow Parquet files, lakestruct Puffin/DV/Theta files, a few broken files)",
        description="Write the demo lake `make run` inventories: Parquet data files written by pyarrow with different "
        "layouts, Iceberg deletion vectors and Theta statistics written by lakestruct, a Delta Lake DV file, and a few "
        "deliberately broken files. OUTDIR is replaced.",
    )
    d.add_argument("outdir")
    d.add_argument("--rows", type=int, default=20_000, help="rows per Parquet data file (default 20,000)")
    d.set_defaults(func=_demo_lake)


def _demo_lake(args: argparse.Namespace) -> int:
    from ..spark.env import check_pyspark

    check_pyspark()  # the demo lake's Parquet files are written by pyarrow, which lakestruct[spark] brings
    from ..spark.demolake import build

    written = build(args.outdir, rows_per_file=args.rows)
    for kind, paths in written.items():
        print(f"{kind:<8} {len(paths)} file(s): {', '.join(os.path.relpath(p, args.outdir) for p in paths)}")
    return 0


def _inventory(args: argparse.Namespace) -> int:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise UsageError("lakestruct inventory needs the spark extra: pip install 'lakestruct[spark]'") from None
    from ..spark.env import check_java
    from ..spark.inventory import check_out, main_job

    check_out(args.out, overwrite=args.overwrite)  # before anything slow: a typo costs nothing
    for p in args.paths:
        if "://" not in p and not os.path.exists(p[7:] if p.startswith("file:") else p):
            print(f"lakestruct: error: {p}: no such file or folder", file=sys.stderr)
            return 1
    if args.engine == "spark" or not args.master.startswith("local") or args.master.startswith("local-cluster"):
        check_java()
    report = None if args.no_report else (args.report or os.path.join(args.out, "report.html"))
    try:
        main_job(
            args.paths,
            args.out,
            master=args.master,
            report=report,
            progress=not args.quiet,
            engine=args.engine,
            overwrite=args.overwrite,
            echo=lambda s: print(s, file=sys.stdout, flush=True),
        )
    except KeyboardInterrupt:
        _interrupted()
    return 0


def _interrupted() -> None:
    """Ctrl-C during a Spark job: one line, then exit 130 at once. Leaving normally would run PySpark's exit hooks
    against a JVM that is going down, and py4j prints pages of tracebacks from its threads."""
    print("lakestruct: interrupted", file=sys.stderr, flush=True)
    sys.stdout.flush()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os._exit(130)
