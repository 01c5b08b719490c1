"""Apache Paimon tables from their bytes: schemas, snapshots, manifests, BinaryRow values, deletion vectors.

>>> import lakestruct as ls                                         # doctest: +SKIP
>>> t = ls.paimon.open_table("warehouse/db.db/orders")             # local path or fsspec URL
>>> t.snapshot().id, [s.id for s in t.snapshots()]
>>> for f in t.live_files():                                       # the data files of the latest snapshot
...     print(f.path, f.partition, f.bucket, f.level, f.row_count, f.deletion_file)
>>> t.deletion_vectors()                                           # {data file path: deleted positions (int64)}
>>> t.key_range(f), t.value_stats(f)                               # BinaryRows decoded with the file's schema
>>> t.might_contain(f, "v", "abc"), t.rows_with(f, "id", 7)          # data-file indexes: bloom filter, bitmap, BSI
"""

from __future__ import annotations

from . import read as read  # the former single module, kept as the re-export: paimon.read.X works
from .binrow import ROW_KINDS, Timestamp, decode_binary_row, decode_row_fields
from .dv import DvEntry, parse_dv_index, read_dv_entry
from .fileindex import FileIndex, IndexRef, Probe, parse_file_index, read_file_index
from .indexes import BitmapIndex, BloomFilter, BsiIndex, parse_bitmap, parse_bloom_filter, parse_bsi
from .manifests import read_data_manifest, read_index_manifest, read_manifest_list
from .meta import parse_schema, parse_snapshot
from .model import (
    ADD,
    DELETE,
    DataFileMeta,
    DeletionFile,
    DeletionVectorMeta,
    IndexFileMeta,
    IndexManifestEntry,
    LiveFile,
    ManifestEntry,
    ManifestFileMeta,
    Schema,
    SimpleStats,
    Snapshot,
)
from .table import ColumnStats, Table, jsonable, open_table, partition_path
from .types import DataField, DataType, parse_type
from .write import (
    encode_binary_row,
    encode_bitmap_index,
    encode_bloom_filter,
    encode_bsi_index,
    encode_dv_entry,
    encode_dv_index_file,
    encode_file_index,
    write_dv_index_file,
    write_file_index,
)

__all__ = [
    "ADD",
    "DELETE",
    "BitmapIndex",
    "BloomFilter",
    "BsiIndex",
    "Probe",
    "encode_bitmap_index",
    "encode_bloom_filter",
    "encode_bsi_index",
    "encode_file_index",
    "parse_bitmap",
    "parse_bloom_filter",
    "parse_bsi",
    "parse_file_index",
    "write_file_index",
    "ROW_KINDS",
    "ColumnStats",
    "DataField",
    "DataFileMeta",
    "DataType",
    "DeletionFile",
    "DeletionVectorMeta",
    "DvEntry",
    "FileIndex",
    "IndexFileMeta",
    "IndexManifestEntry",
    "IndexRef",
    "LiveFile",
    "ManifestEntry",
    "ManifestFileMeta",
    "Schema",
    "SimpleStats",
    "Snapshot",
    "Table",
    "Timestamp",
    "decode_binary_row",
    "decode_row_fields",
    "encode_binary_row",
    "encode_dv_entry",
    "encode_dv_index_file",
    "jsonable",
    "open_table",
    "parse_dv_index",
    "parse_schema",
    "parse_snapshot",
    "parse_type",
    "partition_path",
    "read_data_manifest",
    "read_dv_entry",
    "read_file_index",
    "read_index_manifest",
    "read_manifest_list",
    "write_dv_index_file",
]
