"""The contract every lakestruct Spark source is built from, free of Spark.

A source is a :class:`RowSource`: a name, an Arrow schema for its data columns and a
function that turns one *input unit* (a file, or for table sources a table directory)
into rows. The Spark machinery in :mod:`lakestruct.spark` lists the input units on the
driver, packs them into partitions by size, calls ``rows`` on the executors and returns
Arrow record batches; the plain single-process loop (:func:`collect`) calls the very same
functions, which is how tests hold every source to "Spark rows == plain loop rows".

Every source's table is ``file`` (the path or URL of the input unit, as listed), then
the source's own columns (``schema(options)``), then :data:`ERROR_FIELDS`. When ``rows``
raises a :class:`lakestruct.LakestructError`, the rows it yielded before stay and one
error row follows (data columns null, error columns set): a broken file never fails
the job. Anything else that escapes ``rows`` is a bug and does fail it.

This module imports pyarrow and lakestruct only, never pyspark.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from ..errors import FormatError, LakestructError

__all__ = ["ERROR_FIELDS", "FILE_FIELD", "RowSource", "collect", "error_row", "full_schema"]

Options = Mapping[str, str]
Row = dict[str, Any]

FILE_FIELD = pa.field("file", pa.string(), nullable=False)
ERROR_FIELDS: tuple[pa.Field, ...] = (
    pa.field("error_rule", pa.string()),  # the rule broken (``puffin.trailing-magic``), null when the row is data
    pa.field("error_offset", pa.int64()),  # absolute byte offset in the file, when known
    pa.field("error_path", pa.string()),  # field path (``footer.payload.blobs[2].offset``)
    pa.field("error", pa.string()),  # the whole message
)


@dataclass(frozen=True)
class RowSource:
    """One Spark source: ``spark.read.format(name).options(...).load(paths)``."""

    name: str
    #: the data columns (without ``file`` and the error columns) for these options
    schema: Callable[[Options], pa.Schema]
    #: one input unit -> its rows as dicts keyed by the data columns (missing keys are null)
    rows: Callable[[str, Options], Iterator[Row]]
    #: paths as the user gave them -> input units with their sizes in bytes (for packing);
    #: None: every file under the paths (recursively, local or fsspec) that ``accepts``
    list_inputs: Callable[[Sequence[str], Options], list[tuple[str, int]]] | None = None
    #: with the default listing: does this file belong to the source (name or magic sniff)?
    accepts: Callable[[str, Options], bool] | None = None
    #: runs once on the driver before anything else; the options it returns are the ones
    #: ``schema``, listing and ``rows`` (on the executors) see. For work that must happen once
    #: (compiling a user's .ksy, resolving a snapshot id); the result must be plain strings.
    prepare: Callable[[Options], Options] | None = None
    doc: str = ""


def full_schema(source: RowSource, options: Options) -> pa.Schema:
    """``file``, the source's data columns, then the error columns."""
    return pa.schema([FILE_FIELD, *source.schema(options), *ERROR_FIELDS])


def error_row(path: str, e: LakestructError) -> Row:
    if isinstance(e, FormatError):
        return {"file": path, "error_rule": e.rule, "error_offset": e.offset, "error_path": e.path, "error": str(e)}
    return {"file": path, "error_rule": "io.unreadable", "error_offset": None, "error_path": None, "error": str(e)}


def collect(source: RowSource, path: str, options: Options) -> Iterator[Row]:
    """Rows of one input unit with ``file`` set and a broken input turned into an error row."""
    try:
        for r in source.rows(path, options):
            yield {"file": path, **r}
    except LakestructError as e:
        yield error_row(path, e)
