"""The typed model of a compact Theta sketch: :class:`ThetaSketch`.

A Theta sketch keeps the hashes (63-bit, positive) of distinct items that fall
below a threshold ``theta``; ``theta_long / (2**63 - 1)`` is the fraction of the
hash space sampled, so the number of distinct items is estimated as
``num_retained / theta``.

Equality compares the sketch's content (hashes, theta, seed hash, empty,
ordered), not how it was serialized (serial version, preamble longs, flags
byte), so a sketch read from v3 bytes equals the same sketch read from v4 bytes.

The hashes are held in one read-only NumPy ``uint64`` array (8 bytes per hash;
``hashes``); ``entries`` reads them back as a tuple of Python ints (about 40
bytes per hash, built on each access), so checking or estimating a sketch of
2^27 hashes takes 1 GiB, not 5.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntFlag
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import bounds
from .murmur3 import DEFAULT_SEED

if TYPE_CHECKING:
    from ..source import SourceLike

__all__ = ["MAX_THETA", "DEFAULT_SEED_HASH", "Flags", "ThetaSketch"]

#: theta = 1.0 as a 64-bit integer (Java's Long.MAX_VALUE).
MAX_THETA = 2**63 - 1
#: The seed hash of the default seed 9001.
DEFAULT_SEED_HASH = 0x93CC
#: DataSketches family id of compact Theta sketches.
FAMILY_COMPACT = 3


class Flags(IntFlag):
    """The flags byte (byte 5) of serial versions 3 and 4."""

    BIG_ENDIAN = 0x01  #: formerly big-endian; must be 0
    READ_ONLY = 0x02
    EMPTY = 0x04
    COMPACT = 0x08
    ORDERED = 0x10
    SINGLE_ITEM = 0x20  #: Java only


def canonical_flags(empty: bool, ordered: bool) -> int:
    """The flags byte DataSketches C++ writes in serial version 3."""
    f = Flags.COMPACT | Flags.READ_ONLY
    if empty:
        f |= Flags.EMPTY
    if ordered:
        f |= Flags.ORDERED
    return int(f)


def canonical_pre_longs(empty: bool, num_retained: int, theta_long: int) -> int:
    """Preamble longs of serial version 3 as DataSketches C++ writes them."""
    if not empty and theta_long < MAX_THETA:
        return 3
    return 1 if empty or num_retained == 1 else 2


def _hash_array(values: Iterable[int] | npt.NDArray[Any]) -> npt.NDArray[np.uint64]:
    """``values`` as a read-only uint64 array (no copy when it already is one)."""
    if isinstance(values, np.ndarray):
        arr = values if values.dtype == np.uint64 else values.astype(np.uint64)
    else:
        arr = np.array(values if isinstance(values, (list, tuple)) else list(values), dtype=np.uint64)
    arr = arr.reshape(-1)
    if arr.flags.writeable:
        arr = arr.view()
        arr.flags.writeable = False
    return arr


class _Hashes:
    """The ``entries`` field: stored as a read-only uint64 array (``_hashes``), read back as a tuple of ints."""

    def __get__(self, obj: object, objtype: type | None = None) -> tuple[int, ...]:
        if obj is None:
            raise AttributeError("entries")  # a dataclass field without a default
        hashes: npt.NDArray[np.uint64] = obj.__dict__["_hashes"]
        return tuple(hashes.tolist())

    def __set__(self, obj: object, value: Iterable[int] | npt.NDArray[Any]) -> None:
        obj.__dict__["_hashes"] = _hash_array(value)


@dataclass(frozen=True)
class ThetaSketch:
    """A compact Theta sketch (read with :meth:`from_bytes`, built with :meth:`from_hashes`)."""

    #: The retained hashes, as stored (ascending when ``ordered``): a tuple of ints built on each access
    #: (any iterable of ints or a NumPy integer array when constructing; :attr:`hashes` is the stored array).
    entries: _Hashes = _Hashes()
    #: Theta as a 64-bit integer; ``MAX_THETA`` means 1.0 (exact mode).
    theta_long: int = MAX_THETA
    #: 16-bit hash of the update seed (Java writes 0 in empty sketches).
    seed_hash: int = DEFAULT_SEED_HASH
    #: The sketch has seen no items.
    empty: bool = False
    #: ``entries`` are in ascending order.
    ordered: bool = True
    #: Serial version the sketch was read from (1 to 4), or 3 for a built one.
    serial_version: int = field(default=3, compare=False)
    #: Preamble longs as read (byte 0, bits 0-5); canonical for built sketches.
    pre_longs: int = field(default=0, compare=False)
    #: The raw flags byte (byte 5) as read; canonical for built sketches. In
    #: serial versions 1 and 2 byte 5 is unused and this is whatever it holds.
    flags: int = field(default=-1, compare=False)
    #: Bytes 12-15 of serial version 3 (the update sketch's sampling probability),
    #: kept so that re-serializing reproduces the input: C++ and current Java write
    #: 0.0, Iceberg 1.10 and Trino 1.0. Unused by compact sketches.
    p: float = field(default=0.0, compare=False)

    def __post_init__(self) -> None:
        if self.pre_longs == 0:
            object.__setattr__(self, "pre_longs", canonical_pre_longs(self.empty, self.num_retained, self.theta_long))
        if self.flags == -1:
            object.__setattr__(self, "flags", canonical_flags(self.empty, self.ordered))

    # -- reading and writing ----------------------------------------------------------------
    @classmethod
    def from_bytes(
        cls,
        data: SourceLike,
        *,
        seed: int | None = DEFAULT_SEED,
        allow_trailing: bool = False,
        max_entries: int | None = None,
    ) -> ThetaSketch:
        """Parse and check a serialized compact sketch (serial version 1 to 4).

        ``seed`` is the update seed the sketch must have been built with (its
        seed hash is checked unless the sketch is empty); ``None`` skips that
        check. Bytes after the sketch raise ``theta_compact.trailing-bytes``
        unless ``allow_trailing``. A sketch holding more than ``max_entries``
        hashes (at most 2^27; by default max(2^23, the input's size in bytes), so that
        unpacking costs at most max(64 MiB, 8 x the input)) raises ``theta_compact.num-entries-limit``
        (a :class:`~lakestruct.errors.LimitError`) before they are unpacked. Any
        violation raises a :class:`~lakestruct.errors.FormatError` subclass.
        """
        from .read import read_theta

        return read_theta(data, seed=seed, allow_trailing=allow_trailing, max_entries=max_entries)

    @classmethod
    def from_hashes(
        cls,
        hashes: object,
        *,
        theta: int | float = MAX_THETA,
        seed: int = DEFAULT_SEED,
        ordered: bool = True,
        empty: bool | None = None,
    ) -> ThetaSketch:
        """A compact sketch retaining ``hashes`` (distinct ints in ``(0, theta)``).

        ``theta`` is the 64-bit threshold (an ``int`` up to ``MAX_THETA``) or a
        fraction in ``(0, 1]`` (a ``float``). ``empty`` defaults to "no hashes and
        theta 1.0". With ``ordered=False`` the hashes keep the given order.
        """
        from .write import build_sketch

        return build_sketch(hashes, theta=theta, seed=seed, ordered=ordered, empty=empty)

    def to_bytes(self, serial_version: int = 3) -> bytes:
        """Serialize as DataSketches C++ does (``serialize()`` / ``serialize(compressed=True)``).

        ``serial_version=4`` writes the compressed form when the sketch allows it
        (ordered, at least one hash, and not a single hash in exact mode) and
        falls back to version 3 otherwise, exactly like C++.
        """
        from .write import serialize

        return serialize(self, serial_version)

    # -- derived values ---------------------------------------------------------------------
    @property
    def hashes(self) -> npt.NDArray[np.uint64]:
        """The retained hashes as stored: a read-only uint64 array (no copy)."""
        arr: npt.NDArray[np.uint64] = self.__dict__["_hashes"]
        return arr

    @property
    def num_retained(self) -> int:
        return int(self.hashes.size)

    @property
    def theta(self) -> float:
        """Theta as a fraction of the hash space (computed as DataSketches C++ does)."""
        return float(self.theta_long) / float(MAX_THETA)

    @property
    def is_estimation_mode(self) -> bool:
        return not self.empty and self.theta_long < MAX_THETA

    @property
    def compact(self) -> bool:
        """The COMPACT flag (always true for serial versions 1 and 2, which have no flags)."""
        return self.serial_version < 3 or bool(self.flags & Flags.COMPACT)

    @property
    def read_only(self) -> bool:
        return self.serial_version < 3 or bool(self.flags & Flags.READ_ONLY)

    @property
    def single_item(self) -> bool:
        """One hash in exact mode: the 16-byte form (Java sets the SINGLEITEM flag, C++ does not)."""
        return not self.empty and self.num_retained == 1 and self.theta_long == MAX_THETA

    def estimate(self) -> float:
        """Estimated number of distinct items: ``num_retained / theta`` (0 when empty)."""
        if self.empty:
            return 0.0
        return self.num_retained / self.theta

    def lower_bound(self, num_std_devs: int = 2) -> float:
        """Approximate lower bound of the distinct count at 1, 2 or 3 standard deviations."""
        if self.empty:
            return 0.0
        return bounds.lower_bound(self.num_retained, self.theta, num_std_devs)

    def upper_bound(self, num_std_devs: int = 2) -> float:
        """Approximate upper bound of the distinct count at 1, 2 or 3 standard deviations."""
        if self.empty:
            return 0.0
        return bounds.upper_bound(self.num_retained, self.theta, num_std_devs)

    def summary(self) -> dict[str, object]:
        """The sketch's main values as a JSON-ready dict."""
        return {
            "serial_version": self.serial_version,
            "pre_longs": self.pre_longs,
            "flags": f"0x{self.flags:02x}",
            "empty": self.empty,
            "ordered": self.ordered,
            "estimation_mode": self.is_estimation_mode,
            "seed_hash": self.seed_hash,
            "num_retained": self.num_retained,
            "theta": self.theta,
            "theta64": self.theta_long,
            "estimate": self.estimate(),
            "lower_bound_2sd": self.lower_bound(2),
            "upper_bound_2sd": self.upper_bound(2),
        }

    def __str__(self) -> str:
        mode = "empty" if self.empty else ("estimation" if self.is_estimation_mode else "exact")
        return (
            f"ThetaSketch(v{self.serial_version}, {mode}, retained={self.num_retained}, theta={self.theta:.6g}, "
            f"estimate={self.estimate():.6g}, seed_hash=0x{self.seed_hash:04x})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ThetaSketch):
            return NotImplemented
        return (self.theta_long, self.seed_hash, self.empty, self.ordered) == (
            other.theta_long,
            other.seed_hash,
            other.empty,
            other.ordered,
        ) and np.array_equal(self.hashes, other.hashes)

    def __hash__(self) -> int:
        h = self.hashes
        ends = (int(h[0]), int(h[-1])) if h.size else ()
        return hash((self.theta_long, self.seed_hash, self.empty, self.ordered, int(h.size), ends))

    def __repr__(self) -> str:
        n = self.num_retained
        head = ", ".join(str(e) for e in self.hashes[:3].tolist()) + (", ..." if n > 3 else "")
        return (
            f"ThetaSketch(entries=({head}) [{n}], theta_long={self.theta_long}, "
            f"seed_hash=0x{self.seed_hash:04x}, empty={self.empty}, ordered={self.ordered}, "
            f"serial_version={self.serial_version}, pre_longs={self.pre_longs}, flags=0x{self.flags:02x})"
        )
