"""A Spark session for lakestruct's jobs: embedded ``local[*]`` by default, any ``--master`` for a cluster.

Spark needs a Java runtime (17 or newer for Spark 4). :func:`check_java` says in one line what is missing
before PySpark would fail with a page of JVM gateway errors.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
from typing import TYPE_CHECKING, Any

from ..errors import LakestructError, UsageError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["JavaMissingError", "SparkMissingError", "check_java", "check_pyspark", "session", "worker_pythonpath"]

JAVA_HINT = (
    "install a Java 17+ runtime (Debian/Ubuntu: apt-get install openjdk-17-jre-headless; macOS: brew install openjdk@17) or set JAVA_HOME"
)


class JavaMissingError(LakestructError):
    """No usable Java runtime for Spark."""


class SparkMissingError(UsageError):
    """PySpark (or pyarrow, pandas: the ``spark`` extra) is not installed; the CLI exits 2 with this one line."""


def _java_binary() -> str | None:
    home = os.environ.get("JAVA_HOME")
    if home:
        cand = os.path.join(home, "bin", "java")
        return cand if os.access(cand, os.X_OK) else None
    return shutil.which("java")


def check_java() -> str:
    """The Java version Spark will use, or :class:`JavaMissingError` with what to install."""
    java = _java_binary()
    if java is None:
        where = f"JAVA_HOME={os.environ['JAVA_HOME']} has no bin/java" if os.environ.get("JAVA_HOME") else "no `java` on PATH"
        raise JavaMissingError(f"Spark needs Java 17 or newer, and {where}: {JAVA_HINT}")
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise JavaMissingError(f"Spark needs Java 17 or newer, and {java} does not run ({e}): {JAVA_HINT}") from None
    m = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if not m:
        raise JavaMissingError(f"Spark needs Java 17 or newer; cannot tell the version of {java}: {JAVA_HINT}")
    major = int(m.group(1))
    if major == 1 and m.group(2):  # "1.8.0_392"
        major = int(m.group(2))
    if major < 17:
        raise JavaMissingError(f"Spark 4 needs Java 17 or newer, {java} is Java {major}: {JAVA_HINT}")
    return f"{major}"


def check_pyspark() -> None:
    """:class:`SparkMissingError` unless PySpark and the libraries its Arrow path needs (pyarrow, pandas) import."""
    missing = []
    for name in ("pyspark", "pyarrow", "pandas"):
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise SparkMissingError(f"this needs {', '.join(missing)} (the spark extra): pip install 'lakestruct[spark]'")


def worker_pythonpath() -> str:
    """``PYTHONPATH`` for the Python workers: the folder this lakestruct package was imported from first.

    A worker runs ``python -m pyspark.daemon`` in the driver's working directory, which comes first on its
    ``sys.path``; a folder named ``lakestruct/`` there (the folder holding a clone) is a namespace package, and it
    took the place of an editable install (found by a meta-path finder, after the path). With the package's own
    folder on ``PYTHONPATH`` the regular package wins from any working directory, as in the driver."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../lakestruct (Spark appends the driver's PYTHONPATH)
    return os.path.dirname(package)


def session(
    master: str = "local[*]", *, app_name: str = "lakestruct", conf: dict[str, str] | None = None, quiet: bool = True,
    register: bool = True,
) -> SparkSession:
    """A SparkSession with lakestruct's sources registered (``register=False``: none, for jobs that use no source,
    such as the inventory's ``rdd.map``: registering the sources costs a second or more).

    Executors run this interpreter (``PYSPARK_PYTHON``), the driver binds to 127.0.0.1 unless
    ``SPARK_LOCAL_IP`` says otherwise, the web UI is off, and Arrow batches carry the rows.
    """
    check_pyspark()
    check_java()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    from . import register as register_sources

    b: Any = SparkSession.builder.master(master).appName(app_name)
    log4j = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log4j2.properties")
    settings = {
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.driver.host": os.environ["SPARK_LOCAL_IP"],
        "spark.driver.bindAddress": os.environ["SPARK_LOCAL_IP"],
        "spark.sql.shuffle.partitions": "8",
        "spark.sql.session.timeZone": "UTC",
        "spark.executorEnv.PYSPARK_PYTHON": os.environ["PYSPARK_PYTHON"],
        "spark.executorEnv.PYTHONPATH": worker_pythonpath(),
        # the JVM's INFO/WARN lines are noise around lakestruct's own output (a session started here only)
        **({"spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{log4j}"} if quiet else {}),
        **(conf or {}),
    }
    for k, v in settings.items():
        b = b.config(k, v)
    spark: SparkSession = b.getOrCreate()
    if quiet:
        spark.sparkContext.setLogLevel("ERROR")
    if register:
        register_sources(spark)
    return spark
