"""Z85 (ZeroMQ RFC 32), the Base85 variant Delta Lake writes in its log: deletion-vector UUIDs (storage type ``u``)
and inline deletion vectors (storage type ``i``).

Every 4 bytes (big-endian) become 5 characters of the alphabet below, most significant digit first. Delta pads the
bytes with zeros to a multiple of 4 before encoding and records the true length (``sizeInBytes``), so an inline
vector of ``n`` bytes takes ``5 * ceil(n / 4)`` characters; a UUID (16 bytes) takes 20.
"""

from __future__ import annotations

import uuid

from ..errors import FormatError

__all__ = ["ALPHABET", "decode", "decode_uuid", "encode", "encode_uuid", "encoded_length"]

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"
_VALUE = [-1] * 128
for _i, _c in enumerate(ALPHABET):
    _VALUE[ord(_c)] = _i
_POW = (85**4, 85**3, 85**2, 85, 1)


def encoded_length(size: int) -> int:
    """The number of Z85 characters Delta writes for ``size`` bytes (padded to a multiple of 4)."""
    return 5 * ((size + 3) // 4)


def decode(text: str, *, size: int | None = None, path: str = "z85", offset: int | None = None, strict: bool = True) -> bytes:
    """The bytes a Z85 string encodes; ``size`` (the recorded length before padding) trims the padding and must
    agree with the string's length. Rules: ``delta.dv.z85-length``, ``delta.dv.z85-char``, ``delta.dv.z85-value``.

    ``strict=False`` reads as Delta's own decoder does: a group past 2^32 - 1 wraps (32-bit arithmetic) and the
    padding is not required to be zero (some writers' last group overflows: see docs/delta.md)."""
    n = len(text)
    if n % 5:
        raise FormatError(f"a Z85 string has a multiple of 5 characters; this one has {n}", rule="delta.dv.z85-length",
                          path=path, offset=offset)
    if size is not None and (size < 0 or encoded_length(size) != n):
        raise FormatError(f"{size} bytes take {encoded_length(max(size, 0))} Z85 characters; the string has {n}",
                          rule="delta.dv.z85-length", path=path, offset=offset)
    out = bytearray()
    value = _VALUE
    for g in range(0, n, 5):
        acc = 0
        for k in range(5):
            o = ord(text[g + k])
            d = value[o] if o < 128 else -1
            if d < 0:
                raise FormatError(f"character {text[g + k]!r} at {g + k} is not in the Z85 alphabet", rule="delta.dv.z85-char",
                                  path=path, offset=offset)
            acc = acc * 85 + d
        if acc > 0xFFFFFFFF:
            if not strict:
                acc &= 0xFFFFFFFF
                out += acc.to_bytes(4, "big")
                continue
            raise FormatError(f"the group {text[g:g + 5]!r} at {g} encodes {acc}, past 2^32 - 1", rule="delta.dv.z85-value",
                              path=path, offset=offset)
        out += acc.to_bytes(4, "big")
    if size is not None:
        if strict and any(out[size:]):
            raise FormatError(f"the padding after byte {size} is not zero", rule="delta.dv.z85-length", path=path, offset=offset)
        del out[size:]
    return bytes(out)


def encode(data: bytes) -> str:
    """Z85 of ``data`` padded with zeros to a multiple of 4 bytes (as Delta writes inline vectors)."""
    padded = bytes(data) + b"\0" * (-len(data) % 4)
    chars: list[str] = []
    for g in range(0, len(padded), 4):
        acc = int.from_bytes(padded[g : g + 4], "big")
        chars.extend(ALPHABET[(acc // p) % 85] for p in _POW)
    return "".join(chars)


def decode_uuid(text: str, *, path: str = "pathOrInlineDv", offset: int | None = None) -> tuple[str, uuid.UUID]:
    """(random prefix, UUID) of a ``u`` descriptor's ``pathOrInlineDv``: the last 20 characters are the Z85 UUID."""
    if len(text) < 20:
        raise FormatError(f"a 'u' deletion vector names a Z85 UUID of 20 characters (after an optional prefix); "
                          f"{text!r} has {len(text)}", rule="delta.dv.z85-length", path=path, offset=offset)
    return text[:-20], uuid.UUID(bytes=decode(text[-20:], path=path, offset=offset))


def encode_uuid(u: uuid.UUID, prefix: str = "") -> str:
    return prefix + encode(u.bytes)
