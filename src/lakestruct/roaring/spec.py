"""An independent construct description of the Roaring portable formats (32-bit and 64-bit).

Written from RoaringFormatSpec's README, not from the .ksy files. It parses
(second opinion in tests) and builds: :func:`to_model` turns positions into
the container-level model (kinds chosen as Java or CRoaring would) and
:func:`build64` serializes it, which must give the same bytes as the fast
NumPy encoder in :mod:`lakestruct.roaring.write`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from construct import Array, Bytes, Computed, If, Int16ul, Int32ul, Int64ul, Struct, Switch, this

from .write import choose_kinds, normalize_positions

__all__ = ["ROARING32", "ROARING64", "build32", "build64", "container_values", "parse32", "parse64", "to_model"]

NO_RUNS, RUNS = 12346, 12347


def _num_containers(ctx: Any) -> int:
    return int(ctx.cookie_high) + 1 if ctx.cookie == RUNS else int(ctx.num_containers_field)


def _is_run(ctx: Any, i: int) -> bool:
    return ctx.cookie == RUNS and bool((ctx.run_flags[i // 8] >> (i % 8)) & 1)


def _kind(ctx: Any) -> int:
    i = ctx._index
    if _is_run(ctx, i):
        return 2
    return 0 if ctx.descriptors[i].cardinality_minus_one + 1 <= 4096 else 1


RUN = Struct("start" / Int16ul, "length_minus_one" / Int16ul)
RUN_CONTAINER = Struct("num_runs" / Int16ul, "runs" / Array(this.num_runs, RUN))

#: 32-bit portable bitmap.
ROARING32 = Struct(
    "cookie" / Int16ul,
    "cookie_high" / Int16ul,
    "num_containers_field" / If(this.cookie == NO_RUNS, Int32ul),
    "num_containers" / Computed(_num_containers),
    "run_flags" / If(this.cookie == RUNS, Bytes((this.num_containers + 7) // 8)),
    "descriptors" / Array(this.num_containers, Struct("key" / Int16ul, "cardinality_minus_one" / Int16ul)),
    "offsets" / If(lambda ctx: ctx.cookie == NO_RUNS or ctx.num_containers >= 4, Array(this.num_containers, Int32ul)),
    "containers" / Array(
        this.num_containers,
        Switch(
            _kind,
            {
                0: Array(lambda ctx: ctx.descriptors[ctx._index].cardinality_minus_one + 1, Int16ul),
                1: Bytes(8192),
                2: RUN_CONTAINER,
            },
        ),
    ),
)

#: 64-bit portable bitmap.
ROARING64 = Struct(
    "num_bitmaps" / Int64ul,
    "bitmaps" / Array(this.num_bitmaps, Struct("key" / Int32ul, "bitmap" / ROARING32)),
)


def parse32(data: bytes) -> Any:
    return ROARING32.parse(data)


def parse64(data: bytes) -> Any:
    return ROARING64.parse(data)


def container_values(bitmap: Any) -> list[int]:
    """All values of a parsed 32-bit bitmap (construct container), in order."""
    out: list[int] = []
    for d, c in zip(bitmap.descriptors, bitmap.containers, strict=True):
        hi = d.key << 16
        if isinstance(c, bytes):
            bits = np.unpackbits(np.frombuffer(c, dtype=np.uint8), bitorder="little")
            out.extend((hi + np.flatnonzero(bits)).tolist())
        elif hasattr(c, "runs"):
            for r in c.runs:
                out.extend(range(hi + r.start, hi + r.start + r.length_minus_one + 1))
        else:
            out.extend(hi + v for v in c)
    return out


def _model32(low: list[int]) -> dict[str, Any]:
    groups: dict[int, list[int]] = {}
    for v in low:
        groups.setdefault(v >> 16, []).append(v & 0xFFFF)
    keys = sorted(groups)
    cards = np.array([len(groups[k]) for k in keys], dtype=np.int64)
    runs_of = []
    for k in keys:
        vs = groups[k]
        runs: list[tuple[int, int]] = []
        for v in vs:
            if runs and v == runs[-1][0] + runs[-1][1] + 1:
                runs[-1] = (runs[-1][0], runs[-1][1] + 1)
            else:
                runs.append((v, 0))
        runs_of.append(runs)
    kinds = choose_kinds(cards, np.array([len(r) for r in runs_of], dtype=np.int64)).tolist() if keys else []
    n = len(keys)
    has_runs = 2 in kinds
    containers: list[Any] = []
    sizes = []
    for k, kind, runs in zip(keys, kinds, runs_of, strict=True):
        if kind == 0:
            containers.append(groups[k])
            sizes.append(2 * len(groups[k]))
        elif kind == 1:
            bits = np.zeros(65536, dtype=bool)
            bits[groups[k]] = True
            containers.append(np.packbits(bits, bitorder="little").tobytes())
            sizes.append(8192)
        else:
            containers.append({"num_runs": len(runs), "runs": [{"start": s, "length_minus_one": m} for s, m in runs]})
            sizes.append(2 + 4 * len(runs))
    has_offsets = (not has_runs) or n >= 4
    header = 4 + (((n + 7) // 8) if has_runs else 4) + 4 * n + (4 * n if has_offsets else 0)
    offsets = [header + sum(sizes[:i]) for i in range(n)]
    flags = bytearray((n + 7) // 8)
    for i, kind in enumerate(kinds):
        if kind == 2:
            flags[i // 8] |= 1 << (i % 8)
    return {
        "cookie": RUNS if has_runs else NO_RUNS,
        "cookie_high": (n - 1) if has_runs else 0,
        "num_containers_field": None if has_runs else n,
        "run_flags": bytes(flags) if has_runs else None,
        "descriptors": [{"key": k, "cardinality_minus_one": len(groups[k]) - 1} for k in keys],
        "offsets": offsets if has_offsets else None,
        "containers": containers,
    }


def to_model(positions: Any, *, fill_gaps: bool = True) -> dict[str, Any]:
    """The container-level model of a 64-bit bitmap, ready for :func:`build64`."""
    pos = normalize_positions(positions).tolist()
    by_key: dict[int, list[int]] = {}
    for p in pos:
        by_key.setdefault(p >> 32, []).append(p & 0xFFFFFFFF)
    keys = sorted(by_key)
    if fill_gaps and keys:
        keys = list(range(keys[-1] + 1))
    bitmaps = [{"key": k, "bitmap": _model32(by_key.get(k, []))} for k in keys]
    return {"num_bitmaps": len(bitmaps), "bitmaps": bitmaps}


def build32(model: dict[str, Any]) -> bytes:
    out: bytes = ROARING32.build(model)
    return out


def build64(model: dict[str, Any]) -> bytes:
    out: bytes = ROARING64.build(model)
    return out
