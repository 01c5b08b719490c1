"""lakestruct: the binary files of a data lake, readable, checkable and writable from declarative specs."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("lakestruct")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

from . import deletes, paimon, parquet, puffin, roaring, sketches
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
    "twins",
    "deletes",
    "paimon",
    "parquet",
    "puffin",
    "roaring",
    "sketches",
]


def twins() -> dict[str, str]:
    """Which twin of each module with a compiled (Cython) version is in use: ``"compiled"``, or ``"pure"``
    (the pure-Python/NumPy twin, used when the package was built without Cython or a C compiler).

    ``roaring``: the Roaring and deletion-vector decoder (``roaring/_decode_c.pyx``); ``thrift``: the
    Thrift compact decoder behind Parquet footers and page headers (``thrift/_compact_c.pyx``).
    ``lakestruct --version`` prints the same.
    """
    from .roaring.read import HAVE_C
    from .thrift.typed import COMPILED

    return {"roaring": "compiled" if HAVE_C else "pure", "thrift": "compiled" if COMPILED else "pure"}
