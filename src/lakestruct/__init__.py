"""lakestruct: the binary files of a data lake, readable, checkable and writable from declarative specs."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__
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
    "avro",
    "deletes",
    "delta",
    "iceberg",
    "paimon",
    "parquet",
    "puffin",
    "roaring",
    "scan",
    "sketches",
    "tables",
]


if TYPE_CHECKING:
    from . import avro, deletes, delta, iceberg, paimon, parquet, puffin, roaring, scan, sketches, tables

#: the format rooms (and ``scan``, which uses them all), imported on first use (``lakestruct.parquet``): a Spark
#: worker that only plans a read, or a command that reads one format, does not pay for importing every room (~0.35 s)
_LAZY = frozenset({"avro", "deletes", "delta", "iceberg", "paimon", "parquet", "puffin", "roaring", "scan", "sketches", "tables"})


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'lakestruct' has no attribute {name!r}")


def twins() -> dict[str, str]:
    """Which twin of each module with a compiled (Cython) version is in use: ``"compiled"``, or ``"pure"``
    (the pure-Python/NumPy twin, used when the package was built without Cython or a C compiler).

    ``roaring``: the Roaring and deletion-vector decoder (``roaring/_decode_c.pyx``); ``thrift``: the
    Thrift compact decoder behind Parquet footers and page headers (``thrift/_compact_c.pyx``); ``avro``: the
    Avro block decoder of table manifests (``avro/_plan_c.pyx``; the pure twin is fastavro plus the reader's
    checked conversion), also listed as ``paimon``, the name it had when only Paimon used it; ``delta``: the
    scan of Delta JSON log lines (``delta/_replay_c.pyx``; the pure twin matches them with a regular expression);
    ``chunks``: the row loop of the ``parquet_chunks`` Spark source (``spark/_chunks_c.pyx``; found without importing
    the Spark extra). ``lakestruct --version`` prints the same.
    """
    import importlib.util
    import sys

    from ._twins import forced_pure
    from .avro.plan import COMPILED as AVRO_COMPILED
    from .delta.log import COMPILED as DELTA_COMPILED
    from .roaring.read import HAVE_C
    from .thrift.typed import COMPILED

    def kind(compiled: bool) -> str:
        return "compiled" if compiled else "pure"

    return {"roaring": kind(HAVE_C), "thrift": kind(COMPILED), "avro": kind(AVRO_COMPILED), "paimon": kind(AVRO_COMPILED),
            "delta": kind(DELTA_COMPILED),
            "chunks": kind(not forced_pure("chunks") and sys.byteorder == "little"
                           and importlib.util.find_spec("lakestruct.spark._chunks_c") is not None)}
