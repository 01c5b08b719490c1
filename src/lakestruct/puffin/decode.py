"""Decoding the blob types the Iceberg spec defines, with every rule checked.

``deletion-vector-v1`` blobs are decoded by :mod:`lakestruct.deletes` (footer
metadata rules, envelope, CRC, Roaring64, cardinality property) and
``apache-datasketches-theta-v1`` blobs by :mod:`lakestruct.sketches` (sketch
rules, and the ``ndv`` property against the estimate). Other blob types are
left as bytes. Imports are local: those rooms import this one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import codecs
from ..errors import FormatError, LimitError
from ..roaring.read import DEFAULT_MAX_POSITIONS
from .model import DELETION_VECTOR_V1, THETA_V1

if TYPE_CHECKING:
    from ..deletes import DeletionVector
    from ..sketches import ThetaSketch
    from .read import PuffinReader

__all__ = ["DecodedBlob", "decode_blob", "check_blobs"]


@dataclass(frozen=True)
class DecodedBlob:
    """A blob of a known type, decoded and checked."""

    index: int
    type: str
    deletion_vector: DeletionVector | None = None
    sketch: ThetaSketch | None = None
    ndv_message: str | None = None

    def to_json(self, *, max_positions: int | None = 20) -> dict[str, Any]:
        if self.deletion_vector is not None:
            pos = self.deletion_vector.positions()
            shown = pos if max_positions is None or pos.size <= max_positions else pos[:max_positions]
            out: dict[str, Any] = {
                "kind": "deletion-vector",
                "cardinality": int(pos.size),
                "deleted-rows": shown.tolist(),
            }
            if shown.size < pos.size:
                out["deleted-rows-truncated"] = True
                out["last-deleted-row"] = int(pos[-1])
            return out
        if self.sketch is not None:
            s = self.sketch
            return {
                "kind": "theta-sketch",
                "serial-version": s.serial_version,
                "num-retained": s.num_retained,
                "theta": s.theta,
                "estimate": s.estimate(),
                "lower-bound-2sd": s.lower_bound(2),
                "upper-bound-2sd": s.upper_bound(2),
                "estimation-mode": s.is_estimation_mode,
                "ndv-check": self.ndv_message,
            }
        return {"kind": "opaque"}


def decode_blob(reader: PuffinReader, index: int, *, max_positions: int | None = DEFAULT_MAX_POSITIONS) -> DecodedBlob:
    """Decode blob ``index`` if its type is known (else only read and decompress it); raise a
    FormatError on any broken rule. A deletion vector may hold at most ``max_positions`` positions
    (``roaring.max-positions``)."""
    blob = reader.blobs[index]
    where = reader.footer.payload_offset
    try:
        if blob.type == DELETION_VECTOR_V1:
            from ..deletes import read_dv_blob

            return DecodedBlob(index, blob.type, deletion_vector=read_dv_blob(reader, index, max_positions=max_positions))
        if blob.type == THETA_V1:
            from ..sketches import ThetaSketch, check_ndv

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
                    sketch, blob.properties["ndv"], path=f"footer.payload.blobs[{index}].properties.ndv", offset=where
                ).message
            return DecodedBlob(index, blob.type, sketch=sketch, ndv_message=message)
        reader.read_blob(index)  # an opaque type: its bytes must still be in range and decompress
        return DecodedBlob(index, blob.type)
    except FormatError as e:
        e.source = reader.name  # the blob was decoded from memory; the file is what the user named
        raise


def check_blobs(reader: PuffinReader, *, max_positions: int | None = DEFAULT_MAX_POSITIONS) -> list[DecodedBlob]:
    """Decode every blob of a known type; also: at most one deletion vector per data file.

    ``max_positions`` bounds the positions of all the file's deletion vectors together."""
    from ..deletes import check_one_per_data_file

    decoded = []
    used = 0
    for i in range(len(reader.blobs)):
        left = None if max_positions is None else max_positions - used
        try:
            d = decode_blob(reader, i, max_positions=left)
        except LimitError as e:
            if used and e.rule == "roaring.max-positions":
                e.message += f" (max_positions {max_positions} bounds the whole file; the vectors before this one took {used})"
            raise
        if d.deletion_vector is not None:
            used += d.deletion_vector.cardinality
        decoded.append(d)
    dvs = [(d.index, d.deletion_vector.referenced_data_file or "") for d in decoded if d.deletion_vector is not None]
    try:
        check_one_per_data_file(dvs, where=reader.footer.payload_offset)
    except FormatError as e:
        raise e.with_source(reader.name) from None
    return decoded
