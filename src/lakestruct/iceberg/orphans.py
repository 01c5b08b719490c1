"""Orphans of an Iceberg table: files under its root that nothing retained references (what Iceberg's
``remove_orphan_files`` would delete), and files the metadata references that storage lacks.

Referenced: the current metadata file, every ``metadata-log`` entry, ``metadata/version-hint.text``; for every
retained snapshot, its manifest list, each manifest it lists and every file of a live (ADDED or EXISTING) entry of
those manifests (data files, position and equality delete files, Puffin files of deletion vectors); every
``statistics`` and ``partition-statistics`` file. Hidden names (``.crc`` side files, ``_SUCCESS``) are not listed,
as Iceberg Java's listing skips them too.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass

from ..errors import LakestructError, SourceError
from ..source import list_files, open_source
from ..tables.model import Orphan
from .model import DataFileContent
from .table import Table, _is_url, _norm

__all__ = ["References", "add_metadata_refs", "find_orphans", "references"]


@dataclass
class _Ref:
    path: str  #: as the metadata names it
    role: str
    rows: int | None = None
    size: int | None = None


class References:
    """Every file the table's retained metadata references, by its resolved (readable) path, with what it is."""

    def __init__(self) -> None:
        self.by_path: dict[str, _Ref] = {}
        self.errors: list[LakestructError] = []

    def add(self, resolved: str, path: str, role: str, rows: int | None = None, size: int | None = None) -> None:
        key = _key(resolved)
        if key not in self.by_path:
            self.by_path[key] = _Ref(path, role, rows, size)


def _key(p: str) -> str:
    """One spelling per file: local paths normalized, ``memory:///x`` and ``memory://x`` alike."""
    if _is_url(p):
        scheme, _, rest = p.partition("://")
        return f"{scheme}://{rest.lstrip('/')}"
    return os.path.normpath(_norm(p))


def add_metadata_refs(t: Table, refs: References) -> None:
    """The metadata files (current and ``metadata-log``) and statistics files."""
    md = t.metadata
    refs.add(t.metadata_path, t.metadata_path, "metadata")
    for m in md.metadata_log:
        refs.add(t.resolve(m.metadata_file), m.metadata_file, "metadata")
    for s in md.statistics:
        refs.add(t.resolve(s.statistics_path), s.statistics_path, "statistics", size=s.file_size_in_bytes)
    for ps in md.partition_statistics:
        refs.add(t.resolve(ps.statistics_path), ps.statistics_path, "statistics", size=ps.file_size_in_bytes)


def references(t: Table) -> References:
    """Walk the retained metadata (a manifest read once even when several snapshots list it); a file that cannot
    be read is recorded in ``errors`` and its references are skipped."""
    refs = References()
    md = t.metadata
    add_metadata_refs(t, refs)
    seen_manifests: set[str] = set()
    for snap in md.snapshots:
        if snap.manifest_list is not None:
            refs.add(t.resolve(snap.manifest_list), snap.manifest_list, "manifest-list")
        try:
            manifests = t.manifest_list(snap)
        except LakestructError as err:
            refs.errors.append(err)
            continue
        for m in manifests:
            if m.manifest_path in seen_manifests:
                continue
            seen_manifests.add(m.manifest_path)
            refs.add(t.resolve(m.manifest_path), m.manifest_path, "manifest", size=m.manifest_length)
            try:
                for e in t.entries(m, live_only=True, metrics=False):  # paths, sizes and rows: no column metrics
                    df = e.data_file
                    role = "data" if df.content == DataFileContent.DATA else "delete"
                    rows = df.record_count if not df.is_deletion_vector else None
                    refs.add(t.resolve(df.file_path), df.file_path, role, rows=rows, size=df.file_size_in_bytes)
            except LakestructError as err:
                refs.errors.append(err)
    return refs


def _role(rel: str) -> str:
    name = posixpath.basename(rel)
    if rel.startswith("metadata/"):
        if name.endswith((".metadata.json", ".metadata.json.gz")) or name == "version-hint.text":
            return "metadata"
        if name.startswith("snap-") and name.endswith(".avro"):
            return "manifest-list"
        if name.endswith(".avro"):
            return "manifest"
        if name.endswith((".stats", ".puffin")):
            return "statistics"
        return "other"
    if rel.startswith("data/"):
        return "delete" if name.endswith(".puffin") or "delete" in name else "data"
    return "other"


def find_orphans(t: Table, refs: References | None = None, listing: list[tuple[str, int]] | None = None) -> list[Orphan]:
    """Unreferenced files under the table root (sorted by path), then referenced files storage lacks."""
    refs = references(t) if refs is None else refs
    listing = list_files([t.root]) if listing is None else listing
    root = t.root.rstrip("/")
    present: set[str] = set()
    out: list[Orphan] = []
    for path, size in listing:
        k = _key(path)
        present.add(k)
        rel = k[len(_key(root)) + 1 :] if k.startswith(_key(root) + "/") else k
        if posixpath.basename(rel) == "version-hint.text" and rel.startswith("metadata/"):
            continue
        if k not in refs.by_path:
            out.append(Orphan(path, size, "unreferenced", _role(rel.replace(os.sep, "/"))))
    under = _key(root) + "/"
    for k, r in sorted(refs.by_path.items()):
        if k in present:
            continue
        if k.startswith(under) or not _exists(k):
            out.append(Orphan(r.path, r.size, "missing", r.role, r.rows))
    return out


def _exists(path: str) -> bool:
    if not _is_url(path):
        return os.path.exists(path)
    try:
        open_source(path).close()
        return True
    except SourceError:
        return False
