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

from .reader import DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_RECORDS, Spec
from .runtime import Bundle
from .toolchain import COMPILER_VERSION, Compiled, KaitaiCompileError, KaitaiToolchainError, compile

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
