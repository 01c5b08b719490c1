"""Puffin files (Apache Iceberg): read the footer with one tail read, read blobs,
check every rule of the spec, and write spec-perfect files atomically.

>>> import lakestruct as ls                                  # doctest: +SKIP
>>> pf = ls.puffin.open("x.puffin")
>>> pf.properties["created-by"], [b.type for b in pf.blobs]
>>> pf.read_blob(pf.blobs[0])          # decompressed; raw=True for the stored bytes
"""

from __future__ import annotations

from .model import DELETION_VECTOR_V1, MAGIC, THETA_V1, BlobMetadata, FooterInfo, PuffinFile
from .read import DEFAULT_TAIL_HINT, PuffinReader, open, parse_footer_payload, read
from .write import PuffinWriter, footer_payload_json

__all__ = [
    "DEFAULT_TAIL_HINT",
    "DELETION_VECTOR_V1",
    "MAGIC",
    "THETA_V1",
    "BlobMetadata",
    "FooterInfo",
    "PuffinFile",
    "PuffinReader",
    "PuffinWriter",
    "footer_payload_json",
    "open",
    "parse_footer_payload",
    "read",
]
