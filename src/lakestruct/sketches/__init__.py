"""Apache DataSketches compact Theta sketches (``apache-datasketches-theta-v1`` Puffin blobs).

Read any serial version (1 to 4) with :meth:`ThetaSketch.from_bytes`, build one
from hashes with :meth:`ThetaSketch.from_hashes`, and write it byte-identically
to DataSketches C++/Python with :meth:`ThetaSketch.to_bytes` (3, or 4 for the
compressed form). :func:`check_ndv` compares a Puffin ``ndv`` property with
the decoded estimate.
"""

from __future__ import annotations

from .bounds import lower_bound, upper_bound
from .model import DEFAULT_SEED_HASH, MAX_THETA, Flags, ThetaSketch
from .murmur3 import DEFAULT_SEED, compute_seed_hash, hash_item, murmur3_x64_128
from .ndv import NdvCheck, check_ndv, compare_ndv, iceberg_ndv, theta_blob_report
from .read import read_theta

__all__ = [
    "DEFAULT_SEED",
    "DEFAULT_SEED_HASH",
    "MAX_THETA",
    "Flags",
    "NdvCheck",
    "ThetaSketch",
    "check_ndv",
    "compare_ndv",
    "compute_seed_hash",
    "hash_item",
    "iceberg_ndv",
    "lower_bound",
    "murmur3_x64_128",
    "read_theta",
    "theta_blob_report",
    "upper_bound",
]
