"""Any Kaitai Struct spec, compiled and read as rows: ``lakestruct gen`` and the ``kaitai`` Spark source.

>>> from lakestruct import kaitai                                                  # doctest: +SKIP
>>> kaitai.compile(["pcap.ksy"], "out", import_dirs=["kaitai_struct_formats"])   # like `lakestruct gen`
>>> spec = kaitai.Spec.from_ksy("pcap.ksy", import_dirs=["kaitai_struct_formats"])
>>> spec.schema(root="packets")                                                  # the Arrow schema, no data read
>>> list(spec.rows("capture.pcap", root="packets"))                              # one dict per packet

:mod:`.toolchain` runs the pinned npm compiler, :mod:`.model` derives schemas from the specs, :mod:`.runtime`
runs generated parsers shipped as strings and :mod:`.walk` turns parsed objects into rows. docs/kaitai.md
describes the type mapping, the options and the limits.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .toolchain import COMPILER_VERSION, Compiled, KaitaiCompileError, KaitaiToolchainError, compile

if TYPE_CHECKING:
    from .reader import DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_RECORDS, Spec
    from .runtime import Bundle

#: names from the modules that need pyarrow (lakestruct[spark]), imported on first use: ``compile`` (and so
#: ``lakestruct gen``) works with the base install
_LAZY = {"DEFAULT_MAX_FILE_BYTES": "reader", "DEFAULT_MAX_RECORDS": "reader", "Spec": "reader", "Bundle": "runtime"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "COMPILER_VERSION",
    "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_MAX_RECORDS",
    "Bundle",
    "Compiled",
    "KaitaiCompileError",
    "KaitaiToolchainError",
    "Spec",
    "compile",
]
