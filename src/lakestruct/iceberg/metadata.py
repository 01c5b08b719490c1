"""Reading an Iceberg table metadata file (``vN.metadata.json``, format versions 1-3) into :class:`TableMetadata`.

Every broken rule is a :class:`~lakestruct.errors.FormatError` named ``iceberg.metadata.*`` whose ``path`` is the
JSON field path (``snapshots[2].parent-snapshot-id``) and whose ``offset`` is the byte offset of a syntax error.
v1 defaults follow the spec's Appendix E (sequence numbers 0, ``partition-spec`` / ``schema`` as the only entries).
"""

from __future__ import annotations

import gzip
import json
import zlib
from typing import Any

from ..errors import FormatError, LimitError
from .model import (
    BlobMetadata,
    MetadataLogEntry,
    NestedField,
    PartitionField,
    PartitionSpec,
    PartitionStatisticsFile,
    Schema,
    Snapshot,
    SnapshotLogEntry,
    SnapshotRef,
    SortField,
    SortOrder,
    StatisticsFile,
    TableMetadata,
)

__all__ = ["MAX_JSON_DEPTH", "MAX_METADATA_BYTES", "parse_metadata", "parse_metadata_json"]

#: Deepest JSON nesting accepted (a schema of nested structs needs a few levels per struct; Java's Jackson allows 1000)
MAX_JSON_DEPTH = 512
#: Largest (decompressed) metadata file read
MAX_METADATA_BYTES = 1 << 30
FORMAT_VERSIONS = (1, 2, 3)


def _err(msg: str, rule: str, path: str, offset: int | None = None) -> FormatError:
    return FormatError(msg, rule=f"iceberg.metadata.{rule}", path=path, offset=offset)


def _depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` outside strings (so that json.loads never recurses past the bound)."""
    depth = best = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > best:
                best = depth
                if best > MAX_JSON_DEPTH:
                    return best
        elif ch in "]}":
            depth -= 1
    return best


def parse_metadata(data: bytes, *, name: str | None = None) -> TableMetadata:
    """A metadata file's bytes (gzip-compressed ``*.metadata.json.gz`` too) as :class:`TableMetadata`."""
    try:
        if data[:2] == b"\x1f\x8b":
            try:
                d = zlib.decompressobj(16 + zlib.MAX_WBITS)
                raw = d.decompress(data, MAX_METADATA_BYTES)
                if not d.eof and not d.unconsumed_tail:
                    raise _err("the gzip-compressed metadata file ends before its end of stream", "gzip", "", len(data))
                if d.unconsumed_tail:
                    raise LimitError(f"the metadata file decompresses to more than {MAX_METADATA_BYTES} bytes",
                                     rule="iceberg.metadata.size", path="", offset=0)
                data = raw
            except (zlib.error, gzip.BadGzipFile, EOFError) as e:
                raise _err(f"the gzip-compressed metadata file does not decompress: {e}", "gzip", "", 0) from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise _err(f"the metadata file is not UTF-8: {e.reason}", "json-utf8", "", e.start) from None
        if _depth(text) > MAX_JSON_DEPTH:
            raise _err(f"the JSON nests deeper than {MAX_JSON_DEPTH} levels", "json-syntax", "", None)
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            at = len(text[: e.pos].encode("utf-8"))
            raise _err(f"not JSON: {e.msg} (line {e.lineno} column {e.colno})", "json-syntax", "", at) from None
        except RecursionError:
            raise _err("the JSON nests too deeply", "json-syntax", "", None) from None
        return parse_metadata_json(doc)
    except FormatError as e:
        raise e.with_source(name) if name else e from None


class _Obj:
    """Typed access to one JSON object, naming its path in every error."""

    __slots__ = ("d", "path")

    def __init__(self, d: Any, path: str) -> None:
        if not isinstance(d, dict):
            raise _err(f"must be a JSON object, found {_kind(d)}", "field-type" if path else "json-object", path or "")
        self.d: dict[str, Any] = d
        self.path = path

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def has(self, key: str) -> bool:
        return self.d.get(key) is not None

    def _get(self, key: str, required: bool) -> Any:
        if key not in self.d or self.d[key] is None:
            if required:
                raise _err(f"required field '{key}' is missing", "required-field", self.at(key))
            return None
        return self.d[key]

    def int_(self, key: str, *, required: bool = True, default: int | None = None) -> Any:
        v = self._get(key, required)
        if v is None:
            return default
        if isinstance(v, bool) or not isinstance(v, int):
            raise _err(f"must be an integer, found {_kind(v)}", "field-type", self.at(key))
        if not -(1 << 63) <= v < (1 << 63):
            raise _err(f"{v} does not fit a 64-bit signed integer", "field-type", self.at(key))
        return v

    def str_(self, key: str, *, required: bool = True) -> Any:
        v = self._get(key, required)
        if v is not None and not isinstance(v, str):
            raise _err(f"must be a string, found {_kind(v)}", "field-type", self.at(key))
        return v

    def bool_(self, key: str, *, default: bool = False) -> bool:
        v = self._get(key, False)
        if v is None:
            return default
        if not isinstance(v, bool):
            raise _err(f"must be true or false, found {_kind(v)}", "field-type", self.at(key))
        return v

    def list_(self, key: str, *, required: bool = True) -> list[Any] | None:
        v = self._get(key, required)
        if v is not None and not isinstance(v, list):
            raise _err(f"must be a list, found {_kind(v)}", "field-type", self.at(key))
        return v

    def obj(self, key: str, *, required: bool = True) -> _Obj | None:
        v = self._get(key, required)
        return None if v is None else _Obj(v, self.at(key))

    def str_map(self, key: str) -> dict[str, str]:
        o = self.obj(key, required=False)
        if o is None:
            return {}
        out: dict[str, str] = {}
        for k, v in o.d.items():
            if not isinstance(v, str):
                raise _err(f"must be a string, found {_kind(v)}", "field-type", o.at(k))
            out[k] = v
        return out


def _kind(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "an integer", float: "a number",
            type(None): "null"}.get(type(v), type(v).__name__)


def _items(o: _Obj, key: str, *, required: bool = True) -> list[_Obj]:
    lst = o.list_(key, required=required) or []
    return [_Obj(x, f"{o.at(key)}[{i}]") for i, x in enumerate(lst)]


def _ints(o: _Obj, key: str) -> tuple[int, ...]:
    lst = o.list_(key, required=False) or []
    for i, x in enumerate(lst):
        if isinstance(x, bool) or not isinstance(x, int):
            raise _err(f"must be an integer, found {_kind(x)}", "field-type", f"{o.at(key)}[{i}]")
    return tuple(lst)


def _schema(o: _Obj, default_id: int = 0) -> Schema:
    fields = []
    for f in _items(o, "fields"):
        fields.append(NestedField(f.int_("id"), f.str_("name"), f._get("type", True), f.bool_("required"), f.str_("doc", required=False)))
    return Schema(o.int_("schema-id", required=False, default=default_id), tuple(fields), _ints(o, "identifier-field-ids"), o.d)


def _partition_fields(items: list[_Obj]) -> tuple[PartitionField, ...]:
    out = []
    for i, f in enumerate(items):
        src_ids = _ints(f, "source-ids")
        src = f.int_("source-id", required=not src_ids, default=src_ids[0] if src_ids else -1)
        out.append(PartitionField(src, f.int_("field-id", required=False, default=1000 + i), f.str_("name"), f.str_("transform"),
                                  src_ids or (src,)))
    return tuple(out)


def _sort_order(o: _Obj) -> SortOrder:
    fields = []
    for f in _items(o, "fields"):
        src_ids = _ints(f, "source-ids")
        fields.append(SortField(f.int_("source-id", required=not src_ids, default=src_ids[0] if src_ids else -1), f.str_("transform"),
                                f.str_("direction"), f.str_("null-order")))
    return SortOrder(o.int_("order-id"), tuple(fields))


def _snapshot(o: _Obj, version: int) -> Snapshot:
    summary = o.obj("summary", required=version >= 2)
    summ: dict[str, str] = {}
    if summary is not None:
        for k, v in summary.d.items():
            if not isinstance(v, str):
                raise _err(f"must be a string, found {_kind(v)}", "field-type", summary.at(k))
            summ[k] = v
        if "operation" not in summ:
            raise _err("required field 'operation' is missing", "required-field", summary.at("operation"))
    ml = o.str_("manifest-list", required=version >= 2 and not o.has("manifests"))
    manifests: tuple[str, ...] = ()
    if ml is None:
        lst = o.list_("manifests", required=True) or []
        for i, m in enumerate(lst):
            if not isinstance(m, str):
                raise _err(f"must be a string, found {_kind(m)}", "field-type", f"{o.at('manifests')}[{i}]")
        manifests = tuple(lst)
    return Snapshot(
        snapshot_id=o.int_("snapshot-id"),
        parent_snapshot_id=o.int_("parent-snapshot-id", required=False),
        sequence_number=o.int_("sequence-number", required=version >= 2, default=0),
        timestamp_ms=o.int_("timestamp-ms"),
        manifest_list=ml,
        manifests=manifests,
        summary=summ,
        schema_id=o.int_("schema-id", required=False),
        first_row_id=o.int_("first-row-id", required=False),
        added_rows=o.int_("added-rows", required=False),
        key_id=o.str_("key-id", required=False),
    )


def _statistics(o: _Obj) -> StatisticsFile:
    blobs = []
    for b in _items(o, "blob-metadata", required=False):
        blobs.append(BlobMetadata(b.str_("type"), b.int_("snapshot-id"), b.int_("sequence-number"), _ints(b, "fields"),
                                  b.str_map("properties")))
    return StatisticsFile(o.int_("snapshot-id"), o.str_("statistics-path"), o.int_("file-size-in-bytes"),
                          o.int_("file-footer-size-in-bytes"),
                          o.str_("key-metadata", required=False), tuple(blobs))


def parse_metadata_json(doc: Any) -> TableMetadata:
    """A parsed metadata JSON document as :class:`TableMetadata` (every field's type checked)."""
    o = _Obj(doc, "")
    version = o.int_("format-version")
    if version not in FORMAT_VERSIONS:
        raise _err(f"format-version {version} is not one of {', '.join(map(str, FORMAT_VERSIONS))}", "format-version", "format-version")
    v2 = version >= 2
    if o.has("schemas"):
        schemas = tuple(_schema(s) for s in _items(o, "schemas"))
        current_schema = o.int_("current-schema-id", required=v2, default=schemas[0].schema_id if schemas else 0)
    else:
        if v2:
            raise _err("required field 'schemas' is missing", "required-field", "schemas")
        schemas = (_schema(_Obj(o._get("schema", True), "schema")),)
        current_schema = schemas[0].schema_id
    if o.has("partition-specs"):
        specs = tuple(PartitionSpec(s.int_("spec-id"), _partition_fields(_items(s, "fields"))) for s in _items(o, "partition-specs"))
        default_spec = o.int_("default-spec-id", required=v2, default=specs[0].spec_id if specs else 0)
    else:
        if v2:
            raise _err("required field 'partition-specs' is missing", "required-field", "partition-specs")
        specs = (PartitionSpec(0, _partition_fields(_items(o, "partition-spec"))),)
        default_spec = 0
    sort_orders = tuple(_sort_order(s) for s in _items(o, "sort-orders", required=v2))
    snapshots = tuple(_snapshot(s, version) for s in _items(o, "snapshots", required=False))
    current = o.int_("current-snapshot-id", required=False)
    if current == -1:
        current = None
    refs: dict[str, SnapshotRef] = {}
    r = o.obj("refs", required=False)
    if r is not None:
        for name in r.d:
            ro = _Obj(r.d[name], r.at(name))
            refs[name] = SnapshotRef(name, ro.int_("snapshot-id"), ro.str_("type"), ro.int_("min-snapshots-to-keep", required=False),
                                     ro.int_("max-snapshot-age-ms", required=False), ro.int_("max-ref-age-ms", required=False))
    if "main" not in refs and current is not None:
        refs["main"] = SnapshotRef("main", current, "branch")
    snap_log = tuple(SnapshotLogEntry(e.int_("snapshot-id"), e.int_("timestamp-ms")) for e in _items(o, "snapshot-log", required=False))
    meta_log = tuple(MetadataLogEntry(e.str_("metadata-file"), e.int_("timestamp-ms")) for e in _items(o, "metadata-log", required=False))
    stats = tuple(_statistics(s) for s in _items(o, "statistics", required=False))
    pstats = tuple(PartitionStatisticsFile(s.int_("snapshot-id"), s.str_("statistics-path"), s.int_("file-size-in-bytes"))
                   for s in _items(o, "partition-statistics", required=False))
    loc = o.str_("location")
    return TableMetadata(
        format_version=version,
        table_uuid=o.str_("table-uuid", required=v2),
        location=loc,
        last_sequence_number=o.int_("last-sequence-number", required=v2, default=0),
        last_updated_ms=o.int_("last-updated-ms"),
        last_column_id=o.int_("last-column-id"),
        schemas=schemas,
        current_schema_id=current_schema,
        partition_specs=specs,
        default_spec_id=default_spec,
        last_partition_id=o.int_("last-partition-id", required=v2),
        properties=o.str_map("properties"),
        current_snapshot_id=current,
        snapshots=snapshots,
        snapshot_log=snap_log,
        metadata_log=meta_log,
        sort_orders=sort_orders,
        default_sort_order_id=o.int_("default-sort-order-id", required=v2),
        refs=refs,
        statistics=stats,
        partition_statistics=pstats,
        next_row_id=o.int_("next-row-id", required=False),
        raw=doc,
    )
