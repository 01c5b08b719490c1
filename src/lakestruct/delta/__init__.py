"""Delta Lake tables from their bytes: the ``_delta_log`` replayed (JSON commits, classic, multi-part and V2
checkpoints with sidecars, log compactions, ``_last_checkpoint``), the live files of any version and their deletion
vectors (UUID-named files, absolute paths, inline Z85) decoded and held to their descriptors.

>>> import lakestruct as ls                                   # doctest: +SKIP
>>> t = ls.delta.open_table("warehouse/t")                   # or version=N; local, file:// or any fsspec URL
>>> t.format, t.root, t.version, [s.id for s in t.snapshots()]
>>> st = t.state()                                           # ls.tables.TableState, one LiveFile per live add
>>> [(f.path, f.record_count, f.deleted_rows, f.live_rows) for f in st.data_files]
>>> t.orphans(), t.check()                                   # ls.tables.Orphan, FormatError
"""

from __future__ import annotations

from . import z85
from .log import LogListing, Replay, list_log, read_checkpoint_rows, replay
from .model import ACTIONS, AddFile, CommitInfo, DvDescriptor, LogFile, Metadata, Protocol, RemoveFile, Where
from .read import DV_MAGIC, INLINE, Table, dv_location, open_table, parse_dv, read_dv, resolve

__all__ = [
    "ACTIONS",
    "DV_MAGIC",
    "INLINE",
    "AddFile",
    "CommitInfo",
    "DvDescriptor",
    "LogFile",
    "LogListing",
    "Metadata",
    "Protocol",
    "RemoveFile",
    "Replay",
    "Table",
    "Where",
    "dv_location",
    "list_log",
    "open_table",
    "parse_dv",
    "read_checkpoint_rows",
    "read_dv",
    "replay",
    "resolve",
    "z85",
]
