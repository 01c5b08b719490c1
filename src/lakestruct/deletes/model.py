"""The :class:`DeletionVector` model: deleted row positions of one data file.

Positions are held as a sorted, de-duplicated, read-only NumPy ``int64`` array
(the fastest form to filter rows with); ``.bitmap`` converts to a
``pyroaring.BitMap64`` for set algebra on demand.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..roaring.read import DEFAULT_MAX_POSITIONS

if TYPE_CHECKING:
    from pyroaring import BitMap64

__all__ = ["DeletionVector", "MAGIC", "MAX_POSITION"]

#: The 4 magic bytes that open the vector (int 1681511377 written little-endian).
MAGIC = bytes.fromhex("d1d33964")
#: Largest position Iceberg Java's writer accepts (``RoaringPositionBitmap.MAX_POSITION`` =
#: ``toPosition(Integer.MAX_VALUE - 1, Integer.MIN_VALUE)``): key 2^31-2, low word 0x80000000.
#: Readers check keys only (key <= 2^31-2), as Java's deserializer does.
MAX_POSITION = ((2**31 - 2) << 32) | 0x80000000


@dataclass(frozen=True, eq=False)
class DeletionVector:
    """Deleted positions of one data file, with where they came from."""

    _positions: npt.NDArray[np.int64] = field(repr=False)
    referenced_data_file: str | None = None
    #: Absolute offset and length of the blob in its file, when read from one.
    offset: int | None = None
    length: int | None = None
    #: Blob properties from the Puffin footer (``referenced-data-file``, ``cardinality``, ...).
    properties: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), repr=False)

    def __post_init__(self) -> None:
        arr = self._positions
        if arr.dtype != np.int64:
            arr = arr.view(np.int64) if arr.dtype == np.uint64 else arr.astype(np.int64)
        if arr.flags.writeable:
            arr = arr.view()
            arr.flags.writeable = False
        object.__setattr__(self, "_positions", arr)
        object.__setattr__(self, "properties", MappingProxyType(dict(self.properties)))

    # -- constructors ---------------------------------------------------------------------
    @classmethod
    def from_positions(cls, positions: Any, referenced_data_file: str | None = None) -> DeletionVector:
        """From any iterable of ints, a NumPy array or a ``pyroaring`` bitmap (sorted and de-duplicated here)."""
        from .write import check_positions

        return cls(check_positions(positions).view(np.int64), referenced_data_file)

    @classmethod
    def from_blob(cls, blob: bytes | bytearray | memoryview, *, referenced_data_file: str | None = None,
                  base_offset: int = 0, max_positions: int | None = DEFAULT_MAX_POSITIONS) -> DeletionVector:
        """From the bytes of a bare ``deletion-vector-v1`` blob (length, magic, vector, CRC; no Puffin footer).

        More than ``max_positions`` positions (``None``: no limit) raise ``roaring.max-positions`` before the
        output is allocated."""
        from .read import decode_blob

        pos = decode_blob(blob, base_offset=base_offset, max_positions=max_positions)
        return cls(pos, referenced_data_file, base_offset or None, len(blob))

    # -- contents -------------------------------------------------------------------------
    @property
    def cardinality(self) -> int:
        """Number of deleted positions."""
        return int(self._positions.size)

    def positions(self) -> npt.NDArray[np.int64]:
        """Sorted deleted positions (a read-only int64 array; ``.copy()`` to modify)."""
        return self._positions

    def contains(self, pos: int) -> bool:
        """Whether row ``pos`` is deleted (binary search)."""
        a = self._positions
        if a.size == 0 or pos < 0 or pos > int(a[-1]):
            return False
        i = int(np.searchsorted(a, pos))
        return i < a.size and int(a[i]) == pos

    def __contains__(self, pos: object) -> bool:
        return isinstance(pos, (int, np.integer)) and self.contains(int(pos))

    def __len__(self) -> int:
        return self.cardinality

    def iter_chunks(self, size: int = 65536) -> Iterator[npt.NDArray[np.int64]]:
        """The positions in ascending chunks of at most ``size`` (views, no copies)."""
        if size <= 0:
            raise ValueError("chunk size must be positive")
        a = self._positions
        for i in range(0, a.size, size):
            yield a[i : i + size]

    def __iter__(self) -> Iterator[int]:
        for chunk in self.iter_chunks():
            yield from chunk.tolist()

    @property
    def bitmap(self) -> BitMap64:
        """The positions as a ``pyroaring.BitMap64`` (a new bitmap each call)."""
        from pyroaring import BitMap64

        from ..roaring.write import encode64

        return BitMap64.deserialize(encode64(self._positions.view(np.uint64), fill_gaps=False, sorted_unique=True))

    # -- writing --------------------------------------------------------------------------
    def to_vector(self) -> bytes:
        """The Roaring64 portable bytes exactly as Iceberg Java writes them."""
        from ..roaring.write import encode64

        return encode64(self._positions.view(np.uint64), fill_gaps=True, sorted_unique=True)

    def to_blob(self) -> bytes:
        """The whole ``deletion-vector-v1`` blob (length, magic, vector, CRC)."""
        from .write import wrap_vector

        return wrap_vector(self.to_vector())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DeletionVector):
            return NotImplemented
        return self.referenced_data_file == other.referenced_data_file and np.array_equal(self._positions, other._positions)

    def __hash__(self) -> int:
        return hash((self.referenced_data_file, self.cardinality))

    def __repr__(self) -> str:
        a = self._positions
        head = ", ".join(str(x) for x in a[:5].tolist()) + (", ..." if a.size > 5 else "")
        return f"DeletionVector(cardinality={a.size}, referenced_data_file={self.referenced_data_file!r}, positions=[{head}])"

    def to_json(self, *, max_positions: int = 20) -> dict[str, Any]:
        a = self._positions
        return {
            "referenced_data_file": self.referenced_data_file,
            "cardinality": int(a.size),
            "offset": self.offset,
            "length": self.length,
            "first": a[:max_positions].tolist(),
            "last": a[-max_positions:].tolist() if a.size else [],
        }
