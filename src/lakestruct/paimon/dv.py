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

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..deletes import PaimonEntry, read_paimon_deletion_vector, read_paimon_deletion_vectors
from ..roaring.read import DEFAULT_MAX_POSITIONS
from ..source import SourceLike, open_source

__all__ = ["DvEntry", "parse_dv_index", "read_dv_entry"]


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


def _entry(e: PaimonEntry) -> DvEntry:
    return DvEntry(e.offset, e.length, e.bits, e.vector.positions())


def parse_dv_index(data: bytes, *, max_positions: int | None = DEFAULT_MAX_POSITIONS, name: str | None = None) -> list[DvEntry]:
    """Every entry of a DV index file's bytes (:func:`lakestruct.deletes.read_paimon_deletion_vectors`);
    ``max_positions`` bounds all entries together (``roaring.max-positions``); ``name`` is the file errors name."""
    return [_entry(e) for e in read_paimon_deletion_vectors(open_source(data, name=name), max_positions=max_positions)]


def read_dv_entry(source: SourceLike, *, offset: int, length: int, cardinality: int | None = None,
                  max_positions: int | None = DEFAULT_MAX_POSITIONS) -> DvEntry:
    """The one entry a ``DeletionVectorMeta`` (offset, length, cardinality) locates, reading only it
    (:func:`lakestruct.deletes.read_paimon_deletion_vector`: ``paimon-dv.meta-range``, ``paimon-dv.cardinality``)."""
    return _entry(read_paimon_deletion_vector(source, offset=offset, length=length, cardinality=cardinality,
                                              max_positions=max_positions))
