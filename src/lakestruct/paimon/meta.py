"""Paimon table metadata files: schemas (``schema/schema-N``) and snapshots (``snapshot/snapshot-N``), JSON; the
path helpers every Paimon reader shares (external locations, reads through lakestruct's byte sources).
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from ..errors import FormatError
from ..source import open_source
from .model import (
    Schema,
    Snapshot,
)
from .types import parse_field

__all__ = [
    "DEFAULT_PARTITION_NAME",
    "DELETION_VECTORS",
    "external_location",
    "parse_schema",
    "parse_snapshot",
]

DELETION_VECTORS = "DELETION_VECTORS"
DEFAULT_PARTITION_NAME = "__DEFAULT_PARTITION__"
_SNAPSHOT_RE = re.compile(r"^snapshot-(\d+)$")
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*$")
_SCHEMA_RE = re.compile(r"^schema-(\d+)$")


def _is_url(path: str) -> bool:
    scheme, sep, _ = path.partition("://")
    return bool(sep) and len(scheme) > 1


def external_location(path: str) -> str:
    """An ``_EXTERNAL_PATH`` as a location lakestruct opens: Paimon records Hadoop path strings, whose local form is
    ``file:/dir/f`` (one slash, not a URL fsspec or ``open`` take), so ``file:/x``, ``file:///x`` and
    ``file://localhost/x`` become the local path ``/x``; other URLs (``s3://``, ``oss://``, ...) stay as they are."""
    scheme, colon, rest = path.partition(":")
    if not colon or len(scheme) < 2 or not _SCHEME_RE.match(scheme):
        return path  # no scheme (a plain path; "C:" is a drive, not a scheme)
    if scheme.lower() != "file":  # schemes are case-insensitive (RFC 3986; Hadoop's Path and pypaimon agree)
        return scheme.lower() + colon + rest
    if rest.startswith("//"):
        host, sep, tail = rest[2:].partition("/")
        return "/" + tail if host.lower() in ("", "localhost") and sep else path
    return rest if rest.startswith("/") else path


def _join(root: str, *parts: str) -> str:
    out = root.rstrip("/")
    for p in parts:
        if p:
            out = f"{out}/{p.strip('/')}"
    return out


def _no_nul(path: str, field: str = "file name", source: str | None = None) -> None:
    """A name from table metadata holding a NUL byte names no file any file system opens: ``paimon.file-name``."""
    if "\x00" in path:
        raise FormatError(f"{field} {path!r} holds a NUL byte; no file system opens such a name"[:400], rule="paimon.file-name",
                          path=field, source=source if source is not None else path.split("\x00", 1)[0])


def _read_bytes(path: str) -> bytes:
    _no_nul(path)
    if not _is_url(path) or path.startswith("file://"):  # a local file: read whole, no byte source around it
        try:
            fd = os.open(path[7:] if path.startswith("file://") else path, os.O_RDONLY)
        except OSError:
            fd = -1  # open_source says what is wrong (missing, ...)
        if fd >= 0:
            try:
                chunks = []
                while chunk := os.read(fd, 1 << 16):
                    chunks.append(chunk)
                return chunks[0] if len(chunks) == 1 else b"".join(chunks)
            except OSError:
                pass  # a directory, ...: open_source says so
            finally:
                os.close(fd)
    with open_source(path) as src:
        return src.read(0, src.size)


def _exists(path: str) -> bool:
    if _is_url(path) and not path.startswith("file://"):
        try:
            import fsspec

            fs, p = fsspec.core.url_to_fs(path)
            return bool(fs.exists(p))
        except Exception:
            return False
    return os.path.exists(path[len("file://") :] if path.startswith("file://") else path)


# -- JSON: schemas and snapshots --------------------------------------------------------------------


def _json(data: bytes, what: str, name: str) -> dict[str, Any]:
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise FormatError(f"not a JSON document: {e}", rule=f"paimon.{what}.json", path=what, offset=None, source=name) from None
    except RecursionError:  # arrays or objects nested deeper than Python's stack (Paimon writes 2-3 levels, types ~10)
        raise FormatError(f"the {what} JSON nests too deeply", rule=f"paimon.{what}.json", path=what, offset=None,
                          source=name) from None
    if not isinstance(doc, dict):
        raise FormatError(f"a {what} file holds a JSON object, this one a {type(doc).__name__}", rule=f"paimon.{what}.json",
                          path=what, source=name)
    return doc


def _get(doc: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str, *, required: bool = True) -> Any:
    v = doc.get(key)
    if v is None:
        if required:
            raise FormatError(f"the {what} has no {key!r}", rule=f"paimon.{what}.field", path=f"{what}.{key}")
        return None
    if not isinstance(v, kind) or (isinstance(v, bool) and kind is int):
        raise FormatError(f"{key!r} must be {getattr(kind, '__name__', kind)}, found {v!r}"[:300], rule=f"paimon.{what}.field",
                          path=f"{what}.{key}")
    if kind is int and isinstance(v, int) and not _LONG_MIN <= v <= _LONG_MAX:
        raise FormatError(f"{key!r} is {v}"[:200] + ", past a Java long (Paimon's field is a long)", rule=f"paimon.{what}.field",
                          path=f"{what}.{key}")
    return v


_LONG_MIN, _LONG_MAX = -(1 << 63), (1 << 63) - 1
#: snapshot fields that name files under manifest/ (or statistics/)
_SNAPSHOT_FILES = ("baseManifestList", "deltaManifestList", "changelogManifestList", "indexManifest", "statistics")


def parse_schema(data: bytes, *, name: str = "schema") -> Schema:
    """A ``schema/schema-<id>`` file (rules ``paimon.schema.json`` / ``.field`` / ``.type``)."""
    doc = _json(data, "schema", name)
    try:
        raw_fields = _get(doc, "fields", list, "schema")
        fields = tuple(parse_field(f, f"schema.fields[{i}]") for i, f in enumerate(raw_fields))
        names = [f.name for f in fields]
        pks = tuple(_get(doc, "primaryKeys", list, "schema", required=False) or ())
        parts = tuple(_get(doc, "partitionKeys", list, "schema", required=False) or ())
        for key, group in (("partitionKeys", parts), ("primaryKeys", pks)):
            for k in group:
                if k not in names:
                    raise FormatError(f"{key} names {k!r}, which is not a field", rule="paimon.schema.field", path=f"schema.{key}")
        options = _get(doc, "options", dict, "schema", required=False) or {}
        return Schema(
            id=_get(doc, "id", int, "schema"),
            version=_get(doc, "version", int, "schema", required=False),
            fields=fields,
            highest_field_id=_get(doc, "highestFieldId", int, "schema", required=False),
            partition_keys=parts,
            primary_keys=pks,
            options={str(k): str(v) for k, v in options.items()},
            comment=_get(doc, "comment", str, "schema", required=False),
            time_millis=_get(doc, "timeMillis", int, "schema", required=False),
        )
    except FormatError as e:
        raise e.with_source(name) from None


#: Snapshot's fields in order: JSON key, type, required.
_SNAPSHOT_FIELDS = (
    ("id", int, True), ("version", int, False), ("schemaId", int, True), ("baseManifestList", str, True),
    ("deltaManifestList", str, True), ("commitUser", str, False), ("commitIdentifier", int, False), ("commitKind", str, False),
    ("timeMillis", int, False), ("baseManifestListSize", int, False), ("deltaManifestListSize", int, False),
    ("changelogManifestList", str, False), ("changelogManifestListSize", int, False), ("indexManifest", str, False),
    ("totalRecordCount", int, False), ("deltaRecordCount", int, False), ("changelogRecordCount", int, False),
    ("watermark", int, False), ("statistics", str, False), ("properties", dict, False), ("nextRowId", int, False),
    ("uuid", str, False), ("writerVersion", str, False), ("operation", str, False),
)


def parse_snapshot(data: bytes, *, name: str = "snapshot") -> Snapshot:
    """A ``snapshot/snapshot-<id>`` file (rules ``paimon.snapshot.json`` / ``.field``); unknown fields are ignored."""
    doc = _json(data, "snapshot", name)
    values: list[Any] = []
    for key, kind, required in _SNAPSHOT_FIELDS:  # every field present with its type, or absent and optional
        v = doc.get(key)
        if (type(v) is not kind) if v is not None else required:
            break  # the checked way below names the field
        if v is not None and ((kind is int and not _LONG_MIN <= v <= _LONG_MAX) or (kind is str and "\x00" in v)):
            break
        values.append(v)
    else:
        props = values[19]
        if props is not None:
            values[19] = {str(k): str(v) for k, v in props.items()}
        return Snapshot(*values)
    return _snapshot_checked(doc, name)


def _snapshot_checked(doc: dict[str, Any], name: str) -> Snapshot:
    """The snapshot, every field checked on its own (the error names the first field that is wrong)."""

    def g(key: str, kind: type | tuple[type, ...] = int, required: bool = False) -> Any:
        return _get(doc, key, kind, "snapshot", required=required)

    try:
        for key in _SNAPSHOT_FILES:
            name_ = g(key, str)
            if name_ is not None:
                _no_nul(name_, f"snapshot.{key}", source=name)
        props = g("properties", dict)
        return Snapshot(
            id=g("id", required=True),
            version=g("version"),
            schema_id=g("schemaId", required=True),
            base_manifest_list=g("baseManifestList", str, True),
            delta_manifest_list=g("deltaManifestList", str, True),
            commit_user=g("commitUser", str),
            commit_identifier=g("commitIdentifier"),
            commit_kind=g("commitKind", str),
            time_millis=g("timeMillis"),
            base_manifest_list_size=g("baseManifestListSize"),
            delta_manifest_list_size=g("deltaManifestListSize"),
            changelog_manifest_list=g("changelogManifestList", str),
            changelog_manifest_list_size=g("changelogManifestListSize"),
            index_manifest=g("indexManifest", str),
            total_record_count=g("totalRecordCount"),
            delta_record_count=g("deltaRecordCount"),
            changelog_record_count=g("changelogRecordCount"),
            watermark=g("watermark"),
            statistics=g("statistics", str),
            properties={str(k): str(v) for k, v in props.items()} if props is not None else None,
            next_row_id=g("nextRowId"),
            uuid=g("uuid", str),
            writer_version=g("writerVersion", str),
            operation=g("operation", str),
        )
    except FormatError as e:
        raise e.with_source(name) from None


