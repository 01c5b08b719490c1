"""The wheel ships the generated parsers, and they import from an installed wheel, not the checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import lakestruct
from tests.test_base_install import build_wheel

REPO = Path(__file__).resolve().parent.parent

#: in-tree wheel builds (here and tests/test_base_install.py) share build/: one xdist worker runs them all
pytestmark = [pytest.mark.xdist_group("wheel-build")]


def test_wheel_ships_and_imports_generated_parsers(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path / "wheels")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"lakestruct/_generated/puffin.py", "lakestruct/_generated/_rules.py", "lakestruct/py.typed"} <= names
    for ksy in (REPO / "formats").rglob("*.ksy"):
        assert any(n.startswith("lakestruct/_generated/") and n.endswith(".py") for n in names), ksy
    site = tmp_path / "site"
    inst = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
        capture_output=True, text=True, check=False, timeout=600,
    )
    assert inst.returncode == 0, inst.stderr[-3000:]
    probe = (
        "import lakestruct, lakestruct._generated.puffin as g, io;"
        f"assert lakestruct.__file__.startswith({str(site)!r}), lakestruct.__file__;"
        "buf = io.BytesIO(); w = lakestruct.puffin.PuffinWriter(buf); w.add_blob('t', b'x', codec='lz4'); w.close();"
        "r = lakestruct.puffin.open(buf.getvalue()); assert r.read_blob(0) == b'x'; print(g.__file__)"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().startswith(str(site))


def _copy_sources(dest: Path) -> None:
    """The files a build reads, without compiled or generated C (so the copy builds from scratch)."""
    dest.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, dest / name)
    junk = shutil.ignore_patterns("*.so", "*.c", "__pycache__", "*.egg-info")
    shutil.copytree(REPO / "src", dest / "src", ignore=junk)
    shutil.copytree(REPO / "generated", dest / "generated", ignore=junk)


def test_install_without_a_c_compiler_falls_back_to_the_pure_twins(tmp_path: Path) -> None:
    """Builds and installs a copy of the package with a C compiler that always fails (CC=/bin/false): the install
    succeeds with warnings, and the installed package says (``--version``, ``twins()``) and uses the pure twins.
    Takes ~5 s (Cython translates the twins, then every compile fails at once)."""
    src = tmp_path / "src-copy"
    _copy_sources(src)
    site = tmp_path / "site"
    env = {**os.environ, "CC": "/bin/false", "LDSHARED": "/bin/false"}
    env.pop("LAKESTRUCT_PURE_PYTHON", None)
    inst = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-v", "--no-deps", "--no-build-isolation", "--no-index", "--target", str(site), str(src)],
        capture_output=True, text=True, check=False, timeout=600, env=env,
    )
    assert inst.returncode == 0, inst.stdout[-3000:] + inst.stderr[-3000:]
    log = inst.stdout + inst.stderr
    assert "WARNING: lakestruct: lakestruct.roaring._decode_c not built (CompileError" in log
    assert "WARNING: lakestruct: lakestruct.thrift._compact_c not built (CompileError" in log
    assert not list(site.rglob("*.so"))
    probe = (
        "import sys, lakestruct; from lakestruct.cli import main;"
        f"assert lakestruct.__file__.startswith({str(site)!r}), lakestruct.__file__;"
        "assert lakestruct.twins() == {'roaring': 'pure', 'thrift': 'pure', 'avro': 'pure', 'paimon': 'pure',"
        " 'delta': 'pure', 'chunks': 'pure'}, lakestruct.twins();"
        "dv = lakestruct.deletes.DeletionVector.from_blob(lakestruct.deletes.encode_deletion_vector_blob([1, 5, 2**33]));"
        "assert dv.positions().tolist() == [1, 5, 2**33];"
        "sys.exit(main(['--version']))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(site)}, check=False, timeout=120)
    assert run.returncode == 0, run.stderr
    printed = " ".join(run.stdout.split())  # argparse wraps --version at the terminal's width
    assert printed == (f"lakestruct {lakestruct.__version__} (roaring: pure, thrift: pure, avro: pure, paimon: pure, delta: pure, "
                       "chunks: pure)")
