"""An independent construct description of the deletion-vector envelopes (Iceberg blob, Delta DV file).

Written from the Iceberg Puffin spec and Delta's protocol, not from the .ksy:
the blob is ``length (int32 BE) | magic D1 D3 39 64 | vector | CRC-32 (BE)``,
where length counts magic + vector and the CRC covers them. A Delta DV file is
the version byte 1 followed by such blobs. The tests build with construct,
parse with Kaitai, and parse construct's output back.
"""

from __future__ import annotations

import zlib
from typing import Any

from construct import Bytes, Checksum, Const, GreedyRange, Int8ub, Int32ub, Rebuild, Struct, this

__all__ = ["DELTA_DV_FILE", "DV_BLOB", "MAGIC", "parse_blob"]

MAGIC = bytes.fromhex("d1d33964")

#: One deletion-vector-v1 blob.
DV_BLOB = Struct(
    "len_body" / Rebuild(Int32ub, lambda ctx: 4 + len(ctx.vector)),
    "magic" / Const(MAGIC),
    "vector" / Bytes(this.len_body - 4),
    "crc" / Checksum(Int32ub, lambda data: zlib.crc32(data), lambda ctx: MAGIC + ctx.vector),
)

#: A Delta Lake DV file: format version byte 1, then DV blobs back to back.
DELTA_DV_FILE = Struct("version" / Const(1, Int8ub), "vectors" / GreedyRange(DV_BLOB))


def parse_blob(data: bytes) -> Any:
    return DV_BLOB.parse(data)
