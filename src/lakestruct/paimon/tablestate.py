"""A Paimon table in the table-neutral shape of :mod:`lakestruct.tables`: live state, snapshots, orphans, checks.

``Table.state()``, ``Table.orphans()``, ``Table.check()`` and ``Table.snapshots_info()`` call these functions; the
inventory and the CLI print what they return, as they do for Iceberg and Delta tables.

Orphans are the files under the table's data directories (partition/bucket folders), ``manifest/`` and ``index/``
that no snapshot or tag of the table references: its manifest lists, their manifests, the data files of every
entry (ADD and DELETE: a file a retained snapshot dropped is still that snapshot's), their extra files, the index
manifest's index files and the statistics file. Files under ``schema/``, ``snapshot/``, ``tag/``, ``branch/``,
``consumer/``, ``service/`` and ``changelog/`` are the table's own bookkeeping and never orphans.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..errors import FormatError, LakestructError, SourceError
from ..source import list_files, local_path
from ..tables.model import DeleteFile, LiveFile, Orphan, SnapshotInfo, TableState

if TYPE_CHECKING:
    from .model import Snapshot
    from .table import Table

__all__ = ["check", "orphans", "snapshots_info", "state"]

#: top-level folders that hold the table's bookkeeping, never orphans
_OWN = ("schema", "snapshot", "tag", "branch", "consumer", "service", "changelog", "statistics")


def _norm(path: str) -> str:
    p = local_path(path)
    return os.path.normpath(p) if "://" not in p else p


def snapshots_info(t: Table) -> list[SnapshotInfo]:
    out = []
    for s in t.snapshots():
        summary: dict[str, Any] = {"commit_kind": s.commit_kind, "total_record_count": s.total_record_count,
                                   "delta_record_count": s.delta_record_count, "schema_id": s.schema_id}
        out.append(SnapshotInfo(id=s.id, parent_id=None, timestamp_ms=s.time_millis, operation=s.commit_kind,
                                summary={k: v for k, v in summary.items() if v is not None}))
    prev = None
    linked = []
    for info in out:  # Paimon snapshots are numbered: a snapshot's parent is the one before it, when retained
        linked.append(SnapshotInfo(info.id, prev if prev is not None and prev == info.id - 1 else None, info.timestamp_ms,
                                   info.operation, info.summary))
        prev = info.id
    return linked


def state(t: Table, snapshot_id: int | None = None) -> TableState:
    """The live data files of a snapshot (default: the latest) with their deletion vectors, exact deleted rows."""
    sid = snapshot_id if snapshot_id is not None else t.latest_snapshot_id()
    if sid is None:
        return TableState("paimon", t.path, None, (), ())
    snap = t.snapshot(sid)
    schema = t.schema(snap.schema_id)
    live = t.live_files(snap)
    dvs = t.deletion_vectors(snap, files=live)
    primary_keys = bool(schema.primary_keys)
    files = []
    deletes: dict[tuple[str, int, int], DeleteFile] = {}
    for f in live:
        d = f.deletion_file
        applied: tuple[DeleteFile, ...] = ()
        if d is not None:
            df = DeleteFile(path=d.path, kind="deletion-vector", record_count=d.cardinality, referenced_data_file=f.path,
                            offset=d.offset, length=d.length, extra={"index_file": d.index_file_name})
            deletes[(d.path, d.offset, d.length)] = df
            applied = (df,)
        pos = dvs.get(f.path)
        extra: dict[str, Any] = {"bucket": f.bucket, "level": f.level, "schema_id": f.file.schema_id}
        if primary_keys and f.level == 0:
            # Paimon's deletion-vector readers read only files above level 0 of a primary-key table: level-0 files
            # wait for compaction and are merged on read
            extra["dv_reader_skips"] = True
        files.append(LiveFile(path=f.path, record_count=f.row_count, size=f.file.file_size, partition=dict(f.partition),
                              file_format=f.path.rsplit(".", 1)[-1].lower() if "." in f.path.rsplit("/", 1)[-1] else None,
                              deletes=applied, deleted_rows=0 if pos is None else int(pos.size), extra=extra))
    by_path = {f.path: f for f in live}

    def positions(lf: LiveFile) -> npt.NDArray[np.int64]:
        pf = by_path.get(lf.path)
        return np.empty(0, dtype=np.int64) if pf is None else t.deletion_vector(pf)

    return TableState("paimon", t.path, snap.id, tuple(files), tuple(deletes.values()), positions_reader=positions)


def _referenced(t: Table) -> tuple[set[str], dict[str, tuple[int | None, str, int | None]]]:
    """(every file a retained snapshot or tag references, {referenced path: (size, role, rows)})."""
    snaps: list[Snapshot] = []
    for i in t.snapshot_ids():
        snaps.append(t.snapshot(i))
    for tag in _tags(t):
        snaps.append(tag)
    refs: dict[str, tuple[int | None, str, int | None]] = {}
    seen_lists: set[str] = set()
    seen_manifests: set[str] = set()
    for s in snaps:
        schema = t.schema(s.schema_id)
        for name in (s.base_manifest_list, s.delta_manifest_list, s.changelog_manifest_list):
            if not name or name in seen_lists:
                continue
            seen_lists.add(name)
            refs[_norm(t.manifest_path(name))] = (None, "manifest-list", None)
            for meta in t.manifest_list(name):
                if meta.file_name in seen_manifests:
                    continue
                seen_manifests.add(meta.file_name)
                refs[_norm(t.manifest_path(meta.file_name))] = (meta.file_size, "manifest", None)
                for e in t.manifest(meta.file_name):
                    p = t.data_file_path(e, schema=t.schema(e.file.schema_id) if e.file.schema_id in t.schema_ids() else schema)
                    refs[_norm(p)] = (e.file.file_size, "data", e.file.row_count)
                    folder = p.rsplit("/", 1)[0]
                    for x in e.file.extra_files:
                        refs[_norm(f"{folder}/{x}")] = (None, "data", None)
        if s.index_manifest and s.index_manifest not in seen_lists:
            seen_lists.add(s.index_manifest)
            refs[_norm(t.manifest_path(s.index_manifest))] = (None, "manifest", None)
            for ie in t.index_manifest(s.index_manifest):
                refs[_norm(t.index_file_path(ie, schema))] = (ie.index_file.file_size, "delete", ie.index_file.row_count)
        if s.statistics:
            refs[_norm(f"{t.path.rstrip('/')}/statistics/{s.statistics}")] = (None, "statistics", None)
    return set(refs), refs


def _tags(t: Table) -> list[Snapshot]:
    from .meta import parse_snapshot

    out = []
    try:
        found = list_files([f"{t.path.rstrip('/')}/tag"])
    except SourceError:
        return []
    for p, _ in found:
        if p.rsplit("/", 1)[-1].startswith("tag-"):
            from .meta import _read_bytes

            out.append(parse_snapshot(_read_bytes(p), name=p))
    return out


def orphans(t: Table) -> list[Orphan]:
    """Files under the table no retained snapshot or tag references, and referenced files storage lacks."""
    root = t.path.rstrip("/")
    ref_set, refs = _referenced(t)
    on_storage: dict[str, tuple[str, int]] = {}
    for p, size in list_files([root]):
        rel = p[len(root) + 1 :] if p.startswith(root + "/") else p
        if rel.split("/", 1)[0] in _OWN:
            continue
        on_storage[_norm(p)] = (p, size)
    out = []
    for key, (p, on_disk) in sorted(on_storage.items()):
        if key not in ref_set:
            out.append(Orphan(path=p, size=on_disk, kind="unreferenced", role=_role(p, root)))
    latest = t.latest_snapshot_id()
    if latest is not None:
        live = {_norm(f.path) for f in state(t, latest).data_files}
        for key, (recorded, role, rows) in sorted(refs.items()):
            if key not in on_storage and (role != "data" or key in live) and key.startswith(_norm(root)):
                out.append(Orphan(path=key, size=recorded, kind="missing", role=role, rows=rows))
    return out


def _role(path: str, root: str) -> str:
    rel = path[len(root) + 1 :] if path.startswith(root + "/") else path
    top = rel.split("/", 1)[0]
    name = rel.rsplit("/", 1)[-1]
    if top == "manifest":
        return "manifest-list" if name.startswith("manifest-list") else "manifest"
    if top == "index":
        return "delete"
    return "data" if name.startswith("data-") or name.endswith((".parquet", ".orc", ".avro")) else "other"


def check(t: Table) -> list[FormatError]:
    """Every rule the latest snapshot breaks that lakestruct checks (``lakestruct scan`` of the table), as errors."""
    problems: list[FormatError] = []
    try:
        sid = t.latest_snapshot_id()
        if sid is not None:
            snap = t.snapshot(sid)
            t.deletion_vectors(snap)
    except FormatError as e:
        problems.append(e)
    except LakestructError as e:  # a file the metadata names cannot be read at all (missing, unreadable)
        problems.append(FormatError(str(e), rule="paimon.table.unreadable", path="", source=t.path))
    return problems
