"""Run every benchmark in bench/ and print ratios against named peers.

Each ``bench/bench_*.py`` defines ``run() -> list[Result]``; ratios are measured
in one run, side by side (never as timed tests). ``python bench/run.py [NAME...]``
runs a subset; ``--json`` prints machine-readable results.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Result


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    names = [a for a in argv if not a.startswith("-")]
    results: list[Result] = []
    for path in sorted(Path(__file__).resolve().parent.glob("bench_*.py")):
        short = path.stem[len("bench_") :]
        if names and short not in names:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        print(f"== {short}", file=sys.stderr, flush=True)
        results.extend(mod.run())
    if as_json:
        print(json.dumps([r.__dict__ for r in results], indent=2))
        return 0
    width = max((len(r.name) for r in results), default=10)
    print(f"{'benchmark'.ljust(width)}  {'peer':<28} {'ratio':>8}  {'goal':>7}  verdict  detail")
    for r in results:
        verdict = "info" if r.informational else ("met" if r.met else "MISSED")
        print(f"{r.name.ljust(width)}  {r.peer:<28} {r.ratio:8.2f}  {r.goal_text:>7}  {verdict:<7}  {r.detail}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
