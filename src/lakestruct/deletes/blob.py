"""The ``deletion-vector-v1`` blob type, registered into Puffin's blob registry (:mod:`lakestruct.puffin.decode`).

Puffin imports this module by name the first time it meets such a blob (or writes one)
(:data:`lakestruct._plugins.BLOB_TYPE_MODULES`); importing it registers it. Deletion vectors build on Puffin, not the reverse.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import UsageError
from ..puffin.decode import BlobType, register_blob_type
from ..puffin.model import DELETION_VECTOR_V1
from ..puffin.read import PuffinReader
from .model import DeletionVector
from .read import check_one_per_data_file, read_dv_blob
from .write import DV_FIELDS, encode_deletion_vector

__all__ = ["DV_BLOB_TYPE"]


def _decode(reader: PuffinReader, index: int, max_positions: int | None) -> tuple[Any, str | None]:
    return read_dv_blob(reader, index, max_positions=max_positions), None


def _to_json(dv: DeletionVector, note: str | None, max_positions: int | None) -> dict[str, Any]:
    pos = dv.positions()
    shown = pos if max_positions is None or pos.size <= max_positions else pos[:max_positions]
    out: dict[str, Any] = {"kind": "deletion-vector", "cardinality": int(pos.size), "deleted-rows": shown.tolist()}
    if shown.size < pos.size:
        out["deleted-rows-truncated"] = True
        out["last-deleted-row"] = int(pos[-1])
    return out


def _check_file(decoded: Sequence[tuple[int, Any]], where: int | None) -> None:
    check_one_per_data_file(((i, dv.referenced_data_file or "") for i, dv in decoded), where=where)


def _encode(positions: Any, referenced_data_file: str, properties: Mapping[str, str] | None = None
            ) -> tuple[bytes, tuple[int, ...], dict[str, str]]:
    data, props = encode_deletion_vector(positions, referenced_data_file)  # reads positions once: generators work
    for k, v in (properties or {}).items():
        if k in props:
            raise UsageError(f"property {k!r} is set by the deletion vector itself")
        props[k] = v
    return data, DV_FIELDS, props


def _cost(dv: DeletionVector) -> int:
    return dv.cardinality


DV_BLOB_TYPE = BlobType(DELETION_VECTOR_V1, decode=_decode, to_json=_to_json, cost=_cost, check_file=_check_file, encode=_encode)
register_blob_type(DV_BLOB_TYPE)
