"""Roaring bitmaps: the 32-bit and 64-bit portable serializations, checked and fast.

>>> from lakestruct import roaring                                   # doctest: +SKIP
>>> roaring.decode_roaring64(data)            # sorted uint64 NumPy array, every rule checked
>>> roaring.describe_roaring64(data)          # keys, container kinds, cardinalities, offsets
>>> roaring.encode64(positions)               # bytes as Iceberg Java writes them (fill_gaps=False: as CRoaring)
"""

from __future__ import annotations

from .model import Bitmap32Info, Bitmap64Info, Bucket, ContainerInfo
from .read import (
    CHECK_MAX_POSITIONS,
    DEFAULT_MAX_POSITIONS,
    HAVE_C,
    decode_roaring32,
    decode_roaring64,
    describe_roaring32,
    describe_roaring64,
)
from .write import EMPTY32, choose_kinds, encode32, encode64, normalize_positions

__all__ = [
    "CHECK_MAX_POSITIONS",
    "DEFAULT_MAX_POSITIONS",
    "EMPTY32",
    "HAVE_C",
    "Bitmap32Info",
    "Bitmap64Info",
    "Bucket",
    "ContainerInfo",
    "choose_kinds",
    "decode_roaring32",
    "decode_roaring64",
    "describe_roaring32",
    "describe_roaring64",
    "encode32",
    "encode64",
    "normalize_positions",
]
