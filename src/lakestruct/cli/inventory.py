"""``lakestruct inventory PATH... --out DIR``: the lake inventory job on Spark (``lakestruct.spark.inventory``).

Runs embedded on ``local[*]`` by default (nothing to start); ``--master`` takes any Spark master URL.
Needs ``pip install 'lakestruct[spark]'`` and a Java 17+ runtime; says so in one line when either is missing.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    p = sub.add_parser(
        "inventory",
        help="inventory a lake on Spark: every file checked, Puffin blobs, deletion vectors, Parquet chunks and pages as Parquet tables",
        description="List every file under the paths (local folders or fsspec URLs such as s3://bucket/prefix), run "
        "lakestruct's Spark sources over them and write the tables files, puffin_blobs, deletion_vectors, parquet_chunks, "
        "parquet_pages and data_file_deletes as Parquet under --out; print a summary and write an HTML report.",
    )
    p.add_argument("paths", nargs="+", help="files or folders (local paths or URLs)")
    p.add_argument("--out", required=True, help="folder for the Parquet tables (overwritten)")
    p.add_argument("--master", default="local[*]", help="Spark master URL (default: local[*], embedded)")
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
    from ..spark.env import check_java, check_pyspark

    check_pyspark()
    check_java()
    from ..spark.inventory import main_job

    report = None if args.no_report else (args.report or os.path.join(args.out, "report.html"))
    main_job(
        args.paths,
        args.out,
        master=args.master,
        report=report,
        progress=not args.quiet,
        echo=lambda s: print(s, file=sys.stdout, flush=True),
    )
    return 0
