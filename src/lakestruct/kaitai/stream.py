"""A faster stream for the generated parsers: the same reads as ``kaitaistruct.KaitaiStream``, fewer calls.

The runtime's reads go through three or four Python calls each (``read_u2be`` -> ``read_bytes`` ->
``align_to_byte`` and ``_read_bytes_not_aligned``), which is most of what a generated parser spends on a
small record. :class:`Stream` subclasses ``KaitaiStream`` and does each fixed-size read, ``read_bytes``,
big-endian bit reads, ``is_eof`` and ``size`` in one call on the in-memory buffer the parsers read from;
enum lookups go to the enum's value map first. Everything else (little-endian bits, terminators, processing,
writing, other kinds of ``io``) is inherited unchanged, and every case outside the fast path (a negative or huge ``read_bytes``, a
value an enum lacks) calls the inherited method, so values, exceptions (``EndOfStreamError`` with the same
counts and message) and the position after a failed read are the runtime's. :func:`lakestruct.kaitai.runtime.load`
hands it to the generated modules it imports; tests/kaitai/test_stream.py holds it to ``KaitaiStream``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from io import BytesIO
from typing import Any

from kaitaistruct import EndOfStreamError, KaitaiStream

__all__ = ["Stream"]

#: from this size on, ``read_bytes`` checks the size first (the runtime does); left to the runtime
_BIG = 8 * 1024 * 1024


def _short(n: int, got: int) -> EndOfStreamError:
    return EndOfStreamError(f"requested {n} bytes, but only {got} bytes available", n, got)


def _fixed(fmt: str) -> Callable[[Any], Any]:
    unpack = struct.Struct(fmt).unpack
    n = struct.calcsize(fmt)

    def read(self: Any) -> Any:
        self.bits_left = 0
        self.bits = 0
        b = self._io.read(n)
        if len(b) != n:
            raise _short(n, len(b))
        return unpack(b)[0]

    read.__name__ = f"read_{fmt}"
    return read


class Stream(KaitaiStream):  # type: ignore[misc]
    """``KaitaiStream`` over a ``BytesIO``, with one call per read (any other ``io``: the runtime's own code)."""

    # what the runtime's constructor sets, as class defaults (a write sets the instance's own, as before);
    # the parsers only read: no child streams to write back (an empty tuple: adding one fails loudly)
    bits_le = False
    bits_write_mode = False
    write_back_handler = None
    child_streams: Any = ()
    _size: int  # measured on first use

    def __init__(self, io: Any) -> None:
        if type(io) is not BytesIO:
            KaitaiStream.__init__(self, io)
            return
        self._io = io
        self.bits_left = 0
        self.bits = 0

    def size(self) -> int:
        if type(self._io) is not BytesIO:
            return int(KaitaiStream.size(self))
        try:
            return self._size
        except AttributeError:  # measured on first use (the runtime measures in the constructor; the parsers
            self._size = size = int(KaitaiStream.size(self))  # never write, so the buffer keeps its size)
            return size

    def is_eof(self) -> bool:
        if self.bits_left > 0 and not self.bits_write_mode:
            return False
        return bool(self._io.tell() >= self.size())

    def read_u1(self) -> int:
        self.bits_left = 0
        self.bits = 0
        b = self._io.read(1)
        if not b:
            raise _short(1, 0)
        return b[0]

    read_s1 = _fixed("b")
    read_u2be = _fixed(">H")
    read_u2le = _fixed("<H")
    read_s2be = _fixed(">h")
    read_s2le = _fixed("<h")
    read_u4be = _fixed(">I")
    read_u4le = _fixed("<I")
    read_s4be = _fixed(">i")
    read_s4le = _fixed("<i")
    read_u8be = _fixed(">Q")
    read_u8le = _fixed("<Q")
    read_s8be = _fixed(">q")
    read_s8le = _fixed("<q")
    read_f4be = _fixed(">f")
    read_f4le = _fixed("<f")
    read_f8be = _fixed(">d")
    read_f8le = _fixed("<d")

    def read_bits_int_be(self, n: int) -> int:
        """``n`` bits, big-endian, continuing the byte a previous bit read began."""
        self.bits_write_mode = False
        have = self.bits_left  # 0..7 bits of the current byte not yet read, kept in self.bits
        if n <= have:
            have -= n
            self.bits_left = have
            value = self.bits >> have
            self.bits &= (1 << have) - 1
            return int(value)
        need = n - have
        nbytes = (need + 7) >> 3
        keep = (nbytes << 3) - need  # bits of the last byte read that this read leaves
        self.bits_left = keep
        b = self._io.read(nbytes) if nbytes < _BIG else KaitaiStream._read_bytes_not_aligned(self, nbytes)
        if len(b) != nbytes:
            raise _short(nbytes, len(b))
        fresh = int.from_bytes(b, "big")
        value = (self.bits << need) | (fresh >> keep)
        self.bits = fresh & ((1 << keep) - 1)
        return int(value)

    def read_bytes(self, n: int) -> bytes:
        if n < 0 or n >= _BIG:
            return bytes(KaitaiStream.read_bytes(self, n))
        self.bits_left = 0
        self.bits = 0
        b: bytes = self._io.read(n)
        if len(b) != n:
            raise _short(n, len(b))
        return b

    @staticmethod
    def resolve_enum(enum_obj: Any, value: Any) -> Any:
        try:
            return enum_obj._value2member_map_[value]
        except (KeyError, TypeError, AttributeError):
            return KaitaiStream.resolve_enum(enum_obj, value)
