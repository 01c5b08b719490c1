"""Fixtures of the Delta tests: the Delta golden tables of ``../shared/corpus/delta-kernel-rs`` (written by Delta Spark,
kept by delta-kernel-rs) unpacked once per session, and tables written at test time by deltalake (delta-rs)."""

from __future__ import annotations

import shutil
import tarfile
from pathlib import Path

import pytest

from tests.conftest import corpus_dir

BIG = "300k-add-files-100-col-partitioned"


def golden_archive(name: str) -> Path:
    c = corpus_dir()
    if c is None:
        pytest.skip("shared corpus not found (set LAKESTRUCT_SHARED): the Delta golden tables live in corpus/delta-kernel-rs")
    p = c / "delta-kernel-rs" / f"{name}.tar.zst"
    if not p.is_file():
        pytest.skip(f"{p} is absent")
    return p


def golden_names() -> list[str]:
    c = corpus_dir()
    if c is None or not (c / "delta-kernel-rs").is_dir():
        return []
    return sorted(p.name[: -len(".tar.zst")] for p in (c / "delta-kernel-rs").glob("*.tar.zst") if not p.name.startswith(BIG))


def unpack(archive: Path, into: Path) -> Path:
    import zstandard

    with archive.open("rb") as f, zstandard.ZstdDecompressor().stream_reader(f) as z, tarfile.open(fileobj=z, mode="r|") as tar:
        tar.extractall(into, filter="data")
    return into


@pytest.fixture(scope="session")
def golden_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every small golden table, unpacked once (tests that change one copy it first: :func:`golden_copy`)."""
    names = golden_names()
    if not names:
        pytest.skip("shared corpus not found (set LAKESTRUCT_SHARED): the Delta golden tables live in corpus/delta-kernel-rs")
    root = tmp_path_factory.mktemp("delta-golden")
    for n in names:
        unpack(golden_archive(n), root)
    return root


@pytest.fixture(scope="session")
def big_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 300,000-add table (45 MB of log), unpacked once per session."""
    root = tmp_path_factory.mktemp("delta-300k")
    unpack(golden_archive(BIG), root)
    return root / BIG


@pytest.fixture
def golden_copy(golden_root: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    """``golden_copy(name)``: a private copy of a golden table, to break."""

    def make(name: str) -> Path:
        dst = tmp_path / name
        shutil.copytree(golden_root / name, dst)
        return dst

    return make
