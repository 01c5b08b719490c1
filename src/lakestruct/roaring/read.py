"""Checked, fast decoding of Roaring bitmaps (32-bit and 64-bit portable formats) into NumPy arrays.

Every rule of the format is checked (see ``docs/roaring.md``); a malformed input
raises a :class:`~lakestruct.errors.FormatError` with the absolute byte offset,
a field path such as ``bitmaps[2].containers[5].values[17]`` and a stable rule
name. The output is allocated once, after the headers are checked, with exactly
the cardinality they declare and prove, so an input never makes the decoder
allocate more than its size justifies.

Two twins do the work: ``_decode_c`` (Cython, used when built) and ``_decode``
(pure Python + NumPy). Both apply the same checks in the same order;
``impl="python"`` or ``impl="c"`` picks one explicitly.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .._twins import forced_pure
from ..errors import UsageError
from . import _decode
from .model import Bitmap32Info, Bitmap64Info, describe

try:  # the compiled twin is optional
    from . import _decode_c  # type: ignore[attr-defined]

    HAVE_C = not forced_pure("roaring")  # LAKESTRUCT_PURE: "auto" takes the pure twin; impl="c" still reaches this one
except ImportError:  # pragma: no cover - pure-Python install
    _decode_c = None
    HAVE_C = False

#: Positions a decode may produce unless the caller says otherwise (2 GiB of uint64 output, 1 GiB of
#: uint32 for a 32-bit bitmap). A run container turns 4 input bytes into up to 65,536 values, so the
#: input size alone cannot bound the output; pass ``max_positions=None`` to lift the limit for a
#: vector you trust.
DEFAULT_MAX_POSITIONS = 1 << 28
#: The one cap of every command that decodes deletion vectors or Roaring files (``deletes show``, ``puffin inspect``,
#: ``paimon dv``, ``scan``, ``validate``, the Spark inventory's checks): 2^24 positions (128 MiB of int64) a file,
#: unless ``--max-positions`` says otherwise. :data:`DEFAULT_MAX_POSITIONS` is reached by a 58 KB blob of run
#: containers, so commands that check whatever they are given use this lower one.
CHECK_MAX_POSITIONS = 1 << 24

__all__ = [
    "CHECK_MAX_POSITIONS",
    "DEFAULT_MAX_POSITIONS",
    "HAVE_C",
    "Impl",
    "decode_roaring32",
    "decode_roaring64",
    "describe_roaring32",
    "describe_roaring64",
    "reference_values32",
    "reference_values64",
]

Impl = Literal["auto", "c", "python"]
Buffer = bytes | bytearray | memoryview


def _pick(impl: Impl) -> bool:
    """True to use the compiled twin."""
    if impl == "auto":
        return HAVE_C
    if impl == "c":
        if _decode_c is None:
            raise UsageError("the compiled decoder (lakestruct.roaring._decode_c) is not built; reinstall with Cython and a C compiler")
        return True
    if impl == "python":
        return False
    raise UsageError(f"impl must be 'auto', 'c' or 'python', not {impl!r}")


def decode_roaring64(
    data: Buffer,
    *,
    iceberg: bool = False,
    base_offset: int = 0,
    path: str = "",
    allow_trailing: bool = False,
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
    impl: Impl = "auto",
) -> npt.NDArray[np.uint64]:
    """All values of a 64-bit portable Roaring bitmap, sorted, as a uint64 array.

    ``iceberg=True`` adds Iceberg's key limits (keys ``<= 2^31 - 2``, so every
    value fits a non-negative int64). ``base_offset`` is the absolute offset of
    ``data`` in its file (for error offsets); ``path`` prefixes field paths.
    More than ``max_positions`` values raise ``roaring.max-positions`` before any
    allocation.
    """
    _decode._check_limit(max_positions)  # the compiled twin's -1 means None: refuse negatives before it sees them
    if _pick(impl):
        assert _decode_c is not None
        out: Any = _decode_c.decode64(data, base_offset, path, iceberg, allow_trailing, -1 if max_positions is None else max_positions)
        return out  # type: ignore[no-any-return]
    return _decode.decode64(
        data, base=base_offset, path=path, iceberg=iceberg, allow_trailing=allow_trailing, max_positions=max_positions
    )


def decode_roaring32(
    data: Buffer,
    *,
    base_offset: int = 0,
    path: str = "",
    allow_trailing: bool = False,
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
    impl: Impl = "auto",
    wide: bool = False,
) -> npt.NDArray[Any]:
    """All values of a 32-bit portable Roaring bitmap, sorted, as a uint32 array (``wide``: uint64).

    Values are written straight into the output (4 bytes per value; 8 with ``wide``, e.g. to view them as int64
    positions without a copy), which is allocated once, after the headers are checked. More than
    ``max_positions`` values (default :data:`DEFAULT_MAX_POSITIONS`, 1 GiB of uint32) raise ``roaring.max-positions``
    before that allocation.
    """
    _decode._check_limit(max_positions)  # the compiled twin's -1 means None: refuse negatives before it sees them
    if _pick(impl):
        assert _decode_c is not None
        out: Any = _decode_c.decode32(data, base_offset, path, allow_trailing, -1 if max_positions is None else max_positions, wide)
        return out  # type: ignore[no-any-return]
    return _decode.decode32(data, base=base_offset, path=path, allow_trailing=allow_trailing, max_positions=max_positions, wide=wide)


def describe_roaring64(data: Buffer, *, iceberg: bool = False, base_offset: int = 0, allow_trailing: bool = False) -> Bitmap64Info:
    """The checked layout of a 64-bit bitmap: buckets, keys, container kinds, cardinalities, offsets."""
    scan = _decode.scan64(data, base=base_offset, iceberg=iceberg, allow_trailing=allow_trailing)
    info = describe(scan, base_offset, True)
    assert isinstance(info, Bitmap64Info)
    return info


def describe_roaring32(data: Buffer, *, base_offset: int = 0, allow_trailing: bool = False) -> Bitmap32Info:
    """The checked layout of a 32-bit bitmap."""
    scan = _decode.scan32(data, base=base_offset, allow_trailing=allow_trailing)
    info = describe(scan, base_offset, False)
    assert isinstance(info, Bitmap32Info)
    return info


# -- the declarative reference: the Kaitai parsers generated from formats/roaring/*.ksy ------------


def _ks_values32(r: Any) -> list[int]:
    out: list[int] = []
    for d, c in zip(r.descriptors, r.containers, strict=True):
        hi = d.key << 16
        if c.kind == 0:
            out.extend(hi | v for v in c.body.values)
        elif c.kind == 1:
            bits = np.unpackbits(np.frombuffer(c.body.bits, dtype=np.uint8), bitorder="little")
            out.extend((hi + np.flatnonzero(bits)).tolist())
        else:
            for run in c.body.runs:
                out.extend(range(hi | run.start, (hi | run.start) + run.length_minus_one + 1))
    return out


def reference_values32(data: bytes) -> npt.NDArray[np.uint32]:
    """Values of a 32-bit bitmap as the Kaitai-generated parser reads them (slow; the declarative reference).

    It checks only what ``roaring32.ksy`` says (structure, cookie, counts, key
    order, offsets, run overflow); the fast decoder checks more.
    """
    from kaitaistruct import KaitaiStream

    from .._generated.roaring32 import Roaring32
    from .._kaitai import kaitai_call
    from ..source import RangeReader, open_source

    reader = RangeReader(open_source(data))
    r = kaitai_call("roaring32", reader, lambda: Roaring32(KaitaiStream(reader)), path="roaring32")
    return np.array(_ks_values32(r), dtype=np.uint32)


def reference_values64(data: bytes) -> npt.NDArray[np.uint64]:
    """Values of a 64-bit bitmap as the Kaitai-generated parser reads them (the declarative reference)."""
    from kaitaistruct import KaitaiStream

    from .._generated.roaring64 import Roaring64
    from .._kaitai import kaitai_call
    from ..source import RangeReader, open_source

    reader = RangeReader(open_source(data))
    r = kaitai_call("roaring64", reader, lambda: Roaring64(KaitaiStream(reader)), path="roaring64")
    out: list[int] = []
    for b in r.bitmaps:
        out.extend((b.key << 32) | v for v in _ks_values32(b.bitmap))
    return np.array(out, dtype=np.uint64)
