"""Paimon deletion-vector index entries, read the way an index manifest locates them
(``formats/paimon/paimon_dv_index.ksy`` shows the layout).

An index file is a version byte 1, then entries: big-endian size S of magic + bitmap, the magic (``5E 43 F2 D0``:
32-bit Roaring, positions <= 2^31 - 1; ``D1 D3 39 64``: 64-bit Roaring, the Iceberg envelope), the bitmap, a
big-endian CRC-32 of magic + bitmap. A ``DeletionVectorMeta`` records the offset of the size field and, as length,
S for a 32-bit entry but S + 8 for a 64-bit one. The bitmaps are decoded by :mod:`lakestruct.roaring` (Iceberg's
key limits for 64-bit entries); the rules are those of :func:`lakestruct.deletes.read_paimon_deletion_vectors`
(``paimon-dv.*``), plus ``paimon-dv.meta-range`` and ``paimon-dv.cardinality`` for a meta that does not fit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..errors import ChecksumError, FormatError, LimitError, MagicError, TruncatedError
from ..roaring.read import DEFAULT_MAX_POSITIONS, decode_roaring32, decode_roaring64
from ..source import SourceLike, open_source
from .spec import MAGIC32, MAGIC64

__all__ = ["DvEntry", "parse_dv_index", "read_dv_entry"]

_crc32: Callable[[bytes | memoryview], int]
try:  # ISA-L's CRC-32 is ~10x zlib's; same result. Optional.
    from isal.isal_zlib import crc32 as _crc32
except ImportError:  # pragma: no cover - isal not installed
    from zlib import crc32 as _crc32


@dataclass(frozen=True)
class DvEntry:
    """One deletion vector: ``offset`` of its size field, ``length`` as Paimon records it, ``bits`` 32 or 64, and the
    deleted positions (sorted int64)."""

    offset: int
    length: int
    bits: int
    positions: npt.NDArray[np.int64]

    @property
    def cardinality(self) -> int:
        return int(self.positions.size)


def _entry(raw: bytes | memoryview, p: int, path: str, max_positions: int | None) -> DvEntry:
    """The entry ``raw`` (size field, magic, bitmap, CRC) found at absolute offset ``p`` (a view: no copy)."""
    n = len(raw)
    size = n - 8
    magic = bytes(raw[4:8])
    if magic not in (MAGIC32, MAGIC64):
        raise MagicError(f"Invalid magic number: expected {MAGIC32.hex(' ')} or {MAGIC64.hex(' ')}, found {magic.hex(' ')}",
                         rule="paimon-dv.magic", path=f"{path}.magic", offset=p + 4)
    stored = int.from_bytes(bytes(raw[n - 4 :]), "big")
    actual = _crc32(raw[4 : n - 4])
    if stored != actual:
        raise ChecksumError(f"Invalid CRC: stored 0x{stored:08x}, computed 0x{actual:08x} over magic + bitmap",
                            rule="paimon-dv.crc", path=f"{path}.crc", offset=p + n - 4)
    vector = memoryview(raw)[8 : n - 4]
    if magic == MAGIC32:
        v32 = decode_roaring32(vector, base_offset=p + 8, path=f"{path}.vector", max_positions=max_positions)
        if v32.size and int(v32[-1]) > 2**31 - 1:
            raise FormatError(f"position {int(v32[-1])} exceeds Integer.MAX_VALUE, the limit of a 32-bit Paimon DV",
                              rule="paimon-dv.position-range", path=f"{path}.vector", offset=p + 8)
        return DvEntry(p, size, 32, v32.astype(np.int64))
    v64 = decode_roaring64(vector, iceberg=True, base_offset=p + 8, path=f"{path}.vector", max_positions=max_positions)
    return DvEntry(p, size + 8, 64, v64.view(np.int64))


def _version(data: bytes) -> None:
    if data[:1] != b"\x01":
        raise FormatError(f"Paimon DV index files start with version 1, found {data[:1].hex() or 'nothing'}",
                          rule="paimon-dv.version", path="version", offset=0)


def parse_dv_index(data: bytes, *, max_positions: int | None = DEFAULT_MAX_POSITIONS) -> list[DvEntry]:
    """Every entry of a DV index file's bytes; ``max_positions`` bounds all entries together
    (``roaring.max-positions``)."""
    _version(data)
    view = memoryview(data)
    out: list[DvEntry] = []
    left = max_positions
    p = 1
    while p < len(data):
        path = f"entries[{len(out)}]"
        if p + 4 > len(data):
            raise TruncatedError("an entry's size field runs past the end", rule="paimon-dv.truncated", path=f"{path}.length", offset=p)
        size = int.from_bytes(data[p : p + 4], "big", signed=True)
        if size < 4 or p + 8 + size > len(data):
            raise TruncatedError(f"entry size {size} does not fit the file", rule="paimon-dv.truncated", path=f"{path}.length", offset=p)
        try:
            e = _entry(view[p : p + 8 + size], p, path, left)
        except LimitError as err:
            if max_positions is not None and left is not None and left < max_positions:
                err.message += f" (all vectors of the file together may hold at most {max_positions})"
            raise
        if left is not None:
            left -= e.cardinality
        out.append(e)
        p += 8 + size
    return out


def read_dv_entry(source: SourceLike, *, offset: int, length: int, cardinality: int | None = None,
                  max_positions: int | None = DEFAULT_MAX_POSITIONS) -> DvEntry:
    """The one entry a ``DeletionVectorMeta`` (offset, length, cardinality) locates, reading only it: the length must be
    S for a 32-bit entry and S + 8 for a 64-bit one (``paimon-dv.meta-range``), the cardinality the vector's
    (``paimon-dv.cardinality``)."""
    with open_source(source) as src:
        try:
            _version(src.read_exact(0, 1, rule="paimon-dv.truncated", path="version"))
            if offset < 1 or length < 4:
                raise FormatError(f"DeletionVectorMeta offset {offset} / length {length} cannot locate an entry",
                                  rule="paimon-dv.meta-range", path="meta", offset=max(offset, 0))
            head = src.read_exact(offset, 8, rule="paimon-dv.truncated", path="entry")
            size = int.from_bytes(head[0:4], "big", signed=True)
            is32 = head[4:8] == MAGIC32
            recorded = size if is32 else size + 8
            if size < 4 or length != recorded:
                raise FormatError(
                    f"DeletionVectorMeta length {length} does not match the entry at offset {offset}: its size field is {size}, "
                    f"so Paimon records {recorded} for this {'32' if is32 else '64'}-bit entry",
                    rule="paimon-dv.meta-range", path="entry.length", offset=offset)
            raw = src.read_exact(offset, size + 8, rule="paimon-dv.truncated", path="entry")
            e = _entry(raw, offset, "entry", max_positions)
            if cardinality is not None and cardinality != e.cardinality:
                raise FormatError(f"DeletionVectorMeta cardinality is {cardinality}, the vector holds {e.cardinality}",
                                  rule="paimon-dv.cardinality", path="entry", offset=offset)
            return e
        except FormatError as err:
            raise err.with_source(src.name) from None
