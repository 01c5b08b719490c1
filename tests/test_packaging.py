"""The wheel ships the generated parsers, and they import from an installed wheel, not the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_wheel_ships_and_imports_generated_parsers(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels), str(REPO)],
        capture_output=True, text=True, check=False, timeout=600,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = wheels.glob("lakestruct-*.whl")
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
