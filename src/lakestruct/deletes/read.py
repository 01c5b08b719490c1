"""Reading deletion vectors: from Puffin files, from manifest (offset, length) ranges, from bare blobs,
from Delta Lake DV files and from Paimon deletion-vector index files.

Every check Iceberg Java (``BitmapPositionDeleteIndex``, ``RoaringPositionBitmap``),
CRoaring and the Puffin spec make is applied, each under its own rule name:
the envelope (``deletion-vector.length``, ``.magic``, ``.crc``), the vector
(``roaring64.*``, ``roaring32.*``, ``deletion-vector.key-unsigned``,
``deletion-vector.key-too-large``) and the Puffin blob metadata
(``deletion-vector.cardinality``, ``.referenced-data-file``,
``.compression-codec``, ``.snapshot-id``, ``.sequence-number``,
``.duplicate-data-file``, ``.manifest-range``, ``.record-count``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .. import puffin
from ..errors import ChecksumError, FormatError, LimitError, MagicError, TruncatedError
from ..puffin.model import DELETION_VECTOR_V1, BlobMetadata
from ..roaring.read import DEFAULT_MAX_POSITIONS, Impl, decode_roaring32, decode_roaring64
from ..source import ByteSource, SourceLike, open_source
from .model import MAGIC, DeletionVector

__all__ = [
    "PAIMON_MAGIC32",
    "PaimonEntry",
    "check_blob_metadata",
    "decode_blob",
    "read_deletion_vector",
    "read_deletion_vectors",
    "read_delta_deletion_vector",
    "read_paimon_deletion_vector",
    "read_paimon_deletion_vectors",
]

_crc32: Callable[[memoryview], int]
try:  # ISA-L's CRC-32 (PCLMUL) is ~10x zlib's; same polynomial and result. Optional.
    from isal.isal_zlib import crc32 as _crc32
except ImportError:  # pragma: no cover - isal not installed
    from zlib import crc32 as _crc32

#: Magic of Paimon's 32-bit ``BitmapDeletionVector`` (big-endian int 1581511376).
PAIMON_MAGIC32 = bytes.fromhex("5e43f2d0")


def _split_envelope(
    blob: bytes | bytearray | memoryview,
    *,
    base_offset: int,
    path: str,
    magics: tuple[bytes, ...] = (MAGIC,),
    rule: str = "deletion-vector",
) -> tuple[memoryview, bytes]:
    """Check length, magic and CRC; return (vector bytes, magic)."""
    mv = memoryview(blob).cast("B")
    n = len(mv)
    p = f"{path}." if path else ""
    if n < 12:
        raise TruncatedError(f"a deletion-vector blob has at least 12 bytes (length, magic, CRC); this one has {n}",
                             rule=f"{rule}.truncated", path=f"{p}length", offset=base_offset)
    length = int.from_bytes(mv[0:4], "big", signed=True)
    if length != n - 8:
        raise FormatError(f"Invalid bitmap data length: the length field says {length} bytes of magic + vector, "
                          f"the blob has {n - 8} ({n} bytes minus length and CRC)",
                          rule=f"{rule}.length", path=f"{p}length", offset=base_offset)
    magic = bytes(mv[4:8])
    if magic not in magics:
        raise MagicError(f"Invalid magic number: expected {' or '.join(m.hex(' ') for m in magics)}, found {magic.hex(' ')}",
                         rule=f"{rule}.magic", path=f"{p}magic", offset=base_offset + 4)
    stored = int.from_bytes(mv[n - 4 : n], "big")
    actual = _crc32(mv[4 : n - 4])
    if stored != actual:
        raise ChecksumError(f"Invalid CRC: stored 0x{stored:08x}, computed 0x{actual:08x} over magic + vector",
                            rule=f"{rule}.crc", path=f"{p}crc", offset=base_offset + n - 4)
    return mv[8 : n - 4], magic


def decode_blob(
    blob: bytes | bytearray | memoryview, *, base_offset: int = 0, path: str = "", impl: Impl = "auto",
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
) -> npt.NDArray[np.int64]:
    """Sorted positions (int64) of a bare ``deletion-vector-v1`` blob, every rule checked."""
    vector, _ = _split_envelope(blob, base_offset=base_offset, path=path)
    vpath = f"{path}.vector" if path else "vector"
    out = decode_roaring64(vector, iceberg=True, base_offset=base_offset + 8, path=vpath, impl=impl, max_positions=max_positions)
    return out.view(np.int64)


def decode_within_cardinality(
    raw: bytes, card: int, *, blob_offset: int, index: int, where: int | None, impl: Impl = "auto",
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
) -> npt.NDArray[np.int64]:
    """Decode a Puffin DV blob whose footer says it holds ``card`` positions.

    The vector may not hold more than the footer says: that is checked before the
    output is allocated, so a small blob whose run containers claim billions of
    positions costs nothing (``deletion-vector.cardinality``).
    """
    limit = card if max_positions is None else min(card, max_positions)
    try:
        pos = decode_blob(raw, base_offset=blob_offset, path=f"blobs[{index}]", impl=impl, max_positions=limit)
    except LimitError as e:
        if limit < card:
            raise
        raise _meta_err(f"Invalid cardinality: the blob's property says {card}, but {e.message}", "deletion-vector.cardinality",
                        f"footer.payload.blobs[{index}].properties.cardinality", where) from None
    if pos.size != card:
        raise _meta_err(f"Invalid cardinality: the blob's property says {card}, the vector holds {pos.size} positions",
                        "deletion-vector.cardinality", f"footer.payload.blobs[{index}].properties.cardinality", where)
    return pos


def _meta_err(msg: str, rule: str, path: str, offset: int | None) -> FormatError:
    return FormatError(msg, rule=rule, path=path, offset=offset)


class _Budget:
    """``max_positions`` for one call that decodes several vectors: the total, not each (so a file of many small
    run-container vectors cannot decode to many times the limit)."""

    def __init__(self, max_positions: int | None) -> None:
        self.limit = max_positions
        self.used = 0

    @property
    def left(self) -> int | None:
        return None if self.limit is None else self.limit - self.used

    def take(self, n: int) -> None:
        self.used += n

    def explain(self, e: LimitError) -> LimitError:
        if self.used and e.rule == "roaring.max-positions":
            e.message += f" (max_positions {self.limit} bounds the whole file; the vectors before this one took {self.used})"
        return e


def check_blob_metadata(blob: BlobMetadata, *, index: int = 0, where: int | None = None) -> tuple[str, int]:
    """Check a DV blob's footer entry; return (referenced data file, cardinality property)."""
    p = f"footer.payload.blobs[{index}]"
    if blob.type != DELETION_VECTOR_V1:
        raise _meta_err(f"blob type is {blob.type!r}, not {DELETION_VECTOR_V1!r}", "deletion-vector.blob-type", f"{p}.type", where)
    if blob.compression_codec is not None:
        raise _meta_err(f"deletion vectors must not be compressed; this blob says {blob.compression_codec!r}",
                        "deletion-vector.compression-codec", f"{p}.compression-codec", where)
    if blob.snapshot_id != -1:
        raise _meta_err(f"snapshot-id of a DV blob must be -1, found {blob.snapshot_id}", "deletion-vector.snapshot-id",
                        f"{p}.snapshot-id", where)
    if blob.sequence_number != -1:
        raise _meta_err(f"sequence-number of a DV blob must be -1, found {blob.sequence_number}",
                        "deletion-vector.sequence-number", f"{p}.sequence-number", where)
    ref = blob.properties.get("referenced-data-file")
    if not ref:
        raise _meta_err("the required property 'referenced-data-file' is missing or empty", "deletion-vector.referenced-data-file",
                        f"{p}.properties.referenced-data-file", where)
    card_s = blob.properties.get("cardinality")
    if card_s is None:
        raise _meta_err("the required property 'cardinality' is missing", "deletion-vector.cardinality",
                        f"{p}.properties.cardinality", where)
    if not (card_s.isascii() and card_s.isdigit()):
        raise _meta_err(f"property 'cardinality' must be a non-negative decimal integer, found {card_s!r}",
                        "deletion-vector.cardinality", f"{p}.properties.cardinality", where)
    digits = card_s.lstrip("0") or "0"
    if len(digits) > 19 or int(digits) > 2**63 - 1:  # decided on the text: int() refuses thousands of digits
        shown = card_s if len(card_s) <= 40 else f"{card_s[:12]}...{card_s[-4:]} ({len(card_s)} digits)"
        raise _meta_err(f"property 'cardinality' = {shown} is outside the range of a Java long (Iceberg parses it as one)",
                        "deletion-vector.cardinality", f"{p}.properties.cardinality", where)
    return ref, int(digits)


def read_dv_blob(
    pf: puffin.PuffinReader, i: int, *, impl: Impl = "auto", max_positions: int | None = DEFAULT_MAX_POSITIONS
) -> DeletionVector:
    """Blob ``i`` of an open Puffin file as a deletion vector: footer metadata rules, then the
    blob decoded within its ``cardinality`` property."""
    blob = pf.blobs[i]
    where = pf.footer.payload_offset
    ref, card = check_blob_metadata(blob, index=i, where=where)
    raw = pf.read_blob(i)
    pos = decode_within_cardinality(raw, card, blob_offset=blob.offset, index=i, where=where, impl=impl, max_positions=max_positions)
    return DeletionVector(pos, ref, blob.offset, blob.length, blob.properties)


def check_one_per_data_file(vectors: Iterable[tuple[int, str]], *, where: int | None) -> None:
    """At most one deletion vector per data file: ``vectors`` are (blob index, referenced data file)."""
    seen: dict[str, int] = {}
    for i, ref in vectors:
        if ref in seen:
            raise _meta_err(f"blobs {seen[ref]} and {i} are both deletion vectors of {ref!r} (at most one per data file)",
                            "deletion-vector.duplicate-data-file", f"footer.payload.blobs[{i}].properties.referenced-data-file", where)
        seen[ref] = i


def read_deletion_vectors(
    source: SourceLike, *, impl: Impl = "auto", max_positions: int | None = DEFAULT_MAX_POSITIONS
) -> dict[str, DeletionVector]:
    """Every ``deletion-vector-v1`` blob of a Puffin file, by referenced data file (other blob types are skipped).

    ``max_positions`` bounds the positions of all the file's vectors together (``roaring.max-positions``)."""
    budget = _Budget(max_positions)
    with puffin.open(source) as pf:
        try:
            dvs = []
            for i, b in enumerate(pf.blobs):
                if b.type != DELETION_VECTOR_V1:
                    continue
                try:
                    dv = read_dv_blob(pf, i, impl=impl, max_positions=budget.left)
                except LimitError as e:
                    raise budget.explain(e) from None
                budget.take(dv.cardinality)
                dvs.append((i, dv))
            check_one_per_data_file(((i, dv.referenced_data_file or "") for i, dv in dvs), where=pf.footer.payload_offset)
            return {dv.referenced_data_file or "": dv for _, dv in dvs}
        except FormatError as e:
            raise e.with_source(pf.name) from None


def read_deletion_vector(
    source: SourceLike, *, offset: int, length: int, record_count: int | None = None, referenced_data_file: str | None = None,
    impl: Impl = "auto", max_positions: int | None = DEFAULT_MAX_POSITIONS,
) -> DeletionVector:
    """The DV an Iceberg manifest entry points at: ``content_offset``/``content_size_in_bytes`` of a Puffin file.

    The range must be exactly one ``deletion-vector-v1`` blob of the file's
    footer (``deletion-vector.manifest-range``); ``record_count`` and
    ``referenced_data_file``, when given, must match the blob.
    """
    with puffin.open(source) as pf:
        try:
            hits = [j for j, b in enumerate(pf.blobs) if b.offset == offset and b.length == length and b.type == DELETION_VECTOR_V1]
            if not hits:
                raise _meta_err(
                    f"no deletion-vector-v1 blob of the Puffin footer occupies offset {offset} length {length} "
                    f"(blobs: {', '.join(f'{x.type}@{x.offset}+{x.length}' for x in pf.blobs) or 'none'})",
                    "deletion-vector.manifest-range", "footer.payload.blobs", offset)
            i = hits[0]
            dv = read_dv_blob(pf, i, impl=impl, max_positions=max_positions)
            if record_count is not None and record_count != dv.cardinality:
                raise _meta_err(f"Invalid cardinality: the manifest's record_count is {record_count}, the vector holds {dv.cardinality}",
                                "deletion-vector.record-count", f"blobs[{i}]", offset)
            if referenced_data_file is not None and referenced_data_file != dv.referenced_data_file:
                raise _meta_err(f"the manifest says the DV is for {referenced_data_file!r}, the blob says {dv.referenced_data_file!r}",
                                "deletion-vector.referenced-data-file", f"footer.payload.blobs[{i}].properties.referenced-data-file",
                                pf.footer.payload_offset)
            return dv
        except FormatError as e:
            raise e.with_source(pf.name) from None


def read_delta_deletion_vector(
    source: SourceLike, *, offset: int, size_in_bytes: int, cardinality: int | None = None, impl: Impl = "auto",
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
) -> DeletionVector:
    """A DV stored in a Delta Lake deletion-vector file, located by its ``_delta_log`` descriptor.

    The file starts with version byte 1; ``offset`` points at the DV's
    big-endian size field and ``size_in_bytes`` equals it (magic + vector).
    """
    src: ByteSource = open_source(source)
    try:
        version = src.read_exact(0, 1, rule="delta-dv.truncated", path="version")
        if version != b"\x01":
            raise FormatError(f"Delta DV files start with format version 1, found {version[0]}", rule="delta-dv.version",
                              path="version", offset=0)
        if offset < 1 or size_in_bytes < 4:
            raise FormatError(f"descriptor offset {offset} / sizeInBytes {size_in_bytes} cannot point at a DV",
                              rule="delta-dv.descriptor", path="descriptor", offset=offset)
        raw = src.read_exact(offset, size_in_bytes + 8, rule="delta-dv.truncated", path="dv")
        stored = int.from_bytes(raw[0:4], "big", signed=True)
        if stored != size_in_bytes:
            raise FormatError(f"the size field says {stored} bytes; the descriptor's sizeInBytes is {size_in_bytes}",
                              rule="delta-dv.size", path="dv.length", offset=offset)
        pos = decode_blob(raw, base_offset=offset, path="dv", impl=impl, max_positions=max_positions)
        if cardinality is not None and cardinality != pos.size:
            raise FormatError(f"the descriptor's cardinality is {cardinality}, the vector holds {pos.size}",
                              rule="delta-dv.cardinality", path="dv", offset=offset)
        return DeletionVector(pos, None, offset, size_in_bytes + 8)
    except FormatError as e:
        raise e.with_source(src.name) from None
    finally:
        src.close()


@dataclass(frozen=True)
class PaimonEntry:
    """One DV of a Paimon deletion-vector index file, as ``DeletionVectorMeta`` locates it."""

    offset: int  # of the size field
    length: int  # as Paimon records it: S for 32-bit entries, S + 8 for 64-bit ones
    bits: int  # 32 or 64
    vector: DeletionVector


def _paimon_entry(raw: bytes | memoryview, p: int, path: str, impl: Impl, max_positions: int | None) -> PaimonEntry:
    """The entry ``raw`` (size field, magic, vector, CRC) found at absolute offset ``p``."""
    size = len(raw) - 8
    vector, magic = _split_envelope(raw, base_offset=p, path=path, magics=(PAIMON_MAGIC32, MAGIC), rule="paimon-dv")
    if magic == PAIMON_MAGIC32:
        # decoded straight into uint64 and viewed as the int64 positions: no second copy
        v32 = decode_roaring32(vector, base_offset=p + 8, path=f"{path}.vector", impl=impl, max_positions=max_positions, wide=True)
        if v32.size and int(v32[-1]) > 2**31 - 1:
            raise FormatError(f"position {int(v32[-1])} exceeds Integer.MAX_VALUE, the limit of a 32-bit Paimon DV",
                              rule="paimon-dv.position-range", path=f"{path}.vector", offset=p + 8)
        return PaimonEntry(p, size, 32, DeletionVector(v32.view(np.int64), None, p, size))
    v64 = decode_roaring64(vector, iceberg=True, base_offset=p + 8, path=f"{path}.vector", impl=impl,
                           max_positions=max_positions).view(np.int64)
    return PaimonEntry(p, size + 8, 64, DeletionVector(v64, None, p, size + 8))


def _paimon_version(data: bytes) -> None:
    if data[:1] != b"\x01":
        raise FormatError(f"Paimon DV index files start with version 1, found {data[:1].hex() or 'nothing'}",
                          rule="paimon-dv.version", path="version", offset=0)


def read_paimon_deletion_vectors(
    source: SourceLike, *, impl: Impl = "auto", max_positions: int | None = DEFAULT_MAX_POSITIONS
) -> list[PaimonEntry]:
    """Every DV of a Paimon deletion-vector index file (version byte 1, then entries back to back; a file of just
    the version byte holds none).

    32-bit entries (magic ``5E 43 F2 D0``) hold a 32-bit portable bitmap whose
    values must be <= 2^31-1; 64-bit entries are Iceberg DV blobs. ``max_positions``
    bounds the positions of all entries together (``roaring.max-positions``).
    """
    src = open_source(source)
    budget = _Budget(max_positions)
    try:
        data = src.read(0, src.size)
        _paimon_version(data)
        view = memoryview(data)  # entries are checked and decoded in place: no copy of each (MBs for 1M positions)
        out: list[PaimonEntry] = []
        p = 1
        while p < len(data):
            path = f"entries[{len(out)}]"
            if p + 4 > len(data):
                raise TruncatedError("an entry's size field runs past the end", rule="paimon-dv.truncated", path=f"{path}.length", offset=p)
            size = int.from_bytes(data[p : p + 4], "big", signed=True)
            if size < 4 or p + 8 + size > len(data):
                raise TruncatedError(
                    f"entry size {size} does not fit the file", rule="paimon-dv.truncated", path=f"{path}.length", offset=p
                )
            try:
                entry = _paimon_entry(view[p : p + 8 + size], p, path, impl, budget.left)
            except LimitError as e:
                raise budget.explain(e) from None
            budget.take(entry.vector.cardinality)
            out.append(entry)
            p += 8 + size
        return out
    except FormatError as e:
        raise e.with_source(src.name) from None
    finally:
        src.close()


def read_paimon_deletion_vector(
    source: SourceLike, *, offset: int, length: int, cardinality: int | None = None, impl: Impl = "auto",
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
) -> PaimonEntry:
    """The one DV of a Paimon deletion-vector index file that a ``DeletionVectorMeta`` (offset, length, cardinality)
    locates, reading only it: ``offset`` is that of the entry's size field S and ``length`` is what Paimon records,
    S for a 32-bit entry and S + 8 for a 64-bit one (``paimon-dv.meta-range`` otherwise)."""
    src = open_source(source)
    try:
        _paimon_version(src.read_exact(0, 1, rule="paimon-dv.truncated", path="version"))
        if offset < 1 or length < 4:
            raise FormatError(f"DeletionVectorMeta offset {offset} / length {length} cannot locate an entry",
                              rule="paimon-dv.meta-range", path="meta", offset=max(offset, 0))
        head = src.read_exact(offset, 8, rule="paimon-dv.truncated", path="entry")
        size = int.from_bytes(head[0:4], "big", signed=True)
        is32 = head[4:8] == PAIMON_MAGIC32
        recorded = size if is32 else size + 8
        if size < 4 or length != recorded:
            raise FormatError(
                f"DeletionVectorMeta length {length} does not match the entry at offset {offset}: its size field is {size}, "
                f"so Paimon records {recorded} for this {'32' if is32 else '64'}-bit entry",
                rule="paimon-dv.meta-range", path="entry.length", offset=offset)
        raw = src.read_exact(offset, size + 8, rule="paimon-dv.truncated", path="entry")
        entry = _paimon_entry(raw, offset, "entry", impl, max_positions)
        if cardinality is not None and cardinality != entry.vector.cardinality:
            raise FormatError(f"DeletionVectorMeta cardinality is {cardinality}, the vector holds {entry.vector.cardinality}",
                              rule="paimon-dv.cardinality", path="entry", offset=offset)
        return entry
    except FormatError as e:
        raise e.with_source(src.name) from None
    finally:
        src.close()

