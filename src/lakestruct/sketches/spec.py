"""An independent construct description of compact Theta sketches, used for writing.

Written from the DataSketches layout notes (``PreambleUtil``, C++
``theta_sketch_impl.hpp``), not from ``formats/sketches/theta_compact.ksy``; the
tests make the two check each other (construct builds, Kaitai parses, and
construct parses the same bytes back).
"""

from __future__ import annotations

from typing import Any

from construct import (
    Array,
    BitsInteger,
    BitStruct,
    Bytes,
    BytesInteger,
    Const,
    Default,
    Flag,
    Float32l,
    If,
    Int8ul,
    Int16ul,
    Int32ul,
    Int64ul,
    Struct,
    Switch,
    this,
)

from .model import MAX_THETA

__all__ = ["SKETCH", "FLAGS", "parse", "build"]

#: Byte 0: resize factor in bits 6-7, preamble longs in bits 0-5.
PREAMBLE_BYTE = BitStruct("resize_factor" / Default(BitsInteger(2), 0), "pre_longs" / BitsInteger(6))

#: Byte 5 of serial versions 3 and 4, most significant bit first.
FLAGS = BitStruct(
    "reserved" / Default(BitsInteger(2), 0),
    "single_item" / Default(Flag, False),
    "ordered" / Flag,
    "compact" / Default(Flag, True),
    "empty" / Flag,
    "read_only" / Default(Flag, True),
    "big_endian" / Default(Flag, False),
)


def _pre_longs(ctx: Any) -> int:
    return int(ctx._.preamble.pre_longs)


def _v3_count(ctx: Any) -> int:
    if _pre_longs(ctx) >= 2:
        return 0 if ctx.flags.empty else int(ctx.num_entries)
    return 0 if ctx.flags.empty or _pre_longs(ctx) == 0 else 1


#: Serial version 3 after byte 2 (the count, p and theta exist by preamble longs).
BODY_V3 = Struct(
    "lg_nom_longs" / Default(Int8ul, 0),
    "lg_arr_longs" / Default(Int8ul, 0),
    "flags" / FLAGS,
    "seed_hash" / Int16ul,
    "num_entries" / If(lambda c: _pre_longs(c) >= 2, Int32ul),
    "p" / If(lambda c: _pre_longs(c) >= 2, Default(Float32l, 0.0)),
    "theta_long" / If(lambda c: _pre_longs(c) >= 3, Int64ul),
    "entries" / Array(_v3_count, Int64ul),
)

#: Serial version 4 after byte 2: deltas bit-packed MSB first (see :mod:`.bitpack`).
BODY_V4 = Struct(
    "entry_bits" / Int8ul,
    "num_entries_bytes" / Int8ul,
    "flags" / FLAGS,
    "seed_hash" / Int16ul,
    "theta_long" / If(lambda c: _pre_longs(c) >= 2, Int64ul),
    "num_entries" / BytesInteger(this.num_entries_bytes, swapped=True),
    "deltas" / Bytes(lambda c: (c.entry_bits * c.num_entries + 7) // 8),
)

#: Serial version 1 after byte 2 (legacy): three preamble longs, no seed hash or flags.
BODY_V1 = Struct(
    "unused" / Default(Bytes(5), b"\0" * 5),
    "num_entries" / Int32ul,
    "unused2" / Default(Bytes(4), b"\0" * 4),
    "theta_long" / Default(Int64ul, MAX_THETA),
    "entries" / Array(this.num_entries, Int64ul),
)

#: Serial version 2 after byte 2 (legacy): seed hash, no flags.
BODY_V2 = Struct(
    "unused" / Default(Bytes(3), b"\0" * 3),
    "seed_hash" / Int16ul,
    "num_entries" / If(lambda c: _pre_longs(c) >= 2, Int32ul),
    "unused2" / If(lambda c: _pre_longs(c) >= 2, Default(Bytes(4), b"\0" * 4)),
    "theta_long" / If(lambda c: _pre_longs(c) >= 3, Int64ul),
    "entries" / Array(lambda c: c.num_entries if _pre_longs(c) >= 2 else 0, Int64ul),
)

#: A whole compact sketch.
SKETCH = Struct(
    "preamble" / PREAMBLE_BYTE,
    "serial_version" / Int8ul,
    "family" / Const(3, Int8ul),
    "body" / Switch(this.serial_version, {1: BODY_V1, 2: BODY_V2, 3: BODY_V3, 4: BODY_V4}),
)


def build(obj: dict[str, Any]) -> bytes:
    data: bytes = SKETCH.build(obj)
    return data


def parse(data: bytes) -> Any:
    return SKETCH.parse(data)
