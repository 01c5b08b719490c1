"""Planning's projection of Iceberg manifest entries as :class:`lakestruct.avro.plan.Target` s: what the compiled
Avro plan (``avro/_plan_c.pyx``) builds from a data manifest's blocks without a dict per record.

Scan planning needs an entry's status, snapshot id, sequence numbers and its data file's content, path, format,
partition, record count, size, ``split_offsets``, ``equality_ids``, ``sort_order_id``, ``key_metadata``,
``first_row_id``, ``referenced_data_file`` and DV range; the column metrics (sizes, counts, bounds) are stepped over,
not built (:func:`planned_entries` returns entries whose metrics are None). Partition values are built when every
partition field is an int, long, string or bytes (possibly null); any other partition type (a ``date`` of a day
transform, a boolean, a decimal...) has no plan.

The reference is :func:`lakestruct.iceberg.manifest.iter_manifest`'s checked reading of fastavro's records; this
module mirrors its fast path (inheritance of snapshot ids, sequence numbers and ``first_row_id``) and gives up (None)
on anything unusual, which the reference then reads and names. tests/iceberg/test_planning.py holds both to the same
entries.
"""

from __future__ import annotations

import dataclasses
import json
import keyword
from dataclasses import dataclass
from typing import Any

from ..avro.container import AvroFile
from ..avro.plan import COMPILED, RANGE, REQ, TUPLE, Target, decode_block, plan_for
from ..avro.plan import attr as _a
from .model import DataFile, DataFileContent, EntryStatus, ManifestEntry, ManifestFile

__all__ = ["COMPILED", "planned_entries"]

_LONG_MAX = 2**63 - 1


@dataclass(frozen=True)
class _DataFileRow:
    content: int | None
    file_path: str
    file_format: str
    partition: Any
    record_count: int
    file_size_in_bytes: int
    key_metadata: bytes | None
    split_offsets: tuple[int | None, ...] | None
    equality_ids: tuple[int | None, ...] | None
    sort_order_id: int | None
    first_row_id: int | None
    referenced_data_file: str | None
    content_offset: int | None
    content_size_in_bytes: int | None


@dataclass(frozen=True)
class _EntryRow:
    status: int
    snapshot_id: int | None
    sequence_number: int | None
    file_sequence_number: int | None
    data_file: _DataFileRow


def _entry_target(partition: Target) -> Target:
    data_file = Target(_DataFileRow, (
        _a("content", "content", "int", RANGE, 0, 2), _a("file_path", "file_path", "str", REQ),
        _a("file_format", "file_format", "str", REQ), _a("partition", "partition", partition, REQ),
        _a("record_count", "record_count", "int", REQ | RANGE, 0, _LONG_MAX),
        _a("file_size_in_bytes", "file_size_in_bytes", "int", REQ | RANGE, 0, _LONG_MAX),
        _a("key_metadata", "key_metadata", "bytes"), _a("split_offsets", "split_offsets", "counts", TUPLE),
        _a("equality_ids", "equality_ids", "counts", TUPLE), _a("sort_order_id", "sort_order_id", "int"),
        _a("first_row_id", "first_row_id", "int"), _a("referenced_data_file", "referenced_data_file", "str"),
        _a("content_offset", "content_offset", "int", RANGE, 0, _LONG_MAX),
        _a("content_size_in_bytes", "content_size_in_bytes", "int", RANGE, 0, _LONG_MAX)))  # fmt: skip
    return Target(_EntryRow, (
        _a("status", "status", "int", REQ | RANGE, 0, 2), _a("snapshot_id", "snapshot_id", "int"),
        _a("sequence_number", "sequence_number", "int"), _a("file_sequence_number", "file_sequence_number", "int"),
        _a("data_file", "data_file", data_file, REQ)))  # fmt: skip


_KINDS = {"int": "int", "long": "int", "string": "str", "bytes": "bytes"}
#: the entry target of each writer schema (by its JSON text): None when its partition has no plan
_TARGETS: dict[bytes, Target | None] = {}
_ROW_CLASSES: dict[tuple[str, ...], type] = {}


def _partition_kind(t: Any) -> str | None:
    """The target kind of a partition field's Avro type (a primitive or a union of it with null), or None."""
    if isinstance(t, list):
        rest = [b for b in t if b != "null" and b != {"type": "null"}]
        return _partition_kind(rest[0]) if len(rest) == 1 and len(t) == 2 else None
    if isinstance(t, dict):
        if "logicalType" in t or not isinstance(t.get("type"), str):
            return None
        t = t["type"]
    return _KINDS.get(t) if isinstance(t, str) else None


def _target_for(raw_schema: bytes) -> Target | None:
    if raw_schema in _TARGETS:
        return _TARGETS[raw_schema]
    target = None
    try:
        schema = json.loads(raw_schema.decode("utf-8"))
        df = next(f for f in schema["fields"] if f["name"] == "data_file")["type"]
        part = next(f for f in df["fields"] if f["name"] == "partition")["type"]
        if isinstance(part, dict) and part.get("type") == "record":
            names = tuple(f["name"] for f in part["fields"])
            kinds = [_partition_kind(f["type"]) for f in part["fields"]]
            usable = all(isinstance(n, str) and n.isidentifier() and not keyword.iskeyword(n) and not n.startswith("__") for n in names)
            if None not in kinds and len(set(names)) == len(names) and usable:
                cls = _ROW_CLASSES.get(names)
                if cls is None:
                    cls = _ROW_CLASSES.setdefault(names, dataclasses.make_dataclass("_PartitionRow", [(n, Any) for n in names],
                                                                                    frozen=True))
                target = _entry_target(Target(cls, tuple(_a(n, n, k) for n, k in zip(names, kinds, strict=True))))
    except (ValueError, KeyError, TypeError, StopIteration, AttributeError):
        target = None
    if len(_TARGETS) < 64:
        _TARGETS[raw_schema] = target
    return target


class _Unusual(Exception):
    """Something the reference path must read (and name)."""


def planned_entries(data: bytes, *, name: str = "", manifest: ManifestFile | None, version: int, spec_id: int | None,
                    live_only: bool, deletes: bool = False) -> list[ManifestEntry] | None:
    """The entries of a data manifest (``data``, the whole file) by the compiled plan, column metrics not read; None
    when there is no plan for its schema or anything in it is unusual (then the reference reads it). ``deletes``: a
    delete manifest, read so only when it holds deletion vectors and equality delete files (a position delete file's
    ``file_path`` bounds say which data files it applies to: its manifest is read with the metrics)."""
    if not COMPILED:
        return None
    f = AvroFile(data, name=name or None)
    f.parsed_schema()  # the schema must parse with fastavro either way (avro.schema)
    target = _target_for(f.raw_schema)
    plan = plan_for(f.raw_schema, target) if target is not None else None
    if plan is None:
        return None
    out: list[ManifestEntry] = []
    next_row_id = manifest.first_row_id if manifest is not None else None
    try:
        for block in f.blocks():
            rows = decode_block(block.body, block.count, plan, f.max_items)
            if rows is None:
                return None
            for r in rows:
                status = r.status
                raw_sid, raw_seq, raw_fseq = r.snapshot_id, r.sequence_number, r.file_sequence_number
                if raw_sid is None and version == 1:
                    raise _Unusual
                if live_only and status == EntryStatus.DELETED:
                    continue
                d = r.data_file
                content = d.content or 0
                off, length = d.content_offset, d.content_size_in_bytes
                if (off is None) != (length is None) or (off is not None and content != 1):
                    raise _Unusual
                if deletes:
                    if version < 2 or content == DataFileContent.DATA or (content == DataFileContent.POSITION_DELETES and off is None):
                        raise _Unusual  # a data file in a delete manifest (the reference names it), a position delete file
                elif version >= 2 and content != DataFileContent.DATA:
                    raise _Unusual  # a delete file in a data manifest: the reference names it
                first = d.first_row_id
                sid, seq, fseq = raw_sid, raw_seq, raw_fseq
                if manifest is not None:
                    sid, seq, fseq, missing = manifest.inherit(version, status, sid, seq, fseq)
                    if missing is not None:
                        raise _Unusual  # the reference names the null sequence number
                    if content == DataFileContent.DATA and next_row_id is not None and first is None:
                        first = next_row_id
                        next_row_id += d.record_count
                df = DataFile(content, d.file_path, d.file_format.lower(), dict(vars(d.partition)), d.record_count, d.file_size_in_bytes,
                              None, None, None, None, None, None, d.key_metadata, d.split_offsets, d.equality_ids, d.sort_order_id,
                              first, d.referenced_data_file, off, length, spec_id)
                out.append(ManifestEntry(status, sid, seq, fseq, df, raw_sid, raw_seq, raw_fseq))
    except _Unusual:
        return None
    return out
