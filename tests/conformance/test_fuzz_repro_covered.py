"""No fuzzing reproducer is forgotten: every input in the corpus's ``fuzz-repro/`` is named by some test under ``tests/``.

Each reproducer (``X.bin``, ``X.parquet``, ``X.puffin``, ``X.index``; its note is ``X.txt``) must have a regression test
that reads it in place and asserts the outcome it must have (a named lakestruct error, or a bounded, documented cost).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import corpus_dir

TESTS = Path(__file__).resolve().parent.parent
NOTES = {".txt", ".md"}


def reproducers() -> list[str]:
    c = corpus_dir()
    folder = c / "fuzz-repro" if c is not None else None
    if folder is None or not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.is_file() and p.suffix not in NOTES)


def _test_sources() -> str:
    here = Path(__file__).resolve()
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(TESTS.rglob("*.py")) if p.resolve() != here)


INPUTS = reproducers()


def test_fuzz_repro_folder_is_there(corpus: Path) -> None:
    folder = corpus / "fuzz-repro"
    assert folder.is_dir(), f"{folder} is missing from the shared corpus"
    assert len(INPUTS) >= 30
    for name in INPUTS:  # every input comes with its note
        assert (folder / name).with_suffix(".txt").is_file(), f"{name} has no .txt note"


@pytest.fixture(scope="module")
def all_tests() -> str:
    return _test_sources()


@pytest.mark.parametrize("name", INPUTS)
def test_reproducer_has_a_test(name: str, all_tests: str) -> None:
    assert name in all_tests, f"no test under tests/ names fuzz-repro/{name}: add a regression test that reads it in place"
