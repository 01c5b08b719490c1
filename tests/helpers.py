"""The one round-trip helper every format's tests use, and the Web IDE runner."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

REPO = Path(__file__).resolve().parent.parent
M = TypeVar("M")


def assert_roundtrip(model: M, build: Callable[[M], bytes], parsers: Mapping[str, Callable[[bytes], M]]) -> bytes:
    """model -> ``build`` bytes -> every parser -> the same model.

    ``parsers`` names each independent reader (Kaitai-generated, construct, a
    reference library) so a failure says which one disagrees.
    """
    data = build(model)
    for name, parse in parsers.items():
        got = parse(data)
        assert got == model, f"{name} parsed {got!r}, expected {model!r} (bytes {data[:64].hex()}...)"
    return data


def webide_parse(spec: str, files: Sequence[str | Path], *flags: str) -> list[dict[str, Any]]:
    """Parse ``files`` with ``spec`` as the Kaitai Web IDE would (tools/webide_check.mjs; ``flags`` such as
    ``--labels``, ``--no-lazy``)."""
    node = shutil.which("node")
    if node is None or not (REPO / "node_modules" / "kaitai-struct-compiler").is_dir():
        pytest.skip("node and node_modules (npm ci) are needed for the Web IDE simulation")
    out = subprocess.run(
        [node, str(REPO / "tools" / "webide_check.mjs"), *flags, str(REPO / spec), *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]
