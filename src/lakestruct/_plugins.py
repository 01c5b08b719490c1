"""The built-in extensions of the container rooms, named once: the composition root.

:mod:`lakestruct.puffin` is the container and knows no blob type: a room that builds on it registers a
:class:`lakestruct.puffin.BlobType` for the blob type it decodes (``lakestruct.puffin.register_blob_type``), and
imports Puffin, never the other way round. ``BLOB_TYPE_MODULES`` names, for each blob type the Puffin spec defines,
the module whose import registers it; Puffin imports it by this name the first time a blob of that type is decoded
(``PuffinReader.check()``, ``puffin.decode.check_blobs``) or written (``PuffinWriter.add_deletion_vector``), so
those decode whatever the program imported first. This table is the only place that wires a room into Puffin;
``tests/test_structure.py`` checks that each module named here imports Puffin and that Puffin imports none of them.

Likewise :mod:`lakestruct.tables` (the table-neutral model the table rooms fill) opens a table by its room
(``ls.tables.open``) through ``TABLE_FORMAT_MODULES``, and never imports a table room itself.
"""

from __future__ import annotations

__all__ = ["BLOB_TYPE_MODULES", "TABLE_FORMAT_MODULES"]

#: blob type -> the module that registers its handler in :mod:`lakestruct.puffin.decode` when imported
BLOB_TYPE_MODULES: dict[str, str] = {
    "deletion-vector-v1": "lakestruct.deletes.blob",
    "apache-datasketches-theta-v1": "lakestruct.sketches.blob",
}

#: table format -> the room whose ``open_table`` :func:`lakestruct.tables.open` calls (each builds on lakestruct.tables)
TABLE_FORMAT_MODULES: dict[str, str] = {
    "iceberg": "lakestruct.iceberg",
    "delta": "lakestruct.delta",
    "paimon": "lakestruct.paimon",
}
