"""Fixtures of the Iceberg tests: tables written by Iceberg Java 1.10 and what Iceberg itself says of them.

``iceberg_java_tables`` runs tests/iceberg/iceberg_java_writer.py once per test run (and once per machine: the result
is cached under a hash of the writer, see tests/iceberg/iceberg_java_env.py); tests using it are put in the xdist group
``iceberg_java`` so one worker writes while the others go on. It skips, saying why, when Iceberg Java cannot be built
(no JDK, no shared recipe, no package index). Tests elsewhere (the inventory's) call
``tests.iceberg.iceberg_java_env.iceberg_java_tables()`` themselves, or :func:`java_tables_or_skip`.
"""

from __future__ import annotations

import pytest

from tests.iceberg.iceberg_java_env import JavaTables, iceberg_java_tables


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "iceberg_java_tables" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("iceberg_java"))


def java_tables_or_skip() -> JavaTables:
    """The Iceberg Java tables (warehouse, ``table(name)``, ``truth[name]``), or a skip saying why there are none."""
    tables, why = iceberg_java_tables()
    if tables is None:
        pytest.skip(why)
    return tables


@pytest.fixture(scope="session", name="iceberg_java_tables")
def _iceberg_java_tables() -> JavaTables:
    return java_tables_or_skip()
