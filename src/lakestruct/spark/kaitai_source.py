"""The ``kaitai`` source: any Kaitai Struct spec as a table.

``spark.read.format("kaitai").option("spec", "pcap.ksy").option("import_path", DIR).option("root", "packets")
.load(PATHS)``: ``prepare`` compiles the spec once on the driver (the pinned npm compiler, see
:mod:`lakestruct.kaitai.toolchain`) and puts the generated modules and the parsed specs into the options as one
JSON string, so executors import the parsers from memory and need neither node, nor the ``.ksy`` files, nor a
shared folder. The schema is derived from the spec alone (:mod:`lakestruct.kaitai.model`); each file is one
input unit; a file that breaks the spec gives its rows read so far, then an error row. docs/kaitai.md has the
type mapping, the options and the limits.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pyarrow as pa

from ..errors import UsageError
from ..kaitai import DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_RECORDS, Bundle, Spec
from .rowsource import Chunk, Options, RowSource, option_bool, option_int

__all__ = ["KAITAI", "prepare"]

_BUNDLE = "_kaitai_bundle"
_SPECS: dict[str, Spec] = {}
_COMPILED: dict[tuple[str, str], str] = {}
_LOCK = threading.Lock()


def _import_dirs(options: Options) -> list[str]:
    raw = options.get("import_path") or ""
    return [p.strip() for chunk in raw.split(",") for p in chunk.split(os.pathsep) if p.strip()]


def prepare(options: Options) -> Options:
    """Compile the ``spec`` option (a .ksy path or a module ``lakestruct gen`` wrote) once; the result travels
    in the options as plain text."""
    if options.get(_BUNDLE):
        return options
    spec = (options.get("spec") or "").strip()
    if not spec:
        raise UsageError('kaitai: option spec is required: .option("spec", "path/to/x.ksy") or a generated module name')
    key = (spec, options.get("import_path") or "")
    with _LOCK:
        text = _COMPILED.get(key)
        if text is None:
            s = Spec.open(spec, import_dirs=_import_dirs(options))
            text = s.bundle.to_json()
            _COMPILED[key] = text
            _SPECS[text] = s
    return {**options, _BUNDLE: text}


def _spec(options: Options) -> Spec:
    text = options.get(_BUNDLE)
    if not text:
        text = prepare(options)[_BUNDLE]
    s = _SPECS.get(text)
    if s is None:
        with _LOCK:
            s = _SPECS.get(text)
            if s is None:
                s = Spec(Bundle.from_json(text))
                _SPECS[text] = s
    return s


def _instances(options: Options) -> list[str] | None:
    raw = (options.get("instances") or "").strip()
    if not raw or raw.lower() in ("none", "false"):
        return None
    return [p.strip() for p in raw.split(",") if p.strip()]


def _u8(options: Options) -> str:
    v = (options.get("u8") or "decimal").strip().lower()
    if v not in ("decimal", "long"):
        raise UsageError(f"option u8 must be decimal or long, found {v!r}")
    return v


def _schema(options: Options) -> pa.Schema:
    if not options.get(_BUNDLE) and not options.get("spec"):
        return pa.schema([])  # no spec: only the file and error columns (the docs show this)
    return _spec(options).schema(
        root=options.get("root") or "", instances=_instances(options), u8=_u8(options), positions=option_bool(options, "positions")
    )


def _rows(path: str, options: Options) -> Iterator[Chunk]:
    """Arrow record batches built column by column (:meth:`Spec.batches`); rows carrying an error stay dicts."""
    s = _spec(options)
    max_records = option_int(options, "max_records", DEFAULT_MAX_RECORDS)
    max_bytes = option_int(options, "max_file_bytes", DEFAULT_MAX_FILE_BYTES)
    yield from s.batches(
        path,
        root=options.get("root") or "",
        instances=_instances(options),
        u8=_u8(options),
        positions=option_bool(options, "positions"),
        max_records=DEFAULT_MAX_RECORDS if max_records is None else max_records,
        max_file_bytes=DEFAULT_MAX_FILE_BYTES if max_bytes is None else max_bytes,
    )


KAITAI = RowSource(
    name="kaitai",
    schema=_schema,
    rows=_rows,
    prepare=prepare,
    options={
        "spec": "required: a .ksy file (compiled once on the driver; needs Node.js and the npm compiler there), "
        "or a module `lakestruct gen` wrote: its .py file, or its name when Spark's Python can import it",
        "import_path": "folders (comma-separated) that imports such as /network/ethernet_frame resolve against",
        "root": "dotted path of the repeated field whose items become rows (packets); default: one row per file",
        "instances": "comma-separated instance names (or type.name) to add as columns, or all; default none",
        "positions": "true: every structure gets __offset and __size columns",
        "u8": "decimal (default: u8 as decimal(20,0)) or long (bigint holding the same 64 bits)",
        "max_records": f"records per file before the rest becomes a kaitai.record-limit error (default {DEFAULT_MAX_RECORDS})",
        "max_file_bytes": f"larger files give one kaitai.file-size error row (default {DEFAULT_MAX_FILE_BYTES})",
    },
    doc="Any Kaitai Struct spec as a table (option `spec`; docs/kaitai.md). The data columns are derived from the "
    "spec and the options (`root`, `instances`, `positions`, `u8`), so they are not listed here: one row per file "
    "with a column per field of the root type, or with `root` one row per item of that repeated field, `__index` "
    "first. A file that breaks the spec gives the rows read before the failure, then an error row.",
)
