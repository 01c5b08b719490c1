"""Reading compact Theta sketches (serial versions 1 to 4) and checking every rule.

The byte layout is parsed by the parser generated from
``formats/sketches/theta_compact.ksy``; this module adds what the declarative
spec cannot say: preamble longs against the serial version, flag consistency,
the seed hash, the v4 bit-packed deltas, and the order and range of every
hash. Each violation raises a :class:`~lakestruct.errors.FormatError` with the
absolute offset, the field path and a stable rule name (``theta_compact.*``).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from kaitaistruct import KaitaiStream

from .._generated.theta_compact import ThetaCompact as _KsTheta
from .._kaitai import kaitai_call
from ..errors import FormatError, LimitError
from ..source import SourceLike, open_source
from . import bitpack
from .model import MAX_THETA, Flags, ThetaSketch
from .murmur3 import DEFAULT_SEED, compute_seed_hash

__all__ = ["read_theta", "assemble", "PRE_LONGS_BY_VERSION", "MAX_ENTRIES", "MAX_SKETCH_BYTES", "MIN_ENTRIES_CAP"]

SPEC = "theta_compact"
T = TypeVar("T")
#: Preamble longs each serial version allows.
PRE_LONGS_BY_VERSION: dict[int, tuple[int, ...]] = {1: (3,), 2: (1, 2, 3), 3: (1, 2, 3), 4: (1, 2)}
#: No DataSketches Theta sketch retains more hashes: lg_k is at most 26 and an
#: update sketch rebuilds before its 2^27-slot table is 15/16 full.
MAX_ENTRIES = 2**27
#: A serialized sketch larger than this is refused before reading (MAX_ENTRIES hashes + preamble).
MAX_SKETCH_BYTES = 8 * (MAX_ENTRIES + 3)
#: Without ``max_entries``, a sketch may hold at most max(MIN_ENTRIES_CAP, its size in bytes) hashes: unpacked, each
#: takes 8 bytes, so decoding costs at most max(64 MiB, 8 x the input). Serial versions 1-3 store 8 bytes a hash and
#: never reach it; a v4 sketch packs a hash in ``entry_bits`` bits (~36 or more for a sketch DataSketches writes, so
#: under 2 bytes of output per input byte), but a crafted one in 1 bit: 2^27 hashes from 16 MiB that zstd makes from
#: 700 bytes (fuzz round two, ``theta_blob_report_unbounded.puffin``). The Puffin checks bound it tighter still, from
#: the blob's stored size.
MIN_ENTRIES_CAP = 1 << 23


def _fail(msg: str, rule: str, path: str, offset: int | None) -> FormatError:
    return FormatError(msg, rule=f"{SPEC}.{rule}", path=path, offset=offset)


def read_theta(
    data: SourceLike, *, seed: int | None = DEFAULT_SEED, allow_trailing: bool = False, max_entries: int | None = None
) -> ThetaSketch:
    """Parse and check a serialized compact Theta sketch (see :meth:`ThetaSketch.from_bytes`).

    ``max_entries`` (ceiling :data:`MAX_ENTRIES`; default max(:data:`MIN_ENTRIES_CAP`, the input's size in bytes))
    bounds the hashes the sketch may hold; more raise ``theta_compact.num-entries-limit`` before they are unpacked (a
    Puffin reader derives it from the blob's stored size).
    """
    src = open_source(data)
    limit = min(MAX_ENTRIES, max(MIN_ENTRIES_CAP, src.size) if max_entries is None else max_entries)
    try:
        if src.size > MAX_SKETCH_BYTES:
            raise LimitError(
                f"{src.size} bytes is more than any compact Theta sketch takes ({MAX_SKETCH_BYTES} for {MAX_ENTRIES} hashes)",
                rule=f"{SPEC}.size-limit",
                path="sketch",
                offset=0,
            )
        data = src.read(0, src.size)
        return (_read_recent if len(data) <= RECENT_MAX_BYTES else _read)(data, seed, allow_trailing, limit)
    except FormatError as e:
        raise e.with_source(src.name) from None
    finally:
        src.close()


#: Sketches up to this size are remembered (the last :data:`RECENT` of them, by their exact bytes and the reading's
#: arguments): a reader that meets the same sketch twice (the inventory's file check and its Puffin rows) decodes it
#: once. Safe to share: the model is frozen and its hashes array read-only.
RECENT_MAX_BYTES = 256 * 1024
RECENT = 16


def _read_recent(data: bytes, seed: int | None, allow_trailing: bool, limit: int) -> ThetaSketch:
    return _read_cached(data, seed, allow_trailing, limit)


def _parse(buf: io.BytesIO, fn: Callable[[], T], path: str) -> T:
    """Run the generated parser on an in-memory stream; errors get the stream position as offset."""
    try:
        return kaitai_call(SPEC, buf, fn, path=path)
    except FormatError as e:
        if e.offset is None:
            e.offset = buf.tell()
        raise


def _too_many(n: int, limit: int, offset: int) -> LimitError:
    why = (
        "more than any DataSketches Theta sketch retains"
        if limit == MAX_ENTRIES
        else "more than the input's size justifies (8 bytes per hash within the decoding bound; max_entries= raises it)"
    )
    return LimitError(f"{n} hashes is {why} ({limit})", rule=f"{SPEC}.num-entries-limit", path="body.num_entries", offset=offset)


def _read(data: bytes, seed: int | None, allow_trailing: bool, limit: int = MAX_ENTRIES) -> ThetaSketch:
    buf = io.BytesIO(data)  # the whole sketch is in memory: a plain stream is ~3x faster than a RangeReader
    ks = _parse(buf, lambda: _KsTheta(KaitaiStream(buf)), "preamble")
    version = ks.serial_version
    allowed = PRE_LONGS_BY_VERSION[version]
    if ks.pre_longs not in allowed:
        raise _fail(
            f"serial version {version} allows {' or '.join(map(str, allowed))} preamble longs, found {ks.pre_longs}",
            "pre-longs",
            "pre_longs",
            0,
        )
    if version in (2, 3) and ks.pre_longs >= 2 and len(data) >= 12:  # the count, before the body's hashes are parsed
        declared = int.from_bytes(data[8:12], "little")
        if declared > limit and 8 * (ks.pre_longs + declared) <= len(data):  # (a count the input cannot hold is num-entries-fit)
            raise _too_many(declared, limit, 8)
    body = _parse(buf, lambda: ks.body, "body")
    # where the sketch ends: the preamble longs, then the hashes (or the v4 count and deltas)
    if version == 4:
        end = 8 * ks.pre_longs + body.num_entries_bytes + len(body.deltas)
    else:
        end = (24 if version == 1 else 8 * ks.pre_longs) + 8 * len(body.entries)
    flags_byte = data[5]
    if version == 1:
        entries: Sequence[int] = body.entries
        theta_stored: int | None = body.theta_long
        return assemble(
            version, ks.pre_longs, flags_byte, None, theta_stored, entries, len(data), end,
            entries_offset=24, seed=seed, allow_trailing=allow_trailing,
        )  # fmt: skip
    if version == 2:
        theta_stored = body.theta_long if ks.pre_longs >= 3 else None
        return assemble(
            version, ks.pre_longs, flags_byte, body.seed_hash, theta_stored, body.entries, len(data), end,
            entries_offset=8 * ks.pre_longs, seed=seed, allow_trailing=allow_trailing,
            num_entries=body.num_entries if ks.pre_longs >= 2 else 0,
        )  # fmt: skip
    if version == 3:
        theta_stored = body.theta_long if ks.pre_longs >= 3 else None
        return assemble(
            version, ks.pre_longs, flags_byte, body.seed_hash, theta_stored, body.entries, len(data), end,
            entries_offset=8 * ks.pre_longs, seed=seed, allow_trailing=allow_trailing,
            num_entries=body.num_entries if ks.pre_longs >= 2 else None, p=body.p if ks.pre_longs >= 2 else 0.0,
        )  # fmt: skip
    # version 4
    n = body.num_entries
    if n > limit:  # the packed bytes are there (as few as 1 bit per hash), but unpacked each hash takes 8 bytes
        raise _too_many(n, limit, 8 * ks.pre_longs)
    deltas_offset = end - len(body.deltas)
    deltas = bitpack.unpack_array(body.deltas, n, body.entry_bits)
    theta_stored = body.theta_long if ks.pre_longs >= 2 else None
    return assemble(
        version, ks.pre_longs, flags_byte, body.seed_hash, theta_stored, deltas, len(data), end,
        entries_offset=deltas_offset, seed=seed, allow_trailing=allow_trailing, entry_bits=body.entry_bits,
        deltas_owned=True,
    )  # fmt: skip


def assemble(
    version: int,
    pre_longs: int,
    flags_byte: int,
    seed_hash: int | None,
    theta_stored: int | None,
    entries_or_deltas: Sequence[int] | npt.NDArray[np.uint64],
    size: int,
    end: int,
    *,
    entries_offset: int,
    seed: int | None,
    allow_trailing: bool,
    num_entries: int | None = None,
    entry_bits: int | None = None,
    p: float = 0.0,
    deltas_owned: bool = False,
) -> ThetaSketch:
    """Check the parsed fields of one sketch and build its model.

    Shared by the Kaitai reader and the construct second opinion
    (:mod:`lakestruct.sketches.spec`). For serial version 4
    ``entries_or_deltas`` are the unpacked deltas and ``entry_bits`` their width;
    ``entries_offset`` is then where the packed deltas start; ``deltas_owned`` lets the
    hashes be summed into the deltas array in place (the caller gives it up).
    """
    theta_offset = {1: 16, 2: 16, 3: 16, 4: 8}[version]

    def entry_at(i: int) -> int:
        if entry_bits is not None:
            return entries_offset + (i * entry_bits) // 8
        return entries_offset + 8 * i

    # -- flags and emptiness, by serial version
    if version in (3, 4):
        if flags_byte & 0xC0:
            raise _fail(f"flags 0x{flags_byte:02x}: reserved bits 6-7 must be 0", "flags-reserved", "body.flags", 5)
        if flags_byte & Flags.BIG_ENDIAN:
            raise _fail(
                f"flags 0x{flags_byte:02x}: the BIG_ENDIAN bit is set but sketches are always little-endian",
                "flags-big-endian", "body.flags", 5,
            )  # fmt: skip
        if not flags_byte & Flags.COMPACT:
            raise _fail(
                f"flags 0x{flags_byte:02x}: the COMPACT bit is not set (family 3 is the compact sketch)",
                "flags-compact", "body.flags", 5,
            )  # fmt: skip
        empty = bool(flags_byte & Flags.EMPTY)
        ordered = bool(flags_byte & Flags.ORDERED)
        if flags_byte & Flags.SINGLE_ITEM and (pre_longs != 1 or empty):
            raise _fail(
                f"flags 0x{flags_byte:02x}: SINGLEITEM needs one preamble long and a non-empty sketch "
                f"(preamble longs {pre_longs}, empty {empty})",
                "flags-single-item", "body.flags", 5,
            )  # fmt: skip
        if version == 4 and (empty or not ordered):
            raise _fail(
                f"flags 0x{flags_byte:02x}: serial version 4 is only written for ordered, non-empty sketches",
                "flags-v4", "body.flags", 5,
            )  # fmt: skip
        if version == 3 and empty and num_entries:
            raise _fail(f"the EMPTY flag is set but the retained count is {num_entries}", "empty-with-entries", "body.num_entries", 8)
    elif version == 2:
        ordered = True
        empty = (pre_longs == 1) or (len(entries_or_deltas) == 0 and (theta_stored is None or theta_stored == MAX_THETA))
    else:  # version 1
        ordered = True
        empty = len(entries_or_deltas) == 0 and theta_stored == MAX_THETA

    # -- seed hash
    if version == 1:
        stored_seed_hash = compute_seed_hash(seed if seed is not None else DEFAULT_SEED)
    else:
        assert seed_hash is not None
        stored_seed_hash = seed_hash
        if seed is not None and not empty:
            expected = compute_seed_hash(seed)
            if seed_hash != expected:
                raise _fail(
                    f"seed hash 0x{seed_hash:04x} does not match 0x{expected:04x} of seed {seed}",
                    "seed-hash", "body.seed_hash", 6,
                )  # fmt: skip

    # -- theta
    if empty:
        theta = MAX_THETA
    else:
        theta = MAX_THETA if theta_stored is None else theta_stored
        if not 0 < theta <= MAX_THETA:
            raise _fail(f"theta {theta} is outside (0, 2^63-1]", "theta-range", "body.theta_long", theta_offset)

    # -- entries
    if version == 4:
        deltas = np.asarray(entries_or_deltas, dtype=np.uint64)
        zeros = np.flatnonzero(deltas == 0)
        if zeros.size:
            i = int(zeros[0])
            raise _fail(
                f"delta {i} is 0: hash {i} repeats hash {i - 1}" if i else "the first hash is 0",
                "entries-order" if i else "entry-range", f"entries[{i}]", entry_at(i),
            )  # fmt: skip
        # strictly ascending; each delta is below 2^63, so the sums reach theta (< 2^63) before
        # they could wrap past 2^64: the first sum >= theta is the first bad hash
        if deltas_owned and deltas is entries_or_deltas:  # the reader's own unpacked array: sum in place (no second copy)
            sums = np.cumsum(deltas, dtype=np.uint64, out=deltas)
        else:
            sums = np.cumsum(deltas, dtype=np.uint64)
        over = np.flatnonzero(sums >= np.uint64(theta))  # not just the last sum: sums past theta may go on to wrap
        if over.size:
            i = int(over[0])
            raise _fail(f"hash {int(sums[i])} is not below theta {theta}", "entry-range", f"entries[{i}]", entry_at(i))
        hashes: Sequence[int] | npt.NDArray[np.uint64] = sums
    else:
        entries = list(entries_or_deltas)
        hashes = entries
        if entries and not (min(entries) > 0 and max(entries) < theta):
            for i, e in enumerate(entries):
                if not 0 < e < theta:
                    raise _fail(f"hash {e} is outside (0, theta={theta})", "entry-range", f"entries[{i}]", entry_at(i))
        if ordered:
            if not all(a < b for a, b in pairwise(entries)):
                for i in range(1, len(entries)):
                    if entries[i] <= entries[i - 1]:
                        raise _fail(
                            f"the ORDERED sketch's hashes are not strictly ascending: {entries[i - 1]} then {entries[i]}",
                            "entries-order", f"entries[{i}]", entry_at(i),
                        )  # fmt: skip
        elif len(set(entries)) != len(entries):
            seen: dict[int, int] = {}
            for i, e in enumerate(entries):
                if e in seen:
                    raise _fail(f"hash {e} is stored twice (entries[{seen[e]}] and here)", "entries-duplicate",
                                f"entries[{i}]", entry_at(i))  # fmt: skip
                seen[e] = i

    # -- the end
    if end < size and not allow_trailing:
        raise _fail(f"{size - end} bytes follow the sketch, which ends at byte {end}", "trailing-bytes", "sketch", end)

    return ThetaSketch(
        entries=hashes,
        theta_long=theta,
        seed_hash=stored_seed_hash,
        empty=empty,
        ordered=ordered or len(hashes) <= 1,
        serial_version=version,
        pre_longs=pre_longs,
        flags=flags_byte,
        p=p,
    )


def kaitai_tree(data: bytes) -> Any:
    """The raw Kaitai parse (fields as the spec names them), for tools and tests."""
    buf = io.BytesIO(data)
    ks = _parse(buf, lambda: _KsTheta(KaitaiStream(buf)), "preamble")
    _parse(buf, lambda: ks.body, "body")
    return ks


_read_cached = functools.lru_cache(maxsize=RECENT)(_read)
