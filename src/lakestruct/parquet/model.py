"""Typed, frozen models of Parquet's Thrift metadata (parquet-format ``parquet.thrift``).

Attribute names are the IDL's field names (``logicalType``, ``numBytes`` ...), so
``tests/parquet/test_thrift.py`` can hold every model to our IDL
(``thrift_idl/parquet.thrift``, loaded by thriftpy2). Each model lists its wire
fields in ``_THRIFT`` as ``(field id, name, kind, required)``.

Forward compatibility: fields a model does not know are kept in ``unknown`` as
``(field id, wire type, raw value)`` triples, and enum values a model does not know
stay plain ``int`` (``bad_data/PARQUET-1481.parquet`` has ``Type`` = -7).
Unions are models whose fields are all optional (one is set).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, ClassVar

from ..thrift.compact import RawEncoded

__all__ = [
    "Type",
    "ConvertedType",
    "FieldRepetitionType",
    "Encoding",
    "CompressionCodec",
    "PageType",
    "BoundaryOrder",
    "EdgeInterpolationAlgorithm",
    "ThriftModel",
    "Empty",
    "DecimalType",
    "TimeUnit",
    "TimeType",
    "TimestampType",
    "IntType",
    "VariantType",
    "GeometryType",
    "GeographyType",
    "LogicalType",
    "SchemaElement",
    "KeyValue",
    "SortingColumn",
    "PageEncodingStats",
    "Statistics",
    "SizeStatistics",
    "BoundingBox",
    "GeospatialStatistics",
    "ColumnMetaData",
    "EncryptionWithColumnKey",
    "ColumnCryptoMetaData",
    "ColumnChunk",
    "RowGroup",
    "ColumnOrder",
    "AesGcmV1",
    "AesGcmCtrV1",
    "EncryptionAlgorithm",
    "FileMetaData",
    "FileCryptoMetaData",
    "DataPageHeader",
    "IndexPageHeader",
    "DictionaryPageHeader",
    "DataPageHeaderV2",
    "PageHeader",
    "PageLocation",
    "OffsetIndex",
    "ColumnIndex",
    "BloomFilterAlgorithm",
    "BloomFilterHash",
    "BloomFilterCompression",
    "BloomFilterHeader",
    "MODELS",
    "enum_name",
]


class Type(IntEnum):
    BOOLEAN = 0
    INT32 = 1
    INT64 = 2
    INT96 = 3
    FLOAT = 4
    DOUBLE = 5
    BYTE_ARRAY = 6
    FIXED_LEN_BYTE_ARRAY = 7


class ConvertedType(IntEnum):
    UTF8 = 0
    MAP = 1
    MAP_KEY_VALUE = 2
    LIST = 3
    ENUM = 4
    DECIMAL = 5
    DATE = 6
    TIME_MILLIS = 7
    TIME_MICROS = 8
    TIMESTAMP_MILLIS = 9
    TIMESTAMP_MICROS = 10
    UINT_8 = 11
    UINT_16 = 12
    UINT_32 = 13
    UINT_64 = 14
    INT_8 = 15
    INT_16 = 16
    INT_32 = 17
    INT_64 = 18
    JSON = 19
    BSON = 20
    INTERVAL = 21


class FieldRepetitionType(IntEnum):
    REQUIRED = 0
    OPTIONAL = 1
    REPEATED = 2


class Encoding(IntEnum):
    PLAIN = 0
    GROUP_VAR_INT = 1
    PLAIN_DICTIONARY = 2
    RLE = 3
    BIT_PACKED = 4
    DELTA_BINARY_PACKED = 5
    DELTA_LENGTH_BYTE_ARRAY = 6
    DELTA_BYTE_ARRAY = 7
    RLE_DICTIONARY = 8
    BYTE_STREAM_SPLIT = 9
    ALP = 10


class CompressionCodec(IntEnum):
    UNCOMPRESSED = 0
    SNAPPY = 1
    GZIP = 2
    LZO = 3
    BROTLI = 4
    LZ4 = 5
    ZSTD = 6
    LZ4_RAW = 7


class PageType(IntEnum):
    DATA_PAGE = 0
    INDEX_PAGE = 1
    DICTIONARY_PAGE = 2
    DATA_PAGE_V2 = 3


class BoundaryOrder(IntEnum):
    UNORDERED = 0
    ASCENDING = 1
    DESCENDING = 2


class EdgeInterpolationAlgorithm(IntEnum):
    SPHERICAL = 0
    VINCENTY = 1
    THOMAS = 2
    ANDOYER = 3
    KARNEY = 4


def enum_name(v: int | IntEnum | None) -> str | None:
    """The enum member's name, or the number as text for a value the enum does not know."""
    if v is None:
        return None
    if isinstance(v, IntEnum):
        return v.name
    return str(v)


Unknown = tuple[tuple[int, int, Any], ...]


@dataclass(frozen=True, kw_only=True)
class ThriftModel:
    """Base of every model: ``unknown`` keeps the fields this model does not know."""

    #: (field id, attribute name, kind, required); kinds: see ``lakestruct.parquet.thrift_codec``
    _THRIFT: ClassVar[tuple[tuple[int, str, Any, bool], ...]] = ()
    unknown: Unknown = field(default=(), compare=True, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict (bytes as hex, enums as names), absent fields left out."""
        out: dict[str, Any] = {}
        for _fid, name, _kind, _req in self._THRIFT:
            v = getattr(self, name)
            if v is not None:
                out[name] = _jsonable(v)
        if self.unknown:
            out["unknown"] = [{"id": fid, "type": t, "value": _jsonable(v)} for fid, t, v in self.unknown]
        return out


def _jsonable(v: Any) -> Any:
    if isinstance(v, ThriftModel):
        return v.to_dict()
    if isinstance(v, RawEncoded):  # an unknown container field, kept encoded
        return {"encoded": v.data.hex()}
    if isinstance(v, IntEnum):
        return v.name
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, (tuple, list)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, float) and v != v:
        return "NaN"
    return v


# kinds: "bool" "i8" "i16" "i32" "i64" "double" "binary" "string" ("enum", E) ("struct", M) ("list", kind)


@dataclass(frozen=True, kw_only=True)
class Empty(ThriftModel):
    """An empty struct (``StringType {}``, ``TypeDefinedOrder {}``, ``SplitBlockAlgorithm {}`` ...)."""


def _e() -> tuple[str, type[Empty]]:
    return ("struct", Empty)


@dataclass(frozen=True, kw_only=True)
class DecimalType(ThriftModel):
    scale: int | None = None
    precision: int | None = None
    _THRIFT = ((1, "scale", "i32", True), (2, "precision", "i32", True))


@dataclass(frozen=True, kw_only=True)
class TimeUnit(ThriftModel):
    MILLIS: Empty | None = None
    MICROS: Empty | None = None
    NANOS: Empty | None = None
    _THRIFT = ((1, "MILLIS", _e(), False), (2, "MICROS", _e(), False), (3, "NANOS", _e(), False))


@dataclass(frozen=True, kw_only=True)
class TimeType(ThriftModel):
    isAdjustedToUTC: bool | None = None
    unit: TimeUnit | None = None
    _THRIFT = ((1, "isAdjustedToUTC", "bool", True), (2, "unit", ("struct", TimeUnit), True))


@dataclass(frozen=True, kw_only=True)
class TimestampType(ThriftModel):
    isAdjustedToUTC: bool | None = None
    unit: TimeUnit | None = None
    _THRIFT = ((1, "isAdjustedToUTC", "bool", True), (2, "unit", ("struct", TimeUnit), True))


@dataclass(frozen=True, kw_only=True)
class IntType(ThriftModel):
    bitWidth: int | None = None
    isSigned: bool | None = None
    _THRIFT = ((1, "bitWidth", "i8", True), (2, "isSigned", "bool", True))


@dataclass(frozen=True, kw_only=True)
class VariantType(ThriftModel):
    specification_version: int | None = None
    _THRIFT = ((1, "specification_version", "i8", False),)


@dataclass(frozen=True, kw_only=True)
class GeometryType(ThriftModel):
    crs: str | None = None
    _THRIFT = ((1, "crs", "string", False),)


@dataclass(frozen=True, kw_only=True)
class GeographyType(ThriftModel):
    crs: str | None = None
    algorithm: EdgeInterpolationAlgorithm | int | None = None
    _THRIFT = ((1, "crs", "string", False), (2, "algorithm", ("enum", EdgeInterpolationAlgorithm), False))


@dataclass(frozen=True, kw_only=True)
class LogicalType(ThriftModel):
    """Union: exactly one member is set (an unknown member lands in ``unknown``)."""

    STRING: Empty | None = None
    MAP: Empty | None = None
    LIST: Empty | None = None
    ENUM: Empty | None = None
    DECIMAL: DecimalType | None = None
    DATE: Empty | None = None
    TIME: TimeType | None = None
    TIMESTAMP: TimestampType | None = None
    INTEGER: IntType | None = None
    UNKNOWN: Empty | None = None
    JSON: Empty | None = None
    BSON: Empty | None = None
    UUID: Empty | None = None
    FLOAT16: Empty | None = None
    VARIANT: VariantType | None = None
    GEOMETRY: GeometryType | None = None
    GEOGRAPHY: GeographyType | None = None
    FILE: Empty | None = None
    _THRIFT = (
        (1, "STRING", _e(), False),
        (2, "MAP", _e(), False),
        (3, "LIST", _e(), False),
        (4, "ENUM", _e(), False),
        (5, "DECIMAL", ("struct", DecimalType), False),
        (6, "DATE", _e(), False),
        (7, "TIME", ("struct", TimeType), False),
        (8, "TIMESTAMP", ("struct", TimestampType), False),
        (10, "INTEGER", ("struct", IntType), False),
        (11, "UNKNOWN", _e(), False),
        (12, "JSON", _e(), False),
        (13, "BSON", _e(), False),
        (14, "UUID", _e(), False),
        (15, "FLOAT16", _e(), False),
        (16, "VARIANT", ("struct", VariantType), False),
        (17, "GEOMETRY", ("struct", GeometryType), False),
        (18, "GEOGRAPHY", ("struct", GeographyType), False),
        (19, "FILE", _e(), False),
    )

    @property
    def member(self) -> str | None:
        """The name of the set member (None for an unknown member)."""
        for _fid, name, _k, _r in self._THRIFT:
            if getattr(self, name) is not None:
                return name
        return None


@dataclass(frozen=True, kw_only=True)
class SchemaElement(ThriftModel):
    type: Type | int | None = None
    type_length: int | None = None
    repetition_type: FieldRepetitionType | int | None = None
    name: str = ""
    num_children: int | None = None
    converted_type: ConvertedType | int | None = None
    scale: int | None = None
    precision: int | None = None
    field_id: int | None = None
    logicalType: LogicalType | None = None
    _THRIFT = (
        (1, "type", ("enum", Type), False),
        (2, "type_length", "i32", False),
        (3, "repetition_type", ("enum", FieldRepetitionType), False),
        (4, "name", "string", True),
        (5, "num_children", "i32", False),
        (6, "converted_type", ("enum", ConvertedType), False),
        (7, "scale", "i32", False),
        (8, "precision", "i32", False),
        (9, "field_id", "i32", False),
        (10, "logicalType", ("struct", LogicalType), False),
    )


@dataclass(frozen=True, kw_only=True)
class KeyValue(ThriftModel):
    key: str = ""
    value: str | None = None
    _THRIFT = ((1, "key", "string", True), (2, "value", "string", False))


@dataclass(frozen=True, kw_only=True)
class SortingColumn(ThriftModel):
    column_idx: int = 0
    descending: bool = False
    nulls_first: bool = False
    _THRIFT = ((1, "column_idx", "i32", True), (2, "descending", "bool", True), (3, "nulls_first", "bool", True))


@dataclass(frozen=True, kw_only=True)
class PageEncodingStats(ThriftModel):
    page_type: PageType | int = 0
    encoding: Encoding | int = 0
    count: int = 0
    _THRIFT = ((1, "page_type", ("enum", PageType), True), (2, "encoding", ("enum", Encoding), True), (3, "count", "i32", True))


@dataclass(frozen=True, kw_only=True)
class Statistics(ThriftModel):
    max: bytes | None = None
    min: bytes | None = None
    null_count: int | None = None
    distinct_count: int | None = None
    max_value: bytes | None = None
    min_value: bytes | None = None
    is_max_value_exact: bool | None = None
    is_min_value_exact: bool | None = None
    nan_count: int | None = None
    _THRIFT = (
        (1, "max", "binary", False),
        (2, "min", "binary", False),
        (3, "null_count", "i64", False),
        (4, "distinct_count", "i64", False),
        (5, "max_value", "binary", False),
        (6, "min_value", "binary", False),
        (7, "is_max_value_exact", "bool", False),
        (8, "is_min_value_exact", "bool", False),
        (9, "nan_count", "i64", False),
    )


@dataclass(frozen=True, kw_only=True)
class SizeStatistics(ThriftModel):
    unencoded_byte_array_data_bytes: int | None = None
    repetition_level_histogram: tuple[int, ...] | None = None
    definition_level_histogram: tuple[int, ...] | None = None
    _THRIFT = (
        (1, "unencoded_byte_array_data_bytes", "i64", False),
        (2, "repetition_level_histogram", ("list", "i64"), False),
        (3, "definition_level_histogram", ("list", "i64"), False),
    )


@dataclass(frozen=True, kw_only=True)
class BoundingBox(ThriftModel):
    xmin: float = 0.0
    xmax: float = 0.0
    ymin: float = 0.0
    ymax: float = 0.0
    zmin: float | None = None
    zmax: float | None = None
    mmin: float | None = None
    mmax: float | None = None
    _THRIFT = (
        (1, "xmin", "double", True),
        (2, "xmax", "double", True),
        (3, "ymin", "double", True),
        (4, "ymax", "double", True),
        (5, "zmin", "double", False),
        (6, "zmax", "double", False),
        (7, "mmin", "double", False),
        (8, "mmax", "double", False),
    )


@dataclass(frozen=True, kw_only=True)
class GeospatialStatistics(ThriftModel):
    bbox: BoundingBox | None = None
    geospatial_types: tuple[int, ...] | None = None
    _THRIFT = ((1, "bbox", ("struct", BoundingBox), False), (2, "geospatial_types", ("list", "i32"), False))


@dataclass(frozen=True, kw_only=True)
class ColumnMetaData(ThriftModel):
    type: Type | int = 0
    encodings: tuple[Encoding | int, ...] = ()
    path_in_schema: tuple[str, ...] = ()
    codec: CompressionCodec | int = 0
    num_values: int = 0
    total_uncompressed_size: int = 0
    total_compressed_size: int = 0
    key_value_metadata: tuple[KeyValue, ...] | None = None
    data_page_offset: int = 0
    index_page_offset: int | None = None
    dictionary_page_offset: int | None = None
    statistics: Statistics | None = None
    encoding_stats: tuple[PageEncodingStats, ...] | None = None
    bloom_filter_offset: int | None = None
    bloom_filter_length: int | None = None
    size_statistics: SizeStatistics | None = None
    geospatial_statistics: GeospatialStatistics | None = None
    _THRIFT = (
        (1, "type", ("enum", Type), True),
        (2, "encodings", ("list", ("enum", Encoding)), True),
        (3, "path_in_schema", ("list", "string"), True),
        (4, "codec", ("enum", CompressionCodec), True),
        (5, "num_values", "i64", True),
        (6, "total_uncompressed_size", "i64", True),
        (7, "total_compressed_size", "i64", True),
        (8, "key_value_metadata", ("list", ("struct", KeyValue)), False),
        (9, "data_page_offset", "i64", True),
        (10, "index_page_offset", "i64", False),
        (11, "dictionary_page_offset", "i64", False),
        (12, "statistics", ("struct", Statistics), False),
        (13, "encoding_stats", ("list", ("struct", PageEncodingStats)), False),
        (14, "bloom_filter_offset", "i64", False),
        (15, "bloom_filter_length", "i32", False),
        (16, "size_statistics", ("struct", SizeStatistics), False),
        (17, "geospatial_statistics", ("struct", GeospatialStatistics), False),
    )


@dataclass(frozen=True, kw_only=True)
class EncryptionWithColumnKey(ThriftModel):
    path_in_schema: tuple[str, ...] = ()
    key_metadata: bytes | None = None
    _THRIFT = ((1, "path_in_schema", ("list", "string"), True), (2, "key_metadata", "binary", False))


@dataclass(frozen=True, kw_only=True)
class ColumnCryptoMetaData(ThriftModel):
    ENCRYPTION_WITH_FOOTER_KEY: Empty | None = None
    ENCRYPTION_WITH_COLUMN_KEY: EncryptionWithColumnKey | None = None
    _THRIFT = (
        (1, "ENCRYPTION_WITH_FOOTER_KEY", _e(), False),
        (2, "ENCRYPTION_WITH_COLUMN_KEY", ("struct", EncryptionWithColumnKey), False),
    )


@dataclass(frozen=True, kw_only=True)
class ColumnChunk(ThriftModel):
    file_path: str | None = None
    file_offset: int = 0
    meta_data: ColumnMetaData | None = None
    offset_index_offset: int | None = None
    offset_index_length: int | None = None
    column_index_offset: int | None = None
    column_index_length: int | None = None
    crypto_metadata: ColumnCryptoMetaData | None = None
    encrypted_column_metadata: bytes | None = None
    _THRIFT = (
        (1, "file_path", "string", False),
        (2, "file_offset", "i64", False),  # required in the IDL, but written inconsistently; 0 when absent
        (3, "meta_data", ("struct", ColumnMetaData), False),
        (4, "offset_index_offset", "i64", False),
        (5, "offset_index_length", "i32", False),
        (6, "column_index_offset", "i64", False),
        (7, "column_index_length", "i32", False),
        (8, "crypto_metadata", ("struct", ColumnCryptoMetaData), False),
        (9, "encrypted_column_metadata", "binary", False),
    )


@dataclass(frozen=True, kw_only=True)
class RowGroup(ThriftModel):
    columns: tuple[ColumnChunk, ...] = ()
    total_byte_size: int = 0
    num_rows: int = 0
    sorting_columns: tuple[SortingColumn, ...] | None = None
    file_offset: int | None = None
    total_compressed_size: int | None = None
    ordinal: int | None = None
    _THRIFT = (
        (1, "columns", ("list", ("struct", ColumnChunk)), True),
        (2, "total_byte_size", "i64", True),
        (3, "num_rows", "i64", True),
        (4, "sorting_columns", ("list", ("struct", SortingColumn)), False),
        (5, "file_offset", "i64", False),
        (6, "total_compressed_size", "i64", False),
        (7, "ordinal", "i16", False),
    )


@dataclass(frozen=True, kw_only=True)
class ColumnOrder(ThriftModel):
    TYPE_ORDER: Empty | None = None
    IEEE_754_TOTAL_ORDER: Empty | None = None
    INT96_TIMESTAMP_ORDER: Empty | None = None
    _THRIFT = ((1, "TYPE_ORDER", _e(), False), (2, "IEEE_754_TOTAL_ORDER", _e(), False), (3, "INT96_TIMESTAMP_ORDER", _e(), False))


@dataclass(frozen=True, kw_only=True)
class AesGcmV1(ThriftModel):
    aad_prefix: bytes | None = None
    aad_file_unique: bytes | None = None
    supply_aad_prefix: bool | None = None
    _THRIFT = ((1, "aad_prefix", "binary", False), (2, "aad_file_unique", "binary", False), (3, "supply_aad_prefix", "bool", False))


@dataclass(frozen=True, kw_only=True)
class AesGcmCtrV1(ThriftModel):
    aad_prefix: bytes | None = None
    aad_file_unique: bytes | None = None
    supply_aad_prefix: bool | None = None
    _THRIFT = ((1, "aad_prefix", "binary", False), (2, "aad_file_unique", "binary", False), (3, "supply_aad_prefix", "bool", False))


@dataclass(frozen=True, kw_only=True)
class EncryptionAlgorithm(ThriftModel):
    AES_GCM_V1: AesGcmV1 | None = None
    AES_GCM_CTR_V1: AesGcmCtrV1 | None = None
    _THRIFT = ((1, "AES_GCM_V1", ("struct", AesGcmV1), False), (2, "AES_GCM_CTR_V1", ("struct", AesGcmCtrV1), False))


@dataclass(frozen=True, kw_only=True)
class FileMetaData(ThriftModel):
    version: int = 0
    schema: tuple[SchemaElement, ...] = ()
    num_rows: int = 0
    row_groups: tuple[RowGroup, ...] = ()
    key_value_metadata: tuple[KeyValue, ...] | None = None
    created_by: str | None = None
    column_orders: tuple[ColumnOrder, ...] | None = None
    encryption_algorithm: EncryptionAlgorithm | None = None
    footer_signing_key_metadata: bytes | None = None
    _THRIFT = (
        (1, "version", "i32", True),
        (2, "schema", ("list", ("struct", SchemaElement)), True),
        (3, "num_rows", "i64", True),
        (4, "row_groups", ("list", ("struct", RowGroup)), True),
        (5, "key_value_metadata", ("list", ("struct", KeyValue)), False),
        (6, "created_by", "string", False),
        (7, "column_orders", ("list", ("struct", ColumnOrder)), False),
        (8, "encryption_algorithm", ("struct", EncryptionAlgorithm), False),
        (9, "footer_signing_key_metadata", "binary", False),
    )


@dataclass(frozen=True, kw_only=True)
class FileCryptoMetaData(ThriftModel):
    encryption_algorithm: EncryptionAlgorithm | None = None
    key_metadata: bytes | None = None
    _THRIFT = ((1, "encryption_algorithm", ("struct", EncryptionAlgorithm), True), (2, "key_metadata", "binary", False))


@dataclass(frozen=True, kw_only=True)
class DataPageHeader(ThriftModel):
    num_values: int = 0
    encoding: Encoding | int = 0
    definition_level_encoding: Encoding | int = 0
    repetition_level_encoding: Encoding | int = 0
    statistics: Statistics | None = None
    _THRIFT = (
        (1, "num_values", "i32", True),
        (2, "encoding", ("enum", Encoding), True),
        (3, "definition_level_encoding", ("enum", Encoding), True),
        (4, "repetition_level_encoding", ("enum", Encoding), True),
        (5, "statistics", ("struct", Statistics), False),
    )


@dataclass(frozen=True, kw_only=True)
class IndexPageHeader(ThriftModel):
    """Empty in parquet-format ("TODO")."""


@dataclass(frozen=True, kw_only=True)
class DictionaryPageHeader(ThriftModel):
    num_values: int = 0
    encoding: Encoding | int = 0
    is_sorted: bool | None = None
    _THRIFT = ((1, "num_values", "i32", True), (2, "encoding", ("enum", Encoding), True), (3, "is_sorted", "bool", False))


@dataclass(frozen=True, kw_only=True)
class DataPageHeaderV2(ThriftModel):
    num_values: int = 0
    num_nulls: int = 0
    num_rows: int = 0
    encoding: Encoding | int = 0
    definition_levels_byte_length: int = 0
    repetition_levels_byte_length: int = 0
    is_compressed: bool | None = None
    statistics: Statistics | None = None
    _THRIFT = (
        (1, "num_values", "i32", True),
        (2, "num_nulls", "i32", True),
        (3, "num_rows", "i32", True),
        (4, "encoding", ("enum", Encoding), True),
        (5, "definition_levels_byte_length", "i32", True),
        (6, "repetition_levels_byte_length", "i32", True),
        (7, "is_compressed", "bool", False),
        (8, "statistics", ("struct", Statistics), False),
    )

    @property
    def compressed(self) -> bool:
        """``is_compressed`` with its IDL default (true when absent)."""
        return self.is_compressed is not False


@dataclass(frozen=True, kw_only=True)
class PageHeader(ThriftModel):
    type: PageType | int = 0
    uncompressed_page_size: int = 0
    compressed_page_size: int = 0
    crc: int | None = None
    data_page_header: DataPageHeader | None = None
    index_page_header: IndexPageHeader | None = None
    dictionary_page_header: DictionaryPageHeader | None = None
    data_page_header_v2: DataPageHeaderV2 | None = None
    _THRIFT = (
        (1, "type", ("enum", PageType), True),
        (2, "uncompressed_page_size", "i32", True),
        (3, "compressed_page_size", "i32", True),
        (4, "crc", "i32", False),
        (5, "data_page_header", ("struct", DataPageHeader), False),
        (6, "index_page_header", ("struct", IndexPageHeader), False),
        (7, "dictionary_page_header", ("struct", DictionaryPageHeader), False),
        (8, "data_page_header_v2", ("struct", DataPageHeaderV2), False),
    )


@dataclass(frozen=True, kw_only=True)
class PageLocation(ThriftModel):
    offset: int = 0
    compressed_page_size: int = 0
    first_row_index: int = 0
    _THRIFT = ((1, "offset", "i64", True), (2, "compressed_page_size", "i32", True), (3, "first_row_index", "i64", True))


@dataclass(frozen=True, kw_only=True)
class OffsetIndex(ThriftModel):
    page_locations: tuple[PageLocation, ...] = ()
    unencoded_byte_array_data_bytes: tuple[int, ...] | None = None
    _THRIFT = (
        (1, "page_locations", ("list", ("struct", PageLocation)), True),
        (2, "unencoded_byte_array_data_bytes", ("list", "i64"), False),
    )


@dataclass(frozen=True, kw_only=True)
class ColumnIndex(ThriftModel):
    null_pages: tuple[bool, ...] = ()
    min_values: tuple[bytes, ...] = ()
    max_values: tuple[bytes, ...] = ()
    boundary_order: BoundaryOrder | int = 0
    null_counts: tuple[int, ...] | None = None
    repetition_level_histograms: tuple[int, ...] | None = None
    definition_level_histograms: tuple[int, ...] | None = None
    nan_counts: tuple[int, ...] | None = None
    _THRIFT = (
        (1, "null_pages", ("list", "bool"), True),
        (2, "min_values", ("list", "binary"), True),
        (3, "max_values", ("list", "binary"), True),
        (4, "boundary_order", ("enum", BoundaryOrder), True),
        (5, "null_counts", ("list", "i64"), False),
        (6, "repetition_level_histograms", ("list", "i64"), False),
        (7, "definition_level_histograms", ("list", "i64"), False),
        (8, "nan_counts", ("list", "i64"), False),
    )


@dataclass(frozen=True, kw_only=True)
class BloomFilterAlgorithm(ThriftModel):
    BLOCK: Empty | None = None
    _THRIFT = ((1, "BLOCK", _e(), False),)


@dataclass(frozen=True, kw_only=True)
class BloomFilterHash(ThriftModel):
    XXHASH: Empty | None = None
    _THRIFT = ((1, "XXHASH", _e(), False),)


@dataclass(frozen=True, kw_only=True)
class BloomFilterCompression(ThriftModel):
    UNCOMPRESSED: Empty | None = None
    _THRIFT = ((1, "UNCOMPRESSED", _e(), False),)


@dataclass(frozen=True, kw_only=True)
class BloomFilterHeader(ThriftModel):
    numBytes: int = 0
    algorithm: BloomFilterAlgorithm | None = None
    hash: BloomFilterHash | None = None
    compression: BloomFilterCompression | None = None
    _THRIFT = (
        (1, "numBytes", "i32", True),
        (2, "algorithm", ("struct", BloomFilterAlgorithm), True),
        (3, "hash", ("struct", BloomFilterHash), True),
        (4, "compression", ("struct", BloomFilterCompression), True),
    )


#: Every model by its IDL struct name (the empty structs share :class:`Empty`).
MODELS: dict[str, type[ThriftModel]] = {
    c.__name__: c
    for c in (
        DecimalType,
        TimeUnit,
        TimeType,
        TimestampType,
        IntType,
        VariantType,
        GeometryType,
        GeographyType,
        LogicalType,
        SchemaElement,
        KeyValue,
        SortingColumn,
        PageEncodingStats,
        Statistics,
        SizeStatistics,
        BoundingBox,
        GeospatialStatistics,
        ColumnMetaData,
        EncryptionWithColumnKey,
        ColumnCryptoMetaData,
        ColumnChunk,
        RowGroup,
        ColumnOrder,
        AesGcmV1,
        AesGcmCtrV1,
        EncryptionAlgorithm,
        FileMetaData,
        FileCryptoMetaData,
        DataPageHeader,
        IndexPageHeader,
        DictionaryPageHeader,
        DataPageHeaderV2,
        PageHeader,
        PageLocation,
        OffsetIndex,
        ColumnIndex,
        BloomFilterAlgorithm,
        BloomFilterHash,
        BloomFilterCompression,
        BloomFilterHeader,
    )
}
