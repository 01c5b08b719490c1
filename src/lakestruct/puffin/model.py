"""Typed models of a Puffin file's footer: :class:`PuffinFile` and :class:`BlobMetadata`.

JSON keys are spelled exactly as the Puffin spec spells them (``snapshot-id``,
``compression-codec``, ...); :meth:`BlobMetadata.to_json` writes them in the order
Iceberg Java writes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["BlobMetadata", "FooterInfo", "PuffinFile", "MAGIC", "DELETION_VECTOR_V1", "THETA_V1"]

MAGIC = b"PFA1"
THETA_V1 = "apache-datasketches-theta-v1"
DELETION_VECTOR_V1 = "deletion-vector-v1"


def _frozen_map(m: Mapping[str, str] | None) -> Mapping[str, str]:
    return MappingProxyType(dict(m or {}))


@dataclass(frozen=True)
class BlobMetadata:
    """One entry of the footer's ``blobs`` list."""

    type: str
    fields: tuple[int, ...]
    snapshot_id: int
    sequence_number: int
    offset: int
    length: int
    compression_codec: str | None = None
    properties: Mapping[str, str] = field(default_factory=lambda: _frozen_map(None))

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", tuple(self.fields))
        object.__setattr__(self, "properties", _frozen_map(self.properties))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BlobMetadata):
            return NotImplemented
        return self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash((self.type, self.fields, self.snapshot_id, self.sequence_number, self.offset, self.length))

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "type": self.type,
            "fields": list(self.fields),
            "snapshot-id": self.snapshot_id,
            "sequence-number": self.sequence_number,
            "offset": self.offset,
            "length": self.length,
        }
        if self.compression_codec is not None:
            d["compression-codec"] = self.compression_codec
        if self.properties:
            d["properties"] = dict(self.properties)
        return d


@dataclass(frozen=True)
class PuffinFile:
    """The footer payload (``FileMetadata``): the blobs and the file properties."""

    blobs: tuple[BlobMetadata, ...] = ()
    properties: Mapping[str, str] = field(default_factory=lambda: _frozen_map(None))

    def __post_init__(self) -> None:
        object.__setattr__(self, "blobs", tuple(self.blobs))
        object.__setattr__(self, "properties", _frozen_map(self.properties))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PuffinFile):
            return NotImplemented
        return self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.blobs)

    @property
    def created_by(self) -> str | None:
        return self.properties.get("created-by")

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"blobs": [b.to_json() for b in self.blobs]}
        if self.properties:
            d["properties"] = dict(self.properties)
        return d


@dataclass(frozen=True)
class FooterInfo:
    """Where the footer sits and how it is stored."""

    file_size: int
    offset: int  # absolute offset of the footer's leading magic
    payload_offset: int
    payload_length: int  # as stored (compressed length when compressed)
    compressed: bool

    @property
    def size(self) -> int:
        """Total footer size: magic + payload + 12 (Iceberg's ``file-footer-size-in-bytes``)."""
        return 4 + self.payload_length + 12

    def to_json(self) -> dict[str, Any]:
        return {
            "offset": self.offset,
            "size": self.size,
            "payload-offset": self.payload_offset,
            "payload-length": self.payload_length,
            "payload-compressed": self.compressed,
        }
