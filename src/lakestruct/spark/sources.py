"""The lake's files as tables: the schema and the per-file rows of every lakestruct Spark source.

This is the one place the sources' schemas are defined (``docs/spark.md`` shows them, and a test holds
the page to this module). Every function here uses lakestruct's public API only and imports no Spark:
the same rows come out of ``spark.read.format(NAME)`` and of the plain loop ``rowsource.batches``.

==================  =====================================================================================
``lake_files``      one row per file: detected format, size, ok, the rule broken (``lakestruct scan``)
``puffin``          one row per Puffin blob: footer metadata, decoded DV cardinality, Theta estimate/bounds
``deletion_vectors`` one row per deletion vector (Puffin, Delta/Paimon DV files, bare blobs); options
                    ``positions`` (an array column) and ``explode`` (one row per deleted position)
``parquet_chunks``  one row per column chunk (footer only: types, codec, encodings, sizes, statistics,
                    page index / bloom filter / dictionary presence)
``parquet_pages``   one row per page header (walks the chunks: type, sizes, counts, encodings, CRC)
==================  =====================================================================================
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import struct
from collections.abc import Iterator, Mapping
from enum import IntEnum
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

import lakestruct as _ls  # the rooms load on first use: a Spark worker that only plans a read imports none of them

from ..errors import FormatError, LakestructError
from ..source import ByteSource, open_source
from . import columns
from .rowsource import (
    BATCH_ROWS,
    ERROR_FIELDS,
    Chunk,
    Columns,
    Options,
    Rows,
    RowSource,
    col,
    error_fields,
    option_bool,
    option_int,
    schema_markdown,
)

if TYPE_CHECKING:
    from .. import deletes, parquet

__all__ = ["SOURCES", "docs_markdown", "DELETION_VECTORS", "LAKE_FILES", "PARQUET_CHUNKS", "PARQUET_PAGES", "PUFFIN", "source"]


# -- lake_files ------------------------------------------------------------------------------------

LAKE_FILES_SCHEMA = pa.schema(
    [
        col("format", pa.string(), "puffin, parquet, ... (lakestruct.scan.detect); null: not a format lakestruct reads"),
        col("size", pa.int64(), "file size in bytes"),
        col("ok", pa.bool_(), "null for files of other formats"),
        col("summary", pa.string(), "what the file holds, or the rule it breaks"),
    ]
)


def _lake_file_rows(path: str, options: Options) -> Iterator[Chunk]:
    with open_source(path) as src:
        size = src.size
    fmt = _ls.scan.detect(path)
    if fmt is None:
        yield {"format": None, "size": size, "ok": None, "summary": None}
        return
    r = _ls.scan.check_file(path, fmt)
    row: dict[str, Any] = {"format": r.format, "size": size, "ok": r.ok, "summary": r.summary}
    if not r.ok:
        row.update(error_rule=r.rule or "unknown", error_offset=r.offset, error_path=r.field_path, error=r.summary)
    yield row


LAKE_FILES = RowSource(
    name="lake_files",
    schema=lambda options: LAKE_FILES_SCHEMA,
    rows=_lake_file_rows,
    doc="Every file under the paths: its format (from magic bytes), size, and whether it passes every check "
    "lakestruct has for it (`lakestruct scan`). A file that breaks a rule has ok = false and the error columns set.",
)


# -- puffin ----------------------------------------------------------------------------------------

PUFFIN_SCHEMA = pa.schema(
    [
        col("blob_index", pa.int32(), "position of the blob in the footer's blob list, from 0"),
        col("type", pa.string(), "blob type (deletion-vector-v1, apache-datasketches-theta-v1, ...)"),
        col("fields", pa.list_(pa.int32()), "field ids the blob is computed over"),
        col("snapshot_id", pa.int64(), "snapshot-id of the blob metadata (-1 for deletion vectors)"),
        col("sequence_number", pa.int64(), "sequence-number of the blob metadata (-1 for deletion vectors)"),
        col("offset", pa.int64(), "absolute offset of the blob"),
        col("length", pa.int64(), "stored length of the blob"),
        col("codec", pa.string(), "compression-codec; null: stored uncompressed"),
        col("properties", pa.map_(pa.string(), pa.string()), "the blob's properties as stored"),
        col("created_by", pa.string(), "the file's created-by property"),
        col("referenced_data_file", pa.string(), "deletion vectors: the data file whose rows the blob deletes"),
        col("cardinality", pa.int64(), "deletion vectors: positions decoded from the blob"),
        col("ndv", pa.int64(), "the ndv property, when it is a decimal integer that fits"),
        col("ndv_ok", pa.bool_(), "Theta blobs with an ndv property: does it agree with the sketch?"),
        col("theta_estimate", pa.float64(), "Theta sketches: the distinct-count estimate"),
        col("theta_lower_bound", pa.float64(), "Theta sketches: lower bound of the estimate (2 standard deviations)"),
        col("theta_upper_bound", pa.float64(), "Theta sketches: upper bound of the estimate (2 standard deviations)"),
        col("theta_retained", pa.int64(), "Theta sketches: hashes retained"),
    ]
)

_INT64_MAX = 2**63 - 1


def _int_or_none(text: str | None) -> int | None:
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 19:
        return None
    v = int(text)
    return v if v <= _INT64_MAX else None


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _puffin_rows(path: str, options: Options) -> Iterator[Chunk]:
    if _ls.scan.detect(path) != "puffin":
        return
    with _ls.puffin.open(path) as pf:
        pf.check_header()
        created_by = pf.properties.get("created-by")
        from ..roaring.read import CHECK_MAX_POSITIONS

        budget = CHECK_MAX_POSITIONS
        dv_refs: list[tuple[int, str]] = []
        for i, b in enumerate(pf.blobs):
            row: dict[str, Any] = {
                "blob_index": i,
                "type": b.type,
                "fields": list(b.fields),
                "snapshot_id": b.snapshot_id,
                "sequence_number": b.sequence_number,
                "offset": b.offset,
                "length": b.length,
                "codec": b.compression_codec,
                "properties": list(b.properties.items()),
                "created_by": created_by,
                "referenced_data_file": b.properties.get("referenced-data-file"),
                "ndv": _int_or_none(b.properties.get("ndv")),
            }
            try:
                if b.type == _ls.puffin.DELETION_VECTOR_V1:
                    dv = _ls.deletes.read_dv_blob(pf, i, max_positions=budget)  # at most 2^24 positions a file, as scan
                    budget = max(0, budget - dv.cardinality)
                    row["cardinality"] = dv.cardinality
                    dv_refs.append((i, dv.referenced_data_file or ""))
                elif b.type == _ls.puffin.THETA_V1:
                    sk = _ls.sketches.ThetaSketch.from_bytes(pf.read_blob(i))
                    row.update(
                        theta_estimate=_finite(sk.estimate()),
                        theta_lower_bound=_finite(sk.lower_bound(2)),
                        theta_upper_bound=_finite(sk.upper_bound(2)),
                        theta_retained=sk.num_retained,
                    )
                    if "ndv" in b.properties:
                        check = _ls.sketches.compare_ndv(sk, b.properties["ndv"])
                        row["ndv_ok"] = check.ok
                        if not check.ok:
                            row.update(
                                error_rule=check.rule,
                                error_offset=pf.footer.payload_offset,
                                error_path=f"footer.payload.blobs[{i}].properties.ndv",
                                error=check.message,
                            )
                else:
                    pf.read_blob(i)  # an opaque blob must still lie in its range and decompress
            except LakestructError as e:
                row.update(error_fields(e))
            yield row
        _ls.deletes.check_one_per_data_file(dv_refs, where=pf.footer.payload_offset)


PUFFIN = RowSource(
    name="puffin",
    schema=lambda options: PUFFIN_SCHEMA,
    rows=_puffin_rows,
    doc="One row per blob of every Puffin file. Deletion-vector blobs are decoded (cardinality); Theta sketches "
    "are decoded (estimate, bounds, retained hashes) and their ndv property compared with the estimate (ndv_ok). "
    "A blob that breaks a rule keeps its footer columns and gets the error columns; a file whose footer is "
    "unreadable gives one error row.",
)


# -- deletion_vectors ------------------------------------------------------------------------------

_DV_BASE = [
    col("kind", pa.string(), "puffin, dv-file (Delta Lake / Paimon index file), dv-blob (a bare blob)"),
    col("referenced_data_file", pa.string(), "the data file the vector deletes rows of (Puffin blobs name it; DV files do not)"),
    col("offset", pa.int64(), "of the blob (Puffin) or the entry's size field (DV files): as manifests record it"),
    col("length", pa.int64(), "bytes of the blob or entry, as manifests record it"),
]
DV_SCHEMA = pa.schema(
    [
        *_DV_BASE,
        col("bits", pa.int32(), "64 (Roaring64, Iceberg/Delta) or 32 (Paimon's 32-bit bitmap)"),
        col("cardinality", pa.int64(), "deleted positions"),
        col("min_position", pa.int64(), "smallest deleted position"),
        col("max_position", pa.int64(), "largest deleted position"),
    ]
)
DV_POSITIONS_FIELD = col("positions", pa.list_(pa.int64()), "the deleted positions, ascending (option positions)")
DV_EXPLODED_SCHEMA = pa.schema([*_DV_BASE, col("position", pa.int64(), "one deleted row position (option explode)")])

def _dv_schema(options: Options) -> pa.Schema:
    if option_bool(options, "explode"):
        return DV_EXPLODED_SCHEMA
    if option_bool(options, "positions"):
        return DV_SCHEMA.append(DV_POSITIONS_FIELD)
    return DV_SCHEMA


def _deletion_vectors(path: str, max_positions: int | None) -> Iterator[tuple[str, int, deletes.DeletionVector]]:
    """(kind, bits, vector) of every deletion vector in the file; nothing for files that hold none.
    ``kind`` is the file's format as :func:`lakestruct.scan.detect` names it. At most ``max_positions`` positions
    are decoded per file (``roaring.max-positions`` past that), as ``scan`` and ``deletes show`` do."""
    kind = _ls.scan.detect(path)
    budget = max_positions

    def spend(n: int) -> None:
        nonlocal budget
        if budget is not None:
            budget = max(0, budget - n)

    if kind == "puffin":
        with _ls.puffin.open(path) as pf:
            refs = []
            for i, b in enumerate(pf.blobs):
                if b.type == _ls.puffin.DELETION_VECTOR_V1:
                    dv = _ls.deletes.read_dv_blob(pf, i, max_positions=budget)
                    spend(dv.cardinality)
                    refs.append((i, dv.referenced_data_file or ""))
                    yield kind, 64, dv
            _ls.deletes.check_one_per_data_file(refs, where=pf.footer.payload_offset)
    elif kind == "dv-file":
        for entry in _ls.deletes.read_paimon_deletion_vectors(path, max_positions=budget):
            yield kind, entry.bits, _ls.deletes.DeletionVector(entry.vector.positions(), None, entry.offset, entry.length)
    elif kind == "dv-blob":
        with open_source(path) as src:
            raw = src.read_exact(0, src.size, rule="deletion-vector.truncated", path="blob")
        yield kind, 64, _ls.deletes.DeletionVector.from_blob(raw, max_positions=budget)


def _dv_rows(path: str, options: Options) -> Iterator[Chunk]:
    from ..roaring.read import CHECK_MAX_POSITIONS

    cap = option_int(options, "max_positions", CHECK_MAX_POSITIONS)
    explode = option_bool(options, "explode")
    with_positions = option_bool(options, "positions")
    for kind, bits, dv in _deletion_vectors(path, cap if cap is None or cap > 0 else None):
        pos = dv.positions()
        base = {"kind": kind, "referenced_data_file": dv.referenced_data_file, "offset": dv.offset, "length": dv.length}
        if explode:
            ref = dv.referenced_data_file
            for chunk in dv.iter_chunks(1 << 20):
                n = int(chunk.size)
                yield pa.RecordBatch.from_arrays(
                    [
                        columns.repeat_strings([kind], [n]),
                        pa.nulls(n, pa.string()) if ref is None else columns.repeat_strings([ref], [n]),
                        columns.numeric(np.full(n, -1 if dv.offset is None else dv.offset, np.int64), pa.int64()),
                        columns.numeric(np.full(n, -1 if dv.length is None else dv.length, np.int64), pa.int64()),
                        columns.numeric(np.asarray(chunk, np.int64), pa.int64()),
                    ],
                    schema=DV_EXPLODED_SCHEMA,
                )
            continue
        row: dict[str, Any] = {
            **base,
            "bits": bits,
            "cardinality": dv.cardinality,
            "min_position": int(pos[0]) if pos.size else None,
            "max_position": int(pos[-1]) if pos.size else None,
        }
        if with_positions:
            row["positions"] = pos
        yield row


DELETION_VECTORS = RowSource(
    name="deletion_vectors",
    schema=_dv_schema,
    rows=_dv_rows,
    options={
        "positions": "true: add the deleted positions as an array<bigint> column `positions`",
        "explode": "true: one row per (deletion vector, deleted position), column `position`",
        "max_positions": "most positions decoded per file (default 2^24, as scan and deletes show; 0: no limit); a file "
        "past it gives an error row (roaring.max-positions)",
    },
    doc="One row per deletion vector: every deletion-vector-v1 blob of Puffin files, every entry of Delta Lake "
    "and Paimon deletion-vector files (version byte 1, then entries; 32- and 64-bit), and bare blobs. "
    "Every rule is checked (envelope length, magic, CRC, Roaring structure, Iceberg key limits, the cardinality "
    "property). Files of other formats give no rows.",
)


# -- Parquet ---------------------------------------------------------------------------------------

_STAT_FIELDS = [
    col("null_count", pa.int64(), "statistics: nulls"),
    col("min", pa.string(), "statistics: smallest value, decoded with the column's type (text; 0x-hex for binary)"),
    col("max", pa.string(), "statistics: largest value, decoded like min"),
    col("min_raw", pa.binary(), "statistics: min_value (or the deprecated min) as stored"),
    col("max_raw", pa.binary(), "statistics: max_value (or the deprecated max) as stored"),
]

CHUNKS_SCHEMA = pa.schema(
    [
        col("row_group", pa.int32(), "row group index, from 0"),
        col("column", pa.int32(), "leaf column index"),
        col("column_path", pa.string(), "dotted schema path"),
        col("physical_type", pa.string(), "BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY"),
        col("logical_type", pa.string(), "LogicalType member, or the legacy ConvertedType name"),
        col("codec", pa.string(), "compression codec (UNCOMPRESSED, SNAPPY, GZIP, ZSTD, ...)"),
        col("encodings", pa.list_(pa.string()), "ColumnMetaData.encodings"),
        col("row_group_rows", pa.int64(), "rows in the chunk's row group"),
        col("num_values", pa.int64(), "values in the chunk, nulls included"),
        *_STAT_FIELDS,
        col("distinct_count", pa.int64(), "statistics: distinct values, when the writer recorded them"),
        col("total_compressed_size", pa.int64(), "stored bytes of the chunk, page headers included"),
        col("total_uncompressed_size", pa.int64(), "bytes of the chunk before compression, page headers included"),
        col("compression_ratio", pa.float64(), "uncompressed / compressed"),
        col("data_page_offset", pa.int64(), "offset of the first data page"),
        col("dictionary_page_offset", pa.int64(), "offset of the dictionary page (null: none)"),
        col("column_index_offset", pa.int64(), "page index: ColumnIndex offset (null: none)"),
        col("column_index_length", pa.int32(), "page index: ColumnIndex length"),
        col("offset_index_offset", pa.int64(), "page index: OffsetIndex offset (null: none)"),
        col("offset_index_length", pa.int32(), "page index: OffsetIndex length"),
        col("bloom_filter_offset", pa.int64(), "split-block bloom filter offset (null: none)"),
        col("bloom_filter_length", pa.int32(), "bloom filter length, when the writer recorded it"),
        col("has_page_index", pa.bool_(), "both ColumnIndex and OffsetIndex are referenced"),
        col("has_bloom_filter", pa.bool_(), "the chunk has a bloom filter"),
        col("has_dictionary", pa.bool_(), "the chunk has a dictionary page or dictionary encodings"),
        col("dictionary_fallback", pa.bool_(), "non-dictionary data pages beside a dictionary (encoding_stats); null: unknown"),
        col("created_by", pa.string(), "the file's created_by"),
    ]
)

PAGES_SCHEMA = pa.schema(
    [
        col("row_group", pa.int32(), "row group index, from 0"),
        col("column", pa.int32(), "leaf column index, from 0"),
        col("column_path", pa.string(), "dotted schema path of the leaf column"),
        col("page_ordinal", pa.int32(), "position in the column chunk, from 0"),
        col("offset", pa.int64(), "absolute offset of the page header"),
        col("header_size", pa.int32(), "bytes of the Thrift page header"),
        col("page_type", pa.string(), "DATA_PAGE, DATA_PAGE_V2, DICTIONARY_PAGE, INDEX_PAGE"),
        col("encoding", pa.string(), "the page's value encoding"),
        col("compressed_size", pa.int32(), "stored bytes of the page body"),
        col("uncompressed_size", pa.int32(), "bytes of the page body before compression"),
        col("num_values", pa.int32(), "values in the page, nulls included"),
        col("num_nulls", pa.int32(), "nulls in the page (DATA_PAGE_V2 headers only)"),
        col("num_rows", pa.int32(), "rows in the page (DATA_PAGE_V2 headers only)"),
        col("has_crc", pa.bool_(), "the page header carries a CRC"),
        col("crc", pa.int64(), "unsigned CRC-32 as stored"),
        col("crc_ok", pa.bool_(), "null when the page has no CRC or `check_crc` is false"),
        *_STAT_FIELDS,
    ]
)

_PHYSICAL_STRUCT = {1: "<i", 2: "<q", 4: "<f", 5: "<d"}
#: Encoding values of dictionary encodings (PLAIN_DICTIONARY, RLE_DICTIONARY)
_DICT_ENCODINGS = frozenset({2, 8})
#: PageType values
_DATA_PAGE, _DICTIONARY_PAGE, _DATA_PAGE_V2 = 0, 2, 3


@functools.cache
def _names(enum: type[IntEnum]) -> dict[Any, str]:
    """An enum's members -> their names (``model.enum_name`` as one dict lookup)."""
    return {m: m.name for m in enum}


def _name(names: dict[Any, str], v: Any) -> str | None:
    """``model.enum_name(v)`` by table: a member's name; a value the decoder did not know as its text (the decoders
    give every value the enum knows as its member, so a plain int is always one it does not know)."""
    n = names.get(v)
    return n if n is not None else None if v is None else str(v)


def _converted_name(el: parquet.SchemaElement) -> str | None:
    if el.logicalType is not None:
        return el.logicalType.member or "UNKNOWN-MEMBER"
    return _ls.parquet.model.enum_name(el.converted_type)


def _converters(schema: tuple[parquet.SchemaElement, ...]) -> dict[int, Any]:
    """Leaf index -> the converter of its statistics values (none for a leaf whose annotation does not fit: its
    bounds stay raw, as hex; none at all when the schema tree is malformed: that error surfaces elsewhere)."""
    asm = _ls.parquet.assembly
    convert: dict[int, Any] = {}
    try:
        chains = asm.leaf_chains(asm.schema_tree(schema))
    except FormatError:
        return convert
    for i, chain in enumerate(chains):
        try:
            convert[i] = asm.leaf_converter(chain[-1])
        except FormatError:
            pass
    return convert


#: a leaf column as the Parquet sources need it: (dotted path, logical type name, physical type, statistics converter)
_Leaf = tuple[str, "str | None", int, Any]
#: schema -> (leaf column descriptors, their _Leaf): the files of a lake mostly share a few schemas
_SCHEMAS: dict[Any, tuple[list[Any], list[_Leaf]]] = {}
_SCHEMAS_MAX = 64


def _schema_info(pq: parquet.ParquetFile) -> tuple[list[Any], list[_Leaf]]:
    """``pq.columns()`` and each leaf's :data:`_Leaf`, computed once per distinct schema (a malformed schema raises
    as ``pq.columns()`` does, every time)."""
    return _schema_info_of(pq.metadata.schema, pq.columns)


def _schema_info_of(schema: tuple[parquet.SchemaElement, ...], columns: Any) -> tuple[list[Any], list[_Leaf]]:
    """:func:`_schema_info` of a footer's schema, ``columns()`` giving its leaf columns (or raising)."""
    key: Any = schema
    twin = _schema_key_twin()
    if twin is not None:  # the compiled twin's key: the models' fields flattened, far cheaper to hash and compare
        flat = twin(key)
        key = ("flat", flat) if flat is not None else key
    try:
        hit = _SCHEMAS.get(key)
    except TypeError:  # a field the model does not know holds an unhashable value: no caching
        key, hit = None, None
    if hit is not None:
        return hit
    cols = columns()
    convert = _converters(schema)
    info = (cols, [(c.name, _converted_name(c.element), int(c.physical_type), convert.get(i)) for i, c in enumerate(cols)])
    if key is not None:
        if len(_SCHEMAS) >= _SCHEMAS_MAX:
            _SCHEMAS.clear()
        _SCHEMAS[key] = info
    return info


def _stat_text(physical: int, conv: Any, raw: bytes | None) -> str | None:
    """Statistics min/max bytes -> text, with the leaf's physical type and converter (0x-hex when they do not decode)."""
    if raw is None:
        return None
    try:
        fmt = _PHYSICAL_STRUCT.get(physical)
        v: Any
        if fmt is not None:
            v = struct.unpack(fmt, raw)[0]
        elif physical == 0:
            v = bool(raw[0])
        else:
            v = raw
        if conv is not None:
            v = conv(v)
        if isinstance(v, bytes):
            return "0x" + v.hex()
        return str(v)
    except (struct.error, IndexError, ValueError, ArithmeticError, TypeError, LakestructError):
        return "0x" + raw.hex()


#: the columns of the statistics (null_count, min, max, min_raw, max_raw) when there are none
_NO_STATS = (None, None, None, None, None)


def _stats(leaf: _Leaf, st: parquet.Statistics | None) -> tuple[Any, ...]:
    if st is None:
        return _NO_STATS
    lo = st.min_value if st.min_value is not None else st.min
    hi = st.max_value if st.max_value is not None else st.max
    return (st.null_count, _stat_text(leaf[2], leaf[3], lo), _stat_text(leaf[2], leaf[3], hi), lo, hi)


def _fallback(md: parquet.ColumnMetaData) -> bool | None:
    """Data pages of a non-dictionary encoding beside a dictionary page (encoding_stats); None: no encoding_stats."""
    if not md.encoding_stats:
        return None
    dictionary = fallback = False
    for s in md.encoding_stats:
        if s.count:
            if s.page_type == _DICTIONARY_PAGE:
                dictionary = True
            elif (s.page_type == _DATA_PAGE or s.page_type == _DATA_PAGE_V2) and s.encoding not in _DICT_ENCODINGS:
                fallback = True
    return fallback if dictionary else False


def _range_ok(md: parquet.ColumnMetaData, footer_offset: int) -> bool:
    """The chunk lies in the page region (what ``ParquetFile.chunk_range`` checks, without building its error)."""
    start, dpo = md.data_page_offset, md.dictionary_page_offset
    if dpo is not None and dpo >= 4 and (dpo < start or start < 4):
        start = dpo
    return start >= 4 and md.total_compressed_size >= 0 and start + md.total_compressed_size <= footer_offset


#: the row tuples of the Parquet sources: the data columns, then the error columns (set on the rows that break a rule)
_CHUNKS_BATCH = pa.schema([*CHUNKS_SCHEMA, *ERROR_FIELDS])
_PAGES_BATCH = pa.schema([*PAGES_SCHEMA, *ERROR_FIELDS])
_NO_ERROR = (None, None, None, None)


def _error_tuple(e: LakestructError) -> tuple[Any, ...]:
    f = error_fields(e)
    return (f["error_rule"], f["error_offset"], f["error_path"], f["error"])


@contextlib.contextmanager
def _parquet_source(path: str) -> Iterator[ByteSource | None]:
    """The file ``path`` open when :func:`lakestruct.scan.detect` calls it Parquet, else None (opened once for both)."""
    if os.path.isdir(path):
        yield None
        return
    try:
        src = open_source(path)
    except LakestructError:
        yield None  # detect() says None then too
        return
    with src:
        try:
            fmt = _ls.scan.detect_source(src, path)
        except LakestructError:
            fmt = None
        yield src if fmt == "parquet" else None


def _chunk_rows(path: str, options: Options) -> Iterator[Chunk]:
    with _parquet_source(path) as src:
        if src is None:
            return
        fast = _fast_chunk_columns(src)
        if fast is not None:
            yield from fast
            return
        with _ls.parquet.open(src) as pq:  # the pure twin: the footer's models, and every error row
            _, leaves = _schema_info(pq)
            yield from _pure_chunk_rows(pq, leaves)


def _fast_chunk_columns(src: ByteSource) -> list[Columns] | None:
    """The rows of a Parquet file by the compiled twin (``_chunks_c.chunk_columns`` over the footer decoded into tuples,
    ``lakestruct.thrift.typed.decode_tuples``), or None: the twin is not built, or anything about the file is not
    plain (the footer's place, its decoding, the schema, a chunk that needs an error row); the pure twin then reads
    it through ``ParquetFile`` and says what is wrong."""
    twin = _chunks_twin()
    if twin is None:
        return None
    pq_mod = _ls.parquet
    try:
        size = src.size
        if size < 12:
            return None
        tail_len = min(size, pq_mod.read.DEFAULT_TAIL_HINT)  # as ParquetFile reads the footer
        tail = src.read(size - tail_len, tail_len)
        if tail[-4:] != pq_mod.MAGIC or (tail[:4] if size <= tail_len else src.read(0, 4)) != pq_mod.MAGIC:
            return None
        flen = int.from_bytes(tail[-8:-4], "little")
        if not 0 < flen <= size - 12:
            return None
        foff = size - 8 - flen
        footer = tail[tail_len - 8 - flen : tail_len - 8] if flen + 8 <= tail_len else src.read(foff, flen)
        got = _typed().decode_tuples(pq_mod.model.FileMetaData, footer, tuples=_tuple_classes())
        if got is None:
            return None
        md = got[0]
        _, leaves = _schema_info_of(md.schema, lambda: pq_mod.leaf_columns(md.schema))
    except LakestructError:
        return None
    out: list[Columns] = []
    rg, n_groups = 0, len(md.row_groups)
    while rg < n_groups:  # a batch of row groups at a time
        step = twin(md, leaves, foff, rg, BATCH_ROWS)
        if step is None:
            return None
        data, rg = step
        out.append(Columns(CHUNKS_SCHEMA, data))
    return out


def _typed() -> Any:
    from ..thrift import typed

    return typed


@functools.cache
def _tuple_classes() -> frozenset[type]:
    """The footer structs the compiled twin reads as tuples (the per-chunk ones)."""
    m = _ls.parquet.model
    return frozenset({m.RowGroup, m.ColumnChunk, m.ColumnMetaData, m.Statistics, m.PageEncodingStats, m.SizeStatistics})


def _pure_chunk_rows(pq: parquet.ParquetFile, leaves: list[_Leaf]) -> Iterator[Chunk]:
    """The rows of ``pq``'s chunks as :class:`Rows` (the pure twin of ``_chunks_c.chunk_columns``; it also builds the
    error rows)."""
    from ..parquet.model import CompressionCodec, Encoding, Type

    type_names, codec_names, enc_names = _names(Type), _names(CompressionCodec), _names(Encoding)
    encodings: dict[Any, tuple[list[str | None], bool]] = {}  # the chunks of a file mostly share their encodings
    rows: list[tuple[Any, ...]] = []
    md = pq.metadata
    ncols = len(leaves)
    created_by = md.created_by
    footer_offset = pq.footer.offset
    for rg_i, rg in enumerate(md.row_groups):
        rg_rows = rg.num_rows
        for ci, cc in enumerate(rg.columns):
            leaf = leaves[ci] if ci < ncols else None
            cio, oio = cc.column_index_offset, cc.offset_index_offset
            try:
                if leaf is None:
                    raise pq.row_group_columns_error(rg_i)
                cm = cc.meta_data
                if cm is None or cc.crypto_metadata is not None or cc.file_path is not None or not _range_ok(cm, footer_offset):
                    pq.chunk_range(rg_i, ci)  # encrypted / missing metadata / out-of-range chunks raise their error here
                assert cm is not None
                encs = cm.encodings
                enc = encodings.get(encs)
                if enc is None:
                    enc = encodings[encs] = ([_name(enc_names, e) for e in encs], any(e in _DICT_ENCODINGS for e in encs))
                dpo = cm.dictionary_page_offset
                tcs, tus = cm.total_compressed_size, cm.total_uncompressed_size
                st = cm.statistics
                null_count, lo, hi, lo_raw, hi_raw = _stats(leaf, st)
                rows.append((
                    rg_i, ci, ".".join(cm.path_in_schema) or leaf[0], _name(type_names, cm.type), leaf[1],
                    _name(codec_names, cm.codec), enc[0], rg_rows, cm.num_values,
                    null_count, lo, hi, lo_raw, hi_raw, st.distinct_count if st is not None else None, tcs, tus,
                    (tus / tcs) if tcs > 0 else None, cm.data_page_offset, dpo, cio, cc.column_index_length, oio,
                    cc.offset_index_length, cm.bloom_filter_offset, cm.bloom_filter_length,
                    cio is not None and oio is not None, cm.bloom_filter_offset is not None,
                    (dpo is not None and dpo >= 4) or enc[1], _fallback(cm), created_by,
                    *_NO_ERROR,
                ))  # fmt: skip
            except LakestructError as e:
                rows.append((
                    rg_i, ci, leaf[0] if leaf else None, None, leaf[1] if leaf else None, None, None, rg_rows, None,
                    *_NO_STATS, None, None, None, None, None, None, cio, cc.column_index_length, oio,
                    cc.offset_index_length, None, None, cio is not None and oio is not None, None, None, None, created_by,
                    *_error_tuple(e.with_source(pq.name) if isinstance(e, FormatError) else e),
                ))  # fmt: skip
            if len(rows) >= BATCH_ROWS:
                yield Rows(_CHUNKS_BATCH, rows)
                rows = []
    if rows:
        yield Rows(_CHUNKS_BATCH, rows)


@functools.cache
def _schema_key_twin() -> Any:
    """``_chunks_c.schema_key`` (None: the twin is not in use): a cheap cache key of a schema."""
    return getattr(_chunks_module(), "schema_key", None)


@functools.cache
def _chunks_module() -> Any:
    """The compiled module ``_chunks_c``, or None (not built, ``LAKESTRUCT_PURE=chunks``, big-endian): looked up once,
    by :mod:`.columns`, whose builders use it too."""
    return columns._twin()


@functools.cache
def _chunks_twin() -> Any:
    """The compiled twin of :func:`_pure_chunk_rows` as ``f(md, leaves, footer_offset, first_row_group, max_rows)``
    -> (the data columns of the row groups from ``first_row_group`` until ``max_rows`` rows are reached, the next
    row group) or None; None when it is not built, is forced off (``LAKESTRUCT_PURE=chunks``) or the machine is
    big-endian (it reads statistics in the machine's byte order)."""
    _chunks_c = _chunks_module()
    if _chunks_c is None:
        return None
    from ..parquet.model import CompressionCodec, Encoding, Type

    tuple_fields = _typed().tuple_fields
    for cls_name, slots in _chunks_c.SLOTS.items():  # the twin reads these tuple slots: they must be the decoder's
        fields = tuple_fields(getattr(_ls.parquet.model, cls_name))
        if any(fields[i] != name for name, i in slots.items()):
            return None
    c = _chunks_c.chunk_columns
    names = (_names(Type), _names(CompressionCodec), _names(Encoding))
    data_pages = (_DATA_PAGE, _DATA_PAGE_V2)

    def run(md: Any, leaves: list[_Leaf], footer_offset: int, first: int, max_rows: int) -> Any:
        return c(md, leaves, footer_offset, first, max_rows, *names, {}, _DICT_ENCODINGS, _DICTIONARY_PAGE, data_pages)

    return run


PARQUET_CHUNKS = RowSource(
    name="parquet_chunks",
    schema=lambda options: CHUNKS_SCHEMA,
    rows=_chunk_rows,
    doc="One row per column chunk of every Parquet file, from the footer alone (one tail read per file): types, "
    "codec, encodings, value/null counts, sizes and compression ratio, offsets, statistics decoded with the "
    "column's type, and whether the chunk has a page index, a bloom filter and a dictionary (and fell back from it).",
)


def _page_rows(path: str, options: Options) -> Iterator[Chunk]:
    check_crc = option_bool(options, "check_crc", True)
    with _parquet_source(path) as src:
        if src is not None:
            with _ls.parquet.open(src) as pq:
                twin = getattr(_chunks_module(), "page_columns", None)
                yield from (_page_columns(twin, pq, check_crc) if twin is not None else _pure_page_rows(pq, check_crc))


def _chunks_of(pq: parquet.ParquetFile, n_leaves: int) -> Iterator[tuple[int, int]]:
    """(row group, column) of every column chunk, in order; a row group with more chunks than the schema has leaves
    raises its error there."""
    for rg_i, rg in enumerate(pq.metadata.row_groups):
        for ci in range(len(rg.columns)):
            if ci >= n_leaves:
                raise pq.row_group_columns_error(rg_i)
            yield rg_i, ci


def _pure_page_rows(pq: parquet.ParquetFile, check_crc: bool) -> Iterator[Chunk]:
    from ..parquet.model import Encoding, PageType

    page_names, enc_names = _names(PageType), _names(Encoding)
    rows: list[tuple[Any, ...]] = []
    _, leaves = _schema_info(pq)
    try:
        for rg_i, ci in _chunks_of(pq, len(leaves)):
            leaf = leaves[ci]
            name = leaf[0]
            for p in pq.chunk_pages(rg_i, ci):
                h = p.header
                v1, v2 = h.data_page_header, h.data_page_header_v2
                sub: Any = v1 or v2 or h.dictionary_page_header
                data_sub = v1 or v2
                crc = h.crc
                crc_ok: bool | None = None
                err = _NO_ERROR
                if crc is not None and check_crc:
                    try:
                        pq.check_page_crc(p)
                        crc_ok = True
                    except LakestructError as e:
                        crc_ok, err = False, _error_tuple(e)
                rows.append((
                    rg_i, ci, name, p.index, p.offset, p.header_size, _name(page_names, h.type) or "?",
                    _name(enc_names, sub.encoding) if sub is not None else None, h.compressed_page_size,
                    h.uncompressed_page_size, sub.num_values if sub is not None else None,
                    v2.num_nulls if v2 is not None else None, v2.num_rows if v2 is not None else None,
                    crc is not None, None if crc is None else crc & 0xFFFFFFFF, crc_ok,
                    *_stats(leaf, data_sub.statistics if data_sub is not None else None), *err,
                ))  # fmt: skip
                if len(rows) >= BATCH_ROWS:
                    yield Rows(_PAGES_BATCH, rows)
                    rows = []
    except LakestructError:
        if rows:  # the pages read before the error stay; the error row follows them
            yield Rows(_PAGES_BATCH, rows)
        raise
    if rows:
        yield Rows(_PAGES_BATCH, rows)


def _page_columns(twin: Any, pq: parquet.ParquetFile, check_crc: bool) -> Iterator[Chunk]:
    """``_pure_page_rows`` with the compiled twin of its row loop (``_chunks_c.page_columns``): the same rows, as
    :class:`Columns` of whole column chunks."""
    from ..parquet.model import Encoding, PageType

    page_names, enc_names = _names(PageType), _names(Encoding)
    width = len(_PAGES_BATCH)
    out: list[list[Any]] = [[] for _ in range(width)]

    def crc_error(page: Any) -> tuple[Any, ...] | None:
        try:
            pq.check_page_crc(page)
            return None
        except LakestructError as e:
            return _error_tuple(e)

    _, leaves = _schema_info(pq)
    try:
        for rg_i, ci in _chunks_of(pq, len(leaves)):
            twin(pq.chunk_pages(rg_i, ci), rg_i, ci, leaves[ci], page_names, enc_names, out, crc_error if check_crc else None)
            if len(out[0]) >= BATCH_ROWS:
                yield Columns(_PAGES_BATCH, out)
                out = [[] for _ in range(width)]
    except LakestructError:
        if out[0]:  # the pages read before the error stay; the error row follows them
            yield Columns(_PAGES_BATCH, out)
        raise
    if out[0]:
        yield Columns(_PAGES_BATCH, out)


PARQUET_PAGES = RowSource(
    name="parquet_pages",
    schema=lambda options: PAGES_SCHEMA,
    rows=_page_rows,
    options={"check_crc": "false: do not read page bodies to verify CRCs (default true: only pages that carry a CRC are read)"},
    doc="One row per page header of every Parquet file: where it is, its type and encoding, stored and raw sizes, "
    "value/null/row counts, statistics, and its CRC (verified against the stored body when present). Page headers "
    "are read through small range reads; page bodies only to check a CRC.",
)

from .kaitai_source import KAITAI  # noqa: E402 - any Kaitai spec as a table (docs/kaitai.md)
from .paimon_source import PAIMON_FILES  # noqa: E402 - Paimon tables (docs/paimon.md)
from .table_source import DELTA_FILES, ICEBERG_FILES, TABLE_FILES  # noqa: E402 - live files of tables (docs/iceberg.md)

#: every source, by name
SOURCES: Mapping[str, RowSource] = {
    s.name: s
    for s in (LAKE_FILES, PUFFIN, DELETION_VECTORS, PARQUET_CHUNKS, PARQUET_PAGES, KAITAI, PAIMON_FILES, ICEBERG_FILES, DELTA_FILES,
              TABLE_FILES)
}


def source(name: str) -> RowSource:
    from ..errors import UsageError

    try:
        return SOURCES[name]
    except KeyError:
        raise UsageError(f"no lakestruct source {name!r}; sources: {', '.join(SOURCES)}") from None


#: option sets whose schema differs from the default, shown in the docs
_SCHEMA_VARIANTS: Mapping[str, list[tuple[dict[str, str], str]]] = {
    "deletion_vectors": [({"positions": "true"}, "with `positions`"), ({"explode": "true"}, "with `explode`")],
}


def docs_markdown() -> str:
    """The schema section of docs/spark.md: every source, its doc and its columns (``tools/spark_docs.py`` writes it)."""
    parts: list[str] = []
    for name, src in SOURCES.items():
        base = schema_markdown(src, {}).splitlines()
        parts += [f"#### `{name}`", "", src.doc, "", *base, ""]
        for opts, label in _SCHEMA_VARIANTS.get(name, []):
            variant = schema_markdown(src, opts).splitlines()
            added = [line for line in variant if line not in base]
            dropped = [line.split("|")[1].strip() for line in base[2:] if line not in variant]
            parts += [f"{label}: adds", "", *base[:2], *added, ""]
            if dropped:
                parts += [f"and drops {', '.join(dropped)}.", ""]
    return "\n".join(parts)
