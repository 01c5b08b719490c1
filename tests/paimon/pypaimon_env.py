"""A separate virtual environment with pypaimon 2.1, the independent oracle for Paimon tables.

pypaimon 2.1 pins ``pyarrow<20`` and so cannot live in lakestruct's own environment. :func:`pypaimon_python`
creates ``$LAKESTRUCT_PYPAIMON_VENV`` (default: ``~/.cache/lakestruct/pypaimon-2.1.0``) once with ``python -m venv``
and ``pip install pypaimon==2.1.0``, and returns its interpreter, or ``None`` with the reason it could not (no network
to the package index, pip failing, ...): tests skip with that reason, the bench prints it.

    python tests/paimon/pypaimon_env.py        # create it ahead of time; prints the interpreter or the reason
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

PYPAIMON = "pypaimon==2.1.0"
DEFAULT = Path.home() / ".cache" / "lakestruct" / "pypaimon-2.1.0"


def venv_dir() -> Path:
    return Path(os.environ.get("LAKESTRUCT_PYPAIMON_VENV", DEFAULT))


def pypaimon_python(*, create: bool = True, timeout: float = 900) -> tuple[Path | None, str]:
    """(interpreter of a venv where ``import pypaimon`` works, "") or (None, why not). Creation holds a lock beside
    the venv, so processes asking at once (xdist workers, a bench) wait for one to build it."""
    d = venv_dir()
    if not create:
        return _pypaimon_python(d, create, timeout)
    import fcntl

    d.parent.mkdir(parents=True, exist_ok=True)
    with open(d.parent / (d.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _pypaimon_python(d, create, timeout)


def _pypaimon_python(d: Path, create: bool, timeout: float) -> tuple[Path | None, str]:
    py = d / "bin" / "python"
    ok = d / ".lakestruct-ok"
    if ok.is_file() and py.is_file():
        return py, ""
    if not create:
        return None, f"no pypaimon environment at {d} (python tests/paimon/pypaimon_env.py creates it)"
    try:
        if not py.is_file():
            venv.EnvBuilder(with_pip=True, clear=True).create(d)
        r = subprocess.run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", PYPAIMON],
                           capture_output=True, text=True, timeout=timeout, check=False)
        if r.returncode != 0:
            return None, f"pip install {PYPAIMON} failed in {d}: {(r.stderr or r.stdout).strip()[-400:]}"
        r = subprocess.run([str(py), "-c", "import pypaimon, pyarrow; print(pyarrow.__version__)"],
                           capture_output=True, text=True, timeout=120, check=False)
        if r.returncode != 0:
            return None, f"pypaimon does not import in {d}: {r.stderr.strip()[-400:]}"
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"cannot create the pypaimon environment at {d}: {e}"
    ok.write_text(PYPAIMON + "\n")
    return py, ""


if __name__ == "__main__":
    python, reason = pypaimon_python()
    print(python if python else reason)
    sys.exit(0 if python else 1)
