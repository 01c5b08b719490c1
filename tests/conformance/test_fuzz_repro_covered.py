"""No fuzzing reproducer is forgotten: every input in the corpus's ``fuzz-repro/`` and in ``../shared/fuzz-repro-round2/``
is named by some test under ``tests/``.

Each reproducer (``X.bin``, ``X.parquet``, ``X.puffin``, ``X.index``; its note is ``X.txt``) must have a regression test
that reads it in place and asserts the outcome it must have (a named lakestruct error, or a bounded, documented cost).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import corpus_dir, shared_dir

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
#: the second campaign's folder, kept outside the corpus (``../shared/fuzz-repro-round2``): files and table directories
ROUND2 = shared_dir() / "fuzz-repro-round2"


def round2_inputs() -> list[str]:
    if not ROUND2.is_dir():
        return []
    return sorted(p.name for p in ROUND2.iterdir() if p.suffix not in NOTES)


INPUTS2 = round2_inputs()


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


def test_round2_folder_is_there(fuzz_round2: Path) -> None:
    readme = (fuzz_round2 / "README.md").read_text(encoding="utf-8")
    assert len(INPUTS2) >= 12
    for name in INPUTS2:  # the README's table describes every input
        assert f"`{name}" in readme, f"{name} is not described in {fuzz_round2}/README.md"


@pytest.mark.parametrize("name", INPUTS2)
def test_round2_reproducer_has_a_test(name: str, all_tests: str) -> None:
    assert name in all_tests, f"no test under tests/ names fuzz-repro-round2/{name}: add a regression test that reads it in place"
