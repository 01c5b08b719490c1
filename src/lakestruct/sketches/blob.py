"""The ``apache-datasketches-theta-v1`` blob type, registered into Puffin's blob registry
(:mod:`lakestruct.puffin.decode`).

Puffin imports this module by name the first time it meets such a blob
(:data:`lakestruct._plugins.BLOB_TYPE_MODULES`); importing it registers it. Theta sketches build on Puffin, not the reverse.
"""

from __future__ import annotations

from typing import Any

from .. import codecs
from ..errors import FormatError
from ..puffin.decode import BlobType, register_blob_type
from ..puffin.model import THETA_V1
from ..puffin.read import PuffinReader
from .model import ThetaSketch
from .ndv import check_ndv

__all__ = ["THETA_BLOB_TYPE"]


def _decode(reader: PuffinReader, index: int, max_positions: int | None) -> tuple[Any, str | None]:
    blob = reader.blobs[index]
    # unpacked, each hash takes 8 bytes: no more than the decompression bound of the stored bytes allows
    # (a v4 sketch packs a hash in as little as 1 bit, and zstd makes 16 MiB of that from 500 bytes)
    max_entries = None if blob.compression_codec is None else (reader.max_blob_size or codecs.default_limit(blob.length)) // 8
    try:
        sketch = ThetaSketch.from_bytes(reader.read_blob(index), max_entries=max_entries)
    except FormatError as e:
        # sketch offsets are relative to the decompressed blob; say which blob
        e.path = f"blobs[{index}].{e.path}"
        if blob.compression_codec is None and e.offset is not None:
            e.offset += blob.offset
        elif blob.compression_codec is not None:
            e.message += f" (offset {e.offset} of the decompressed blob)"
            e.offset = blob.offset
        raise
    message = None
    if "ndv" in blob.properties:
        message = check_ndv(
            sketch, blob.properties["ndv"], path=f"footer.payload.blobs[{index}].properties.ndv", offset=reader.footer.payload_offset
        ).message
    return sketch, message


def _to_json(s: ThetaSketch, note: str | None, max_positions: int | None) -> dict[str, Any]:
    return {
        "kind": "theta-sketch",
        "serial-version": s.serial_version,
        "num-retained": s.num_retained,
        "theta": s.theta,
        "estimate": s.estimate(),
        "lower-bound-2sd": s.lower_bound(2),
        "upper-bound-2sd": s.upper_bound(2),
        "estimation-mode": s.is_estimation_mode,
        "ndv-check": note,
    }


THETA_BLOB_TYPE = BlobType(THETA_V1, decode=_decode, to_json=_to_json)
register_blob_type(THETA_BLOB_TYPE)
