"""PySpark Python data sources (``pyspark.sql.datasource``, Spark 4) built from :class:`RowSource` s.

One adapter serves every source: the driver lists the input files and packs them into partitions
(:mod:`.listing`), each task reads its files through lakestruct's byte-source layer (local paths and
fsspec URLs, range reads only) and yields Arrow record batches (:func:`.rowsource.batches`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition
from pyspark.sql.pandas.types import from_arrow_schema
from pyspark.sql.types import StructType

from ..errors import LakestructError, UsageError
from .listing import DEFAULT_MAX_PARTITION_BYTES, DEFAULT_OPEN_COST_BYTES, Input, input_paths, pack
from .rowsource import RowSource, batches, full_schema, option_int, prepared_options, source_inputs

__all__ = ["GENERIC_OPTIONS", "FilesPartition", "make_data_source"]

#: options every source understands (besides its own)
GENERIC_OPTIONS: Mapping[str, str] = {
    "min_partitions": "spread the files over at least this many tasks (default: the driver's CPU count; "
    "the inventory job passes the cluster's default parallelism)",
    "max_partition_bytes": f"most bytes of files (plus open cost) per task (default {DEFAULT_MAX_PARTITION_BYTES})",
    "open_cost_bytes": f"what opening a file is worth in bytes when packing (default {DEFAULT_OPEN_COST_BYTES})",
    "file_list": "a local text file of `size<TAB>path` lines to read instead of listing the paths",
}


class FilesPartition(InputPartition):
    """The files one task reads."""

    def __init__(self, index: int, inputs: list[Input]) -> None:
        super().__init__(index)
        self.inputs = inputs


def _read_file_list(path: str) -> list[Input]:
    out: list[Input] = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            size, sep, p = line.partition("\t")
            if not sep or not size.isdigit():
                raise UsageError(f"{path}:{n}: expected `size<TAB>path`, found {line[:80]!r}")
            out.append((p, int(size)))
    return out


def plan(source: RowSource, options: Mapping[str, str]) -> list[list[Input]]:
    """The partitions of a read: listed (or taken from ``file_list``) and packed. Runs on the driver."""
    if options.get("file_list"):
        inputs = _read_file_list(options["file_list"])
    else:
        paths = input_paths(options)
        if not paths:
            raise UsageError(f"{source.name}: no path given: spark.read.format({source.name!r}).load(PATH or [PATHS])")
        inputs = source_inputs(source, paths, options)
    return pack(
        inputs,
        min_partitions=option_int(options, "min_partitions", os.cpu_count() or 1) or 1,
        max_partition_bytes=option_int(options, "max_partition_bytes", DEFAULT_MAX_PARTITION_BYTES) or DEFAULT_MAX_PARTITION_BYTES,
        open_cost=option_int(options, "open_cost_bytes", DEFAULT_OPEN_COST_BYTES) or 0,
    )


def _short(e: LakestructError) -> LakestructError:
    """``e`` without the frames below the data source: Spark puts the whole Python traceback into its
    ``PYTHON_DATA_SOURCE_ERROR`` message, where a bad option (a ``spec`` path that does not exist) should read
    as one line (the raise adds one frame, this module's)."""
    return e.with_traceback(None)


def make_data_source(source: RowSource) -> type[DataSource]:
    """The ``DataSource`` class that ``spark.dataSource.register`` takes for ``source``."""

    class _Reader(DataSourceReader):
        def __init__(self, options: Mapping[str, str]) -> None:
            self.options = options

        def partitions(self) -> list[InputPartition]:
            try:
                parts = plan(source, self.options)
            except LakestructError as e:
                raise _short(e) from None
            return [FilesPartition(i, p) for i, p in enumerate(parts)] or [FilesPartition(0, [])]

        def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
            inputs = partition.inputs if isinstance(partition, FilesPartition) else []
            yield from batches(source, inputs, self.options)

    class _Source(DataSource):
        def __init__(self, options: Mapping[str, str]) -> None:
            try:
                self.options = prepared_options(source, options)
            except LakestructError as e:  # a bad option: its message, not a traceback through lakestruct
                raise _short(e) from None

        @classmethod
        def name(cls) -> str:
            return source.name

        def schema(self) -> StructType:
            try:
                spark_schema: StructType = from_arrow_schema(full_schema(source, self.options))
            except LakestructError as e:
                raise _short(e) from None
            return spark_schema

        def reader(self, schema: Any) -> DataSourceReader:
            return _Reader(self.options)

    _Source.__name__ = _Source.__qualname__ = f"LakestructSource_{source.name}"
    _Source.__doc__ = source.doc
    return _Source
