"""Writing compact Theta sketches exactly as DataSketches C++ (and Python) serializes them.

``serialize(sketch, 3)`` equals C++ ``compact_theta_sketch::serialize()`` and
``serialize(sketch, 4)`` equals ``serialize(compressed=True)``; bytes are laid out
by the construct spec in :mod:`lakestruct.sketches.spec`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..errors import UsageError
from . import bitpack, spec
from .model import MAX_THETA, ThetaSketch, canonical_flags, canonical_pre_longs
from .murmur3 import DEFAULT_SEED, compute_seed_hash

__all__ = ["build_sketch", "serialize", "suitable_for_v4"]


def _theta_long(theta: int | float) -> int:
    if isinstance(theta, bool):
        raise UsageError("theta must be an int (64-bit theta) or a float fraction")
    if isinstance(theta, float):
        if not 0.0 < theta <= 1.0:
            raise UsageError(f"theta fraction {theta} is outside (0, 1]")
        return MAX_THETA if theta == 1.0 else int(theta * MAX_THETA)
    if isinstance(theta, int):
        if not 0 < theta <= MAX_THETA:
            raise UsageError(f"theta {theta} is outside (0, 2^63-1]")
        return theta
    raise UsageError(f"theta must be an int or a float, not {type(theta).__name__}")


def build_sketch(
    hashes: object,
    *,
    theta: int | float = MAX_THETA,
    seed: int = DEFAULT_SEED,
    ordered: bool = True,
    empty: bool | None = None,
) -> ThetaSketch:
    """See :meth:`ThetaSketch.from_hashes`."""
    if not isinstance(hashes, Iterable):
        raise UsageError("hashes must be an iterable of ints")
    values: list[int] = []
    for h in hashes:
        if isinstance(h, bool) or not isinstance(h, int):
            raise UsageError(f"hashes must be ints, found {h!r}")
        values.append(h)
    t = _theta_long(theta)
    for h in values:
        if not 0 < h < t:
            raise UsageError(f"hash {h} is outside (0, theta={t}); a sketch retains only hashes below theta")
    if len(set(values)) != len(values):
        raise UsageError("hashes must be distinct")
    if empty is None:
        empty = not values and t == MAX_THETA
    if empty and (values or t != MAX_THETA):
        raise UsageError("an empty sketch has no hashes and theta 1.0")
    if ordered:
        values.sort()
    seed_hash = compute_seed_hash(seed)
    ordered = ordered or len(values) <= 1
    return ThetaSketch(
        entries=tuple(values),
        theta_long=t,
        seed_hash=seed_hash,
        empty=empty,
        ordered=ordered,
        serial_version=3,
        pre_longs=canonical_pre_longs(empty, len(values), t),
        flags=canonical_flags(empty, ordered),
    )


def suitable_for_v4(sketch: ThetaSketch) -> bool:
    """Whether C++ writes the compressed form: ordered, some hashes, not one hash in exact mode."""
    n = sketch.num_retained
    return sketch.ordered and n > 0 and not (n == 1 and not sketch.is_estimation_mode)


def _flags(sketch: ThetaSketch) -> dict[str, Any]:
    return {"ordered": sketch.ordered, "empty": sketch.empty}


def serialize(sketch: ThetaSketch, serial_version: int = 3) -> bytes:
    """The sketch's bytes in serial version 3, or 4 when suitable (else 3, as C++ does)."""
    if serial_version not in (3, 4):
        raise UsageError(f"can write serial version 3 or 4, not {serial_version}")
    n = sketch.num_retained
    if n >= 2**32:
        raise UsageError(f"{n} hashes do not fit in a compact sketch")
    estimation = sketch.is_estimation_mode
    if serial_version == 4 and suitable_for_v4(sketch):
        h = sketch.hashes
        deltas = np.diff(h, prepend=np.uint64(0))  # ordered and distinct: every delta is positive
        bits = int(np.bitwise_or.reduce(deltas)).bit_length()
        pre_longs = 2 if estimation else 1
        return spec.build(
            {
                "preamble": {"pre_longs": pre_longs},
                "serial_version": 4,
                "body": {
                    "entry_bits": bits,
                    "num_entries_bytes": (n.bit_length() + 7) // 8,
                    "flags": _flags(sketch),
                    "seed_hash": sketch.seed_hash,
                    "theta_long": sketch.theta_long if estimation else None,
                    "num_entries": n,
                    "deltas": bitpack.pack(deltas.tolist(), bits),
                },
            }
        )
    pre_longs = canonical_pre_longs(sketch.empty, n, sketch.theta_long)
    return spec.build(
        {
            "preamble": {"pre_longs": pre_longs},
            "serial_version": 3,
            "body": {
                "flags": _flags(sketch),
                "seed_hash": sketch.seed_hash,
                "num_entries": n if pre_longs >= 2 else None,
                "p": sketch.p if pre_longs >= 2 else None,
                "theta_long": sketch.theta_long if pre_longs >= 3 else None,
                "entries": [] if sketch.empty else sketch.hashes.tolist(),
            },
        }
    )
