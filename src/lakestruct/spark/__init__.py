"""lakestruct on Spark: Python data sources over the lake's files, and the lake inventory job.

>>> import lakestruct.spark                                        # doctest: +SKIP
>>> lakestruct.spark.register(spark)
>>> spark.read.format("deletion_vectors").load("s3://lake/db/t/data").show()
>>> spark.read.format("parquet_pages").load("/lake").groupBy("column_path").count()

Sources (schemas in :mod:`lakestruct.spark.sources` and docs/spark.md): ``lake_files``, ``puffin``,
``deletion_vectors``, ``parquet_chunks``, ``parquet_pages``. Each lists files on the driver, packs them
into tasks by size, reads through lakestruct's byte sources (local paths, fsspec URLs; range reads) and
returns Arrow batches. A file that breaks a rule becomes a row with ``error_rule``, ``error_offset``,
``error_path`` and ``error``; it never fails the job.

Only this package imports PySpark; the format modules never do.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rowsource import ERROR_FIELDS, RowSource, batches, full_schema, plain_loop
    from .sources import SOURCES, source

#: names from the modules that import pyarrow, loaded on first use: ``lakestruct.spark.env`` (which says in one
#: line what to install) imports without the ``spark`` extra
_LAZY = {
    "ERROR_FIELDS": "rowsource", "RowSource": "rowsource", "batches": "rowsource", "full_schema": "rowsource",
    "plain_loop": "rowsource", "SOURCES": "sources", "source": "sources",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["ERROR_FIELDS", "SOURCES", "RowSource", "batches", "full_schema", "plain_loop", "register", "session", "source"]


def register(spark: Any) -> list[str]:
    """Register every lakestruct source with ``spark`` (``spark.read.format(NAME)``); returns the names."""
    from .datasource import make_data_source
    from .sources import SOURCES

    for s in SOURCES.values():
        spark.dataSource.register(make_data_source(s))
    return list(SOURCES)


def session(master: str = "local[*]", **kwargs: Any) -> Any:
    """A SparkSession with the sources registered (see :func:`lakestruct.spark.env.session`)."""
    from .env import session as _session

    return _session(master, **kwargs)
