"""An independent construct description of the Avro object container framing, written from the Avro
specification ("Object Container Files"), not from the .ksy or the reader: the tests build files with it, parse them
with the Kaitai spec and lakestruct's reader, and parse what fastavro writes with it.

* :data:`LONG`: an Avro ``long`` (zigzag varint, construct's ``ZigZag``).
* :data:`META_BLOCK`: one block of the metadata map: a count (negative: as many entries, then the block's byte size),
  the entries (a string key, a bytes value).
* :data:`DATA_BLOCK`: a record count, the byte size of the stored records, the records, the sync marker.
* :data:`OCF`: the magic ``Obj\\x01``, the metadata blocks up to the empty one, the 16-byte sync marker, the data
  blocks to the end.

:func:`encode_container` / :func:`decode_container` turn a :class:`~lakestruct.avro.model.Container` into bytes
and back through these.
"""

from __future__ import annotations

from typing import Any

from construct import (
    Array,
    Bytes,
    Const,
    GreedyBytes,
    GreedyRange,
    If,
    PascalString,
    Prefixed,
    RepeatUntil,
    Struct,
    Terminated,
    ZigZag,
    this,
)

from .model import Container, MetaBlock, StoredBlock

__all__ = ["DATA_BLOCK", "LONG", "MAGIC", "META_BLOCK", "META_ENTRY", "OCF", "decode_container", "encode_container"]

MAGIC = b"Obj\x01"
LONG = ZigZag
META_ENTRY = Struct("key" / PascalString(LONG, "utf8"), "value" / Prefixed(LONG, GreedyBytes))
META_BLOCK = Struct(
    "count" / LONG,
    "len_block" / If(this.count < 0, LONG),
    "entries" / Array(lambda ctx: abs(ctx.count), META_ENTRY),
)
DATA_BLOCK = Struct(
    "num_objects" / LONG,
    "len_data" / LONG,
    "data" / Bytes(this.len_data),
    "sync" / Bytes(16),
)
OCF = Struct(
    "magic" / Const(MAGIC),
    "meta_blocks" / RepeatUntil(lambda block, lst, ctx: block["count"] == 0, META_BLOCK),
    "sync" / Bytes(16),
    "blocks" / GreedyRange(DATA_BLOCK),
    Terminated,
)


def _meta_block(b: MetaBlock) -> dict[str, Any]:
    entries = [{"key": k, "value": v} for k, v in b.entries]
    if not b.sized or not entries:
        return {"count": len(entries), "len_block": None, "entries": entries}
    size = sum(len(META_ENTRY.build(e)) for e in entries)
    return {"count": -len(entries), "len_block": size, "entries": entries}


def encode_container(c: Container) -> bytes:
    """The bytes of a container: its metadata blocks and a closing empty one, its sync marker, its blocks."""
    if len(c.sync) != 16:
        raise ValueError(f"a sync marker is 16 bytes, not {len(c.sync)}")
    meta = [_meta_block(b) for b in c.meta_blocks if b.entries]
    meta.append({"count": 0, "len_block": None, "entries": []})
    blocks = [{"num_objects": b.count, "len_data": len(b.data), "data": b.data, "sync": c.sync} for b in c.blocks]
    return bytes(OCF.build({"meta_blocks": meta, "sync": c.sync, "blocks": blocks}))


def decode_container(data: bytes) -> Container:
    """A container's framing as construct parses it (no checks beyond construct's own: the blocks' sync markers are
    not compared with the header's here)."""
    p = OCF.parse(data)
    metas = tuple(MetaBlock(tuple((e.key, bytes(e.value)) for e in b.entries), b.count < 0) for b in p.meta_blocks if b.count != 0)
    return Container(metas, bytes(p.sync), tuple(StoredBlock(b.num_objects, bytes(b.data)) for b in p.blocks))
