"""Tables, not just files: the table-neutral model every table room fills, and finding tables on storage.

>>> import lakestruct as ls                               # doctest: +SKIP
>>> ls.tables.detect("warehouse/db/t")                   # "iceberg", "paimon", "delta" or None
>>> t = ls.tables.open("warehouse/db/t")                 # the room's table object (ls.iceberg / ls.paimon / ls.delta)
>>> ls.tables.find_roots(["warehouse/"])                 # {root: format} of every table below the paths

A table is recognised by its layout: Iceberg by ``metadata/*.metadata.json`` (or ``metadata/version-hint.text``),
Paimon by ``snapshot/`` and ``schema/`` holding ``snapshot-N`` / ``schema-N`` files, Delta by ``_delta_log/``.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterable
from typing import Any

from .._plugins import TABLE_FORMAT_MODULES
from ..errors import SourceError, UsageError
from .model import DELETE_KINDS, DeleteFile, LiveFile, Orphan, SnapshotInfo, Table, TableState, TableSummary, summarize

__all__ = [
    "DELETE_KINDS",
    "FORMATS",
    "DeleteFile",
    "LiveFile",
    "Orphan",
    "SnapshotInfo",
    "Table",
    "TableState",
    "TableSummary",
    "detect",
    "find_roots",
    "open",
    "root_of",
    "summarize",
]

#: the table formats, in the order roots are recognised
FORMATS = ("iceberg", "delta", "paimon")

_ICEBERG = re.compile(r"^(?P<root>.*)/metadata/(?:[^/]*\.metadata\.json(?:\.gz)?|version-hint\.text)$")
_DELTA = re.compile(r"^(?P<root>.*)/_delta_log/[^/]+$")
_PAIMON = re.compile(r"^(?P<root>.*)/(?P<dir>snapshot|schema)/(?:snapshot|schema)-\d+$")


def root_of(path: str) -> tuple[str, str] | None:
    """(table root, format) when ``path`` is a file that marks a table root, else None."""
    p = path.replace(os.sep, "/") if os.sep != "/" else path
    for fmt, rx in (("iceberg", _ICEBERG), ("delta", _DELTA), ("paimon", _PAIMON)):
        m = rx.match(p)
        if m:
            return m.group("root"), fmt
    return None


def find_roots(files: Iterable[str]) -> dict[str, str]:
    """{table root: format} of the tables whose marker files are among ``files`` (a listing, e.g. from
    :func:`lakestruct.source.list_files`). A Paimon root needs both ``snapshot-N`` and ``schema-N`` files."""
    out: dict[str, str] = {}
    paimon: dict[str, set[str]] = {}
    for f in files:
        hit = root_of(f)
        if hit is None:
            continue
        root, fmt = hit
        if fmt == "paimon":
            m = _PAIMON.match(f.replace(os.sep, "/"))
            assert m is not None
            paimon.setdefault(root, set()).add(m.group("dir"))
            if len(paimon[root]) == 2:
                out.setdefault(root, fmt)
        else:
            out.setdefault(root, fmt)
    return dict(sorted(out.items()))


def detect(path: str | os.PathLike[str]) -> str | None:
    """The table format of the directory ``path`` ("iceberg", "delta", "paimon"), or None."""
    from ..source import list_files

    p = os.fspath(path).rstrip("/")
    local = p[7:] if p.startswith("file://") else p
    if "://" not in local:
        if not os.path.isdir(local):
            return None
        if os.path.isdir(os.path.join(local, "_delta_log")):
            return "delta"
        meta = os.path.join(local, "metadata")
        if os.path.isdir(meta) and any(n.endswith((".metadata.json", ".metadata.json.gz")) or n == "version-hint.text"
                                       for n in os.listdir(meta)):
            return "iceberg"
        if os.path.isdir(os.path.join(local, "snapshot")) and os.path.isdir(os.path.join(local, "schema")):
            return "paimon"
        return None
    found: set[str] = set()
    for sub in ("_delta_log", "metadata", "snapshot", "schema"):
        try:
            listed = list_files([f"{p}/{sub}"])
        except SourceError:
            continue
        for f, _ in listed:
            hit = root_of(f)
            if hit is not None:
                found.add(hit[1] if hit[1] != "paimon" else f"paimon-{sub}")
    if "delta" in found:
        return "delta"
    if "iceberg" in found:
        return "iceberg"
    if {"paimon-snapshot", "paimon-schema"} <= found:
        return "paimon"
    return None


def open(path: str | os.PathLike[str], *, format: str | None = None) -> Any:
    """The table at ``path`` opened by its room (``ls.iceberg.open_table``, ``ls.paimon.open_table`` or
    ``ls.delta.open_table``); ``format`` skips detection."""
    fmt = format or detect(path)
    if fmt is None:
        raise SourceError(f"{os.fspath(path)}: not an Iceberg, Delta or Paimon table root")
    if fmt not in FORMATS:
        raise UsageError(f"unknown table format {fmt!r}: one of {', '.join(FORMATS)}")
    room = importlib.import_module(TABLE_FORMAT_MODULES[fmt])  # the rooms build on this one: named by the composition root
    return room.open_table(path)
