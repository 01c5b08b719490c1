"""Paimon's manifest records as :class:`lakestruct.avro.plan.Target` s: what the compiled Avro plan builds.

Manifest entries (:class:`ManifestEntry` with its :class:`DataFileMeta` and :class:`SimpleStats`), manifest-list
records (:class:`ManifestFileMeta`) and index manifest entries (:class:`IndexManifestEntry`); each mirrors the
checked conversion of :mod:`lakestruct.paimon.manifests` (``_manifest_entry``, ``_manifest_file_meta``,
``_index_entry``), which stays the reference.
"""

from __future__ import annotations

from ..avro.plan import EMPTY, RANGE, REQ, TUPLE, Target
from ..avro.plan import attr as _a
from .model import DataFileMeta, DeletionVectorMeta, IndexFileMeta, IndexManifestEntry, ManifestEntry, ManifestFileMeta, SimpleStats

__all__ = ["ENTRY", "INDEX_ENTRY", "MANIFEST_FILE", "TARGETS"]

STATS = Target(SimpleStats, (_a("min_values", "_MIN_VALUES", "bytes", REQ), _a("max_values", "_MAX_VALUES", "bytes", REQ),
                             _a("null_counts", "_NULL_COUNTS", "counts", TUPLE)))
DATA_FILE = Target(DataFileMeta, (
    _a("file_name", "_FILE_NAME", "str", REQ), _a("file_size", "_FILE_SIZE", "int", REQ), _a("row_count", "_ROW_COUNT", "int", REQ),
    _a("min_key", "_MIN_KEY", "bytes", REQ), _a("max_key", "_MAX_KEY", "bytes", REQ), _a("key_stats", "_KEY_STATS", STATS),
    _a("value_stats", "_VALUE_STATS", STATS), _a("min_sequence_number", "_MIN_SEQUENCE_NUMBER", "int", REQ),
    _a("max_sequence_number", "_MAX_SEQUENCE_NUMBER", "int", REQ), _a("schema_id", "_SCHEMA_ID", "int", REQ),
    _a("level", "_LEVEL", "int", REQ), _a("extra_files", "_EXTRA_FILES", "strs", TUPLE | EMPTY),
    _a("creation_time", "_CREATION_TIME", "time"), _a("delete_row_count", "_DELETE_ROW_COUNT", "int"),
    _a("embedded_index", "_EMBEDDED_FILE_INDEX", "bytes"), _a("file_source", "_FILE_SOURCE", "int"),
    _a("value_stats_cols", "_VALUE_STATS_COLS", "strs", TUPLE), _a("external_path", "_EXTERNAL_PATH", "str"),
    _a("first_row_id", "_FIRST_ROW_ID", "int"), _a("write_cols", "_WRITE_COLS", "strs", TUPLE)))
#: manifest entries (``read._manifest_entry``)
ENTRY = Target(ManifestEntry, (
    _a("kind", "_KIND", "int", REQ | RANGE, 0, 1), _a("partition", "_PARTITION", "bytes", REQ), _a("bucket", "_BUCKET", "int", REQ),
    _a("total_buckets", "_TOTAL_BUCKETS", "int", REQ), _a("file", "_FILE", DATA_FILE, REQ),
    _a("version", "_VERSION", "int", REQ | RANGE, 2, 2)))
#: manifest-list records (``read._manifest_file_meta``)
MANIFEST_FILE = Target(ManifestFileMeta, (
    _a("file_name", "_FILE_NAME", "str", REQ), _a("file_size", "_FILE_SIZE", "int", REQ),
    _a("num_added_files", "_NUM_ADDED_FILES", "int", REQ), _a("num_deleted_files", "_NUM_DELETED_FILES", "int", REQ),
    _a("partition_stats", "_PARTITION_STATS", STATS), _a("schema_id", "_SCHEMA_ID", "int", REQ),
    _a("min_bucket", "_MIN_BUCKET", "int"), _a("max_bucket", "_MAX_BUCKET", "int"), _a("min_level", "_MIN_LEVEL", "int"),
    _a("max_level", "_MAX_LEVEL", "int"), _a("min_row_id", "_MIN_ROW_ID", "int"), _a("max_row_id", "_MAX_ROW_ID", "int"),
    _a("version", "_VERSION", "int", REQ | RANGE, 2, 2)))
DV_META = Target(DeletionVectorMeta, (_a("data_file_name", "f0", "str", REQ), _a("offset", "f1", "int", REQ),
                                      _a("length", "f2", "int", REQ), _a("cardinality", "_CARDINALITY", "int")))
INDEX_FILE = Target(IndexFileMeta, (
    _a("index_type", "_INDEX_TYPE", "str", REQ), _a("file_name", "_FILE_NAME", "str", REQ), _a("file_size", "_FILE_SIZE", "int", REQ),
    _a("row_count", "_ROW_COUNT", "int", REQ), _a("dv_ranges", "_DELETIONS_VECTORS_RANGES", [DV_META], TUPLE),
    _a("external_path", "_EXTERNAL_PATH", "str"), _a("global_index", "_GLOBAL_INDEX", "none")))
#: index manifest entries (``read._index_entry``); a global index (kept as fastavro's dict) is left to fastavro
INDEX_ENTRY = Target(IndexManifestEntry, (
    _a("kind", "_KIND", "int", REQ | RANGE, 0, 1), _a("partition", "_PARTITION", "bytes", REQ), _a("bucket", "_BUCKET", "int", REQ),
    _a("index_file", None, INDEX_FILE), _a("version", "_VERSION", "int", REQ | RANGE, 1, 1)))
#: by the names paimon.manifests uses
TARGETS = {"entry": ENTRY, "manifest-file": MANIFEST_FILE, "index-entry": INDEX_ENTRY}
