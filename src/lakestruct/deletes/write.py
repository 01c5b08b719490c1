"""Writing deletion vectors byte for byte as Iceberg Java does.

The vector is the Roaring 64-bit portable serialization with every 32-bit
bitmap ``runOptimize()``-d the Java way and every key from 0 to the largest
written (empty bitmaps for gaps); the blob wraps it in a big-endian length, the
magic ``D1 D3 39 64`` and a big-endian CRC-32 of magic + vector.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import UsageError
from ..roaring.write import encode64, normalize_positions
from .model import MAGIC, MAX_POSITION, DeletionVector
from .spec import DV_BLOB

__all__ = [
    "DV_FIELDS",
    "blob_properties",
    "check_positions",
    "encode_deletion_vector",
    "encode_deletion_vector_blob",
    "encode_delta_dv_file",
    "wrap_vector",
]

#: The ``fields`` Iceberg Java writes for a DV blob: ``MetadataColumns.ROW_POSITION`` (``_pos``).
DV_FIELDS = (2147483645,)


def check_positions(positions: Any) -> npt.NDArray[np.uint64]:
    """Sorted unique uint64 positions, each in ``[0, MAX_POSITION]`` (Iceberg's limit)."""
    if isinstance(positions, DeletionVector):
        return positions.positions().view(np.uint64)
    pos = normalize_positions(positions)
    if pos.size and int(pos[-1]) > MAX_POSITION:
        raise UsageError(f"position {int(pos[-1])} exceeds Iceberg Java's maximum {MAX_POSITION} (0x7FFFFFFE80000000)")
    return pos


def wrap_vector(vector: bytes) -> bytes:
    """length (BE) + magic + vector + CRC-32 (BE) of magic + vector, built by the construct spec."""
    if len(vector) + 4 > 2**31 - 1:
        raise UsageError("a deletion vector larger than 2 GiB cannot be described by its 4-byte length")
    built: bytes = DV_BLOB.build({"vector": vector})
    assert built[4:8] == MAGIC and int.from_bytes(built[-4:], "big") == zlib.crc32(built[4:-4])
    return built


def encode_deletion_vector_blob(positions: Any) -> bytes:
    """The full ``deletion-vector-v1`` blob for ``positions`` (any iterable, NumPy array, BitMap64)."""
    pos = check_positions(positions)
    return wrap_vector(encode64(pos, fill_gaps=True, sorted_unique=True))


def encode_deletion_vector(positions: Any, referenced_data_file: str) -> tuple[bytes, dict[str, str]]:
    """The blob bytes and its Puffin properties in one go (positions are read once: generators are fine)."""
    pos = check_positions(positions)
    return encode_deletion_vector_blob(pos), blob_properties(DeletionVector(pos.view(np.int64)), referenced_data_file)


def blob_properties(positions_or_dv: Any, referenced_data_file: str) -> dict[str, str]:
    """The Puffin blob properties Iceberg writes for a DV (``referenced-data-file``, ``cardinality``)."""
    if not referenced_data_file:
        raise UsageError("a deletion vector needs the referenced data file's location")
    n = positions_or_dv.cardinality if isinstance(positions_or_dv, DeletionVector) else int(check_positions(positions_or_dv).size)
    return {"referenced-data-file": referenced_data_file, "cardinality": str(n)}


def encode_delta_dv_file(vectors: list[Any]) -> tuple[bytes, list[tuple[int, int]]]:
    """A Delta Lake deletion-vector file: version byte 1, then each DV blob.

    Returns the bytes and, per vector, the ``(offset, sizeInBytes)`` a Delta
    log descriptor records (offset of the size field; size = magic + vector).
    """
    out = bytearray(b"\x01")
    descs = []
    for v in vectors:
        blob = encode_deletion_vector_blob(v)
        descs.append((len(out), len(blob) - 8))
        out += blob
    return bytes(out), descs
