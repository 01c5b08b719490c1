"""An Iceberg table read from its files: metadata JSON, manifest lists, manifests, deletion vectors and position
delete files. :func:`open_table` finds the current metadata file; :class:`Table` answers table questions (live
state of a snapshot with exact deleted rows, orphans, every rule) from those bytes.

Paths. Metadata names files by absolute URI as written (``file:/tmp/wh/t/data/x.parquet``, ``s3://b/t/...``).
When the table was moved (its ``location`` is not where it was opened), the ``location`` prefix is mapped onto the
directory opened (:meth:`Table.resolve`); ``file:`` URIs open as local paths. Models keep the paths as written.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..errors import FormatError, LakestructError, SourceError, UsageError
from ..source import list_files, local_path, open_source
from ..tables.model import DeleteFile, LiveFile, Orphan, SnapshotInfo, TableState
from .manifest import iter_manifest, read_manifest_list
from .metadata import parse_metadata
from .model import DataFile, DataFileContent, EntryStatus, ManifestContent, ManifestEntry, ManifestFile, Snapshot, TableMetadata

if TYPE_CHECKING:
    from .puffins import PuffinBlobs

__all__ = ["Table", "open_table"]

_VERSION = re.compile(r"^v?(\d+)(?:[-.]|$)")
_METADATA_SUFFIXES = (".metadata.json", ".metadata.json.gz", ".gz.metadata.json")


def _norm(p: str) -> str:
    """A path or URI in one spelling for comparison: ``file:///x`` and ``file:/x`` become ``/x``."""
    p = local_path(p)
    if p.startswith("//"):
        p = "/" + p.lstrip("/")
    return p


def _is_url(p: str) -> bool:
    scheme, sep, _ = p.partition("://")
    return bool(sep) and scheme.isidentifier() and len(scheme) > 1 and scheme != "file"


def _join(root: str, name: str) -> str:
    return f"{root.rstrip('/')}/{name}" if _is_url(root) else os.path.join(root, name)


def _read_bytes(path: str, rule_path: str = "file") -> bytes:
    with open_source(path) as src:
        return src.read_exact(0, src.size, rule="iceberg.truncated", path=rule_path)


def _metadata_version(name: str) -> int | None:
    if not name.endswith(_METADATA_SUFFIXES):
        return None
    m = _VERSION.match(name)
    return int(m.group(1)) if m else None


def _find_metadata(root: str) -> str:
    """The current metadata file of the table at ``root``: ``version-hint.text`` when it names an existing file,
    else the ``*.metadata.json`` with the highest version."""
    meta_dir = _join(root, "metadata")
    try:
        listed = [p for p, _ in list_files([meta_dir])]
    except SourceError:
        raise SourceError(f"{root}: not an Iceberg table (no metadata/ folder)") from None
    names = {posixpath.basename(p.replace(os.sep, "/")): p for p in listed if posixpath.dirname(p.replace(os.sep, "/")).rstrip("/")
             .endswith("metadata")}  # fmt: skip
    hint = names.get("version-hint.text")
    if hint is not None:
        try:
            text = _read_bytes(hint).decode("utf-8", "replace").strip()
        except LakestructError:
            text = ""
        for cand in (f"v{text}.metadata.json", f"v{text}.metadata.json.gz", text):
            if text and cand in names and _metadata_version(cand) is not None:
                return names[cand]
    best: tuple[int, str] | None = None
    for n, p in names.items():
        v = _metadata_version(n)
        if v is not None and (best is None or (v, n) > (best[0], posixpath.basename(best[1]))):
            best = (v, p)
    if best is None:
        raise SourceError(f"{root}: not an Iceberg table (no *.metadata.json in metadata/)")
    return best[1]


def open_table(path: str | os.PathLike[str]) -> Table:
    """The Iceberg table at ``path``: a table root directory (its latest ``metadata/vN.metadata.json``, or the one
    ``metadata/version-hint.text`` names), a metadata file, or an fsspec URL of either."""
    p = os.fspath(path)
    local = _norm(p) if not _is_url(p) else p
    is_file = local.endswith(_METADATA_SUFFIXES) if _is_url(local) else os.path.isfile(local)
    if is_file:
        meta = local
        d = posixpath.dirname(local.rstrip("/")) if _is_url(local) else os.path.dirname(os.path.abspath(local))
        root = posixpath.dirname(d) if posixpath.basename(d) == "metadata" else d
    else:
        root = local.rstrip("/") or "/"
        if not _is_url(root) and not os.path.isdir(root):
            raise SourceError(f"{p}: no such table directory or metadata file")
        meta = _find_metadata(root)
    data = _read_bytes(meta)
    md = parse_metadata(data, name=meta)
    return Table(root, meta, md)


@dataclass(frozen=True)
class _DvRef:
    path: str
    offset: int
    length: int


class Table:
    """An Iceberg table: its metadata (:attr:`metadata`), snapshots, live state, orphans and checks."""

    format = "iceberg"

    def __init__(self, root: str, metadata_path: str, metadata: TableMetadata) -> None:
        #: the directory the table was opened at (local path or URL)
        self.root = root
        #: the metadata file read
        self.metadata_path = metadata_path
        self.metadata = metadata
        self._loc = _norm(metadata.location).rstrip("/")

    def __repr__(self) -> str:
        return f"<iceberg.Table {self.root!r} v{self.metadata.format_version} snapshot={self.current_snapshot_id}>"

    # -- metadata -------------------------------------------------------------------------------------------------
    @property
    def location(self) -> str:
        return self.metadata.location

    @property
    def current_snapshot_id(self) -> int | None:
        return self.metadata.current_snapshot_id

    def resolve(self, path: str) -> str:
        """Where to read a file the metadata names: the ``location`` prefix mapped onto :attr:`root`."""
        n = _norm(path)
        if n == self._loc or n.startswith(self._loc + "/"):
            rest = n[len(self._loc) :]
            return self.root.rstrip("/") + rest if _is_url(self.root) else os.path.normpath(self.root + rest)
        return n

    def snapshots(self) -> list[SnapshotInfo]:
        """Every snapshot the metadata retains, oldest first (by sequence number, then time)."""
        snaps = sorted(self.metadata.snapshots, key=lambda s: (s.sequence_number, s.timestamp_ms))
        return [SnapshotInfo(s.snapshot_id, s.parent_snapshot_id, s.timestamp_ms, s.operation, dict(s.summary)) for s in snaps]

    def snapshot(self, snapshot_id: int | None = None, *, ref: str | None = None) -> Snapshot:
        """The snapshot ``snapshot_id``, or the one ``ref`` names, or the current one (:class:`UsageError` when absent)."""
        md = self.metadata
        if ref is not None:
            if snapshot_id is not None:
                raise UsageError("give a snapshot id or a ref, not both")
            r = md.refs.get(ref)
            if r is None:
                raise UsageError(f"the table has no ref {ref!r} (refs: {', '.join(sorted(md.refs)) or 'none'})")
            snapshot_id = r.snapshot_id
        sid = md.current_snapshot_id if snapshot_id is None else snapshot_id
        if sid is None:
            raise UsageError("the table has no snapshot")
        s = md.snapshot(sid)
        if s is None:
            if snapshot_id is None or ref is not None:
                raise FormatError(f"the current snapshot {sid} is not among the table's snapshots",
                                  rule="iceberg.metadata.current-snapshot", path="current-snapshot-id" if ref is None else f"refs.{ref}",
                                  source=self.metadata_path)
            ids = ", ".join(str(x.snapshot_id) for x in md.snapshots[-10:])
            raise UsageError(f"the table has no snapshot {sid} (latest: {ids or 'none'})")
        return s

    # -- manifests ------------------------------------------------------------------------------------------------
    def manifest_list(self, snapshot: Snapshot | int | None = None) -> list[ManifestFile]:
        """The manifests of a snapshot (its manifest list, or the v1 inline ``manifests``)."""
        s = snapshot if isinstance(snapshot, Snapshot) else self.snapshot(snapshot)
        if s.manifest_list is None:
            return [self._inline_manifest(m) for m in s.manifests]
        data = _read_bytes(self.resolve(s.manifest_list))
        return read_manifest_list(data, name=s.manifest_list, version=self.metadata.format_version)

    def _inline_manifest(self, path: str) -> ManifestFile:
        """A v1 snapshot's inline manifest: what a manifest list would say, from the manifest's own header."""
        from .manifest import read_manifest_header

        try:
            size = open_source(self.resolve(path)).size
        except SourceError:
            size = 0
        spec = None
        try:
            spec = read_manifest_header(_read_bytes(self.resolve(path)), name=path).partition_spec_id
        except LakestructError:
            pass
        return ManifestFile(path, size, spec if spec is not None else self.metadata.default_spec_id, ManifestContent.DATA, 0, 0, None,
                            None, None, None, None, None, None)

    def manifests(self, snapshot: Snapshot | int | None = None) -> list[ManifestFile]:
        return self.manifest_list(snapshot)

    def entries(self, manifest: ManifestFile | str, *, live_only: bool = False, metrics: bool = True) -> Iterator[ManifestEntry]:
        """The entries of one manifest, snapshot ids and sequence numbers inherited from ``manifest`` (a manifest
        list entry) where null; a bare path reads them as stored. ``live_only``: ADDED and EXISTING entries only;
        ``metrics=False``: data files' column metrics may be left unread (None), as planning needs none."""
        if isinstance(manifest, str):
            yield from iter_manifest(_read_bytes(self.resolve(manifest)), name=manifest, live_only=live_only, metrics=metrics)
            return
        yield from iter_manifest(_read_bytes(self.resolve(manifest.manifest_path)), name=manifest.manifest_path, manifest=manifest,
                                 live_only=live_only, metrics=metrics)

    # -- live state -----------------------------------------------------------------------------------------------
    def live_entries(self, snapshot: Snapshot) -> tuple[list[ManifestEntry], list[ManifestEntry]]:
        """(data entries, delete entries) that are live (ADDED or EXISTING) in ``snapshot``, manifest by manifest; data
        files' column metrics are not read (None) when the compiled plan reads their manifest."""
        data: list[ManifestEntry] = []
        deletes: list[ManifestEntry] = []
        for m in self.manifest_list(snapshot):
            for e in self.entries(m, live_only=True, metrics=False):
                (data if e.data_file.content == DataFileContent.DATA else deletes).append(e)
        return data, deletes

    def state(self, snapshot_id: int | None = None, *, ref: str | None = None) -> TableState:
        """The live state of a snapshot (default: the current one; ``ref`` a branch or tag): every live data file
        with the delete files that apply to it and its exact deleted rows."""
        md = self.metadata
        if snapshot_id is None and ref is None and md.current_snapshot_id is None:
            return TableState("iceberg", self.root, None, (), (), None)
        snap = self.snapshot(snapshot_id, ref=ref)
        # the delete manifests first (the planner needs every live delete file), then the data manifests streamed:
        # one manifest's entries at a time, each live data file kept as its LiveFile only
        # (v1: a manifest list says nothing of content, every entry is sorted by its file's own, both kept)
        stream: Iterator[ManifestEntry]
        if md.format_version >= 2:  # v2+: a manifest whose entries disagree with its list's content is an error
            manifests = self.manifest_list(snap)
            deletes = [e for m in manifests if m.content != ManifestContent.DATA for e in self.entries(m, live_only=True, metrics=False)]
            stream = (e for m in manifests if m.content == ManifestContent.DATA for e in self.entries(m, live_only=True, metrics=False))
        else:
            data, deletes = self.live_entries(snap)
            stream = iter(data)
        plan = _Planner(self, deletes)
        files = []
        with _PositionReader(self) as reader:
            for e in stream:
                applied = plan.deletes_for(e) if plan.any else ()
                deleted = past = 0
                if applied:
                    pos, past = reader.union_of(e.data_file.file_path, e.data_file.record_count, applied)
                    deleted = int(pos.size)
                files.append(_live_file(e, applied, deleted, past))
        dfs = tuple(plan.delete_file(e) for e in deletes)
        later = _PositionReader(self)  # footers parsed once across calls; no file left open between them

        def positions(f: LiveFile) -> npt.NDArray[np.int64]:
            with later:
                return later.union(f)[0]

        return TableState("iceberg", self.root, snap.snapshot_id, tuple(files), dfs, positions)

    def orphans(self) -> list[Orphan]:
        from .orphans import find_orphans

        return find_orphans(self)

    def check(self) -> list[FormatError]:
        """Every rule (docs/rules.md, ``iceberg.*``) the table's files break; never raises for them."""
        from .checks import check_table

        return check_table(self)


def _delete_kind(df: DataFile) -> str:
    if df.content == DataFileContent.EQUALITY_DELETES:
        return "equality-deletes"
    return "deletion-vector" if df.is_deletion_vector else "position-deletes"


def _delete_file(e: ManifestEntry) -> DeleteFile:
    df = e.data_file
    return DeleteFile(
        path=df.file_path, kind=_delete_kind(df), record_count=df.record_count, size=df.file_size_in_bytes,
        referenced_data_file=df.referenced_data_file, offset=df.content_offset, length=df.content_size_in_bytes,
        extra={"sequence_number": e.sequence_number, "file_sequence_number": e.file_sequence_number, "snapshot_id": e.snapshot_id,
               "spec_id": df.spec_id, "partition": dict(df.partition), "file_format": df.file_format,
               "equality_ids": list(df.equality_ids) if df.equality_ids is not None else None},
    )  # fmt: skip


def _live_file(e: ManifestEntry, deletes: tuple[DeleteFile, ...], deleted: int, past: int) -> LiveFile:
    df = e.data_file
    return LiveFile(
        path=df.file_path, record_count=df.record_count, size=df.file_size_in_bytes, partition=df.partition,
        file_format=df.file_format, deletes=deletes, deleted_rows=deleted, positions_past_end=past,
        extra={"sequence_number": e.sequence_number, "file_sequence_number": e.file_sequence_number, "snapshot_id": e.snapshot_id,
               "spec_id": df.spec_id, "status": EntryStatus(e.status).name, "first_row_id": df.first_row_id},
    )  # fmt: skip


def _part_key(df: DataFile) -> tuple[Any, ...]:
    return (df.spec_id, tuple((k, _hashable(v)) for k, v in df.partition.items()))


def _hashable(v: Any) -> Any:
    if isinstance(v, (list, dict, bytearray)):
        return repr(v)
    return v


class _Planner:
    """Which live delete files apply to a data file (spec, "Scan Planning"): a deletion vector when it names the
    file, its data sequence number is >= the file's and the partition is equal (then position delete files no
    longer apply); position delete files of the same spec and partition with a data sequence number >= the file's
    (and its path when ``referenced_data_file`` is set); equality delete files with a strictly greater one, in the
    same partition or in an unpartitioned spec (listed, never applied)."""

    def __init__(self, table: Table, deletes: list[ManifestEntry]) -> None:
        self.table = table
        self.dvs: dict[str, list[tuple[ManifestEntry, DeleteFile]]] = {}
        self.pos: dict[tuple[Any, ...], list[tuple[ManifestEntry, DeleteFile]]] = {}
        self.eq: dict[tuple[Any, ...], list[tuple[ManifestEntry, DeleteFile]]] = {}
        self.eq_global: list[tuple[ManifestEntry, DeleteFile]] = []
        self._made: dict[int, DeleteFile] = {}
        #: whether any delete file is live (else no data file needs a look-up)
        self.any = bool(deletes)
        for e in deletes:
            df = e.data_file
            d = self.delete_file(e)
            if df.is_deletion_vector:
                self.dvs.setdefault(_norm(df.referenced_data_file or ""), []).append((e, d))
            elif df.content == DataFileContent.POSITION_DELETES:
                self.pos.setdefault(_part_key(df), []).append((e, d))
            else:
                spec = table.metadata.spec(df.spec_id)
                if spec is not None and spec.is_unpartitioned:
                    self.eq_global.append((e, d))
                else:
                    self.eq.setdefault(_part_key(df), []).append((e, d))

    def delete_file(self, e: ManifestEntry) -> DeleteFile:
        d = self._made.get(id(e))
        if d is None:
            d = self._made[id(e)] = _delete_file(e)
        return d

    def deletes_for(self, e: ManifestEntry) -> tuple[DeleteFile, ...]:
        df = e.data_file
        path = _norm(df.file_path)
        dvs = self.dvs.get(path, ())
        if not dvs and not self.pos and not self.eq and not self.eq_global:
            return ()  # (a table whose only deletes are DVs: most files have none)
        seq = e.sequence_number or 0
        key = _part_key(df)
        out: list[DeleteFile] = []
        for de, d in dvs:
            if (de.sequence_number or 0) >= seq and _part_key(de.data_file) == key:
                out.append(d)
        if not out and self.pos:
            raw_path = df.file_path.encode("utf-8")
            for de, d in self.pos.get(key, ()):
                ref = de.data_file.referenced_data_file
                if (de.sequence_number or 0) >= seq and (ref is None or _norm(ref) == path) and _may_name(de.data_file, raw_path):
                    out.append(d)
        for de, d in (*self.eq.get(key, ()), *self.eq_global):
            if (de.sequence_number or 0) > seq:
                out.append(d)
        return tuple(out)


#: the reserved field id of a position delete file's ``file_path`` column (its bounds say which data files it names)
FILE_PATH_FIELD_ID = 2147483546


def _may_name(delete: DataFile, path: bytes) -> bool:
    """Whether a position delete file can name ``path``: its ``file_path`` bounds (when the manifest has them) hold it,
    as Iceberg Java's planning decides (equal bounds make a file-scoped delete file)."""
    lo = (delete.lower_bounds or {}).get(FILE_PATH_FIELD_ID)
    hi = (delete.upper_bounds or {}).get(FILE_PATH_FIELD_ID)
    return (lo is None or bytes(lo) <= path) and (hi is None or path <= bytes(hi))


class _PositionReader:
    """Reads the deleted positions of live data files: deletion vectors (each Puffin file's footer parsed once, each
    DV read by its range) and position delete files (read once each, their rows grouped by ``file_path``). Used as a
    context manager: leaving it closes the files it keeps open (it can be entered again)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._pos_files: dict[str, dict[str, npt.NDArray[np.int64]]] = {}
        self._puffins: PuffinBlobs | None = None  # made (and its module imported) at the first DV

    def __enter__(self) -> _PositionReader:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._puffins is not None:
            self._puffins.close()

    def union(self, f: LiveFile) -> tuple[npt.NDArray[np.int64], int]:
        """(sorted unique positions below ``record_count``, how many distinct applied positions are at or past it)."""
        return self.union_of(f.path, f.record_count, f.deletes)

    def union_of(self, path: str, record_count: int, deletes: tuple[DeleteFile, ...]) -> tuple[npt.NDArray[np.int64], int]:
        parts: list[npt.NDArray[np.int64]] = []
        for d in deletes:
            if d.kind == "deletion-vector":
                parts.append(self._dv(d))
            elif d.kind == "position-deletes":
                parts.append(self._pos_file(d.path).get(_norm(path), np.empty(0, dtype=np.int64)))
        if not parts:
            return np.empty(0, dtype=np.int64), 0
        # one DV alone is sorted and unique already (the Roaring rules)
        one_dv = [d.kind for d in deletes if d.kind != "equality-deletes"] == ["deletion-vector"]
        allpos = parts[0] if one_dv else np.unique(np.concatenate(parts))
        cut = int(np.searchsorted(allpos, record_count, side="left"))
        return allpos[:cut].astype(np.int64, copy=False), int(allpos.size - cut)

    def _dv(self, d: DeleteFile) -> npt.NDArray[np.int64]:
        assert d.offset is not None and d.length is not None
        if self._puffins is None:
            from .puffins import PuffinBlobs

            self._puffins = PuffinBlobs()
        try:
            dv = self._puffins.read_dv(self.table.resolve(d.path), d.offset, d.length)
        except FormatError as e:
            raise e.with_source(d.path) from None
        return np.asarray(dv.positions(), dtype=np.int64)

    def _pos_file(self, path: str) -> dict[str, npt.NDArray[np.int64]]:
        got = self._pos_files.get(path)
        if got is None:
            got = self._pos_files[path] = read_position_deletes(self.table.resolve(path), name=path)
        return got


def read_position_deletes(path: str, *, name: str | None = None) -> dict[str, npt.NDArray[np.int64]]:
    """A position delete file (Parquet: ``file_path``, ``pos``) as {normalized data file path: positions}, read with
    lakestruct's own Parquet reader."""
    from .. import parquet

    src = name or path
    try:
        with parquet.open(path) as pq:
            paths = pq.values("file_path")
            pos = pq.values("pos")
    except FormatError as e:
        raise e.with_source(src) from None
    if len(paths) != len(pos):
        raise FormatError(f"{len(paths)} file_path values but {len(pos)} pos values", rule="iceberg.position-deletes.columns",
                          path="pos", source=src)
    out: dict[str, list[int]] = {}
    for i, (p, x) in enumerate(zip(paths, pos, strict=True)):
        if p is None or x is None:
            raise FormatError("file_path and pos are required; row has a null", rule="iceberg.position-deletes.null",
                              path=f"rows[{i}]", source=src)
        key = _norm(p.decode("utf-8", "replace") if isinstance(p, (bytes, bytearray)) else str(p))
        out.setdefault(key, []).append(int(x))
    return {k: np.asarray(v, dtype=np.int64) for k, v in out.items()}
