"""Where the compact Theta sketches of the shared corpus are (read in place, never copied)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import corpus_dir

GO_JAVA = "datasketches-go/serialization_test_data/java_generated_files"
GO_CPP = "datasketches-go/serialization_test_data/cpp_generated_files"
CPP_TEST = "datasketches-cpp/theta/test"
STATS = "generated-seed1/iceberg/files"
EXPECTED = "generated-seed1/iceberg/expected.json"
PUFFIN_TOOLS_THETA = "puffin-tools/src/test/resources/apache-datasketches-theta-v1.puffin"


def theta_files() -> list[Path]:
    """Every theta .sk file of the corpus (empty when the corpus is absent)."""
    c = corpus_dir()
    if c is None:
        return []
    files = sorted((c / GO_JAVA).glob("theta_*.sk")) + sorted((c / GO_CPP).glob("theta_*.sk"))
    return files + sorted((c / CPP_TEST).glob("theta_*.sk"))


def stats_files() -> list[Path]:
    c = corpus_dir()
    return sorted((c / STATS).glob("*.stats")) if c is not None else []


def ids(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]
