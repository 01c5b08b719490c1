"""Shared fixtures: where the shared corpus is, and how to run the Web IDE simulation."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parent.parent

settings.register_profile(
    "default", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


#: resolved once, at collection: a test that changes the working directory must not move a relative LAKESTRUCT_SHARED
_SHARED = Path(os.environ.get("LAKESTRUCT_SHARED", REPO.parent / "shared")).resolve()


def shared_dir() -> Path:
    return _SHARED


def corpus_dir() -> Path | None:
    c = shared_dir() / "corpus"
    return c if c.is_dir() else None


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The shared corpus (``../shared/corpus``); tests needing it skip when it is absent."""
    c = corpus_dir()
    if c is None:
        pytest.skip(f"shared corpus not found at {shared_dir() / 'corpus'} (set LAKESTRUCT_SHARED)")
    return c
