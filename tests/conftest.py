"""Shared fixtures: where the shared corpus is, and how to run the Web IDE simulation."""

from __future__ import annotations

import os
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parent.parent

settings.register_profile(
    "default", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


#: the groups whose tests wait for an oracle's cached environment (built by tests/prepare_oracles.py in the background
#: while `make test` lints): they run last, so that no worker sits waiting while other tests could run. `make test`
#: passes --no-loadscope-reorder, so xdist hands out the groups in this order (by default it starts with the largest)
ORACLE_GROUPS = frozenset({"iceberg_java", "pypaimon", "paimon-java", "wheel-build"})
#: the one long group that needs nothing built: it goes first, while the other worker takes the modules
FIRST_GROUPS = frozenset({"spark"})


def _order(item: pytest.Item) -> int:
    m = item.get_closest_marker("xdist_group")
    group = (m.kwargs.get("name") or (m.args[0] if m.args else None)) if m is not None else None
    return 0 if group in FIRST_GROUPS else 2 if group in ORACLE_GROUPS else 1


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The Spark session's tests first, those that wait for an oracle last (:data:`FIRST_GROUPS`,
    :data:`ORACLE_GROUPS`; the order is otherwise kept).

    On an xdist worker under ``--dist loadgroup``, xdist has suffixed each grouped test's id with ``@group``; if a
    pytest/xdist pairing stops doing that, groups scatter over the workers (two Spark sessions, oracle writers racing
    on their caches): fail the run instead."""
    items[:] = sorted(items, key=_order)  # stable
    if not getattr(config.option, "loadgroup", False):
        return
    lost = [i.nodeid for i in items if i.get_closest_marker("xdist_group") is not None and "@" not in i.nodeid]
    if lost:
        raise pytest.UsageError(f"xdist_group is not applied by this pytest/pytest-xdist pair (e.g. {lost[0]}); "
                                "see the pytest pin in pyproject.toml")


#: resolved once, at collection: a test that changes the working directory must not move a relative LAKESTRUCT_SHARED
_SHARED = Path(os.environ.get("LAKESTRUCT_SHARED", REPO.parent / "shared")).resolve()


def shared_dir() -> Path:
    return _SHARED


def corpus_dir() -> Path | None:
    c = shared_dir() / "corpus"
    return c if c.is_dir() else None


@pytest.fixture
def traced() -> Iterator[None]:
    """tracemalloc running for the test (peak-memory assertions)."""
    tracemalloc.start()
    try:
        yield
    finally:
        tracemalloc.stop()


@pytest.fixture(scope="session")
def fuzz_round2() -> Path:
    """The second fuzzing campaign's reproducers (``../shared/fuzz-repro-round2``, kept outside the corpus), read in place."""
    d = shared_dir() / "fuzz-repro-round2"
    if not d.is_dir():
        pytest.skip(f"{d} not found (set LAKESTRUCT_SHARED)")
    return d


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The shared corpus (``../shared/corpus``); tests needing it skip when it is absent."""
    c = corpus_dir()
    if c is None:
        pytest.skip(f"shared corpus not found at {shared_dir() / 'corpus'} (set LAKESTRUCT_SHARED)")
    return c
