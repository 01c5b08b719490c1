"""The checked Roaring decoder, pure Python + NumPy (the reference twin of ``_decode_c.pyx``).

Two passes over the serialized bytes:

1. **scan**: walk the 64-bit bucket list and every 32-bit header; check every
   structural rule (cookies, counts, key order, offset header, run containers,
   bitmap cardinalities) and build a table of containers. Work is vectorised
   over the containers of one 32-bit bitmap; Python work is per bucket, plus per
   bitmap container (each is 8 KiB of input) and per run container of the rare
   headers without an offset header (at most three containers).
2. **fill**: allocate the output once (its size is the checked cardinality, so
   it is justified by the input) and decode every container kind vectorised, in
   bounded chunks, checking array values for order on the way.

Checks run in a fixed order (per bitmap: cookie, counts, header bounds, key
order, offsets, bounds of containers, run overflow, run order, run adjacency,
run cardinality, bitmap cardinality; then array order over the whole input), so
the compiled twin reports exactly the same first error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import FormatError, LimitError, MagicError, TruncatedError, UsageError

__all__ = ["Scan", "decode32", "decode64", "scan32", "scan64"]

COOKIE_NO_RUNS = 12346
COOKIE_RUNS = 12347
NO_OFFSET_THRESHOLD = 4
MAX_CONTAINERS = 65536
ARRAY_MAX = 4096
BITMAP_BYTES = 8192
MAX_BUCKETS = 0xFFFFFFFF
ICEBERG_MAX_KEY = 2**31 - 2

KIND_ARRAY, KIND_BITMAP, KIND_RUN = 0, 1, 2
KIND_NAMES = ("array", "bitmap", "run")

#: Values gathered per vectorised chunk (bounds temporary memory to a few MiB).
CHUNK = 1 << 18

U8 = np.uint8
I64 = np.int64
U64 = np.uint64
Array = npt.NDArray[Any]


@dataclass
class Scan:
    """Everything the scan pass learned: one row per container, in serialized order."""

    hi: Array  # uint64: bucket key << 32 | container key << 16
    kind: Array  # uint8
    card: Array  # int64
    start: Array  # int64 byte position of the container body (in the buffer)
    bucket: Array  # int64 index of the 64-bit bucket (0 for a bare 32-bit bitmap)
    index: Array  # int64 index of the container in its 32-bit bitmap
    # one row per bucket: (key, position of the key (-1 for 32-bit), position of the cookie,
    # cookie, container count, has offset header, end position)
    buckets: list[tuple[int, int, int, int, int, bool, int]] = field(default_factory=list)
    end: int = 0
    prefix64: bool = False

    @property
    def cardinality(self) -> int:
        return int(self.card.sum())

    def container_path(self, c: int) -> str:
        b = int(self.bucket[c])
        head = f"bitmaps[{b}]." if self.prefix64 else ""
        return f"{head}containers[{int(self.index[c])}]"


class _Ctx:
    def __init__(self, data: bytes | bytearray | memoryview, base: int, path: str) -> None:
        self.mv = memoryview(data).cast("B")
        self.n = len(self.mv)
        self.u8 = np.frombuffer(self.mv, dtype=U8)
        self.base = base
        self.path = path
        self.hi: list[Array] = []
        self.kind: list[Array] = []
        self.card: list[Array] = []
        self.start: list[Array] = []
        self.bucket: list[Array] = []
        self.index: list[Array] = []
        self.buckets: list[tuple[int, int, int, int, int, bool, int]] = []

    def p(self, sub: str) -> str:
        return f"{self.path}.{sub}" if self.path else sub

    def err(self, cls: type[FormatError], msg: str, rule: str, sub: str, pos: int) -> FormatError:
        return cls(msg, rule=rule, path=self.p(sub), offset=self.base + pos)

    def need(self, pos: int, count: int, rule: str, sub: str) -> None:
        if pos + count > self.n:
            raise self.err(
                TruncatedError,
                f"needs {count} bytes at {self.base + pos} but the input ends at {self.base + self.n}",
                rule,
                sub,
                pos,
            )

    def u16s(self, pos: Array) -> Array:
        u8 = self.u8
        out: Array = u8[pos].astype(I64) | (u8[pos + 1].astype(I64) << 8)
        return out


def _excl_cumsum(a: Array) -> Array:
    out = np.empty(a.size, dtype=I64)
    if a.size:
        out[0] = 0
        np.cumsum(a[:-1], out=out[1:])
    return out


def _ragged(starts: Array, counts: Array, step: int = 1) -> Array:
    """Concatenation of ``starts[i] + step * arange(counts[i])`` (counts may be 0)."""
    total = int(counts.sum())
    if total == 0:
        return np.empty(0, dtype=I64)
    keep = counts > 0
    starts, counts = starts[keep], counts[keep]
    first = _excl_cumsum(counts)
    delta = np.full(total, step, dtype=I64)
    delta[first[0]] = starts[0]
    if starts.size > 1:
        prev_last = starts[:-1] + step * (counts[:-1] - 1)
        delta[first[1:]] = starts[1:] - prev_last
    return np.cumsum(delta)


def _scan32(ctx: _Ctx, p: int, b: int, key: int, key_pos: int, head: str) -> int:
    """Check one 32-bit portable bitmap at ``p``; record its containers; return its end."""
    ctx.need(p, 4, "roaring32.truncated", f"{head}cookie")
    cookie = int.from_bytes(ctx.mv[p : p + 4], "little")
    if cookie == COOKIE_NO_RUNS:
        ctx.need(p + 4, 4, "roaring32.truncated", f"{head}num_containers")
        size = int.from_bytes(ctx.mv[p + 4 : p + 8], "little")
        if size > MAX_CONTAINERS:
            raise ctx.err(
                FormatError, f"{size} containers declared; at most {MAX_CONTAINERS} exist", "roaring32.container-count",
                f"{head}num_containers", p + 4,
            )
        hdr, has_runs, has_offsets = p + 8, False, True
        flags = None
    elif cookie & 0xFFFF == COOKIE_RUNS:
        size = (cookie >> 16) + 1
        nb = (size + 7) // 8
        ctx.need(p + 4, nb, "roaring32.truncated", f"{head}run_flags")
        flags = ctx.u8[p + 4 : p + 4 + nb]
        hdr, has_runs, has_offsets = p + 4 + nb, True, size >= NO_OFFSET_THRESHOLD
    else:
        raise ctx.err(
            MagicError,
            f"cookie 0x{cookie:08x} is neither 12346 (no runs) nor 12347 (runs) in its low 16 bits",
            "roaring32.cookie", f"{head}cookie", p,
        )
    if size == 0:
        ctx.buckets.append((key, key_pos, p, cookie, 0, has_offsets, hdr))
        return hdr
    ctx.need(hdr, 4 * size, "roaring32.truncated", f"{head}descriptors")
    desc = np.frombuffer(ctx.mv, dtype="<u2", count=2 * size, offset=hdr)
    ckeys = desc[0::2].astype(I64)
    card = desc[1::2].astype(I64) + 1
    if size > 1:
        bad = np.flatnonzero(ckeys[1:] <= ckeys[:-1])
        if bad.size:
            i = int(bad[0]) + 1
            raise ctx.err(
                FormatError,
                f"container key {int(ckeys[i])} does not follow {int(ckeys[i - 1])} in strictly ascending order",
                "roaring32.key-order", f"{head}descriptors[{i}].key", hdr + 4 * i,
            )
    ofs_hdr = hdr + 4 * size
    if has_offsets:
        ctx.need(ofs_hdr, 4 * size, "roaring32.truncated", f"{head}offsets")
        offs = np.frombuffer(ctx.mv, dtype="<u4", count=size, offset=ofs_hdr).astype(I64)
        body = ofs_hdr + 4 * size
    else:
        offs = None
        body = ofs_hdr
    if has_runs:
        assert flags is not None
        isrun = np.unpackbits(flags, bitorder="little")[:size].astype(bool)
    else:
        isrun = np.zeros(size, dtype=bool)
    kind = np.where(isrun, KIND_RUN, np.where(card <= ARRAY_MAX, KIND_ARRAY, KIND_BITMAP)).astype(U8)
    sizes = np.where(kind == KIND_ARRAY, 2 * card, BITMAP_BYTES).astype(I64)
    run_idx = np.flatnonzero(isrun)
    if run_idx.size == 0 or offs is not None:
        if run_idx.size:
            assert offs is not None
            ro = offs[run_idx] + p
            ok = ro + 2 <= ctx.n
            nr = np.zeros(run_idx.size, dtype=I64)
            nr[ok] = ctx.u16s(ro[ok])
            sizes[run_idx] = 2 + 4 * nr
        starts = body + _excl_cumsum(sizes)
        if offs is not None:
            bad = np.flatnonzero(offs != starts - p)
            if bad.size:
                i = int(bad[0])
                raise ctx.err(
                    FormatError,
                    f"offset header says container {i} starts at byte {int(offs[i])} of the bitmap; "
                    f"the containers before it end at byte {int(starts[i] - p)}",
                    "roaring32.container-offset", f"{head}offsets[{i}]", ofs_hdr + 4 * i,
                )
    else:  # runs, no offset header: at most three containers, walk them
        starts = np.empty(size, dtype=I64)
        pos = body
        for i in range(size):
            starts[i] = pos
            if isrun[i]:
                ctx.need(pos, 2, "roaring32.truncated", f"{head}containers[{i}].num_runs")
                sizes[i] = 2 + 4 * int.from_bytes(ctx.mv[pos : pos + 2], "little")
            pos += int(sizes[i])
    ends = starts + sizes
    if int(ends[-1]) > ctx.n:
        i = int(np.flatnonzero(ends > ctx.n)[0])
        raise ctx.err(
            TruncatedError,
            f"{KIND_NAMES[int(kind[i])]} container of {int(sizes[i])} bytes at {ctx.base + int(starts[i])} "
            f"runs past the end of the input ({ctx.base + ctx.n})",
            "roaring32.truncated", f"{head}containers[{i}]", int(starts[i]),
        )
    if run_idx.size:
        _check_runs(ctx, run_idx, starts, sizes, card, hdr, head)
    for i in np.flatnonzero(kind == KIND_BITMAP).tolist():
        s = int(starts[i])
        pop = int(np.bitwise_count(np.frombuffer(ctx.mv, dtype="<u8", count=1024, offset=s)).sum())
        if pop != int(card[i]):
            raise ctx.err(
                FormatError,
                f"bitmap container has {pop} bits set but its descriptor says cardinality {int(card[i])}",
                "roaring32.bitmap-cardinality", f"{head}descriptors[{int(i)}].cardinality", hdr + 4 * int(i) + 2,
            )
    hi = (np.uint64(key) << np.uint64(32)) | (ckeys.astype(U64) << np.uint64(16))
    ctx.hi.append(hi)
    ctx.kind.append(kind)
    ctx.card.append(card)
    ctx.start.append(starts)
    ctx.bucket.append(np.full(size, b, dtype=I64))
    ctx.index.append(np.arange(size, dtype=I64))
    end = int(ends[-1])
    ctx.buckets.append((key, key_pos, p, cookie, size, has_offsets, end))
    return end


def _check_runs(ctx: _Ctx, run_idx: Array, starts: Array, sizes: Array, card: Array, hdr: int, head: str) -> None:
    nr = (sizes[run_idx] - 2) // 4
    rpos = _ragged(starts[run_idx] + 2, nr, 4)  # byte position of each run
    owner = np.repeat(run_idx, nr)
    first = _excl_cumsum(nr)
    rs = ctx.u16s(rpos)
    rl = ctx.u16s(rpos + 2)
    bad = np.flatnonzero(rs + rl > 0xFFFF)
    if bad.size:
        j = int(bad[0])
        c = int(owner[j])
        k = j - int(first[np.searchsorted(run_idx, c)])
        raise ctx.err(
            FormatError,
            f"run starting at {int(rs[j])} with length-1 {int(rl[j])} ends past 65535",
            "roaring32.run-overflow", f"{head}containers[{c}].runs[{k}].length_minus_one", int(rpos[j]) + 2,
        )
    if rs.size > 1:
        same = owner[1:] == owner[:-1]
        prev_end = rs[:-1] + rl[:-1]  # inclusive
        for rule, cond, what in (
            ("roaring32.run-order", same & (rs[1:] <= prev_end), "overlaps or precedes the previous run (ending at {e})"),
            ("roaring32.run-adjacent", same & (rs[1:] == prev_end + 1), "starts right after the previous run (ending at {e}); "
             "runs must be merged"),
        ):
            bad = np.flatnonzero(cond)
            if bad.size:
                j = int(bad[0]) + 1
                c = int(owner[j])
                k = j - int(first[np.searchsorted(run_idx, c)])
                raise ctx.err(
                    FormatError, f"run start {int(rs[j])} " + what.format(e=int(prev_end[j - 1])), rule,
                    f"{head}containers[{c}].runs[{k}].start", int(rpos[j]),
                )
    sums = np.zeros(run_idx.size, dtype=I64)
    if rs.size:
        np.add.at(sums, np.repeat(np.arange(run_idx.size), nr), rl + 1)
    bad = np.flatnonzero(sums != card[run_idx])
    if bad.size:
        i = int(run_idx[int(bad[0])])
        raise ctx.err(
            FormatError,
            f"run container holds {int(sums[bad[0]])} values but its descriptor says cardinality {int(card[i])}",
            "roaring32.run-cardinality", f"{head}descriptors[{i}].cardinality", hdr + 4 * i + 2,
        )


def _finish(ctx: _Ctx, end: int, prefix64: bool) -> Scan:
    def cat(parts: list[Array], dtype: Any) -> Array:
        return np.concatenate(parts).astype(dtype, copy=False) if parts else np.empty(0, dtype=dtype)

    return Scan(
        cat(ctx.hi, U64), cat(ctx.kind, U8), cat(ctx.card, I64), cat(ctx.start, I64), cat(ctx.bucket, I64),
        cat(ctx.index, I64), ctx.buckets, end, prefix64,
    )


def _trailing(ctx: _Ctx, end: int, rule: str) -> None:
    if end != ctx.n:
        raise ctx.err(FormatError, f"{ctx.n - end} bytes follow the end of the bitmap", rule, "trailing", end)


def scan32(data: bytes | bytearray | memoryview, *, base: int = 0, path: str = "", allow_trailing: bool = False) -> Scan:
    ctx = _Ctx(data, base, path)
    end = _scan32(ctx, 0, 0, 0, -1, "")
    if not allow_trailing:
        _trailing(ctx, end, "roaring32.trailing-bytes")
    return _finish(ctx, end, False)


def scan64(
    data: bytes | bytearray | memoryview, *, base: int = 0, path: str = "", iceberg: bool = False, allow_trailing: bool = False
) -> Scan:
    ctx = _Ctx(data, base, path)
    ctx.need(0, 8, "roaring64.truncated", "num_bitmaps")
    count = int.from_bytes(ctx.mv[0:8], "little")
    if count > MAX_BUCKETS:
        raise ctx.err(FormatError, f"{count} bitmaps declared; the format allows at most 2^32-1", "roaring64.bitmap-count",
                      "num_bitmaps", 0)
    if 12 * count > ctx.n - 8:
        raise ctx.err(
            TruncatedError,
            f"{count} bitmaps declared, which need at least {12 * count} bytes; {ctx.n - 8} follow",
            "roaring64.bitmap-count", "num_bitmaps", 0,
        )
    p, last = 8, -1
    for b in range(count):
        ctx.need(p, 4, "roaring64.truncated", f"bitmaps[{b}].key")
        key = int.from_bytes(ctx.mv[p : p + 4], "little")
        if iceberg:
            if key >= 2**31:
                raise ctx.err(FormatError, f"Invalid unsigned key: {key - 2**32} (key {key} has its top bit set; positions "
                              "must be non-negative 64-bit ints)", "deletion-vector.key-unsigned", f"bitmaps[{b}].key", p)
            if key > ICEBERG_MAX_KEY:
                raise ctx.err(FormatError, f"Key is too large: {key} (Iceberg allows at most {ICEBERG_MAX_KEY})",
                              "deletion-vector.key-too-large", f"bitmaps[{b}].key", p)
        if key <= last:
            raise ctx.err(FormatError, f"key {key} does not follow {last} in strictly ascending (unsigned) order",
                          "roaring64.key-order", f"bitmaps[{b}].key", p)
        last = key
        p = _scan32(ctx, p + 4, b, key, p, f"bitmaps[{b}].")
    if not allow_trailing:
        _trailing(ctx, p, "roaring64.trailing-bytes")
    return _finish(ctx, p, True)


def _check_limit(max_positions: int | None) -> None:
    """A negative ``max_positions`` is a caller's mistake (the compiled twin's -1 stands for None): UsageError."""
    if max_positions is not None and max_positions < 0:
        raise UsageError(f"max_positions must be >= 0 or None, not {max_positions}")


def fill(ctx_data: bytes | bytearray | memoryview, scan: Scan, *, base: int = 0, path: str = "",
         max_positions: int | None = None, dtype: Any = U64) -> Array:
    """Decode every container of ``scan`` into one sorted array of ``dtype`` (uint64, or uint32 for a 32-bit
    bitmap: values are computed per chunk and written straight into the output, which is the only allocation
    in proportion to the cardinality)."""
    ctx = _Ctx(ctx_data, base, path)
    total = scan.cardinality
    if max_positions is not None and total > max_positions:
        raise LimitError(f"the bitmap holds {total} positions; the limit is {max_positions}", rule="roaring.max-positions",
                         path=path or "bitmap", offset=base)
    out = np.empty(total, dtype=dtype)
    if total == 0:
        return out
    out_start = _excl_cumsum(scan.card)
    u8 = ctx.u8
    # arrays ------------------------------------------------------------------------------
    ai = np.flatnonzero(scan.kind == KIND_ARRAY)
    if ai.size:
        even = np.frombuffer(ctx.mv[: ctx.n - ctx.n % 2], dtype="<u2")
        odd = np.frombuffer(ctx.mv[1 : 1 + (ctx.n - 1) // 2 * 2], dtype="<u2") if ctx.n > 1 else even[:0]
        cum = np.cumsum(scan.card[ai])
        lo = 0
        while lo < ai.size:
            hi_i = int(np.searchsorted(cum, (int(cum[lo - 1]) if lo else 0) + CHUNK, side="right"))
            hi_i = max(hi_i, lo + 1)
            sel = ai[lo:hi_i]
            cs = scan.card[sel]
            st = scan.start[sel]
            dest = _ragged(out_start[sel], cs)
            src = _ragged(st, cs, 2)  # byte position of each value
            par = st % 2
            if not par.any():
                vals = even[src // 2]
            elif par.all():
                vals = odd[src // 2]
            else:
                vals = (u8[src].astype(np.uint16) | (u8[src + 1].astype(np.uint16) << 8))
            full = vals.astype(U64) + np.repeat(scan.hi[sel], cs)
            bad = np.flatnonzero(full[1:] <= full[:-1])
            if bad.size:
                j = int(bad[0]) + 1
                first = _excl_cumsum(cs)
                cpos = int(np.searchsorted(first, j, side="right")) - 1
                c = int(sel[cpos])
                k = j - int(first[cpos])
                raise FormatError(
                    f"array value {int(vals[j])} does not follow {int(vals[j - 1])} in strictly ascending order",
                    rule="roaring32.array-order", path=ctx.p(f"{scan.container_path(c)}.values[{k}]"),
                    offset=base + int(scan.start[c]) + 2 * k,
                )
            out[dest] = full
            lo = hi_i
    # bitmaps -----------------------------------------------------------------------------
    for c in np.flatnonzero(scan.kind == KIND_BITMAP).tolist():
        s, o, n = int(scan.start[c]), int(out_start[c]), int(scan.card[c])
        bits = np.unpackbits(u8[s : s + BITMAP_BYTES], bitorder="little")
        out[o : o + n] = np.flatnonzero(bits).astype(U64) + scan.hi[c]
    # runs --------------------------------------------------------------------------------
    ri = np.flatnonzero(scan.kind == KIND_RUN)
    if ri.size:
        starts = scan.start[ri]
        nr = ctx.u16s(starts)
        rpos = _ragged(starts + 2, nr, 4)
        owner = np.repeat(ri, nr)
        rs = ctx.u16s(rpos)
        rlen = ctx.u16s(rpos + 2) + 1
        # destination of each run: its container's start + values of the runs before it
        excl = np.cumsum(rlen) - rlen
        within = excl - excl[np.repeat(_excl_cumsum(nr), nr)]
        rdest = out_start[owner] + within
        rhi = scan.hi[owner]
        cum = np.cumsum(rlen)
        lo = 0
        while lo < rs.size:
            hi_i = max(int(np.searchsorted(cum, (int(cum[lo - 1]) if lo else 0) + CHUNK, side="right")), lo + 1)
            ln = rlen[lo:hi_i]
            dest = _ragged(rdest[lo:hi_i], ln)
            out[dest] = _ragged(rs[lo:hi_i], ln).astype(U64) + np.repeat(rhi[lo:hi_i], ln)
            lo = hi_i
    return out


def decode32(data: bytes | bytearray | memoryview, *, base: int = 0, path: str = "", allow_trailing: bool = False,
             max_positions: int | None = None, wide: bool = False) -> Array:
    """Values of a 32-bit bitmap as uint32 (4 bytes per value), or uint64 with ``wide``."""
    _check_limit(max_positions)
    scan = scan32(data, base=base, path=path, allow_trailing=allow_trailing)
    return fill(data, scan, base=base, path=path, max_positions=max_positions, dtype=U64 if wide else np.uint32)


def decode64(data: bytes | bytearray | memoryview, *, base: int = 0, path: str = "", iceberg: bool = False,
             allow_trailing: bool = False, max_positions: int | None = None) -> Array:
    _check_limit(max_positions)
    scan = scan64(data, base=base, path=path, iceberg=iceberg, allow_trailing=allow_trailing)
    return fill(data, scan, base=base, path=path, max_positions=max_positions)
