"""Reading Iceberg manifest lists and manifests (Avro object container files) into typed models.

:func:`read_manifest_list` returns every ``manifest_file`` of a snapshot's manifest list; :func:`iter_manifest` yields
a manifest's entries one at a time (only the one manifest's bytes are held), inheriting ``snapshot_id`` and the
sequence numbers from the manifest list's entry when they are null, as the spec requires:

- ``snapshot_id`` null: the manifest's ``added_snapshot_id``;
- ``sequence_number`` / ``file_sequence_number`` null and status ADDED: the manifest's ``sequence_number``
  (null with another status breaks ``iceberg.manifest.sequence-number``); v1 manifests have none: 0;
- ``first_row_id`` null in a data manifest with a ``first_row_id``: the manifest's, plus the record counts of the
  files before it that had none (v3 row lineage).

Errors are :class:`~lakestruct.errors.FormatError` named ``iceberg.manifest.*`` / ``iceberg.manifest-list.*`` (or
``avro.*`` for the container's framing) with the file and the field path (``entries[12].data_file.record_count``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import FormatError
from .model import DataFile, DataFileContent, EntryStatus, FieldSummary, ManifestContent, ManifestEntry, ManifestFile

__all__ = ["ManifestHeader", "iter_manifest", "read_avro", "read_manifest_header", "read_manifest_list"]

#: v1 manifest lists name the file counts ``*_data_files_count``
_LIST_ALIASES = {"added_data_files_count": "added_files_count", "existing_data_files_count": "existing_files_count",
                 "deleted_data_files_count": "deleted_files_count"}  # fmt: skip


def _err(msg: str, rule: str, path: str, offset: int | None = None) -> FormatError:
    return FormatError(msg, rule=rule, path=path, offset=offset)


def read_avro(data: bytes, name: str) -> tuple[dict[str, bytes], Any, Iterator[dict[str, Any]]]:
    """(header metadata, writer schema, records) of an Avro object container file: the one place manifests meet
    Avro (the ``avro`` room; its framing and decoding errors are the rules ``avro.*``, named with the file)."""
    from ..avro.container import AvroFile

    f = AvroFile.from_bytes(data, name=name or None)
    return f.metadata, f.schema, f.records()


def _int(rec: Mapping[str, Any], key: str, path: str, kind: str, *, required: bool = True) -> Any:
    v = rec.get(key)
    if v is None:
        if required:
            raise _err(f"required field '{key}' is missing or null", f"iceberg.{kind}.required-field", f"{path}.{key}")
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise _err(f"must be an integer, found {type(v).__name__}", f"iceberg.{kind}.field-type", f"{path}.{key}")
    return v


def _str(rec: Mapping[str, Any], key: str, path: str, kind: str, *, required: bool = True) -> Any:
    v = rec.get(key)
    if v is None:
        if required:
            raise _err(f"required field '{key}' is missing or null", f"iceberg.{kind}.required-field", f"{path}.{key}")
        return None
    if not isinstance(v, str):
        raise _err(f"must be a string, found {type(v).__name__}", f"iceberg.{kind}.field-type", f"{path}.{key}")
    return v


def manifest_file_from_record(rec: Mapping[str, Any], path: str, *, version: int = 2) -> ManifestFile:
    """One manifest list record (as decoded from Avro) as :class:`ManifestFile`."""
    r = {_LIST_ALIASES.get(k, k): v for k, v in rec.items()}
    v2 = version >= 2
    parts = r.get("partitions")
    summaries = None
    if parts is not None:
        if not isinstance(parts, list):
            raise _err("must be a list", "iceberg.manifest-list.field-type", f"{path}.partitions")
        summaries = tuple(FieldSummary(bool(p.get("contains_null")), p.get("contains_nan"), p.get("lower_bound"), p.get("upper_bound"))
                          for p in parts if isinstance(p, dict))
    content = _int(r, "content", path, "manifest-list", required=False) or 0
    if content not in (0, 1):
        raise _err(f"content {content} is neither 0 (data) nor 1 (deletes)", "iceberg.manifest-list.content", f"{path}.content")
    return ManifestFile(
        manifest_path=_str(r, "manifest_path", path, "manifest-list"),
        manifest_length=_int(r, "manifest_length", path, "manifest-list"),
        partition_spec_id=_int(r, "partition_spec_id", path, "manifest-list"),
        content=content,
        sequence_number=_int(r, "sequence_number", path, "manifest-list", required=v2) or 0,
        min_sequence_number=_int(r, "min_sequence_number", path, "manifest-list", required=v2) or 0,
        added_snapshot_id=_int(r, "added_snapshot_id", path, "manifest-list", required=v2),
        added_files_count=_int(r, "added_files_count", path, "manifest-list", required=v2),
        existing_files_count=_int(r, "existing_files_count", path, "manifest-list", required=v2),
        deleted_files_count=_int(r, "deleted_files_count", path, "manifest-list", required=v2),
        added_rows_count=_int(r, "added_rows_count", path, "manifest-list", required=v2),
        existing_rows_count=_int(r, "existing_rows_count", path, "manifest-list", required=v2),
        deleted_rows_count=_int(r, "deleted_rows_count", path, "manifest-list", required=v2),
        partitions=summaries,
        key_metadata=r.get("key_metadata"),
        first_row_id=_int(r, "first_row_id", path, "manifest-list", required=False),
    )


def read_manifest_list(data: bytes, *, name: str = "", version: int = 2) -> list[ManifestFile]:
    """Every ``manifest_file`` of a manifest list (``version``: the table's format version, for required fields)."""
    meta, _schema, records = read_avro(data, name)
    fv = meta.get("format-version")
    if fv is not None and fv.isdigit():
        version = int(fv)
    out = []
    try:
        for i, rec in enumerate(records):
            out.append(manifest_file_from_record(rec, f"manifests[{i}]", version=version))
    except FormatError as e:
        raise e.with_source(name) if name else e from None
    return out


class ManifestHeader:
    """What a manifest's Avro metadata says: format version, content, partition spec id and fields, schema."""

    __slots__ = ("content", "format_version", "partition_fields", "partition_spec_id", "schema")

    def __init__(self, meta: Mapping[str, bytes], name: str) -> None:
        def text(key: str) -> str | None:
            v = meta.get(key)
            return None if v is None else v.decode("utf-8", "replace")

        fv = text("format-version")
        self.format_version = int(fv) if fv is not None and fv.isdigit() else 1
        c = text("content")
        if c not in (None, "data", "deletes"):
            raise _err(f"content {c!r} is neither 'data' nor 'deletes'", "iceberg.manifest.content", "metadata[content]").with_source(name)
        self.content = ManifestContent.DELETES if c == "deletes" else ManifestContent.DATA
        sid = text("partition-spec-id")
        self.partition_spec_id = int(sid) if sid is not None and sid.lstrip("-").isdigit() else None
        self.partition_fields: Any = None
        self.schema: Any = None
        for key, attr in (("partition-spec", "partition_fields"), ("schema", "schema")):
            t = text(key)
            if t is not None:
                try:
                    setattr(self, attr, json.loads(t))
                except (ValueError, RecursionError):
                    raise _err(f"metadata[{key}] is not JSON", "iceberg.manifest.metadata", f"metadata[{key}]").with_source(name) from None


def read_manifest_header(data: bytes, *, name: str = "") -> ManifestHeader:
    meta, _schema, _records = read_avro(data, name)
    return ManifestHeader(meta, name)


def _id_map(v: Any, path: str) -> dict[int, Any] | None:
    """Avro maps with int keys are arrays of {key, value} records (Iceberg's encoding); some writers use maps."""
    if v is None:
        return None
    items = v.items() if isinstance(v, dict) else ((kv.get("key"), kv.get("value")) for kv in v if isinstance(kv, dict))
    out: dict[int, Any] = {}
    for k, x in items:
        try:
            out[int(k)] = x  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise _err(f"a key {k!r} that is not a field id", "iceberg.manifest.field-type", path) from None
    return out


def data_file_from_record(d: Mapping[str, Any], path: str, *, spec_id: int | None = None, version: int = 2) -> DataFile:
    """One ``data_file`` record as :class:`DataFile`: a fast path for well-formed records; anything unusual is
    decoded again by the checked path, which names the rule broken."""
    g = d.get
    content = g("content") or 0
    rc, size, fp, fmt = g("record_count"), g("file_size_in_bytes"), g("file_path"), g("file_format")
    off, length, part = g("content_offset"), g("content_size_in_bytes"), g("partition")
    if (type(content) is not int or content not in (0, 1, 2) or type(rc) is not int or rc < 0 or type(size) is not int or size < 0
            or type(fp) is not str or type(fmt) is not str or type(part) is not dict
            or (off is not None and (content != 1 or type(off) is not int or type(length) is not int or off < 0 or length < 0))
            or (off is None and length is not None)):
        return _checked_data_file(d, path, spec_id=spec_id, version=version)
    try:
        cs, vc, nc, nan, lo, hi = (_fast_map(g(k)) for k in _MAPS)
        split, eq = g("split_offsets"), g("equality_ids")
        sort_id, first, ref = g("sort_order_id"), g("first_row_id"), g("referenced_data_file")
        if (sort_id is not None and type(sort_id) is not int) or (first is not None and type(first) is not int) or (
                ref is not None and type(ref) is not str):
            raise TypeError
        return DataFile(content, fp, fmt.lower(), dict(part), rc, size, cs, vc, nc, nan, lo, hi, g("key_metadata"),
                        None if split is None else tuple(split), None if eq is None else tuple(eq), sort_id, first, ref, off, length,
                        spec_id)
    except (TypeError, ValueError, KeyError, AttributeError):
        return _checked_data_file(d, path, spec_id=spec_id, version=version)


def _fast_map(v: Any) -> dict[int, Any] | None:
    if v is None:
        return None
    if isinstance(v, list):
        return {int(kv["key"]): kv["value"] for kv in v}
    return {int(x): y for x, y in v.items()}


_MAPS = ("column_sizes", "value_counts", "null_value_counts", "nan_value_counts", "lower_bounds", "upper_bounds")


def _checked_data_file(d: Mapping[str, Any], path: str, *, spec_id: int | None = None, version: int = 2) -> DataFile:
    content = _int(d, "content", path, "manifest", required=False) or 0
    if content not in (0, 1, 2):
        raise _err(f"content {content} is not 0 (data), 1 (position deletes) or 2 (equality deletes)", "iceberg.manifest.content",
                   f"{path}.content")
    part = d.get("partition")
    if part is None:
        part = {}
    if not isinstance(part, dict):
        raise _err("the partition tuple is not a record", "iceberg.manifest.field-type", f"{path}.partition")
    rc = _int(d, "record_count", path, "manifest")
    size = _int(d, "file_size_in_bytes", path, "manifest")
    if rc < 0:
        raise _err(f"record_count {rc} is negative", "iceberg.manifest.record-count", f"{path}.record_count")
    if size < 0:
        raise _err(f"file_size_in_bytes {size} is negative", "iceberg.manifest.file-size", f"{path}.file_size_in_bytes")
    off = _int(d, "content_offset", path, "manifest", required=False)
    length = _int(d, "content_size_in_bytes", path, "manifest", required=False)
    if (off is None) != (length is None):
        raise _err("content_offset and content_size_in_bytes must be both set or both null", "iceberg.manifest.content-range",
                   f"{path}.{'content_size_in_bytes' if length is None else 'content_offset'}")
    if off is not None and (off < 0 or length < 0):
        raise _err(f"content range {off}+{length} is negative", "iceberg.manifest.content-range", f"{path}.content_offset")
    fmt = _str(d, "file_format", path, "manifest")
    if off is not None and content != DataFileContent.POSITION_DELETES:
        raise _err("content_offset is set on a file that is not a deletion vector (content 1)", "iceberg.manifest.content-range",
                   f"{path}.content_offset")
    split = d.get("split_offsets")
    eq = d.get("equality_ids")
    return DataFile(
        content=content,
        file_path=_str(d, "file_path", path, "manifest"),
        file_format=fmt.lower(),
        partition=dict(part),
        record_count=rc,
        file_size_in_bytes=size,
        column_sizes=_id_map(d.get("column_sizes"), f"{path}.column_sizes"),
        value_counts=_id_map(d.get("value_counts"), f"{path}.value_counts"),
        null_value_counts=_id_map(d.get("null_value_counts"), f"{path}.null_value_counts"),
        nan_value_counts=_id_map(d.get("nan_value_counts"), f"{path}.nan_value_counts"),
        lower_bounds=_id_map(d.get("lower_bounds"), f"{path}.lower_bounds"),
        upper_bounds=_id_map(d.get("upper_bounds"), f"{path}.upper_bounds"),
        key_metadata=d.get("key_metadata"),
        split_offsets=None if split is None else tuple(split),
        equality_ids=None if eq is None else tuple(eq),
        sort_order_id=_int(d, "sort_order_id", path, "manifest", required=False),
        first_row_id=_int(d, "first_row_id", path, "manifest", required=False),
        referenced_data_file=_str(d, "referenced_data_file", path, "manifest", required=False),
        content_offset=off,
        content_size_in_bytes=length,
        spec_id=spec_id,
    )


def _check_entry(rec: Mapping[str, Any], path: str, version: int) -> None:
    """The checked reading of an entry's own fields: raises the rule an unusual entry breaks."""
    status = _int(rec, "status", path, "manifest")
    if status not in (0, 1, 2):
        raise _err(f"status {status} is not 0 (EXISTING), 1 (ADDED) or 2 (DELETED)", "iceberg.manifest.status", f"{path}.status")
    if not isinstance(rec.get("data_file"), dict):
        raise _err("required field 'data_file' is missing", "iceberg.manifest.required-field", f"{path}.data_file")
    _int(rec, "snapshot_id", path, "manifest", required=version == 1)
    _int(rec, "sequence_number", path, "manifest", required=False)
    _int(rec, "file_sequence_number", path, "manifest", required=False)


def iter_manifest(data: bytes, *, name: str = "", manifest: ManifestFile | None = None, live_only: bool = False,
                  metrics: bool = True) -> Iterator[ManifestEntry]:
    """The entries of a manifest, one at a time, with the manifest list's ``manifest`` entry's values inherited
    where the entry's are null (without ``manifest``, as stored); ``live_only`` skips DELETED entries (their data
    file is not decoded). ``metrics=False`` (planning): column metrics may be left unread (None), the entries then
    decoded by the compiled plan of :mod:`.targets` when there is one (data manifests; delete manifests of deletion
    vectors and equality deletes: a position delete file's bounds are planning's)."""
    meta, _schema, records = read_avro(data, name)
    header = ManifestHeader(meta, name)
    version = header.format_version
    spec_id = manifest.partition_spec_id if manifest is not None else header.partition_spec_id
    next_row_id = manifest.first_row_id if manifest is not None else None
    try:
        if manifest is not None and header.partition_spec_id is not None and header.partition_spec_id != manifest.partition_spec_id:
            raise _err(f"the manifest says partition-spec-id {header.partition_spec_id}, the manifest list "
                       f"{manifest.partition_spec_id}", "iceberg.manifest.partition-spec-id", "metadata[partition-spec-id]")
        if manifest is not None and version >= 2 and header.content != manifest.content:
            raise _err(f"the manifest's content is {header.content.name.lower()}, the manifest list says "
                       f"{ManifestContent(manifest.content).name.lower()}", "iceberg.manifest.content", "metadata[content]")
        data_manifest = header.content == ManifestContent.DATA
        if not metrics:
            from .targets import planned_entries

            planned = planned_entries(data, name=name, manifest=manifest, version=version, spec_id=spec_id, live_only=live_only,
                                      deletes=not data_manifest)
            if planned is not None:
                yield from planned
                return
        inherit = manifest is not None
        for i, rec in enumerate(records):
            g = rec.get
            status, raw_sid, raw_seq, raw_fseq, d = g("status"), g("snapshot_id"), g("sequence_number"), g("file_sequence_number"), \
                g("data_file")
            if (type(status) is not int or status not in (0, 1, 2) or type(d) is not dict
                    or (raw_sid is None and version == 1) or (raw_sid is not None and type(raw_sid) is not int)
                    or (raw_seq is not None and type(raw_seq) is not int) or (raw_fseq is not None and type(raw_fseq) is not int)):
                _check_entry(rec, f"entries[{i}]", version)
            if live_only and status == EntryStatus.DELETED:
                continue
            assert type(status) is int and type(d) is dict  # (checked above)
            df = data_file_from_record(d, f"entries[{i}].data_file", spec_id=spec_id, version=version)
            if version >= 2 and (df.content == DataFileContent.DATA) != data_manifest:
                kind = DataFileContent(df.content).name.lower().replace("_", " ")
                raise _err(f"a {kind} file in a {header.content.name.lower()} manifest",
                           "iceberg.manifest.content", f"entries[{i}].data_file.content")
            sid, seq, fseq = raw_sid, raw_seq, raw_fseq
            if inherit:
                assert manifest is not None
                sid, seq, fseq, key = manifest.inherit(version, status, sid, seq, fseq)
                if key is not None:
                    raise _err(f"{key} is null on an entry that is not ADDED (only ADDED entries inherit it)",
                               "iceberg.manifest.sequence-number", f"entries[{i}].{key}")
                if df.content == DataFileContent.DATA and next_row_id is not None and df.first_row_id is None:
                    df = _with_first_row_id(df, next_row_id)
                    next_row_id += df.record_count
            yield ManifestEntry(status, sid, seq, fseq, df, raw_sid, raw_seq, raw_fseq)
    except FormatError as e:
        raise e.with_source(name) if name else e from None


def _with_first_row_id(df: DataFile, first_row_id: int) -> DataFile:
    from dataclasses import replace

    return replace(df, first_row_id=first_row_id)
