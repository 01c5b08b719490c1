"""The contract every lakestruct Spark source is built from, free of Spark.

A source is a :class:`RowSource`: a name, an Arrow schema for its data columns and a
function that turns one *input unit* (a file, or for table sources a table directory)
into rows. The Spark machinery in :mod:`lakestruct.spark` lists the input units on the
driver, packs them into partitions by size, calls ``rows`` on the executors and returns
Arrow record batches; the plain single-process loop (:func:`batches` without Spark) calls
the very same functions, which is how tests hold every source to "Spark rows == plain loop rows".

Every source's table is ``file`` (the path or URL of the input unit, as listed), then
the source's own columns (``schema(options)``), then :data:`ERROR_FIELDS`. ``rows`` yields
dicts (one row each; missing keys are null; a row may set the error columns itself, for
example a Puffin blob that breaks a rule while the file's other blobs are fine), :class:`Rows`
(many rows at once as tuples, joined with the next files' rows into one record batch: the
Parquet sources), or Arrow record batches of the data columns (many rows at once: exploded positions).
When ``rows`` raises a :class:`lakestruct.LakestructError`, the rows it yielded before stay
and one error row follows (data columns null, error columns set): a broken file never
fails the job. Anything else that escapes ``rows`` is a bug and does fail it.

This module imports pyarrow and lakestruct only, never pyspark.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import pyarrow as pa

from ..errors import FormatError, LakestructError, UsageError
from ..source import list_files
from . import columns
from .listing import Input

__all__ = [
    "ERROR_FIELDS",
    "FILE_FIELD",
    "Batcher",
    "Columns",
    "RowSource",
    "Rows",
    "batches",
    "col",
    "collect",
    "error_row",
    "full_schema",
    "option_bool",
    "option_int",
    "plain_loop",
    "schema_markdown",
    "source_inputs",
]

Options = Mapping[str, str]
Row = dict[str, Any]
#: what ``rows`` yields: a row, :class:`Rows`, or a batch of rows with the source's data columns
Chunk: TypeAlias = Row | Any  # a row, Rows, or a pyarrow.RecordBatch


def col(name: str, type: Any, doc: str, *, nullable: bool = True) -> Any:
    """A column of a source's schema with its one-line meaning (the docs are generated from it)."""
    return pa.field(name, type, nullable=nullable, metadata={"doc": doc})


FILE_FIELD = col("file", pa.string(), "path or URL of the file read, as listed", nullable=False)
ERROR_FIELDS: tuple[Any, ...] = (
    col("error_rule", pa.string(), "the rule broken (puffin.trailing-magic, ...); null when the row is data"),
    col("error_offset", pa.int64(), "absolute byte offset in the file where the rule is broken, when known"),
    col("error_path", pa.string(), "field path of the broken structure (footer.payload.blobs[2].offset)"),
    col("error", pa.string(), "the whole error message"),
)
#: rows are turned into Arrow record batches of at most this many rows
BATCH_ROWS = 8192


@dataclass(frozen=True)
class Rows:
    """Many rows of one input unit at once: tuples in the order of ``schema``'s columns (the source's data columns,
    by name; the error columns may follow). :func:`batches` joins the rows of consecutive input units into record
    batches of up to ``batch_rows`` rows, built column by column (:mod:`.columns`): no dict per row, no batch per file."""

    schema: pa.Schema
    rows: list[tuple[Any, ...]]


@dataclass(frozen=True)
class Columns:
    """Many rows of one input unit at once, column by column: ``columns[i]`` holds the values of ``schema``'s column
    ``i`` (all of the same length). Joined with the neighbouring units' :class:`Rows` and :class:`Columns` like them."""

    schema: pa.Schema
    columns: Sequence[Sequence[Any]]


@dataclass(frozen=True)
class RowSource:
    """One Spark source: ``spark.read.format(name).options(...).load(paths)``."""

    name: str
    #: the data columns (without ``file`` and the error columns) for these options
    schema: Callable[[Options], pa.Schema]
    #: one input unit -> its rows (dicts keyed by the data columns, or record batches of them)
    rows: Callable[[str, Options], Iterator[Chunk]]
    #: paths as the user gave them -> input units with their sizes in bytes (for packing);
    #: None: every file under the paths (recursively, local or fsspec)
    list_inputs: Callable[[list[str], Options], list[Input]] | None = None
    #: runs once on the driver before anything else; the options it returns are the ones
    #: ``schema``, listing and ``rows`` (on the executors) see. For work that must happen once
    #: (compiling a user's .ksy, resolving a snapshot id); the result must be plain strings.
    prepare: Callable[[Options], Options] | None = None
    #: the options the source understands, with their meaning (shown in the docs and in errors)
    options: Mapping[str, str] | None = None
    doc: str = ""


def full_schema(source: RowSource, options: Options) -> pa.Schema:
    """``file``, the source's data columns, then the error columns."""
    return pa.schema([FILE_FIELD, *source.schema(options), *ERROR_FIELDS])


def error_fields(e: LakestructError) -> Row:
    """The error columns of a row for ``e``."""
    if isinstance(e, FormatError):
        return {"error_rule": e.rule, "error_offset": e.offset, "error_path": e.path, "error": str(e)}
    return {"error_rule": "io.unreadable", "error_offset": None, "error_path": None, "error": str(e)}


def error_row(path: str, e: LakestructError) -> Row:
    return {"file": path, **error_fields(e)}


def collect(source: RowSource, path: str, options: Options) -> Iterator[Chunk]:
    """Chunks of one input unit with ``file`` set on rows (batches get it in :func:`batches`) and a
    broken input turned into an error row."""
    try:
        for r in source.rows(path, options):
            yield r if isinstance(r, (pa.RecordBatch, Rows, Columns)) else {"file": path, **r}
    except LakestructError as e:
        yield error_row(path, e)


def _with_file(batch: pa.RecordBatch, path: str, schema: pa.Schema) -> pa.RecordBatch:
    n = batch.num_rows
    cols: list[Any] = []
    for f in schema:
        if f.name == "file":
            cols.append(columns.repeat_strings([path], [n]))
        elif f.name in batch.schema.names:
            c = batch.column(f.name)
            cols.append(c if c.type == f.type else c.cast(f.type))
        else:
            cols.append(pa.nulls(n, f.type))
    return pa.RecordBatch.from_arrays(cols, schema=schema)


class Batcher:
    """The rows of one source over many input units as record batches of :func:`full_schema`: :class:`Rows` and
    :class:`Columns` of consecutive units are joined into one batch (column by column), dict rows too (up to
    ``batch_rows`` rows), record batches pass through; the order of the rows is kept. ``add(path)`` yields the
    batches that are full, ``finish()`` the rest."""

    def __init__(self, source: RowSource, options: Options, *, batch_rows: int = BATCH_ROWS) -> None:
        self.source, self.options, self.batch_rows = source, options, batch_rows
        self.schema = full_schema(source, options)
        self._dicts: list[Row] = []
        #: the buffered rows of Rows/Columns chunks, one list per column of ``schema`` but ``file``
        self._names = [f.name for f in self.schema if f.name != "file"]
        self._cols: list[list[Any]] = [[] for _ in self._names]
        self._n = 0
        self._files: list[str] = []
        self._counts: list[int] = []
        self._where: dict[int, tuple[pa.Schema, list[int | None]]] = {}

    def _positions(self, schema: pa.Schema) -> list[int | None]:
        """For each buffered column, its position in a chunk of ``schema`` (None: the chunk lacks it: null)."""
        hit = self._where.get(id(schema))
        if hit is None or hit[0] is not schema:
            at = {name: i for i, name in enumerate(schema.names)}
            hit = self._where[id(schema)] = (schema, [at.get(name) for name in self._names])
        return hit[1]

    def _take(self, path: str, schema: pa.Schema, columns_of_chunk: Sequence[Sequence[Any]], n: int) -> None:
        for buf, j in zip(self._cols, self._positions(schema), strict=True):
            buf.extend(columns_of_chunk[j] if j is not None else (None,) * n)
        self._n += n
        if self._files and self._files[-1] == path:
            self._counts[-1] += n
        else:
            self._files.append(path)
            self._counts.append(n)

    def add(self, path: str) -> Iterator[pa.RecordBatch]:
        for chunk in collect(self.source, path, self.options):
            if isinstance(chunk, (Rows, Columns)):
                if self._dicts:
                    yield self._flush_dicts()
                if isinstance(chunk, Rows):
                    if not chunk.rows:
                        continue
                    self._take(path, chunk.schema, list(zip(*chunk.rows, strict=True)), len(chunk.rows))
                else:
                    n = len(chunk.columns[0]) if chunk.columns else 0
                    if not n:
                        continue
                    self._take(path, chunk.schema, chunk.columns, n)
                while self._n >= self.batch_rows:
                    yield self._flush_columns(self.batch_rows)
            elif isinstance(chunk, pa.RecordBatch):
                yield from self._flush()
                if chunk.num_rows:
                    yield _with_file(chunk, path, self.schema)
            else:
                if self._n:
                    yield self._flush_columns()
                self._dicts.append(chunk)
                if len(self._dicts) >= self.batch_rows:
                    yield self._flush_dicts()

    def finish(self) -> Iterator[pa.RecordBatch]:
        yield from self._flush()

    def _flush(self) -> Iterator[pa.RecordBatch]:
        if self._n:
            yield self._flush_columns()
        if self._dicts:
            yield self._flush_dicts()

    def _flush_dicts(self) -> pa.RecordBatch:
        out = columns.batch(self._dicts, self.schema)
        self._dicts = []
        return out

    def _flush_columns(self, k: int | None = None) -> pa.RecordBatch:
        """A batch of the first ``k`` buffered rows (all when None); the rest stay buffered."""
        if k is None or k >= self._n:
            k, rest, files, counts = self._n, None, self._files, self._counts
            self._files, self._counts = [], []
        else:
            rest = [buf[k:] for buf in self._cols]
            files, counts, taken = [], [], 0  # the files of the first k rows; the last one may go on in the rest
            for f, c in zip(self._files, self._counts, strict=True):
                if taken + c > k:
                    if k > taken:
                        files.append(f)
                        counts.append(k - taken)
                    break
                files.append(f)
                counts.append(c)
                taken += c
            i = len(files) - (1 if taken < k else 0)
            self._files = self._files[i:]
            self._counts = [self._counts[i] - (k - taken), *self._counts[i + 1 :]] if taken < k else self._counts[i:]
        bufs = iter(self._cols)
        cols: list[Any] = []
        for f in self.schema:
            if f.name == "file":
                cols.append(columns.repeat_strings(files, counts))
            else:
                buf = next(bufs)
                cols.append(columns.array(buf if rest is None else buf[:k], f.type))
        self._cols = [[] for _ in self._names] if rest is None else rest
        self._n -= k
        return pa.RecordBatch.from_arrays(cols, schema=self.schema)


def batches(
    source: RowSource, inputs: Iterable[Input | str], options: Options, *, batch_rows: int = BATCH_ROWS
) -> Iterator[pa.RecordBatch]:
    """All rows of ``inputs`` as Arrow record batches of :func:`full_schema` — what one Spark task returns,
    and the plain single-process loop when called directly."""
    b = Batcher(source, options, batch_rows=batch_rows)
    for item in inputs:
        yield from b.add(item if isinstance(item, str) else item[0])
    yield from b.finish()


def option_bool(options: Options, key: str, default: bool = False) -> bool:
    v = options.get(key)
    if v is None:
        return default
    s = str(v).strip().lower()
    if s in ("true", "1", "yes", "on"):
        return True
    if s in ("false", "0", "no", "off", ""):
        return False
    raise UsageError(f"option {key} must be true or false, found {v!r}")


def option_int(options: Options, key: str, default: int | None) -> int | None:
    v = options.get(key)
    if v is None or str(v).strip() == "":
        return default
    try:
        return int(str(v).strip())
    except ValueError:
        raise UsageError(f"option {key} must be an integer, found {v!r}") from None


def _type_name(t: Any) -> str:
    """A Spark SQL spelling of an Arrow type (what ``df.printSchema()`` shows)."""
    if pa.types.is_list(t):
        return f"array<{_type_name(t.value_type)}>"
    if pa.types.is_map(t):
        return f"map<{_type_name(t.key_type)},{_type_name(t.item_type)}>"
    names = {"int32": "int", "int64": "bigint", "double": "double", "bool": "boolean", "string": "string", "binary": "binary"}
    return names.get(str(t), str(t))


def schema_markdown(source: RowSource, options: Options) -> str:
    """The source's columns as a Markdown table (docs/spark.md is generated from this)."""
    lines = ["| column | type | meaning |", "|---|---|---|"]
    for f in full_schema(source, options):
        doc = (f.metadata or {}).get(b"doc", b"").decode()
        lines.append(f"| `{f.name}` | {_type_name(f.type)} | {doc} |")
    return "\n".join(lines)


def source_inputs(source: RowSource, paths: Sequence[str], options: Options) -> list[Input]:
    """The input units of ``paths`` for ``source``: its own listing (table directories, ...) or every file."""
    return source.list_inputs(list(paths), options) if source.list_inputs else list_files(paths)


def prepared_options(source: RowSource, options: Options) -> dict[str, str]:
    """Options as the source sees them (keys lower-cased as Spark hands them over, then ``prepare``)."""
    opts = {str(k).lower(): str(v) for k, v in options.items()}
    return {str(k).lower(): str(v) for k, v in source.prepare(opts).items()} if source.prepare else opts


def plain_loop(source: RowSource | str, paths: Sequence[str], options: Options | None = None) -> Iterator[pa.RecordBatch]:
    """The plain single-process loop: the rows ``spark.read.format(source.name).options(**options).load(paths)``
    gives, computed in this process without Spark (the tests hold every source to it). ``source`` is a
    :class:`RowSource` or its name (``"puffin"``); an unknown name is a :class:`UsageError` listing the sources."""
    if isinstance(source, str):
        from .sources import source as by_name

        source = by_name(source)
    elif not isinstance(source, RowSource):
        raise UsageError(f"plain_loop needs a source name or a RowSource, not {type(source).__name__}")
    if isinstance(paths, str):
        paths = [paths]
    opts = prepared_options(source, options or {})
    return batches(source, source_inputs(source, paths, opts), opts)
