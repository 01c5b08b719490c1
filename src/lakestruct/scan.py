"""Find the lake files lakestruct understands and check them: the one code path behind
``lakestruct scan``, the Spark inventory's ``files`` table and ``lakestruct validate``.

``detect(path)`` names a file's format from its first and last bytes; ``check_file(path, fmt)``
runs that format's checks with the library's own readers and returns a :class:`ScanResult`
(never raises for malformed input: the broken rule, offset and field path are in the result).
``validate_file(path, fmt, deep=...)`` runs the same checks and also returns every
:class:`Finding` (each broken rule, and the discrepancies the readers tolerate as warnings);
``deep=True`` also decodes every Parquet page's levels and values (``lakestruct validate --deep``).

Formats (``ScanResult.format``) and how ``detect`` recognises them, in this order:

==============  =====================================================================================
``puffin``      ``PFA1`` at the start or the end
``parquet``     ``PAR1``/``PARE`` at the start or the end (an encrypted file is reported as not
                readable without keys, and is not a failure)
``dv-file``     a Delta Lake or Paimon deletion-vector file: version byte 1, then an entry whose
                magic (bytes 5-8) is ``D1 D3 39 64`` (64-bit) or ``5E 43 F2 D0`` (Paimon 32-bit)
``dv-blob``     a bare Iceberg ``deletion-vector-v1`` blob: a big-endian length equal to the file
                size minus 8, then ``D1 D3 39 64``
``theta``       a DataSketches compact Theta sketch: family id 3 (byte 2), serial version 1-4
                (byte 1) and preamble longs that version allows (byte 0, bits 0-5)
``roaring32``   a 32-bit portable Roaring bitmap: cookie 12346 (``3A 30 00 00``) or 12347 (``3B 30``)
``roaring64``   a 64-bit portable Roaring bitmap: it has no magic (see below)
==============  =====================================================================================

``delta-table`` is a Delta Lake table directory (a local folder holding ``_delta_log/``), checked with
``delta.open_table(path).check()`` (docs/delta.md) and yielded by :func:`walk` as Paimon tables are.

``paimon-table`` is a Paimon table directory, not a file: a local folder holding ``schema/`` and
``snapshot/``, checked by reading its latest snapshot (``paimon.open_table``: manifests, live data
files, every deletion vector, the heads of the data files' indexes; with ``deep``, their payloads).
Paimon's deletion-vector index files (``index/index-*``) are recognised as ``dv-file`` when they hold
at least one vector. :func:`walk` yields a Paimon table directory named among its paths (or, with
``nested_tables=True``, every one it meets) before the files under it, which are still yielded one by
one (the Spark ``lake_files`` source checks files only).

Weak signatures. Puffin, Parquet, the DV formats and Roaring cookie 12346 have four or more fixed
bytes: a match is checked, and reported as failing when it breaks a rule. Three signatures are
weak enough to occur by chance in other files, so a file that breaks a rule would be wrongly
reported: the Theta preamble (three small bytes), Roaring cookie 12347 (two bytes) and Roaring64
(no magic at all; only a little-endian bucket count that must be plausible: ``8 + 12 * count <=
size``, or an 8-byte file of count 0). They are taken

- by file name: ``*.sk`` for Theta, ``*.bin`` and ``*.roaring`` for Roaring (as the DataSketches,
  CRoaring and Iceberg test files are named); then the file is checked like any other and may fail;
- under any other name only when the file is one, whole: a Theta sketch that reads without error,
  or a Roaring bitmap whose structure checks end exactly at the end of the file (and, for
  Roaring64, whose first bucket starts with a 32-bit cookie). Such files are at most
  :data:`VERIFY_LIMIT` bytes; larger ones are not taken.

Not recognised at all: files too small to carry any signature (under 4 bytes, a Roaring64 file
under 8 bytes or with an implausible bucket count) and a Paimon index file with no entries (the
single version byte 1). Each file is opened twice, once by ``detect`` (two small range reads, or
the whole file for a weak signature under another name) and once by ``check_file``. A table directory
costs ``detect`` two ``stat`` calls; a plain file one more than before (``os.path.isdir``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from . import deletes, parquet, puffin, roaring, sketches
from .deletes.read import PAIMON_MAGIC32
from .errors import FormatError, LakestructError, SourceError
from .parquet.assembly import leaf_chains, leaf_converter, schema_tree
from .parquet.model import Type
from .parquet.values import DecodeBudget, chunk_spec, iter_chunk
from .puffin.decode import check_blobs
from .roaring.read import CHECK_MAX_POSITIONS
from .sketches.read import PRE_LONGS_BY_VERSION
from .source import ByteSource, list_files, open_source

__all__ = [
    "DIRECTORY_FORMATS",
    "FORMATS",
    "MAX_FINDINGS",
    "VERIFY_LIMIT",
    "FileReport",
    "Finding",
    "ScanResult",
    "check_file",
    "detect",
    "detect_source",
    "is_delta_table",
    "is_iceberg_table",
    "is_paimon_table",
    "validate_file",
    "walk",
]

#: Every value ``detect`` returns for a file (and ``ScanResult.format`` holds).
FORMATS = ("puffin", "parquet", "dv-file", "dv-blob", "theta", "roaring32", "roaring64")
#: What ``detect`` returns for a directory it recognises (a Paimon table).
DIRECTORY_FORMATS = ("paimon-table", "iceberg-table", "delta-table")
#: Largest file a weak signature is verified on by reading it whole (other names than *.sk, *.bin, *.roaring).
VERIFY_LIMIT = 64 << 20
#: Most findings (errors and warnings) :func:`validate_file` reports for one file; the rest are counted.
MAX_FINDINGS = 100
#: The decoding bounds of the Parquet data layer: once one is reached, deep validation of the file stops.
_BUDGET_RULES = ("parquet.values.count-limit", "parquet.values.size-limit")

_ROARING_NAMES = (".bin", ".roaring")
_THETA_NAMES = (".sk",)
_COOKIE_NO_RUNS = (12346).to_bytes(4, "little")  # 3A 30 00 00
_COOKIE_RUNS = (12347).to_bytes(2, "little")  # 3B 30, then the container count - 1
_HEAD = 16


@dataclass(frozen=True)
class ScanResult:
    path: str
    format: str
    ok: bool
    summary: str
    rule: str | None = None
    offset: int | None = None
    field_path: str | None = None


@dataclass(frozen=True)
class Finding:
    """One rule a file breaks (or, when ``warning``, a discrepancy the readers tolerate)."""

    rule: str | None  # None: the bytes could not be read at all (a SourceError)
    offset: int | None
    field_path: str | None
    message: str
    warning: bool = False


@dataclass(frozen=True)
class FileReport:
    """What :func:`validate_file` found: the :class:`ScanResult` ``scan`` prints and every finding
    (errors first, in the order met, then warnings; at most :data:`MAX_FINDINGS`, ``more`` counts the rest)."""

    result: ScanResult
    findings: tuple[Finding, ...]
    more: int = 0

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if not f.warning)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.warning)


def is_paimon_table(path: str) -> bool:
    """Whether ``path`` is a local directory holding ``schema/`` and ``snapshot/`` (a Paimon table)."""
    p = os.fspath(path)
    p = p[len("file://") :] if p.startswith("file://") else p
    if "://" in p:
        return False
    return os.path.isdir(os.path.join(p, "snapshot")) and os.path.isdir(os.path.join(p, "schema"))


def detect(path: str) -> str | None:
    """The format of a file from its first and last bytes (one of :data:`FORMATS`), or None; ``paimon-table``
    (:data:`DIRECTORY_FORMATS`) for a Paimon table directory."""
    if os.path.isdir(path):
        return ("paimon-table" if is_paimon_table(path) else "iceberg-table" if is_iceberg_table(path)
                else "delta-table" if is_delta_table(path) else None)
    try:
        with open_source(path) as src:
            return detect_source(src, path)
    except LakestructError:
        if _is_object_url(os.fspath(path)):
            return _url_table(os.fspath(path))  # not an object: maybe a table's root (a prefix) on object storage
        return None


def detect_source(src: ByteSource, path: str) -> str | None:
    """:func:`detect` of the file ``path`` already open as ``src`` (a reader that goes on to read it opens it once;
    ``src`` stays open). Raises the source's error when its bytes cannot be read."""
    size = src.size
    if size < 4:  # on object storage a table's root (a prefix) may open as an empty object
        return _url_table(os.fspath(path)) if _is_object_url(os.fspath(path)) else None
    head = src.read(0, min(size, _HEAD))
    tail = src.read(size - 4, 4)
    data: bytes | None = None
    for fmt, verify in _candidates(head, tail, size, os.fspath(path).lower()):
        if not verify:
            return fmt
        if size > VERIFY_LIMIT:
            continue
        data = src.read(0, size) if data is None else data
        if _is_whole(fmt, data):
            return fmt
    return None


#: table formats scan recognises under an fsspec URL (their rooms open URLs)
_URL_TABLES = ("iceberg", "delta")


def _is_object_url(p: str) -> bool:
    return "://" in p and not p.startswith("file://")


def _url_table(url: str) -> str | None:
    from . import tables  # imported on first use

    fmt = tables.detect(url)
    return f"{fmt}-table" if fmt in _URL_TABLES else None


def _candidates(head: bytes, tail: bytes, size: int, name: str) -> Iterator[tuple[str, bool]]:
    """The formats the signature allows, in order: (format, whether to verify by reading the whole file)."""
    if head[:4] == puffin.MAGIC or tail == puffin.MAGIC:
        yield "puffin", False
    if head[:4] in (parquet.MAGIC, parquet.MAGIC_ENCRYPTED) or tail in (parquet.MAGIC, parquet.MAGIC_ENCRYPTED):
        yield "parquet", False
    if head[:1] == b"\x01" and head[5:9] in (deletes.MAGIC, PAIMON_MAGIC32):
        yield "dv-file", False
    if size >= 12 and int.from_bytes(head[:4], "big") == size - 8 and head[4:8] == deletes.MAGIC:
        yield "dv-blob", False
    if size >= 8 and head[2] == 3 and head[1] in PRE_LONGS_BY_VERSION and head[0] & 0x3F in PRE_LONGS_BY_VERSION[head[1]]:
        yield "theta", not name.endswith(_THETA_NAMES)
    if head[:4] == _COOKIE_NO_RUNS:
        yield "roaring32", False
    if head[:2] == _COOKIE_RUNS:
        yield "roaring32", not name.endswith(_ROARING_NAMES)
    if size >= 8:
        count = int.from_bytes(head[:8], "little")
        plausible = size == 8 if count == 0 else 8 + 12 * count <= size
        if plausible and name.endswith(_ROARING_NAMES):
            yield "roaring64", False
        elif plausible and count and (head[12:16] == _COOKIE_NO_RUNS or head[12:14] == _COOKIE_RUNS):
            yield "roaring64", True


def _is_whole(fmt: str, data: bytes) -> bool:
    """Whether ``data`` is one whole ``fmt`` file: its structure checks pass and end at its last byte."""
    try:
        if fmt == "theta":
            sketches.ThetaSketch.from_bytes(data, seed=None)
        elif fmt == "roaring32":
            roaring.describe_roaring32(data)
        elif fmt == "roaring64":
            roaring.describe_roaring64(data)
        else:  # pragma: no cover - only weak signatures are verified
            raise ValueError(fmt)
    except LakestructError:
        return False
    return True


def check_file(path: str, fmt: str, *, deep: bool = False, max_positions: int | None = CHECK_MAX_POSITIONS) -> ScanResult:
    """Run every check of ``fmt`` on ``path``; malformed input becomes a failed result (the first
    rule broken). ``deep``, ``max_positions``: see :func:`validate_file`."""
    return validate_file(path, fmt, deep=deep, max_positions=max_positions).result


def validate_file(path: str, fmt: str, *, deep: bool = False, max_positions: int | None = CHECK_MAX_POSITIONS) -> FileReport:
    """Run every check of ``fmt`` on ``path`` and report every finding; never raises for malformed input.

    Without ``deep`` these are ``scan``'s checks: one reader call per format, so at most one error
    (the first rule broken), plus the Parquet warnings met. With ``deep``, a Parquet file is also
    decoded: every page of every column chunk (levels, values, dictionary pages, decompression)
    under one :class:`~lakestruct.parquet.values.DecodeBudget` for the whole file, and every leaf's
    annotation checked; a chunk that breaks a rule is reported and the others are still decoded
    (the same rule at the same offset is reported once). Other formats are decoded whole either way
    (Puffin: every blob, deletion vectors and Theta sketches decoded and held to their metadata).

    ``max_positions`` bounds the deleted positions (and Roaring values) decoded per file, all vectors together
    (``roaring.max-positions``): :data:`~lakestruct.roaring.CHECK_MAX_POSITIONS` (2^24), the cap of ``deletes show``
    and every other command; ``None`` lifts it.
    """
    found: list[Finding] = []
    try:
        summary = _check(path, fmt, deep, found, max_positions)
    except parquet.EncryptedError as e:
        text = f"not readable without keys: {e.message}"
        note = Finding(e.rule, e.offset, e.path, text, warning=True)
        return FileReport(ScanResult(path, "parquet", True, text, e.rule, e.offset, e.path), (note,))
    except FormatError as e:
        found.insert(0, _finding(e))
    except LakestructError as e:  # the bytes could not be read (a missing file, a failed range read)
        found.insert(0, Finding(None, None, None, str(e)))
    errors = [f for f in found if not f.warning]
    warnings = [f for f in found if f.warning]
    findings = (errors + warnings)[:MAX_FINDINGS]
    more = len(found) - len(findings)
    if not errors:
        return FileReport(ScanResult(path, fmt, True, summary), tuple(findings), more)
    first = errors[0]
    if first.rule is None:
        return FileReport(ScanResult(path, fmt, False, first.message), tuple(findings), more)
    where = f"offset {first.offset}" if first.offset is not None else "offset unknown"
    text = f"{first.rule} at {where} ({first.field_path}): {first.message}"
    if len(errors) > 1:
        text += f" (and {len(errors) - 1} more error(s))"
    return FileReport(ScanResult(path, fmt, False, text, first.rule, first.offset, first.field_path), tuple(findings), more)


def _finding(e: FormatError, *, warning: bool = False) -> Finding:
    return Finding(e.rule, e.offset, e.path, e.message, warning)


def _check(path: str, fmt: str, deep: bool, found: list[Finding], max_positions: int | None = CHECK_MAX_POSITIONS) -> str:
    """Run the checks of ``fmt`` and return the summary of what the file holds. The first rule
    broken is raised, except in a deep Parquet check, which appends every error to ``found``
    (and returns); warnings are appended to ``found``."""
    if fmt == "parquet":
        return _check_parquet(path, deep, found)
    if fmt == "puffin":
        with puffin.open(path) as r:
            r.check_header()
            check_blobs(r, max_positions=max_positions)  # = r.check(), under the one cap
            kinds: dict[str, int] = {}
            for b in r.blobs:
                kinds[b.type] = kinds.get(b.type, 0) + 1
            desc = ", ".join(f"{n} {t}" for t, n in kinds.items()) or "no blobs"
            return f"{len(r.blobs)} blob(s): {desc}"
    if fmt == "dv-file":
        entries = deletes.read_paimon_deletion_vectors(path, max_positions=max_positions)
        bits = ", ".join(f"{sum(e.bits == b for e in entries)} {b}-bit" for b in (64, 32) if any(e.bits == b for e in entries))
        rows = sum(e.vector.cardinality for e in entries)
        return f"Delta/Paimon DV file: {len(entries)} deletion vector(s) ({bits}), {rows} deleted rows"
    if fmt == "dv-blob":
        dv = deletes.DeletionVector.from_blob(_read_all(path), max_positions=max_positions)
        return f"deletion-vector-v1 blob: {dv.cardinality} deleted rows"
    if fmt == "theta":
        sk = sketches.ThetaSketch.from_bytes(path, seed=None)
        mode = f"theta {sk.theta:.6g}" if sk.is_estimation_mode else "exact"
        summary = (f"compact Theta sketch, serial version {sk.serial_version}: {sk.num_retained} retained, {mode}, "
                   f"estimate {sk.estimate():.6g}")
        if not sk.empty and sk.seed_hash != sketches.DEFAULT_SEED_HASH:
            summary += f"; seed hash 0x{sk.seed_hash:04x} (not the default seed's)"
        return summary
    if fmt == "iceberg-table":
        return _check_iceberg_table(path, found)
    if fmt == "delta-table":
        return _check_delta_table(path, found)
    if fmt == "paimon-table":
        return _check_paimon_table(path, deep, max_positions)
    if fmt in ("roaring32", "roaring64"):
        data = _read_all(path)
        values: np.ndarray = (roaring.decode_roaring32(data, max_positions=max_positions) if fmt == "roaring32"
                              else roaring.decode_roaring64(data, max_positions=max_positions))
        span = f" in [{int(values[0])}, {int(values[-1])}]" if values.size else ""
        return f"{fmt[-2:]}-bit portable Roaring bitmap: {values.size} values{span}"
    raise ValueError(f"unknown format {fmt!r}")


def _check_paimon_table(path: str, deep: bool, max_positions: int | None = CHECK_MAX_POSITIONS) -> str:
    """The latest snapshot of a Paimon table read whole: schema, manifest lists, manifests (ADD/DELETE merged), the
    index manifest, every deletion vector (CRC, ranges, cardinalities, positions below the row counts) and the head
    of every data file's index; with ``deep``, the index payloads too (bloom filters, bitmaps decoded and checked,
    BSIs). A rule broken in one of the table's files names that file in the message."""
    if not is_paimon_table(path):
        raise SourceError(f"{path}: not a Paimon table directory (no schema/ and snapshot/ folders)")
    from . import paimon  # imported on first use: detect and the other formats do not need it

    t = paimon.open_table(path)
    try:
        sid = t.latest_snapshot_id()
        if sid is None:
            return f"Paimon table, no snapshot ({len(t.schema_ids())} schema(s))"
        snap = t.snapshot(sid)
        live = t.live_files(snap)
        dvs = t.deletion_vectors(snap, max_positions=max_positions)
        indexed = 0
        for f in live:
            fi = t.file_index(f)
            if fi is None:
                continue
            indexed += 1
            if deep:
                names = {x.name for x in t.schema(f.file.schema_id).fields}
                for ref in fi.indexes:
                    t_col = t.column_type(f, ref.column) if ref.column in names else None
                    if t_col is None or not paimon.indexes.indexes_type(ref.type, t_col):
                        continue
                    try:
                        reader = fi.reader(ref, t_col, row_count=f.row_count)
                        if isinstance(reader, paimon.BitmapIndex):
                            reader.check()
                    except FormatError as e:
                        raise e.with_source(t.file_index_source(f)) from None
    except FormatError as e:
        if e.source and e.source != path:
            where = e.source[len(path.rstrip("/")) + 1 :] if e.source.startswith(path.rstrip("/") + "/") else e.source
            e.message = f"{where}: {e.message}"
        raise
    rows = sum(f.row_count for f in live)
    deleted = sum(int(p.size) for p in dvs.values())
    return (f"Paimon table: snapshot {snap.id}, {len(live)} live data file(s), {rows} rows, {len(dvs)} deletion vector(s) "
            f"({deleted} deleted rows), {indexed} data file index(es)")


def is_iceberg_table(path: str) -> bool:
    """Whether ``path`` is a local directory whose ``metadata/`` holds a ``*.metadata.json`` (an Iceberg table)."""
    p = os.fspath(path)
    p = p[len("file://") :] if p.startswith("file://") else p
    if "://" in p:
        return False
    meta = os.path.join(p, "metadata")
    if not os.path.isdir(meta):
        return False
    try:
        return any(n.endswith((".metadata.json", ".metadata.json.gz")) for n in os.listdir(meta))
    except OSError:
        return False


def _check_iceberg_table(path: str, found: list[Finding]) -> str:
    """An Iceberg table checked as a table (``iceberg.open_table(path).check()``: metadata, every retained snapshot's
    manifest list and manifests, deletion vectors, file sizes, statistics files, files missing); each broken rule is
    a finding whose message starts with the table file it is in."""
    from . import iceberg  # imported on first use

    t = iceberg.open_table(path)
    problems = t.check()
    root = path.rstrip("/") + "/"
    for e in problems:
        src = e.source or ""
        where = src[len(root):] if src.startswith(root) else src
        found.append(Finding(e.rule, e.offset, e.path, f"{where}: {e.message}" if where else e.message))
    md = t.metadata
    if md.current_snapshot_id is None or problems:
        return f"Iceberg table v{md.format_version}, {len(md.snapshots)} snapshot(s)"
    st = t.state()
    return (f"Iceberg table v{md.format_version}: snapshot {st.snapshot_id}, {len(st.data_files)} live data file(s), "
            f"{st.record_count} rows, {st.deleted_rows} deleted, {len(st.delete_files)} live delete file(s)")


def is_delta_table(path: str) -> bool:
    """Whether ``path`` is a local directory holding a ``_delta_log/`` folder (a Delta table)."""
    p = os.fspath(path)
    p = p[len("file://") :] if p.startswith("file://") else p
    return "://" not in p and os.path.isdir(os.path.join(p, "_delta_log"))


def _check_delta_table(path: str, found: list[Finding]) -> str:
    """A Delta table checked as a table (``delta.open_table(path).check()``: every commit's actions, the checkpoint and
    sidecars replay starts from, compactions, ``_last_checkpoint``, every live deletion vector decoded and held to its
    descriptor); each broken rule is a finding whose message starts with the log file it is in."""
    from . import delta  # imported on first use

    t = delta.open_table(path)
    problems = t.check()
    root = path.rstrip("/") + "/"
    for e in problems:
        src = e.source or ""
        where = src[len(root) :] if src.startswith(root) else src
        found.append(Finding(e.rule, e.offset, e.path, f"{where}: {e.message}" if where else e.message))
    if problems:
        return f"Delta table, version {t.latest_version}"
    st = t.state(read_dvs=False)
    dvs = sum(1 for f in st.data_files if f.deletes)
    return (f"Delta table: version {st.snapshot_id}, {len(st.data_files)} live data file(s), {st.record_count} rows, "
            f"{dvs} deletion vector(s)")


def _read_all(path: str) -> bytes:
    with open_source(path) as src:
        return src.read(0, src.size)


def _check_parquet(path: str, deep: bool, found: list[Finding]) -> str:
    """Footer, schema and every page header (``check()``); with ``deep``, every page decoded too.
    Encrypted files raise :class:`~lakestruct.parquet.EncryptedError` (reported, not failed)."""
    with parquet.open(path) as pq:
        seen: set[tuple[str, int | None]] = set()

        def report(e: FormatError) -> None:
            if (e.rule, e.offset) not in seen:
                seen.add((e.rule, e.offset))
                found.append(_finding(e))

        n_pages: int | None = None
        try:
            n_pages = pq.check()
        except parquet.EncryptedError:
            raise
        except FormatError as e:
            if not deep:
                raise
            report(e)
        md = pq.metadata
        done = _decode_parquet(pq, report) if deep else ""
        for w in pq.warnings:  # a chunk walked twice (check, then decoding) records its warning twice
            if (w.rule, w.offset) not in seen:
                seen.add((w.rule, w.offset))
                found.append(_finding(w, warning=True))
        pages = "" if n_pages is None else f", {n_pages} pages"
        note = f"; {len(pq.warnings)} warning(s): {pq.warnings[0].rule}" if pq.warnings else ""
        return f"{md.num_rows} rows, {len(md.row_groups)} row group(s), {len(pq.columns())} column(s){pages}{done}{note}"


def _decode_parquet(pq: parquet.ParquetFile, report: Callable[[FormatError], None]) -> str:
    """Decode every column chunk, row group by row group, under one budget; report what breaks.
    Returns the summary's addition (values decoded)."""
    budget = DecodeBudget()
    leaves = pq.columns()
    try:
        chains = leaf_chains(schema_tree(pq.metadata.schema))
    except FormatError as e:
        e.offset = pq.footer.offset if e.offset is None else e.offset
        report(e)
        chains = []

    def warn(w: FormatError) -> None:
        w.offset = pq.footer.offset
        if not any((x.rule, x.path) == (w.rule, w.path) for x in pq.warnings):
            pq.warnings.append(w)

    for chain in chains:
        try:
            leaf_converter(chain[-1], warn)
        except FormatError as e:
            e.offset = pq.footer.offset if e.offset is None else e.offset
            report(e)
    values = 0
    known = [i for i, leaf in enumerate(leaves) if isinstance(leaf.physical_type, Type)]  # check() names the others
    for rg in range(pq.num_row_groups):
        for col in known:
            try:
                spec = chunk_spec(pq, rg, col)
                for page in iter_chunk(spec, pq.source.read, budget=budget):
                    if page.type in (0, 3):
                        values += page.num_values
            except FormatError as e:
                report(e)
                if e.rule in _BUDGET_RULES:
                    return f", decoding stopped at row group {rg}, column {col}"
    return f", {values} values decoded"


def _regular(path: str) -> bool:
    """Whether ``path`` is a regular file (following symbolic links); False for FIFOs, sockets and devices."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return os.path.lexists(path)  # a file that vanished or cannot be stat'ed: the check says so


def walk(paths: list[str], *, nested_tables: bool = False) -> Iterator[str]:
    """Every file under ``paths`` (directories recursively, sorted), files as given. A URL
    (``s3://bucket/prefix``, any fsspec URL) is listed like a folder (:func:`lakestruct.source.list_files`).
    A path that is a Paimon table directory (:func:`is_paimon_table`) is yielded itself before its files;
    with ``nested_tables``, so is every table directory found below the paths. Inside directories, only regular
    files are yielded (a named pipe would block the first read forever); a path given itself is yielded as it is."""
    for p in paths:
        if "://" in p and not p.startswith("file://"):
            urls = [url for url, _ in list_files([p])]
            from . import tables  # imported on first use

            roots = [r for r, fmt in tables.find_roots(urls).items()
                     if fmt in _URL_TABLES and (nested_tables or r == p.rstrip("/"))]
            for url in urls:  # a table's root just before the first of its files, as a local walk yields it
                while roots and url.startswith(roots[0].rstrip("/") + "/"):
                    yield roots.pop(0)
                yield url
            yield from roots
        elif os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                if (root == p or nested_tables) and (is_paimon_table(root) or is_iceberg_table(root) or is_delta_table(root)):
                    yield root
                for f in sorted(files):
                    full = os.path.join(root, f)
                    if _regular(full):  # a named pipe, socket or device would block or never end: skipped
                        yield full
        else:
            yield p
