"""``lakestruct gen SPEC.ksy... -d OUTDIR [-I IMPORT_DIR]...``: compile Kaitai specs to Python parsers.

The toolchain of ``make gen`` offered for users' own specs: the pinned npm Kaitai compiler driven by the
``ksc.mjs`` shipped inside lakestruct (:mod:`lakestruct.kaitai.toolchain`). Imports resolve as the Kaitai
compiler resolves them (relative ones against the importing spec's folder, absolute ones such as
``/network/ethernet_frame`` against the ``-I`` folders). Exit 1 when a spec does not compile or Node.js / the
compiler is missing (the message says how to install them), 2 on bad usage.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..kaitai import compile

__all__ = ["register"]


def register(sub: Any) -> None:
    p = sub.add_parser(
        "gen",
        help="compile Kaitai specs (.ksy) to Python parsers with the pinned npm compiler",
        description="Compile Kaitai Struct specs and everything they import into Python modules (OUTDIR/<id>.py) "
        "and the parsed specs beside them (OUTDIR/<id>.ksy.json, which the kaitai Spark source reads).",
    )
    p.add_argument("specs", nargs="+", metavar="SPEC.ksy")
    p.add_argument("-d", "--out-dir", required=True, metavar="OUTDIR", help="folder to write the modules to (created)")
    p.add_argument("-I", "--import-dir", action="append", default=[], metavar="IMPORT_DIR",
                   help="folder that imports resolve against (absolute ones only there); repeatable")  # fmt: skip
    p.add_argument("--python-package", metavar="PKG", help="`.`: modules import each other as `from . import x` (inside a package)")
    p.set_defaults(func=_gen)


def _gen(args: argparse.Namespace) -> int:
    res = compile(args.specs, args.out_dir, import_dirs=args.import_dir, python_package=args.python_package)
    print(f"generated {len(res.modules)} module(s) into {res.out_dir}/: {', '.join(res.modules)}")
    return 0
