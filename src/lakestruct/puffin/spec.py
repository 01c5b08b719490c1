"""An independent construct description of the Puffin layout, used for writing.

It is written from the Puffin spec, not from ``formats/puffin/puffin.ksy``; the
round-trip tests make the two check each other (construct builds, Kaitai parses,
and construct parses the same bytes back).
"""

from __future__ import annotations

from typing import Any

from construct import (
    BitsInteger,
    BitStruct,
    Bytes,
    Const,
    Flag,
    Int32sl,
    Pointer,
    Rebuild,
    Struct,
    len_,
    this,
)

MAGIC = b"PFA1"

#: Flags, 4 bytes: byte 0 bit 0 = payload compressed, every other bit reserved (0).
FLAGS = BitStruct(
    "reserved0" / Const(0, BitsInteger(7)),
    "payload_compressed" / Flag,
    "reserved1" / Const(0, BitsInteger(24)),
)

#: The fixed 12 bytes that end every Puffin file.
FOOTER_TAIL = Struct(
    "len_payload" / Int32sl,
    "flags" / FLAGS,
    "magic" / Const(MAGIC),
)

#: Footer = Magic FooterPayload FooterPayloadSize Flags Magic (building).
FOOTER = Struct(
    "magic" / Const(MAGIC),
    "payload" / Bytes(len_(this.payload)),
    "len_payload" / Rebuild(Int32sl, len_(this.payload)),
    "flags" / FLAGS,
    "trailing_magic" / Const(MAGIC),
)

#: A whole file, parsed from both ends (parsing; the second opinion in tests).
PUFFIN_FILE = Struct(
    "magic" / Const(MAGIC),
    "tail" / Pointer(-12, FOOTER_TAIL),
    "footer_magic" / Pointer(lambda ctx: -(16 + ctx.tail.len_payload), Const(MAGIC)),
    "payload" / Pointer(lambda ctx: -(12 + ctx.tail.len_payload), Bytes(this.tail.len_payload)),
)


def build_footer(payload: bytes, compressed: bool) -> bytes:
    built: bytes = FOOTER.build({"payload": payload, "flags": {"payload_compressed": compressed}})
    return built


def parse_file(data: bytes) -> Any:
    return PUFFIN_FILE.parse(data)
