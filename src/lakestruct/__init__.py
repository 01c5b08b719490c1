"""lakestruct: the binary files of a data lake, readable, checkable and writable from declarative specs."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("lakestruct")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

from . import deletes, parquet, puffin, roaring, sketches
from .errors import (
    ChecksumError,
    DecompressionError,
    FormatError,
    LakestructError,
    LimitError,
    MagicError,
    SourceError,
    TruncatedError,
    UsageError,
)

__all__ = [
    "ChecksumError",
    "DecompressionError",
    "FormatError",
    "LakestructError",
    "LimitError",
    "MagicError",
    "SourceError",
    "TruncatedError",
    "UsageError",
    "__version__",
    "deletes",
    "parquet",
    "puffin",
    "roaring",
    "sketches",
]
