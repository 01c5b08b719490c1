"""Every rule an Iceberg table's files can break, checked across files (``iceberg.*``, docs/rules.md).

:func:`check_table` never raises for what the table's files hold: each broken rule is a
:class:`~lakestruct.errors.FormatError` in the returned list, naming the file (``source``) and the field path. A
file that cannot be read at all is reported by the rule it breaks (``iceberg.manifest.*``, ``avro.*``,
``iceberg.file.missing``) and the checks that need it are skipped. Each distinct manifest is read once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import puffin
from ..errors import FormatError, LakestructError
from ..source import list_files, open_source
from .model import DataFileContent, EntryStatus, ManifestFile, Snapshot
from .orphans import References, _key, add_metadata_refs, find_orphans
from .puffins import PuffinBlobs
from .table import Table

__all__ = ["check_table"]

_LIST_COUNTS = (
    ("added_files_count", "files", EntryStatus.ADDED), ("existing_files_count", "files", EntryStatus.EXISTING),
    ("deleted_files_count", "files", EntryStatus.DELETED), ("added_rows_count", "rows", EntryStatus.ADDED),
    ("existing_rows_count", "rows", EntryStatus.EXISTING), ("deleted_rows_count", "rows", EntryStatus.DELETED),
)  # fmt: skip


def _err(msg: str, rule: str, path: str, source: str | None, offset: int | None = None) -> FormatError:
    return FormatError(msg, rule=rule, path=path, offset=offset, source=source)


@dataclass
class _ManifestTotals:
    """What one manifest holds live (ADDED + EXISTING), for the snapshot summaries."""

    data_files: int = 0
    records: int = 0
    delete_files: int = 0
    position_deletes: int = 0
    equality_deletes: int = 0
    position_delete_files: int = 0
    equality_delete_files: int = 0
    dv_files: list[str] = field(default_factory=list)  #: referenced data files of live DVs
    counts: dict[tuple[str, EntryStatus], int] = field(default_factory=dict)  #: ("files"|"rows", status) -> n
    spec_content: tuple[int, int] = (0, 0)  #: partition_spec_id and content of the list entry it was read with
    ok: bool = True


class _Checker:
    def __init__(self, t: Table) -> None:
        self.t = t
        self.md = t.metadata
        self.src = t.metadata_path
        self.problems: list[FormatError] = []
        self.seen: set[tuple[str, str | None, str]] = set()
        self.sizes: dict[str, int] = {}
        self.totals: dict[str, _ManifestTotals] = {}
        self.refs = References()
        self.puffins = PuffinBlobs()  #: Puffin footers of the DVs, each parsed once
        self.pos_read: set[str] = set()  #: position delete files read

    def add(self, e: LakestructError) -> None:
        if not isinstance(e, FormatError):
            e = _err(str(e), "iceberg.file.unreadable", "", None)
        key = (e.rule, e.source, e.path)
        if key not in self.seen:
            self.seen.add(key)
            self.problems.append(e)

    def size_of(self, resolved: str) -> int | None:
        k = _key(resolved)
        if k in self.sizes:
            return self.sizes[k]
        try:
            with open_source(resolved) as s:
                return s.size
        except LakestructError:
            return None

    # -- metadata JSON ------------------------------------------------------------------------------------------
    def metadata_rules(self) -> None:
        md, src = self.md, self.src
        ids = {s.snapshot_id: i for i, s in enumerate(md.snapshots)}
        if md.current_snapshot_id is not None and md.current_snapshot_id not in ids:
            self.add(_err(f"current-snapshot-id {md.current_snapshot_id} is not among the snapshots", "iceberg.metadata.current-snapshot",
                          "current-snapshot-id", src))
        for name, r in md.refs.items():
            if r.snapshot_id not in ids:
                self.add(_err(f"ref {name!r} names snapshot {r.snapshot_id}, which is not among the snapshots", "iceberg.metadata.ref",
                              f"refs.{name}.snapshot-id", src))
        if md.schema() is None:
            self.add(_err(f"current-schema-id {md.current_schema_id} names no schema", "iceberg.metadata.schema", "current-schema-id", src))
        if md.spec() is None:
            self.add(_err(f"default-spec-id {md.default_spec_id} names no partition spec", "iceberg.metadata.partition-spec",
                          "default-spec-id", src))
        by_id = {s.snapshot_id: s for s in md.snapshots}
        for i, s in enumerate(md.snapshots):
            # a cycle in parent-snapshot-id: walk up, at most as many steps as there are snapshots
            seen = {s.snapshot_id}
            p = s.parent_snapshot_id
            while p is not None and p in by_id:
                if p in seen:
                    self.add(_err(f"following parent-snapshot-id from snapshot {s.snapshot_id} comes back to snapshot {p}",
                                  "iceberg.snapshot.parent-cycle", f"snapshots[{i}].parent-snapshot-id", src))
                    break
                seen.add(p)
                p = by_id[p].parent_snapshot_id
            parent = by_id.get(s.parent_snapshot_id) if s.parent_snapshot_id is not None else None
            if md.format_version >= 2 and parent is not None and parent is not s and s.sequence_number <= parent.sequence_number:
                self.add(_err(f"sequence-number {s.sequence_number} is not greater than its parent {parent.snapshot_id}'s "
                              f"{parent.sequence_number}", "iceberg.snapshot.sequence-number", f"snapshots[{i}].sequence-number", src))
            if s.sequence_number > md.last_sequence_number:
                self.add(_err(f"sequence-number {s.sequence_number} is greater than last-sequence-number {md.last_sequence_number}",
                              "iceberg.metadata.last-sequence-number", f"snapshots[{i}].sequence-number", src))
        for i, e in enumerate(md.snapshot_log):
            if i and e.timestamp_ms < md.snapshot_log[i - 1].timestamp_ms:
                self.add(_err("snapshot-log timestamps go back in time", "iceberg.metadata.snapshot-log",
                              f"snapshot-log[{i}].timestamp-ms", src))

    # -- statistics files ---------------------------------------------------------------------------------------
    def statistics_rules(self) -> None:
        for i, s in enumerate(self.md.statistics):
            path = self.t.resolve(s.statistics_path)
            where = f"statistics[{i}]"
            size = self.size_of(path)
            if size is None:
                continue  # reported as iceberg.file.missing
            if size != s.file_size_in_bytes:
                self.add(_err(f"file-size-in-bytes is {s.file_size_in_bytes}, the file has {size} bytes", "iceberg.statistics.file-size",
                              f"{where}.file-size-in-bytes", self.src))
            try:
                with puffin.open(path) as pf:
                    footer = pf.footer.size
                    blobs = {(b.type, tuple(b.fields), b.snapshot_id) for b in pf.blobs}
            except FormatError as e:
                self.add(e.with_source(s.statistics_path))
                continue
            if footer != s.file_footer_size_in_bytes:
                self.add(_err(f"file-footer-size-in-bytes is {s.file_footer_size_in_bytes}, the Puffin footer has {footer} bytes",
                              "iceberg.statistics.footer-size", f"{where}.file-footer-size-in-bytes", self.src))
            for j, b in enumerate(s.blob_metadata):
                if (b.type, tuple(b.fields), b.snapshot_id) not in blobs:
                    self.add(_err(f"blob-metadata[{j}] ({b.type}, fields {list(b.fields)}) has no blob in the Puffin file",
                                  "iceberg.statistics.blob", f"{where}.blob-metadata[{j}]", self.src))
            if s.snapshot_id not in {x.snapshot_id for x in self.md.snapshots}:
                self.add(_err(f"snapshot-id {s.snapshot_id} is not among the snapshots", "iceberg.statistics.snapshot",
                              f"{where}.snapshot-id", self.src))
        for i, ps in enumerate(self.md.partition_statistics):
            size = self.size_of(self.t.resolve(ps.statistics_path))
            if size is not None and size != ps.file_size_in_bytes:
                self.add(_err(f"file-size-in-bytes is {ps.file_size_in_bytes}, the file has {size} bytes", "iceberg.statistics.file-size",
                              f"partition-statistics[{i}].file-size-in-bytes", self.src))

    # -- manifests ----------------------------------------------------------------------------------------------
    def snapshot_rules(self, si: int, snap: Snapshot) -> None:
        t = self.t
        if snap.manifest_list is not None:
            self.refs.add(t.resolve(snap.manifest_list), snap.manifest_list, "manifest-list")
        try:
            manifests = t.manifest_list(snap)
        except LakestructError as e:
            self.add(e)
            return
        ml = snap.manifest_list
        for mi, m in enumerate(manifests):
            where = f"manifests[{mi}]"
            if m.sequence_number > snap.sequence_number:
                self.add(_err(f"sequence_number {m.sequence_number} is greater than its snapshot's {snap.sequence_number}",
                              "iceberg.manifest-list.sequence-number", f"{where}.sequence_number", ml))
            if m.min_sequence_number > m.sequence_number:
                self.add(_err(f"min_sequence_number {m.min_sequence_number} is greater than sequence_number {m.sequence_number}",
                              "iceberg.manifest-list.sequence-number", f"{where}.min_sequence_number", ml))
            if m.manifest_path not in self.totals:
                self.totals[m.manifest_path] = self.manifest_rules(m, where, ml)
            got = self.totals[m.manifest_path]
            if got.ok and (m.partition_spec_id, m.content) != got.spec_content:  # the manifest's header agreed with the first
                other = f"for {m.manifest_path}, another list of the table (and the manifest) says otherwise"
                if m.partition_spec_id != got.spec_content[0]:
                    self.add(_err(f"manifest list {ml} says partition-spec-id {m.partition_spec_id} {other}",
                                  "iceberg.manifest.partition-spec-id", "metadata[partition-spec-id]", m.manifest_path))
                else:
                    self.add(_err(f"manifest list {ml} says content {m.content} {other}", "iceberg.manifest.content", "metadata[content]",
                                  m.manifest_path))
            size = self.size_of(t.resolve(m.manifest_path)) if ml is not None else None
            if size is not None and size != m.manifest_length:
                self.add(_err(f"manifest_length is {m.manifest_length}, the manifest has {size} bytes", "iceberg.file-size",
                              f"{where}.manifest_length", ml))
            if ml is not None and got.ok:  # every list that names the manifest, against its entries
                for key, kind, st in _LIST_COUNTS:
                    v = getattr(m, key)
                    if v is not None and v != got.counts[(kind, st)]:
                        self.add(_err(f"{key} is {v}, the manifest has {got.counts[(kind, st)]}", "iceberg.manifest-list.counts",
                                      f"{where}.{key}", ml))
        tot = [self.totals[m.manifest_path] for m in manifests]
        if not all(x.ok for x in tot):
            return
        # one deletion vector per data file per snapshot
        dv_seen: dict[str, int] = {}
        for x in tot:
            for ref in x.dv_files:
                dv_seen[ref] = dv_seen.get(ref, 0) + 1
        for ref, n in sorted(dv_seen.items()):
            if n > 1:
                self.add(_err(f"{n} live deletion vectors for data file {ref!r} (at most one per data file)",
                              "iceberg.dv.one-per-data-file",
                              f"snapshots[{si}]", self.src))
        summary = snap.summary
        have = {
            "total-data-files": sum(x.data_files for x in tot), "total-records": sum(x.records for x in tot),
            "total-delete-files": sum(x.delete_files for x in tot), "total-position-deletes": sum(x.position_deletes for x in tot),
            "total-equality-deletes": sum(x.equality_deletes for x in tot),
        }  # fmt: skip
        for key, n in have.items():
            v = summary.get(key)
            if v is None or not v.lstrip("-").isdigit():
                continue
            if int(v) != n:
                self.add(_err(f"summary {key} is {v}, the snapshot's manifests hold {n}", "iceberg.snapshot.summary-totals",
                              f"snapshots[{si}].summary.{key}", self.src))

    def manifest_rules(self, m: ManifestFile, where: str, ml: str | None) -> _ManifestTotals:
        t = self.t
        tot = _ManifestTotals()
        resolved = t.resolve(m.manifest_path)
        self.refs.add(resolved, m.manifest_path, "manifest", size=m.manifest_length)
        size = self.size_of(resolved)
        if size is None:
            tot.ok = False
            return tot
        counts = {(k, s): 0 for k in ("files", "rows") for s in EntryStatus}
        try:
            for ei, e in enumerate(t.entries(m)):
                df = e.data_file
                st = EntryStatus(e.status)
                counts[("files", st)] += 1
                counts[("rows", st)] += df.record_count
                epath = f"entries[{ei}]"
                if e.sequence_number is not None and e.file_sequence_number is not None and e.sequence_number > e.file_sequence_number:
                    self.add(_err(f"data sequence number {e.sequence_number} is greater than the file sequence number "
                                  f"{e.file_sequence_number}", "iceberg.manifest.sequence-number", f"{epath}.sequence_number",
                                  m.manifest_path))
                if e.file_sequence_number is not None and ml is not None and e.file_sequence_number > m.sequence_number:
                    self.add(_err(f"file sequence number {e.file_sequence_number} is greater than the manifest's {m.sequence_number}",
                                  "iceberg.manifest.sequence-number", f"{epath}.file_sequence_number", m.manifest_path))
                if st == EntryStatus.DELETED:
                    continue
                fres = t.resolve(df.file_path)
                role = "data" if df.content == DataFileContent.DATA else "delete"
                self.refs.add(fres, df.file_path, role, rows=None if df.is_deletion_vector else df.record_count, size=df.file_size_in_bytes)
                fsize = self.size_of(fres)
                if fsize is not None and fsize != df.file_size_in_bytes:
                    self.add(_err(f"file_size_in_bytes is {df.file_size_in_bytes}, {df.file_path} has {fsize} bytes", "iceberg.file-size",
                                  f"{epath}.data_file.file_size_in_bytes", m.manifest_path))
                if df.content == DataFileContent.DATA:
                    tot.data_files += 1
                    tot.records += df.record_count
                    continue
                tot.delete_files += 1
                if df.content == DataFileContent.EQUALITY_DELETES:
                    tot.equality_deletes += df.record_count
                    continue
                tot.position_deletes += df.record_count
                if df.is_deletion_vector:
                    tot.dv_files.append(df.referenced_data_file or "")
                    if fsize is not None:
                        self.dv_rules(m.manifest_path, epath, fres, df.file_path, df.content_offset or 0, df.content_size_in_bytes or 0,
                                      df.record_count, df.referenced_data_file)
                elif fsize is not None and df.file_format == "parquet" and fres not in self.pos_read:
                    self.pos_read.add(fres)
                    self.position_delete_rules(m.manifest_path, epath, fres, df.file_path, df.record_count)
        except LakestructError as e:
            self.add(e)
            tot.ok = False
            return tot
        tot.counts = counts
        tot.spec_content = (m.partition_spec_id, m.content)
        return tot

    def position_delete_rules(self, manifest: str, epath: str, resolved: str, path: str, record_count: int) -> None:
        """A position delete file read whole (lakestruct's Parquet reader): its rows, against the entry's record_count."""
        from .table import read_position_deletes

        try:
            rows = sum(int(v.size) for v in read_position_deletes(resolved, name=path).values())
        except FormatError as e:
            self.add(e.with_source(path))
            return
        if rows != record_count:
            self.add(_err(f"record_count is {record_count}, the position delete file holds {rows} rows",
                          "iceberg.position-deletes.record-count", f"{epath}.data_file.record_count", manifest))

    def dv_rules(self, manifest: str, epath: str, resolved: str, path: str, offset: int, length: int, record_count: int,
                 ref: str | None) -> None:
        p = f"{epath}.data_file"
        if ref is None:
            self.add(_err("a deletion vector without referenced_data_file", "iceberg.dv.referenced-data-file",
                          f"{p}.referenced_data_file", manifest))
        try:  # each Puffin file's footer is parsed once for the whole check (self.puffins)
            hit = self.puffins.find(resolved, offset, length)
            if hit is None:
                blobs = ", ".join(f"{b.type}@{b.offset}+{b.length}" for b in self.puffins.footer(resolved).blobs[:8]) or "none"
                self.add(_err(f"content_offset {offset} / content_size_in_bytes {length} is no blob of {path} (blobs: {blobs})",
                              "iceberg.dv.content-range", f"{p}.content_offset", manifest))
                return
            i, blob = hit
            bref = blob.properties.get("referenced-data-file")
            if ref is not None and bref != ref:
                self.add(_err(f"referenced_data_file is {ref!r}, the Puffin blob's referenced-data-file is {bref!r}",
                              "iceberg.dv.referenced-data-file", f"{p}.referenced_data_file", manifest))
            card = blob.properties.get("cardinality")
            if card is not None and card != str(record_count):
                self.add(_err(f"record_count is {record_count}, the Puffin blob's cardinality property is {card}",
                              "iceberg.dv.cardinality", f"{p}.record_count", manifest))
            dv = self.puffins.dv_at(resolved, i)
            if dv.cardinality != record_count:
                self.add(_err(f"record_count is {record_count}, the deletion vector holds {dv.cardinality} positions",
                              "iceberg.dv.cardinality", f"{p}.record_count", manifest))
        except FormatError as e:
            self.add(e.with_source(path))


def check_table(t: Table) -> list[FormatError]:
    """Every rule the table breaks: metadata JSON, snapshots, manifest lists, manifests, deletion vectors, file
    sizes, statistics files and referenced files missing from storage."""
    c = _Checker(t)
    try:
        listing = list_files([t.root])
    except LakestructError:
        listing = []
    c.sizes = {_key(p): s for p, s in listing}
    try:
        c.metadata_rules()
        c.statistics_rules()
        for si, snap in enumerate(t.metadata.snapshots):
            c.snapshot_rules(si, snap)
        # referenced files storage lacks (the references the checks above collected, each manifest read once)
        add_metadata_refs(t, c.refs)
        for o in find_orphans(t, c.refs, listing):
            if o.kind == "missing":
                c.add(_err(f"the metadata references {o.path} ({o.role}), which storage lacks", "iceberg.file.missing", "file",
                           t.metadata_path))
    except LakestructError as e:  # pragma: no cover - every step above records its own errors
        c.add(e)
    finally:
        c.puffins.close()
    return c.problems

