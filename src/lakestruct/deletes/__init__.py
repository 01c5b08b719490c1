"""Deletion vectors: Iceberg deletion-vector-v1 blobs, Delta and Paimon envelopes."""
