"""Manifests and manifest lists written from the models as they are (the counterpart of :mod:`.manifest`), with the
Avro schemas of the spec (field ids, v1-v3 differences); records encoded by fastavro.

The hypothesis round trips hold the readers to these schemas (model -> Avro -> model), and the tests build table
states the writers at hand cannot produce (position delete files and deletion vectors next to pyiceberg-written
data, broken counts). :mod:`.write` (``TableWriter``) writes whole tables.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import UsageError
from .model import DataFile, ManifestEntry, ManifestFile

__all__ = ["PartitionType", "entry_schema", "list_schema", "manifest_bytes", "manifest_list_bytes"]

#: A partition field of a manifest's partition tuple: (name, partition field id, Avro type of its value)
PartitionType = Sequence[tuple[str, int, Any]]


def _opt(name: str, typ: Any, fid: int) -> dict[str, Any]:
    return {"name": name, "type": ["null", typ], "default": None, "field-id": fid}


def _req(name: str, typ: Any, fid: int) -> dict[str, Any]:
    return {"name": name, "type": typ, "field-id": fid}


def _map(name: str, fid: int, kid: int, vid: int, vtype: str) -> dict[str, Any]:
    rec = {"type": "array", "logicalType": "map",
           "items": {"type": "record", "name": f"k{kid}_v{vid}", "fields": [_req("key", "int", kid), _req("value", vtype, vid)]}}
    return _opt(name, rec, fid)


def _list(name: str, fid: int, eid: int, etype: str) -> dict[str, Any]:
    return _opt(name, {"type": "array", "items": etype, "element-id": eid}, fid)


def entry_schema(format_version: int, partition_type: PartitionType) -> dict[str, Any]:
    """The Avro schema of ``manifest_entry`` for a format version and a partition tuple (spec, "Manifests")."""
    if format_version not in (1, 2, 3):
        raise UsageError(f"format version {format_version} is not 1, 2 or 3")
    part = {"type": "record", "name": "r102", "fields": [_opt(n, t, fid) for n, fid, t in partition_type]}
    df: list[dict[str, Any]] = []
    if format_version >= 2:
        df.append(_req("content", "int", 134))
    df += [_req("file_path", "string", 100), _req("file_format", "string", 101), _req("partition", part, 102),
           _req("record_count", "long", 103), _req("file_size_in_bytes", "long", 104)]  # fmt: skip
    if format_version == 1:
        df.append(_req("block_size_in_bytes", "long", 105))
    df += [_map("column_sizes", 108, 117, 118, "long"), _map("value_counts", 109, 119, 120, "long"),
           _map("null_value_counts", 110, 121, 122, "long"), _map("nan_value_counts", 137, 138, 139, "long"),
           _map("lower_bounds", 125, 126, 127, "bytes"), _map("upper_bounds", 128, 129, 130, "bytes"),
           _opt("key_metadata", "bytes", 131), _list("split_offsets", 132, 133, "long")]  # fmt: skip
    if format_version >= 2:
        df.append(_list("equality_ids", 135, 136, "int"))
    df.append(_opt("sort_order_id", "int", 140))
    if format_version >= 3:
        df.append(_opt("first_row_id", "long", 142))
    if format_version >= 2:
        df.append(_opt("referenced_data_file", "string", 143))
    if format_version >= 3:
        df += [_opt("content_offset", "long", 144), _opt("content_size_in_bytes", "long", 145)]
    fields: list[dict[str, Any]] = [_req("status", "int", 0)]
    if format_version == 1:
        fields.append(_req("snapshot_id", "long", 1))
    else:
        fields += [_opt("snapshot_id", "long", 1), _opt("sequence_number", "long", 3), _opt("file_sequence_number", "long", 4)]
    fields.append(_req("data_file", {"type": "record", "name": "r2", "fields": df}, 2))
    return {"type": "record", "name": "manifest_entry", "fields": fields}


def list_schema(format_version: int) -> dict[str, Any]:
    """The Avro schema of ``manifest_file`` (a manifest list's records) for a format version."""
    summary = {"type": "array", "element-id": 508, "items": {"type": "record", "name": "r508", "fields": [
        _req("contains_null", "boolean", 509), _opt("contains_nan", "boolean", 518), _opt("lower_bound", "bytes", 510),
        _opt("upper_bound", "bytes", 511)]}}  # fmt: skip
    if format_version == 1:
        fields = [_req("manifest_path", "string", 500), _req("manifest_length", "long", 501), _req("partition_spec_id", "int", 502),
                  _req("added_snapshot_id", "long", 503), _opt("added_data_files_count", "int", 504),
                  _opt("existing_data_files_count", "int", 505), _opt("deleted_data_files_count", "int", 506),
                  _opt("partitions", summary, 507), _opt("added_rows_count", "long", 512), _opt("existing_rows_count", "long", 513),
                  _opt("deleted_rows_count", "long", 514), _opt("key_metadata", "bytes", 519)]  # fmt: skip
    else:
        fields = [_req("manifest_path", "string", 500), _req("manifest_length", "long", 501), _req("partition_spec_id", "int", 502),
                  _req("content", "int", 517), _req("sequence_number", "long", 515), _req("min_sequence_number", "long", 516),
                  _req("added_snapshot_id", "long", 503), _req("added_files_count", "int", 504),
                  _req("existing_files_count", "int", 505), _req("deleted_files_count", "int", 506),
                  _req("added_rows_count", "long", 512), _req("existing_rows_count", "long", 513),
                  _req("deleted_rows_count", "long", 514), _opt("partitions", summary, 507),
                  _opt("key_metadata", "bytes", 519)]  # fmt: skip
        if format_version >= 3:
            fields.append(_opt("first_row_id", "long", 520))
    return {"type": "record", "name": "manifest_file", "fields": fields}


def _kv(m: Any) -> Any:
    return None if m is None else [{"key": k, "value": v} for k, v in m.items()]


def _data_file_record(df: DataFile, format_version: int) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "content": df.content, "file_path": df.file_path, "file_format": df.file_format.upper(), "partition": dict(df.partition),
        "record_count": df.record_count, "file_size_in_bytes": df.file_size_in_bytes, "column_sizes": _kv(df.column_sizes),
        "value_counts": _kv(df.value_counts), "null_value_counts": _kv(df.null_value_counts),
        "nan_value_counts": _kv(df.nan_value_counts), "lower_bounds": _kv(df.lower_bounds), "upper_bounds": _kv(df.upper_bounds),
        "key_metadata": df.key_metadata, "split_offsets": None if df.split_offsets is None else list(df.split_offsets),
        "equality_ids": None if df.equality_ids is None else list(df.equality_ids), "sort_order_id": df.sort_order_id,
        "first_row_id": df.first_row_id, "referenced_data_file": df.referenced_data_file, "content_offset": df.content_offset,
        "content_size_in_bytes": df.content_size_in_bytes,
    }  # fmt: skip
    if format_version == 1:
        rec["block_size_in_bytes"] = 64 * 1024 * 1024
    return rec


def _container(schema: dict[str, Any], records: Iterable[dict[str, Any]], metadata: dict[str, str], codec: str) -> bytes:
    import fastavro

    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(schema), records, codec=codec, metadata=metadata)
    return buf.getvalue()


def manifest_bytes(entries: Iterable[ManifestEntry], *, format_version: int, partition_type: PartitionType, content: int = 0,
                   schema_json: str = '{"type":"struct","schema-id":0,"fields":[]}', spec_id: int = 0,
                   codec: str = "deflate") -> bytes:
    """A manifest (Avro object container) holding ``entries`` as they are: ``snapshot_id`` and the sequence numbers
    are written as given (None: inherited from the manifest list when read)."""
    schema = entry_schema(format_version, partition_type)
    spec = [{"name": n, "field-id": fid, "source-id": fid, "transform": "identity"} for n, fid, _ in partition_type]
    meta = {"schema": schema_json, "partition-spec": json.dumps(spec), "partition-spec-id": str(spec_id),
            "format-version": str(format_version)}
    if format_version >= 2:
        meta["content"] = "deletes" if content else "data"
    recs = ({"status": e.status, "snapshot_id": e.snapshot_id, "sequence_number": e.sequence_number,
             "file_sequence_number": e.file_sequence_number, "data_file": _data_file_record(e.data_file, format_version)}
            for e in entries)  # fmt: skip
    return _container(schema, recs, meta, codec)


def manifest_list_bytes(manifests: Iterable[ManifestFile], *, format_version: int, snapshot_id: int, parent_snapshot_id: int | None = None,
                        sequence_number: int = 0, codec: str = "deflate") -> bytes:
    """A manifest list (Avro object container) holding ``manifests``."""
    schema = list_schema(format_version)
    meta = {"snapshot-id": str(snapshot_id), "parent-snapshot-id": str(parent_snapshot_id), "format-version": str(format_version)}
    if format_version >= 2:
        meta["sequence-number"] = str(sequence_number)

    def rec(m: ManifestFile) -> dict[str, Any]:
        r: dict[str, Any] = {
            "manifest_path": m.manifest_path, "manifest_length": m.manifest_length, "partition_spec_id": m.partition_spec_id,
            "content": m.content, "sequence_number": m.sequence_number, "min_sequence_number": m.min_sequence_number,
            "added_snapshot_id": m.added_snapshot_id, "added_files_count": m.added_files_count,
            "existing_files_count": m.existing_files_count, "deleted_files_count": m.deleted_files_count,
            "added_rows_count": m.added_rows_count, "existing_rows_count": m.existing_rows_count,
            "deleted_rows_count": m.deleted_rows_count, "key_metadata": m.key_metadata, "first_row_id": m.first_row_id,
            "partitions": None if m.partitions is None else [
                {"contains_null": p.contains_null, "contains_nan": p.contains_nan, "lower_bound": p.lower_bound,
                 "upper_bound": p.upper_bound} for p in m.partitions],
        }  # fmt: skip
        if format_version == 1:
            for new, old in (("added_files_count", "added_data_files_count"), ("existing_files_count", "existing_data_files_count"),
                             ("deleted_files_count", "deleted_data_files_count")):
                r[old] = r.pop(new)
        return r

    return _container(schema, (rec(m) for m in manifests), meta, codec)
