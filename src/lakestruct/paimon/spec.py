"""Independent construct descriptions of what lakestruct writes for Paimon, written from Paimon's Java classes
(``SerializationUtils.serializeBinaryRow``, ``BinaryRowWriter``, ``DeletionVectorsIndexFile``, ``FileIndexFormat``),
not from the .ksy files: the tests build with construct and parse with the Kaitai specs and lakestruct's readers.

* :data:`BINARY_ROW`: big-endian arity, RowKind byte, the rest of the null-bit area, one little-endian 8-byte slot
  per field, the variable part (``write.encode_binary_row`` lays out slots and variable part).
* :data:`DV_INDEX_FILE`: version byte 1, then entries of big-endian size (magic + bitmap), magic (``5E 43 F2 D0`` for
  32-bit, ``D1 D3 39 64`` for 64-bit), bitmap, big-endian CRC-32 of magic + bitmap.
* :data:`FILE_INDEX`: the data-file index container (magic, version 1, head length, columns with their index types,
  absolute payload offsets and lengths, reserved bytes, bodies), all big-endian; :data:`FILE_INDEX_V2` its version 2
  (magic, version 2, bodies, a footer of the same columns with int64 offsets and lengths, the footer's length and
  the tail magic ``PAFIDX02``).
* Its payloads (``BloomFilterFileIndex``, ``BitmapFileIndexMeta`` / ``BitmapFileIndexMetaV2``,
  ``BitSliceIndexBitmapFileIndex``): :data:`BLOOM_FILTER_PAYLOAD` (hash-function count, bit set),
  :func:`bitmap_index_payload` (version 1 or 2 head with its keys, then the serialized bitmaps) and
  :data:`BSI_PAYLOAD` (row count, the non-negative and negative bit-sliced bitmaps, 32-bit Roaring from
  :data:`lakestruct.roaring.spec.ROARING32`).
"""

from __future__ import annotations

import zlib
from typing import Any

from construct import (
    Array,
    Bytes,
    Checksum,
    Const,
    Construct,
    Flag,
    GreedyBytes,
    GreedyRange,
    If,
    Int8sb,
    Int8ub,
    Int8ul,
    Int16sb,
    Int16ub,
    Int32sb,
    Int32ub,
    Int64sb,
    Int64ul,
    OneOf,
    PascalString,
    Prefixed,
    Rebuild,
    Struct,
    this,
)

from ..roaring.spec import ROARING32

__all__ = [
    "BINARY_ROW",
    "BLOOM_FILTER_PAYLOAD",
    "BSI_PAYLOAD",
    "DV_ENTRY",
    "DV_INDEX_FILE",
    "FILE_INDEX",
    "FILE_INDEX_MAGIC",
    "FILE_INDEX_TAIL_MAGIC",
    "FILE_INDEX_V2",
    "MAGIC32",
    "MAGIC64",
    "bitmap_index_payload",
    "bitmap_key",
]

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

FILE_INDEX_V2_FOOTER = Struct(
    "num_columns" / Rebuild(Int32sb, lambda ctx: len(ctx.columns)),
    "columns" / Array(this.num_columns, Struct(
        "name" / _UTF,
        "num_indexes" / Rebuild(Int32sb, lambda ctx: len(ctx.indexes)),
        "indexes" / Array(this.num_indexes, Struct("type" / _UTF, "start" / Int64sb, "length" / Int64sb)),
    )),
)  # fmt: skip

#: ASCII ``PAFIDX02``, the last 8 bytes of a version-2 container.
FILE_INDEX_TAIL_MAGIC = b"PAFIDX02"


def _len_body(ctx: Any) -> int:
    n: int = ctx._params.len_body if "len_body" in ctx._params else len(ctx.body)
    return n


FILE_INDEX_V2 = Struct(
    "magic" / Const(FILE_INDEX_MAGIC),
    "version" / Const(2, Int32sb),
    "body" / Bytes(_len_body),  # parse with len_body=...: where the footer starts is known from the trailer only
    "footer" / FILE_INDEX_V2_FOOTER,
    "len_footer" / Rebuild(Int32sb, lambda ctx: len(FILE_INDEX_V2_FOOTER.build(ctx.footer))),
    "tail_magic" / Const(FILE_INDEX_TAIL_MAGIC),
)

BLOOM_FILTER_PAYLOAD = Struct("num_hash_functions" / Int32sb, "bits" / GreedyBytes)

_FIXED_KEYS: dict[str, Construct] = {">b": Int8sb, ">h": Int16sb, ">i": Int32sb, ">q": Int64sb}


def bitmap_key(kind: str) -> Construct:
    """How a bitmap index writes a key (``BitmapFileIndexMeta.getValueWriter``): ``string`` (int length, UTF-8 bytes),
    ``bool`` (one byte), or a big-endian integer of struct format ``>b``, ``>h``, ``>i``, ``>q`` (FLOAT and DOUBLE
    keys are their Java bits, as ``writeFloat``/``writeDouble`` write them)."""
    if kind == "string":
        return Prefixed(Int32sb, GreedyBytes)
    if kind == "bool":
        return Flag
    return _FIXED_KEYS[kind]


def bitmap_index_payload(key: Construct) -> Struct:
    """A ``bitmap`` payload with keys written by ``key``: version 1 (one dictionary of key and body offset) or 2
    (index blocks of key, offset and length, found through a block directory); then the serialized bitmaps."""
    entry1 = Struct("key" / key, "offset" / Int32sb)
    block = Struct(
        "num_entries" / Rebuild(Int32sb, lambda ctx: len(ctx.entries)),
        "entries" / Array(this.num_entries, Struct("key" / key, "offset" / Int32sb, "length" / Int32sb)),
    )
    return Struct(
        "version" / OneOf(Int8ub, [1, 2]),
        "row_count" / Int32sb,
        "num_values" / Int32sb,
        "has_null" / Flag,
        "null_offset" / If(this.has_null, Int32sb),
        "null_length" / If(lambda ctx: ctx.has_null and ctx.version == 2, Int32sb),
        "entries" / If(this.version == 1, Array(this.num_values, entry1)),
        "num_blocks" / If(this.version == 2, Rebuild(Int32sb, lambda ctx: len(ctx.blocks))),
        "blocks" / If(this.version == 2, Array(this.num_blocks, entry1)),
        "bitmap_body_offset" / If(this.version == 2, Int32sb),
        "index_blocks" / If(this.version == 2, Array(this.num_blocks, block)),
        "body" / GreedyBytes,
    )


BSI_BITMAP = Struct(
    "version" / Const(1, Int8sb),
    "min" / Int64sb,
    "max" / Int64sb,
    "ebm" / ROARING32,
    "num_slices" / Rebuild(Int32sb, lambda ctx: len(ctx.slices)),
    "slices" / Array(this.num_slices, ROARING32),
)

BSI_PAYLOAD = Struct(
    "version" / Const(1, Int8sb),
    "row_count" / Int32sb,
    "has_positive" / Flag,
    "positive" / If(this.has_positive, BSI_BITMAP),
    "has_negative" / Flag,
    "negative" / If(this.has_negative, BSI_BITMAP),
)
