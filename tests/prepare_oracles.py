"""Build the oracles' cached environments ahead of the tests: ``make test`` starts this in the background while
check-gen, ruff and mypy run (one core busy, the network idle), so the tests find them ready.

Each builder is the one its tests call (same cache folder, same file lock): a test that comes first builds it
itself and this script then finds it built; one that comes while this script builds waits on the lock. Nothing
here fails the run: a builder that cannot build says why (in ``.venv/oracles.log``) and its tests skip saying the
same. Two lanes run side by side (:data:`LANES`): the Iceberg Java venv and tables, the longest, and the rest.

    python -m tests.prepare_oracles
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _iceberg_java() -> Any:
    from tests.iceberg.iceberg_java_env import iceberg_java

    return iceberg_java()


def _pypaimon() -> Any:
    from tests.paimon.pypaimon_env import pypaimon_python

    return pypaimon_python()


def _paimon_java() -> Any:
    from tests.paimon.paimon_java_env import paimon_java

    return paimon_java()


def _base_installs() -> Any:
    from tests.test_base_install import build_wheel, environment

    with tempfile.TemporaryDirectory() as tmp:
        wheel = build_wheel(Path(tmp))
        return [environment(wheel, extra) for extra in ("", "spark")]


def _iceberg_java_tables() -> Any:
    from tests.iceberg.iceberg_java_env import iceberg_java_tables

    return iceberg_java_tables()


#: two lanes run side by side: Iceberg Java (a pip install, then a Spark job writing the tables, the longest) and the rest
LANES: list[list[tuple[str, Callable[[], Any]]]] = [
    [("Iceberg Java 1.10 (PySpark 3.5 venv, runtime jars)", _iceberg_java), ("Iceberg Java tables", _iceberg_java_tables)],
    [("pypaimon 2.1 venv", _pypaimon), ("Paimon Java bridge", _paimon_java),
     ("base-install venvs (wheel, no extras; spark extra)", _base_installs)],
]


def _lane(steps: list[tuple[str, Callable[[], Any]]]) -> None:
    for what, step in steps:
        t0 = time.monotonic()
        try:
            got = step()
            print(f"{what}: {repr(got)[:300]} ({time.monotonic() - t0:.0f} s)", flush=True)
        except Exception:  # never fails the run: the tests build again and skip or fail saying why
            print(f"{what}: failed ({time.monotonic() - t0:.0f} s)\n{traceback.format_exc()}", flush=True)


def main() -> int:
    threads = [threading.Thread(target=_lane, args=(lane,)) for lane in LANES]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
