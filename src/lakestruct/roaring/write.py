"""Encoding Roaring bitmaps in the portable formats, container for container as Java or CRoaring.

Both libraries ``runOptimize()`` before writing (Iceberg calls it on every
32-bit bitmap); each container becomes the smallest of array, bitmap and run.
A container built by adding values is an array while it has at most 4096
values and a bitmap above; Java's ``ArrayContainer.runOptimize`` turns an array
into runs only when ``2*card > 2 + 4*runs`` (strictly smaller, so ``{0, 1, 2}``
stays an array), ``BitmapContainer.runOptimize`` when ``8192 > 2 + 4*runs``.
CRoaring (pyroaring) makes the same choices for such containers (checked by the
property tests against ``BitMap64.run_optimize().serialize()``).

The 32-bit layout follows both writers: cookie 12346 (no run container) with a
descriptive header and an offset header, or cookie 12347 with the run-flag
bitset, and the offset header only from 4 containers on. The 64-bit layout is
the portable one: a u64 count, then per bitmap a u32 key and a 32-bit bitmap;
Iceberg writes every key from 0 to the largest, empty bitmaps included
(``fill_gaps=True``), CRoaring only the non-empty ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import UsageError
from ._decode import ARRAY_MAX, BITMAP_BYTES, COOKIE_NO_RUNS, COOKIE_RUNS, KIND_ARRAY, KIND_BITMAP, KIND_RUN, NO_OFFSET_THRESHOLD

__all__ = ["EMPTY32", "MAX_FILLED_BITMAPS", "choose_kinds", "encode32", "encode64", "normalize_positions"]

Array = npt.NDArray[Any]

#: An empty 32-bit bitmap: cookie 12346, zero containers.
EMPTY32 = bytes.fromhex("3a30000000000000")


def normalize_positions(positions: Any, *, bits: int = 64) -> Array:
    """Sorted, de-duplicated uint64 (or uint32) positions from any iterable, array or pyroaring bitmap."""
    if hasattr(positions, "to_array") and not isinstance(positions, np.ndarray):
        arr = np.asarray(positions.to_array())
    elif isinstance(positions, np.ndarray):
        arr = positions
    else:
        if not isinstance(positions, Iterable):
            raise UsageError(f"positions must be an iterable of ints, a NumPy array or a pyroaring bitmap, not {type(positions).__name__}")
        items = list(positions)
        for x in items:
            if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
                raise UsageError(f"positions must be ints; got {x!r}")
        lo = min(items, default=0)
        hi = max(items, default=0)
        if lo < 0 or hi >= 2**bits:
            raise UsageError(f"positions must lie in [0, 2^{bits}); got {lo if lo < 0 else hi}")
        arr = np.array(items, dtype=np.uint64)
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iu":
        raise UsageError(f"positions must be integers, not {arr.dtype}")
    if arr.ndim != 1:
        arr = arr.reshape(-1)
    if arr.dtype.kind == "i" and arr.size and int(arr.min()) < 0:
        raise UsageError(f"positions must be non-negative; got {int(arr.min())}")
    out = np.unique(arr.astype(np.uint64, copy=False))
    if bits == 32 and out.size and int(out[-1]) >= 2**32:
        raise UsageError(f"a 32-bit bitmap holds values below 2^32; got {int(out[-1])}")
    return out


def choose_kinds(card: Array, runs: Array) -> Array:
    """Container kind after ``runOptimize`` for containers built by adding values."""
    card = card.astype(np.int64)
    run_size = 2 + 4 * runs.astype(np.int64)
    array_to_run = 2 * card > run_size
    bitmap_to_run = run_size < BITMAP_BYTES
    small = card <= ARRAY_MAX
    return np.where(small, np.where(array_to_run, KIND_RUN, KIND_ARRAY), np.where(bitmap_to_run, KIND_RUN, KIND_BITMAP)).astype(np.uint8)


def _ragged(starts: Array, counts: Array, step: int = 1) -> Array:
    from ._decode import _ragged as r

    return r(starts.astype(np.int64), counts.astype(np.int64), step)


def encode32(low: Array, *, sorted_unique: bool = False) -> bytes:
    """The 32-bit portable serialization of the values ``low`` (< 2^32)."""
    if not sorted_unique:
        low = normalize_positions(low, bits=32)
    n = int(low.size)
    if n == 0:
        return EMPTY32
    low = low.astype(np.int64, copy=False)
    ck = low >> 16
    v = low & 0xFFFF
    newc = np.ones(n, dtype=bool)
    newc[1:] = ck[1:] != ck[:-1]
    cstart = np.flatnonzero(newc)
    size = int(cstart.size)
    card = np.diff(np.append(cstart, n))
    newrun = newc.copy()
    newrun[1:] |= v[1:] != v[:-1] + 1
    nruns = np.add.reduceat(newrun.astype(np.int64), cstart)
    kind = choose_kinds(card, nruns)
    sizes = np.where(kind == KIND_ARRAY, 2 * card, np.where(kind == KIND_BITMAP, BITMAP_BYTES, 2 + 4 * nruns)).astype(np.int64)
    has_runs = bool((kind == KIND_RUN).any())
    has_offsets = (not has_runs) or size >= NO_OFFSET_THRESHOLD
    if has_runs:
        flags = np.packbits((kind == KIND_RUN), bitorder="little").tobytes()
        head = (COOKIE_RUNS | ((size - 1) << 16)).to_bytes(4, "little") + flags
    else:
        head = COOKIE_NO_RUNS.to_bytes(4, "little") + size.to_bytes(4, "little")
    desc = np.empty(2 * size, dtype="<u2")
    desc[0::2] = ck[cstart]
    desc[1::2] = card - 1
    header_len = len(head) + 4 * size + (4 * size if has_offsets else 0)
    body_off = np.zeros(size, dtype=np.int64)
    if size > 1:
        np.cumsum(sizes[:-1], out=body_off[1:])
    parts = [head, desc.tobytes()]
    if has_offsets:
        parts.append((header_len + body_off).astype("<u4").tobytes())
    body = np.zeros(int(sizes.sum()), dtype=np.uint8)
    a = np.flatnonzero(kind == KIND_ARRAY)
    if a.size:
        pos = _ragged(body_off[a], card[a], 2)
        vals = v[_ragged(cstart[a], card[a])]
        body[pos] = vals & 0xFF
        body[pos + 1] = vals >> 8
    r = np.flatnonzero(kind == KIND_RUN)
    if r.size:
        nr = nruns[r]
        body[body_off[r]] = nr & 0xFF
        body[body_off[r] + 1] = nr >> 8
        # every run of the run containers: its first value index in `v` and its length
        run_first = np.flatnonzero(newrun)
        run_owner = np.cumsum(newc)[run_first] - 1  # container of each run
        run_len = np.diff(np.append(run_first, n))
        sel = np.isin(run_owner, r)
        rf, ro, rl = run_first[sel], run_owner[sel], run_len[sel]
        rank = np.arange(rf.size) - np.repeat(np.cumsum(nr) - nr, nr)
        pos = body_off[ro] + 2 + 4 * rank
        start = v[rf]
        lm1 = rl - 1
        body[pos] = start & 0xFF
        body[pos + 1] = start >> 8
        body[pos + 2] = lm1 & 0xFF
        body[pos + 3] = lm1 >> 8
    for i in np.flatnonzero(kind == KIND_BITMAP):
        bits = np.zeros(65536, dtype=bool)
        s = int(cstart[i])
        bits[v[s : s + int(card[i])]] = True
        o = int(body_off[i])
        body[o : o + BITMAP_BYTES] = np.packbits(bits, bitorder="little")
    parts.append(body.tobytes())
    return b"".join(parts)


#: Most bitmaps ``fill_gaps`` writes (12 bytes each, 192 MiB) before refusing: Java could not hold more either.
MAX_FILLED_BITMAPS = 1 << 24

_EMPTY_ENTRY = np.dtype([("key", "<u4"), ("cookie", "<u4"), ("count", "<u4")])  # u32 key + EMPTY32


def _empty_bitmaps(start: int, stop: int) -> bytes:
    """Keys ``start`` .. ``stop - 1``, each with an empty 32-bit bitmap, in one vectorised write (the gaps Iceberg
    fills can number millions: one Python object per key took seconds)."""
    rec = np.zeros(stop - start, dtype=_EMPTY_ENTRY)
    rec["key"] = np.arange(start, stop, dtype=np.uint32)
    rec["cookie"] = COOKIE_NO_RUNS
    return rec.tobytes()


def encode64(
    positions: Any, *, fill_gaps: bool = True, sorted_unique: bool = False, max_filled_bitmaps: int = MAX_FILLED_BITMAPS
) -> bytes:
    """The 64-bit portable serialization (u64 count, then u32 key + 32-bit bitmap per key).

    ``fill_gaps`` writes every key from 0 to the largest, as Iceberg Java does
    (it keeps one 32-bit bitmap per key in an array); without it only
    non-empty keys are written, as CRoaring does. A huge largest key with
    ``fill_gaps`` raises :class:`UsageError` instead of writing gigabytes of
    empty bitmaps (``max_filled_bitmaps``).
    """
    pos = positions if sorted_unique else normalize_positions(positions)
    pos = pos.astype(np.uint64, copy=False)
    if pos.size == 0:
        return (0).to_bytes(8, "little")
    keys = (pos >> np.uint64(32)).astype(np.int64)
    low = (pos & np.uint64(0xFFFFFFFF)).astype(np.int64)
    newk = np.ones(pos.size, dtype=bool)
    newk[1:] = keys[1:] != keys[:-1]
    kstart = np.flatnonzero(newk)
    kend = np.append(kstart[1:], pos.size)
    present = keys[kstart]
    parts: list[bytes] = []
    if fill_gaps:
        count = int(present[-1]) + 1
        if count > max_filled_bitmaps:
            raise UsageError(
                f"the largest position needs key {count - 1}: writing every key from 0 (as Iceberg Java does) would take "
                f"{count} bitmaps, over the limit of {max_filled_bitmaps}; pass fill_gaps=False for the compact form"
            )
        nxt = 0
        for k, s, e in zip(present.tolist(), kstart.tolist(), kend.tolist(), strict=True):
            if k > nxt:
                parts.append(_empty_bitmaps(nxt, k))
            parts.append(k.to_bytes(4, "little"))
            parts.append(encode32(low[s:e], sorted_unique=True))
            nxt = k + 1
    else:
        count = int(present.size)
        for k, s, e in zip(present.tolist(), kstart.tolist(), kend.tolist(), strict=True):
            parts.append(k.to_bytes(4, "little"))
            parts.append(encode32(low[s:e], sorted_unique=True))
    return count.to_bytes(8, "little") + b"".join(parts)
