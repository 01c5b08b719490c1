"""Typed views of a serialized Roaring bitmap: buckets, keys, containers (kind, cardinality, offsets).

These describe the *layout* (what ``lakestruct`` found where); the values
themselves come from :func:`lakestruct.roaring.decode_roaring64` as a NumPy
array. All offsets are absolute byte offsets in the input.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from . import _decode

__all__ = ["Bitmap32Info", "Bitmap64Info", "ContainerInfo", "ContainerKind", "describe"]

ContainerKind = Literal["array", "bitmap", "run"]


@dataclass(frozen=True)
class ContainerInfo:
    """One container: the values whose high 16 bits are ``key``."""

    key: int
    kind: ContainerKind
    cardinality: int
    offset: int  # absolute offset of the container body
    length: int  # bytes of the body

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "kind": self.kind, "cardinality": self.cardinality, "offset": self.offset, "length": self.length}


@dataclass(frozen=True)
class Bitmap32Info:
    """A 32-bit portable bitmap (cookie, header layout, containers)."""

    offset: int  # absolute offset of the cookie
    length: int
    cookie: int
    has_offset_header: bool
    containers: tuple[ContainerInfo, ...]

    @property
    def has_runs(self) -> bool:
        return self.cookie != _decode.COOKIE_NO_RUNS

    @property
    def cardinality(self) -> int:
        return sum(c.cardinality for c in self.containers)

    def to_json(self) -> dict[str, Any]:
        return {
            "offset": self.offset,
            "length": self.length,
            "cookie": self.cookie & 0xFFFF,
            "has_offset_header": self.has_offset_header,
            "cardinality": self.cardinality,
            "containers": [c.to_json() for c in self.containers],
        }


@dataclass(frozen=True)
class Bucket:
    """One entry of a 64-bit bitmap: a 32-bit key (the high 32 bits) and its bitmap."""

    key: int
    key_offset: int
    bitmap: Bitmap32Info

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "key_offset": self.key_offset, "bitmap": self.bitmap.to_json()}


@dataclass(frozen=True)
class Bitmap64Info:
    """A 64-bit portable bitmap: a count, then (key, 32-bit bitmap) per bucket."""

    offset: int
    length: int
    buckets: tuple[Bucket, ...]

    @property
    def keys(self) -> tuple[int, ...]:
        return tuple(b.key for b in self.buckets)

    @property
    def cardinality(self) -> int:
        return sum(b.bitmap.cardinality for b in self.buckets)

    def to_json(self) -> dict[str, Any]:
        return {
            "offset": self.offset,
            "length": self.length,
            "cardinality": self.cardinality,
            "buckets": [b.to_json() for b in self.buckets],
        }


def describe(scan: _decode.Scan, base: int, is64: bool) -> Bitmap32Info | Bitmap64Info:
    """Build the typed view from the decoder's scan tables."""
    kinds: tuple[ContainerKind, ...] = ("array", "bitmap", "run")
    sizes = []
    for k, c, s in zip(scan.kind.tolist(), scan.card.tolist(), scan.start.tolist(), strict=True):
        sizes.append((k, c, s))
    bitmaps: list[tuple[int, int, Bitmap32Info]] = []
    i = 0
    for key, key_pos, p, cookie, size, has_offsets, end in scan.buckets:
        conts = []
        for j in range(size):
            k, c, s = sizes[i + j]
            nxt = sizes[i + j + 1][2] if j + 1 < size else end
            conts.append(ContainerInfo(int(scan.hi[i + j]) >> 16 & 0xFFFF, kinds[k], c, base + s, nxt - s))
        i += size
        bitmaps.append((key, base + key_pos, Bitmap32Info(base + p, end - p, cookie, has_offsets, tuple(conts))))
    if not is64:
        return bitmaps[0][2]
    return Bitmap64Info(base, scan.end, tuple(Bucket(k, kp, bm) for k, kp, bm in bitmaps))
