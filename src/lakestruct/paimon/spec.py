"""Independent construct descriptions of what lakestruct writes for Paimon, written from Paimon's Java classes
(``SerializationUtils.serializeBinaryRow``, ``BinaryRowWriter``, ``DeletionVectorsIndexFile``, ``FileIndexFormat``),
not from the .ksy files: the tests build with construct and parse with the Kaitai specs and lakestruct's readers.

* :data:`BINARY_ROW`: big-endian arity, RowKind byte, the rest of the null-bit area, one little-endian 8-byte slot
  per field, the variable part (``write.encode_binary_row`` lays out slots and variable part).
* :data:`DV_INDEX_FILE`: version byte 1, then entries of big-endian size (magic + bitmap), magic (``5E 43 F2 D0`` for
  32-bit, ``D1 D3 39 64`` for 64-bit), bitmap, big-endian CRC-32 of magic + bitmap.
* :data:`FILE_INDEX`: the data-file index container (magic, version 1, head length, columns with their index types,
  absolute payload offsets and lengths, reserved bytes, bodies), all big-endian.
"""

from __future__ import annotations

import zlib
from typing import Any

from construct import (
    Array,
    Bytes,
    Checksum,
    Const,
    GreedyBytes,
    GreedyRange,
    Int8ub,
    Int8ul,
    Int16ub,
    Int32sb,
    Int32ub,
    Int64ul,
    OneOf,
    PascalString,
    Rebuild,
    Struct,
    this,
)

__all__ = ["BINARY_ROW", "DV_ENTRY", "DV_INDEX_FILE", "FILE_INDEX", "FILE_INDEX_MAGIC", "MAGIC32", "MAGIC64"]

MAGIC32 = bytes.fromhex("5e43f2d0")
MAGIC64 = bytes.fromhex("d1d33964")
FILE_INDEX_MAGIC = (1493475289347502).to_bytes(8, "big")


def _null_area(ctx: Any) -> int:
    arity: int = ctx.arity
    return ((arity + 63 + 8) // 64) * 8 - 1


BINARY_ROW = Struct(
    "arity" / Int32sb,
    "row_kind" / Int8ul,
    "null_bits" / Bytes(_null_area),
    "slots" / Array(this.arity, Int64ul),
    "var_part" / GreedyBytes,
)

DV_ENTRY = Struct(
    "len_body" / Rebuild(Int32ub, lambda ctx: 4 + len(ctx.bitmap)),
    "magic" / OneOf(Bytes(4), [MAGIC32, MAGIC64]),
    "bitmap" / Bytes(this.len_body - 4),
    "crc" / Checksum(Int32ub, lambda data: zlib.crc32(data), lambda ctx: ctx.magic + ctx.bitmap),
)

DV_INDEX_FILE = Struct("version" / Const(1, Int8ub), "entries" / GreedyRange(DV_ENTRY))

_UTF = PascalString(Int16ub, "utf8")
FILE_INDEX = Struct(
    "magic" / Const(FILE_INDEX_MAGIC),
    "version" / Const(1, Int32sb),
    "len_head" / Int32sb,
    "num_columns" / Rebuild(Int32sb, lambda ctx: len(ctx.columns)),
    "columns" / Array(this.num_columns, Struct(
        "name" / _UTF,
        "num_indexes" / Rebuild(Int32sb, lambda ctx: len(ctx.indexes)),
        "indexes" / Array(this.num_indexes, Struct("type" / _UTF, "start" / Int32sb, "length" / Int32sb)),
    )),
    "len_redundant" / Rebuild(Int32sb, lambda ctx: len(ctx.redundant)),
    "redundant" / Bytes(this.len_redundant),
    "body" / GreedyBytes,
)  # fmt: skip
