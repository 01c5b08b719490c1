"""A Delta Lake table read from its bytes: versions, the live files of a version with their deletion vectors (decoded
and held to their descriptors), orphans, and every rule checked.

>>> import lakestruct as ls                                    # doctest: +SKIP
>>> t = ls.delta.open_table("warehouse/t")                    # local path, file:// or any fsspec URL; version=N
>>> t.version, [s.id for s in t.snapshots()]
>>> state = t.state()                                         # ls.tables.TableState
>>> for f in state.data_files:
...     print(f.path, f.record_count, f.deleted_rows, f.live_rows, f.deletes)
>>> state.positions(f)                                        # the deleted row positions of a file (int64)
>>> t.orphans(), t.check()
"""

from __future__ import annotations

import datetime
import decimal
import json
import os
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import unquote

import numpy as np
import numpy.typing as npt

from .._frozen import constructor
from ..errors import FormatError, LakestructError, SourceError, UsageError
from ..roaring.read import DEFAULT_MAX_POSITIONS
from ..tables.model import DeleteFile, LiveFile, Orphan, SnapshotInfo, TableState
from . import z85
from .log import (
    LogListing,
    Replay,
    _as_dict,
    compaction_duplicates,
    dv_unique_id,
    is_url,
    iter_json_lines,
    list_log,
    local_path,
    no_gc,
    read_bytes,
    read_checkpoint_rows,
    replay,
)
from .model import ACTIONS, AddFile, CommitInfo, DvDescriptor, Metadata, Protocol, RemoveFile, Where

__all__ = ["INLINE", "DV_MAGIC", "Table", "dv_location", "open_table", "read_dv"]

#: the path a :class:`~lakestruct.tables.DeleteFile` of an inline (``i``) vector names
INLINE = "<inline>"
#: the magic of Delta's portable ``RoaringBitmapArray`` format (1681511377, little-endian), before a 64-bit portable bitmap
DV_MAGIC = bytes.fromhex("d1d33964")
#: the magic of the older native format (1681511376, big-endian): a count, then per 32-bit bitmap its size and bytes
DV_MAGIC_NATIVE = bytes.fromhex("6439d3d0")


def decode_native(raw: bytes, *, path: str, offset: int | None, max_positions: int | None) -> npt.NDArray[np.int64]:
    """Positions of a vector in Delta's native ``RoaringBitmapArray`` format (PROTOCOL.md's inline example): magic, a
    big-endian count of 32-bit bitmaps, then each one's big-endian size and its portable serialization; bitmap ``i``
    holds the positions whose high 32 bits are ``i``."""
    from ..roaring.read import decode_roaring32

    if len(raw) < 8:
        raise FormatError("a native vector has a magic and a bitmap count (8 bytes)", rule="delta.dv.native", path=path, offset=offset)
    count = int.from_bytes(raw[4:8], "big", signed=True)
    at = 8
    parts = []
    left = max_positions
    if count < 0 or count > len(raw):
        raise FormatError(f"bitmap count {count} does not fit {len(raw)} bytes", rule="delta.dv.native", path=path, offset=offset)
    for i in range(count):
        if at + 4 > len(raw):
            raise FormatError(f"bitmap {i} has no size field", rule="delta.dv.native", path=f"{path}.bitmaps[{i}]", offset=offset)
        size = int.from_bytes(raw[at : at + 4], "big", signed=True)
        if size < 0 or at + 4 + size > len(raw):
            raise FormatError(f"bitmap {i}'s size {size} runs past the vector", rule="delta.dv.native", path=f"{path}.bitmaps[{i}]",
                              offset=offset)
        vals = decode_roaring32(raw[at + 4 : at + 4 + size], path=f"{path}.bitmaps[{i}]", max_positions=left, wide=True)
        parts.append(vals.view(np.int64) + (i << 32))
        if left is not None:
            left -= int(vals.size)
        at += 4 + size
    if at != len(raw):
        raise FormatError(f"{len(raw) - at} bytes follow the last bitmap", rule="delta.dv.native", path=path, offset=offset)
    return np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)


_new_add = constructor(AddFile)
_new_live = constructor(LiveFile)
_new_where = constructor(Where)


def _field_error(where: Where, field: str, msg: str, rule: str = "delta.action.field") -> FormatError:
    return FormatError(msg[:400], rule=rule, path=where.path(field), offset=where.offset, source=where.file)


def _opt_int(v: Any, where: Where, field: str) -> int | None:
    if v is None:
        return None
    if type(v) is not int:
        raise _field_error(where, field, f"{field} must be an integer, found {v!r}")
    return v


def _int(v: Any, where: Where, field: str) -> int:
    if type(v) is not int:
        raise _field_error(where, field, f"{field} must be an integer, found {v!r}")
    return v


def _str_map(v: Any, where: Where, field: str) -> dict[str, str | None]:
    if v is None:
        return {}
    v = _as_dict(v)
    if type(v) is not dict or not all(type(k) is str and (x is None or type(x) is str) for k, x in v.items()):
        raise _field_error(where, field, f"{field} must map strings to strings, found {v!r}")
    return v


def parse_dv(dv: Any, where: Where, field: str) -> DvDescriptor:
    """A ``deletionVector`` descriptor, its fields checked (``delta.dv.descriptor``)."""
    if type(dv) is not dict:
        raise _field_error(where, field, f"a deletionVector is an object, found {dv!r}", "delta.dv.descriptor")
    st = dv.get("storageType")
    p = dv.get("pathOrInlineDv")
    off = dv.get("offset")
    size = dv.get("sizeInBytes")
    card = dv.get("cardinality")
    if st not in ("u", "i", "p"):
        raise _field_error(where, f"{field}.storageType", f"storageType is one of 'u', 'i', 'p'; found {st!r}", "delta.dv.descriptor")
    if type(p) is not str or not p:
        raise _field_error(where, f"{field}.pathOrInlineDv", f"pathOrInlineDv must be a non-empty string, found {p!r}",
                           "delta.dv.descriptor")
    if off is not None and (type(off) is not int or off < 0):
        raise _field_error(where, f"{field}.offset", f"offset must be a non-negative integer, found {off!r}", "delta.dv.descriptor")
    if st == "i" and off is not None:
        raise _field_error(where, f"{field}.offset", f"an inline vector has no offset, found {off!r}", "delta.dv.descriptor")
    if type(size) is not int or size < 4:
        raise _field_error(where, f"{field}.sizeInBytes", f"sizeInBytes must be an integer of at least 4 (the magic), found {size!r}",
                           "delta.dv.descriptor")
    if type(card) is not int or card < 0:
        raise _field_error(where, f"{field}.cardinality", f"cardinality must be a non-negative integer, found {card!r}",
                           "delta.dv.descriptor")
    return DvDescriptor(st, p, off, size, card)


def num_records(stats: Any, where: Where, field: str = "add.stats") -> int | None:
    """``numRecords`` of an action's statistics (a JSON string); None without statistics or without the count."""
    if stats is None:
        return None
    if type(stats) is not str:
        raise _field_error(where, field, f"stats is a JSON string, found {type(stats).__name__}")
    if stats.startswith('{"numRecords":'):  # how every writer starts it: read the number without parsing the rest
        end = 14
        while end < len(stats) and stats[end].isdigit():
            end += 1
        if end > 14 and end < len(stats) and stats[end] in ",}":
            return int(stats[14:end])
    try:
        doc = json.loads(stats)
    except ValueError as e:
        raise _field_error(where, field, f"stats is not JSON: {e}", "delta.add.stats") from None
    if type(doc) is not dict:
        raise _field_error(where, field, "stats is a JSON object", "delta.add.stats")
    n = doc.get("numRecords")
    if n is not None and (type(n) is not int or n < 0):
        raise _field_error(where, f"{field}.numRecords", f"numRecords must be a non-negative integer, found {n!r}", "delta.add.stats")
    return n


def parse_add(a: dict[str, Any], version: int, where: Where) -> AddFile:
    """An ``add`` action, its fields checked (``delta.action.field``, ``delta.dv.descriptor``, ``delta.add.stats``)."""
    size = a.get("size")
    if type(size) is not int or size < 0:
        raise _field_error(where, "add.size", f"size must be a non-negative integer, found {size!r}")
    pv = a.get("partitionValues")
    if type(pv) is not dict or not all(x is None or type(x) is str for x in pv.values()):
        pv = _str_map(pv, where, "add.partitionValues") if pv is not None else None
        if pv is None:
            raise _field_error(where, "add.partitionValues", "an add action has partitionValues (an object of strings)")
    dv = a.get("deletionVector")
    mt = a.get("modificationTime")
    dc = a.get("dataChange")
    tags = a.get("tags")
    brid = a.get("baseRowId")
    drcv = a.get("defaultRowCommitVersion")
    if (mt is not None and type(mt) is not int) or (dc is not None and type(dc) is not bool) \
            or (brid is not None and type(brid) is not int) or (drcv is not None and type(drcv) is not int):
        for k, kind in (("modificationTime", int), ("dataChange", bool), ("baseRowId", int), ("defaultRowCommitVersion", int)):
            v = a.get(k)
            if v is not None and type(v) is not kind:
                raise _field_error(where, f"add.{k}", f"{k} must be {kind.__name__}, found {v!r}")
    stats = a.get("stats")
    return _new_add(  # type: ignore[no-any-return]
        a["path"], pv, size, mt, dc, stats, num_records(stats, where),
        None if dv is None else parse_dv(dv, where, "add.deletionVector"),
        None if tags is None else _str_map(tags, where, "add.tags"), brid, drcv, version, where,
    )


def parse_remove(r: dict[str, Any], version: int, where: Where) -> RemoveFile:
    dv = r.get("deletionVector")
    ts = _opt_int(r.get("deletionTimestamp"), where, "remove.deletionTimestamp")
    dc = r.get("dataChange")
    if dc is not None and type(dc) is not bool:
        raise _field_error(where, "remove.dataChange", f"dataChange must be a boolean, found {dc!r}")
    return RemoveFile(r["path"], ts, dc, None if dv is None else parse_dv(dv, where, "remove.deletionVector"),
                      _opt_int(r.get("size"), where, "remove.size"), version, where)


def parse_protocol(p: Any, where: Where) -> Protocol:
    if type(p) is not dict:
        raise _field_error(where, "protocol", "a protocol action is an object")

    def feats(k: str) -> tuple[str, ...] | None:
        v = p.get(k)
        if v is None:
            return None
        if type(v) is not list or not all(type(x) is str for x in v):
            raise _field_error(where, f"protocol.{k}", f"{k} must be a list of strings, found {v!r}")
        return tuple(v)

    return Protocol(_int(p.get("minReaderVersion"), where, "protocol.minReaderVersion"),
                    _int(p.get("minWriterVersion"), where, "protocol.minWriterVersion"), feats("readerFeatures"), feats("writerFeatures"))


def parse_metadata(m: Any, where: Where) -> Metadata:
    if type(m) is not dict:
        raise _field_error(where, "metaData", "a metaData action is an object")
    i = m.get("id")
    ss = m.get("schemaString")
    pc = m.get("partitionColumns")
    fmt = m.get("format")
    if type(i) is not str:
        raise _field_error(where, "metaData.id", f"id must be a string, found {i!r}")
    if type(ss) is not str:
        raise _field_error(where, "metaData.schemaString", f"schemaString must be a string, found {type(ss).__name__}")
    if type(pc) is not list or not all(type(x) is str for x in pc):
        raise _field_error(where, "metaData.partitionColumns", f"partitionColumns must be a list of strings, found {pc!r}")
    provider = fmt.get("provider") if type(fmt) is dict else None
    if type(provider) is not str:
        raise _field_error(where, "metaData.format.provider", f"format.provider must be a string, found {provider!r}")
    name, desc = m.get("name"), m.get("description")
    return Metadata(i, name if type(name) is str else None, desc if type(desc) is str else None, provider, ss, tuple(pc),
                    _opt_int(m.get("createdTime"), where, "metaData.createdTime"),
                    _str_map(m.get("configuration"), where, "metaData.configuration"))


# -- partition values -------------------------------------------------------------------------------------------


def _partition_converter(t: Any) -> Callable[[str], Any]:
    if t in ("long", "integer", "short", "byte"):
        return int
    if t in ("double", "float"):
        return float
    if t == "boolean":
        return lambda s: {"true": True, "false": False}[s.lower()]
    if t == "date":
        return datetime.date.fromisoformat
    if isinstance(t, str) and t.startswith("decimal"):
        return decimal.Decimal
    return str  # string, binary, timestamps (as written: Delta has two spellings), anything newer


def partition_types(schema_string: str, columns: tuple[str, ...]) -> dict[str, tuple[str, Callable[[str], Any]]]:
    """{name in partitionValues: (column name, converter)}: physical names under column mapping."""
    try:
        schema = json.loads(schema_string)
        fields = schema.get("fields", []) if isinstance(schema, dict) else []
    except ValueError:
        fields = []
    out: dict[str, tuple[str, Callable[[str], Any]]] = {}
    for f in fields:
        if not isinstance(f, dict) or f.get("name") not in columns:
            continue
        meta = f.get("metadata")
        physical = meta.get("delta.columnMapping.physicalName", f["name"]) if isinstance(meta, dict) else f["name"]
        out[str(physical)] = (str(f["name"]), _partition_converter(f.get("type")))
    return out


# -- paths ------------------------------------------------------------------------------------------------------


def resolve(root: str, path: str) -> str:
    """A path of the log (an RFC 2396 URI, relative to the table root or absolute) as a location to open."""
    if "://" in path or path.startswith("file:"):
        if path.startswith("file:"):
            rest = path[len("file:") :]
            if rest.startswith("//"):
                host, _, tail = rest[2:].partition("/")
                rest = "/" + tail if host in ("", "localhost") else path
            return unquote(rest)
        return path
    if path.startswith("/"):
        return unquote(path)
    return f"{root}/{unquote(path) if '%' in path else path}"


def dv_location(root: str, dv: DvDescriptor, where: Where | None = None, field: str = "add.deletionVector") -> str | None:
    """The file a descriptor names (None for inline vectors): ``u`` -> ``<root>/<prefix>/deletion_vector_<uuid>.bin``,
    ``p`` -> the absolute path. A ``u`` string that is not a Z85 UUID breaks ``delta.dv.z85-*``."""
    if dv.storage_type == "i":
        return None
    if dv.storage_type == "p":
        return resolve(root, dv.path_or_inline_dv)
    w = where or Where("?")
    try:
        prefix, u = z85.decode_uuid(dv.path_or_inline_dv, path=w.path(f"{field}.pathOrInlineDv"), offset=w.offset)
    except FormatError as e:
        raise e.with_source(w.file) from None
    return f"{root}/{prefix}/deletion_vector_{u}.bin" if prefix else f"{root}/deletion_vector_{u}.bin"


def read_dv(root: str, dv: DvDescriptor, where: Where | None = None, *, max_positions: int | None = DEFAULT_MAX_POSITIONS,
            field: str = "add.deletionVector", cache: dict[str, bytes] | None = None) -> npt.NDArray[np.int64]:
    """The sorted positions a descriptor names, held to it: size (``delta-dv.size``/``delta.dv.z85-length``), cardinality
    (``delta-dv.cardinality``/``delta.dv.cardinality``), CRC and bitmap (``deletion-vector.*``, ``roaring64.*``)."""
    from .. import deletes
    from ..roaring.read import decode_roaring64

    w = where or Where("?")
    if dv.storage_type == "i":
        at = w.path(f"{field}.pathOrInlineDv")
        try:
            raw = z85.decode(dv.path_or_inline_dv, size=dv.size_in_bytes, path=at, offset=w.offset, strict=False)
            if raw[:4] not in (DV_MAGIC, DV_MAGIC_NATIVE):
                raise FormatError(f"an inline vector starts with magic d1 d3 39 64 (1681511377 little-endian) or, in the native "
                                  f"format, 64 39 d3 d0; found {raw[:4].hex(' ')}", rule="delta.dv.magic", path=at, offset=w.offset)
            limit = dv.cardinality if max_positions is None else min(dv.cardinality, max_positions)
            try:
                if raw[:4] == DV_MAGIC_NATIVE:
                    pos = decode_native(raw, path=f"{at}.bitmap", offset=w.offset, max_positions=limit)
                else:
                    pos = decode_roaring64(raw[4:], iceberg=True, base_offset=4, path=f"{at}.bitmap", max_positions=limit).view(np.int64)
            except FormatError as e:
                if e.rule == "roaring.max-positions" and limit == dv.cardinality:
                    raise FormatError(f"the descriptor's cardinality is {dv.cardinality}, the inline vector holds more",
                                      rule="delta.dv.cardinality", path=w.path(f"{field}.cardinality"), offset=w.offset) from None
                e.offset = w.offset
                raise
            if pos.size != dv.cardinality:
                raise FormatError(f"the descriptor's cardinality is {dv.cardinality}, the inline vector holds {pos.size}",
                                  rule="delta.dv.cardinality", path=w.path(f"{field}.cardinality"), offset=w.offset)
            return pos.view(np.int64)
        except FormatError as e:
            raise e.with_source(w.file) from None
    loc = dv_location(root, dv, where, field)
    assert loc is not None
    src: Any = loc
    if cache is not None:
        if loc not in cache:
            try:
                cache[loc] = read_bytes(loc)
            except SourceError as e:
                raise SourceError(f"{e} (the deletion vector of {w.file} {w.path(field)})") from None
        src = cache[loc]
    try:
        vec = deletes.read_delta_deletion_vector(src, offset=dv.offset if dv.offset is not None else 0, size_in_bytes=dv.size_in_bytes,
                                                 cardinality=dv.cardinality, max_positions=max_positions)
    except FormatError as e:
        e.source = loc
        e.message = f"{e.message} (descriptor at {w.file} {w.path(field)})"
        raise
    except SourceError as e:
        raise SourceError(f"{e} (the deletion vector of {w.file} {w.path(field)})") from None
    return vec.positions()


# -- the table --------------------------------------------------------------------------------------------------


class Table:
    """A Delta table at one version (the latest, or the one asked for)."""

    format = "delta"

    def __init__(self, path: str | os.PathLike[str], version: int | None = None) -> None:
        p = os.fspath(path)
        self.root = p.rstrip("/") if len(p) > 1 else p
        self._listing: LogListing = list_log(self.root)
        latest = self._listing.latest
        if latest is None:
            raise FormatError("_delta_log holds no commit and no checkpoint", rule="delta.log.empty", path="_delta_log",
                              source=self.root)
        self.latest_version = latest
        if version is not None and (type(version) is not int or not 0 <= version <= latest):
            raise UsageError(f"version {version!r} is not a version of the table (0 to {latest})")
        self.version: int = latest if version is None else version
        self._replays: dict[int, Replay] = {}

    def __repr__(self) -> str:
        return f"delta.Table({self.root!r}, version={self.version})"

    @property
    def listing(self) -> LogListing:
        return self._listing

    # -- versions --------------------------------------------------------------------------------------------

    def commit_info(self, version: int) -> CommitInfo:
        """A version as its commit file tells it (``commitInfo``; no commit file: only the version)."""
        f = self._listing.commits.get(version)
        if f is None:
            return CommitInfo(version, None, None, {})
        path = self._listing.path(f.name)
        data = read_bytes(path)
        info: dict[str, Any] = {}
        at = 0 if data.startswith(b'{"commitInfo"') else data.find(b'\n{"commitInfo"')
        if at >= 0:
            start = at if at == 0 else at + 1
            end = data.find(b"\n", start)
            line = data[start : end if end >= 0 else len(data)]
            try:
                doc = json.loads(line)
            except ValueError:
                doc = None
            if isinstance(doc, dict) and isinstance(doc.get("commitInfo"), dict):
                info = doc["commitInfo"]
        ts = info.get("inCommitTimestamp") if type(info.get("inCommitTimestamp")) is int else info.get("timestamp")
        op = info.get("operation")
        return CommitInfo(version, ts if type(ts) is int else f.mtime_ms, op if isinstance(op, str) else None, info)

    def versions(self) -> list[int]:
        """Every version the log records (a commit file or a checkpoint), oldest first."""
        return sorted({*self._listing.commits, *self._listing.checkpoints})

    def snapshots(self) -> list[SnapshotInfo]:
        """One :class:`~lakestruct.tables.SnapshotInfo` per version, oldest first (``id`` = version)."""
        out = []
        for v in self.versions():
            c = self.commit_info(v)
            out.append(SnapshotInfo(v, v - 1 if v > 0 else None, c.timestamp_ms, c.operation, dict(c.info)))
        return out

    # -- replay ----------------------------------------------------------------------------------------------

    def replay(self, version: int | None = None, *, tombstones: bool = False) -> Replay:
        """The reconciled log of a version (default: the table's); ``tombstones`` keeps the ``remove`` actions too (memory
        then grows with the removes the log holds, which a checkpoint keeps until they expire)."""
        v = self.version if version is None else version
        if type(v) is not int or not 0 <= v <= self.latest_version:
            raise UsageError(f"version {v!r} is not a version of the table (0 to {self.latest_version})")
        rp = self._replays.get(v)
        if rp is None or (tombstones and not rp.keep_removes):
            rp = replay(self._listing, v, keep_removes=tombstones)
            self._replays = {v: rp}  # one replay kept: memory is the live set of one version
        return rp

    def protocol(self, version: int | None = None) -> Protocol:
        rp = self.replay(version)
        if rp.protocol is None:
            raise FormatError(f"no protocol action up to version {rp.version}", rule="delta.log.missing-action", path="protocol",
                              source=self._listing.log_dir)
        raw, si, line = rp.protocol
        return parse_protocol(raw, rp.where(si, line))

    def metadata(self, version: int | None = None) -> Metadata:
        rp = self.replay(version)
        if rp.metadata is None:
            raise FormatError(f"no metaData action up to version {rp.version}", rule="delta.log.missing-action", path="metaData",
                              source=self._listing.log_dir)
        raw, si, line = rp.metadata
        return parse_metadata(raw, rp.where(si, line))

    def _where_fast(self, rp: Replay, si: int, line: int) -> Where:
        s = rp.sources[si]
        w: Where = _new_where(s.path, line, None, None) if s.json else _new_where(s.path, None, None, line)
        return w

    def add_files(self, version: int | None = None) -> list[AddFile]:
        """The live ``add`` actions of a version, fields checked."""
        rp = self.replay(version)
        out = []
        try:
            with no_gc():
                for raw, si, line in rp.adds.values():
                    out.append(parse_add(raw, rp.sources[si].version, self._where_fast(rp, si, line)))
        except FormatError as e:
            raise self._locate(rp, e) from None
        return out

    def remove_files(self, version: int | None = None) -> list[RemoveFile]:
        """The tombstones (``remove`` actions) a version keeps."""
        rp = self.replay(version, tombstones=True)
        try:
            return [parse_remove(raw, rp.sources[si].version, self._where_fast(rp, si, line)) for raw, si, line in rp.removes.values()]
        except FormatError as e:
            raise self._locate(rp, e) from None

    def _locate(self, rp: Replay, e: FormatError) -> FormatError:
        """Fill in the byte offset of the line an error names (computed only when an error happens)."""
        if e.offset is None and e.path.startswith("line["):
            line = int(e.path[5 : e.path.index("]")])
            for i, s in enumerate(rp.sources):
                if s.path == e.source and s.json:
                    e.offset = rp.where(i, line).offset
                    break
        return e

    # -- state -----------------------------------------------------------------------------------------------

    def state(self, snapshot_id: int | None = None, *, read_dvs: bool = True, strict: bool = True,
              max_positions: int | None = DEFAULT_MAX_POSITIONS) -> TableState:
        """The live state of a version (``snapshot_id``; default: the table's version) as a
        :class:`~lakestruct.tables.TableState`: one :class:`~lakestruct.tables.LiveFile` per live ``add``.

        ``record_count`` is ``stats.numRecords``; an ``add`` without it counts 0 rows and says so in
        ``extra["num_records"]`` (None), its ``deleted_rows`` stays exact (0 without a vector). Deletion vectors are decoded
        (``read_dvs``) and held to their descriptors: ``deleted_rows`` counts their positions below ``numRecords``,
        ``positions_past_end`` the others. ``strict=False`` records a vector that cannot be read in
        ``extra["dv_error"]`` (``deleted_rows`` None) instead of raising."""
        v = self.version if snapshot_id is None else snapshot_id
        rp = self.replay(v)
        meta = self.metadata(v)
        types = partition_types(meta.schema_string, meta.partition_columns)
        provider = meta.provider
        root = self.root
        files: list[LiveFile] = []
        deletes_all: list[DeleteFile] = []
        cache: dict[str, bytes] = {}
        dv_of: dict[str, tuple[DvDescriptor, Where]] = {}
        try:
            with no_gc():
                self._live_files(rp, types, provider, read_dvs, strict, max_positions, files, deletes_all, cache, dv_of)
        except FormatError as e:
            raise self._locate(rp, e) from None

        def positions(f: LiveFile) -> npt.NDArray[np.int64]:
            hit = dv_of.get(f.path)
            if hit is None:
                return np.empty(0, dtype=np.int64)
            return read_dv(root, hit[0], hit[1], max_positions=max_positions)

        return TableState("delta", root, v, tuple(files), tuple(deletes_all), positions)

    def _live_files(self, rp: Replay, types: dict[str, tuple[str, Callable[[str], Any]]], provider: str, read_dvs: bool, strict: bool,
                    max_positions: int | None, files: list[LiveFile], deletes_all: list[DeleteFile], cache: dict[str, bytes],
                    dv_of: dict[str, tuple[DvDescriptor, Where]]) -> None:
        root = self.root
        where_of = self._where_fast
        sources = rp.sources
        # partitions decoded once per partitionValues object (replay shares one per distinct text within a log file);
        # the objects stay alive in rp.adds for the whole loop, so their ids are stable keys
        partitions: dict[int, dict[str, Any]] = {}
        plain = "%" not in root
        for raw, si, line in rp.adds.values():
            pv = raw.get("partitionValues")
            size = raw.get("size")
            stats = raw.get("stats")
            mt = raw.get("modificationTime")
            dc = raw.get("dataChange")
            if raw.get("deletionVector") is None and type(size) is int and size >= 0 and type(pv) is dict \
                    and (mt is None or type(mt) is int) and (dc is None or type(dc) is bool) and raw.get("tags") is None \
                    and raw.get("baseRowId") is None and raw.get("defaultRowCommitVersion") is None:
                # the common add, checked field by field without an AddFile in between (same checks as parse_add)
                lp = raw["path"]
                n = None if stats is None else num_records(stats, where_of(rp, si, line))
                partition = partitions.get(id(pv))
                if partition is None:
                    partition = self._partition(pv, types, where_of(rp, si, line))
                    partitions[id(pv)] = partition
                path = f"{root}/{lp}" if plain and "%" not in lp and ":" not in lp and not lp.startswith("/") else resolve(root, lp)
                extra = {"version": sources[si].version, "log_path": lp, "num_records": n, "modification_time": mt, "data_change": dc,
                         "base_row_id": None, "default_row_commit_version": None, "tags": None}
                files.append(_new_live(path, n if n is not None else 0, size, partition, provider, (), 0, 0, extra))
                continue
            where = where_of(rp, si, line)
            a = parse_add(raw, sources[si].version, where)
            path = resolve(root, a.path)
            partition = self._partition(a.partition_values, types, where)
            n = a.num_records
            extra = {"version": a.version, "log_path": a.path, "num_records": n, "modification_time": a.modification_time,
                     "data_change": a.data_change, "base_row_id": a.base_row_id,
                     "default_row_commit_version": a.default_row_commit_version, "tags": a.tags}
            dv = a.deletion_vector
            dfs: tuple[DeleteFile, ...] = ()
            deleted: int | None = 0
            past = 0
            if dv is not None:
                loc = dv_location(root, dv, where)
                df = DeleteFile(INLINE if loc is None else loc, "deletion-vector", dv.cardinality, None, path,
                                None if loc is None else (dv.offset if dv.offset is not None else 0), dv.size_in_bytes,
                                {"storage_type": dv.storage_type, "path_or_inline_dv": dv.path_or_inline_dv,
                                 "unique_id": dv.unique_id, "cardinality": dv.cardinality})
                dfs = (df,)
                deletes_all.append(df)
                dv_of[path] = (dv, where)
                deleted = None
                if read_dvs:
                    try:
                        pos = read_dv(root, dv, where, max_positions=max_positions, cache=cache)
                        if n is not None:
                            past = int(pos.size - np.searchsorted(pos, n))
                        deleted = int(pos.size) - past
                    except LakestructError as e:
                        if strict:
                            raise
                        extra["dv_error"] = str(e)
            files.append(_new_live(path, n if n is not None else 0, a.size, partition, provider, dfs, deleted, past, extra))

    @staticmethod
    def _partition(pv: Any, types: dict[str, tuple[str, Callable[[str], Any]]], where: Where) -> dict[str, Any]:
        """partitionValues decoded with the schema's types (``delta.add.partition-value``)."""
        if not all(x is None or type(x) is str for x in pv.values()):
            pv = _str_map(pv, where, "add.partitionValues")
        partition: dict[str, Any] = {}
        for k, s in pv.items():
            name, conv = types.get(k, (k, str))
            if s is None or (s == "" and conv is not str):
                partition[name] = None
            else:
                try:
                    partition[name] = conv(s)
                except (ValueError, KeyError, ArithmeticError):
                    raise _field_error(where, f"add.partitionValues.{k}", f"{s!r} is not a value of the column's type",
                                       "delta.add.partition-value") from None
        return partition

    # -- orphans ---------------------------------------------------------------------------------------------

    def referenced(self) -> tuple[set[str], set[str]]:
        """(data and change-data files, deletion-vector files) any action of the log kept references."""
        data: set[str] = set()
        dvs: set[str] = set()
        root = self.root
        lst = self._listing

        def note(acts: dict[str, Any]) -> None:
            for k in ("add", "remove", "cdc"):
                a = acts.get(k)
                if type(a) is dict and type(a.get("path")) is str:
                    data.add(resolve(root, a["path"]))
                    dv = a.get("deletionVector")
                    if dv is not None and dv_unique_id(dv) is not None:
                        try:
                            loc = dv_location(root, parse_dv(dv, Where("?"), "deletionVector"))
                        except FormatError:
                            continue
                        if loc is not None:
                            dvs.add(loc)

        for f in lst.files:
            path = lst.path(f.name)
            if f.kind in ("commit", "compaction") or (f.kind == "checkpoint-v2" and f.name.endswith(".json")):
                for _, _, obj in iter_json_lines(read_bytes(path), path):
                    note(obj)
            elif f.kind in ("checkpoint", "checkpoint-part", "checkpoint-v2", "sidecar"):
                rows, _ = read_checkpoint_rows(path, require_add=False)
                for _, acts in rows:
                    note(acts)
        return data, dvs

    def orphans(self) -> list[Orphan]:
        """Data and deletion-vector files under the root that no action of the kept log references (``unreferenced``),
        and files the table's version references that storage lacks (``missing``). ``_delta_log`` is not looked into;
        hidden files (``.``/``_`` names, but ``_change_data``) are skipped, as VACUUM does."""
        data, dvs = self.referenced()
        listed = dict(_walk(self.root))
        out = []
        for path, size in sorted(listed.items()):
            if path in data or path in dvs:
                continue
            name = path.rsplit("/", 1)[-1]
            role = "delete" if name.startswith("deletion_vector_") and name.endswith(".bin") else "data"
            out.append(Orphan(path, size, "unreferenced", role))
        st = self.state(read_dvs=False)
        seen: set[str] = set()
        for f in st.data_files:
            if f.path not in listed:
                n = f.extra.get("num_records")
                out.append(Orphan(f.path, f.size, "missing", "data", n))
            for d in f.deletes:
                if d.path != INLINE and d.path not in listed and d.path not in seen:
                    seen.add(d.path)
                    out.append(Orphan(d.path, None, "missing", "delete", d.record_count))
        return out

    # -- check -----------------------------------------------------------------------------------------------

    def check(self, *, max_positions: int | None = DEFAULT_MAX_POSITIONS) -> list[FormatError]:
        """Every rule the log and the live deletion vectors break (never raises for malformed input)."""
        found: list[FormatError] = []
        lst = self._listing
        for f in lst.incomplete:
            found.append(FormatError(f"part {f.part} of a {f.parts}-part checkpoint of version {f.version}: other parts are missing "
                                     "(the checkpoint is ignored)", rule="delta.checkpoint.incomplete", path=f.name,
                                     source=lst.path(f.name)))
        found.extend(self._check_last_checkpoint())
        for f in sorted(lst.commits.values(), key=lambda x: x.version or 0):
            found.extend(self._check_commit(f))
        for f in lst.compactions:
            found.extend(self._check_json_file(f.name, f.version or 0, "compaction"))
            try:
                dup = compaction_duplicates(read_bytes(lst.path(f.name)), lst.path(f.name))
            except LakestructError:
                dup = None  # reported above
            if dup is not None:
                found.append(dup)
        try:
            rp = self.replay(self.latest_version)
            found.extend(rp.unknown)
            self.state(self.latest_version, read_dvs=False)  # every live add's fields and partition values
        except FormatError as e:
            found.append(e)
            return _dedupe(found)
        except LakestructError as e:
            found.append(FormatError(str(e), rule="delta.log.unreadable", path="_delta_log", source=lst.log_dir))
            return _dedupe(found)
        paths: dict[str, int] = {}
        cache: dict[str, bytes] = {}
        for raw, si, line in rp.adds.values():
            paths[raw["path"]] = paths.get(raw["path"], 0) + 1
            if raw.get("deletionVector") is None:
                continue
            where = self._where_fast(rp, si, line)
            try:
                a = parse_add(raw, rp.sources[si].version, where)
                assert a.deletion_vector is not None
                n = a.num_records
                if n is None:
                    found.append(self._locate(rp, _field_error(where, "add.stats.numRecords", "an add with a deletion vector records "
                                                               "numRecords in its stats", "delta.add.num-records")))
                pos = read_dv(self.root, a.deletion_vector, where, max_positions=max_positions, cache=cache)
            except FormatError as e:
                found.append(self._locate(rp, e))
                continue
            except LakestructError as e:
                found.append(self._locate(rp, _field_error(where, "add.deletionVector", f"the deletion vector cannot be read: {e}",
                                                           "delta.dv.unreadable")))
                continue
            if n is not None and pos.size and int(pos[-1]) >= n:
                found.append(self._locate(rp, _field_error(where, "add.deletionVector", f"the vector deletes position {int(pos[-1])}, "
                                                           f"past the file's {n} records (stats.numRecords)", "delta.dv.position-range")))
        for p, k in paths.items():
            if k > 1:
                found.append(FormatError(f"{k} live add actions name {p!r} (with different deletion vectors)",
                                         rule="delta.add.duplicate-path", path="add.path", source=lst.log_dir))
        return _dedupe(found)

    def _check_last_checkpoint(self) -> list[FormatError]:
        lst = self._listing
        if lst.last_checkpoint is None:
            return []
        path = lst.path("_last_checkpoint")
        try:
            data = read_bytes(path)
            doc = json.loads(data)
        except ValueError as e:
            return [FormatError(f"not a JSON object: {e}"[:300], rule="delta.last-checkpoint.json", path="_last_checkpoint", offset=0,
                                source=path)]
        except LakestructError as e:
            return [FormatError(str(e), rule="delta.last-checkpoint.json", path="_last_checkpoint", source=path)]
        if type(doc) is not dict or type(doc.get("version")) is not int:
            return [FormatError("_last_checkpoint is a JSON object with an integer version", rule="delta.last-checkpoint.json",
                                path="version", offset=0, source=path)]
        v = doc["version"]
        have = lst.checkpoints.get(v)
        if not have:
            return [FormatError(f"names the checkpoint of version {v}, which the log does not hold (complete)",
                                rule="delta.last-checkpoint.version", path="version", offset=0, source=path)]
        parts = doc.get("parts")
        if parts is not None and not any(len(fs) == parts and fs[0].kind == "checkpoint-part" for fs in have):
            return [FormatError(f"says the checkpoint of version {v} has {parts} parts; the log holds no such checkpoint",
                                rule="delta.last-checkpoint.parts", path="parts", offset=0, source=path)]
        return []

    def _check_commit(self, f: Any) -> list[FormatError]:
        return self._check_json_file(f.name, f.version, "commit")

    def _check_json_file(self, name: str, version: int, kind: str) -> list[FormatError]:
        path = self._listing.path(name)
        found: list[FormatError] = []
        try:
            data = read_bytes(path)
        except LakestructError as e:
            return [FormatError(str(e), rule="delta.log.unreadable", path=name, source=path)]
        seen: dict[str, dict[Any, int]] = {"add": {}, "remove": {}}
        paths: dict[str, set[str]] = {"add": set(), "remove": set()}
        single: dict[str, int] = {}
        try:
            for line, off, obj in iter_json_lines(data, path):
                where = Where(path, line=line, offset=off)
                if len(obj) != 1:
                    found.append(FormatError(f"a log line holds one action; this one holds {len(obj)} ({', '.join(obj)})"[:300],
                                             rule="delta.log.action-count", path=f"line[{line}]", offset=off, source=path))
                for k, v in obj.items():
                    try:
                        if k not in ACTIONS:
                            found.append(FormatError(f"unknown action `{k}` (ignored, as the protocol asks of readers)"[:300],
                                                     rule="delta.action.unknown", path=f"line[{line}].{k}", offset=off, source=path))
                        elif k in ("add", "remove"):
                            if type(v) is not dict or type(v.get("path")) is not str:
                                raise _field_error(where, f"{k}.path", f"an `{k}` action names its file by a string `path`")
                            act = parse_add(v, version, where) if k == "add" else parse_remove(v, version, where)
                            if act.deletion_vector is not None:
                                z85_check(self.root, act.deletion_vector, where, f"{k}.deletionVector")
                            key = (act.path, None if act.deletion_vector is None else act.deletion_vector.unique_id)
                            other = "remove" if k == "add" else "add"
                            if kind == "commit" and key in seen[other]:
                                found.append(_field_error(where, f"{k}.path", f"the commit adds and removes the same logical file "
                                                          f"(line {seen[other][key]})", "delta.commit.add-and-remove"))
                            if kind == "commit" and act.path in paths[k]:
                                found.append(_field_error(where, f"{k}.path", f"the commit has two `{k}` actions for {act.path!r}",
                                                          "delta.commit.duplicate-path"))
                            paths[k].add(act.path)
                            seen[k][key] = line
                        elif k == "protocol":
                            parse_protocol(v, where)
                        elif k == "metaData":
                            parse_metadata(v, where)
                        elif k in ("checkpointMetadata", "sidecar"):
                            found.append(_field_error(where, k, f"`{k}` belongs in V2 checkpoints only", "delta.action.misplaced"))
                        if kind == "commit" and k in ("protocol", "metaData", "commitInfo"):
                            if k in single:
                                found.append(_field_error(where, k, f"a commit holds at most one `{k}` action (line {single[k]})",
                                                          "delta.commit.duplicate-action"))
                            single[k] = line
                    except FormatError as e:
                        found.append(e)
        except FormatError as e:
            found.append(e)
        return found


def z85_check(root: str, dv: DvDescriptor, where: Where, field: str) -> None:
    """The Z85 text of a descriptor decodes (``u``: a UUID; ``i``: ``sizeInBytes`` bytes)."""
    if dv.storage_type == "u":
        dv_location(root, dv, where, field)
    elif dv.storage_type == "i":
        try:
            z85.decode(dv.path_or_inline_dv, size=dv.size_in_bytes, path=where.path(f"{field}.pathOrInlineDv"), offset=where.offset)
        except FormatError as e:
            raise e.with_source(where.file) from None


def _dedupe(found: list[FormatError]) -> list[FormatError]:
    out = []
    seen = set()
    for e in found:
        k = (e.rule, e.source, e.path, e.offset)
        if k not in seen:
            seen.add(k)
            out.append(e)
    return out


def _walk(root: str) -> Iterator[tuple[str, int]]:
    """(path, size) of the files under a table root, but ``_delta_log`` and hidden ones (``.``/``_`` names, except
    ``_change_data``)."""

    def hidden(name: str) -> bool:
        return name.startswith(".") or (name.startswith("_") and name != "_change_data")

    lp = local_path(root)
    if lp is not None:
        for d, dirs, names in os.walk(lp):
            dirs[:] = sorted(x for x in dirs if not hidden(x))
            base = root if d == lp else f"{root}/{os.path.relpath(d, lp)}"
            for n in sorted(names):
                if not hidden(n):
                    full = os.path.join(d, n)
                    try:
                        yield f"{base}/{n}", os.stat(full).st_size
                    except OSError:
                        continue
        return
    if is_url(root):
        import fsspec

        fs, p = fsspec.core.url_to_fs(root)
        for key, info in sorted(fs.find(p, detail=True).items()):
            rel = key[len(p) :].lstrip("/") if key.startswith(p) else key
            if info.get("type") == "directory" or any(hidden(part) for part in rel.split("/")):
                continue
            yield f"{root}/{rel}", int(info.get("size") or 0)


def open_table(path: str | os.PathLike[str], version: int | None = None) -> Table:
    """The Delta table at ``path`` (its root: local path, ``file://`` or an fsspec URL) at ``version`` (default: the
    latest)."""
    return Table(path, version)
