"""Decoding blobs by type, with every rule checked: a registry the rooms that build on Puffin fill.

Puffin is the container and knows no blob type. A room that decodes one registers a :class:`BlobType`
(:func:`register_blob_type`): ``deletion-vector-v1`` is registered by :mod:`lakestruct.deletes` (footer metadata
rules, envelope, CRC, Roaring64, cardinality property, one vector per data file) and
``apache-datasketches-theta-v1`` by :mod:`lakestruct.sketches` (sketch rules, and the ``ndv`` property against the
estimate). The blob types the Puffin spec defines are loaded on first use through
:data:`lakestruct._plugins.BLOB_TYPE_MODULES`, so this module imports neither room. Blobs of other types are only
read and decompressed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._plugins import BLOB_TYPE_MODULES
from ..errors import FormatError, LimitError
from ..roaring.read import DEFAULT_MAX_POSITIONS
from .model import DELETION_VECTOR_V1, THETA_V1

if TYPE_CHECKING:
    from .read import PuffinReader

__all__ = ["BlobType", "DecodedBlob", "blob_type", "check_blobs", "decode_blob", "register_blob_type"]


@dataclass(frozen=True)
class BlobType:
    """How a room decodes (and optionally writes) one blob type.

    ``decode(reader, index, max_positions)`` returns ``(value, note)`` and raises a FormatError on any broken rule
    (``max_positions`` bounds what the blob may expand to, ``roaring.max-positions``); ``cost(value)`` is what it
    took of that bound; ``to_json(value, note, max_positions)`` its JSON form (``max_positions`` rows shown, None:
    all); ``check_file(decoded, where)`` a rule over all the file's blobs of the type (``(index, value)`` pairs);
    ``encode(*args, **kwargs)`` returns ``(bytes, fields, properties)`` for :class:`~lakestruct.puffin.PuffinWriter`.
    """

    name: str
    decode: Callable[[PuffinReader, int, int | None], tuple[Any, str | None]]
    to_json: Callable[[Any, str | None, int | None], dict[str, Any]]
    cost: Callable[[Any], int] = lambda value: 0
    check_file: Callable[[Sequence[tuple[int, Any]], int | None], None] | None = None
    encode: Callable[..., tuple[bytes, tuple[int, ...], dict[str, str]]] | None = None


_REGISTRY: dict[str, BlobType] = {}


def register_blob_type(bt: BlobType) -> None:
    """Register (or replace) the handler of blob type ``bt.name``."""
    _REGISTRY[bt.name] = bt


def blob_type(name: str) -> BlobType | None:
    """The handler of blob type ``name``: registered, or loaded from the module the composition root names for it
    (:data:`lakestruct._plugins.BLOB_TYPE_MODULES`); None for a type nothing decodes."""
    bt = _REGISTRY.get(name)
    if bt is None and name in BLOB_TYPE_MODULES:
        importlib.import_module(BLOB_TYPE_MODULES[name])  # registers it
        bt = _REGISTRY.get(name)
    return bt


@dataclass(frozen=True)
class DecodedBlob:
    """A blob of a known type, decoded and checked: ``value`` is what its room decodes it to (a
    :class:`~lakestruct.deletes.DeletionVector`, a :class:`~lakestruct.sketches.ThetaSketch`, ...), ``note`` what the
    room says about it (the ``ndv`` check of a Theta sketch); both None for a blob of an unknown type."""

    index: int
    type: str
    value: Any = None
    note: str | None = None

    @property
    def deletion_vector(self) -> Any:
        """``value`` if this is a ``deletion-vector-v1`` blob (a DeletionVector), else None."""
        return self.value if self.type == DELETION_VECTOR_V1 else None

    @property
    def sketch(self) -> Any:
        """``value`` if this is an ``apache-datasketches-theta-v1`` blob (a ThetaSketch), else None."""
        return self.value if self.type == THETA_V1 else None

    @property
    def ndv_message(self) -> str | None:
        return self.note if self.type == THETA_V1 else None

    def to_json(self, *, max_positions: int | None = 20) -> dict[str, Any]:
        bt = _REGISTRY.get(self.type)
        if self.value is None or bt is None:
            return {"kind": "opaque"}
        return bt.to_json(self.value, self.note, max_positions)


def decode_blob(reader: PuffinReader, index: int, *, max_positions: int | None = DEFAULT_MAX_POSITIONS) -> DecodedBlob:
    """Decode blob ``index`` if its type is known (else only read and decompress it); raise a
    FormatError on any broken rule. A deletion vector may hold at most ``max_positions`` positions
    (``roaring.max-positions``)."""
    blob = reader.blobs[index]
    try:
        bt = blob_type(blob.type)
        if bt is not None:
            value, note = bt.decode(reader, index, max_positions)
            return DecodedBlob(index, blob.type, value, note)
        reader.read_blob(index)  # an opaque type: its bytes must still be in range and decompress
        return DecodedBlob(index, blob.type)
    except FormatError as e:
        e.source = reader.name  # the blob was decoded from memory; the file is what the user named
        raise


def check_blobs(reader: PuffinReader, *, max_positions: int | None = DEFAULT_MAX_POSITIONS) -> list[DecodedBlob]:
    """Decode every blob of a known type, then each type's rule over the whole file (at most one deletion vector
    per data file).

    ``max_positions`` bounds the positions of all the file's deletion vectors together."""
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
        bt = _REGISTRY.get(d.type)
        if bt is not None and d.value is not None:
            used += bt.cost(d.value)
        decoded.append(d)
    for name in dict.fromkeys(d.type for d in decoded if d.value is not None):
        bt = _REGISTRY[name]
        if bt.check_file is not None:
            try:
                bt.check_file([(d.index, d.value) for d in decoded if d.type == name and d.value is not None],
                              reader.footer.payload_offset)
            except FormatError as e:
                raise e.with_source(reader.name) from None
    return decoded
