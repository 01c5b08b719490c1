"""``pip install lakestruct`` with no extras gives a working CLI; the commands that need an extra say which.

The wheel is built from this checkout (``pip wheel --no-deps``; the in-tree ``build/`` keeps the compiled twins,
so a rebuild only relinks what changed) and installed into a real, fresh virtual environment **with its declared
dependencies and no extras**: no pyarrow, pandas or PySpark there (checked). The environment's dependencies are
installed once and cached under ``~/.cache/lakestruct/base-install-<hash of pyproject.toml and setup.py>`` (built
under a file lock, as tests/paimon/pypaimon_env.py does); every run reinstalls only the wheel, without its
dependencies. The oracle for each command is the same command in the development environment (every extra
installed): same exit status, same output. A second cached environment holds the ``spark`` extra.

    python tests/test_base_install.py        # create both environments ahead of time
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import corpus_dir

REPO = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "lakestruct"

pytestmark = [pytest.mark.xdist_group("wheel-build")]  # tests/test_packaging.py builds in the same build/ folder


def _key() -> str:
    h = hashlib.sha256()
    for name in ("pyproject.toml", "setup.py"):
        h.update((REPO / name).read_bytes())
    return h.hexdigest()[:16]


def build_wheel(dest: Path) -> Path:
    """A wheel of this checkout in ``dest``. Built in the tree's build/ folder (it keeps the compiled twins), one build
    at a time (a lock: tests/prepare_oracles.py may build at the same time as these tests)."""
    (REPO / "build").mkdir(exist_ok=True)
    with open(REPO / "build" / ".wheel.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        r = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dest), str(REPO)],
            capture_output=True, text=True, check=False, timeout=900,
        )
    assert r.returncode == 0, r.stderr[-3000:]
    (wheel,) = dest.glob("lakestruct-*.whl")
    return wheel


def environment(wheel: Path, extra: str = "") -> tuple[Path | None, str]:
    """(interpreter of a cached venv holding ``wheel[extra]``'s declared dependencies, "") or (None, why not).
    The wheel itself is reinstalled (no dependencies) on every call, so the venv runs this checkout's code."""
    d = CACHE / f"base-install{'-' + extra if extra else ''}-{_key()}"
    d.parent.mkdir(parents=True, exist_ok=True)
    py = d / "bin" / "python"
    pip = [str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    with open(d.parent / (d.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        ok = d / ".lakestruct-ok"
        try:
            if not (ok.is_file() and py.is_file()):
                venv.EnvBuilder(with_pip=True, clear=True).create(d)
                r = subprocess.run([*pip, f"{wheel}[{extra}]" if extra else str(wheel)], capture_output=True, text=True,
                                   check=False, timeout=1800)
                if r.returncode != 0:
                    return None, f"pip install of the wheel with its dependencies failed in {d}: {(r.stderr or r.stdout)[-600:]}"
                ok.write_text(f"{wheel.name} {extra}\n")
                mine = re.compile(re.escape(d.name[:-16]) + "[0-9a-f]{16}")
                for old in CACHE.iterdir():  # the environments of earlier pyproject.toml/setup.py, ~1 GB with Spark
                    if old != d and old.is_dir() and mine.fullmatch(old.name):
                        shutil.rmtree(old, ignore_errors=True)
            r = subprocess.run([*pip, "--no-deps", "--force-reinstall", str(wheel)], capture_output=True, text=True,
                               check=False, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as e:
            return None, f"cannot create the environment at {d}: {e}"
        assert r.returncode == 0, r.stderr[-3000:]
    return py, ""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="module")
def base_python(wheel: Path) -> Path:
    py, why = environment(wheel)
    if py is None:
        pytest.skip(why)
    return py


def run(python: Path | str, args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``lakestruct ARGS`` as the console script of ``python``'s environment runs it."""
    bindir = Path(python).parent
    script = bindir / "lakestruct"
    e = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    e.update(env, PATH=f"{bindir}{os.pathsep}{e.get('PATH', '')}")
    return subprocess.run([str(script), *args], capture_output=True, text=True, cwd=cwd, env=e, check=False, timeout=300)


def test_base_environment_has_no_extras(base_python: Path, tmp_path: Path) -> None:
    probe = ("import importlib.util as u, lakestruct; print(lakestruct.__file__);"
             "print([m for m in ('pyarrow', 'pandas', 'pyspark', 's3fs') if u.find_spec(m)])")
    r = subprocess.run([str(base_python), "-c", probe], capture_output=True, text=True, cwd=tmp_path, check=False)
    assert r.returncode == 0, r.stderr
    where, extras = r.stdout.splitlines()
    assert where.startswith(str(base_python.parent.parent)) and extras == "[]", r.stdout


def readme_commands(c: Path) -> list[list[str]]:
    """The README's non-Spark commands, on corpus files."""
    dv = c / "puffin-tools/src/test/resources/deletion-vector-v1.puffin"
    stats = c / "puffin-tools/src/test/resources/apache-datasketches-theta-v1.puffin"
    pq = c / "parquet-testing/data/data_index_bloom_encoding_stats.parquet"
    table = c / "generated-seed1/paimon/tables/de_dv"
    return [
        ["puffin", "inspect", str(stats)],
        ["puffin", "inspect", str(dv), "--json"],
        ["deletes", "show", str(dv)],
        ["deletes", "show", str(dv), "--offset", "4", "--length", "46"],
        ["parquet", "meta", str(pq)],
        ["parquet", "pages", str(pq)],
        ["parquet", "index", str(pq)],
        ["parquet", "bloom", str(pq), "--column", "String"],
        ["parquet", "values", str(pq), "--column", "String"],
        ["paimon", "snapshots", str(table)],
        ["paimon", "files", str(table)],
        ["paimon", "dv", str(table)],
        ["scan", str(dv.parent)],
        ["validate", str(pq), str(dv)],
        ["validate", "--deep", str(pq)],
        ["explain", str(dv)],
        ["explain", str(pq), "--depth", "2"],
    ]


#: runs each command line of argv[1] (JSON) through the installed CLI's main() in this one process (a process per
#: command costs ~2 s of imports on a busy machine): [exit status, stdout, stderr] for each
DRIVER = """
import contextlib, io, json, sys
from lakestruct.cli import main
out = []
for args in json.loads(sys.argv[1]):
    o, e = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
        try:
            rc = main(args)
        except SystemExit as x:
            rc = x.code
    out.append([rc, o.getvalue(), e.getvalue()])
print(json.dumps(out))
"""


def run_all(python: Path | str, commands: list[list[str]], cwd: Path) -> list[list[Any]]:
    r = subprocess.run([str(python), "-c", DRIVER, json.dumps(commands)], capture_output=True, text=True, cwd=cwd, check=False,
                       timeout=600, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert r.returncode == 0, r.stderr[-3000:]
    result: list[list[Any]] = json.loads(r.stdout)
    return result


def test_readme_commands_work_without_extras(base_python: Path, tmp_path: Path) -> None:
    c = corpus_dir()
    if c is None:
        pytest.skip("shared corpus not found (set LAKESTRUCT_SHARED)")
    version = run(base_python, ["--version"], tmp_path)  # the console script itself
    assert version.returncode == 0 and version.stdout.startswith("lakestruct "), version.stderr
    commands = readme_commands(c)
    got, want = run_all(base_python, commands, tmp_path), run_all(sys.executable, commands, tmp_path)
    for args, (rc, out, err), (want_rc, want_out, _) in zip(commands, got, want, strict=True):
        assert "Traceback" not in err, (args, err[-2000:])
        assert (rc, out) == (want_rc, want_out), (args, err[-2000:])
        assert rc == 0 or args[0] == "scan", (args, err)
    html = tmp_path / "x.html"
    ((rc, _, err),) = run_all(base_python, [["explain", str(c / "puffin-tools/src/test/resources/deletion-vector-v1.puffin"),
                                              "--html", str(html)]], tmp_path)
    assert rc == 0 and html.read_text().startswith("<!DOCTYPE html>"), err


def test_gen_works_without_extras(base_python: Path, tmp_path: Path) -> None:
    modules = REPO / "node_modules"
    if not (modules / "kaitai-struct-compiler").is_dir() or shutil.which("node") is None:
        pytest.skip("no node or node_modules (make install runs npm ci)")
    r = run(base_python, ["gen", str(REPO / "formats/roaring/roaring32.ksy"), "-d", str(tmp_path / "out")], tmp_path,
            LAKESTRUCT_KSC_MODULES=str(modules))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out" / "roaring32.py").is_file()


@pytest.mark.parametrize("args", [["inventory", "x", "--out", "y"], ["demo-lake", "y"]])
def test_commands_needing_the_spark_extra_say_so_in_one_line(base_python: Path, tmp_path: Path, args: list[str]) -> None:
    r = run(base_python, args, tmp_path)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "pip install 'lakestruct[spark]'" in r.stderr, r.stderr
    assert not (tmp_path / "y").exists()


def test_spark_extra_installs_the_sources(wheel: Path, tmp_path: Path) -> None:
    """``lakestruct[spark]`` in its own fresh environment: the inventory command is there, and a source's plain loop
    (no Java needed) reads a corpus file as the development environment does."""
    py, why = environment(wheel, "spark")
    if py is None:
        pytest.skip(why)
    r = run(py, ["inventory", "--help"], tmp_path)
    assert r.returncode == 0 and "--out" in r.stdout, r.stderr
    c = corpus_dir()
    if c is None:
        pytest.skip("shared corpus not found (set LAKESTRUCT_SHARED)")
    probe = ("import sys, lakestruct.spark as s, pyarrow as pa;"
             "t = pa.Table.from_batches(list(s.plain_loop('puffin', [sys.argv[1]])));"
             "print(t.num_rows, sorted(t.column('type').to_pylist()))")
    path = str(c / "puffin-tools/src/test/resources/apache-datasketches-theta-v1.puffin")
    outs = [subprocess.run([str(p), "-c", probe, path], capture_output=True, text=True, cwd=tmp_path, check=False)
            for p in (py, sys.executable)]
    assert [o.returncode for o in outs] == [0, 0], outs[0].stderr[-2000:] + outs[1].stderr[-2000:]
    assert outs[0].stdout == outs[1].stdout and int(outs[0].stdout.split()[0]) > 0, outs[0].stdout


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        w = build_wheel(Path(tmp))
        for extra in ("", "spark"):
            python, reason = environment(w, extra)
            print(python if python else reason)
