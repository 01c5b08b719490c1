"""Deletion vectors: Iceberg ``deletion-vector-v1`` blobs, Delta Lake DV files, Paimon DV index files.

>>> import lakestruct as ls                                              # doctest: +SKIP
>>> dvs = ls.deletes.read_deletion_vectors("x.puffin")                  # {data file: DeletionVector}
>>> dv = ls.deletes.read_deletion_vector("x.puffin", offset=4, length=46)  # as a manifest records it
>>> dv = ls.deletes.DeletionVector.from_blob(raw_bytes)                 # a bare blob
>>> dv.cardinality, dv.positions(), dv.contains(7), dv.bitmap
>>> blob = ls.deletes.encode_deletion_vector_blob([1, 3, 5])             # bytes identical to Iceberg Java's
"""

from __future__ import annotations

from .model import MAGIC, MAX_POSITION, DeletionVector
from .read import (
    PAIMON_MAGIC32,
    PaimonEntry,
    check_blob_metadata,
    check_one_per_data_file,
    decode_blob,
    decode_within_cardinality,
    read_deletion_vector,
    read_deletion_vectors,
    read_delta_deletion_vector,
    read_dv_blob,
    read_paimon_deletion_vector,
    read_paimon_deletion_vectors,
)
from .write import (
    DV_FIELDS,
    blob_properties,
    check_positions,
    encode_deletion_vector,
    encode_deletion_vector_blob,
    encode_delta_dv_file,
    wrap_vector,
)

#: Alias: decode a blob's bytes to sorted int64 positions.
decode_deletion_vector_blob = decode_blob

__all__ = [
    "DV_FIELDS",
    "MAGIC",
    "MAX_POSITION",
    "PAIMON_MAGIC32",
    "DeletionVector",
    "PaimonEntry",
    "blob_properties",
    "check_blob_metadata",
    "check_one_per_data_file",
    "check_positions",
    "decode_blob",
    "decode_deletion_vector_blob",
    "decode_within_cardinality",
    "encode_deletion_vector",
    "encode_deletion_vector_blob",
    "encode_delta_dv_file",
    "read_deletion_vector",
    "read_deletion_vectors",
    "read_dv_blob",
    "read_delta_deletion_vector",
    "read_paimon_deletion_vector",
    "read_paimon_deletion_vectors",
    "wrap_vector",
]
